//! pv (Pipe Viewer, https://www.ivarch.com/programs/pv.shtml): the progress line it draws on
//! stderr while data passes through a pipe, "1.27GiB 0:00:00 [2.28GiB/s] [=====>] 100%" or,
//! from pv 1.8 on, "152 MiB 0:00:12 [12.3 MiB/s] [=>   ] 11% ETA 0:01:33". pv(1) "DISPLAY
//! SWITCHES": the default display is -p -t -e -r -b (bytes so far, elapsed time, average
//! rate in brackets, progress bar, ETA); sizes are 1024-based ("KiB", "MiB", older "MB").
//! pv measures the pipe, not a device: a writer after it (dd, a redirection) writes into the
//! page cache unless it asks for O_DIRECT or a flush.

use crate::model::UserBenchmark;
use crate::sources::spec;

crate::rx!(
    PV_LINE,
    r"^\s*(\d+(?:\.\d+)?) ?([KMGTP]i?B|B)\s+(\d+):(\d\d):(\d\d)\s+\[\s*(\d+(?:\.\d+)?) ?([KMGTP]i?B|B)/s\s*\](?:\s+\[[=>< ]*\]\s*(\d{1,3})%)?"
);

/// A size with pv's unit (1024-based).
fn bytes(n: &str, unit: &str) -> Option<f64> {
    let n: f64 = n.parse().ok()?;
    let p = match unit.trim_end_matches("iB").trim_end_matches('B') {
        "" => 0,
        "K" => 1,
        "M" => 2,
        "G" => 3,
        "T" => 4,
        "P" => 5,
        _ => return None,
    };
    Some(n * 1024f64.powi(p))
}

/// One pv progress line: bytes so far, elapsed seconds, average rate, percent if shown.
pub fn line(t: &str) -> Option<UserBenchmark> {
    let c = PV_LINE.captures(t)?;
    let g = |i| c.get(i).map_or("", |m| m.as_str());
    let secs = [3, 4, 5]
        .iter()
        .map(|i| g(*i).parse::<u64>().ok())
        .collect::<Option<Vec<_>>>()?;
    let (h, m, s) = (secs.first()?, secs.get(1)?, secs.get(2)?);
    let seconds = h
        .checked_mul(3600)?
        .checked_add(m.checked_mul(60)?)?
        .checked_add(*s)?;
    let pct = c.get(8).map(|p| format!("{}%", p.as_str()));
    Some(UserBenchmark {
        tool: "pv".into(),
        bytes: bytes(g(1), g(2)).map(|b| b as u64),
        seconds: Some(seconds as f64),
        bytes_per_sec: bytes(g(6), g(7)),
        flags: pct.into_iter().collect(),
        ..Default::default()
    })
}

/// Every pv line of `text`, in order (a terminal keeps only the last redraw of each run).
pub fn parse(text: &str) -> Vec<UserBenchmark> {
    text.lines()
        .filter_map(|l| line(l.rsplit('\r').next().unwrap_or(l)))
        .collect()
}

// ---- the source spec (see sources::spec) ----

static RECOGNISER: spec::Recogniser = spec::Recogniser::table(
    "pv",
    &[(69, |l| spec::on_first(l, |t| PV_LINE.is_match(t)))],
    |t, _| spec::Member::from(PV_LINE.is_match(t)),
    |_, _| "pv",
);

/// pv: a copy's progress people paste as a speed, captured by no probe.
pub const SPEC: spec::SourceSpec = spec::pasted_only!(
    "pv",
    "pv",
    None,
    &RECOGNISER,
    parse: |t| parse(t).len(),
    secrets: &[],
    // Files to read, or nothing (stdin), or flags.
    args: |a| !a.starts_with(['|', '>']),
);

#[cfg(test)]
mod tests;
