//! biolatency, the block I/O latency histogram of the BPF tools: bcc's tools/biolatency.py
//! (iovisor/bcc; man/man8/biolatency.8) and bpftrace's tools/biolatency.bt.
//!
//! bcc prints each histogram with table.py print_log2_hist: a header
//! "     msecs               : count     distribution" ("usecs" by default, "msecs" with -m;
//! "nsecs" in some forks), then one row per power-of-two bucket, "%20d -> %-20d : %-8d
//! |%-40s|" (low, high, count, stars). -T prints the time ("13:05:45") before each
//! interval's histogram, -D "disk = sda" before each disk's, -F "flags = Write".
//! bpftrace prints "@usecs:" and rows "[256, 512)    11 |@@@@   |", the bounds with K/M/G
//! suffixes (powers of 1024: "[1K, 2K)"), a lone "[0]" or "[1]" for the smallest buckets
//! (bpftrace src/output.cpp hist_index_label).
//!
//! The histogram is a device's completion times as the block layer saw them (issue to
//! completion): a bucket starting at one second or more holds I/Os that stalled.

use crate::sources::spec;

/// One bucket: its bounds in nanoseconds (high exclusive) and how many I/Os fell in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bucket {
    pub low_ns: u64,
    pub high_ns: u64,
    pub count: u64,
}

/// One histogram: its disk (-D) when named, and its buckets.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Histogram {
    pub disk: Option<String>,
    pub buckets: Vec<Bucket>,
}

impl Histogram {
    /// I/Os in buckets that start at `ns` or later.
    pub fn count_from(&self, ns: u64) -> u64 {
        self.buckets
            .iter()
            .filter(|b| b.low_ns >= ns)
            .fold(0u64, |a, b| a.saturating_add(b.count))
    }
    /// The lowest bound of the slowest non-empty bucket.
    pub fn slowest_ns(&self) -> Option<u64> {
        self.buckets
            .iter()
            .filter(|b| b.count > 0)
            .map(|b| b.low_ns)
            .max()
    }
}

crate::rx!(
    BCC_HEADER,
    r"^\s*(nsecs|usecs|msecs)\s+:\s+count\s+distribution\s*$"
);
crate::rx!(
    BCC_ROW,
    r"^\s*(\d+)\s+->\s+(\d+)\s+:\s+(\d+)\s+\|[*\s]*\|?\s*$"
);
crate::rx!(
    BT_HEADER,
    r"^@(nsecs|usecs|msecs|ns|us|ms)(?:\[[^\]]*\])?:\s*$"
);
crate::rx!(
    BT_ROW,
    r"^\[(\d+)([KMG]?)(?:,\s*(\d+)([KMG]?)\))?\]?\s+(\d+)\s+\|[@\s]*\|?\s*$"
);
crate::rx!(DISK, r"^\s*disk\s*=\s*'?([\w./-]+)'?\s*$");

/// Nanoseconds per unit of a header.
fn unit_ns(u: &str) -> u64 {
    match u {
        "nsecs" | "ns" => 1,
        "msecs" | "ms" => 1_000_000,
        _ => 1_000,
    }
}

/// bpftrace's bound suffix: powers of 1024 (src/output.cpp).
fn scaled(n: &str, suffix: &str) -> Option<u64> {
    let n: u64 = n.parse().ok()?;
    let m: u64 = match suffix {
        "K" => 1 << 10,
        "M" => 1 << 20,
        "G" => 1 << 30,
        _ => 1,
    };
    n.checked_mul(m)
}

/// Every histogram of `text`, in order.
pub fn parse(text: &str) -> Vec<Histogram> {
    let mut out: Vec<Histogram> = Vec::new();
    let mut unit: Option<u64> = None;
    let mut disk: Option<String> = None;
    for raw in text.lines() {
        let l = crate::sources::util::clean_line(raw);
        if let Some(c) = DISK.captures(&l) {
            disk = c.get(1).map(|m| m.as_str().to_string());
            continue;
        }
        if let Some(u) = BCC_HEADER
            .captures(&l)
            .or_else(|| BT_HEADER.captures(l.trim()))
            .and_then(|c| c.get(1))
        {
            unit = Some(unit_ns(u.as_str()));
            out.push(Histogram {
                disk: disk.clone(),
                buckets: Vec::new(),
            });
            continue;
        }
        let (Some(u), Some(h)) = (unit, out.last_mut()) else {
            continue;
        };
        let bounds = if let Some(c) = BCC_ROW.captures(&l) {
            let n = |i: usize| c.get(i).and_then(|m| m.as_str().parse::<u64>().ok());
            // bcc's high bound is inclusive ("2 -> 3").
            n(1).zip(n(2).and_then(|x| x.checked_add(1))).zip(n(3))
        } else if let Some(c) = BT_ROW.captures(l.trim()) {
            let g = |i: usize| c.get(i).map_or("", |m| m.as_str());
            let low = scaled(g(1), g(2));
            let high = if c.get(3).is_some() {
                scaled(g(3), g(4))
            } else {
                low.and_then(|x| x.checked_add(1))
            };
            low.zip(high).zip(g(5).parse::<u64>().ok())
        } else {
            None
        };
        if let Some(((low, high), count)) = bounds
            && let (Some(low_ns), Some(high_ns)) = (low.checked_mul(u), high.checked_mul(u))
        {
            h.buckets.push(Bucket {
                low_ns,
                high_ns,
                count,
            });
        }
    }
    out.retain(|h| !h.buckets.is_empty());
    out
}

// ---- the source spec (see sources::spec) ----

fn is_header(t: &str) -> bool {
    BCC_HEADER.is_match(t) || BT_HEADER.is_match(t.trim())
}

fn is_member(t: &str) -> bool {
    let t = t.trim_end();
    is_header(t)
        || BCC_ROW.is_match(t)
        || BT_ROW.is_match(t.trim())
        || DISK.is_match(t)
        // -T's interval time, bcc's banner and bpftrace's.
        || t.trim().len() == 8 && t.trim().split(':').count() == 3
        || t.trim_start().starts_with("Tracing block device I/O")
        || t.trim_start().starts_with("Attaching ")
        || t.trim() == "^C"
}

/// A block opens on a header, or on the banner, -T's time or -D's disk with a header
/// within the next lines.
fn start(l: &[&str]) -> spec::Start {
    let found = l
        .iter()
        .take(5)
        .take_while(|t| t.trim().is_empty() || is_member(t))
        .any(|t| is_header(t));
    spec::Start::from(found && l.first().is_some_and(|t| is_member(t)))
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "biolatency",
    starts: &[(66, start)],
    member: |t, _| spec::Member::from(is_member(t)),
    tolerance: (1, 1),
    classify: |_, _| "biolatency",
    ..spec::Recogniser::NONE
};

/// The names the tool runs under: bcc's script, Debian/Ubuntu's "-bpfcc" package names
/// (biolatency-bpfcc), bpftrace's biolatency.bt.
pub(crate) fn is_bpf_tool(program: &str, tool: &str) -> bool {
    let p = program.rsplit('/').next().unwrap_or(program);
    p == tool
        || p.strip_prefix(tool)
            .is_some_and(|s| matches!(s, "-bpfcc" | ".bt" | ".py"))
}

/// biolatency (bcc, bpftrace): a block I/O latency histogram, pasted, captured by no probe.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, _| {
        is_bpf_tool(p, "biolatency")
    })),
    programs: &[spec::Program {
        names_device: false,
        ..spec::Program::new("biolatency", |a| !a.starts_with(['|', '>']))
    }],
    ..spec::SourceSpec::named("biolatency", "biolatency (BPF block I/O latency histogram)")
};

#[cfg(test)]
mod tests;
