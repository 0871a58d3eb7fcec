//! MinIO's `mc support top disk ALIAS` (the mc client, cmd/support-top-disk*.go): a live
//! table of every drive of a MinIO deployment, refreshed in place, one row per drive path
//! with the drive's own block-device counters over the last interval, the same quantities
//! as `iostat -x` (the server reads them from /proc/diskstats):
//!
//! ```text
//!        DISK             USED     TPS        READ           WRITE          DISCARD         AWAIT           UTIL
//!  /data/disk1            36%     322     0.02 MiB/s      1.95 MiB/s      0.00 MiB/s      443.6 ms        100.0%
//! ```
//!
//! USED is the drive's filled share, TPS its transfers per second, READ/WRITE/DISCARD its
//! rates, AWAIT the mean time a request took and UTIL the share of the interval the drive
//! had a request in flight. mc marks some paths with a trailing "!" or "*" (the drive's state
//! in the deployment); the marker is not part of the path. The rows are read as iostat
//! samples so the drives' busy time reaches disk-busy like any iostat row.

use crate::sources::iostat::IostatSample;
use crate::sources::{spec, util};

crate::rx!(
    HEADER,
    r"^\s*DISK\s+USED\s+TPS\s+READ\s+WRITE\s+(?:DISCARD\s+)?AWAIT\s+UTIL\s*$"
);
crate::rx!(
    ROW,
    r"^\s*(\S+?)[!*]?\s+(\d+(?:\.\d+)?)%\s+(\d+(?:\.\d+)?)\s+(\d+(?:\.\d+)?)\s*([KMG]iB)/s\s+(\d+(?:\.\d+)?)\s*([KMG]iB)/s\s+(?:\d+(?:\.\d+)?\s*[KMG]iB/s\s+)?(\d+(?:\.\d+)?)\s*(ms|µs|us|s)\s+(\d+(?:\.\d+)?)%\s*$"
);

// A mail client re-wrapping the 120-column table at 72 columns breaks the header after
// its first words and each row before AWAIT or UTIL: the head and the tail are read as one
// line again.
crate::rx!(HEADER_HEAD, r"^\s*DISK\s+USED\s+TPS\s+READ\s+WRITE\b");
crate::rx!(
    ROW_HEAD,
    r"^\s*\S+?[!*]?\s+\d+(?:\.\d+)?%\s+\d+(?:\.\d+)?\s+\d+(?:\.\d+)?\s*[KMG]iB/s\b"
);
crate::rx!(
    ROW_TAIL,
    r"^\s*(?:\d+(?:\.\d+)?\s*[KMG]iB/s\s+)*(?:\d+(?:\.\d+)?\s*(?:ms|µs|us|s)\s+)?\d+(?:\.\d+)?%\s*$"
);

/// The rows of `text` with a wrapped row's tail joined back to its head.
fn unwrapped(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for raw in text.lines() {
        let l = util::clean_line(raw);
        if let Some(prev) = out.last_mut()
            && row(prev).is_none()
            && ROW_HEAD.is_match(prev)
            && ROW_TAIL.is_match(&l)
        {
            prev.push(' ');
            prev.push_str(l.trim());
            continue;
        }
        out.push(l.to_string());
    }
    out
}

/// KiB per unit of mc's humanised rates.
fn kib(unit: &str) -> f64 {
    match unit {
        "KiB" => 1.0,
        "GiB" => 1024.0 * 1024.0,
        _ => 1024.0,
    }
}

/// One drive's row as an iostat sample (layout "mc-top-disk"); None for other lines.
pub fn row(line: &str) -> Option<IostatSample> {
    let l = util::clean_line(line);
    let c = ROW.captures(&l)?;
    let g = |i: usize| c.get(i).map_or("", |m| m.as_str());
    let num = |i: usize| g(i).parse::<f64>().ok().filter(|v| v.is_finite());
    let await_ms = num(8).map(|v| match g(9) {
        "s" => v * 1000.0,
        "µs" | "us" => v / 1000.0,
        _ => v,
    });
    Some(IostatSample {
        device: g(1).to_string(),
        report: 0,
        kb_per_transfer: None,
        transfers_per_sec: num(3),
        mb_per_sec: None,
        reads_per_sec: None,
        writes_per_sec: None,
        read_kb_per_sec: num(4).map(|v| v * kib(g(5))),
        write_kb_per_sec: num(6).map(|v| v * kib(g(7))),
        await_ms,
        busy_pct: num(10).map(|v| v.clamp(0.0, 100.0)),
        queue_len: None,
        layout: "mc-top-disk",
    })
}

/// Every drive row of the table, in order (a refreshed table pasted twice keeps both).
pub fn parse(text: &str) -> Vec<IostatSample> {
    unwrapped(text).iter().filter_map(|l| row(l)).collect()
}

// ---- the source spec (see sources::spec) ----

fn start(lines: &[&str]) -> spec::Start {
    let first = util::clean_line(lines.first().copied().unwrap_or(""));
    let next = util::clean_line(lines.get(1).copied().unwrap_or(""));
    spec::Start::from(
        HEADER.is_match(&first)
            || HEADER_HEAD.is_match(&first)
            || (row(&first).is_some() && row(&next).is_some())
            || (ROW_HEAD.is_match(&first) && ROW_TAIL.is_match(&next)),
    )
}

fn is_member(l: &str) -> bool {
    let t = util::clean_line(l);
    HEADER.is_match(&t)
        || HEADER_HEAD.is_match(&t)
        || row(&t).is_some()
        || ROW_HEAD.is_match(&t)
        || ROW_TAIL.is_match(&t)
        // The header's wrapped tail ("AWAIT UTIL", "DISCARD AWAIT UTIL").
        || (!t.trim().is_empty()
            && t.split_whitespace().all(|w| ["DISCARD", "AWAIT", "UTIL"].contains(&w)))
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "mc-top-disk",
    starts: &[(66, start)],
    member: |l, _| spec::Member::from(is_member(l)),
    tolerance: (1, 0),
    classify: |_, _| "mc-top-disk",
    ..spec::Recogniser::NONE
};

/// `mc support top disk`: pasted beside a question, not captured by a probe.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, a| {
        p == "mc" && a.split_whitespace().take(3).eq(["support", "top", "disk"])
    })),
    programs: &[spec::Program {
        names_device: false,
        ..spec::Program::new("mc", |a| a.starts_with("support top"))
    }],
    ..spec::SourceSpec::named("mc-top-disk", "mc support top disk (MinIO)")
};

#[cfg(test)]
mod tests;
