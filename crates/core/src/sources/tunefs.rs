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
pub(crate) fn trim_enabled(text: &str) -> Option<bool> {
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
mod tests {
    use super::{count, start, trim_enabled};
    use crate::sources::spec::Start;

    #[test]
    fn trim_flag_lines() {
        // Built from tunefs.c's warnx format ("trim: (-t)" padded to column 52), NOT A
        // CAPTURE; tests/it/freebsd_parsers.rs reads the fixtures.
        let on = "tunefs: gjournal: (-J)                                     disabled\n\
                  tunefs: trim: (-t)                                         enabled\n";
        assert_eq!(trim_enabled(on), Some(true));
        assert_eq!(
            trim_enabled("tunefs: trim: (-t)                                         disabled"),
            Some(false)
        );
        assert_eq!(trim_enabled("tunefs: trim: (-t)   maybe"), None);
        assert_eq!(
            trim_enabled("tunefs: gjournal: (-J)   disabled tunefs: trim: (-t)   disabled"),
            Some(false)
        );
        assert_eq!(trim_enabled("tunefs: soft updates: (-n)   enabled"), None);
        assert_eq!(trim_enabled(""), None);
        // Pasted without the prefix, quoted in a mail reply.
        assert_eq!(
            trim_enabled("> trim: (-t)                                         disabled"),
            Some(false)
        );
    }

    #[test]
    fn recognised_by_two_flag_lines() {
        let t = [
            "tunefs: soft update journaling: (-j)                       enabled",
            "tunefs: gjournal: (-J)                                     disabled",
        ];
        assert_eq!(start(&t), Start::Yes);
        assert_eq!(start(&t[..1]), Start::No);
        assert_eq!(
            start(&["see the manual: (-t) enables it", "and more"]),
            Start::No
        );
        assert_eq!(count(&t.join("\n")), 2);
    }
}
