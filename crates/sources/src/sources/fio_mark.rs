//! `fio_mark.sh` (github.com/bihell/fio, a CrystalDiskMark-like fio script written for
//! TrueNAS SCALE): it echoes "Executing Default test:" (or "SSD", "ALL"), runs fio with
//! `--direct=1 --ioengine=libaio --output-format=json` on a directory, prints the jq
//! summary lines ("read,RND4K-Q1T1,read,bw,1319") and then an awk table: a header of
//! "%15s" fields "Read [MB/s]  Read [IOPS]  [Read [LAT_ns]]  Write [MB/s]  Write [IOPS]
//! [Write [LAT_ns]]" (the LAT_ns columns in later versions) and one row per job label
//! ("SEQ1M-Q8T1", "RND4K-Q32T1", "SEQ1M-Q1T1", "RND4K-Q1T1", "SEQ128K-Q32T1",
//! "RND4K-Q32T16"). MB/s is fio's bw (KiB/s) / 1024, floored: MiB/s.
//!
//! The test files live on the filesystem under test; on ZFS before OpenZFS 2.3 O_DIRECT is
//! accepted and ignored, so reads of a file that fits the ARC come from RAM.

use crate::sources::{spec, util};

/// One row of the table.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MarkRow {
    /// "RND4K-Q1T1".
    pub label: String,
    /// Block size in bytes, queue depth and threads from the label.
    pub block_bytes: u64,
    pub queue_depth: u32,
    pub threads: u32,
    /// MiB/s.
    pub read_mibs: Option<f64>,
    pub write_mibs: Option<f64>,
}

crate::rx!(HEADER_COL, r"(Read|Write) \[(MB/s|IOPS|LAT_ns)\]");
crate::rx!(
    ROW,
    r"^(SEQ|RND)(\d+)([KM])-Q(\d+)T(\d+)((?:\s+\d+(?:\.\d+)?){2,6})\s*$"
);
crate::rx!(
    JQ_LINE,
    r"^(?:read|write),(?:SEQ|RND)\d+[KM]-Q\d+T\d+,(?:read|write),(?:bw|io|lat_ns),\d+\s*$"
);
crate::rx!(ECHO, r"^Executing (?:Default|SSD|ALL) test:\s*$");

/// The header: four to six "%15s" columns (about 64-94 columns wide); a mail client that
/// re-wraps at 72 leaves the first three or four on the line, which is enough to place
/// the MB/s columns (Read first, Write third).
fn is_header(t: &str) -> bool {
    HEADER_COL.find_iter(t).count() >= 3 && t.starts_with("Read [")
}

/// The rows under every table header of the text.
pub fn parse(text: &str) -> Vec<MarkRow> {
    let mut out = Vec::new();
    let mut cols: Vec<(String, String)> = Vec::new();
    for raw in text.lines() {
        let c = util::clean_line(raw);
        let t = c.trim();
        if is_header(t) {
            cols = HEADER_COL
                .captures_iter(t)
                .filter_map(|c| {
                    Some((
                        c.get(1)?.as_str().to_string(),
                        c.get(2)?.as_str().to_string(),
                    ))
                })
                .collect();
            continue;
        }
        let Some(cap) = ROW.captures(t) else { continue };
        if cols.is_empty() {
            continue;
        }
        let g = |i: usize| cap.get(i).map(|m| m.as_str()).unwrap_or("");
        let unit: u64 = if g(3) == "M" { 1 << 20 } else { 1 << 10 };
        let Some(block_bytes) = g(2).parse::<u64>().ok().and_then(|n| n.checked_mul(unit)) else {
            continue;
        };
        let (Ok(queue_depth), Ok(threads)) = (g(4).parse::<u32>(), g(5).parse::<u32>()) else {
            continue;
        };
        let nums: Vec<f64> = g(6)
            .split_whitespace()
            .filter_map(|v| v.parse().ok())
            .collect();
        let find = |dir: &str| {
            cols.iter()
                .position(|(d, u)| d == dir && u == "MB/s")
                .and_then(|i| nums.get(i).copied())
        };
        out.push(MarkRow {
            label: format!("{}{}{}-Q{}T{}", g(1), g(2), g(3), g(4), g(5)),
            block_bytes,
            queue_depth,
            threads,
            read_mibs: find("Read"),
            write_mibs: find("Write"),
        });
    }
    out
}

// ---- the source spec (see sources::spec) ----

fn clean(t: &str) -> String {
    util::clean_line(t).trim().to_string()
}

fn start(lines: &[&str]) -> spec::Start {
    let first = lines.first().map(|l| clean(l)).unwrap_or_default();
    let next = |re: &regex::Regex| lines.get(1).is_some_and(|n| re.is_match(&clean(n)));
    // The table's header with a row under it; the script's echo or a jq summary line with
    // another line of the script's under it.
    spec::Start::from(
        (is_header(&first) && next(&ROW))
            || ((ECHO.is_match(&first) || JQ_LINE.is_match(&first))
                && lines.get(1).is_some_and(|n| {
                    let n = clean(n);
                    is_header(&n) || JQ_LINE.is_match(&n)
                })),
    )
}

fn member(l: &str, _: &spec::BlockState) -> spec::Member {
    let t = clean(l);
    spec::Member::from(
        is_header(&t) || ROW.is_match(&t) || JQ_LINE.is_match(&t) || ECHO.is_match(&t),
    )
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "fio_mark",
    starts: &[(60, start)],
    member,
    tolerance: (1, 0),
    classify: |_, _| "fio-mark",
    ..spec::Recogniser::NONE
};

/// bihell/fio's `fio_mark.sh` table: pasted as a benchmark.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, _| {
        p.ends_with("fio_mark.sh")
    })),
    ..spec::SourceSpec::named("fio-mark", "fio_mark.sh (bihell/fio)")
};

#[cfg(test)]
mod tests;
