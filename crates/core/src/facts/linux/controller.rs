//! Controller, transport, device class and the libata view of a disk, from its resolved
//! sysfs path: PCI class codes (PCI Code and ID Assignment spec: 0x0101xx IDE, 0x010601
//! AHCI, 0x0104xx RAID, 0x0107xx SAS, 0x010802 NVMe, 0x0c03xx USB), the bound `driver`,
//! libata's /sys/class/ata_link and ata_device (sysfs-class-ata-*), USB uas/usb-storage.

use crate::evidence::EvidenceBundle;
use crate::facts::linux::paths::{SysPathPart, split_sys_path};
use crate::facts::linux::sysfs::{basename, fkey, realpath, text, why};
use crate::facts::{Controller, ControllerMode, Fact, Transport};
use crate::sources::ata_identify::{self, AtaIdentify};

/// What the resolved /sys/block/X path says about where the disk hangs.
#[derive(Debug, Clone, Default)]
pub struct Walk {
    pub real: Option<String>,
    /// Deepest PCI function directory (the controller, not the bridges above it).
    pub pci_dir: Option<String>,
    pub pci_addr: Option<String>,
    pub ata_port: Option<String>,
    pub scsi_host: Option<String>,
    pub scsi_target: Option<String>,
    pub usb_iface_dir: Option<String>,
    pub usb_device_dir: Option<String>,
    pub virtio_dir: Option<String>,
    /// A SAS topology (end_device-*, port-*) is in the path.
    pub sas: bool,
    pub nvme: bool,
    pub mmc: bool,
    pub key: Option<String>,
}

pub fn walk(b: &EvidenceBundle, name: &str) -> Walk {
    let link = format!("/sys/block/{name}");
    let mut w = Walk::default();
    let Some(real) = realpath(b, &link) else {
        return w;
    };
    w.real = Some(real.to_string());
    w.key = Some(format!("realpath:{link}"));
    for (dir, part) in split_sys_path(real) {
        match part {
            SysPathPart::Pci(a) => {
                w.pci_dir = Some(dir);
                w.pci_addr = Some(a);
            }
            SysPathPart::AtaPort(n) => w.ata_port = Some(n),
            SysPathPart::ScsiHost(n) => w.scsi_host = Some(n),
            SysPathPart::ScsiDevice { target, .. } => w.scsi_target = Some(target),
            SysPathPart::UsbInterface(_) => w.usb_iface_dir = Some(dir),
            SysPathPart::UsbDevice(_) => w.usb_device_dir = Some(dir),
            SysPathPart::Virtio(_) => w.virtio_dir = Some(dir),
            SysPathPart::Other(c) => {
                if c.starts_with("end_device-") || c.starts_with("expander-") {
                    w.sas = true;
                }
                if c == "nvme" || c.starts_with("nvme-subsys") {
                    w.nvme = true;
                }
                if c.starts_with("mmc") {
                    w.mmc = true;
                }
            }
        }
    }
    w
}

/// The raw IDENTIFY words of the libata device behind this disk, decoded, with their key.
pub fn identify(b: &EvidenceBundle, w: &Walk) -> Option<(AtaIdentify, String)> {
    let port = w.ata_port.as_ref()?;
    let mut candidates = Vec::new();
    if let Some(t) = &w.scsi_target {
        candidates.push(format!("/sys/class/ata_device/dev{port}.{t}/id"));
    }
    // Otherwise the only captured device on that port.
    let prefix = format!("file:/sys/class/ata_device/dev{port}.");
    let on_port: Vec<&String> = b
        .captures
        .keys()
        .filter(|k| k.starts_with(&prefix) && k.ends_with("/id"))
        .collect();
    if on_port.len() == 1
        && let Some(k) = on_port.first().and_then(|k| k.strip_prefix("file:"))
    {
        candidates.push(k.to_string());
    }
    candidates.into_iter().find_map(|p| {
        let t = text(b, &p)?;
        Some((ata_identify::parse_sysfs_id(t)?, fkey(&p)))
    })
}

/// Why IDENTIFY words are not available for a disk (for unknown reasons).
pub(crate) fn identify_why(b: &EvidenceBundle, w: &Walk) -> String {
    match (&w.ata_port, &w.scsi_target) {
        (None, _) => "not an ATA device (no libata port in its sysfs path)".to_string(),
        (Some(p), Some(t)) => {
            let path = format!("/sys/class/ata_device/dev{p}.{t}/id");
            match text(b, &path) {
                Some(_) => format!("{path} does not hold 256 IDENTIFY words"),
                None => format!("{path}: {}", why(b, &path)),
            }
        }
        (Some(p), None) => format!("no ata_device found for ata port {p}"),
    }
}

/// Map a PCI class code (24 bits) to a controller mode.
fn mode_from_class(class: u32) -> Option<ControllerMode> {
    match class >> 8 {
        0x0101 => Some(ControllerMode::LegacyIde),
        0x0106 if class == 0x010601 => Some(ControllerMode::Ahci),
        0x0104 => Some(ControllerMode::Raid),
        0x0107 => Some(ControllerMode::SasHba),
        0x0108 if class == 0x010802 => Some(ControllerMode::Nvme),
        0x0c03 => Some(ControllerMode::Usb),
        _ => None,
    }
}

/// Map a Linux driver name to a controller mode.
fn mode_from_driver(d: &str) -> Option<ControllerMode> {
    Some(match d {
        "ahci" => ControllerMode::Ahci,
        "ata_piix" | "ata_generic" => ControllerMode::LegacyIde,
        d if d.starts_with("pata_") => ControllerMode::LegacyIde,
        "nvme" => ControllerMode::Nvme,
        "megaraid_sas" | "hpsa" | "aacraid" | "smartpqi" | "3w-9xxx" | "arcmsr" => {
            ControllerMode::Raid
        }
        "mpt3sas" | "mpt2sas" | "mptsas" | "isci" | "pm80xx" => ControllerMode::SasHba,
        "virtio_blk" | "virtio_scsi" | "virtio-pci" => ControllerMode::Virtio,
        "xhci_hcd" | "ehci-pci" | "uhci_hcd" | "ohci-pci" => ControllerMode::Usb,
        _ => return None,
    })
}

fn hex_u32(s: &str) -> Option<u32> {
    let t = s.trim();
    u32::from_str_radix(t.strip_prefix("0x").unwrap_or(t), 16).ok()
}

/// The controller a disk hangs off.
pub fn controller(b: &EvidenceBundle, name: &str, w: &Walk) -> Fact<Controller> {
    if name.starts_with("loop")
        || name.starts_with("zram")
        || name.starts_with("ram")
        || name.starts_with("dm-")
        || name.starts_with("md")
    {
        return Fact::unknown("not applicable: a virtual block device has no controller");
    }
    let Some(real) = &w.real else {
        return Fact::unknown(format!(
            "/sys/block/{name} could not be resolved: {}",
            b.why(&crate::evidence::SourceKey::RealPath(format!(
                "/sys/block/{name}"
            )))
        ));
    };
    let mut c = Controller::default();
    let mut from: Vec<String> = w.key.iter().cloned().collect();
    if let Some(dir) = &w.pci_dir {
        c.address = w.pci_addr.clone();
        let class_path = format!("{dir}/class");
        if let Some(cl) = text(b, &class_path).and_then(hex_u32) {
            c.pci_class = Some(cl);
            from.push(fkey(&class_path));
        }
        let ven = text(b, &format!("{dir}/vendor")).and_then(hex_u32);
        let dev = text(b, &format!("{dir}/device")).and_then(hex_u32);
        if let (Some(v), Some(d)) = (ven, dev) {
            c.pci_id = Some(format!("{v:04x}:{d:04x}"));
            from.push(fkey(&format!("{dir}/vendor")));
        }
        let drv_link = format!("{dir}/driver");
        if let Some(d) = realpath(b, &drv_link) {
            c.driver = Some(basename(d).to_string());
            from.push(format!("realpath:{drv_link}"));
        }
    }
    if let Some(iface) = &w.usb_iface_dir {
        let link = format!("{iface}/driver");
        if let Some(d) = realpath(b, &link) {
            c.usb_driver = Some(basename(d).to_string());
            from.push(format!("realpath:{link}"));
        }
        c.mode = Some(ControllerMode::Usb);
    } else if let Some(v) = &w.virtio_dir {
        let link = format!("{v}/driver");
        if let Some(d) = realpath(b, &link) {
            // The block-level driver (virtio_blk / virtio_scsi) says more than virtio-pci.
            c.driver = Some(basename(d).to_string());
            from.push(format!("realpath:{link}"));
        }
        c.mode = Some(ControllerMode::Virtio);
    } else {
        let by_class = c.pci_class.and_then(mode_from_class);
        let by_driver = c.driver.as_deref().and_then(mode_from_driver);
        c.mode = match (by_class, by_driver) {
            // Intel RST "RAID" class with the plain ahci driver: the disks are still seen
            // one by one through AHCI.
            (Some(ControllerMode::Raid), Some(ControllerMode::Ahci)) => {
                c.description = Some("RAID-class controller driven by ahci (RST RAID mode)".into());
                Some(ControllerMode::Ahci)
            }
            (Some(m), _) => Some(m),
            (None, Some(m)) => Some(m),
            (None, None) if c.pci_class.is_some() || c.driver.is_some() => {
                Some(ControllerMode::Other)
            }
            (None, None) => None,
        };
    }
    if let Some(h) = &w.scsi_host {
        let p = format!("/sys/class/scsi_host/host{h}/proc_name");
        if let Some(n) = text(b, &p).filter(|n| !n.is_empty()) {
            from.push(fkey(&p));
            if c.driver.is_none() {
                c.driver = Some(n.to_string());
            }
            if c.mode.is_none() {
                c.mode = mode_from_driver(n);
            }
        }
    }
    if c.mode.is_none() && c.driver.is_none() && c.pci_class.is_none() {
        return Fact::unknown(format!("no PCI controller or driver found along {real}"));
    }
    Fact::known_from(c, from)
}

/// The class/model strings that mark a hypervisor's emulated disk.
pub(crate) fn looks_virtual(vendor: &str, model: &str) -> bool {
    let v = vendor.to_ascii_lowercase();
    // The one list of emulated identities (sources::util), plus Google's SCSI vendor.
    v.starts_with("google")
        || crate::sources::util::names_emulated_disk(vendor)
        || crate::sources::util::names_emulated_disk(model)
}

/// The bus between host and drive.
pub fn transport(
    name: &str,
    w: &Walk,
    id: Option<&AtaIdentify>,
    ctrl: Option<&Controller>,
    link_known: bool,
) -> Fact<Transport> {
    let src = w
        .key
        .clone()
        .unwrap_or_else(|| format!("realpath:/sys/block/{name}"));
    let k = |t: Transport| Fact::known(t, src.clone());
    if ["loop", "zram", "ram", "dm-", "md"]
        .iter()
        .any(|p| name.starts_with(p))
    {
        return k(Transport::None);
    }
    if w.real.is_none() {
        return Fact::unknown("the sysfs device path was not captured");
    }
    if w.usb_iface_dir.is_some() {
        return k(Transport::Usb);
    }
    if name.starts_with("nvme") || w.nvme {
        return k(Transport::Nvme);
    }
    if w.virtio_dir.is_some() {
        return k(Transport::Virtio);
    }
    if name.starts_with("mmcblk") || w.mmc {
        return k(Transport::Mmc);
    }
    if w.ata_port.is_some() {
        if let Some(id) = id {
            if id.is_parallel() {
                return k(Transport::Pata);
            }
            if id.is_serial() || id.sata_max_gbps.is_some() {
                return k(Transport::Sata);
            }
        }
        let drv = ctrl.and_then(|c| c.driver.as_deref()).unwrap_or("");
        if drv.starts_with("pata_") {
            return k(Transport::Pata);
        }
        if link_known || drv == "ahci" || drv.starts_with("sata_") {
            return k(Transport::Sata);
        }
        return Fact::unknown(
            "a libata port, but neither IDENTIFY word 222 nor the link speed says SATA or PATA",
        );
    }
    if w.sas {
        return k(Transport::Sas);
    }
    if w.scsi_host.is_some() {
        return k(Transport::Scsi);
    }
    Fact::unknown("the sysfs path shows no known bus")
}

#[cfg(test)]
mod tests;
