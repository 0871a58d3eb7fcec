//! biosnoop, the per-I/O block trace of bcc (iovisor/bcc tools/biosnoop.py,
//! man/man8/biosnoop.8): a header "TIME(s)     COMM           PID     DISK      T SECTOR
//! BYTES  LAT(ms)" ("QUE(ms)" before LAT with -Q), then one row per completed I/O:
//! seconds since the first I/O ("%-11.6f", older releases "%-14.9f"), the task's name
//! (14 characters at most), its PID, the disk, "R" or "W", the start sector, the size in
//! bytes and the latency from issue to completion in milliseconds ("%7.2f"). Rows are
//! often pasted without the header (`biosnoop | grep sdb`).
//!
//! A row's latency is the device's (and its driver's) time for that one I/O: a write the
//! drive acknowledges from its cache completes in a fraction of a millisecond even on a
//! spinning disk, so a low figure alone says nothing against a disk.

use crate::sources::spec;

/// One traced I/O.
#[derive(Debug, Clone, PartialEq)]
pub struct Io {
    pub comm: String,
    pub pid: u32,
    pub disk: String,
    pub write: bool,
    pub sector: u64,
    pub bytes: u64,
    /// Issue to completion, milliseconds.
    pub latency_ms: f64,
    pub line: String,
}

crate::rx!(
    HEADER,
    r"^\s*TIME\((?:s|ms)\)\s+COMM\s+PID\s+DISK\s+T\s+SECTOR\s+BYTES\s+(?:QUE\(ms\)\s+)?LAT\(ms\)\s*$"
);
// TIME COMM PID DISK T SECTOR BYTES [QUE] LAT; the name may hold spaces (bcc prints the
// task's comm as it is).
crate::rx!(
    ROW,
    r"^\s*\d+\.\d+\s+(\S.{0,13}?)\s+(\d+)\s+([a-z][\w-]*)\s+([RW])\w?\s+(\d+)\s+(\d+)\s+(?:\d+\.\d+\s+)?(\d+\.\d+)\s*$"
);

/// The I/O a row reports.
pub fn row(line: &str) -> Option<Io> {
    let l = crate::sources::util::clean_line(line);
    let c = ROW.captures(&l)?;
    let g = |i: usize| c.get(i).map_or("", |m| m.as_str());
    let latency_ms: f64 = g(7).parse().ok()?;
    Some(Io {
        comm: g(1).trim().to_string(),
        pid: g(2).parse().ok()?,
        disk: g(3).to_string(),
        write: g(4) == "W",
        sector: g(5).parse().ok()?,
        bytes: g(6).parse().ok()?,
        latency_ms: latency_ms.is_finite().then_some(latency_ms)?,
        line: l.trim().to_string(),
    })
}

/// Every traced I/O of `text`.
pub fn parse(text: &str) -> Vec<Io> {
    text.lines().filter_map(row).collect()
}

// ---- the source spec (see sources::spec) ----

fn is_member(t: &str) -> bool {
    HEADER.is_match(t) || row(t).is_some() || t.trim() == "^C"
}

/// The header, or (a grep of the rows) two rows in a row: one alone could be any table.
fn start(l: &[&str]) -> spec::Start {
    let first = l.first().copied().unwrap_or("");
    let found = HEADER.is_match(first)
        || (row(first).is_some() && l.get(1).is_some_and(|n| row(n).is_some()));
    spec::Start::from(found)
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "biosnoop",
    starts: &[(67, start)],
    member: |t, _| spec::Member::from(is_member(t)),
    tolerance: (1, 0),
    classify: |_, _| "biosnoop",
    ..spec::Recogniser::NONE
};

/// biosnoop (bcc): a per-I/O block trace, pasted, captured by no probe.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, _| {
        super::biolatency::is_bpf_tool(p, "biosnoop")
    })),
    programs: &[spec::Program {
        names_device: false,
        ..spec::Program::new("biosnoop", |a| !a.starts_with(['|', '>']))
    }],
    ..spec::SourceSpec::named("biosnoop", "biosnoop (BPF block I/O trace)")
};

#[cfg(test)]
mod tests;
