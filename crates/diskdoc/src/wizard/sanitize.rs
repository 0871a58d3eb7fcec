//! Make untrusted strings (drive firmware model/serial, pasted text) safe for a terminal:
//! control characters and escape sequences could move the cursor or recolour the screen.

/// The terminal policy of diskdoc_core::sanitize (control characters, non-ASCII on a
/// non-UTF-8 terminal).
pub use diskdoc_core::sanitize::for_terminal as sanitize;

/// [`sanitize`] for this terminal as a function of one string, the form
/// `diskdoc_core::render::TextStyle::clean` takes.
pub fn policy(ascii: bool) -> fn(&str) -> String {
    if ascii {
        |s| sanitize(s, true)
    } else {
        |s| sanitize(s, false)
    }
}

/// Whether the terminal's locale says UTF-8 (LC_ALL, LC_CTYPE, LANG in that order).
pub fn locale_is_utf8() -> bool {
    for var in ["LC_ALL", "LC_CTYPE", "LANG"] {
        if let Ok(v) = std::env::var(var).map(|v| v.to_ascii_lowercase())
            && !v.is_empty()
        {
            return v.contains("utf-8") || v.contains("utf8");
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_sequences_are_neutralised() {
        assert_eq!(sanitize("WDC\x1b[2J WD5001", false), "WDC?[2J WD5001");
        assert_eq!(sanitize("Samsung\u{9b}31m", false), "Samsung?31m");
        assert_eq!(sanitize("Überdisk", true), "?berdisk");
        assert_eq!(sanitize("Überdisk", false), "Überdisk");
        assert_eq!(policy(true)("Überdisk\x1b"), "?berdisk?");
        assert_eq!(policy(false)("Überdisk\x1b"), "Überdisk?");
    }
}
