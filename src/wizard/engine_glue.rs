//! Glue from the wizard to the test engine and the report writers.

use crate::bench::BenchResult;
use crate::checks::Finding;
use crate::evidence::EvidenceBundle;
use crate::facts::{DiskFacts, SystemFacts};
use crate::wizard::machine::TestGroup;

pub fn run_group(
    _sys: &SystemFacts,
    _disk: &DiskFacts,
    group: &TestGroup,
    _quick: bool,
) -> Result<Vec<BenchResult>, String> {
    Err(format!("the {} test engine is not wired in yet", group.id))
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
