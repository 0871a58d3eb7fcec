//! Linux captures of a disk's path and health, called from probe::linux: PCIe link attributes of every PCI
//! function on a disk's path (Documentation/ABI/testing/sysfs-bus-pci), the SATA host's
//! link power management policy, /proc/mdstat, NVMe health via nvme-cli, and the busy
//! sample: two I/O-counter readings of each scanned disk one second apart
//! (Documentation/admin-guide/iostats.rst) and, when a disk was busy and we are root, the
//! processes doing the I/O (/proc/PID/io, Documentation/filesystems/proc.rst). Keys come
//! from diskdoc_core::plan::device_state. Everything is scoped to the disks the walk captured.

use std::collections::BTreeSet;

use crate::host::{Host, HostExt};
use diskdoc_core::plan::device_state as plan;
use diskdoc_core::sources::{diskstats, zpool};

/// The four link attributes of one PCI function (device or bridge).
pub fn pci_link(host: &mut dyn Host, dir: &str) {
    let entries = host.entries(dir);
    for f in plan::PCI_LINK_FILES {
        if entries.iter().any(|e| e == f) {
            host.read_file(&format!("{dir}/{f}"));
        }
    }
}

/// libata's ALPM policy; only ahci hosts have the attribute.
pub fn scsi_host(host: &mut dyn Host, n: &str) {
    let dir = format!("/sys/class/scsi_host/host{n}");
    if host
        .entries(&dir)
        .iter()
        .any(|e| e == "link_power_management_policy")
    {
        host.read_file(&plan::lpm_policy(n));
    }
}

/// A whole disk libata drives (an ata_device under its sysfs path) that spins: `hdparm -B`
/// means something only there (APM is an ATA feature; SSDs ignore it or lack it).
fn is_rotating_ata(host: &mut dyn Host, name: &str) -> bool {
    if !name.starts_with("sd") {
        return false;
    }
    if host
        .text(&format!("/sys/block/{name}/queue/rotational"))
        .as_deref()
        != Some("1")
    {
        return false;
    }
    // libata's SCSI devices sit under .../ataN/hostM/... in sysfs (drivers/ata/libata-transport.c).
    let real = host.real_path(&format!("/sys/block/{name}"));
    real.data().is_some_and(|p| {
        p.split('/').any(|c| {
            c.strip_prefix("ata")
                .is_some_and(|n| !n.is_empty() && n.chars().all(|x| x.is_ascii_digit()))
        })
    })
}

fn is_whole_disk(host: &mut dyn Host, name: &str) -> bool {
    host.text(&format!("/sys/block/{name}/size")).is_some()
}

/// Machine-wide and sampled captures after the per-disk walk.
pub fn collect_after(host: &mut dyn Host, disks: &BTreeSet<String>, with_tools: bool) {
    host.read_file(plan::MDSTAT);
    // Whether anything trims the filesystems periodically (trim-unavailable).
    host.read_file(plan::FSTRIM_TIMER_WANTS);
    for f in plan::FSTRIM_CRON_FILES {
        host.read_file(f);
    }
    if with_tools {
        host.run(plan::FSTRIM_TIMER_ENABLED);
        // The APM level of rotating ATA disks (power-management: heads parked by APM).
        for d in disks {
            if is_rotating_ata(host, d) {
                let argv = plan::hdparm_apm(&format!("/dev/{d}"));
                let refs: Vec<&str> = argv.iter().map(String::as_str).collect();
                host.run(&refs);
            }
        }
    }
    // ZFS on Linux: pools scrubbing or resilvering (only when the module is loaded).
    if with_tools && host.text("/sys/module/zfs/version").is_some() {
        let status = host.run(&["zpool", "status"]);
        // Whether the pools trim freed space as they go, or OpenZFS's timers trim them
        // (trim-unavailable).
        host.run(diskdoc_core::plan::ZPOOL_GET_AUTOTRIM);
        let pools = status
            .data()
            .map(|t| zpool::pool_members(t, zpool::DeviceNaming::Linux))
            .unwrap_or_default();
        for pool in pools {
            for p in plan::zfs_trim_timer_wants(&pool.name).into_iter().flatten() {
                host.read_file(&p);
            }
        }
    }
    if with_tools {
        let mut ctrls = BTreeSet::new();
        for d in disks {
            if let Some(c) = plan::nvme_controller(d) {
                ctrls.insert(c);
            }
        }
        for c in ctrls {
            let argv = plan::nvme_smart_log(&c);
            let refs: Vec<&str> = argv.iter().map(String::as_str).collect();
            host.run(&refs);
        }
    }
}

/// Two readings of each disk's counters `BUSY_INTERVAL_MS` apart; then, if one was busy
/// and we are root, two readings of every process's I/O counters. Not part of `collect`
/// (a scan stays fast): the read/write tests call it through `probe::add_busy_sample`
/// right before they start, so "busy before the tests" is measured when it matters.
pub fn busy_sample(host: &mut dyn Host, disks: &BTreeSet<String>) {
    let mut first: Vec<(String, String, diskstats::DiskStat)> = Vec::new();
    for d in disks {
        // Virtual and RAM devices are never slow for someone else's reasons worth naming.
        let virt = ["loop", "zram", "ram", "dm-", "md", "sr"]
            .iter()
            .any(|p| d.starts_with(p));
        if virt || !is_whole_disk(host, d) {
            continue;
        }
        let Some(devno) = host.text(&format!("/sys/block/{d}/dev")) else {
            continue;
        };
        if let Some(s) = host
            .read_file(&plan::stat_first(d))
            .data()
            .and_then(diskstats::parse_fields)
        {
            first.push((d.clone(), devno.trim().to_string(), s));
        }
    }
    if first.is_empty() {
        return;
    }
    std::thread::sleep(std::time::Duration::from_millis(plan::BUSY_INTERVAL_MS));
    let mut busy = false;
    for (_, devno, a) in &first {
        if let Some(b) = host
            .read_file(&plan::stat_second(devno))
            .data()
            .and_then(diskstats::parse_fields)
            && diskstats::busy(a, &b, plan::BUSY_INTERVAL_MS)
                .is_some_and(|s| s.util_pct >= plan::BUSY_PROCESS_THRESHOLD_PCT)
        {
            busy = true;
        }
    }
    if busy && crate::host::running_as_root() {
        process_sample(host);
    }
}

fn process_sample(host: &mut dyn Host) {
    let pids: Vec<String> = host
        .entries("/proc")
        .into_iter()
        .filter(|e| !e.is_empty() && e.chars().all(|c| c.is_ascii_digit()))
        .collect();
    let mut first = Vec::new();
    for p in &pids {
        if let Some(v) = host
            .read_file(&plan::proc_io_first(p))
            .data()
            .and_then(diskstats::proc_io_bytes)
        {
            first.push((p.clone(), v));
        }
    }
    std::thread::sleep(std::time::Duration::from_millis(plan::BUSY_INTERVAL_MS));
    for (p, a) in first {
        let b = host
            .read_file(&plan::proc_io_second(&p))
            .data()
            .and_then(diskstats::proc_io_bytes);
        if b.is_some_and(|b| b > a) {
            host.read_file(&plan::proc_comm(&p));
        }
    }
}

/// The hwmon temperature attribute of each disk, relative to its sysfs directory: NVMe
/// controllers register `device/hwmonN` (drivers/nvme/host/hwmon.c), SATA drives with the
/// drivetemp module `device/hwmon/hwmonN` (Documentation/hwmon/drivetemp.rst).
pub fn temp_sample(host: &mut dyn Host, disks: &BTreeSet<String>, after: bool) {
    for d in disks {
        let Some(rel) = hwmon_rel(host, d) else {
            continue;
        };
        if after {
            if let Some(devno) = host.text(&format!("/sys/block/{d}/dev")) {
                host.read_file(&plan::temp_after(devno.trim(), &rel));
            }
        } else {
            host.read_file(&plan::temp_before(d, &rel));
        }
    }
}

fn hwmon_rel(host: &mut dyn Host, d: &str) -> Option<String> {
    let dev = format!("/sys/block/{d}/device");
    let entries = host.entries(&dev);
    if let Some(h) = entries
        .iter()
        .find(|e| e.starts_with("hwmon") && *e != "hwmon")
    {
        return Some(format!("device/{h}/temp1_input"));
    }
    if entries.iter().any(|e| e == "hwmon") {
        let sub = host.entries(&format!("{dev}/hwmon"));
        if let Some(h) = sub.iter().find(|e| e.starts_with("hwmon")) {
            return Some(format!("device/hwmon/{h}/temp1_input"));
        }
    }
    None
}
