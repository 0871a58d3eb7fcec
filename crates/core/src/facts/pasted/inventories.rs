//! What pasted inventories prove (inxi's Drives section, lsscsi, geom disk list): each drive they list, on the
//! disk they name, with only the facts the tool's own print formats vouch for (see each
//! source module for what a field is measured from). Read on any OS: inxi prints the same
//! layout on Linux and the BSDs.

use super::linux_text::mark_usb;
use super::{pasted_disk, set_if_unknown, whole_disk_or};
use crate::facts::{DeviceClass, Fact, PcieLink, Smart, SystemFacts, Transport};
use crate::pasted::{Block, Pasted};
use crate::sources;

pub(super) fn derive(sys: &mut SystemFacts, p: &Pasted) {
    for b in p.blocks {
        if b.tool.is(&sources::inxi::SPEC) {
            let named = named_elsewhere(p, b);
            inxi(sys, b, &named);
        } else if b.tool.is(&sources::lsscsi::SPEC) {
            let named = named_elsewhere(p, b);
            lsscsi(sys, b, &named);
        } else if b.tool.is(&sources::geom_disk::SPEC) {
            geom_disks(sys, b);
        } else if b.tool.is(&sources::sbc_bench::SPEC) {
            sbc_bench(sys, b);
        }
    }
}

/// The disks the paste's other blocks are about (their whole disks): the ones the question
/// is about, where an inventory lists every drive of the machine.
fn named_elsewhere(p: &Pasted, this: &Block) -> Vec<String> {
    p.blocks
        .iter()
        .filter(|x| !std::ptr::eq(*x, this))
        .filter_map(|x| x.device.as_deref())
        .map(|d| whole_disk_or(d.trim_start_matches("/dev/")))
        .collect()
}

/// Whether a kernel name is a Linux SCSI-layer disk (sdX), whose inxi "speed:" is the
/// negotiated SATA link read from sysfs.
fn linux_sd(name: &str) -> bool {
    name.strip_prefix("sd")
        .is_some_and(|r| !r.is_empty() && r.chars().all(|c| c.is_ascii_lowercase()))
}

/// A SATA line rate inxi prints for a link (1.5, 3.0, 6.0 Gb/s).
fn sata_rate(g: f64) -> Option<f64> {
    [1.5, 3.0, 6.0].into_iter().find(|r| (g - r).abs() < 0.01)
}

fn inxi(sys: &mut SystemFacts, b: &Block, named: &[String]) {
    let key = b.key.clone();
    let records = sources::inxi::parse(&b.text);
    let lone = records.len() == 1;
    for r in records {
        let name = whole_disk_or(&r.device);
        let note = format!("listed in the pasted inxi Drives section ({key})");
        let Some(d) = pasted_disk(sys, &name, &note) else {
            continue;
        };
        set_if_unknown(&mut d.model, r.model.clone(), &key);
        set_if_unknown(&mut d.vendor, r.vendor.clone(), &key);
        set_if_unknown(&mut d.serial, r.serial.clone(), &key);
        set_if_unknown(&mut d.firmware, r.firmware.clone(), &key);
        match r.tech.as_deref() {
            Some("SSD") => set_if_unknown(&mut d.rotational, Some(false), &key),
            Some("HDD") => set_if_unknown(&mut d.rotational, Some(true), &key),
            _ => {}
        }
        set_if_unknown(&mut d.rotation_rpm, r.rpm, &key);
        // A USB drive is a finding of its own (virtual-or-bridged-device): said for the
        // drive the paste is about (the only one listed, or one another output names),
        // not for every stick an inventory of the machine lists.
        if r.usb && (lone || named.contains(&name)) {
            mark_usb(d, "", &key);
            if let Fact::Known { value, .. } = &mut d.controller
                && value.usb_speed_mbps.is_none()
            {
                value.usb_speed_mbps = r.usb_speed_mbps;
            }
        } else if r.usb {
            d.notes
                .push(format!("inxi lists it as a USB drive ({key})"));
        } else if name.starts_with("nvme") {
            set_if_unknown(&mut d.transport, Some(Transport::Nvme), &key);
            set_if_unknown(&mut d.class, Some(DeviceClass::Nvme), &key);
            // The speed is the device's maximum link (max_link_speed x max_link_width),
            // not the one it trained at: it gives the capability only.
            if let (Some(s), Some(l), false) = (r.speed_gbps, r.lanes, d.pcie.is_known())
                && let Some(gts) = sources::inxi::nvme_max_gts(s, l)
            {
                let link = PcieLink {
                    address: name.clone(),
                    hop: 0,
                    max_gts: Some(gts),
                    max_width: Some(l),
                    ..Default::default()
                };
                d.pcie = Fact::known(vec![link], key.clone());
            }
        } else if let Some(g) = r.speed_gbps.and_then(sata_rate) {
            // sata_spd of the disk's libata link on Linux; smartctl's SATA version (the
            // drive's top speed) where inxi printed "sata:" or has no sysfs (a BSD name).
            // On Linux with "sata:" too, the print does not say which of the two it is.
            match (linux_sd(&name), r.sata_version.is_some()) {
                (true, false) => set_if_unknown(&mut d.link_current_gbps, Some(g), &key),
                (false, true) => set_if_unknown(&mut d.link_drive_max_gbps, Some(g), &key),
                _ => {}
            }
        }
        if let Some(h) = r.health.as_deref() {
            let passed = match h.trim_end_matches('!') {
                "PASSED" | "OK" => Some(true),
                "FAILED" => Some(false),
                _ => None,
            };
            if let Some(ok) = passed {
                let mut s: Smart = d.smart.value().cloned().unwrap_or_default();
                if s.health_passed.is_none() {
                    s.health_passed = Some(ok);
                    d.smart = Fact::known(s, key.clone());
                }
            }
        }
    }
}

/// lsscsi's disks: the model of a libata disk (vendor "ATA") and of an emulated one, the
/// transport `-t` names. As for inxi, a USB or virtual disk is marked so only when it is
/// the one disk listed or another output of the paste names it.
fn lsscsi(sys: &mut SystemFacts, b: &Block, named: &[String]) {
    let key = b.key.clone();
    let units: Vec<_> = sources::lsscsi::parse(&b.text)
        .into_iter()
        .filter(|u| u.kind == "disk" || u.kind == "zbc")
        .filter(|u| u.device.is_some())
        .collect();
    let lone = units.len() == 1;
    for u in units {
        let Some(dev) = u.device.as_deref() else {
            continue;
        };
        let name = whole_disk_or(dev);
        let about = lone || named.contains(&name);
        let note = format!("listed by the pasted lsscsi ({key})");
        let Some(d) = pasted_disk(sys, &name, &note) else {
            continue;
        };
        let emulated = sources::lsscsi::emulated(&u);
        // libata's vendor "ATA": the model column is the drive's own (cut to 16
        // columns); another vendor's is the bridge's, the controller's or the
        // hypervisor's INQUIRY answer.
        if u.vendor.as_deref() == Some("ATA") || (emulated && about) {
            set_if_unknown(&mut d.model, u.model.clone(), &key);
            set_if_unknown(&mut d.vendor, u.vendor.clone(), &key);
        } else if u.hctl.starts_with('N') {
            set_if_unknown(&mut d.model, u.model.clone(), &key);
            set_if_unknown(&mut d.transport, Some(Transport::Nvme), &key);
        }
        match u.bus() {
            Some("sata") => set_if_unknown(&mut d.transport, Some(Transport::Sata), &key),
            Some("sas") => set_if_unknown(&mut d.transport, Some(Transport::Sas), &key),
            Some("usb") if about => mark_usb(d, "", &key),
            Some("usb") => d.notes.push(format!("lsscsi -t shows it on USB ({key})")),
            _ => {}
        }
    }
}

/// sbc-bench's storage list: each SATA drive, SD card, eMMC and USB device it names, with
/// the class its own line states (sources::sbc_bench: "SSD"/"HDD" from smartctl's rotation
/// rate, the MMC card type the kernel logged, a USB device's line) and its bus. NVMe lines
/// name the controller node, not a namespace, and are left out.
fn sbc_bench(sys: &mut SystemFacts, b: &Block) {
    use sources::sbc_bench::Kind;
    let key = b.key.clone();
    for dev in sources::sbc_bench::parse(&b.text) {
        if dev.nvme {
            continue;
        }
        let note = format!("listed by the pasted sbc-bench storage list ({key})");
        let Some(d) = pasted_disk(sys, &dev.node, &note) else {
            continue;
        };
        let class = match dev.kind {
            Kind::Ssd => DeviceClass::Ssd,
            Kind::Hdd => DeviceClass::Hdd,
            Kind::MmcCard => DeviceClass::Mmc,
            Kind::Usb => DeviceClass::Usb,
        };
        set_if_unknown(&mut d.class, Some(class), &key);
        if dev.kind != Kind::Usb && !dev.model.is_empty() {
            set_if_unknown(&mut d.model, Some(dev.model.clone()), &key);
        }
        if dev.usb {
            mark_usb(d, "", &key);
        } else if dev.kind == Kind::MmcCard {
            set_if_unknown(&mut d.transport, Some(Transport::Mmc), &key);
        } else if dev.sata {
            set_if_unknown(&mut d.transport, Some(Transport::Sata), &key);
        }
    }
}

/// `geom disk list`: each DISK-class geom is a disk, its "descr:" the identity its driver
/// gave GEOM (disk(9) d_descr: ada(4) and nda(4) copy the drive's model string, da(4) the
/// SCSI INQUIRY vendor and product: freebsd-src sys/cam/ata/ata_da.c, nvme/nvme_da.c,
/// scsi/scsi_da.c) and "Mediasize:" its size in bytes.
fn geom_disks(sys: &mut SystemFacts, b: &Block) {
    let key = b.key.clone();
    for g in sources::geom_disk::parse(&b.text) {
        let note = format!("listed by the pasted geom disk list ({key})");
        let Some(d) = pasted_disk(sys, &g.name, &note) else {
            continue;
        };
        let descr = g.descr.filter(|s| !s.trim().is_empty());
        set_if_unknown(&mut d.model, descr, &key);
        set_if_unknown(&mut d.size_bytes, g.media_bytes.filter(|n| *n > 0), &key);
    }
}

#[cfg(test)]
mod tests;
