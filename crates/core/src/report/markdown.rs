//! The Markdown report for forums and issue trackers (CommonMark + GFM tables): the same
//! blocks as the text report, tables as pipe tables, charts and raw tool outputs in fenced
//! blocks (collapsed with <details> so a long smartctl output does not bury the answer).

use crate::checks::Finding;
use crate::report::text::{report_summary, sanitize};
use crate::report::view::{self, Block};
use crate::report::{MessageSeverity, Report};

/// Escape a table cell: pipes would split it, newlines would end the row.
fn cell(s: &str) -> String {
    sanitize(s).replace('|', "\\|")
}

/// Escape inline text: characters that could start emphasis, code, links or HTML. `_` only
/// when it is not inside a word (CommonMark 6.2: intraword `_` never opens emphasis), `#` and
/// `>` only at the start, where they would make a heading or a quote.
fn inline(s: &str) -> String {
    let chars: Vec<char> = sanitize(s).chars().collect();
    let mut out = String::new();
    for (i, c) in chars.iter().copied().enumerate() {
        let prev = i.checked_sub(1).and_then(|j| chars.get(j)).copied();
        let next = chars.get(i + 1).copied();
        let escape = match c {
            '\\' | '`' | '*' | '[' | ']' | '<' => true,
            '_' => {
                !(prev.is_some_and(|p| p.is_ascii_alphanumeric())
                    && next.is_some_and(|n| n.is_ascii_alphanumeric()))
            }
            '#' | '>' => i == 0,
            _ => false,
        };
        if escape {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// A fenced block whose fence is longer than any backtick run inside (CommonMark 4.5).
fn fenced(out: &mut String, lang: &str, body: &str) {
    let mut longest = 0;
    let mut run = 0;
    for c in body.chars() {
        if c == '`' {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    let fence = "`".repeat(longest.max(2) + 1);
    out.push_str(&format!("{fence}{lang}\n"));
    for l in body.lines() {
        // Keep the raw text, but never let a terminal escape through.
        out.push_str(&l.replace(|c: char| c.is_control() && c != '\t', ""));
        out.push('\n');
    }
    out.push_str(&format!("{fence}\n"));
}

fn table(out: &mut String, headers: &[String], rows: &[Vec<String>]) {
    out.push('|');
    for h in headers {
        out.push_str(&format!(" {} |", cell(h)));
    }
    out.push_str("\n|");
    for _ in headers {
        out.push_str("---|");
    }
    out.push('\n');
    for r in rows {
        out.push('|');
        for i in 0..headers.len() {
            out.push_str(&format!(
                " {} |",
                cell(r.get(i).map(String::as_str).unwrap_or(""))
            ));
        }
        out.push('\n');
    }
    out.push('\n');
}

fn finding(out: &mut String, n: usize, f: &Finding) {
    out.push_str(&crate::render::markdown(
        f,
        &crate::render::MarkdownStyle {
            headline: crate::render::MarkdownHeadline::Section(n),
            text: inline,
            code: |s| cell(s).replace('`', "'"),
            // Numbered steps; backticks the check authors wrote stay, as inline code.
            step: |s| sanitize(s).replace('<', "\\<"),
        },
    ));
}

/// Render the report as Markdown.
pub fn render(r: &Report) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "# diskdoc {} report, {}\n\n",
        env!("CARGO_PKG_VERSION"),
        r.facts.platform.name()
    ));
    out.push_str(&format!("**Findings:** {}  \n", report_summary(r)));
    out.push_str(&format!(
        "**Exit status:** {}. {}\n\n",
        r.exit_status,
        if r.redacted {
            "Serial numbers, WWNs, host names, user names, MAC addresses, labels and UUIDs are replaced by tokens (SERIAL-1, HOST-1...)."
        } else {
            "Not redacted."
        }
    ));
    if let Some(sym) = &r.symptom {
        out.push_str(&format!("**What feels slow:** {}\n\n", inline(sym)));
    }
    for m in &r.messages {
        let sev = match m.severity {
            MessageSeverity::Information => "Note",
            MessageSeverity::Warning => "Warning",
            MessageSeverity::Error => "Error",
        };
        out.push_str(&format!("> **{sev}:** {}\n\n", inline(&m.text)));
    }
    for b in view::blocks(r) {
        match b {
            Block::Heading(level, t) => out.push_str(&format!(
                "{} {}\n\n",
                "#".repeat(level as usize + 1),
                inline(&t)
            )),
            Block::Rows(rows) => {
                for (k, v) in rows {
                    if k.is_empty() {
                        out.push_str(&format!("- `{}`\n", cell(&v).replace('`', "'")));
                    } else {
                        out.push_str(&format!("- **{}:** {}\n", inline(&k), inline(&v)));
                    }
                }
                out.push('\n');
            }
            Block::Para(p) => {
                out.push_str(&inline(&p));
                out.push_str("\n\n");
            }
            Block::Table { headers, rows } => table(&mut out, &headers, &rows),
            Block::Chart { title, lines } => {
                out.push_str(&format!("{}:\n\n", inline(&title)));
                fenced(&mut out, "text", &lines.join("\n"));
                out.push('\n');
            }
        }
    }
    out.push_str("## Findings (problems first)\n\n");
    let (shown, passes) = view::shown_and_passed(r);
    if shown.is_empty() {
        out.push_str("No problems and no unknowns.\n\n");
    }
    for (i, f) in shown.iter().enumerate() {
        finding(&mut out, i + 1, f);
    }
    if !passes.is_empty() {
        out.push_str("Passed:\n\n");
        for f in passes {
            out.push_str(&format!("- {}: {}\n", inline(&f.device), inline(&f.title)));
        }
        out.push('\n');
    }

    // Raw outputs the findings cite, so a reader can check the reading.
    if let Some(raw) = view::raw_outputs(r) {
        out.push_str("## Raw outputs cited\n\n");
        for (key, body) in raw {
            out.push_str(&format!(
                "<details><summary><code>{}</code></summary>\n\n",
                cell(key).replace('<', "&lt;").replace('>', "&gt;")
            ));
            fenced(&mut out, "text", &body);
            out.push_str("\n</details>\n\n");
        }
    }
    out.push_str(&format!(
        "_Generated by diskdoc {}; the JSON report replays with `diskdoc replay report.json`._\n",
        env!("CARGO_PKG_VERSION")
    ));
    out
}
