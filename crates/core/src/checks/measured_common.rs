//! Helpers shared by the measurement checks: run a check per disk, pick the best
//! sequential read, interface ceilings, evidence lines and the common finding shapes.
//!
//! Ceilings: SATA uses 8b/10b line coding, so a 1.5/3/6 Gb/s link carries at most
//! 150/300/600 MB/s of payload (SATA 3.x spec, physical layer); USB 3.0 SuperSpeed (5 Gb/s,
//! 8b/10b) at most 500 MB/s; USB 2.0 high speed (480 Mb/s) at most 60 MB/s.

use std::collections::BTreeMap;

use super::{Confidence, Finding, Severity, Verdict};
use crate::evidence::{BenchResult, TestName};
use crate::facts::{DiskFacts, SystemFacts, Transport};

/// Results per disk name ("" when a write test named no disk), in run order.
pub(crate) fn by_disk(sys: &SystemFacts) -> BTreeMap<String, Vec<&BenchResult>> {
    let mut m: BTreeMap<String, Vec<&BenchResult>> = BTreeMap::new();
    for r in &sys.benchmarks {
        m.entry(r.disk.clone()).or_default().push(r);
    }
    m
}

/// Device name for a finding.
pub(crate) fn device_name(disk: &str) -> &str {
    if disk.is_empty() { "system" } else { disk }
}

/// Run `judge` once per disk that has results, in disk-name order, with the disk's name,
/// the device name for its finding ([`device_name`]) and its results in run order; each
/// call gives at most one finding.
pub fn per_disk<'s>(
    sys: &'s SystemFacts,
    mut judge: impl FnMut(&str, &str, &[&'s BenchResult]) -> Option<Finding>,
) -> Vec<Finding> {
    by_disk(sys)
        .into_iter()
        .filter_map(|(disk, rs)| judge(&disk, device_name(&disk), &rs))
        .collect()
}

/// A direct, error-free large-block sequential read (zones, sweep >= 128 KiB, layer "disk").
fn is_direct_seq_read(r: &BenchResult) -> bool {
    r.error.is_none()
        && r.direct
        // A read the ARC answered (sources::zfs_bench) is RAM's, whatever O_DIRECT said.
        && r.answered_by.is_none()
        && r.bytes > 0
        && r.queue_depth <= 1
        && (r.test == TestName::SeqRead
            || (r.test == TestName::BsSweep && r.block_size_bytes >= 128 * 1024)
            || (r.test == TestName::LayerCost && r.label == "disk"))
}

/// The fastest direct sequential read among the results.
pub(crate) fn best_seq_read<'a>(rs: &[&'a BenchResult]) -> Option<&'a BenchResult> {
    rs.iter()
        .copied()
        .filter(|r| is_direct_seq_read(r))
        .max_by(|a, b| by_rate(a, b))
}

/// Order two results by throughput (NaN compares equal).
pub(crate) fn by_rate(a: &BenchResult, b: &BenchResult) -> std::cmp::Ordering {
    a.bytes_per_sec
        .partial_cmp(&b.bytes_per_sec)
        .unwrap_or(std::cmp::Ordering::Equal)
}

/// MB/s with one decimal (decimal megabytes, as drive datasheets quote them).
pub fn mbps(bytes_per_sec: f64) -> String {
    format!("{:.1} MB/s", bytes_per_sec / 1e6)
}

/// Evidence source key for a result.
pub fn source(r: &BenchResult) -> String {
    format!("benchmark:{}", r.test)
}

/// One-line evidence value for a result.
pub fn describe(r: &BenchResult) -> String {
    let mut s = format!(
        "{} {} on {}: {} ({:.0} IOPS, bs {} B, qd {}{})",
        r.test,
        r.label,
        r.target,
        mbps(r.bytes_per_sec),
        r.iops,
        r.block_size_bytes,
        r.queue_depth,
        if r.direct { ", O_DIRECT" } else { ", buffered" }
    );
    if let Some(a) = &r.answered_by {
        s.push_str(&format!(", answered by {a}"));
    }
    if let Some(l) = &r.latency {
        s.push_str(&format!(
            ", p50 {:.2} ms, p99.9 {:.2} ms",
            l.p50_ns as f64 / 1e6,
            l.p999_ns as f64 / 1e6
        ));
    }
    s
}

/// Cite a result on a finding: its [`source`] key with its [`describe`] line.
pub(crate) trait CiteResult {
    fn cite(self, r: &BenchResult) -> Self;
}

impl CiteResult for Finding {
    fn cite(self, r: &BenchResult) -> Finding {
        self.evidence(source(r), describe(r))
    }
}

/// The finding for a measurement that looks healthy: Info, citing the result that shows it.
pub fn pass(
    check: &str,
    dev: &str,
    title: String,
    confidence: Confidence,
    r: &BenchResult,
) -> Finding {
    Finding::new(check, dev, Verdict::Pass, Severity::Info, title)
        .confidence(confidence)
        .cite(r)
}

/// The finding for a measured problem, explained; a measurement is direct evidence, so
/// confidence is high unless the caller lowers it.
pub fn problem(
    check: &str,
    dev: &str,
    severity: Severity,
    title: String,
    explanation: String,
) -> Finding {
    Finding::new(check, dev, Verdict::Problem, severity, title)
        .explain(explanation)
        .confidence(Confidence::High)
}

/// The most payload the disk's interface can carry, bytes/s, with where that came from.
pub fn interface_ceiling(d: &DiskFacts) -> Option<(f64, String)> {
    if let Some(g) = d.link_current_gbps.get()
        && g > 0.0
    {
        return Some((
            g * 1e9 * 0.8 / 8.0,
            format!(
                "SATA link at {g:.1} Gb/s carries at most {:.0} MB/s after 8b/10b coding",
                g * 100.0
            ),
        ));
    }
    if d.transport.get() == Some(Transport::Usb)
        && let Some(c) = d.controller.value()
        && c.usb_driver.as_deref() == Some("uas")
    {
        // UAS exists only on USB 3.x (USB Attached SCSI over SuperSpeed).
        return Some((
            500e6,
            "USB 3.0 (UAS) SuperSpeed carries at most 500 MB/s".into(),
        ));
    }
    None
}

/// Synthetic results for the checks' unit tests.
#[cfg(test)]
pub(crate) mod synth {
    use crate::evidence::Platform;
    pub use crate::evidence::{BenchError, BenchResult, LatencySummary, StopReason, TestName};
    use crate::facts::{DiskFacts, SystemFacts};

    pub fn result(test: TestName, label: &str, disk: &str, mb_s: f64, bs: u64) -> BenchResult {
        BenchResult {
            test,
            target: format!("/dev/{disk}"),
            disk: disk.into(),
            label: label.into(),
            block_size_bytes: bs,
            queue_depth: 1,
            direct: true,
            bytes: (mb_s * 1e6) as u64,
            ios: (mb_s * 1e6 / bs as f64) as u64,
            elapsed_ns: 1_000_000_000,
            bytes_per_sec: mb_s * 1e6,
            iops: mb_s * 1e6 / bs as f64,
            latency: Some(LatencySummary {
                min_ns: 100_000,
                mean_ns: 200_000,
                p50_ns: 200_000,
                p90_ns: 300_000,
                p99_ns: 500_000,
                p999_ns: 900_000,
                max_ns: 1_000_000,
            }),
            spread_pct: Some(1.0),
            stop_reason: StopReason::Stable,
            ..Default::default()
        }
    }

    pub(crate) fn with_error(mut r: BenchResult, kind: &str, offset: u64) -> BenchResult {
        r.error = Some(BenchError {
            kind: kind.into(),
            offset_bytes: offset,
            message: "Input/output error".into(),
        });
        r.stop_reason = StopReason::Error;
        r
    }

    pub fn sys(disks: Vec<DiskFacts>, results: Vec<BenchResult>) -> SystemFacts {
        let mut s = SystemFacts::empty(Platform::Linux);
        s.disks = disks;
        s.benchmarks = results;
        s
    }
}
