//! The output of tdg5's dd block-size scripts dd_ibs_test.sh and dd_obs_test.sh (the blog
//! post "Tuning dd block size", github.com/tdg5/blog, _includes/scripts/; copied into many
//! answers and repositories). Both print a header with `printf "%8s : %s\n" 'block size'
//! 'transfer rate'` and one row per block size from 512 bytes to 64 MiB with the rate dd
//! printed, cut out of dd's summary by `grep --only-matching -E '[0-9.]+ ([MGk]?B|bytes)/s(ec)?'`
//! (so a decimal-comma locale's "2,9 GB/s" comes out as "9 GB/s"). dd_ibs_test.sh first
//! prints "Generating test file...", writes a 128 MiB file, then reads it back once per
//! block size; it drops the page cache between the reads only when run as root (`[ $EUID
//! -eq 0 ] && echo 3 > /proc/sys/vm/drop_caches`), and later versions warn on stderr "NOTE:
//! Kernel cache will not be cleared between tests without sudo".

use crate::sources::spec;

/// One row: the block size and the rate as printed.
#[derive(Debug, Clone, PartialEq)]
pub struct BsRow {
    pub block_bytes: u64,
    /// Bytes/s of the printed rate (dd's units: kB, MB, GB are powers of 1000).
    pub bytes_per_sec: Option<f64>,
}

/// One run of either script.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BsTest {
    /// "Generating test file..." came first: dd_ibs_test.sh, reading back the file it wrote.
    pub read_back: bool,
    /// The script's own warning that it runs without root and so keeps the page cache.
    pub cache_kept_note: bool,
    pub rows: Vec<BsRow>,
}

crate::rx!(HEADER, r"^\s*block size : transfer rate\s*$");
crate::rx!(
    ROW,
    r"^\s*(\d+) :(?: ([\d.]+) (kB|MB|GB|B|bytes)/s(?:ec)?)?\s*$"
);
const GENERATING: &str = "Generating test file...";
const NOTE: &str = "Kernel cache will not be cleared between tests without sudo";

/// The run in `text`, if it has the header and at least one row.
pub fn parse(text: &str) -> Option<BsTest> {
    let mut t = BsTest::default();
    let mut header = false;
    for l in text.lines() {
        let l = l.trim_end();
        if l.trim() == GENERATING {
            t.read_back = true;
        } else if l.contains(NOTE) {
            t.cache_kept_note = true;
        } else if HEADER.is_match(l) {
            header = true;
        } else if header && let Some(c) = ROW.captures(l) {
            let Some(block_bytes) = c.get(1).and_then(|m| m.as_str().parse::<u64>().ok()) else {
                continue;
            };
            let bytes_per_sec = match (c.get(2), c.get(3)) {
                (Some(n), Some(u)) => n
                    .as_str()
                    .parse::<f64>()
                    .ok()
                    .zip(crate::sources::util::unit_multiplier(u.as_str()))
                    .map(|(n, m)| n * m)
                    .filter(|v| v.is_finite()),
                _ => None,
            };
            t.rows.push(BsRow {
                block_bytes,
                bytes_per_sec,
            });
        }
    }
    (header && !t.rows.is_empty()).then_some(t)
}

fn start(lines: &[&str]) -> spec::Start {
    let first = lines.first().map(|l| l.trim()).unwrap_or("");
    let header_next = |n: usize| lines.iter().take(n).any(|l| HEADER.is_match(l));
    spec::Start::from(
        HEADER.is_match(first) || ((first == GENERATING || first.contains(NOTE)) && header_next(3)),
    )
}

fn is_member(t: &str) -> bool {
    let s = t.trim();
    HEADER.is_match(t) || ROW.is_match(t) || s == GENERATING || s.contains(NOTE)
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "dd-bs-test",
    starts: &[(67, start)],
    member: |t, _| spec::Member::from(is_member(t)),
    tolerance: (1, 1),
    classify: |_, _| "dd-bs-test",
    ..spec::Recogniser::NONE
};

/// dd_ibs_test.sh / dd_obs_test.sh: a measurement people paste, captured by no live probe.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    parse: Some(|t| parse(t).map_or(0, |r| r.rows.len())),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, _| {
        p.ends_with("dd_ibs_test.sh") || p.ends_with("dd_obs_test.sh")
    })),
    ..spec::SourceSpec::named("dd-bs-test", "dd_ibs_test.sh / dd_obs_test.sh")
};

#[cfg(test)]
mod tests;
