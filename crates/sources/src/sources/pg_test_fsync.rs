//! `pg_test_fsync` (PostgreSQL, src/bin/pg_test_fsync/pg_test_fsync.c): how many 8 kB
//! writes per second each `wal_sync_method` completes on the filesystem it runs in. The
//! program prints a header ("5 seconds per test", older releases "2000 operations per
//! test"; "O_DIRECT supported on this platform for open_datasync and open_sync."), then
//! sections opened by "Compare file sync methods using one 8kB write:" (also "two 8kB
//! writes", "Compare open_sync with different write sizes:", "Test if fsync on non-write
//! file descriptor is honored:", "Non-sync'ed 8kB writes:", spelt "Non-Sync'ed" by releases
//! before 9.5), each with one row per method:
//! LABEL_FORMAT ("        %-30s") then "%13.3f ops/sec  %6.0f usecs/op" (releases before
//! 9.2 print no usecs/op), or NA_FORMAT "%21s" with "n/a" ("n/a*" when O_DIRECT failed).
//! A paste is often an excerpt that opens on the method rows, without the header or the
//! section line above them: the rows of wal_sync_method's own names (postgresql.conf's
//! open_datasync, fdatasync, fsync, fsync_writethrough, open_sync) recognise it.
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
    /// the other sections; None for rows an excerpt shows above its first section line.
    pub writes: Option<u8>,
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
    r"^(?:Compare file sync methods using (one|two) \d+kB writes?:|Compare open_sync with different write sizes:|Test if fsync on non-write file descriptor is honored:|Non-[Ss]ync'ed \d+kB writes:)\s*$"
);
crate::rx!(
    ROW,
    r"^(\S.{0,40}?)\s+(?:(\d+(?:\.\d+)?) ops/sec(?:\s+\d+ usecs/op)?|n/a\*?)\s*$"
);
// A row of one of wal_sync_method's values (PostgreSQL doc, "wal_sync_method"), the rows
// an excerpt without its section line opens on.
crate::rx!(
    METHOD_ROW,
    r"^(?:open_datasync|fdatasync|fsync|fsync_writethrough|open_sync)\s+(?:\d+(?:\.\d+)? ops/sec(?:\s+\d+ usecs/op)?|n/a\*?)\s*$"
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
    // Rows before the first section line count only when they are wal_sync_method rows.
    let mut in_section = false;
    for raw in text.lines() {
        let c = util::clean_line(raw);
        let t = c.trim();
        if let Some(cap) = SECTION.captures(t) {
            writes = Some(match cap.get(1).map(|m| m.as_str()) {
                Some("one") => 1,
                Some("two") => 2,
                _ => 0,
            });
            in_section = true;
            continue;
        }
        if !in_section && !METHOD_ROW.is_match(t) {
            continue;
        }
        if let Some(cap) = ROW.captures(t)
            && let Some(m) = cap.get(1)
        {
            out.push(SyncRow {
                writes,
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
    // An excerpt opening on a wal_sync_method row, with another such row or a section line
    // right after it: a sentence never has that shape.
    let rows = METHOD_ROW.is_match(&first)
        && lines.iter().skip(1).take(2).any(|l| {
            let l = clean(l);
            METHOD_ROW.is_match(&l) || SECTION.is_match(&l)
        });
    spec::Start::from((own && followed) || rows)
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
