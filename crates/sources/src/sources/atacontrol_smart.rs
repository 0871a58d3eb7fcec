//! The SMART attribute table of FreeBSD's legacy ata(4) tool with the `atacontrol smart`
//! patch (FreeBSD 6-8 era, posted on freebsd-questions/-hackers): "ID# Attribute Name Curr
//! Worst Thrsh Bytes", a dashed rule, then one row per attribute, "  5 Reallocated Sector
//! Count 200 200 140 00 00 00 00 00 00", with the six raw bytes as the drive returns them
//! (ATA SMART READ DATA, vendor attribute table: a 48-bit raw value, least significant
//! byte first) and a "*" before attributes updated only by an offline test. The ids mean
//! what they mean in smartctl (5 reallocated, 9 power-on hours, 197 pending, 198 offline
//! uncorrectable, 199 UDMA CRC errors).

use crate::model::Smart;
use crate::sources::spec;
use crate::sources::util::clean_line;

crate::rx!(
    HEADER,
    r"^\s*ID#\s+Attribute Name\s+Curr\s+Worst\s+Thrsh\s+Bytes\s*$"
);
crate::rx!(
    ROW,
    r"^\s*(\d{1,3})\s+(?:\*\s+)?([A-Za-z][\w /.-]*?)\s+(\d{1,3})\s+(\d{1,3})\s+(\d{1,3})\s+((?:[0-9a-fA-F]{2}\s+){5}[0-9a-fA-F]{2})\s*$"
);
crate::rx!(RULE, r"^\s*-{3}\s+-{5,}");

/// (id, name, raw value) per row.
pub fn parse(text: &str) -> Vec<(u64, String, u64)> {
    text.lines()
        .filter_map(|l| {
            let line = clean_line(l);
            let c = ROW.captures(line.trim())?;
            let id: u64 = c.get(1)?.as_str().parse().ok()?;
            let raw = c
                .get(6)?
                .as_str()
                .split_whitespace()
                .rev()
                .try_fold(0u64, |v, b| {
                    Some((v << 8) | u64::from_str_radix(b, 16).ok()?)
                })?;
            Some((id, c.get(2)?.as_str().trim().to_string(), raw))
        })
        .collect()
}

/// The counters smartctl's reader keeps, from the table.
pub fn smart(text: &str) -> Option<Smart> {
    let rows = parse(text);
    if rows.is_empty() {
        return None;
    }
    let mut s = Smart::default();
    for (id, _, raw) in rows {
        super::smartctl_attr::set_attr(&mut s, id, Some(raw));
    }
    Some(s)
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "atacontrol-smart",
    starts: &[(145, |l| spec::on_first(l, |t| HEADER.is_match(t)))],
    member: |t, _| {
        let t = t.trim();
        spec::Member::from(
            ROW.is_match(t) || RULE.is_match(t) || t.starts_with("* = values only updated"),
        )
    },
    tolerance: (1, 0),
    classify: |_, _| "atacontrol-smart",
    ..spec::Recogniser::NONE
};

/// `atacontrol smart adN` (FreeBSD before 9, with the patch): no live capture (diskdoc runs
/// smartctl).
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Freebsd),
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste {
        one_drive: true,
        ..spec::Paste::new(&RECOGNISER, |p, t| p == "atacontrol" && t.contains("smart"))
    }),
    ..spec::SourceSpec::named("atacontrol-smart", "atacontrol smart")
};

#[cfg(test)]
mod tests;
