//! `zpool get autotrim` (zpool-get(8), zpoolprops(7) `autotrim=on|off`): whether each pool
//! sends TRIM for freed space as it goes. Two shapes, both read here:
//! - the probe's `zpool get -H -o name,property,value autotrim` (plan::ZPOOL_GET_AUTOTRIM):
//!   no header, tab separated, "zroot<TAB>autotrim<TAB>off", one row per imported pool;
//! - the interactive form people paste, with a header and the SOURCE column:
//!   "NAME   PROPERTY  VALUE     SOURCE" / "zroot  autotrim  off       default" (real posts:
//!   helloSystem/ISO#412 on FreeBSD, openzfs/zfs#15974 on Fedora, NixOS/infra#385 "on local").
//!
//! autotrim is off by default on every OS since OpenZFS 2.2 (openzfs/zfs#15079); a pool
//! with it off is trimmed only by `zpool trim`, run by hand or by a periodic job.

pub(crate) use crate::model::PoolAutotrim;
use crate::sources::spec::{self, BlockState, Member, Recogniser, Start};

/// The autotrim row of a line, either shape; None for the header and anything else.
fn row(line: &str) -> Option<PoolAutotrim> {
    let mut f = line.split_whitespace();
    let (pool, prop, value) = (f.next()?, f.next()?, f.next()?);
    // At most the SOURCE column may follow (default, local, -).
    if prop != "autotrim" || f.nth(1).is_some() || pool == "NAME" {
        return None;
    }
    // zpool(8): pool names start with a letter; anything else is not a row.
    pool.starts_with(|c: char| c.is_ascii_alphabetic())
        .then(|| PoolAutotrim {
            pool: pool.to_string(),
            value: value.to_string(),
            periodic: None,
        })
}

/// Every pool's autotrim row, in order.
pub fn parse(text: &str) -> Vec<PoolAutotrim> {
    text.lines().filter_map(row).collect()
}

fn is_header(line: &str) -> bool {
    let w: Vec<&str> = line.split_whitespace().collect();
    w == ["NAME", "PROPERTY", "VALUE", "SOURCE"]
}

// ---- the source spec (see sources::spec) ----

/// A header followed by an autotrim row, or an autotrim row itself (the -H form, or a paste
/// cut below its header). zpool get ashift shares the header; its recogniser wants an
/// ashift row next, so the two never claim the same block.
fn starts(lines: &[&str]) -> Start {
    let Some(first) = lines.first() else {
        return Start::No;
    };
    if !first.contains("autotrim") && !first.trim_start().starts_with("NAME") {
        return Start::No;
    }
    let next = lines.get(1).copied().unwrap_or("");
    Start::from(row(first).is_some() || is_header(first) && row(next).is_some())
}

static RECOGNISER: Recogniser = Recogniser {
    name: "zpool-get-autotrim",
    starts: &[(8, starts)],
    member: |t: &str, _: &BlockState| Member::from(row(t).is_some()),
    tolerance: (1, 0),
    classify: |_, _| "zpool-get-autotrim",
    ..Recogniser::NONE
};

/// plan::ZPOOL_GET_AUTOTRIM (sources may not import plan: the registry test checks the two
/// stay the same key).
pub const LIVE: spec::Live = spec::Live::Cmd(&[
    "zpool",
    "get",
    "-H",
    "-o",
    "name,property,value",
    "autotrim",
]);

/// A pasted `zpool get autotrim` goes under the probe's key: one machine-wide capture
/// naming pools, not disks (the disks come from zpool status).
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    live: &[LIVE],
    pasted_as: Some(LIVE),
    parse: Some(|t| parse(t).len()),
    // The pool names of its rows: the property table layout of `zfs get`.
    secrets: &[spec::Secret::Scan(
        crate::sources::zfs_get::property_secrets,
    )],
    paste: Some(spec::Paste::new(&RECOGNISER, |p, t| {
        p == "zpool" && t.contains("autotrim")
    })),
    ..spec::SourceSpec::named("zpool-get-autotrim", "zpool get autotrim")
};

#[cfg(test)]
mod tests;
