//! `gpart list` (gpart(8)): per partitioned geom its scheme, first/last usable sector, and
//! per provider the start/end sector, byte offset, type, label, and the GEOM stripe
//! size/offset the partition inherits.

use super::geom_util::parse_geom_list;

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Provider {
    pub name: String,
    pub index: Option<u32>,
    /// Start and end in sectors of the parent geom.
    pub start: Option<u64>,
    pub end: Option<u64>,
    /// Byte offset from the parent's start.
    pub offset: Option<u64>,
    pub length: Option<u64>,
    pub sector_size: Option<u32>,
    pub stripe_size: Option<u64>,
    pub stripe_offset: Option<u64>,
    pub type_name: Option<String>,
    pub label: Option<String>,
    pub rawtype: Option<String>,
    /// Every "attrib:" line of the provider: the scheme's flags as its dumpconf prints them
    /// into the provider's config, one element each (sys/geom/part/g_part_mbr.c
    /// g_part_mbr_dumpconf: "active" when dp_flag has 0x80; g_part_gpt.c: "bootme",
    /// "bootonce", "bootfailed"), listed by gpart list like every config element.
    pub attribs: Vec<String>,
}

impl Provider {
    /// The MBR active (boot) flag: the slice the MBR boot code starts.
    pub fn active(&self) -> bool {
        self.attribs.iter().any(|a| a == "active")
    }
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Geom {
    pub name: String,
    pub scheme: Option<String>,
    pub first: Option<u64>,
    pub last: Option<u64>,
    pub entries: Option<u64>,
    pub state: Option<String>,
    pub providers: Vec<Provider>,
    /// The consumer (the disk or slice it is on).
    pub consumer: Option<String>,
    pub consumer_media_bytes: Option<u64>,
    pub consumer_sector_size: Option<u32>,
}

const KEYS: &[&str] = &[
    "modified",
    "state",
    "fwheads",
    "fwsectors",
    "last",
    "first",
    "entries",
    "scheme",
    "Mediasize",
    "Sectorsize",
    "Stripesize",
    "Stripeoffset",
    "Mode",
    "efimedia",
    "rawuuid",
    "rawtype",
    "label",
    "length",
    "offset",
    "type",
    "index",
    "end",
    "start",
    "attrib",
];

pub fn parse(text: &str) -> Vec<Geom> {
    parse_geom_list(text, KEYS)
        .into_iter()
        .map(|r| {
            let c = r.consumers.first();
            Geom {
                name: r.name.clone(),
                scheme: r.get("scheme").map(str::to_string),
                first: r.u64("first"),
                last: r.u64("last"),
                entries: r.u64("entries"),
                state: r.get("state").map(str::to_string),
                providers: r
                    .providers
                    .iter()
                    .map(|p| Provider {
                        name: p.name.clone(),
                        index: p.u64("index").and_then(|n| u32::try_from(n).ok()),
                        start: p.u64("start"),
                        end: p.u64("end"),
                        offset: p.u64("offset"),
                        length: p.u64("length"),
                        sector_size: p.u64("Sectorsize").and_then(|n| u32::try_from(n).ok()),
                        stripe_size: p.u64("Stripesize"),
                        stripe_offset: p.u64("Stripeoffset"),
                        type_name: p.get("type").map(str::to_string),
                        label: p.get("label").map(str::to_string),
                        rawtype: p.get("rawtype").map(str::to_string),
                        attribs: p
                            .attrs
                            .iter()
                            .filter(|(k, _)| k == "attrib")
                            .map(|(_, v)| v.trim().to_string())
                            .filter(|v| !v.is_empty())
                            .collect(),
                    })
                    .collect(),
                consumer: c.map(|c| c.name.clone()),
                consumer_media_bytes: c.and_then(|c| c.u64("Mediasize")),
                consumer_sector_size: c
                    .and_then(|c| c.u64("Sectorsize"))
                    .and_then(|n| u32::try_from(n).ok()),
            }
        })
        .collect()
}

// ---- the source spec (see sources::spec) ----
use crate::sources::spec;

/// gpart(8) list: "rawuuid:" (GPT partition GUID) and "label:" per provider.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Freebsd),
    live: &[spec::Live::Cmd(&["gpart", "list"])],
    pasted_as: Some(spec::Live::Cmd(&["gpart", "list"])),
    parse: Some(|t| parse(t).len()),
    secrets: &[
        spec::Secret::After("rawuuid:", spec::SecretKind::Uuid),
        spec::Secret::After("label:", spec::SecretKind::Label),
    ],
    paste: Some(spec::Paste::new(&super::geom_util::GEOM_LIST, |p, t| {
        p == "gpart" && t.contains("list")
    })),
    ..spec::SourceSpec::named("gpart-list", "gpart list")
};

#[cfg(test)]
mod tests;
