//! `cryptsetup luksDump DEVICE`: the LUKS header of an encrypted device. LUKS1 (cryptsetup
//! src/cryptsetup.c luksDump: "LUKS header information for DEV", "Version: 1", "Cipher name:
//! aes", "Cipher mode: xts-plain64", "MK bits: 512", "Key Slot 0: ENABLED") and LUKS2
//! (lib/luks2/luks2_json_metadata.c LUKS2_hdr_dump: "Version: 2", "Epoch:", "Data
//! segments:" with "  0: crypt" and its "cipher: aes-xts-plain64", "sector: 512 [bytes]",
//! then "Keyslots:" with "Key: 512 bits"). Either way the device carries a dm-crypt layer
//! once opened; the header names its cipher and volume-key size. UUID and Label are the
//! volume's own names (secrets).

use crate::model::{Layer, LayerKind};
use crate::sources::spec;
use crate::sources::util::{clean_line, leading_u64};

/// What a LUKS header dump says.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LuksHeader {
    /// 1 or 2.
    pub version: Option<u32>,
    /// "aes-xts-plain64": LUKS1's cipher name and mode joined, LUKS2's first data segment's.
    pub cipher: Option<String>,
    /// The volume key's size in bits (LUKS1 "MK bits", LUKS2 the first keyslot's "Key").
    pub key_bits: Option<u32>,
    /// LUKS2's encryption sector size ("sector: 4096 [bytes]").
    pub sector_bytes: Option<u32>,
}

impl LuksHeader {
    /// The layer the header puts on `device` (a partition or disk name, when known),
    /// `from` the capture key.
    pub fn to_layer(&self, device: Option<&str>, from: &str) -> Layer {
        let v = self.version.unwrap_or(1);
        Layer {
            kind: Some(LayerKind::Luks),
            name: match device {
                Some(d) => format!("{d} (LUKS{v})"),
                None => format!("LUKS{v} volume"),
            },
            on: device.iter().map(|d| d.to_string()).collect(),
            cipher: self.cipher.clone(),
            key_bits: self.key_bits,
            sector_bytes: self.sector_bytes,
            from: vec![from.to_string()],
            ..Default::default()
        }
    }
}

fn small(v: &str) -> Option<u32> {
    leading_u64(v).and_then(|n| u32::try_from(n).ok())
}

/// Every header in the text (a "LUKS header information" or "Version:" line starts one).
pub fn parse(text: &str) -> Vec<LuksHeader> {
    let mut out: Vec<LuksHeader> = Vec::new();
    let mut mode: Option<String> = None;
    for raw in text.lines() {
        let line = clean_line(raw);
        let t = line.trim();
        if t.starts_with("LUKS header information") {
            out.push(LuksHeader::default());
            continue;
        }
        let Some((k, v)) = t.split_once(':') else {
            continue;
        };
        let v = v.trim();
        let word = v.split_whitespace().next().map(str::to_string);
        if k == "Version" {
            if out.last().is_none_or(|h| h.version.is_some()) {
                out.push(LuksHeader::default());
            }
            mode = None;
        }
        let Some(h) = out.last_mut() else { continue };
        match k {
            "Version" => h.version = small(v),
            "Cipher name" => h.cipher = word,
            "Cipher mode" => mode = word,
            "MK bits" => h.key_bits = small(v),
            "cipher" if h.cipher.is_none() => h.cipher = word,
            "sector" if h.sector_bytes.is_none() => h.sector_bytes = small(v),
            "Key" if h.key_bits.is_none() => h.key_bits = small(v),
            _ => {}
        }
        if let (Some(c), Some(m), Some(1)) = (&h.cipher, &mode, h.version)
            && !c.contains('-')
        {
            h.cipher = Some(format!("{c}-{m}"));
        }
    }
    out.retain(|h| h.version.is_some() && (h.cipher.is_some() || h.key_bits.is_some()));
    out
}

// ---- the source spec (see sources::spec) ----

crate::rx!(
    LUKS_MEMBER,
    r"^\s*(LUKS header information|Version|Epoch|Metadata area|Keyslots area|UUID|Label|Subsystem|Flags|Requirements|Data segments|Keyslots|Tokens|Digests|Cipher name|Cipher mode|Hash spec|Payload offset|MK bits|MK digest|MK salt|MK iterations|Key Slot \d+|offset|length|cipher|sector|integrity|Key|Priority|Cipher|Cipher key|PBKDF|Time cost|Memory|Threads|Iterations|Salt|AF stripes|AF hash|Area offset|Area length|Digest ID|Hash|Digest|Keyslot|Segment|Key material offset)\s*:|^\s+\d+: [\w-]+\s*$|^\s+(?:[0-9a-f]{2}[ :]?){8,}\s*$"
);
crate::rx!(
    LUKS_FOLLOWER,
    r"^\s*(Epoch|Metadata area|Cipher name|Data segments|UUID|Hash spec)\s*:"
);

/// "LUKS header information" starts a dump; so does "Version: 1|2" when a LUKS-only line
/// follows within two lines (an excerpt without the banner).
fn start(lines: &[&str]) -> spec::Start {
    let t = lines.first().map(|l| clean_line(l)).unwrap_or_default();
    let t = t.trim();
    if t.starts_with("LUKS header information") {
        return spec::Start::Yes;
    }
    let version = t
        .strip_prefix("Version:")
        .is_some_and(|v| matches!(v.trim(), "1" | "2"));
    spec::Start::from(
        version
            && lines
                .iter()
                .skip(1)
                .take(2)
                .any(|l| LUKS_FOLLOWER.is_match(&clean_line(l))),
    )
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "cryptsetup-luksdump",
    starts: &[(189, start)],
    member: |t, _| spec::Member::from(LUKS_MEMBER.is_match(t)),
    tolerance: (1, 0),
    classify: |_, _| "cryptsetup-luksdump",
    ..spec::Recogniser::NONE
};

/// cryptsetup(8) luksDump DEVICE (the program is cryptsetup status's spec's).
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Linux),
    parse: Some(|t| parse(t).len()),
    secrets: &[
        // Matched lower-case (report::redact); "label:" is gpart list's too.
        spec::Secret::After("uuid:", spec::SecretKind::Uuid),
        spec::Secret::After("label:", spec::SecretKind::Label),
    ],
    paste: Some(spec::Paste::new(&RECOGNISER, |p, c| {
        p == "cryptsetup" && c.contains("luksDump")
    })),
    ..spec::SourceSpec::named("cryptsetup-luksdump", "cryptsetup luksDump")
};

#[cfg(test)]
mod tests;
