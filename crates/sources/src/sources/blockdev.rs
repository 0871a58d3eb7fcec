//! `blockdev --report` (util-linux disk-utils/blockdev.c): a header "RO    RA   SSZ   BSZ
//! StartSec            Size   Device" and one row per device, printed by report_device as
//! "%s %5ld %5d %5d %10ju %15ju   %s": read-only flag (ro/rw), read-ahead in 512-byte
//! sectors, logical sector size (BLKSSZGET), the block layer's buffer size (BLKBSZGET, not
//! the physical sector), the start from sysfs "start" (in 512-byte units whatever the logical
//! sector size, block/partitions/core.c part_start_show) and the size in bytes. A whole disk
//! starts at 0; a partition's start is where its alignment is read.

use crate::sources::spec;
use crate::sources::util::clean_line;

crate::rx!(
    HEADER,
    r"^RO\s+RA\s+SSZ\s+BSZ\s+StartSec\s+Size\s+Device\s*$"
);
crate::rx!(
    ROW,
    r"^(ro|rw)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(/dev/\S+)\s*$"
);

/// One row of the report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// The kernel name ("sda1"), without /dev/.
    pub name: String,
    pub logical_sector_bytes: u32,
    /// The start in 512-byte units.
    pub start_512: u64,
    pub size_bytes: u64,
    pub line: String,
}

fn row(raw: &str) -> Option<Row> {
    let l = clean_line(raw);
    let l = l.trim();
    let c = ROW.captures(l)?;
    // RA (read-ahead, 512-byte sectors) and BSZ are not kept, but a row whose numbers do not
    // fit their types is not blockdev's output.
    c.get(2)?.as_str().parse::<u64>().ok()?;
    c.get(4)?.as_str().parse::<u32>().ok()?;
    Some(Row {
        name: spec::strip_dev(c.get(7)?.as_str()),
        logical_sector_bytes: c.get(3)?.as_str().parse().ok()?,
        start_512: c.get(5)?.as_str().parse().ok()?,
        size_bytes: c.get(6)?.as_str().parse().ok()?,
        line: l.to_string(),
    })
}

/// Every row of the report (rows that do not parse are skipped).
pub fn parse(text: &str) -> Vec<Row> {
    text.lines().filter_map(row).collect()
}

fn is_header(raw: &str) -> bool {
    HEADER.is_match(clean_line(raw).trim())
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "blockdev-report",
    starts: &[(68, |l| {
        spec::Start::from(
            l.first().is_some_and(|t| is_header(t)) && l.get(1).is_some_and(|n| row(n).is_some()),
        )
    })],
    member: |t, _| spec::Member::from(row(t).is_some()),
    classify: |_, _| "blockdev-report",
    ..spec::Recogniser::NONE
};

/// `blockdev --report`: pasted, not captured live.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Linux),
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, a| {
        p == "blockdev" && a.contains("--report")
    })),
    programs: &[spec::Program {
        names_device: false,
        ..spec::Program::new("blockdev", |a| a.starts_with('-'))
    }],
    ..spec::SourceSpec::named("blockdev-report", "blockdev --report")
};

#[cfg(test)]
mod tests;
