//! What pasted RAID controller tools (ssacli, arcconf, Areca cli64, MegaCli,
//! megaclisas-status, tw_cli, the check_raid plugin, storcli: sources::raid_controller) and the
//! partitioning tools' own messages (parted, mkfs.xfs, fdisk's DOS limit) prove: the
//! controller's logical drives as arrays (degraded, rebuilding, verifying) for
//! array-rebuilding, its failed or failing drives for media-errors, and the tools'
//! alignment and MBR-limit verdicts for partition-misaligned and partition-table-limit.
//! Read on any OS: the tools print the same text on Linux, FreeBSD and Windows.

use crate::facts::{self, ArrayActivity, ControllerDrive, DiskFacts, Fact, SystemFacts};
use crate::pasted::{Block, Pasted};
use crate::sources;
use crate::sources::raid_controller::ControllerReport;

/// The controller report of a block of one of the RAID tools; None for other blocks.
fn report(b: &Block) -> Option<ControllerReport> {
    let t = b.tool;
    Some(if t.is(&sources::ssacli::SPEC) {
        sources::ssacli::parse(&b.text)
    } else if t.is(&sources::areca_cli::SPEC) {
        sources::areca_cli::parse(&b.text)
    } else if t.is(&sources::arcconf::SPEC) {
        sources::arcconf::parse(&b.text)
    } else if t.is(&sources::megacli::SPEC) {
        sources::megacli::parse(&b.text)
    } else if t.is(&sources::megaclisas_status::SPEC) {
        sources::megaclisas_status::parse(&b.text)
    } else if t.is(&sources::tw_cli::SPEC) {
        sources::tw_cli::parse(&b.text)
    } else if t.is(&sources::check_raid::SPEC) {
        sources::check_raid::parse(&b.text)
    } else if t.is(&sources::storcli::SPEC) {
        sources::storcli::parse(&b.text).report
    } else if t.is(&sources::omreport::SPEC) {
        sources::omreport::parse(&b.text).report
    } else if t.is(&sources::omsa_alert_log::SPEC) {
        sources::omsa_alert_log::parse(&b.text)
    } else if t.is(&sources::esos_health_chk::SPEC) {
        sources::esos_health_chk::parse(&b.text)
    } else if t.is(&sources::geom_status::SPEC) {
        sources::geom_status::parse(&b.text)
    } else if t.is(&sources::mdadm_assemble::SPEC) {
        sources::mdadm_assemble::parse(&b.text)
    } else if t.is(&sources::nmdctl::SPEC) {
        sources::nmdctl::parse(&b.text)
    } else {
        return None;
    })
}

/// The arrays known so far, taken out of the facts to be added to.
fn take_arrays(sys: &mut SystemFacts) -> Vec<ArrayActivity> {
    match std::mem::replace(&mut sys.arrays, Fact::unknown("")) {
        Fact::Known { value, .. } => value,
        Fact::Unknown { .. } => Vec::new(),
    }
}

/// Put the arrays back, with every source that spoke of them.
fn put_arrays(sys: &mut SystemFacts, arrays: Vec<ArrayActivity>) {
    let mut from: Vec<String> = Vec::new();
    for f in arrays.iter().flat_map(|a| a.from.iter()) {
        if !from.contains(f) {
            from.push(f.clone());
        }
    }
    sys.arrays = Fact::known_from(arrays, from);
}

/// One report of an array, merged into what another source said of the same one.
fn merge_array(arrays: &mut Vec<ArrayActivity>, a: ArrayActivity, key: &str) {
    match arrays
        .iter_mut()
        .find(|x| x.kind == a.kind && x.name == a.name)
    {
        Some(x) => {
            x.degraded |= a.degraded;
            if x.action == "idle" {
                x.action = a.action;
            }
            x.percent_done = x.percent_done.or(a.percent_done);
            x.io_failure = x.io_failure.take().or(a.io_failure);
            x.data_errors = x.data_errors.take().or(a.data_errors);
            if !x.from.iter().any(|f| f == key) {
                x.from.push(key.to_string());
            }
        }
        None => arrays.push(a),
    }
}

/// Software RAID arrays the pasted kernel lines report degraded or rebuilding
/// (sources::raid_log), whatever block the lines were read into.
fn logged_arrays(sys: &mut SystemFacts, p: &Pasted) {
    let text: String = p.lines.iter().map(|l| format!("{}\n", l.text)).collect();
    let logged = sources::raid_log::parse(&text);
    if logged.is_empty() {
        return;
    }
    let mut arrays = take_arrays(sys);
    for l in logged {
        let key = p
            .lines
            .get(l.line_index)
            .map(|x| format!("pasted:line {}", x.first))
            .unwrap_or_else(|| "pasted kernel log".to_string());
        let a = ArrayActivity {
            name: l.name.clone(),
            kind: l.kind.to_string(),
            action: l.task.map_or("idle", |t| t.action()).to_string(),
            degraded: l.degraded,
            from: vec![key.clone()],
            ..Default::default()
        };
        merge_array(&mut arrays, a, &key);
    }
    put_arrays(sys, arrays);
}

/// Add what the RAID and partitioning tools' blocks prove to the facts.
pub(super) fn derive(sys: &mut SystemFacts, p: &Pasted) {
    logged_arrays(sys, p);
    let reports: Vec<Option<ControllerReport>> = p.blocks.iter().map(report).collect();
    // The cache's backup power is often another command's output (`MegaCli -AdpBbuCmd`,
    // `storcli /c0/bbu show`) than the volumes it leaves write-through.
    let protection = reports
        .iter()
        .flatten()
        .find_map(|r| r.cache_protection.clone());
    for (b, r) in p.blocks.iter().zip(&reports) {
        if let Some(r) = r {
            controller(sys, b, r);
            cache_off(sys, b, r, protection.as_deref());
        }
        if b.tool.is(&sources::omreport::SPEC) {
            omreport_write_through(sys, b);
        }
        // A btrfs filesystem's scrub (pasted only: no probe runs it), like a pool's.
        if b.tool.is(&sources::btrfs_scrub::SPEC) {
            let mut arrays = take_arrays(sys);
            for a in facts::arrays::btrfs_arrays(&b.text, &b.key) {
                merge_array(&mut arrays, a, &b.key);
            }
            put_arrays(sys, arrays);
        }
        partition_messages(sys, b);
    }
}

fn controller(sys: &mut SystemFacts, b: &Block, r: &ControllerReport) {
    let key = b.key.clone();
    let tool = b.tool.id();
    if !r.logical.is_empty() {
        let mut arrays = take_arrays(sys);
        for l in &r.logical {
            // A check_raid line over mdstat names md arrays: they are md's, as are the
            // arrays mdadm assembles.
            let kind =
                if (tool == "check-raid" && l.name.starts_with("md")) || tool == "mdadm-assemble" {
                    "md"
                } else {
                    tool
                };
            let a = ArrayActivity {
                name: l.name.clone(),
                kind: kind.to_string(),
                action: l.task.map_or("idle", |t| t.action()).to_string(),
                degraded: l.degraded,
                percent_done: l.percent,
                remaining: None,
                members: Vec::new(),
                from: vec![key.clone()],
                ..Default::default()
            };
            merge_array(&mut arrays, a, &key);
        }
        put_arrays(sys, arrays);
    }
    controller_media(sys, tool, &key, r);
    for d in r.physical.iter().filter(|d| d.has_problem()) {
        let state = ControllerDrive {
            tool: tool.to_string(),
            address: d.address.clone(),
            state: d.state.clone(),
            failed: d.failed,
            predictive_failure: d.predictive_failure,
            media_errors: d.media_errors,
            unrecoverable_media: false,
            line: d.line.clone(),
            from: key.clone(),
        };
        let what = "a drive behind a RAID controller";
        if let Some(disk) = controller_disk(sys, &d.address, what, tool, &key)
            && disk.controller_drive.is_none()
        {
            disk.controller_drive = Some(state);
        }
    }
}

/// The disk a controller's tool names (a drive by its address, a logical drive, the
/// controller), made when the facts have none yet. It has no node of its own here: the
/// controller shows only its volumes to the OS, so it has no /dev path.
fn controller_disk<'a>(
    sys: &'a mut SystemFacts,
    name: &str,
    what: &str,
    tool: &str,
    key: &str,
) -> Option<&'a mut DiskFacts> {
    if !sys.disks.iter().any(|x| x.name == name) {
        let mut disk = DiskFacts::new(name, "");
        disk.notes.push(format!(
            "{what}, known only from the pasted {tool} output ({key})"
        ));
        sys.disks.push(disk);
    }
    sys.disks.iter_mut().find(|x| x.name == name)
}

/// A logical drive whose members the controller found unreadable sectors on (HPE Smart
/// Array "Unrecoverable Media Errors: Detected", sources::ssacli): a drive of its own,
/// named by the tool as the controller's failed drives are, for media-errors to read.
fn controller_media(sys: &mut SystemFacts, tool: &str, key: &str, r: &ControllerReport) {
    for l in &r.logical {
        let Some(line) = &l.media_line else {
            continue;
        };
        let what = "a RAID controller's logical drive";
        if let Some(disk) = controller_disk(sys, &l.name, what, tool, key)
            && disk.controller_drive.is_none()
        {
            disk.controller_drive = Some(ControllerDrive {
                tool: tool.to_string(),
                address: l.name.clone(),
                state: l.state.clone(),
                unrecoverable_media: true,
                line: line.clone(),
                from: key.to_string(),
                ..Default::default()
            });
        }
    }
}

/// The note on a controller whose one cache is off for every volume on it (checks::
/// write_cache_disabled titles the finding by it).
pub(crate) const WHOLE_CONTROLLER_NOTE: &str =
    "the controller's cache is off for every logical drive on it";

/// The logical drives (or whole controllers) a controller runs write-through
/// (sources::raid_controller::CacheOff): each a RAID volume whose write cache is off, the fact
/// write-cache-disabled reads, with the tool's line, whether the controller turned the cache
/// off itself against the policy it was set to, and the cache protection's state (a failed
/// or charging BBU/CacheVault is the usual reason) in notes.
fn cache_off(sys: &mut SystemFacts, b: &Block, r: &ControllerReport, protection: Option<&str>) {
    let tool = b.tool.id();
    for c in &r.cache_off {
        let what = "a RAID controller's volume";
        let Some(d) = controller_disk(sys, &c.name, what, tool, &b.key) else {
            continue;
        };
        d.class = Fact::known(facts::DeviceClass::RaidVolume, b.key.clone());
        d.write_cache_enabled = Fact::known(false, b.key.clone());
        let why = c
            .why
            .as_ref()
            .map(|w| format!(" ({w})"))
            .unwrap_or_default();
        d.notes
            .push(format!("{tool} write policy: {}{why}", c.line));
        if c.whole_controller {
            d.notes.push(WHOLE_CONTROLLER_NOTE.to_string());
        }
        if c.fallback {
            d.notes.push(
                "the controller turned this write cache off itself, against the policy it \
                 was set to"
                    .to_string(),
            );
        }
        if let Some(p) = protection {
            d.notes.push(format!(
                "the controller's cache protection (BBU/CacheVault) reports \"{p}\""
            ));
        }
    }
}

/// omreport's virtual disks with Write Policy "Write Through": the volume's OS node (its
/// "Device Name", else the virtual disk's name) is a RAID volume whose write cache is off.
fn omreport_write_through(sys: &mut SystemFacts, b: &Block) {
    for w in sources::omreport::parse(&b.text).write_through {
        let name = w.device.clone().unwrap_or_else(|| w.name.clone());
        let note = format!(
            "a RAID controller's virtual disk, known only from the pasted omreport output ({})",
            b.key
        );
        let Some(d) = super::pasted_disk(sys, &name, &note) else {
            continue;
        };
        d.class = Fact::known(facts::DeviceClass::RaidVolume, b.key.clone());
        d.write_cache_enabled = Fact::known(false, b.key.clone());
        d.notes.push(format!("omreport: {} ({})", w.line, w.name));
    }
}

/// parted's, growpart's, mkfs.xfs's and fdisk's verdicts, and the kernel's GPT reader's (FreeBSD GEOM,
/// Linux efi.c) complaint of a backup header short of the disk's end, on the disk they name (a partition's whole
/// disk), else the disk the block's device names, else the disk you pasted.
fn partition_messages(sys: &mut SystemFacts, b: &Block) {
    let msgs = if b.tool.is(&sources::parted::SPEC) {
        sources::parted::parse(&b.text)
    } else if b.tool.is(&sources::growpart::SPEC) {
        sources::growpart::parse(&b.text)
    } else if b.tool.is(&sources::mkfs_xfs::SPEC) {
        sources::mkfs_xfs::parse(&b.text)
    } else if b.tool.is(&sources::fdisk::SPEC) {
        let mut v = sources::fdisk::parse_limit(&b.text);
        v.extend(sources::fdisk::parse_boundary(&b.text));
        v
    } else if b.tool.is(&sources::dmesg::SPEC) {
        sources::dmesg::gpt_backup_not_at_end(&b.text)
    } else if b.tool.is(&sources::kernel_log::LINUX_SPEC) {
        sources::kernel_log::gpt_backup_not_at_end(&b.text)
    } else {
        return;
    };
    for mut m in msgs {
        m.from = b.key.clone();
        let named = m
            .partition
            .as_deref()
            .filter(|p| !p.chars().all(|c| c.is_ascii_digit()))
            .or(b.device.as_deref())
            .map(|n| n.trim_start_matches("/dev/").to_string());
        let disk = super::drive_tools::disk_name(sys, named.as_deref());
        let note = format!("known only from the pasted {} messages ({})", m.tool, b.key);
        let Some(d) = super::pasted_disk(sys, &disk, &note) else {
            continue;
        };
        if !d.tool_messages.iter().any(|x| x.line == m.line) {
            d.tool_messages.push(m);
        }
    }
}
