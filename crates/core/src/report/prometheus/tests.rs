use super::*;
use crate::checks::{Finding, Severity};
use crate::evidence::{BenchResult, EvidenceBundle, LatencySummary, Origin, Platform, TestName};
use crate::facts::SystemFacts;

fn report(redacted: bool) -> Report {
    let mut d = DiskFacts::new("sda", "/dev/sda");
    d.model = Fact::known("WDC \"Blue\"\nX".to_string(), "t");
    d.serial = Fact::known("WD-123".to_string(), "t");
    d.link_current_gbps = Fact::known(1.5, "t");
    d.link_drive_max_gbps = Fact::known(6.0, "t");
    d.write_cache_enabled = Fact::known(false, "t");
    let mut sys = SystemFacts::empty(Platform::Linux);
    sys.disks.push(d);
    let mut b = EvidenceBundle::new(Platform::Linux, Origin::Live);
    b.captured_at_unix = 1_764_000_000;
    b.benchmarks.push(BenchResult {
        test: TestName::SeqRead,
        disk: "sda".into(),
        label: "outer".into(),
        block_size_bytes: 1 << 20,
        queue_depth: 1,
        bytes: 1 << 30,
        bytes_per_sec: 140e6,
        latency: Some(LatencySummary {
            p50_ns: 7_000_000,
            ..Default::default()
        }),
        ..Default::default()
    });
    let findings = vec![
        Finding::new(
            "write-cache-disabled",
            "sda",
            Verdict::Problem,
            Severity::Warning,
            "off",
        ),
        Finding::new(
            "ncq-unavailable",
            "sda",
            Verdict::Pass,
            Severity::Info,
            "ok",
        ),
    ];
    let mut r = Report::new(b, sys, findings, vec!["diskdoc".into()]);
    r.redacted = redacted;
    r
}

#[test]
fn findings_disks_and_bench_become_series() {
    let t = render(&report(true));
    assert!(t.contains("# TYPE diskdoc_finding gauge\n"), "{t}");
    assert!(
            t.contains(
                "diskdoc_finding{check=\"write-cache-disabled\",device=\"sda\",severity=\"warning\",verdict=\"problem\"} 1\n"
            ),
            "{t}"
        );
    assert!(
            t.contains(
                "diskdoc_finding{check=\"ncq-unavailable\",device=\"sda\",severity=\"info\",verdict=\"pass\"} 0\n"
            ),
            "{t}"
        );
    assert!(
        t.contains(
            "diskdoc_link_speed_bytes_per_second{device=\"sda\",which=\"current\"} 187500000\n"
        ),
        "{t}"
    );
    assert!(
        t.contains("diskdoc_write_cache_enabled{device=\"sda\"} 0\n"),
        "{t}"
    );
    assert!(t.contains("diskdoc_bench_bytes_per_second{device=\"sda\",test=\"seq-read\",label=\"outer\",block_size_bytes=\"1048576\",queue_depth=\"1\"} 140000000\n"), "{t}");
    assert!(t.contains("quantile=\"0.5\"} 0.007\n"), "{t}");
    assert!(
        t.contains("# TYPE diskdoc_bench_latency_seconds summary\n"),
        "{t}"
    );
    assert!(
        t.contains("diskdoc_bench_latency_seconds_count{device=\"sda\""),
        "{t}"
    );
    assert!(
        t.contains("diskdoc_bench_latency_seconds_sum{device=\"sda\""),
        "{t}"
    );
    assert!(t.contains("diskdoc_exit_status 1\n"), "{t}");
    assert!(t.contains("diskdoc_run_success 1\n"), "{t}");
    assert!(
        t.contains("diskdoc_last_run_timestamp_seconds 1764000000\n"),
        "{t}"
    );
    // firmware strings are escaped, never break a line
    assert!(t.contains("model=\"WDC \\\"Blue\\\"\\nX\""), "{t}");
}

#[test]
fn pcie_links_and_nvme_health_become_gauges() {
    let mut r = report(true);
    let d = &mut r.facts.disks[0];
    d.pcie = Fact::known(
        vec![crate::facts::PcieLink {
            address: "0000:01:00.0".into(),
            hop: 0,
            current_gts: Some(2.5),
            max_gts: Some(8.0),
            current_width: Some(1),
            max_width: Some(4),
            ..Default::default()
        }],
        "t",
    );
    d.nvme_health = Fact::known(
        crate::facts::NvmeHealth {
            temperature_c: Some(71),
            warning_temp_c: Some(70),
            critical_warning: Some(2),
            available_spare: Some(100),
            percentage_used: Some(3),
            ..Default::default()
        },
        "t",
    );
    let t = render(&r);
    assert!(t.contains("diskdoc_pcie_link_transfers_per_second{device=\"sda\",hop=\"0\",address=\"0000:01:00.0\",which=\"current\"} 2500000000\n"), "{t}");
    assert!(t.contains("diskdoc_pcie_link_width_lanes{device=\"sda\",hop=\"0\",address=\"0000:01:00.0\",which=\"max\"} 4\n"), "{t}");
    assert!(
        t.contains("diskdoc_temperature_celsius{device=\"sda\"} 71\n"),
        "{t}"
    );
    assert!(
        t.contains("diskdoc_temperature_threshold_celsius{device=\"sda\",which=\"warning\"} 70\n"),
        "{t}"
    );
    assert!(
        t.contains("diskdoc_nvme_critical_warning{device=\"sda\"} 2\n"),
        "{t}"
    );
    assert!(
        t.contains("diskdoc_smart_percentage_used_ratio{device=\"sda\"} 0.03\n"),
        "{t}"
    );
}

#[test]
fn serials_only_without_redaction() {
    assert!(!render(&report(true)).contains("WD-123"));
    assert!(render(&report(false)).contains("serial=\"WD-123\""));
}

/// A random-I/O prediction is a series of its own, in operations per second, with its
/// queue depth as a label (not mixed into the bytes-per-second gauges).
#[test]
fn a_random_io_prediction_is_an_iops_series() {
    let mut r = report(false);
    r.findings[1].verdict = Verdict::Problem;
    r.findings[1].expected_effect = Some(crate::checks::effect::tests::qd32_read_effect());
    let t = render(&r);
    let high = t
        .lines()
        .find(|l| l.starts_with("diskdoc_expected_after_fix_high_iops{"))
        .unwrap_or_default();
    assert!(
        high.contains("metric=\"rand_read_iops\"")
            && high.contains("queue_depth=\"32\"")
            && high.ends_with(" 102900"),
        "{high}"
    );
    assert!(
        t.contains("# TYPE diskdoc_expected_after_fix_low_iops gauge"),
        "{t}"
    );
    assert!(
        !t.lines().any(
            |l| l.starts_with("diskdoc_expected_after_fix_high_bytes_per_second")
                && l.contains("rand_read_iops")
        ),
        "{t}"
    );
}

#[test]
fn every_sample_line_belongs_to_a_declared_family() {
    let t = render(&report(false));
    let mut declared: Vec<(String, String)> = Vec::new();
    for line in t.lines() {
        if let Some(rest) = line.strip_prefix("# TYPE ") {
            let mut w = rest.split(' ');
            let name = w.next().unwrap_or("").to_string();
            declared.push((name, w.next().unwrap_or("").to_string()));
        } else if !line.starts_with('#') {
            let name = line.split(['{', ' ']).next().unwrap_or("");
            let (family, kind) = declared.last().cloned().unwrap_or_default();
            // A summary's own series are NAME, NAME_sum and NAME_count (exposition
            // format: "summary"), all under its one TYPE line.
            let ok = name == family
                || (kind == "summary"
                    && [format!("{family}_sum"), format!("{family}_count")]
                        .iter()
                        .any(|s| s == name));
            assert!(ok, "{line} (declared: {family} {kind})");
        }
    }
    assert!(declared.len() >= 8, "{declared:?}");
}
