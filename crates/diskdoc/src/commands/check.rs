//! `diskdoc check`: probe, run every check and print the ranked findings (the console form;
//! `--format markdown|json` print the report, see commands/mod.rs `emit`).

use diskdoc_core::checks;
use diskdoc_core::report::text::{WIDTH, wrap};

/// `text` wrapped to the report's 72 columns, continuation lines indented by `indent`.
fn para(s: &mut String, text: &str, first: &str, indent: usize) {
    for l in wrap(text, first, indent, WIDTH) {
        s.push_str(&l);
        s.push('\n');
    }
}

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
        para(
            &mut s,
            "No check applies here (no controller, link or drive of its own): nothing was \
             confirmed or ruled out. `diskdoc bench` measures it.",
            "",
            0,
        );
    } else if problems == 0 {
        let text = format!(
            "No problems found: {passed} of {} checks passed, the others could not tell or \
             do not apply.",
            findings.len()
        );
        para(&mut s, &text, "", 0);
    }
    s.push_str(&render_problems(findings));
    for f in findings
        .iter()
        .filter(|f| f.verdict == checks::Verdict::Unknown)
    {
        let text = format!("{} {}: {}", f.device, f.check, f.title);
        para(&mut s, &text, "[unknown] ", 4);
    }
    s
}

/// The problem findings (notice and above), one headline and the indented explanation each:
/// the console form `check`, `replay` and `bench` share.
pub(crate) fn render_problems(findings: &[checks::Finding]) -> String {
    let mut s = String::new();
    for f in findings.iter().filter(|f| f.is_problem()) {
        for line in diskdoc_core::render::text(f, &diskdoc_core::report::text::CONSOLE_STYLE) {
            s.push_str(&line);
            s.push('\n');
        }
    }
    s
}
