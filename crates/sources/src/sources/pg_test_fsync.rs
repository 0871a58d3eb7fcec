//! `pg_test_fsync` (PostgreSQL, src/bin/pg_test_fsync/pg_test_fsync.c): how many 8 kB
//! writes per second each `wal_sync_method` completes on the filesystem it runs in. The
//! program prints a header ("5 seconds per test", older releases "2000 operations per
//! test"; "O_DIRECT supported on this platform for open_datasync and open_sync."), then
//! sections opened by "Compare file sync methods using one 8kB write:" (also "two 8kB
//! writes", "Compare open_sync with different write sizes:", "Test if fsync on non-write
//! file descriptor is honored:", "Non-sync'ed 8kB writes:"), each with one row per method:
//! LABEL_FORMAT ("        %-30s") then "%13.3f ops/sec  %6.0f usecs/op" (releases before
//! 9.2 print no usecs/op), or NA_FORMAT "%21s" with "n/a" ("n/a*" when O_DIRECT failed).
//!
//! What a row means: one fdatasync per 8 kB write is one trip to stable storage. A drive
//! with a volatile write cache it flushes, or none, completes at most about one per
//! rotation on an HDD (120 per second at 7200 rpm) and a few hundred on a consumer SSD;
//! thousands mean a capacitor-backed (PLP) cache or a controller cache answered, which
//! is a healthy, fast WAL device. Nothing here is a disk problem by itself.

use crate::sources::{spec, util};

/// One method's row.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SyncRow {
    /// The section's write count per op: 1 ("one 8kB write"), 2 ("two 8kB writes"), 0 in
    /// the other sections.
    pub writes: u8,
    /// "fdatasync", "open_datasync", "1 * 16kB open_sync write", "write, fsync, close".
    pub method: String,
    /// None for "n/a" (the method does not exist on this platform).
    pub ops_per_sec: Option<f64>,
}

crate::rx!(
    HEADER,
    r"^(?:\d+ seconds per test|\d+ operations per test|O_DIRECT supported on this platform|Direct I/O is not supported on this platform)"
);
crate::rx!(
    SECTION,
    r"^(?:Compare file sync methods using (one|two) \d+kB writes?:|Compare open_sync with different write sizes:|Test if fsync on non-write file descriptor is honored:|Non-sync'ed \d+kB writes:)\s*$"
);
crate::rx!(
    ROW,
    r"^(\S.{0,40}?)\s+(?:(\d+(?:\.\d+)?) ops/sec(?:\s+\d+ usecs/op)?|n/a\*?)\s*$"
);
// The sections' explanatory lines, printed as they are in pg_test_fsync.c.
crate::rx!(
    NOTE,
    r"^(?:\(in .?wal_sync_method.? preference order, except fdatasync|is Linux's default\)|\(This is designed to compare the cost of writing \d+kB|in different write open_sync sizes\.\)|\(If the times are similar, fsync\(\) can sync data written|on a different descriptor\.\)|\* This file system and its mount options do not support direct)"
);

/// The rows of every section.
pub(crate) fn parse(text: &str) -> Vec<SyncRow> {
    let mut out = Vec::new();
    let mut writes: Option<u8> = None;
    for raw in text.lines() {
        let c = util::clean_line(raw);
        let t = c.trim();
        if let Some(cap) = SECTION.captures(t) {
            writes = Some(match cap.get(1).map(|m| m.as_str()) {
                Some("one") => 1,
                Some("two") => 2,
                _ => 0,
            });
            continue;
        }
        let Some(w) = writes else { continue };
        if let Some(cap) = ROW.captures(t)
            && let Some(m) = cap.get(1)
        {
            out.push(SyncRow {
                writes: w,
                method: m.as_str().trim().to_string(),
                ops_per_sec: cap.get(2).and_then(|v| v.as_str().parse().ok()),
            });
        }
    }
    out
}

// ---- the source spec (see sources::spec) ----

fn clean(t: &str) -> String {
    util::clean_line(t).trim().to_string()
}

fn start(lines: &[&str]) -> spec::Start {
    let Some(first) = lines.first().map(|l| clean(l)) else {
        return spec::Start::No;
    };
    // The header or a section line, with a section line or a method row within the next
    // three lines: a sentence quoting "5 seconds per test" has none of them after it.
    let own = HEADER.is_match(&first) || SECTION.is_match(&first);
    let followed = lines.iter().skip(1).take(3).any(|l| {
        let l = clean(l);
        SECTION.is_match(&l) || HEADER.is_match(&l) || NOTE.is_match(&l)
    });
    spec::Start::from(own && followed)
}

fn member(l: &str, _: &spec::BlockState) -> spec::Member {
    let t = clean(l);
    spec::Member::from(
        HEADER.is_match(&t) || SECTION.is_match(&t) || NOTE.is_match(&t) || ROW.is_match(&t),
    )
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "pg_test_fsync",
    starts: &[(60, start)],
    member,
    tolerance: (1, 1),
    classify: |_, _| "pg_test_fsync",
    ..spec::Recogniser::NONE
};

/// `pg_test_fsync`: pasted to show how fast a WAL device syncs; nothing probes it live.
pub const SPEC: spec::SourceSpec = spec::pasted_only!(
    "pg_test_fsync",
    "PostgreSQL pg_test_fsync",
    None,
    &RECOGNISER,
    parse: |t| parse(t).len(),
    secrets: &[],
    // Bare, flags, or a test file ("pg_test_fsync -f /data/test.out").
    args: |_| true,
);

#[cfg(test)]
mod tests;
