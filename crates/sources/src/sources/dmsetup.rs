//! `dmsetup table` lines: "name: start length target args...".
//!
//! Reference: the kernel's device-mapper target docs (Documentation/admin-guide/
//! device-mapper/): linear "<dev> <offset>", striped "<#stripes> <chunk sectors> (<dev>
//! <offset>)+", crypt "<cipher> <key> <iv_offset> <dev> <offset> [<#opt> <opt>...]" (a key
//! ":<bytes>:<type>:<desc>" lives in the keyring), cache "<metadata> <cache> <origin>
//! <block size> <#features> <features> <policy> <#policy args>", error (no args).
//! Devices are given as major:minor; majors 8/65-71 are sd, 3/22 legacy IDE (hda..), 9 md,
//! 1 ramdisk, 7 loop (Documentation/admin-guide/devices.txt); dm and NVMe majors are
//! dynamic and cannot be named from the number alone.

use crate::model::{Layer, LayerKind};
use crate::sources::util::clean_line;

#[derive(Debug, Clone, PartialEq, Default)]
pub struct DmTarget {
    /// Mapping name as printed ("rhel-home").
    pub name: String,
    /// Start and length of this segment, 512-byte sectors.
    pub start: u64,
    pub length: u64,
    /// "linear", "striped", "crypt", "cache", "error", "thin", ...
    pub target: String,
    /// Underlying devices ("8:19" or "/dev/sdb3").
    pub devices: Vec<String>,
    /// Offset on each underlying device, sectors.
    pub offsets: Vec<u64>,
    pub cipher: Option<String>,
    pub key_bits: Option<u32>,
    pub stripes: Option<u32>,
    pub chunk_sectors: Option<u64>,
    /// Cache block size (sectors) and mode ("writethrough", "writeback", "passthrough").
    pub cache_block_sectors: Option<u64>,
    pub cache_mode: Option<String>,
    pub features: Vec<String>,
    /// Arguments as printed after the target name.
    pub args: Vec<String>,
}

impl DmTarget {
    /// The layer this segment describes; `from` is the capture key.
    pub fn to_layer(&self, from: &str) -> Layer {
        let kind = match self.target.as_str() {
            "crypt" => LayerKind::DmCrypt,
            "cache" | "writecache" => LayerKind::DmCache,
            "multipath" => LayerKind::Multipath,
            _ => LayerKind::DmOther,
        };
        Layer {
            kind: Some(kind),
            name: self.name.clone(),
            on: self
                .devices
                .iter()
                .map(|d| guess_dev_name(d).unwrap_or_else(|| d.clone()))
                .collect(),
            cipher: self.cipher.clone(),
            key_bits: self.key_bits,
            level: Some(self.target.clone()),
            from: vec![from.to_string()],
            ..Default::default()
        }
    }
}

/// Kernel name for a major:minor with a static major (sd, hd, md, ram, loop).
pub fn guess_dev_name(mm: &str) -> Option<String> {
    let (ma, mi) = mm.split_once(':')?;
    let ma: u32 = ma.trim().parse().ok()?;
    let mi: u32 = mi.trim().parse().ok()?;
    let letters = |n: u32| -> String {
        // a..z, aa..zz as sd does.
        if n < 26 {
            char::from(b'a' + n as u8).to_string()
        } else {
            let hi = n / 26 - 1;
            let lo = n % 26;
            format!(
                "{}{}",
                char::from(b'a' + (hi.min(25)) as u8),
                char::from(b'a' + lo as u8)
            )
        }
    };
    let part = |p: u32| if p == 0 { String::new() } else { p.to_string() };
    match ma {
        // sd majors: 8, 65..71, 128..135, 16 disks each.
        8 | 65..=71 | 128..=135 => {
            let block = match ma {
                8 => 0,
                65..=71 => ma - 64,
                _ => ma - 128 + 8,
            };
            let disk = block * 16 + mi / 16;
            Some(format!("sd{}{}", letters(disk), part(mi % 16)))
        }
        3 => Some(format!("hd{}{}", letters(mi / 64), part(mi % 64))),
        22 => Some(format!("hd{}{}", letters(2 + mi / 64), part(mi % 64))),
        9 => Some(format!("md{mi}")),
        1 => Some(format!("ram{mi}")),
        7 => Some(format!("loop{mi}")),
        _ => None,
    }
}

/// Whether a device-mapper name is one only an encrypting tool gives its mappings, so a
/// read of /dev/mapper/NAME goes through dm-crypt: TrueCrypt's and VeraCrypt's Linux core
/// map volume slot N as "truecryptN" / "veracryptN" (VeraCrypt src/Core/Unix/Linux/
/// CoreLinux.cpp, inherited from TrueCrypt 7: it dismounts only devices under
/// "/dev/mapper/veracrypt"), udisks2 and systemd-cryptsetup name an unlocked LUKS device
/// "luks-<UUID>", and the Debian/Ubuntu installer's partman-crypto "<partition>_crypt"
/// ("sda5_crypt"). Any other name (an LVM "vg-lv", a user's own name) says nothing.
pub fn is_crypt_mapping_name(name: &str) -> bool {
    let n = name.trim_start_matches("/dev/mapper/");
    let numbered = |p: &str| {
        n.strip_prefix(p)
            .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
    };
    numbered("truecrypt")
        || numbered("veracrypt")
        || n.strip_prefix("luks-").is_some_and(|u| u.len() >= 8)
        || n.strip_suffix("_crypt").is_some_and(|p| !p.is_empty())
}

fn is_dev(s: &str) -> bool {
    s.starts_with("/dev/")
        || s.split_once(':').is_some_and(|(a, b)| {
            !a.is_empty()
                && !b.is_empty()
                && a.chars().all(|c| c.is_ascii_digit())
                && b.chars().all(|c| c.is_ascii_digit())
        })
}

/// Every table line in the text.
pub fn parse(text: &str) -> Vec<DmTarget> {
    let mut out = Vec::new();
    for raw in text.lines() {
        let line = clean_line(raw);
        let Some((name, rest)) = line.trim().split_once(": ") else {
            continue;
        };
        let tk: Vec<&str> = rest.split_whitespace().collect();
        let (Some(start), Some(length), Some(target)) = (
            tk.first().and_then(|s| s.parse::<u64>().ok()),
            tk.get(1).and_then(|s| s.parse::<u64>().ok()),
            tk.get(2),
        ) else {
            continue;
        };
        if name.contains(' ')
            || !target
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            continue;
        }
        let args: Vec<String> = tk.iter().skip(3).map(|s| s.to_string()).collect();
        let a = |i: usize| args.get(i).map(String::as_str).unwrap_or("");
        let mut t = DmTarget {
            name: name.to_string(),
            start,
            length,
            target: target.to_string(),
            args: args.clone(),
            ..Default::default()
        };
        match *target {
            "linear" => {
                if is_dev(a(0)) {
                    t.devices.push(a(0).to_string());
                    t.offsets.extend(a(1).parse::<u64>().ok());
                }
            }
            "striped" => {
                t.stripes = a(0).parse().ok();
                t.chunk_sectors = a(1).parse().ok();
                let mut i = 2;
                while is_dev(a(i)) {
                    t.devices.push(a(i).to_string());
                    t.offsets.extend(a(i + 1).parse::<u64>().ok());
                    i += 2;
                }
            }
            "crypt" => {
                t.cipher = Some(a(0).to_string()).filter(|s| !s.is_empty());
                let key = a(1);
                t.key_bits = if let Some(k) = key.strip_prefix(':') {
                    // ":64:logon:cryptsetup:..." -> 64 bytes
                    k.split(':')
                        .next()
                        .and_then(|n| n.parse::<u32>().ok())
                        .and_then(|b| b.checked_mul(8))
                } else if !key.is_empty()
                    && key.chars().all(|c| c.is_ascii_hexdigit())
                    && key.chars().any(|c| c != '0')
                {
                    u32::try_from(key.len() * 4).ok()
                } else if !key.is_empty() && key.chars().all(|c| c == '0') {
                    // dmsetup without --showkeys prints zeros of the key's length.
                    u32::try_from(key.len() * 4).ok()
                } else {
                    None
                };
                if is_dev(a(3)) {
                    t.devices.push(a(3).to_string());
                    t.offsets.extend(a(4).parse::<u64>().ok());
                }
                if let Ok(n) = a(5).parse::<usize>() {
                    t.features = args.iter().skip(6).take(n).cloned().collect();
                }
            }
            "cache" => {
                for i in 0..3 {
                    if is_dev(a(i)) {
                        t.devices.push(a(i).to_string());
                    }
                }
                t.cache_block_sectors = a(3).parse().ok();
                if let Ok(n) = a(4).parse::<usize>() {
                    t.features = args.iter().skip(5).take(n).cloned().collect();
                    t.cache_mode = t
                        .features
                        .iter()
                        .find(|f| {
                            matches!(f.as_str(), "writethrough" | "writeback" | "passthrough")
                        })
                        .cloned()
                        // dm-cache defaults to writeback when no mode feature is given.
                        .or(Some("writeback".into()));
                }
            }
            _ => {
                for s in &args {
                    if is_dev(s) {
                        t.devices.push(s.clone());
                    }
                }
            }
        }
        out.push(t);
    }
    out
}

// ---- the source spec (see sources::spec) ----
use crate::sources::spec;

crate::rx!(
    DMSETUP_ROW,
    r"^[\w.+-]+: \d+ \d+ (linear|striped|crypt|cache|thin|thin-pool|mirror|raid|error|zero|snapshot|snapshot-origin|multipath|delay|flakey|era|integrity|verity|writecache|vdo|dust)\b"
);

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "dmsetup-table",
    starts: &[(200, |l| spec::on_first(l, |t| DMSETUP_ROW.is_match(t)))],
    member: |t, _| spec::Member::from(DMSETUP_ROW.is_match(t)),
    classify: |_, _| "dmsetup-table",
    ..spec::Recogniser::NONE
};

/// dmsetup(8) table.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Linux),
    live: &[spec::Live::Cmd(&["dmsetup", "table"])],
    pasted_as: Some(spec::Live::Cmd(&["dmsetup", "table"])),
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, _| p == "dmsetup")),
    programs: &[spec::Program::new("dmsetup", |a| {
        spec::starts_with_any(a, &["table", "ls", "status"])
    })
    .deciding_platform()],
    ..spec::SourceSpec::named("dmsetup-table", "dmsetup table")
};

#[cfg(test)]
mod tests;
