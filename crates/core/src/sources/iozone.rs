//! iozone results as the Raspberry Pi and SBC benchmark reports give them: the results table
//! of Jeff Geerling's disk benchmark (geerlingguy/pi-cluster benchmarks/disk-benchmark.sh
//! runs `iozone -e -I -a -s 100M -r 4k -r 1024k -i 0 -i 1 -i 2`; its report template, used
//! across geerlingguy/raspberry-pi-pcie-devices and geerlingguy/sbc-reviews issues, is a
//! Markdown table with one row per test):
//!
//! ```text
//! | Benchmark                  | Result |
//! | -------------------------- | ------ |
//! | iozone 4K random read      | 71.42 MB/s |
//! | iozone 1M sequential read  | 442.15 MB/s |
//! ```
//!
//! Each row names the tool, the record size, the access pattern and the direction, and the
//! figure in MB/s. The figure is read as written, MB = 10^6 bytes: iozone(1) itself reports
//! kB/s of 1024 bytes and the template does not say how its reporter converted them, so a
//! row may be up to 4.9 % low (MiB read as MB); nothing here widens a range for that.
//! `-I` is iozone's O_DIRECT ("Use
//! VxFS VX_DIRECT, O_DIRECT, or O_DIRECTIO for all file operations", iozone(1)), so the page
//! cache does not answer the reads. A summary sentence ("iozone gave about 400 MB/s") is not
//! a row and is not read.

use crate::model::UserBenchmark;
use crate::sources::spec;

/// One row of the results table.
#[derive(Debug, Clone, PartialEq)]
pub struct IozoneRow {
    /// 4096 for "4K", 1048576 for "1M".
    pub record_bytes: u64,
    pub random: bool,
    pub read: bool,
    /// The figure in bytes per second (the row's MB read as 10^6 bytes).
    pub bytes_per_sec: f64,
}

crate::rx!(
    ROW,
    r"(?i)^\s*\|?\s*iozone\s+(\d+)\s*([KM])\s+(random|sequential)\s+(read|write)\s*\|\s*([\d.,]+)\s*MB/s\s*\|?\s*$"
);
crate::rx!(HEADER, r"(?i)^\s*\|\s*Benchmark\s*\|\s*Result\s*\|\s*$");
crate::rx!(SEPARATOR, r"^\s*\|\s*:?-{3,}:?\s*\|\s*:?-{3,}:?\s*\|\s*$");

/// The row a line holds, if it is one.
fn row(line: &str) -> Option<IozoneRow> {
    let c = ROW.captures(line)?;
    let n: u64 = c.get(1)?.as_str().parse().ok()?;
    let unit: u64 = if c.get(2)?.as_str().eq_ignore_ascii_case("M") {
        1 << 20
    } else {
        1 << 10
    };
    let v: f64 = c.get(5)?.as_str().replace(',', "").parse().ok()?;
    let bytes_per_sec = v * 1e6;
    (bytes_per_sec.is_finite() && bytes_per_sec > 0.0).then(|| IozoneRow {
        record_bytes: n.saturating_mul(unit),
        random: c
            .get(3)
            .is_some_and(|m| m.as_str().eq_ignore_ascii_case("random")),
        read: c
            .get(4)
            .is_some_and(|m| m.as_str().eq_ignore_ascii_case("read")),
        bytes_per_sec,
    })
}

/// Every row of the table, in order.
pub fn parse(text: &str) -> Vec<IozoneRow> {
    text.lines().filter_map(row).collect()
}

/// The table's sequential read in large records (1 MiB) as a pasted benchmark: the figure
/// that measures the drive's (or its link's) sequential rate. `from` names the paste.
pub(crate) fn seq_read_benchmark(text: &str, from: &str) -> Option<UserBenchmark> {
    let r = parse(text)
        .into_iter()
        .filter(|r| r.read && !r.random && r.record_bytes >= 1 << 20)
        .max_by(|a, b| a.bytes_per_sec.total_cmp(&b.bytes_per_sec))?;
    Some(UserBenchmark {
        tool: "iozone".into(),
        command: None,
        input: None,
        output: None,
        block_size_bytes: Some(r.record_bytes),
        bytes: None,
        seconds: None,
        bytes_per_sec: Some(r.bytes_per_sec),
        records_in: None,
        records_out: None,
        flags: vec!["direct".to_string()],
        error: None,
        from: from.to_string(),
        filesystem: None,
        time_real_s: None,
        time_cpu_s: None,
    })
}

// ---- the source spec (see sources::spec) ----

fn starts(lines: &[&str]) -> spec::Start {
    let Some(first) = lines.first() else {
        return spec::Start::No;
    };
    if row(first).is_some() {
        return spec::Start::Yes;
    }
    // The header counts when the table's rows follow it (after the separator).
    let next_rows = lines.iter().skip(1).take(2).any(|l| row(l).is_some());
    spec::Start::from(HEADER.is_match(first) && next_rows)
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "iozone-table",
    starts: &[(160, starts)],
    member: |t, _| spec::Member::from(row(t).is_some() || SEPARATOR.is_match(t)),
    tolerance: (1, 0),
    classify: |_, _| "iozone-table",
    ..spec::Recogniser::NONE
};

/// A pasted results table: a measurement, stored under no live key (diskdoc runs its own).
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |_, _| false)),
    ..spec::SourceSpec::named("iozone-table", "iozone results table")
};

#[cfg(test)]
mod tests;
