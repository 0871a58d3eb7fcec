//! `lsds` (Tanel Poder's 0x.tools, bin/lsds): one row per block device read from sysfs,
//! under a header of upper-case column names, each column left-aligned at its header:
//! "DEVNAME  MAJ:MIN  SIZE  TYPE  SCHED  ROT  MODEL  QDEPTH  NR_RQ  WCACHE" by default,
//! more with `-a FUA,HWSEC` (queue/fua, queue/hw_sector_size) and the like. Values may
//! hold blanks ("186.3 GiB", "write through"), so a row is cut at its header's column
//! starts. WCACHE is queue/write_cache ("write back": a volatile cache the kernel
//! flushes; "write through": none, or one protected against power loss), ROT is
//! queue/rotational, SCHED the scheduler in use (Documentation/ABI/stable/sysfs-block).
//! A listing of settings: nothing in it is a disk problem by itself.

use crate::sources::{spec, util};

/// One device's row: (column, value) in the header's order.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct LsdsRow {
    pub columns: Vec<(String, String)>,
}

impl LsdsRow {
    pub(crate) fn get(&self, column: &str) -> Option<&str> {
        self.columns
            .iter()
            .find(|(c, _)| c == column)
            .map(|(_, v)| v.as_str())
    }
}

crate::rx!(
    ROW,
    r"^([a-z][a-z0-9_.-]*\d*[a-z0-9]*)\s+(\d{1,4}:\d{1,7})\s+\S"
);

/// Whether a line is lsds' header: DEVNAME and MAJ:MIN first, then upper-case names of
/// which SCHED or WCACHE or ROT is one (lsblk names its first column NAME).
fn is_header(t: &str) -> bool {
    let mut w = t.split_whitespace();
    w.next() == Some("DEVNAME")
        && w.next() == Some("MAJ:MIN")
        && t.split_whitespace()
            .any(|c| matches!(c, "SCHED" | "WCACHE" | "ROT"))
        && t.split_whitespace().all(|c| {
            c.chars()
                .all(|ch| ch.is_ascii_uppercase() || ch.is_ascii_digit() || "_:-".contains(ch))
        })
}

/// The start offsets (in chars) of the header's columns, with their names.
fn header_columns(t: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut prev_blank = true;
    let mut word = String::new();
    let mut at = 0;
    for (i, ch) in t.chars().enumerate() {
        if ch.is_whitespace() {
            if !word.is_empty() {
                out.push((at, std::mem::take(&mut word)));
            }
            prev_blank = true;
        } else {
            if prev_blank {
                at = i;
            }
            word.push(ch);
            prev_blank = false;
        }
    }
    if !word.is_empty() {
        out.push((at, word));
    }
    out
}

/// The rows under every header of the text.
pub(crate) fn parse(text: &str) -> Vec<LsdsRow> {
    let mut out = Vec::new();
    let mut cols: Vec<(usize, String)> = Vec::new();
    for raw in text.lines() {
        let c = util::clean_line(raw);
        let line = c.trim_end();
        // Both trimmed alike: a quoted or indented paste shifts header and rows together.
        let t = line.trim_start();
        if is_header(t) {
            cols = header_columns(t);
            continue;
        }
        if cols.is_empty() || !ROW.is_match(t) {
            continue;
        }
        let chars: Vec<char> = t.chars().collect();
        let cut = |from: usize, to: Option<usize>| -> String {
            let end = to.unwrap_or(chars.len()).min(chars.len());
            chars
                .get(from.min(end)..end)
                .map(|s| s.iter().collect::<String>())
                .unwrap_or_default()
                .trim()
                .to_string()
        };
        let columns = cols
            .iter()
            .enumerate()
            .map(|(i, (at, name))| (name.clone(), cut(*at, cols.get(i + 1).map(|c| c.0))))
            .collect();
        out.push(LsdsRow { columns });
    }
    out
}

// ---- the source spec (see sources::spec) ----

fn clean(t: &str) -> String {
    util::clean_line(t).trim().to_string()
}

fn start(lines: &[&str]) -> spec::Start {
    // The header with a device row under it.
    // A header wider than a mail client's 72 columns (`-a` adds columns) continues on the
    // next line with the rest of its names.
    let first = lines.first().map(|l| clean(l)).unwrap_or_default();
    let row = |i: usize| lines.get(i).is_some_and(|n| ROW.is_match(&clean(n)));
    let tail = lines.get(1).is_some_and(|n| is_header_tail(&clean(n)));
    spec::Start::from(is_header(&first) && (row(1) || (tail && row(2))))
}

/// The rest of a re-wrapped header: upper-case column names only ("QDEPTH  NR_RQ  WCACHE").
fn is_header_tail(t: &str) -> bool {
    !t.is_empty()
        && t.split_whitespace().all(|c| {
            c.len() >= 2
                && c.chars()
                    .all(|ch| ch.is_ascii_uppercase() || ch.is_ascii_digit() || "_:-".contains(ch))
        })
}

fn member(l: &str, _: &spec::BlockState) -> spec::Member {
    let t = clean(l);
    spec::Member::from(is_header(&t) || is_header_tail(&t) || ROW.is_match(&t))
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "lsds",
    starts: &[(60, start)],
    member,
    tolerance: (1, 0),
    classify: |_, _| "lsds",
    ..spec::Recogniser::NONE
};

/// `lsds`: pasted to show the disks' queue settings; the live probe reads sysfs itself.
pub const SPEC: spec::SourceSpec = spec::pasted_only!(
    "lsds",
    "lsds (0x.tools)",
    Some(crate::evidence::Platform::Linux),
    &RECOGNISER,
    // The rows that name a device (a header without DEVNAME is not lsds').
    parse: |t| parse(t).iter().filter(|r| r.get("DEVNAME").is_some()).count(),
    secrets: &[],
);

#[cfg(test)]
mod tests;
