//! Areca RAID controllers' CLI (`cli64`, `cli32`): `disk info` (one row per slot, its Usage
//! the raid set it belongs to, "Free", "HotSpare" or "Failed"), `disk info drv=N` (one
//! drive's "Key : value" page with "Device State : FAILED", "Media Error Count : N"),
//! `rsf info` (raid sets: "Normal", "Degraded", "Rebuilding", "Failed" in the State column)
//! and `vsf info` (volume sets: "Normal", "Degraded", "Rebuilding(12.3%)",
//! "Initializing(45%)", "Checking(3%)"). Reference: Areca CLI user manual (the table
//! headers "# Name Disks TotalCap FreeCap DiskChannels State", "# Name Raid Name Level
//! Capacity Ch/Id/Lun State", "# Ch# ModelName Capacity Usage", "# Enc# Slot# ModelName
//! Capacity Usage") and the "GuiErrMsg<0x00>: Success." trailer every command prints.

use crate::sources::raid_controller::{
    ControllerReport, LogicalDrive, PhysicalDrive, logical_state, percent, physical_state,
};
use crate::sources::spec;
use crate::sources::util::{clean_line, leading_u64};

#[derive(Clone, Copy, PartialEq)]
enum Table {
    None,
    Disks,
    RaidSets,
    VolumeSets,
}

fn header(line: &str) -> Option<Table> {
    let w: Vec<&str> = line.split_whitespace().collect();
    if w.first() != Some(&"#") {
        return None;
    }
    if w.contains(&"ModelName") && w.contains(&"Usage") {
        Some(Table::Disks)
    } else if w.contains(&"DiskChannels") || (w.contains(&"Disks") && w.contains(&"State")) {
        Some(Table::RaidSets)
    } else if w.contains(&"Ch/Id/Lun") || (w.contains(&"Level") && w.contains(&"State")) {
        Some(Table::VolumeSets)
    } else {
        None
    }
}

/// "Key   : value" of the one-drive page.
fn kv(line: &str) -> Option<(&str, &str)> {
    let (k, v) = line.split_once(" : ").or_else(|| line.split_once(": "))?;
    Some((k.trim(), v.trim()))
}

/// A table row: the row number, then the rest.
fn row(line: &str) -> Option<(&str, Vec<&str>)> {
    let w: Vec<&str> = line.split_whitespace().collect();
    let (n, rest) = w.split_first()?;
    n.parse::<u32>().ok()?;
    Some((n, rest.to_vec()))
}

/// Every drive and set of the text.
pub fn parse(text: &str) -> ControllerReport {
    let mut out = ControllerReport::default();
    let mut table = Table::None;
    // The one-drive page: (location, state line, media errors).
    let mut page: Option<PhysicalDrive> = None;
    let flush = |page: &mut Option<PhysicalDrive>, out: &mut ControllerReport| {
        if let Some(p) = page.take()
            && !p.state.is_empty()
        {
            out.physical.push(p);
        }
    };
    for raw in text.lines() {
        let line = clean_line(raw);
        let t = line.trim();
        if let Some(h) = header(t) {
            table = h;
            continue;
        }
        if t.starts_with("====") || t.is_empty() {
            continue;
        }
        if t.starts_with("GuiErrMsg") {
            table = Table::None;
            continue;
        }
        if t.starts_with("Drive Information") {
            flush(&mut page, &mut out);
            page = Some(PhysicalDrive::default());
            table = Table::None;
            continue;
        }
        if let Some((k, v)) = kv(t)
            && table == Table::None
        {
            let p = page.get_or_insert_with(PhysicalDrive::default);
            match k {
                "Device Location" => p.address = v.to_string(),
                "Device State" => {
                    let (failed, predictive, rebuilding) = physical_state(v);
                    p.state = v.to_string();
                    p.failed = failed;
                    p.predictive_failure = predictive;
                    p.rebuilding = rebuilding;
                    p.line = t.to_string();
                }
                "Media Error Count" => p.media_errors = leading_u64(v),
                _ => {}
            }
            continue;
        }
        let Some((n, cols)) = row(t) else { continue };
        match table {
            Table::Disks => {
                // "# Ch# ModelName Capacity Usage" or "# Enc# Slot# ModelName Capacity
                // Usage": the Usage is everything after the capacity (a raid set's name
                // may hold blanks), the slot the columns before the model.
                let Some(cap) = cols
                    .iter()
                    .position(|c| c.ends_with("GB") || c.ends_with("TB"))
                else {
                    continue;
                };
                let usage = cols.get(cap.saturating_add(1)..).unwrap_or(&[]).join(" ");
                let (failed, _, rebuilding) = physical_state(&usage);
                let slot = match cols.as_slice() {
                    [enc, s, num, ..] if s.starts_with("Slot") && *s != "Slot#" => {
                        format!("enclosure {enc} slot {num}")
                    }
                    [enc, s, ..] if s.starts_with("Slot#") => format!("enclosure {enc} {s}"),
                    [ch, ..] => format!("channel {ch}"),
                    [] => format!("drive {n}"),
                };
                out.physical.push(PhysicalDrive {
                    address: slot,
                    state: usage,
                    failed,
                    rebuilding,
                    line: t.to_string(),
                    ..Default::default()
                });
            }
            Table::RaidSets | Table::VolumeSets => {
                let Some(state) = cols.last() else { continue };
                let (degraded, task) = logical_state(state);
                // A raid set's name may be "Raid Set # 00": it ends at the first number
                // (the disk count) that does not follow a "#"; a volume set's is one word.
                let name_end = if table == Table::VolumeSets {
                    1
                } else {
                    (1..cols.len())
                        .find(|&i| {
                            cols.get(i)
                                .is_some_and(|c| c.chars().all(|x| x.is_ascii_digit()))
                                && cols.get(i.saturating_sub(1)) != Some(&"#")
                        })
                        .unwrap_or(1)
                };
                let name = cols.get(..name_end).unwrap_or(&[]).join(" ");
                let level = cols
                    .iter()
                    .find(|c| c.starts_with("Raid") && c.len() <= 8 && *c != &"Raid")
                    .map(|s| s.to_string());
                out.logical.push(LogicalDrive {
                    name: if table == Table::RaidSets {
                        format!("raid set {name}")
                    } else {
                        format!("volume set {name}")
                    },
                    level,
                    state: state.to_string(),
                    degraded,
                    task,
                    percent: task.and_then(|_| percent(state)),
                    line: t.to_string(),
                    ..Default::default()
                });
            }
            Table::None => {}
        }
    }
    flush(&mut page, &mut out);
    out
}

// ---- the source spec (see sources::spec) ----

fn is_member(line: &str) -> bool {
    let l = clean_line(line);
    let t = l.trim();
    header(t).is_some()
        || t.starts_with("====")
        || t.starts_with("GuiErrMsg")
        || t.starts_with("Drive Information")
        || row(t).is_some()
        || kv(t).is_some_and(|(k, _)| !k.is_empty() && k.len() <= 40)
}

fn start(lines: &[&str]) -> spec::Start {
    let Some(first) = lines.first() else {
        return spec::Start::No;
    };
    let t = clean_line(first);
    let t = t.trim();
    if header(t).is_some() {
        return spec::Start::Yes;
    }
    // The one-drive page: its title, or (title cut off) its first keys.
    if t.starts_with("Drive Information") {
        return spec::Start::Yes;
    }
    spec::Start::from(
        kv(t).is_some_and(|(k, _)| k == "Device Type")
            && lines
                .iter()
                .skip(1)
                .take(2)
                .any(|l| clean_line(l).trim_start().starts_with("Device Location")),
    )
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "areca-cli",
    starts: &[(61, start)],
    member: |t, _| spec::Member::from(is_member(t)),
    tolerance: (1, 0),
    classify: |_, _| "areca-cli",
    ..spec::Recogniser::NONE
};

/// `cli64 disk info [drv=N]`, `cli64 rsf info`, `cli64 vsf info [vol=N]`.
fn args(a: &str) -> bool {
    let a = a.trim_start();
    ["disk", "rsf", "vsf", "hw", "sys", "set", "event", "main"]
        .iter()
        .any(|w| a.starts_with(w))
}

/// The SAS address in "Device Type : SAS(5000C50042B11C01)".
fn sas_address(text: &str) -> Vec<spec::Found> {
    text.lines()
        .filter_map(|l| {
            let (k, v) = kv(clean_line(l).trim()).map(|(k, v)| (k.to_string(), v.to_string()))?;
            if k != "Device Type" {
                return None;
            }
            let inner = v.split_once('(')?.1.split_once(')')?.0.to_string();
            (inner.len() >= 12 && inner.chars().all(|c| c.is_ascii_hexdigit()))
                .then(|| spec::Found::sure(spec::SecretKind::Wwn, &inner))
        })
        .collect()
}

pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, _| {
        matches!(p, "cli64" | "cli32")
    })),
    programs: &[
        spec::Program::new("cli64", args),
        spec::Program::new("cli32", args),
    ],
    // "Serial Number : X" is the generic rule's.
    secrets: &[spec::Secret::Scan(sas_address)],
    ..spec::SourceSpec::named("areca-cli", "Areca RAID CLI (cli64)")
};

#[cfg(test)]
mod tests;
