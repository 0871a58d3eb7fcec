//! A FreeBSD disk's controller (the SIM it hangs off, walked up to the controller through
//! the boot log, dev.* sysctls and pciconf), its mode (AHCI, legacy IDE, RAID, ...), the
//! disk's transport and class, and the controller's PCI-Express link.

use super::captures::{DiskCaptures, DiskSrc, Global, key, push};
use crate::evidence::SourceKey;
use crate::facts::{Controller, ControllerMode, DeviceClass, DiskFacts, Fact, Transport};
use crate::plan::freebsd as plan;
use crate::sources::geom_util::{self as util, split_unit};
use crate::sources::{ask_bare, dmesg, spec::Ask, sysctl};

/// Fills controller, transport and class; returns the controller's mode, which the link
/// and queueing families read.
pub(super) fn fill(c: &DiskCaptures, d: &mut DiskFacts) -> Option<ControllerMode> {
    let DiskCaptures {
        g,
        name,
        prefix,
        dm_disk,
        ..
    } = *c;
    let dk = c.dk.clone();
    let id_key = c.id_key.clone();
    let ident = &c.ident;
    // --- controller and transport
    // The drive's own interface: "SATA" in the identify protocol line or the attach line.
    let sata_drive = if ident
        .as_ref()
        .and_then(|i| i.protocol.as_deref())
        .is_some_and(|p| p.contains("SATA"))
    {
        Some(id_key.clone())
    } else if dm_disk.is_some_and(|x| {
        [&x.standard, &x.transfer_detail, &x.ata_mode]
            .iter()
            .any(|f| f.as_deref().is_some_and(|t| t.contains("SATA")))
    }) {
        Some(dk.clone())
    } else {
        None
    };
    let (ctrl, ctrl_from) = controller_for(g, name, prefix, sata_drive.as_deref());
    let mode = ctrl.mode;
    let src = c.src();
    d.transport = transport_for(src, mode);
    d.controller = if ctrl.mode.is_some() || ctrl.driver.is_some() {
        Fact::known_from(ctrl, ctrl_from)
    } else {
        Fact::unknown(format!(
            "no attach line for this disk's SIM in dmesg.boot and no `{}` bus line",
            ask_bare(Ask::CamDevlist)
        ))
    };
    d.class = class_for(g, name, prefix, d, dm_disk);
    if d.class.get() == Some(DeviceClass::Virtual)
        && let Some((ctrl, emu)) = emulated_controller(g, name)
    {
        d.notes.push(format!(
            "{name} is on {ctrl}, {emu}: its AHCI version and port speed are the emulator's, \
             not those of the Intel chip it is named after"
        ));
    }
    mode
}

/// An ATA disk that ata(4) drives by programmed I/O on a controller that does Ultra DMA:
/// CAM's attach line names a PIO mode as the transfer mode ("ada0: 16.700MB/s transfers
/// (PIO4, PIO 8192bytes)", sys/cam/ata/ata_xpt.c ata_announce_periph prints the mode
/// ata_mode2string gives for the negotiated mode; ad(4) of FreeBSD <= 8 prints it at the end
/// of "ad0: ... at ata0-master PIO4") while the controller's own description names an Ultra
/// DMA or SATA rate ("Intel PIIX4 UDMA33 controller", ata-intel.c and the other chipset
/// drivers name each chip by its fastest mode). The drive must say it is of ATA/ATAPI-5 or
/// later ("ATA-7 device"): Ultra DMA came with ATA/ATAPI-4, every hard disk of -5 and later
/// has it, while an old CompactFlash card may speak PIO only. ata(4) settles for PIO when
/// the loader tunable hw.ata.ata_dma is 0, which the boot menu's Safe Mode sets
/// (stand/forth/menu-commands.4th safemode_enable, stand/lua/core.lua setSafeMode), or when
/// a hint caps the channel (hint.ata.N.mode).
pub(super) fn pio_transfers(c: &DiskCaptures, d: &mut DiskFacts) {
    if !matches!(c.prefix, "ada" | "ad") {
        return;
    }
    let Some(x) = c.dm_disk else {
        return;
    };
    let mode = x
        .transfer_detail
        .as_deref()
        .and_then(|t| t.split(',').next())
        .or(x.ata_mode.as_deref())
        .map(str::trim);
    if !mode.is_some_and(|m| m.starts_with("PIO")) {
        return;
    }
    let udma_host = d
        .controller
        .value()
        .and_then(|k| k.description.as_deref())
        .is_some_and(names_udma_rate);
    if udma_host
        && x.standard
            .as_deref()
            .and_then(ata_level)
            .is_some_and(|n| n >= 5)
    {
        d.ide_dma = Fact::known(
            crate::facts::IdeDma {
                on: false,
                set_error: None,
            },
            c.dk.clone(),
        );
    }
}

/// Whether a chipset description names an Ultra DMA or SATA rate as its fastest mode:
/// "UDMA33", "UDMA133", "SATA150", "SATA300" (FreeBSD's ata(4) chipset drivers).
fn names_udma_rate(desc: &str) -> bool {
    desc.split_whitespace().any(|w| {
        ["UDMA", "SATA"].iter().any(|p| {
            w.strip_prefix(p)
                .is_some_and(|r| !r.is_empty() && r.chars().all(|ch| ch.is_ascii_digit()))
        })
    })
}

/// The ATA standard level a CAM attach line names: "ATA-7 device", "ATA-8 SATA 2.x device"
/// -> 7, 8 (ata_xpt.c ata_print_ident: "ATA-%d").
fn ata_level(standard: &str) -> Option<u32> {
    let rest = standard.trim_start().strip_prefix("ATA-")?;
    let n: String = rest.chars().take_while(char::is_ascii_digit).collect();
    n.parse().ok()
}

/// The SIM a disk hangs off, or the channel itself when the disk stands for its channel
/// (names::lone_channels: "ahcich2" with timeouts but no disk attached).
fn sim_or_channel(g: &Global, name: &str) -> Option<String> {
    sim_for(g, name)
        .map(|(s, _)| s)
        .or_else(|| super::names::is_channel_name(name).then(|| name.to_string()))
}

/// The controller a disk's SIM or channel belongs to, with the emulator it is a model of
/// (dmesg::Attach::emulator: QEMU's ICH9 AHCI by its AHCI 1.0 and 1.5 Gb/s registers).
fn emulated_controller(g: &Global, name: &str) -> Option<(String, &'static str)> {
    let sim = sim_or_channel(g, name)?;
    let a = g.dmesg.as_ref()?.controller_of(&sim)?;
    Some((a.name.clone(), a.emulator()?))
}

/// The SIM a disk hangs off: devlist -v bus line, else the dmesg "daN at SIM" line.
pub(super) fn sim_for(g: &Global, name: &str) -> Option<(String, String)> {
    if let Some(s) = g.devlist.as_ref().and_then(|l| l.sim_for(name)) {
        return Some((s.to_string(), key(&plan::DEVLIST, "")));
    }
    if let Some(s) = g
        .dmesg
        .as_ref()
        .and_then(|dm| dm.disks.get(name))
        .and_then(|d| d.sim.clone())
    {
        return Some((s, g.dmesg_key()));
    }
    // A devlist without its bus lines: a master/slave pair on one bus is an ata(4)
    // channel (camcontrol_devlist::Devlist::on_ata_channel), its unit unknown.
    g.devlist
        .as_ref()
        .filter(|l| l.on_ata_channel(name))
        .map(|_| ("ata".to_string(), key(&plan::DEVLIST, "")))
}

/// The mfi(4) controller of a pass-through drive from its `dev.mfisyspd.N.%parent`
/// (plan::SYSPD_PARENT), as its SIM would be for a CAM disk.
pub(super) fn syspd_parent(g: &Global, name: &str, prefix: &str) -> Option<(String, String)> {
    if prefix != "mfisyspd" {
        return None;
    }
    let k = plan::SYSPD_PARENT.key(name);
    let v = g.b.data(&k)?;
    let oid = match &k {
        SourceKey::Sysctl(oid) => oid.as_str(),
        _ => "",
    };
    let parent = sysctl::bare_value(v, oid);
    let parent = parent.split_whitespace().next()?;
    dmesg::is_controller(parent).then(|| (parent.to_string(), k.to_string()))
}

/// Map a SIM name to the controller instance: "umass-sim0" -> "umass0"; channels are
/// walked up through dmesg attach lines or dev.X.N.%parent sysctls.
pub(super) fn controller_for(
    g: &Global,
    name: &str,
    prefix: &str,
    sata_drive: Option<&str>,
) -> (Controller, Vec<String>) {
    let mut c = Controller::default();
    let mut from: Vec<String> = Vec::new();
    let dk = g.dmesg_key();
    // A SATA channel standing for its unattached disk (names::lone_channels) on an
    // emulator's controller is its own SIM: the controller says whose the disk is.
    let sim = sim_for(g, name)
        .or_else(|| syspd_parent(g, name, prefix))
        .or_else(|| emulated_controller(g, name).map(|_| (name.to_string(), g.dmesg_key())));
    let mut ctrl_name: Option<String> = None;
    let mut sim_name: Option<String> = None;
    if let Some((s, k)) = &sim {
        from.push(k.clone());
        let s = s.replace("umass-sim", "umass");
        sim_name = Some(s.clone());
        // Walk up via dmesg.
        if let Some(a) = g.dmesg.as_ref().and_then(|m| m.controller_of(&s)) {
            ctrl_name = Some(a.name.clone());
            c.description = a.desc.clone();
            push(&mut from, &dk);
        } else if dmesg::is_controller(&s) {
            ctrl_name = Some(s.clone());
        } else if let Some((unit_drv, unit)) = split_unit(&s) {
            // dev.ahcich.2.%parent: ahci0
            if let Some((p, k)) = g.dev_sysctl(&format!("dev.{unit_drv}.{unit}.%parent")) {
                ctrl_name = Some(p.to_string());
                push(&mut from, k);
            }
        }
    }
    // No SIM: a single SATA/ATA controller in the evidence is the one, unless it is a
    // parallel-ATA function and the drive is SATA (seed 000's desktop names only
    // "atapci0: Intel ICH7 UDMA100 controller" for its SATA disk ad4).
    if ctrl_name.is_none()
        && matches!(prefix, "ad" | "ada")
        && let Some(dm) = g.dmesg.as_ref()
    {
        let ctrls: Vec<&dmesg::Attach> = dm
            .controllers
            .values()
            .filter(|a| {
                let p = a.name.trim_end_matches(|ch: char| ch.is_ascii_digit());
                p == "atapci" || p == "ahci"
            })
            .collect();
        if let [only] = ctrls.as_slice() {
            match only.desc.as_deref().and_then(pata_chipset) {
                Some(chipset) if let Some(sata_key) = sata_drive => {
                    // The SATA disk is on another function of the same chipset, one the
                    // log does not show. ata(4) with ATA_STATIC_ID (FreeBSD <= 8,
                    // sys/dev/ata/ata-all.c ata_add_child) numbers adN as channel N/2,
                    // master for even N: ad4 is ata2-master.
                    c.chipset = Some(chipset);
                    push(&mut from, &dk);
                    push(&mut from, sata_key);
                    if prefix == "ad"
                        && let Some(n) = name.get(2..).and_then(|u| u.parse::<u32>().ok())
                    {
                        c.address = Some(format!("ata{}", n / 2));
                    }
                }
                _ => {
                    ctrl_name = Some(only.name.clone());
                    c.description = only.desc.clone();
                    push(&mut from, &dk);
                }
            }
        }
    }
    // An NVMe over Fabrics controller: nvmf(4) attaches it as an nvme device with the
    // description "Fabrics: <subsystem NQN>" (sys/dev/nvmf/host/nvmf.c nvmf_attach,
    // device_set_descf), and its namespaces are nda(4) disks like a PCIe drive's. The
    // namespace is a volume of a target across the network.
    if ctrl_name.is_none()
        && matches!(prefix, "nvd" | "nda")
        && let Ok((cn, k)) = super::device_state::nvme_controller(g.b, name)
        && let Some(desc) = g
            .dmesg
            .as_ref()
            .and_then(|dm| dm.controllers.get(&cn))
            .and_then(|a| a.desc.clone())
            .filter(|d| dmesg::is_fabrics(d))
    {
        c.description = Some(desc);
        push(&mut from, &k);
        ctrl_name = Some(cn);
    }
    if let Some(cn) = &ctrl_name {
        c.address = Some(cn.clone());
        let drv = cn.trim_end_matches(|ch: char| ch.is_ascii_digit());
        c.driver = Some(drv.to_string());
        if c.description.is_none()
            && let Some((drv2, unit)) = split_unit(cn)
        {
            if let Some((v, k)) = g.dev_sysctl(&format!("dev.{drv2}.{unit}.%desc")) {
                c.description = Some(v.to_string());
                push(&mut from, k);
            }
            if let Some((v, k)) = g.dev_sysctl(&format!("dev.{drv2}.{unit}.%pnpinfo"))
                && let Some(cls) = v
                    .split_whitespace()
                    .find_map(|t| t.strip_prefix("class="))
                    .and_then(util::hex_u32)
            {
                c.pci_class = Some(cls);
                push(&mut from, k);
            }
        }
        if let Some(p) = g.pci.iter().find(|p| p.name == *cn) {
            c.pci_class = p.class.or(c.pci_class);
            c.pci_id = p.pci_id.clone();
            if c.description.is_none() {
                c.description = p.device.clone();
            }
            push(&mut from, &key(&plan::PCICONF, ""));
        }
        if drv == "umass" {
            c.usb_driver = Some("umass".to_string());
            // umass(4) gives CAM a constant per USB speed, so "daN: 40.000MB/s transfers"
            // names the link the device runs at (sources::dmesg::umass_link_mbps).
            if let Some(mbps) = g
                .dmesg
                .as_ref()
                .and_then(|dm| dm.disks.get(name))
                .and_then(|x| x.transfer_mbps)
                .and_then(dmesg::umass_link_mbps)
            {
                c.usb_speed_mbps = Some(mbps);
                push(&mut from, &dk);
            }
            // da(4) announces the INQUIRY's RMB bit as "Removable Direct Access"
            // (sys/cam/scsi/scsi_all.c scsi_print_inquiry): a stick or a card reader's slot.
            if g.dmesg
                .as_ref()
                .and_then(|dm| dm.disks.get(name))
                .and_then(|x| x.standard.as_deref())
                .is_some_and(|st| st.starts_with("Removable "))
            {
                c.usb_removable = Some(true);
                push(&mut from, &dk);
            }
            if g.dmesg
                .as_ref()
                .and_then(|dm| dm.disks.get(name))
                .and_then(|x| x.quirks.as_deref())
                .is_some_and(dmesg::no_sync_cache)
            {
                c.usb_no_flush = Some(true);
                push(&mut from, &dk);
            }
            // The root file system mounts from a disk and every disk the log attaches is a
            // umass(4) one: the system runs from this USB device.
            if let Some(dm) = g.dmesg.as_ref()
                && dm.root_from.as_deref().is_some_and(dmesg::root_on_disk)
                && dm
                    .disks
                    .values()
                    .filter(|x| !x.name.starts_with("cd") && !x.name.starts_with("pass"))
                    .all(|x| x.sim.as_deref().is_some_and(|s| s.starts_with("umass")))
            {
                c.usb_root = Some(true);
                push(&mut from, &dk);
            }
        }
    }
    let sim_is_ata = sim_name
        .as_deref()
        .is_some_and(|s| s.trim_end_matches(|ch: char| ch.is_ascii_digit()) == "ata");
    // On an ata(4) channel, "(SATA, UDMA5, PIO 8192bytes)" without a "SATA n.x" revision:
    // ata_announce_periph (sys/cam/ata/ata_xpt.c) prints the revision whenever the SIM
    // reports one, and ata(4) reports it from the channel's SStatus register where the
    // controller has SATA registers (ata_sata_phy_check, sys/dev/ata/ata-sata.c). None
    // means a SATA function emulating an IDE channel (legacy or "combined" mode).
    if sim_is_ata
        && g.dmesg
            .as_ref()
            .and_then(|dm| dm.disks.get(name))
            .and_then(|x| x.transfer_detail.as_deref())
            .is_some_and(dmesg::sata_without_revision)
    {
        c.sata_status_hidden = Some(true);
        push(&mut from, &dk);
    }
    c.mode = mode_for(
        c.driver.as_deref(),
        c.description.as_deref(),
        c.pci_class,
        sim_is_ata,
        prefix,
    );
    if c.mode.is_some() && from.is_empty() {
        // The disk name alone: only ata(4) (FreeBSD <= 8) names disks adN, only nvd(4)/nda(4)
        // sit on nvme(4).
        from.push(g.names_from.clone());
    }
    if c.driver.is_none() && (sim_is_ata || prefix == "ad") {
        c.driver = Some("ata".to_string());
    }
    // arN is ataraid(4)'s volume of a BIOS (firmware) RAID set over adN disks
    // (sources::dmesg::is_ataraid_volume): the OS driver does the RAID.
    if c.driver.is_none() && prefix == "ar" {
        c.driver = Some("ataraid".to_string());
        c.mode = Some(ControllerMode::Raid);
        from.push(g.names_from.clone());
    }
    (c, from)
}

/// The chipset family of a parallel-ATA function's description, None for anything else.
/// ata-pci.c ata_set_desc() prints "<vendor> <chip> <max DMA mode> controller", and the
/// mode is a UDMA/WDMA/PIO one for parallel functions, SATA150/SATA300 for serial ones
/// (ata_mode2str): "Intel ICH7 UDMA100 controller" -> "Intel ICH7".
pub(super) fn pata_chipset(desc: &str) -> Option<String> {
    let body = desc.trim().strip_suffix("controller")?.trim_end();
    let (chip, mode) = body.rsplit_once(' ')?;
    let parallel = ["UDMA", "WDMA", "PIO"].iter().any(|m| {
        mode.strip_prefix(m)
            .is_some_and(|n| n.chars().all(|c| c.is_ascii_digit()))
    });
    (parallel && !chip.is_empty()).then(|| chip.to_string())
}

/// Controller mode. ahci(4) is native AHCI. atapci(4) drives controllers in legacy or
/// "compatibility" mode (PCI class 0x0101xx); its descriptions read "... UDMA100
/// controller" / "... SATA300 controller", and only an "AHCI" description means the old
/// ata(4) stack found the controller in AHCI mode. A disk on an ata(4) channel SIM
/// ("ada0 at ata0") or named adN is on the legacy driver either way.
pub(super) fn mode_for(
    driver: Option<&str>,
    desc: Option<&str>,
    class: Option<u32>,
    sim_is_ata: bool,
    prefix: &str,
) -> Option<ControllerMode> {
    // ahci(4) also attaches to some SATA functions that the firmware set to the IDE class
    // (ahci_pci.c ahci_ata_probe: AMD/ATI SB600-Hudson "in IDE mode" with an AHCI BAR), and
    // then drives them as AHCI with NCQ; the class code alone is not the mode in effect.
    if driver == Some("ahci") {
        return Some(ControllerMode::Ahci);
    }
    if class.is_some_and(|cls| cls >> 8 == 0x0101) {
        return Some(ControllerMode::LegacyIde);
    }
    match driver {
        Some("ahci") => return Some(ControllerMode::Ahci),
        Some("atapci") => {
            return Some(
                if desc.is_some_and(|d| d.contains("AHCI")) && !sim_is_ata && prefix != "ad" {
                    ControllerMode::Ahci
                } else {
                    ControllerMode::LegacyIde
                },
            );
        }
        Some("mps") | Some("mpr") => return Some(ControllerMode::SasHba),
        Some("umass") => return Some(ControllerMode::Usb),
        Some("nvme") => return Some(ControllerMode::Nvme),
        // storvsc(4) and pvscsi(4) carry a hypervisor's disks as virtio does: Hyper-V's
        // VMBus storage protocol and VMware's paravirtual SCSI adapter.
        Some("vtscsi") | Some("virtio_blk") | Some("storvsc") | Some("pvscsi") => {
            return Some(ControllerMode::Virtio);
        }
        Some("mfi") | Some("mrsas") | Some("ciss") | Some("aac") => {
            return Some(ControllerMode::Raid);
        }
        Some(_) => return Some(ControllerMode::Other),
        None => {}
    }
    if sim_is_ata || prefix == "ad" {
        return Some(ControllerMode::LegacyIde);
    }
    if matches!(prefix, "nvd" | "nda") {
        return Some(ControllerMode::Nvme);
    }
    None
}

pub(super) fn transport_for(src: DiskSrc, mode: Option<ControllerMode>) -> Fact<Transport> {
    let DiskSrc {
        g,
        name,
        prefix,
        ident,
        dm,
        id_key,
    } = src;
    let dk = g.dmesg_key();
    match prefix {
        "nvd" | "nda" => return Fact::known(Transport::Nvme, g.names_from.clone()),
        "vtbd" => return Fact::known(Transport::Virtio, g.names_from.clone()),
        // sdda: SD/eMMC on the CAM MMC stack (sys/cam/mmc/mmc_da.c), mmcsd: on mmc(4).
        "mmcsd" | "sdda" => return Fact::known(Transport::Mmc, g.names_from.clone()),
        "md" => return Fact::known(Transport::None, g.names_from.clone()),
        // A drive mfi(4) passes through: the driver tells nothing of its link
        // (sys/dev/mfi/mfi_syspd.c mfi_syspd_attach prints only its size).
        "mfisyspd" => {
            return Fact::unknown(
                "mfisyspd is a drive the mfi(4) controller passes through: the driver tells \
                 only its size, not whether it is SATA or SAS (`mfiutil show drives` on the \
                 controller does)",
            );
        }
        _ => {}
    }
    if mode == Some(ControllerMode::Usb) {
        return Fact::known(Transport::Usb, dk);
    }
    // ATA-style evidence: the protocol/standard strings name SATA.
    let sata_text = [
        ident.and_then(|i| i.protocol.as_deref()),
        ident.and_then(|i| i.header_standard.as_deref()),
        ident.and_then(|i| i.transfer_detail.as_deref()),
    ];
    if sata_text
        .iter()
        .flatten()
        .any(|t| t.contains("SATA") || t.contains("Serial ATA"))
    {
        return Fact::known(Transport::Sata, id_key.to_string());
    }
    if let Some(x) = dm {
        let texts = [
            x.standard.as_deref(),
            x.transfer_detail.as_deref(),
            x.ata_mode.as_deref(),
        ];
        if texts.iter().flatten().any(|t| t.contains("SATA")) {
            return Fact::known(Transport::Sata, dk);
        }
        if prefix == "da" {
            // da(4) behind a SAS HBA: an "ATA" inquiry vendor is a SATA drive (SAT).
            if x.inquiry.as_deref().is_some_and(|i| i.starts_with("ATA ")) {
                return Fact::known(Transport::Sata, dk);
            }
            if mode == Some(ControllerMode::SasHba) {
                return Fact::known(Transport::Sas, dk);
            }
        }
        if prefix == "ada" || prefix == "ad" {
            // An ATA disk whose strings never mention SATA: parallel ATA (UDMA/WDMA modes).
            if texts
                .iter()
                .flatten()
                .any(|t| t.contains("DMA") || t.contains("ATA"))
            {
                return Fact::known(Transport::Pata, dk);
            }
        }
    }
    if prefix == "da"
        && let Some(dev) = g.devlist.as_ref().and_then(|l| l.device(name))
    {
        if dev.vendor_is_ata() {
            return Fact::known(Transport::Sata, key(&plan::DEVLIST, ""));
        }
        if mode == Some(ControllerMode::SasHba) {
            return Fact::known(Transport::Sas, key(&plan::DEVLIST, ""));
        }
    }
    Fact::unknown(format!(
        "no SATA/PATA/SAS marker in {}, devlist or dmesg output",
        ask_bare(Ask::CamProgram)
    ))
}

/// Whether da(4)'s bracketed inquiry ("LSILOGIC Logical Volume 3000": vendor, then product
/// and revision) is a RAID controller's volume (sources::smartctl::raid_volume_inquiry).
fn is_raid_volume_inquiry(inquiry: &str) -> bool {
    inquiry
        .trim()
        .split_once(' ')
        .is_some_and(|(v, p)| crate::sources::smartctl::raid_volume_inquiry(Some(v), Some(p)))
}

/// An iscsi(4) session's SIM name: "iscsi" and its unit number.
fn is_iscsi_sim(sim: &str) -> bool {
    sim.strip_prefix("iscsi")
        .is_some_and(|u| !u.is_empty() && u.bytes().all(|b| b.is_ascii_digit()))
}

/// QEMU's default IDE/AHCI drive serial: "QM" and five digits (hw/ide/core.c "QM%05d").
fn is_qemu_default_serial(s: &str) -> bool {
    s.trim()
        .strip_prefix("QM")
        .is_some_and(|d| d.len() == 5 && d.bytes().all(|b| b.is_ascii_digit()))
}

pub(super) fn class_for(
    g: &Global,
    name: &str,
    prefix: &str,
    d: &DiskFacts,
    dm: Option<&dmesg::DiskLines>,
) -> Fact<DeviceClass> {
    let kd = g.names_from.clone();
    match prefix {
        "nvd" | "nda" => return Fact::known(DeviceClass::Nvme, kd),
        "md" => return Fact::known(DeviceClass::Ram, kd),
        "vtbd" | "xbd" => return Fact::known(DeviceClass::Virtual, kd),
        "mmcsd" | "sdda" => return Fact::known(DeviceClass::Mmc, kd),
        "mfid" | "aacd" | "ar" => return Fact::known(DeviceClass::RaidVolume, kd),
        _ => {}
    }
    if d.transport.get() == Some(Transport::Usb) {
        return Fact::known_from(DeviceClass::Usb, d.transport.sources().to_vec());
    }
    let inquiry = dm
        .and_then(|x| x.inquiry.clone())
        .or_else(|| {
            g.devlist
                .as_ref()
                .and_then(|l| l.device(name))
                .map(|x| x.inquiry.clone())
        })
        .unwrap_or_default();
    let model = d.model.value().cloned().unwrap_or_default();
    for s in [&inquiry, &model] {
        let l = s.to_ascii_lowercase();
        if l.contains("vmware")
            || l.contains("virtual disk")
            || l.contains("qemu")
            || l.contains("virtio")
            // bhyve's emulated disks: "BHYVE SATA DISK" (ahci) and "BHYVE ATA IDE DISK"
            // (usr.sbin/bhyve/pci_ahci.c ata_identify_init).
            || l.contains("bhyve")
        {
            return Fact::known_from(DeviceClass::Virtual, d.model.sources().to_vec());
        }
    }
    // A disk on an emulator's model of a controller (dmesg::Attach::emulator) is the
    // emulator's disk, whatever it is called.
    if emulated_controller(g, name).is_some() {
        return Fact::known(DeviceClass::Virtual, kd);
    }
    // A disk on an iscsi(4) SIM ("da0 at iscsi1 bus 0", sys/dev/iscsi/iscsi.c registers one
    // CAM SIM per session) is a target's volume over the network, not a local drive.
    if let Some((sim, from)) = sim_for(g, name)
        && is_iscsi_sim(&sim)
    {
        return Fact::known(DeviceClass::Virtual, from);
    }
    // A hardware RAID controller's volume answers INQUIRY with the controller maker's
    // vendor and a volume or controller name (sources::smartctl::raid_volume_inquiry); da(4)
    // prints vendor, product and revision in one pair of brackets, "da0: <LSILOGIC Logical
    // Volume 3000>" (an mpt(4) Integrated RAID volume), "<DELL PERC H730P Mini 4.30>".
    if is_raid_volume_inquiry(&inquiry) {
        return Fact::known(DeviceClass::RaidVolume, kd.clone());
    }
    // QEMU's emulated IDE/AHCI drives answer IDENTIFY with the serial number "QM%05d" unless
    // the VM's configuration sets one (hw/ide/core.c ide_init_drive), whatever model string
    // a QEMU-based hypervisor gives them (Veertu's "HARDDISK 1.0"); ada(4) prints it as
    // "ada0: Serial Number QM00001".
    let serial = dm
        .and_then(|x| x.serial.clone())
        .or_else(|| d.serial.value().cloned());
    if serial.as_deref().is_some_and(is_qemu_default_serial) {
        let from = if dm.is_some_and(|x| x.serial.is_some()) {
            vec![kd]
        } else {
            d.serial.sources().to_vec()
        };
        return Fact::known_from(DeviceClass::Virtual, from);
    }
    match d.rotation_rpm.get() {
        Some(0) => Fact::known_from(DeviceClass::Ssd, d.rotation_rpm.sources().to_vec()),
        Some(_) => Fact::known_from(DeviceClass::Hdd, d.rotation_rpm.sources().to_vec()),
        None => Fact::unknown(format!(
            "HDD or SSD: {}",
            d.rotation_rpm.why().unwrap_or("no rotation rate")
        )),
    }
}

/// The PCI-Express link of the storage controller a disk sits behind (AHCI, RAID, SAS
/// HBA: PCI base class 0x01, mass storage), from `pciconf -lc` (usr.sbin/pciconf/cap.c
/// cap_express(): "link xW(xMW) speed S(MS)"). NVMe namespaces get their controller's link
/// in device_state. Only the function's own link is printed, so this is hop 0 alone: the
/// port above it is another entry that pciconf does not tie to it.
pub(super) fn controller_pcie(g: &Global, d: &mut DiskFacts) {
    if d.pcie.is_known() {
        return;
    }
    let Some(c) = d.controller.value() else {
        return;
    };
    let Some(addr) = c.address.clone() else {
        return;
    };
    let Some(p) = g.extra.caps.iter().find(|p| p.name == addr) else {
        // No capture, or the controller is not a PCI function (umass, a SIM).
        let k = plan::PCICONF_CAPS.key("");
        if g.b.data(&k).is_none() {
            d.pcie = Fact::unknown(super::device_state::pciconf_caps_why(g.b));
        }
        return;
    };
    let storage = p.is_storage() || c.pci_class.is_some_and(|cls| cls >> 16 == 0x01);
    d.pcie = match (&p.link, storage) {
        (Some(l), true) => Fact::known(vec![l.clone()], key(&plan::PCICONF_CAPS, "")),
        (_, false) => Fact::unknown(format!(
            "{addr} is not a mass storage function (PCI class {})",
            p.class
                .map_or("unknown".to_string(), |c| format!("0x{c:06x}"))
        )),
        (None, true) => Fact::unknown(format!(
            "pciconf -lc shows no PCI-Express capability for {addr} (conventional PCI or \
             a chipset-integrated function: no link of its own)"
        )),
    };
}

#[cfg(test)]
mod tests;
