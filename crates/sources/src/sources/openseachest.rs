//! Seagate openSeaChest utilities (`openSeaChest_Info`, `_SMART`, `_PowerControl`, ...):
//! a banner ("openSeaChest_Info - openSeaChest drive utilities"), the device line
//! "/dev/sg1 - ST18000NM000J-2TV103 - ZR5ER3PJ - SN04 - ATA" (handle, model, serial,
//! firmware, protocol), then the operation's output. Read here, from the utilities' own
//! printf formats (openSeaChest src/ and opensea-operations):
//! - `--showEPCSettings`: "===EPC Settings===", times "in 100 milliseconds", rows "Name
//!   Current Timer Default Timer Saved Timer Recovery Time C S" with "*" before an enabled
//!   timer ("Standby Z  *100  9000  9000  110  Y Y"). ATA EPC (ACS-3 4.13): Idle a/b/c and
//!   Standby y/z; Standby z spins the drive down, Standby y slows it.
//! - `--SATAPhyCntrs` (openSeaChest_Info): "====SATA Phy Event Counters====", rows "ID Value
//!   Description" (SATA 3.x 13.7.2, GP log 11h: 1 = command failed with ICRC, 3-7 R_ERR
//!   responses, 10 = COMRESETs, 11 = CRC errors in non-data FISes).
//! - `--deviceInfo`: "Write Cache: Enabled", "Read Look-Ahead: Enabled", "Rotation Rate
//!   (RPM): 7200", "Interface speed:" with "Max Speed (Gb/s): 6.0" and "Negotiated Speed
//!   (Gb/s): 3.0", "SMART Status: Good".
//! - `--smartCheck`: "SMART Check Passed!" / "SMART Check Failed!" and tripped attributes.

use crate::model::DriveTimer;
use crate::sources::spec;
use crate::sources::util::clean_line;

crate::rx!(
    BANNER,
    r"(?:open)?SeaChest_\w+(?: - (?:open)?SeaChest drive utilities|\s+Version:)"
);
// "/dev/sg1 - ST18000NM000J-2TV103 - ZR5ER3PJ - SN04 - ATA", "\\.\PhysicalDrive3 - ... - ATA"
crate::rx!(
    DEVICE_LINE,
    r"^\s*(?:(\S+)\s+)?-\s+(.*?)\s+-\s+(\S*)\s+-\s+(\S*)\s+-\s+(ATA|SCSI|NVMe|SAS|USB|\w+)\s*$"
);
crate::rx!(
    EPC_ROW,
    r"^\s*(Idle [ABC]|Standby [YZ])\s+(\*?)\s*(\d+)\s+\*?\s*(\d+)\s+\*?\s*(\d+)\s+(\d+)\s+[YN]\s+[YN]\s*$"
);
crate::rx!(
    PHY_ROW,
    r"^\s*(?:[VM]\s+)?(\d{1,5})\s+(\d+)\s+([A-Za-z].*)$"
);
crate::rx!(KV, r"^\s*([A-Za-z][\w ./()-]*?):\s+(\S.*?)\s*$");

/// What one openSeaChest output says about its drive.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SeaChest {
    /// The device handle of the device line (/dev/sg1 -> sg1).
    pub device: Option<String>,
    pub model: Option<String>,
    pub serial: Option<String>,
    pub timers: Vec<DriveTimer>,
    /// SATA Phy event counters: CRC (ids 1, 11), R_ERR (3-7), COMRESET (10).
    pub phy_crc: Option<u64>,
    pub phy_r_err: Option<u64>,
    pub phy_comreset: Option<u64>,
    pub write_cache: Option<bool>,
    pub rotation_rpm: Option<u32>,
    pub link_max_gbps: Option<f64>,
    pub link_current_gbps: Option<f64>,
    /// The drive's SMART verdict: Some(false) when it tripped.
    pub smart_ok: Option<bool>,
    pub power_on_hours: Option<u64>,
    /// Rows read.
    pub rows: usize,
}

fn add(slot: &mut Option<u64>, v: u64) {
    *slot = Some(slot.unwrap_or(0).saturating_add(v));
}

fn on_off(v: &str) -> Option<bool> {
    let v = v.to_ascii_lowercase();
    if v.starts_with("enabled") {
        Some(true)
    } else if v.starts_with("disabled") {
        Some(false)
    } else {
        None
    }
}

/// The first decimal number of a value ("6.0", "7200", "538.28").
fn first_f64(v: &str) -> Option<f64> {
    let n: String = v
        .trim()
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    n.parse().ok()
}

pub fn parse(text: &str) -> SeaChest {
    let mut out = SeaChest::default();
    #[derive(PartialEq)]
    enum Section {
        Other,
        Phy,
        Epc,
    }
    let mut section = Section::Other;
    for raw in text.lines() {
        let l = clean_line(raw);
        let t = l.trim();
        if t.contains("SATA Phy Event Counters") {
            section = Section::Phy;
            continue;
        }
        if t.contains("EPC Settings") {
            section = Section::Epc;
            continue;
        }
        if let Some(c) = DEVICE_LINE.captures(&l)
            && out.device.is_none()
        {
            out.device = c
                .get(1)
                .map(|m| m.as_str().trim_start_matches("/dev/").to_string());
            out.model = c
                .get(2)
                .map(|m| m.as_str().trim().to_string())
                .filter(|s| !s.is_empty());
            out.serial = c
                .get(3)
                .map(|m| m.as_str().to_string())
                .filter(|s| !s.is_empty());
            out.rows = out.rows.saturating_add(1);
            continue;
        }
        if let Some(c) = EPC_ROW.captures(&l) {
            let name = c.get(1).map_or("", |m| m.as_str()).to_string();
            let enabled = c.get(2).is_some_and(|m| m.as_str() == "*");
            let Some(ms) = c
                .get(3)
                .and_then(|m| m.as_str().parse::<u64>().ok())
                .and_then(|v| v.checked_mul(100))
            else {
                continue;
            };
            out.timers.push(DriveTimer {
                spins_down: name.starts_with("Standby"),
                condition: name,
                enabled,
                timer_ms: ms,
                line: t.to_string(),
            });
            out.rows = out.rows.saturating_add(1);
            continue;
        }
        if section == Section::Phy
            && let Some(c) = PHY_ROW.captures(&l)
        {
            let id = c.get(1).and_then(|m| m.as_str().parse::<u64>().ok());
            let v = c.get(2).and_then(|m| m.as_str().parse::<u64>().ok());
            let (Some(id), Some(v)) = (id, v) else {
                continue;
            };
            match id {
                1 | 11 => add(&mut out.phy_crc, v),
                3..=7 => add(&mut out.phy_r_err, v),
                10 => add(&mut out.phy_comreset, v),
                _ => {}
            }
            out.rows = out.rows.saturating_add(1);
            continue;
        }
        if t.starts_with("SMART Check Passed") {
            out.smart_ok = Some(true);
            out.rows = out.rows.saturating_add(1);
            continue;
        }
        if t.starts_with("SMART Check Failed") || t.contains("SMART has been tripped") {
            out.smart_ok = Some(false);
            out.rows = out.rows.saturating_add(1);
            continue;
        }
        let Some(c) = KV.captures(&l) else { continue };
        let k = c.get(1).map_or("", |m| m.as_str()).trim();
        let v = c.get(2).map_or("", |m| m.as_str());
        let before = out.rows;
        match k {
            "Write Cache" => out.write_cache = on_off(v),
            "Rotation Rate (RPM)" => {
                out.rotation_rpm = if v.starts_with("SSD") {
                    Some(0)
                } else {
                    first_f64(v).and_then(|f| (0.0..100_000.0).contains(&f).then_some(f as u32))
                }
            }
            "Max Speed (Gb/s)" => out.link_max_gbps = first_f64(v),
            "Negotiated Speed (Gb/s)" => out.link_current_gbps = first_f64(v),
            "SMART Status" => {
                let s = v.to_ascii_lowercase();
                out.smart_ok = if s.starts_with("good") {
                    Some(true)
                } else if s.starts_with("tripped") || s.starts_with("bad") {
                    Some(false)
                } else {
                    out.smart_ok
                }
            }
            "Power On Hours" => {
                out.power_on_hours =
                    first_f64(v).and_then(|f| (0.0..1e9).contains(&f).then_some(f as u64))
            }
            "Model Number" if out.model.is_none() => out.model = Some(v.to_string()),
            _ => continue,
        }
        out.rows = before.saturating_add(1);
    }
    out
}

// ---- the source spec (see sources::spec) ----

fn is_member(line: &str, _: &spec::BlockState) -> spec::Member {
    let l = clean_line(line);
    let t = l.trim();
    // Everything the utilities print is indented key-value rows, table rows, banners of
    // "=" and section titles: any line that is not prose belongs.
    let own = BANNER.is_match(t)
        || DEVICE_LINE.is_match(&l)
        || EPC_ROW.is_match(&l)
        || PHY_ROW.is_match(&l)
        || KV.is_match(&l)
        || (!t.is_empty() && t.chars().all(|c| c == '='))
        || (t.starts_with("==") && t.ends_with("=="))
        || t.starts_with("Copyright (c)")
        || t.starts_with("Build Date:")
        || t.starts_with("Today:")
        || t.starts_with("Name ")
        || t.starts_with("ID ")
        || t.starts_with("* = ")
        || t.starts_with("SMART Check")
        || t.starts_with("All times are")
        || t.starts_with("V = ")
        || t.starts_with("M = ")
        || t.starts_with("D2H = ")
        || t.starts_with("H2D = ")
        || t.starts_with("C column")
        || t.starts_with("S column");
    spec::Member::from(own)
}

fn start(lines: &[&str]) -> spec::Start {
    let Some(first) = lines.first() else {
        return spec::Start::No;
    };
    let l = clean_line(first);
    if BANNER.is_match(&l) {
        return spec::Start::Yes;
    }
    // The banner's rule of "=" followed by the banner.
    let t = l.trim();
    if t.len() >= 20 && t.chars().all(|c| c == '=') {
        return spec::Start::from(lines.get(1).is_some_and(|x| BANNER.is_match(x)));
    }
    // A section title of its own with its rows below (a paste that starts at the table).
    if t.contains("EPC Settings") {
        return spec::Start::from(
            lines
                .iter()
                .skip(1)
                .take(10)
                .any(|x| EPC_ROW.is_match(&clean_line(x))),
        );
    }
    if t.contains("SATA Phy Event Counters") {
        return spec::Start::from(
            lines
                .iter()
                .skip(1)
                .take(8)
                .any(|x| PHY_ROW.is_match(&clean_line(x))),
        );
    }
    // The device line, then a section of its own within the next lines (a paste without
    // the banner).
    if DEVICE_LINE.is_match(&l) {
        let own = lines.iter().skip(1).take(5).any(|x| {
            let c = clean_line(x);
            c.contains("EPC Settings")
                || c.contains("SATA Phy Event Counters")
                || c.contains("SMART Check")
                || c.trim_start().starts_with("Model Number:")
        });
        return spec::Start::from(own);
    }
    spec::Start::No
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "openseachest",
    starts: &[(62, start)],
    member: is_member,
    tolerance: (3, 0),
    classify: |_, _| "openseachest",
    ..spec::Recogniser::NONE
};

fn text_device(text: &str) -> Option<String> {
    parse(text).device.filter(|d| !d.contains('\\'))
}

/// The serial of the device line ("/dev/sg1 - ST18000NM000J-2TV103 - ZR5ER3PJ - SN04 - ATA").
fn device_line_serial(text: &str) -> Vec<spec::Found> {
    text.lines()
        .filter_map(|l| {
            let l = clean_line(l);
            let c = DEVICE_LINE.captures(&l)?;
            let s = c.get(3)?.as_str();
            (s.len() >= 4).then(|| spec::Found::sure(spec::SecretKind::Serial, s))
        })
        .collect()
}

/// openSeaChest_* and Seagate's closed SeaChest_* builds print the same tables.
fn is_openseachest(p: &str) -> bool {
    let p = p.trim_start_matches("./");
    p.starts_with("openSeaChest_") || p.starts_with("openseachest_") || p.starts_with("SeaChest_")
}

pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    parse: Some(|t| parse(t).rows),
    paste: Some(spec::Paste {
        device: Some(text_device),
        one_drive: true,
        ..spec::Paste::new(&RECOGNISER, |p, _| is_openseachest(p))
    }),
    mention: Some(r"(?:open)?SeaChest_\w+"),
    // "World Wide Name: 5000C500B2FC6240" and "Serial Number: X" rows.
    secrets: &[
        spec::Secret::Scan(device_line_serial),
        spec::Secret::After("world wide name:", spec::SecretKind::Wwn),
    ],
    ..spec::SourceSpec::named("openseachest", "Seagate openSeaChest utilities")
};

#[cfg(test)]
mod tests;
