//! Probes: the only stage that touches the system, always through a [`Host`].
//!
//! `collect` walks what there is to capture for the host's platform. Run against a
//! `LiveHost` it records a bundle; against a `ReplayHost` it re-reads the same bundle.

use crate::host::Host;
use diskdoc_core::evidence::{EvidenceBundle, Platform};

pub mod freebsd;
pub mod linux;
pub mod linux_device_state;
pub use diskdoc_core::plan;

/// What to probe.
#[derive(Debug, Clone, Default)]
pub struct ProbeOptions {
    /// Only this device (name or /dev path); all disks when None.
    pub device: Option<String>,
    /// Also run slower tools (smartctl, hdparm, kernel log).
    pub with_tools: bool,
}

/// Capture everything for the host's platform.
pub fn collect(host: &mut dyn Host, opts: &ProbeOptions) {
    match host.platform() {
        Platform::Linux => linux::collect(host, opts),
        Platform::Freebsd => freebsd::collect(host, opts),
        Platform::Unknown => {}
    }
}

/// With `--device`, FreeBSD's machine-wide captures (devlist, gpart, geli, confxml, dmesg,
/// mount -p, zpool status) keep only what is about that disk (probe only what was
/// asked). Linux captures are per device already.
pub fn scope_to_device(b: &mut EvidenceBundle, opts: &ProbeOptions) {
    let Some(dev) = opts.device.as_deref() else {
        return;
    };
    if b.platform != Platform::Freebsd {
        return;
    }
    let disk = freebsd_device_disk(b, dev);
    diskdoc_core::facts::freebsd::scope::scope_to_disk(b, &disk);
}

/// The FreeBSD disk `--device DEV` means in `b`: a partition, label, GELI provider, pool,
/// dataset or path resolved to the disk under it (facts::freebsd::target), a partition name the
/// bundle does not tie cut to its disk (ada0p9 -> ada0).
pub fn freebsd_device_disk(b: &EvidenceBundle, dev: &str) -> String {
    let target = diskdoc_core::facts::freebsd::target::resolve_target(b, dev);
    diskdoc_core::facts::device_names::whole_disk(target.trim_start_matches("/dev/"))
}

/// `replay --device DEV` of a FreeBSD bundle: the same scoping as the live probe, so the
/// replayed findings and the evidence the report embeds are about that disk alone. Only
/// for a disk the bundle lists: any other name is left to the caller's "no block device
/// named" error, with the bundle untouched. Returns the disk scoped to.
pub fn scope_replay_to_device(b: &mut EvidenceBundle, dev: &str) -> Option<String> {
    if b.platform != Platform::Freebsd {
        return None;
    }
    let disk = freebsd_device_disk(b, dev);
    if !diskdoc_core::facts::device_names::listed(b).contains(&disk) {
        return None;
    }
    diskdoc_core::facts::freebsd::scope::scope_to_disk(b, &disk);
    Some(disk)
}

pub use diskdoc_core::evidence::{hex_decode, hex_encode};

/// disk-busy: sample the bundle's disks for a second (Linux: two I/O-counter
/// readings, and the processes doing I/O when root) and add the captures to `bundle`.
/// Called before read/write tests; a plain scan does not pay the second.
pub fn add_busy_sample(bundle: &mut EvidenceBundle) {
    if bundle.platform == Platform::Freebsd {
        let mut host = crate::host::LiveHost::new();
        host.run(plan::freebsd::GSTAT_BUSY);
        for (k, v) in host.into_bundle().captures {
            bundle.captures.entry(k).or_insert(v);
        }
        return;
    }
    if bundle.platform != Platform::Linux {
        return;
    }
    let disks = bundle_disks(bundle);
    let mut host = crate::host::LiveHost::new();
    linux_device_state::temp_sample(&mut host, &disks, false);
    linux_device_state::busy_sample(&mut host, &disks);
    for (k, v) in host.into_bundle().captures {
        bundle.captures.entry(k).or_insert(v);
    }
}

fn bundle_disks(bundle: &EvidenceBundle) -> std::collections::BTreeSet<String> {
    bundle
        .captures
        .keys()
        .filter_map(|k| {
            k.strip_prefix("file:/sys/block/")
                .and_then(|r| r.strip_suffix("/size"))
                .filter(|n| !n.contains('/'))
                .map(str::to_string)
        })
        .collect()
}

/// thermal-throttling: read the drives' hwmon temperatures (NVMe composite,
/// drivetemp for SATA) into `bundle`; `after` = the reading taken after the tests (a second
/// key through /sys/dev/block/MAJ:MIN).
pub fn add_temp_sample(bundle: &mut EvidenceBundle, after: bool) {
    if bundle.platform != Platform::Linux {
        return;
    }
    let disks = bundle_disks(bundle);
    let mut host = crate::host::LiveHost::new();
    linux_device_state::temp_sample(&mut host, &disks, after);
    for (k, v) in host.into_bundle().captures {
        bundle.captures.entry(k).or_insert(v);
    }
}
