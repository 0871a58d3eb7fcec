//! The one home of making untrusted strings safe: drive firmware (model, serial), pasted
//! text and tool output may carry control characters and escape sequences that move a
//! terminal's cursor, recolour it, or break a mail. Each output has its policy, named here
//! (an allowlist per policy is stricter than stripping known escapes):
//! - [`for_fact`]: a value stored as a fact (sysfs strings): printable ASCII and space only.
//! - [`for_mail`]: the text and Markdown reports (plain ASCII for mailing lists): tab and
//!   line feed become spaces, other ASCII controls go, non-ASCII becomes `?`.
//! - [`for_terminal`]: the wizard's screen: every control character (C0, DEL, C1) becomes
//!   `?`, non-ASCII too when the terminal's locale is not UTF-8; trimmed.
//! - [`for_paste`]: explain's quotes of a paste: controls but line feed become spaces, so
//!   the quoted lines keep their shape.
//! - [`for_html`]: the HTML report: text content and attribute values, with `&`, `<`, `>`,
//!   `"` and `'` written as character references, so a model name or a label can never open
//!   a tag or end an attribute; controls other than tab and line feed, and the bidirectional
//!   overrides that could reorder what a reader sees, are dropped.

/// Printable ASCII and space; anything else becomes `?`.
pub(crate) fn for_fact(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_graphic() || c == ' ' {
                c
            } else {
                '?'
            }
        })
        .collect()
}

/// ASCII for a mail: tab/line feed to space, other ASCII controls dropped, non-ASCII `?`.
pub(crate) fn for_mail(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\t' | '\n' => out.push(' '),
            c if c.is_ascii_control() => {}
            c if c.is_ascii() => out.push(c),
            _ => out.push('?'),
        }
    }
    out
}

/// Control characters (C0, DEL, C1) to `?`; with `ascii_only` (a non-UTF-8 terminal) every
/// non-ASCII character too; trimmed.
pub fn for_terminal(s: &str, ascii_only: bool) -> String {
    s.chars()
        .map(|c| {
            if c.is_control() || (ascii_only && !c.is_ascii()) {
                '?'
            } else {
                c
            }
        })
        .collect::<String>()
        .trim()
        .to_string()
}

/// Control characters other than line feed to spaces.
pub(crate) fn for_paste(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() && c != '\n' { ' ' } else { c })
        .collect()
}

/// Text for HTML content or a quoted attribute value (HTML Living Standard, "Writing HTML
/// documents": in text `<` and `&` start markup, in a quoted attribute value its quote ends
/// it; all five are escaped so one function serves both places). Controls other than tab
/// and line feed may not appear in HTML text (the same section: control characters other
/// than ASCII whitespace are parse errors) and are dropped; so are the bidirectional
/// embedding, override and isolate marks (U+202A..U+202E, U+2066..U+2069; Unicode UAX #9),
/// with which a string from a drive or a paste could make the text around it read in
/// another order (the "Trojan Source" attack, Boucher and Anderson, 2021).
#[cfg(feature = "html")] // only the HTML report escapes for HTML
pub(crate) fn for_html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\t' | '\n' => out.push(c),
            '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' => {}
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests;
