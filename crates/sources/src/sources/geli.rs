//! `geli list` (geli(8)): one record per attached GELI provider, with the cipher, key length,
//! optional authentication, how the crypto is done ("hardware", "accelerated software",
//! "software") and the provider/consumer geometry.

use super::geom_util::{leading_digits_u64, parse_geom_list};

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Geli {
    /// Geom name ("ada1p2.eli").
    pub name: String,
    pub state: Option<String>,
    /// "AES-XTS", "AES-CBC", "Camellia-CBC".
    pub algorithm: Option<String>,
    pub key_length: Option<u32>,
    /// "HMAC/SHA256" when data authentication is on (every sector carries a MAC).
    pub auth: Option<String>,
    /// "hardware" (a crypto(4) driver such as aesni), "accelerated software", "software".
    pub crypto: Option<String>,
    pub flags: Vec<String>,
    pub version: Option<u32>,
    /// Sector size GELI presents (4096 is common and faster for AES-XTS).
    pub sector_size: Option<u32>,
    pub media_bytes: Option<u64>,
    /// What it sits on ("ada1p2", "gpt/volume-nyc1-01").
    pub consumer: Option<String>,
    pub consumer_sector_size: Option<u32>,
    pub consumer_stripe_size: Option<u64>,
    pub consumer_stripe_offset: Option<u64>,
}

const KEYS: &[&str] = &[
    "State",
    "EncryptionAlgorithm",
    "KeyLength",
    "AuthenticationAlgorithm",
    "Crypto",
    "Version",
    "UsedKey",
    "Flags",
    "KeysAllocated",
    "KeysTotal",
    "Mediasize",
    "Sectorsize",
    "Stripesize",
    "Stripeoffset",
    "Mode",
];

pub fn parse(text: &str) -> Vec<Geli> {
    parse_geom_list(text, KEYS)
        .into_iter()
        .map(|r| {
            let p = r.providers.first();
            let c = r.consumers.first();
            Geli {
                name: r.name.clone(),
                state: r.get("State").map(str::to_string),
                algorithm: r.get("EncryptionAlgorithm").map(str::to_string),
                key_length: r
                    .get("KeyLength")
                    .and_then(leading_digits_u64)
                    .and_then(|n| u32::try_from(n).ok()),
                auth: r.get("AuthenticationAlgorithm").map(str::to_string),
                crypto: r.get("Crypto").map(str::to_string),
                flags: r
                    .get("Flags")
                    .map(|f| {
                        f.split(',')
                            .map(str::trim)
                            .filter(|s| !s.is_empty() && *s != "NONE")
                            .map(str::to_string)
                            .collect()
                    })
                    .unwrap_or_default(),
                version: r.u64("Version").and_then(|n| u32::try_from(n).ok()),
                sector_size: p
                    .and_then(|p| p.u64("Sectorsize"))
                    .and_then(|n| u32::try_from(n).ok()),
                media_bytes: p.and_then(|p| p.u64("Mediasize")),
                // A record cut before its Consumers section still names what it sits on:
                // g_eli.c names the provider after its consumer plus G_ELI_SUFFIX (".eli").
                consumer: c.map(|c| c.name.clone()).or_else(|| {
                    r.name
                        .strip_suffix(".eli")
                        .filter(|n| !n.is_empty())
                        .map(str::to_string)
                }),
                consumer_sector_size: c
                    .and_then(|c| c.u64("Sectorsize"))
                    .and_then(|n| u32::try_from(n).ok()),
                consumer_stripe_size: c.and_then(|c| c.u64("Stripesize")),
                consumer_stripe_offset: c.and_then(|c| c.u64("Stripeoffset")),
            }
        })
        .collect()
}

// ---- the source spec (see sources::spec) ----
use crate::sources::spec;

/// geli(8) list.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Freebsd),
    live: &[spec::Live::Cmd(&["geli", "list"])],
    pasted_as: Some(spec::Live::Cmd(&["geli", "list"])),
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste::new(&super::geom_util::GEOM_LIST, |p, _| {
        p == "geli"
    })),
    programs: &[
        // list and status are this spec's; the key-management verbs' messages are
        // sources::geli_ctl's (geli(8) SYNOPSIS).
        spec::Program::new("geli", |a| {
            spec::starts_with_any(
                a,
                &[
                    "list", "status", "init", "attach", "detach", "setkey", "restore", "backup",
                    "onetime",
                ],
            )
        })
        .deciding_platform(),
    ],
    mention: Some(r"geli\s+list"),
    ..spec::SourceSpec::named("geli-list", "geli list")
};
