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
        ) && head.ends_with("apart from that no problems, 0 passed, 0 unknown, 0 not applicable"),
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
    assert!(s.hosts[0].failed_tests[0].starts_with("bench.json: all 2 read/write tests failed"));
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
