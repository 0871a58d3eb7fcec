//! The plain-text report for mailing lists: ASCII only, at most 72 columns (RFC 5322 advises
//! lines under 78 characters; 72 leaves room for two levels of "> " quoting without re-wrap),
//! and no line starts with ">" or "From " (mbox "From " escaping would mangle it, and a
//! leading ">" reads as a quote).

use crate::checks::{Finding, Verdict};
use crate::render as findings;
use crate::report::Report;
use crate::report::view::{self, Block};
use crate::units;

/// Maximum line length of the text report.
pub const WIDTH: usize = 72;

/// The mail policy (crate::sanitize::for_mail): what every report line goes through.
pub(crate) use crate::sanitize::for_mail as sanitize;

/// Word-wrap `text` to `width` columns: the first line after `first` (a prefix such as
/// "  Model      "), the following lines after `indent` spaces. Words longer than a line
/// (long paths, hex) are broken hard. Both go through the mail policy first.
pub fn wrap(text: &str, first: &str, indent: usize, width: usize) -> Vec<String> {
    units::wrap_words(&sanitize(text), &sanitize(first), indent, width, true)
}

/// Last line of defence, applied to the whole rendered report: enforce ASCII, the width, and
/// the quote/mbox rules even if a renderer above slipped.
pub fn finish(lines: Vec<String>) -> String {
    let mut out = String::new();
    for l in lines {
        let mut l = sanitize(&l).trim_end().to_string();
        if l.starts_with('>') || l.starts_with("From ") {
            l.insert(0, ' ');
        }
        while l.len() > WIDTH {
            let rest = l.split_off(WIDTH);
            out.push_str(&l);
            out.push('\n');
            l = format!("    {rest}");
        }
        out.push_str(&l);
        out.push('\n');
    }
    out
}

fn heading(lines: &mut Vec<String>, level: u8, title: &str) {
    let title = sanitize(title);
    let title: String = title.chars().take(WIDTH).collect();
    lines.push(String::new());
    lines.push(title.clone());
    let ch = if level == 1 { "=" } else { "-" };
    lines.push(ch.repeat(title.len()));
}

fn rows(lines: &mut Vec<String>, rows: &[(String, String)], indent: usize) {
    let key_w = rows.iter().map(|(k, _)| k.len()).max().unwrap_or(0).min(14);
    for (k, v) in rows {
        let first = if key_w == 0 {
            " ".repeat(indent)
        } else {
            format!("{:indent$}{:<key_w$}  ", "", sanitize(k))
        };
        let hang = if key_w == 0 {
            indent + 2
        } else {
            indent + key_w + 2
        };
        lines.extend(wrap(v, &first, hang, WIDTH));
    }
}

/// Fewest columns the last column of a table keeps when it wraps (a command line, a
/// path); a table that would need it narrower, or any other column narrower than its
/// widest cell, is printed stacked instead ([`stacked`]).
const LAST_COLUMN_MIN: usize = 16;

/// A table with columns sized to their content. When it is wider than `width`, only a
/// free-text last column may wrap (onto continuation lines under itself, down to
/// [`LAST_COLUMN_MIN`] columns); otherwise the rows are printed stacked ([`stacked`]), so a
/// cell such as "4 KiB fsync (RAM (sync=disabled))" or "bs=131072" is never broken inside
/// a column where its pieces read as separate rows. Nothing is cut.
pub fn table(headers: &[String], body: &[Vec<String>], indent: usize, width: usize) -> Vec<String> {
    let ncol = headers.len();
    let cell = |r: &Vec<String>, i: usize| sanitize(r.get(i).map(String::as_str).unwrap_or(""));
    let mut w: Vec<usize> = (0..ncol)
        .map(|i| {
            body.iter()
                .map(|r| cell(r, i).len())
                .chain(std::iter::once(headers[i].len()))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let total = total_of(indent, &w);
    if total > width {
        let last = w.last().copied().unwrap_or(0);
        match width.checked_sub(total - last) {
            Some(room) if room >= LAST_COLUMN_MIN => {
                if let Some(l) = w.last_mut() {
                    *l = room;
                }
            }
            _ => return stacked(headers, body, indent, width),
        }
    }
    let fmt_row = |cells: Vec<String>| -> Vec<String> {
        let parts: Vec<Vec<String>> = cells
            .iter()
            .enumerate()
            .map(|(i, c)| {
                // Keep a cell's leading indent (nested BSD label entries under a slice).
                let lead = c.len() - c.trim_start().len();
                let lead = if lead < w[i].saturating_sub(4) {
                    lead
                } else {
                    0
                };
                let p: Vec<String> = wrap(c, "", 0, (w[i] - lead).max(1))
                    .into_iter()
                    .map(|x| format!("{}{x}", " ".repeat(lead)))
                    .collect();
                if p.is_empty() { vec![String::new()] } else { p }
            })
            .collect();
        let height = parts.iter().map(Vec::len).max().unwrap_or(1);
        (0..height)
            .map(|line| {
                let mut s = " ".repeat(indent);
                for (i, p) in parts.iter().enumerate() {
                    let c = p.get(line).map(String::as_str).unwrap_or("");
                    if i + 1 < ncol {
                        s.push_str(&format!("{c:<width$}  ", width = w[i]));
                    } else {
                        s.push_str(c);
                    }
                }
                s.trim_end().to_string()
            })
            .collect()
    };
    let mut out = fmt_row(headers.iter().map(|h| sanitize(h)).collect());
    out.extend(fmt_row(w.iter().map(|n| "-".repeat(*n)).collect()));
    for r in body {
        out.extend(fmt_row((0..ncol).map(|i| cell(r, i)).collect()));
    }
    out
}

/// The rows of a table too wide for `width`, one block per row: its first cell on a line
/// of its own, then "header: value" for each other cell, separated by commas and wrapped
/// between pairs (never inside one unless a pair alone is wider than the line), hanging
/// two columns in. Empty cells are left out.
///
/// ```text
///   4 KiB fsync (RAM (sync=disabled))
///     bs: 4 KiB, qd: qd1, MB/s: 1.2, IOPS: 300,
///     p50: 3.1 ms, p99: 5.0 ms, +-95%: 2.1%
/// ```
pub fn stacked(
    headers: &[String],
    body: &[Vec<String>],
    indent: usize,
    width: usize,
) -> Vec<String> {
    let lead = " ".repeat(indent);
    let mut out = Vec::new();
    for r in body {
        let mut cells = r.iter().map(|c| sanitize(c));
        let first = glue_parentheses(&cells.next().unwrap_or_default());
        out.extend(units::wrap_words(&first, &lead, indent + 2, width, true));
        let pairs: Vec<String> = headers
            .iter()
            .skip(1)
            .zip(cells)
            .filter(|(_, v)| !v.trim().is_empty())
            .map(|(h, v)| {
                // One pair is one word to the wrapper: its spaces do not break.
                format!(
                    "{}: {}",
                    sanitize(h),
                    v.split_whitespace().collect::<Vec<_>>().join(" ")
                )
                .replace(' ', &units::NO_BREAK.to_string())
            })
            .collect();
        let pad = " ".repeat(indent + 2);
        out.extend(units::wrap_words(
            &pairs.join(", "),
            &pad,
            indent + 2,
            width,
            true,
        ));
    }
    out
}

/// `text` with the spaces inside parentheses made no-break ([`units::NO_BREAK`]), so a
/// qualifier such as "(RAM (sync=disabled))" stays whole on one line.
fn glue_parentheses(text: &str) -> String {
    let mut depth = 0usize;
    text.chars()
        .map(|c| {
            match c {
                '(' => depth += 1,
                ')' => depth = depth.saturating_sub(1),
                ' ' if depth > 0 => return units::NO_BREAK,
                _ => {}
            }
            c
        })
        .collect()
}

fn total_of(indent: usize, w: &[usize]) -> usize {
    indent + w.iter().sum::<usize>() + 2 * w.len().saturating_sub(1)
}

fn blocks(lines: &mut Vec<String>, blocks: &[Block]) {
    for b in blocks {
        match b {
            Block::Heading(level, t) => heading(lines, *level, t),
            Block::Rows(r) => rows(lines, r, 2),
            Block::Para(p) => lines.extend(wrap(p, "  ", 2, WIDTH)),
            Block::Table { headers, rows } => {
                lines.push(String::new());
                lines.extend(table(headers, rows, 2, WIDTH));
            }
            Block::Chart { title, lines: l } => {
                lines.push(String::new());
                lines.extend(wrap(title, "  ", 2, WIDTH));
                lines.extend(l.iter().map(|x| format!("  {x}")));
            }
        }
    }
}

/// The report's summary line: [`summary`], led by what the tests said when every one of
/// them failed (then nothing was measured, and "no problems" would read as a clean bill).
pub(crate) fn report_summary(r: &Report) -> String {
    let counts = summary(&r.findings);
    match crate::report::tests_failed(&r.bundle.benchmarks) {
        Some(failed) => format!("{failed}; apart from that {counts}"),
        None => counts,
    }
}

/// Counts for the summary line.
pub fn summary(findings: &[Finding]) -> String {
    let problems: Vec<&Finding> = findings.iter().filter(|f| f.is_problem()).collect();
    let count = |v: Verdict| findings.iter().filter(|f| f.verdict == v).count();
    let mut by_sev = Vec::new();
    for sev in [
        crate::checks::Severity::Critical,
        crate::checks::Severity::Warning,
        crate::checks::Severity::Notice,
        crate::checks::Severity::Info,
    ] {
        let n = problems.iter().filter(|f| f.severity == sev).count();
        if n > 0 {
            by_sev.push(format!("{n} {}", sev.label()));
        }
    }
    let p = if problems.is_empty() {
        "no problems".to_string()
    } else {
        format!(
            "{} problem{} ({})",
            problems.len(),
            if problems.len() == 1 { "" } else { "s" },
            by_sev.join(", ")
        )
    };
    format!(
        "{p}, {} passed, {} unknown, {} not applicable",
        count(Verdict::Pass),
        count(Verdict::Unknown),
        count(Verdict::NotApplicable)
    )
}

/// The report's form of a finding: numbered, wrapped to [`WIDTH`], with its evidence and
/// its fixes (steps numbered, then the risk).
fn report_style(n: usize) -> findings::TextStyle {
    findings::TextStyle {
        headline: findings::Headline::Numbered(n),
        lead: "",
        body: 4,
        width: WIDTH,
        wrap_headline: true,
        break_long: true,
        explanation: true,
        blank_line_paragraphs: true,
        evidence: findings::Evidence::Block {
            bullet: "- ",
            wrap: true,
        },
        fixes: findings::Fixes::Numbered,
        clean: sanitize,
    }
}

/// The console form `check`, `replay` and `bench` print: a tagged headline and the
/// explanation, wrapped to [`WIDTH`] (the evidence and fixes are in the report).
pub const CONSOLE_STYLE: findings::TextStyle = findings::TextStyle {
    headline: findings::Headline::Tagged,
    lead: "",
    body: 4,
    width: WIDTH,
    wrap_headline: true,
    break_long: true,
    explanation: true,
    blank_line_paragraphs: false,
    evidence: findings::Evidence::None,
    fixes: findings::Fixes::None,
    clean: sanitize,
};

fn finding(lines: &mut Vec<String>, n: usize, f: &Finding) {
    lines.push(String::new());
    lines.extend(findings::text(f, &report_style(n)));
}

/// Render the report as plain text.
pub fn render(r: &Report) -> String {
    let mut lines = Vec::new();
    let title = format!(
        "diskdoc {} report, {}",
        env!("CARGO_PKG_VERSION"),
        r.facts.platform.name()
    );
    lines.push(title.clone());
    lines.push("=".repeat(title.len()));
    lines.extend(wrap(&report_summary(r), "Findings: ", 2, WIDTH));
    lines.extend(wrap(
        &format!(
            "Exit status {}. {}",
            r.exit_status,
            if r.redacted {
                "Serial numbers, WWNs, host names, user names, MAC addresses, labels and UUIDs are replaced by tokens (SERIAL-1, HOST-1...)."
            } else {
                "Not redacted: serial numbers, host and user names, labels and UUIDs are shown as found."
            }
        ),
        "",
        0,
        WIDTH,
    ));
    if let Some(sym) = &r.symptom {
        // What the user complained about, so a reader of the report knows it.
        lines.extend(wrap(sym, "What feels slow: ", 2, WIDTH));
    }
    for m in &r.messages {
        let sev = match m.severity {
            crate::report::MessageSeverity::Information => "note",
            crate::report::MessageSeverity::Warning => "warning",
            crate::report::MessageSeverity::Error => "error",
        };
        lines.extend(wrap(&m.text, &format!("  {sev}: "), 4, WIDTH));
    }
    blocks(&mut lines, &view::blocks(r));

    heading(&mut lines, 1, "Findings (problems first)");
    let (shown, passes) = view::shown_and_passed(r);
    if shown.is_empty() {
        lines.push("  No problems and no unknowns.".into());
    }
    for (i, f) in shown.iter().enumerate() {
        finding(&mut lines, i + 1, f);
    }
    if !passes.is_empty() {
        lines.push(String::new());
        lines.push("  Passed:".into());
        for f in passes {
            lines.extend(wrap(
                &format!("{}: {}", f.device, f.title),
                "  - ",
                4,
                WIDTH,
            ));
        }
    }
    lines.push(String::new());
    lines.extend(wrap(
        &format!(
            "Generated by diskdoc {} ({} evidence sources; the JSON report \
             replays with `diskdoc replay report.json`). Sizes in SI units \
             (MB = 10^6 bytes) unless marked KiB/MiB/GiB; {}",
            env!("CARGO_PKG_VERSION"),
            r.bundle.captures.len(),
            "throughput in MB/s."
        ),
        "",
        0,
        WIDTH,
    ));
    let _ = units::mb_per_sec; // units are used through view.rs
    finish(lines)
}

#[cfg(test)]
mod tests;
