//! fsck_ffs(8), FreeBSD's UFS checker, as the boot's rc.d/fsck runs it after an unclean
//! shutdown (`fsck -p`, `fsck -y`) or a user runs it by hand, with the kernel's mount
//! warnings that lead to it. Its lines (sbin/fsck_ffs: main.c checkfilesys, pass1.c ...
//! pass5.c, fsutil.c, setup.c):
//!
//! ```text
//! ** /dev/ufs/OPNsense
//! ** Last Mounted on /
//! ** Root file system
//! ** Phase 1 - Check Blocks and Sizes
//! INCORRECT BLOCK COUNT I=802571 (8 should be 0)
//! CORRECT? yes
//! ***** FILE SYSTEM WAS MODIFIED *****
//! FILE SYSTEM CLEAN; SKIPPING CHECKS
//! clean, 200966 free (110 frags, 25107 blocks, 0.0% fragmentation)
//! ```
//!
//! and ffs_vfsops.c's "WARNING: / was not properly dismounted", "WARNING: /: mount pending
//! error: blocks 24 files 1" (soft updates' unfinished frees). Inconsistencies that fsck
//! repairs after a crash or a power loss are the file system's state, not a disk's fault;
//! only a block fsck could not read (fsutil.c rwerror "CANNOT READ BLK: %jd", blread's
//! "THE FOLLOWING DISK SECTORS COULD NOT BE READ:") is the disk's.

use crate::sources::spec;
use crate::sources::util::clean_line;

crate::rx!(
    LINE,
    r"^(?:\*\* (?:/dev/\S+|Last Mounted on |Root file system|Phase \d+[a-z]? - )|\*{5} FILE SYSTEM (?:WAS MODIFIED|IS LEFT MARKED AS DIRTY|MARKED CLEAN|STILL DIRTY)|FILE SYSTEM CLEAN; SKIPPING CHECKS|\(NO WRITE\)|clean, \d+ free \(\d+ frags, \d+ blocks, [\d.]+% fragmentation\)|\d+ files, \d+ used, \d+ free \(|INCORRECT BLOCK COUNT I=\d+|(?:CORRECT|SALVAGE|CLEAR|RECONNECT|FIX|REBUILD CYLINDER GROUP|ADJUST|CONTINUE|RECONSTRUCT)\? (?:yes|no)\s*$|FREE BLK COUNT\(S\) WRONG IN SUPERBLK|SUMMARY INFORMATION BAD|BLK\(S\) MISSING IN BIT MAPS|UNREF (?:FILE|DIR) I=\d+|UNEXPECTED SOFT UPDATE INCONSISTENCY|CYLINDER GROUP \d+: |CG \d+: BAD MAGIC|CANNOT READ BLK: \d+|THE FOLLOWING DISK SECTORS COULD NOT BE READ|WARNING: \S+ was not properly dismounted|WARNING: \S+: (?:mount|reload) pending error: blocks \d+ files \d+|tunefs: \S+ is not clean - run fsck)"
);

/// The line without a syslog priority ("<118>", rc's console lines as syslogd logs them)
/// and the pasted indentation.
fn body(raw: &str) -> String {
    let l = clean_line(raw);
    let t = l.trim_start();
    let t = t
        .strip_prefix('<')
        .and_then(|r| r.split_once('>'))
        .filter(|(p, _)| !p.is_empty() && p.len() <= 3 && p.bytes().all(|b| b.is_ascii_digit()))
        .map_or(t, |(_, r)| r);
    t.trim().to_string()
}

fn is_line(raw: &str) -> bool {
    LINE.is_match(&body(raw))
}

/// What one fsck run reported.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct FsckReport {
    /// fsck_ffs's own lines read.
    pub lines: usize,
    /// Inconsistencies it reported (each question it asked, "CORRECT? yes" and the like).
    pub repairs: usize,
    /// Blocks it could not read: the disk's read errors (fsutil.c rwerror, blread).
    pub unreadable: Vec<String>,
}

/// The fsck_ffs lines of `text`.
pub(crate) fn parse(text: &str) -> FsckReport {
    let mut r = FsckReport::default();
    for raw in text.lines() {
        let b = body(raw);
        if !LINE.is_match(&b) {
            continue;
        }
        r.lines = r.lines.saturating_add(1);
        if b.ends_with("? yes") || b.ends_with("? no") {
            r.repairs = r.repairs.saturating_add(1);
        }
        if b.starts_with("CANNOT READ BLK: ")
            || b.starts_with("THE FOLLOWING DISK SECTORS COULD NOT BE READ")
        {
            r.unreadable.push(b);
        }
    }
    r
}

// ---- the source spec (see sources::spec) ----

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "fsck-ffs",
    starts: &[(150, |l| spec::on_first(l, is_line))],
    member: |t, _| spec::Member::from(is_line(t) || body(t).is_empty()),
    // rc's own lines between fsck's ("Mounting filesystems...", a mount error).
    tolerance: (2, 1),
    classify: |_, _| "fsck-ffs",
    ..spec::Recogniser::NONE
};

/// fsck_ffs: pasted from a boot console or a shell; no live capture (diskdoc does not check
/// file systems).
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Freebsd),
    parse: Some(|t| parse(t).lines),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, _| {
        p == "fsck" || p == "fsck_ffs" || p == "fsck_ufs"
    })),
    programs: &[
        spec::Program {
            names_device: true,
            ..spec::Program::new("fsck_ffs", spec::bare_or_flags)
        },
        spec::Program {
            names_device: true,
            ..spec::Program::new("fsck_ufs", spec::bare_or_flags)
        },
    ],
    ..spec::SourceSpec::named("fsck-ffs", "fsck_ffs")
};

#[cfg(test)]
mod tests;
