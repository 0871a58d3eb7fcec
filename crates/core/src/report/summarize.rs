//! `diskdoc summarize`: one table of hosts x findings over many reports (a fleet's JSON
//! reports of any kind, or evidence bundles), worst host first. Pure: the command loads the
//! files and hands over (file name, report) pairs.
//!
//! A host is named by the report's host name fact and the file it came from: redacted
//! reports all say HOST-1, so the file name is what tells two of them apart.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::checks::{self, Finding, Severity, Verdict};
use crate::report::Member;
use crate::report::text;

/// One host's line: every report of that host merged.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HostRow {
    /// Host name as the newest report has it (a token when the reports are redacted), or "-".
    pub host: String,
    /// The anonymous host ID the reports carry (the evidence bundle's `host_id`); absent when
    /// they carry none, and then the row is one file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host_id: Option<String>,
    /// The files of this host's reports, oldest first.
    pub files: Vec<String>,
    /// Disks the reports cover together.
    pub disks: usize,
    /// Worst severity among problem findings, or "ok".
    pub worst: String,
    pub critical: usize,
    pub warning: usize,
    pub notice: usize,
    /// `device:check-id` of each problem finding, worst first.
    pub problems: Vec<String>,
    /// 0 no finding at warning or above, 1 such findings (the merged findings' status).
    pub exit_status: i32,
    /// Each report of this host whose read/write tests all failed (nothing measured):
    /// "file: what the tests said". Such a host is never shown as plainly "ok".
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failed_tests: Vec<String>,
}

/// The summary of a fleet.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Summary {
    /// Worst host first.
    pub hosts: Vec<HostRow>,
    /// How many hosts have a problem per check id, most common first.
    pub by_check: Vec<(String, usize)>,
    /// Reports without a host ID (pasted text, or written by a diskdoc that did not record
    /// one): each is a row of its own, since redacted host names cannot tell hosts apart.
    pub reports_without_host_id: usize,
}

impl Summary {
    /// 1 when any host has a finding at warning or above, else 0 (like `check`).
    pub fn exit_status(&self) -> i32 {
        i32::from(self.hosts.iter().any(|h| h.critical > 0 || h.warning > 0))
    }
}

fn rank(sev: &str) -> u8 {
    match sev {
        "critical" => 3,
        "warning" => 2,
        "notice" => 1,
        _ => 0,
    }
}

/// One host's reports merged into one row: per disk and check the newest report that
/// judged it wins (a later `check` that finds the write cache on again clears an earlier
/// warning; a later `bench` judges measurements only and leaves the configuration findings
/// of an earlier `check` standing).
fn row(group: &[&Member]) -> HostRow {
    let mut sorted: Vec<&Member> = group.to_vec();
    crate::sort::sort_by(&mut sorted, |a, b| {
        a.report
            .bundle
            .captured_at_unix
            .cmp(&b.report.bundle.captured_at_unix)
            .then_with(|| a.file.cmp(&b.file))
    });
    let mut latest: BTreeMap<(String, String), &Finding> = BTreeMap::new();
    let mut disks: Vec<&str> = Vec::new();
    for m in &sorted {
        for f in &m.report.findings {
            latest.insert((f.device.clone(), f.check.clone()), f);
        }
        disks.extend(m.report.facts.disks.iter().map(|d| d.name.as_str()));
    }
    crate::sort::sort(&mut disks);
    disks.dedup();
    let merged: Vec<Finding> = latest.into_values().cloned().collect();
    let mut problems: Vec<&Finding> = merged
        .iter()
        .filter(|f| f.verdict == Verdict::Problem && f.severity != Severity::Info)
        .collect();
    crate::sort::sort_by_key(&mut problems, |f| {
        std::cmp::Reverse(rank(f.severity.label()))
    });
    let count = |s: Severity| problems.iter().filter(|f| f.severity == s).count();
    let newest = sorted.last().map(|m| &m.report);
    let failed_tests: Vec<String> = sorted
        .iter()
        .filter_map(|m| {
            crate::report::tests_failed(&m.report.bundle.benchmarks)
                .map(|why| format!("{}: {why}", m.file))
        })
        .collect();
    HostRow {
        host: newest
            .and_then(|r| r.facts.hostname.value().cloned())
            .unwrap_or_else(|| "-".to_string()),
        host_id: newest.and_then(|r| r.bundle.host_id.clone()),
        files: sorted.iter().map(|m| m.file.clone()).collect(),
        disks: disks.len(),
        worst: problems
            .first()
            .map(|f| f.severity.label().to_string())
            .unwrap_or_else(|| {
                if failed_tests.is_empty() {
                    "ok"
                } else {
                    "tests failed"
                }
                .to_string()
            }),
        critical: count(Severity::Critical),
        warning: count(Severity::Warning),
        notice: count(Severity::Notice),
        problems: problems
            .iter()
            .map(|f| format!("{}:{}", f.device, f.check))
            .collect(),
        exit_status: checks::exit_code(&merged),
        failed_tests,
    }
}

/// Summarise reports: one row per host (by the bundle's host ID; a report without one is a
/// row of its own), worst host first.
pub fn summarize(members: &[Member]) -> Summary {
    let mut groups: BTreeMap<String, Vec<&Member>> = BTreeMap::new();
    let mut reports_without_host_id = 0;
    for m in members {
        let key = match &m.report.bundle.host_id {
            Some(id) => format!("id:{id}"),
            None => {
                reports_without_host_id += 1;
                format!("file:{}", m.file)
            }
        };
        groups.entry(key).or_default().push(m);
    }
    let mut hosts: Vec<HostRow> = groups.values().map(|g| row(g)).collect();
    crate::sort::sort_by(&mut hosts, |a, b| {
        (rank(&b.worst), b.critical, b.warning, b.notice)
            .cmp(&(rank(&a.worst), a.critical, a.warning, a.notice))
            .then_with(|| a.files.cmp(&b.files))
    });
    let mut by: BTreeMap<String, usize> = BTreeMap::new();
    for h in &hosts {
        let mut ids: Vec<&str> = h
            .problems
            .iter()
            .filter_map(|p| p.rsplit_once(':').map(|(_, c)| c))
            .collect();
        crate::sort::sort(&mut ids);
        ids.dedup();
        for id in ids {
            *by.entry(id.to_string()).or_default() += 1;
        }
    }
    let mut by_check: Vec<(String, usize)> = by.into_iter().collect();
    crate::sort::sort_by(&mut by_check, |a, b| {
        b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0))
    });
    Summary {
        hosts,
        by_check,
        reports_without_host_id,
    }
}

/// How a host is named in the tables: its name and the first 8 digits of its host ID
/// (redacted reports all say HOST-1; the ID tells them apart).
fn host_label(h: &HostRow) -> String {
    match h.host_id.as_deref().and_then(|id| id.get(..8)) {
        Some(id) if h.host == "-" => id.to_string(),
        Some(id) => format!("{} {id}", h.host),
        None => h.host.clone(),
    }
}

fn files_label(h: &HostRow) -> String {
    h.files
        .iter()
        .map(|f| f.trim_end_matches(".json"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Plain text, 72 columns like the reports: a table of hosts with their counts, then each
/// host's files and problems, worst host first; `notes` (files skipped) at the end.
pub fn render_text(s: &Summary, notes: &[crate::report::Message]) -> String {
    let reports: usize = s.hosts.iter().map(|h| h.files.len()).sum();
    let mut lines = vec![format!(
        "diskdoc summary of {reports} report{} from {} host{}",
        if reports == 1 { "" } else { "s" },
        s.hosts.len(),
        if s.hosts.len() == 1 { "" } else { "s" }
    )];
    lines.push(String::new());
    let headers = [
        "host", "reports", "disks", "worst", "crit", "warn", "notice",
    ]
    .map(String::from)
    .to_vec();
    let body: Vec<Vec<String>> = s
        .hosts
        .iter()
        .map(|h| {
            vec![
                host_label(h),
                h.files.len().to_string(),
                h.disks.to_string(),
                h.worst.clone(),
                h.critical.to_string(),
                h.warning.to_string(),
                h.notice.to_string(),
            ]
        })
        .collect();
    lines.extend(text::table(&headers, &body, 0, 72));
    lines.push(String::new());
    lines.push("Hosts, worst first, with their files and problems:".to_string());
    for h in &s.hosts {
        lines.extend(text::wrap(
            &format!("{}: {}", host_label(h), files_label(h)),
            "  ",
            4,
            72,
        ));
        if !h.problems.is_empty() {
            lines.extend(text::wrap(&h.problems.join(", "), "    ", 4, 72));
        }
        for f in &h.failed_tests {
            lines.extend(text::wrap(f, "    ", 6, 72));
        }
    }
    if !s.by_check.is_empty() {
        lines.push(String::new());
        lines.push("Hosts with a problem, per check:".to_string());
        for (id, n) in &s.by_check {
            lines.push(format!("  {n:>4}  {id}"));
        }
    }
    if s.reports_without_host_id > 0 {
        lines.push(String::new());
        lines.extend(text::wrap(
            &format!(
                "{} report{} carry no host ID (pasted text, or a diskdoc that did not record \
                 one); each is a row of its own.",
                s.reports_without_host_id,
                if s.reports_without_host_id == 1 {
                    ""
                } else {
                    "s"
                }
            ),
            "",
            0,
            72,
        ));
    }
    if !notes.is_empty() {
        lines.push(String::new());
        lines.push("Notes:".to_string());
        for n in notes {
            lines.extend(text::wrap(&n.text, "  ", 4, 72));
        }
    }
    text::finish(lines)
}

/// A Markdown table (cells with `|` escaped), then the notes.
pub fn render_markdown(s: &Summary, notes: &[crate::report::Message]) -> String {
    let esc = |c: &str| text::sanitize(c).replace('|', "\\|");
    let headers = [
        "host", "files", "disks", "worst", "crit", "warn", "notice", "problems",
    ];
    let mut out = format!("# diskdoc summary of {} hosts\n\n", s.hosts.len());
    out.push_str(&format!("| {} |\n", headers.join(" | ")));
    out.push_str(&format!("|{}\n", "---|".repeat(headers.len())));
    for h in &s.hosts {
        let cells = [
            host_label(h),
            files_label(h),
            h.disks.to_string(),
            h.worst.clone(),
            h.critical.to_string(),
            h.warning.to_string(),
            h.notice.to_string(),
            if h.problems.is_empty() && h.failed_tests.is_empty() {
                "-".to_string()
            } else {
                h.problems
                    .iter()
                    .chain(&h.failed_tests)
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(" ")
            },
        ];
        let cells: Vec<String> = cells.iter().map(|c| esc(c)).collect();
        out.push_str(&format!("| {} |\n", cells.join(" | ")));
    }
    if !notes.is_empty() {
        out.push('\n');
        for n in notes {
            out.push_str(&format!("- {}\n", esc(&n.text)));
        }
    }
    out
}

#[cfg(test)]
mod tests;
