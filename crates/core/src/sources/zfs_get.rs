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

// ---- the source spec (see sources::spec) ----
use crate::sources::spec;

/// zfs-get(8) compression of the mounted datasets (`plan::freebsd::zfs_get_argv`); the
/// template stands for the one-dataset form, the probe appends every mounted dataset.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    live: &[spec::Live::Cmd(&[
        "zfs",
        "get",
        "-H",
        "-t",
        "filesystem,volume",
        "-o",
        "name,property,value",
        "compression",
        "{pool}",
    ])],
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
}
