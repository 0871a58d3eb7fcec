//! ESOS's (Enterprise Storage OS) `health_chk` report on Dell PERC controllers: for each
//! physical drive whose state the script does not take as healthy it prints "** Warning! It
//! appears a PERC physical drive (32:0) has failed on controller # 0!" (enclosure:slot as
//! perccli/MegaCli number them) and, on the next line, "** Physical drive state: <state>"
//! with the controller's own state word. The warning is the script's guess; the state line
//! is the controller's answer, and it decides: ESOS 1.3.x warned for every pass-through
//! drive ("JBOD"), a state in which the controller serves the drive as is (the bug filed on
//! the ESOS tracker in 2018). Only a state the controller uses for a drive it took out of
//! service ("Failed", "Offline", "Unconfigured(bad)", MegaRAID SAS software user guide,
//! physical drive states) is a failed drive here; "Online", "JBOD", "Unconfigured Good",
//! "Hot Spare" and "Rebuild" are not.

use crate::sources::raid_controller::{ControllerReport, PhysicalDrive};
use crate::sources::spec;
use crate::sources::util::clean_line;

crate::rx!(
    WARNING,
    r"^\*\* Warning! It appears a PERC physical drive \(([^)]+)\) has failed on controller # (\d+)!?\s*$"
);
crate::rx!(STATE, r"^\*\* Physical drive state: (.+?)\s*$");

/// The controller's state words that mean it took the drive out of service.
fn failed_state(state: &str) -> bool {
    let s = state.to_ascii_lowercase();
    [
        "failed",
        "offline",
        "offln",
        "ubad",
        "unconfigured(bad)",
        "unconfigured bad",
    ]
    .iter()
    .any(|w| s.contains(w))
}

/// The drives the script warned about, with the state the controller gave each
/// ("32:0 of controller 0", "JBOD"); the state is empty when its line is missing.
pub(crate) fn warnings(text: &str) -> Vec<(String, String, String)> {
    let mut out: Vec<(String, String, String)> = Vec::new();
    for raw in text.lines() {
        let line = clean_line(raw);
        let t = line.trim();
        if let Some(m) = WARNING.captures(t) {
            let addr = format!(
                "[{}] of PERC controller {}",
                m.get(1).map_or("", |x| x.as_str()),
                m.get(2).map_or("", |x| x.as_str())
            );
            out.push((addr, String::new(), t.to_string()));
        } else if let Some(m) = STATE.captures(t)
            && let Some(last) = out.last_mut()
            && last.1.is_empty()
        {
            last.1 = m.get(1).map_or("", |x| x.as_str()).to_string();
            last.2 = format!("{} {t}", last.2);
        }
    }
    out
}

/// The drives whose state line says the controller failed them, as a controller report.
pub fn parse(text: &str) -> ControllerReport {
    let mut r = ControllerReport::default();
    for (addr, state, line) in warnings(text) {
        if failed_state(&state) {
            r.physical
                .push(PhysicalDrive::from_state(&addr, &state, &line));
        }
    }
    r
}

// ---- the source spec (see sources::spec) ----

fn is_member(l: &str) -> bool {
    let c = clean_line(l);
    let t = c.trim();
    WARNING.is_match(t) || STATE.is_match(t)
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "esos-health-chk",
    starts: &[(64, |l| {
        spec::on_first(l, |t| WARNING.is_match(clean_line(t).trim()))
    })],
    member: |l, _| spec::Member::from(is_member(l)),
    tolerance: (1, 0),
    classify: |_, _| "esos-health-chk",
    ..spec::Recogniser::NONE
};

/// ESOS's health_chk report: pasted, not captured.
pub const SPEC: spec::SourceSpec = spec::pasted_only!(
    "esos-health-chk",
    "ESOS health_chk",
    Some(crate::evidence::Platform::Linux),
    &RECOGNISER,
    parse: |t| warnings(t).len(),
    secrets: &[],
    args: |_| true,
);

#[cfg(test)]
mod tests;
