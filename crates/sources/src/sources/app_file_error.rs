//! An application's own message that a read or write of a file failed, with the errno's
//! strerror text (glibc's strerror(3): "Input/output error" is EIO, "Function not
//! implemented" is ENOSYS), as people paste it from a failed backup or a crashed database:
//! - PostgreSQL's server (src/backend/storage/smgr/md.c mdread/mdwrite: `could not read
//!   block %u in file "%s": %m`, since 17 `could not read blocks %u..%u in file "%s": %m`,
//!   `could not write block %u in file "%s": %m`; src/backend/storage/file/fd.c:
//!   `could not fsync file "%s": %m`, pg_flush_data's `could not flush dirty data: %m`),
//!   in its log (log_line_prefix, then "LOG:  ", "ERROR:  ", "PANIC:  ", "DETAIL:  "...) or
//!   relayed by a client ("pg_dump: error: Error message from server: ERROR:  ...");
//! - GNU coreutils cp/mv/install (src/copy.c: "error reading %s", before 8.x "reading %s"):
//!   `cp: error reading 'a.img': Input/output error`;
//! - rsync (fileio.c/sender.c: "read errors mapping %s: %s (%d)"):
//!   `rsync: [sender] read errors mapping "/srv/a": Input/output error (5)`;
//! - GNU tar (paxlib read_error_details: "%s: Read error at byte %s, while reading %lu
//!   bytes"): `tar: a.img: Read error at byte 0, while reading 10240 bytes: Input/output error`;
//! - any other program reporting EIO the way error(3) and err(3) print it, "PROG: MESSAGE:
//!   strerror" (glibc misc/error.c: program_invocation_name, ": ", the message, ": ",
//!   strerror(errnum)): coreutils cat, md5sum and sha*sum (`sha256sum: FILE: Input/output
//!   error`), ls/du/stat "cannot access 'F'", du "cannot read directory 'F'", cmp, and dd's
//!   own file errors (src/dd.c: "error reading %s", "error writing %s", "closing output
//!   file %s", "fsync failed for %s"); package managers' messages of the same shape (xbps:
//!   "[DEBUG] PKG: failed to check hash for `F': Input/output error"). Only EIO is taken in
//!   this generic form: a path's ENOENT, EACCES or ENOSPC is no device fault, and a line of
//!   that shape with another errno is left to whatever source it belongs to.
//!
//! EIO on a file read is the device under the filesystem failing to return the data (the
//! kernel log of the moment names the sector). ENOSYS from PostgreSQL's data flush is the
//! kernel interface itself missing: sync_file_range(2) (Linux since 2.6.17) is absent from
//! WSL1's translation layer (microsoft/WSL issues 645 and 3863), which answers for the
//! disk there. Other errnos (ENOENT, EACCES, ENOSPC) are about paths, rights or space.

use crate::sources::{spec, util};

/// What the failed call was about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Read,
    Write,
    /// fsync or a data flush (sync_file_range).
    Sync,
}

/// One failure message.
#[derive(Debug, Clone, PartialEq)]
pub struct FileError {
    /// "postgresql", "cp", "rsync", "tar", or the program name of an error(3) line
    /// ("sha256sum", "dd").
    pub program: String,
    pub op: Op,
    /// The file, when the message names one.
    pub file: Option<String>,
    /// The strerror text ("Input/output error").
    pub error: String,
    /// The line as pasted (cleaned).
    pub line: String,
}

impl FileError {
    /// EIO: the device failed the request.
    pub fn is_eio(&self) -> bool {
        self.error.eq_ignore_ascii_case("Input/output error")
    }
    /// ENOSYS: the kernel (or the layer emulating it) lacks the call.
    pub fn is_enosys(&self) -> bool {
        self.error.eq_ignore_ascii_case("Function not implemented")
    }
}

crate::rx!(
    PG_BLOCK,
    r#"could not (read|write) blocks? \d+(?:\.\.\d+)? in file "([^"]+)": ([A-Za-z][\w /'-]*?)\s*$"#
);
crate::rx!(
    PG_SYNC,
    r#"could not (?:fsync file "([^"]+)"|flush dirty data): ([A-Za-z][\w /'-]*?)\s*$"#
);
crate::rx!(
    CP,
    r"^(?:cp|mv|install): (?:error )?reading [`'‘]?(.+?)['’]?: ([A-Za-z][\w /'-]*?)\s*$"
);
crate::rx!(
    RSYNC,
    r#"^rsync: (?:\[\w+\] )?read errors mapping "(.+)": ([A-Za-z][\w /'-]*?)(?: \(\d+\))?\s*$"#
);
crate::rx!(
    TAR,
    r"^tar: (.+): Read error at byte \d+, while reading \d+ bytes?: ([A-Za-z][\w /'-]*?)\s*$"
);
// error(3)/err(3)'s "PROG: MESSAGE: strerror" with EIO's text: the program (after an
// optional log level in brackets, as xbps prints "[DEBUG] "), the message naming the file,
// and an optional "(5)" errno number. The program is one word, so a sentence is no match.
crate::rx!(
    GENERIC_EIO,
    r"^(?:\[[A-Za-z]+\]\s+)?([A-Za-z_][\w.+-]*)(?:\[\d+\])?: (.+?): (Input/output error)(?: \(5\))?\s*$"
);
// The file in the message: a quoted name (coreutils quotes with '...', ‘...’ or, before
// 8.25, `...'), else the message itself when it is a bare path, else its last absolute
// path ("cannot open /srv/a").
crate::rx!(QUOTED, r#"[`'‘"]([^'’"]+)['’"]"#);

// A PostgreSQL server log line: log_line_prefix (often a timestamp and a [pid]), then the
// severity and two spaces (elog.c send_message_to_server_log).
crate::rx!(
    PG_LOG,
    r"^(?:.{0,80}?\s)?(?:LOG|ERROR|WARNING|PANIC|FATAL|DETAIL|HINT|STATEMENT|CONTEXT|NOTICE|INFO|DEBUG\d?):  \S"
);
// A PostgreSQL client's own line (pg_dump, pg_dumpall, pg_restore, psql, pg_basebackup).
crate::rx!(
    PG_CLIENT,
    r"^(?:pg_dump|pg_dumpall|pg_restore|psql|pg_basebackup)(?::\S*)?: "
);

fn clean(l: &str) -> String {
    util::clean_line(l).trim().to_string()
}

/// The failure a line reports, if it is one of the messages above.
pub fn failure(line: &str) -> Option<FileError> {
    let t = clean(line);
    let text = |c: &regex::Captures, i: usize| c.get(i).map(|m| m.as_str().to_string());
    let (program, op, file, error) = if let Some(c) = PG_BLOCK.captures(&t) {
        let op = if c.get(1)?.as_str() == "read" {
            Op::Read
        } else {
            Op::Write
        };
        ("postgresql", op, text(&c, 2), text(&c, 3)?)
    } else if let Some(c) = PG_SYNC.captures(&t) {
        ("postgresql", Op::Sync, text(&c, 1), text(&c, 2)?)
    } else if let Some(c) = CP.captures(&t) {
        ("cp", Op::Read, text(&c, 1), text(&c, 2)?)
    } else if let Some(c) = RSYNC.captures(&t) {
        ("rsync", Op::Read, text(&c, 1), text(&c, 2)?)
    } else if let Some(c) = TAR.captures(&t) {
        ("tar", Op::Read, text(&c, 1), text(&c, 2)?)
    } else if let Some(c) = GENERIC_EIO.captures(&t) {
        let msg = c.get(2)?.as_str();
        let file = QUOTED
            .captures(msg)
            .and_then(|q| text(&q, 1))
            .or_else(|| (!msg.contains(' ')).then(|| msg.to_string()))
            .or_else(|| {
                msg.split_whitespace()
                    .rfind(|w| w.starts_with('/'))
                    .map(str::to_string)
            });
        let prog = c.get(1)?.as_str();
        return Some(FileError {
            program: prog.to_string(),
            op: generic_op(msg),
            file,
            error: text(&c, 3)?,
            line: t,
        });
    } else {
        return None;
    };
    Some(FileError {
        program: program.to_string(),
        op,
        file,
        error,
        line: t,
    })
}

/// What a generic message was doing: dd.c's "error writing" and "closing output file" (a
/// close that flushes the written data) are writes, "fsync failed" a sync; anything else
/// (reading, hashing, listing) is a read.
fn generic_op(msg: &str) -> Op {
    let low = msg.to_ascii_lowercase();
    if low.contains("fsync") || low.contains("fdatasync") {
        Op::Sync
    } else if low.contains("writ") || low.contains("closing output") {
        Op::Write
    } else {
        Op::Read
    }
}

/// Whether a failure names a device node itself ("/dev/sda"): dd's messages about a node
/// are read by sources::dd, which knows the disk.
pub fn names_device_node(e: &FileError) -> bool {
    e.file
        .as_deref()
        .and_then(|f| f.strip_prefix("/dev/"))
        .is_some_and(|n| !n.contains('/'))
}

/// Every failure message of a block.
pub fn parse(text: &str) -> Vec<FileError> {
    text.lines().filter_map(failure).collect()
}

// ---- the source spec (see sources::spec) ----

fn is_member(l: &str) -> bool {
    let t = clean(l);
    failure(&t).is_some() || PG_LOG.is_match(&t) || PG_CLIENT.is_match(&t)
}

/// A block opens on a failure line, or on a PostgreSQL log or client line with a failure
/// among the member lines right after it: a log without one is not this source's.
fn start(lines: &[&str]) -> spec::Start {
    let Some(first) = lines.first() else {
        return spec::Start::No;
    };
    if failure(first).is_some() {
        return spec::Start::Yes;
    }
    if !is_member(first) {
        return spec::Start::No;
    }
    let found = lines
        .iter()
        .take(40)
        .take_while(|l| is_member(l))
        .any(|l| failure(l).is_some());
    spec::Start::from(found)
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "app-file-error",
    starts: &[(65, start)],
    member: |l, _| spec::Member::from(is_member(l)),
    tolerance: (1, 1),
    classify: |_, _| "app-file-error",
    ..spec::Recogniser::NONE
};

/// Applications' file I/O failure messages: pasted from a failed copy, backup or database.
pub const SPEC: spec::SourceSpec = spec::pasted_only!(
    "app-file-error",
    "an application's file I/O error",
    None,
    &RECOGNISER,
    parse: |t| parse(t).len(),
    // The files named are often under a home directory ("cp: error reading
    // '/home/alice/photos.tar'"): the account name is a secret.
    secrets: &[spec::Secret::Scan(home_users)],
    // The messages follow whatever ran: "tail postgresql-11-main.log", "pg_dump ...".
    args: |_| true,
);

/// The account names of the home directories the failure messages' files are under.
fn home_users(text: &str) -> Vec<spec::Found> {
    parse(text)
        .into_iter()
        .filter_map(|e| {
            let f = e.file?;
            let (_, rest) = f.split_once("/home/").or_else(|| f.split_once("/Users/"))?;
            let user = rest.split('/').next().filter(|u| !u.is_empty())?;
            Some(spec::Found::sure(spec::SecretKind::User, user))
        })
        .collect()
}

#[cfg(test)]
mod tests;
