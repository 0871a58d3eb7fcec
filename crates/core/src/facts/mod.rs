//! Facts: a pure function from an evidence bundle to what diskdoc knows about the machine.
//!
//! Every fact is either known, with the capture keys it came from, or unknown with the reason.
//! The types live in [`crate::model`] (re-exported here); the derivations live here: `linux/`
//! from sysfs/procfs captures, `freebsd/` from the FreeBSD tools' captures, `pasted/` from
//! the outputs and sentences of pasted text (explain). All platforms' derivations compile
//! everywhere; only `derive` picks which to use.

use crate::evidence::{EvidenceBundle, Platform};

pub use crate::model::*;

/// The disk name `diskdoc explain` gives a pasted per-disk output that no line of the paste
/// ties to a device ("the pasted disk"); a second, different drive gets `pasted-disk2`.
pub const PASTED_DISK: &str = "pasted-disk";

/// The disk that stands for the NVMe drives Intel RST remapping hides behind an AHCI
/// controller (sources::kernel_log::remapped_nvme): they have no device node.
pub(crate) const RST_HIDDEN_NVME: &str = "rst-hidden-nvme";

/// Whether `name` is such a placeholder.
pub(crate) fn is_pasted_disk(name: &str) -> bool {
    name.strip_prefix(PASTED_DISK)
        .is_some_and(|r| r.chars().all(|c| c.is_ascii_digit()))
}

pub(crate) mod arrays;
pub mod device_names;
pub mod freebsd;
pub mod linux;
pub(crate) mod pasted;
pub(crate) mod soc;
pub(crate) mod zfs_trim;

/// Derive facts from a bundle. Pure: no I/O.
pub fn derive(bundle: &EvidenceBundle) -> SystemFacts {
    let mut sys = match bundle.platform {
        Platform::Linux => linux::derive(bundle),
        Platform::Freebsd => freebsd::derive(bundle),
        Platform::Unknown => {
            // Per-source facts that do not depend on the OS still hold when the platform
            // is unknown (a pasted `zpool status` on its own names no OS).
            let mut s = SystemFacts::empty(Platform::Unknown);
            let arrays = arrays::derive(bundle);
            if arrays.is_known() {
                s.arrays = arrays;
            }
            s.aes_driver = linux::system::aes_driver(bundle);
            s
        }
    };
    // Checks and reports never see a NaN rate (BenchResult::finite notes what it replaced).
    sys.benchmarks = bundle
        .benchmarks
        .iter()
        .cloned()
        .map(crate::evidence::BenchResult::finite)
        .collect();
    sys
}
