//! `diskdoc summarize`: one table of hosts x findings over many reports (a fleet's JSON
//! reports of any kind, or evidence bundles), worst host first. Pure: the command loads the
//! files and hands over (file name, report) pairs.
//!
//! A host is named by the report's host name fact and the file it came from: redacted
//! reports all say HOST-1, so the file name is what tells two of them apart.

use serde::Serialize;

use crate::checks::{Severity, Verdict};
use crate::report::Report;
use crate::report::text;

/// One host's line.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HostRow {
    /// The file the report was read from.
    pub file: String,
    /// Host name as the report has it (a token when the report is redacted), or "-".
    pub host: String,
    /// Disks the report covers.
    pub disks: usize,
    /// Worst severity among problem findings, or "ok".
    pub worst: String,
    pub critical: usize,
    pub warning: usize,
    pub notice: usize,
    /// `device:check-id` of each problem finding, worst first.
    pub problems: Vec<String>,
    /// The report's exit status (0, 1, 2).
    pub exit_status: i32,
}

/// The summary of a fleet.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    pub hosts: Vec<HostRow>,
    /// How many hosts have a problem per check id, most common first.
    pub by_check: Vec<(String, usize)>,
}

fn rank(sev: &str) -> u8 {
    match sev {
        "critical" => 3,
        "warning" => 2,
        "notice" => 1,
        _ => 0,
    }
}

/// Summarise `(file name, report)` pairs.
pub fn summarize(reports: &[(String, Report)]) -> Summary {
    let mut hosts: Vec<HostRow> = reports
        .iter()
        .map(|(file, r)| {
            let problems: Vec<_> = r
                .findings
                .iter()
                .filter(|f| f.verdict == Verdict::Problem && f.severity != Severity::Info)
                .collect();
            let count = |s: Severity| problems.iter().filter(|f| f.severity == s).count();
            let worst = problems
                .iter()
                .map(|f| f.severity)
                .max_by_key(|s| rank(s.label()))
                .map(|s| s.label().to_string())
                .unwrap_or_else(|| "ok".to_string());
            let mut ps: Vec<_> = problems.clone();
            ps.sort_by_key(|f| std::cmp::Reverse(rank(f.severity.label())));
            HostRow {
                file: file.clone(),
                host: r
                    .facts
                    .hostname
                    .value()
                    .cloned()
                    .unwrap_or_else(|| "-".to_string()),
                disks: r.facts.disks.len(),
                worst,
                critical: count(Severity::Critical),
                warning: count(Severity::Warning),
                notice: count(Severity::Notice),
                problems: ps
                    .iter()
                    .map(|f| format!("{}:{}", f.device, f.check))
                    .collect(),
                exit_status: r.exit_status,
            }
        })
        .collect();
    hosts.sort_by(|a, b| {
        (rank(&b.worst), b.critical, b.warning, b.notice)
            .cmp(&(rank(&a.worst), a.critical, a.warning, a.notice))
            .then_with(|| a.file.cmp(&b.file))
    });
    let mut by: std::collections::BTreeMap<String, usize> = std::collections::BTreeMap::new();
    for h in &hosts {
        let mut ids: Vec<&str> = h
            .problems
            .iter()
            .filter_map(|p| p.split_once(':').map(|(_, c)| c))
            .collect();
        ids.sort_unstable();
        ids.dedup();
        for id in ids {
            *by.entry(id.to_string()).or_default() += 1;
        }
    }
    let mut by_check: Vec<(String, usize)> = by.into_iter().collect();
    by_check.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    Summary { hosts, by_check }
}

/// The Markdown table's columns.
fn rows(s: &Summary) -> (Vec<String>, Vec<Vec<String>>) {
    let headers = [
        "host", "file", "disks", "worst", "crit", "warn", "notice", "problems",
    ]
    .map(String::from)
    .to_vec();
    let body = s
        .hosts
        .iter()
        .map(|h| {
            vec![
                h.host.clone(),
                h.file.clone(),
                h.disks.to_string(),
                h.worst.clone(),
                h.critical.to_string(),
                h.warning.to_string(),
                h.notice.to_string(),
                if h.problems.is_empty() {
                    "-".to_string()
                } else {
                    h.problems.join(" ")
                },
            ]
        })
        .collect();
    (headers, body)
}

/// Plain text, 72 columns like the reports: a table of hosts with their counts, then each
/// host's problems, worst host first.
pub fn render_text(s: &Summary) -> String {
    let mut lines = vec![format!(
        "diskdoc summary of {} report{}",
        s.hosts.len(),
        if s.hosts.len() == 1 { "" } else { "s" }
    )];
    lines.push(String::new());
    let headers = ["file", "host", "disks", "worst", "crit", "warn", "notice"]
        .map(String::from)
        .to_vec();
    let body: Vec<Vec<String>> = s
        .hosts
        .iter()
        .map(|h| {
            vec![
                h.file.trim_end_matches(".json").to_string(),
                h.host.clone(),
                h.disks.to_string(),
                h.worst.clone(),
                h.critical.to_string(),
                h.warning.to_string(),
                h.notice.to_string(),
            ]
        })
        .collect();
    lines.extend(text::table(&headers, &body, 0, 72));
    let with_problems: Vec<&HostRow> = s.hosts.iter().filter(|h| !h.problems.is_empty()).collect();
    if !with_problems.is_empty() {
        lines.push(String::new());
        lines.push("Problems, worst host first:".to_string());
        for h in with_problems {
            lines.push(format!("  {} ({})", h.file, h.host));
            lines.extend(text::wrap(&h.problems.join(", "), "    ", 4, 72));
        }
    }
    if !s.by_check.is_empty() {
        lines.push(String::new());
        lines.push("Hosts with a problem, per check:".to_string());
        for (id, n) in &s.by_check {
            lines.push(format!("  {n:>4}  {id}"));
        }
    }
    text::finish(lines)
}

/// A Markdown table (cells with `|` escaped).
pub fn render_markdown(s: &Summary) -> String {
    let (h, b) = rows(s);
    let esc = |c: &str| text::sanitize(c).replace('|', "\\|");
    let mut out = format!("# diskdoc summary of {} reports\n\n", s.hosts.len());
    out.push_str(&format!("| {} |\n", h.join(" | ")));
    out.push_str(&format!("|{}\n", "---|".repeat(h.len())));
    for r in b {
        let cells: Vec<String> = r.iter().map(|c| esc(c)).collect();
        out.push_str(&format!("| {} |\n", cells.join(" | ")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::Finding;
    use crate::evidence::{EvidenceBundle, Origin, Platform};
    use crate::facts::{Fact, SystemFacts};

    fn rep(host: &str, fs: Vec<Finding>) -> Report {
        let mut sys = SystemFacts::empty(Platform::Linux);
        sys.hostname = Fact::known(host.to_string(), "t");
        Report::new(
            EvidenceBundle::new(Platform::Linux, Origin::Live),
            sys,
            fs,
            vec![],
        )
    }

    #[test]
    fn worst_host_first_and_counts_per_check() {
        let ok = rep("a", vec![]);
        let warn = rep(
            "b",
            vec![
                Finding::new(
                    "write-cache-disabled",
                    "sda",
                    Verdict::Problem,
                    Severity::Warning,
                    "x",
                ),
                Finding::new(
                    "io-scheduler",
                    "sda",
                    Verdict::Problem,
                    Severity::Notice,
                    "y",
                ),
                Finding::new("ncq-unavailable", "sda", Verdict::Pass, Severity::Info, "z"),
            ],
        );
        let crit = rep(
            "c",
            vec![Finding::new(
                "media-errors",
                "sdb",
                Verdict::Problem,
                Severity::Critical,
                "x",
            )],
        );
        let s = summarize(&[
            ("a.json".into(), ok),
            ("b.json".into(), warn),
            ("c.json".into(), crit),
        ]);
        let order: Vec<&str> = s.hosts.iter().map(|h| h.host.as_str()).collect();
        assert_eq!(order, ["c", "b", "a"]);
        assert_eq!(
            s.hosts[1].problems,
            ["sda:write-cache-disabled", "sda:io-scheduler"]
        );
        assert_eq!(s.hosts[2].worst, "ok");
        assert_eq!(s.by_check.len(), 3);
        let t = render_text(&s);
        assert!(t.lines().all(|l| l.chars().count() <= 72), "{t}");
        assert!(t.contains("media-errors"), "{t}");
        let m = render_markdown(&s);
        assert_eq!(m.lines().filter(|l| l.starts_with("| ")).count(), 4, "{m}");
    }
}
