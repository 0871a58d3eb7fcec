//! Registering a secret (is it one, of which kind, in which canonical form) and replacing
//! every registered secret by its token.

use super::patterns::{replace_word, wwn_canonical};
use super::placeholders::{is_common_name, is_placeholder};
use super::*;

/// All needles in one automaton, so finding which of N needles occur in a string is one
/// pass over the string (Aho-Corasick), not N substring searches.
#[derive(Debug, Clone)]
pub(super) struct Matcher {
    /// (needle, token, whole-word), longest needle first (ties by text): pattern i is list[i].
    list: Vec<(String, String, bool)>,
    ac: Option<aho_corasick::AhoCorasick>,
}

impl Matcher {
    fn new(needles: &BTreeMap<String, (String, bool)>) -> Matcher {
        let mut list: Vec<(String, String, bool)> = needles
            .iter()
            .map(|(n, (t, w))| (n.clone(), t.clone(), *w))
            .collect();
        crate::sort::sort_by(&mut list, |a, b| {
            b.0.len().cmp(&a.0.len()).then(a.0.cmp(&b.0))
        });
        let ac = aho_corasick::AhoCorasick::new(list.iter().map(|(n, _, _)| n)).ok();
        Matcher { list, ac }
    }
}

impl Redactor {
    pub(super) fn add_with(&mut self, kind: Kind, value: &str, trusted: bool) -> Option<String> {
        // The needle set may change: the automaton is rebuilt on the next `apply`.
        self.matcher = std::sync::OnceLock::new();
        self.guard = std::sync::OnceLock::new();
        let v = value.trim().trim_matches('"').trim();
        let min = match kind {
            Kind::User | Kind::Host | Kind::Pool => 2,
            Kind::Serial | Kind::Label if trusted => 3,
            _ => 4,
        };
        if v.chars().count() < min || is_placeholder(v) || v.len() > 80 {
            return None;
        }
        let canonical = match kind {
            Kind::Serial => {
                // Serials in free text carry digits; this keeps prose ("serial number is
                // ...") out. Where only a serial can stand, any alphabet goes.
                if !trusted
                    && (!v.chars().any(|c| c.is_ascii_digit()) || v.contains(char::is_whitespace))
                {
                    return None;
                }
                v.to_string()
            }
            Kind::Wwn => {
                let c = wwn_canonical(v);
                let hex = c.chars().all(|ch| ch.is_ascii_hexdigit());
                // nvme.* wwids embed the serial in hex and are long: keep them whole.
                if c.len() < 8 || (!hex && !v.starts_with("nvme.") && !v.starts_with("t10.")) {
                    return None;
                }
                c
            }
            Kind::Host => {
                if v.contains(char::is_whitespace) {
                    return None;
                }
                v.to_ascii_lowercase()
            }
            Kind::User => {
                // POSIX user names start with a letter or '_': "~72 columns" names nobody.
                let first_ok = v
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_alphabetic() || c == '_');
                if !first_ok || is_common_name(v) || v.contains(char::is_whitespace) {
                    return None;
                }
                v.to_string()
            }
            Kind::Mac => v.to_ascii_lowercase().replace('-', ":"),
            Kind::Label => {
                if is_common_name(v) {
                    return None;
                }
                v.to_string()
            }
            Kind::Uuid => {
                let l = v.to_ascii_lowercase();
                if self.type_guids.contains(&l) {
                    return None;
                }
                // RFC 9562 text form, FAT/exFAT volume ids (1234-ABCD), NTFS/ZFS 16 hex digits,
                // md's four colon-separated words (mdadm --detail "UUID : 10df35c4:...").
                let hexish = l
                    .chars()
                    .all(|c| c.is_ascii_hexdigit() || c == '-' || c == ':');
                if !hexish || l.chars().filter(char::is_ascii_hexdigit).count() < 8 {
                    return None;
                }
                if partition_table::gpt_type_name(&l).is_some()
                    || l.chars().all(|c| c == '0' || c == '-')
                {
                    return None;
                }
                l
            }
            Kind::Pool => {
                // zpool(8): a pool name starts with a letter and holds letters, digits,
                // '_', '-', ':', '.'; the vdev kinds (mirror, raidz, draid, spare, log) and
                // "c[0-9]" are reserved. Common names (tank, zroot, rpool, data) identify
                // nobody, as with labels.
                let shape = v.starts_with(|c: char| c.is_ascii_alphabetic())
                    && v.chars()
                        .all(|c| c.is_ascii_alphanumeric() || "_-:.".contains(c));
                let reserved = ["mirror", "raidz", "draid", "spare", "log", "replacing"]
                    .iter()
                    .any(|r| v.starts_with(r));
                if !shape || reserved || is_common_name(v) {
                    return None;
                }
                v.to_string()
            }
            Kind::Guid => {
                // Decimal as zpool and zdb print it, or 0x-hex (zpool events, the kernel
                // log); one 64-bit number either way.
                let n = match v.strip_prefix("0x") {
                    Some(h) => u64::from_str_radix(h, 16).ok(),
                    None if v.len() >= 6 => v.parse::<u64>().ok(),
                    None => None,
                };
                match n {
                    Some(n) if n >= 100_000 => n.to_string(),
                    _ => return None,
                }
            }
        };
        // A WWN fragment (hdparm's "Unique ID") shares the token of the WWN containing it.
        let existing = self
            .tokens
            .get(&(kind, canonical.clone()))
            .cloned()
            .or_else(|| {
                (kind == Kind::Wwn)
                    .then(|| {
                        // The first in token order (the smallest canonical form) that
                        // contains this one; only longer forms can.
                        self.wwn_by_len
                            .range(canonical.len() + 1..)
                            .flat_map(|(_, cs)| cs.iter())
                            .filter(|c| c.contains(&canonical))
                            .min()
                            .and_then(|c| self.tokens.get(&(Kind::Wwn, c.clone())))
                            .cloned()
                    })
                    .flatten()
            });
        let token = match existing {
            Some(t) => t,
            None => {
                let n = self.counters.entry(kind).or_insert(0);
                *n += 1;
                let t = format!("{}-{n}", kind.prefix());
                self.tokens.insert((kind, canonical.clone()), t.clone());
                if kind == Kind::Wwn {
                    self.wwn_by_len
                        .entry(canonical.len())
                        .or_default()
                        .push(canonical.clone());
                }
                t
            }
        };
        // For WWNs the prefix (0x, naa., eui.) stays visible: only the number is secret.
        let prefixed = kind == Kind::Wwn && wwn_canonical(v) != v.to_ascii_lowercase();
        let mut variants = if prefixed
            && v.len() > canonical.len()
            && v.to_ascii_lowercase().ends_with(&canonical)
        {
            Vec::new()
        } else {
            vec![v.to_string()]
        };
        match kind {
            Kind::Serial => {
                variants.push(v.to_ascii_uppercase());
                variants.push(v.to_ascii_lowercase());
                // udev's by-id names write a serial's blanks as '_' (60-persistent-storage
                // rules, ID_SERIAL), some vendor tools as '-'.
                if v.contains(' ') {
                    variants.push(v.replace(' ', "_"));
                    variants.push(v.replace(' ', "-"));
                }
            }
            Kind::Wwn => {
                variants.push(canonical.clone());
                variants.push(canonical.to_ascii_uppercase());
                if canonical.len() == 16 {
                    // smartctl prints NAA 5 WWNs as "5 000c50 017f4f8d9" and EUI-64 as
                    // "002538 8b71b1c8e1".
                    if let (Some(a), Some(b), Some(c)) =
                        (canonical.get(..1), canonical.get(1..7), canonical.get(7..))
                    {
                        variants.push(format!("{a} {b} {c}"));
                    }
                    if let (Some(a), Some(b)) = (canonical.get(..6), canonical.get(6..)) {
                        variants.push(format!("{a} {b}"));
                    }
                }
            }
            Kind::Host => {
                variants.push(canonical.clone());
                if let Some((short, _)) = v.split_once('.')
                    && short.len() >= 3
                    && !short.chars().all(|c| c.is_ascii_digit())
                {
                    variants.push(short.to_string());
                }
            }
            Kind::User => {
                let name = v.to_string();
                // Long names are replaced as whole words anywhere (a path under /srv, a
                // `cd` argument); short ones only where a user name stands.
                if name.chars().count() < 3 {
                    for p in ["/home/", "/Users/", "/mnt/", "/media/", "/Volumes/", "~"] {
                        self.needles
                            .insert(format!("{p}{name}"), (format!("{p}{token}"), false));
                    }
                    self.needles
                        .insert(format!("{name}@"), (format!("{token}@"), false));
                    return Some(token);
                }
            }
            Kind::Label => {
                variants.push(v.replace(' ', "\\x20"));
            }
            Kind::Uuid => {
                variants.push(canonical.clone());
                variants.push(canonical.to_ascii_uppercase());
                let bare: String = canonical.chars().filter(|c| *c != '-').collect();
                if bare.len() >= 16 {
                    variants.push(bare.clone());
                    variants.push(bare.to_ascii_uppercase());
                }
            }
            Kind::Pool => {}
            Kind::Guid => {
                variants.push(canonical.clone());
                if let Ok(n) = canonical.parse::<u64>() {
                    variants.push(format!("0x{n:x}"));
                    variants.push(format!("0x{n:X}"));
                    variants.push(format!("0x{n:016x}"));
                }
            }
            Kind::Mac => {
                variants.push(v.to_ascii_uppercase());
                variants.push(canonical.clone());
                variants.push(canonical.to_ascii_uppercase());
                variants.push(canonical.replace(':', "-"));
            }
        }
        if kind == Kind::Host && v.len() < 4 {
            self.short_hosts.insert(v.to_string(), token.clone());
            return Some(token);
        }
        for var in variants {
            if var.len() >= 4 || (kind.whole_word() && var.chars().count() >= 3) {
                self.needles.insert(var, (token.clone(), kind.whole_word()));
            }
        }
        Some(token)
    }

    /// Rewrite one string.
    pub fn apply(&self, s: &str) -> String {
        let s = &self.apply_short_hosts(s);
        if self.needles.is_empty() {
            return s.to_string();
        }
        // Longest needles first, so "box.example.org" is replaced before "box". Only the
        // needles that occur in the string are tried: one overlapping Aho-Corasick scan finds
        // them, so the cost is linear in the string, not in string length x needle count.
        let m = self.matcher.get_or_init(|| Matcher::new(&self.needles));
        let mut present: Vec<usize> = match &m.ac {
            Some(ac) => ac
                .find_overlapping_iter(s.as_str())
                .map(|hit| hit.pattern().as_usize())
                .collect(),
            None => (0..m.list.len()).collect(),
        };
        crate::sort::sort(&mut present);
        present.dedup();
        let mut out = s.to_string();
        for (needle, token, whole) in present.into_iter().filter_map(|i| m.list.get(i)) {
            if !out.contains(needle.as_str()) {
                continue;
            }
            out = if *whole {
                replace_word(&out, needle, token)
            } else {
                out.replace(needle.as_str(), token)
            };
        }
        out
    }

    /// Short host names only where a host name stands: the whole string (a hostname file,
    /// the fact), `user@HOST:`, systemd's `<HOST>`, and uname's second field.
    pub(super) fn apply_short_hosts(&self, s: &str) -> String {
        if self.short_hosts.is_empty() {
            return s.to_string();
        }
        let mut out = s.to_string();
        for (h, tok) in &self.short_hosts {
            if !out.contains(h.as_str()) {
                continue;
            }
            if out.trim() == h {
                out = out.replacen(h.as_str(), tok, 1);
                continue;
            }
            out = out
                .replace(&format!("@{h}:"), &format!("@{tok}:"))
                .replace(&format!("@{h} "), &format!("@{tok} "))
                .replace(&format!("<{h}>"), &format!("<{tok}>"));
            for os in ["Linux", "FreeBSD"] {
                out = out.replace(&format!("{os} {h} "), &format!("{os} {tok} "));
            }
        }
        out
    }
}
