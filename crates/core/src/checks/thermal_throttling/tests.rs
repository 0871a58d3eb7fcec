use super::*;

#[test]
fn one_short_transition_is_not_throttling() {
    let base = NvmeHealth {
        temperature_c: Some(30),
        warning_temp_c: Some(83),
        critical_temp_c: Some(85),
        ..Default::default()
    };
    let d = crate::checks::testutil_nvme::nvme_ssd();
    let sys = crate::checks::testutil::linux(d.clone());
    for (count, secs, fires) in [
        (Some(1), None, false),
        (Some(1), Some(12), false),
        (Some(1), Some(84), false),
        (Some(1), Some(599), false),
        (Some(1), Some(600), true),
        (Some(8), Some(12), true),
    ] {
        let h = NvmeHealth {
            tmt1_count: count,
            tmt1_seconds: secs,
            ..base.clone()
        };
        let f = judge(&sys, &d, &h);
        assert_eq!(
            f.verdict == Verdict::Problem,
            fires,
            "{count:?} {secs:?}: {f:#?}"
        );
    }
}
use crate::checks::testutil::*;
use crate::checks::testutil_nvme::{fixture, nvme_ssd};
use crate::sources::nvme_smart;

fn with(rel: &str) -> SystemFacts {
    let mut d = nvme_ssd();
    d.nvme_health = Fact::known(
        nvme_smart::parse(&fixture(rel)).unwrap_or_default(),
        format!("pasted:{rel}"),
    );
    linux(d)
}

#[test]
fn transitions_fire_notice() {
    let f = &ThermalThrottling.run(&with(
        "linux/smartctl/a-nvme-wd-sn730-thermal-transitions-t1-3-t2-1-bbcode.txt",
    ))[0];
    assert_vs(f, Verdict::Problem, Severity::Notice);
    assert!(
        f.explanation
            .contains("3 times into light (TMT1) throttling, 584 s"),
        "{}",
        f.explanation
    );
    assert!(f.explanation.contains("1 times into heavy (TMT2)"));
    let f = &ThermalThrottling.run(&with(
        "smartctl-nvme/a-nvme-crucial-p3-500g-warning-temp-time-2-tmt1-8-excerpt.txt",
    ))[0];
    assert!(f.explanation.contains("2 minutes at or above its warning"));
}

#[test]
fn throughput_drop_while_heating_fires() {
    let mut d = nvme_ssd();
    d.temp_samples_c = vec![41, 72];
    let mut s = linux(d);
    for (label, rate) in [("outer", 3.1e9), ("middle", 2.9e9), ("inner", 1.2e9)] {
        let mut r: crate::evidence::BenchResult =
            serde_json::from_str(BENCH).unwrap_or_else(|e| panic!("{e}"));
        r.label = label.into();
        r.bytes_per_sec = rate;
        s.benchmarks.push(r);
    }
    let f = &ThermalThrottling.run(&s)[0];
    assert_vs(f, Verdict::Problem, Severity::Warning);
    assert!(
        f.explanation
            .contains("dropped from 3100.0 MB/s to 1200.0 MB/s"),
        "{}",
        f.explanation
    );
    assert!(f.explanation.contains("from 41 °C to 72 °C"));
    // Warmer without a drop: nothing from the samples.
    s.benchmarks.truncate(1);
    assert_eq!(ThermalThrottling.run(&s)[0].verdict, Verdict::Pass);
}

const BENCH: &str = r#"{"test":"seq-read","target":"/dev/nvme0n1","disk":"nvme0n1",
        "label":"outer","block_size_bytes":1048576,"queue_depth":1,"direct":true,
        "offset_bytes":0,"bytes":1073741824,"ios":1024,"elapsed_ns":1,"bytes_per_sec":1.0,
        "iops":1.0,"latency":null,"spread_pct":null,"stop_reason":"stable","error":null}"#;

#[test]
fn hot_now_is_warning() {
    let mut d = nvme_ssd();
    if let Fact::Known { value, .. } = &mut d.nvme_health {
        value.temperature_c = Some(83);
    }
    let f = &ThermalThrottling.run(&linux(d))[0];
    assert_vs(f, Verdict::Problem, Severity::Warning);
    assert!(f.title.contains("throttling"));
}

#[test]
fn healthy_fixtures_pass() {
    for rel in [
        "nvme-smart-log/wd-2tb-healthy-nvme-cli-issue-1037.txt",
        "linux/smartctl/a-nvme-crucial-p3-4tb-failed-spare-0-readonly-critical-0x09.txt",
        "smartctl-nvme/x-nvme-healthy-lba-512-in-use-4096-offered-checkbox-102-excerpt.txt",
    ] {
        let f = &ThermalThrottling.run(&with(rel))[0];
        assert_vs(f, Verdict::Pass, Severity::Info);
    }
    assert!(ThermalThrottling.run(&linux(sata_hdd_ahci())).is_empty());
}
