//! HPE Smart Array CLI: `ssacli` (and its older names `hpssacli`, `hpacucli`) `ctrl all show
//! config [detail]`, `ctrl slot=N ld all show`, `pd all show [status]`. Reference: HPE Smart
//! Storage Administrator CLI user guide (logical drive status: OK, Interim Recovery Mode =
//! degraded, Ready for Rebuild, Recovering = rebuilding with "N% complete", Failed,
//! Expanding; physical drive status: OK, Failed, Predictive Failure, Rebuilding).
//!
//! The summary forms put the status last in the parentheses:
//! "logicaldrive 1 (1.64 TB, RAID 6, Interim Recovery Mode)",
//! "logicaldrive 2 (16.00 TB, RAID 6, Recovering, 55.73% complete)",
//! "physicaldrive 2I:1:7 (port 2I:box 1:bay 7, SAS HDD, 300 GB, Failed)" (a ", spare" may
//! follow), and `pd all show status` puts it after a colon:
//! "physicaldrive 1I:1:1 (port 1I:box 1:bay 1, 0 GB): Failed". The detail form prints a bare
//! "physicaldrive 1I:1:1" or "Logical Drive: 1" heading with a "Status: ..." line below.
//!
//! The controller's own lines (`ctrl all show status`, `show detail`): "Cache Status: OK |
//! Temporarily Disabled | Permanently Disabled" with "Cache Status Details: Cache disabled;
//! battery/capacitor charge is low." (the posted write cache off for every logical drive:
//! HPE Smart Array controllers disable it while the backup power cannot protect it), and
//! "Battery/Capacitor Status: OK | Recharging | Failed (Replace Batteries)". "No-Battery
//! Write Cache" (write-back without backup power, off by default) and "Drive Write Cache"
//! (the member drives' own caches, off by default behind the controller's) are settings, not
//! the controller cache being off.

use crate::sources::raid_controller::{
    CacheOff, ControllerReport, LogicalDrive, PhysicalDrive, cache_status_off,
};
use crate::sources::spec;
use crate::sources::util::clean_line;

crate::rx!(
    LD,
    r"^\s*logicaldrive\s+(\d+)\s+\(([^)]*)\)\s*(?::\s*(.+))?$"
);
crate::rx!(
    PD,
    r"^\s*physicaldrive\s+(\S+)\s+\(([^)]*)\)\s*(?::\s*(.+))?$"
);
crate::rx!(PD_HEAD, r"^\s*physicaldrive\s+(\S+)\s*$");
crate::rx!(LD_HEAD, r"^\s*Logical Drive:\s*(\d+)\s*$");
crate::rx!(STATUS, r"^\s*Status:\s*(.+)$");
// A logical drive's detail field (ssacli `show config detail`, `ld N show detail`):
// "Unrecoverable Media Errors: None" or "Detected". HPE's advisory beside it: "Unrecoverable
// Media Errors Detected on Drives during previous Rebuild or Background Surface Analysis
// (ARM) scan. Errors will be fixed automatically when the sector(s) are overwritten. Backup
// and Restore are recommended." Sectors of the members the controller could not read, so
// the stripes holding them could not be rebuilt.
crate::rx!(
    UNRECOVERABLE,
    r"^\s*Unrecoverable Media Errors:\s*(Detected|None)\s*$"
);
// The summary form prints the same advisory as a "Warning: Unrecoverable Media Errors
// Detected on Drives ..." paragraph before the logical drive it concerns, or once under the
// controller heading ending "The following logical drives are affected: 2".
crate::rx!(
    ARM_AFFECTED,
    r"logical drives? (?:are|is) affected:\s*([\d, ]+)"
);
crate::rx!(
    CTRL,
    r"^\s*(?:HPE? )?(?:Dynamic )?Smart (?:Array|HBA)\b.* in Slot \w+"
);
crate::rx!(ARRAY, r"^\s*[Aa]rray [A-Z]{1,2}\b(?: \(|\s*$)");
// "array B (Failed)", "Array A (SAS, Unused Space: 0 MB, Status: Failed Physical Drive)":
// the array's own status when it is not OK.
crate::rx!(ARRAY_STATUS, r"^\s*[Aa]rray ([A-Z]{1,2})\s*\(([^)]*)\)");

/// The status of a summary line: the part after the colon (`pd all show status`), else
/// the parenthesised list's fields from the RAID level on (logical) or its last field
/// that is not "spare" (physical).
fn ld_status(fields: &str, after: Option<&str>) -> (Option<String>, String) {
    let parts: Vec<&str> = fields.split(',').map(str::trim).collect();
    let level = parts
        .iter()
        .find(|p| p.starts_with("RAID"))
        .map(|s| s.to_string());
    if let Some(a) = after {
        return (level, a.trim().to_string());
    }
    let from = parts
        .iter()
        .position(|p| p.starts_with("RAID"))
        .map_or(parts.len().saturating_sub(1), |i| i.saturating_add(1));
    (level, parts.get(from..).unwrap_or(&[]).join(", "))
}

fn pd_status(fields: &str, after: Option<&str>) -> String {
    if let Some(a) = after {
        return a.trim().to_string();
    }
    fields
        .split(',')
        .map(str::trim)
        .rev()
        .find(|p| !p.eq_ignore_ascii_case("spare") && !p.is_empty())
        .unwrap_or("")
        .to_string()
}

/// Every logical and physical drive of the text.
pub fn parse(text: &str) -> ControllerReport {
    let mut out = ControllerReport::default();
    // The heading of a detail section whose "Status:" line is still to come.
    enum Pending {
        None,
        Ld(String),
        Pd(String),
    }
    let mut pending = Pending::None;
    // The logical drive whose detail fields are being read (its "Status:" line pushed it).
    let mut detail_ld: Option<usize> = None;
    // The controller heading, an advisory waiting for its logical drive, the drives an
    // advisory lists.
    let mut ctrl = String::from("Smart Array controller");
    let mut arm: Option<String> = None;
    let mut affected: Vec<(String, String)> = Vec::new();
    for raw in text.lines() {
        let line = clean_line(raw);
        let t = line.trim();
        if CTRL.is_match(&line) {
            ctrl = t.split("(sn:").next().unwrap_or(t).trim().to_string();
            continue;
        }
        if let Some(v) = t.strip_prefix("Cache Status:") {
            if cache_status_off(v) && !out.cache_off.iter().any(|c| c.name == ctrl) {
                out.cache_off.push(CacheOff {
                    name: ctrl.clone(),
                    line: t.to_string(),
                    fallback: true,
                    whole_controller: true,
                    why: None,
                });
            }
            continue;
        }
        if let Some(v) = t.strip_prefix("Cache Status Details:") {
            if let Some(c) = out.cache_off.iter_mut().find(|c| c.name == ctrl) {
                c.why = Some(v.trim().to_string());
            }
            continue;
        }
        if let Some(v) = t.strip_prefix("Battery/Capacitor Status:") {
            out.cache_protection = Some(v.trim().to_string());
            continue;
        }
        if t.starts_with("Warning: Unrecoverable Media Errors Detected") {
            arm = Some(t.to_string());
            continue;
        }
        if let Some(c) = ARM_AFFECTED.captures(t) {
            let w = arm.take().unwrap_or_else(|| t.to_string());
            for n in c.get(1).map_or("", |m| m.as_str()).split(',') {
                affected.push((format!("logicaldrive {}", n.trim()), w.clone()));
            }
            continue;
        }
        if let Some(c) = UNRECOVERABLE.captures(&line) {
            if c.get(1).is_some_and(|m| m.as_str() == "Detected")
                && let Some(d) = detail_ld.and_then(|i| out.logical.get_mut(i))
            {
                d.media_line = Some(line.trim().to_string());
            }
            continue;
        }
        if LD.is_match(&line) || PD.is_match(&line) || PD_HEAD.is_match(&line) {
            detail_ld = None;
        }
        if let Some(c) = LD.captures(&line) {
            let (level, status) = ld_status(
                c.get(2).map_or("", |m| m.as_str()),
                c.get(3).map(|m| m.as_str()),
            );
            let n = c.get(1).map_or("", |m| m.as_str());
            let mut d =
                LogicalDrive::from_state(format!("logicaldrive {n}"), level, &status, &line);
            d.media_line = arm.take();
            out.logical.push(d);
            pending = Pending::None;
        } else if let Some(c) = PD.captures(&line) {
            let status = pd_status(
                c.get(2).map_or("", |m| m.as_str()),
                c.get(3).map(|m| m.as_str()),
            );
            let a = c.get(1).map_or("", |m| m.as_str());
            out.physical
                .push(PhysicalDrive::from_state(a, &status, &line));
            pending = Pending::None;
        } else if let Some(c) = ARRAY_STATUS.captures(&line) {
            // A failed physical drive the array has lost, though each logical drive on
            // it may still say OK (check_raid issue 98: "array B (Failed)").
            let inner = c.get(2).map_or("", |m| m.as_str());
            let status = inner
                .split(',')
                .map(str::trim)
                .find(|p| p.contains("Failed"))
                .map(|p| p.trim_start_matches("Status:").trim().to_string());
            if let Some(st) = status {
                let n = c.get(1).map_or("", |m| m.as_str());
                let mut d = LogicalDrive::from_state(format!("array {n}"), None, &st, &line);
                d.degraded = true;
                out.logical.push(d);
            }
            pending = Pending::None;
        } else if let Some(c) = PD_HEAD.captures(&line) {
            pending = Pending::Pd(c.get(1).map_or("", |m| m.as_str()).to_string());
        } else if let Some(c) = LD_HEAD.captures(&line) {
            pending = Pending::Ld(c.get(1).map_or("", |m| m.as_str()).to_string());
        } else if let Some(c) = STATUS.captures(&line) {
            let status = c.get(1).map_or("", |m| m.as_str()).trim().to_string();
            match std::mem::replace(&mut pending, Pending::None) {
                Pending::Ld(n) => {
                    let mut d =
                        LogicalDrive::from_state(format!("logicaldrive {n}"), None, &status, &line);
                    d.media_line = arm.take();
                    out.logical.push(d);
                    detail_ld = out.logical.len().checked_sub(1);
                }
                Pending::Pd(a) => out
                    .physical
                    .push(PhysicalDrive::from_state(&a, &status, &line)),
                Pending::None => {}
            }
        }
    }
    // An advisory whose logical drive the paste does not show stays the controller's.
    affected.extend(arm.map(|w| (ctrl, w)));
    for (name, w) in affected {
        match out.logical.iter_mut().find(|d| d.name == name) {
            Some(d) => d.media_line = d.media_line.take().or(Some(w)),
            None => {
                let mut d = LogicalDrive::from_state(name, None, "", &w);
                d.media_line = Some(w);
                out.logical.push(d);
            }
        }
    }
    out
}

// ---- the source spec (see sources::spec) ----

fn is_own(line: &str) -> bool {
    let l = clean_line(line);
    LD.is_match(&l)
        || PD.is_match(&l)
        || PD_HEAD.is_match(&l)
        || LD_HEAD.is_match(&l)
        || CTRL.is_match(&l)
        || ARRAY.is_match(&l)
}

/// A line of the detail form ("   Status: OK", "Serial Number: X", "Port: 1I") or a
/// warning the tool prints between drives.
fn is_detail(line: &str) -> bool {
    let l = clean_line(line);
    let t = l.trim_start();
    (l.starts_with(' ') && t.split_once(": ").is_some_and(|(k, _)| k.len() <= 48))
        || t.starts_with("Unassigned")
        || t.starts_with("HBA Drives")
        || t.starts_with("Warning:")
        || t.starts_with("FIRMWARE UPGRADE REQUIRED:")
        // The hanging indent of a multi-line advisory ("FIRMWARE UPGRADE REQUIRED: ...").
        || l.starts_with("                    ")
}

fn start(lines: &[&str]) -> spec::Start {
    let Some(first) = lines.first() else {
        return spec::Start::No;
    };
    let l = clean_line(first);
    if LD.is_match(&l) || PD.is_match(&l) {
        return spec::Start::Yes;
    }
    // One drive's detail section pasted alone (`ssacli ctrl slot=0 pd 1I:1:3 show detail`):
    // its bare heading with its "Status:" line a few field lines below (the tool prints
    // Port, Box and Bay first).
    if PD_HEAD.is_match(&l) || LD_HEAD.is_match(&l) {
        let status = lines
            .iter()
            .skip(1)
            .take(8)
            .map(|x| clean_line(x))
            .any(|x| STATUS.is_match(&x));
        return spec::Start::from(status);
    }
    // hpacucli prints a firmware advisory before the controller heading.
    if l.starts_with("FIRMWARE UPGRADE REQUIRED:") {
        return spec::Start::Yes;
    }
    // A controller heading or "Array A" with a drive line within the next lines.
    if CTRL.is_match(&l) || ARRAY.is_match(&l) {
        let drive = lines
            .iter()
            .skip(1)
            .take(6)
            .map(|x| clean_line(x))
            .any(|x| {
                let x = x.trim_start();
                LD.is_match(x)
                    || PD.is_match(x)
                    || ["Bus", "Controller Status:", "Cache Status:"]
                        .iter()
                        .any(|w| x.starts_with(w))
            });
        return spec::Start::from(drive);
    }
    spec::Start::No
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "ssacli",
    starts: &[(60, start)],
    member: |t, _| spec::Member::from(is_own(t) || is_detail(t)),
    // The tool separates arrays and sections by one or two blank lines, and prints
    // multi-line warnings between logical drives.
    tolerance: (2, 4),
    classify: |_, _| "ssacli",
    ..spec::Recogniser::NONE
};

/// `ssacli ctrl all show config`, `ssacli controller slot=0 pd all show`, and the
/// interactive prompt's "=> ctrl ..." (the program's arguments start with a target).
fn args(a: &str) -> bool {
    let a = a.trim_start().to_ascii_lowercase();
    ["ctrl", "controller", "-i", "help", "version"]
        .iter()
        .any(|w| a.starts_with(w))
}

/// The controller's serial in its heading: "Smart Array P410i in Slot 0 (Embedded)    (sn:
/// 50014380086260C0)".
fn controller_serial(text: &str) -> Vec<spec::Found> {
    text.lines()
        .filter_map(|l| {
            let (_, rest) = l.split_once("(sn: ")?;
            let sn = rest.split(')').next()?.trim();
            (!sn.is_empty()).then(|| spec::Found::sure(spec::SecretKind::Serial, sn))
        })
        .collect()
}

pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, _| {
        matches!(p, "ssacli" | "hpssacli" | "hpacucli")
    })),
    programs: &[
        spec::Program::new("ssacli", args),
        spec::Program::new("hpssacli", args),
        spec::Program::new("hpacucli", args),
    ],
    mention: Some(r"(?:hp)?(?:ssacli|hpacucli)\s+(?:ctrl|controller)"),
    // The detail form's "Serial Number: X" is the generic rule's; its "WWID: X" (the SAS
    // address) and the controller's "Cache Serial Number: X" are these.
    secrets: &[
        spec::Secret::Scan(controller_serial),
        spec::Secret::After("wwid:", spec::SecretKind::Wwn),
        spec::Secret::After("cache serial number:", spec::SecretKind::Serial),
    ],
    ..spec::SourceSpec::named("ssacli", "HPE Smart Array CLI (ssacli, hpacucli)")
};

#[cfg(test)]
mod tests;
