//! Glue from the wizard to the test engine and the report writers.

use crate::bench::BenchResult;
use crate::checks::Finding;
use crate::evidence::EvidenceBundle;
use crate::facts::{DiskFacts, SystemFacts};
use crate::wizard::machine::TestGroup;

/// Run one of the wizard's test groups with the native engine (src/bench).
pub fn run_group(
    _sys: &SystemFacts,
    disk: &DiskFacts,
    group: &TestGroup,
    quick: bool,
) -> Result<Vec<BenchResult>, String> {
    use std::io::IsTerminal;
    // "read" = zones, block-size sweep, random; layers are their own group here.
    let tests = match group.id {
        "read" => "seq,sweep,rand",
        "write" => "write,sync",
        "layers" => "layers",
        other => return Err(format!("unknown test group {other}")),
    };
    let args = crate::cli::BenchArgs {
        tests: tests.to_string(),
        scratch_dir: group.scratch_dir.clone(),
        quick,
        ..Default::default()
    };
    let device = (group.id != "write").then_some(disk.dev_path.as_str());
    let bars = std::io::stderr().is_terminal();
    crate::bench::cli::measure(&args, device, bars)
        .map(|b| b.benchmarks)
        .map_err(|e| e.0)
}

/// (text report, JSON report), redacted unless `redact` is false.
pub fn reports(
    bundle: &EvidenceBundle,
    sys: &SystemFacts,
    findings: &[Finding],
    redact: bool,
) -> (String, String) {
    let report = crate::report::Report::new(
        bundle.clone(),
        sys.clone(),
        findings.to_vec(),
        crate::report::current_argv(),
    );
    let shared = report.shareable(redact);
    (
        crate::report::text::render(&shared),
        crate::report::json::render(&shared),
    )
}
