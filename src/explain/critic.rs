//! The benchmark critic's input side: turn the dd/cp/hdparm -t/diskinfo -t/fio runs found in
//! pasted text into [`UserBenchmark`]s (command paired with its result, throughput read from
//! an iostat that ran alongside when dd printed nothing), and two explain-only observations:
//! cp versus dd, and the same test with the drive's write cache on and off.
//! References: dd(1) (POSIX default bs 512; BSD "bytes transferred in S secs (R bytes/sec)";
//! GNU "B bytes (..) copied, S s, R MB/s", SI units), iostat(8) (FreeBSD KB/t tps MB/s columns).

use regex::Regex;
use std::sync::LazyLock;

use super::recognize::{Block, Command, Recognized, Tool};
use crate::checks::{Confidence, Finding, Severity, Verdict};
use crate::facts::UserBenchmark;

fn re(s: &str) -> Regex {
    Regex::new(s).expect("static regex")
}
static RECORDS: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?m)^\s*(?:\^C)?(\d+\+\d+) (?:records|Datensätze) (in|out|ein|aus)"));
static BSD_SUMMARY: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?m)^\s*(\d+) bytes transferred in ([\d.]+) secs \((\d+) bytes/sec\)"));
static GNU_SUMMARY: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?m)^\s*(\d+) (?:bytes|Bytes)(?: \([^)]*\))? (?:copied|kopiert), ([\d.,]+) ?s, ([\d.,]+) ?([kMGT]?i?B)/s",
    )
});
static HDPARM_T: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?m)^\s*Timing (buffered disk reads|cached reads|O_DIRECT disk reads|O_DIRECT cached reads):\s+([\d.]+) MB in\s+([\d.]+) seconds\s*=\s*([\d.]+) ([kMG])B/sec",
    )
});
static DISKINFO_RATE: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?m)^\s*(outside|middle|inside):\s+(\d+) kbytes in\s+([\d.]+) sec =\s+(\d+) kbytes/sec")
});
static FIO_NEW: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?m)^\s*(read|write)\s*: IOPS=([\d.kKM]+), BW=([\d.]+)([KMG]i?B)/s"));
static FIO_OLD: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?m)^\s*(read|write)\s*: io=\S+, bw=([\d.]+)([KMG]?B)/s, iops=(\d+)"));
static FIO_HDR: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?m)^\S+: \(g=\d+\): rw=(\w+), bs=(?:\(R\) )?(\d+)([KMB]?)"));
static WC_ROW: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^write cache\s+(yes|no)\s+(yes|no|-)"));
static WC_PROSE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)^\s*write[- ]cach(?:e|ing)\s+(?:is\s+|was\s+)?(enabled|disabled|on|off)\b|^\s*(?:with(?:out)?\s+)?write[- ]cach(?:e|ing)\s+(enabled|disabled)\s*$",
    )
});
static FS_WORD: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)\b(zfs|zpool|ufs|newfs(?:'ing)?|ext4|ext3|xfs|btrfs|ntfs|f2fs)\b"));

/// Bytes per second from a GNU dd rate ("9,2 MB/s": decimal comma, SI prefixes; "MiB/s"
/// binary).
fn gnu_rate(num: &str, unit: &str) -> Option<f64> {
    let n: f64 = num.replace(',', ".").parse().ok()?;
    let m = match unit {
        "B" => 1.0,
        "kB" | "KB" => 1e3,
        "MB" => 1e6,
        "GB" => 1e9,
        "TB" => 1e12,
        "KiB" | "kiB" => 1024.0,
        "MiB" => 1048576.0,
        "GiB" => 1073741824.0,
        _ => return None,
    };
    Some(n * m)
}

/// dd operand sizes: a number with an optional suffix; BSD and GNU both read k/K as 1024,
/// m/M 1024^2, g/G 1024^3; GNU also reads kB/MB/GB as powers of 1000 (dd(1)).
pub fn dd_size(v: &str) -> Option<u64> {
    let v = v.trim();
    let split = v.find(|c: char| !c.is_ascii_digit()).unwrap_or(v.len());
    let (num, suf) = v.split_at(split);
    let n: u64 = num.parse().ok()?;
    let m: u64 = match suf {
        "" | "c" => 1,
        "w" => 2,
        "b" => 512,
        "k" | "K" | "KiB" => 1 << 10,
        "m" | "M" | "MiB" => 1 << 20,
        "g" | "G" | "GiB" => 1 << 30,
        "kB" | "KB" => 1000,
        "MB" => 1_000_000,
        "GB" => 1_000_000_000,
        _ => return None,
    };
    n.checked_mul(m)
}

/// Fill a benchmark from a dd command line.
fn apply_dd_command(b: &mut UserBenchmark, text: &str) {
    b.command = Some(text.to_string());
    let mut bs = None;
    let mut count = None;
    // A shell comment ("# raw") ends the arguments.
    for w in text.split_whitespace().take_while(|w| !w.starts_with('#')) {
        let Some((k, v)) = w.split_once('=') else {
            continue;
        };
        match k {
            "if" => b.input = Some(v.to_string()),
            "of" => b.output = Some(v.to_string()),
            "bs" => bs = dd_size(v),
            "obs" if bs.is_none() => bs = dd_size(v),
            "count" => count = dd_size(v),
            "conv" | "oflag" | "iflag" => {
                for f in v.split(',') {
                    b.flags.push(format!("{k}={f}"));
                }
            }
            _ => {}
        }
    }
    // POSIX: without bs=/ibs=/obs= dd moves 512-byte blocks (both BSD and GNU dd).
    b.block_size_bytes = Some(bs.unwrap_or(512));
    if let (Some(bs), Some(c), None) = (bs, count, b.bytes) {
        b.bytes = bs.checked_mul(c);
    }
}

/// Planned bytes of a dd command (bs * count), to pair it with a result far away.
fn dd_planned_bytes(text: &str) -> Option<u64> {
    let mut bs = None;
    let mut count = None;
    for w in text.split_whitespace() {
        if let Some(v) = w.strip_prefix("bs=") {
            bs = dd_size(v);
        } else if let Some(v) = w.strip_prefix("count=") {
            count = dd_size(v);
        }
    }
    bs?.checked_mul(count?)
}

/// One dd result block -> benchmark (without the command).
fn dd_result(b: &Block, key: &str) -> UserBenchmark {
    let mut ub = UserBenchmark {
        tool: "dd".into(),
        from: key.to_string(),
        ..Default::default()
    };
    for c in RECORDS.captures_iter(&b.text) {
        let rec = c.get(1).map(|m| m.as_str().to_string());
        match c.get(2).map(|m| m.as_str()) {
            Some("in") | Some("ein") => ub.records_in = rec,
            _ => ub.records_out = rec,
        }
    }
    // The last summary wins: GNU status=progress prints interim lines first.
    if let Some(c) = BSD_SUMMARY.captures_iter(&b.text).last() {
        ub.bytes = c.get(1).and_then(|m| m.as_str().parse().ok());
        ub.seconds = c.get(2).and_then(|m| m.as_str().parse().ok());
        ub.bytes_per_sec = c.get(3).and_then(|m| m.as_str().parse().ok());
    } else if let Some(c) = GNU_SUMMARY.captures_iter(&b.text).last() {
        ub.bytes = c.get(1).and_then(|m| m.as_str().parse().ok());
        ub.seconds = c
            .get(2)
            .and_then(|m| m.as_str().replace(',', ".").parse().ok());
        ub.bytes_per_sec = match (c.get(3), c.get(4)) {
            (Some(n), Some(u)) => gnu_rate(n.as_str(), u.as_str()),
            _ => None,
        };
    }
    ub.error = b
        .text
        .lines()
        .find(|l| l.starts_with("dd: "))
        .map(str::to_string);
    // No command: the block size is bytes / full records when nothing was partial
    // ("N+0"), the only case where every record had the same size.
    if let (Some(bytes), Some(out)) = (
        ub.bytes,
        ub.records_out.as_deref().or(ub.records_in.as_deref()),
    ) {
        if let Some((full, partial)) = out.split_once('+') {
            if let (Ok(full), Ok(partial)) = (full.parse::<u64>(), partial.parse::<u64>()) {
                if full > 0 && (partial == 0 && bytes % full == 0) {
                    ub.block_size_bytes = Some(bytes / full);
                } else if full > 0 && partial > 0 {
                    // Partial records: the full ones are bs each, so bs is bytes / full
                    // rounded down to a power of two at most.
                    let bs = bytes / full;
                    ub.block_size_bytes = Some(if bs.is_power_of_two() {
                        bs
                    } else {
                        bs.next_power_of_two() / 2
                    });
                }
            }
        }
    }
    ub
}

/// Per-device MB/s of a FreeBSD `iostat` block (classic layout: "tty ad4 ad6 cpu" over
/// "tin tout KB/t tps MB/s ..."), median of the samples after the first (the first is the
/// average since boot). Returns (device, KB/t, MB/s).
pub fn iostat_rates(text: &str) -> Vec<(String, f64, f64)> {
    let mut devs: Vec<String> = Vec::new();
    let mut samples: Vec<Vec<(f64, f64)>> = Vec::new();
    let mut rows = 0usize;
    for l in text.lines() {
        let w: Vec<&str> = l.split_whitespace().collect();
        if w.first() == Some(&"tty") && w.last() == Some(&"cpu") {
            devs = w
                .get(1..w.len().saturating_sub(1))
                .unwrap_or(&[])
                .iter()
                .map(|s| s.to_string())
                .collect();
            samples = vec![Vec::new(); devs.len()];
            rows = 0;
            continue;
        }
        if devs.is_empty() {
            continue;
        }
        let nums: Vec<f64> = w.iter().map_while(|x| x.parse::<f64>().ok()).collect();
        if nums.len() < 2 + 3 * devs.len() || nums.len() != w.len() {
            continue;
        }
        rows += 1;
        if rows == 1 {
            continue;
        }
        for (d, s) in samples.iter_mut().enumerate() {
            if let (Some(kbt), Some(mbs)) = (nums.get(2 + 3 * d), nums.get(4 + 3 * d)) {
                s.push((*kbt, *mbs));
            }
        }
    }
    devs.into_iter()
        .zip(samples)
        .filter(|(_, s)| !s.is_empty())
        .map(|(d, mut s)| {
            s.sort_by(|a, b| a.1.partial_cmp(&b.1).unwrap_or(std::cmp::Ordering::Equal));
            let mid = s.get(s.len() / 2).copied().unwrap_or((0.0, 0.0));
            (d, mid.0, mid.1)
        })
        .collect()
}

/// Which filesystem the text last named before line `idx` (within 60 lines): "zfs", "ufs"...
fn fs_near(lines: &[super::segment::Line], idx: usize, src: usize) -> Option<String> {
    let lo = idx.saturating_sub(60);
    for j in (lo..idx).rev() {
        let l = lines.get(j)?;
        if l.src != src {
            continue;
        }
        if let Some(m) = FS_WORD.find_iter(&l.text).last() {
            let w = m.as_str().to_ascii_lowercase();
            return Some(match w.as_str() {
                "zpool" => "zfs".to_string(),
                w if w.starts_with("newfs") => "ufs".to_string(),
                w => w.to_string(),
            });
        }
    }
    None
}

/// Everything the critic needs from the recognised text.
pub struct Bench {
    pub bench: UserBenchmark,
    /// Index of the line the result (or command) is on, for ordering and context.
    pub idx: usize,
    pub src: usize,
}

/// Extract the user's benchmarks. `key_of` gives the capture key a block was stored under.
pub fn user_benchmarks(
    rec: &Recognized,
    lines: &[super::segment::Line],
    key_of: &dyn Fn(&Block) -> String,
) -> Vec<Bench> {
    let mut out: Vec<Bench> = Vec::new();
    let dd_cmds: Vec<&Command> = rec
        .commands
        .iter()
        .filter(|c| c.program == "dd" && c.typed)
        .collect();
    let mut paired = vec![false; dd_cmds.len()];
    for b in &rec.blocks {
        let key = key_of(b);
        match b.tool {
            Tool::Dd => {
                let mut ub = dd_result(b, &key);
                // The command typed just before (same input, within 4 lines) produced it.
                let near = dd_cmds
                    .iter()
                    .enumerate()
                    .filter(|(i, c)| {
                        !paired.get(*i).copied().unwrap_or(true)
                            && c.src == b.src
                            && c.idx < b.idx.0
                            && b.idx.0 - c.idx <= 4
                    })
                    .map(|(i, _)| i)
                    .last();
                // Else a command anywhere in the text whose bs * count is exactly the byte count
                // (seed 000 states its command once, above three results).
                let far = near.or_else(|| {
                    dd_cmds.iter().position(|c| {
                        c.src == b.src
                            && ub.bytes.is_some()
                            && dd_planned_bytes(&c.text) == ub.bytes
                    })
                });
                if let Some(i) = far {
                    if near.is_some() {
                        if let Some(p) = paired.get_mut(i) {
                            *p = true;
                        }
                    }
                    if let Some(c) = dd_cmds.get(i) {
                        let derived = ub.block_size_bytes;
                        apply_dd_command(&mut ub, &c.text);
                        if near.is_none() {
                            ub.from = format!("{key} (command from line {})", c.line);
                        }
                        if ub.block_size_bytes.is_none() {
                            ub.block_size_bytes = derived;
                        }
                    }
                }
                if ub
                    .output
                    .as_deref()
                    .is_some_and(|o| !o.starts_with("/dev/"))
                {
                    ub.filesystem = fs_near(lines, b.idx.0, b.src);
                }
                out.push(Bench {
                    bench: ub,
                    idx: b.idx.0,
                    src: b.src,
                });
            }
            Tool::HdparmT => {
                for c in HDPARM_T.captures_iter(&b.text) {
                    let kind = c.get(1).map(|m| m.as_str()).unwrap_or("");
                    let mb: f64 = c
                        .get(2)
                        .and_then(|m| m.as_str().parse().ok())
                        .unwrap_or(0.0);
                    let secs: Option<f64> = c.get(3).and_then(|m| m.as_str().parse().ok());
                    let rate: Option<f64> = c.get(4).and_then(|m| m.as_str().parse().ok());
                    let unit = match c.get(5).map(|m| m.as_str()) {
                        Some("k") => 1024.0,
                        Some("G") => 1073741824.0,
                        _ => 1048576.0,
                    };
                    out.push(Bench {
                        bench: UserBenchmark {
                            tool: if kind.contains("cached") {
                                "hdparm -T".into()
                            } else {
                                "hdparm -t".into()
                            },
                            input: b.device.as_ref().map(|d| format!("/dev/{d}")),
                            bytes: Some((mb * 1048576.0) as u64),
                            seconds: secs,
                            bytes_per_sec: rate.map(|r| r * unit),
                            flags: if kind.contains("O_DIRECT") {
                                vec!["iflag=direct".into()]
                            } else {
                                Vec::new()
                            },
                            from: key.clone(),
                            ..Default::default()
                        },
                        idx: b.idx.0,
                        src: b.src,
                    });
                }
            }
            Tool::Diskinfo => {
                for c in DISKINFO_RATE.captures_iter(&b.text) {
                    let zone = c.get(1).map(|m| m.as_str()).unwrap_or("");
                    let kb: u64 = c.get(2).and_then(|m| m.as_str().parse().ok()).unwrap_or(0);
                    out.push(Bench {
                        bench: UserBenchmark {
                            tool: "diskinfo -t".into(),
                            command: Some(format!("diskinfo -t ({zone})")),
                            input: b.device.as_ref().map(|d| format!("/dev/{d}")),
                            bytes: Some(kb * 1024),
                            seconds: c.get(3).and_then(|m| m.as_str().parse().ok()),
                            bytes_per_sec: c
                                .get(4)
                                .and_then(|m| m.as_str().parse::<f64>().ok())
                                .map(|k| k * 1024.0),
                            // diskinfo -t reads the raw device with 64 KiB transfers.
                            block_size_bytes: Some(65536),
                            from: key.clone(),
                            ..Default::default()
                        },
                        idx: b.idx.0,
                        src: b.src,
                    });
                }
            }
            Tool::Fio => {
                let hdr = FIO_HDR.captures(&b.text);
                let bs = hdr.as_ref().and_then(|c| {
                    let n: u64 = c.get(2)?.as_str().parse().ok()?;
                    Some(match c.get(3)?.as_str() {
                        "K" => n * 1024,
                        "M" => n * 1048576,
                        _ => n,
                    })
                });
                let rw = hdr
                    .as_ref()
                    .and_then(|c| c.get(1))
                    .map(|m| m.as_str().to_string());
                let mut push = |dir: &str, bps: Option<f64>| {
                    out.push(Bench {
                        bench: UserBenchmark {
                            tool: "fio".into(),
                            command: rw.as_ref().map(|r| format!("fio rw={r} ({dir})")),
                            block_size_bytes: bs,
                            bytes_per_sec: bps,
                            from: key.clone(),
                            ..Default::default()
                        },
                        idx: b.idx.0,
                        src: b.src,
                    });
                };
                for c in FIO_NEW.captures_iter(&b.text) {
                    let n: Option<f64> = c.get(3).and_then(|m| m.as_str().parse().ok());
                    let u = match c.get(4).map(|m| m.as_str()) {
                        Some("KiB") => 1024.0,
                        Some("MiB") => 1048576.0,
                        Some("GiB") => 1073741824.0,
                        Some("KB") => 1000.0,
                        Some("MB") => 1e6,
                        _ => 1.0,
                    };
                    push(c.get(1).map(|m| m.as_str()).unwrap_or(""), n.map(|n| n * u));
                }
                for c in FIO_OLD.captures_iter(&b.text) {
                    let n: Option<f64> = c.get(2).and_then(|m| m.as_str().parse().ok());
                    // fio 2.x "KB/s" means KiB/s.
                    let u = match c.get(3).map(|m| m.as_str()) {
                        Some("KB") => 1024.0,
                        Some("MB") => 1048576.0,
                        Some("GB") => 1073741824.0,
                        _ => 1.0,
                    };
                    push(c.get(1).map(|m| m.as_str()).unwrap_or(""), n.map(|n| n * u));
                }
            }
            _ => {}
        }
    }
    // dd and cp commands that printed nothing themselves, measured by an iostat that
    // follows (seed 001): take the median MB/s of the device they read.
    let iostats: Vec<&Block> = rec
        .blocks
        .iter()
        .filter(|b| b.tool == Tool::Iostat)
        .collect();
    for (i, c) in rec.commands.iter().enumerate() {
        if !c.typed || !(c.program == "dd" || c.program == "cp") {
            continue;
        }
        if c.program == "dd"
            && dd_cmds
                .iter()
                .position(|d| std::ptr::eq(*d, c))
                .is_some_and(|p| paired.get(p).copied().unwrap_or(false))
        {
            continue;
        }
        if c.program == "dd"
            && out
                .iter()
                .any(|b| b.bench.command.as_deref() == Some(c.text.as_str()))
        {
            continue;
        }
        // The next command must not be another dd/cp before the iostat.
        let next_cmd_idx = rec
            .commands
            .get(i + 1)
            .filter(|n| n.src == c.src)
            .map(|n| n.idx);
        let Some(io) = iostats.iter().find(|b| {
            b.src == c.src
                && b.idx.0 > c.idx
                && b.idx.0 - c.idx <= 4
                && next_cmd_idx.is_none_or(|n| {
                    n > c.idx
                        && (rec
                            .commands
                            .get(i + 1)
                            .is_some_and(|n| n.program == "iostat")
                            || n > b.idx.0)
                })
        }) else {
            continue;
        };
        let rates = iostat_rates(&io.text);
        let mut ub = UserBenchmark {
            tool: c.program.clone(),
            from: format!(
                "{} (throughput from the iostat at lines {}-{})",
                key_of(io),
                io.first,
                io.last
            ),
            ..Default::default()
        };
        if c.program == "dd" {
            apply_dd_command(&mut ub, &c.text);
        } else {
            ub.command = Some(c.text.clone());
            let args: Vec<&str> = c
                .text
                .split_whitespace()
                .skip(1)
                .filter(|w| !w.starts_with('-'))
                .collect();
            ub.input = args.first().map(|s| s.to_string());
            ub.output = args.get(1).map(|s| s.to_string());
        }
        let dev = ub
            .input
            .as_deref()
            .map(|s| s.trim_start_matches("/dev/").to_string());
        let pick = rates
            .iter()
            .find(|(d, _, _)| Some(d) == dev.as_ref())
            .or_else(|| {
                rates
                    .iter()
                    .max_by(|a, b| a.2.partial_cmp(&b.2).unwrap_or(std::cmp::Ordering::Equal))
            });
        if let Some((d, kbt, mbs)) = pick {
            // FreeBSD iostat MB/s are MiB/s (devstat divides by 1048576).
            ub.bytes_per_sec = Some(mbs * 1048576.0);
            // A raw-device read moves exactly bs per transfer; when iostat shows transfers
            // far larger than the command's bs, the command as pasted is not what ran
            // (seed 001: "bs=128" with 128 KB transfers): trust the measurement.
            let measured = (kbt * 1024.0).round() as u64;
            if let Some(bs) = ub.block_size_bytes {
                if c.program == "dd" && measured >= bs.saturating_mul(8) && c.text.contains("bs=") {
                    ub.block_size_bytes = Some(measured);
                    ub.command = ub.command.map(|cmd| {
                        format!("{cmd}  [the text says bs={bs} bytes, but iostat shows {kbt:.0} KB transfers: a larger bs was run]")
                    });
                }
            }
            ub.command = ub
                .command
                .map(|cmd| format!("{cmd}  [iostat {d}: {mbs:.2} MB/s at {kbt:.2} KB/transfer]"));
            out.push(Bench {
                bench: ub,
                idx: c.idx,
                src: c.src,
            });
        }
    }
    out.sort_by_key(|b| (b.src, b.idx));
    out
}

fn mbs(bps: f64) -> String {
    format!("{:.1} MB/s", bps / 1e6)
}

/// Explain-only observations: cp versus dd on the same text, and the same test with the
/// write cache on and off (the state taken from the nearest `write cache yes yes|no` row
/// or "write caching enabled/disabled" heading above each result).
pub fn observations(
    rec: &Recognized,
    lines: &[super::segment::Line],
    benches: &[Bench],
) -> Vec<Finding> {
    let mut out = Vec::new();
    // cp vs dd.
    let cps: Vec<&Bench> = benches
        .iter()
        .filter(|b| b.bench.tool == "cp" && b.bench.bytes_per_sec.is_some())
        .collect();
    let dds: Vec<&Bench> = benches
        .iter()
        .filter(|b| {
            b.bench.tool == "dd"
                && b.bench.bytes_per_sec.is_some()
                && b.bench.block_size_bytes.unwrap_or(0) >= 65536
        })
        .collect();
    if let (Some(cp), Some(best)) = (
        cps.first(),
        dds.iter().max_by(|a, b| {
            a.bench
                .bytes_per_sec
                .partial_cmp(&b.bench.bytes_per_sec)
                .unwrap_or(std::cmp::Ordering::Equal)
        }),
    ) {
        let c = cp.bench.bytes_per_sec.unwrap_or(0.0);
        let d = best.bench.bytes_per_sec.unwrap_or(0.0);
        if d > c * 1.15 {
            out.push(
                Finding::new(
                    "benchmark-cp-vs-dd",
                    "system",
                    Verdict::Problem,
                    Severity::Info,
                    format!("cp copied at {} where dd read at {}", mbs(c), mbs(d)),
                )
                .explain(format!(
                    "`{}` reached {} while `{}` reached {}. cp reads one file and writes another through \
                     the filesystem, so the disk alternates between reading and writing (and seeks when source \
                     and target share a spindle); dd with a large block reading a raw device streams one way. \
                     The gap ({:.0}%) is the cost of a real copy, not a slow disk: compare cp with a copy \
                     between two different disks, or with dd if=FILE of=/dev/null bs=1m to time the read alone.",
                    cp.bench.command.as_deref().unwrap_or("cp"),
                    mbs(c),
                    best.bench.command.as_deref().unwrap_or("dd"),
                    mbs(d),
                    (1.0 - c / d) * 100.0
                ))
                .evidence(cp.bench.from.clone(), mbs(c))
                .evidence(best.bench.from.clone(), mbs(d))
                .confidence(Confidence::High),
            );
        }
    }
    // Write cache on vs off.
    let mut markers: Vec<(usize, usize, bool, Option<String>, String)> = Vec::new(); // (src, idx, on, device, what)
    for b in &rec.blocks {
        if matches!(b.tool, Tool::AtacontrolCap | Tool::CamcontrolIdentify) {
            if let Some(c) = WC_ROW.captures(&b.text) {
                let on = c.get(2).map(|m| m.as_str()) == Some("yes");
                markers.push((
                    b.src,
                    b.idx.0,
                    on,
                    b.device.clone(),
                    format!("{} lines {}-{}", b.tool.display(), b.first, b.last),
                ));
            }
        }
    }
    for (j, l) in lines.iter().enumerate() {
        if let Some(c) = WC_PROSE.captures(&l.text) {
            let w = c
                .get(1)
                .or(c.get(2))
                .map(|m| m.as_str().to_ascii_lowercase())
                .unwrap_or_default();
            markers.push((
                l.src,
                j,
                w == "enabled" || w == "on",
                None,
                format!("line {}: \"{}\"", l.first, l.text.trim()),
            ));
        }
    }
    markers.sort_by_key(|m| (m.0, m.1));
    // Group results by (device of the nearest marker, state).
    let mut groups: Vec<(Option<String>, bool, Vec<f64>, String, Vec<String>)> = Vec::new();
    for b in benches
        .iter()
        .filter(|b| b.bench.tool == "dd" && b.bench.bytes_per_sec.is_some())
    {
        let Some(m) = markers.iter().rev().find(|m| m.0 == b.src && m.1 < b.idx) else {
            continue;
        };
        // The device: the marker's own, else that of the nearest identify block above.
        let dev = m.3.clone().or_else(|| {
            markers
                .iter()
                .rev()
                .find(|x| x.0 == b.src && x.1 < b.idx && x.3.is_some())
                .and_then(|x| x.3.clone())
        });
        let rate = b.bench.bytes_per_sec.unwrap_or(0.0);
        match groups.iter_mut().find(|g| g.0 == dev && g.1 == m.2) {
            Some(g) => {
                g.2.push(rate);
                g.4.push(b.bench.from.clone());
            }
            None => groups.push((
                dev,
                m.2,
                vec![rate],
                m.4.clone(),
                vec![b.bench.from.clone()],
            )),
        }
    }
    for on in groups.iter().filter(|g| g.1) {
        if let Some(off) = groups.iter().find(|g| !g.1 && g.0 == on.0) {
            let avg = |v: &Vec<f64>| v.iter().sum::<f64>() / v.len().max(1) as f64;
            let (a, b) = (avg(&on.2), avg(&off.2));
            if a <= 0.0 || b <= 0.0 {
                continue;
            }
            let dev = on.0.clone().unwrap_or_else(|| "system".into());
            let mut f = Finding::new(
                "benchmark-write-cache-effect",
                &dev,
                Verdict::Problem,
                if a > b * 1.5 { Severity::Warning } else { Severity::Info },
                format!("the same write test ran at {} with the write cache on and {} with it off", mbs(a), mbs(b)),
            )
            .explain(format!(
                "The text shows the test with the drive's write cache enabled ({} run(s), mean {}; state from {}) \
                 and disabled ({} run(s), mean {}; state from {}): {:.1}x slower without it. Without a \
                 write cache every write waits for the platter, so sequential writes lose the drive's \
                 ability to merge and reorder them. Turn the cache back on (FreeBSD: remove hw.ata.wc=\"0\" \
                 from /boot/loader.conf, or kern.cam.ada.N.write_cache=1 with ada(4)); keep it off only \
                 when a power loss without a UPS must not lose acknowledged writes.",
                on.2.len(),
                mbs(a),
                on.3,
                off.2.len(),
                mbs(b),
                off.3,
                a / b
            ))
            .confidence(Confidence::High)
            .impact((1.0 - b / a).clamp(0.0, 1.0));
            for s in on.4.iter().chain(off.4.iter()) {
                f = f.evidence(s.clone(), "dd result");
            }
            out.push(f);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dd_sizes_follow_dd1() {
        assert_eq!(dd_size("10M"), Some(10 << 20));
        assert_eq!(dd_size("128k"), Some(131072));
        assert_eq!(dd_size("1m"), Some(1 << 20));
        assert_eq!(dd_size("1MB"), Some(1_000_000));
        assert_eq!(dd_size("512"), Some(512));
        assert_eq!(dd_size("x"), None);
    }

    #[test]
    fn gnu_rates_take_decimal_commas() {
        assert_eq!(gnu_rate("9,2", "MB"), Some(9.2e6));
        assert_eq!(gnu_rate("987", "kB"), Some(987e3));
    }

    #[test]
    fn iostat_median_skips_the_since_boot_row() {
        let t = "tty ad4 ad6 cd0 cpu\ntin tout KB/t tps MB/s KB/t tps MB/s KB/t tps MB/s us ni sy in id\n0 2 31.12 2 0.06 124.95 1 0.13 0.00 0 0.00 2 0 0 0 98\n0 232 128.00 489 61.08 0.00 0 0.00 0.00 0 0.00 0 0 3 1 96\n0 78 128.00 505 63.19 0.00 0 0.00 0.00 0 0.00 0 0 5 0 95\n0 78 128.00 505 63.19 0.00 0 0.00 0.00 0 0.00 0 0 1 4 95\n";
        let r = iostat_rates(t);
        assert_eq!(r[0], ("ad4".to_string(), 128.0, 63.19));
        assert_eq!(r[1], ("ad6".to_string(), 0.0, 0.0));
        assert_eq!(r.len(), 3);
    }
}

/// One partition row of a `gpart show` table, with the table it belongs to.
#[derive(Debug, Clone, PartialEq)]
pub struct GpartRow {
    pub table: String,
    pub scheme: String,
    pub start: u64,
    /// Provider name (with -p) or index.
    pub name: String,
    pub kind: String,
}

/// Rows of `gpart show` output (gpart(8): "=> start size provider scheme (size)" headers,
/// then "start size index|provider type (size)"; "- free -" rows are skipped).
pub fn gpart_rows(text: &str) -> Vec<GpartRow> {
    let mut out = Vec::new();
    let mut table = String::new();
    let mut scheme = String::new();
    for l in text.lines() {
        let w: Vec<&str> = l.split_whitespace().collect();
        if w.first() == Some(&"=>") {
            table = w.get(3).map(|s| s.to_string()).unwrap_or_default();
            scheme = w.get(4).map(|s| s.to_string()).unwrap_or_default();
            continue;
        }
        if l.contains("- free -") || w.len() < 4 {
            continue;
        }
        let (Some(start), Some(name), Some(kind)) = (
            w.first().and_then(|s| s.parse::<u64>().ok()),
            w.get(2),
            w.get(3),
        ) else {
            continue;
        };
        out.push(GpartRow {
            table: table.clone(),
            scheme: scheme.clone(),
            start,
            name: name.to_string(),
            kind: kind.to_string(),
        });
    }
    out
}

/// Absolute start sectors of the partitions: a BSD label inside MBR slice `da0s1` adds the
/// slice's start (index 1 of the da0 table).
pub fn absolute_starts(rows: &[GpartRow]) -> Vec<(GpartRow, u64)> {
    rows.iter()
        .map(|r| {
            let parent_start = rows
                .iter()
                .find(|p| {
                    p.table != r.table
                        && (p.name == r.table
                            || r.table
                                .strip_prefix(p.table.as_str())
                                .is_some_and(|s| s.trim_start_matches(['s', 'p']) == p.name))
                })
                .map(|p| p.start)
                .unwrap_or(0);
            (r.clone(), parent_start + r.start)
        })
        .collect()
}

static STRIPE: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^\s*(\d+)\s+# stripesize"));

/// Observation: the text shows more than one partition layout of a disk (seed 003: MBR then
/// GPT) with results under each. Reports every start's 4K alignment against the stripe size
/// diskinfo printed, and the results measured under each layout, as the text gives them.
pub fn layout_observations(rec: &Recognized, benches: &[Bench]) -> Vec<Finding> {
    let tables: Vec<&Block> = rec
        .blocks
        .iter()
        .filter(|b| b.tool == Tool::GpartShow)
        .collect();
    if tables.len() < 2 {
        return Vec::new();
    }
    let disk = tables
        .iter()
        .find_map(|b| b.device.clone())
        .unwrap_or_else(|| "system".into());
    let stripe: Option<u64> = rec
        .blocks
        .iter()
        .filter(|b| b.tool == Tool::Diskinfo)
        .find_map(|b| {
            STRIPE
                .captures(&b.text)
                .and_then(|c| c.get(1)?.as_str().parse().ok())
        })
        .filter(|s: &u64| *s > 0);
    let phys = stripe.unwrap_or(4096);
    let mut parts = Vec::new();
    let mut any_misaligned = false;
    let mut ranges = Vec::new();
    for (n, t) in tables.iter().enumerate() {
        let rows = gpart_rows(&t.text);
        let starts = absolute_starts(&rows);
        let desc: Vec<String> = starts
            .iter()
            .map(|(r, abs)| {
                let aligned = (abs * 512) % phys == 0;
                any_misaligned |= !aligned;
                format!(
                    "{} {} {} at sector {}{} ({})",
                    r.scheme,
                    r.name,
                    r.kind,
                    abs,
                    if *abs != r.start {
                        format!(" = {} + {}", abs - r.start, r.start)
                    } else {
                        String::new()
                    },
                    if aligned {
                        format!("{}-byte aligned", phys)
                    } else {
                        format!("NOT {}-byte aligned", phys)
                    }
                )
            })
            .collect();
        // Results measured after this table and before the next one (files only).
        let next = tables.get(n + 1).map(|b| b.idx.0).unwrap_or(usize::MAX);
        let rates: Vec<f64> = benches
            .iter()
            .filter(|b| {
                b.idx >= t.idx.0
                    && b.idx < next
                    && b.bench
                        .output
                        .as_deref()
                        .is_some_and(|o| !o.starts_with("/dev/"))
            })
            .filter_map(|b| b.bench.bytes_per_sec)
            .collect();
        let res = if rates.is_empty() {
            String::new()
        } else {
            let lo = rates.iter().cloned().fold(f64::INFINITY, f64::min);
            let hi = rates.iter().cloned().fold(0.0, f64::max);
            ranges.push((lo, hi));
            format!(
                "; file writes after it: {}-{} ({} runs)",
                mbs(lo),
                mbs(hi),
                rates.len()
            )
        };
        parts.push(format!(
            "layout {} (lines {}-{}): {}{}",
            n + 1,
            t.first,
            t.last,
            desc.join(", "),
            res
        ));
    }
    let stripe_note = match stripe {
        Some(s) => format!(
            "diskinfo reports stripesize {s}, so a start is aligned when start x 512 is a multiple of {s}"
        ),
        None => "no stripe size was pasted; 4096 bytes (a 4K-sector drive) is assumed".to_string(),
    };
    let verdict_text = if any_misaligned {
        "At least one layout starts a partition off a physical-sector boundary: every write to it becomes a read-modify-write of two sectors."
    } else {
        "Every start in both layouts is aligned, so alignment does not explain a difference between the results; look at what else changed between the runs (how much was written per run: larger runs reach the slower inner tracks; the filesystem; the run order)."
    };
    vec![
        Finding::new(
            "partition-layout-compared",
            &disk,
            Verdict::Problem,
            if any_misaligned {
                Severity::Warning
            } else {
                Severity::Info
            },
            format!(
                "the text shows {} partition layouts of {disk}",
                tables.len()
            ),
        )
        .explain(format!(
            "{}. {stripe_note}. {verdict_text}",
            parts.join("; ")
        ))
        .evidence(
            tables
                .first()
                .map(|t| format!("gpart show lines {}-{}", t.first, t.last))
                .unwrap_or_default(),
            "first layout",
        )
        .evidence(
            tables
                .last()
                .map(|t| format!("gpart show lines {}-{}", t.first, t.last))
                .unwrap_or_default(),
            "last layout",
        )
        .confidence(Confidence::Medium),
    ]
}
