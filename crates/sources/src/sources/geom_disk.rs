//! `geom disk list` (geom(8), class DISK): per disk its media size, sector size, optional
//! stripe size/offset, description, ident, lunid and rotation rate ("unknown", 0 for
//! non-rotating media, or rpm).

use super::geom_util::parse_geom_list;

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Disk {
    pub name: String,
    pub media_bytes: Option<u64>,
    pub sector_size: Option<u32>,
    pub stripe_size: Option<u64>,
    pub stripe_offset: Option<u64>,
    pub descr: Option<String>,
    pub ident: Option<String>,
    pub lunid: Option<String>,
    /// Some(0) non-rotating, Some(rpm), None when absent or "unknown".
    pub rotation_rpm: Option<u32>,
    /// The drive reported no nominal rotation rate ("rotationrate: unknown").
    pub rotation_unknown: bool,
}

const KEYS: &[&str] = &[
    "Mediasize",
    "Sectorsize",
    "Stripesize",
    "Stripeoffset",
    "Mode",
    "descr",
    "lunid",
    "ident",
    "rotationrate",
    "fwsectors",
    "fwheads",
];

pub fn parse(text: &str) -> Vec<Disk> {
    parse_geom_list(text, KEYS)
        .into_iter()
        .filter_map(|r| {
            let p = r.providers.first()?;
            let rr = p.get("rotationrate");
            Some(Disk {
                name: r.name.clone(),
                media_bytes: p.u64("Mediasize"),
                sector_size: p.u64("Sectorsize").and_then(|n| u32::try_from(n).ok()),
                stripe_size: p.u64("Stripesize"),
                stripe_offset: p.u64("Stripeoffset"),
                descr: p.get("descr").map(str::to_string),
                ident: p.get("ident").map(str::to_string),
                lunid: p.get("lunid").map(str::to_string),
                rotation_rpm: p.u64("rotationrate").and_then(|n| u32::try_from(n).ok()),
                rotation_unknown: rr.is_some_and(|v| v.eq_ignore_ascii_case("unknown")),
            })
        })
        .collect()
}

// ---- the source spec (see sources::spec) ----
use crate::sources::spec;

/// geom(8) disk list: "ident:" (serial) and "lunid:" (WWN) per disk. No live probe runs
/// it: kern.geom.confxml holds the same facts.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Freebsd),
    parse: Some(|t| parse(t).len()),
    secrets: &[
        spec::Secret::After("ident:", spec::SecretKind::Serial),
        spec::Secret::After("lunid:", spec::SecretKind::Wwn),
    ],
    paste: Some(spec::Paste::new(&super::geom_util::GEOM_LIST, |p, _| {
        p == "geom"
    })),
    programs: &[spec::Program::new("geom", |a| {
        spec::starts_with_any(a, &["disk list", "part list"])
    })],
    ..spec::SourceSpec::named("geom-disk-list", "geom disk list")
};
