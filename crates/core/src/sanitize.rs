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

/// Printable ASCII and space; anything else becomes `?`.
pub fn for_fact(s: &str) -> String {
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
pub fn for_mail(s: &str) -> String {
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
pub fn for_paste(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() && c != '\n' { ' ' } else { c })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_policy_neutralises_escapes() {
        let evil = "WDC\u{1b}[2J \u{9b}31m\u{e9}\tX\n";
        assert_eq!(for_fact(evil), "WDC?[2J ?31m??X?");
        assert_eq!(for_mail(evil), "WDC[2J ?31m? X ");
        assert_eq!(for_terminal(evil, false), "WDC?[2J ?31m\u{e9}?X?");
        assert_eq!(for_terminal(evil, true), "WDC?[2J ?31m??X?");
        assert_eq!(for_paste(evil), "WDC [2J  31m\u{e9} X\n");
        for f in [for_fact, for_mail, for_paste] {
            assert!(!f(evil).contains('\u{1b}') && !f(evil).contains('\u{9b}'));
        }
    }
}
