//! Linux probe: walks /sys/block and captures what facts::linux needs.

use crate::host::Host;
use crate::probe::ProbeOptions;

pub fn collect(_host: &mut dyn Host, _opts: &ProbeOptions) {}
