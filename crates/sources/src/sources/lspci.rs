//! `lspci -vv` (pciutils lspci(8)): one block per PCI function, opened by an unindented
//! "BB:DD.F Class: Name" (or "DDDD:BB:DD.F ...") line. In its PCI Express capability the
//! "LnkCap:" line carries the port's Max Link Speed and Maximum Link Width (PCIe Base spec
//! 7.5.3.6 Link Capabilities Register) and "LnkSta:" the Current Link Speed and Negotiated
//! Link Width (7.5.3.8 Link Status Register); lspci appends "(downgraded)" when the status is
//! below the capability. "LnkCap2:"/"LnkSta2:" are other registers and are not read here.
//!
//! Also the sysfs spelling of the same registers (Documentation/ABI/testing/sysfs-bus-pci:
//! current_link_speed "8.0 GT/s PCIe", older kernels "8 GT/s", "Unknown" when not trained).
//! Pastes arrive mail-quoted ("> \t\tLnkSta: ...") and cut: a link line before any device
//! line belongs to an unnamed device.

use crate::sources::util::{clean_line, leading_f64, leading_u64};

/// One PCI function of the listing.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LspciDevice {
    /// "01:00.0" or "0000:01:00.0"; empty when the paste starts inside a block.
    pub address: String,
    /// "Non-Volatile memory controller: Toshiba Corporation XG6 NVMe SSD Controller".
    pub description: String,
    pub cap_gts: Option<f64>,
    pub cap_width: Option<u32>,
    pub sta_gts: Option<f64>,
    pub sta_width: Option<u32>,
    /// lspci marked the status "(downgraded)" (speed or width).
    pub downgraded: bool,
    /// Which field carried the mark: pciutils ls-caps.c marks the speed and the width each
    /// against the same field of the function's own LnkCap (link_compare), so an unmarked
    /// field of a marked line is at the capability.
    pub speed_downgraded: bool,
    pub width_downgraded: bool,
    /// "Kernel driver in use: ata_piix" (`lspci -k`, `-vv` as root).
    pub driver: Option<String>,
    /// A bridge's (root or switch port's) "Bus: primary=00, secondary=01, subordinate=01"
    /// line: the bus numbers behind it, secondary to subordinate (PCI-to-PCI Bridge spec
    /// 3.2.5.3-3.2.5.5, the Type 1 header's bus number registers).
    pub buses_behind: Option<(u32, u32)>,
}

impl LspciDevice {
    /// Whether the description names a mass-storage class (PCI base class 01h as lspci
    /// names its subclasses).
    pub fn is_storage(&self) -> bool {
        const NAMES: &[&str] = &[
            "Non-Volatile memory controller",
            "SATA controller",
            "RAID bus controller",
            "SCSI storage controller",
            "Serial Attached SCSI controller",
            "Mass storage controller",
            "IDE interface",
        ];
        NAMES.iter().any(|n| self.description.starts_with(n))
    }
    /// A SATA controller the firmware presents in legacy IDE mode: the class lspci names
    /// "IDE interface" (PCI class 0101h, the PCI Code and ID Assignment spec's IDE
    /// controller) on a function whose name says SATA, or pci.ids' own "[IDE mode]" name of
    /// such a function (Intel's "SATA Controller [IDE mode]", AMD's "SATA Controller [IDE
    /// mode]"). Linux's ahci driver takes some of these over in AHCI fashion anyway (AMD
    /// SB600-SB900 in IDE class, drivers/ata/ahci.c; it then logs "impl IDE mode"), so a
    /// function whose driver in use is ahci is not in legacy mode.
    pub fn sata_in_ide_mode(&self) -> bool {
        let d = &self.description;
        let ide_class = d.starts_with("IDE interface");
        (ide_class && d.contains("SATA") || d.contains("[IDE mode]"))
            && self.driver.as_deref() != Some("ahci")
    }
    pub fn has_link(&self) -> bool {
        self.cap_gts.is_some() || self.sta_gts.is_some()
    }
}

/// "01:00.0", "0000:01:00.0", "0001:01:00.0" at the start of an unindented line; the
/// domain is printed with at least four hex digits (pciutils "%04x"), and Intel VMD puts
/// the devices behind it in domains from 10000 up (Linux drivers/pci/controller/vmd.c
/// vmd_find_free_domain), so "10000:e1:00.0" is an address too.
fn address_of(line: &str) -> Option<&str> {
    let first = line.split_whitespace().next()?;
    let parts: Vec<&str> = first.split(':').collect();
    let ok_hex = |s: &str, n: usize| s.len() == n && s.chars().all(|c| c.is_ascii_hexdigit());
    let ok_domain =
        |s: &str| (4..=8).contains(&s.len()) && s.chars().all(|c| c.is_ascii_hexdigit());
    let (bus, devfn) = match parts.as_slice() {
        [bus, devfn] => (*bus, *devfn),
        [dom, bus, devfn] if ok_domain(dom) => (*bus, *devfn),
        _ => return None,
    };
    let (dev, func) = devfn.split_once('.')?;
    (ok_hex(bus, 2) && ok_hex(dev, 2) && func.len() == 1 && func.chars().all(|c| c.is_digit(8)))
        .then_some(first)
}

/// A PCIe speed as lspci ("8GT/s", "2.5GT/s") or sysfs ("8.0 GT/s PCIe", "5 GT/s") print
/// it, in GT/s. "unknown"/"Unknown" and anything else is None.
pub fn parse_gts(s: &str) -> Option<f64> {
    let t = s.trim();
    let pos = t.find("GT/s")?;
    let v = leading_f64(t.get(..pos)?.trim())?;
    (v > 0.0 && v <= 256.0).then_some(v)
}

/// One link line's fields: "Speed 8GT/s (downgraded), Width x2 (downgraded)".
struct LinkFields {
    speed: Option<f64>,
    width: Option<u32>,
    speed_down: bool,
    width_down: bool,
}

fn link_fields(rest: &str) -> LinkFields {
    let mut f = LinkFields {
        speed: None,
        width: None,
        speed_down: false,
        width_down: false,
    };
    for part in rest.split(',') {
        let p = part.trim();
        if let Some(v) = p.strip_prefix("Speed ") {
            f.speed = parse_gts(v);
            f.speed_down = v.contains("(downgraded)");
        } else if let Some(v) = p.strip_prefix("Width x") {
            f.width = leading_u64(v)
                .and_then(|w| u32::try_from(w).ok())
                .filter(|w| (1..=32).contains(w));
            f.width_down = v.contains("(downgraded)");
        }
    }
    f
}

/// Every PCI function in the text (those without a link too).
pub fn parse(text: &str) -> Vec<LspciDevice> {
    let mut out: Vec<LspciDevice> = Vec::new();
    for raw in text.lines() {
        // Indentation tells a device line from its attributes; keep it before cleaning
        // (clean_line strips mail quotes but not leading tabs of the attribute lines).
        let line = clean_line(raw);
        let indented = line.starts_with([' ', '\t']);
        let t = line.trim();
        if !indented && let Some(a) = address_of(t) {
            out.push(LspciDevice {
                address: a.to_string(),
                description: t.get(a.len()..).unwrap_or("").trim().to_string(),
                ..Default::default()
            });
            continue;
        }
        if let Some(r) = t.strip_prefix("Bus: primary=") {
            if let Some(d) = out.last_mut() {
                d.buses_behind = bus_range(r);
            }
            continue;
        }
        if let Some(drv) = t.strip_prefix("Kernel driver in use:") {
            if let Some(d) = out.last_mut() {
                d.driver = drv.split_whitespace().next().map(str::to_string);
            }
            continue;
        }
        let (is_cap, rest) = if let Some(r) = t.strip_prefix("LnkCap:") {
            (true, r)
        } else if let Some(r) = t.strip_prefix("LnkSta:") {
            (false, r)
        } else {
            continue;
        };
        if out.is_empty() {
            out.push(LspciDevice::default());
        }
        let Some(d) = out.last_mut() else { continue };
        let f = link_fields(rest);
        if is_cap {
            d.cap_gts = f.speed;
            d.cap_width = f.width;
        } else {
            d.sta_gts = f.speed;
            d.sta_width = f.width;
            d.downgraded = f.speed_down || f.width_down;
            d.speed_downgraded = f.speed_down;
            d.width_downgraded = f.width_down;
        }
    }
    out
}

/// "00, secondary=01, subordinate=01, sec-latency=0" (hex bus numbers) as (secondary,
/// subordinate).
fn bus_range(rest: &str) -> Option<(u32, u32)> {
    let field = |name: &str| {
        rest.split(',')
            .find_map(|p| p.trim().strip_prefix(name))
            .and_then(|v| u32::from_str_radix(v.trim(), 16).ok())
    };
    let (sec, sub) = (field("secondary=")?, field("subordinate=")?);
    (sec <= sub && sub <= 0xff).then_some((sec, sub))
}

/// The domain and bus of an address ("0001:01:00.0" is (1, 1); "01:00.0" is (0, 1)).
fn domain_bus(address: &str) -> Option<(u32, u32)> {
    let parts: Vec<&str> = address.split(':').collect();
    let (dom, bus) = match parts.as_slice() {
        [bus, _] => ("0", *bus),
        [dom, bus, _] => (*dom, *bus),
        _ => return None,
    };
    Some((
        u32::from_str_radix(dom, 16).ok()?,
        u32::from_str_radix(bus, 16).ok()?,
    ))
}

/// The port directly above `dev` in the same listing: the bridge with a PCI Express link
/// whose bus range (its "Bus:" line) holds `dev`'s bus in the same domain, the nearest such
/// (the highest secondary bus: a switch's downstream port lies inside its upstream port's
/// range and the root port's). Its LnkCap is what the link above `dev` can do; lspci prints
/// the bridges with the devices in `lspci -vv`, and a `-s` selection or an excerpt leaves
/// them out (None).
pub fn port_above<'a>(devs: &'a [LspciDevice], dev: &LspciDevice) -> Option<&'a LspciDevice> {
    let (dom, bus) = domain_bus(&dev.address)?;
    devs.iter()
        .filter(|p| p.address != dev.address && p.cap_gts.is_some())
        .filter(|p| {
            p.buses_behind
                .is_some_and(|(sec, sub)| sec <= bus && bus <= sub)
                && domain_bus(&p.address).is_some_and(|(d, _)| d == dom)
        })
        .max_by_key(|p| p.buses_behind.map_or(0, |(sec, _)| sec))
}

/// The device's link as the model holds it: lspci shows one function's own capability and
/// status, so this is hop 0 with no port above it.
///
/// With the LnkCap line cut from the paste, a LnkSta line that marks one field "(downgraded)"
/// and not the other still tells the unmarked field's capability: lspci compares each field
/// with the same field of LnkCap and marks it only when it is below (pciutils ls-caps.c
/// link_compare), so the unmarked one is at the capability.
pub fn link(d: &LspciDevice) -> crate::model::PcieLink {
    let one_marked = d.speed_downgraded != d.width_downgraded;
    crate::model::PcieLink {
        address: d.address.clone(),
        hop: 0,
        current_gts: d.sta_gts,
        max_gts: d
            .cap_gts
            .or(d.sta_gts.filter(|_| one_marked && !d.speed_downgraded)),
        current_width: d.sta_width,
        max_width: d
            .cap_width
            .or(d.sta_width.filter(|_| one_marked && !d.width_downgraded)),
        marked_downgraded: d.downgraded,
    }
}

/// Whether the text looks like `lspci -vv` output (for `explain`).
pub fn recognize(text: &str) -> bool {
    text.lines().any(|l| {
        let t = clean_line(l);
        let t = t.trim();
        t.starts_with("LnkSta:") || t.starts_with("LnkCap:")
    })
}

#[cfg(test)]
mod tests;
