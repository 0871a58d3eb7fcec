//! The one renderer of a finding per format. Text:  the report (`report::text`), the console of
//! `check`, `replay` and `bench` (`diskdoc` commands/check.rs) and `explain`'s text all call
//! [`text`], with their differences as a [`TextStyle`]: how the headline reads, the width
//! and indents, and whether the evidence and the fixes follow. Markdown: the report and
//! `explain` call [`markdown`] with a [`MarkdownStyle`]. It sits between `checks`
//! and the two renderers above it (explain, report), so both can use it without a cycle.

use crate::checks::{Finding, Verdict, label_of};
use crate::evidence::Platform;
use crate::units::wrap_words;

/// How a pass reads in the report's `[tag]`s.
pub(crate) const PASS_TAG: &str = "ok";
/// How a pass reads on the wizard's spoken verdict lines ("Write cache ... good: on").
const PASS_WORD: &str = "good";

/// The word for a finding's verdict: its severity when it is a problem, `pass` for a pass
/// ([`PASS_TAG`] or [`PASS_WORD`]), else `unknown` or `n/a`.
pub(crate) fn verdict_word(f: &Finding, pass: &'static str) -> &'static str {
    match f.verdict {
        Verdict::Problem => f.severity.label(),
        Verdict::Pass => pass,
        Verdict::Unknown => "unknown",
        Verdict::NotApplicable => "n/a",
    }
}

/// A finding's title without the `device: ` some checks start it with and without the
/// trailing `: good` a verdict word already says (for lines that name the check instead).
fn short_title(f: &Finding) -> &str {
    let t = f.title.trim();
    let t = t
        .strip_prefix(f.device.as_str())
        .and_then(|rest| rest.strip_prefix(": "))
        .unwrap_or(t);
    t.strip_suffix(": good").unwrap_or(t)
}

/// How the headline of a finding reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Headline {
    /// `1. [warning] ada0: Write cache is off (write-cache-disabled)`: the report's
    /// numbered list, wrapped under the body indent.
    Numbered(usize),
    /// `[warning] ada0 write-cache-disabled: Write cache is off`: a console line.
    Tagged,
    /// `  Write cache .......... warning: write cache is off`: the wizard's inspect step, the
    /// check's label and dots filling `column` columns after the lead, continuation lines
    /// under the verdict word.
    Verdict { column: usize },
    /// `Write cache (write-cache-disabled):`: the wizard's why-and-evidence screen.
    Labelled,
    /// `1. [warning] write cache is off (fairly sure: read from the device/OS)`: the
    /// wizard's ranked answer, with how sure the finding is (`Confidence::words`).
    Ranked(usize),
    /// `- Write cache: write cache is off` after the lead: the wizard's list of unknowns.
    Bullet,
}

/// The evidence lines under a finding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Evidence {
    None,
    /// `Evidence:` and one `source = value` item each after `bullet` (`- ` in the report,
    /// two spaces in the wizard); `wrap`ped under the item, or kept whole.
    Block {
        bullet: &'static str,
        wrap: bool,
    },
    /// One `evidence: source = value` line each, at most `limit` of them; `wrap`ped two
    /// columns in (the wizard's answer), or kept whole and copyable (explain).
    Inline {
        wrap: bool,
        limit: usize,
    },
}

/// The fixes under a finding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fixes {
    None,
    /// `Fix (FreeBSD): ...`, numbered steps, then `Risk: ...` (the report).
    Numbered,
    /// `fix (FreeBSD): ...` and each step indented under it (explain).
    Plain,
    /// Only the fixes for `only` (the platform the user is on): `Fix: ...`, `- step` lines
    /// kept whole so a command copies as one line, then `Risk: ...` (the wizard's answer).
    Steps {
        only: Platform,
    },
}

/// What differs between the places that list findings.
#[derive(Debug, Clone, Copy)]
pub struct TextStyle {
    pub headline: Headline,
    /// Text before a [`Headline::Tagged`], [`Headline::Verdict`], [`Headline::Labelled`]
    /// or [`Headline::Bullet`] headline ("" or "  ").
    pub lead: &'static str,
    /// Indent of the explanation, evidence and fixes.
    pub body: usize,
    pub width: usize,
    /// Whether the headline is wrapped too (it is a copyable line in explain).
    pub wrap_headline: bool,
    /// Whether a word longer than a line is broken (the report: yes, it has a hard width).
    pub break_long: bool,
    /// Whether the explanation follows the headline (the wizard's verdict lines are the
    /// headline alone).
    pub explanation: bool,
    /// Explanation paragraphs are separated by a blank line (`true`, the report's rule)
    /// or are its lines.
    pub blank_line_paragraphs: bool,
    pub evidence: Evidence,
    pub fixes: Fixes,
    /// Applied to every string from the finding (a sanitize policy).
    pub clean: fn(&str) -> String,
}

/// The finding headline: `[warning] ada0: Write cache is off (write-cache-disabled)`.
fn finding_title(f: &Finding) -> String {
    let tag = verdict_word(f, PASS_TAG);
    // Some checks already start their title with the device ("ad4: write cache disabled").
    let prefixed = f
        .title
        .strip_prefix(f.device.as_str())
        .is_some_and(|rest| rest.starts_with(':'));
    if prefixed {
        format!("[{tag}] {} ({})", f.title, f.check)
    } else {
        format!("[{tag}] {}: {} ({})", f.device, f.title, f.check)
    }
}

/// The headline's lines: its first-line prefix, its text and the indent of the lines the
/// text wraps onto.
fn headline(f: &Finding, st: &TextStyle) -> Vec<String> {
    let c = st.clean;
    let (first, text, hang) = match st.headline {
        Headline::Numbered(n) => (format!("{n}. "), c(&finding_title(f)), st.body),
        Headline::Tagged => (
            st.lead.to_string(),
            format!(
                "[{}] {} {}: {}",
                verdict_word(f, PASS_TAG),
                c(&f.device),
                f.check,
                c(&f.title)
            ),
            st.body,
        ),
        Headline::Verdict { column } => {
            let label = label_of(&f.check);
            // At least two dots, so a label as wide as the column still reads as a row.
            let dots = ".".repeat(column.saturating_sub(label.len() + 1).max(2));
            let head = format!("{}{label} {dots} ", st.lead);
            let hang = head.chars().count();
            let verdict = format!("{}: {}", verdict_word(f, PASS_WORD), c(short_title(f)));
            (head, verdict, hang)
        }
        Headline::Labelled => (
            st.lead.to_string(),
            format!("{} ({}):", label_of(&f.check), f.check),
            st.body,
        ),
        Headline::Ranked(n) => (
            format!("{n}. "),
            format!(
                "[{}] {} ({})",
                verdict_word(f, PASS_TAG),
                c(&f.title),
                confidence_words(f)
            ),
            st.body,
        ),
        Headline::Bullet => (
            format!("{}- ", st.lead),
            format!("{}: {}", label_of(&f.check), c(short_title(f))),
            st.body,
        ),
    };
    whole_or_wrapped(&text, &first, hang, st.wrap_headline, st)
}

/// `text` after `first`, wrapped with continuation lines at `hang`, or as one line.
fn whole_or_wrapped(
    text: &str,
    first: &str,
    hang: usize,
    wrap: bool,
    st: &TextStyle,
) -> Vec<String> {
    if wrap {
        wrap_words(text, first, hang, st.width, st.break_long)
    } else {
        vec![format!("{first}{text}")]
    }
}

/// The lines of one finding.
pub fn text(f: &Finding, st: &TextStyle) -> Vec<String> {
    let c = st.clean;
    let pad = " ".repeat(st.body);
    let mut lines = headline(f, st);
    if st.explanation {
        let paragraphs: Vec<&str> = if st.blank_line_paragraphs {
            f.explanation.split("\n\n").collect()
        } else {
            f.explanation.lines().collect()
        };
        for para in paragraphs {
            lines.extend(wrap_words(&c(para), &pad, st.body, st.width, st.break_long));
        }
    }
    if st.explanation
        && let Some(line) = crate::checks::effect::effect_line(f)
    {
        lines.extend(wrap_words(
            &c(&line),
            &pad,
            st.body,
            st.width,
            st.break_long,
        ));
    }
    let item = |e: &crate::checks::EvidenceRef| format!("{} = {}", c(&e.source), c(&e.value));
    match st.evidence {
        Evidence::None => {}
        Evidence::Block { .. } if f.evidence.is_empty() => {}
        Evidence::Block { bullet, wrap } => {
            lines.push(format!("{pad}Evidence:"));
            for e in &f.evidence {
                let first = format!("{pad}{bullet}");
                lines.extend(whole_or_wrapped(&item(e), &first, st.body + 4, wrap, st));
            }
        }
        Evidence::Inline { wrap, limit } => {
            for e in f.evidence.iter().take(limit) {
                let first = format!("{pad}evidence: ");
                lines.extend(whole_or_wrapped(&item(e), &first, st.body + 2, wrap, st));
            }
        }
    }
    for fix in &f.fixes {
        match st.fixes {
            Fixes::None => {}
            Fixes::Numbered => {
                lines.extend(wrap_words(
                    &c(&format!("Fix ({}): {}", fix.platform.name(), fix.summary)),
                    &pad,
                    st.body + 4,
                    st.width,
                    st.break_long,
                ));
                // Steps are commands or instructions in order: numbered, not "$"-prefixed,
                // since many are prose ("Reboot into the firmware setup ...").
                for (i, s) in fix.steps.iter().enumerate() {
                    lines.extend(wrap_words(
                        &c(s),
                        &format!("{pad}  {}. ", i + 1),
                        st.body + 5,
                        st.width,
                        st.break_long,
                    ));
                }
                risk(&mut lines, &fix.risk, &pad, st.body + 4, st);
            }
            Fixes::Plain => {
                lines.extend(wrap_words(
                    &c(&fix.summary),
                    &format!("{pad}fix ({}): ", fix.platform.name()),
                    st.body + 4,
                    st.width,
                    false,
                ));
                for s in &fix.steps {
                    // A command stays one line, so it copies whole; a sentence wraps.
                    if is_prose_step(s) {
                        lines.extend(wrap_words(
                            &c(s),
                            &format!("{pad}    "),
                            st.body + 4,
                            st.width,
                            false,
                        ));
                    } else {
                        lines.push(format!("{pad}    {}", c(s)));
                    }
                }
            }
            Fixes::Steps { only } if fix.platform != only => {}
            Fixes::Steps { .. } => {
                lines.extend(wrap_words(
                    &c(&format!("Fix: {}", fix.summary)),
                    &pad,
                    st.body,
                    st.width,
                    st.break_long,
                ));
                for s in &fix.steps {
                    lines.push(format!("{pad}  - {}", c(s)));
                }
                // Continuation lines flush under "Risk:", as the wizard's paragraphs are.
                risk(&mut lines, &fix.risk, &pad, st.body + 2, st);
            }
        }
    }
    lines
}

/// `Risk: ...` two columns under a fix, when the fix has one; continuation lines at `hang`.
fn risk(lines: &mut Vec<String>, risk: &str, pad: &str, hang: usize, st: &TextStyle) {
    if !risk.is_empty() {
        lines.extend(wrap_words(
            &(st.clean)(&format!("Risk: {risk}")),
            &format!("{pad}  "),
            hang,
            st.width,
            st.break_long,
        ));
    }
}

/// How a finding reads in Markdown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MarkdownHeadline {
    /// `### 1. [warning] ada0: ... (check)`, paragraphs, evidence, fixes: the report.
    Section(usize),
    /// `- **warning** `check` on ada0: title` with the explanation and evidence under the
    /// item: explain's findings list.
    ListItem,
}

/// What differs between the Markdown lists of findings.
#[derive(Debug, Clone, Copy)]
pub struct MarkdownStyle {
    pub headline: MarkdownHeadline,
    /// Prose from the finding, made safe for Markdown.
    pub text: fn(&str) -> String,
    /// A capture key, made safe inside backticks.
    pub code: fn(&str) -> String,
    /// A fix step (commands keep the backticks their authors wrote).
    pub step: fn(&str) -> String,
}

/// The Markdown of one finding (ends with a blank line).
pub fn markdown(f: &Finding, st: &MarkdownStyle) -> String {
    let (t, code) = (st.text, st.code);
    let mut out = String::new();
    match st.headline {
        MarkdownHeadline::Section(n) => {
            out.push_str(&format!("### {n}. {}\n\n", t(&finding_title(f))));
            for para in f.explanation.split("\n\n").filter(|p| !p.trim().is_empty()) {
                out.push_str(&t(para));
                out.push_str("\n\n");
            }
            if let Some(line) = crate::checks::effect::effect_line(f) {
                out.push_str(&t(&line));
                out.push_str("\n\n");
            }
            if !f.evidence.is_empty() {
                out.push_str("Evidence:\n\n");
                for e in &f.evidence {
                    out.push_str(&format!("- `{}`: {}\n", code(&e.source), t(&e.value)));
                }
                out.push('\n');
            }
            for fix in &f.fixes {
                out.push_str(&format!(
                    "**Fix ({})**: {}\n\n",
                    fix.platform.name(),
                    t(&fix.summary)
                ));
                for (i, step) in fix.steps.iter().enumerate() {
                    out.push_str(&format!("{}. {}\n", i + 1, (st.step)(step)));
                }
                if !fix.steps.is_empty() {
                    out.push('\n');
                }
                if !fix.risk.is_empty() {
                    out.push_str(&format!("Risk: {}\n\n", t(&fix.risk)));
                }
            }
        }
        MarkdownHeadline::ListItem => {
            out.push_str(&format!(
                "- **{}** `{}` on {}: {}\n\n  {}\n",
                f.severity.label(),
                f.check,
                t(&f.device),
                t(&f.title),
                t(&f.explanation)
            ));
            for e in &f.evidence {
                out.push_str(&format!(
                    "  - evidence `{}`: {}\n",
                    code(&e.source),
                    t(&e.value)
                ));
            }
            out.push('\n');
        }
    }
    out
}

/// A fix step written as a sentence, not a command to paste: it starts with a capital (no
/// command does) and has several words. Such a step may be wrapped.
fn is_prose_step(s: &str) -> bool {
    let t = s.trim();
    t.split_whitespace().count() >= 6 && t.chars().next().is_some_and(|c| c.is_ascii_uppercase())
}

/// How sure a finding is and what it rests on: a finding about a pasted run rests on the
/// pasted text, not on anything read from the device or the OS.
fn confidence_words(f: &Finding) -> &'static str {
    use crate::checks::{CHECKS, CheckInput, Confidence};
    let pasted = CHECKS
        .iter()
        .any(|c| c.id() == f.check && c.input() == CheckInput::Pasted);
    match (f.confidence, pasted) {
        (Confidence::High, true) => "sure: from the pasted output",
        (Confidence::Medium, true) => "fairly sure: from the pasted output",
        (c, _) => c.words(),
    }
}

#[cfg(test)]
mod tests;
