//! Where secrets stand, as rules: the labels, JSON keys, columns, XML tags, `KEY=value`
//! pairs and scanners the source specs declare (`sources::spec::Secret`), the generic labels
//! no source owns, and the device-node directories whose entry names are secrets.

use super::*;

/// Labels that introduce a secret on the same line, from no source of the registry:
/// dumpe2fs ("Filesystem volume name:", "Filesystem UUID:"), sysfs and udev names
/// (`sas_address`, `"wwid"`, `wwn-0x...` by-id links), nvme-cli id-ns (`nguid`, `eui64`)
/// and "Serial No" of vendor tools. Each source's own labels are in its spec
/// (`sources::spec::Secret::After`).
pub(super) const GENERIC_LABELS: &[(&str, Kind)] = &[
    ("sas_address", Kind::Wwn),
    ("\"wwid\"", Kind::Wwn),
    ("filesystem volume name", Kind::Label),
    ("filesystem uuid", Kind::Uuid),
    ("serial no", Kind::Serial),
    ("nguid", Kind::Wwn),
    ("eui64", Kind::Wwn),
    ("wwn-0x", Kind::Wwn),
];

/// Every label, most specific first: longest first, so a label that contains another
/// ("logical unit wwn device identifier" and "wwn") is tried before it; one label per
/// line is used. Built once from the registry and the generic labels.
pub(super) static LABELS: std::sync::LazyLock<Vec<(&'static str, Kind)>> =
    std::sync::LazyLock::new(|| {
        let mut v: Vec<(&'static str, Kind)> = Vec::new();
        let from_specs = SPECS
            .iter()
            .flat_map(|s| s.secrets.iter())
            .filter_map(|r| match r {
                Secret::After(label, kind) => Some((*label, *kind)),
                _ => None,
            });
        for (label, kind) in from_specs.chain(GENERIC_LABELS.iter().copied()) {
            if !v.iter().any(|(l, _)| *l == label) {
                v.push((label, kind));
            }
        }
        crate::sort::sort_by_key(&mut v, |(l, _)| std::cmp::Reverse(l.len()));
        v
    });

/// The secret rules of one shape from every spec (see `sources::spec::Secret`).
pub(super) fn spec_rules(
    pick: fn(&Secret) -> Option<(&'static str, Kind)>,
) -> Vec<(&'static str, Kind)> {
    SPECS
        .iter()
        .flat_map(|s| s.secrets.iter())
        .filter_map(pick)
        .collect()
}

pub(super) static BEFORE: std::sync::LazyLock<Vec<(&'static str, Kind)>> =
    std::sync::LazyLock::new(|| {
        spec_rules(|r| match r {
            Secret::Before(l, k) => Some((*l, *k)),
            _ => None,
        })
    });

pub(super) static JSON_KEYS: std::sync::LazyLock<Vec<(&'static str, Kind)>> =
    std::sync::LazyLock::new(|| {
        let mut v = spec_rules(|r| match r {
            Secret::JsonKey(l, k) => Some((*l, *k)),
            _ => None,
        });
        // sysfs/udev-derived and host keys no spec of the registry prints.
        v.extend([
            ("wwid", Kind::Wwn),
            ("nguid", Kind::Wwn),
            ("sas_address", Kind::Wwn),
            ("eui64", Kind::Wwn),
            ("hostname", Kind::Host),
            ("host_name", Kind::Host),
            ("nodename", Kind::Host),
            ("fsuuid", Kind::Uuid),
        ]);
        v
    });

pub(super) static COLUMNS: std::sync::LazyLock<Vec<(&'static str, Kind)>> =
    std::sync::LazyLock::new(|| {
        spec_rules(|r| match r {
            Secret::Column(l, k) => Some((*l, *k)),
            _ => None,
        })
    });

pub(super) static XML_TAGS: std::sync::LazyLock<Vec<(&'static str, Kind)>> =
    std::sync::LazyLock::new(|| {
        spec_rules(|r| match r {
            Secret::XmlTag(l, k) => Some((*l, *k)),
            _ => None,
        })
    });

/// The sources' scanners ([`Secret::Scan`]), each once (several specs of one layout may
/// declare the same scanner).
pub(super) static SCANS: std::sync::LazyLock<Vec<Scanner>> = std::sync::LazyLock::new(|| {
    let mut v: Vec<Scanner> = Vec::new();
    for r in SPECS.iter().flat_map(|s| s.secrets.iter()) {
        if let Secret::Scan(f) = r
            && !v.iter().any(|g| *g as usize == *f as usize)
        {
            v.push(*f);
        }
    }
    v
});

/// `KEY="value"` pairs of blkid and `lsblk -P`, and `KEY=value` of fstab and the kernel
/// command line (root=UUID=..., LABEL=...).
pub(super) const PAIRS: &[(&str, Kind)] = &[
    ("PARTLABEL=", Kind::Label),
    ("LABEL=", Kind::Label),
    ("PARTUUID=", Kind::Uuid),
    ("PTUUID=", Kind::Uuid),
    ("UUID_SUB=", Kind::Uuid),
    ("UUID=", Kind::Uuid),
];

/// Device-node directories whose entry names are secrets: Linux udev links and FreeBSD
/// GEOM label providers.
pub(super) const NAMED_NODES: &[(&str, Kind)] = &[
    ("/dev/disk/by-label/", Kind::Label),
    ("/dev/disk/by-partlabel/", Kind::Label),
    ("/dev/disk/by-uuid/", Kind::Uuid),
    ("/dev/disk/by-partuuid/", Kind::Uuid),
    ("/dev/gpt/", Kind::Label),
    ("/dev/ufs/", Kind::Label),
    ("/dev/label/", Kind::Label),
    ("/dev/msdosfs/", Kind::Label),
    ("/dev/ext2fs/", Kind::Label),
    ("/dev/gptid/", Kind::Uuid),
    ("/dev/ufsid/", Kind::Uuid),
    ("/dev/diskid/", Kind::Serial),
];

/// A FreeBSD provider name without its partition part: `X` of `Xp1`, `Xs1`, `Xs1a`.
pub(super) fn strip_partition_suffix(name: &str) -> &str {
    let t = name.trim_end_matches(|c: char| c.is_ascii_lowercase() && c != 'p' && c != 's');
    let digits = t.trim_end_matches(|c: char| c.is_ascii_digit());
    match digits.strip_suffix(['p', 's']) {
        Some(base) if digits.len() < t.len() && !base.is_empty() => base,
        _ => name,
    }
}

/// udev escapes blanks and slashes in link names (`My\x20Passport`).
pub(super) fn unescape_udev(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find("\\x") {
        out.push_str(rest.get(..i).unwrap_or(""));
        let hex = rest.get(i + 2..i + 4).unwrap_or("");
        match u8::from_str_radix(hex, 16) {
            Ok(b) if hex.len() == 2 => {
                out.push(b as char);
                rest = rest.get(i + 4..).unwrap_or("");
            }
            _ => {
                out.push_str("\\x");
                rest = rest.get(i + 2..).unwrap_or("");
            }
        }
    }
    out.push_str(rest);
    out
}
