//! ioping(1) (koct9i/ioping): "simple disk I/O latency monitoring tool", the ping of
//! storage. It issues one small request at a time (4 KiB by default, one per second) to a
//! file, directory or device and prints each one's latency, then a summary. Reference:
//! ioping.c main(): per request "%s %s %s (%s %s %s): request=%d time=%s" (the size, "<<<"
//! for a read or ">>>" for a write, the path, then the filesystem type, the device and its
//! size), with " (warmup)", " (fast)" or " (slow)" after it; ioping 0.6-0.8 printed
//! "4096 bytes from . (ext4 /dev/sda3): request=1 time=0.2 ms". The summary is
//! "--- PATH (FSTYPE DEVICE SIZE) ioping statistics ---", "N requests completed in T, S
//! read, I iops, R/s", "generated N requests in T, ..." and "min/avg/max/mdev = A / B / C /
//! D" (each with its unit; 0.8 and older: "min/avg/max/mdev = 0.2/2.8/12.7/5.0 ms").
//!
//! What it measures is latency at queue depth one, with a pause between requests, so its
//! throughput figures are not a disk's speed (ioping.c counts the sleep in "generated ...");
//! only the per-request times and min/avg/max say something about the device.

use crate::sources::{spec, util};

/// One ioping run: the latencies it printed, in microseconds. (The target, device and
/// request size are in the same lines; nothing reads them yet, so they are not kept.)
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct IopingRun {
    /// The timed requests' latencies, warm-up left out (ioping leaves it out of its
    /// statistics too).
    pub latencies_us: Vec<f64>,
    /// The summary's min, avg, max and mdev.
    pub min_us: Option<f64>,
    pub avg_us: Option<f64>,
    pub max_us: Option<f64>,
    pub mdev_us: Option<f64>,
}

impl IopingRun {
    /// How many figures the run holds: its timed requests and its summary's values.
    pub(crate) fn figures(&self) -> usize {
        self.latencies_us.len()
            + [self.min_us, self.avg_us, self.max_us, self.mdev_us]
                .iter()
                .filter(|x| x.is_some())
                .count()
    }
}

crate::rx!(
    REQUEST,
    r"^(\d+(?:\.\d+)?) ?(B|KiB|MiB|GiB|bytes) (?:(<<<|>>>)|from) (\S+) \(([^)]*)\): request=\d+ time=(\d+(?:\.\d+)?) ?(ns|us|ms|s|min)\b"
);
crate::rx!(SUMMARY, r"^--- (\S+) \(([^)]*)\) ioping statistics ---$");
crate::rx!(
    COMPLETED,
    r"^\d+(?:\.\d+)?(?: [kMG])? requests completed in \d+(?:\.\d+)? ?(?:ns|us|ms|s|min)\b"
);
crate::rx!(
    GENERATED,
    r"^generated \d+(?:\.\d+)?(?: [kMG])? requests in \d"
);
crate::rx!(
    MINAVG,
    r"^min/avg/max/mdev = (\d+(?:\.\d+)?) ?(ns|us|ms|s)? ?/ ?(\d+(?:\.\d+)?) ?(ns|us|ms|s)? ?/ ?(\d+(?:\.\d+)?) ?(ns|us|ms|s)? ?/ ?(\d+(?:\.\d+)?) ?(ns|us|ms|s)$"
);

/// A time in microseconds from ioping's print_time units.
fn micros(n: &str, unit: &str) -> Option<f64> {
    let v: f64 = n.parse().ok()?;
    let f = match unit {
        "ns" => 0.001,
        "us" => 1.0,
        "ms" => 1000.0,
        "s" => 1_000_000.0,
        "min" => 60_000_000.0,
        _ => return None,
    };
    Some(v * f).filter(|x| x.is_finite())
}

/// Each line's text without a shell's mail quote or tabs.
fn line_kind(l: &str) -> Option<Kind> {
    let t = util::clean_line(l);
    let t = t.trim();
    if REQUEST.is_match(t) {
        Some(Kind::Request)
    } else if SUMMARY.is_match(t) {
        Some(Kind::Summary)
    } else if COMPLETED.is_match(t) || GENERATED.is_match(t) || MINAVG.is_match(t) {
        Some(Kind::Figure)
    } else if t == "^C" {
        Some(Kind::Interrupt)
    } else {
        None
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Request,
    Summary,
    Figure,
    Interrupt,
}

/// Every run in `text`: a new run starts at a request after a summary, or at a summary
/// after another summary's figures.
pub(crate) fn parse(text: &str) -> Vec<IopingRun> {
    let mut out: Vec<IopingRun> = Vec::new();
    let mut cur = IopingRun::default();
    let mut seen = false;
    let mut summarised = false;
    for raw in text.lines() {
        let c = util::clean_line(raw);
        let t = c.trim();
        if let Some(m) = REQUEST.captures(t) {
            if summarised {
                out.push(std::mem::take(&mut cur));
                summarised = false;
            }
            seen = true;
            let g = |i: usize| m.get(i).map_or("", |x| x.as_str());
            // ioping.c: the first request is "(warmup)" and left out of the statistics.
            if !t.ends_with("(warmup)")
                && let Some(us) = micros(g(6), g(7))
            {
                cur.latencies_us.push(us);
            }
        } else if SUMMARY.is_match(t) {
            if summarised {
                out.push(std::mem::take(&mut cur));
            }
            seen = true;
            summarised = true;
        } else if let Some(m) = MINAVG.captures(t) {
            seen = true;
            summarised = true;
            // ioping 0.8 and older print one unit after the four numbers.
            let last = m.get(8).map_or("", |x| x.as_str());
            let v = |n: usize, u: usize| {
                let unit = m.get(u).map_or(last, |x| x.as_str());
                m.get(n).and_then(|x| micros(x.as_str(), unit))
            };
            cur.min_us = v(1, 2);
            cur.avg_us = v(3, 4);
            cur.max_us = v(5, 6);
            cur.mdev_us = v(7, 8);
        } else if COMPLETED.is_match(t) || GENERATED.is_match(t) {
            seen = true;
            summarised = true;
        }
    }
    if seen {
        out.push(cur);
    }
    out
}

// ---- the source spec (see sources::spec) ----

/// A run starts at a request line or at its summary header (`ioping -q` and `-R` print
/// only the summary).
fn start(lines: &[&str]) -> spec::Start {
    let first = lines.first().and_then(|l| line_kind(l));
    let next = lines.get(1).and_then(|l| line_kind(l));
    spec::Start::from(match first {
        Some(Kind::Request) | Some(Kind::Summary) => true,
        // A summary pasted without its "---" header.
        Some(Kind::Figure) => matches!(next, Some(Kind::Figure)),
        _ => false,
    })
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "ioping",
    starts: &[(40, start)],
    member: |l, _| spec::Member::from(line_kind(l).is_some()),
    // ioping prints a blank line before its summary.
    tolerance: (1, 0),
    classify: |_, _| "ioping",
    ..spec::Recogniser::NONE
};

/// ioping: pasted beside a question, not captured by a probe.
pub const SPEC: spec::SourceSpec = spec::pasted_only!(
    "ioping",
    "ioping",
    None,
    &RECOGNISER,
    parse: |t| parse(t).iter().map(IopingRun::figures).sum(),
    secrets: &[],
    // Its operand is a file, directory or device as often as flags.
    args: |_| true,
);

#[cfg(test)]
mod tests;
