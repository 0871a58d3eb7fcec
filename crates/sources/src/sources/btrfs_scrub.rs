//! `btrfs scrub status` and `btrfs scrub start -B` (btrfs-progs, cmds/scrub.c): the state and
//! error counts of a scrub, which reads every block of a btrfs filesystem on every device and
//! checks it against its checksum (btrfs-scrub(8)). Two formats:
//! - btrfs-progs 5.2 and later (`_print_scrub_ss`, `print_scrub_summary`): "UUID:", "Scrub
//!   started:" (or "Scrub resumed:"), "Status:" running | aborted | finished | interrupted,
//!   "Duration:", while running "Time left:", "ETA:", "Bytes scrubbed:", then "Total to
//!   scrub:", "Rate:", and "Error summary:" either " no errors found" or the non-zero counters
//!   (" read=N super=N verify=N csum=N") followed by "  Corrected:", "  Uncorrectable:",
//!   "  Unverified:".
//! - older btrfs-progs: "scrub status for UUID" (or "scrub done for UUID" after `start -B`),
//!   "\tscrub started at DATE, running for H:MM:SS" (or "and finished after", "and was
//!   aborted after", ", interrupted after"), "\ttotal bytes scrubbed: SIZE with N errors",
//!   "\terror details: read=N csum=N ...", "\tcorrected errors: N, uncorrectable errors: N,
//!   unverified errors: N".
//!
//! read counts blocks the device failed to return (the block layer's error); csum and verify
//! count blocks that came back with wrong data or a wrong header; super counts bad superblock
//! copies. Corrected errors were repaired from another copy (RAID1/10/5/6, DUP).

use crate::sources::{spec, util};

/// The name of a filesystem whose scrub report printed no UUID (a pasted excerpt).
pub const UNNAMED: &str = "the btrfs filesystem";

/// What the scrub is doing, as the status prints it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum State {
    Running,
    Finished,
    Aborted,
    Interrupted,
    #[default]
    Unknown,
}

/// One scrub's report (the filesystem's, or one device's with `-d`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Scrub {
    /// The filesystem's UUID, when printed.
    pub uuid: Option<String>,
    /// "/dev/sdb" of a per-device report ("scrub device /dev/sdb (id 1) done").
    pub device: Option<String>,
    pub state: State,
    /// The old format's total ("with N errors"), or the sum of the new format's counters.
    pub errors: Option<u64>,
    pub read_errors: u64,
    pub csum_errors: u64,
    pub verify_errors: u64,
    pub super_errors: u64,
    pub corrected: Option<u64>,
    pub uncorrectable: Option<u64>,
    /// The lines the counts were read from, as printed (trimmed), for evidence.
    pub lines: Vec<String>,
}

crate::rx!(
    OLD_HEAD,
    r"^scrub (?:status|done) for ([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\s*$"
);
crate::rx!(
    DEVICE_HEAD,
    r"^scrub device (/\S+) \(id \d+\)(?: (done|status|history|canceled|aborted|interrupted|running|no stats available))?"
);
crate::rx!(
    OLD_STARTED,
    r"^scrub (?:started|resumed) at .+?(?:, running for|and finished after|and was aborted after|, interrupted after) \d+"
);
crate::rx!(
    OLD_TOTAL,
    r"^total bytes scrubbed: \S+ with (\d+) errors\s*$"
);
crate::rx!(OLD_DETAILS, r"^error details:((?:\s+[a-z]+=\d+)+)\s*$");
crate::rx!(
    OLD_COUNTS,
    r"^corrected errors: (\d+), uncorrectable errors: (\d+)(?:,\s*(?:unverified errors: \d+)?)?\s*$"
);
crate::rx!(
    NEW_KEY,
    r"^(UUID|Scrub started|Scrub resumed|Status|Duration|Time left|ETA|Total to scrub|Bytes scrubbed|Rate|Error summary|Corrected|Uncorrectable|Unverified):\s*(.*)$"
);
crate::rx!(
    STARTED_ON,
    r"^scrub (?:started|resumed) on \S+, fsid [0-9a-f-]{36} \(pid=\d+\)\s*$"
);
crate::rx!(COUNTER, r"([a-z]+)=(\d+)");

/// The line without its paste decoration (quoting, prompts' indentation, tabs).
fn tidy(raw: &str) -> String {
    util::clean_line(raw).trim().to_string()
}

fn counters(s: &mut Scrub, list: &str) {
    for c in COUNTER.captures_iter(list) {
        let Some(n) = c.get(2).and_then(|m| m.as_str().parse::<u64>().ok()) else {
            continue;
        };
        match c.get(1).map_or("", |m| m.as_str()) {
            "read" => s.read_errors = n,
            "csum" => s.csum_errors = n,
            "verify" => s.verify_errors = n,
            "super" => s.super_errors = n,
            _ => {}
        }
    }
}

fn state_of(word: &str) -> State {
    match word.trim() {
        "running" => State::Running,
        "finished" => State::Finished,
        "aborted" | "canceled" => State::Aborted,
        "interrupted" => State::Interrupted,
        _ => State::Unknown,
    }
}

/// Every scrub report in `text`, in order. A new report starts at an old-format heading, a
/// "scrub device" heading, a "UUID:" line, or a "Scrub started:" line after a report that
/// already had one.
pub fn parse(text: &str) -> Vec<Scrub> {
    let mut out: Vec<Scrub> = Vec::new();
    let mut cur: Option<Scrub> = None;
    let mut seen_start = false;
    let flush = |cur: &mut Option<Scrub>, out: &mut Vec<Scrub>| {
        if let Some(mut s) = cur.take() {
            if s.errors.is_none() && !s.lines.is_empty() {
                let sum = [
                    s.read_errors,
                    s.csum_errors,
                    s.verify_errors,
                    s.super_errors,
                ]
                .iter()
                .fold(0u64, |a, x| a.saturating_add(*x));
                s.errors = Some(sum);
            }
            if !s.lines.is_empty() {
                out.push(s);
            }
        }
    };
    for raw in text.lines() {
        let l = tidy(raw);
        if let Some(c) = OLD_HEAD.captures(&l) {
            flush(&mut cur, &mut out);
            seen_start = false;
            cur = Some(Scrub {
                uuid: c.get(1).map(|m| m.as_str().to_string()),
                ..Scrub::default()
            });
            continue;
        }
        if let Some(c) = DEVICE_HEAD.captures(&l) {
            let uuid = cur.as_ref().and_then(|s| s.uuid.clone());
            flush(&mut cur, &mut out);
            seen_start = false;
            cur = Some(Scrub {
                uuid,
                device: c.get(1).map(|m| m.as_str().to_string()),
                ..Scrub::default()
            });
            continue;
        }
        if OLD_STARTED.is_match(&l) {
            if seen_start {
                flush(&mut cur, &mut out);
            }
            seen_start = true;
            let s = cur.get_or_insert_with(Scrub::default);
            s.state = if l.contains("running for") {
                State::Running
            } else if l.contains("finished after") {
                State::Finished
            } else if l.contains("aborted after") {
                State::Aborted
            } else {
                State::Interrupted
            };
            s.lines.push(l.clone());
            continue;
        }
        if let Some(c) = OLD_TOTAL.captures(&l) {
            let s = cur.get_or_insert_with(Scrub::default);
            s.errors = c.get(1).and_then(|m| m.as_str().parse().ok());
            s.lines.push(l.clone());
            continue;
        }
        if let Some(c) = OLD_DETAILS.captures(&l) {
            let s = cur.get_or_insert_with(Scrub::default);
            counters(s, c.get(1).map_or("", |m| m.as_str()));
            s.lines.push(l.clone());
            continue;
        }
        if let Some(c) = OLD_COUNTS.captures(&l) {
            let s = cur.get_or_insert_with(Scrub::default);
            s.corrected = c.get(1).and_then(|m| m.as_str().parse().ok());
            s.uncorrectable = c.get(2).and_then(|m| m.as_str().parse().ok());
            s.lines.push(l.clone());
            continue;
        }
        let Some(c) = NEW_KEY.captures(&l) else {
            continue;
        };
        let key = c.get(1).map_or("", |m| m.as_str());
        let val = c.get(2).map_or("", |m| m.as_str()).trim();
        match key {
            "UUID" => {
                flush(&mut cur, &mut out);
                seen_start = false;
                cur = Some(Scrub {
                    uuid: Some(val.to_string()).filter(|v| !v.is_empty()),
                    ..Scrub::default()
                });
            }
            "Scrub started" | "Scrub resumed" => {
                if seen_start {
                    flush(&mut cur, &mut out);
                }
                seen_start = true;
                cur.get_or_insert_with(Scrub::default).lines.push(l.clone());
            }
            "Status" => {
                let s = cur.get_or_insert_with(Scrub::default);
                s.state = state_of(val);
                s.lines.push(l.clone());
            }
            "Error summary" => {
                let s = cur.get_or_insert_with(Scrub::default);
                if val.contains("no errors found") {
                    s.errors = Some(0);
                } else {
                    counters(s, val);
                }
                s.lines.push(l.clone());
            }
            "Corrected" | "Uncorrectable" => {
                let s = cur.get_or_insert_with(Scrub::default);
                let n = val.parse::<u64>().ok();
                if key == "Corrected" {
                    s.corrected = n;
                } else {
                    s.uncorrectable = n;
                }
                s.lines.push(l.clone());
            }
            _ => {
                if let Some(s) = cur.as_mut() {
                    s.lines.push(l.clone());
                }
            }
        }
    }
    flush(&mut cur, &mut out);
    out.retain(|s| s.state != State::Unknown || s.errors.is_some() || s.uncorrectable.is_some());
    out
}

impl Scrub {
    /// Blocks the device(s) failed to return: read errors and bad superblock copies.
    pub fn failed_reads(&self) -> u64 {
        self.read_errors.saturating_add(self.super_errors)
    }

    /// Blocks that came back with the wrong content (checksum or header mismatch).
    pub fn bad_data(&self) -> u64 {
        self.csum_errors.saturating_add(self.verify_errors)
    }

    /// The old format's total with no breakdown: errors of an unknown kind.
    pub fn unexplained_errors(&self) -> u64 {
        let known = self.failed_reads().saturating_add(self.bad_data());
        self.errors.unwrap_or(0).saturating_sub(known)
    }
}

// ---- the source spec (see sources::spec) ----

/// A line only this output prints.
fn is_distinct(l: &str) -> bool {
    OLD_HEAD.is_match(l)
        || OLD_STARTED.is_match(l)
        || OLD_TOTAL.is_match(l)
        || OLD_DETAILS.is_match(l)
        || OLD_COUNTS.is_match(l)
        || STARTED_ON.is_match(l)
        || DEVICE_HEAD.is_match(l)
        || l.starts_with("Scrub started:")
        || l.starts_with("Scrub resumed:")
        || l.starts_with("Error summary:")
        || l.starts_with("Total to scrub:")
}

fn is_member(l: &str) -> bool {
    let t = tidy(l);
    is_distinct(&t)
        || NEW_KEY.is_match(&t)
        // A mail-wrapped tail of the old counts line ("unverified errors: 0").
        || t.starts_with("unverified errors:")
        || t == "no stats available"
}

fn start(lines: &[&str]) -> spec::Start {
    let first = tidy(lines.first().copied().unwrap_or(""));
    if is_distinct(&first) {
        return spec::Start::Yes;
    }
    // "UUID:" is printed by many tools: it starts a scrub report only when the report's own
    // lines follow.
    let next = tidy(lines.get(1).copied().unwrap_or(""));
    spec::Start::from(
        first.starts_with("UUID:")
            && (next.starts_with("Scrub started:")
                || next.starts_with("Scrub resumed:")
                || DEVICE_HEAD.is_match(&next)),
    )
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "btrfs-scrub",
    starts: &[(40, start)],
    member: |l, _| spec::Member::from(is_member(l)),
    tolerance: (1, 0),
    classify: |_, _| "btrfs-scrub",
    ..spec::Recogniser::NONE
};

/// `btrfs scrub status|start -B`: pasted beside a question, not captured by a probe.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Linux),
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, a| {
        p == "btrfs" && a.split_whitespace().next() == Some("scrub")
    })),
    // The typed `btrfs scrub ...` is followed through sources::btrfs_stats' `btrfs` program
    // (explain takes the first program of a name), which accepts its scrub subcommand.
    ..spec::SourceSpec::named("btrfs-scrub", "btrfs scrub status")
};

#[cfg(test)]
mod tests;
