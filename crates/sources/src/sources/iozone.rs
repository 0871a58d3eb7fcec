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
//!
//! iozone's own auto-mode table (`iozone -a`, iozone.c of iozone3, Revision 3.489: the
//! file size `%16lld` and record length `%8lld` in kB, then one right-aligned `%9lld`
//! (a few `%8lld`/`%10lld`) rate per column in kBytes/sec of 1024 bytes, "Output is in
//! kBytes/sec"; a test `-i` did not select prints blanks of its width, `test_output[]`):
//!
//! ```text
//!                                                           random    random
//!           kB  reclen    write  rewrite    read    reread    read     write
//!       102400       4     2738     2762    12852    12789    10197     2776
//!       102400   16384    65483    65060    88313    88555    88551    64214
//! ```
//!
//! The header's columns in print order are write, rewrite, read, reread, random read,
//! random write, backwards read, record rewrite, stride read, fwrite, frewrite, fread,
//! freread. Rows are read by where each figure ends under the header (blank columns
//! shift nothing), or in order when a row has as many fields as the header. With `-I`
//! (O_DIRECT) both read and reread come from the device; without it the reread, and the
//! read of a file smaller than the RAM, come from the page cache, so a table counts as
//! a measurement of the device only when its command line (or iozone's "O_DIRECT feature
//! enabled" banner line) says `-I`. With `-O` the figures are operations per second, not
//! kB/s, and the table is not read.
//!
//! The Phoronix Test Suite's IOzone result (pts/iozone): the test's title line ("IOzone
//! 3.465:"), the profile with its options ("pts/iozone-1.9.4 [Record Size: 64Kb - File
//! Size: 4GB - Disk Test: Read Performance]"), one figure per run and "Average: N MB/s"
//! (pts-core's result printout). The profile offers no O_DIRECT option, and its read test
//! reads the file its write test has just written ([`pts_benchmarks`]).

use crate::model::UserBenchmark;
use crate::sources::{spec, util};

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
// iozone's own header: "kB  reclen    write  rewrite    read ..." (older builds "KB").
crate::rx!(
    NATIVE_HEADER,
    r"(?i)^\s*kB\s+reclen\s+write\s+rewrite(?:\s+(?:read|reread|write|rewrite|fwrite|frewrite|fread|freread))*\s*$"
);
crate::rx!(NATIVE_ROW, r"^\s*\d+\s+\d+(?:\s+\d+)+\s*$");
// The line above the header: "random    random     bkwd    record    stride", maybe after
// a title the poster put there.
crate::rx!(
    NATIVE_TOP,
    r"(?i)\brandom\s+random(?:\s+bkwd(?:\s+record(?:\s+stride)?)?)?\s*$"
);
crate::rx!(SEPARATOR, r"^\s*\|\s*:?-{3,}:?\s*\|\s*:?-{3,}:?\s*\|\s*$");

// The Phoronix Test Suite's IOzone options and result lines.
crate::rx!(
    PTS_OPTIONS,
    r"Record Size: (\d+) ?([KkMm])[Bb] - File Size: (\d+) ?([MG])B - Disk Test: (Read|Write) Performance"
);
crate::rx!(PTS_AVERAGE, r"^\s*Average: (\d+(?:\.\d+)?) MB/s\s*$");
crate::rx!(
    PTS_START,
    r"^\s*(?:IOzone \d+\.\d+:|[\w.-]+/iozone-[\d.]+ \[Record Size:)"
);
crate::rx!(
    PTS_MEMBER,
    r"^\s*(?:Test \d+ of \d+|Estimated [^:]+:|Started Run \d+ @|\d+(?:\.\d+)?\s*$|Deviation: |Samples: |Average: )"
);

/// The Phoronix Test Suite's IOzone results: each "Average: N MB/s" with the record and
/// file size and direction of the options line above it, as pasted benchmarks (`rw=read`
/// or `rw=write`, never `direct`: pts/iozone runs iozone without -I), under the tool name
/// "pts/iozone" so that no rule for O_DIRECT iozone figures takes them. MB as 10^6 bytes,
/// as the report template's rows.
pub fn pts_benchmarks(text: &str, from: &str) -> Vec<UserBenchmark> {
    let mut out = Vec::new();
    let mut opts: Option<(u64, u64, bool)> = None;
    for raw in text.lines() {
        let line = util::clean_line(raw);
        if let Some(c) = PTS_OPTIONS.captures(&line) {
            let num = |i: usize| c.get(i).and_then(|m| m.as_str().parse::<u64>().ok());
            let shift = |i: usize| match c.get(i).map(|m| m.as_str()) {
                Some("K" | "k") => Some(10u32),
                Some("M" | "m") => Some(20),
                Some("G") => Some(30),
                _ => None,
            };
            let sized = |n: Option<u64>, s: Option<u32>| {
                n.zip(s).and_then(|(n, s)| n.checked_mul(1u64 << s))
            };
            let rec = sized(num(1), shift(2));
            let file = sized(num(3), shift(4));
            let read = c.get(5).is_some_and(|m| m.as_str() == "Read");
            opts = rec.zip(file).map(|(r, f)| (r, f, read));
            continue;
        }
        let (Some(c), Some((rec, file, read))) = (PTS_AVERAGE.captures(&line), opts) else {
            continue;
        };
        let Some(rate) = c.get(1).and_then(|m| m.as_str().parse::<f64>().ok()) else {
            continue;
        };
        out.push(UserBenchmark {
            tool: "pts/iozone".into(),
            block_size_bytes: Some(rec),
            bytes: Some(file),
            bytes_per_sec: Some(rate * 1e6),
            flags: vec![format!("rw={}", if read { "read" } else { "write" })],
            from: from.to_string(),
            ..Default::default()
        });
    }
    out
}

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

/// What a column of iozone's auto-mode table measured: (random, read), None for the
/// columns read here as neither (record rewrite, backwards and stride reads, the stdio
/// f-tests, whose buffering is the C library's).
fn native_column(i: usize) -> Option<(bool, bool)> {
    match i {
        // kB, reclen, then write rewrite read reread, random read, random write.
        2 | 3 => Some((false, false)),
        4 | 5 => Some((false, true)),
        6 => Some((true, true)),
        7 => Some((true, false)),
        _ => None,
    }
}

/// The fields of a line with the byte offset each ends at.
fn fields_with_ends(line: &str) -> Vec<(&str, usize)> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    for (i, c) in line
        .char_indices()
        .chain(std::iter::once((line.len(), ' ')))
    {
        match (c.is_whitespace(), start) {
            (false, None) => start = Some(i),
            (true, Some(s)) => {
                if let Some(f) = line.get(s..i) {
                    out.push((f, i));
                }
                start = None;
            }
            _ => {}
        }
    }
    out
}

/// The rows of one native row line under a header whose fields end at `ends`.
fn native_rows(line: &str, ends: &[usize]) -> Vec<IozoneRow> {
    let f = fields_with_ends(line);
    let Some(reclen) = f.get(1).and_then(|(t, _)| t.parse::<u64>().ok()) else {
        return Vec::new();
    };
    let mut cols: Vec<(usize, u64)> = Vec::new();
    for (k, (t, end)) in f.iter().enumerate().skip(2) {
        let Ok(v) = t.parse::<u64>() else {
            return Vec::new();
        };
        let col = if f.len() == ends.len() {
            Some(k)
        } else {
            // The header column whose name ends where the figure ends (both right-aligned).
            ends.iter()
                .position(|e| e.abs_diff(*end) <= 2)
                .filter(|c| *c >= 2)
        };
        match col {
            Some(c) => cols.push((c, v)),
            // A figure under no column: the row is not the header's.
            None => return Vec::new(),
        }
    }
    cols.into_iter()
        .filter_map(|(c, v)| {
            let (random, read) = native_column(c)?;
            let bytes_per_sec = (v as f64) * 1024.0;
            (bytes_per_sec > 0.0).then(|| IozoneRow {
                record_bytes: reclen.saturating_mul(1024),
                random,
                read,
                bytes_per_sec,
            })
        })
        .collect()
}

/// Every row of the table, in order: the report template's rows and the figures of
/// iozone's own table (one entry per measured column that is a read or a write).
pub fn parse(text: &str) -> Vec<IozoneRow> {
    let mut out = Vec::new();
    let mut ends: Option<Vec<usize>> = None;
    for raw in text.lines() {
        let line = util::clean_line(raw);
        if let Some(r) = row(&line) {
            out.push(r);
        } else if NATIVE_HEADER.is_match(&line) {
            ends = Some(fields_with_ends(&line).iter().map(|(_, e)| *e).collect());
        } else if let (Some(e), true) = (ends.as_deref(), NATIVE_ROW.is_match(&line)) {
            out.extend(native_rows(&line, e));
        } else if !line.trim().is_empty() && !NATIVE_TOP.is_match(&line) {
            ends = None;
        }
    }
    out
}

/// Whether an iozone command line (or the banner of its run) says O_DIRECT: `-I`
/// ("Use VxFS VX_DIRECT, O_DIRECT, or O_DIRECTIO for all file operations", iozone(1)),
/// alone or among other single-letter flags, and not `-O` (operations per second).
pub(crate) fn direct_run(command: &str) -> bool {
    let flags: Vec<&str> = command
        .split_whitespace()
        .filter(|w| w.starts_with('-') && !w.starts_with("--") && !w.starts_with("-+"))
        .collect();
    let has = |c: char| {
        flags.iter().any(|w| {
            w.len() > 1 && w[1..].chars().all(|x| x.is_ascii_alphabetic()) && w[1..].contains(c)
        })
    };
    (has('I') || command.contains("O_DIRECT feature enabled")) && !has('O')
}

/// The best sequential read and write of iozone's own table in records of 1 MiB or more,
/// as pasted benchmarks (`rw=read`, `rw=write`, `direct`), when `command` (the iozone
/// command line or banner the paste shows) says O_DIRECT: the figures a drive's sequential
/// rates are compared by. Nothing without it (see the module's note on the page cache).
pub fn native_benchmarks(text: &str, command: &str, from: &str) -> Vec<UserBenchmark> {
    if !direct_run(command)
        || !text
            .lines()
            .any(|l| NATIVE_HEADER.is_match(&util::clean_line(l)))
    {
        return Vec::new();
    }
    let rows = parse(text);
    // The fastest sequential row of one direction in records of 1 MiB or more.
    let best = |read: bool| {
        rows.iter()
            .filter(move |r| r.read == read && !r.random && r.record_bytes >= 1 << 20)
            .max_by(|a, b| a.bytes_per_sec.total_cmp(&b.bytes_per_sec))
    };
    let mut out = Vec::new();
    for read in [true, false] {
        if let Some(r) = best(read) {
            out.push(UserBenchmark {
                tool: "iozone".into(),
                command: Some(command.to_string()),
                block_size_bytes: Some(r.record_bytes),
                bytes_per_sec: Some(r.bytes_per_sec),
                flags: vec![
                    "direct".to_string(),
                    format!("rw={}", if read { "read" } else { "write" }),
                ],
                from: from.to_string(),
                ..Default::default()
            });
        }
    }
    out
}

/// The table's sequential read in large records (1 MiB) as a pasted benchmark: the figure
/// that measures the drive's (or its link's) sequential rate. `from` names the paste.
pub fn seq_read_benchmark(text: &str, from: &str) -> Option<UserBenchmark> {
    let r = text
        .lines()
        .filter_map(|l| row(&util::clean_line(l)))
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
        flush_real_s: None,
        flush_command: None,
        request_latency_us: None,
    })
}

// ---- the source spec (see sources::spec) ----

fn starts(lines: &[&str]) -> spec::Start {
    let Some(first) = lines.first() else {
        return spec::Start::No;
    };
    if row(first).is_some() || PTS_START.is_match(first) {
        return spec::Start::Yes;
    }
    // iozone's own header, with a row under it.
    let clean = util::clean_line(first);
    if NATIVE_HEADER.is_match(&clean) {
        let next = lines.get(1).map(|l| util::clean_line(l));
        return spec::Start::from(next.is_some_and(|l| NATIVE_ROW.is_match(&l)));
    }
    // The header counts when the table's rows follow it (after the separator).
    let next_rows = lines.iter().skip(1).take(2).any(|l| row(l).is_some());
    spec::Start::from(HEADER.is_match(first) && next_rows)
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "iozone-table",
    starts: &[(160, starts)],
    member: |t, _| {
        let c = util::clean_line(t);
        spec::Member::from(
            row(&c).is_some()
                || SEPARATOR.is_match(&c)
                || NATIVE_ROW.is_match(&c)
                || NATIVE_HEADER.is_match(&c)
                || PTS_START.is_match(&c)
                || PTS_OPTIONS.is_match(&c)
                || PTS_MEMBER.is_match(&c),
        )
    },
    tolerance: (1, 0),
    classify: |_, _| "iozone-table",
    ..spec::Recogniser::NONE
};

/// A pasted results table: a measurement, stored under no live key (diskdoc runs its own).
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    parse: Some(|t| parse(t).len() + pts_benchmarks(t, "").len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, _| p == "iozone")),
    programs: &[spec::Program {
        names_device: false,
        ..spec::Program::new("iozone", |a| a.starts_with('-'))
    }],
    ..spec::SourceSpec::named("iozone-table", "iozone results table")
};

#[cfg(test)]
mod tests;
