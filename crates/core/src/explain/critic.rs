//! The benchmark critic's input side: turn the dd/cp/hdparm -t/diskinfo -t/fio runs found in
//! pasted text into [`UserBenchmark`]s (command paired with its result, throughput read from
//! an iostat that ran alongside when dd printed nothing), and two explain-only observations:
//! cp versus dd, and the same test with the drive's write cache on and off.
//! References: dd(1) (POSIX default bs 512; BSD "bytes transferred in S secs (R bytes/sec)";
//! GNU "B bytes (..) copied, S s, R MB/s", SI units), iostat(8) (FreeBSD KB/t tps MB/s columns).

use regex::Regex;
use std::sync::LazyLock;

use super::recognize::{Block, Command, Recognized};
use crate::checks::{Confidence, Finding, Fix, Severity, Verdict};
use crate::evidence::Platform;
use crate::facts::UserBenchmark;
use crate::sources;

fn re(s: &str) -> Regex {
    Regex::new(s).expect("static regex")
}
static WC_ROW: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^write cache\s+(yes|no)\s+(yes|no|-)"));
static WC_PROSE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)^\s*write[- ]cach(?:e|ing)\s+(?:is\s+|was\s+)?(enabled|disabled|on|off)\b|^\s*(?:with(?:out)?\s+)?write[- ]cach(?:e|ing)\s+(enabled|disabled)\s*$",
    )
});
static FS_WORD: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)\b(zfs|zpool|ufs|newfs(?:'ing)?|ext4|ext3|xfs|btrfs|ntfs|f2fs)\b"));

/// dd runs in `text` as the shared dd parser reads them (sources::dd): command lines
/// paired with their results, block size from bs= or bytes / records.
fn dd_runs(text: &str) -> Vec<UserBenchmark> {
    crate::sources::dd::parse(text)
}

/// bs * count of a dd command, to pair it with a result pasted far from it.
fn dd_planned_bytes(cmd: &str) -> Option<u64> {
    let b = dd_runs(cmd).into_iter().next()?;
    let count = cmd
        .split_whitespace()
        .find_map(|w| w.strip_prefix("count="))
        .and_then(crate::sources::util::parse_size)?;
    b.block_size_bytes?.checked_mul(count)
}

/// Per-device (device, KB per transfer, MB/s) of an iostat block, from the shared iostat
/// parser (sources::iostat): the median over the reports after the first (the first is
/// the average since boot).
fn iostat_rates(text: &str) -> Vec<(String, f64, f64)> {
    let samples = crate::sources::iostat::parse(text);
    let mut devs: Vec<String> = Vec::new();
    for s in &samples {
        if !devs.contains(&s.device) {
            devs.push(s.device.clone());
        }
    }
    devs.into_iter()
        .filter_map(|d| {
            let all: Vec<&crate::sources::iostat::IostatSample> =
                samples.iter().filter(|s| s.device == d).collect();
            let any_later = all.iter().any(|s| s.report > 0);
            let mut pts: Vec<(f64, f64)> = all
                .iter()
                .filter(|s| !any_later || s.report > 0)
                .filter_map(|s| Some((s.kb_per_transfer.unwrap_or(0.0), s.mb_per_sec?)))
                .collect();
            if pts.is_empty() {
                return None;
            }
            pts.sort_by(|a, b| a.1.partial_cmp(&b.1).unwrap_or(std::cmp::Ordering::Equal));
            let mid = pts.get(pts.len() / 2).copied()?;
            Some((d, mid.0, mid.1))
        })
        .collect()
}

/// Which filesystem the text last named before line `idx` (within 60 lines), else the first
/// it names in the 30 lines after: "zfs", "ufs"...
fn fs_near(lines: &[super::segment::Line], idx: usize, src: usize) -> Option<String> {
    // The nearest filesystem word of the same text among `js`, in their order.
    let scan = |js: &mut dyn Iterator<Item = usize>| -> Option<String> {
        for j in js {
            let l = lines.get(j)?;
            if l.src != src {
                continue;
            }
            let mut words = FS_WORD.find_iter(&l.text);
            let w = if j < idx { words.last() } else { words.next() };
            if let Some(m) = w {
                let w = m.as_str().to_ascii_lowercase();
                return Some(match w.as_str() {
                    "zpool" => "zfs".to_string(),
                    w if w.starts_with("newfs") => "ufs".to_string(),
                    w => w.to_string(),
                });
            }
        }
        None
    };
    // Nothing named before the test: the filesystem the poster shows after it (its mount
    // options, `btrfs --version`, `zfs get compression`) in the next lines of the same text.
    scan(&mut (idx.saturating_sub(60)..idx).rev())
        .or_else(|| scan(&mut (idx.saturating_add(1)..idx.saturating_add(30))))
}

/// Everything the critic needs from the recognised text.
pub struct Bench {
    pub bench: UserBenchmark,
    /// Index of the line the result (or command) is on, for ordering and context.
    pub idx: usize,
    pub src: usize,
}

/// Below this many bytes a dd copy is not a speed test: 64 KiB is one request of the
/// 64 KiB block size benchmark-small-blocks already calls large enough, so a copy under it
/// has not even one full-size request to time.
const DD_MIN_TEST_BYTES: u64 = 64 * 1024;
/// A copy under DD_MIN_TEST_BYTES that took at least this long was timed by the device, not
/// by system calls: a hundred 512-byte write(2) calls cost milliseconds, not a second.
const DD_SLOW_TINY_SECS: f64 = 1.0;

/// One dd invocation of a typed command line: the line's own dd, or each dd of a
/// `;`/`&&` list (`hdparm -Tt /dev/sda ; dd if=/dev/zero of=f bs=1G count=1`, `dd if=a
/// of=b; dd if=b of=c`), as dd(1) operands read from the line.
struct DdCmd<'a> {
    cmd: &'a Command,
    /// The invocation: the line as typed when it holds one dd only.
    text: String,
    /// Another program's output (or another dd's) comes before this one's.
    after_other: bool,
}

fn dd_invocations(rec: &Recognized) -> Vec<DdCmd<'_>> {
    let mut out = Vec::new();
    for c in rec.commands.iter().filter(|c| c.typed) {
        let runs: Vec<String> = dd_runs(&c.text)
            .into_iter()
            .filter_map(|r| r.command)
            .collect();
        if c.program == "dd" && runs.len() <= 1 {
            out.push(DdCmd {
                cmd: c,
                text: c.text.clone(),
                after_other: false,
            });
            continue;
        }
        for (k, text) in runs.into_iter().enumerate() {
            out.push(DdCmd {
                cmd: c,
                text,
                after_other: k > 0 || c.program != "dd",
            });
        }
    }
    out
}

/// Extract the user's benchmarks, each from the capture key its block was stored under.
pub fn user_benchmarks(rec: &Recognized, lines: &[super::segment::Line]) -> Vec<Bench> {
    let mut out: Vec<Bench> = Vec::new();
    let dd_cmds = dd_invocations(rec);
    let mut paired = vec![false; dd_cmds.len()];
    // `time sync` / `time umount` reports: (input, line index, wall-clock seconds, what).
    let mut flushes: Vec<(usize, usize, f64, String)> = Vec::new();
    for b in &rec.blocks {
        let key = b.key.clone();
        match b.tool {
            t if t.is(&sources::shell_time::SPEC) => {
                // The command typed above the report is what it timed (the recogniser
                // attaches only copies and flushes, sources::shell_time).
                let (Some(cmd), Some(run)) = (
                    b.command.as_deref(),
                    sources::shell_time::parse(&b.text).into_iter().next(),
                ) else {
                    continue;
                };
                if sources::shell_time::is_flush_command(cmd) {
                    flushes.push((b.src, b.idx.0, run.real_s, cmd.to_string()));
                    continue;
                }
                let mut words = cmd.split_whitespace();
                let tool = words.next().unwrap_or("");
                if !matches!(tool, "cp" | "rsync") {
                    continue;
                }
                let paths: Vec<&str> = words.filter(|w| !w.starts_with('-')).collect();
                out.push(Bench {
                    bench: UserBenchmark {
                        tool: tool.to_string(),
                        command: Some(cmd.to_string()),
                        input: paths
                            .first()
                            .filter(|_| paths.len() >= 2)
                            .map(|p| p.to_string()),
                        output: paths
                            .last()
                            .filter(|_| paths.len() >= 2)
                            .map(|p| p.to_string()),
                        flags: cmd
                            .split_whitespace()
                            .filter(|w| w.starts_with('-'))
                            .map(str::to_string)
                            .collect(),
                        seconds: Some(run.real_s),
                        time_real_s: Some(run.real_s),
                        time_cpu_s: run.cpu_s(),
                        from: key.clone(),
                        ..Default::default()
                    },
                    idx: b.idx.0,
                    src: b.src,
                });
            }
            t if t.is(&sources::dd::SPEC) => {
                // The command typed just before (same input, within 4 lines) produced it;
                // a dd later in a `;`/`&&` list (bash(1) "Lists") prints after the outputs of
                // the members before it, so its window starts where their blocks end. Of the
                // dds of one line, the first not yet paired ran first.
                let start = |c: &DdCmd| {
                    rec.blocks
                        .iter()
                        .filter(|o| o.src == b.src && o.idx.0 > c.cmd.idx && o.idx.0 < b.idx.0)
                        .filter(|_| c.after_other)
                        .map(|o| o.idx.1.saturating_sub(1))
                        .max()
                        .unwrap_or(c.cmd.idx)
                };
                let cands: Vec<usize> = dd_cmds
                    .iter()
                    .enumerate()
                    .filter(|(i, c)| {
                        !paired.get(*i).copied().unwrap_or(true)
                            && c.cmd.src == b.src
                            && c.cmd.idx < b.idx.0
                            && b.idx.0 - start(c) <= 4
                    })
                    .map(|(i, _)| i)
                    .collect();
                // (One pasted line the segmenter split in two is one line here.)
                let last_line = cands
                    .iter()
                    .filter_map(|i| dd_cmds.get(*i))
                    .map(|c| c.cmd.line)
                    .max();
                let near = cands
                    .into_iter()
                    .find(|i| dd_cmds.get(*i).map(|c| c.cmd.line) == last_line);
                let alone = dd_runs(&b.text)
                    .into_iter()
                    .rev()
                    .find(|r| r.bytes.is_some());
                // Else a command anywhere in the text whose bs * count is exactly the byte
                // count (seed 000 states its command once, above three results).
                // The nearest such command above the result, else the first.
                let far = near.or_else(|| {
                    let bytes = alone.as_ref()?.bytes?;
                    let fits =
                        |c: &&DdCmd| c.cmd.src == b.src && dd_planned_bytes(&c.text) == Some(bytes);
                    dd_cmds
                        .iter()
                        .rposition(|c| fits(&c) && c.cmd.idx < b.idx.0)
                        .or_else(|| dd_cmds.iter().position(|c| fits(&c)))
                });
                let cmd = far.and_then(|i| dd_cmds.get(i));
                if let (Some(i), true) = (far, near.is_some())
                    && let Some(p) = paired.get_mut(i)
                {
                    *p = true;
                }
                let text = match cmd {
                    Some(c) => format!("{}\n{}", c.text, b.text),
                    None => b.text.clone(),
                };
                let Some(mut ub) = dd_runs(&text)
                    .into_iter()
                    .rev()
                    .find(|r| r.bytes.is_some())
                    .or(alone)
                else {
                    continue;
                };
                // A dd that moved less than a few requests' worth wrote a key file, a boot
                // sector or a label: GNU dd prints a rate for any copy, but the time of so
                // few bytes is the system calls', not the disk's (a 256-byte key "at 9.5
                // MB/s" measures nothing), so it is no speed test to judge. A copy that
                // small which still took seconds is the opposite: the device answered so
                // slowly that the time is its own (a flash key writing 40 KiB in 416 s).
                if ub.bytes.is_some_and(|n| n < DD_MIN_TEST_BYTES)
                    && ub.seconds.is_none_or(|s| s < DD_SLOW_TINY_SECS)
                {
                    continue;
                }
                // Keep the line as pasted (with its "# raw" comment) as the command.
                if let Some(c) = cmd {
                    ub.command = Some(c.text.clone());
                }
                ub.from = match (cmd, near) {
                    (Some(c), None) => format!("{key} (command from line {})", c.cmd.line),
                    _ => key.clone(),
                };
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
            t if t.is(&sources::hdparm::TIMING_SPEC) => {
                for mut ub in crate::sources::hdparm::parse_timing(&b.text) {
                    if ub.input.is_none() {
                        ub.input = b.device.as_ref().map(|d| format!("/dev/{d}"));
                    }
                    // The command as typed at its prompt ("# hdparm -tT /dev/sda",
                    // "root@host:~# ...", "$ sudo hdparm ..."): the recogniser's prompt
                    // forms (recognize::PROMPT_LEAD) took it off the line above the output.
                    if ub.command.is_none() {
                        ub.command = b.command.clone();
                    }
                    ub.from = key.clone();
                    out.push(Bench {
                        bench: ub,
                        idx: b.idx.0,
                        src: b.src,
                    });
                }
            }
            t if t.is(&sources::yabs::SPEC) => {
                // Each column of yabs's fio table is one mixed random run (sources::yabs):
                // its read and its write half, O_DIRECT, on a file of the current partition.
                for r in sources::yabs::parse(&b.text).1 {
                    let kb = r.block_bytes / 1024;
                    for (dir, rate) in [("read", r.read_bps), ("write", r.write_bps)] {
                        let Some(rate) = rate.filter(|v| v.is_finite() && *v > 0.0) else {
                            continue;
                        };
                        out.push(Bench {
                            bench: UserBenchmark {
                                tool: "fio".into(),
                                command: Some(format!(
                                    "yabs.sh fio --rw=randrw --rwmixread=50 --bs={kb}k --iodepth=64 --numjobs=2 --direct=1 ({dir})"
                                )),
                                block_size_bytes: Some(r.block_bytes),
                                bytes_per_sec: Some(rate),
                                flags: ["direct=1", "rw=randrw", "iodepth=64", "numjobs=2"]
                                    .map(String::from)
                                    .to_vec(),
                                from: key.clone(),
                                ..Default::default()
                            },
                            idx: b.idx.0,
                            src: b.src,
                        });
                    }
                }
            }
            t if t.is_any(&[&sources::pv::SPEC, &sources::progress::SPEC]) => {
                let runs = if t.is(&sources::pv::SPEC) {
                    sources::pv::parse(&b.text)
                } else {
                    sources::progress::parse(&b.text)
                };
                for mut ub in runs {
                    ub.command = ub.command.or_else(|| b.command.clone());
                    ub.from = key.clone();
                    out.push(Bench {
                        bench: ub,
                        idx: b.idx.0,
                        src: b.src,
                    });
                }
            }
            t if t.is(&sources::rsync::SPEC) => {
                for mut ub in sources::rsync::parse(&b.text) {
                    if ub.command.is_none() {
                        ub.command = b.command.clone().filter(|c| c.starts_with("rsync "));
                    }
                    ub.from = key.clone();
                    out.push(Bench {
                        bench: ub,
                        idx: b.idx.0,
                        src: b.src,
                    });
                }
            }
            t if t.is(&sources::f3::SPEC) => {
                let typed = b
                    .command
                    .as_deref()
                    .filter(|c| c.starts_with("f3read") || c.starts_with("f3write"));
                for run in sources::f3::parse(&b.text) {
                    out.push(Bench {
                        bench: run.to_benchmark(&key, typed),
                        idx: b.idx.0,
                        src: b.src,
                    });
                }
            }
            t if t.is(&sources::cryptsetup_benchmark::SPEC) => {
                // The cipher's speed in memory: what any dm-crypt/LUKS volume can reach at
                // most; decryption is what a read costs. No disk is involved (no input).
                for c in sources::cryptsetup_benchmark::parse(&b.text) {
                    out.push(Bench {
                        bench: UserBenchmark {
                            tool: "cryptsetup benchmark".into(),
                            command: Some(format!(
                                "cryptsetup benchmark ({} {}b, decryption)",
                                c.cipher, c.key_bits
                            )),
                            bytes_per_sec: Some(c.decrypt_bytes_per_sec),
                            from: key.clone(),
                            ..Default::default()
                        },
                        idx: b.idx.0,
                        src: b.src,
                    });
                }
            }
            t if t.is(&sources::diskinfo::SPEC) => {
                let di = crate::sources::diskinfo::parse(&b.text);
                for (zone, kbps) in di.transfers_kbps {
                    out.push(Bench {
                        bench: UserBenchmark {
                            tool: "diskinfo -t".into(),
                            command: Some(format!("diskinfo -t ({zone})")),
                            input: b.device.as_ref().map(|d| format!("/dev/{d}")),
                            bytes_per_sec: Some(kbps * 1024.0),
                            from: key.clone(),
                            ..Default::default()
                        },
                        idx: b.idx.0,
                        src: b.src,
                    });
                }
            }
            t if t.is_any(&[&sources::fio::SPEC, &sources::fio::JSON_SPEC]) => {
                let Some(rep) = crate::sources::fio::parse(&b.text) else {
                    continue;
                };
                // The typed command line says what the text report does not print: fio(1)
                // "direct=bool" (default false: buffered I/O through the page cache) and
                // the flushes (fsync=int, fdatasync=int, end_fsync=bool, sync=bool).
                let typed = b.command.as_deref().filter(|c| c.starts_with("fio "));
                let opt = sources::fio::command_flag;
                let buffered = typed.is_some_and(|c| {
                    !sources::fio::command_job_file(c)
                        && !opt(c, "direct")
                        && !["fsync", "fdatasync", "end_fsync", "sync", "buffered"]
                            .iter()
                            .any(|n| opt(c, n))
                });
                for job in &rep.jobs {
                    for d in &job.results {
                        let mut flags = Vec::new();
                        if job.direct == Some(true) || typed.is_some_and(|c| opt(c, "direct")) {
                            flags.push("direct=1".to_string());
                        }
                        if job.fdatasync_every.is_some() || job.fsync_every.is_some() {
                            flags.push("conv=fdatasync".to_string());
                        }
                        if buffered && job.direct != Some(true) {
                            flags.push("buffered".to_string());
                        }
                        // Each write durable before the next (fio(1)): sync=1 or sync=sync
                        // opens with O_SYNC, sync=dsync with O_DSYNC, fsync=1 and
                        // fdatasync=1 flush after every write: dd's oflag=sync and
                        // oflag=dsync.
                        if let Some(flag) = fio_per_write_sync(job, typed) {
                            flags.push(flag.to_string());
                        }
                        // A report without its "(g=0): rw=..." job line: the typed
                        // command's options (one job on the command line).
                        let from_cmd = |name: &str| {
                            typed
                                .filter(|_| rep.jobs.len() == 1)
                                .and_then(|c| sources::fio::command_option(c, name))
                        };
                        out.push(Bench {
                            bench: UserBenchmark {
                                tool: "fio".into(),
                                command: Some(format!(
                                    "fio {} rw={} bs={} ({})",
                                    job.name,
                                    job.rw.as_deref().or(from_cmd("rw")).unwrap_or("?"),
                                    job.bs.as_deref().or(from_cmd("bs")).unwrap_or("?"),
                                    d.dir
                                )),
                                input: job.filename.clone(),
                                block_size_bytes: job.block_size_bytes.or_else(|| {
                                    typed
                                        .filter(|_| rep.jobs.len() == 1)
                                        .and_then(sources::fio::command_block_size)
                                }),
                                bytes_per_sec: d.bytes_per_sec,
                                flags,
                                // fio(1) "lat": slat + clat, the whole request; sync
                                // engines print no slat, their clat is the whole request.
                                request_latency_us: d
                                    .clat_mean_us
                                    .map(|c| c + d.slat_mean_us.unwrap_or(0.0)),
                                from: key.clone(),
                                ..Default::default()
                            },
                            idx: b.idx.0,
                            src: b.src,
                        });
                    }
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
        .filter(|b| b.tool.is(&sources::iostat::SPEC))
        .collect();
    for (i, c) in rec.commands.iter().enumerate() {
        if !c.typed || !(c.program == "dd" || c.program == "cp") {
            continue;
        }
        if c.program == "dd"
            && dd_cmds
                .iter()
                .zip(&paired)
                .any(|(d, p)| *p && std::ptr::eq(d.cmd, c))
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
            // A dd command typed with no result and no iostat beside it (the poster gave the
            // rate in words, or not at all) still says what was measured: its source, target
            // and block size are evidence of their own (dd(1): bs defaults to 512 bytes).
            if c.program == "dd"
                && let Some(mut parsed) = dd_runs(&c.text).into_iter().next()
            {
                parsed.command = Some(c.text.clone());
                parsed.from = format!("the dd command at line {}", c.line);
                if parsed
                    .output
                    .as_deref()
                    .is_some_and(|o| !o.starts_with("/dev/"))
                {
                    parsed.filesystem = fs_near(lines, c.idx, c.src);
                }
                out.push(Bench {
                    bench: parsed,
                    idx: c.idx,
                    src: c.src,
                });
            }
            continue;
        };
        let rates = iostat_rates(&io.text);
        let mut ub = UserBenchmark {
            tool: c.program.clone(),
            from: format!(
                "{} (throughput from the iostat at lines {}-{})",
                io.key.clone(),
                io.first,
                io.last
            ),
            ..Default::default()
        };
        if c.program == "dd" {
            let Some(parsed) = dd_runs(&c.text).into_iter().next() else {
                continue;
            };
            ub.command = Some(c.text.clone());
            ub.input = parsed.input;
            ub.output = parsed.output;
            ub.block_size_bytes = parsed.block_size_bytes;
            ub.flags = parsed.flags;
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
            if let Some(bs) = ub.block_size_bytes
                && c.program == "dd"
                && measured >= bs.saturating_mul(8)
                && c.text.contains("bs=")
            {
                ub.block_size_bytes = Some(measured);
                ub.command = ub.command.map(|cmd| {
                        format!("{cmd}  [the text says bs={bs} bytes, but iostat shows {kbt:.0} KB transfers: a larger bs was run]")
                    });
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
    crate::sort::sort_by_key(&mut out, |b| (b.src, b.idx));
    // A flush timed after a copy waited for the copy's writeback: the copy nearest above it
    // in the same input carries its time (benchmark-page-cache compares the two).
    for (src, idx, real, what) in flushes {
        if let Some(b) = out
            .iter_mut()
            .rev()
            .filter(|b| b.src == src && b.idx < idx)
            .find(|b| matches!(b.bench.tool.as_str(), "cp" | "rsync" | "dd" | "pv"))
            .filter(|b| b.bench.flush_real_s.is_none())
        {
            b.bench.flush_real_s = Some(real);
            b.bench.flush_command = Some(what);
        }
    }
    out
}

fn mbs(bps: f64) -> String {
    format!("{:.1} MB/s", bps / 1e6)
}

/// Results under one write-cache state: (device, cache on, rates, where the state was read,
/// result sources).
type Group = (Option<String>, bool, Vec<f64>, String, Vec<String>);

/// The head of every "a cache answered, not the disk" finding (f3read, dd under `time`,
/// CrystalDiskMark's Q1 random reads): one id, the system as its subject, a notice-level
/// problem; each caller adds its own explanation and evidence.
fn cache_answered(summary: String) -> Finding {
    Finding::new(
        "cache-answered",
        "system",
        Verdict::Problem,
        Severity::Notice,
        summary,
    )
}

/// Explain-only observations: cp versus dd on the same text, and the same test with the
/// write cache on and off (the state taken from the nearest `write cache yes yes|no` row
/// or "write caching enabled/disabled" heading above each result).
pub(crate) fn observations(
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
    // f3read reads back the files f3write just wrote, through the page cache: f3 only
    // advises the kernel to drop them first (sources::f3), and a system or filesystem that
    // keeps them (the ZFS ARC, a second run on Windows: AltraMayor/f3#41 "797.27MB/s ...
    // (read from cache)") answers from RAM. At most 2 GiB read back at 600 MB/s or more,
    // beyond a SATA 3 link and the 500 MB/s a USB 3 Gen 1 link carries after line coding
    // (checks/effect/usb.rs), while f3 is made for the flash sticks and cards behind such
    // links, fits the page cache of any machine that ran it: the cache answered.
    for b in benches.iter().filter(|b| b.bench.tool == "f3read") {
        let (Some(rate), Some(bytes)) = (b.bench.bytes_per_sec, b.bench.bytes) else {
            continue;
        };
        if rate < 6.0e8 || bytes == 0 || bytes > 2 << 30 {
            continue;
        }
        out.push(
            cache_answered(format!(
                "f3read read {:.2} GiB back at {}: a cache answered, not the drive",
                bytes as f64 / f64::from(1u32 << 30),
                mbs(rate)
            ))
            .explain(format!(
                "f3read validated {:.2} GiB at {}, faster than a SATA 3 link or a USB 3 Gen 1 \
                 link carries and far beyond a USB 2 stick or a memory card. f3read reads \
                 through the page cache and only asks the kernel to drop the files f3write \
                 left there; data this small fits in RAM, so the figure is the cache's. The \
                 check of the data still stands only if the drive was unplugged (or the \
                 filesystem unmounted) between f3write and f3read: do that, then run f3read \
                 again for both the data check and a real reading speed.",
                bytes as f64 / f64::from(1u32 << 30),
                mbs(rate)
            ))
            .evidence(b.bench.from.clone(), mbs(rate))
            .confidence(Confidence::Medium),
        );
    }
    // A buffered dd read whose shell `time` shows the process on the CPU for (nearly) all of
    // its wall time: a read that waits on a device sleeps until the data arrives, and that
    // sleep is real time without user or sys time (time(1), getrusage(2)). With at least
    // 90 % of the wall time spent on the CPU, dd never waited: the data was already in RAM
    // (the page cache), or came faster than one CPU copies it, and either way the figure is
    // not the disk's. Only a rate beyond what a SATA link carries (600 MB/s) is taken, and
    // only reads of a file or device (not /dev/zero) to /dev/null without iflag=direct.
    for b in benches.iter().filter(|b| b.bench.tool == "dd") {
        let u = &b.bench;
        let (Some(rate), Some(real), Some(cpu)) = (u.bytes_per_sec, u.time_real_s, u.time_cpu_s)
        else {
            continue;
        };
        let from_storage = u
            .input
            .as_deref()
            .is_some_and(|i| !crate::checks::pasted_common::is_pseudo(i));
        if !u
            .output
            .as_deref()
            .is_some_and(crate::checks::pasted_common::is_sink)
            || !from_storage
            || u.flags.iter().any(|f| f == "iflag=direct")
            || rate < 6.0e8
            || real <= 0.0
            || cpu < 0.9 * real
        {
            continue;
        }
        out.push(
            cache_answered(format!(
                    "{} read at {} with the CPU busy {:.2} s of {:.2} s: it never waited on the disk",
                    u.input.as_deref().unwrap_or("the file"),
                    mbs(rate),
                    cpu,
                    real
                ),
            )
            .explain(format!(
                "The shell's `time` says dd spent {cpu:.2} s on the CPU (user + sys) in {real:.2} s \
                 of wall time. A read that goes to a disk sleeps while the disk fetches the \
                 data, which shows as real time beyond user + sys; here there was none, so the \
                 data was already in RAM: the page cache held the file from an earlier read or \
                 write, and {} is the speed of copying memory, not of the disk. Drop the cache \
                 first (`sync; echo 3 > /proc/sys/vm/drop_caches`), or read with iflag=direct \
                 and a file larger than the RAM.",
                mbs(rate)
            ))
            .evidence(u.from.clone(), format!("{} real {real:.3} s, user+sys {cpu:.3} s", mbs(rate)))
            .confidence(Confidence::High),
        );
    }
    // A CrystalDiskMark / KDiskMark random 4 KiB read at queue depth 1 faster than any
    // storage device answers one (nvme_diskmark::diskmark_q1_random_from_ram): the tools ask
    // for unbuffered I/O (KDiskMark: fio --direct=1), but a filesystem that does not honour
    // it (FUSE ntfs-3g; axboe/fio#642) serves the test file from the page cache.
    for (rate, key) in super::nvme_diskmark::diskmark_q1_random_from_ram(rec) {
        out.push(
            cache_answered(format!(
                "random 4 KiB reads at queue depth 1 ran at {}: RAM answered, not the drive",
                mbs(rate)
            ))
            .explain(format!(
                "One 4 KiB read at a time at {} is under 8 us per read. NAND flash needs 40-100 us \
                 per read and even an Optane SSD some 10 us through the kernel, so no drive \
                 answered these reads: the benchmark's test file came from the page cache, and \
                 its other read figures are RAM's too. The tool asked for direct I/O, which the \
                 filesystem did not honour (NTFS through ntfs-3g/FUSE, for one, falls back to \
                 buffered I/O; ZFS before OpenZFS 2.3 accepts O_DIRECT and reads through its \
                 ARC, so a test file smaller than the RAM is read from memory). Benchmark a native filesystem (ext4) on the drive, or read the \
                 raw device with `fio --direct=1`.",
                mbs(rate)
            ))
            .evidence(key, format!("RND4K Q1T1 read {}", mbs(rate)))
            .confidence(Confidence::High),
        );
    }
    // Write cache on vs off.
    let mut markers: Vec<(usize, usize, bool, Option<String>, String)> = Vec::new(); // (src, idx, on, device, what)
    for b in &rec.blocks {
        if b.tool.is_any(&[
            &sources::camcontrol_identify::ATACONTROL_SPEC,
            &sources::camcontrol_identify::SPEC,
        ]) && let Some(c) = WC_ROW.captures(&b.text)
        {
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
    crate::sort::sort_by_key(&mut markers, |m| (m.0, m.1));
    // Group results by (device of the nearest marker, state).
    let mut groups: Vec<Group> = Vec::new();
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

/// dd's name for a fio job whose every write is durable before the next one is sent (fio(1):
/// "sync=bool|sync|dsync" opens the file with O_SYNC or O_DSYNC; "fsync=int" and
/// "fdatasync=int" flush after that many writes, so 1 flushes each one), from the job's
/// options or the typed command line; None for buffered or merely direct writes.
fn fio_per_write_sync(job: &sources::fio::FioJob, typed: Option<&str>) -> Option<&'static str> {
    let typed_opt = |n: &str| typed.and_then(|c| sources::fio::command_option(c, n));
    match typed_opt("sync") {
        Some("dsync") => return Some("oflag=dsync"),
        Some("0" | "false" | "none") | None => {}
        Some(_) => return Some("oflag=sync"),
    }
    let every_write = |job_n: Option<u32>, name: &str| {
        job_n == Some(1) || typed_opt(name).is_some_and(|v| v.parse::<u32>().ok() == Some(1))
    };
    (every_write(job.fsync_every, "fsync") || every_write(job.fdatasync_every, "fdatasync"))
        .then_some("oflag=dsync")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// fio's per-write durability options, typed or in the job's options, as dd's flags;
    /// near misses: sync=0, a flush every 32 writes, O_DIRECT alone, no command.
    #[test]
    fn fio_sync_options_are_dd_s_sync_flags() {
        let job = sources::fio::FioJob::default();
        let f = |c: &str| fio_per_write_sync(&job, Some(c));
        assert_eq!(
            f("fio --filename=/dev/sda --direct=1 --sync=1 --rw=randwrite --bs=4k"),
            Some("oflag=sync")
        );
        assert_eq!(
            f("fio --name=t --sync=dsync --rw=write"),
            Some("oflag=dsync")
        );
        assert_eq!(f("fio -name=t -sync --rw=write"), Some("oflag=sync"));
        assert_eq!(
            f("fio --name=t --fsync=1 --rw=randwrite"),
            Some("oflag=dsync")
        );
        assert_eq!(
            f("fio --name=t --fdatasync 1 --rw=write"),
            Some("oflag=dsync")
        );
        assert_eq!(f("fio --name=t --sync=0 --rw=randwrite"), None);
        assert_eq!(f("fio --name=t --fsync=32 --rw=randwrite"), None);
        assert_eq!(f("fio --name=t --direct=1 --rw=randwrite"), None);
        assert_eq!(f("fio --name=t --end_fsync=1 --rw=write"), None);
        assert_eq!(fio_per_write_sync(&job, None), None);
        let json_job = sources::fio::FioJob {
            fdatasync_every: Some(1),
            ..Default::default()
        };
        assert_eq!(fio_per_write_sync(&json_job, None), Some("oflag=dsync"));
    }

    fn problem_ids(text: &str) -> Vec<(String, String)> {
        let e = crate::explain::explain(&[crate::explain::Input {
            label: "paste".into(),
            bytes: text.as_bytes().to_vec(),
        }])
        .expect("explain runs");
        e.findings
            .iter()
            .filter(|f| f.verdict == Verdict::Problem)
            .map(|f| (f.check.clone(), f.device.clone()))
            .collect()
    }

    /// `lsblk -o NAME,HCTL,TRAN,MODEL`: TRAN "ata" is a libata SFF driver (ata_piix,
    /// pata_*), the controller side; a WD SATA model on it is a SATA drive in IDE mode, a
    /// WD parallel-ATA model is at home there, another model is unknown.
    #[test]
    fn lsblk_tran_ata_is_an_ide_mode_driver() {
        let ids = |model: &str| -> Vec<(String, Verdict)> {
            let t = format!(
                "; lsblk -o NAME,HCTL,TRAN,MODEL --nodeps /dev/sd?\nNAME HCTL       TRAN MODEL\n\
                 sda  0:0:0:0    ata  {model}\n"
            );
            let e = crate::explain::explain(&[crate::explain::Input {
                label: "paste".into(),
                bytes: t.into_bytes(),
            }])
            .expect("explain runs");
            e.findings
                .iter()
                .filter(|f| f.check == "controller-legacy-mode")
                .map(|f| (f.device.clone(), f.verdict))
                .collect()
        };
        assert!(ids("WDC WD5000AAKX-0").contains(&("sda".to_string(), Verdict::Problem)));
        assert!(ids("WDC WD20EARS-00M").contains(&("sda".to_string(), Verdict::Problem)));
        assert!(
            !ids("WDC WD800JB-00JJ")
                .iter()
                .any(|(_, v)| *v == Verdict::Problem)
        );
        assert!(
            !ids("ST3500418AS")
                .iter()
                .any(|(_, v)| *v == Verdict::Problem)
        );
    }

    fn geli_layers(text: &str) -> usize {
        let e = crate::explain::explain(&[crate::explain::Input {
            label: "paste".into(),
            bytes: text.as_bytes().to_vec(),
        }])
        .expect("explain runs");
        e.facts
            .disks
            .iter()
            .flat_map(|d| d.layers.iter())
            .filter(|l| l.kind == Some(crate::model::LayerKind::Geli))
            .count()
    }

    /// An installer's log detaching GELI (facts::pasted::prose, tells_of_removal) leaves
    /// no GELI layer on the disk; a sentence saying the disk is encrypted does, for any disk.
    #[test]
    fn installer_detaching_geli_leaves_no_layer() {
        let dd = "5+0 records in\n5+0 records out\n5242880 bytes transferred in 0.016468 secs \
                  (318361519 bytes/sec)\n";
        for disk in ["ada1", "da3"] {
            let text = format!(
                "Detaching GELI on {disk}p4.eli\nRunning: geli detach {disk}p4.eli\n\
                 Running: dd if=/dev/zero of=/dev/{disk} bs=1m count=5\n{dd}"
            );
            assert_eq!(geli_layers(&text), 0, "{text}");
            let text = format!(
                "The disk {disk} is on a GELI encrypted partition\n\
                 Running: dd if=/dev/zero of=/dev/{disk} bs=1m count=5\n{dd}"
            );
            assert_eq!(geli_layers(&text), 1, "{text}");
        }
    }

    /// `zdb | grep ashift` after `zpool create -o ashift=N POOL` and a `zpool add` without
    /// it: the vdev below N is named, for any pool, N and prompt; indentation as zdb printed
    /// it or lost. Pools created without a forced ashift, or all vdevs at it, are not.
    #[test]
    fn a_vdev_added_below_the_forced_ashift_is_named() {
        for (pool, forced, shown) in [
            ("tank", 12, " ashift: 12\n ashift: 9"),
            (
                "data",
                13,
                "            ashift: 13\n            ashift: 13\n            ashift: 12",
            ),
        ] {
            let t = format!(
                "# zpool create -o ashift={forced} {pool} raidz3 /dev/disk/by-vdev/v0d?\n\
                 # zpool add {pool} raidz3 /dev/disk/by-vdev/v1d?\n# zdb | grep ashift\n{shown}\n"
            );
            let ids = problem_ids(&t);
            assert!(
                ids.contains(&("zfs-ashift-too-small".to_string(), pool.to_string())),
                "{t}\n{ids:?}"
            );
        }
        for t in [
            "# zpool create tank raidz3 /dev/sd[b-h]\n# zdb | grep ashift\n ashift: 12\n ashift: 9\n",
            "# zpool create -o ashift=12 tank raidz3 /dev/sd[b-h]\n# zdb | grep ashift\n ashift: 12\n ashift: 12\n",
        ] {
            let ids = problem_ids(t);
            assert!(
                !ids.iter().any(|(c, _)| c == "zfs-ashift-too-small"),
                "{t}\n{ids:?}"
            );
        }
    }

    #[test]
    fn iostat_cp_rows_wrapped_by_mail() {
        // Seed 001's cp run: rows re-wrapped after the "sy" column.
        let t = "tty ad4 ad6 cd0 cpu\ntin tout KB/t tps MB/s KB/t tps MB/s KB/t tps MB/s us ni sy in id\n0 2 37.49 2 0.08 126.30 2 0.24 0.00 0 0.00 2 0 0 0 98\n0 232 127.66 329 40.99 127.66 329 40.99 0.00 0 0.00 0 0 12\n2 86\n0 79 126.93 322 39.87 127.30 320 39.74 0.00 0 0.00 0 0 14\n2 83\n0 79 127.66 329 40.97 127.66 329 40.97 0.00 0 0.00 0 0 12\n1 87\n";
        let r = iostat_rates(t);
        eprintln!("{r:?}");
        assert_eq!(r.first().map(|x| x.0.as_str()), Some("ad4"));
    }

    /// gpart show prints a BSD label's starts relative to its slice (g_part_bsd.c): with
    /// the slice's row the absolute start is slice start + label start; without it, unknown.
    #[test]
    fn bsd_label_starts_are_relative_to_their_slice() {
        let label = "=>       0  41929587  da0s1  BSD  (20G)\n         0   3276800      1  freebsd-ufs  (1.6G)\n   3276800   8601600      2  freebsd-swap  (4.1G)\n";
        let disk = "=>      63  41942977  da0  MBR  (20G)\n        63  41929587    1  freebsd  [active]  (20G)\n";
        let abs = absolute_starts(&gpart_rows(&format!("{disk}\n{label}")));
        let starts: Vec<(String, u64)> = abs.iter().map(|(r, a)| (r.name.clone(), *a)).collect();
        assert_eq!(
            starts,
            [
                ("da0s1".to_string(), 63),
                ("da0s1a".to_string(), 63),
                ("da0s1b".to_string(), 63 + 3_276_800)
            ]
        );
        assert!(absolute_starts(&gpart_rows(label)).is_empty());
        // A whole disk with a BSD label (no MBR) starts at sector 0 indeed.
        let dedicated = "=>       0  41942977  da0  BSD  (20G)\n        16  3276800      1  freebsd-ufs  (1.6G)\n";
        assert_eq!(absolute_starts(&gpart_rows(dedicated))[0].1, 16);
        assert!(is_slice_name("ada0s1") && is_slice_name("nvd0p12"));
        assert!(!is_slice_name("ada0") && !is_slice_name("mirror/gm0") && !is_slice_name("ds1"));
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
struct GpartRow {
    pub table: String,
    pub scheme: String,
    pub start: u64,
    /// Provider name (with -p) or index.
    pub name: String,
    pub kind: String,
}

/// Partition rows of `gpart show` output, from the shared parser (facts::freebsd::gpart_show).
fn gpart_rows(text: &str) -> Vec<GpartRow> {
    let mut out = Vec::new();
    for b in crate::sources::gpart_show::parse(text) {
        for e in b.entries.iter().filter(|e| !e.free) {
            out.push(GpartRow {
                table: b.geom.clone(),
                scheme: b.scheme.clone(),
                start: e.start,
                name: e
                    .provider
                    .clone()
                    .or_else(|| e.index.map(|i| i.to_string()))
                    .unwrap_or_default(),
                kind: e.type_name.clone().unwrap_or_default(),
            });
        }
    }
    out
}

/// Absolute start sectors of the partitions: a BSD label inside MBR slice `da0s1` adds the
/// slice's start (index 1 of the da0 table). A row whose absolute start does not fit in 64
/// bits cannot describe a real disk (a pasted number was mangled) and is left out, and so is
/// a row of a label inside a slice whose own row is not in the text: gpart(8) prints a BSD
/// label's starts relative to its slice, so its absolute start is unknown.
fn absolute_starts(rows: &[GpartRow]) -> Vec<(GpartRow, u64)> {
    rows.iter()
        .filter_map(|r| {
            let parent_start = rows
                .iter()
                .find(|p| {
                    p.table != r.table
                        && (p.name == r.table
                            || r.table
                                .strip_prefix(p.table.as_str())
                                .is_some_and(|s| s.trim_start_matches(['s', 'p']) == p.name))
                })
                .map(|p| p.start);
            let parent_start = match parent_start {
                Some(s) => s,
                None if is_slice_name(&r.table) => return None,
                None => 0,
            };
            Some((r.clone(), parent_start.checked_add(r.start)?))
        })
        .collect()
}

/// A GEOM name of an MBR slice or a partition ("ada0s1", "da0p2"), not a whole disk: the
/// name ends in s<N> or p<N> after the disk's own unit number.
fn is_slice_name(geom: &str) -> bool {
    let body = geom.trim_end_matches(|c: char| c.is_ascii_digit());
    body.len() < geom.len()
        && (body.ends_with('s') || body.ends_with('p'))
        && body[..body.len() - 1].ends_with(|c: char| c.is_ascii_digit())
}

/// Every pasted fio run (text or JSON) with its parsed report.
pub(super) fn fio_reports(
    rec: &Recognized,
) -> impl Iterator<Item = (&Block, sources::fio::FioReport)> {
    rec.blocks
        .iter()
        .filter(|b| {
            b.tool
                .is_any(&[&sources::fio::SPEC, &sources::fio::JSON_SPEC])
        })
        .filter_map(|b| sources::fio::parse(&b.text).map(|r| (b, r)))
}

/// Whether the fio command line typed above a one-job report ran it buffered: a command
/// line, not a job file, that sets no direct=1 (fio(1) "direct=bool ... Default: false").
pub(super) fn typed_buffered(typed: Option<&str>, one_job: bool) -> bool {
    typed.is_some_and(|c| {
        one_job && !sources::fio::command_job_file(c) && !sources::fio::command_flag(c, "direct")
    })
}

/// The device a pasted fio job ran on: its target when that is a device node, else the one
/// disk fio's "Disk stats" lists, else the target file; `typed` is the fio command line
/// typed above the output (its --filename= counts for a single job).
pub(super) fn fio_device(
    rep: &sources::fio::FioReport,
    job: &sources::fio::FioJob,
    typed: Option<&str>,
) -> Option<String> {
    let target = job.filename.clone().or_else(|| {
        typed
            .filter(|_| rep.jobs.len() == 1)
            .and_then(|c| sources::fio::command_option(c, "filename"))
            .map(str::to_string)
    });
    match (target.as_deref(), rep.disk_stats.as_slice()) {
        (Some(t), _) if t.starts_with("/dev/") => Some(t.trim_start_matches("/dev/").to_string()),
        (_, [one]) => Some(one.name.clone()),
        (Some(t), _) => Some(t.to_string()),
        // One job and no file named: fio's "Disk stats" put the device the job's file is
        // on first and its slaves after it (diskutil.c init_disk_util adds the device, then
        // find_add_disk_slaves its slaves: dm-6 over bcache0 over sdh and md0), so the first
        // is the one the job ran on.
        (None, [first, ..]) if rep.jobs.len() == 1 => Some(first.name.clone()),
        (None, _) => None,
    }
}

/// Observation: a pasted fio job that stopped with EIO ("err= 5 (..., error=Input/output
/// error)", sources::fio::FioError): the device failed its requests. On a virtual disk
/// (virtio's vdX, Xen's xvdX, FreeBSD's vtbdX: checks::common::is_virtual_bus) there is no
/// drive or medium in the guest: the host's storage or the hypervisor failed them
/// (virtual-or-bridged-device, with checks::virtual_or_bridged_device's host fix); on any
/// other device it is the test's I/O error (read-errors).
pub(crate) fn fio_error_observations(rec: &Recognized, platform: Platform) -> Vec<Finding> {
    let mut out = Vec::new();
    for (b, rep) in fio_reports(rec) {
        let typed = b.command.as_deref().filter(|c| c.contains("fio"));
        for job in &rep.jobs {
            let Some(err) = job.error.as_ref().filter(|e| e.is_eio()) else {
                continue;
            };
            let Some(dev) = fio_device(&rep, job, typed) else {
                continue;
            };
            if out.iter().any(|f: &Finding| f.device == dev) {
                continue;
            }
            let said = format!(
                "fio job {}: err={} ({})",
                job.name,
                err.errno,
                err.text.as_deref().unwrap_or("EIO")
            );
            let node = crate::facts::DiskFacts::new(&dev, &format!("/dev/{dev}"));
            let f = if crate::checks::common::is_virtual_bus(&node) {
                let f = Finding::new(
                    crate::checks::virtual_or_bridged_device::ID,
                    &dev,
                    Verdict::Problem,
                    Severity::Warning,
                    format!("{dev}: the pasted fio run got I/O errors from a virtual disk: look at the host"),
                )
                .explain(format!(
                    "fio's job {} stopped with EIO (Input/output error) on {dev}, a paravirtual \
                     disk (virtio or similar): no drive, medium or cable of its own sits behind \
                     it, so the errors come from the virtual layer. The host's storage under \
                     the disk image failed or refused the requests (a host disk or volume in \
                     trouble, a full or snapshotted volume, the host's I/O path or aio mode), \
                     or the hypervisor version has a bug. The guest cannot fix it; the host's \
                     kernel log and disks tell the cause.",
                    job.name
                ));
                if platform == Platform::Unknown {
                    f
                } else {
                    f.fix(Fix {
                        platform,
                        summary: crate::checks::virtual_or_bridged_device::HOST_FIX.to_string(),
                        steps: vec![
                            "On the host: its kernel log at the time of the errors, and SMART \
                             and free space of the disks or volumes holding the disk image"
                                .to_string(),
                            "Note the hypervisor and host kernel versions and the disk's cache \
                             and aio modes (QEMU `cache=`, `aio=io_uring|native|threads`); try \
                             another aio mode or a known-good host kernel if the errors began \
                             after an update or a host-side operation such as a snapshot"
                                .to_string(),
                        ],
                        risk: "none".to_string(),
                    })
                }
            } else {
                Finding::new(
                    "read-errors",
                    &dev,
                    Verdict::Problem,
                    Severity::Warning,
                    format!("{dev}: the pasted fio run stopped with I/O errors (EIO)"),
                )
                .explain(format!(
                    "fio's job {} stopped with EIO (Input/output error) on {dev}: the device \
                     failed requests of the test, so its figures describe a run cut short. \
                     The kernel log of the moment tells whether a sector, the link or the \
                     drive itself failed.",
                    job.name
                ))
            };
            out.push(
                f.evidence(
                    format!("{} lines {}-{}", b.tool.display(), b.first, b.last),
                    said,
                )
                .confidence(Confidence::Medium),
            );
        }
    }
    out
}

/// Observation: a pasted dd run that stopped with EIO (sources::dd::failed_io_device) on a
/// device no per-disk check looks at: a Linux md array, a device-mapper volume, a loop
/// device (checks::common::in_scope). media-errors reports the EIO of a drive or of its
/// partition; on a stacked device the layer failed the request, so the test's I/O error
/// (read-errors) is reported on it, with where to look. md fails a read when no member
/// returned the block, and also for a block listed in a member's bad-block log without
/// reading the member at all (drivers/md/md.c is_badblock, raid1.c read_balance: such a
/// member is skipped, and with none left the read ends with EIO), so the member disk may
/// read the same range without error.
pub(crate) fn dd_error_observations(sys: &crate::facts::SystemFacts) -> Vec<Finding> {
    let mut out: Vec<Finding> = Vec::new();
    for b in &sys.user_benchmarks {
        let Some(node) = sources::dd::failed_io_device(b) else {
            continue;
        };
        let whole = crate::facts::device_names::whole_disk(&node);
        let name = if whole.is_empty() {
            node.clone()
        } else {
            whole
        };
        let known = sys.disks.iter().find(|d| d.name == name);
        let fresh = crate::facts::DiskFacts::new(&name, &format!("/dev/{name}"));
        if crate::checks::common::in_scope(known.unwrap_or(&fresh))
            || out.iter().any(|f| f.device == node)
        {
            continue;
        }
        let layer = if node.starts_with("md") {
            format!(
                "/dev/{node} is a Linux software RAID (md) array: md failed the read because no \
                 member returned the block, or because the block is in a member's bad-block \
                 log, which makes md answer EIO without reading that member at all (the member \
                 disk then reads the same range without error). `cat \
                 /sys/block/{node}/md/rd*/bad_blocks` and `mdadm --examine-badblocks` on each \
                 member list such entries; the kernel log of the moment tells which member \
                 failed."
            )
        } else if node.starts_with("loop") {
            format!(
                "/dev/{node} is a loop device: the file under it, or the disk that holds the \
                 file, failed the read; the kernel log of the moment names that disk."
            )
        } else {
            format!(
                "/dev/{node} is a stacked device (device-mapper, LVM, dm-crypt or similar): the \
                 device under it failed the request, or the layer itself refused it; \
                 `lsblk -s /dev/{node}` shows the disks under it, and the kernel log of the \
                 moment which one failed."
            )
        };
        let said = b.error.as_deref().unwrap_or("EIO");
        let said = said.split_once(": ").map_or(said, |(_, l)| l);
        out.push(
            Finding::new(
                "read-errors",
                &node,
                Verdict::Problem,
                Severity::Warning,
                format!("{node}: the pasted dd run stopped with an I/O error (EIO)"),
            )
            .explain(format!(
                "dd stopped with EIO (Input/output error) on /dev/{node}: the device failed a \
                 request of the test, so its figures describe a run cut short. {layer}"
            ))
            .evidence(b.from.clone(), said.to_string())
            .confidence(Confidence::Medium),
        );
    }
    out
}

/// About how many I/Os a direction of a fio run completed (IOPS x runtime), 0 unknown.
fn ios_of(d: &sources::fio::FioDirection) -> f64 {
    match (d.iops, d.runtime_ms) {
        (Some(i), Some(ms)) => i * ms as f64 / 1000.0,
        _ => 0.0,
    }
}

/// Observation: a pasted fio run on a block device at queue depth 1 whose completion
/// latencies reach what checks/latency_outliers.rs calls outliers in diskdoc's own runs
/// (p99.9 at or above 150 ms over at least 100 I/Os). fio(1) prints the "clat percentiles"
/// in the unit its heading names; the depth is the job line's "iodepth=", else the typed
/// command's (fio's default is 1). A run on a file or directory is left out: its delays may
/// be the filesystem's, not the device's.
pub(crate) fn fio_latency_observations(rec: &Recognized) -> Vec<Finding> {
    use crate::checks::latency_outliers::{MIN_IOS, OUTLIER_P999_NS};
    let mut out = Vec::new();
    for (b, rep) in fio_reports(rec) {
        let typed = b
            .command
            .as_deref()
            .filter(|c| c.starts_with("fio ") && rep.jobs.len() == 1);
        for job in &rep.jobs {
            let depth = job.iodepth.or_else(|| {
                typed.map(|c| {
                    sources::fio::command_option(c, "iodepth")
                        .and_then(|v| v.parse().ok())
                        .unwrap_or(1)
                })
            });
            let target = job.filename.clone().or_else(|| {
                typed
                    .and_then(|c| sources::fio::command_option(c, "filename"))
                    .map(str::to_string)
            });
            let Some(dev) = target.as_deref().and_then(|t| t.strip_prefix("/dev/")) else {
                continue;
            };
            if depth != Some(1) {
                continue;
            }
            for d in &job.results {
                let pct = |p: f64| {
                    d.clat_percentiles_us
                        .iter()
                        .find(|(q, _)| (q - p).abs() < 1e-6)
                        .map(|(_, us)| *us)
                };
                let Some(p999) = pct(99.9) else {
                    continue;
                };
                let ios = ios_of(d);
                if ios < MIN_IOS as f64 || p999 * 1000.0 < OUTLIER_P999_NS as f64 {
                    continue;
                }
                let half = pct(50.0)
                    .map(|us| {
                        format!(
                            "Half the {} I/Os finished within {:.2} ms, yet ",
                            d.dir,
                            us / 1000.0
                        )
                    })
                    .unwrap_or_default();
                out.push(
                    Finding::new(
                        "latency-outliers",
                        dev,
                        Verdict::Problem,
                        Severity::Warning,
                        format!(
                            "{dev}: the pasted fio {} at queue depth 1 had its slowest I/Os at {:.0} ms (p99.9)",
                            d.dir,
                            p999 / 1000.0
                        ),
                    )
                    .explain(format!(
                        "{half}one in a thousand took {:.0} ms or more, with one request at a time \
                         in flight, so no queue ahead of it explains the wait. Delays this long \
                         come from a drive retrying sectors it can barely read (check SMART \
                         pending/reallocated sectors), a shingled (SMR) drive rewriting a band, \
                         a member of an array stalling the whole stripe, or another program's I/O \
                         on the device.",
                        p999 / 1000.0
                    ))
                    .evidence(
                        format!("{} lines {}-{}", b.tool.display(), b.first, b.last),
                        format!("clat p99.9 {:.0} us over about {:.0} I/Os at iodepth 1", p999, ios),
                    )
                    .confidence(Confidence::Medium),
                );
            }
        }
    }
    out
}

/// The slowest completion of a pasted fio run at or above this is a stall for any device:
/// a hard disk's worst healthy access (full stroke plus a revolution) is some 30 ms, so
/// even 8 requests queued ahead of it stay under 250 ms.
const FIO_STALL_US: f64 = 250_000.0;
/// ... and it must be this many times the run's typical completion (its median, else its
/// mean): a device slow on every I/O is slow, not stalling (below-expected-for-class).
const FIO_STALL_RATIO: f64 = 20.0;
/// A typical completion under this is flash's (or a cache's in front of disks): a hard
/// disk's random access costs a seek and half a revolution, several milliseconds.
const FIO_FLASH_TYPICAL_US: f64 = 1_000.0;
/// For such a device a completion of this long is a stall: no seek or rotation can make
/// one of its requests wait that long, so the wait is the drive's own (garbage collection
/// with no free blocks when nothing is trimmed, a firmware hiccup) or a stalled layer.
const FIO_FLASH_STALL_US: f64 = 100_000.0;
/// ... and one in a thousand waited at least this long: a single slow completion in a long
/// run may be a power-state exit or a SMART poll, a p99.9 this high is the device's habit.
const FIO_FLASH_P999_US: f64 = 50_000.0;
/// At any depth, a p99.9 at least this far above the median: the median is what the queue
/// ahead of a request costs (Little's law: the depth over the rate), so the slowest waited
/// this much longer than the queue explains, the bar checks/latency_outliers.rs sets for an
/// I/O at depth 1 (150 ms).
const FIO_TAIL_OVER_MEDIAN_US: f64 = 150_000.0;
/// ... and at least this many times the median, so a uniformly slow deep queue (every
/// request a little over the median) is not a tail.
const FIO_TAIL_RATIO: f64 = 3.0;

/// Observation: a pasted fio run at any depth whose slowest completion ("clat ... max=",
/// fio stat.c show_lat) is a stall of hundreds of milliseconds while its typical I/O took
/// a few: a handful of I/Os waited that long on the device (retries, an SMR band rewrite,
/// a stalled array member, or a virtual disk's backend). A buffered run (direct=0) is left
/// out: its waits are the page cache's write-back throttling, not the device's.
pub(crate) fn fio_stall_observations(rec: &Recognized, already: &[Finding]) -> Vec<Finding> {
    use crate::checks::latency_outliers::MIN_IOS;
    let mut out = Vec::new();
    for (b, rep) in fio_reports(rec) {
        let typed = b.command.as_deref().filter(|c| c.contains("fio"));
        let one_job = rep.jobs.len() == 1;
        for job in &rep.jobs {
            let buffered = job.direct == Some(false)
                || typed.is_some_and(|c| {
                    one_job && sources::fio::command_option(c, "direct") == Some("0")
                });
            if buffered {
                continue;
            }
            // A typed command line (not a job file) without direct=1 ran buffered: fio(1)
            // "direct=bool ... Default: false". Its writes land in the page cache in well
            // under a millisecond and wait at the dirty limit (mm/page-writeback.c
            // balance_dirty_pages) for tens of milliseconds: the signature the flash and
            // tail readings below look for, so they need a run that may be direct.
            let page_cache = typed_buffered(typed, one_job);
            let Some(dev) = fio_device(&rep, job, typed) else {
                continue;
            };
            if already
                .iter()
                .any(|f| f.check == "latency-outliers" && f.device == dev)
            {
                continue;
            }
            for d in &job.results {
                let Some(max) = d.clat_max_us else { continue };
                let typical = d
                    .clat_percentiles_us
                    .iter()
                    .find(|(q, _)| (q - 50.0).abs() < 1e-6)
                    .map(|(_, us)| *us)
                    .or(d.clat_mean_us)
                    .filter(|t| *t > 0.0);
                let Some(typical) = typical else { continue };
                let ios = ios_of(d);
                let pct = |p: f64| {
                    d.clat_percentiles_us
                        .iter()
                        .find(|(q, _)| (q - p).abs() < 1e-6)
                        .map(|(_, us)| *us)
                };
                let stall = max >= FIO_STALL_US && max >= typical * FIO_STALL_RATIO;
                // A flash-speed device (typical completion under a millisecond) stalling
                // for a tenth of a second, often enough to show in the p99.9.
                let flash_stall = !page_cache
                    && typical < FIO_FLASH_TYPICAL_US
                    && max >= FIO_FLASH_STALL_US
                    && max >= typical * FIO_STALL_RATIO
                    && pct(99.9).is_some_and(|p| p >= FIO_FLASH_P999_US);
                // A deep queue's tail: the median is the queue's cost, the p99.9 waited
                // far beyond it (an HDD at iodepth=128 whose median is 142 ms and whose
                // p99.9 is 575 ms: requests starved behind others, not merely queued).
                let tail = match (pct(50.0), pct(99.9)) {
                    (Some(p50), Some(p999)) if !page_cache => {
                        p999 - p50 >= FIO_TAIL_OVER_MEDIAN_US && p999 >= FIO_TAIL_RATIO * p50
                    }
                    _ => false,
                };
                if ios < MIN_IOS as f64 || !(stall || flash_stall || tail) {
                    continue;
                }
                let tail_words = match (pct(50.0), pct(99.9)) {
                    (Some(p50), Some(p999)) if tail && !stall => format!(
                        " One in a thousand waited {:.0} ms or more, {:.0} ms beyond the median \
                         of {:.0} ms that the queue ahead of each request explains{}.",
                        p999 / 1000.0,
                        (p999 - p50) / 1000.0,
                        p50 / 1000.0,
                        job.iodepth
                            .map(|q| format!(" (iodepth={q})"))
                            .unwrap_or_default()
                    ),
                    _ => String::new(),
                };
                out.push(
                    Finding::new(
                        "latency-outliers",
                        &dev,
                        Verdict::Problem,
                        Severity::Notice,
                        format!(
                            "{dev}: the pasted fio {} had I/Os waiting up to {:.0} ms while a typical one took {:.2} ms",
                            d.dir,
                            max / 1000.0,
                            typical / 1000.0
                        ),
                    )
                    .explain(format!(
                        "The slowest {} completion took {:.0} ms, {:.0} times the typical one: \
                         the device stalled on some requests rather than being slow on all. \
                         Stalls this long come from a drive retrying sectors it can barely \
                         read (check SMART pending/reallocated sectors), a shingled (SMR) \
                         drive rewriting a band, a member of an array stalling the stripe, \
                         other I/O on the device, or on a virtual disk the host's storage \
                         behind it; on an SSD, garbage collection with no free blocks (a \
                         drive never trimmed).{tail_words}",
                        d.dir,
                        max / 1000.0,
                        max / typical
                    ))
                    .evidence(
                        format!("{} lines {}-{}", b.tool.display(), b.first, b.last),
                        format!(
                            "clat max {:.0} us, typical {:.0} us, over about {:.0} I/Os",
                            max, typical, ios
                        ),
                    )
                    .confidence(Confidence::Medium),
                );
            }
        }
    }
    out
}

/// Observation: a pasted etcd disk-latency histogram (sources::etcd_metrics) whose 99th
/// percentile bucket is past etcd's own guidance (WAL fsync p99 under 10 ms, backend
/// commit under 25 ms; etcd docs "Hardware recommendations", "Tuning"): the disk under
/// etcd is slow to make writes durable, which is what etcd's heartbeat and leader-election
/// warnings come from. The disk is not named by the metrics: the placeholder stands for it.
pub(crate) fn etcd_latency_observations(rec: &Recognized) -> Vec<Finding> {
    let mut out = Vec::new();
    let dev = super::devices::PLACEHOLDER;
    for b in rec
        .blocks
        .iter()
        .filter(|b| b.tool.is(&sources::etcd_metrics::SPEC))
    {
        for h in sources::etcd_metrics::parse(&b.text) {
            let (Some(limit), Some(p99)) = (
                sources::etcd_metrics::p99_limit(&h.name),
                h.quantile_bound(0.99),
            ) else {
                continue;
            };
            // A bucket's count says only that p99 is under its bound: the bucket below
            // it must be past the limit for p99 to be past it.
            let below = h.last_bound(|le| le < p99).unwrap_or(0.0);
            if h.total() < 100.0 || below < limit {
                continue;
            }
            // The slow tail: what is above the last bound at or under half a second
            // (etcd's buckets double from 1 ms: 256 ms).
            let tail_at = h.last_bound(|le| le <= 0.5).unwrap_or(limit);
            let slow = h.above(tail_at);
            out.push(
                Finding::new(
                    "latency-outliers",
                    dev,
                    Verdict::Problem,
                    Severity::Warning,
                    format!(
                        "{dev}: etcd's {} put its 99th percentile between {:.0} and {:.0} ms (etcd asks for under {:.0} ms)",
                        h.name,
                        below * 1000.0,
                        p99 * 1000.0,
                        limit * 1000.0
                    ),
                )
                .explain(format!(
                    "etcd syncs every write to disk before it answers, so these are the disk's \
                     sync latencies as etcd saw them over {:.0} operations; {:.0} of them took \
                     over {:.0} ms. A disk this slow to make writes durable (a shared or \
                     throttled cloud volume, an HDD without a protected write cache, other I/O \
                     on the same device) makes etcd miss heartbeats and elect new leaders. Give \
                     etcd a dedicated SSD with low sync latency, and check the device for other \
                     load and errors.",
                    h.total(),
                    slow,
                    tail_at * 1000.0
                ))
                .evidence(
                    format!("{} lines {}-{}", b.tool.display(), b.first, b.last),
                    format!(
                        "{}: 99 % of {:.0} observations at or under {} s, {:.0} over {} s",
                        h.name,
                        h.total(),
                        p99,
                        h.above(below),
                        below
                    ),
                )
                .confidence(Confidence::Medium),
            );
        }
    }
    out
}

/// Observation: etcd's own log says a write to its disk took too long (sources::etcd_log).
/// A WAL fdatasync over etcd's 1 s bar is the disk's sync latency itself: a warning from
/// twice the bar or from three such lines, a notice for one just over it. Slow applies
/// (bar 100 ms) also wait on CPU and locks: alone, only one of a second or more is noted.
pub(crate) fn etcd_log_observations(rec: &Recognized) -> Vec<Finding> {
    use sources::etcd_log::Wait;
    let mut out = Vec::new();
    let dev = super::devices::PLACEHOLDER;
    for b in rec
        .blocks
        .iter()
        .filter(|b| b.tool.is(&sources::etcd_log::SPEC))
    {
        let all = sources::etcd_log::parse(&b.text);
        let fsync: Vec<_> = all
            .iter()
            .filter(|s| s.wait == Wait::Fsync && s.took_s > s.expected_s)
            .collect();
        let pool = if fsync.is_empty() {
            all.iter().collect()
        } else {
            fsync
        };
        let Some(worst) = pool
            .iter()
            .copied()
            .max_by(|a, b| a.took_s.total_cmp(&b.took_s))
        else {
            continue;
        };
        let severity = match worst.wait {
            Wait::Fsync if worst.took_s >= 2.0 * worst.expected_s || pool.len() >= 3 => {
                Severity::Warning
            }
            Wait::Fsync => Severity::Notice,
            Wait::Request if worst.took_s >= 1.0 => Severity::Notice,
            Wait::Request => continue,
        };
        let what = match worst.wait {
            Wait::Fsync => "WAL fdatasync",
            Wait::Request => "request",
        };
        out.push(
            Finding::new(
                "latency-outliers",
                dev,
                Verdict::Problem,
                severity,
                format!(
                    "{dev}: etcd logged {} slow {what} warning(s), the worst taking {:.2} s (etcd expects under {:.2} s)",
                    pool.len(),
                    worst.took_s,
                    worst.expected_s
                ),
            )
            .explain(
                "etcd makes every write durable with fdatasync before it answers, and logs \
                 a sync that took over a second: the disk under etcd took that long to \
                 commit a write. A disk this slow to sync (a shared or throttled cloud \
                 volume, an HDD or SD card without a protected write cache, other I/O on \
                 the same device) makes etcd miss heartbeats, lose leaders and time out \
                 requests. Give etcd a dedicated SSD with low sync latency and check the \
                 device for other load and errors (`iostat -x 1`, the kernel log)."
                    .to_string(),
            )
            .evidence(
                format!("{} lines {}-{}", b.tool.display(), b.first, b.last),
                worst.line.clone(),
            )
            .confidence(Confidence::Medium),
        );
    }
    out
}

// A shell prompt of a user, not root: "$ ", "user@host:~/dir$ ", "[user@host ~]$ ".
static USER_PROMPT: LazyLock<Regex> =
    LazyLock::new(|| re(r"^(?:\$|[\w.-]+@[\w.-]+(?::\S*)?\s?\$|\[[^\]]{1,40}\]\$)\s"));

/// Observation: `zdb | grep ashift` shows a top-level vdev with a smaller ashift than the
/// pasted `zpool create -o ashift=N POOL` gave the pool. ZFS fixes each vdev's ashift when
/// the vdev is made; the `-o ashift` of `zpool create` covered the vdevs made then, and a
/// vdev added later without `zpool add -o ashift=N` took what its disks report (9 for
/// 512-byte logical sectors: openzfs/zfs#566 "Add -o ashift to zpool add", where the second
/// raidz3 vdev became ashift 9). Its writes are then 512-byte pieces on disks that needed
/// the pool's forced 4 KiB, and no command changes a vdev's ashift afterwards.
pub(crate) fn zdb_ashift_observations(
    rec: &Recognized,
    lines: &[super::segment::Line],
) -> Vec<Finding> {
    use sources::zpool_ashift::{created_with_ashift, grepped_ashifts};
    let created: Vec<(String, u32, &str)> = lines
        .iter()
        .filter_map(|l| created_with_ashift(&l.text).map(|(p, a)| (p, a, l.text.trim())))
        .collect();
    let mut out = Vec::new();
    for b in rec
        .blocks
        .iter()
        .filter(|b| b.tool.is(&sources::block_recognisers::ZDB_C_SPEC))
    {
        let values = grepped_ashifts(&b.text);
        let Some(&small) = values.iter().min() else {
            continue;
        };
        let Some((pool, forced, line)) = created.iter().find(|(_, a, _)| *a > small) else {
            continue;
        };
        let shown: Vec<String> = values.iter().map(|v| format!("ashift: {v}")).collect();
        out.push(
            Finding::new(
                "zfs-ashift-too-small",
                pool,
                Verdict::Problem,
                Severity::Notice,
                format!(
                    "{pool}: a top-level vdev has ashift={small} although the pool was created \
                     with ashift={forced}"
                ),
            )
            .explain(format!(
                "The pool was created with `-o ashift={forced}` ({}-byte blocks), but zdb \
                 lists a top-level vdev at ashift={small} ({}-byte blocks). ZFS fixes a \
                 vdev's ashift when the vdev is made: one added later with `zpool add` and \
                 no `-o ashift={forced}` takes what its disks report (openzfs/zfs#566). That \
                 vdev writes pieces smaller than the sectors the pool was forced to, so the \
                 drives read-modify-write, and its ashift cannot be changed afterwards: add \
                 vdevs with `zpool add -o ashift={forced}` (or set the pool's ashift \
                 property), and move the data to a pool made whole with the right ashift \
                 (zfs send/receive) to be rid of the small one.",
                1u64 << (*forced).min(30),
                1u64 << small.min(30),
            ))
            .evidence(
                format!("{} lines {}-{}", b.tool.display(), b.first, b.last),
                shown.join(", "),
            )
            .evidence("pasted command".to_string(), line.to_string())
            .confidence(Confidence::Medium),
        );
    }
    out
}

/// Observation: dd_ibs_test.sh (sources::dd_bs_test) read back the 128 MiB file it had just
/// written, dropping the page cache between its reads only when run as root. Run as a user
/// (its own NOTE says so, or it was typed at a user's "$" prompt without sudo), every row is
/// the page cache's speed, not the disk's.
pub(crate) fn bs_script_observations(
    rec: &Recognized,
    lines: &[super::segment::Line],
) -> Vec<Finding> {
    let mut out = Vec::new();
    for b in rec
        .blocks
        .iter()
        .filter(|b| b.tool.is(&sources::dd_bs_test::SPEC))
    {
        let Some(run) = sources::dd_bs_test::parse(&b.text) else {
            continue;
        };
        if !run.read_back {
            continue;
        }
        let typed = (b.idx.0.saturating_sub(3)..=b.idx.0)
            .rev()
            .filter_map(|j| lines.get(j))
            .filter(|l| l.src == b.src)
            .find(|l| l.text.contains("dd_ibs_test"));
        let as_user = typed.is_some_and(|l| {
            USER_PROMPT.is_match(l.text.trim_start()) && !l.text.contains("sudo ")
        });
        if !(run.cache_kept_note || as_user) {
            continue;
        }
        let rates: Vec<f64> = run.rows.iter().filter_map(|r| r.bytes_per_sec).collect();
        let lo = rates.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = rates.iter().copied().fold(0.0, f64::max);
        let span = if rates.is_empty() {
            "no rate".to_string()
        } else {
            format!("{} to {}", mbs(lo), mbs(hi))
        };
        let why = if run.cache_kept_note {
            "the script itself warns that it cannot clear the kernel cache without sudo".to_string()
        } else {
            format!(
                "it was started at a user's prompt (\"{}\"), and it clears the kernel cache \
                 (echo 3 > /proc/sys/vm/drop_caches) only when run as root",
                typed.map(|l| l.text.trim()).unwrap_or("")
            )
        };
        let mut f = Finding::new(
            "benchmark-page-cache",
            "system",
            Verdict::Problem,
            Severity::Notice,
            format!(
                "dd_ibs_test.sh read back the file it had just written: {span} is the page \
                 cache's speed"
            ),
        )
        .explain(format!(
            "dd_ibs_test.sh writes a 128 MiB test file and then reads it back once per block \
             size; {why}. The file stays in RAM after it is written, so every read came from \
             the page cache and the rows ({} of them, {span}) measure memory, which is why \
             they jump about with no order by block size. Run it with sudo so it drops the \
             cache before each read, or read the device itself with \
             dd if=/dev/DEVICE of=/dev/null bs=1M count=1000 iflag=direct.",
            run.rows.len()
        ))
        .evidence(
            format!("{} lines {}-{}", b.tool.display(), b.first, b.last),
            format!("{} rows, {span}", run.rows.len()),
        )
        .confidence(Confidence::Medium);
        if let Some(l) = typed {
            f = f.evidence(format!("line {}", l.first), l.text.trim().to_string());
        }
        out.push(f);
    }
    out
}

static STRIPE: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^\s*(\d+)\s+# stripesize"));

/// Observation: the text shows more than one partition layout of a disk (seed 003: MBR then
/// GPT) with results under each. Reports every start's 4K alignment against the stripe size
/// diskinfo printed, and the results measured under each layout, as the text gives them.
pub(crate) fn layout_observations(rec: &Recognized, benches: &[Bench]) -> Vec<Finding> {
    let all: Vec<&Block> = rec
        .blocks
        .iter()
        .filter(|b| b.tool.is(&sources::gpart_show::SPEC))
        .collect();
    // Layouts of one disk only: gpart(8) heads each table with its geom ("=> 34 ... ada1
    // GPT"), a BSD label inside slice ada0s1 belongs to ada0. Tables of different disks
    // (`gpart show ada0` next to `gpart show ada1`) are no before and after.
    let disk_of = |b: &Block| -> Option<String> {
        sources::gpart_show::parse(&b.text)
            .first()
            .map(|t| {
                let w = crate::facts::device_names::whole_disk(&t.geom);
                if w.is_empty() { t.geom.clone() } else { w }
            })
            .filter(|g| !g.is_empty())
            .or_else(|| b.device.clone())
    };
    let keys: Vec<Option<String>> = all.iter().map(|b| disk_of(b)).collect();
    let Some(key) = keys
        .iter()
        .find(|k| keys.iter().filter(|x| x == k).count() >= 2)
        .cloned()
    else {
        return Vec::new();
    };
    let tables: Vec<&Block> = all
        .iter()
        .zip(keys.iter())
        .filter(|(_, k)| **k == key)
        .map(|(b, _)| *b)
        .collect();
    // The same layout shown twice is nothing to compare.
    let shape = |b: &Block| -> Vec<(String, u64, String)> {
        gpart_rows(&b.text)
            .into_iter()
            .map(|r| (r.scheme, r.start, r.kind))
            .collect()
    };
    if let Some(first) = tables.first()
        && tables.iter().all(|t| shape(t) == shape(first))
    {
        return Vec::new();
    }
    let disk = key
        .or_else(|| tables.iter().find_map(|b| b.device.clone()))
        .unwrap_or_else(|| "system".into());
    let stripe: Option<u64> = rec
        .blocks
        .iter()
        .filter(|b| b.tool.is(&sources::diskinfo::SPEC))
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
                // In u128: a pasted sector number near u64::MAX times 512 must not wrap.
                let aligned = (u128::from(*abs) * 512) % u128::from(phys) == 0;
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
