//! Facts from pasted text (`diskdoc explain`): what the recognised outputs, command lines
//! and sentences of a paste prove beyond the bundle keys `facts::derive` reads, with each
//! fact's source the pasted block or line. The live path's facts come from sysfs, GEOM
//! and the FreeBSD tools' captures; a paste often has only a smartctl report or a kernel
//! log, so these derivations read the same source parsers (crate::sources) into the same
//! fact fields. Split by topic: linux_text (smartctl, hdparm, lsblk, fdisk, cryptsetup,
//! kernel logs), prose (sentences and typed sysfs reads), zpool (block-size notes),
//! device_state (PCIe links, NVMe logs, md arrays, busy, APM).

mod device_state;
mod drive_tools;
mod inventories;
mod linux_text;
mod machine;
mod prose;
mod raid_tools;
pub(crate) use raid_tools::WHOLE_CONTROLLER_NOTE;
mod zpool;

pub(crate) use device_state::LINK_FILES;

use super::device_names::whole_disk;
use crate::evidence::Platform;
use crate::model::{
    DiskFacts, Fact, KernelEvent, KernelEventKind, Layer, LayerKind, Mount, SystemFacts,
};
use crate::pasted::Pasted;
use crate::sources;
use crate::sources::fstrim;

/// Add what the paste proves to `sys` (the facts `facts::derive` made of the bundle the
/// paste was assembled into), each fact's source the pasted block (`Block::key`) or line.
/// The order matters: a fact set by an earlier step is kept by the later ones.
pub fn derive(sys: &mut SystemFacts, p: &Pasted) {
    failed_runs(sys);
    prose::geli_in_prose(sys, p);
    zpool::block_sizes(sys, p);
    zpool::vdev_rows(sys, p);
    zpool::trim_support(sys, p);
    prose::usb_bridge_lines(sys, p.lines);
    prose::sysfs_answers(sys, p);
    prose::sysfs_listing(sys, p);
    // The text parsers of smartctl, hdparm, fdisk, lsblk and kernel logs also serve a
    // paste whose OS is unknown (a bare smartctl report says nothing of it).
    if sys.platform != Platform::Freebsd {
        linux_text::derive(sys, p);
        prose::typed_dma_settings(sys, p);
    }
    machine::derive(sys, p);
    device_state::derive(sys, p);
    raid_tools::derive(sys, p);
    drive_tools::derive(sys, p);
    inventories::derive(sys, p);
    prose::bridge_refusals(sys, p.lines);
    prose::unknown_usb_bridges(sys, p.lines);
    smartd_warnings(sys, p);
    check_smart_verdicts(sys, p);
    atacontrol_smart(sys, p);
    df_listing(sys, p);
    discard_refusals(sys, p);
    crypt_volume_skipped_by_fstrim(sys, p);
    trim_command_failures(sys, p);
    medium_lost_after_stop(sys, p);
    lpm_listing(sys, p);
    if sys.platform == Platform::Unknown && sys.disks.is_empty() {
        sys.os_name = Fact::unknown("the pasted text does not say which OS it came from");
    }
}

/// A pasted listing of the hosts' link power management policies (sources::lpm_policy)
/// names hosts, not disks: when every host listed has the same policy, that is the policy of
/// every SATA disk in the paste (a USB or NVMe disk has no ALPM link; a disk whose
/// transport is not known is taken as on one of the listed hosts).
fn lpm_listing(sys: &mut SystemFacts, p: &Pasted) {
    for b in p
        .blocks
        .iter()
        .filter(|b| b.tool.is(&sources::lpm_policy::SPEC))
    {
        let hosts = sources::lpm_policy::parse(&b.text);
        let Some(policy) = sources::lpm_policy::uniform(&hosts) else {
            continue;
        };
        for d in sys.disks.iter_mut() {
            let other = matches!(
                d.transport.get(),
                Some(
                    crate::model::Transport::Usb
                        | crate::model::Transport::Nvme
                        | crate::model::Transport::Virtio
                        | crate::model::Transport::Mmc
                        | crate::model::Transport::None
                )
            );
            if !other && !d.power.lpm_policy.is_known() {
                d.power.lpm_policy = Fact::known(policy.to_string(), b.key.clone());
            }
        }
    }
}

/// Discards the paste shows refused ([`crate::model::TrimFacts::discard_refused`],
/// sources::fstrim): on the disk a line names, else (fstrim names a mount point) on the disk
/// mounted there, else on every disk of the paste whose discard limit is known to be 0
/// (`lsblk -D`), else on the disk you pasted. The kernel refuses exactly when the device's
/// discard limit is 0, so a refusal also gives discard_max_bytes = 0 where nothing else did.
fn discard_refusals(sys: &mut SystemFacts, p: &Pasted) {
    for l in p.lines {
        let t = l.text.as_str();
        if !t.contains("discard") && !t.contains("DISCARD") && !t.contains("FITRIM") {
            continue;
        }
        let from = format!("pasted:line {}", l.first);
        let line = t.trim().to_string();
        let failed = fstrim::DISCARD_IO_ERROR
            .captures(t)
            .and_then(|c| c.get(1))
            .map(|m| m.as_str().to_string())
            .or_else(|| {
                sources::kernel_log::DISCARD_FAILED
                    .captures(t)
                    .and_then(|c| c.get(2))
                    .map(|m| format!("/dev/{}", m.as_str()))
            });
        let dev = fstrim::EXT4_NO_DISCARD
            .captures(t)
            .or_else(|| fstrim::BLKDISCARD_NO_DISCARD.captures(t))
            .and_then(|c| c.get(1))
            .map(|m| m.as_str().trim_start_matches("/dev/").to_string())
            .or_else(|| {
                failed
                    .as_deref()
                    .filter(|x| x.starts_with("/dev/"))
                    .map(|x| x.trim_start_matches("/dev/").to_string())
            });
        let mountpoint = fstrim::FSTRIM_NO_DISCARD
            .captures(t)
            .and_then(|c| c.get(1))
            .map(|m| m.as_str().to_string())
            .or_else(|| failed.clone().filter(|x| !x.starts_with("/dev/")));
        let targets: Vec<String> = if let Some(dev) = dev {
            let w = whole_disk(&dev);
            vec![if w.is_empty() { dev } else { w }]
        } else if let Some(mp) = mountpoint.clone() {
            let mounted: Vec<String> = sys
                .disks
                .iter()
                .filter(|d| d.mounts.iter().any(|m| m.mountpoint == mp))
                .map(|d| d.name.clone())
                .collect();
            if mounted.is_empty() {
                let zero: Vec<String> = sys
                    .disks
                    .iter()
                    .filter(|d| d.trim.discard_max_bytes.get() == Some(0))
                    .map(|d| d.name.clone())
                    .collect();
                match (zero.is_empty(), sys.disks.as_slice()) {
                    (true, []) => vec![crate::facts::PASTED_DISK.to_string()],
                    // The paste's only disk: the filesystem the kernel refused to trim
                    // lives on it, and the discard stops somewhere between the two (a
                    // layer that does not pass it, when the disk itself takes it).
                    (true, [only]) => vec![only.name.clone()],
                    _ => zero,
                }
            } else {
                mounted
            }
        } else {
            continue;
        };
        for name in targets {
            let note = format!("known only from a pasted line ({from})");
            if failed.is_some() {
                // EIO: the device takes discards (no limit of 0 to infer) and fails them.
                if let Some(d) = pasted_disk(sys, &name, &note)
                    && !d.trim.discard_failed.is_known()
                {
                    d.trim.discard_failed = Fact::known(line.clone(), from.clone());
                }
                continue;
            }
            if let Some(d) = pasted_disk(sys, &name, &note)
                && !d.trim.discard_refused.is_known()
            {
                d.trim.discard_refused = Fact::known(line.clone(), from.clone());
                // The kernel refused to trim a filesystem on a disk that takes discards
                // (its limit is not 0): a layer between them has none (dm-crypt without
                // allow_discards, an LVM or md layer of an older kernel).
                if let (Some(mp), Some(max)) = (
                    mountpoint.as_deref(),
                    d.trim.discard_max_bytes.get().filter(|m| *m > 0),
                ) && !d.trim.layer_blocks_discard.is_known()
                {
                    d.trim.layer_blocks_discard = Fact::known(
                        // The value's first word names the layer (checks::trim_unavailable
                        // puts it in the fix's commands): not named here, so the placeholder
                        // the user replaces with the mapping under the mountpoint.
                        format!(
                            "MAPPING (the layer between {mp} and {name}, as `lsblk` shows it): \
                             fstrim was refused while {name} takes discards (DISC-MAX {max} \
                             bytes)"
                        ),
                        from.clone(),
                    );
                }
                if !d.trim.discard_max_bytes.is_known() {
                    d.trim.discard_max_bytes = Fact::known(0, from.clone());
                }
            }
        }
    }
}

/// `fstrim --all -v` trimmed filesystems on partitions of a disk but not the root, and an
/// /etc/crypttab line of the same paste opens a dm-crypt volume without `discard`
/// (sources::fstrim::trimmed_all, sources::cryptsetup::crypttab_without_discard): the disk
/// takes discards, fstrim skipped the root because the mapping under it has none, so the
/// volume drops TRIM ([`crate::model::TrimFacts::layer_blocks_discard`]). A root fstrim
/// trimmed, or no such crypttab line, says nothing.
fn crypt_volume_skipped_by_fstrim(sys: &mut SystemFacts, p: &Pasted) {
    let Some((i, name)) =
        p.lines.iter().enumerate().find_map(|(i, l)| {
            sources::cryptsetup::crypttab_without_discard(&l.text).map(|n| (i, n))
        })
    else {
        return;
    };
    let text: Vec<&str> = p.lines.iter().map(|l| l.text.as_str()).collect();
    let trimmed = fstrim::trimmed_all(&text.join("\n"));
    if trimmed.is_empty() || trimmed.iter().any(|(mp, _)| mp == "/") {
        return;
    }
    let from = format!("pasted:line {}", p.lines.get(i).map_or(0, |l| l.first));
    let mut disks: Vec<String> = Vec::new();
    for (_, dev) in &trimmed {
        let w = whole_disk(dev.trim_start_matches("/dev/"));
        if !w.is_empty() && !w.starts_with("mapper") && !w.starts_with("dm-") && !disks.contains(&w)
        {
            disks.push(w);
        }
    }
    let mps: Vec<&str> = trimmed.iter().map(|(mp, _)| mp.as_str()).collect();
    for disk in disks {
        let note = format!("known only from a pasted fstrim line ({from})");
        if let Some(d) = pasted_disk(sys, &disk, &note)
            && !d.trim.layer_blocks_discard.is_known()
        {
            d.trim.layer_blocks_discard = Fact::known(
                format!(
                    "{name} (dm-crypt, /etc/crypttab without `discard`): fstrim --all trimmed \
                     {} on {disk} and skipped /",
                    mps.join(", ")
                ),
                from.clone(),
            );
        }
    }
}

/// TRIM commands the pasted kernel log reports failed (sources::kernel_log::failed_trims):
/// the device took the command and errored or timed out on it, as a discard the block
/// layer failed. A libata port ("ata1") is the disk the log ties to it, else the port's
/// own disk.
fn trim_command_failures(sys: &mut SystemFacts, p: &Pasted) {
    let texts: Vec<&str> = p.lines.iter().map(|l| l.text.as_str()).collect();
    let fails = sources::kernel_log::failed_trims(&texts);
    if fails.is_empty() {
        return;
    }
    let log = texts.join("\n");
    for (dev, i) in fails {
        let Some(l) = p.lines.get(i) else {
            continue;
        };
        let from = format!("pasted:line {}", l.first);
        let port = dev.strip_prefix("ata").and_then(|n| n.parse::<u32>().ok());
        let name = port
            .and_then(|n| {
                sys.disks
                    .iter()
                    .find(|d| sources::kernel_log::ata_port_guess(&d.name, &log) == Some(n))
                    .map(|d| d.name.clone())
            })
            .unwrap_or(dev);
        let note = format!("known only from a pasted kernel line ({from})");
        if let Some(d) = pasted_disk(sys, &name, &note)
            && !d.trim.discard_failed.is_known()
        {
            d.trim.discard_failed = Fact::known(l.text.trim().to_string(), from);
        }
    }
}

/// GELI providers and mounts in a pasted `df` listing (seed 000's /dev/ad4s1g.eli).
fn df_listing(sys: &mut SystemFacts, p: &Pasted) {
    for b in p.blocks.iter().filter(|b| b.tool.is(&sources::df::SPEC)) {
        let key = b.key.clone();
        for l in b.text.lines() {
            let w: Vec<&str> = l.split_whitespace().collect();
            let (Some(dev), Some(mp)) = (w.first(), w.last()) else {
                continue;
            };
            let Some(name) = dev.strip_prefix("/dev/") else {
                continue;
            };
            let disk = whole_disk(name);
            if disk.is_empty() {
                continue;
            }
            let note = format!("known only from the pasted df listing ({key})");
            let Some(d) = pasted_disk(sys, &disk, &note) else {
                continue;
            };
            if let Some(base) = name.strip_suffix(".eli")
                && !d.layers.iter().any(|l| l.name == name)
            {
                d.layers.push(Layer {
                    kind: Some(LayerKind::Geli),
                    name: name.to_string(),
                    on: vec![base.to_string()],
                    from: vec![key.clone()],
                    ..Default::default()
                });
            }
            if !d.mounts.iter().any(|m| m.mountpoint == *mp) {
                d.mounts.push(Mount {
                    source: dev.to_string(),
                    mountpoint: mp.to_string(),
                    fstype: String::new(),
                    options: String::new(),
                    compression: None,
                });
            }
        }
    }
}

/// smartd's warnings (sources::smartd) as the SMART counters they report, on any OS: the
/// counts are the drive's raw attribute values, read by smartd as smartctl reads them. A
/// counter a pasted smartctl report already gave is kept (it is the whole report).
fn smartd_warnings(sys: &mut SystemFacts, p: &Pasted) {
    use sources::smartd::Warning;
    for b in p
        .blocks
        .iter()
        .filter(|b| b.tool.is(&sources::smartd::SPEC))
    {
        for e in sources::smartd::parse(&b.text) {
            let note = format!("named in smartd's warnings ({})", b.key);
            let Some(d) = pasted_disk(sys, &whole_disk_or(&e.device), &note) else {
                continue;
            };
            // The drive stopped answering a log command smartd had read it with: a command
            // the drive failed, not a counter (checks::media_errors words it as smartd's).
            // The drive's error log grew: commands the drive itself failed since smartd's
            // last check, an event like a logged "device error" (its count is kept too).
            if let Warning::ErrorLogGrew(_, to) = e.warning {
                let mut s = d.smart.value().cloned().unwrap_or_default();
                s.error_log_count = Some(s.error_log_count.map_or(to, |x| x.max(to)));
                d.smart = Fact::known(s, b.key.clone());
                d.kernel_events.push(KernelEvent {
                    kind: KernelEventKind::DeviceError,
                    line: e.line.clone(),
                    from: b.key.clone(),
                });
                continue;
            }
            if let Warning::LogReadFailed(_) = e.warning {
                d.kernel_events.push(KernelEvent {
                    kind: KernelEventKind::DeviceError,
                    line: e.line.clone(),
                    from: b.key.clone(),
                });
                continue;
            }
            if let Warning::CriticalWarning(w) = e.warning {
                let mut h = d.nvme_health.value().cloned().unwrap_or_default();
                if h.critical_warning.is_none() {
                    h.critical_warning = Some(w);
                    d.nvme_health = Fact::known(h, b.key.clone());
                }
                continue;
            }
            let mut s = d.smart.value().cloned().unwrap_or_default();
            match e.warning {
                Warning::Pending(n) => {
                    s.pending_sectors = Some(s.pending_sectors.map_or(n, |x| x.max(n)))
                }
                Warning::OfflineUncorrectable(n) => {
                    s.offline_uncorrectable = Some(s.offline_uncorrectable.map_or(n, |x| x.max(n)))
                }
                // A SCSI drive's informational exception is its SMART health status
                // failing (smartctl prints "SMART Health Status: FAILURE PREDICTION
                // THRESHOLD EXCEEDED" for it).
                Warning::HealthFailed | Warning::PredictedFailure(_) => {
                    s.health_passed = Some(false)
                }
                Warning::SelfTestErrors(n) => {
                    s.self_test_errors = Some(s.self_test_errors.map_or(n, |x| x.max(n)))
                }
                Warning::FailedAttribute(a) => {
                    if !s.failing_attributes.contains(&a) {
                        s.failing_attributes.push(a)
                    }
                }
                Warning::CriticalWarning(_)
                | Warning::LogReadFailed(_)
                | Warning::ErrorLogGrew(..) => {}
            }
            d.smart = Fact::known(s, b.key.clone());
        }
    }
}

/// The check_smart plugin's verdicts (sources::check_smart): the counters it names, on the
/// disk its command's `-d` names, else the disk you pasted.
/// The counters of a pasted `atacontrol smart` table, on the disk its command names (else
/// the pasted disk), unless another source gave the disk's SMART data.
fn atacontrol_smart(sys: &mut SystemFacts, p: &Pasted) {
    for b in p
        .blocks
        .iter()
        .filter(|b| b.tool.is(&sources::atacontrol_smart::SPEC))
    {
        let Some(s) = sources::atacontrol_smart::smart(&b.text) else {
            continue;
        };
        let name = b
            .device
            .as_deref()
            .map(whole_disk_or)
            .unwrap_or_else(|| crate::facts::PASTED_DISK.to_string());
        let note = format!("named by the atacontrol smart table ({})", b.key);
        if let Some(d) = pasted_disk(sys, &name, &note)
            && !d.smart.is_known()
        {
            d.smart = Fact::known(s, b.key.clone());
        }
    }
}

fn check_smart_verdicts(sys: &mut SystemFacts, p: &Pasted) {
    for b in p
        .blocks
        .iter()
        .filter(|b| b.tool.is(&sources::check_smart::SPEC))
    {
        let name = b
            .device
            .as_deref()
            .map(whole_disk_or)
            .unwrap_or_else(|| crate::facts::PASTED_DISK.to_string());
        let note = format!("named by the check_smart verdict ({})", b.key);
        // One verdict per drive: a loop over the drives behind one controller node (`-d
        // /dev/sda -i megaraid,$i`) names the same disk on every line, so the drive the
        // plugin warns about is the one its facts carry (worst status first).
        let mut verdicts = sources::check_smart::parse(&b.text);
        crate::sort::sort_by_key(&mut verdicts, |v| std::cmp::Reverse(v.status.min(2)));
        for v in verdicts {
            let Some(d) = pasted_disk(sys, &name, &note) else {
                continue;
            };
            if d.smart.is_known() {
                continue;
            }
            let mut s = crate::model::Smart::default();
            let lc = sources::check_smart::apply(&v, &mut s);
            set_if_unknown(&mut d.model, v.model.clone(), &b.key);
            set_if_unknown(&mut d.power.load_cycles, lc, &b.key);
            d.smart = Fact::known(s, b.key.clone());
        }
    }
}

/// A disk spun down and then gone to capacity 0 (sources::power_log::medium_lost_after_stop),
/// read over the whole paste: the spin-down tool's log is no kernel log block.
fn medium_lost_after_stop(sys: &mut SystemFacts, p: &Pasted) {
    let text: String = p.lines.iter().map(|l| format!("{}\n", l.text)).collect();
    for d in &mut sys.disks {
        let lines = sources::power_log::medium_lost_after_stop(&text, &d.name);
        let Some(at) = lines
            .last()
            .and_then(|c| p.lines.iter().find(|l| l.text.contains(c.as_str())))
        else {
            continue;
        };
        let mut v = d.power.power_log.value().cloned().unwrap_or_default();
        v.extend(lines);
        d.power.power_log = Fact::known(v, format!("pasted:line {}", at.first));
    }
}

/// The disks pasted dd runs failed on with an I/O error (sources::dd::failed_io_device):
/// such a disk is one the paste speaks of even when no other output names it, so its checks
/// run (media-errors reads the failed run from `user_benchmarks`).
fn failed_runs(sys: &mut SystemFacts) {
    let nodes: Vec<String> = sys
        .user_benchmarks
        .iter()
        .filter_map(sources::dd::failed_io_device)
        .collect();
    for node in nodes {
        if !whole_disk(&node).is_empty() {
            disk_mut(sys, &node);
        }
    }
}

/// The whole disk of a device name, or the name itself when it names none.
fn whole_disk_or(name: &str) -> String {
    match whole_disk(name) {
        w if w.is_empty() => name.to_string(),
        w => w,
    }
}

/// The disk named `disk`, made (with `note`) when the facts have none yet.
fn pasted_disk<'a>(sys: &'a mut SystemFacts, disk: &str, note: &str) -> Option<&'a mut DiskFacts> {
    if !sys.disks.iter().any(|d| d.name == disk) {
        let mut d = DiskFacts::new(disk, &format!("/dev/{disk}"));
        d.notes.push(note.to_string());
        sys.disks.push(d);
    }
    sys.disks.iter_mut().find(|d| d.name == disk)
}

/// The disk a device name (partition, provider, node) is on, made when the facts have
/// none yet.
fn disk_mut<'a>(sys: &'a mut SystemFacts, name: &str) -> Option<&'a mut DiskFacts> {
    let name = name.trim_start_matches("/dev/");
    let disk = match whole_disk(name) {
        w if w.is_empty() => name.to_string(),
        w => w,
    };
    pasted_disk(sys, &disk, "known only from pasted text")
}

/// Fill `f` with `v` unless a source already gave it.
fn set_if_unknown<T>(f: &mut Fact<T>, v: Option<T>, from: &str) {
    if let (false, Some(v)) = (f.is_known(), v) {
        *f = Fact::known(v, from);
    }
}
