use super::*;
use crate::checks::Verdict;
use crate::checks::measured_common::synth::*;

#[test]
fn retries_show_as_outliers() {
    let mut r = result(TestName::RandRead, "qd1", "sdb", 0.5, 4096);
    if let Some(l) = r.latency.as_mut() {
        l.p50_ns = 12_000_000;
        l.p999_ns = 480_000_000;
        l.max_ns = 2_100_000_000;
    }
    let f = LatencyOutliers.run(&sys(
        vec![],
        vec![result(TestName::SeqRead, "outer", "sdb", 150.0, 1 << 20), r],
    ));
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].verdict, Verdict::Problem);
    assert_eq!(
        f[0].title,
        "sdb: slowest I/Os took 480 ms (p99.9) and 2100 ms (max) in rand-read qd1"
    );
}

#[test]
fn normal_hdd_seeks_pass() {
    let mut r = result(TestName::RandRead, "qd1", "sdb", 0.5, 4096);
    if let Some(l) = r.latency.as_mut() {
        l.p999_ns = 40_000_000;
        l.max_ns = 60_000_000;
    }
    let mut few = r.clone();
    few.ios = 20;
    if let Some(l) = few.latency.as_mut() {
        l.p999_ns = 400_000_000;
    }
    assert!(LatencyOutliers.run(&sys(vec![], vec![few])).is_empty());
    let f = LatencyOutliers.run(&sys(vec![], vec![r]));
    assert_eq!(f[0].verdict, Verdict::Pass);
    assert_eq!(
        f[0].title,
        "sdb: worst p99.9 latency 40.0 ms (rand-read qd1)"
    );
}

/// A file-backed loop device stalls because of what is under its backing file: a
/// notice that says so, never the drive-retry and SMR text.
#[test]
fn a_loop_device_stall_blames_what_it_is_built_on() {
    use crate::facts::{DiskFacts, Fact};
    let mut r = result(TestName::RandRead, "qd1", "loop0", 0.5, 4096);
    if let Some(l) = r.latency.as_mut() {
        l.p50_ns = 2_000_000;
        l.p999_ns = 300_000_000;
        l.max_ns = 900_000_000;
    }
    let mut d = DiskFacts::new("loop0", "/dev/loop0");
    d.class = Fact::known(DeviceClass::Loop, "dir:/sys/block");
    let f = LatencyOutliers.run(&sys(vec![d], vec![r.clone()]));
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].verdict, Verdict::Problem);
    assert_eq!(f[0].severity, Severity::Notice);
    assert!(
        f[0].explanation.contains("loop device"),
        "{}",
        f[0].explanation
    );
    assert!(!f[0].explanation.contains("SMR"), "{}", f[0].explanation);
    assert!(
        !f[0].explanation.contains("retrying"),
        "{}",
        f[0].explanation
    );
    // The same numbers on an HDD are a warning about the drive.
    let mut h = DiskFacts::new("loop0", "/dev/loop0");
    h.class = Fact::known(DeviceClass::Hdd, "t");
    let f = LatencyOutliers.run(&sys(vec![h], vec![r]));
    assert_eq!(f[0].severity, Severity::Warning);
    assert!(f[0].explanation.contains("SMR"));
}
