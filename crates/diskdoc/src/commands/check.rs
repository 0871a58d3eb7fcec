//! `diskdoc check`: probe, run every check and print the ranked findings.

use std::path::Path;

use diskdoc_core::checks::{self, Finding};
use diskdoc_core::evidence::EvidenceBundle;
use diskdoc_core::facts::SystemFacts;
use diskdoc_core::report::{self, Report};

use crate::error::{AppResult, UserError};

/// `check --format prometheus`: the findings and facts as text exposition, to stdout or
/// atomically to `output`. The exit status is the check's (0 or 1), so a timer can tell.
pub(crate) fn prometheus(
    bundle: EvidenceBundle,
    sys: SystemFacts,
    findings: Vec<Finding>,
    output: Option<&Path>,
    redact: bool,
) -> AppResult {
    let r = Report::new(bundle, sys, findings, report::current_argv()).shareable(redact);
    let text = report::prometheus::render(&r);
    match output {
        Some(p) => crate::out::write_atomic(p, text.as_bytes())
            .map_err(|e| UserError(format!("cannot write {}: {e}", p.display())))?,
        None => crate::out!("{text}"),
    }
    Ok(r.exit_status)
}

pub(crate) fn print_findings(findings: &[checks::Finding], json: bool) {
    if json {
        crate::outln!(
            "{}",
            serde_json::to_string_pretty(findings).unwrap_or_default()
        );
        return;
    }
    let problems: Vec<_> = findings.iter().filter(|f| f.is_problem()).collect();
    if problems.is_empty() {
        crate::outln!("No problems found ({} checks looked).", findings.len());
    }
    print_problems(findings);
    for f in findings
        .iter()
        .filter(|f| f.verdict == checks::Verdict::Unknown)
    {
        crate::outln!("[unknown] {} {}: {}", f.device, f.check, f.title);
    }
}

/// The problem findings (notice and above), one headline and the indented explanation each:
/// the console form `check`, `replay` and `bench` share.
pub(crate) fn print_problems(findings: &[checks::Finding]) {
    for f in findings.iter().filter(|f| f.is_problem()) {
        crate::outln!(
            "[{}] {} {}: {}",
            f.severity.label(),
            f.device,
            f.check,
            f.title
        );
        for line in f.explanation.lines() {
            crate::outln!("    {line}");
        }
    }
}
