//! The answer of `diskdoc explain` as text, Markdown or JSON. Pure: the command that reads
//! the inputs and prints lives in the binary (commands/explain.rs).

/// Columns of explain's text answer.
const MAIL_WIDTH: usize = 72;

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

/// "123 lines", or with the input cut at its cap "123 lines read, 4567 more past the
/// 4 MiB input cap not read": the header says at once that the answer covers part of it.
fn lines_read(ex: &Explanation) -> String {
    if ex.lines_not_read == 0 {
        format!("{} lines", ex.lines_read)
    } else {
        format!(
            "{} lines read, {} more past the {} MiB input cap not read",
            ex.lines_read,
            ex.lines_not_read,
            super::segment::MAX_INPUT_BYTES >> 20
        )
    }
}

pub fn render_text(ex: &Explanation) -> String {
    let mut s = String::new();
    fit(
        &mut s,
        &format!(
            "diskdoc explain: {} ({}), platform: {}",
            ex.inputs.join(", "),
            lines_read(ex),
            ex.platform.name()
        ),
        "",
        4,
    );
    s.push_str(&format!("\nRecognised ({}):\n", ex.recognised.len()));
    for r in &ex.recognised {
        let head = format!(
            "  {:<16} {:<22} {:<10}",
            where_(ex, &r.input, r.first_line, r.last_line),
            r.tool,
            r.device.as_deref().map(device_shown).unwrap_or("-".into()),
        );
        let tail = format!(
            "-> {}{}",
            key_shown(r),
            if r.superseded {
                " (shown again later; the later one is used)"
            } else {
                ""
            }
        );
        // The evidence key under its row when the row would pass the mail width.
        if head.chars().count() + 1 + tail.chars().count() <= MAIL_WIDTH {
            s.push_str(&format!("{head} {tail}\n"));
        } else {
            s.push_str(&format!("{}\n      {tail}\n", head.trim_end()));
        }
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
            // The first words of the range, cut to the mail width: a reminder, not a quote.
            let head = format!(
                "  {:<16} ",
                where_(ex, &ig.input, ig.first_line, ig.last_line)
            );
            let room = MAIL_WIDTH.saturating_sub(head.chars().count());
            let text = clean(&ig.starts_with);
            let cut: String = if text.chars().count() > room {
                let keep = room.saturating_sub(3);
                let mut c: String = text.chars().take(keep).collect();
                // Cut before a word the width splits: a word's fragment ("fuse.gluster..." of
                // "fuse.glusterfs") can read as another word, a redacted name among them, and
                // the output's final privacy check would rightly refuse it.
                if text.chars().nth(keep).is_some_and(char::is_alphanumeric) {
                    let whole = c.trim_end_matches(char::is_alphanumeric).len();
                    if whole > 0 {
                        c.truncate(whole);
                    }
                }
                c.push_str("...");
                c
            } else {
                text
            };
            s.push_str(&format!("{head}{cut}\n"));
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
    // Explain's form is an answer to a mail or forum post: everything wraps at 72 columns
    // (the width mail clients quote without rewrapping, RFC 3676's advice for flowed text),
    // indented under "Findings"; long words (paths, commands) are kept whole.
    let style = crate::render::TextStyle {
        headline: crate::render::Headline::Tagged,
        lead: "  ",
        body: 6,
        width: MAIL_WIDTH,
        wrap_headline: true,
        break_long: false,
        explanation: true,
        blank_line_paragraphs: false,
        evidence: crate::render::Evidence::Inline {
            wrap: true,
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
                let times = if n > 1 {
                    format!(" (x{n})")
                } else {
                    String::new()
                };
                fit(&mut s, &format!("{line}{times}"), "  ", 6);
            }
        }
    }
    if !ex.benchmarks.is_empty() {
        s.push_str(&format!(
            "\nBenchmarks in the text ({}):\n",
            ex.benchmarks.len()
        ));
        for b in &ex.benchmarks {
            let row = format!(
                "  {:<10} {:>12}  {}",
                b.tool,
                b.bytes_per_sec
                    .map(|r| format!("{:.1} MB/s", r / 1e6))
                    .unwrap_or_else(|| "-".into()),
                clean(b.command.as_deref().unwrap_or("(command not pasted)")),
            );
            let from = format!("[{}]", clean(&b.from));
            // The command stays whole on its row; where it came from goes under it when
            // the row would pass the mail width.
            if row.chars().count() + 2 + from.chars().count() <= MAIL_WIDTH {
                s.push_str(&format!("{row}  {from}\n"));
            } else {
                s.push_str(&format!("{row}\n"));
                fit(&mut s, &from, "      ", 6);
            }
        }
    }
    if !ex.missing.is_empty() {
        s.push_str("\nMissing facts:\n");
        for m in &ex.missing {
            fit(&mut s, &clean(m), "  - ", 4);
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
            fit(&mut s, &clean(n), "  - ", 4);
        }
    }
    s
}

/// `text` after `first`, word-wrapped at the mail width with `indent` spaces on the following
/// lines; a word longer than a line (a path, a command) is kept whole.
fn fit(s: &mut String, text: &str, first: &str, indent: usize) {
    for l in crate::units::wrap_words(text, first, indent, MAIL_WIDTH, false) {
        s.push_str(&l);
        s.push('\n');
    }
}

pub fn render_markdown(ex: &Explanation) -> String {
    let mut s = String::new();
    s.push_str(&format!(
        "## diskdoc explain\n\nRead {} ({}); platform: **{}**.\n\n### Recognised\n\n| lines | tool | device | stored as |\n|---|---|---|---|\n",
        ex.inputs.join(", "),
        lines_read(ex),
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
