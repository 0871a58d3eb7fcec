//! 3ware/LSI `tw_cli /cN show [all]` and `tw_cli info cN [unitstatus|drivestatus]`.
//! Reference: tw_cli(8) (3ware CLI guide): the unit table "Unit UnitType Status %RCmpl
//! %V/I/M Stripe Size(GB) Cache AVrfy" with states OK, DEGRADED, REBUILDING, REBUILD-PAUSED,
//! INITIALIZING, VERIFYING, MIGRATING, INOPERABLE (%RCmpl the rebuild's, %V/I/M the verify's,
//! initialisation's or migration's progress), and the port table "Port/VPort Status Unit
//! Size ... Serial" with OK, DEGRADED, REBUILDING, ECC-ERROR, SMART-FAILURE, DEVICE-ERROR,
//! NOT-PRESENT.

use crate::sources::raid_controller::{
    ControllerReport, LogicalDrive, PhysicalDrive, Task, logical_state, percent,
};
use crate::sources::spec;
use crate::sources::util::clean_line;

fn is_unit_header(t: &str) -> bool {
    t.starts_with("Unit") && t.contains("UnitType") && t.contains("Status")
}

fn is_port_header(t: &str) -> bool {
    (t.starts_with("Port") || t.starts_with("VPort")) && t.contains("Status")
}

/// Every unit and port of the text.
pub fn parse(text: &str) -> ControllerReport {
    let mut out = ControllerReport::default();
    for raw in text.lines() {
        let line = clean_line(raw);
        let t = line.trim();
        let w: Vec<&str> = t.split_whitespace().collect();
        let [id, rest @ ..] = w.as_slice() else {
            continue;
        };
        let numbered = |p: &str| {
            id.strip_prefix(p)
                .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
        };
        if numbered("u") {
            // u0 RAID-5 DEGRADED - - 64K 1862.62 ON OFF
            let [kind, status, rcmpl, vim, ..] = rest else {
                continue;
            };
            let (degraded, task) = logical_state(status);
            let progress = match task {
                Some(Task::Recovery) => percent(rcmpl),
                Some(_) => percent(vim),
                None => None,
            };
            out.logical.push(LogicalDrive {
                name: id.to_string(),
                level: Some(kind.to_string()),
                state: status.to_string(),
                degraded: degraded && *kind != "SPARE",
                task,
                percent: progress,
                line: t.to_string(),
                ..Default::default()
            });
        } else if numbered("p") {
            let Some(status) = rest.first() else { continue };
            let s = status.to_ascii_uppercase();
            // The port's state word: a member of a degraded unit shows DEGRADED (tw_cli
            // marks the drive the unit lost), a drive with failing media ECC-ERROR or
            // SMART-FAILURE, one the controller dropped DEVICE-ERROR.
            out.physical.push(PhysicalDrive {
                address: id.to_string(),
                state: status.to_string(),
                failed: matches!(s.as_str(), "DEGRADED" | "DEVICE-ERROR" | "ECC-ERROR"),
                predictive_failure: s == "SMART-FAILURE",
                rebuilding: s.starts_with("REBUILD"),
                line: t.to_string(),
                ..Default::default()
            });
        }
    }
    out
}

// ---- the source spec (see sources::spec) ----

fn is_member(line: &str) -> bool {
    let l = clean_line(line);
    let t = l.trim();
    let id = t.split_whitespace().next().unwrap_or("");
    let numbered = |p: &str| {
        id.strip_prefix(p)
            .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
    };
    is_unit_header(t)
        || is_port_header(t)
        || t.chars().all(|c| c == '-') && !t.is_empty()
        || numbered("u")
        || numbered("p")
        || numbered("bbu")
        || t.starts_with("Name  OnlineState")
        || (t.starts_with("/c") && t.contains(" = "))
}

fn start(lines: &[&str]) -> spec::Start {
    let Some(first) = lines.first() else {
        return spec::Start::No;
    };
    let l = clean_line(first);
    let t = l.trim();
    // `show all` starts with the controller's "/c0 Driver Version = ..." lines.
    spec::Start::from(
        is_unit_header(t)
            || (is_port_header(t) && t.contains("Unit"))
            || (t.starts_with("/c") && t.contains(" Driver Version = ")),
    )
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "tw-cli",
    starts: &[(66, start)],
    member: |t, _| spec::Member::from(is_member(t)),
    tolerance: (1, 0),
    classify: |_, _| "tw-cli",
    ..spec::Recogniser::NONE
};

fn args(a: &str) -> bool {
    let a = a.trim_start();
    a.starts_with("/c") || a.starts_with("info") || a.starts_with("show")
}

pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, _| {
        matches!(p, "tw_cli" | "tw-cli")
    })),
    programs: &[spec::Program::new("tw_cli", args)],
    // The port table's Serial column; the controller's "/c0 Serial Number = X".
    secrets: &[
        spec::Secret::Column("Serial", spec::SecretKind::Serial),
        spec::Secret::After("serial number =", spec::SecretKind::Serial),
    ],
    ..spec::SourceSpec::named("tw-cli", "3ware tw_cli")
};

#[cfg(test)]
mod tests;
