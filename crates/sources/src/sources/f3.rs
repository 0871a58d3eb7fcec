//! f3 ("Fight Flash Fraud", https://github.com/AltraMayor/f3): f3write fills a filesystem with
//! 1 GiB files "N.h2w" and f3read reads them back and checks every 512-byte sector. Both end
//! with a summary people paste: f3read's "Validating file 1.h2w ... 2097152/ 0/ 0/ 0"
//! rows, "  Data OK: 1.00 GB (2097152 sectors)", "Data LOST: ..." and "Average reading
//! speed: 977.53 MB/s" (f3read.c report() and iterate_files(); "Reading speed:" before 6.0),
//! f3write's "Creating file 1.h2w ... OK!" rows and "Average writing speed: 8.53 MB/s"
//! (f3write.c). The units are f3's own adjust_unit() (utils.c): powers of 1024 named
//! "Byte", "KB", "MB", "GB", "TB". f3read reads through the page cache: it only asks the
//! kernel to drop the files' cached pages first (fdatasync, then posix_fadvise
//! POSIX_FADV_DONTNEED), advice a kernel or filesystem may not follow.
//! When the device fails a request f3 says so in words of its own ([`io_errors`]): f3read's
//! row ends ` - NOT fully read due to "Input/output error"` and its summary adds "WARNING:
//! Not all data was read due to I/O error(s)" (f3read.c validate_file, iterate_files);
//! f3write's row says "Write failure: <strerror>" (f3write.c create_and_fill_file, which
//! treats ENOSPC as the normal end), err(3) prints "f3write: Can't create file X: <strerror>",
//! and f3probe "read_all(): unexpected error code from read(2) = 121: Remote I/O error"
//! (libdevs.c: EIO and ENODATA are its expected answers of a fake card, anything else is not).

use crate::model::UserBenchmark;
use crate::sources::spec;

/// Which of the two programs printed the summary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum F3Tool {
    Read,
    Write,
}

/// One f3read or f3write summary.
#[derive(Debug, Clone, PartialEq)]
pub struct F3Run {
    pub tool: F3Tool,
    /// The version of the header ("F3 read 7.1").
    pub version: Option<String>,
    /// f3read: the sectors it validated, good and lost, as bytes (512-byte sectors).
    pub bytes: Option<u64>,
    /// f3read: the bytes it found lost (corrupted, changed or overwritten).
    pub lost_bytes: Option<u64>,
    /// The average speed f3 printed, bytes/s.
    pub bytes_per_sec: Option<f64>,
}

/// f3's adjust_unit() names (utils.c): each a power of 1024.
fn unit_bytes(u: &str) -> Option<f64> {
    let p = match u {
        "Byte" | "Bytes" | "B" => 0,
        "KB" => 1,
        "MB" => 2,
        "GB" => 3,
        "TB" => 4,
        "PB" => 5,
        _ => return None,
    };
    Some(1024f64.powi(p))
}

/// "977.53 MB/s" -> bytes/s.
fn rate(s: &str) -> Option<f64> {
    let mut w = s.split_whitespace();
    let n: f64 = w.next()?.parse().ok()?;
    let u = w.next()?.strip_suffix("/s")?;
    let v = n * unit_bytes(u)?;
    v.is_finite().then_some(v)
}

/// "1.00 GB (2097152 sectors)" -> the sector count as bytes.
fn sectors_bytes(s: &str) -> Option<u64> {
    let inner = s.split_once('(')?.1;
    let n: u64 = inner.split_whitespace().next()?.parse().ok()?;
    n.checked_mul(512)
}

fn clean(raw: &str) -> &str {
    raw.trim().trim_start_matches('>').trim()
}

/// The lines where f3 says the device failed a read or a write (see the module doc), as
/// pasted (trimmed), in order.
pub fn io_errors(text: &str) -> Vec<String> {
    text.lines()
        .map(clean)
        .filter(|l| {
            l.contains(" - NOT fully read due to ")
                || l.starts_with("WARNING: Not all data was read due to I/O error")
                || l.contains(".h2w ... Write failure: ")
                || (l.starts_with("f3write: Can't create file ") && l.contains(" I/O error"))
                || (l.starts_with("f3probe: ") && l.contains("unexpected error code from read"))
        })
        .map(str::to_string)
        .collect()
}

/// Every f3read / f3write summary in the text, in order.
pub fn parse(text: &str) -> Vec<F3Run> {
    let mut out: Vec<F3Run> = Vec::new();
    let mut cur: Option<F3Run> = None;
    let new = |tool: F3Tool, version: Option<String>| F3Run {
        tool,
        version,
        bytes: None,
        lost_bytes: None,
        bytes_per_sec: None,
    };
    for raw in text.lines() {
        let l = clean(raw);
        let header = l
            .strip_prefix("F3 read ")
            .map(|v| (F3Tool::Read, v))
            .or_else(|| l.strip_prefix("F3 write ").map(|v| (F3Tool::Write, v)));
        if let Some((tool, v)) = header {
            out.extend(cur.take());
            cur = Some(new(tool, Some(v.trim().to_string())));
            continue;
        }
        let tool_of_row = if l.starts_with("Validating file ") || l.starts_with("Data OK:") {
            Some(F3Tool::Read)
        } else if l.starts_with("Creating file ") {
            Some(F3Tool::Write)
        } else {
            None
        };
        if let Some(tool) = tool_of_row
            && cur.as_ref().is_none_or(|c| c.tool != tool)
        {
            out.extend(cur.take());
            cur = Some(new(tool, None));
        }
        let Some(c) = cur.as_mut() else {
            continue;
        };
        if let Some(v) = l.strip_prefix("Data OK:") {
            c.bytes = sectors_bytes(v);
        } else if let Some(v) = l.strip_prefix("Data LOST:") {
            let lost = sectors_bytes(v);
            c.lost_bytes = lost;
            c.bytes = match (c.bytes, lost) {
                (Some(a), Some(b)) => a.checked_add(b),
                (a, b) => a.or(b),
            };
        } else if let Some(v) = l
            .strip_prefix("Average reading speed:")
            .or_else(|| l.strip_prefix("Reading speed:"))
            .or_else(|| l.strip_prefix("Average writing speed:"))
            .or_else(|| l.strip_prefix("Writing speed:"))
        {
            c.bytes_per_sec = rate(v);
            out.extend(cur.take());
        }
    }
    out.extend(cur);
    out.retain(|r| r.bytes_per_sec.is_some() || r.bytes.is_some());
    out
}

impl F3Run {
    /// The run as a user benchmark for the critics: a buffered read (or write) of files.
    pub fn to_benchmark(&self, from: &str, command: Option<&str>) -> UserBenchmark {
        let tool = match self.tool {
            F3Tool::Read => "f3read",
            F3Tool::Write => "f3write",
        };
        // "f3read /media/stick": the directory it read, as typed.
        let input = command
            .and_then(|c| c.split_whitespace().rfind(|w| w.starts_with('/')))
            .map(str::to_string);
        UserBenchmark {
            tool: tool.to_string(),
            command: Some(command.unwrap_or(tool).to_string()),
            input,
            bytes: self.bytes,
            bytes_per_sec: self.bytes_per_sec,
            from: from.to_string(),
            ..Default::default()
        }
    }
}

// ---- the source spec (see sources::spec) ----

fn is_member(l: &str) -> bool {
    let l = clean(l);
    [
        "F3 read ",
        "F3 write ",
        "F3 probe ",
        "f3probe: ",
        "f3write: ",
        "f3read: ",
        "Copyright (C) 2010 Digirati",
        "This is free software; see the source",
        "SECTORS ",
        "Validating file ",
        "Creating file ",
        "Free space:",
        "Data OK:",
        "Data LOST:",
        "Corrupted:",
        "Slightly changed:",
        "Overwritten:",
        "Average reading speed:",
        "Average writing speed:",
        "Reading speed:",
        "Writing speed:",
        "WARNING: Not all",
        "WARNING: Probing normally",
        "it can take longer.",
        "Good news: The device",
        "Bad news: The device",
    ]
    .iter()
    .any(|p| l.starts_with(p))
}

fn start(lines: &[&str]) -> spec::Start {
    let Some(first) = lines.first().map(|l| clean(l)) else {
        return spec::Start::No;
    };
    let header = (first.starts_with("F3 read ")
        || first.starts_with("F3 write ")
        || first.starts_with("F3 probe "))
        && first
            .rsplit(' ')
            .next()
            .is_some_and(|v| v.chars().next().is_some_and(|c| c.is_ascii_digit()));
    let row = (first.starts_with("Validating file ") || first.starts_with("Creating file "))
        && first.contains(".h2w ...");
    spec::Start::from(header || row || first.starts_with("Average reading speed:"))
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "f3",
    starts: &[(67, start)],
    member: |t, _| spec::Member::from(is_member(t)),
    tolerance: (2, 2),
    classify: |_, _| "f3",
    ..spec::Recogniser::NONE
};

/// f3read / f3write: a measurement people paste, captured by no live probe.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    parse: Some(|t| parse(t).len() + io_errors(t).len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, _| {
        p == "f3read" || p == "f3write" || p == "f3probe"
    })),
    programs: &[
        spec::Program {
            names_device: false,
            ..spec::Program::new("f3read", |_| true)
        },
        spec::Program {
            names_device: false,
            ..spec::Program::new("f3write", |_| true)
        },
        spec::Program::new("f3probe", |_| true),
    ],
    ..spec::SourceSpec::named("f3", "f3read / f3write")
};

#[cfg(test)]
mod tests;
