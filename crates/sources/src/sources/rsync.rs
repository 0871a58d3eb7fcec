//! rsync's progress lines as people paste them: `--progress` prints one line per file and
//! `--info=progress2` one for the whole transfer, both in progress.c rprint_progress():
//! "%15s %3d%% %7.2f%s %s%s" = bytes (commas, or K/M/G with -h), percent, rate in units of
//! 1024 ("kB/s", "MB/s", "GB/s"), "h:mm:ss" and, on a finished file's last update,
//! " (xfr#N, to-chk=A/B)" (before 3.1: "(xfer#N, to-check=A/B)"; "ir-chk" while the
//! incremental file list is still being built). On that last line the rate is the average
//! since the file (or transfer) started and the time the total it took (rsync(1),
//! --progress). The command line before them gives the source and destination.
//!
//! rsync writes through the page cache and, without --fsync (3.2.4+), never waits for the
//! data to reach the device: a run small enough for the dirty-page limit finishes at
//! memory speed and the kernel writes it back afterwards.

use crate::model::UserBenchmark;
use crate::sources::spec;
use crate::sources::util::{clean_line, leading_f64};

// "    429,265,824 100%  261.90MB/s    0:00:01 (xfr#1, to-chk=0/1)"
crate::rx!(
    PROGRESS,
    r"^\s*([\d,.]+[KMGT]?)\s+(\d{1,3})%\s+([\d.,]+)([kMG]B/s)\s+(\d+):(\d{2}):(\d{2})(\s+\((?:xfr|xfer)#\d+, (?:to|ir)-ch(?:ec)?k=\d+/\d+\))?\s*$"
);
// A typed rsync command: "rsync -a --progress SRC DST" after an optional prompt.
crate::rx!(COMMAND, r"^(?:\S*[$#%>]\s+)?(?:sudo\s+)?rsync\s+(.+)$");

/// bytes as rsync printed them: "429,265,824" (thousands grouped) or "429.27M" (-h, 1000s).
fn bytes(t: &str) -> Option<u64> {
    let (num, mult) = match t.char_indices().last()? {
        (i, 'K') => (t.get(..i)?, 1e3),
        (i, 'M') => (t.get(..i)?, 1e6),
        (i, 'G') => (t.get(..i)?, 1e9),
        (i, 'T') => (t.get(..i)?, 1e12),
        _ => return num_u64(t),
    };
    let v = leading_f64(num)? * mult;
    (v.is_finite() && v >= 0.0).then_some(v as u64)
}

fn num_u64(t: &str) -> Option<u64> {
    let digits: String = t.chars().filter(|c| *c != ',' && *c != '.').collect();
    digits.parse().ok()
}

/// One progress line of a finished file or transfer (the " (xfr#..." tail), else `None`.
fn finished(line: &str) -> Option<(u64, f64, f64)> {
    let c = PROGRESS.captures(line)?;
    c.get(8)?;
    let b = bytes(c.get(1)?.as_str())?;
    let rate = leading_f64(&c.get(3)?.as_str().replace(',', "."))?;
    let unit = match c.get(4)?.as_str() {
        "kB/s" => 1024.0,
        "MB/s" => 1024.0 * 1024.0,
        _ => 1024.0 * 1024.0 * 1024.0,
    };
    let hms: Vec<f64> = (5..=7)
        .map(|i| c.get(i).and_then(|m| m.as_str().parse::<f64>().ok()))
        .collect::<Option<_>>()?;
    let secs = hms.iter().fold(0.0, |a, x| a * 60.0 + x);
    Some((b, rate * unit, secs))
}

/// Every finished file or transfer in `text`, in order, as a copy run: tool "rsync", the
/// bytes, rate and time rsync printed, and the last typed command's source, destination
/// and options.
pub fn parse(text: &str) -> Vec<UserBenchmark> {
    let mut out = Vec::new();
    let mut cmd: Option<(String, Vec<String>, Vec<String>)> = None;
    for (i, raw) in text.lines().enumerate() {
        let l = clean_line(raw);
        if let Some(args) = COMMAND.captures(l.trim()).and_then(|c| c.get(1)) {
            let (flags, paths): (Vec<String>, Vec<String>) = args
                .as_str()
                .split_whitespace()
                .map(str::to_string)
                .partition(|a| a.starts_with('-'));
            cmd = Some((format!("rsync {}", args.as_str()), flags, paths));
            continue;
        }
        let Some((b, rate, secs)) = finished(&l) else {
            continue;
        };
        let (command, flags, paths) = cmd.clone().unwrap_or_default();
        out.push(UserBenchmark {
            tool: "rsync".into(),
            command: (!command.is_empty()).then_some(command),
            input: paths.first().filter(|_| paths.len() >= 2).cloned(),
            output: paths.last().filter(|_| paths.len() >= 2).cloned(),
            bytes: Some(b),
            seconds: Some(secs),
            bytes_per_sec: Some(rate),
            flags,
            from: format!("line {}", i + 1),
            ..Default::default()
        });
    }
    out
}

fn is_member(t: &str) -> bool {
    let l = clean_line(t);
    PROGRESS.is_match(&l) || COMMAND.is_match(l.trim())
}

/// A progress line, or the rsync command a progress line follows within three lines.
fn start(lines: &[&str]) -> spec::Start {
    let progress = |t: &&str| PROGRESS.is_match(&clean_line(t));
    let command = lines
        .first()
        .is_some_and(|t| COMMAND.is_match(clean_line(t).trim()));
    spec::Start::from(
        lines.first().is_some_and(progress)
            || (command && lines.iter().skip(1).take(3).any(progress)),
    )
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "rsync",
    starts: &[(66, start)],
    member: |t, _| spec::Member::from(is_member(t)),
    tolerance: (2, 2),
    classify: |_, _| "rsync",
    ..spec::Recogniser::NONE
};

/// rsync(1) progress: a copy's measurement, captured by no live probe.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, _| p == "rsync")),
    programs: &[spec::Program {
        names_device: false,
        ..spec::Program::new("rsync", |_| true)
    }],
    ..spec::SourceSpec::named("rsync", "rsync progress")
};

#[cfg(test)]
mod tests;
