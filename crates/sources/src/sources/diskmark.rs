//! The result rows of CrystalDiskMark (Windows) and KDiskMark (Linux, fio underneath) text
//! reports, every version's wording, as the disk's measured figures. The block recogniser and
//! the two source specs are in sources/block_recognisers.rs (the "diskmark" family); this
//! module reads the rows.
//!
//! The row formats, from the programs' own text writers:
//! - CrystalDiskMark 8 (DiskMarkDlg.cpp GetResultString): "  SEQ    1MiB (Q=  8, T= 1):
//!   3567.123 MB/s [   3401.8 IOPS] <  2349.55 us>", "  RND    4KiB (Q= 32, T= 1): ...",
//!   the direction from the "[Read]" / "[Write]" / "[Mix]" section above.
//! - CrystalDiskMark 7 (GetSequentialResultString / GetRandomResultString): "Sequential
//!   1MiB (Q=  8, T= 1): ...", "    Random 4KiB (Q= 32, T=16): ...", in sections too.
//! - KDiskMark (mainwindow.cpp combineOutputTestResult): "Sequential 1 MiB (Q= 8, T= 1):
//!   ...", "Random 4 KiB (Q=32, T= 1): ...", in sections.
//! - CrystalDiskMark 5 and 6: "   Sequential Read (Q= 32,T= 1) :   557.889 MB/s" (128 KiB
//!   blocks: the program's help, "Seq Q32T1: Sequential (Block Size=128KiB) with multi Queues
//!   & Threads"), "         Sequential Read (T= 1) :" (1 MiB, one queue slot), "  Random Read
//!   4KiB (Q= 32,T= 1) :   384.282 MB/s [ 93818.8 IOPS]"; 6.0's beta wording "Sequential
//!   Read 1MiB (T= 1):", "Seq Read 128KiB (Q= 32,T= 1):".
//! - CrystalDiskMark 2, 3 and 4: "           Sequential Read :   516.593 MB/s" (1 MiB, queue
//!   depth 1), "         Random Read 512KB :", "    Random Read 4KB (QD=1) :    34.146 MB/s
//!   [  8336.5 IOPS]", "   Random Read 4KB (QD=32) :".
//! - The labels of the program's window as people type them: "SEQ1M Q8T1 : 3500.12 MB/s",
//!   "Seq Q32T1 Read : ...", "4K QD32 Read : 27.81 MB/s", "RND4K Q32T16 : ...".
//!
//! MB/s is 10^6 bytes per second (the reports' own line "* MB/s = 1,000,000 bytes/s"). Both
//! programs read and write a test file on the volume with unbuffered I/O (CrystalDiskMark:
//! DiskSpd -Sh; KDiskMark: fio --direct=1), so a row measures the disk as far as a file on it
//! shows it, at the queue depth (Q) per thread (T) the row states.

use crate::model::UserBenchmark;

/// One result row.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct DiskmarkRow {
    pub write: bool,
    pub random: bool,
    pub block_bytes: u64,
    /// Outstanding requests per thread (Q), and threads (T).
    pub queue_depth: u32,
    pub threads: u32,
    /// MB/s, 10^6 bytes.
    pub mbps: f64,
}

// "SEQ 1MiB (Q= 8, T= 1):", "Sequential 1 MiB (Q= 8, T= 1):", "Random 4KiB (Q=32, T=16):"
// (CrystalDiskMark 7 and 8, KDiskMark).
crate::rx!(
    SIZED,
    r"(?i)^(SEQ|RND|Sequential|Random)\s*(\d+)\s*(MiB|KiB)\s*\(Q=\s*(\d+),\s*T=\s*(\d+)\)\s*:\s*(.*)$"
);
// "Sequential Read (Q= 32,T= 1) :", "Random Write 4KiB (Q=  1,T= 1) :", "Sequential Read
// 1MiB (T= 1):", "Seq Read 128KiB (Q= 32,T= 1):" (CrystalDiskMark 5 and 6).
crate::rx!(
    DIRECTED,
    r"(?i)^(Sequential|Seq|Random)\s+(Read|Write|Mix)(?:\s+(\d+)\s*(MiB|KiB|KB))?\s*\((?:Q=\s*(\d+),\s*)?T=\s*(\d+)\)\s*:\s*(.*)$"
);
// "Sequential Read :", "Random Read 512KB :", "Random Read 4KB (QD=32) :" (CrystalDiskMark
// 2 to 4).
crate::rx!(
    CLASSIC,
    r"(?i)^(Sequential|Random)\s+(Read|Write)(?:\s+(\d+)\s*(KB|KiB))?\s*(?:\(QD=\s*(\d+)\))?\s*:\s*(.*)$"
);
// The window's labels: "SEQ1M Q8T1", "Seq Q32T1", "4K QD32", "RND4K Q1T1", "4KiB Q8T8",
// "Seq", "4K", with the direction before the colon or from the section.
crate::rx!(
    LABEL,
    r"(?i)^(SEQ|Seq|RND|4K|4KiB|512K)\s*(?:(\d+)([MK]))?\s*(?:Q(\d+)T(\d+)|QD\s*(\d+))?\s*(Read|Write)?\s*:\s*(.*)$"
);
crate::rx!(VALUE, r"^([\d.,]+)\s*MB/s\b");

/// The MB/s figure that starts `rest`.
fn value(rest: &str) -> Option<f64> {
    let v: f64 = VALUE
        .captures(rest.trim())?
        .get(1)?
        .as_str()
        .replace(',', "")
        .parse()
        .ok()?;
    (v.is_finite() && v >= 0.0).then_some(v)
}

fn unit_bytes(n: &str, unit: &str) -> Option<u64> {
    let n: u64 = n.parse().ok()?;
    let u: u64 = match unit.to_ascii_lowercase().as_str() {
        "mib" | "m" => 1 << 20,
        _ => 1 << 10,
    };
    n.checked_mul(u)
}

/// The row a trimmed line holds; `section_write` is the "[Write]" section's direction (None
/// in "[Mix]", whose rows measure both).
fn row(t: &str, section_write: Option<bool>) -> Option<DiskmarkRow> {
    let num = |s: Option<regex::Match>| s.and_then(|m| m.as_str().parse::<u32>().ok());
    if let Some(c) = SIZED.captures(t) {
        let kind = c.get(1)?.as_str().to_ascii_lowercase();
        return Some(DiskmarkRow {
            write: section_write?,
            random: kind.starts_with('r'),
            block_bytes: unit_bytes(c.get(2)?.as_str(), c.get(3)?.as_str())?,
            queue_depth: num(c.get(4))?,
            threads: num(c.get(5))?,
            mbps: value(c.get(6)?.as_str())?,
        });
    }
    if let Some(c) = DIRECTED.captures(t) {
        let random = c.get(1)?.as_str().eq_ignore_ascii_case("random");
        let dir = c.get(2)?.as_str().to_ascii_lowercase();
        if dir == "mix" {
            return None;
        }
        let queue_depth = num(c.get(5));
        let block_bytes = match (c.get(3), c.get(4)) {
            (Some(n), Some(u)) => unit_bytes(n.as_str(), u.as_str())?,
            // CrystalDiskMark 5/6: the queued sequential test is 128 KiB, the single one
            // 1 MiB; the random tests are 4 KiB.
            _ if random => 4096,
            _ if queue_depth.is_some() => 128 << 10,
            _ => 1 << 20,
        };
        return Some(DiskmarkRow {
            write: dir == "write",
            random,
            block_bytes,
            queue_depth: queue_depth.unwrap_or(1),
            threads: num(c.get(6))?,
            mbps: value(c.get(7)?.as_str())?,
        });
    }
    if let Some(c) = CLASSIC.captures(t) {
        let random = c.get(1)?.as_str().eq_ignore_ascii_case("random");
        let block_bytes = match (c.get(3), c.get(4)) {
            (Some(n), Some(u)) => unit_bytes(n.as_str(), u.as_str())?,
            _ if random => return None,
            _ => 1 << 20,
        };
        return Some(DiskmarkRow {
            write: c.get(2)?.as_str().eq_ignore_ascii_case("write"),
            random,
            block_bytes,
            queue_depth: num(c.get(5)).unwrap_or(1),
            threads: 1,
            mbps: value(c.get(6)?.as_str())?,
        });
    }
    let c = LABEL.captures(t)?;
    let kind = c.get(1)?.as_str().to_ascii_lowercase();
    let write = match c.get(7) {
        Some(d) => d.as_str().eq_ignore_ascii_case("write"),
        None => section_write?,
    };
    let random = kind.starts_with("rnd") || kind.starts_with('4') || kind.starts_with('5');
    let block_bytes = match (c.get(2), c.get(3)) {
        (Some(n), Some(u)) => unit_bytes(n.as_str(), u.as_str())?,
        _ if kind.starts_with("512") => 512 << 10,
        _ if random => 4096,
        // "Seq Q32T1" is CrystalDiskMark 5/6's 128 KiB test, "Seq" its 1 MiB one.
        _ if c.get(4).is_some() => 128 << 10,
        _ => 1 << 20,
    };
    let (q, th) = match (num(c.get(4)), num(c.get(5)), num(c.get(6))) {
        (Some(q), Some(th), _) => (q, th),
        (_, _, Some(q)) => (q, 1),
        _ => (1, 1),
    };
    Some(DiskmarkRow {
        write,
        random,
        block_bytes,
        queue_depth: q,
        threads: th,
        mbps: value(c.get(8)?.as_str())?,
    })
}

/// Every result row of a report, in order.
pub(crate) fn parse(text: &str) -> Vec<DiskmarkRow> {
    let mut section: Option<bool> = Some(false);
    let mut out = Vec::new();
    for l in text.lines() {
        let line = crate::sources::util::clean_line(l);
        let t = line.trim();
        let lt = t.to_ascii_lowercase();
        if lt.starts_with("[read") {
            section = Some(false);
            continue;
        }
        if lt.starts_with("[write") {
            section = Some(true);
            continue;
        }
        if lt.starts_with("[mix") {
            section = None;
            continue;
        }
        out.extend(row(t, section));
    }
    out
}

fn bench(tool: &str, from: &str, r: &DiskmarkRow, rw: &str, bytes: Option<u64>) -> UserBenchmark {
    let mut flags = vec!["direct".to_string(), format!("rw={rw}")];
    if r.random {
        flags.push(format!("iodepth={}", r.queue_depth));
        flags.push(format!("numjobs={}", r.threads));
    }
    UserBenchmark {
        tool: tool.to_string(),
        command: Some(format!(
            "{tool} {} {} Q{} T{} ({})",
            if r.random { "random" } else { "sequential" },
            if r.block_bytes >= 1 << 20 {
                format!("{} MiB", r.block_bytes >> 20)
            } else {
                format!("{} KiB", r.block_bytes >> 10)
            },
            r.queue_depth,
            r.threads,
            if r.write { "write" } else { "read" }
        )),
        block_size_bytes: Some(r.block_bytes),
        bytes,
        bytes_per_sec: Some(r.mbps * 1e6),
        flags,
        from: from.to_string(),
        ..Default::default()
    }
}

/// A report's figures as pasted benchmarks of `tool` ("CrystalDiskMark", "KDiskMark"): its
/// best sequential read and write in blocks of 128 KiB or more (`rw=read`, `rw=write`), and
/// each 4 KiB random row with its queue depth and threads (`rw=randread` / `rw=randwrite`,
/// `iodepth=Q`, `numjobs=T`). `bytes` is one pass over the test file ("Test: 1 GiB (x5)").
pub fn benchmarks(text: &str, tool: &str, from: &str, bytes: Option<u64>) -> Vec<UserBenchmark> {
    let rows = parse(text);
    let mut out = Vec::new();
    for write in [false, true] {
        let best = rows
            .iter()
            .filter(|r| r.write == write && !r.random && r.block_bytes >= 128 << 10)
            .filter(|r| r.mbps > 0.0)
            .max_by(|a, b| a.mbps.total_cmp(&b.mbps));
        if let Some(r) = best {
            out.push(bench(
                tool,
                from,
                r,
                if write { "write" } else { "read" },
                bytes,
            ));
        }
    }
    for r in rows
        .iter()
        .filter(|r| r.random && r.block_bytes == 4096 && r.mbps > 0.0)
    {
        out.push(bench(
            tool,
            from,
            r,
            if r.write { "randwrite" } else { "randread" },
            bytes,
        ));
    }
    out
}

#[cfg(test)]
mod tests;
