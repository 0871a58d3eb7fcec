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
mod tests {
    use super::*;
    use crate::checks::Finding;
    use crate::evidence::{EvidenceBundle, Origin, Platform};
    use crate::facts::{Fact, SystemFacts};
    use crate::report::Report;

    fn rep(host: &str, id: Option<&str>, at: u64, fs: Vec<Finding>) -> Report {
        let mut sys = SystemFacts::empty(Platform::Linux);
        sys.hostname = Fact::known(host.to_string(), "t");
        let mut b = EvidenceBundle::new(Platform::Linux, Origin::Live);
        b.host_id = id.map(str::to_string);
        b.captured_at_unix = at;
        Report::new(b, sys, fs, vec![])
    }

    fn m(file: &str, report: Report) -> Member {
        Member {
            file: file.into(),
            report,
        }
    }

    fn wc(v: Verdict, s: Severity) -> Finding {
        Finding::new("write-cache-disabled", "sda", v, s, "x")
    }

    /// A bench whose every test failed at its start (the newcomer's read-only scratch
    /// directory): the report's headline, a comparison and the summary all say that the
    /// tests failed and why, never "no problems" or "ok"; one test that measured something
    /// is a run like any other.
    #[test]
    fn a_bench_whose_every_test_failed_never_reads_as_all_well() {
        use crate::evidence::{BenchError, BenchResult, TestName};
        let failed = |test: TestName| BenchResult {
            test,
            target: "/mnt/ro (unnamed scratch file)".into(),
            error: Some(BenchError {
                kind: "EROFS".into(),
                offset_bytes: 0,
                message: "/mnt/ro is on a read-only filesystem or device; choose a writable \
                          place with --scratch-dir"
                    .into(),
            }),
            ..Default::default()
        };
        let mut r = rep("a", Some("id-a"), 1, vec![]);
        r.bundle.benchmarks = vec![failed(TestName::SeqWrite), failed(TestName::SyncWrite)];
        let head = crate::report::text::report_summary(&r);
        assert!(
            head.starts_with(
                "all 2 read/write tests failed, so nothing was measured (EROFS: /mnt/ro is on \
                 a read-only filesystem"
            ) && head
                .ends_with("apart from that no problems, 0 passed, 0 unknown, 0 not applicable"),
            "{head}"
        );
        assert_eq!(head.matches("EROFS").count(), 1, "said once: {head}");
        let text = crate::report::text::render(&r);
        assert!(
            text.contains("Findings: all 2 read/write tests failed"),
            "{text}"
        );
        let md = crate::report::markdown::render(&r);
        assert!(
            md.contains("**Findings:** all 2 read/write tests failed"),
            "{md}"
        );
        let s = summarize(&[m("bench.json", r.clone())]);
        assert_eq!(s.hosts[0].worst, "tests failed");
        assert_eq!(s.hosts[0].failed_tests.len(), 1);
        assert!(
            s.hosts[0].failed_tests[0].starts_with("bench.json: all 2 read/write tests failed")
        );
        let t = render_text(&s, &[]);
        assert!(
            t.contains("tests failed") && t.contains("bench.json: all 2"),
            "{t}"
        );
        let c = crate::report::compare::compare(&r, &r, "a", "b");
        assert!(
            c.warnings
                .iter()
                .any(|w| w.starts_with("in the before report all 2 read/write tests failed"))
                && c.warnings
                    .iter()
                    .any(|w| w.starts_with("in the after report all 2")),
            "{:?}",
            c.warnings
        );
        // One test measured something: an ordinary run, nothing said.
        let mut ok = failed(TestName::SeqRead);
        ok.error = None;
        ok.ios = 10;
        r.bundle.benchmarks.push(ok);
        assert!(crate::report::tests_failed(&r.bundle.benchmarks).is_none());
        assert!(crate::report::text::report_summary(&r).starts_with("no problems"));
        assert_eq!(
            summarize(&[m("bench.json", r.clone())]).hosts[0].worst,
            "ok"
        );
        // No test at all (a `check`): nothing to say either.
        r.bundle.benchmarks.clear();
        assert!(crate::report::tests_failed(&r.bundle.benchmarks).is_none());
    }

    #[test]
    fn worst_host_first_and_counts_per_check() {
        let ok = rep("a", None, 1, vec![]);
        let warn = rep(
            "b",
            None,
            1,
            vec![
                wc(Verdict::Problem, Severity::Warning),
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
            None,
            1,
            vec![Finding::new(
                "media-errors",
                "sdb",
                Verdict::Problem,
                Severity::Critical,
                "x",
            )],
        );
        let s = summarize(&[m("a.json", ok), m("b.json", warn), m("c.json", crit)]);
        let order: Vec<&str> = s.hosts.iter().map(|h| h.host.as_str()).collect();
        assert_eq!(order, ["c", "b", "a"]);
        assert_eq!(
            s.hosts[1].problems,
            ["sda:write-cache-disabled", "sda:io-scheduler"]
        );
        assert_eq!(s.hosts[2].worst, "ok");
        assert_eq!(s.by_check.len(), 3);
        assert_eq!(s.reports_without_host_id, 3);
        assert_eq!(s.exit_status(), 1);
        let t = render_text(&s, &[]);
        assert!(t.lines().all(|l| l.chars().count() <= 72), "{t}");
        assert!(t.contains("media-errors"), "{t}");
        assert!(t.contains("3 reports carry no host ID"), "{t}");
        let md = render_markdown(&s, &[]);
        assert_eq!(
            md.lines().filter(|l| l.starts_with("| ")).count(),
            4,
            "{md}"
        );
    }

    /// Redacted reports all name their host HOST-1: the host ID groups them, and the newest
    /// report that judged a check on a disk wins.
    #[test]
    fn one_row_per_host_id_newest_verdict_wins() {
        let id_a = "0123456789abcdef0123456789abcdef";
        let id_b = "fedcba9876543210fedcba9876543210";
        let a_old = rep(
            "HOST-1",
            Some(id_a),
            100,
            vec![wc(Verdict::Problem, Severity::Warning)],
        );
        let a_new = rep(
            "HOST-1",
            Some(id_a),
            200,
            vec![wc(Verdict::Pass, Severity::Info)],
        );
        let b_only = rep(
            "HOST-1",
            Some(id_b),
            150,
            vec![wc(Verdict::Problem, Severity::Warning)],
        );
        // The newer file sorts first by name: time decides, not the name.
        let s = summarize(&[
            m("a-2.json", a_old),
            m("a-1.json", a_new),
            m("b.json", b_only),
        ]);
        assert_eq!(s.hosts.len(), 2, "{s:?}");
        assert_eq!(s.reports_without_host_id, 0);
        let a = s.hosts.iter().find(|h| h.host_id.as_deref() == Some(id_a));
        let a = a.expect("host a");
        assert_eq!(a.files, ["a-2.json", "a-1.json"]);
        assert_eq!(a.worst, "ok", "the newer check found the cache on again");
        assert_eq!(s.hosts[0].host_id.as_deref(), Some(id_b));
        let t = render_text(
            &s,
            &[crate::report::Message::warning("skipped x.json: no report")],
        );
        assert!(t.contains("HOST-1 fedcba98"), "{t}");
        assert!(t.contains("HOST-1 01234567"), "{t}");
        assert!(t.contains("skipped x.json"), "{t}");
        assert!(
            t.starts_with("diskdoc summary of 3 reports from 2 hosts"),
            "{t}"
        );
    }
}
