//! `diskdoc check`: probe, run every check and print the ranked findings.

use diskdoc_core::checks;

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
