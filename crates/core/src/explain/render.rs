//! The answer of `diskdoc explain` as text, Markdown or JSON. Pure: the command that reads
//! the inputs and prints lives in the binary (commands/explain.rs).

use super::Explanation;
use crate::checks::{Finding, Verdict};

pub fn render_json(ex: &Explanation) -> String {
    let mut s =
        serde_json::to_string_pretty(ex).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"));
    s.push('\n');
    s
}

use crate::sanitize::for_paste as clean;

fn where_(ex: &Explanation, input: &str, a: usize, b: usize) -> String {
    let range = if a == b {
        format!("line {a}")
    } else {
        format!("lines {a}-{b}")
    };
    if ex.inputs.len() > 1 {
        format!("{input} {range}")
    } else {
        range
    }
}

/// A disk the paste does not name is "the disk you pasted", never its internal name.
fn device_shown(d: &str) -> String {
    if super::devices::is_placeholder(d) {
        super::devices::placeholder_prose(d)
    } else {
        clean(d)
    }
}

/// The capture key of a recognised output, or where it was pasted when its disk is unnamed
/// (its live key names a command nobody ran).
fn key_shown(r: &super::Recognised) -> String {
    if r.device
        .as_deref()
        .is_some_and(super::devices::is_placeholder)
    {
        format!("pasted:{} lines {}-{}", r.tool, r.first_line, r.last_line)
    } else {
        clean(&r.key)
    }
}

/// The finding as the reader sees it: an unnamed disk is "the disk you pasted" in its
/// headline too (the JSON keeps the placeholder as the device's id).
fn shown(f: &Finding) -> Finding {
    let mut f = f.clone();
    if super::devices::is_placeholder(&f.device) {
        f.device = super::devices::placeholder_prose(&f.device);
    }
    f
}

fn problems(ex: &Explanation) -> Vec<&Finding> {
    ex.findings.iter().filter(|f| f.is_problem()).collect()
}

pub fn render_text(ex: &Explanation) -> String {
    let mut s = String::new();
    s.push_str(&format!(
        "diskdoc explain: {} ({} lines), platform: {}\n\n",
        ex.inputs.join(", "),
        ex.lines_read,
        ex.platform.name()
    ));
    s.push_str(&format!("Recognised ({}):\n", ex.recognised.len()));
    for r in &ex.recognised {
        s.push_str(&format!(
            "  {:<16} {:<22} {:<10} -> {}{}\n",
            where_(ex, &r.input, r.first_line, r.last_line),
            r.tool,
            r.device.as_deref().map(device_shown).unwrap_or("-".into()),
            key_shown(r),
            if r.superseded {
                "  (shown again later; the later one is used)"
            } else {
                ""
            }
        ));
    }
    let typed: Vec<_> = ex.commands.iter().filter(|c| c.typed).collect();
    if !typed.is_empty() {
        s.push_str(&format!("\nCommands in the text ({}):\n", typed.len()));
        for c in typed {
            s.push_str(&format!(
                "  {:<16} {}\n",
                where_(
                    ex,
                    &ex.inputs.get(c.src).cloned().unwrap_or_default(),
                    c.line,
                    c.line
                ),
                clean(&c.text)
            ));
        }
    }
    if !ex.ignored.is_empty() {
        s.push_str(&format!(
            "\nIgnored ({} ranges of prose or unrecognised output):\n",
            ex.ignored.len()
        ));
        for ig in ex.ignored.iter().take(40) {
            s.push_str(&format!(
                "  {:<16} {}\n",
                where_(ex, &ig.input, ig.first_line, ig.last_line),
                clean(&ig.starts_with)
            ));
        }
        if ex.ignored.len() > 40 {
            s.push_str(&format!("  ... and {} more\n", ex.ignored.len() - 40));
        }
    }
    let probs = problems(ex);
    s.push_str(&format!("\nFindings ({} problems):\n", probs.len()));
    if probs.is_empty() {
        s.push_str("  No problem found in what was pasted.\n");
    }
    // Explain's form: indented under "Findings", the explanation at 92 columns after its
    // 6-column indent (a copyable headline, long words kept whole), evidence and fixes
    // inline.
    let style = crate::render::TextStyle {
        headline: crate::render::Headline::Tagged,
        lead: "  ",
        body: 6,
        width: 6 + 92,
        wrap_headline: false,
        break_long: false,
        explanation: true,
        blank_line_paragraphs: false,
        evidence: crate::render::Evidence::Inline {
            wrap: false,
            limit: usize::MAX,
        },
        fixes: crate::render::Fixes::Plain,
        clean,
    };
    for f in &probs {
        for line in crate::render::text(&shown(f), &style) {
            s.push_str(&line);
            s.push('\n');
        }
    }
    let unknown: Vec<_> = ex
        .findings
        .iter()
        .filter(|f| f.verdict == Verdict::Unknown)
        .collect();
    if !unknown.is_empty() {
        s.push_str("\nCould not tell:\n");
        let mut seen = std::collections::HashSet::new();
        for f in unknown {
            let line = format!(
                "{} {}: {}",
                device_shown(&f.device),
                f.check,
                clean(&f.title)
            );
            let n = ex
                .findings
                .iter()
                .filter(|g| {
                    g.verdict == Verdict::Unknown
                        && g.check == f.check
                        && g.title == f.title
                        && g.device == f.device
                })
                .count();
            if seen.insert(line.clone()) {
                s.push_str(&format!(
                    "  {line}{}\n",
                    if n > 1 {
                        format!(" (x{n})")
                    } else {
                        String::new()
                    }
                ));
            }
        }
    }
    if !ex.benchmarks.is_empty() {
        s.push_str(&format!(
            "\nBenchmarks in the text ({}):\n",
            ex.benchmarks.len()
        ));
        for b in &ex.benchmarks {
            s.push_str(&format!(
                "  {:<10} {:>12}  {}  [{}]\n",
                b.tool,
                b.bytes_per_sec
                    .map(|r| format!("{:.1} MB/s", r / 1e6))
                    .unwrap_or_else(|| "-".into()),
                clean(b.command.as_deref().unwrap_or("(command not pasted)")),
                clean(&b.from)
            ));
        }
    }
    if !ex.missing.is_empty() {
        s.push_str("\nMissing facts:\n");
        for m in &ex.missing {
            s.push_str(&format!("  - {}\n", clean(m)));
        }
    }
    s.push_str(&format!(
        "\nAsk the poster to run ({}), as root, and paste the output:\n\n",
        ex.platform.name()
    ));
    for c in &ex.next_commands {
        s.push_str(&format!("    {c}\n"));
    }
    if !ex.notes.is_empty() {
        s.push_str("\nNotes:\n");
        for n in &ex.notes {
            s.push_str(&format!("  - {}\n", clean(n)));
        }
    }
    s
}

pub fn render_markdown(ex: &Explanation) -> String {
    let mut s = String::new();
    s.push_str(&format!(
        "## diskdoc explain\n\nRead {} ({} lines); platform: **{}**.\n\n### Recognised\n\n| lines | tool | device | stored as |\n|---|---|---|---|\n",
        ex.inputs.join(", "),
        ex.lines_read,
        ex.platform.name()
    ));
    for r in &ex.recognised {
        s.push_str(&format!(
            "| {} | {} | {} | `{}`{} |\n",
            where_(ex, &r.input, r.first_line, r.last_line),
            r.tool,
            r.device.as_deref().map(device_shown).unwrap_or("-".into()),
            key_shown(r).replace('|', "\\|"),
            if r.superseded { " (superseded)" } else { "" }
        ));
    }
    if !ex.ignored.is_empty() {
        s.push_str(&format!("\nIgnored: {} ranges (", ex.ignored.len()));
        let v: Vec<String> = ex
            .ignored
            .iter()
            .take(30)
            .map(|i| where_(ex, &i.input, i.first_line, i.last_line))
            .collect();
        s.push_str(&v.join(", "));
        s.push_str(").\n");
    }
    s.push_str("\n### Findings\n\n");
    let probs = problems(ex);
    if probs.is_empty() {
        s.push_str("No problem found in what was pasted.\n");
    }
    let style = crate::render::MarkdownStyle {
        headline: crate::render::MarkdownHeadline::ListItem,
        text: clean,
        code: clean,
        step: clean,
    };
    for f in probs {
        s.push_str(&crate::render::markdown(&shown(f), &style));
    }
    if !ex.missing.is_empty() {
        s.push_str("### Missing facts\n\n");
        for m in &ex.missing {
            s.push_str(&format!("- {}\n", clean(m)));
        }
        s.push('\n');
    }
    s.push_str(&format!(
        "### Please run ({}) and paste the output\n\n```\n",
        ex.platform.name()
    ));
    for c in &ex.next_commands {
        s.push_str(&format!("{c}\n"));
    }
    s.push_str("```\n");
    s
}
