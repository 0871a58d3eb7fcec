//! df(1) listings (GNU `df -h`/`df -k`, BSD `df -k`): "Filesystem Size Used Avail Use%
//! Mounted on" and one row per mount. Only recognised in pastes (explain reads the rows
//! itself to see which filesystem a path lives on); the live probes read mountinfo and
//! `mount -p` instead.

use crate::sources::spec;

crate::rx!(
    DF_HDR,
    r"^Filesystem\s+(Size|1K-blocks|1024-blocks|512-blocks|1M-blocks)\s+Used\s+Avail"
);
crate::rx!(
    DF_ROW,
    r"^\S+\s+[\d.,]+[KMGTPE]?i?\s+[\d.,]+[KMGTPE]?i?\s+-?[\d.,]+[KMGTPE]?i?\s+\d+%\s+/\S*\s*$"
);

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "df",
    starts: &[(220, |l| {
        spec::on_first(l, |t| {
            DF_HDR.is_match(t) || (DF_ROW.is_match(t) && t.starts_with("/dev/"))
        })
    })],
    member: |t, _| spec::Member::from(DF_HDR.is_match(t) || DF_ROW.is_match(t)),
    classify: |_, _| "df",
    ..spec::Recogniser::NONE
};

/// df(1).
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    paste: Some(spec::Paste::new(&RECOGNISER, |p, _| p == "df")),
    programs: &[spec::Program::new("df", spec::listing_args)],
    ..spec::SourceSpec::named("df", "df")
};
