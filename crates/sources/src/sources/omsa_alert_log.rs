//! Dell OpenManage Server Administrator's (OMSA) storage alert log, as its web console's
//! "Alert Log" table or `omreport system alertlog` shows it: one event per line, a date and
//! a sentence naming a physical disk by its place, "Disk 1 in Enclosure 0 on Connector 0 of
//! RAID Controller in Slot 7" (OMSA 8/9 and iDRAC's PDR messages also write "Disk 2 in
//! Backplane 1 of Integrated RAID Controller 1"). Dell's Server Administrator and iDRAC
//! event message references list the storage events read here: "<disk> rebuild has
//! started" / "rebuild has completed" / "rebuild was cancelled" / "rebuild failed" (a hot
//! spare or replacement being rebuilt onto), "<disk> is online", "<disk> was reset",
//! "Error occurred on <disk> : (Error f0)." (the controller's error code, undocumented),
//! "<disk> failed" / "is not functioning correctly" (the controller took it out of service)
//! and "Predictive failure reported for <disk>" (the drive's own SMART trip). A rebuild
//! that started and has no end in the log is running: array-rebuilding. A reset or an
//! error code names no cause (a reset is at most the link's or the drive's electronics),
//! so neither is read as a failure here.

use crate::sources::raid_controller::{ControllerReport, LogicalDrive, PhysicalDrive, Task};
use crate::sources::spec;
use crate::sources::util::clean_line;

/// A physical disk as the messages name it: "Disk 1 in Enclosure 0 on Connector 0 of RAID
/// Controller in Slot 7", "Physical Disk 0:1:4 in Backplane 1 of Integrated RAID Controller 1".
const DISK: &str = r"(?:Physical )?Disk \d+(?::\d+)* in (?:Enclosure|Backplane) \d+(?: on Connector \d+)? of (?:(?:Integrated|Embedded) )?RAID Controller(?: in Slot)? \d+";

crate::rx!(
    EVENT,
    &format!(
        r"(?i)(?P<pre>Error occurred on |Predictive failure reported for )?(?P<disk>{DISK})(?P<post>\s*(?::\s*\(Error [0-9a-f]+\)|rebuild has started|rebuild (?:has )?completed|rebuild (?:was )?cancell?ed|rebuild (?:has )?failed|is online|was reset|(?:has )?failed|is not functioning correctly|is offline|is removed|is inserted))?"
    )
);

/// What one line says of its disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Event {
    RebuildStarted,
    /// Completed, cancelled or failed: the rebuild is no longer running.
    RebuildEnded,
    Online,
    Reset,
    /// "Error occurred on <disk> : (Error f0)."
    ErrorCode,
    Failed,
    PredictiveFailure,
    Removed,
    Inserted,
}

/// One event line: the disk as printed and what happened to it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Alert {
    pub disk: String,
    pub event: Event,
    pub line: String,
}

/// The event of one line, if it is one of the alert log's disk messages.
fn alert(raw: &str) -> Option<Alert> {
    let line = clean_line(raw);
    let m = EVENT.captures(&line)?;
    let disk = m.name("disk")?.as_str().to_string();
    let pre = m.name("pre").map(|x| x.as_str().to_ascii_lowercase());
    let post = m
        .name("post")
        .map(|x| x.as_str().trim().to_ascii_lowercase())
        .unwrap_or_default();
    let event = match (pre.as_deref(), post.as_str()) {
        (Some(p), _) if p.starts_with("predictive") => Event::PredictiveFailure,
        (Some(_), _) => Event::ErrorCode,
        (None, "rebuild has started") => Event::RebuildStarted,
        (None, p) if p.starts_with("rebuild") => Event::RebuildEnded,
        (None, "is online") => Event::Online,
        (None, "was reset") => Event::Reset,
        (None, "is removed") => Event::Removed,
        (None, "is inserted") => Event::Inserted,
        (None, p) if p.contains("failed") || p.contains("not functioning") || p == "is offline" => {
            Event::Failed
        }
        _ => return None,
    };
    Some(Alert {
        disk,
        event,
        line: line.trim().trim_matches('|').trim().to_string(),
    })
}

/// Every disk event of the log, in the order printed.
pub(crate) fn alerts(text: &str) -> Vec<Alert> {
    text.lines().filter_map(alert).collect()
}

/// The log as a controller report: a rebuild with no end in the log is a logical drive
/// being rebuilt (named by the disk it is rebuilt onto: the log does not name the virtual
/// disk), a failed or predicted-to-fail disk a physical drive with that state. Resets and
/// error codes are left (see the module doc).
pub fn parse(text: &str) -> ControllerReport {
    let all = alerts(text);
    let mut r = ControllerReport::default();
    for a in &all {
        match a.event {
            Event::RebuildStarted => {
                let ended = all
                    .iter()
                    .any(|b| b.disk == a.disk && b.event == Event::RebuildEnded);
                if ended || r.logical.iter().any(|l| l.line == a.line) {
                    continue;
                }
                r.logical.push(LogicalDrive {
                    name: format!("the virtual disk rebuilding onto {}", a.disk),
                    state: "Rebuilding".into(),
                    degraded: true,
                    task: Some(Task::Recovery),
                    line: a.line.clone(),
                    ..Default::default()
                });
            }
            Event::Failed | Event::PredictiveFailure => {
                if r.physical.iter().any(|p| p.address == a.disk) {
                    continue;
                }
                let failed = a.event == Event::Failed;
                r.physical.push(PhysicalDrive {
                    address: a.disk.clone(),
                    state: if failed {
                        "Failed"
                    } else {
                        "Predictive Failure"
                    }
                    .into(),
                    failed,
                    predictive_failure: !failed,
                    line: a.line.clone(),
                    ..Default::default()
                });
            }
            _ => {}
        }
    }
    r
}

// ---- the source spec (see sources::spec) ----

fn is_member(l: &str) -> bool {
    alert(l).is_some()
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "omsa-alert-log",
    starts: &[(64, |l| spec::on_first(l, is_member))],
    member: |l, _| spec::Member::from(is_member(l)),
    tolerance: (1, 1),
    classify: |_, _| "omsa-alert-log",
    ..spec::Recogniser::NONE
};

/// OMSA's alert log: pasted from its web console or `omreport system alertlog`.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    parse: Some(|t| alerts(t).len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, a| {
        p == "omreport" && a.split_whitespace().any(|w| w == "alertlog")
    })),
    ..spec::SourceSpec::named("omsa-alert-log", "Dell OpenManage alert log")
};

#[cfg(test)]
mod tests;
