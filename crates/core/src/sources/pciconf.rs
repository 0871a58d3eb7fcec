//! `pciconf -lv` (pciconf(8)): one "driverN@pciD:B:S:F: class=0x010601 ... chip=0x..." line
//! per PCI function, followed by indented "vendor = '...'", "device = '...'", "class = ...",
//! "subclass = ..." lines. The class code tells the storage controller's programming
//! interface (PCI Code and ID Assignment spec: 0x0101xx IDE, 0x010601 AHCI, 0x0104xx RAID,
//! 0x0107xx SAS, 0x010802 NVMe).

use super::geom_util::{hex_u32, unquote};

#[derive(Debug, Clone, PartialEq, Default)]
pub struct PciDevice {
    /// Driver instance ("ahci0", "atapci0", "none3").
    pub name: String,
    /// "pci0:0:31:2".
    pub selector: String,
    /// 24-bit class code.
    pub class: Option<u32>,
    /// "vendor:device" hex ids from chip=0xDDDDVVVV.
    pub pci_id: Option<String>,
    pub vendor: Option<String>,
    pub device: Option<String>,
    pub class_name: Option<String>,
    pub subclass: Option<String>,
}

impl PciDevice {
    /// Mass storage (base class 0x01).
    pub fn is_storage(&self) -> bool {
        self.class.is_some_and(|c| c >> 16 == 0x01)
    }
}

pub fn parse(text: &str) -> Vec<PciDevice> {
    let mut out: Vec<PciDevice> = Vec::new();
    for raw in text.lines() {
        let line = unquote(raw);
        if let Some((head, rest)) = line.split_once('@')
            && !head.contains(char::is_whitespace)
            && rest.starts_with("pci")
        {
            let (sel, attrs) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
            let mut d = PciDevice {
                name: head.to_string(),
                selector: sel.trim_end_matches(':').to_string(),
                ..Default::default()
            };
            for a in attrs.split_whitespace() {
                if let Some(v) = a.strip_prefix("class=") {
                    d.class = hex_u32(v);
                } else if let Some(v) = a.strip_prefix("chip=") {
                    // chip=0xDDDDVVVV: device id high, vendor id low.
                    if let Some(c) = hex_u32(v) {
                        d.pci_id = Some(format!("{:04x}:{:04x}", c & 0xffff, c >> 16));
                    }
                }
            }
            out.push(d);
            continue;
        }
        let Some(d) = out.last_mut() else { continue };
        let Some((k, v)) = line.split_once('=') else {
            continue;
        };
        let v = v.trim().trim_matches('\'').trim().to_string();
        match k.trim() {
            "vendor" => d.vendor = Some(v),
            "device" => d.device = Some(v),
            "class" => d.class_name = Some(v),
            "subclass" => d.subclass = Some(v),
            _ => {}
        }
    }
    out
}
