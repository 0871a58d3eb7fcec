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

// ---- the source spec (see sources::spec) ----
use crate::sources::spec;

/// zfs-get(8) compression of the mounted datasets ([`argv`]); the template stands for the
/// one-dataset form, the probe appends every mounted dataset.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    live: &[spec::Live::Cmd(&TEMPLATE)],
    parse: Some(|t| parse(t).len()),
    ..spec::SourceSpec::named("zfs-get", "zfs get compression")
};

#[cfg(test)]
mod tests {
    #[test]
    fn tab_rows() {
        let r = super::parse(
            "zroot/usr/home\tcompression\tlz4\nzroot/usr/home\trecordsize\t128K\nbad line\n",
        );
        assert_eq!(r.len(), 2);
        assert_eq!(
            super::value(&r, "zroot/usr/home", "recordsize"),
            Some("128K")
        );
        assert_eq!(super::value(&r, "zroot", "compression"), None);
    }

    #[test]
    fn argv_names_the_datasets_and_matches_the_template() {
        let argv = super::argv(&["zroot/home".to_string()]);
        assert_eq!(
            argv.join(" "),
            "zfs get -H -t filesystem,volume -o name,property,value \
             compression zroot/home"
        );
        assert!(
            super::SPEC
                .live
                .iter()
                .any(|l| l.matches(&format!("cmd:{}", argv.join(" "))))
        );
    }
}
