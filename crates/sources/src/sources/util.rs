//! Small tolerant helpers shared by the tool-output parsers: quote stripping, locale-aware
//! numbers (U+00A0/U+202F digit grouping, decimal commas), size suffixes, key/value lines.
//!
//! Nothing here panics on any input: every slice is taken through `get`/`split` and every
//! number through `parse` with an `Option` result.

use crate::model::{DiskFacts, Fact};

/// Remove mail quote prefixes ("> ", ">> ", "> > ") and surrounding whitespace noise that
/// mail clients add. Tabs and no-break spaces become plain spaces so column splitting works.
pub fn clean_line(line: &str) -> String {
    let mut s = line.trim_end_matches(['\r', '\n']);
    loop {
        let t = s.trim_start_matches([' ', '\t']);
        if let Some(rest) = t.strip_prefix('>') {
            s = rest.strip_prefix(' ').unwrap_or(rest);
        } else {
            break;
        }
    }
    s.chars()
        .map(|c| match c {
            '\t' | '\u{a0}' | '\u{202f}' | '\u{2007}' => ' ',
            c => c,
        })
        .collect::<String>()
        .trim_end()
        .to_string()
}

/// Whitespace-separated tokens.
pub fn tokens(s: &str) -> Vec<&str> {
    s.split_whitespace().collect()
}

fn is_group_sep(c: char) -> bool {
    matches!(c, ',' | '\'' | '\u{a0}' | '\u{202f}' | '\u{2007}' | '_')
}

/// The unsigned integer at the start of `s`, accepting digit grouping with commas,
/// apostrophes, U+00A0/U+202F (locales such as ru_RU, as smartctl prints with `%'`), and with
/// ASCII spaces when each group after the space is exactly three digits.
/// "1,000,204,886,016 bytes" -> 1000204886016; "3,530" -> 3530; "35 (Min/Max" -> 35.
pub fn leading_u64(s: &str) -> Option<u64> {
    let s = s.trim_start();
    // A number, even grouped, is short: bound the work on huge one-line inputs.
    let chars: Vec<char> = s.chars().take(80).collect();
    let mut digits = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars.get(i).copied().unwrap_or(' ');
        if c.is_ascii_digit() {
            digits.push(c);
            i += 1;
        } else if (is_group_sep(c) || c == ' ') && !digits.is_empty() {
            // A separator counts only if exactly three digits follow it.
            let next3 = (1..=3).all(|k| chars.get(i + k).is_some_and(|d| d.is_ascii_digit()));
            let fourth = chars.get(i + 4).is_some_and(|d| d.is_ascii_digit());
            if next3 && !fourth {
                i += 1;
            } else {
                break;
            }
        } else {
            break;
        }
    }
    if digits.is_empty() {
        None
    } else {
        digits.parse().ok()
    }
}

/// A decimal number at the start of `s`, accepting a decimal comma ("9,2", "365,951") as GNU
/// tools print in de_DE/ru_RU locales. A comma with three digits after it and a later dot is
/// taken as grouping ("1,234.5").
pub fn leading_f64(s: &str) -> Option<f64> {
    let s = s.trim_start();
    let mut out = String::new();
    let mut seen_point = false;
    let chars: Vec<char> = s.chars().take(80).collect();
    let mut i = 0;
    if let Some('-') = chars.first() {
        out.push('-');
        i = 1;
    }
    while i < chars.len() {
        let c = chars.get(i).copied().unwrap_or(' ');
        if c.is_ascii_digit() {
            out.push(c);
        } else if (c == '.' || c == ',') && !seen_point {
            let next_digit = chars.get(i + 1).is_some_and(|d| d.is_ascii_digit());
            if !next_digit {
                break;
            }
            // "1,234.5": comma followed by 3 digits and then a dot is grouping.
            let rest: String = chars.iter().skip(i + 1).take(5).collect();
            if c == ','
                && rest.len() > 3
                && rest.chars().take(3).all(|d| d.is_ascii_digit())
                && rest.chars().nth(3) == Some('.')
            {
                i += 1;
                continue;
            }
            out.push('.');
            seen_point = true;
        } else if matches!(c, '\u{a0}' | '\u{202f}') && !seen_point {
            // Grouping in locales that group with no-break spaces.
        } else {
            break;
        }
        i += 1;
    }
    if out.is_empty() || out == "-" {
        return None;
    }
    out.parse().ok()
}

/// Split "Key:   value" at the first colon; both sides trimmed.
pub fn kv(line: &str) -> Option<(&str, &str)> {
    let (k, v) = line.split_once(':')?;
    Some((k.trim(), v.trim()))
}

/// Multiplier for a unit word like "kB", "MiB", "GB", "K", "M" (dd's and fio's units).
/// Decimal units (kB, MB, GB) are powers of 1000 as GNU dd prints them; binary (KiB, K, M
/// in dd's bs= operand, per dd(1)) are powers of 1024.
pub fn unit_multiplier(unit: &str) -> Option<f64> {
    let u = unit.trim();
    let m = match u {
        "B" | "b" | "bytes" | "" => 1.0,
        "kB" | "KB" => 1e3,
        "MB" => 1e6,
        "GB" => 1e9,
        "TB" => 1e12,
        "KiB" | "K" | "k" => 1024.0,
        "MiB" | "M" | "m" => 1024.0 * 1024.0,
        "GiB" | "G" | "g" => 1024.0 * 1024.0 * 1024.0,
        "TiB" | "T" | "t" => 1024f64.powi(4),
        _ => return None,
    };
    Some(m)
}

/// A dd-style size operand: "512", "10M", "1m", "128k", "4KiB", "1MB" (decimal), "2x512"
/// (product). dd(1): K/M/G are powers of 1024, KB/MB/GB powers of 1000; BSD dd accepts
/// lowercase k/m/g and w (2) / b (512).
pub fn parse_size(s: &str) -> Option<u64> {
    let s = s.trim();
    if s.is_empty() {
        return None;
    }
    if let Some((a, b)) = s.split_once(['x', '*']) {
        return parse_size(a)?.checked_mul(parse_size(b)?);
    }
    let split = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let (num, unit) = s.split_at(split);
    let n: u64 = num.parse().ok()?;
    let mult: u64 = match unit {
        "" | "c" => 1,
        "w" => 2,
        "b" => 512,
        "k" | "K" | "KiB" => 1 << 10,
        "m" | "M" | "MiB" => 1 << 20,
        "g" | "G" | "GiB" => 1 << 30,
        "t" | "T" | "TiB" => 1 << 40,
        "kB" | "KB" => 1000,
        "MB" => 1_000_000,
        "GB" => 1_000_000_000,
        "TB" => 1_000_000_000_000,
        _ => return None,
    };
    n.checked_mul(mult)
}

/// A human size like "447.1G", "600M", "1,00 TB", "4K", "2T" (lsblk, zpool: powers of 1024).
pub fn parse_human_size(s: &str) -> Option<u64> {
    let s = s.trim();
    let num = leading_f64(s)?;
    let unit_start = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == ','))
        .unwrap_or(s.len());
    let unit = s.get(unit_start..).unwrap_or("").trim();
    let mult: f64 = match unit.trim_end_matches('B').trim_end_matches('i') {
        "" => 1.0,
        "K" | "k" => 1024.0,
        "M" => 1024f64.powi(2),
        "G" => 1024f64.powi(3),
        "T" => 1024f64.powi(4),
        "P" => 1024f64.powi(5),
        _ => return None,
    };
    let v = num * mult;
    if v.is_finite() && v >= 0.0 {
        Some(v.round() as u64)
    } else {
        None
    }
}

/// The value after `key` in `s` (e.g. `after(s, "bw=")`), up to the next delimiter.
pub fn after<'a>(s: &'a str, key: &str) -> Option<&'a str> {
    let i = s.find(key)?;
    let rest = s.get(i + key.len()..)?;
    let end = rest
        .find(|c: char| c.is_whitespace() || c == ',' || c == ')')
        .unwrap_or(rest.len());
    rest.get(..end)
}

/// The first JSON object in `text`: from the first line that starts with '{' (after quote
/// prefixes are stripped), ignoring an echoed command line before it and anything after the
/// object (a shell prompt, prose). None when there is none or it does not parse.
pub fn find_json(text: &str) -> Option<serde_json::Value> {
    let t = text.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
    let direct = if t.starts_with('{') {
        Some(t.to_string())
    } else {
        None
    };
    let cleaned = || -> Option<String> {
        let lines: Vec<String> = text.lines().map(clean_line).collect();
        let start = lines.iter().position(|l| l.trim_start().starts_with('{'))?;
        Some(lines.get(start..)?.join("\n"))
    };
    // A member cut out of a document ("  \"nvme_smart_health_information_log\": {" down to
    // its balancing "},"): the object it would be in, made by wrapping it in braces.
    let member = || -> Option<String> {
        let lines: Vec<String> = text.lines().map(clean_line).collect();
        let start = lines.iter().position(|l| is_json_member_start(l))?;
        let mut depth = 0i64;
        let mut body: Vec<&str> = Vec::new();
        for l in lines.get(start..)? {
            body.push(l);
            depth = depth.saturating_add(json_depth_change(l));
            if depth <= 0 {
                break;
            }
        }
        let joined = body.join("\n");
        Some(format!("{{{}}}", joined.trim_end().trim_end_matches(',')))
    };
    for candidate in [direct, cleaned(), member()].into_iter().flatten() {
        let mut it =
            serde_json::Deserializer::from_str(&candidate).into_iter::<serde_json::Value>();
        if let Some(Ok(v)) = it.next()
            && v.is_object()
        {
            return Some(v);
        }
    }
    None
}

/// A line that opens a JSON object member whose value is an object or array
/// ("  \"nvme_smart_health_information_log\": {"): where a fragment of a document begins.
pub(crate) fn is_json_member_start(l: &str) -> bool {
    let t = l.trim();
    let Some(rest) = t.strip_prefix('"') else {
        return false;
    };
    let Some((key, after)) = rest.split_once('"') else {
        return false;
    };
    let v = after.trim_start().strip_prefix(':').map(str::trim);
    !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        && matches!(v, Some("{") | Some("["))
}

/// How much a line changes the bracket depth, brackets inside strings left out.
pub(crate) fn json_depth_change(l: &str) -> i64 {
    let (mut d, mut in_str, mut esc) = (0i64, false, false);
    for c in l.chars() {
        if in_str {
            if esc {
                esc = false;
            } else if c == '\\' {
                esc = true;
            } else if c == '"' {
                in_str = false;
            }
            continue;
        }
        match c {
            '"' => in_str = true,
            '{' | '[' => d = d.saturating_add(1),
            '}' | ']' => d = d.saturating_sub(1),
            _ => {}
        }
    }
    d
}

/// Set `slot` to `v` (known from the capture `from`) only while it is still unknown: the
/// first source that knows a fact keeps it, later tool outputs only fill the gaps.
pub(crate) fn fill_unknown<T>(slot: &mut Fact<T>, v: Option<T>, from: &str) {
    if let Some(v) = v
        && !slot.is_known()
    {
        *slot = Fact::known(v, from);
    }
}

/// Fill the sector geometry the ATA IDENTIFY data gives (words 106, 117-118, 209 in
/// ATA/ACS-3 7.12.7), as hdparm -I and smartctl both print it: logical and physical sector
/// sizes and the offset of logical sector 0 within its physical sector.
pub(crate) fn fill_sector_geometry(
    disk: &mut DiskFacts,
    logical: Option<u32>,
    physical: Option<u32>,
    offset_bytes: Option<u64>,
    from: &str,
) {
    fill_unknown(&mut disk.logical_sector_bytes, logical, from);
    fill_unknown(&mut disk.physical_sector_bytes, physical, from);
    fill_unknown(&mut disk.alignment_offset_bytes, offset_bytes, from);
}

/// Fill the nominal media rotation rate (IDENTIFY word 217: 1 = non-rotating, else rpm; the
/// parsers map "Solid State Device" to 0) and the rotational flag that follows from it.
pub(crate) fn fill_rotation(disk: &mut DiskFacts, rpm: Option<u32>, from: &str) {
    fill_unknown(&mut disk.rotation_rpm, rpm, from);
    fill_unknown(&mut disk.rotational, rpm.map(|rpm| rpm != 0), from);
}

/// The identity strings hypervisors and clouds give the disks they emulate, upper case, as
/// a model or vendor field contains them (ATA IDENTIFY model, SCSI INQUIRY vendor/product,
/// NVMe model number): QEMU's IDE/AHCI and scsi-disk ("QEMU HARDDISK", vendor "QEMU",
/// hw/ide/core.c, hw/scsi/scsi-disk.c) and NVMe ("QEMU NVMe Ctrl"); bhyve's AHCI disk
/// ("BHYVE SATA DISK", usr.sbin/bhyve/pci_ahci.c); VMware's ("VMware Virtual disk",
/// "VMware Virtual S", "VMware Virtual IDE Hard Drive", "VMware Virtual NVMe Disk");
/// VirtualBox's ("VBOX HARDDISK"); Hyper-V's storvsc ("Msft Virtual Disk", WSL2's disks
/// too); Xen's; Google's persistent disks ("PersistentDisk") and Amazon EBS ("Amazon
/// Elastic Block Store"). One list, so every reader of an identity (kernel log, lsscsi,
/// sysfs, smartctl) knows the same hypervisors.
pub const EMULATED_DISK_MARKERS: [&str; 10] = [
    "QEMU",
    "BHYVE",
    "VMWARE",
    "VBOX",
    "VIRTUAL DISK",
    "MSFT",
    "XEN",
    "PERSISTENTDISK",
    "AMAZON ELASTIC BLOCK STORE",
    "VIRTUAL S",
];

/// An argument of an sg3_utils command as people type it (sg_inq(8), sg_readcap(8),
/// sg_vpd(8): options, then the device as /dev/sdX, /dev/sgN or a bare sdX).
pub(crate) fn sg3_arg(a: &str) -> bool {
    a.starts_with('-') || a.starts_with("/dev/") || a.starts_with("sd")
}

/// Whether a SCSI product identification (INQUIRY bytes 16-31, what Linux shows as
/// device/model and lsblk as MODEL, without the vendor) is a hardware RAID controller's
/// logical volume: HPE Smart Array (hpsa, cciss) volumes answer "LOGICAL VOLUME" (vendor
/// "HP"/"HPE"), LSI Integrated RAID (mpt) volumes "Logical Volume" (vendor "LSILOGIC"),
/// Dell's MegaRAID boards "PERC H730P Mini" and the like, IBM's "ServeRAID M5015"
/// (sources::smartctl::raid_volume_inquiry has them with their vendors). No drive names
/// itself so.
pub(crate) fn raid_volume_product(product: &str) -> bool {
    let p = product.trim().to_ascii_uppercase();
    p == "LOGICAL VOLUME" || p.starts_with("PERC ") || p.starts_with("SERVERAID")
}

/// Whether a model or vendor string names a hypervisor's or cloud's emulated disk
/// ([`EMULATED_DISK_MARKERS`]).
pub fn names_emulated_disk(s: &str) -> bool {
    let up = s.to_ascii_uppercase();
    EMULATED_DISK_MARKERS.iter().any(|m| up.contains(m))
}

#[cfg(test)]
mod tests;

/// A line a poster put in place of lines they cut: "...", "....", "…", "[...]", "[…]".
pub(crate) fn is_elision(l: &str) -> bool {
    let t = l.trim().trim_start_matches('[').trim_end_matches(']');
    t == "\u{2026}" || (t.len() >= 3 && t.chars().all(|c| c == '.'))
}
