//! inxi(1) (smxi/inxi), the system-information script forum helpers ask for (`inxi -Fxz`,
//! `inxi -Dxxx`): its Drives section. Reference: inxi 3.x DriveItem::drives_output and
//! drive_speed(). The section opens with "Drives:" and "Local Storage: total: ..." (2.x:
//! "HDD Total Size: ..."), then one "ID-N: /dev/NAME" record per drive: "maj-min:",
//! "vendor:", "model:", "size:", "block-size: physical: logical:", "type: USB" (with -xx,
//! the USB link's "rev:", "spd:", "lanes:", "mode:"), "speed: ... Gb/s" and "lanes:",
//! "tech:"/"rotation:"/"rpm:", "serial:", "rev:"/"fw-rev:", "temp:", "scheme:", and with -a
//! the smartctl fields "SMART: yes state: enabled health: PASSED on: ... cycles: ...".
//! inxi wraps a record wherever the terminal ends (a key and its value may fall on two
//! lines, a forum may drop the indentation), so a record is read as one joined string.
//!
//! What "speed:" is (drive_speed()): for an NVMe drive it is the PCIe link the device CAN
//! run, /sys/class/nvme/nvmeN/device/max_link_speed times max_link_width, with the
//! encoding taken off (2.5 and 5 GT/s x 0.8, 8 GT/s and up x 128/130): "31.6 Gb/s lanes:
//! 4" is a PCIe 3.0 x4 device, whatever link it trained at. For a disk on libata it is
//! /sys/class/ata_link/linkN/sata_spd, the speed the SATA link negotiated (N from the
//! sysfs path's ataN, else hostN + 1, a guess that names the wrong link for a disk on a
//! SAS HBA or USB, so a USB record's speed is not read). Where sysfs has none (the BSDs)
//! inxi falls back to smartctl's "SATA Version is: SATA 3.2, 6.0 Gb/s" and prints
//! "sata: 3.2" before it: the drive's top speed, not the link's.

use crate::sources::{spec, util};

/// One "ID-N:" record of the Drives section.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct InxiDrive {
    /// The kernel name, without /dev/ (sda, nvme0n1, ada0).
    pub device: String,
    pub vendor: Option<String>,
    pub model: Option<String>,
    pub serial: Option<String>,
    pub firmware: Option<String>,
    /// "type: USB": the disk is behind a USB bridge.
    pub usb: bool,
    /// The USB link's speed in Mb/s ("spd: 480 Mb/s", "spd: 5 Gb/s"), -xx.
    pub usb_speed_mbps: Option<f64>,
    /// "speed:" in Gb/s, and "lanes:" after it (NVMe: the device's maximum PCIe link).
    pub speed_gbps: Option<f64>,
    pub lanes: Option<u32>,
    /// "sata: 3.2": the speed came from smartctl's SATA version line (the drive's top).
    pub sata_version: Option<String>,
    /// "SSD", "HDD" (tech:, rotation:, or the type: of inxi 3.0-3.3.0x).
    pub tech: Option<String>,
    pub rpm: Option<u32>,
    /// smartctl's overall health as inxi copies it ("PASSED", "FAILED!").
    pub health: Option<String>,
}

/// inxi's section headers (print_data's row keys of the -F sections), the ones that end
/// the Drives section.
const SECTIONS: &[&str] = &[
    "System",
    "Machine",
    "Battery",
    "Memory",
    "PCI Slots",
    "Slots",
    "CPU",
    "CPU(s)",
    "Graphics",
    "Audio",
    "Network",
    "Bluetooth",
    "Logical",
    "RAID",
    "Drives",
    "Optical",
    "Partition",
    "Swap",
    "Unmounted",
    "USB",
    "Sensors",
    "Repos",
    "Processes",
    "Info",
    "Weather",
];

// The Drives header: "Drives:" and the storage total on its line or the next (group 1:
// the rest of the line).
crate::rx!(DRIVES, r"^Drives:\s*(.*)$");
crate::rx!(
    TOTAL,
    r"^(?:Local Storage: total:|HDD Total Size:|SMART Message:|ID-\d+: )"
);
// A section header at the start of a line: "Partition:", "Swap:   ID-1:".
crate::rx!(HEADER, r"^([A-Z][A-Za-z() ]*?):(?:\s|$)");
// One record's start in the joined section text.
crate::rx!(RECORD, r"(?:^|\s)(ID|Optical)-\d+:\s+(\S+)");
// The keys of a drive record (DriveItem::drives_output, smart_output's basic fields);
// a value runs to the next key.
crate::rx!(
    KEY,
    r"(?:^|\s)(maj-min|drive vendor|drive model|vendor|model|family|size|block-size|physical|logical|type|rev|spd|lanes|mode|sata|speed|tech|rotation|rpm|serial|drive serial|fw-rev|drive-rev|temp|duid|scheme|SMART Message|SMART|state|health|on|cycles|read-units|written-units|read|written|Old-Age|Pre-Fail):(?:\s|$)"
);

/// Whether `t` (a cleaned, trimmed line) is an inxi section header other than Drives.
fn other_section(t: &str) -> bool {
    HEADER
        .captures(t)
        .and_then(|c| c.get(1))
        .is_some_and(|h| h.as_str() != "Drives" && SECTIONS.contains(&h.as_str()))
}

/// The Drives sections' texts, each joined into one line.
fn sections(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur: Option<String> = None;
    for raw in text.lines() {
        let c = util::clean_line(raw);
        let t = c.trim();
        if let Some(m) = DRIVES.captures(t) {
            if let Some(s) = cur.take() {
                out.push(s);
            }
            cur = Some(m.get(1).map_or("", |x| x.as_str()).to_string());
        } else if other_section(t) {
            if let Some(s) = cur.take() {
                out.push(s);
            }
        } else if let Some(s) = cur.as_mut() {
            s.push(' ');
            s.push_str(t);
        }
    }
    out.extend(cur);
    out
}

/// A value inxi prints when it has none.
fn given(v: &str) -> Option<String> {
    let v = v.trim();
    (!v.is_empty()
        && v != "N/A"
        && v != "<filter>"
        && v != "<unknown>"
        && v != "<superuser required>")
        .then(|| v.to_string())
}

/// "6.0 Gb/s", "480 Mb/s" in Mb/s.
fn mbps(v: &str) -> Option<f64> {
    let mut it = v.split_whitespace();
    let n: f64 = it.next()?.parse().ok()?;
    let f = match it.next()? {
        "Gb/s" | "Gbps" => 1000.0,
        "Mb/s" | "Mbps" => 1.0,
        _ => return None,
    };
    Some(n * f).filter(|x| x.is_finite() && *x > 0.0)
}

/// One record's keys and values, in order.
fn pairs(rec: &str) -> Vec<(&str, &str)> {
    let keys: Vec<(usize, usize, &str)> = KEY
        .captures_iter(rec)
        .filter_map(|c| {
            let all = c.get(0)?;
            let k = c.get(1)?;
            Some((all.start(), all.end(), k.as_str()))
        })
        .collect();
    keys.iter()
        .enumerate()
        .map(|(i, &(_, end, k))| {
            let stop = keys.get(i + 1).map_or(rec.len(), |n| n.0);
            (k, rec.get(end..stop.max(end)).unwrap_or("").trim())
        })
        .collect()
}

fn record(device: &str, rec: &str) -> InxiDrive {
    let mut d = InxiDrive {
        device: device.trim_start_matches("/dev/").to_string(),
        ..Default::default()
    };
    // "type:" names the bus (USB) or, in inxi 3.0 to 3.3.0x, the technology (SSD). The
    // USB link's "rev:", "spd:", "lanes:" and "mode:" follow "type: USB" directly.
    let mut after_usb = false;
    for (k, v) in pairs(rec) {
        let usb_field = after_usb && matches!(k, "rev" | "spd" | "lanes" | "mode");
        match k {
            "vendor" if d.vendor.is_none() => d.vendor = given(v),
            "model" if d.model.is_none() => d.model = given(v),
            "serial" if d.serial.is_none() => d.serial = given(v),
            "fw-rev" => d.firmware = given(v),
            "rev" if !usb_field && d.firmware.is_none() => d.firmware = given(v),
            "type" if v == "USB" => d.usb = true,
            "type" | "tech" | "rotation" if v == "SSD" || v == "HDD" => {
                d.tech = Some(v.to_string())
            }
            "rotation" | "rpm" => {
                d.rpm = v
                    .split_whitespace()
                    .next()
                    .and_then(|n| n.parse().ok())
                    .filter(|n: &u32| (1000..=20000).contains(n));
                if d.rpm.is_some() {
                    d.tech = Some("HDD".into());
                }
            }
            "spd" if d.usb => d.usb_speed_mbps = mbps(v),
            "sata" => d.sata_version = given(v),
            "speed" => d.speed_gbps = mbps(v).map(|m| m / 1000.0),
            "lanes" if !usb_field => d.lanes = v.parse().ok().filter(|n| *n > 0 && *n <= 32),
            "health" => d.health = given(v),
            _ => {}
        }
        after_usb = (k == "type" && v == "USB") || usb_field;
    }
    d
}

/// Every drive record of every Drives section in `text`.
pub fn parse(text: &str) -> Vec<InxiDrive> {
    let mut out = Vec::new();
    for s in sections(text) {
        let starts: Vec<(usize, bool, &str)> = RECORD
            .captures_iter(&s)
            .filter_map(|c| {
                let all = c.get(0)?;
                let dev = c.get(2)?.as_str();
                Some((all.start(), c.get(1)?.as_str() == "ID", dev))
            })
            .collect();
        for (i, &(at, is_drive, dev)) in starts.iter().enumerate() {
            let stop = starts.get(i + 1).map_or(s.len(), |n| n.0);
            // "Message: No optical or floppy data found." ends the last record too.
            let body = s.get(at..stop).unwrap_or("");
            let body = body.split(" Message:").next().unwrap_or(body);
            if is_drive && dev.starts_with("/dev/") {
                out.push(record(dev, body));
            }
        }
    }
    out
}

/// The PCIe transfer rate per lane in GT/s an NVMe record's speed stands for: inxi
/// prints one decimal of GT/s x 0.8 (2.5, 5 GT/s) or x 128/130 (8 GT/s and up), times the
/// lanes (drive_speed()).
pub fn nvme_max_gts(speed_gbps: f64, lanes: u32) -> Option<f64> {
    let per_lane = speed_gbps / f64::from(lanes);
    [2.5_f64, 5.0, 8.0, 16.0, 32.0, 64.0]
        .into_iter()
        .find(|&gts| {
            let enc = if gts <= 5.0 { 0.8 } else { 128.0 / 130.0 };
            let printed = (gts * enc * 10.0).round() / 10.0;
            (per_lane - printed).abs() < 0.06
        })
}

// ---- the source spec (see sources::spec) ----

/// The Drives header, with its total or first record on the line or the next.
fn start(lines: &[&str]) -> spec::Start {
    let Some(first) = lines.first() else {
        return spec::Start::No;
    };
    let c = util::clean_line(first);
    let Some(m) = DRIVES.captures(c.trim()) else {
        return spec::Start::No;
    };
    let rest = m.get(1).map_or("", |x| x.as_str()).trim();
    let next = lines
        .get(1)
        .map(|l| util::clean_line(l).trim().to_string())
        .unwrap_or_default();
    spec::Start::from(TOTAL.is_match(rest) || (rest.is_empty() && TOTAL.is_match(&next)))
}

/// A line of the section: a record line or a wrapped piece of one (any text with an
/// inxi key in it, indented or not), or the next inxi section, which the block takes
/// along (Partition, Swap, Sensors, Info of `inxi -Fxz`).
fn member(l: &str, _: &spec::BlockState) -> spec::Member {
    let c = util::clean_line(l);
    let t = c.trim();
    spec::Member::from(
        !t.is_empty()
            && (other_section(t)
                || l.starts_with(' ')
                || l.starts_with('\t')
                || KEY.is_match(t)
                || RECORD.is_match(t)
                || t.contains(": ")),
    )
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "inxi",
    starts: &[(40, start)],
    member,
    tolerance: (0, 0),
    classify: |_, _| "inxi",
    ..spec::Recogniser::NONE
};

/// inxi's Drives section: pasted beside a question, not captured by a probe.
pub const SPEC: spec::SourceSpec = spec::pasted_only!(
    "inxi",
    "inxi",
    None,
    &RECOGNISER,
    parse: |t| parse(t).len(),
    // "serial: X" unless -z filtered it: the record's layout locates it.
    secrets: &[spec::Secret::Scan(|t| {
        parse(t)
            .iter()
            .filter_map(|d| d.serial.as_deref())
            .map(|s| spec::Found::sure(spec::SecretKind::Serial, s))
            .collect()
    })],
);

#[cfg(test)]
mod tests;
