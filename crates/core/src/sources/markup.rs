//! The formatting posters put around pasted output: HTML tags, Markdown emphasis and forum
//! BBCode. One module, so the paste segmenter (explain) and the kernel-log prefix stripper
//! (log_prefix) agree on what markup is.

use regex::Regex;
use std::sync::LazyLock;

/// The formatting a forum or issue tracker left around pasted output: the HTML tags people
/// type to keep a paste's layout (`<pre>`, `<code>`, `<b>` around a figure, `<br>`), and
/// Markdown emphasis around a whole line (`_fdisk: ... of them_`, `*...*`, `**...**`). The
/// tool's own text is what is inside; angle brackets of other words (`<Go Back>`, printk's
/// `<4>`) stay. The BBCode of phpBB and vBulletin forums goes the same way: `[color=...]`,
/// `[font=...]`, `[code]`, `[quote]` and their closing tags anywhere, `[b]`, `[i]`, `[u]`
/// only at the start of a line (a kernel line may print "10.2[B]") and their closing tags
/// anywhere. `[size=...]` stays: lspci prints "[size=16K]".
pub(crate) fn strip_markup(line: &str) -> String {
    static TAG: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)</?(?:pre|code|b|i|em|strong|tt|kbd|samp|br)\s*/?>").expect("static regex")
    });
    static BBCODE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r#"(?i)\[/?(?:color|font|code|quote|noparse)(?:=[^\]\[]{0,40})?\]|\[/(?:b|i|u)\]"#,
        )
        .expect("static regex")
    });
    static BBCODE_LEAD: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"(?i)^(\s*)(?:\[(?:b|i|u)\])+").expect("static regex"));
    static BOLD_FIGURE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(^|[\s=:(,])(?:\*\*|__)([^*_\s](?:[^*_]*[^*_\s])?)(?:\*\*|__)")
            .expect("static regex")
    });
    let l = TAG.replace_all(line, "");
    let l = BBCODE.replace_all(&l, "").into_owned();
    let l = BBCODE_LEAD.replace(&l, "$1").into_owned();
    // Bold around a figure inside a line ("... = **278.55 kB/sec**"): a poster's emphasis
    // of the number that matters. Only the double marks, and only around a run that holds
    // a digit and no star: hdparm's "*udma5" and a rule of stars stay.
    let l = BOLD_FIGURE
        .replace_all(&l, |c: &regex::Captures<'_>| {
            let all = c.get(0).map_or("", |m| m.as_str());
            let inner = c.get(2).map_or("", |m| m.as_str());
            if inner.chars().any(|ch| ch.is_ascii_digit()) {
                format!("{}{inner}", c.get(1).map_or("", |m| m.as_str()))
            } else {
                all.to_string()
            }
        })
        .into_owned();
    // A Markdown code span the poster opened or closed on this line and not on it again
    // (CommonMark 0.31 section 6.1: a backtick string with no matching one stays literal, so
    // the renderer shows it and a copy keeps it): "`(da0:storvsc0:0:0:0): Capacity data has
    // changed" with the closing mark lines later. A lone backtick at the start or the end of
    // the line goes; a line whose backticks pair up ("Use `gpart commit da0` to ...") is the
    // tool's own text and stays, and so does a whole line in one span, taken off below.
    let l = strip_lone_backtick(&l);
    let t = l.trim();
    for mark in ["**", "__", "*", "_", "`"] {
        if let Some(inner) = t
            .strip_prefix(mark)
            .and_then(|r| r.strip_suffix(mark))
            .filter(|i| {
                let i = i.trim();
                !i.is_empty()
                    && !i.starts_with(['*', '_'])
                    && !i.ends_with(['*', '_'])
                    && i.chars().any(char::is_alphanumeric)
            })
        {
            let indent = &l[..l.len() - l.trim_start().len()];
            return format!("{indent}{inner}");
        }
    }
    l
}

/// The line without a lone Markdown backtick at its start or end (see [`strip_markup`]):
/// only when it is the line's one backtick, and not a fence ("```").
fn strip_lone_backtick(l: &str) -> String {
    if l.matches('`').count() != 1 || l.contains("``") {
        return l.to_string();
    }
    let t = l.trim();
    let indent = &l[..l.len() - l.trim_start().len()];
    if let Some(rest) = t.strip_prefix('`') {
        return format!("{indent}{rest}");
    }
    if let Some(rest) = t.strip_suffix('`') {
        return format!("{indent}{rest}");
    }
    l.to_string()
}

/// A line a webmail or forum wrapped in an inline HTML emphasis tag to point at it
/// ("<b>ata2: dev 0 configured for UDMA/33</b>"): the tags are the poster's markup, the
/// text between them the kernel's. Only the phrasing tags HTML 4.01 section 9.2.1 lists for
/// emphasis (b, i, em, strong, tt, code) are taken off, and only as a pair around the line.
pub(crate) fn strip_html_emphasis(s: &str) -> &str {
    const TAGS: [&str; 6] = ["b", "i", "em", "strong", "tt", "code"];
    // Every kernel-log line of a live scan passes here: no tag, no work (and no allocation).
    let Some(after_lt) = s.strip_prefix('<') else {
        return s;
    };
    for tag in TAGS {
        // "<tag>" ... "</tag>", compared without building either string.
        let Some(rest) = after_lt
            .get(..tag.len())
            .filter(|h| h.eq_ignore_ascii_case(tag))
            .and_then(|_| after_lt.get(tag.len()..))
            .and_then(|r| r.strip_prefix('>'))
        else {
            continue;
        };
        let rest = rest.trim_end();
        let close_len = tag.len() + 3;
        let cut = rest.len().saturating_sub(close_len);
        let closes = rest.get(cut..).is_some_and(|t| {
            t.starts_with("</")
                && t.ends_with('>')
                && t.get(2..2 + tag.len())
                    .is_some_and(|n| n.eq_ignore_ascii_case(tag))
        });
        if closes && rest.len() >= close_len {
            return rest.get(..cut).unwrap_or(rest).trim_start();
        }
    }
    s
}

#[cfg(test)]
mod tests;
