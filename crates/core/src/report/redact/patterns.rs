//! The shapes of secrets in any text: UUIDs, WWNs, MAC addresses, user names in prompts
//! and home paths, and replacing a word as a whole word.

use super::placeholders::is_common_name;
use super::*;

/// A UUID in its textual 8-4-4-4-12 form (RFC 9562 section 4), lowercase, or None.
pub(super) fn uuid_at(s: &str) -> Option<String> {
    let c = s.get(..36)?;
    let ok = c.char_indices().all(|(i, ch)| {
        if [8, 13, 18, 23].contains(&i) {
            ch == '-'
        } else {
            ch.is_ascii_hexdigit()
        }
    });
    ok.then(|| c.to_ascii_lowercase())
}

/// The UUIDs in a text, except well-known GPT type GUIDs (they name a kind of partition,
/// not a disk) and the nil UUID.
pub(super) fn find_uuids(s: &str) -> Vec<String> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i + 36 <= b.len() {
        let before_ok = i == 0 || !b[i - 1].is_ascii_hexdigit();
        let after_ok = b.get(i + 36).is_none_or(|c| !c.is_ascii_hexdigit());
        match s.get(i..).and_then(uuid_at) {
            Some(u) if before_ok && after_ok => {
                if partition_table::gpt_type_name(&u).is_none()
                    && u.chars().any(|c| c != '0' && c != '-')
                {
                    out.push(u);
                }
                i += 36;
            }
            _ => i += 1,
        }
    }
    out
}

/// Canonical WWN: lowercase hex digits without `0x`/`naa.`/`eui.` prefixes or separators.
pub(super) fn wwn_canonical(v: &str) -> String {
    let l = v.trim().to_ascii_lowercase();
    let l = l
        .strip_prefix("0x")
        .or_else(|| l.strip_prefix("naa."))
        .or_else(|| l.strip_prefix("eui."))
        .unwrap_or(&l)
        .to_string();
    l.chars()
        .filter(|c| !c.is_whitespace() && *c != ':' && *c != '-')
        .collect()
}

pub(super) fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-' || c == '_'
}

/// Replace whole-word occurrences of `needle` (host names: "nas" must not eat "nasty").
pub(super) fn replace_word(s: &str, needle: &str, token: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut last = 0;
    for (i, _) in s.match_indices(needle) {
        let before = s.get(..i).and_then(|b| b.chars().last());
        let after = s.get(i + needle.len()..).and_then(|a| a.chars().next());
        if !before.is_some_and(is_word_char) && !after.is_some_and(is_word_char) {
            out.push_str(s.get(last..i).unwrap_or(""));
            out.push_str(token);
            last = i + needle.len();
        }
    }
    out.push_str(s.get(last..).unwrap_or(""));
    out
}

/// Find MAC addresses (six hex pairs joined by ':' or '-', IEEE 802 canonical text form).
pub(super) fn find_macs(s: &str) -> Vec<String> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i + 17 <= b.len() {
        let cand = &b[i..i + 17];
        let sep = cand[2];
        let ok = (sep == b':' || sep == b'-')
            && (0..6)
                .all(|g| cand[g * 3].is_ascii_hexdigit() && cand[g * 3 + 1].is_ascii_hexdigit())
            && (0..5).all(|g| cand[g * 3 + 2] == sep);
        let before_ok = i == 0 || !(b[i - 1].is_ascii_hexdigit() || b[i - 1] == sep);
        let after_ok = i + 17 == b.len() || !(b[i + 17].is_ascii_hexdigit() || b[i + 17] == sep);
        if ok && before_ok && after_ok {
            if let Some(m) = s.get(i..i + 17) {
                // All-zero and broadcast addresses identify nobody.
                let digits: String = m.chars().filter(|c| *c != sep as char).collect();
                if !digits.chars().all(|c| c == '0')
                    && !digits.chars().all(|c| c == 'f' || c == 'F')
                {
                    out.push(m.to_string());
                }
            }
            i += 17;
        } else {
            i += 1;
        }
    }
    out
}

/// The path component after `prefix`, wherever it occurs in `s`.
pub(super) fn components_after<'a>(s: &'a str, prefix: &str) -> Vec<&'a str> {
    let mut out = Vec::new();
    for (i, _) in s.match_indices(prefix) {
        // "/mnt/" must start a path: not "/xmnt/" (the prefix carries its leading '/').
        let after = s.get(i + prefix.len()..).unwrap_or("");
        let end = after
            .find(|c: char| !(c.is_alphanumeric() || "._-".contains(c)))
            .unwrap_or(after.len());
        let name = after.get(..end).unwrap_or("").trim_end_matches('.');
        if !name.is_empty() && name != "." && name != ".." {
            out.push(name);
        }
    }
    out
}

/// User names in home-like paths: /home/NAME (also /usr/home, /var/home, /export/home),
/// /Users/NAME, /media/NAME (udisks: /media/USER/LABEL, /run/media/USER/LABEL), and
/// /mnt/NAME, /Volumes/NAME unless NAME is a common word or a device name (/mnt/data,
/// /mnt/sdb1 name nobody).
pub(super) fn find_users(s: &str) -> Vec<(Kind, String)> {
    let mut out = Vec::new();
    for prefix in ["/home/", "/Users/"] {
        for n in components_after(s, prefix) {
            out.push((Kind::User, n.to_string()));
        }
    }
    for prefix in ["/media/", "/mnt/", "/Volumes/"] {
        for n in components_after(s, prefix) {
            if !is_common_name(n) {
                out.push((Kind::User, n.to_string()));
            }
        }
    }
    // udisks mounts a filesystem at /media/USER/LABEL: the second component is its label.
    // Only a '/' right after the user component starts the label: "/media/usb_2TB# dd
    // of=/dev/x" has no label, and "dev" is no secret (batch 37's ntfs3g99 prompt).
    for (i, _) in s.match_indices("/media/") {
        let rest = s.get(i + "/media/".len()..).unwrap_or("");
        let user_end = rest
            .find(|c: char| !(c.is_alphanumeric() || "._-".contains(c)))
            .unwrap_or(rest.len());
        if let Some(after) = rest.get(user_end..).filter(|a| a.starts_with('/')) {
            for n in components_after(after, "/").into_iter().take(1) {
                out.push((Kind::Label, n.to_string()));
            }
        }
    }
    out
}
