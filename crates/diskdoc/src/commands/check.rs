//! `diskdoc check`: probe, run every check and print the ranked findings (the console form;
//! `--format markdown|json` print the report, see commands/mod.rs `emit`).

use diskdoc_core::checks;
use diskdoc_core::render;
use diskdoc_core::report::text::{CONSOLE_STYLE, WIDTH, wrap};

/// `text` wrapped to the report's 72 columns, continuation lines indented by `indent`.
fn para(s: &mut String, text: &str, first: &str, indent: usize) {
    lines(s, wrap(text, first, indent, WIDTH));
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
    // The unknowns, a headline each ("[unknown] sda ncq-unavailable: ..."): what could not
    // be read and why is in the report.
    let headline_only = render::TextStyle {
        explanation: false,
        ..CONSOLE_STYLE
    };
    for f in findings
        .iter()
        .filter(|f| f.verdict == checks::Verdict::Unknown)
    {
        lines(&mut s, render::text(f, &headline_only));
    }
    s
}

/// Appends rendered lines, each ending in a newline.
fn lines(s: &mut String, lines: Vec<String>) {
    for line in lines {
        s.push_str(&line);
        s.push('\n');
    }
}

/// The problem findings (notice and above), one headline and the indented explanation each:
/// the console form `check`, `replay` and `bench` share.
pub(crate) fn render_problems(findings: &[checks::Finding]) -> String {
    let mut s = String::new();
    for f in findings.iter().filter(|f| f.is_problem()) {
        lines(&mut s, render::text(f, &CONSOLE_STYLE));
    }
    s
}
