//! The kernel's USB device list: `/proc/bus/usb/devices` (usbfs, Linux 2.4 and 2.6) and its
//! successor `/sys/kernel/debug/usb/devices` (debugfs). Format: Linux
//! Documentation/usb/proc_usb_info.txt (now Documentation/driver-api/usb/usb.rst, "/proc/
//! bus/usb/devices output format"): one block per device, a "T:" topology line with the bus
//! speed ("T:  Bus=04 Lev=01 Prnt=01 Port=00 Cnt=01 Dev#=  2 Spd=12  MxCh= 0", Spd in Mbit/s:
//! 1.5 low, 12 full, 480 high, 5000 and up SuperSpeed), "P:" with the ids, "S:" strings and
//! one "I:" line per interface with its class and the driver bound to it ("I:  If#= 0 Alt= 0
//! #EPs= 2 Cls=08(stor.) Sub=06 Prot=50 Driver=usb-storage"; newer kernels print "If#=0x0"
//! and mark the active setting "I:*"). Class 08h is mass storage (USB Class Codes), Prot 50h
//! Bulk-Only Transport and 62h UAS. This is the link speed `lsusb -t` prints per device
//! ("12M", "480M", "5000M"), and the driver it prints ("Driver=usb-storage").

use crate::sources::spec;

/// One mass-storage interface of a device in the list.
#[derive(Debug, Clone, PartialEq)]
pub struct UsbStorage {
    /// "Bus=04" and "Dev#=  2": the device's bus and address.
    pub bus: u32,
    pub dev: u32,
    /// The link speed in Mbit/s ("Spd=12"; 1.5 for a low-speed device).
    pub speed_mbps: f64,
    /// The USB version the device claims ("D:  Ver= 1.10").
    pub usb_version: Option<String>,
    /// The driver bound to the storage interface ("usb-storage", "uas"); None when the
    /// list shows "(none)".
    pub driver: Option<String>,
    /// "S:  Product=MEGA Player 5511".
    pub product: Option<String>,
    /// The "T:" line, as evidence.
    pub line: String,
}

/// The value of `key` ("Spd=") among a line's fields; the list pads numbers with spaces
/// ("Dev#=  2").
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let at = line.find(key)?;
    line.get(at + key.len()..)?.split_whitespace().next()
}

/// A number the list prints in decimal or, in newer kernels, hex ("If#=0x0").
fn number(s: &str) -> Option<u32> {
    match s.strip_prefix("0x") {
        Some(h) => u32::from_str_radix(h, 16).ok(),
        None => s.parse().ok(),
    }
}

/// The line without mail quotes and indentation: its tag ("T:") first.
fn tagged(raw: &str) -> &str {
    raw.trim_start().trim_start_matches('>').trim_start()
}

fn is_topology(l: &str) -> bool {
    l.starts_with("T:") && l.contains("Bus=") && l.contains("Spd=")
}

/// Every device with a mass-storage interface (class 08), with its bus speed.
pub fn parse(text: &str) -> Vec<UsbStorage> {
    let mut out: Vec<UsbStorage> = Vec::new();
    let mut cur: Option<UsbStorage> = None;
    let mut storage = false;
    let mut flush = |cur: &mut Option<UsbStorage>, storage: &mut bool| {
        if let Some(d) = cur.take()
            && *storage
        {
            out.push(d);
        }
        *storage = false;
    };
    for raw in text.lines() {
        let l = tagged(raw);
        if is_topology(l) {
            flush(&mut cur, &mut storage);
            let speed = field(l, "Spd=").and_then(|s| s.parse::<f64>().ok());
            let bus = field(l, "Bus=").and_then(number);
            let dev = field(l, "Dev#=").and_then(number);
            if let (Some(speed_mbps), Some(bus), Some(dev)) = (speed, bus, dev) {
                cur = Some(UsbStorage {
                    bus,
                    dev,
                    speed_mbps,
                    usb_version: None,
                    driver: None,
                    product: None,
                    line: l.to_string(),
                });
            }
            continue;
        }
        let Some(d) = cur.as_mut() else {
            continue;
        };
        if l.starts_with("D:") {
            d.usb_version = field(l, "Ver=").map(str::to_string);
        } else if let Some(p) = l.strip_prefix("S:").map(str::trim_start) {
            if let Some(name) = p.strip_prefix("Product=") {
                d.product = Some(name.trim().to_string());
            }
        } else if l.starts_with("I:") && field(l, "Cls=").is_some_and(|c| c.starts_with("08")) {
            storage = true;
            let drv = field(l, "Driver=").filter(|v| *v != "(none)");
            if d.driver.is_none() {
                d.driver = drv.map(str::to_string);
            }
        }
    }
    flush(&mut cur, &mut storage);
    out
}

/// The speed's name in the USB specifications (USB 2.0 section 4.2.1, USB 3.2 section 3).
pub fn speed_name(mbps: f64) -> &'static str {
    if mbps <= 1.5 {
        "low speed"
    } else if mbps <= 12.0 {
        "full speed"
    } else if mbps <= 480.0 {
        "high speed"
    } else if mbps <= 5000.0 {
        "SuperSpeed"
    } else {
        "SuperSpeed+"
    }
}

/// USB bridge chips that are USB 3 devices, by the vendor:product ID they answer with unless
/// the enclosure maker reprograms it (names as the usb.ids database and the makers' data
/// sheets give them): Realtek RTL9210/RTL9210B (0bda:9210, USB 3.2 Gen 2 to NVMe/SATA),
/// ASMedia ASM2362 (174c:2362, USB 3.2 Gen 2 to NVMe) and ASM1051E/ASM1053E/ASM1153E
/// (174c:55aa, USB 3.0 to SATA), JMicron JMS583 (152d:0583, USB 3.1 Gen 2 to NVMe) and
/// JMS578 (152d:0578, USB 3.1 Gen 1 to SATA). A USB-NVMe bridge in particular is never a
/// USB 2 device. Returns a description naming the chip and its USB generation.
pub fn usb3_bridge_chip(vendor: &str, product: &str) -> Option<&'static str> {
    const CHIPS: [(&str, &str, &str); 5] = [
        ("0bda", "9210", "Realtek RTL9210 bridge (USB 3.2 Gen 2)"),
        ("174c", "2362", "ASMedia ASM2362 bridge (USB 3.2 Gen 2)"),
        ("174c", "55aa", "ASMedia ASM1051E/ASM1153E bridge (USB 3.0)"),
        ("152d", "0583", "JMicron JMS583 bridge (USB 3.1 Gen 2)"),
        ("152d", "0578", "JMicron JMS578 bridge (USB 3.1 Gen 1)"),
    ];
    CHIPS
        .iter()
        .find(|(v, p, _)| v.eq_ignore_ascii_case(vendor) && p.eq_ignore_ascii_case(product))
        .map(|(_, _, name)| *name)
}

/// USB bridge chips made for M.2 enclosures, by the vendor:product ID they answer with
/// (the same makers' data sheets as [`usb3_bridge_chip`]): ASMedia ASM2362 (174c:2362) and
/// JMicron JMS583 (152d:0583) bridge USB to a PCIe (NVMe) M.2 slot, Realtek RTL9210
/// (0bda:9210) to an M.2 slot that takes an NVMe or a SATA module. Every M.2 storage module
/// is flash (the M.2 form factor, PCI-SIG M.2 specification, has no room for platters), so
/// the disk behind such a bridge is an SSD whatever the USB side reports (usb-storage
/// marks every disk rotational).
pub fn m2_bridge_chip(vendor: &str, product: &str) -> bool {
    const CHIPS: [(&str, &str); 3] = [("0bda", "9210"), ("174c", "2362"), ("152d", "0583")];
    CHIPS
        .iter()
        .any(|(v, p)| v.eq_ignore_ascii_case(vendor) && p.eq_ignore_ascii_case(product))
}

/// Whether a product or attach string names a USB 3 generation: "DataTraveler 3.0",
/// "USB3.0 CRW", "USB 3.1 Flash", "Ultra USB 3.0". Vendors print the generation a device
/// supports in its product string; the USB descriptor itself cannot say it once the device
/// runs at high speed, where a USB 3 device reports bcdUSB 2.10 like a USB 2 one with LPM
/// (USB 3.2 section 9.6.1). Version fields ("rev 2.10/3.00", firmware "3.00") do not count:
/// only a bare "3", "3.0", "3.1" or "3.2" after "USB", or a bare "3.0"-"3.2" word.
pub fn names_usb3(s: &str) -> bool {
    const GENS: [&str; 3] = ["3.0", "3.1", "3.2"];
    let words: Vec<String> = s
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '.'))
        .filter(|w| !w.is_empty())
        .map(|w| w.trim_end_matches('.').to_ascii_lowercase())
        .collect();
    words.iter().enumerate().any(|(i, w)| {
        let after_usb = i > 0 && words.get(i - 1).is_some_and(|p| p == "usb");
        match w.strip_prefix("usb") {
            Some(rest) => rest == "3" || GENS.contains(&rest),
            None => GENS.contains(&w.as_str()) || (after_usb && w == "3"),
        }
    })
}

// ---- the source spec (see sources::spec) ----

fn start(lines: &[&str]) -> spec::Start {
    let Some(first) = lines.first() else {
        return spec::Start::No;
    };
    let l = tagged(first);
    // A "T:" line followed within a few lines by the same device's "D:" or "P:" line.
    let follows = lines
        .iter()
        .skip(1)
        .take(3)
        .any(|n| tagged(n).starts_with("D:  Ver=") || tagged(n).starts_with("P:  Vendor="));
    spec::Start::from(is_topology(l) && follows)
}

fn member(t: &str, _: &spec::BlockState) -> spec::Member {
    let l = tagged(t);
    let tag = l.get(..2).unwrap_or("");
    spec::Member::from(
        ["T:", "B:", "D:", "P:", "S:", "C:", "I:", "E:"].contains(&tag) && l.contains('='),
    )
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "usb-devices",
    starts: &[(66, start)],
    member,
    tolerance: (1, 1),
    classify: |_, _| "usb-devices",
    ..spec::Recogniser::NONE
};

/// /proc/bus/usb/devices (or /sys/kernel/debug/usb/devices): pasted, not captured live.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Linux),
    parse: Some(|t| parse(t).len()),
    secrets: &[spec::Secret::After(
        "serialnumber=",
        spec::SecretKind::Serial,
    )],
    paste: Some(spec::Paste::new(&RECOGNISER, |p, a| {
        p == "cat" && a.contains("usb/devices")
    })),
    ..spec::SourceSpec::named("usb-devices", "/proc/bus/usb/devices")
};

#[cfg(test)]
mod tests;
