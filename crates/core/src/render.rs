//! The one renderer of a finding per format. Text:  the report (`report::text`), the console of
//! `check`, `replay` and `bench` (`diskdoc` commands/check.rs) and `explain`'s text all call
//! [`text`], with their differences as a [`TextStyle`]: how the headline reads, the width
//! and indents, and whether the evidence and the fixes follow. Markdown: the report and
//! `explain` call [`markdown`] with a [`MarkdownStyle`]. It sits between `checks`
//! and the two renderers above it (explain, report), so both can use it without a cycle.

use crate::checks::{Finding, Verdict};
use crate::units::wrap_words;

/// How the headline of a finding reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Headline {
    /// `1. [warning] ada0: Write cache is off (write-cache-disabled)`: the report's
    /// numbered list, wrapped under the body indent.
    Numbered(usize),
    /// `[warning] ada0 write-cache-disabled: Write cache is off`: a console line.
    Tagged,
}

/// The evidence lines under a finding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Evidence {
    None,
    /// `Evidence:` and one `- source = value` line each (the report).
    Block,
    /// One `evidence: source = value` line each (explain).
    Inline,
}

/// The fixes under a finding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fixes {
    None,
    /// `Fix (FreeBSD): ...`, numbered steps, then `Risk: ...` (the report).
    Numbered,
    /// `fix (FreeBSD): ...` and each step indented under it (explain).
    Plain,
}

/// What differs between the places that list findings.
#[derive(Debug, Clone, Copy)]
pub struct TextStyle {
    pub headline: Headline,
    /// Text before a [`Headline::Tagged`] headline ("" or "  ").
    pub lead: &'static str,
    /// Indent of the explanation, evidence and fixes.
    pub body: usize,
    pub width: usize,
    /// Whether the headline is wrapped too (it is a copyable line in explain).
    pub wrap_headline: bool,
    /// Whether a word longer than a line is broken (the report: yes, it has a hard width).
    pub break_long: bool,
    /// Explanation paragraphs are separated by a blank line (`true`, the report's rule)
    /// or are its lines.
    pub blank_line_paragraphs: bool,
    pub evidence: Evidence,
    pub fixes: Fixes,
    /// Applied to every string from the finding (a sanitize policy).
    pub clean: fn(&str) -> String,
}

/// The finding headline: `[warning] ada0: Write cache is off (write-cache-disabled)`.
pub fn finding_title(f: &Finding) -> String {
    let tag = match f.verdict {
        Verdict::Problem => f.severity.label(),
        Verdict::Pass => "ok",
        Verdict::Unknown => "unknown",
        Verdict::NotApplicable => "n/a",
    };
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

/// The lines of one finding.
pub fn text(f: &Finding, st: &TextStyle) -> Vec<String> {
    let c = st.clean;
    let pad = " ".repeat(st.body);
    let wrap = |s: &str, first: &str, indent: usize| {
        if st.wrap_headline || first != st.lead {
            wrap_words(s, first, indent, st.width, st.break_long)
        } else {
            vec![format!("{first}{s}")]
        }
    };
    let mut lines = match st.headline {
        Headline::Numbered(n) => wrap(&c(&finding_title(f)), &format!("{n}. "), st.body),
        Headline::Tagged => wrap(
            &format!(
                "[{}] {} {}: {}",
                f.severity.label(),
                c(&f.device),
                f.check,
                c(&f.title)
            ),
            st.lead,
            st.body,
        ),
    };
    let paragraphs: Vec<&str> = if st.blank_line_paragraphs {
        f.explanation.split("\n\n").collect()
    } else {
        f.explanation.lines().collect()
    };
    for para in paragraphs {
        lines.extend(wrap_words(&c(para), &pad, st.body, st.width, st.break_long));
    }
    match st.evidence {
        Evidence::None => {}
        Evidence::Block if f.evidence.is_empty() => {}
        Evidence::Block => {
            lines.push(format!("{pad}Evidence:"));
            for e in &f.evidence {
                lines.extend(wrap_words(
                    &c(&format!("{} = {}", e.source, e.value)),
                    &format!("{pad}- "),
                    st.body + 4,
                    st.width,
                    st.break_long,
                ));
            }
        }
        Evidence::Inline => {
            for e in &f.evidence {
                lines.push(format!("{pad}evidence: {} = {}", c(&e.source), c(&e.value)));
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
                if !fix.risk.is_empty() {
                    lines.extend(wrap_words(
                        &c(&format!("Risk: {}", fix.risk)),
                        &format!("{pad}  "),
                        st.body + 4,
                        st.width,
                        st.break_long,
                    ));
                }
            }
            Fixes::Plain => {
                lines.push(format!(
                    "{pad}fix ({}): {}",
                    fix.platform.name(),
                    c(&fix.summary)
                ));
                for s in &fix.steps {
                    lines.push(format!("{pad}    {}", c(s)));
                }
            }
        }
    }
    lines
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::{EvidenceRef, Fix, Severity};
    use crate::evidence::Platform;

    fn finding() -> Finding {
        let mut f = Finding::new(
            "write-cache-disabled",
            "ada0",
            Verdict::Problem,
            Severity::Warning,
            "write cache is off",
        )
        .explain("Every write waits for the platter.\n\nTurn it on.");
        f.evidence.push(EvidenceRef {
            source: "sysctl:hw.ata.wc".into(),
            value: "0".into(),
        });
        f.fixes.push(Fix {
            platform: Platform::Freebsd,
            summary: "enable it".into(),
            steps: vec!["sysctl hw.ata.wc=1".into()],
            risk: "power loss".into(),
        });
        f
    }

    fn same(s: &str) -> String {
        s.to_string()
    }

    /// The three places that list findings, each in the form it printed before they
    /// shared this renderer.
    #[test]
    fn each_style_keeps_its_form() {
        let f = finding();
        let style = |headline, body, width, evidence, fixes, paras| TextStyle {
            headline,
            lead: "",
            body,
            width,
            wrap_headline: true,
            break_long: true,
            blank_line_paragraphs: paras,
            evidence,
            fixes,
            clean: same,
        };
        let report = text(
            &f,
            &style(
                Headline::Numbered(1),
                4,
                72,
                Evidence::Block,
                Fixes::Numbered,
                true,
            ),
        );
        assert_eq!(
            report,
            [
                "1. [warning] ada0: write cache is off (write-cache-disabled)",
                "    Every write waits for the platter.",
                "    Turn it on.",
                "    Evidence:",
                "    - sysctl:hw.ata.wc = 0",
                "    Fix (FreeBSD): enable it",
                "      1. sysctl hw.ata.wc=1",
                "      Risk: power loss",
            ]
        );
        let console = text(
            &f,
            &style(Headline::Tagged, 4, 40, Evidence::None, Fixes::None, false),
        );
        assert_eq!(
            console,
            [
                "[warning] ada0 write-cache-disabled:",
                "    write cache is off",
                "    Every write waits for the platter.",
                "    Turn it on.",
            ]
        );
        let explain = text(
            &f,
            &TextStyle {
                lead: "  ",
                wrap_headline: false,
                break_long: false,
                ..style(
                    Headline::Tagged,
                    6,
                    98,
                    Evidence::Inline,
                    Fixes::Plain,
                    false,
                )
            },
        );
        assert_eq!(
            explain,
            [
                "  [warning] ada0 write-cache-disabled: write cache is off",
                "      Every write waits for the platter.",
                "      Turn it on.",
                "      evidence: sysctl:hw.ata.wc = 0",
                "      fix (FreeBSD): enable it",
                "          sysctl hw.ata.wc=1",
            ]
        );
    }

    #[test]
    fn markdown_styles_keep_their_form() {
        let f = finding();
        let section = markdown(
            &f,
            &MarkdownStyle {
                headline: MarkdownHeadline::Section(2),
                text: same,
                code: same,
                step: same,
            },
        );
        assert_eq!(
            section,
            "### 2. [warning] ada0: write cache is off (write-cache-disabled)\n\n\
             Every write waits for the platter.\n\nTurn it on.\n\n\
             Evidence:\n\n- `sysctl:hw.ata.wc`: 0\n\n\
             **Fix (FreeBSD)**: enable it\n\n1. sysctl hw.ata.wc=1\n\nRisk: power loss\n\n"
        );
        let item = markdown(
            &f,
            &MarkdownStyle {
                headline: MarkdownHeadline::ListItem,
                text: same,
                code: same,
                step: same,
            },
        );
        assert!(
            item.starts_with(
                "- **warning** `write-cache-disabled` on ada0: write cache is off\n\n  Every"
            ),
            "{item}"
        );
        assert!(
            item.ends_with("  - evidence `sysctl:hw.ata.wc`: 0\n\n"),
            "{item}"
        );
        assert!(!item.contains("Fix"), "explain's list has no fixes: {item}");
    }
}
