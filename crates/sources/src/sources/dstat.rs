//! dstat (dstat-real/dstat, and its successor dool): per-interval system counters in
//! columns. It prints two header lines, the groups ("----system---- --dsk/sda-----dsk/sda1--
//! ---sda-------sda1--", each group's title centred in dashes) and the columns ("     time
//! | read  writ: read  writ|svct:svct|rawa wawa"; ':' between the columns of one plugin's
//! devices, '|' between plugins), then one row per interval in the same layout
//! ("14-10 18:44:24|  38k 3442k:  38k 3442k|0.15:0.16|0.54 4.64"), repeating the headers
//! every screenful. Counters carry dstat's unit suffixes (B, k, M, G: powers of 1024 for
//! bytes). The disk plugins give throughput, `--disk-svctm` the service time and
//! `--disk-wait` the read and write wait in milliseconds.

use crate::sources::{spec, util};

/// The layout of one dstat output and its rows.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct DstatTable {
    /// The group titles ("system", "dsk/sda", "sda").
    pub groups: Vec<String>,
    /// The column names, in order ("time", "read", "writ", ...).
    pub columns: Vec<String>,
    /// Each row's cells, split as the column line is.
    pub rows: Vec<Vec<String>>,
}

/// The group line: only dashes, titles and blanks, at least one title in dashes.
fn group_line(l: &str) -> Option<Vec<String>> {
    let t = l.trim();
    if !t.starts_with('-') || !t.contains("--") {
        return None;
    }
    let groups: Vec<String> = t
        .split(['-', ' '])
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect();
    let ok = !groups.is_empty()
        && groups.iter().all(|g| {
            g.chars()
                .all(|c| c.is_ascii_alphanumeric() || "/_.:".contains(c))
        });
    ok.then_some(groups)
}

fn cells(l: &str) -> Vec<String> {
    l.split(['|', ':'])
        .flat_map(|c| c.split_whitespace())
        .map(str::to_string)
        .collect()
}

/// The column line: '|'-separated lower-case names of four letters or fewer ("time",
/// "read", "writ", "usr", "svct", "rawa").
fn column_line(l: &str) -> Option<Vec<String>> {
    if !l.contains('|') {
        return None;
    }
    let c = cells(l);
    let ok = c.len() >= 2
        && c.iter()
            .all(|w| w.len() <= 5 && w.chars().all(|ch| ch.is_ascii_lowercase() || ch == '%'));
    ok.then_some(c)
}

/// A data row: '|'-separated, each cell a number with an optional unit or a time stamp.
fn data_row(l: &str) -> bool {
    if !l.contains('|') {
        return false;
    }
    let c = l.split('|').count();
    c >= 2
        && l.split(['|', ':'])
            .flat_map(|x| x.split_whitespace())
            .all(|w| {
                w.trim_end_matches(['B', 'k', 'M', 'G', 'T'])
                    .chars()
                    .all(|ch| ch.is_ascii_digit() || ch == '.' || ch == '-')
            })
}

pub fn parse(text: &str) -> Option<DstatTable> {
    let mut t = DstatTable::default();
    for raw in text.lines() {
        let l = util::clean_line(raw);
        if let Some(g) = group_line(&l) {
            if t.groups.is_empty() {
                t.groups = g;
            }
        } else if let Some(c) = column_line(&l) {
            if t.columns.is_empty() {
                t.columns = c;
            }
        } else if !t.columns.is_empty() && data_row(&l) {
            t.rows.push(cells(&l));
        }
    }
    (!t.groups.is_empty() && !t.columns.is_empty() && !t.rows.is_empty()).then_some(t)
}

// ---- the source spec (see sources::spec) ----

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "dstat",
    starts: &[(40, |lines| {
        let l0 = lines
            .first()
            .map(|l| util::clean_line(l))
            .unwrap_or_default();
        let l1 = lines
            .get(1)
            .map(|l| util::clean_line(l))
            .unwrap_or_default();
        spec::Start::from(group_line(&l0).is_some() && column_line(&l1).is_some())
    })],
    member: |l, _| {
        let c = util::clean_line(l);
        spec::Member::from(group_line(&c).is_some() || column_line(&c).is_some() || data_row(&c))
    },
    tolerance: (0, 0),
    classify: |_, _| "dstat",
    ..spec::Recogniser::NONE
};

/// dstat / dool: pasted beside a question, not captured by a probe.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    parse: Some(|t| parse(t).map_or(0, |t| t.rows.len())),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, _| {
        p == "dstat" || p == "dool"
    })),
    programs: &[
        spec::Program {
            names_device: false,
            ..spec::Program::new("dstat", spec::listing_args)
        },
        spec::Program {
            names_device: false,
            ..spec::Program::new("dool", spec::listing_args)
        },
    ],
    ..spec::SourceSpec::named("dstat", "dstat")
};

#[cfg(test)]
mod tests;
