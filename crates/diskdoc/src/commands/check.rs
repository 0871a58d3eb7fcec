//! `diskdoc check`: probe, run every check and print the ranked findings (the console form;
//! `--format markdown|json` print the report, see commands/mod.rs `emit`).

use diskdoc_core::checks;

/// The console form of findings: problems with their explanation, then the unknowns.
pub(crate) fn render_findings(findings: &[checks::Finding]) -> String {
    let mut s = String::new();
    let problems = findings.iter().filter(|f| f.is_problem()).count();
    let passed = findings
        .iter()
        .filter(|f| f.verdict == checks::Verdict::Pass)
        .count();
    if findings.is_empty() {
        // A loop or zram device: no check applies, so nothing was confirmed either.
        s.push_str(
            "No check applies here (no controller, link or drive of its own): nothing was \
             confirmed or ruled out. `diskdoc bench` measures it.\n",
        );
    } else if problems == 0 {
        s.push_str(&format!(
            "No problems found: {passed} of {} checks passed, the others could not tell or \
             do not apply.\n",
            findings.len()
        ));
    }
    s.push_str(&render_problems(findings));
    for f in findings
        .iter()
        .filter(|f| f.verdict == checks::Verdict::Unknown)
    {
        s.push_str(&format!(
            "[unknown] {} {}: {}\n",
            f.device, f.check, f.title
        ));
    }
    s
}

/// The problem findings (notice and above), one headline and the indented explanation each:
/// the console form `check`, `replay` and `bench` share.
pub(crate) fn render_problems(findings: &[checks::Finding]) -> String {
    let mut s = String::new();
    for f in findings.iter().filter(|f| f.is_problem()) {
        s.push_str(&format!(
            "[{}] {} {}: {}\n",
            f.severity.label(),
            f.device,
            f.check,
            f.title
        ));
        // Wrapped to 80 columns (explanations are one long line per paragraph).
        for line in f.explanation.lines() {
            for w in diskdoc_core::report::text::wrap(line, "    ", 4, 80) {
                s.push_str(&w);
                s.push('\n');
            }
        }
    }
    s
}
