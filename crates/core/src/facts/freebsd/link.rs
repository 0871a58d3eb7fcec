//! A FreeBSD disk's SATA link: the negotiated speed, the drive's maximum and the port's,
//! from IDENTIFY, the boot log's transfer lines and the controller's attach lines.

use super::captures::{DiskCaptures, Global, IDENTIFY};
use crate::facts::{ControllerMode, DiskFacts, Fact, Transport};
use crate::sources::geom_util as util;
use crate::sources::{camcontrol_identify, dmesg};

pub(super) fn fill(c: &DiskCaptures, mode: Option<ControllerMode>, d: &mut DiskFacts) {
    let DiskCaptures {
        g,
        name,
        id_item,
        dm_disk,
        ..
    } = *c;
    let dk = c.dk.clone();
    let id_key = c.id_key.clone();
    let ident = &c.ident;
    // --- SATA link
    let is_sata = d.transport.get() == Some(Transport::Sata);
    d.link_current_gbps = if is_sata {
        link_current(ident.as_ref(), dm_disk, &id_key, &dk, mode)
    } else if d.transport.is_known() {
        Fact::unknown("not a SATA device (no SATA link)")
    } else {
        Fact::unknown(format!(
            "transport unknown ({}), so no SATA link speed is read",
            d.transport.why().unwrap_or("")
        ))
    };
    // The boot log's "ada1: <MODEL FW> ACS-2 ATA SATA 3.x device" is the drive's own
    // IDENTIFY generation (ata_xpt.c prints it from word 222), the maximum the drive
    // supports; ada(4) prints it for disks on every SIM.
    let dm_gen = dm_disk
        .and_then(|x| x.standard.as_deref())
        .filter(|s| s.contains("SATA") && s.ends_with("device"))
        .and_then(crate::sources::geom_util::sata_gen_gbps);
    d.link_drive_max_gbps = match (ident.as_ref().and_then(|i| i.drive_max_gbps()), dm_gen) {
        (Some(v), _) => Fact::known(v, id_key.clone()),
        (None, Some(v)) => Fact::known(v, dk.clone()),
        (None, None) => Fact::unknown(match &ident {
            Some(i) if i.atacontrol_layout => {
                "atacontrol's \"Serial ATA II\" protocol line does not say which speeds the drive supports".to_string()
            }
            Some(_) => format!("{IDENTIFY} printed no SATA generation"),
            None => g.why(&id_item, name),
        }),
    };
    d.link_port_max_gbps = port_max(g, d);
}

/// Negotiated link speed. camcontrol's header gives it for CAM disks; dmesg gives it as
/// "adaN: 300.000MB/s transfers (SATA 2.x, ...)" or, for old ad(4), "at ata2-master
/// SATA300". Behind a SAS HBA, da(4) reports the HBA phy rate, which is the drive's link
/// only when the drive is directly attached (no expander).
pub(super) fn link_current(
    ident: Option<&camcontrol_identify::Identify>,
    dm: Option<&dmesg::DiskLines>,
    id_key: &str,
    dk: &str,
    mode: Option<ControllerMode>,
) -> Fact<f64> {
    if let Some(v) = ident.and_then(|i| i.link_current_gbps()) {
        return Fact::known(v, id_key.to_string());
    }
    if let Some(x) = dm {
        if let Some(g) = x.transfer_detail.as_deref().and_then(util::sata_gen_gbps) {
            return Fact::known(g, dk.to_string());
        }
        // "150.000MB/s transfers (SATA, UDMA5, ...)": without a revision the figure is the
        // SIM's nominal base_transfer_speed, not a negotiated link (ata_xpt.c
        // ata_announce_periph takes the speed from the revision only when there is one).
        if x.transfer_detail
            .as_deref()
            .is_some_and(dmesg::sata_without_revision)
        {
            return Fact::unknown(
                "the channel reports no SATA revision (\"SATA, \" in the boot log): its 150 MB/s \
                 is the driver's nominal rate, not the negotiated link",
            );
        }
        if let Some(g) = x.transfer_mbps.and_then(util::sata_gbps_from_mbps) {
            return Fact::known(g, dk.to_string());
        }
        if let Some(m) = x.ata_mode.as_deref().and_then(|m| m.strip_prefix("SATA"))
            && let Some(g) = m.parse::<f64>().ok().and_then(util::sata_gbps_from_mbps)
        {
            return Fact::known(g, dk.to_string());
        }
        if mode == Some(ControllerMode::SasHba) && x.transfer_mbps.is_some() {
            return Fact::unknown(
                "the SAS HBA reports a phy rate above SATA's 6 Gb/s (an expander link), not the drive's SATA link",
            );
        }
    }
    Fact::unknown(format!(
        "no transfer-rate line from {IDENTIFY} or dmesg for this disk"
    ))
}

/// The port's ceiling: "ahci0: AHCI v1.31 with 6 6Gbps ports" or atapci's "SATA300" /
/// "SATA150" description.
pub(super) fn port_max(g: &Global, d: &DiskFacts) -> Fact<f64> {
    let Some(c) = d.controller.value() else {
        return Fact::unknown("controller unknown");
    };
    let Some(addr) = c.address.as_deref() else {
        return Fact::unknown("controller unknown");
    };
    let dk = g.dmesg_key();
    if let Some(a) = g.dmesg.as_ref().and_then(|m| m.controllers.get(addr)) {
        if let Some(v) = a.port_gbps {
            return Fact::known(v, dk);
        }
        if let Some(desc) = a.desc.as_deref() {
            for (pat, v) in [("SATA600", 6.0), ("SATA300", 3.0), ("SATA150", 1.5)] {
                if desc.contains(pat) {
                    return Fact::known(v, dk);
                }
            }
        }
    }
    Fact::unknown("the controller's attach lines do not state its port speed")
}
