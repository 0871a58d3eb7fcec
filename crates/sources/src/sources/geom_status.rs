//! `gmirror status` and `graid status` (FreeBSD): the GEOM class's status table, one row per
//! device and a continuation row per further component (sbin/geom/core/geom.c status_one):
//! "      Name    Status  Components", "mirror/gm0  DEGRADED  ada1 (ACTIVE)", then
//! "                      ada0 (SYNCHRONIZING, 64%)". gmirror's states are COMPLETE and
//! DEGRADED (sys/geom/mirror/g_mirror.c g_mirror_device_state2str), a component's ACTIVE,
//! STALE, SYNCHRONIZING with its progress; graid's volumes are OPTIMAL, DEGRADED, BROKEN,
//! STARTING, with SUBOPTIMAL and REBUILD states of their subdisks (g_raid.c
//! g_raid_volume_state2str). Read into the RAID tools' shape (sources::raid_controller), so
//! a degraded or resynchronising mirror is an array like a controller's.

use crate::sources::raid_controller::{ControllerReport, LogicalDrive, Task, percent};
use crate::sources::spec;
use crate::sources::util::clean_line;

crate::rx!(
    ROW,
    r"^((?:mirror|raid|raid3|stripe|concat)/[\w.-]+)\s+([A-Z]+)\s+(\S.*)$"
);
crate::rx!(
    COMPONENT,
    r"^\s*[\w/.-]+\s+\(([A-Z]+(?:, \d+%)?)[^)]*\)*\s*$"
);

/// The table's devices, each with its state and the progress of a component being
/// synchronised.
pub fn parse(text: &str) -> ControllerReport {
    let mut out = ControllerReport::default();
    for raw in text.lines() {
        let l = clean_line(raw);
        let t = l.trim();
        if let Some(c) = ROW.captures(t) {
            let state = c[2].to_string();
            let degraded = !matches!(state.as_str(), "COMPLETE" | "OPTIMAL" | "UP");
            let sync = c[3].contains("SYNCHRONIZING") || c[3].contains("REBUILD");
            out.logical.push(LogicalDrive {
                name: c[1].to_string(),
                level: None,
                state,
                degraded,
                task: sync.then_some(Task::Recovery),
                percent: percent(&c[3]),
                line: t.to_string(),
                ..Default::default()
            });
        } else if let Some(c) = COMPONENT.captures(t)
            && let Some(last) = out.logical.last_mut()
            && (c[1].starts_with("SYNCHRONIZING") || c[1].starts_with("REBUILD"))
        {
            last.task = Some(Task::Recovery);
            last.percent = last.percent.or_else(|| percent(&c[1]));
        }
    }
    out
}

// ---- the source spec (see sources::spec) ----

fn is_header(t: &str) -> bool {
    let w: Vec<&str> = t.split_whitespace().collect();
    w == ["Name", "Status", "Components"]
}

fn is_member(line: &str) -> bool {
    let l = clean_line(line);
    let t = l.trim();
    is_header(t) || ROW.is_match(t) || COMPONENT.is_match(&l)
}

fn start(lines: &[&str]) -> spec::Start {
    let Some(first) = lines.first() else {
        return spec::Start::No;
    };
    let l = clean_line(first);
    let t = l.trim();
    spec::Start::from(is_header(t) || ROW.is_match(t))
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "geom-status",
    starts: &[(66, start)],
    member: |t, _| spec::Member::from(is_member(t)),
    tolerance: (1, 0),
    classify: |_, _| "geom-status",
    ..spec::Recogniser::NONE
};

fn geom_verb(a: &str) -> bool {
    spec::starts_with_any(
        a,
        &[
            "status",
            "list",
            "insert",
            "remove",
            "rebuild",
            "forget",
            "activate",
            "deactivate",
            "label",
            "configure",
            "stop",
            "destroy",
            "add",
            "delete",
        ],
    )
}

pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Freebsd),
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, a| {
        matches!(p, "gmirror" | "graid") && a.contains("status")
    })),
    // Any of the classes' verbs (gmirror(8), graid(8)): an insert or rebuild typed before
    // the kernel's GEOM_MIRROR lines is the paste's context (sources::raid_log reads them).
    programs: &[
        spec::Program::new("gmirror", geom_verb),
        spec::Program::new("graid", geom_verb),
    ],
    ..spec::SourceSpec::named("geom-status", "gmirror status / graid status")
};

#[cfg(test)]
mod tests;
