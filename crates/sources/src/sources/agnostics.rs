//! The SD card speed test of Raspberry Pi Diagnostics (raspberrypi-ui/agnostics,
//! data/sdtest.sh with data/sd_bench.fio), pasted from its log or its window. The script runs
//! fio on the job file and prints fio's terse fields 3, 7, 8, 48 and 49 (job name, read KiB/s,
//! read IOPS, write KiB/s, write IOPS) one job a line, then its verdicts:
//!
//! ```text
//! prepare-file;0;0;179550;350
//! seq-write;0;0;179550;350
//! rand-4k-write;0;0;4380;1095
//! rand-4k-read;11636;2909;0;0
//! Sequential write speed 179550 KB/sec (target 10000) - PASS
//! Random write speed 1095 IOPS (target 500) - PASS
//! Random read speed 2909 IOPS (target 1500) - PASS
//! ```
//!
//! (older versions print the verdicts without a unit, "Sequential write speed 179550 (target
//! 10000) - PASS"; the looping one "Run 1" above each run). sd_bench.fio: libaio, iodepth=4,
//! direct=1, end_fsync=1, a 64 MiB file; seq-write is rw=write in 512 KiB blocks, the random
//! jobs rw=randwrite and rw=randread in 4 KiB blocks. fio's terse bandwidth is KiB/s.

use crate::model::UserBenchmark;
use crate::sources::spec;

/// One measured job.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SdJob {
    /// "seq-write", "rand-4k-write", "rand-4k-read".
    pub job: &'static str,
    pub bytes_per_sec: f64,
}

/// The queue depth of every job of sd_bench.fio.
const IODEPTH: u32 = 4;

crate::rx!(
    TERSE,
    r"^\s*(prepare-file|seq-write|rand-4k-write|rand-4k-read);(\d+);(\d+);(\d+);(\d+)\s*$"
);
crate::rx!(
    VERDICT,
    r"(?i)^\s*(Sequential write|Random write|Random read) speed (\d+)\s*(?:KB/sec|kb/s|IOPS)?\s*\(target \d+\) - (?:PASS|FAIL)\s*$"
);
crate::rx!(RUN, r"^\s*Run \d+\s*$");
// The script's own frame (agnostics' sdtest.sh): its banner, the date(1) line after it, the
// test's title and its overall verdict; part of the block, never a figure.
crate::rx!(
    FRAME,
    r"^\s*(?:Raspberry Pi Diagnostics - version [\d.]+|Test : SD Card Speed Test|Test (?:PASS|FAIL)|(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) \w{3} +\d+ [\d:]+ \d{4})\s*$"
);

fn n(m: Option<regex::Match>) -> Option<f64> {
    m?.as_str().parse::<f64>().ok().filter(|v| v.is_finite())
}

/// The measured jobs of a paste: the terse lines when they are there (they carry the
/// bandwidth of the random jobs too), else the verdict lines.
pub(crate) fn parse(text: &str) -> Vec<SdJob> {
    let mut terse = Vec::new();
    let mut verdicts = Vec::new();
    for l in text.lines() {
        let line = crate::sources::util::clean_line(l);
        if let Some(c) = TERSE.captures(&line) {
            let job = match c.get(1).map(|m| m.as_str()) {
                Some("seq-write") => "seq-write",
                Some("rand-4k-write") => "rand-4k-write",
                Some("rand-4k-read") => "rand-4k-read",
                _ => continue,
            };
            let (rbw, wbw) = (n(c.get(2)), n(c.get(4)));
            let kib = if job == "rand-4k-read" { rbw } else { wbw };
            if let Some(k) = kib.filter(|k| *k > 0.0) {
                terse.push(SdJob {
                    job,
                    bytes_per_sec: k * 1024.0,
                });
            }
        } else if let Some(c) = VERDICT.captures(&line) {
            let what = c.get(1).map(|m| m.as_str().to_ascii_lowercase());
            let Some(v) = n(c.get(2)).filter(|v| *v > 0.0) else {
                continue;
            };
            // The sequential verdict is KiB/s; the random ones are IOPS of 4 KiB.
            let (job, bps) = match what.as_deref() {
                Some("sequential write") => ("seq-write", v * 1024.0),
                Some("random write") => ("rand-4k-write", v * 4096.0),
                _ => ("rand-4k-read", v * 4096.0),
            };
            verdicts.push(SdJob {
                job,
                bytes_per_sec: bps,
            });
        }
    }
    if terse.is_empty() { verdicts } else { terse }
}

/// The jobs as pasted benchmarks (tool "Raspberry Pi Diagnostics"): the 512 KiB sequential
/// write (`rw=write`) and the 4 KiB random jobs at queue depth 4.
pub fn benchmarks(text: &str, from: &str) -> Vec<UserBenchmark> {
    parse(text)
        .into_iter()
        .map(|j| {
            let (block, rw) = match j.job {
                "seq-write" => (512 << 10, "write"),
                "rand-4k-write" => (4096, "randwrite"),
                _ => (4096, "randread"),
            };
            UserBenchmark {
                tool: "Raspberry Pi Diagnostics".into(),
                command: Some(format!("fio sd_bench.fio [{}]", j.job)),
                block_size_bytes: Some(block),
                bytes: Some(64 << 20),
                bytes_per_sec: Some(j.bytes_per_sec),
                flags: vec![
                    "direct=1".into(),
                    format!("rw={rw}"),
                    format!("iodepth={IODEPTH}"),
                ],
                from: from.to_string(),
                ..Default::default()
            }
        })
        .collect()
}

// ---- the source spec (see sources::spec) ----

/// A pasted SD card speed test of Raspberry Pi Diagnostics.
pub const SPEC: spec::SourceSpec = spec::SourceSpec::measurement(
    "agnostics-sdtest",
    "Raspberry Pi Diagnostics SD card speed test",
    &RECOGNISER,
    |t| parse(t).len(),
);

static RECOGNISER: spec::Recogniser = spec::Recogniser::table(
    "agnostics-sdtest",
    &[(162, starts)],
    |t, _| {
        let t = crate::sources::util::clean_line(t);
        spec::Member::from(is_line(&t) || RUN.is_match(&t) || FRAME.is_match(&t))
    },
    |_, _| "agnostics-sdtest",
);

fn is_line(t: &str) -> bool {
    TERSE.is_match(t) || VERDICT.is_match(t)
}

/// Two of the script's lines start it (a "Run N" heading counts before them), or its banner
/// with them in the lines after it.
fn starts(lines: &[&str]) -> spec::Start {
    let line = |i: usize| {
        lines
            .get(i)
            .map(|l| crate::sources::util::clean_line(l))
            .unwrap_or_default()
    };
    let first = line(0);
    if FRAME.is_match(&first) && first.contains("Diagnostics") {
        // The banner starts the block when the script's lines follow within its frame.
        return spec::Start::from((1..8).any(|i| is_line(&line(i))));
    }
    spec::Start::from((is_line(&first) || RUN.is_match(&first)) && is_line(&line(1)))
}

#[cfg(test)]
mod tests;
