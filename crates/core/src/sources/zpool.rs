//! `zpool status [-v]` output: pools, state, status/action text, the scan line (including
//! the legacy Solaris "scrub:" keyword and multi-line resilver progress), the vdev tree with
//! READ/WRITE/CKSUM counters, and the errors section with its file list.
//!
//! Reference: zpool-status(8) (OpenZFS) and the Solaris ZFS admin guide. The vdev tree is
//! encoded by indentation (two spaces per level under the NAME column); "logs", "cache",
//! "spares", "special", "dedup" start auxiliary sections. Pastes lose blank lines, turn tabs
//! into spaces and gain user comments ("# ..."), so indentation is measured relative to
//! the NAME header and comments are cut off.

use crate::sources::util::{clean_line, leading_f64, parse_human_size};

#[derive(Debug, Clone, PartialEq, Default)]
pub struct ZpoolVdev {
    pub name: String,
    pub state: Option<String>,
    pub read_errors: Option<u64>,
    pub write_errors: Option<u64>,
    pub cksum_errors: Option<u64>,
    /// 0 = the pool's own row (or the section's entries at top level).
    pub depth: usize,
    pub parent: Option<String>,
    /// "data", "logs", "cache", "spares", "special", "dedup".
    pub section: String,
    /// Trailing text: "was /dev/gpt/ndisk2", "cannot open", "insufficient replicas".
    pub note: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct ZpoolScan {
    /// "scrub", "resilver", "none".
    pub kind: String,
    pub in_progress: bool,
    pub canceled: bool,
    pub percent_done: Option<f64>,
    /// "with N errors" of a finished scan.
    pub errors: Option<u64>,
    /// "2 days 10:54:20 to go", "no estimated completion time".
    pub remaining: Option<String>,
    /// Issue rate of a running scan in bytes/s ("issued at 27.3K/s").
    pub issued_bytes_per_sec: Option<u64>,
    /// The whole scan text, continuation lines joined.
    pub text: String,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct ZpoolStatus {
    /// Empty when the paste starts below the "pool:" line.
    pub pool: String,
    pub state: Option<String>,
    pub status: Option<String>,
    pub action: Option<String>,
    pub see: Option<String>,
    pub scan: Option<ZpoolScan>,
    pub vdevs: Vec<ZpoolVdev>,
    /// "No known data errors" or "Permanent errors have been detected ...".
    pub errors: Option<String>,
    pub error_files: Vec<String>,
}

impl ZpoolStatus {
    /// Leaf devices (disks/partitions), excluding the pool row and grouping vdevs.
    pub fn leaves(&self) -> Vec<&ZpoolVdev> {
        let mut out = Vec::new();
        for (i, v) in self.vdevs.iter().enumerate() {
            let is_pool_row = v.depth == 0 && v.section == "data";
            let has_children = self
                .vdevs
                .get(i + 1)
                .is_some_and(|n| n.depth > v.depth && n.section == v.section);
            if !is_pool_row && !has_children {
                out.push(v);
            }
        }
        out
    }
}

#[derive(PartialEq, Clone, Copy)]
enum Field {
    None,
    Status,
    Action,
    Scan,
    Config,
    Errors,
}

fn counter(s: &str) -> Option<u64> {
    if s.chars().next().is_some_and(|c| c.is_ascii_digit()) {
        parse_human_size(s)
    } else {
        None
    }
}

/// All pools in the text.
pub fn parse(text: &str) -> Vec<ZpoolStatus> {
    let mut out: Vec<ZpoolStatus> = Vec::new();
    let mut field = Field::None;
    let mut name_indent = 0usize;
    let mut stack: Vec<(usize, String)> = Vec::new();
    let mut section = String::from("data");
    for raw in text.lines() {
        let line = clean_line(raw);
        let t = line.trim();
        let indent = line.len() - line.trim_start().len();
        let key = t.split_once(':').map(|(k, v)| (k.trim(), v.trim()));
        let is_key = |k: &str| {
            matches!(
                k,
                "pool"
                    | "state"
                    | "status"
                    | "action"
                    | "see"
                    | "scan"
                    | "scrub"
                    | "config"
                    | "errors"
                    | "remove"
            )
        };
        if let Some((k, v)) = key.filter(|(k, _)| is_key(k) && !t.starts_with('/')) {
            if k == "pool" || out.is_empty() {
                out.push(ZpoolStatus::default());
                section = "data".into();
                stack.clear();
            }
            let Some(p) = out.last_mut() else { continue };
            field = Field::None;
            match k {
                "pool" => p.pool = v.to_string(),
                "state" => p.state = Some(v.to_string()),
                "status" => {
                    p.status = Some(v.to_string());
                    field = Field::Status;
                }
                "action" => {
                    p.action = Some(v.to_string());
                    field = Field::Action;
                }
                "see" => p.see = Some(v.to_string()),
                "scan" | "scrub" => {
                    p.scan = Some(ZpoolScan {
                        text: v.to_string(),
                        ..Default::default()
                    });
                    field = Field::Scan;
                }
                "config" => field = Field::Config,
                "errors" => {
                    p.errors = Some(v.to_string());
                    field = Field::Errors;
                }
                _ => {}
            }
            continue;
        }
        if t.is_empty() {
            if field != Field::Errors && field != Field::Config {
                field = Field::None;
            }
            continue;
        }
        // A paste of the config table alone (no "pool:"/"config:" lines above it): its
        // NAME STATE READ WRITE CKSUM header starts the table.
        if field != Field::Config && t.starts_with("NAME") && t.contains("STATE") {
            if out.is_empty() {
                out.push(ZpoolStatus::default());
                section = "data".into();
                stack.clear();
            }
            field = Field::Config;
            name_indent = indent;
            continue;
        }
        let Some(p) = out.last_mut() else { continue };
        match field {
            Field::Status | Field::Action => {
                let slot = if field == Field::Status {
                    &mut p.status
                } else {
                    &mut p.action
                };
                if let Some(s) = slot {
                    s.push(' ');
                    s.push_str(t);
                }
            }
            Field::Scan => {
                if let Some(s) = p.scan.as_mut() {
                    s.text.push(' ');
                    s.text.push_str(t);
                }
            }
            Field::Errors => {
                // File list of "Permanent errors": paths, indented or not.
                if t.starts_with('/') || t.starts_with('<') || t.contains(":<0x") {
                    p.error_files.push(t.to_string());
                }
            }
            Field::Config => {
                // Cut user comments ("\t# 默认池名").
                let body = t.split(" #").next().unwrap_or(t).trim();
                let tk: Vec<&str> = body.split_whitespace().collect();
                if tk.first() == Some(&"NAME") && tk.contains(&"STATE") {
                    name_indent = indent;
                    continue;
                }
                if tk.len() == 1
                    && matches!(
                        tk.first().copied(),
                        Some("logs" | "cache" | "spares" | "special" | "dedup")
                    )
                {
                    section = tk.first().copied().unwrap_or("data").to_string();
                    stack.clear();
                    continue;
                }
                let Some(name) = tk.first() else { continue };
                let state = tk.get(1).copied();
                let known_state = state.is_some_and(|s| {
                    matches!(
                        s,
                        "ONLINE"
                            | "DEGRADED"
                            | "FAULTED"
                            | "OFFLINE"
                            | "UNAVAIL"
                            | "REMOVED"
                            | "AVAIL"
                            | "INUSE"
                            | "SUSPENDED"
                    )
                });
                if !known_state {
                    continue; // "~~~ Trimmmed for brevity ~~~" and other inserted text
                }
                let rel = indent.saturating_sub(name_indent);
                let depth = if section == "data" {
                    rel / 2
                } else {
                    rel.saturating_sub(2) / 2
                };
                while stack.last().is_some_and(|(d, _)| *d >= depth) {
                    stack.pop();
                }
                let parent = stack.last().map(|(_, n)| n.clone());
                stack.push((depth, name.to_string()));
                let note = tk.get(5..).map(|r| r.join(" ")).filter(|s| !s.is_empty());
                p.vdevs.push(ZpoolVdev {
                    name: name.to_string(),
                    state: state.map(str::to_string),
                    read_errors: tk.get(2).and_then(|s| counter(s)),
                    write_errors: tk.get(3).and_then(|s| counter(s)),
                    cksum_errors: tk.get(4).and_then(|s| counter(s)),
                    depth,
                    parent,
                    section: section.clone(),
                    note,
                });
            }
            Field::None => {
                // A paste that starts at the scan continuation (no "pool:" line).
            }
        }
    }
    for p in &mut out {
        if let Some(s) = p.scan.as_mut() {
            finish_scan(s);
        }
    }
    out
}

fn finish_scan(s: &mut ZpoolScan) {
    let t = s.text.clone();
    s.kind = if t.starts_with("none") {
        "none".into()
    } else if t.contains("resilver") {
        "resilver".into()
    } else if t.contains("scrub") {
        "scrub".into()
    } else {
        String::new()
    };
    s.in_progress = t.contains("in progress");
    s.canceled = t.contains("canceled");
    if let Some((before, _)) = t.split_once("% done") {
        let start = before
            .rfind(|c: char| !(c.is_ascii_digit() || c == '.'))
            .map(|i| i + 1)
            .unwrap_or(0);
        s.percent_done = before.get(start..).and_then(leading_f64);
    }
    if let Some((_, after)) = t.split_once(" with ")
        && after
            .split_whitespace()
            .nth(1)
            .is_some_and(|w| w.starts_with("error"))
    {
        s.errors = after.split_whitespace().next().and_then(|n| n.parse().ok());
    }
    if let Some(i) = t.find(" to go") {
        let before = t.get(..i).unwrap_or("");
        let start = before.rfind(", ").map(|j| j + 2).unwrap_or(0);
        s.remaining = before.get(start..).map(|r| format!("{} to go", r.trim()));
    } else if t.contains("no estimated completion time") {
        s.remaining = Some("no estimated completion time".into());
    }
    if let Some((_, after)) = t.split_once(" issued at ") {
        let rate = after.split(['/', ' ', ',']).next().unwrap_or("");
        s.issued_bytes_per_sec = parse_human_size(rate);
    }
}

/// OpenZFS's per-vdev warning "block size: 512B configured, 4096B native"
/// (zpool_main.c print_status_config: the vdev's ashift is below the device's physical
/// ashift): (configured, native) bytes. None for other notes and for sizes that are not a
/// power of two between 512 B and 16 MiB.
pub fn block_size_note(note: &str) -> Option<(u64, u64)> {
    let rest = note.trim().strip_prefix("block size:")?;
    let (conf, native) = rest.split_once(',')?;
    let bytes = |s: &str, word: &str| -> Option<u64> {
        let n: u64 = s
            .trim()
            .strip_suffix(word)?
            .trim()
            .strip_suffix('B')?
            .parse()
            .ok()?;
        (n.is_power_of_two() && (512..=1 << 24).contains(&n)).then_some(n)
    };
    Some((bytes(conf, "configured")?, bytes(native, "native")?))
}

#[cfg(test)]
mod block_size_tests {
    use super::*;

    #[test]
    fn block_size_note_reads_both_sizes_and_rejects_nonsense() {
        assert_eq!(
            block_size_note("block size: 512B configured, 4096B native"),
            Some((512, 4096))
        );
        assert_eq!(
            block_size_note("block size: 65536B configured, 262144B native"),
            Some((65536, 262144))
        );
        assert_eq!(block_size_note("was /dev/gpt/disk2"), None);
        assert_eq!(
            block_size_note("block size: 513B configured, 4096B native"),
            None
        );
        assert_eq!(
            block_size_note("block size: 99999999999999999999999B configured, 4096B native"),
            None
        );
    }
}

// ---- the source spec (see sources::spec) ----
use crate::sources::spec;

crate::rx!(
    ZPOOL_START,
    r"^\s*pool: \S+|^\s*scan: (resilver|scrub) |^\s*NAME\s+STATE\s+READ\s+WRITE\s+CKSUM"
);
crate::rx!(
    ZPOOL_MEMBER,
    r"^\s*(state|status|action|see|scan|scrub|config|errors|remove|checkpoint|pool):|^\s*NAME\s+STATE\s+READ|^\s+\S+\s+(ONLINE|DEGRADED|FAULTED|OFFLINE|UNAVAIL|REMOVED|AVAIL|INUSE)\b|^\s*(spares|logs|cache|special|dedup)\s*$|^\s+\S|^(/\S|<0x)"
);

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "zpool-status",
    starts: &[(110, |l| spec::on_first(l, |t| ZPOOL_START.is_match(t)))],
    member: |t, _| spec::Member::from(ZPOOL_START.is_match(t) || ZPOOL_MEMBER.is_match(t)),
    tolerance: (1, 2),
    classify: |_, _| "zpool-status",
    ..spec::Recogniser::NONE
};

/// zpool-status(8), on FreeBSD and Linux (OpenZFS).
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    live: &[spec::Live::Cmd(&["zpool", "status"])],
    pasted_as: Some(spec::Live::Cmd(&["zpool", "status"])),
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, _| p == "zpool")),
    ..spec::SourceSpec::named("zpool-status", "zpool status")
};
