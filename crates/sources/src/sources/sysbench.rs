//! `sysbench fileio` (akopytov/sysbench, src/tests/fileio/sb_fileio.c): a file I/O
//! benchmark over a set of prepared files. Two report formats:
//! - 0.4.x: the banner "sysbench 0.4.12:  multi-threaded system evaluation benchmark",
//!   then "Operations performed:  0 Read, 1024 Write, 0 Other = 1024 Total" and
//!   "Read 0b  Written 2Gb  Total transferred 2Gb  (177.56Mb/sec)" (file_print_stats,
//!   sizes by sb_print_value's b/Kb/Mb/Gb, binary units);
//! - 1.x: the banner "sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)", then
//!   "File operations:" with "reads/s:", "writes/s:", "fsyncs/s:" and "Throughput:" with
//!   "read, MiB/s:" and "written, MiB/s:".
//!
//! What the figures mean depends on options the report does not print (--file-extra-flags=
//! direct, --file-fsync-freq): a healthy disk's rate is read here, not judged.

use crate::sources::{spec, util};

/// One run's throughput.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct FileioRun {
    /// Bytes per second read and written.
    pub read_bps: Option<f64>,
    pub write_bps: Option<f64>,
}

crate::rx!(
    BANNER,
    r"^sysbench (?:\d+\.\d+(?:\.\d+)?:\s+multi-threaded system evaluation benchmark|\d+\.\d+\.\d+\S* \(using (?:system|bundled) LuaJIT)"
);
crate::rx!(
    OLD_TOTAL,
    r"^Read ([\d.]+)([KMGT]?b)\s+Written ([\d.]+)([KMGT]?b)\s+Total transferred [\d.]+[KMGT]?b\s+\(([\d.]+)([KMGT]?b)/sec\)"
);
crate::rx!(
    OLD_OPS,
    r"^Operations performed:\s+\d+ Reads?, \d+ Writes?, \d+ Other = \d+ Total"
);
crate::rx!(
    NEW_LINE,
    r"^(?:File operations:|Throughput:|reads/s:\s+[\d.]+|writes/s:\s+[\d.]+|fsyncs/s:\s+[\d.]+|read, MiB/s:\s+[\d.]+|written, MiB/s:\s+[\d.]+)\s*$"
);
crate::rx!(NEW_MIBS, r"^(read|written), MiB/s:\s+([\d.]+)\s*$");
// Other lines of both formats: the options echo, the general statistics, the latency
// block ("Number of threads: 1", "total time:  10.0020s", "avg:  0.13").
crate::rx!(
    OTHER,
    r"^(?:Running the test with following options:|Number of threads:|Report intermediate results every|Warmup time:|Warming up for|Initializing worker threads|\[ \d+s \] reads:|response time:|\d+th percentile:|Initializing random number generator|Extra file open flags:|\d+ files?, [\d.]+[KMGT]i?B each|[\d.]+[KMGT]i?B total file size|Block size [\d.]+[KMGT]i?B|Number of (?:IO )?requests:|Read/Write ratio for combined|Periodic FSYNC enabled|Calling fsync\(\) at the end of test|Using (?:synchronous|asynchronous) I/O mode|Doing (?:sequential|random) \S|Threads started!|Done\.|Operations performed:|[\d.]+ Requests/sec executed|General statistics:|Test execution summary:|total time:|total number of events:|total time taken by event execution:|Latency \(ms\):|per-request statistics:|min:|avg:|max:|approx\.\s+95|95th percentile:|sum:|Threads fairness:|events \(avg/stddev\):|execution time \(avg/stddev\):)"
);

/// sb_print_value's units ("b", "Kb", "Mb", "Gb", "Tb"): powers of 1024.
fn old_bytes(v: &str, unit: &str) -> Option<f64> {
    let v: f64 = v.parse().ok()?;
    let mult = match unit {
        "b" => 1.0,
        "Kb" => 1024.0,
        "Mb" => 1024.0 * 1024.0,
        "Gb" => 1024.0 * 1024.0 * 1024.0,
        "Tb" => 1024.0 * 1024.0 * 1024.0 * 1024.0,
        _ => return None,
    };
    Some(v * mult)
}

/// The runs of a paste: one per 0.4 total line, one per 1.x Throughput block.
pub(crate) fn parse(text: &str) -> Vec<FileioRun> {
    let mut out: Vec<FileioRun> = Vec::new();
    let mut open_new = false;
    for raw in text.lines() {
        let c = util::clean_line(raw);
        let t = c.trim();
        if let Some(cap) = OLD_TOTAL.captures(t) {
            let g = |i: usize| cap.get(i).map(|m| m.as_str()).unwrap_or("");
            let (read, written) = (old_bytes(g(1), g(2)), old_bytes(g(3), g(4)));
            let rate = old_bytes(g(5), g(6));
            // The rate is of the total: it is the write rate when nothing was read, the
            // read rate when nothing was written.
            out.push(FileioRun {
                read_bps: rate.filter(|_| written == Some(0.0)),
                write_bps: rate.filter(|_| read == Some(0.0)),
            });
            open_new = false;
            continue;
        }
        if t == "Throughput:" {
            out.push(FileioRun::default());
            open_new = true;
            continue;
        }
        if open_new
            && let Some(cap) = NEW_MIBS.captures(t)
            && let Some(run) = out.last_mut()
            && let Some(v) = cap.get(2).and_then(|v| v.as_str().parse::<f64>().ok())
        {
            let bps = Some(v * 1024.0 * 1024.0);
            match cap.get(1).map(|m| m.as_str()) {
                Some("read") => run.read_bps = bps,
                _ => run.write_bps = bps,
            }
        }
    }
    out
}

// ---- the source spec (see sources::spec) ----

fn clean(t: &str) -> String {
    util::clean_line(t).trim().to_string()
}

fn start(lines: &[&str]) -> spec::Start {
    let Some(first) = lines.first().map(|l| clean(l)) else {
        return spec::Start::No;
    };
    // The banner, or a report's own result line (an excerpt without the banner): the
    // 0.4 total line, the 1.x "File operations:" with its reads/s under it.
    let next_is = |re: &regex::Regex| lines.get(1).is_some_and(|n| re.is_match(&clean(n)));
    spec::Start::from(
        BANNER.is_match(&first)
            || OLD_TOTAL.is_match(&first)
            || OLD_OPS.is_match(&first)
            || (first == "Running the test with following options:"
                && lines
                    .get(1)
                    .is_some_and(|n| clean(n).starts_with("Number of threads:")))
            || (first == "File operations:" && next_is(&NEW_LINE)),
    )
}

fn member(l: &str, _: &spec::BlockState) -> spec::Member {
    let t = clean(l);
    spec::Member::from(
        BANNER.is_match(&t)
            || OLD_TOTAL.is_match(&t)
            || NEW_LINE.is_match(&t)
            || OTHER.is_match(&t)
            // An excerpt's elision mark between the report's lines.
            || t == "...",
    )
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "sysbench",
    starts: &[(60, start)],
    member,
    tolerance: (2, 2),
    classify: |_, _| "sysbench",
    ..spec::Recogniser::NONE
};

/// `sysbench fileio`: pasted as a benchmark; nothing probes it live.
pub const SPEC: spec::SourceSpec = spec::pasted_only!(
    "sysbench",
    "sysbench fileio",
    None,
    &RECOGNISER,
    parse: |t| parse(t).len(),
    secrets: &[],
    // "sysbench --test=fileio ... run" (0.4), "sysbench fileio --file-test-mode=... run" (1.x).
    args: |a| a.starts_with('-') || a.starts_with("fileio"),
);

#[cfg(test)]
mod tests;
