//! FreeBSD `derive`: bundle -> SystemFacts, pure. Each fact takes the best source present
//! (ioctl > diskinfo > camcontrol/atacontrol > dmesg > kern.geom.confxml) and keeps the
//! capture keys it came from; a missing source becomes an unknown with the reason.
//!
//! Split by fact family, as `facts/linux/` is: `captures` (the captures parsed once, read
//! helpers), `system` (machine-wide), `names` (which disks there are), then per disk
//! `identity`, `geometry`, `media` (rotation, TRIM), `controller` (controller, transport,
//! class, its PCIe link), `link` (SATA link), `queueing` (NCQ, tags), `write_cache`,
//! `partitions`, `stack` (GELI, ZFS layers and ashift), `mounts`, `smart`, `kernel`
//! (boot and running logs) and `device_state` (BIO_DELETE, NVMe health and link, busy
//! sample). `target` resolves `--device`, `scope` narrows a bundle to one disk.

use crate::evidence::{EvidenceBundle, Platform};
use crate::facts::{DiskFacts, Fact, LayerKind, SystemFacts};
use crate::plan::freebsd as plan;

mod captures;
mod controller;
pub mod device_state;
mod geometry;
mod identity;
mod kernel;
mod link;
mod media;
mod mounts;
mod names;
mod partitions;
mod queueing;
pub mod scope;
mod smart;
mod stack;
mod system;
pub mod target;
mod write_cache;

use captures::{DiskCaptures, Global};

pub(crate) fn derive(b: &EvidenceBundle) -> SystemFacts {
    let mut sys = SystemFacts::empty(Platform::Freebsd);
    // Pools resilvering or scrubbing (array-rebuilding).
    let zk = plan::ZPOOL_STATUS.key("");
    if let Some(t) = b.data(&zk) {
        sys.arrays = Fact::known(
            crate::facts::arrays::zfs_arrays(t, &zk.to_string()),
            zk.to_string(),
        );
    }
    let g = Global::gather(b);
    system::fill(&mut sys, &g);
    for name in names::disk_names(&g) {
        let mut d = derive_disk(&g, &name);
        names::stand_in(&g, &name, &mut d);
        device_state::disk(b, &name, &mut d);
        d.trim.fs_trim = device_state::fs_trim(b, &d.mounts);
        let pools: Vec<String> = d
            .layers
            .iter()
            .filter(|l| l.kind == Some(LayerKind::Zfs))
            .map(|l| l.name.clone())
            .collect();
        d.trim.zfs_autotrim = crate::facts::zfs_trim::autotrim(b, &pools);
        controller::controller_pcie(&g, &mut d);
        sys.disks.push(d);
    }
    sys
}

/// One disk's facts, family by family. The order matters where a family reads what an
/// earlier one found: the class reads the model and rotation, the SATA link the
/// transport, the tags NCQ support, the layers the partition table, the mounts the layers.
fn derive_disk(g: &Global, name: &str) -> DiskFacts {
    let mut d = DiskFacts::new(name, &format!("/dev/{name}"));
    not_applicable(&mut d);
    let c = DiskCaptures::gather(g, name);
    identity::fill(&c, &mut d);
    let lsz = geometry::fill(&c, &mut d);
    media::fill(&c, &mut d);
    let mode = controller::fill(&c, &mut d);
    controller::pio_transfers(&c, &mut d);
    link::fill(&c, mode, &mut d);
    queueing::ncq(&c, mode, &mut d);
    write_cache::fill(&c, &mut d);
    queueing::queue_depth(g, name, &mut d);
    media::ada_rotating(g, name, &mut d);
    d.partition_table = partitions::partition_table(g, name, lsz);
    partitions::partition_stripes(g, name, lsz, &mut d);
    d.layers = stack::layers(g, name, &d.partition_table);
    stack::zfs_ashift(g, &mut d);
    d.mounts = mounts::mounts_for(g, name, &d);
    smart::fill(&c, &mut d);
    d.kernel_events = kernel::kernel_events(g, name);
    d
}

/// Linux block-layer settings with no FreeBSD counterpart in the capture plan.
fn not_applicable(d: &mut DiskFacts) {
    d.scheduler = Fact::unknown("Linux I/O scheduler setting; not applicable on FreeBSD");
    d.nr_requests = Fact::unknown("Linux block-layer setting; not applicable on FreeBSD");
    d.queue_depth = Fact::unknown(format!(
        "`{}` is not in the capture plan",
        crate::sources::camcontrol_tags::SPEC.display
    ));
    d.link_limit_gbps = Fact::unknown(
        "FreeBSD sets SATA speed limits per channel (hint.ahcich.N.sata_rev); not captured",
    );
}
