//! fio results: the human-readable report (fio 2.x "io=/bw=/iops=/runt=" and 3.x
//! "IOPS=/BW=" forms) and `--output-format=json` (2.x "clat" in usec with bw in KiB/s,
//! 3.x "clat_ns"), including the 2.1.x JSON whose percentile objects repeat the key "0.00".
//!
//! Reference: fio(1) "OUTPUT" and "JSON OUTPUT" sections. fio's KB/MB in 2.x are 1024-based
//! (kb_base=1024); 3.x prints KiB/MiB and the decimal value in parentheses. Latency units
//! are given per line ("clat (usec)", "clat (nsec)", "clat (msec)").

use serde_json::Value;

use crate::sources::util::{clean_line, find_json, leading_f64};

#[derive(Debug, Clone, PartialEq, Default)]
pub struct FioDirection {
    /// "read", "write", "trim".
    pub dir: String,
    pub bytes_per_sec: Option<f64>,
    pub iops: Option<f64>,
    pub io_bytes: Option<u64>,
    pub runtime_ms: Option<u64>,
    pub clat_mean_us: Option<f64>,
    /// The slowest completion: "clat (usec): min=.., max=.." (fio stat.c show_lat, its
    /// unit per line) or the JSON "clat_ns"/"clat" "max".
    pub clat_max_us: Option<f64>,
    /// (percentile, microseconds), e.g. (99.0, 1848.0).
    pub clat_percentiles_us: Vec<(f64, f64)>,
    pub slat_mean_us: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct FioJob {
    pub name: String,
    pub group: Option<u32>,
    pub rw: Option<String>,
    /// Block size as given ("4K", "16k", "4096B").
    pub bs: Option<String>,
    pub block_size_bytes: Option<u64>,
    pub ioengine: Option<String>,
    pub iodepth: Option<u32>,
    pub numjobs: Option<u32>,
    /// O_DIRECT; only visible in JSON options (the text report does not print it).
    pub direct: Option<bool>,
    pub fsync_every: Option<u32>,
    pub fdatasync_every: Option<u32>,
    pub filename: Option<String>,
    pub results: Vec<FioDirection>,
    /// fsync/fdatasync latency (fio 3.x "sync (usec)").
    pub sync_mean_us: Option<f64>,
    pub sync_percentiles_us: Vec<(f64, f64)>,
    /// The error the job stopped with (fio's ts->error, non-zero only).
    pub error: Option<FioError>,
}

/// A job's error as fio reports it: the errno, and in the text report fio's own words for
/// it. stat.c show_thread_status prints "NAME: (groupid=G, jobs=J): err=%2d (%s): pid=..."
/// when ts->error is set, the %s being td_verror()'s "file:io_u.c:1876, func=io_u error,
/// error=Input/output error"; the JSON report gives the errno as the job's "error".
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FioError {
    pub errno: u32,
    /// The strerror text after "error=" ("Input/output error").
    pub text: Option<String>,
}

impl FioError {
    /// EIO (5 on Linux and FreeBSD, <errno.h>): the device failed the request.
    pub fn is_eio(&self) -> bool {
        self.errno == 5
            || self
                .text
                .as_deref()
                .is_some_and(|t| t.eq_ignore_ascii_case("Input/output error"))
    }
}

/// The error of a job status line's "err= 5 (file:io_u.c:1876, func=io_u error,
/// error=Input/output error)"; None for "err= 0".
fn job_error(rest: &str) -> Option<FioError> {
    let after = rest.split_once("err=")?.1.trim_start();
    let digits: String = after.chars().take_while(char::is_ascii_digit).collect();
    let errno: u32 = digits.parse().ok().filter(|n| *n != 0)?;
    let text = after
        .split_once("error=")
        .map(|(_, t)| t.split(')').next().unwrap_or(t).trim().to_string())
        .filter(|t| !t.is_empty());
    Some(FioError { errno, text })
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct FioDiskStat {
    pub name: String,
    pub read_ios: Option<u64>,
    pub write_ios: Option<u64>,
    pub util_pct: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct FioReport {
    /// "fio-2.1.9".
    pub version: Option<String>,
    /// "text" or "json".
    pub format: &'static str,
    pub jobs: Vec<FioJob>,
    pub disk_stats: Vec<FioDiskStat>,
    /// The failed requests fio logged as they happened ([`io_u_error`]).
    pub io_errors: Vec<FioIoError>,
}

/// One failed request as fio logs it the moment it fails, before any report: io_u.c
/// __io_u_log_error's "fio: io_u error on file FILE: STRERROR: DIR offset=N, buflen=M"
/// (DIR from io_ddir_name: read, write, trim, sync, datasync, ...), also inside a longer
/// report or alone when the run was cut short.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FioIoError {
    pub file: String,
    pub dir: String,
    pub offset_bytes: Option<u64>,
    pub error: FioError,
}

/// strerror(3) texts of the errnos fio reports, the same on Linux and FreeBSD.
fn errno_of(text: &str) -> u32 {
    match text {
        "Input/output error" => 5,
        "No such device or address" | "Device not configured" => 6,
        "No such device" => 19,
        _ => 0,
    }
}

/// [`FioIoError`] of an io_u error line; None for any other line.
fn io_u_error(t: &str) -> Option<FioIoError> {
    let rest = t.trim().strip_prefix("fio: io_u error on file ")?;
    // The file name may hold ": " (rare); the strerror and the direction follow the last
    // two ": " separators.
    let (head, tail) = rest.rsplit_once(": ")?;
    let (file, text) = head.rsplit_once(": ")?;
    let (dir, args) = tail.split_once(' ')?;
    let offset_bytes = kv_after(args, "offset=").and_then(|o| o.trim_end_matches(',').parse().ok());
    Some(FioIoError {
        file: file.trim().to_string(),
        dir: dir.to_string(),
        offset_bytes,
        error: FioError {
            errno: errno_of(text.trim()),
            text: Some(text.trim().to_string()),
        },
    })
}

/// backend.c's closing "fio: pid=N, err=E/file:io_u.c:L, func=io_u error, error=TEXT" of a
/// job that stopped with an error (td->verror).
fn pid_error(t: &str) -> Option<FioError> {
    let rest = t.trim().strip_prefix("fio: pid=")?;
    job_error(rest.split_once(", ")?.1)
}

impl FioJob {
    pub fn direction(&self, dir: &str) -> Option<&FioDirection> {
        self.results.iter().find(|d| d.dir == dir)
    }
}

/// Parse fio output (JSON when it is JSON). None when no fio job or result is found.
pub fn parse(text: &str) -> Option<FioReport> {
    if text.contains("\"jobs\"")
        && let Some(v) = find_json(text)
        && v.get("jobs").is_some()
    {
        // fio logs io_u errors on stderr, around the JSON document.
        return parse_json(&v).map(|mut r| {
            r.io_errors = text.lines().filter_map(io_u_error).collect();
            r
        });
    }
    parse_text(text)
}

/// "4K", "16k", "4096B", "1m" (fio: k/K = 1024, also KiB).
fn bs_bytes(s: &str) -> Option<u64> {
    let s = s.trim();
    let split = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let n: u64 = s.get(..split)?.parse().ok()?;
    let unit = s.get(split..)?.to_ascii_lowercase();
    let m = match unit.trim_end_matches('b').trim_end_matches('i') {
        "" => 1,
        "k" => 1 << 10,
        "m" => 1 << 20,
        "g" => 1 << 30,
        _ => return None,
    };
    n.checked_mul(m)
}

/// The value of option `name` on a typed fio command line. fio reads its command line with
/// getopt_long_only (init.c parse_cmd_line), so a job option may be written "--rw=read",
/// "-rw=read", "--rw read" or "-rw read"; a boolean given bare ("--direct", "-end_fsync")
/// is set, which this returns as "1". None when the option is absent.
pub fn command_option<'a>(cmd: &'a str, name: &str) -> Option<&'a str> {
    let words: Vec<&str> = cmd.split_whitespace().collect();
    words.iter().enumerate().find_map(|(i, w)| {
        let bare = w.strip_prefix("--").or_else(|| w.strip_prefix('-'))?;
        if let Some(v) = bare.strip_prefix(name).and_then(|r| r.strip_prefix('=')) {
            return Some(v);
        }
        if bare != name {
            return None;
        }
        match words.get(i.saturating_add(1)) {
            Some(next) if !next.starts_with('-') => Some(*next),
            _ => Some("1"),
        }
    })
}

/// Whether boolean or counting option `name` is on in a typed fio command line
/// ([`command_option`]; fio(1): 0 and false are off).
pub fn command_flag(cmd: &str, name: &str) -> bool {
    command_option(cmd, name).is_some_and(|v| !matches!(v, "0" | "false"))
}

/// Whether a typed fio command line names a job file: fio(1) "fio [options] [jobfile]...",
/// so a job file is an operand (a word not starting with '-'), whose options the command
/// line does not show. An option's value that ends in ".fio" ("--filename=write.fio") is
/// the test file, not a job file.
pub fn command_job_file(cmd: &str) -> bool {
    cmd.split_whitespace().skip(1).any(|w| {
        !w.starts_with('-') && (w.ends_with(".fio") || w.ends_with(".job") || w.ends_with(".ini"))
    })
}

/// The block size a typed fio command line asks for ("--bs=256k", "-bs 4k"), in bytes.
pub fn command_block_size(cmd: &str) -> Option<u64> {
    bs_bytes(command_option(cmd, "bs")?)
}

/// "447424KB/s", "11.0MiB/s", "27418MB/s", "9410KiB/s" -> bytes/s (2.x KB = 1024).
fn rate_bytes(s: &str) -> Option<f64> {
    let n = leading_f64(s)?;
    let unit: String = s
        .trim_start_matches(|c: char| c.is_ascii_digit() || c == '.')
        .trim_end_matches("/s")
        .to_string();
    let m = match unit.as_str() {
        "B" | "" => 1.0,
        "KB" | "KiB" => 1024.0,
        "MB" | "MiB" => 1024.0 * 1024.0,
        "GB" | "GiB" => 1024f64.powi(3),
        "kB" => 1000.0,
        _ => return None,
    };
    Some(n * m)
}

/// "111855", "3509.5K", "1168.1K", "2.5M".
fn count_si(s: &str) -> Option<f64> {
    let n = leading_f64(s)?;
    let m = if s.ends_with('K') || s.ends_with('k') {
        1e3
    } else if s.ends_with('M') {
        1e6
    } else {
        1.0
    };
    Some(n * m)
}

fn unit_to_us(line: &str) -> f64 {
    if line.contains("(nsec)") {
        1e-3
    } else if line.contains("(msec)") {
        1e3
    } else {
        1.0
    }
}

fn kv_after<'a>(s: &'a str, key: &str) -> Option<&'a str> {
    let i = s.find(key)?;
    let rest = s.get(i + key.len()..)?.trim_start();
    let end = rest.find([',', ' ', ')', '(']).unwrap_or(rest.len());
    rest.get(..end)
}

fn parse_text(text: &str) -> Option<FioReport> {
    let mut rep = FioReport {
        format: "text",
        ..Default::default()
    };
    // Job definitions from the "(g=N): rw=..." header lines, by name.
    let mut defs: Vec<FioJob> = Vec::new();
    let mut cur: Option<FioJob> = None;
    let mut pct_target: u8 = 0; // 1 = clat, 2 = sync
    let mut pct_unit = 1.0;
    let mut in_disk = false;
    let mut saw_any = false;
    // The group summary lines ("   READ: bw=506MiB/s (531MB/s), 506MiB/s-506MiB/s
    // (531MB/s-531MB/s), io=14.8GiB (15.9GB), run=30031-30031msec", stat.c
    // show_group_stats): the result when the paste holds nothing else of fio.
    let mut groups: Vec<FioDirection> = Vec::new();
    let mut pid_errors: Vec<FioError> = Vec::new();
    for raw in text.lines() {
        let line = clean_line(raw);
        let t = line.trim();
        if let Some(g) = group_line(t) {
            groups.push(g);
            continue;
        }
        if let Some(e) = io_u_error(t) {
            rep.io_errors.push(e);
            continue;
        }
        if let Some(e) = pid_error(t) {
            pid_errors.push(e);
            continue;
        }
        if t.starts_with("fio-") && !t.contains(' ') {
            rep.version = Some(t.to_string());
            continue;
        }
        if let Some((name, rest)) = t.split_once(": (g=") {
            let mut j = FioJob {
                name: name.trim().to_string(),
                group: leading_f64(rest).map(|g| g as u32),
                ..Default::default()
            };
            j.rw = kv_after(rest, "rw=").map(str::to_string);
            // "bs=4K-4K/4K-4K/4K-4K" (2.x) or "bs=(R) 4096B-4096B, (W) ..." (3.x).
            let bs = rest
                .split_once("bs=")
                .map(|(_, b)| b.trim_start_matches("(R)").trim_start());
            j.bs = bs
                .and_then(|b| b.split(['-', ',', '/', ' ']).next())
                .map(str::to_string);
            j.block_size_bytes = j.bs.as_deref().and_then(bs_bytes);
            j.ioengine = kv_after(rest, "ioengine=").map(str::to_string);
            j.iodepth = kv_after(rest, "iodepth=").and_then(|d| d.parse().ok());
            defs.push(j);
            saw_any = true;
            continue;
        }
        if let Some((name, rest)) = t.split_once(": (groupid=") {
            if let Some(j) = cur.take() {
                rep.jobs.push(j);
            }
            let mut j = defs
                .iter()
                .find(|d| d.name == name.trim())
                .cloned()
                .unwrap_or_else(|| FioJob {
                    name: name.trim().to_string(),
                    ..Default::default()
                });
            j.group = leading_f64(rest).map(|g| g as u32);
            j.numjobs = kv_after(rest, "jobs=").and_then(|d| d.parse().ok());
            j.error = job_error(rest);
            cur = Some(j);
            saw_any = true;
            pct_target = 0;
            continue;
        }
        if t.starts_with("Disk stats") {
            if let Some(j) = cur.take() {
                rep.jobs.push(j);
            }
            in_disk = true;
            continue;
        }
        if in_disk && let Some((name, rest)) = t.split_once(": ios=") {
            let (r, w) = rest
                .split(',')
                .next()
                .unwrap_or("")
                .split_once('/')
                .unwrap_or(("", ""));
            rep.disk_stats.push(FioDiskStat {
                name: name.trim().to_string(),
                read_ios: r.trim().parse().ok(),
                write_ios: w.trim().parse().ok(),
                util_pct: kv_after(rest, "util=").and_then(leading_f64),
            });
            continue;
        }
        // A per-direction result line pasted without its job's status line above it
        // (stat.c show_ddir_status: "read: IOPS=54.0k, BW=215MiB/s (225MB/s)(12.6GiB/
        // 60001msec)", fio 3.x; 2.x "read : io=..., bw=..., iops=..., runt="): a job of
        // its own, with the options of the one job header when one was pasted.
        if cur.is_none() && direction_of(t).is_some() && FIO_START.is_match(t) {
            cur = Some(match defs.as_slice() {
                [one] => one.clone(),
                _ => FioJob {
                    name: "fio".into(),
                    ..Default::default()
                },
            });
            saw_any = true;
        }
        let Some(j) = cur.as_mut() else { continue };
        // Direction lines: "read : io=..., bw=..., iops=..., runt=..." / "write: IOPS=..., BW=...".
        let dir = direction_of(t);
        if let Some(d) = dir {
            let rest = t.split_once(':').map(|(_, r)| r).unwrap_or("");
            let mut r = FioDirection {
                dir: d.to_string(),
                ..Default::default()
            };
            if rest.contains("IOPS=") {
                r.iops = kv_after(rest, "IOPS=").and_then(count_si);
                r.bytes_per_sec = kv_after(rest, "BW=").and_then(rate_bytes);
                // "(22.0MiB/1997msec)"
                if let Some(p) = rest.split(")(").nth(1) {
                    let (io, run) = p.split_once('/').unwrap_or(("", ""));
                    r.io_bytes = rate_bytes(io).map(|b| b as u64);
                    r.runtime_ms = leading_f64(run).map(|m| m as u64);
                }
            } else {
                r.iops = kv_after(rest, "iops=").and_then(count_si);
                r.bytes_per_sec = kv_after(rest, "bw=").and_then(rate_bytes);
                r.io_bytes = kv_after(rest, "io=").and_then(rate_bytes).map(|b| b as u64);
                r.runtime_ms = kv_after(rest, "runt=")
                    .and_then(leading_f64)
                    .map(|m| m as u64);
            }
            j.results.push(r);
            pct_target = 0;
            continue;
        }
        if t.starts_with("clat (") || t.starts_with("slat (") {
            let us = unit_to_us(t);
            let avg = kv_after(t, "avg=").and_then(leading_f64).map(|a| a * us);
            // "max=1397.9k": fio prints large figures with a k/M suffix (stat.c
            // num2str), in the line's own unit.
            let max = kv_after(t, "max=").and_then(count_si).map(|m| m * us);
            if let Some(last) = j.results.last_mut() {
                if t.starts_with("clat") {
                    last.clat_mean_us = avg;
                    last.clat_max_us = max;
                } else {
                    last.slat_mean_us = avg;
                }
            }
            continue;
        }
        if t.starts_with("sync (") {
            j.sync_mean_us = kv_after(t, "avg=")
                .and_then(leading_f64)
                .map(|a| a * unit_to_us(t));
            continue;
        }
        if t.starts_with("clat percentiles") {
            pct_target = 1;
            pct_unit = unit_to_us(t);
            continue;
        }
        if t.starts_with("sync percentiles") {
            pct_target = 2;
            pct_unit = unit_to_us(t);
            continue;
        }
        if t.starts_with('|') && pct_target != 0 {
            // "|  1.00th=[  422],  5.00th=[  502], ..."
            for part in t.trim_start_matches('|').split("],") {
                let Some((p, v)) = part.split_once("th=[") else {
                    continue;
                };
                let (Some(p), Some(v)) = (
                    leading_f64(p.trim()),
                    leading_f64(v.trim().trim_end_matches(']')),
                ) else {
                    continue;
                };
                let entry = (p, v * pct_unit);
                if pct_target == 1 {
                    if let Some(last) = j.results.last_mut() {
                        last.clat_percentiles_us.push(entry);
                    }
                } else {
                    j.sync_percentiles_us.push(entry);
                }
            }
            continue;
        }
        if !t.starts_with('|') {
            pct_target = 0;
        }
    }
    if let Some(j) = cur.take() {
        rep.jobs.push(j);
    }
    if rep.jobs.is_empty() {
        // Header lines without results (a pasted job file run that was cut off).
        rep.jobs = defs;
    }
    if rep.jobs.is_empty() && !groups.is_empty() {
        // Only the run-status summary was pasted: one job standing for the group, whose
        // rw, bs and direct flag the summary does not say.
        rep.jobs.push(FioJob {
            name: "group summary".into(),
            results: groups,
            ..Default::default()
        });
        saw_any = true;
    }
    // Only the error lines of a run cut short: one job per file that failed (a job that
    // stops with an error logs its io_u error first, then its pid line).
    if rep.jobs.is_empty() {
        for e in &rep.io_errors {
            if !rep
                .jobs
                .iter()
                .any(|j| j.filename.as_deref() == Some(e.file.as_str()))
            {
                rep.jobs.push(FioJob {
                    name: "fio".into(),
                    filename: Some(e.file.clone()),
                    error: Some(e.error.clone()),
                    ..Default::default()
                });
            }
        }
        if let (true, Some(e)) = (rep.jobs.is_empty(), pid_errors.first()) {
            rep.jobs.push(FioJob {
                name: "fio".into(),
                error: Some(e.clone()),
                ..Default::default()
            });
        }
        saw_any |= !rep.jobs.is_empty();
    } else if let [one] = rep.jobs.as_mut_slice() {
        // One job: the file its io_u error names is its target, and that error its error
        // when the status line was not pasted.
        if let Some(e) = rep.io_errors.first() {
            if one.filename.is_none() {
                one.filename = Some(e.file.clone());
            }
            if one.error.is_none() {
                one.error = Some(e.error.clone());
            }
        }
    }
    (saw_any || !rep.disk_stats.is_empty()).then_some(rep)
}

/// The direction of a job's result line: "read : io=..., bw=..., iops=..., runt=..."
/// (fio 2.x) or "write: IOPS=..., BW=..." (3.x, stat.c show_ddir_status).
fn direction_of(t: &str) -> Option<&'static str> {
    ["read", "write", "trim"].into_iter().find(|d| {
        t.strip_prefix(*d).is_some_and(|r| {
            r.trim_start().starts_with(':') && (r.contains("iops=") || r.contains("IOPS="))
        })
    })
}

/// One run-status line of a group: "READ: bw=506MiB/s (531MB/s), ..., io=14.8GiB
/// (15.9GB), run=30031-30031msec" (fio 3.x) or fio 2.x's "READ: io=..., aggrb=...KB/s,
/// minb=..., maxb=..., mint=...msec, maxt=...msec".
fn group_line(t: &str) -> Option<FioDirection> {
    let (dir, rest) = t.split_once(':')?;
    let dir = match dir.trim() {
        "READ" => "read",
        "WRITE" => "write",
        "TRIM" => "trim",
        "MIXED" => "mixed",
        _ => return None,
    };
    let rest = rest.trim_start();
    let (bw, run) = if rest.starts_with("bw=") {
        (kv_after(rest, "bw="), kv_after(rest, "run="))
    } else if rest.starts_with("io=") && rest.contains("aggrb=") {
        (kv_after(rest, "aggrb="), kv_after(rest, "maxt="))
    } else {
        return None;
    };
    // "run=30031-30031msec": the slowest job's runtime is the group's.
    let runtime_ms = run
        .and_then(|r| r.rsplit('-').next())
        .and_then(leading_f64)
        .filter(|m| m.is_finite() && *m >= 0.0)
        .map(|m| m as u64);
    Some(FioDirection {
        dir: dir.to_string(),
        bytes_per_sec: bw.and_then(rate_bytes),
        io_bytes: kv_after(rest, "io=").and_then(rate_bytes).map(|b| b as u64),
        runtime_ms,
        ..Default::default()
    })
}

// ---------------------------------------------------------------------------------------
// JSON

fn jstr(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

fn percentiles(obj: Option<&Value>, scale: f64) -> Vec<(f64, f64)> {
    let mut out: Vec<(f64, f64)> = obj
        .and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .filter_map(|(k, v)| Some((k.parse::<f64>().ok()?, v.as_f64()? * scale)))
                // fio 2.1.x pads the object with "0.00": 0 entries (duplicate keys).
                .filter(|(p, _)| *p > 0.0)
                .collect()
        })
        .unwrap_or_default();
    crate::sort::sort_by(&mut out, |a, b| a.0.total_cmp(&b.0));
    out
}

fn parse_json(v: &Value) -> Option<FioReport> {
    let mut rep = FioReport {
        format: "json",
        version: jstr(v.get("fio version")),
        ..Default::default()
    };
    let global = v.get("global options");
    let old_v2 = rep
        .version
        .as_deref()
        .is_some_and(|v| v.starts_with("fio-2") || v.starts_with("fio-1"));
    for j in v.get("jobs")?.as_array()? {
        let opts = j.get("job options");
        let opt = |k: &str| {
            jstr(opts.and_then(|o| o.get(k))).or_else(|| jstr(global.and_then(|g| g.get(k))))
        };
        let bs = opt("bs").or_else(|| opt("blocksize"));
        let mut job = FioJob {
            name: jstr(j.get("jobname")).unwrap_or_default(),
            group: j
                .get("groupid")
                .and_then(Value::as_u64)
                .and_then(|g| u32::try_from(g).ok()),
            rw: opt("rw").or_else(|| opt("readwrite")),
            block_size_bytes: bs.as_deref().and_then(bs_bytes),
            bs,
            ioengine: opt("ioengine"),
            iodepth: opt("iodepth").and_then(|d| d.parse().ok()),
            numjobs: opt("numjobs").and_then(|d| d.parse().ok()),
            error: j
                .get("error")
                .and_then(Value::as_u64)
                .and_then(|e| u32::try_from(e).ok())
                .filter(|e| *e != 0)
                .map(|errno| FioError { errno, text: None }),
            direct: opt("direct").map(|d| d == "1" || d == "true"),
            fsync_every: opt("fsync").and_then(|d| d.parse().ok()),
            fdatasync_every: opt("fdatasync").and_then(|d| d.parse().ok()),
            filename: opt("filename"),
            ..Default::default()
        };
        for dir in ["read", "write", "trim"] {
            let Some(d) = j.get(dir) else { continue };
            let iops = d.get("iops").and_then(Value::as_f64);
            // fio 2.x's "io_bytes" counts KiB despite its name; 3.x adds "io_kbytes" and
            // makes "io_bytes" bytes.
            let io_bytes = match (
                d.get("io_kbytes"),
                d.get("io_bytes").and_then(Value::as_u64),
            ) {
                (Some(_), Some(b)) => Some(b),
                (Some(k), None) => k.as_u64().map(|k| k.saturating_mul(1024)),
                (None, Some(b)) if old_v2 => Some(b.saturating_mul(1024)),
                (None, b) => b,
            };
            if iops.unwrap_or(0.0) == 0.0 && io_bytes.unwrap_or(0) == 0 {
                continue; // direction not exercised by this job
            }
            // "bw" is KiB/s in every JSON version; 3.x adds "bw_bytes".
            let bw = d
                .get("bw_bytes")
                .and_then(Value::as_f64)
                .or_else(|| d.get("bw").and_then(Value::as_f64).map(|k| k * 1024.0));
            let (clat, scale) = match d.get("clat_ns") {
                Some(c) => (Some(c), 1e-3),
                None => (d.get("clat"), 1.0),
            };
            job.results.push(FioDirection {
                dir: dir.to_string(),
                bytes_per_sec: bw,
                iops,
                io_bytes,
                runtime_ms: d.get("runtime").and_then(Value::as_u64),
                clat_mean_us: clat
                    .and_then(|c| c.get("mean"))
                    .and_then(Value::as_f64)
                    .map(|m| m * scale),
                clat_max_us: clat
                    .and_then(|c| c.get("max"))
                    .and_then(Value::as_f64)
                    .map(|m| m * scale),
                clat_percentiles_us: percentiles(clat.and_then(|c| c.get("percentile")), scale),
                slat_mean_us: d
                    .get("slat_ns")
                    .and_then(|s| s.get("mean"))
                    .and_then(Value::as_f64)
                    .map(|m| m * 1e-3)
                    .or_else(|| {
                        d.get("slat")
                            .and_then(|s| s.get("mean"))
                            .and_then(Value::as_f64)
                    }),
            });
        }
        if let Some(s) = j.get("sync") {
            let (lat, scale) = match s.get("lat_ns") {
                Some(l) => (Some(l), 1e-3),
                None => (s.get("lat"), 1.0),
            };
            job.sync_mean_us = lat
                .and_then(|l| l.get("mean"))
                .and_then(Value::as_f64)
                .map(|m| m * scale)
                .filter(|m| *m > 0.0);
            job.sync_percentiles_us = percentiles(lat.and_then(|l| l.get("percentile")), scale);
        }
        rep.jobs.push(job);
    }
    if let Some(du) = v.get("disk_util").and_then(Value::as_array) {
        for d in du {
            rep.disk_stats.push(FioDiskStat {
                name: jstr(d.get("name")).unwrap_or_default(),
                read_ios: d.get("read_ios").and_then(Value::as_u64),
                write_ios: d.get("write_ios").and_then(Value::as_u64),
                util_pct: d.get("util").and_then(Value::as_f64),
            });
        }
    }
    Some(rep)
}

// ---- the source specs (see sources::spec) ----
use crate::sources::spec;

crate::rx!(
    FIO_START,
    r"^(fio: io_u error on file |fio: pid=\d+, err=\d+/|[^\s:(][^:(]{0,60}: \(g=\d+\): rw=|fio-\d|[^\s:(][^:(]{0,60}: \(groupid=\d+, jobs=\d+\): err=|Run status group \d+|\s*(READ|WRITE|TRIM|MIXED): bw=[\d.]+[KMGTP]?i?B/s \(|\s*(read|write|trim): IOPS=[\d.]+[kM]?, BW=[\d.]+[KMGTP]?i?B/s \([\d.]+[kMGTP]?B/s\)\([\d.]+[KMGTP]?i?B/\d+msec\))"
);
crate::rx!(
    FIO_MEMBER,
    r"^(\s|\.\.\.$|Starting \d+ (process|thread)|Jobs: |Disk stats|Run status|[^\s:(][^:(]{0,60}: \(g=\d+\)|[^\s:(][^:(]{0,60}: \(groupid=|\S+: Laying out IO file|fio-\d|(READ|WRITE|TRIM|MIXED): bw=)"
);

/// Whether a JSON document is fio's ("fio version", or jobs with job names).
pub(crate) fn is_json(head: &str) -> bool {
    head.contains("\"fio version\"") || head.contains("\"jobs\"") && head.contains("\"jobname\"")
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "fio",
    starts: &[(210, |l| spec::on_first(l, |t| FIO_START.is_match(t)))],
    member: |t, _| spec::Member::from(FIO_START.is_match(t) || FIO_MEMBER.is_match(t)),
    tolerance: (2, 3),
    permissive: true,
    classify: |_, _| "fio",
    ..spec::Recogniser::NONE
};

/// fio's arguments: options, a device node or a job file. A dash before a digit is a
/// number in a sentence ("fio -20% slower"), not an option.
fn fio_args(a: &str) -> bool {
    !(a.starts_with('-') && a.chars().nth(1).is_some_and(|d| d.is_ascii_digit()))
        && (spec::flags_or_node(a) || a.ends_with(".fio"))
}

/// fio(1) human-readable report: a measurement.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    parse: Some(|t| usize::from(parse(t).is_some())),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, _| p == "fio")),
    programs: &[spec::Program::new("fio", fio_args)],
    ..spec::SourceSpec::named("fio", "fio")
};

/// fio --output-format=json.
pub const JSON_SPEC: spec::SourceSpec = spec::SourceSpec {
    parse: Some(|t| usize::from(parse(t).is_some())),
    paste: Some(spec::Paste {
        owns: Some(is_json),

        ..spec::Paste::new(&super::json_doc::JSON, |p, _| p == "fio")
    }),
    ..spec::SourceSpec::named("fio-json", "fio --output-format=json")
};

#[cfg(test)]
mod tests;
