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

/// (text report, JSON report).
pub fn reports(
    bundle: &EvidenceBundle,
    sys: &SystemFacts,
    findings: &[Finding],
    _redact: bool,
) -> (String, String) {
    let text = crate::app::render_facts(sys);
    let json = serde_json::json!({"findings": findings, "evidence": bundle}).to_string();
    (text, json)
}
