//! `sysctl name...` / `sysctl -a` output (sysctl(8)): "name: value" lines. Some values span
//! many lines (kern.geom.confxml is an XML document, kern.geom.confdot a graph), so a new
//! entry starts only on a line that begins with a dotted OID name followed by ':'; every
//! other line continues the previous value.

use super::geom_util::unquote;

/// Parse into (name, value) pairs in order. Values are trimmed; multi-line values keep
/// their inner newlines.
pub fn parse(text: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for raw in text.lines() {
        let line = unquote(raw);
        if let Some((name, value)) = split_entry(line) {
            out.push((name.to_string(), value.trim().to_string()));
        } else if let Some((_, v)) = out.last_mut() {
            if !v.is_empty() {
                v.push('\n');
            }
            v.push_str(raw.trim_end());
        }
    }
    out
}

/// The value of `name` in parsed output.
pub fn get<'a>(entries: &'a [(String, String)], name: &str) -> Option<&'a str> {
    entries
        .iter()
        .rev()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

/// A value captured by the Host's `sysctl` (the bare value), or a "name: value" line if a
/// person pasted it. Returns the trimmed value.
pub fn bare_value<'a>(text: &'a str, name: &str) -> &'a str {
    let t = text.trim();
    t.strip_prefix(name)
        .and_then(|r| r.trim_start().strip_prefix(['=', ':']))
        .map(str::trim)
        .unwrap_or(t)
}

/// "kern.disks: ada0 cd0" -> ("kern.disks", " ada0 cd0"). OID names are dotted
/// components of letters, digits, '_', '-' and a leading '%' (dev.ahci.0.%desc).
fn split_entry(line: &str) -> Option<(&str, &str)> {
    let (name, value) = line.split_once(':')?;
    if name.is_empty() || !name.contains('.') || name.starts_with('.') {
        return None;
    }
    // Jail parameter nodes really end in '.' ("security.jail.param.ip4.: 0").
    let ok = name.strip_suffix('.').unwrap_or(name).split('.').all(|c| {
        !c.is_empty()
            && c.chars()
                .all(|ch| ch.is_ascii_alphanumeric() || "_-%".contains(ch))
    });
    if !ok || !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return None;
    }
    if !(value.is_empty() || value.starts_with(' ') || value.starts_with('\t')) {
        return None;
    }
    Some((name, value))
}

/// kern.disks value -> disk names, newest first as the kernel lists them.
pub fn disk_names(value: &str) -> Vec<String> {
    value.split_whitespace().map(str::to_string).collect()
}
