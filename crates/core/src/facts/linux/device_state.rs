//! A Linux disk's path and health facts: PCIe links (Documentation/ABI/testing/sysfs-bus-pci), NVMe
//! health (NVMe Base spec log page 02h via smartctl -j or nvme-cli), discard and zoning
//! (Documentation/ABI/stable/sysfs-block queue/discard_max_bytes, queue/zoned), the ALPM
//! policy (libata link_power_management_policy), the busy sample (iostats.rst) and md/ZFS
//! array activity (md.rst, zpool-status(8)). Keys from plan::device_state.

use crate::evidence::{EvidenceBundle, SourceKey};
use crate::facts::linux::controller::Walk;
use crate::facts::linux::paths::{SysPathPart, split_sys_path};
use crate::facts::linux::sysfs::{fkey, num, string, text, why};
use crate::facts::{BusySample, DiskFacts, Fact, FsTrim, IoProcess, PcieLink, TrimJob};
use crate::plan::device_state as plan;
use crate::sources::{diskstats, lspci, nvme_smart, power_log};

/// The disk's PCIe path, NVMe health, discard and zoning, power and activity facts, into `m`.
pub fn disk(b: &EvidenceBundle, name: &str, w: &Walk, top: &[IoProcess], m: &mut DiskFacts) {
    let q = |f: &str| format!("/sys/block/{name}/queue/{f}");
    m.pcie = pcie(b, w);
    m.nvme_health = nvme_health(b, name);
    m.trim.discard_max_bytes = num(b, &q("discard_max_bytes"));
    m.zoned = string(b, &q("zoned"));
    m.power.lpm_policy = match &w.scsi_host {
        Some(h) if w.ata_port.is_some() => string(b, &plan::lpm_policy(h)),
        _ => Fact::unknown("not applicable: not a libata (SATA) device"),
    };
    m.busy = busy(b, name, top);
    let port = w.ata_port.as_deref().and_then(|p| p.parse::<u32>().ok());
    m.power.power_log = power_log(b, name, port, &m.pcie);
    m.temp_samples_c = temp_samples(b, name);
    m.trim.delete_method = Fact::unknown("not applicable on Linux (see discard_max_bytes)");
    m.power.apm_level = apm_level(b, name, w);
    let smart = plan::smart_report(name);
    m.power.load_cycles = match b
        .data(&smart)
        .and_then(|o| crate::sources::smartctl_attr::ata_raw(o, 193))
    {
        Some(v) => Fact::known(v, smart.to_string()),
        None => Fact::unknown("no SMART attribute 193 (Load_Cycle_Count) in the captures"),
    };
}

/// The drive's APM level: `hdparm -B` when it ran (rotating ATA disks, with tools), else
/// IDENTIFY words 83/86/91 from the kernel's copy (class/ata_device/devX/id, or the
/// ATA_IDENTIFY ioctl), the same bits hdparm reads.
fn apm_level(b: &EvidenceBundle, name: &str, w: &Walk) -> Fact<u32> {
    use crate::sources::hdparm::{Apm, apm};
    let argv = plan::hdparm_apm(&format!("/dev/{name}"));
    let refs: Vec<&str> = argv.iter().map(String::as_str).collect();
    let key = SourceKey::cmd(&refs);
    match b.data(&key).and_then(apm) {
        Some(Apm::Level(l)) => return Fact::known(l, key.to_string()),
        Some(Apm::Off) => {
            return Fact::unknown("APM is off (hdparm -B): the drive parks only on its own timers");
        }
        Some(Apm::NotSupported) => {
            return Fact::unknown("the drive has no APM (hdparm -B: not supported)");
        }
        None => {}
    }
    let id = crate::facts::linux::controller::identify(b, w);
    match id.as_ref().and_then(|(i, _)| i.apm_level) {
        Some(Some(l)) => Fact::known(l, id.map(|(_, k)| k).unwrap_or_default()),
        Some(None) => Fact::unknown("APM is off (IDENTIFY word 86 bit 3 clear)"),
        None => Fact::unknown(format!("no APM level: {}", b.why(&key))),
    }
}

/// Filesystems that take FITRIM (fstrim(8)) and the `discard` mount option: ext4 (ext2/3
/// mounted by it), xfs, btrfs, f2fs, vfat, exfat, jfs, nilfs2, ntfs3 (Documentation/
/// filesystems/*.rst, "discard" in each option list).
const TRIM_FILESYSTEMS: &[&str] = &[
    "ext2", "ext3", "ext4", "xfs", "btrfs", "f2fs", "vfat", "exfat", "jfs", "nilfs2", "ntfs3",
];

/// Online discard in a mount's options: `discard` (ext4, xfs, f2fs, vfat...), btrfs's
/// `discard=async` / `discard=sync` (on by default on SSDs since Linux 6.2); `nodiscard` is
/// the opposite. ext4 shows it among the superblock options (mountinfo field 11).
fn online_discard(opts: &str) -> bool {
    opts.split(',')
        .any(|o| o == "discard" || o.starts_with("discard="))
}

/// How the filesystems of one disk get trimmed: which trim-capable mounts discard online,
/// which do not, and what trims on a schedule (the same for every disk of the machine).
pub fn fs_trim(
    b: &EvidenceBundle,
    mounts: &[crate::facts::Mount],
    mountinfo: &[crate::sources::mountinfo::MountEntry],
) -> Fact<FsTrim> {
    let (periodic, timer_key) = match periodic_trim(b) {
        Ok(p) => p,
        Err(why) => return Fact::unknown(why.to_string()),
    };
    let mut t = FsTrim {
        periodic,
        ..Default::default()
    };
    let mut from = vec![crate::sources::sysfs::proc("self/mountinfo"), timer_key];
    for j in &t.periodic {
        if !from.contains(&j.from) {
            from.push(j.from.clone());
        }
    }
    for m in mounts
        .iter()
        .filter(|m| TRIM_FILESYSTEMS.contains(&m.fstype.as_str()))
    {
        let sup = mountinfo
            .iter()
            .find(|e| e.mountpoint == m.mountpoint && e.source == m.source)
            .map(|e| e.super_options.as_str())
            .unwrap_or("");
        let list = if online_discard(&m.options) || online_discard(sup) {
            &mut t.online
        } else {
            &mut t.without_discard
        };
        if !list.contains(&m.mountpoint) {
            list.push(m.mountpoint.clone());
        }
    }
    Fact::Known { value: t, from }
}

/// Neither systemd question about fstrim.timer was captured; `why` is the capture's reason.
#[derive(Debug, thiserror::Error)]
#[error("whether fstrim.timer is enabled was not captured ({why})")]
struct TimerUnknown {
    why: String,
}

/// What trims on a schedule: systemd's fstrim.timer (systemctl is-enabled, else the
/// timers.target.wants link) and distribution cron jobs. Err when neither systemd question
/// was captured (an older bundle): then nobody knows.
/// Also returns the capture key that answered the fstrim.timer question.
fn periodic_trim(b: &EvidenceBundle) -> Result<(Vec<TrimJob>, String), TimerUnknown> {
    let mut found = Vec::new();
    let is_enabled = SourceKey::cmd(plan::FSTRIM_TIMER_ENABLED);
    let wants = SourceKey::File(plan::FSTRIM_TIMER_WANTS.to_string());
    let timer = match b
        .data(&is_enabled)
        .map(|o| o.lines().next().unwrap_or("").trim())
    {
        // systemctl(1): enabled, enabled-runtime, linked, alias, static, indirect, disabled,
        // masked...; only the first two start the timer at boot.
        Some(state) => Some((
            state == "enabled" || state == "enabled-runtime",
            format!("fstrim.timer {state} (systemctl is-enabled)"),
            is_enabled.to_string(),
        )),
        None => match b.get(&wants) {
            Some(c) if c.data().is_some() => Some((
                true,
                "fstrim.timer enabled (timers.target wants it)".to_string(),
                wants.to_string(),
            )),
            Some(crate::evidence::Capture::Unavailable {
                reason: crate::evidence::Unavailable::NotFound,
                ..
            }) => Some((false, String::new(), wants.to_string())),
            _ => None,
        },
    };
    let Some((on, what, key)) = timer else {
        return Err(TimerUnknown { why: b.why(&wants) });
    };
    if on {
        found.push(TrimJob {
            what,
            from: key.clone(),
        });
    }
    for f in plan::FSTRIM_CRON_FILES {
        let k = SourceKey::File(f.to_string());
        if b.data(&k).is_some() {
            found.push(TrimJob {
                what: format!("cron job {f}"),
                from: k.to_string(),
            });
        }
    }
    Ok((found, key))
}

/// Every PCI function on the disk's path with link attributes, the device first.
fn pcie(b: &EvidenceBundle, w: &Walk) -> Fact<Vec<PcieLink>> {
    let Some(real) = &w.real else {
        return Fact::unknown("the device's sysfs path was not captured");
    };
    let dirs: Vec<(String, String)> = split_sys_path(real)
        .into_iter()
        .filter_map(|(d, p)| match p {
            SysPathPart::Pci(a) => Some((d, a)),
            _ => None,
        })
        .collect();
    if dirs.is_empty() {
        return Fact::unknown("not on PCI (no PCI function in the sysfs path)");
    }
    let mut out = Vec::new();
    let mut from = Vec::new();
    let mut untrained: Vec<String> = Vec::new();
    for (hop, (dir, addr)) in dirs.iter().rev().enumerate() {
        let f = |n: &str| format!("{dir}/{n}");
        let cur = text(b, &f("current_link_speed")).and_then(lspci::parse_gts);
        let max = text(b, &f("max_link_speed")).and_then(lspci::parse_gts);
        let cw = text(b, &f("current_link_width")).and_then(|t| t.trim().parse::<u32>().ok());
        let mw = text(b, &f("max_link_width")).and_then(|t| t.trim().parse::<u32>().ok());
        // PCIe widths are 1-32 lanes; an integrated endpoint with no link reads "Unknown"
        // speeds and width 0 or 255 (a register that is not implemented).
        let lanes = |w: Option<u32>| w.filter(|w| (1..=32).contains(w));
        let (cw, mw) = (lanes(cw), lanes(mw));
        if cur.is_none() && max.is_none() && cw.is_none() && mw.is_none() {
            if text(b, &f("max_link_width")).is_some() {
                untrained.push(addr.clone());
            }
            continue;
        }
        for n in plan::PCI_LINK_FILES {
            if text(b, &f(n)).is_some() {
                from.push(fkey(&f(n)));
            }
        }
        out.push(PcieLink {
            address: addr.clone(),
            hop: u32::try_from(hop).unwrap_or(u32::MAX),
            current_gts: cur,
            max_gts: max,
            // 0 lanes: the link is down or the attribute is not implemented.
            current_width: cw,
            max_width: mw,
            marked_downgraded: false,
        });
    }
    if out.is_empty() && !untrained.is_empty() {
        return Fact::unknown(format!(
            "{} reports no trained PCIe link (speed Unknown, no valid width): a root-complex \
             integrated or emulated device without a link of its own",
            untrained.join(", ")
        ));
    }
    if out.is_empty() {
        let (d, _) = dirs.last().cloned().unwrap_or_default();
        return Fact::unknown(format!(
            "{d}/current_link_speed: {} (conventional PCI functions have none)",
            why(b, &format!("{d}/current_link_speed"))
        ));
    }
    Fact::known_from(out, from)
}

/// hwmon temperatures before and after the tests, in whole degrees Celsius.
fn temp_samples(b: &EvidenceBundle, name: &str) -> Vec<i64> {
    let prefix = format!("file:/sys/block/{name}/device/");
    let Some(rel) = b
        .captures
        .keys()
        .find(|k| k.starts_with(&prefix) && k.ends_with("/temp1_input"))
        .and_then(|k| k.strip_prefix(&format!("file:/sys/block/{name}/")))
        .map(str::to_string)
    else {
        return Vec::new();
    };
    let milli = |p: &str| text(b, p).and_then(|t| t.trim().parse::<i64>().ok());
    let mut out = Vec::new();
    if let Some(v) = milli(&plan::temp_before(name, &rel)) {
        out.push(v / 1000);
        if let Some(devno) = text(b, &format!("/sys/block/{name}/dev"))
            && let Some(a) = milli(&plan::temp_after(devno.trim(), &rel))
        {
            out.push(a / 1000);
        }
    }
    out
}

/// Kernel log lines about failed power states on this disk's path: the NVMe controller's,
/// the SATA link power management of its libata port (`port`, from sysfs), AER errors on
/// its PCIe links.
fn power_log(
    b: &EvidenceBundle,
    name: &str,
    port: Option<u32>,
    pcie: &Fact<Vec<PcieLink>>,
) -> Fact<Vec<String>> {
    let addrs: Vec<String> = pcie
        .value()
        .map(|v| v.iter().map(|l| l.address.clone()).collect())
        .unwrap_or_default();
    let ctrl = plan::nvme_controller(name)
        .map(|c| c.trim_start_matches("/dev/").to_string())
        .unwrap_or_default();
    for argv in crate::facts::linux::kernel::LOG_COMMANDS {
        let k = SourceKey::cmd(argv);
        if let Some(log) = b.data(&k).filter(|l| !l.trim().is_empty()) {
            let mut v = if ctrl.is_empty() {
                Vec::new()
            } else {
                power_log::nvme_power_lines(log, &ctrl, &addrs)
            };
            if let Some(p) = port {
                v.extend(power_log::sata_lpm_failures(log, p));
            }
            v.extend(power_log::aer_lines(log, &addrs));
            return Fact::known(v, k.to_string());
        }
    }
    Fact::unknown("no kernel log was captured (dmesg, journalctl -k)")
}

/// NVMe health from `smartctl -j -a /dev/X` or `nvme smart-log /dev/nvmeN`.
fn nvme_health(b: &EvidenceBundle, name: &str) -> Fact<crate::facts::NvmeHealth> {
    let Some(ctrl) = plan::nvme_controller(name) else {
        return Fact::unknown("not applicable: not an NVMe namespace");
    };
    let smart = plan::smart_report(name);
    let argv = plan::nvme_smart_log(&ctrl);
    let cli = SourceKey::Command(argv.to_vec());
    let mut whys = Vec::new();
    for k in [smart, cli] {
        match b.data(&k).and_then(nvme_smart::parse) {
            Some(h) => return Fact::known(h, k.to_string()),
            None if b.data(&k).is_some() => {
                whys.push(format!("{k}: no NVMe health log in the output"))
            }
            None => whys.push(format!("{k}: {}", b.why(&k))),
        }
    }
    Fact::unknown(whys.join("; "))
}

/// The processes with the most storage I/O between the two /proc/PID/io samples.
pub(crate) fn top_processes(b: &EvidenceBundle) -> Vec<IoProcess> {
    let mut out: Vec<IoProcess> = Vec::new();
    for k in b.captures.keys() {
        let Some(pid) = k
            .strip_prefix("file:/proc/")
            .and_then(|r| r.strip_suffix("/io"))
            .filter(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
        else {
            continue;
        };
        let a = b
            .file(&plan::proc_io_first(pid))
            .and_then(diskstats::proc_io_bytes);
        let c = b
            .file(&plan::proc_io_second(pid))
            .and_then(diskstats::proc_io_bytes);
        let (Some(a), Some(c)) = (a, c) else { continue };
        let Some(bytes) = c.checked_sub(a).filter(|d| *d > 0) else {
            continue;
        };
        out.push(IoProcess {
            pid: pid.parse().unwrap_or(0),
            comm: b
                .file(&plan::proc_comm(pid))
                .map(|s| crate::facts::linux::sysfs::sanitize(s.trim()))
                .unwrap_or_else(|| "?".to_string()),
            bytes,
        });
    }
    crate::sort::sort_by(&mut out, |x, y| {
        y.bytes.cmp(&x.bytes).then(x.pid.cmp(&y.pid))
    });
    out.truncate(plan::TOP_PROCESSES);
    out
}

fn busy(b: &EvidenceBundle, name: &str, top: &[IoProcess]) -> Fact<BusySample> {
    let p1 = plan::stat_first(name);
    let Some(a) = text(b, &p1) else {
        return Fact::unknown(why(b, &p1));
    };
    let Some(devno) = text(b, &format!("/sys/block/{name}/dev")).map(str::trim) else {
        return Fact::unknown("the device number (sysfs dev) was not captured");
    };
    let p2 = plan::stat_second(devno);
    let Some(c) = text(b, &p2) else {
        return Fact::unknown(format!("second sample: {}", why(b, &p2)));
    };
    let (Some(a), Some(c)) = (diskstats::parse_fields(a), diskstats::parse_fields(c)) else {
        return Fact::unknown("the I/O counters did not parse");
    };
    match diskstats::busy(&a, &c, plan::BUSY_INTERVAL_MS) {
        Some(mut s) => {
            s.top = top.to_vec();
            Fact::known_from(s, vec![fkey(&p1), fkey(&p2)])
        }
        None => Fact::unknown("a counter went backwards between the samples"),
    }
}

#[cfg(test)]
mod tests;
