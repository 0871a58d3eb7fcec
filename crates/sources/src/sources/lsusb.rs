//! `lsusb -v` (usbutils): diskdoc reads nothing from it, but people paste it with a USB
//! drive's question, and its device descriptor names the drive's serial number:
//! "iSerial                 3 4C530001234567891234" (the string descriptor's index, then
//! the string; USB 2.0 9.6.1, iSerialNumber). The same serial is the kernel log's
//! "SerialNumber:" (sources::kernel_log) and the tail of the usb- by-id name.
//!
//! `lsusb -t` (the device tree, below) is parsed: which driver each mass-storage
//! interface is bound to and at what link speed it runs.

use crate::sources::spec::{self, Found, SecretKind};

/// The serial of every `iSerial N STRING` line (a 0 index has no string: no serial).
pub fn secrets(text: &str) -> Vec<Found> {
    if !text.contains("iSerial") {
        return Vec::new();
    }
    text.lines()
        .filter_map(|line| {
            let mut w = line.split_whitespace();
            if w.next() != Some("iSerial") {
                return None;
            }
            let index: u8 = w.next()?.parse().ok()?;
            let serial: Vec<&str> = w.collect();
            (index != 0 && !serial.is_empty())
                .then(|| Found::sure(SecretKind::Serial, &serial.join(" ")))
        })
        .collect()
}

/// lsusb -v: no live capture and no parser; its secrets only.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Linux),
    secrets: &[spec::Secret::Scan(secrets)],
    ..spec::SourceSpec::named("lsusb", "lsusb -v")
};

// ---- `lsusb -t`: the USB device tree ----
//
// usbutils lsusb-t.c prints one line per root hub, "/:  Bus 02.Port 1: Dev 1,
// Class=root_hub, Driver=xhci_hcd/4p, 10000M" (usbutils 017 and later pad the numbers to
// three digits, "Bus 001.Port 001: Dev 001", and add the lane count, "20000M/x2"), then one
// line per interface of every device under it, indented four columns per hub level:
// "|__ Port 2: Dev 3, If 0, Class=Mass Storage, Driver=usb-storage, 5000M" (a hub's
// driver carries its port count, "Driver=hub/4p"). The speed is the device's link speed in
// Mbit/s as the kernel's `speed` attribute gives it (1.5, 12, 480, 5000, 10000, 20000).
// With `-v` each line is followed by "ID vvvv:pppp Vendor Product" (the usb.ids names).
// The driver of a mass-storage interface says how the disk is spoken to: "usb-storage" is
// Bulk-Only Transport, "uas" USB Attached SCSI (Linux drivers/usb/storage/).

crate::rx!(
    TREE_ROOT,
    r"^/:\s+Bus (\d+)\.Port (\d+): Dev (\d+), Class=root_hub, Driver=([^,]*), ([\d.]+)M"
);
crate::rx!(
    TREE_DEVICE,
    r"^\|__ Port (\d+): Dev (\d+), If (\d+), Class=([^,]*), Driver=([^,]*), ([\d.]+)M"
);
crate::rx!(TREE_ID, r"^ID ([0-9a-fA-F]{4}:[0-9a-fA-F]{4})\b(.*)$");

// The other tree people paste: usbutils' lsusb.py (and Synology DSM's `lsusb`, which prints
// the same columns with "|__" before each device and the bcdDevice after the ID). One line
// per device: its kernel name ("usb2" for bus 2's root hub, "2-2" or "1-1.4" below it),
// "vvvv:pppp[:bcd]", the class byte, the USB version, the link speed ("5000MBit/s", the
// kernel's `speed` attribute), power and interface count, then "(manufacturer product
// serial)"; with -i (DSM always) one line per interface: "2-2:1.0 (IF) 08:06:50 2EPs (class
// name) usb-storage host17 (sdq)", class:subclass:protocol in hex, the bound driver, and for
// a disk the SCSI host and the block device (lsusb.py's usbinterface.__str__). Class 08 is
// mass storage (USB Mass Storage Class Overview 1.4, table 1); protocol 50 is Bulk-Only
// Transport and 62 UAS (table 2), and the driver name says the same.
crate::rx!(
    PY_DEVICE,
    r"^(?:\|__\s*)?(?:usb(\d+)|(\d+)-([\d.]+))\s+([0-9a-fA-F]{4}:[0-9a-fA-F]{4})(?::[0-9a-fA-F]{4})?\s+[0-9a-fA-F]{2}\s+[\d.]+\s+([\d.]+)MBit/s\s+\d+mA\s+\d+IFs?\s*(?:\((.*)\))?"
);
crate::rx!(
    PY_INTERFACE,
    r"^(\d+)-([\d.]+):\d+\.\d+\s+\(IF\)\s+([0-9a-fA-F]{2}):[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\s+\d+EPs?\s+\([^)]*\)\s*([A-Za-z][\w-]*)?(?:\s+host\d+)?(?:\s+\(([a-z]+)\))?"
);

/// A root hub of the tree: one USB bus of a host controller.
#[derive(Debug, Clone, PartialEq)]
pub struct TreeRoot {
    pub bus: u32,
    pub driver: String,
    pub speed_mbps: f64,
}

/// One interface line of the tree.
#[derive(Debug, Clone, PartialEq)]
pub struct TreeDevice {
    /// None when the paste shows the device's line without its root hub's.
    pub bus: Option<u32>,
    /// The ports from the root hub down ("4-1.3.1" in the kernel's naming, see
    /// [`TreeDevice::usb_name`]).
    pub ports: Vec<u32>,
    pub dev: u32,
    pub class: String,
    /// The driver bound to the interface ("usb-storage", "uas", "hub/4p"); empty when none.
    pub driver: String,
    pub speed_mbps: f64,
    /// The `-v` line under it: "0bda:9210 Realtek Semiconductor Corp. RTL9210 M.2 NVME
    /// Adapter".
    pub id: Option<String>,
    /// The block device the line names (lsusb.py's interface line: "host17 (sdq)").
    pub block: Option<String>,
    /// The line, as evidence.
    pub line: String,
}

impl TreeDevice {
    /// Class 08h, mass storage (usbutils prints the class's name, "Mass Storage").
    pub fn is_storage(&self) -> bool {
        self.class.trim().eq_ignore_ascii_case("Mass Storage")
    }

    /// The kernel's name of the device: bus, then the ports joined with dots ("4-1.3.1",
    /// drivers/usb/core/usb.c usb_alloc_dev), as its log lines name it ("usb 4-1.3.1:");
    /// None without the root hub's line (the bus, and whether the ports are all, unknown).
    pub fn usb_name(&self) -> Option<String> {
        let ports: Vec<String> = self.ports.iter().map(u32::to_string).collect();
        Some(format!("{}-{}", self.bus?, ports.join(".")))
    }

    /// The vendor and product ID of the `-v` line, lower-case hex ("0bda", "9210").
    pub fn vendor_product(&self) -> Option<(String, String)> {
        let id = self.id.as_deref()?.split_whitespace().next()?;
        let (v, p) = id.split_once(':')?;
        Some((v.to_ascii_lowercase(), p.to_ascii_lowercase()))
    }
}

/// The parsed tree: its root hubs and every interface under them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tree {
    pub roots: Vec<TreeRoot>,
    pub devices: Vec<TreeDevice>,
}

impl Tree {
    /// The host controller driver of a device's bus, from its root hub's line ("Driver=
    /// xhci_hcd/1p" -> "xhci_hcd"; the port count after the slash is lsusb-t.c's).
    pub fn host_driver(&self, d: &TreeDevice) -> Option<&str> {
        let root = self.roots.iter().find(|r| Some(r.bus) == d.bus)?;
        let drv = root.driver.split('/').next().unwrap_or("").trim();
        (!drv.is_empty()).then_some(drv)
    }

    /// One entry per mass-storage device (a device's several storage interfaces are one
    /// disk bridge), in the tree's order.
    pub fn storage(&self) -> Vec<&TreeDevice> {
        let mut out: Vec<&TreeDevice> = Vec::new();
        for d in self.devices.iter().filter(|d| d.is_storage()) {
            if !out
                .iter()
                .any(|o| o.bus == d.bus && o.dev == d.dev && o.ports == d.ports)
            {
                out.push(d);
            }
        }
        out
    }
}

/// A tree line without mail quotes, indentation, and with the poster's trailing notes
/// ("<<< the caddy") left in place (the patterns are anchored at the start only).
fn tree_line(raw: &str) -> (usize, String) {
    let l = crate::sources::util::clean_line(raw);
    let indent = l.len() - l.trim_start().len();
    (indent, l.trim().to_string())
}

fn is_tree_line(raw: &str) -> bool {
    let (_, l) = tree_line(raw);
    (l.starts_with("/:") && TREE_ROOT.is_match(&l))
        || (l.starts_with("|__") && TREE_DEVICE.is_match(&l))
        || is_py_line(&l)
}

/// A device or interface line of lsusb.py / DSM `lsusb` (cleaned).
fn is_py_line(l: &str) -> bool {
    (l.contains("MBit/s") && PY_DEVICE.is_match(l))
        || (l.contains("(IF)") && PY_INTERFACE.is_match(l))
}

/// The interfaces of an lsusb.py / DSM `lsusb` tree, each at the link speed of its device's
/// line (the interface line carries none); an interface whose device line is not in the
/// paste is left out. The device number is not printed in this form (0).
fn parse_py(text: &str, tree: &mut Tree) {
    // Device name ("2-2") -> (speed, "vvvv:pppp (manufacturer product)").
    let mut devices: Vec<(String, f64, String)> = Vec::new();
    for raw in text.lines() {
        let (_, l) = tree_line(raw);
        if let Some(c) = PY_DEVICE.captures(&l) {
            let speed = c.get(5).and_then(|m| m.as_str().parse::<f64>().ok());
            let Some(speed) = speed else { continue };
            if let Some(bus) = c.get(1).and_then(|m| m.as_str().parse::<u32>().ok()) {
                tree.roots.push(TreeRoot {
                    bus,
                    driver: String::new(),
                    speed_mbps: speed,
                });
                continue;
            }
            let (Some(bus), Some(ports)) = (c.get(2), c.get(3)) else {
                continue;
            };
            let id = c.get(4).map_or("", |m| m.as_str());
            let desc = c.get(6).map_or("", |m| m.as_str().trim());
            devices.push((
                format!("{}-{}", bus.as_str(), ports.as_str()),
                speed,
                if desc.is_empty() {
                    id.to_string()
                } else {
                    format!("{id} {desc}")
                },
            ));
            continue;
        }
        let Some(c) = PY_INTERFACE.captures(&l) else {
            continue;
        };
        let (Some(bus), Some(ports)) = (c.get(1), c.get(2)) else {
            continue;
        };
        let name = format!("{}-{}", bus.as_str(), ports.as_str());
        let Some((_, speed, id)) = devices.iter().find(|(n, _, _)| *n == name) else {
            continue;
        };
        let Some(ports) = ports
            .as_str()
            .split('.')
            .map(|p| p.parse::<u32>().ok())
            .collect::<Option<Vec<u32>>>()
        else {
            continue;
        };
        let class = c.get(3).map_or("", |m| m.as_str());
        tree.devices.push(TreeDevice {
            bus: bus.as_str().parse().ok(),
            ports,
            dev: 0,
            class: if class == "08" {
                "Mass Storage".to_string()
            } else {
                format!("{class}h")
            },
            driver: c.get(4).map_or("", |m| m.as_str()).to_string(),
            speed_mbps: *speed,
            id: Some(id.clone()),
            block: c.get(5).map(|m| m.as_str().to_string()),
            line: l.clone(),
        });
    }
}

/// Parse `lsusb -t` (or `-tv`) output. Unparsable lines are skipped; numbers that do not
/// parse drop their line.
pub fn parse_tree(text: &str) -> Tree {
    let mut tree = Tree::default();
    let mut bus: Option<u32> = None;
    // (indent of the "|__", port) from the root hub down to the last device line.
    let mut stack: Vec<(usize, u32)> = Vec::new();
    let mut last_was_device = false;
    for raw in text.lines() {
        let (indent, l) = tree_line(raw);
        if let Some(c) = TREE_ROOT.captures(&l) {
            let b = c.get(1).and_then(|m| m.as_str().parse().ok());
            let speed = c.get(5).and_then(|m| m.as_str().parse::<f64>().ok());
            bus = b;
            stack.clear();
            last_was_device = false;
            if let (Some(b), Some(s)) = (b, speed) {
                tree.roots.push(TreeRoot {
                    bus: b,
                    driver: c.get(4).map_or("", |m| m.as_str()).to_string(),
                    speed_mbps: s,
                });
            }
            continue;
        }
        if let Some(c) = TREE_DEVICE.captures(&l) {
            last_was_device = false;
            let port: Option<u32> = c.get(1).and_then(|m| m.as_str().parse().ok());
            let dev: Option<u32> = c.get(2).and_then(|m| m.as_str().parse().ok());
            let speed = c.get(6).and_then(|m| m.as_str().parse::<f64>().ok());
            let (Some(port), Some(dev), Some(speed)) = (port, dev, speed) else {
                continue;
            };
            // A line at the same or a lower indent ends the hubs below it.
            while stack.last().is_some_and(|(i, _)| *i >= indent) {
                stack.pop();
            }
            stack.push((indent, port));
            tree.devices.push(TreeDevice {
                bus,
                ports: stack.iter().map(|(_, p)| *p).collect(),
                dev,
                class: c.get(4).map_or("", |m| m.as_str()).trim().to_string(),
                driver: c.get(5).map_or("", |m| m.as_str()).trim().to_string(),
                speed_mbps: speed,
                id: None,
                block: None,
                line: l.clone(),
            });
            last_was_device = true;
            continue;
        }
        if let Some(c) = TREE_ID.captures(&l) {
            // The -v line names the device of the line above it (root hubs' lines too).
            if last_was_device && let Some(d) = tree.devices.last_mut() {
                let name = c.get(2).map_or("", |m| m.as_str()).trim();
                let id = c.get(1).map_or("", |m| m.as_str());
                d.id = Some(if name.is_empty() {
                    id.to_string()
                } else {
                    format!("{id} {name}")
                });
            }
            last_was_device = false;
        }
    }
    if text.contains("(IF)") {
        parse_py(text, &mut tree);
    }
    tree
}

fn tree_count(text: &str) -> usize {
    let t = parse_tree(text);
    t.roots.len() + t.devices.len()
}

fn tree_member(t: &str, _: &spec::BlockState) -> spec::Member {
    let (_, l) = tree_line(t);
    spec::Member::from(is_tree_line(t) || TREE_ID.is_match(&l))
}

static TREE_RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "lsusb-t",
    starts: &[(67, |l| spec::on_first(l, is_tree_line))],
    member: tree_member,
    tolerance: (1, 0),
    classify: |_, _| "lsusb-t",
    ..spec::Recogniser::NONE
};

/// `lsusb -t` / `lsusb -tv`: pasted, not captured live.
pub const TREE_SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Linux),
    parse: Some(tree_count),
    paste: Some(spec::Paste::new(&TREE_RECOGNISER, |p, a| {
        p == "lsusb"
            && a.split_whitespace()
                .any(|w| w.starts_with('-') && w.contains('t'))
    })),
    programs: &[spec::Program {
        names_device: false,
        ..spec::Program::new("lsusb", |a| a.is_empty() || a.starts_with('-'))
    }],
    mention: Some(r"lsusb\s+-t\w*"),
    ..spec::SourceSpec::named("lsusb-t", "lsusb -t")
};

// ---- `lsusb`: the device list ----
//
// usbutils lsusb.c list_devices prints one line per device, "Bus 002 Device 004: ID
// 152d:0583 JMicron Technology Corp. / JMicron USA Technology Corp. JMS583Gen 2 to PCIe
// Gen3x2 Bridge" (bus and address, vendor:product, then the usb.ids names). The list says
// nothing of interfaces or drivers; a disk shows in it only by its bridge chip, which the
// ID (sources::usb_devices::usb3_bridge_chip) or the usb.ids name ("... SATA 6Gb/s
// bridge", "... NVMe ... Bridge") gives away.

crate::rx!(
    LIST_LINE,
    r"^Bus (\d{3}) Device (\d{3}): ID ([0-9a-fA-F]{4}):([0-9a-fA-F]{4})\s*(.*)$"
);

/// One device of the list.
#[derive(Debug, Clone, PartialEq)]
pub struct ListedDevice {
    pub bus: u32,
    pub dev: u32,
    pub vendor: String,
    pub product: String,
    /// The usb.ids names after the ID.
    pub name: String,
    /// The line, as evidence.
    pub line: String,
}

impl ListedDevice {
    /// A USB-to-SATA/NVMe bridge: a known bridge chip by its ID, or a usb.ids name that
    /// says it bridges to a disk interface ("ASM1051E SATA 6Gb/s bridge", "JMS583Gen 2 to
    /// PCIe Gen3x2 Bridge", "RTL9210 M.2 NVME Adapter").
    pub fn storage_bridge(&self) -> Option<String> {
        if let Some(chip) = super::usb_devices::usb3_bridge_chip(&self.vendor, &self.product) {
            return Some(chip.to_string());
        }
        let n = self.name.to_ascii_lowercase();
        let bus = ["sata", "nvme", "pcie", "ide"].iter().any(|w| {
            n.split(|c: char| !c.is_ascii_alphanumeric())
                .any(|x| x == *w)
        });
        let bridge = ["bridge", "adapter", "adaptor"]
            .iter()
            .any(|w| n.contains(w));
        (bus && bridge).then(|| self.name.clone())
    }
}

fn list_line(raw: &str) -> Option<ListedDevice> {
    let l = crate::sources::util::clean_line(raw);
    let c = LIST_LINE.captures(l.trim())?;
    Some(ListedDevice {
        bus: c.get(1)?.as_str().parse().ok()?,
        dev: c.get(2)?.as_str().parse().ok()?,
        vendor: c.get(3)?.as_str().to_ascii_lowercase(),
        product: c.get(4)?.as_str().to_ascii_lowercase(),
        name: c.get(5).map_or("", |m| m.as_str()).trim().to_string(),
        line: l.trim().to_string(),
    })
}

/// Every device line of a plain `lsusb`.
pub fn parse_list(text: &str) -> Vec<ListedDevice> {
    text.lines().filter_map(list_line).collect()
}

static LIST_RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "lsusb-list",
    starts: &[(67, |l| spec::on_first(l, |t| list_line(t).is_some()))],
    member: |t, _| spec::Member::from(list_line(t).is_some()),
    tolerance: (0, 0),
    classify: |_, _| "lsusb-list",
    ..spec::Recogniser::NONE
};

/// Plain `lsusb`: pasted, not captured live.
pub const LIST_SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Linux),
    parse: Some(|t| parse_list(t).len()),
    paste: Some(spec::Paste::new(&LIST_RECOGNISER, |p, a| {
        p == "lsusb"
            && !a
                .split_whitespace()
                .any(|w| w.starts_with('-') && (w.contains('t') || w.contains('v')))
    })),
    ..spec::SourceSpec::named("lsusb-list", "lsusb")
};

// ---- `lsusb -v`: the descriptor dump ----
//
// usbutils lsusb.c dump_device prints the device descriptor one field a line, indented:
// "Device Descriptor:", "  bcdUSB               3.00", "  idVendor           0x152d
// JMicron Technology Corp. / JMicron USA Technology Corp.", "  idProduct          0x0578
// JMS567 SATA 6Gb/s bridge" (the value, then the usb.ids name), then each configuration's
// interfaces: "bInterfaceClass         8 Mass Storage", "bInterfaceProtocol     80
// Bulk-Only" (USB Mass Storage Class Overview 1.4, table 2: 50h Bulk-Only Transport, 62h
// = 98 UAS, which a UAS bridge offers as an alternate setting beside Bulk-Only). bcdUSB
// is the USB version the device implements (USB 3.2 section 9.6.1).

crate::rx!(
    DESC_LINE,
    r"^(bcdUSB|idVendor|idProduct|bInterfaceClass|bInterfaceProtocol)\s+(\S+)\s*(.*)$"
);

/// One device of an `lsusb -v` dump.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Described {
    /// "3.00".
    pub bcd_usb: Option<String>,
    /// Lower-case hex without "0x": "152d", "0578".
    pub vendor: String,
    pub product: String,
    /// The usb.ids names of vendor and product.
    pub name: String,
    /// Whether an interface is class 8 (mass storage), and whether one offers UAS (98) or
    /// Bulk-Only (80).
    pub storage: bool,
    pub uas: bool,
    pub bot: bool,
    /// The idVendor and idProduct lines, as evidence.
    pub line: String,
}

impl Described {
    /// The disk bridge this device is: a known bridge chip by its ID, or a usb.ids name that
    /// says it bridges to a disk ([`ListedDevice::storage_bridge`]), or any mass-storage
    /// interface that offers UAS (only disk bridges do). Named with its ID, bcdUSB and
    /// transports.
    pub fn storage_bridge(&self) -> Option<String> {
        let listed = ListedDevice {
            bus: 0,
            dev: 0,
            vendor: self.vendor.clone(),
            product: self.product.clone(),
            name: self.name.clone(),
            line: String::new(),
        };
        let bridge = listed.storage_bridge().or_else(|| {
            (self.storage && self.uas).then(|| format!("{} (UAS)", self.name.trim()))
        })?;
        let mut out = format!("{bridge} [{}:{}", self.vendor, self.product);
        if let Some(b) = &self.bcd_usb {
            out.push_str(&format!(", bcdUSB {b}"));
        }
        match (self.uas, self.bot) {
            (true, true) => out.push_str(", UAS and Bulk-Only"),
            (true, false) => out.push_str(", UAS"),
            (false, true) => out.push_str(", Bulk-Only"),
            (false, false) => {}
        }
        out.push(']');
        Some(out)
    }
}

fn desc_fields(raw: &str) -> Option<(String, String, String)> {
    let l = crate::sources::util::clean_line(raw);
    let c = DESC_LINE.captures(l.trim())?;
    Some((
        c.get(1)?.as_str().to_string(),
        c.get(2)?.as_str().to_string(),
        c.get(3).map_or("", |m| m.as_str()).trim().to_string(),
    ))
}

fn hex4(v: &str) -> Option<String> {
    let h = v.strip_prefix("0x")?;
    (h.len() == 4 && h.bytes().all(|b| b.is_ascii_hexdigit())).then(|| h.to_ascii_lowercase())
}

/// Every device of an `lsusb -v` dump that names its vendor and product ("Device
/// Descriptor:" or a new idVendor starts the next).
pub fn parse_described(text: &str) -> Vec<Described> {
    let mut out: Vec<Described> = Vec::new();
    let mut cur: Option<Described> = None;
    for raw in text.lines() {
        if raw.trim() == "Device Descriptor:" {
            out.extend(cur.take());
            continue;
        }
        let Some((key, value, name)) = desc_fields(raw) else {
            continue;
        };
        if key == "idVendor" && cur.as_ref().is_some_and(|c| !c.vendor.is_empty()) {
            out.extend(cur.take());
        }
        let d = cur.get_or_insert_with(Described::default);
        match key.as_str() {
            "bcdUSB" => d.bcd_usb = Some(value),
            "idVendor" | "idProduct" => {
                let Some(h) = hex4(&value) else { continue };
                if key == "idVendor" {
                    d.vendor = h;
                } else {
                    d.product = h;
                }
                if !name.is_empty() {
                    d.name = format!("{} {name}", d.name).trim().to_string();
                }
                let line = crate::sources::util::clean_line(raw).trim().to_string();
                d.line = format!("{} {line}", d.line).trim().to_string();
            }
            "bInterfaceClass" => d.storage |= value == "8",
            _ => match value.as_str() {
                "80" => d.bot = true,
                "98" => d.uas = true,
                _ => {}
            },
        }
    }
    out.extend(cur);
    out.retain(|d| !d.vendor.is_empty() && !d.product.is_empty());
    out
}

fn desc_start(lines: &[&str]) -> spec::Start {
    let Some(first) = lines.first() else {
        return spec::Start::No;
    };
    let head = first.trim() == "Device Descriptor:"
        || desc_fields(first).is_some_and(|(k, v, _)| k == "idVendor" && hex4(&v).is_some());
    // The product's ID within a few lines of the descriptor's start.
    let product = lines
        .iter()
        .take(12)
        .any(|l| desc_fields(l).is_some_and(|(k, v, _)| k == "idProduct" && hex4(&v).is_some()));
    // The Binary Object Store part alone (lsusb.c dump_bos_descriptor and
    // dump_ss_device_capability_desc, USB 3.2 table 9-14): "SuperSpeed USB Device
    // Capability:" with its "wSpeedsSupported 0x000e" under it, the speeds a USB 3 device
    // can run at, pasted to show a bridge is a SuperSpeed one.
    let bos = matches!(
        first.trim(),
        "SuperSpeed USB Device Capability:" | "Binary Object Store Descriptor:"
    ) && lines.iter().take(8).any(|l| {
        let t = l.trim_start();
        t.starts_with("wSpeedsSupported ") || t.starts_with("bNumDeviceCaps ")
    });
    spec::Start::from((head && product) || bos)
}

/// A line of the dump: a descriptor's header ("Interface Descriptor:") or an indented
/// "bField value" line.
fn desc_member(t: &str, _: &spec::BlockState) -> spec::Member {
    let l = crate::sources::util::clean_line(t);
    let l = l.trim();
    let word = l.split_whitespace().next().unwrap_or("");
    let field = word.len() > 2
        && ["b", "w", "i", "id"].iter().any(|p| {
            word.strip_prefix(p)
                .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_uppercase()))
        });
    // The BOS capabilities' own lines (lsusb.c dump_ss_device_capability_desc): "Device
    // can operate at SuperSpeed (5Gbps)", "Lowest fully-functional device speed is Full
    // Speed (12Mbps)", and each capability's header ("SuperSpeed USB Device Capability:").
    let bos = l.starts_with("Device can operate at ")
        || l.starts_with("Lowest fully-functional device speed is ")
        || (l.ends_with(" Capability:") && l.len() < 60);
    spec::Member::from(
        field
            || bos
            || (l.ends_with("Descriptor:") && !l.contains(' '))
            || l.ends_with(" Descriptor:"),
    )
}

static DESC_RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "lsusb-v",
    starts: &[(67, desc_start)],
    member: desc_member,
    tolerance: (1, 1),
    classify: |_, _| "lsusb-v",
    ..spec::Recogniser::NONE
};

/// `lsusb -v`: pasted, not captured live; its bridge and its serials.
pub const DESC_SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Linux),
    parse: Some(|t| parse_described(t).len()),
    secrets: &[spec::Secret::Scan(secrets)],
    paste: Some(spec::Paste::new(&DESC_RECOGNISER, |p, a| {
        p == "lsusb"
            && a.split_whitespace()
                .any(|w| w.starts_with('-') && w.contains('v') && !w.contains('t'))
    })),
    ..spec::SourceSpec::named("lsusb-v", "lsusb -v")
};

#[cfg(test)]
mod tests;
