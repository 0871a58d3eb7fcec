//! Linux probe: walks /sys/block and captures, through the Host seam only, what
//! facts::linux needs (sysfs attributes per Documentation/ABI/stable/sysfs-block and
//! sysfs-class-ata*, procfs, block ioctls, the partition-table sectors, optional tools).
//!
//! Nothing here interprets much: it decides what to read next (which PCI functions, which
//! ata link, which EBR) and leaves meaning to the pure `facts::linux::derive`. A device that
//! cannot be opened is not an error: the failed ioctl/read is recorded as evidence.

use std::collections::BTreeSet;

use crate::host::{Host, HostExt, IoctlRequest};
use crate::probe::ProbeOptions;
use diskdoc_core::evidence::SourceKey;
use diskdoc_core::facts::linux::paths::{self, SysPathPart};
use diskdoc_core::sources::partition_table;

/// procfs/etc files captured once per machine.
pub const SYSTEM_FILES: &[&str] = &[
    "/etc/os-release",
    "/proc/sys/kernel/osrelease",
    "/proc/sys/kernel/hostname",
    "/proc/cpuinfo",
    "/proc/crypto",
    "/proc/meminfo",
    "/proc/self/mountinfo",
    // The Uid: line tells whether we run as root (geteuid without a syscall wrapper).
    "/proc/self/status",
];

/// Per-device attributes directly under /sys/block/X (sysfs-block ABI).
pub const BLOCK_FILES: &[&str] = &["size", "dev", "removable", "ro", "alignment_offset"];

/// Attributes that exist on some drivers only (virtio_blk: serial, cache_type); read
/// only when listed so the bundle is not full of "not present" noise.
pub const BLOCK_OPTIONAL_FILES: &[&str] = &["serial", "cache_type", "wwid"];

/// Request-queue attributes (Documentation/ABI/stable/sysfs-block, queue/).
pub const QUEUE_FILES: &[&str] = &[
    "logical_block_size",
    "physical_block_size",
    "rotational",
    "scheduler",
    "nr_requests",
    "write_cache",
    "discard_max_bytes",
    // host-aware / host-managed zoned devices (SMR).
    "zoned",
];

/// Attributes of the `device` directory (SCSI: model/vendor/rev/queue_depth/wwid;
/// NVMe controller: model/serial/firmware_rev/transport; MMC: name/type).
pub const DEVICE_FILES: &[&str] = &[
    "model",
    "vendor",
    "rev",
    "serial",
    "wwid",
    "queue_depth",
    "firmware_rev",
    "transport",
    "type",
    "name",
    "state",
];

/// Per-partition attributes (sysfs-block: start and size in 512-byte units).
pub const PARTITION_FILES: &[&str] = &["partition", "start", "size", "alignment_offset", "dev"];

/// libata link attributes (Documentation/ABI/testing/sysfs-ata... /sys/class/ata_link).
pub const ATA_LINK_FILES: &[&str] = &["sata_spd", "sata_spd_limit", "hw_sata_spd_limit"];

/// How many logical sectors to read for the partition table: LBA 0 (MBR), LBA 1 (GPT
/// header) and 32 sectors of entries for 128 entries of 128 bytes at 512 bytes/sector.
pub const TABLE_SECTORS: u64 = 34;

/// Capture everything for a Linux machine (or the devices `opts.device` names, plus their
/// stack above and below).
pub fn collect(host: &mut dyn Host, opts: &ProbeOptions) {
    for f in SYSTEM_FILES {
        host.read_file(f);
    }
    let all = host.entries("/sys/block");
    let mut queue: Vec<String> = match &opts.device {
        None => all.clone(),
        Some(spec) => resolve_device(host, spec, &all).into_iter().collect(),
    };
    let mut done = BTreeSet::new();
    while let Some(name) = queue.pop() {
        if !paths::valid_name(&name) || !done.insert(name.clone()) {
            continue;
        }
        for rel in collect_block(host, &name) {
            // Slaves may be partitions (sda2): climb to the disk that owns them.
            if let Some(disk) = paths::owning_disk(&rel, &all)
                && !done.contains(&disk)
            {
                queue.push(disk);
            }
        }
    }
    if opts.with_tools {
        collect_tools(host, &done);
    }
    crate::probe::linux_device_state::collect_after(host, &done, opts.with_tools);
}

/// Map what the user typed to a /sys/block name: "sda", "/dev/sda", "/dev/mapper/x",
/// "/dev/disk/by-id/...", a partition ("sda1": its disk), or a path on a mounted filesystem
/// (the disk under the mount, via /proc/self/mountinfo and /sys/dev/block/MAJ:MIN).
pub fn resolve_device(host: &mut dyn Host, spec: &str, all: &[String]) -> Option<String> {
    let bare = spec.strip_prefix("/dev/").unwrap_or(spec);
    if all.iter().any(|n| n == bare) {
        return Some(bare.to_string());
    }
    if let Some(d) = paths::owning_disk(bare, all) {
        // A partition name: only when the kernel has that partition.
        if host
            .entries(&format!("/sys/block/{d}"))
            .iter()
            .any(|e| e == bare)
        {
            return Some(d);
        }
    }
    if !spec.starts_with('/') {
        return None;
    }
    let real = host.real_path(spec).data()?.trim().to_string();
    if let Some(n) = real.strip_prefix("/dev/")
        && let Some(d) = paths::owning_disk(n, all)
    {
        return Some(d);
    }
    let mountinfo = host.read_file("/proc/self/mountinfo").data()?.to_string();
    let devno = paths::mount_devno_for_path(&mountinfo, &real)?;
    let sys = host
        .real_path(&format!("/sys/dev/block/{devno}"))
        .data()?
        .trim()
        .to_string();
    let name = sys.rsplit('/').next()?;
    paths::owning_disk(name, all)
}

/// Capture one /sys/block entry; returns the names of related devices (holders of the
/// disk and of its partitions, and slaves) so the caller can capture the whole stack.
fn collect_block(host: &mut dyn Host, name: &str) -> Vec<String> {
    let base = format!("/sys/block/{name}");
    let mut related = Vec::new();
    let real = host.real_path(&base).data().map(|s| s.trim().to_string());
    for f in BLOCK_FILES {
        host.read_file(&format!("{base}/{f}"));
    }
    for f in QUEUE_FILES {
        host.read_file(&format!("{base}/queue/{f}"));
    }
    let entries = host.entries(&base);
    for f in BLOCK_OPTIONAL_FILES {
        if entries.iter().any(|e| e == f) {
            host.read_file(&format!("{base}/{f}"));
        }
    }
    related.extend(host.entries(&format!("{base}/holders")));
    related.extend(host.entries(&format!("{base}/slaves")));
    for e in &entries {
        match e.as_str() {
            "dm" => {
                host.read_file(&format!("{base}/dm/name"));
                host.read_file(&format!("{base}/dm/uuid"));
            }
            "md" => {
                host.read_file(&format!("{base}/md/level"));
                host.read_file(&format!("{base}/md/chunk_size"));
                for f in diskdoc_core::plan::device_state::MD_FILES {
                    host.read_file(&format!("{base}/md/{f}"));
                }
            }
            "loop" => {
                host.read_file(&format!("{base}/loop/backing_file"));
            }
            "device" => collect_device_dir(host, &base),
            p if paths::is_partition_of(p, name) => {
                let pb = format!("{base}/{p}");
                for f in PARTITION_FILES {
                    host.read_file(&format!("{pb}/{f}"));
                }
                related.extend(host.entries(&format!("{pb}/holders")));
            }
            _ => {}
        }
    }
    if let Some(real) = &real {
        collect_ancestors(host, real);
    }

    // ioctls on the node. EACCES/EPERM (the root disk here) is recorded, not fatal.
    let dev = format!("/dev/{name}");
    let ls_ioctl = host.ioctl(&dev, IoctlRequest::BlkSszGet);
    host.ioctl(&dev, IoctlRequest::BlkPbszGet);
    let size = host.ioctl(&dev, IoctlRequest::BlkGetSize64);
    let size_known = size
        .data()
        .and_then(|s| s.trim().parse::<u64>().ok())
        .or_else(|| {
            host.text(&format!("{base}/size"))
                .and_then(|s| s.parse::<u64>().ok())
                .map(|s| s.saturating_mul(512))
        })
        .unwrap_or(0);
    let ls = ls_ioctl
        .data()
        .and_then(|s| s.trim().parse::<u32>().ok())
        .or_else(|| {
            host.text(&format!("{base}/queue/logical_block_size"))
                .and_then(|s| s.parse().ok())
        })
        .filter(|l: &u32| *l >= 512 && l.is_power_of_two())
        .unwrap_or(512);
    if size_known > 0 {
        collect_table(host, &dev, ls);
    }
    related
}

/// The `device` directory: identity attributes and the SCSI disk's cache_type.
fn collect_device_dir(host: &mut dyn Host, base: &str) {
    let dbase = format!("{base}/device");
    let dev_entries = host.entries(&dbase);
    for f in DEVICE_FILES {
        if dev_entries.iter().any(|e| e == f) {
            host.read_file(&format!("{dbase}/{f}"));
        }
    }
    if dev_entries.iter().any(|e| e == "scsi_disk") {
        for sd in host.entries(&format!("{dbase}/scsi_disk")) {
            host.read_file(&format!("{dbase}/scsi_disk/{sd}/cache_type"));
        }
    }
}

/// Walk the resolved sysfs path: PCI functions (class, ids, driver), SCSI hosts, libata
/// ports (link speeds, IDENTIFY words), USB interfaces (uas vs usb-storage), virtio.
fn collect_ancestors(host: &mut dyn Host, real: &str) {
    let parts = paths::split_sys_path(real);
    let mut ata_port: Option<String> = None;
    for (dir, part) in &parts {
        match part {
            SysPathPart::Pci(_) => {
                for f in ["class", "vendor", "device"] {
                    host.read_file(&format!("{dir}/{f}"));
                }
                host.real_path(&format!("{dir}/driver"));
                crate::probe::linux_device_state::pci_link(host, dir);
            }
            SysPathPart::ScsiHost(n) => {
                host.read_file(&format!("/sys/class/scsi_host/host{n}/proc_name"));
                crate::probe::linux_device_state::scsi_host(host, n);
            }
            SysPathPart::AtaPort(n) => {
                ata_port = Some(n.clone());
                for f in ATA_LINK_FILES {
                    host.read_file(&format!("/sys/class/ata_link/link{n}/{f}"));
                }
            }
            SysPathPart::ScsiDevice { target, .. } => {
                if let Some(port) = &ata_port {
                    // libata maps its device number to the SCSI id (H:C:I:L, I = devno);
                    // the ata_device is devPORT.DEVNO.
                    let want = format!("dev{port}.{target}");
                    let devs = host.entries("/sys/class/ata_device");
                    let pick = if devs.contains(&want) {
                        Some(want)
                    } else {
                        let prefix = format!("dev{port}.");
                        let mine: Vec<&String> =
                            devs.iter().filter(|d| d.starts_with(&prefix)).collect();
                        if mine.len() == 1 {
                            mine.first().map(|s| s.to_string())
                        } else {
                            None
                        }
                    };
                    if let Some(d) = pick {
                        host.read_file(&format!("/sys/class/ata_device/{d}/id"));
                    }
                }
            }
            SysPathPart::UsbInterface(_) | SysPathPart::Virtio(_) => {
                host.real_path(&format!("{dir}/driver"));
            }
            SysPathPart::UsbDevice(_) => {
                host.read_file(&format!("{dir}/speed"));
            }
            SysPathPart::Other(_) => {}
        }
    }
}

/// Read the partition-table sectors, and what they point at: the BSD label of each FreeBSD
/// slice (type 0xA5) and the EBR chain of an extended partition.
fn collect_table(host: &mut dyn Host, dev: &str, ls: u32) {
    let len = TABLE_SECTORS * u64::from(ls);
    let Some(hex) = host.read_device(dev, 0, len).data().map(str::to_string) else {
        return;
    };
    let Some(bytes) = crate::probe::hex_decode(&hex) else {
        return;
    };
    let Some(entries) = partition_table::mbr_entries(&bytes) else {
        return;
    };
    if entries.iter().any(|e| e.type_code == 0xEE) {
        return; // GPT: everything is in the 34 sectors.
    }
    for e in entries {
        if e.type_code == 0xA5 {
            let (off, l) = partition_table::bsdlabel_location(e.start, ls);
            host.read_device(dev, off, l);
        } else if partition_table::is_extended(e.type_code) {
            partition_table::logical_partitions(e.start, ls, |lba| {
                let off = lba.checked_mul(u64::from(ls))?;
                let cap = host.read_device(dev, off, 512);
                crate::probe::hex_decode(cap.data()?)
            });
        }
    }
}

/// Slower tools, only with `opts.with_tools`: SMART for real disks, the kernel log, and
/// the dm tables / crypt status behind the dm devices captured.
fn collect_tools(host: &mut dyn Host, names: &BTreeSet<String>) {
    for n in names {
        if paths::smart_applies(n) {
            // The key the facts read it back under.
            if let SourceKey::Command(argv) = diskdoc_core::plan::device_state::smart_report(n) {
                let refs: Vec<&str> = argv.iter().map(String::as_str).collect();
                host.run(&refs);
            }
        }
    }
    let dmesg = host.run(&["dmesg"]);
    if dmesg.data().is_none_or(|d| d.trim().is_empty()) {
        host.run(&["journalctl", "-k", "-b", "--no-pager"]);
    }
    if names.iter().any(|n| n.starts_with("dm-")) {
        host.run(&["dmsetup", "table"]);
        for n in names.iter().filter(|n| n.starts_with("dm-")) {
            let uuid = host
                .text(&format!("/sys/block/{n}/dm/uuid"))
                .unwrap_or_default();
            let dm_name = host
                .text(&format!("/sys/block/{n}/dm/name"))
                .unwrap_or_default();
            if uuid.starts_with("CRYPT-") && paths::valid_name(&dm_name) {
                host.run(&["cryptsetup", "status", &dm_name]);
            }
        }
    }
}
