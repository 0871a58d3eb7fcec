//! `zpool list [-v] [-p] [-L]` (zpool-list(8), OpenZFS zpool_main.c print_list_stats /
//! print_pool): a table with a NAME SIZE ALLOC FREE [CKPOINT] [EXPANDSZ] FRAG CAP DEDUP
//! HEALTH ALTROOT header, one row per pool and, with -v, one row per vdev indented two
//! spaces per level under it ("logs", "cache", "spares", "special", "dedup" rows start the
//! auxiliary classes). A pool row's HEALTH is the pool state (ONLINE, DEGRADED, FAULTED,
//! OFFLINE, UNAVAIL, REMOVED, SUSPENDED); a vdev row ends in its own state. -p prints exact
//! numbers, -L resolves links; old zpool versions print no state on vdev rows.

use crate::sources::spec;
use crate::sources::util::clean_line;

/// One row of the table.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ListRow {
    pub name: String,
    /// 0: a pool; 1: its top-level vdevs; 2: their children. Auxiliary class rows
    /// ("logs") have depth 1 and `class` set.
    pub depth: usize,
    /// "logs", "cache", "spares", "special", "dedup" for rows under such a class row.
    pub class: Option<String>,
    pub health: Option<String>,
}

/// One pool and its vdev rows.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ListPool {
    pub name: String,
    pub health: Option<String>,
    pub vdevs: Vec<ListRow>,
}

impl ListPool {
    /// Rows without children: the devices (and rows a cut paste left childless).
    pub fn leaves(&self) -> Vec<&ListRow> {
        self.vdevs
            .iter()
            .enumerate()
            .filter(|(i, v)| {
                !CLASSES.contains(&v.name.as_str())
                    && self.vdevs.get(i + 1).is_none_or(|n| n.depth <= v.depth)
            })
            .map(|(_, v)| v)
            .collect()
    }
}

const STATES: &[&str] = &[
    "ONLINE",
    "DEGRADED",
    "FAULTED",
    "OFFLINE",
    "UNAVAIL",
    "REMOVED",
    "SUSPENDED",
    "AVAIL",
    "INUSE",
];
const CLASSES: &[&str] = &["logs", "cache", "spares", "special", "dedup"];

crate::rx!(
    HEADER,
    r"^\s*NAME\s+SIZE\s+ALLOC\s+FREE\s+(?:CKPOINT\s+)?(?:EXPANDSZ\s+)?FRAG\s+CAP\s+DEDUP\s+HEALTH\b"
);
// The header's first columns: a mail client that wraps at 72 columns cuts the header
// (and the rows) in two; the rest of the header follows on the next line.
crate::rx!(HEADER_HEAD, r"^\s*NAME\s+SIZE\s+ALLOC\s+FREE\b");

/// Whether `line` is the header, whole or cut after FREE with its rest on `next`.
fn is_header(line: &str, next: Option<&str>) -> bool {
    HEADER.is_match(line)
        || (HEADER_HEAD.is_match(line)
            && !line.contains("HEALTH")
            && next.is_some_and(|n| HEADER.is_match(&format!("{} {}", line, n.trim()))))
}

/// A wrapped row's tail: its first word is a column value, not a name. A bare number
/// is one only at the line's start: an indented one is the GUID zpool prints for a
/// missing vdev (pool names start with a letter, zpool_name_valid).
fn is_continuation(line: &str) -> bool {
    let t = line.trim_start();
    let first = t.split_whitespace().next().unwrap_or("");
    let indented = t.len() < line.len();
    let value = first.starts_with(|c: char| c.is_ascii_digit()) && {
        let unit = first.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.' || c == ',');
        match unit {
            "" => !indented,
            u => matches!(u, "%" | "x" | "K" | "M" | "G" | "T" | "P" | "E"),
        }
    };
    STATES.contains(&first)
        || first == "-"
        || [
            "CKPOINT", "EXPANDSZ", "FRAG", "CAP", "DEDUP", "HEALTH", "ALTROOT",
        ]
        .contains(&first)
        || value
}

// A row: a name, then size columns (numbers with an optional suffix, "-", percentages,
// dedup ratios) and, last or before ALTROOT, the state.
crate::rx!(
    ROW,
    r"^\s*\S+(?:\s+(?:-|[\d.,]+[KMGTPE%x]?))+(?:\s+(?:ONLINE|DEGRADED|FAULTED|OFFLINE|UNAVAIL|REMOVED|SUSPENDED|AVAIL|INUSE))?(?:\s+(?:-|/\S*))?\s*$"
);

/// Every pool of every table in the text.
pub fn parse(text: &str) -> Vec<ListPool> {
    let mut out: Vec<ListPool> = Vec::new();
    let mut name_indent: Option<usize> = None;
    let mut class: Option<String> = None;
    let lines: Vec<String> = text.lines().map(clean_line).collect();
    for (i, line) in lines.iter().enumerate() {
        if is_header(line, lines.get(i + 1).map(String::as_str)) {
            name_indent = Some(line.len() - line.trim_start().len());
            class = None;
            continue;
        }
        let Some(base) = name_indent else { continue };
        let t = line.trim_start();
        if t.is_empty() {
            continue;
        }
        let w: Vec<&str> = t.split_whitespace().collect();
        let Some(name) = w.first().map(|s| s.to_string()) else {
            continue;
        };
        if is_continuation(line) {
            // The wrapped tail of the row above (or of the header): its state, if any.
            let state = w
                .iter()
                .rev()
                .find(|x| STATES.contains(x))
                .map(|s| s.to_string());
            if let (Some(st), Some(p)) = (state, out.last_mut()) {
                match p.vdevs.last_mut() {
                    Some(v) if v.health.is_none() => v.health = Some(st),
                    None if p.health.is_none() => p.health = Some(st),
                    _ => {}
                }
            }
            continue;
        }
        if !ROW.is_match(line) {
            // Another output or prose: the table has ended.
            name_indent = None;
            continue;
        }
        let indent = line.len() - t.len();
        let depth = indent.saturating_sub(base) / 2;
        let health = w
            .iter()
            .skip(1)
            .rev()
            .find(|x| STATES.contains(x))
            .map(|s| s.to_string());
        if depth == 0 && CLASSES.contains(&name.as_str()) {
            class = Some(name.clone());
            if let Some(p) = out.last_mut() {
                p.vdevs.push(ListRow {
                    name,
                    depth: 1,
                    class: class.clone(),
                    health: None,
                });
            }
            continue;
        }
        if depth == 0 {
            class = None;
            out.push(ListPool {
                name,
                health,
                vdevs: Vec::new(),
            });
            continue;
        }
        if let Some(p) = out.last_mut() {
            // Under a class row the vdevs sit one level deeper than the class itself.
            let depth = if class.is_some() { depth + 1 } else { depth };
            p.vdevs.push(ListRow {
                name,
                depth,
                class: class.clone(),
                health,
            });
        }
    }
    out
}

// ---- the source spec (see sources::spec) ----

fn start(lines: &[&str]) -> spec::Start {
    let next = lines.get(1).map(|l| clean_line(l));
    spec::Start::from(
        lines
            .first()
            .is_some_and(|t| is_header(&clean_line(t), next.as_deref())),
    )
}

/// Where `zpool list` prints secrets: the pool names of its pool rows and the serial or
/// WWN parts of vdev names (as in `zpool status`).
pub fn secrets(text: &str) -> Vec<spec::Found> {
    if !text.contains("HEALTH") {
        return Vec::new();
    }
    let mut out = Vec::new();
    for p in parse(text) {
        out.push(spec::Found::sure(spec::SecretKind::Pool, &p.name));
        for v in p.leaves() {
            out.extend(super::zpool::vdev_secrets(&v.name));
        }
    }
    out
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "zpool-list",
    starts: &[(8, start)],
    member: |t, _| {
        let l = clean_line(t);
        spec::Member::from(ROW.is_match(&l) || HEADER.is_match(&l) || is_continuation(&l))
    },
    tolerance: (0, 0),
    classify: |_, _| "zpool-list",
    ..spec::Recogniser::NONE
};

/// The live capture: every pool with its vdevs.
pub(crate) const LIVE: spec::Live = spec::Live::Cmd(&["zpool", "list", "-v"]);

/// zpool-list(8), on FreeBSD and Linux (OpenZFS). The program `zpool` is declared by the
/// zpool status spec.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    live: &[LIVE],
    pasted_as: Some(LIVE),
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, t| {
        p == "zpool" && t.contains("list")
    })),
    mention: Some(r"zpool\s+list"),
    secrets: &[spec::Secret::Scan(secrets)],
    ..spec::SourceSpec::named("zpool-list", "zpool list")
};

#[cfg(test)]
mod tests;
