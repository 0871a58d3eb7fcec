//! `zfs get -H -o name,property,value PROPS DATASET...` (zfs-get(8), OpenZFS 2.x): one
//! "name<TAB>property<TAB>value" line per dataset and property (-H: no header, tab
//! separated).

/// (dataset, property, value) triples in order.
pub fn parse(text: &str) -> Vec<(String, String, String)> {
    text.lines()
        .filter_map(|line| {
            let mut f = line.split('\t');
            let (n, p, v) = (f.next()?.trim(), f.next()?.trim(), f.next()?.trim());
            (!n.is_empty() && !p.is_empty()).then(|| (n.to_string(), p.to_string(), v.to_string()))
        })
        .collect()
}

/// The value of `prop` for `dataset`.
pub fn value<'a>(
    rows: &'a [(String, String, String)],
    dataset: &str,
    prop: &str,
) -> Option<&'a str> {
    rows.iter()
        .find(|(n, p, _)| n == dataset && p == prop)
        .map(|(_, _, v)| v.as_str())
}

/// `zfs get compression` (read into each ZFS mount: compressible test data inflates dd
/// numbers) before its datasets: named datasets without -r, so snapshots and bookmarks are
/// never walked (zfs-get(8)). Add a property here only together with the fact that reads it.
const ARGV: [&str; 8] = [
    "zfs",
    "get",
    "-H",
    "-t",
    "filesystem,volume",
    "-o",
    "name,property,value",
    "compression",
];

/// [`ARGV`] with one dataset, `{pool}`: the spec's live template (the registry test
/// matches the probe's keys against it).
const TEMPLATE: [&str; 9] = {
    let mut t = ["{pool}"; 9];
    let mut i = 0;
    while i < ARGV.len() {
        t[i] = ARGV[i];
        i += 1;
    }
    t
};

/// The argv of `zfs get` over the mounted datasets (`mount_p::zfs_datasets`): the probe
/// runs it and the facts rebuild its key from the same `mount -p`.
pub fn argv(datasets: &[String]) -> Vec<String> {
    ARGV.iter()
        .map(|s| s.to_string())
        .chain(datasets.iter().cloned())
        .collect()
}

/// The rows of a property table of `zpool get` / `zfs get` (zpool-get(8), zfs-get(8)), one
/// layout: the -H form (tab separated, no header) and the interactive form after its
/// "NAME PROPERTY VALUE SOURCE" header, up to a blank line. (name, property, value).
pub(crate) fn property_rows(text: &str) -> Vec<(&str, &str, &str)> {
    let mut out = Vec::new();
    let mut in_table = false;
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.first() == Some(&"NAME") && words.get(1) == Some(&"PROPERTY") {
            in_table = true;
            continue;
        }
        if words.is_empty() {
            in_table = false;
            continue;
        }
        let tabbed: Vec<&str> = line.split('\t').map(str::trim).collect();
        let row = if (3..=4).contains(&tabbed.len())
            && !line.starts_with(char::is_whitespace)
            && !tabbed[0].contains(' ')
        {
            Some((tabbed[0], tabbed[1], tabbed[2]))
        } else if in_table && words.len() >= 3 {
            Some((words[0], words[1], words[2]))
        } else {
            None
        };
        // A property is a lowercase word (zfsprops(7), zpoolprops(7); user properties
        // carry a ':'); anything else is not a row of this layout.
        if let Some((n, p, v)) = row
            && !n.is_empty()
            && !p.is_empty()
            && p.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "_:.@".contains(c))
        {
            out.push((n, p, v));
        }
    }
    out
}

/// Where `zpool get` and `zfs get` print secrets: the pool (a dataset's first component)
/// in the NAME column, and the value of a `guid` property (pool, vdev or dataset GUIDs,
/// `load_guid`). A `zpool get PROP POOL all-vdevs` table (its first row is the root vdev,
/// "root-0") names vdevs instead: their by-id, label and GUID parts.
pub fn property_secrets(text: &str) -> Vec<spec::Found> {
    use spec::{Found, SecretKind};
    if !text.contains('\t') && !text.contains("PROPERTY") {
        return Vec::new();
    }
    let rows = property_rows(text);
    let vdev_rows = rows.iter().any(|(n, _, _)| n.starts_with("root-"));
    let mut out = Vec::new();
    for (name, prop, value) in rows {
        if prop.ends_with("guid") {
            out.push(Found::sure(SecretKind::Guid, value));
        }
        if vdev_rows {
            out.extend(crate::sources::zpool::vdev_secrets(name));
        } else if name.starts_with(|c: char| c.is_ascii_alphabetic()) {
            let pool = name.split(['/', '@', '#']).next().unwrap_or(name);
            out.push(Found::sure(SecretKind::Pool, pool));
        }
    }
    out
}

// ---- the source spec (see sources::spec) ----
use crate::sources::spec;

/// zfs-get(8) compression of the mounted datasets ([`argv`]); the template stands for the
/// one-dataset form, the probe appends every mounted dataset.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    live: &[spec::Live::Cmd(&TEMPLATE)],
    parse: Some(|t| parse(t).len()),
    secrets: &[spec::Secret::Scan(property_secrets)],
    ..spec::SourceSpec::named("zfs-get", "zfs get compression")
};

#[cfg(test)]
mod tests;
