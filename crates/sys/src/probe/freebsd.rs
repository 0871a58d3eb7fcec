//! FreeBSD probe: runs the capture plan (probe::plan::freebsd) through a Host.
//! Portable code: it only talks to a Host, so it is tested on Linux through ReplayHost.

use crate::host::Host;
use crate::probe::ProbeOptions;
use diskdoc_core::evidence::{Capture, EvidenceBundle, Origin, Platform};
use diskdoc_core::plan::{Item, Source, When, freebsd as plan};
use diskdoc_core::sources::{camcontrol_devlist, mount_p, sysctl, zfs_get, zpool};

/// A command that ran and exited 0 (a hand-written bundle's capture has no exit code).
/// Older zpool(8) prints the pool row and then fails on "all-vdevs" (exit 1): not a success.
fn succeeded(c: &Capture) -> bool {
    matches!(c, Capture::Ok { exit_code, .. } if exit_code.is_none_or(|e| e == 0))
}

/// Ask the host for one plan item.
fn capture(host: &mut dyn Host, item: &Item, disk: &str) -> Capture {
    match item.source {
        Source::Cmd(_) | Source::File(_) | Source::Sysctl(_) => match item.key(disk) {
            diskdoc_core::evidence::SourceKey::Command(argv) => {
                let refs: Vec<&str> = argv.iter().map(String::as_str).collect();
                host.run(&refs)
            }
            diskdoc_core::evidence::SourceKey::File(p) => host.read_file(&p),
            diskdoc_core::evidence::SourceKey::Sysctl(n) => host.sysctl(&n),
            _ => Capture::unavailable(
                diskdoc_core::evidence::Unavailable::Unsupported,
                "bad plan item",
            ),
        },
        Source::Ioctl(req) => host.ioctl(&format!("/dev/{disk}"), req),
    }
}

/// The disks to examine: kern.disks, else the CAM device list; filtered by `--device`.
pub fn disk_names(kern_disks: &Capture, devlist: &Capture, only: Option<&str>) -> Vec<String> {
    let mut names: Vec<String> = match kern_disks.data() {
        Some(v) => sysctl::disk_names(sysctl::bare_value(v, "kern.disks")),
        None => devlist
            .data()
            .map(|t| {
                camcontrol_devlist::parse(t)
                    .devices
                    .iter()
                    .filter_map(|d| d.disk().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default(),
    };
    names.retain(|n| plan::is_examined_disk(n));
    names.sort();
    names.dedup();
    if let Some(want) = only {
        // A partition or provider on a disk (ada0p2, ada0s1a, ada0p2.eli) means its disk.
        let want = want.trim_start_matches("/dev/");
        let disk = diskdoc_core::facts::device_names::whole_disk(want);
        names.retain(|n| n == want || *n == disk);
    }
    names
}

pub fn collect(host: &mut dyn Host, opts: &ProbeOptions) {
    let mut kern_disks = None;
    let mut devlist = None;
    let mut zfs_loaded = false;
    let mut zpool_status = None;
    let mut mounts = None;
    // The machine-wide answers, for resolving --device.
    let mut seen = EvidenceBundle::new(Platform::Freebsd, Origin::Live);
    for item in plan::GLOBAL {
        if !item.applies("", opts.with_tools) {
            continue;
        }
        // No zpool/zfs without zfs.ko: libzfs would kldload it (see plan::KLDSTAT_ZFS).
        if item.when == When::ZfsLoaded && !zfs_loaded {
            continue;
        }
        let cap = capture(host, item, "");
        seen.insert(&item.key(""), cap.clone());
        if *item == plan::KERN_DISKS {
            kern_disks = Some(cap);
        } else if *item == plan::DEVLIST {
            devlist = Some(cap);
        } else if *item == plan::KLDSTAT_ZFS {
            // kldstat -q exits 0 (an Ok capture) only when the module is loaded.
            zfs_loaded = succeeded(&cap);
        } else if *item == plan::ZPOOL_STATUS {
            zpool_status = Some(cap);
        } else if *item == plan::MOUNT_P {
            mounts = Some(cap);
        }
    }
    if zfs_loaded {
        collect_zfs(host, zpool_status.as_ref(), mounts.as_ref());
    }
    if opts.with_tools {
        collect_ufs_trim(host, mounts.as_ref());
    }
    let none = Capture::ok("");
    // --device may name a partition, label, GELI provider or a path: resolve it to its disk
    // from the machine-wide captures (core, pure), as `commands::resolve_device` does later.
    let device = opts
        .device
        .as_deref()
        .map(|d| diskdoc_core::facts::freebsd::target::resolve_target(&seen, d));
    let disks = disk_names(
        kern_disks.as_ref().unwrap_or(&none),
        devlist.as_ref().unwrap_or(&none),
        device.as_deref(),
    );
    let mut controllers: Vec<String> = Vec::new();
    for disk in &disks {
        for item in plan::PER_DISK {
            if item.applies(disk, opts.with_tools) {
                let cap = capture(host, item, disk);
                seen.insert(&item.key(disk), cap);
            }
        }
        // The NVMe health log and smartctl ask the controller node (smartctl refuses
        // /dev/nvdN, os_freebsd.cpp), found from this disk's own captures, never from its
        // unit number; a controller with several namespaces is asked once.
        let prefix = disk.trim_end_matches(|c: char| c.is_ascii_digit());
        if (prefix == "nvd" || prefix == "nda")
            && let Ok((ctrl, _)) =
                diskdoc_core::facts::freebsd::device_state::nvme_controller(&seen, disk)
            && !controllers.contains(&ctrl)
        {
            controllers.push(ctrl);
        }
    }
    for ctrl in &controllers {
        for item in plan::PER_NVME_CONTROLLER {
            if item.applies(ctrl, opts.with_tools) {
                capture(host, item, ctrl);
            }
        }
    }
}

/// Per-pool vdev ashift (zpool get ... all-vdevs, else zdb -C, else zdb -e -C) and the properties of the
/// mounted datasets (one `zfs get` naming them: no -r, no snapshots). Only called with
/// zfs.ko loaded.
fn collect_zfs(host: &mut dyn Host, status: Option<&Capture>, mounts: Option<&Capture>) {
    let pools = status
        .and_then(Capture::data)
        .map(|t| zpool::pool_members(t, zpool::DeviceNaming::FreeBsd))
        .unwrap_or_default();
    for pool in &pools {
        // Pool names start with a letter (zpool(8)); never pass anything option-like.
        if !pool.name.starts_with(|c: char| c.is_ascii_alphabetic()) {
            continue;
        }
        let got = capture(host, &plan::ZPOOL_ASHIFT, &pool.name);
        if succeeded(&got) {
            continue;
        }
        let zdb = capture(host, &plan::ZDB_CONFIG, &pool.name);
        // zdb's fatal "can't open 'POOL': ..." (cmd/zdb/zdb.c): the pool is not in the cache
        // file (cachefile=none); read its labels instead (plan::ZDB_CONFIG_SEARCH).
        if let Capture::Unavailable { detail, .. } = &zdb
            && detail.contains("can't open")
        {
            capture(host, &plan::ZDB_CONFIG_SEARCH, &pool.name);
        }
    }
    let datasets = mounts
        .and_then(Capture::data)
        .map(|t| mount_p::zfs_datasets(&mount_p::parse(t)))
        .unwrap_or_default();
    if !datasets.is_empty() {
        let argv = zfs_get::argv(&datasets);
        let refs: Vec<&str> = argv.iter().map(String::as_str).collect();
        host.run(&refs);
    }
}

/// The TRIM flag of every mounted UFS (trim-unavailable: UFS trims freed blocks only with
/// the flag set; FreeBSD's base system has no periodic UFS trim).
fn collect_ufs_trim(host: &mut dyn Host, mounts: Option<&Capture>) {
    let ufs: Vec<String> = mounts
        .and_then(Capture::data)
        .map(mount_p::parse)
        .unwrap_or_default()
        .into_iter()
        .filter(|m| m.fstype == "ufs")
        .map(|m| m.source)
        .collect();
    for dev in ufs {
        if let Some(argv) = plan::tunefs_p_argv(&dev) {
            let refs: Vec<&str> = argv.iter().map(String::as_str).collect();
            host.run(&refs);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn device_scope_is_the_disk_of_a_partition() {
        let disks = Capture::ok("kern.disks: ada1 ada0 da0");
        let none = Capture::ok("");
        for (asked, want) in [
            ("ada0", vec!["ada0"]),
            ("/dev/ada0p2", vec!["ada0"]),
            ("ada0s1a", vec!["ada0"]),
            ("ada0p2.eli", vec!["ada0"]),
            ("da1", vec![]),
        ] {
            assert_eq!(disk_names(&disks, &none, Some(asked)), want, "{asked}");
        }
        assert_eq!(disk_names(&disks, &none, None), vec!["ada0", "ada1", "da0"]);
    }
}
