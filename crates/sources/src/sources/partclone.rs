//! partclone's log (partclone.ext4, partclone.ntfs, partclone.dd ... as Clonezilla and
//! Rescuezilla run them; Rescuezilla 2.x repeats each line behind "Not yet interpreting
//! partclone output: "). Reference: partclone src/main.c and src/partclone.c. The header
//! "Partclone vX.Y.Z http://partclone.org", "Starting to clone device (/dev/sda1) to image
//! (-)" (or "clone/restore (/dev/sda3) to (-) with dd mode", "restore image (-) to device
//! (...)"), the filesystem summary ("File system:", "Device size:", "Space in use:"), then
//! what went wrong:
//! - a read of the source that failed with EIO prints `bad_sectors_warning_msg`, the boxed
//!   "WARNING: The disk has bad sectors. ..." (without --rescue), or, with --rescue,
//!   rescue_sector's "WARNING: Can't read sector at N, lost data." per sector; dd mode's
//!   "source read ERROR Input/output error" is the same EIO;
//! - a filesystem module's check refusing to copy ("extfsclone.c: FS has been mounted 1 times
//!   without being checked", "FS contains a file system with errors", "FS was not cleanly
//!   unmounted", "bitmap free count err"), then "Partclone fail, please check LOG !": the
//!   filesystem wants fsck, which says nothing about the disk.

use crate::sources::{spec, util};

/// What one partclone run shows.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Run {
    /// The device read: the source of a clone (None for a restore, whose reads are of the
    /// image).
    pub device: Option<String>,
    pub restore: bool,
    /// Reads of the source that failed with EIO (the bad-sector box counts one).
    pub read_failures: u64,
    /// The first line that says so.
    pub failure_line: Option<String>,
    /// The filesystem module's complaint that stopped the run.
    pub fs_check: Option<String>,
}

const PREFIX: &str = "Not yet interpreting partclone output:";

crate::rx!(
    START,
    r"^Starting to (?:clone|back up|restore)[^(]*\(([^)]*)\)(?:[^(]*\(([^)]*)\))?"
);
crate::rx!(HEADER, r"^Partclone v\d+\.\d+\.\d+\b");
crate::rx!(
    LINE,
    r"^(?:Partclone v\d|Starting to |get device size |memory needed:|bitmap \d+ bytes|Calculating bitmap|Reading Super Block|File system:|Device size:|Space in use:|Free Space:|Block size:|Total block|\*{8,}|\* .*|.*\s{2}\*(?:\s|$)|.*\*{8,}|WARNING: |disk surface caused by|another reason\. The reliability|degrade quickly\. Use the --rescue|data as possible!|Elapsed:|Remaining:|Current block:|Total Time:|Ave\. Rate|Syncing\.\.\.|Cloned successfully|Partclone successfully|Partclone fail|source (?:read|seek) ERROR|read (?:ERROR|error)|read and write different|read\(\d+\) and write|WARNING: Can't read sector|\w+clone(?:-ng)?\.c: )"
);
crate::rx!(
    FS_CHECK,
    r"without being checked|needs? to be checked|file system with errors|not cleanly unmounted|bitmap free count err|Couldn't find valid filesystem superblock"
);

/// A line without its quoting and Rescuezilla's prefix (which may follow other text). The
/// warning box's "* " may be gone and its lines run together (read as a Markdown list):
/// its padded right edge ("faults, or        *"), its rule of asterisks and its own
/// sentences (main.c bad_sectors_warning_msg) still show.
fn clean(l: &str) -> String {
    let t = util::clean_line(l);
    match t.split_once(PREFIX) {
        Some((_, rest)) => rest.trim().to_string(),
        None => t.trim().to_string(),
    }
}

fn is_line(l: &str) -> bool {
    LINE.is_match(&clean(l))
}

/// The runs of a paste, one per "Starting to ..." line (or header).
pub fn parse(text: &str) -> Vec<Run> {
    let mut out: Vec<Run> = Vec::new();
    for raw in text.lines() {
        let t = clean(raw);
        if HEADER.is_match(&t) {
            out.push(Run::default());
            continue;
        }
        if let Some(c) = START.captures(&t) {
            if out.last().is_none_or(|r| r.device.is_some() || r.restore) {
                out.push(Run::default());
            }
            let Some(r) = out.last_mut() else { continue };
            r.restore = t.starts_with("Starting to restore");
            let dev = if r.restore { None } else { c.get(1) };
            r.device = dev
                .map(|m| m.as_str().trim())
                .filter(|d| d.starts_with("/dev/"))
                .map(spec::strip_dev);
            continue;
        }
        let Some(r) = out.last_mut() else { continue };
        let eio = t.contains("WARNING: The disk has bad sectors")
            || t.contains("WARNING: Can't read sector at")
            || (t.starts_with("source read ERROR") && t.contains("Input/output error"));
        if eio {
            r.read_failures = r.read_failures.saturating_add(1);
            r.failure_line.get_or_insert_with(|| t.clone());
        } else if FS_CHECK.is_match(&t) && r.fs_check.is_none() {
            r.fs_check = Some(t.clone());
        }
    }
    out
}

// ---- the source spec (see sources::spec) ----

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "partclone",
    starts: &[(40, |l| {
        spec::on_first(l, |t| {
            let t = clean(t);
            HEADER.is_match(&t) || (START.is_match(&t) && t.contains("/dev/"))
        })
    })],
    member: |t, _| spec::Member::from(is_line(t)),
    tolerance: (1, 2),
    classify: |_, _| "partclone",
    ..spec::Recogniser::NONE
};

/// partclone's log, pasted from a Clonezilla or Rescuezilla run or /var/log/partclone.log.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, _| {
        p.starts_with("partclone") || p == "cat"
    })),
    ..spec::SourceSpec::named("partclone", "partclone log")
};

#[cfg(test)]
mod tests;
