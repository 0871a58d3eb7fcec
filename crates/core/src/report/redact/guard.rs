//! The final check before an output is written: every form a collected secret could take
//! (text, hex, UTF-16 hex, base64, by-id spelling), looked for in the output.

use super::patterns::is_word_char;
use super::placeholders::is_common_name;
use super::*;

/// A secret an output still holds after redaction: the last line of defence found it, and
/// nothing was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leak {
    /// The secret's token (the secret itself is not repeated in the message).
    pub token: String,
    pub kind: Kind,
    /// How it was written: "as text", "as hex", "as base64", "as a by-id name".
    pub form: &'static str,
}

impl std::fmt::Display for Leak {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "refusing to write the output: it still holds {} (redacted elsewhere as {}) {}, \
             which redaction missed; nothing was written. Run again with --no-redact to get \
             the output unredacted (keep it private), and report this as a diskdoc bug",
            self.kind.describe(),
            self.token,
            self.form
        )
    }
}

impl std::error::Error for Leak {}

/// One form of a secret the final check looks for.
#[derive(Debug, Clone)]
pub(super) struct Form {
    token: String,
    kind: Kind,
    form: &'static str,
    /// Matched as a whole word only (as `apply` replaces it).
    whole: bool,
}

/// The final check's automata: forms compared exactly, and forms compared without regard
/// to ASCII case (hex numbers, host names).
#[derive(Debug, Clone)]
pub(super) struct Guard {
    exact: (Vec<(String, Form)>, Option<aho_corasick::AhoCorasick>),
    folded: (Vec<(String, Form)>, Option<aho_corasick::AhoCorasick>),
    /// Short host names (see `short_hosts`): only where a host name stands.
    short: Vec<(String, String)>,
}

/// Hex digits of `bytes`, lowercase.
pub(super) fn hex_lower(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The base64 characters (RFC 4648 section 4) that depend on `v`'s bytes alone, for each of
/// the three positions `v` can take in an encoded stream: whatever surrounds it, an
/// encoding of text holding `v` contains one of them.
pub(super) fn base64_cores(v: &[u8]) -> Vec<String> {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = Vec::new();
    for shift in 0..3usize {
        let mut bytes = vec![0u8; shift];
        bytes.extend_from_slice(v);
        let mut chars = Vec::new();
        for chunk in bytes.chunks(3) {
            let mut n = [0u8; 3];
            n[..chunk.len()].copy_from_slice(chunk);
            let x = (u32::from(n[0]) << 16) | (u32::from(n[1]) << 8) | u32::from(n[2]);
            for k in 0..4 {
                chars.push(ALPHABET[((x >> (18 - 6 * k)) & 63) as usize]);
            }
        }
        // Character i covers bits [6i, 6i + 6); v's bits are [8 shift, 8 (shift + len)).
        let first = (8 * shift).div_ceil(6);
        let end = (8 * (shift + v.len())) / 6;
        if let Some(core) = chars.get(first..end) {
            out.push(String::from_utf8_lossy(core).into_owned());
        }
    }
    out
}

/// Kinds whose text is a number or a name compared without regard to case.
pub(super) fn case_folded(kind: Kind) -> bool {
    matches!(
        kind,
        Kind::Wwn | Kind::Uuid | Kind::Mac | Kind::Guid | Kind::Host
    )
}

/// Whole words diskdoc's own output holds whatever the input: the HTML report's CSS
/// ("max-width"), tools' "max UDMA/133" quoted in findings. A user named "max" (the Ubuntu
/// Forums prompt `max@Poet:~ $` of corpus batch 35) is still redacted by `apply`; the final
/// check cannot tell that name from these words, so it does not look for it.
const OWN_WORDS: &[&str] = &["max", "min"];

impl Guard {
    pub(super) fn new(red: &Redactor) -> Guard {
        let mut exact: Vec<(String, Form)> = Vec::new();
        let mut folded: Vec<(String, Form)> = Vec::new();
        let kind_of = |token: &str| {
            Kind::ALL
                .into_iter()
                .find(|k| token.starts_with(k.prefix()) && is_token(token))
        };
        for (needle, (token, whole)) in &red.needles {
            let Some(kind) = kind_of(token) else { continue };
            // Whole words too common to check without false alarms: a host named "linux"
            // is also the platform's name in every JSON report (`apply` replaces them, but
            // not in enum fields).
            if *whole && (is_common_name(needle) || OWN_WORDS.contains(&needle.as_str())) {
                continue;
            }
            let form = |f: &'static str, whole: bool| Form {
                token: token.clone(),
                kind,
                form: f,
                whole,
            };
            let plain = if case_folded(kind) {
                &mut folded
            } else {
                &mut exact
            };
            plain.push((needle.clone(), form("as text", *whole)));
            // Structural needles (a short user's "/home/xy") have no other forms.
            if needle.contains(['/', '@', '~']) {
                continue;
            }
            if needle.contains(' ') {
                for sep in ["_", "-"] {
                    exact.push((needle.replace(' ', sep), form("as a by-id name", false)));
                }
            }
            let bytes = needle.as_bytes();
            if bytes.len() >= 4 {
                folded.push((hex_lower(bytes), form("as hex", false)));
                let utf16: Vec<u8> = needle.encode_utf16().flat_map(u16::to_le_bytes).collect();
                folded.push((hex_lower(&utf16), form("as UTF-16 hex", false)));
            }
            if bytes.len() >= 6 {
                for core in base64_cores(bytes) {
                    exact.push((core, form("as base64", false)));
                }
            }
            if kind == Kind::Guid
                && let Ok(n) = needle.parse::<u64>()
            {
                folded.push((format!("{n:x}"), form("as hex", false)));
            }
        }
        let build = |v: Vec<(String, Form)>, fold: bool| {
            let ac = aho_corasick::AhoCorasick::builder()
                .ascii_case_insensitive(fold)
                .build(v.iter().map(|(p, _)| p))
                .ok();
            (v, ac)
        };
        Guard {
            exact: build(exact, false),
            folded: build(folded, true),
            short: red
                .short_hosts
                .iter()
                .map(|(h, t)| (h.clone(), t.clone()))
                .collect(),
        }
    }

    pub(super) fn check(&self, out: &str) -> Result<(), Leak> {
        // A secret inside a token ("IAL-1" of SERIAL-1) is no leak: tokens are masked first.
        let masked = TOKEN.replace_all(out, "\u{1}");
        for (list, ac) in [&self.exact, &self.folded] {
            let Some(ac) = ac else { continue };
            for hit in ac.find_overlapping_iter(masked.as_ref()) {
                let Some((_, f)) = list.get(hit.pattern().as_usize()) else {
                    continue;
                };
                let before = masked
                    .get(..hit.start())
                    .and_then(|b| b.chars().next_back());
                let after = masked.get(hit.end()..).and_then(|a| a.chars().next());
                if f.whole && (before.is_some_and(is_word_char) || after.is_some_and(is_word_char))
                {
                    continue;
                }
                return Err(Leak {
                    token: f.token.clone(),
                    kind: f.kind,
                    form: f.form,
                });
            }
        }
        for (h, token) in &self.short {
            let stands = masked.trim() == h
                || [
                    format!("@{h}:"),
                    format!("@{h} "),
                    format!("<{h}>"),
                    format!("Linux {h} "),
                    format!("FreeBSD {h} "),
                ]
                .iter()
                .any(|p| masked.contains(p.as_str()));
            if stands {
                return Err(Leak {
                    token: token.clone(),
                    kind: Kind::Host,
                    form: "as text",
                });
            }
        }
        Ok(())
    }
}

// A token as `Redactor::add` makes them, wherever it stands (also inside "0xWWN-1").
crate::rx!(
    TOKEN,
    r"(?:SERIAL|WWN|HOST|USER|MAC|LABEL|UUID|POOL|GUID)-[1-9][0-9]*"
);
