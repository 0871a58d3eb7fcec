//! What `zpool import POOL` prints when it cannot import (zpool-import(8)): libzfs's
//! "cannot import 'POOL': REASON" (lib/libzfs/libzfs_pool.c zpool_import_props, the reason
//! from zpool_standard_error: "unsupported version or feature", "pool was previously in
//! use from another system", "one or more devices is currently unavailable", "no such pool
//! available"), the features this ZFS lacks ("This pool uses the following feature(s) not
//! supported by this system:", one "\tGUID (description)" line each,
//! zpool_print_unsup_feat) with the read-only hint ("All unsupported features are only
//! required for writing to the pool." / "The pool can be imported using '-o
//! readonly=on'."), and "no pools available to import" (zpool_main.c zpool_do_import).
//! The listing of importable pools ("   pool: tank" ... "config:") is zpool status's shape
//! and read there (sources::zpool). Nothing here is a disk fact: a feature flag or a
//! hostid is software.

use crate::sources::spec::{self, BlockState, Found, Member, Recogniser, SecretKind};

crate::rx!(
    START,
    r"^(?:cannot import '[^']+': |This pool uses the following feature\(s\) not supported|no pools available to import$)"
);
crate::rx!(
    MEMBER,
    r"^(?:cannot import '|This pool uses the following feature|All unsupported features are only required|The pool can be imported using|no pools available|Destroy and re-create the pool|a backup source\.|\s+[a-z][\w.-]*:[\w.-]+(?: \(.*\))?$)"
);

/// The pool a "cannot import 'POOL': ..." line names.
fn pool(line: &str) -> Option<&str> {
    let rest = line.trim().strip_prefix("cannot import '")?;
    rest.split_once("': ").map(|(p, _)| p)
}

/// The lines of an import's messages: (pool or "", what the line says), the unsupported
/// feature lines with their guid.
pub fn parse(text: &str) -> Vec<(String, String)> {
    text.lines()
        .filter(|l| MEMBER.is_match(l.trim_end()))
        .map(|l| {
            let p = pool(l).unwrap_or_default().to_string();
            (p, l.trim().to_string())
        })
        .collect()
}

/// The pool names of "cannot import 'POOL'" lines.
fn secrets(text: &str) -> Vec<Found> {
    text.lines()
        .filter_map(pool)
        .map(|p| Found::sure(SecretKind::Pool, p))
        .collect()
}

static RECOGNISER: Recogniser = Recogniser {
    name: "zpool-import",
    starts: &[(36, |l| spec::on_first(l, |t| START.is_match(t.trim_end())))],
    member: |t: &str, _: &BlockState| Member::from(MEMBER.is_match(t.trim_end())),
    tolerance: (1, 0),
    classify: |_, _| "zpool-import",
    ..Recogniser::NONE
};

/// zpool-import(8)'s messages, on FreeBSD and Linux (OpenZFS); no live probe imports a pool.
/// The program `zpool` is declared by the zpool status spec.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, t| {
        p == "zpool" && t.contains("import")
    })),
    secrets: &[spec::Secret::Scan(secrets)],
    ..spec::SourceSpec::named("zpool-import", "zpool import")
};

#[cfg(test)]
mod tests;
