//! `cryptsetup status NAME` (and `cryptsetup -v status`), in the older "N sectors"/"N bits"
//! form and the newer unit-annotated form ("512 [bits]", "32768 [512-byte units] (16777216
//! [bytes])").
//!
//! Reference: cryptsetup(8) status action. The offset and size are always in 512-byte
//! units whatever the encryption sector size is. cryptsetup 1.0.x (src/cryptsetup.c
//! action_status, Ubuntu 8.04-9.10 era) printed the head as "%s/%s is active:" with a
//! colon, no "type:" line, and an optional "skipped:" row; 1.1 and later print "%s is
//! active%s." ("... and is in use"), LUKS1/LUKS2/PLAIN in "type:".

use crate::model::{Layer, LayerKind};
use crate::sources::util::{clean_line, leading_u64};

#[derive(Debug, Clone, PartialEq, Default)]
pub struct CryptsetupStatus {
    /// "/dev/mapper/vault".
    pub mapping: String,
    pub active: bool,
    pub in_use: bool,
    /// "LUKS1", "LUKS2", "PLAIN", "TCRYPT", "BITLK".
    pub crypt_type: Option<String>,
    pub cipher: Option<String>,
    pub key_bits: Option<u32>,
    pub key_location: Option<String>,
    /// Backing device ("/dev/sda").
    pub device: Option<String>,
    /// Loop backing file, if the device is a loop device.
    pub loop_file: Option<String>,
    /// Encryption sector size in bytes (512 or 4096).
    pub sector_bytes: Option<u32>,
    /// Data offset in 512-byte sectors.
    pub offset_sectors: Option<u64>,
    pub size_sectors: Option<u64>,
    pub mode: Option<String>,
}

impl CryptsetupStatus {
    /// The layer this mapping adds above `device`; `from` is the capture key.
    pub fn to_layer(&self, from: &str) -> Layer {
        let luks = self
            .crypt_type
            .as_deref()
            .is_some_and(|t| t.starts_with("LUKS"));
        Layer {
            kind: Some(if luks {
                LayerKind::Luks
            } else {
                LayerKind::DmCrypt
            }),
            name: self.mapping.trim_start_matches("/dev/mapper/").to_string(),
            display_name: Some(self.mapping.clone()),
            on: self.device.iter().cloned().collect(),
            cipher: self.cipher.clone(),
            key_bits: self.key_bits,
            sector_bytes: self.sector_bytes,
            from: vec![from.to_string()],
            ..Default::default()
        }
    }
}

/// Every status block in the text ("X is active" starts one).
/// The volume name of an /etc/crypttab line that opens a mapping without the `discard`
/// option: crypttab(5) fields "name device key options", `discard` in the comma list lets
/// discards through (cryptsetup --allow-discards); without it dm-crypt passes none
/// (drivers/md/dm-crypt.c sets discard limits only with DM_CRYPT_ALLOW_DISCARDS). The
/// device is a path or a UUID=/PARTUUID=/LABEL= tag, which an fstab line has first.
pub fn crypttab_without_discard(line: &str) -> Option<String> {
    let w: Vec<&str> = line.split_whitespace().collect();
    let (name, dev) = (w.first()?, w.get(1)?);
    let tagged = ["UUID=", "PARTUUID=", "LABEL=", "PARTLABEL="]
        .iter()
        .any(|t| dev.starts_with(t))
        || dev.starts_with("/dev/");
    let plain_name = !name.contains(['=', '/', '#']);
    if !(2..=4).contains(&w.len()) || !tagged || !plain_name {
        return None;
    }
    let opts = w.get(3).copied().unwrap_or("");
    (!opts.split(',').any(|o| o == "discard")).then(|| name.to_string())
}

pub fn parse(text: &str) -> Vec<CryptsetupStatus> {
    let mut out: Vec<CryptsetupStatus> = Vec::new();
    for raw in text.lines() {
        let line = clean_line(raw);
        let t = line.trim();
        if let Some(i) = t.find(" is active").or_else(|| t.find(" is inactive")) {
            let mapping = t.get(..i).unwrap_or("").to_string();
            let rest = t.get(i..).unwrap_or("");
            out.push(CryptsetupStatus {
                mapping,
                active: rest.starts_with(" is active"),
                in_use: rest.contains("in use"),
                ..Default::default()
            });
            continue;
        }
        let Some(s) = out.last_mut() else { continue };
        let Some((k, v)) = t.split_once(':') else {
            continue;
        };
        let v = v.trim();
        let word = v.split_whitespace().next().map(str::to_string);
        match k.trim() {
            "type" => s.crypt_type = word,
            "cipher" => s.cipher = word,
            "keysize" => s.key_bits = leading_u64(v).and_then(|n| u32::try_from(n).ok()),
            "key location" => s.key_location = word,
            "device" => s.device = word,
            "loop" => s.loop_file = Some(v.to_string()),
            "sector size" => s.sector_bytes = leading_u64(v).and_then(|n| u32::try_from(n).ok()),
            "offset" => s.offset_sectors = leading_u64(v),
            "size" => s.size_sectors = leading_u64(v),
            "mode" => s.mode = word,
            _ => {}
        }
    }
    out
}

// ---- the source spec (see sources::spec) ----
use crate::sources::spec;

crate::rx!(
    CRYPT_START,
    r"^(/dev/mapper/)?([\w.-]+) is (in)?active( and is in use)?[.:]?\s*$"
);
crate::rx!(
    CRYPT_MEMBER,
    r"^\s+(type|cipher|keysize|key location|device|sector size|offset|size|skipped|mode|flags|loop|integrity[\w ]*):|^Command successful\."
);
crate::rx!(CRYPT_NAME, r"^(?:/dev/mapper/)?([\w.-]+) is (?:in)?active");

/// "NAME is active." counts when a status row follows at once; otherwise nothing starts.
fn start(lines: &[&str]) -> spec::Start {
    let t = lines.first().copied().unwrap_or("");
    if !CRYPT_START.is_match(t) {
        return spec::Start::No;
    }
    match spec::next_nonblank(lines, 1, 0).and_then(|n| lines.get(n)) {
        Some(l) if CRYPT_MEMBER.is_match(l) => spec::Start::Yes,
        _ => spec::Start::Stop,
    }
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "cryptsetup-status",
    starts: &[(190, start)],
    member: |t, _| spec::Member::from(CRYPT_MEMBER.is_match(t)),
    classify: |_, _| "cryptsetup-status",
    ..spec::Recogniser::NONE
};

/// cryptsetup(8) status NAME.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Linux),
    live: &[spec::Live::Cmd(&["cryptsetup", "status", "{disk}"])],
    pasted_as: Some(spec::Live::Cmd(&["cryptsetup", "status", "{disk}"])),
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste {
        device: Some(|text| spec::first_line_capture(&CRYPT_NAME, text, 1)),

        ..spec::Paste::new(&RECOGNISER, |p, _| p == "cryptsetup")
    }),
    programs: &[spec::Program::new("cryptsetup", |a| {
        spec::starts_with_any(a, &["status", "luksDump", "-v status"])
    })
    .deciding_platform()],
    mention: Some(r"cryptsetup\s+status"),
    ..spec::SourceSpec::named("cryptsetup-status", "cryptsetup status")
};

#[cfg(test)]
mod tests;
