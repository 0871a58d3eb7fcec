#[test]
fn the_checked_view_keeps_text_and_attribute_values_but_not_markup() {
    let page = format!(
        "<html><head><style>{}</style></head><body><main><p class=\"x\">pool tank</p>\
             <img alt=\"serial WD-123\" src=\"data:image/png;base64,AAAA\"/></main></body></html>",
        super::STYLE
    );
    let v = super::checked_view(&page);
    assert!(
        v.contains("pool tank") && v.contains("serial WD-123"),
        "{v}"
    );
    assert!(v.contains("data:image/png;base64,AAAA"), "{v}");
    for markup in ["main", "body", "class", "style", "max-width"] {
        assert!(!v.contains(markup), "{markup} in {v}");
    }
}

use super::*;
use crate::checks::{EvidenceRef, Fix};
use crate::evidence::{EvidenceBundle, LatencySummary, Platform};
use crate::facts::SystemFacts;

fn result(test: TestName, label: &str, bs: u64, direct: bool, rate: f64) -> BenchResult {
    BenchResult {
        test,
        target: "/dev/sdz".into(),
        disk: "sdz".into(),
        label: label.into(),
        block_size_bytes: bs,
        queue_depth: 1,
        direct,
        bytes_per_sec: rate,
        iops: rate / bs.max(1) as f64,
        latency: Some(LatencySummary {
            min_ns: 50_000,
            mean_ns: 90_000,
            p50_ns: 80_000,
            p90_ns: 120_000,
            p99_ns: 400_000,
            p999_ns: 2_000_000,
            max_ns: 9_000_000,
        }),
        ..Default::default()
    }
}

fn report(results: Vec<BenchResult>, findings: Vec<Finding>) -> Report {
    let mut facts = SystemFacts::empty(Platform::Linux);
    facts.benchmarks = results;
    Report::new(
        EvidenceBundle::new(Platform::Linux, Default::default()),
        facts,
        findings,
        vec!["diskdoc".into()],
    )
}

#[test]
fn every_chart_when_every_test_ran() {
    let mut rs = vec![
        result(TestName::SeqRead, "outer", 1 << 20, true, 180e6),
        result(TestName::SeqRead, "inner", 1 << 20, true, 90e6),
        result(TestName::RandRead, "qd1", 4096, true, 0.5e6),
        result(TestName::RandRead, "qd32", 4096, true, 1.5e6),
        result(TestName::CdmRead, "SEQ1M Q8T1", 1 << 20, true, 550e6),
        result(TestName::CdmWrite, "SEQ1M Q8T1", 1 << 20, true, 500e6),
        result(TestName::CdmRead, "RND4K Q1T1", 4096, true, 40e6),
    ];
    rs[1].offset_bytes = 900_000_000_000;
    for (i, bs) in [4096u64, 65536, 1 << 20].iter().enumerate() {
        let rate = 50e6 * (i + 1) as f64;
        rs.push(result(
            TestName::BsSweep,
            &format!("bs={bs}"),
            *bs,
            true,
            rate,
        ));
        rs.push(result(
            TestName::BsSweep,
            &format!("buffered bs={bs}"),
            *bs,
            false,
            rate * 2.0,
        ));
    }
    let html = render(&report(rs, Vec::new()));
    for kind in ["zone", "block-size", "latency", "cdm"] {
        assert!(
            html.contains(&format!("<figure class=\"chart\" data-chart=\"{kind}\">")),
            "{kind} chart missing"
        );
    }
    assert!(!html.contains("not measured"), "{html}");
    // Latency: seq-read, rand-read, cdm-read and cdm-write, each its own chart; the
    // sweep has none.
    assert_eq!(html.matches("data-chart=\"latency\"").count(), 4);
    assert!(
        html.contains("Latency percentiles, cdm-write on sdz"),
        "{html}"
    );
    assert!(!html.contains("Latency percentiles, bs-sweep"), "{html}");
    // The grid: two rows, the missing write cell says so.
    assert!(html.contains(">SEQ1M Q8T1<") && html.contains(">RND4K Q1T1<"));
    assert!(
        html.contains(">550.00<") && html.contains(">not run<"),
        "{html}"
    );
    // 40 MB/s in 4096-byte reads.
    assert!(
        html.contains(">9766 IOPS<"),
        "4 KiB cells carry their IOPS: {html}"
    );
    assert!(!html.contains("NaN"));
}

#[test]
fn without_results_each_chart_says_not_measured() {
    let html = render(&report(Vec::new(), Vec::new()));
    assert!(!html.contains("<svg"), "{html}");
    for what in [
        "Sequential rate across the disk: not measured",
        "Block-size curve: not measured",
        "Latency percentiles: not measured",
        "CrystalDiskMark-style grid: not measured",
    ] {
        assert!(html.contains(what), "{what}: {html}");
    }
    assert!(html.starts_with("<!DOCTYPE html>\n<html lang=\"en\">"));
    assert!(html.ends_with("</html>\n"));
    assert!(!html.to_lowercase().contains("<script"));
}

#[test]
fn results_with_nothing_finite_say_so_instead_of_a_blank_chart() {
    let mut r = result(TestName::SeqRead, "outer", 1 << 20, true, f64::NAN);
    r.offset_bytes = 0;
    let html = render(&report(vec![r], Vec::new()));
    assert!(html.contains("no finite value to draw"), "{html}");
    assert!(!html.contains("NaN"));
}

#[test]
fn findings_carry_evidence_fixes_and_code_and_are_escaped() {
    let mut f = Finding::new(
        "write-cache-disabled",
        "sdz",
        Verdict::Problem,
        Severity::Warning,
        "write cache off on <script>alert(1)</script>",
    )
    .explain("Every write waits.\n\nRun `hdparm -W1 /dev/sdz` & see.");
    f.evidence.push(EvidenceRef {
        source: crate::sources::hdparm::WRITE_CACHE_LIVE.key_for("sdz"),
        value: "write-caching = 0 (off) <img src=x>".into(),
    });
    f.fixes.push(Fix {
        platform: Platform::Linux,
        summary: "turn it on".into(),
        steps: vec!["`hdparm -W1 /dev/sdz`".into(), "Reboot".into()],
        risk: "power loss loses cached writes".into(),
    });
    let mut r = report(Vec::new(), vec![f]);
    r.pasted.push(crate::report::Pasted {
        label: "\"><script>alert(2)</script>".into(),
        text: String::new(),
    });
    let html = render(&r);
    assert!(!html.to_lowercase().contains("<script"), "{html}");
    assert!(!html.contains("<img"), "{html}");
    assert!(
        html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
        "{html}"
    );
    assert!(html.contains("&quot;&gt;&lt;script&gt;alert(2)"), "{html}");
    assert!(html.contains("<article class=\"finding sev-warning\" id=\"finding-1\">"));
    assert!(html.contains("<span class=\"tag\">warning</span>"));
    assert!(html.contains("<li><code>cmd:hdparm -W /dev/sdz</code> = write-caching"));
    assert!(html.contains("<li><code>hdparm -W1 /dev/sdz</code></li>\n<li>Reboot</li>"));
    assert!(html.contains("<p>Run <code>hdparm -W1 /dev/sdz</code> &amp; see.</p>"));
    assert!(html.contains("<p class=\"risk\">Risk: power loss"));
}

#[test]
fn the_leak_check_reads_the_page_as_shown() {
    assert_eq!(
        decoded(&esc("O'Brien & <co> \"x\"")),
        "O'Brien & <co> \"x\""
    );
    // A reference written by the text itself stays as written.
    assert_eq!(decoded(&esc("&amp;")), "&amp;");
}

#[test]
fn inline_code_pairs_backticks_and_leaves_an_odd_one() {
    assert_eq!(inline("a `b<c` d"), "a <code>b&lt;c</code> d");
    assert_eq!(inline("it`s"), "it`s");
    assert_eq!(inline("``"), "<code></code>");
}
