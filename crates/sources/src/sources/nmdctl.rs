//! An Unraid-style parity array's state: NonRAID's `nmdctl status` (github qvr/nonraid,
//! tools/nmdctl format_human_output: "Array State   : STARTED", "Array Health  : DEGRADED
//! (Missing: 1, Sync Errors: 5)", "Operation     : Parity-Check P Q (check only)" / "Parity-Sync
//! P" / "Data-Rebuild Disk 3" / "Disk clearing", "(PAUSED)" when paused, "Progress      : 51%
//! (...)") and the driver's key=value status that `cat /proc/nmdstat` and Unraid's `mdcmd
//! status` print (docs/nmdstat.5: mdResync > 0 while an operation runs, mdResyncAction
//! "check P Q" | "recon P" | "recon D3" | "clear", progress mdResyncPos / mdResyncSize,
//! mdNumMissing / mdNumInvalid / mdNumDisabled non-zero on a degraded array). A parity
//! check reads every disk of the array; a sync or rebuild also writes one.

use crate::sources::raid_controller::{ControllerReport, LogicalDrive, Task, percent};
use crate::sources::spec;
use crate::sources::util::clean_line;

/// The task an operation's words name: nmdctl's friendly name or the driver's action.
fn task(op: &str) -> Option<Task> {
    let o = op.trim().to_ascii_lowercase();
    if o.contains("paused") {
        None
    } else if o.starts_with("parity-check") || o.starts_with("check") {
        Some(Task::Check)
    } else if o.starts_with("data-rebuild") || o.starts_with("recon d") {
        Some(Task::Recovery)
    } else if o.starts_with("parity-sync") || o.starts_with("recon") || o.contains("clear") {
        Some(Task::Resync)
    } else {
        None
    }
}

/// The array of one status text (None when it shows neither state nor operation).
pub fn parse(text: &str) -> ControllerReport {
    let mut ld = LogicalDrive {
        name: "array".to_string(),
        ..Default::default()
    };
    let (mut seen, mut active, mut pos, mut size) = (false, false, None::<f64>, None::<f64>);
    for raw in text.lines() {
        let line = clean_line(raw);
        let t = line.trim();
        let (k, v) = match t.split_once(" : ").or_else(|| t.split_once('=')) {
            Some((k, v)) => (k.trim(), v.trim()),
            None => continue,
        };
        let num = || v.parse::<f64>().ok();
        match k {
            "Array State" | "mdState" => {
                seen = true;
                if ld.state.is_empty() {
                    ld.state = v.to_string();
                }
            }
            "Array Label" | "sbLabel" if !v.is_empty() => ld.name = v.to_string(),
            "Array Health" => {
                seen = true;
                ld.state = v.to_string();
                ld.line = t.to_string();
                // DEGRADED also stands for sync errors alone (nmdctl get_array_health):
                // only missing, invalid, disabled, wrong or replaced disks degrade it.
                ld.degraded |= ["Missing:", "Invalid:", "Disabled:", "Wrong:", "Replaced:"]
                    .iter()
                    .any(|w| v.contains(w));
            }
            "mdNumMissing" | "mdNumInvalid" | "mdNumDisabled" => {
                ld.degraded |= num().is_some_and(|n| n > 0.0);
            }
            "Operation" => {
                seen = true;
                ld.task = task(v);
                ld.line = t.to_string();
            }
            "Progress" => ld.percent = percent(v),
            "mdResyncAction" => ld.level = Some(v.to_string()),
            "mdResync" => active = num().is_some_and(|n| n > 0.0),
            "mdResyncPos" => pos = num(),
            "mdResyncSize" => size = num(),
            _ => {}
        }
    }
    if active && let Some(action) = ld.level.take() {
        seen = true;
        ld.task = task(&action);
        ld.line = format!("mdResyncAction={action}");
        ld.percent = match (pos, size) {
            (Some(p), Some(s)) if s > 0.0 => Some((p / s * 100.0).clamp(0.0, 100.0)),
            _ => None,
        };
    }
    ld.level = None;
    ControllerReport {
        logical: if seen { vec![ld] } else { Vec::new() },
        ..Default::default()
    }
}

// ---- the source spec (see sources::spec) ----

crate::rx!(
    NMD_MEMBER,
    r"^(?:=== (?:NonRAID Array Status|Disk Status) ===|(?:Array (?:State|Label|Health|Checked|Size)|Superblock|Disks Present|Parity|Operation|Progress|Speed|Elapsed Time|ETA|Resume with)\s*:|Slot\s+Status\s|-{4}\s+-{4}|(?:P|Q|\d{1,2})\s+(?:OK|DISK_\w+|NP|INVALID|MISSING|DISABLED|EMPTY|NEW|WRONG)\b|(?:sb|md|rdev|disk)\w*(?:\.\d+)?=)"
);

fn start(lines: &[&str]) -> spec::Start {
    let t = lines.first().map(|l| clean_line(l)).unwrap_or_default();
    let t = t.trim();
    spec::Start::from(
        t == "=== NonRAID Array Status ==="
            || t.starts_with("Array State   : ")
            || t.starts_with("sbName=")
            || t.starts_with("mdVersion=")
            || t.starts_with("sbVersion="),
    )
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "nmdctl-status",
    starts: &[(150, start)],
    member: |t, _| spec::Member::from(NMD_MEMBER.is_match(clean_line(t).trim())),
    tolerance: (1, 0),
    classify: |_, _| "nmdctl-status",
    ..spec::Recogniser::NONE
};

/// NonRAID `nmdctl status`, `/proc/nmdstat`, Unraid `mdcmd status` (Linux).
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Linux),
    parse: Some(|t| parse(t).len()),
    secrets: &[
        spec::Secret::After("array label", spec::SecretKind::Label),
        spec::Secret::After("sblabel=", spec::SecretKind::Label),
    ],
    paste: Some(spec::Paste::new(&RECOGNISER, |p, _| {
        p == "nmdctl" || p == "mdcmd"
    })),
    programs: &[
        spec::Program {
            names_device: false,
            ..spec::Program::new("nmdctl", |a| a.starts_with("status") || a.is_empty())
        },
        spec::Program {
            names_device: false,
            ..spec::Program::new("mdcmd", |a| a.starts_with("status"))
        },
    ],
    ..spec::SourceSpec::named("nmdctl-status", "nmdctl status")
};

#[cfg(test)]
mod tests;
