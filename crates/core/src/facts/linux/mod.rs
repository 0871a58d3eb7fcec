//! Linux facts: a pure function from a bundle captured by probe::linux to `SystemFacts`.
//! Sources: sysfs (Documentation/ABI/stable/sysfs-block, sysfs-class-ata-*), procfs,
//! block ioctls (linux/fs.h), partition-table sectors, IDENTIFY words, dm tables, tools.
//!
//! Split by topic: `sysfs` (read helpers), `controller` (bus, controller, class),
//! `partitions`, `stack` (holders, dm, md), `mounts` (mountinfo), `system` (machine-wide).

use crate::evidence::{EvidenceBundle, Platform, SourceKey, Unavailable};
use crate::facts::{DeviceClass, DiskFacts, Fact, SystemFacts, Transport};
use crate::sources::mountinfo as mounts;
use crate::sources::{ask_bare, spec::Ask};

pub(crate) mod controller;
pub(crate) mod device_state;
pub(crate) mod kernel;

pub(crate) mod partitions;
pub mod paths;
pub(crate) mod stack;
pub(crate) mod sysfs;
pub(crate) mod system;

use sysfs::{first_known, fkey, ioctl_num, num, string, text, why};

/// Derive facts for every block device the bundle captured.
pub fn derive(bundle: &EvidenceBundle) -> SystemFacts {
    let mut sys = SystemFacts::empty(Platform::Linux);
    system::fill(&mut sys, bundle);
    let all = sysfs::entries(bundle, "/sys/block");
    let mountinfo = mounts::parse_mountinfo(bundle.file("/proc/self/mountinfo").unwrap_or(""));
    let ctx = stack::StackCtx::new(bundle, &all, sys.aes_driver.value().cloned());
    let top_io = device_state::top_processes(bundle);
    sys.arrays = crate::facts::arrays::derive(bundle);
    for name in &all {
        // Only devices the probe looked at (a --device scan captures a subset).
        if bundle
            .get(&SourceKey::File(format!("/sys/block/{name}/size")))
            .is_none()
        {
            continue;
        }
        let mut d = disk(&ctx, name, &mountinfo);
        device_state::disk(
            bundle,
            name,
            &controller::walk(bundle, name),
            &top_io,
            &mut d,
        );
        d.trim.fs_trim = device_state::fs_trim(bundle, &d.mounts, &mountinfo);
        d.trim.zfs_autotrim = crate::facts::zfs_trim::autotrim(
            bundle,
            &crate::facts::zfs_trim::linux_pools(bundle, name),
        );
        sys.disks.push(d);
    }
    if sys.is_root.get() == Some(true) {
        // "permission denied (run as root)" misleads when we ran as root: say so.
        for d in &mut sys.disks {
            if let Fact::Unknown { why } = &mut d.partition_table {
                *why = why
                    .replace(
                        "needs the device to be readable (run as root)",
                        "needs the device to be readable",
                    )
                    .replace("(run as root)", crate::evidence::REFUSED_EVEN_TO_ROOT);
            }
            for n in &mut d.notes {
                *n = n.replace("(run as root)", crate::evidence::REFUSED_EVEN_TO_ROOT);
            }
        }
    }
    sys
}

/// Resolve what a user typed (sda, /dev/sda, sda1, /dev/mapper/x, a path on a mounted
/// filesystem) to a disk name, from the captures alone. Falls back to the bare name.
pub fn resolve_target(b: &EvidenceBundle, spec: &str) -> String {
    let all = sysfs::entries(b, "/sys/block");
    let bare = spec.strip_prefix("/dev/").unwrap_or(spec);
    if let Some(d) = paths::owning_disk(bare, &all)
        && (d == bare
            || sysfs::entries(b, &format!("/sys/block/{d}"))
                .iter()
                .any(|e| e == bare))
    {
        return d;
    }
    let real = sysfs::realpath(b, spec).map(str::to_string);
    if let Some(r) = &real {
        if let Some(d) = r
            .strip_prefix("/dev/")
            .and_then(|n| paths::owning_disk(n, &all))
        {
            return d;
        }
        if let Some(devno) = b
            .file("/proc/self/mountinfo")
            .and_then(|mi| paths::mount_devno_for_path(mi, r))
            && let Some(sys) = sysfs::realpath(b, &format!("/sys/dev/block/{devno}"))
            && let Some(d) = paths::owning_disk(sysfs::basename(sys), &all)
        {
            return d;
        }
    }
    bare.to_string()
}

/// The mount of the captured mount table (proc(5) mountinfo) holding `path`, by the longest
/// mountpoint: also the filesystems of disks a scoped probe (`--device`) left out, so a
/// path on another disk can still be named as such.
pub fn mount_holding(b: &EvidenceBundle, path: &str) -> Option<crate::model::Mount> {
    mounts::parse_mountinfo(b.file("/proc/self/mountinfo").unwrap_or(""))
        .into_iter()
        .filter(|e| std::path::Path::new(path).starts_with(&e.mountpoint))
        .max_by_key(|e| e.mountpoint.len())
        .map(|e| e.to_mount())
}

/// Where IDENTIFY-derived facts come from, or why there are none.
struct IdSrc {
    has: bool,
    key: String,
    why: String,
}

impl IdSrc {
    fn fact<T>(&self, v: Option<T>, what: &str) -> Fact<T> {
        match v {
            Some(v) => Fact::known(v, self.key.clone()),
            None if self.has => Fact::unknown(format!("IDENTIFY does not report {what}")),
            None => Fact::unknown(self.why.clone()),
        }
    }
}

/// Hint appended to "unknown" reasons when a tool is missing or access was refused.
fn with_hint(why: String, hint: &str) -> String {
    if hint.is_empty() {
        why
    } else {
        format!("{why}; {hint}")
    }
}

fn class_of(name: &str) -> Option<DeviceClass> {
    Some(if name.starts_with("loop") {
        DeviceClass::Loop
    } else if name.starts_with("zram") || name.starts_with("ram") {
        DeviceClass::Ram
    } else if name.starts_with("dm-") {
        DeviceClass::DeviceMapper
    } else if name.starts_with("md") {
        DeviceClass::Raid
    } else if name.starts_with("mmcblk") {
        DeviceClass::Mmc
    } else if name.starts_with("sr") {
        DeviceClass::Optical
    } else if name.starts_with("nvme") {
        DeviceClass::Nvme
    } else {
        return None;
    })
}

fn disk(ctx: &stack::StackCtx, name: &str, mountinfo: &[mounts::MountEntry]) -> DiskFacts {
    let b = ctx.b;
    let base = format!("/sys/block/{name}");
    let dev = format!("/dev/{name}");
    let mut d = DiskFacts::new(name, &dev);
    let w = controller::walk(b, name);
    let ident = controller::identify(b, &w);
    let id = ident.as_ref().map(|(i, _)| i);
    let id_key = ident.as_ref().map(|(_, k)| k.clone()).unwrap_or_default();
    let id_why = controller::identify_why(b, &w);
    let ids = IdSrc {
        has: id.is_some(),
        key: id_key.clone(),
        why: id_why.clone(),
    };
    let is_virtual_dev = ["loop", "zram", "ram", "dm-", "md"]
        .iter()
        .any(|p| name.starts_with(p));

    // --- identity ---
    let dpath = |f: &str| format!("{base}/device/{f}");
    let vendor = string(b, &dpath("vendor"));
    let vendor = match vendor.value().map(|v| v.trim()) {
        // libata fills the SCSI vendor with "ATA": the real vendor is in the model.
        Some("ATA") => Fact::unknown("libata reports vendor \"ATA\"; see the model"),
        _ => vendor,
    };
    d.vendor = vendor;
    d.model = match id.and_then(|i| i.model.clone()) {
        Some(m) => Fact::known(m, id_key.clone()),
        None => first_known(vec![string(b, &dpath("model")), string(b, &dpath("name"))]),
    };
    d.serial = match id.and_then(|i| i.serial.clone()) {
        Some(s) => Fact::known(s, id_key.clone()),
        None => first_known(vec![
            string(b, &dpath("serial")),
            string(b, &format!("{base}/serial")),
            Fact::unknown(if is_virtual_dev {
                "not applicable to a virtual block device".to_string()
            } else {
                format!(
                    "not in sysfs for this device ({} shows it)",
                    ask_bare(Ask::SmartProgram)
                )
            }),
        ]),
    };
    d.firmware = match id.and_then(|i| i.firmware.clone()) {
        Some(s) => Fact::known(s, id_key.clone()),
        None => first_known(vec![
            string(b, &dpath("firmware_rev")),
            string(b, &dpath("rev")),
        ]),
    };
    d.wwn = first_known(vec![
        string(b, &dpath("wwid")),
        string(b, &format!("{base}/wwid")),
    ]);
    let na_identity = if is_virtual_dev {
        Some("not applicable to a virtual block device")
    } else if w.virtio_dir.is_some() && w.scsi_host.is_none() {
        Some("virtio_blk exposes no model, vendor or firmware string")
    } else {
        None
    };
    if let Some(na) = na_identity {
        for f in [&mut d.model, &mut d.vendor, &mut d.firmware, &mut d.wwn] {
            if !f.is_known() || is_virtual_dev {
                *f = Fact::unknown(na);
            }
        }
        if w.virtio_dir.is_some() {
            d.vendor = Fact::unknown(na);
        }
    }

    // --- geometry: ioctls first, sysfs when the node could not be opened ---
    let sysfs_size = num::<u64>(b, &format!("{base}/size")).map(|s| s.saturating_mul(512));
    d.size_bytes = first_known(vec![ioctl_num(b, &dev, "BLKGETSIZE64"), sysfs_size]);
    d.logical_sector_bytes = first_known(vec![
        ioctl_num(b, &dev, "BLKSSZGET").map(|v| v as u32),
        num(b, &format!("{base}/queue/logical_block_size")),
    ]);
    d.physical_sector_bytes = first_known(vec![
        ioctl_num(b, &dev, "BLKPBSZGET").map(|v| v as u32),
        num(b, &format!("{base}/queue/physical_block_size")),
    ]);
    let ao: Fact<i64> = num(b, &format!("{base}/alignment_offset"));
    d.alignment_offset_bytes = match ao {
        Fact::Known { value, from } if value >= 0 => Fact::known_from(value as u64, from),
        Fact::Known { .. } => {
            Fact::unknown("the kernel reports -1: the device's offsets cannot be aligned")
        }
        Fact::Unknown { why } => match id.and_then(|i| i.lba0_offset_bytes) {
            Some(o) => Fact::known(u64::from(o), id_key.clone()),
            None => Fact::unknown(why),
        },
    };
    let ls = d
        .logical_sector_bytes
        .get()
        .filter(|l| *l >= 512 && l.is_power_of_two())
        .unwrap_or(512);

    // --- queue ---
    d.rotational = num::<u8>(b, &format!("{base}/queue/rotational")).map(|r| r != 0);
    d.rotation_rpm = match id.and_then(|i| i.rotation_rpm) {
        Some(r) => Fact::known(r, id_key.clone()),
        None if is_virtual_dev => Fact::unknown("not applicable to a virtual block device"),
        None if id.is_some() => Fact::unknown("IDENTIFY word 217 does not report a rotation rate"),
        None => Fact::unknown(with_hint(
            id_why.clone(),
            &format!("{} may show it", ask_bare(Ask::SmartProgram)),
        )),
    };
    d.scheduler = match text(b, &format!("{base}/queue/scheduler")) {
        // "none [mq-deadline] kyber": the bracketed one is active.
        Some(t) => {
            let active = t
                .split_whitespace()
                .find(|s| s.starts_with('['))
                .map(|s| s.trim_matches(['[', ']']).to_string());
            match active.or_else(|| Some(t.trim().to_string()).filter(|s| !s.is_empty())) {
                Some(s) => Fact::known(s, fkey(&format!("{base}/queue/scheduler"))),
                None => Fact::unknown("queue/scheduler is empty"),
            }
        }
        None => Fact::unknown(why(b, &format!("{base}/queue/scheduler"))),
    };
    d.nr_requests = num(b, &format!("{base}/queue/nr_requests"));
    d.queue_depth = if is_virtual_dev {
        Fact::unknown("not applicable to a virtual block device")
    } else if text(b, &dpath("queue_depth")).is_none()
        && w.real.is_some()
        && !sysfs::entries(b, &format!("{base}/device"))
            .iter()
            .any(|e| e == "queue_depth")
    {
        Fact::unknown("the driver exposes no device/queue_depth (not a SCSI/ATA device)")
    } else {
        num(b, &dpath("queue_depth"))
    };

    // --- bus, controller, class ---
    d.controller = controller::controller(b, name, &w);
    let link_path = |f: &str| {
        w.ata_port
            .as_ref()
            .map(|p| format!("/sys/class/ata_link/link{p}/{f}"))
    };
    let link_fact = |f: &str| -> Fact<f64> {
        match link_path(f) {
            None => Fact::unknown("not applicable: no SATA link (not a libata device)"),
            Some(p) => match text(b, &p) {
                Some(t) => match sysfs::parse_gbps(t) {
                    Some(g) => Fact::known(g, fkey(&p)),
                    None if f == "sata_spd_limit" => {
                        Fact::unknown(format!("no limit configured ({f} is {t:?})"))
                    }
                    None => Fact::unknown(format!("{f} is {t:?}: link down or not SATA")),
                },
                None => Fact::unknown(why(b, &p)),
            },
        }
    };
    let spd = link_fact("sata_spd");
    d.transport = controller::transport(name, &w, id, d.controller.value(), spd.is_known());
    let transport = d.transport.get();
    d.class = match class_of(name) {
        Some(c) => Fact::known(c, "dir:/sys/block".to_string()),
        None => {
            let vend = d.vendor.value().cloned().unwrap_or_default();
            let model = d.model.value().cloned().unwrap_or_default();
            let mode = d.controller.value().and_then(|c| c.mode);
            let rot_src = fkey(&format!("{base}/queue/rotational"));
            if transport == Some(Transport::Usb) {
                Fact::known(DeviceClass::Usb, w.key.clone().unwrap_or_default())
            } else if mode == Some(crate::facts::ControllerMode::Raid)
                && transport != Some(Transport::Virtio)
            {
                // Behind a RAID HBA the "disk" is the controller's logical volume, even when
                // its vendor string is a hypervisor's (QEMU's megasas emulation).
                Fact::known_from(DeviceClass::RaidVolume, d.controller.sources().to_vec())
            } else if transport == Some(Transport::Virtio)
                || controller::looks_virtual(&vend, &model)
            {
                Fact::known_from(
                    DeviceClass::Virtual,
                    d.model
                        .sources()
                        .iter()
                        .cloned()
                        .chain(w.key.clone())
                        .collect(),
                )
            } else if let Some(r) = id.and_then(|i| i.rotation_rpm) {
                Fact::known(
                    if r == 0 {
                        DeviceClass::Ssd
                    } else {
                        DeviceClass::Hdd
                    },
                    id_key.clone(),
                )
            } else {
                match d.rotational.get() {
                    Some(true) => Fact::known(DeviceClass::Hdd, rot_src),
                    Some(false) => Fact::known(DeviceClass::Ssd, rot_src),
                    None => Fact::unknown(why(b, &format!("{base}/queue/rotational"))),
                }
            }
        }
    };
    let not_sata = |t: Option<Transport>| -> Option<String> {
        match t {
            Some(Transport::Sata) | Some(Transport::Pata) => None,
            Some(Transport::None) => Some(format!(
                "not applicable to a {} device (no SATA link)",
                class_of(name).map(|c| c.label()).unwrap_or("virtual")
            )),
            Some(t) => Some(format!(
                "not applicable to {} (no SATA link)",
                format!("{t:?}").to_lowercase()
            )),
            None => None,
        }
    };

    // --- SATA link ---
    if let Some(na) = not_sata(transport).filter(|_| w.ata_port.is_none()) {
        d.link_current_gbps = Fact::unknown(na.clone());
        d.link_drive_max_gbps = Fact::unknown(na.clone());
        d.link_port_max_gbps = Fact::unknown(na.clone());
        d.link_limit_gbps = Fact::unknown(na);
    } else {
        d.link_current_gbps = first_known(vec![
            spd,
            ids.fact(
                id.and_then(|i| i.sata_current_gbps),
                "the current link speed (word 77)",
            ),
        ]);
        d.link_drive_max_gbps = ids.fact(
            id.and_then(|i| i.sata_max_gbps),
            "SATA generations (word 76)",
        );
        d.link_port_max_gbps = link_fact("hw_sata_spd_limit");
        d.link_limit_gbps = link_fact("sata_spd_limit");
    }

    // --- NCQ ---
    let qd_key = fkey(&dpath("queue_depth"));
    if transport == Some(Transport::Nvme) {
        let na = "not applicable to NVMe (native multi-queue, no NCQ)";
        d.ncq_supported = Fact::unknown(na);
        d.ncq_drive_depth = Fact::unknown(na);
        d.ncq_active = Fact::unknown(na);
    } else if let Some(na) = not_sata(transport).filter(|_| id.is_none()) {
        d.ncq_supported = Fact::unknown(na.clone());
        d.ncq_drive_depth = Fact::unknown(na.clone());
        d.ncq_active = Fact::unknown(na);
    } else {
        d.ncq_supported = ids.fact(id.and_then(|i| i.ncq_supported), "NCQ support (word 76)");
        d.ncq_drive_depth = ids.fact(id.and_then(|i| i.queue_depth), "a queue depth (word 75)");
        d.ncq_active = match (d.queue_depth.get(), d.ncq_supported.get()) {
            (Some(q), Some(true)) => Fact::known_from(q > 1, vec![qd_key.clone(), id_key.clone()]),
            (Some(_), Some(false)) => Fact::known(false, id_key.clone()),
            // libata sets queue_depth 1 when it does not queue (ata_piix, NCQ off).
            (Some(1), None) => Fact::known(false, qd_key.clone()),
            (Some(_), None) => Fact::unknown("NCQ support unknown (no IDENTIFY words)"),
            (None, _) => Fact::unknown(d.queue_depth.why().unwrap_or("").to_string()),
        };
    }

    // --- write cache: the drive's own word first, then the SCSI and block layers ---
    let sd_cache: Option<(String, String)> = sysfs::entries(b, &dpath("scsi_disk"))
        .into_iter()
        .find_map(|s| {
            let p = dpath(&format!("scsi_disk/{s}/cache_type"));
            text(b, &p).map(|t| (t.to_string(), fkey(&p)))
        });
    let wc_path = format!("{base}/queue/write_cache");
    let cache_flag = |t: &str| -> Option<bool> {
        let t = t.trim().to_ascii_lowercase();
        if t.starts_with("write back") {
            Some(true)
        } else if t.starts_with("write through") || t == "none" || t.starts_with("read only") {
            Some(false)
        } else {
            None
        }
    };
    let mut wc_enabled: Vec<Fact<bool>> = Vec::new();
    if let Some(v) = id.and_then(|i| i.write_cache_enabled) {
        wc_enabled.push(Fact::known(v, id_key.clone()));
    }
    if let Some((t, k)) = &sd_cache
        && let Some(v) = cache_flag(t)
    {
        wc_enabled.push(Fact::known(v, k.clone()));
    }
    match text(b, &wc_path).and_then(cache_flag) {
        Some(v) => wc_enabled.push(Fact::known(v, fkey(&wc_path))),
        None => wc_enabled.push(Fact::unknown(why(b, &wc_path))),
    }
    d.write_cache_enabled = first_known(wc_enabled);
    d.write_cache_supported = match id.and_then(|i| i.write_cache_supported) {
        Some(v) => Fact::known(v, id_key.clone()),
        None => match &d.write_cache_enabled {
            Fact::Known { value: true, from } => Fact::known_from(true, from.clone()),
            _ => Fact::unknown(with_hint(
                id_why.clone(),
                "the write cache state alone does not say whether the drive has one",
            )),
        },
    };
    d.trim_supported = match id.and_then(|i| i.trim_supported) {
        Some(v) => Fact::known(v, id_key.clone()),
        None => num::<u64>(b, &format!("{base}/queue/discard_max_bytes")).map(|m| m > 0),
    };

    // --- partitions, layers, mounts ---
    let part_names = ctx.partitions(name);
    let sysfs_parts = partitions::sysfs_partitions(b, name, &part_names);
    d.partition_table = if d.size_bytes.get() == Some(0) {
        Fact::unknown("the device is empty (size 0): nothing to read")
    } else {
        partitions::derive(b, name, &dev, ls, &sysfs_parts)
    };
    d.layers = ctx.layers_for(name);
    let mut devnos: Vec<String> = Vec::new();
    devnos.extend(ctx.devno(name));
    for l in &d.layers {
        devnos.extend(ctx.devno(&l.name));
    }
    d.mounts = mountinfo
        .iter()
        .filter(|m| devnos.contains(&m.devno))
        .map(|m| m.to_mount())
        .collect();

    // --- SMART and the kernel log (parsers live in sources) ---
    let smart_key = crate::plan::device_state::smart_report(&dev);
    d.smart = if !paths::smart_applies(name) {
        Fact::unknown(format!(
            "not applicable to {}",
            d.class.value().map(|c| c.label()).unwrap_or("this device")
        ))
    } else {
        match b.get(&smart_key) {
            Some(c) if c.data().is_some() => Fact::unknown(format!(
                "{} output did not parse",
                ask_bare(Ask::SmartProgram)
            )),
            Some(crate::evidence::Capture::Unavailable {
                reason: Unavailable::ToolMissing,
                ..
            }) => Fact::unknown(with_hint(
                b.why(&smart_key),
                "install smartmontools (apt install smartmontools)",
            )),
            Some(_) => Fact::unknown(b.why(&smart_key)),
            None => Fact::unknown(format!(
                "{} was not run (scan without tools)",
                ask_bare(Ask::SmartProgram)
            )),
        }
    };
    if let Some(out) = b.data(&smart_key) {
        crate::sources::smartctl::apply(&mut d, &smart_key.to_string(), out);
    }
    d.kernel_events = kernel::events(b, name, w.ata_port.as_deref());
    if let Some((cause, k)) = kernel::ncq_off_cause(b, w.ata_port.as_deref()) {
        d.ncq_off_cause = Fact::known(cause, k);
    }
    if let Some(f) = w.usb_device_dir.as_ref().map(|u| format!("{u}/speed"))
        && let Some(s) = text(b, &f)
    {
        d.notes
            .push(format!("USB bus speed {s} Mb/s ({})", fkey(&f)));
    }
    if let Some(bf) = text(b, &format!("{base}/loop/backing_file")) {
        d.notes.push(format!("loop device backed by {bf}"));
    }
    if d.size_bytes.is_known() && !ioctl_num(b, &dev, "BLKGETSIZE64").is_known() {
        d.notes.push(format!(
            "{dev} could not be opened ({}): sizes from sysfs",
            b.why(&SourceKey::Ioctl {
                device: dev.clone(),
                request: "BLKGETSIZE64".into()
            })
        ));
    }
    d.ata_identify = id.cloned();
    d
}
