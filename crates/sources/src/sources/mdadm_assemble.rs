//! `mdadm --assemble` (and `--incremental`, `--run`) messages (Linux). Reference: mdadm's
//! Assemble.c: with `--verbose` it prints "mdadm: /dev/sdc1 is identified as a member of
//! /dev/md0, slot 0." per device, "mdadm: added /dev/sdc1 to /dev/md0 as 0 (possibly out of
//! date)" for a member whose event count is behind the others' (its data is stale and md
//! leaves it out), and at the end "mdadm: /dev/md0 has been started with 1 drive (out of
//! 2)." (" and N spares", " and N rebuilding" may follow the count) or "mdadm: /dev/md0
//! assembled from 1 drive - not enough to start the array." An array started with fewer
//! drives than it has slots runs degraded. Read into the RAID tools' shape
//! (sources::raid_controller), so a degraded md array is an array like a controller's.

use crate::sources::raid_controller::{ControllerReport, LogicalDrive};
use crate::sources::spec;
use crate::sources::util::clean_line;

crate::rx!(
    STARTED,
    r"^mdadm: (/dev/[\w/.-]+) has been started with (\d+) drives? \(out of (\d+)\)"
);
crate::rx!(
    NOT_ENOUGH,
    r"^mdadm: (/dev/[\w/.-]+) assembled from (\d+) drives?.* - not enough to start the array"
);
crate::rx!(
    OUT_OF_DATE,
    r"^mdadm: added [\w/.-]+ to (/dev/[\w/.-]+) as \S+ \(possibly out of date\)"
);
// Any line of mdadm's assemble mode this reader knows.
crate::rx!(
    OWN,
    r"^mdadm: (?:looking for devices for |[\w/.-]+ is identified as a member of |added [\w/.-]+ to |no uptodate device for slot |(/dev/[\w/.-]+) (?:has been started with|assembled from) |failed to (?:RUN_ARRAY|add) |stopped |(?:/dev/[\w/.-]+ )?is already in use|[\w/.-]+ has no superblock)"
);

/// The array name md knows ("md0" of "/dev/md0", "md/home" stays "md/home").
fn array_name(dev: &str) -> String {
    dev.strip_prefix("/dev/").unwrap_or(dev).to_string()
}

/// The arrays the messages show started short of their members, or not started.
pub fn parse(text: &str) -> ControllerReport {
    let mut out = ControllerReport::default();
    let mut stale: Vec<String> = Vec::new();
    for raw in text.lines() {
        let l = clean_line(raw);
        let t = l.trim();
        if let Some(c) = OUT_OF_DATE.captures(t) {
            stale.push(array_name(&c[1]));
        } else if let Some(c) = STARTED.captures(t) {
            let (Ok(have), Ok(of)) = (c[2].parse::<u32>(), c[3].parse::<u32>()) else {
                continue;
            };
            let name = array_name(&c[1]);
            let degraded = have < of || stale.contains(&name);
            let state = if degraded { "degraded" } else { "active" };
            out.logical
                .push(LogicalDrive::from_state(name, None, state, t));
        } else if let Some(c) = NOT_ENOUGH.captures(t) {
            out.logical.push(LogicalDrive::from_state(
                array_name(&c[1]),
                None,
                "failed",
                t,
            ));
        }
    }
    out
}

// ---- the source spec (see sources::spec) ----

fn is_member(line: &str) -> bool {
    OWN.is_match(clean_line(line).trim())
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "mdadm-assemble",
    starts: &[(3, |l| spec::on_first(l, is_member))],
    member: |t, _| spec::Member::from(is_member(t)),
    // A prompt and the next command between two runs (`mdadm --stop`, then `--assemble`).
    tolerance: (2, 2),
    classify: |_, _| "mdadm-assemble",
    ..spec::Recogniser::NONE
};

/// mdadm(8) Assemble and Incremental modes, and `--stop` typed before them.
pub(crate) fn assemble_args(a: &str) -> bool {
    a.split_whitespace().any(|w| {
        matches!(
            w,
            "--assemble" | "-A" | "--incremental" | "-I" | "--run" | "-R" | "--stop" | "-S"
        ) || (w.starts_with('-') && !w.starts_with("--") && (w.contains('A') || w.contains('I')))
    })
}

/// `mdadm --assemble --verbose` (Linux).
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Linux),
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, a| {
        p == "mdadm" && assemble_args(a)
    })),
    // The `mdadm` program is declared once, by sources::mdadm_detail, for every mode its
    // readers know.
    ..spec::SourceSpec::named("mdadm-assemble", "mdadm --assemble")
};

#[cfg(test)]
mod tests;
