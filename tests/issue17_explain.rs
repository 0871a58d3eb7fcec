//! Issue 17 through `diskdoc explain`: a pasted `smartctl -a` of a failing NVMe drive (the
//! real Crucial P3 fixture, tests/fixtures/INDEX.md) yields nvme-health from the same parser
//! and check a live run uses; the healthy NVMe paste raises no warning.

use std::path::Path;

use diskdoc_core::checks::{Severity, Verdict};
use diskdoc_core::explain::{Input, explain};

fn paste(cmd: &str, rel: &str) -> Vec<u8> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(rel);
    let mut v = format!("$ {cmd}\n").into_bytes();
    v.extend(std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display())));
    v
}

#[test]
fn pasted_failing_nvme_fires_nvme_health() {
    let e = explain(&[Input {
        label: "thread".into(),
        bytes: paste(
            "sudo smartctl -a /dev/nvme0n1",
            "linux/smartctl/a-nvme-crucial-p3-4tb-failed-spare-0-readonly-critical-0x09.txt",
        ),
    }])
    .unwrap_or_else(|e| panic!("{e:?}"));
    let f = e
        .findings
        .iter()
        .find(|f| f.check == "nvme-health")
        .unwrap_or_else(|| panic!("no nvme-health finding: {:#?}", e.findings));
    assert_eq!(
        (f.verdict, f.severity),
        (Verdict::Problem, Severity::Critical)
    );
    assert!(f.explanation.contains("read-only"));
}

#[test]
fn pasted_healthy_nvme_is_silent() {
    let e = explain(&[Input {
        label: "thread".into(),
        bytes: paste(
            "sudo smartctl -a /dev/nvme0n1",
            "linux/smartctl/a-nvme-smartctl6.6-old-nvme-format.txt",
        ),
    }])
    .unwrap_or_else(|e| panic!("{e:?}"));
    // Healthy: no warning; the SN550 offers a 4096 B format while using 512 B, a notice.
    for f in e.findings.iter().filter(|f| {
        f.verdict == Verdict::Problem
            && ["nvme-health", "thermal-throttling"].contains(&f.check.as_str())
    }) {
        assert!(
            f.severity == Severity::Notice && f.title.contains("512-byte"),
            "{f:#?}"
        );
    }
}
