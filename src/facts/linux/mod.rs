//! Linux facts: sysfs, procfs, lsblk, dm tables, mountinfo, libata link and IDENTIFY words.

use crate::evidence::{EvidenceBundle, Platform};
use crate::facts::SystemFacts;

pub fn derive(_bundle: &EvidenceBundle) -> SystemFacts {
    SystemFacts::empty(Platform::Linux)
}
