//! udev's persistent device names (/dev/disk/by-id): which part of a name is the drive's
//! serial number or world wide name. The names are built by systemd's
//! rules.d/60-persistent-storage.rules from the drive's identity:
//! - `ata-MODEL_SERIAL`, `scsi-SATA_MODEL_SERIAL`, `scsi-0ATA_MODEL_SERIAL`,
//!   `nvme-MODEL_SERIAL` (nvme: an `_NSID` may follow), `mmc-NAME_0xSERIAL`,
//!   `virtio-SERIAL` (ID_SERIAL: model and serial joined by '_', blanks as '_');
//! - `usb-VENDOR_MODEL_SERIAL-H:L` (the SCSI host:LUN of the bridge after the serial);
//! - `wwn-0xNAA`, `nvme-eui.EUI64`, `scsi-3NAA` (ID_WWN, and the SCSI VPD page 0x83
//!   designator whose leading digit is its type: 3 = NAA);
//! - each with `-partN` for a partition.
//!
//! zpool(8) names a Linux vdev by the link it was created with, so the same names stand in
//! `zpool status` (sources::zpool) and in user-typed paths.

use crate::sources::spec::{Found, SecretKind};

/// The prefixes of by-id names that carry an identity.
const PREFIXES: &[&str] = &[
    "ata-",
    "scsi-",
    "nvme-",
    "usb-",
    "wwn-",
    "mmc-",
    "virtio-",
    "ieee1394-",
    "memstick-",
];

/// The secrets of one by-id name (without the directory). `sure`: the name is known to be
/// a by-id link (it was listed under /dev/disk/by-id, or is a vdev name), so a serial
/// needs no digits; otherwise a word that merely looks like one must carry a digit.
pub fn secrets(name: &str, sure: bool) -> Vec<Found> {
    let name = name.trim_matches(|c: char| "'\"`,;()[]".contains(c));
    let base = strip_part(name);
    let Some(prefix) = PREFIXES.iter().find(|p| base.starts_with(**p)) else {
        return Vec::new();
    };
    let rest = &base[prefix.len()..];
    let found = |kind, v: &str| {
        if sure {
            Found::sure(kind, v)
        } else {
            Found::likely(kind, v)
        }
    };
    let hex16 = |s: &str| s.len() >= 16 && s.chars().all(|c| c.is_ascii_hexdigit());
    match *prefix {
        "wwn-" => {
            // wwn-0x5000c500a1b2c3d4, also with a vendor extension after it.
            let hex = rest.strip_prefix("0x").unwrap_or(rest);
            if hex.len() >= 8 && hex.chars().all(|c| c.is_ascii_hexdigit()) {
                return vec![found(SecretKind::Wwn, hex)];
            }
            return Vec::new();
        }
        "nvme-" if rest.starts_with("eui.") || rest.starts_with("nvme.") => {
            // nvme-eui.0025388b91b2c5a1; nvme-nvme.VID-SERIALHEX-MODELHEX-NSID (the
            // serial hex-encoded inside): the whole id.
            let id = rest.trim_start_matches("eui.");
            return vec![found(SecretKind::Wwn, id)];
        }
        "scsi-" if !rest.contains('_') => {
            // scsi-35000c500a1b2c3d4: designator type 3 (NAA), then the NAA WWN.
            if let Some(naa) = rest.strip_prefix('3')
                && hex16(naa)
            {
                return vec![found(SecretKind::Wwn, naa)];
            }
            return Vec::new();
        }
        _ => {}
    }
    if *prefix == "virtio-" {
        return serial_part(rest)
            .map(|s| vec![found(SecretKind::Serial, s)])
            .unwrap_or_default();
    }
    // MODEL_SERIAL: the serial is the last '_' field; nvme's namespace number and usb's
    // "-H:L" come after it.
    let body = match *prefix {
        "usb-" => strip_host_lun(rest),
        _ => rest,
    };
    let mut fields: Vec<&str> = body.split('_').collect();
    if *prefix == "nvme-"
        && fields.len() > 2
        && fields
            .last()
            .is_some_and(|f| f.len() <= 3 && f.chars().all(|c| c.is_ascii_digit()))
    {
        fields.pop();
    }
    if fields.len() < 2 {
        return Vec::new();
    }
    let serial = fields.last().copied().unwrap_or("");
    // mmc-NAME_0xSERIAL: the serial as a hex number.
    let serial = serial.strip_prefix("0x").unwrap_or(serial);
    serial_part(serial)
        .map(|s| vec![found(SecretKind::Serial, s)])
        .unwrap_or_default()
}

/// The drive model a by-id name spells (`ata-WDC_WD60EFAX-68SHWN0_WD-WX11D...` -> "WDC
/// WD60EFAX-68SHWN0"): the fields before the serial of an `ata-`, `scsi-SATA_`,
/// `scsi-0ATA_`, `nvme-` or `usb-` name, '_' standing for the blanks udev replaced
/// (60-persistent-storage.rules: ID_SERIAL is ID_MODEL "_" ID_SERIAL_SHORT). None for
/// names that carry no model (wwn-, scsi-3NAA, nvme-eui., virtio-).
pub fn model(name: &str) -> Option<String> {
    let base = strip_part(name.trim_start_matches("/dev/disk/by-id/"));
    let rest = ["ata-", "nvme-", "usb-"]
        .iter()
        .find_map(|p| base.strip_prefix(p))
        .or_else(|| {
            let r = base.strip_prefix("scsi-")?;
            r.strip_prefix("SATA_").or_else(|| r.strip_prefix("0ATA_"))
        })?;
    if rest.starts_with("eui.") || rest.starts_with("nvme.") {
        return None;
    }
    let body = if base.starts_with("usb-") {
        strip_host_lun(rest)
    } else {
        rest
    };
    let mut fields: Vec<&str> = body.split('_').collect();
    if base.starts_with("nvme-")
        && fields.len() > 2
        && fields
            .last()
            .is_some_and(|f| f.len() <= 3 && f.chars().all(|c| c.is_ascii_digit()))
    {
        fields.pop();
    }
    fields.pop()?;
    let m = fields.join(" ");
    (!m.trim().is_empty()).then(|| m.trim().to_string())
}

fn serial_part(s: &str) -> Option<&str> {
    (s.len() >= 3).then_some(s)
}

/// `NAME-partN` -> `NAME`.
fn strip_part(name: &str) -> &str {
    match name.rfind("-part") {
        Some(i) if name[i + 5..].chars().all(|c| c.is_ascii_digit()) && i + 5 < name.len() => {
            &name[..i]
        }
        _ => name,
    }
}

/// usb-SanDisk_Ultra_4C53..-0:0 -> usb-SanDisk_Ultra_4C53.. (the host:LUN of the bridge).
fn strip_host_lun(name: &str) -> &str {
    if let Some(i) = name.rfind('-') {
        let tail = &name[i + 1..];
        if let Some((h, l)) = tail.split_once(':')
            && !h.is_empty()
            && !l.is_empty()
            && h.chars().chain(l.chars()).all(|c| c.is_ascii_digit())
        {
            return &name[..i];
        }
    }
    name
}

/// Whether a word has a by-id name's shape: a known prefix and, after it, a field
/// separator udev puts in (`_` between model and serial, `.` of eui./nvme., `0x` of wwn-).
pub fn looks_like(word: &str) -> bool {
    let w = strip_part(word);
    PREFIXES.iter().any(|p| {
        w.strip_prefix(p).is_some_and(|rest| {
            rest.contains('_')
                || (*p == "wwn-" && rest.starts_with("0x"))
                || (*p == "nvme-" && (rest.starts_with("eui.") || rest.starts_with("nvme.")))
                || (*p == "scsi-" && rest.starts_with('3') && rest.len() >= 17)
                || *p == "virtio-"
        })
    })
}

/// by-id names anywhere in a text: after `/dev/disk/by-id/` (sure), and words of a by-id
/// name's shape (an `ls -l /dev/disk/by-id` listing, a vdev typed in a command), whose
/// serials must carry a digit.
pub fn scan(text: &str) -> Vec<Found> {
    let mut out = Vec::new();
    if !PREFIXES.iter().any(|p| text.contains(p)) {
        return out;
    }
    const DIR: &str = "/dev/disk/by-id/";
    for word in text.split(|c: char| c.is_whitespace() || "\"'`,;()[]<>=".contains(c)) {
        if let Some(i) = word.find(DIR) {
            let name = &word[i + DIR.len()..];
            out.extend(secrets(name, true));
            continue;
        }
        // A path's last component ("../../sda" is no name; "wwn-0x..-part1" is).
        let last = word.rsplit('/').next().unwrap_or(word);
        let last = last.trim_end_matches(':');
        if looks_like(last) {
            out.extend(secrets(last, false));
        }
    }
    out
}

#[cfg(test)]
mod tests;
