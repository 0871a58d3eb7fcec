//! The ashift of each ZFS vdev, from either of two sources:
//! - `zpool get -H -o name,property,value ashift POOL all-vdevs` (zpoolprops(7) vdev
//!   properties, OpenZFS >= 2.2, FreeBSD 14.0+): one "vdev<TAB>ashift<TAB>N" row per vdev,
//!   "root-0" first (0), then each top-level vdev and its children (real output with a header:
//!   openzfs/zfs#16838, "root-0 ashift 0 -", "raidz2-0 ashift 12 -", leaves "ashift 9").
//! - `zdb -C POOL` (zdb(8), OpenZFS 2.0/2.1 on FreeBSD 13.x): the cached config, where each
//!   top-level `children[N]:` of `vdev_tree:` carries "ashift: N" and its leaves "path:
//!   '/dev/...'" (real output: openzfs/zfs#14533).
//!
//! ZFS allocates in units of the TOP-LEVEL vdev's ashift; a leaf's own ashift (which can be
//! lower, #16838) does not change that. The pool property `ashift` is only the default
//! for vdevs added later (zpoolprops(7)), so neither source is the pool property.

/// (vdev name, ashift) rows of `zpool get ... all-vdevs`, "root-0" left out.
pub fn parse_vdev_props(text: &str) -> Vec<(String, u32)> {
    text.lines()
        .filter_map(|line| {
            let f: Vec<&str> = line.split_whitespace().collect();
            let (name, prop, val) = (*f.first()?, *f.get(1)?, *f.get(2)?);
            if prop != "ashift" || name == "NAME" || name.starts_with("root-") {
                return None;
            }
            Some((name.to_string(), val.parse().ok()?))
        })
        .collect()
}

/// One top-level vdev of `zdb -C`: its ashift and the device paths of its leaves.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TopVdev {
    pub vdev_type: Option<String>,
    pub ashift: Option<u32>,
    /// Leaf paths as zdb prints them, without quotes ("/dev/gpt/zfs0").
    pub paths: Vec<String>,
}

/// The top-level vdevs of the `vdev_tree:` of `zdb -C` output, by indentation: a
/// `children[N]:` line one level below `vdev_tree:` starts a top-level vdev; deeper lines
/// belong to it.
pub fn parse_zdb(text: &str) -> Vec<TopVdev> {
    let indent = |l: &str| l.len() - l.trim_start().len();
    let mut tops: Vec<TopVdev> = Vec::new();
    let mut tree_indent: Option<usize> = None;
    let mut top_indent: Option<usize> = None;
    for line in text.lines() {
        let t = line.trim();
        let ind = indent(line);
        if t == "vdev_tree:" {
            tree_indent = Some(ind);
            top_indent = None;
            continue;
        }
        let Some(ti) = tree_indent else { continue };
        if !t.is_empty() && ind <= ti {
            tree_indent = None;
            continue;
        }
        if t.starts_with("children[") && t.ends_with("]:") {
            match top_indent {
                None => {
                    top_indent = Some(ind);
                    tops.push(TopVdev::default());
                }
                Some(x) if ind == x => tops.push(TopVdev::default()),
                _ => {}
            }
            continue;
        }
        let (Some(top), Some(x)) = (tops.last_mut(), top_indent) else {
            continue;
        };
        if ind <= x {
            continue;
        }
        let Some((k, v)) = t.split_once(':') else {
            continue;
        };
        let v = v.trim().trim_matches('\'');
        match k {
            "ashift" if top.ashift.is_none() => top.ashift = v.parse().ok(),
            "type" if top.vdev_type.is_none() => top.vdev_type = Some(v.to_string()),
            "path" => top.paths.push(v.to_string()),
            _ => {}
        }
    }
    tops
}

/// The values of `zdb | grep ashift` (or `zdb -C POOL | grep ashift`): grep keeps only the
/// "ashift: N" lines of the configuration dump, one per top-level vdev of every pool in the
/// cache file, in the dump's order (zdb(8); openzfs/zfs#566 pastes "ashift: 12" then
/// "ashift: 9" for a pool whose second vdev was added later). Empty when the text holds a
/// whole dump (its `vdev_tree:` says which vdev each line belongs to: [`parse_zdb`]).
pub fn grepped_ashifts(text: &str) -> Vec<u32> {
    if text.contains("vdev_tree:") {
        return Vec::new();
    }
    text.lines()
        .filter_map(|l| {
            let v = l.trim().strip_prefix("ashift:")?.trim_start();
            let digits: String = v.chars().take_while(|c| c.is_ascii_digit()).collect();
            digits.parse().ok()
        })
        .collect()
}

/// The pool and ashift of a typed `zpool create ... -o ashift=N POOL vdev...` (zpool-create(8):
/// options first, then the pool name, then its vdevs); None without `-o ashift=`.
pub fn created_with_ashift(line: &str) -> Option<(String, u32)> {
    let w: Vec<&str> = line.split_whitespace().collect();
    let i = w
        .windows(2)
        .position(|p| p[0] == "zpool" && p[1] == "create")?;
    let mut ashift = None;
    let mut rest = w.get(i.checked_add(2)?..)?.iter();
    while let Some(word) = rest.next() {
        match *word {
            // Options that take a value (zpool-create(8)).
            "-o" | "-O" | "-m" | "-R" | "-t" => {
                let v = rest.next()?;
                if *word == "-o"
                    && let Some(n) = v.strip_prefix("ashift=")
                {
                    ashift = n.parse().ok();
                }
            }
            o if o.starts_with('-') => {}
            pool => return Some((pool.to_string(), ashift?)),
        }
    }
    None
}

/// Where `zdb -C` prints secrets (zdb(8), the nvlist of the pool's cached config): the
/// pool's `name: 'X'`, the `hostname: 'X'` that last imported it, every `*guid: N` (pool,
/// top-level and leaf vdev GUIDs) and `hostid`, and the by-id name in a leaf's `devid`.
/// Leaf `path:` values are device paths, whose secrets the generic rules find.
fn zdb_secrets(text: &str) -> Vec<spec::Found> {
    use spec::{Found, SecretKind};
    if !text.contains("guid:") && !text.contains("name: '") {
        return Vec::new();
    }
    let mut out = Vec::new();
    for line in text.lines() {
        let Some((k, v)) = line.trim().split_once(": ") else {
            continue;
        };
        let quoted = v
            .trim()
            .strip_prefix('\'')
            .and_then(|x| x.strip_suffix('\''));
        match (k, quoted) {
            ("name", Some(q)) => out.push(Found::sure(SecretKind::Pool, q)),
            ("hostname", Some(q)) => out.push(Found::sure(SecretKind::Host, q)),
            ("devid", Some(q)) => out.extend(crate::sources::by_id::secrets(q, true)),
            (k, None)
                if (k.ends_with("guid") || k == "hostid")
                    && k.chars().all(|c| c.is_ascii_lowercase() || c == '_') =>
            {
                out.push(Found::sure(SecretKind::Guid, v.trim()));
            }
            _ => {}
        }
    }
    out
}

// ---- the source spec (see sources::spec) ----
use crate::sources::spec;

/// The ashift of each vdev: `zpool get ... ashift POOL all-vdevs` (OpenZFS >= 2.2) or
/// `zdb -C POOL` (older).
/// plan.rs's ZPOOL_ASHIFT capture (`zpool get ... ashift POOL all-vdevs`).
pub const ZPOOL_GET_LIVE: spec::Live = spec::Live::Cmd(&[
    "zpool",
    "get",
    "-H",
    "-o",
    "name,property,value",
    "ashift",
    "{pool}",
    "all-vdevs",
]);
/// plan.rs's ZDB_CONFIG capture.
pub const ZDB_LIVE: spec::Live = spec::Live::Cmd(&["zdb", "-C", "{pool}"]);
/// plan.rs's ZDB_CONFIG_SEARCH capture: the same configuration read from the disks'
/// labels (-e) when the pool is not in the cache file.
const ZDB_SEARCH_LIVE: spec::Live = spec::Live::Cmd(&["zdb", "-e", "-C", "{pool}"]);

pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    fixture_dirs: &["freebsd-probe/zdb-C", "freebsd-probe/zpool-get-all-vdevs"],
    live: &[ZPOOL_GET_LIVE, ZDB_LIVE, ZDB_SEARCH_LIVE],
    parse: Some(|t| {
        parse_vdev_props(t)
            .len()
            .saturating_add(parse_zdb(t).len())
            .saturating_add(grepped_ashifts(t).len())
    }),
    // zdb's config, and the vdev rows of `zpool get ... all-vdevs` (the property table
    // layout of `zfs get`).
    secrets: &[
        spec::Secret::Scan(zdb_secrets),
        spec::Secret::Scan(crate::sources::zfs_get::property_secrets),
    ],
    ..spec::SourceSpec::named("zpool-ashift", "zpool get ashift / zdb -C")
};

#[cfg(test)]
mod tests;
