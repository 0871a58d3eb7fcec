//! The results table of PiBenchmarks' storage benchmark (TheRemote/PiBenchmarks Storage.sh,
//! the "curl ... Storage.sh | sudo bash" script behind storage.jamesachambers.com), pasted in
//! Raspberry Pi and SBC storage threads. The script prints one `%-25s %-25s %-25s` row per
//! test under a "Category  Test  Result" header:
//!
//! ```text
//! HDParm                    Disk Read                 419.38 MB/s
//! HDParm                    Cached Disk Read          1073.62 MB/s
//! DD                        Disk Write                171 MB/s
//! FIO                       4k random read            106113 IOPS (424455 KB/s)
//! FIO                       4k random write           51431 IOPS (205724 KB/s)
//! IOZone                    4k read                   142355 KB/s
//! IOZone                    4k write                  106285 KB/s
//! IOZone                    4k random read            44871 KB/s
//! IOZone                    4k random write           117430 KB/s
//!                           Score: 13937
//! ```
//!
//! What each row measured (the script's commands):
//! - HDParm Disk Read: `hdparm -Tt --direct` of the root device (without `--direct` where
//!   that fails): hdparm's "MB/sec" is 2^20 bytes (hdparm.c), the figure taken as printed.
//!   A sequential read of the device from its first sectors, as `hdparm -t` is elsewhere.
//! - HDParm Cached Disk Read: `-T`, memory and bus only: not the disk.
//! - DD Disk Write: `dd if=/dev/zero of=test bs=4k count=80k conv=fsync`: 320 MiB through
//!   the page cache, flushed at the end; GNU dd's MB/s is 10^6 bytes.
//! - FIO 4k random read / write: `fio --ioengine=libaio --direct=1 --bs=4k --iodepth=64
//!   --readwrite=randread` (randwrite) on an 80 MiB test file; IOPS, and the bandwidth of
//!   fio's terse output, KiB/s.
//! - IOZone 4k ...: `iozone -a -e -I -i 0 -i 1 -i 2 -s 80M -r 4k`: O_DIRECT (-I), one
//!   request at a time, 4 KiB records; iozone's kB/s is 1024 bytes.

use crate::model::UserBenchmark;
use crate::sources::spec;

/// One row of the table.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PiRow {
    /// "HDParm", "DD", "FIO", "IOZone".
    pub category: String,
    /// "Disk Read", "4k random read".
    pub test: String,
    /// The figure in bytes per second.
    pub bytes_per_sec: f64,
    /// FIO's I/O operations per second.
    pub iops: Option<f64>,
}

crate::rx!(
    ROW,
    r"(?i)^\s*(HDParm|DD|FIO|IOZone)\s+(Disk Read|Cached Disk Read|Disk Write|4k random read|4k random write|4k read|4k write)\s+([\d.,]+)\s*(MB/s(?:ec)?|KB/s(?:ec)?|IOPS)(?:\s*\(\s*([\d.,]+)\s*KB/s\s*\))?\s*$"
);
// The table's header and its closing score line.
crate::rx!(
    FRAME,
    r"^\s*(?:Category\s+Test\s+Result|Score:\s*\d+|End Test)\s*$"
);

/// A figure as printed ("424455", "1,073.62").
fn num(s: &str) -> Option<f64> {
    let v: f64 = s.replace(',', "").parse().ok()?;
    (v.is_finite() && v >= 0.0).then_some(v)
}

/// The row a line holds, if it is one.
fn row(line: &str) -> Option<PiRow> {
    let c = ROW.captures(line)?;
    let category = c.get(1)?.as_str().to_string();
    let test = c.get(2)?.as_str().to_string();
    let v = num(c.get(3)?.as_str())?;
    let unit = c.get(4)?.as_str().to_ascii_lowercase();
    let (bytes_per_sec, iops) = if unit == "iops" {
        // fio's terse bandwidth in the brackets, KiB/s; else the IOPS times the block.
        let bw = c.get(5).and_then(|m| num(m.as_str())).map(|k| k * 1024.0);
        (bw.unwrap_or(v * 4096.0), Some(v))
    } else if unit.starts_with("kb") {
        (v * 1024.0, None)
    } else if category.eq_ignore_ascii_case("hdparm") {
        (v * 1048576.0, None)
    } else {
        (v * 1e6, None)
    };
    Some(PiRow {
        category,
        test,
        bytes_per_sec,
        iops,
    })
}

/// Every row of the table, in order.
pub(crate) fn parse(text: &str) -> Vec<PiRow> {
    text.lines()
        .filter_map(|l| row(&crate::sources::util::clean_line(l)))
        .collect()
}

/// The table's disk figures as pasted benchmarks (tool "PiBenchmarks"): the hdparm read as a
/// sequential read of the device (`rw=read`, 2 MiB requests: hdparm's), the fio and iozone 4
/// KiB random rows with their queue depth (`rw=randread` / `rw=randwrite`, `iodepth=64` for
/// fio, one for iozone) and the dd write as what it is, a 4 KiB buffered write
/// (`conv=fsync`). The cached read (memory) and the iozone 4k sequential rows (4 KiB
/// requests: per-request cost) are not the disk's sequential rate and are left out.
pub fn benchmarks(text: &str, from: &str) -> Vec<UserBenchmark> {
    let mut out = Vec::new();
    for r in parse(text) {
        let cat = r.category.to_ascii_lowercase();
        let test = r.test.to_ascii_lowercase();
        // What the script ran for the row (Storage.sh), and the access pattern.
        let (ran, rw, depth): (&str, &str, Option<u32>) = match (cat.as_str(), test.as_str()) {
            ("hdparm", "disk read") => ("hdparm -Tt --direct", "read", None),
            ("dd", "disk write") => ("dd bs=4k count=80k conv=fsync", "write", None),
            ("fio", t) | ("iozone", t) if t.starts_with("4k random") => (
                if cat == "fio" {
                    "fio --bs=4k --iodepth=64 --direct=1"
                } else {
                    "iozone -I -r 4k"
                },
                if t.ends_with("read") {
                    "randread"
                } else {
                    "randwrite"
                },
                Some(if cat == "fio" { 64 } else { 1 }),
            ),
            _ => continue,
        };
        if r.bytes_per_sec <= 0.0 {
            continue;
        }
        let mut flags = vec![
            if cat == "dd" { "conv=fsync" } else { "direct" }.to_string(),
            format!("rw={rw}"),
        ];
        flags.extend(depth.map(|q| format!("iodepth={q}")));
        out.push(UserBenchmark {
            tool: "PiBenchmarks".into(),
            command: Some(format!("{ran} ({} {})", r.category, r.test)),
            // hdparm reads 2 MiB a request; the others are 4 KiB.
            block_size_bytes: Some(if rw == "read" { 2 << 20 } else { 4096 }),
            bytes_per_sec: Some(r.bytes_per_sec),
            flags,
            from: from.to_string(),
            ..Default::default()
        });
    }
    out
}

// ---- the source spec (see sources::spec) ----

fn starts(lines: &[&str]) -> spec::Start {
    let Some(first) = lines.first() else {
        return spec::Start::No;
    };
    let first = crate::sources::util::clean_line(first);
    let next_rows = || {
        lines
            .iter()
            .skip(1)
            .take(2)
            .any(|l| row(&crate::sources::util::clean_line(l)).is_some())
    };
    // A row with another row (or the header) next to it: one row alone could be quoted.
    spec::Start::from((FRAME.is_match(&first) || row(&first).is_some()) && next_rows())
}

fn member(t: &str, _: &spec::BlockState) -> spec::Member {
    let t = crate::sources::util::clean_line(t);
    spec::Member::from(row(&t).is_some() || FRAME.is_match(&t))
}

static RECOGNISER: spec::Recogniser = spec::Recogniser::table(
    "pibenchmarks",
    &[(161, starts)],
    member,
    |_, _| "pibenchmarks",
);

/// A pasted PiBenchmarks results table.
pub const SPEC: spec::SourceSpec = spec::SourceSpec::measurement(
    "pibenchmarks",
    "PiBenchmarks storage benchmark",
    &RECOGNISER,
    |t| parse(t).len(),
);

#[cfg(test)]
mod tests;
