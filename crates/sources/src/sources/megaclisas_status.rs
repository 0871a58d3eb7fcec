//! `megaclisas-status` (and `megaraidsas-status`), the summary script over LSI MegaCli that
//! Debian and hwraid.le-vert.net ship: sections "-- Controller information --",
//! "-- Array information --", "-- Disk information --", "-- Unconfigured Disk information
//! --", each a "-- ID | ... |" header and "|"-separated rows. Array rows ("c0u0") carry a
//! Status (Optimal, Degraded, Partially Degraded, Offline) and, in later versions, an
//! InProgress column ("None", "Rebuild 45%", "Background Initialization 37%"); disk rows
//! ("c0u0p3", "c0uXpY") a Status ("Online, Spun Up", "Failed", "Rebuild", "Offline",
//! "Unconfigured(bad)"). The script ends with "There is at least one disk/array in a NOT
//! OPTIMAL state." when anything is not optimal. The columns are found by their header
//! names, so versions that add or move columns read the same.

use crate::sources::raid_controller::{
    ControllerReport, LogicalDrive, PhysicalDrive, Task, logical_state, percent,
};
use crate::sources::spec;
use crate::sources::util::clean_line;

fn cells(line: &str) -> Vec<String> {
    line.trim()
        .trim_start_matches("--")
        .split('|')
        .map(|c| c.trim().to_string())
        .collect()
}

fn is_header(t: &str) -> bool {
    t.starts_with("-- ID") && t.contains('|')
}

fn is_section(t: &str) -> bool {
    t.starts_with("-- ") && t.ends_with(" --") && t.contains("information")
}

/// A row id: "c0" (controller), "c0u0" (array), "c0u0p3" / "c0uXpY" (disk).
fn row_id(id: &str) -> Option<(bool, bool)> {
    let rest = id.strip_prefix('c')?;
    let digits = rest.chars().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 {
        return None;
    }
    let tail = rest.get(digits..)?;
    let is_disk = tail.contains('p');
    let is_array = tail.starts_with('u') && !is_disk;
    Some((is_array, is_disk))
}

/// The table rows of the text (cells and the trimmed line), each with the header row above it (megaclisas-status
/// prints a header line before each table; columns are found by name, since versions add
/// and reorder them).
fn rows(text: &str) -> Vec<(Vec<String>, Vec<String>, String)> {
    let mut header: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for raw in text.lines() {
        let line = clean_line(raw);
        let t = line.trim();
        if is_header(t) {
            header = cells(t);
        } else {
            out.push((header.clone(), cells(t), t.to_string()));
        }
    }
    out
}

/// The cell of `row` under the column `name` of `header` (case-insensitive).
fn column<'a>(header: &[String], row: &'a [String], name: &str) -> Option<&'a str> {
    header
        .iter()
        .position(|h| h.eq_ignore_ascii_case(name))
        .and_then(|i| row.get(i))
        .map(String::as_str)
}

/// Every array and disk of the text.
pub fn parse(text: &str) -> ControllerReport {
    let mut out = ControllerReport::default();
    for (header, c, t) in rows(text) {
        let Some(id) = c.first() else { continue };
        let Some((is_array, is_disk)) = row_id(id) else {
            continue;
        };
        let col = |name: &str| column(&header, &c, name);
        let Some(status) = col("Status") else {
            continue;
        };
        if is_array {
            let in_progress = col("InProgress").unwrap_or("");
            let (degraded, state_task) = logical_state(status);
            let (_, progress_task) = logical_state(in_progress);
            let task = if in_progress.eq_ignore_ascii_case("none") {
                state_task
            } else {
                progress_task.or(state_task)
            };
            out.logical.push(LogicalDrive {
                name: id.to_string(),
                level: col("Type").map(str::to_string),
                state: status.to_string(),
                degraded,
                task,
                percent: task
                    .filter(|t| *t != Task::Reshape)
                    .and_then(|_| percent(in_progress).or_else(|| percent(status))),
                line: t.to_string(),
                ..Default::default()
            });
        } else if is_disk {
            let slot = col("Slot ID").filter(|s| !s.is_empty() && *s != "N/A");
            let address = match slot {
                Some(s) => format!("{id} {s}"),
                None => id.to_string(),
            };
            out.physical
                .push(PhysicalDrive::from_state(&address, status, &t));
        }
    }
    out
}

// ---- the source spec (see sources::spec) ----

fn is_member(line: &str) -> bool {
    let l = clean_line(line);
    let t = l.trim();
    is_header(t)
        || is_section(t)
        || (t.contains('|') && cells(t).first().is_some_and(|id| row_id(id).is_some()))
        || t.starts_with("There is at least one")
}

fn start(lines: &[&str]) -> spec::Start {
    let Some(first) = lines.first() else {
        return spec::Start::No;
    };
    let l = clean_line(first);
    let t = l.trim();
    if is_section(t) {
        return spec::Start::from(
            lines
                .get(1)
                .is_some_and(|n| is_header(clean_line(n).trim())),
        );
    }
    spec::Start::from(is_header(t) && t.contains("Status"))
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "megaclisas-status",
    starts: &[(62, start)],
    member: |t, _| spec::Member::from(is_member(t)),
    tolerance: (1, 0),
    classify: |_, _| "megaclisas-status",
    ..spec::Recogniser::NONE
};

/// The disk rows' "Drive Model" cell: MegaCli's Inquiry Data, in which the drive's serial
/// and its model run together ("PHDV7293005A960FGNSSDSC2BB960G7R N201DL43": Intel's serial,
/// model, firmware): the cell's first word is a serial or holds one.
fn inquiry_serials(text: &str) -> Vec<spec::Found> {
    let mut out = Vec::new();
    for (header, c, _) in rows(text) {
        if !c
            .first()
            .is_some_and(|id| row_id(id).is_some_and(|(_, d)| d))
        {
            continue;
        }
        let Some(model) = column(&header, &c, "Drive Model") else {
            continue;
        };
        let words: Vec<&str> = model.split_whitespace().collect();
        // Vendor-first inquiry data ("SEAGATE ST900MM0026 0003 S0N1XXXX") ends with the
        // serial; ATA drives' data starts with it.
        let cand = if words.len() >= 2
            && words
                .first()
                .is_some_and(|w| w.chars().all(|c| c.is_ascii_uppercase()))
        {
            words.last()
        } else {
            words.first()
        };
        if let Some(w) = cand
            && w.len() >= 8
            && w.chars().any(|c| c.is_ascii_digit())
        {
            out.push(spec::Found::sure(spec::SecretKind::Serial, w));
        }
    }
    out
}

pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, _| {
        matches!(p, "megaclisas-status" | "megaraidsas-status")
    })),
    programs: &[
        spec::Program::new("megaclisas-status", |_| true),
        spec::Program::new("megaraidsas-status", |_| true),
    ],
    secrets: &[spec::Secret::Scan(inquiry_serials)],
    ..spec::SourceSpec::named("megaclisas-status", "megaclisas-status (MegaCli summary)")
};

#[cfg(test)]
mod tests;
