//! `tunefs -p DEV` (FreeBSD): the UFS superblock flags. sbin/tunefs/tunefs.c prints each
//! with warnx(3), so the lines reach standard error prefixed "tunefs: ", e.g.
//! "tunefs: trim: (-t)                                         enabled" (FS_TRIM in fs_flags:
//! UFS sends BIO_DELETE for every freed block). Pasted, the same lines come with or without
//! the "tunefs: " prefix (a terminal shows standard error and output alike); each is "name:
//! (-flag)" then the value, padded to a column.

use crate::evidence::Platform;
use crate::sources::spec;
use crate::sources::util::clean_line;

// "tunefs: soft updates: (-n)                                 enabled": the flag letter in
// parentheses is what makes it tunefs.c's line (its warnx calls print "%s: (-%c)").
crate::rx!(
    FLAG,
    r"^\s*(?:tunefs:\s+)?[A-Za-z][\w .,/-]*:\s+\(-[A-Za-z]\)\s+\S"
);

fn is_flag_line(line: &str) -> bool {
    FLAG.is_match(&clean_line(line))
}

/// How many flag lines the text has (for the registry test).
pub fn count(text: &str) -> usize {
    text.lines().filter(|l| is_flag_line(l)).count()
}

/// The "trim: (-t)" flag: Some(true) enabled, Some(false) disabled, None when absent.
pub fn trim_enabled(text: &str) -> Option<bool> {
    text.lines().find_map(|l| {
        // Anywhere on the line: a mail client's re-wrap may have joined the flag line
        // before it ("... (-J)   disabled tunefs: trim: (-t)   disabled").
        let l = clean_line(l);
        let (_, rest) = l.split_once("trim: (-t)")?;
        let v = rest.split_whitespace().next()?;
        match v {
            "enabled" => Some(true),
            "disabled" => Some(false),
            _ => None,
        }
    })
}

// ---- the source spec (see sources::spec) ----

fn start(lines: &[&str]) -> spec::Start {
    // Two flag lines in a row: one line of this shape could be prose with a parenthesis.
    spec::Start::from(
        lines.first().is_some_and(|l| is_flag_line(l))
            && lines.get(1).is_some_and(|l| is_flag_line(l)),
    )
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "tunefs",
    starts: &[(66, start)],
    member: |t, _| spec::Member::from(is_flag_line(t)),
    classify: |_, _| "tunefs",
    ..spec::Recogniser::NONE
};

pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(Platform::Freebsd),
    live: &[spec::Live::Cmd(&["tunefs", "-p", "{dev}"])],
    parse: Some(count),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, _| p == "tunefs")),
    programs: &[spec::Program::new("tunefs", |a| {
        a.trim_start().starts_with("-p")
    })],
    mention: Some(r"tunefs\s+-p"),
    ..spec::SourceSpec::named("tunefs", "tunefs -p (UFS superblock flags)")
};

#[cfg(test)]
mod tests;
