//! Lines of `hdparm -I` picked out per drive by a shell loop, each behind the drive's path:
//! `for d in /dev/disk/by-id/ata-*; do echo -n "$d: "; hdparm -I $d | grep -i trim; done`
//! prints "/dev/disk/by-id/ata-CT1000MX500SSD1_1822E14105DA:   *    Data Set Management TRIM
//! supported (limit 8 blocks)". The feature lines are hdparm's (hdparm.c identify(): the
//! "Commands/features" and "Enabled Supported:" list, a "*" marking an enabled feature,
//! and the TRIM lines "Data Set Management TRIM supported (limit N blocks)", "Deterministic
//! read ZEROs after TRIM"). Read for which drive supports TRIM.

use crate::sources::spec;
use crate::sources::util::clean_line;

crate::rx!(
    LINE,
    r"^(/dev/[\w/.:+@-]+?):\s+(\*\s+)?((?:Data Set Management TRIM supported|Deterministic read (?:ZEROs|data) after TRIM|[A-Z][\w /().-]{2,60}?(?:supported|enabled))\b.*)$"
);

/// (device path, feature line) per line.
pub fn parse(text: &str) -> Vec<(String, String)> {
    text.lines()
        .filter_map(|l| {
            let line = clean_line(l);
            let c = LINE.captures(line.trim())?;
            Some((
                c.get(1)?.as_str().to_string(),
                c.get(3)?.as_str().to_string(),
            ))
        })
        .collect()
}

/// Whether the lines say the drive at `dev` supports TRIM (ATA IDENTIFY word 169 bit 0,
/// printed by hdparm as "Data Set Management TRIM supported"). Only the tests ask it.
#[cfg(test)]
pub fn trim_supported(text: &str) -> Vec<String> {
    parse(text)
        .into_iter()
        .filter(|(_, f)| f.contains("TRIM supported"))
        .map(|(d, _)| d)
        .collect()
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "hdparm-I-grep",
    starts: &[(240, |l| spec::on_first(l, |t| LINE.is_match(t.trim())))],
    member: |t, _| spec::Member::from(LINE.is_match(t.trim())),
    tolerance: (1, 0),
    classify: |_, _| "hdparm-I-grep",
    ..spec::Recogniser::NONE
};

/// The loop's lines: no live capture (diskdoc reads the IDENTIFY words itself).
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Linux),
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, _| p == "hdparm")),
    ..spec::SourceSpec::named("hdparm-I-grep", "hdparm -I | grep, per drive")
};

#[cfg(test)]
mod tests;
