//! Helpers shared by the checks: which devices a check looks at, how a fact becomes an
//! evidence reference, and the wording of "unknown, because ..." findings.
//!
//! Every decision here reads only `DiskFacts` / `SystemFacts` fields, never the evidence
//! bundle, so replayed reports give the same findings as live runs.

use crate::checks::{Confidence, Finding, Severity, Verdict};
use crate::evidence::Platform;
use crate::facts::{ControllerMode, DeviceClass, DiskFacts, Fact, SystemFacts, Transport};
use crate::model::KernelEventKind;
use crate::sources::{ask, ask_bare, spec::Ask};

/// SATA link rates and their payload ceilings. SATA uses 8b/10b line coding, so 1.5, 3 and
/// 6 Gb/s carry at most 150, 300 and 600 MB/s of data (SATA 3.x spec, section 1.2).
pub(crate) fn link_ceiling_mb_s(gbps: f64) -> u32 {
    // Round to the nearest generation; the facts hold 1.5 / 3.0 / 6.0.
    (gbps * 100.0).round().max(0.0) as u32
}

/// Render a Gb/s figure the way people write it ("1.5", "3.0", "6.0").
pub(crate) fn gbps(v: f64) -> String {
    format!("{v:.1}")
}

/// Bytes as the largest binary unit that keeps the number readable ("2.0 TiB", "100 bytes").
pub(crate) fn human_bytes(b: u64) -> String {
    crate::units::bytes_iec_one_decimal(b, "bytes")
}

/// Stacked and RAM-backed devices: the checks look at the disks under them instead
/// (their layers are listed on the physical disk).
pub(crate) fn in_scope(d: &DiskFacts) -> bool {
    match d.class.get() {
        Some(
            DeviceClass::Loop
            | DeviceClass::Ram
            | DeviceClass::DeviceMapper
            | DeviceClass::Raid
            | DeviceClass::Optical,
        ) => false,
        Some(_) => true,
        None => {
            // The kernel name is itself a fact (it is how the device was found).
            let n = d.name.as_str();
            let numbered = |p: &str| {
                n.strip_prefix(p)
                    .is_some_and(|r| !r.is_empty() && r.chars().all(|c| c.is_ascii_digit()))
            };
            !(numbered("loop")
                || numbered("zram")
                || numbered("ram")
                || numbered("md")
                || numbered("dm-")
                || numbered("sr")
                || numbered("cd"))
        }
    }
}

/// The disks a per-disk check looks at.
pub(crate) fn disks(sys: &SystemFacts) -> impl Iterator<Item = &DiskFacts> {
    sys.disks.iter().filter(|d| in_scope(d))
}

/// The disks whose partition layout is judged: [`disks`] plus loop and RAM devices that
/// hold something (size > 0). They have sector sizes and partition tables of their own, so
/// a partition at sector 63 on a 4 KiB loop device is misaligned like on a drive.
pub(crate) fn partitioned_disks(sys: &SystemFacts) -> impl Iterator<Item = &DiskFacts> {
    sys.disks.iter().filter(|d| {
        in_scope(d)
            || (matches!(d.class.get(), Some(DeviceClass::Loop | DeviceClass::Ram))
                && d.size_bytes.get().is_some_and(|s| s > 0))
    })
}

/// FreeBSD's pre-9.0 ata(4) disk names: `ad4`, not CAM's `ada0`.
pub(crate) fn is_freebsd_legacy_ad(name: &str) -> bool {
    name.strip_prefix("ad")
        .is_some_and(|r| !r.is_empty() && r.chars().all(|c| c.is_ascii_digit()))
}

fn controller_mode(d: &DiskFacts) -> Option<ControllerMode> {
    d.controller.value().and_then(|c| c.mode)
}

/// Kernel names that only one driver gives (`DiskFacts::named_like`).
fn name_has(d: &DiskFacts, prefixes: &[&str]) -> bool {
    d.named_like(prefixes)
}

/// An NVMe drive (`DiskFacts::is_nvme`: the pasted-text facts ask it too).
pub(crate) fn is_nvme(d: &DiskFacts) -> bool {
    d.is_nvme()
}

/// A paravirtual disk: the hypervisor, not a drive, answers its commands. A virtual disk
/// behind an emulated ATA controller (QEMU ide-hd on PIIX or AHCI) is not counted here: its
/// controller, link, NCQ and cache facts describe the emulation, and the hardware checks
/// still run on them (virtual-or-bridged-device says what that means; an emulated legacy
/// IDE controller is reported there, and controller-legacy-mode steps aside).
pub(crate) fn is_virtual_bus(d: &DiskFacts) -> bool {
    let emulated_ata = matches!(
        d.transport.get(),
        Some(Transport::Sata) | Some(Transport::Pata)
    ) || d.ata_identify.is_some();
    (d.class.get() == Some(DeviceClass::Virtual) && !emulated_ata)
        || d.transport.get() == Some(Transport::Virtio)
        || controller_mode(d) == Some(ControllerMode::Virtio)
        || (d.class.get().is_none() && name_has(d, &["vtbd", "vd", "xvd"]))
}

/// Model or vendor strings that emulated disks report (QEMU ide-hd/scsi-hd, VMware,
/// VirtualBox, Hyper-V "Msft Virtual Disk", bhyve, Xen, Google and Amazon cloud disks).
pub(crate) fn emulated_by_model(d: &DiskFacts) -> Option<String> {
    model_naming(d, &crate::sources::util::EMULATED_DISK_MARKERS)
}

/// The model or vendor string of `d` that contains one of `markers` (upper case), as
/// given.
pub(crate) fn model_naming(d: &DiskFacts, markers: &[&str]) -> Option<String> {
    [d.model.value(), d.vendor.value()]
        .into_iter()
        .flatten()
        .find(|s| {
            let up = s.to_ascii_uppercase();
            markers.iter().any(|m| up.contains(m))
        })
        .cloned()
}

/// A disk the hypervisor or a cloud provides: paravirtual (virtio, Xen), a model string of
/// an emulated disk, or the class the facts gave it.
pub(crate) fn is_virtual_disk(d: &DiskFacts) -> bool {
    is_virtual_bus(d)
        || emulated_by_model(d).is_some()
        || d.class.get() == Some(DeviceClass::Virtual)
}

pub(crate) fn is_usb(d: &DiskFacts) -> bool {
    d.class.get() == Some(DeviceClass::Usb)
        || d.transport.get() == Some(Transport::Usb)
        || controller_mode(d) == Some(ControllerMode::Usb)
        || d.controller.value().is_some_and(|c| c.usb_driver.is_some())
}

/// An NVMe drive on the AHCI driver in RAID mode: one Intel RST remapping hides
/// (facts::RST_HIDDEN_NVME, from ahci.c's "Found N remapped NVMe devices"). No NVMe driver
/// reaches it, so no check of the drive applies; controller-legacy-mode reports it.
pub(crate) fn is_rst_hidden(d: &DiskFacts) -> bool {
    d.class.get() == Some(DeviceClass::Nvme)
        && d.controller.value().is_some_and(|c| {
            c.mode == Some(ControllerMode::Raid) && c.driver.as_deref() == Some("ahci")
        })
}

/// A RAID controller's logical volume (not a drive passed through as SATA).
pub(crate) fn is_raid_volume(d: &DiskFacts) -> bool {
    d.class.get() == Some(DeviceClass::RaidVolume)
        || (controller_mode(d) == Some(ControllerMode::Raid) && !d.is_ata())
}

/// Why a SATA-level check (controller mode, link, NCQ) does not apply, if it does not.
pub(crate) fn sata_not_applicable(d: &DiskFacts) -> Option<String> {
    if is_nvme(d) {
        Some(
            "NVMe talks to the CPU over PCIe: there is no SATA link, IDE/AHCI mode or NCQ to \
             check (NVMe has its own queues, up to 64K commands each)"
                .into(),
        )
    } else if is_virtual_bus(d) {
        Some(
            "a paravirtual disk: the hypervisor answers its commands, so controller mode, link \
             speed and NCQ of the real drive are invisible here; check them on the host"
                .into(),
        )
    } else if is_usb(d) {
        Some(
            "a USB bridge sits between the computer and the drive: the SATA link and queueing \
             behind it are the bridge's business; see virtual-or-bridged-device"
                .into(),
        )
    } else if is_raid_volume(d) {
        Some(format!(
            "a RAID controller's volume: the controller hides the member drives, their links \
             and queues; use the controller's tool (storcli, mfiutil/mrsas, arcconf) or \
             {} to see them",
            ask_bare(Ask::SmartMegaraidOption)
        ))
    } else {
        None
    }
}

/// Whether the drive is known to be a SATA drive (as opposed to PATA, SAS, ...).
pub(crate) fn is_sata_drive(d: &DiskFacts) -> Option<bool> {
    if d.transport.get() == Some(Transport::Sata) {
        return Some(true);
    }
    if let Some(t) = d.ata_identify.as_ref().and_then(|i| i.transport.as_deref()) {
        return Some(t.to_ascii_uppercase().contains("SATA"));
    }
    if d.link_drive_max_gbps.is_known() {
        // IDENTIFY word 76 reports SATA generations only for SATA drives.
        return Some(true);
    }
    // Only the model says it when nothing names the bus: a known transport (a PATA port
    // with a SATA drive behind a bridge) stays what it is.
    if !d.transport.is_known()
        && let Some(sata) = d.model.value().and_then(|m| wd_model_is_sata(m))
    {
        return Some(sata);
    }
    match d.transport.get() {
        Some(Transport::Pata | Transport::Sas | Transport::Scsi | Transport::Nvme)
        | Some(Transport::Virtio | Transport::Usb | Transport::Mmc | Transport::None) => {
            Some(false)
        }
        _ => None,
    }
}

/// The interface a Western Digital model number names: "WD" + capacity digits + the
/// letters of form factor, class and cache, the last of which is the interface (WD's model
/// number scheme: B = EIDE/parallel ATA as in WD800JB and WD1600AAJB; D = SATA 1.5 Gb/s,
/// S = SATA 3 Gb/s, X and Z = SATA 6 Gb/s as in WD800JD, WD5000AAKS, WD5000AAKX, WD30EFRX,
/// WD40EZRZ). lsblk and the SCSI layer show "WDC WD5000AAKX-0" (16 characters); the
/// letters before the dash are enough. Other letters (SAS models, 2.5" EIDE) say nothing.
pub(crate) fn wd_model_is_sata(model: &str) -> Option<bool> {
    let m = model.trim();
    let m = m.strip_prefix("WDC ").unwrap_or(m);
    let rest = m.strip_prefix("WD")?;
    let digits = rest.chars().take_while(|c| c.is_ascii_digit()).count();
    let letters: String = rest
        .get(digits..)?
        .chars()
        .take_while(|c| c.is_ascii_uppercase())
        .collect();
    if !(2..=5).contains(&digits) || !(2..=4).contains(&letters.len()) {
        return None;
    }
    match letters.chars().last()? {
        'B' => Some(false),
        'D' | 'S' | 'X' | 'Z' => Some(true),
        _ => None,
    }
}

/// Rotating or solid state, for "can this device class even exceed the ceiling".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Media {
    Hdd,
    Ssd,
}

pub(crate) fn media(d: &DiskFacts) -> Option<Media> {
    match d.class.get() {
        Some(DeviceClass::Hdd) => return Some(Media::Hdd),
        Some(DeviceClass::Ssd | DeviceClass::Nvme) => return Some(Media::Ssd),
        _ => {}
    }
    if let Some(rpm) = d.rotation_rpm.get() {
        // IDENTIFY word 217: 1 = non-rotating, 0401h-FFFEh = rpm; the fact uses 0 for
        // non-rotating as well (facts/mod.rs).
        return Some(if rpm > 1 { Media::Hdd } else { Media::Ssd });
    }
    d.rotational
        .get()
        .map(|r| if r { Media::Hdd } else { Media::Ssd })
}

/// Whether the disk's name or model calls it an SSD as a word ("Samsung SSD 870 EVO",
/// "Portable SSD T5", a vdev alias "fast0-ssd"): vendors put the word in their SSDs'
/// product names, and no HDD carries it (a hybrid drive says "SSHD").
pub(crate) fn named_ssd(d: &DiskFacts) -> bool {
    [Some(&d.name), d.model.value()]
        .into_iter()
        .flatten()
        .any(|s| {
            s.split(|c: char| !c.is_ascii_alphanumeric())
                .any(|w| w.eq_ignore_ascii_case("ssd"))
        })
}

/// Push one evidence reference per source of `fact`, each with `value` (what was read).
pub(crate) fn cite<T>(mut f: Finding, fact: &Fact<T>, value: impl Into<String>) -> Finding {
    let value = value.into();
    let sources = fact.sources();
    if sources.is_empty() && fact.is_known() {
        return f.evidence("facts", value);
    }
    for s in sources {
        f = f.evidence(s.clone(), value.clone());
    }
    f
}

/// Cite each of a list of plain source keys (layers, kernel events) with one value.
pub(crate) fn cite_keys(mut f: Finding, keys: &[String], value: &str) -> Finding {
    for k in keys {
        f = f.evidence(k.clone(), value.to_string());
    }
    f
}

/// The reason a fact is unknown, worded for a sentence.
pub(crate) fn why<T>(fact: &Fact<T>) -> String {
    fact.why().unwrap_or("no reason recorded").to_string()
}

/// What would make a fact known, per platform and per kind of fact.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Source {
    /// ATA IDENTIFY data: link speeds, NCQ, write cache, sector sizes.
    Identify,
    /// Which controller and driver the disk hangs off.
    Controller,
    /// SMART attributes.
    Smart,
    /// Partition table bytes.
    PartitionTable,
    /// Physical sector size / alignment offset.
    SectorSize,
}

pub(crate) fn how_to_know(platform: Platform, src: Source, d: &DiskFacts) -> String {
    let dev = if d.dev_path.is_empty() {
        format!("/dev/{}", d.name)
    } else {
        d.dev_path.clone()
    };
    let name = &d.name;
    match (platform, src) {
        (Platform::Linux, Source::Identify) => format!(
            "run diskdoc as root (ATA IDENTIFY needs it), or install smartmontools so \
             `{}` can be read; `hdparm -I {dev}` shows the same words",
            ask(Ask::SmartReport, &dev)
        ),
        (Platform::Freebsd, Source::Identify) if is_freebsd_legacy_ad(name) => format!(
            "run diskdoc as root so `atacontrol cap {name}` can be read, or install \
             smartmontools (`pkg install smartmontools`)"
        ),
        (Platform::Freebsd, Source::Identify) => format!(
            "run diskdoc as root so `{}` can be read, or install smartmontools \
             (`pkg install smartmontools`) for `{}`",
            ask(Ask::CamIdentify, name),
            ask(Ask::SmartReport, &dev)
        ),
        (Platform::Linux, Source::Controller) => format!(
            "let diskdoc read /sys/block/{name}/device (the driver link of its host) or run \
             `{}`; both work without root",
            ask_bare(Ask::PciDrivers)
        ),
        (Platform::Freebsd, Source::Controller) => format!(
            "let diskdoc read `{}`, `pciconf -lv` and /var/run/dmesg.boot (root helps for {})",
            ask_bare(Ask::CamDevlist),
            ask_bare(Ask::CamProgram)
        ),
        (Platform::Linux, Source::Smart) => format!(
            "install smartmontools (`apt install smartmontools` or `dnf install \
             smartmontools`) and run diskdoc as root so `{}` can run",
            ask(Ask::SmartJson, &dev)
        ),
        (Platform::Freebsd, Source::Smart) => format!(
            "install smartmontools (`pkg install smartmontools`) and run diskdoc as root so \
             `{}` can run",
            ask(Ask::SmartJson, &dev)
        ),
        (Platform::Linux, Source::PartitionTable) => format!(
            "run diskdoc as root so it can read the first sectors of {dev} (read-only), or \
             paste `sfdisk -d {dev}`"
        ),
        (Platform::Freebsd, Source::PartitionTable) => format!(
            "run diskdoc as root so it can read the first sectors of {dev} (read-only), or \
             paste `gpart show {name}`"
        ),
        (Platform::Linux, Source::SectorSize) => format!(
            "let diskdoc read /sys/block/{name}/queue/physical_block_size and \
             /sys/block/{name}/alignment_offset (no root needed)"
        ),
        (Platform::Freebsd, Source::SectorSize) => format!(
            "let diskdoc run `diskinfo -v {name}` (stripesize and stripeoffset; root needed)"
        ),
        (Platform::Unknown, _) => "run diskdoc on the machine itself (Linux or FreeBSD) as \
                                   root with smartmontools installed"
            .to_string(),
    }
}

/// The skeleton of an unknown finding: which fact, why unknown, and what would make it known.
pub(crate) fn unknown(
    check: &str,
    d: &DiskFacts,
    title: impl Into<String>,
    what: &str,
    why: &str,
    how: &str,
) -> Finding {
    // "Run diskdoc as root" is no advice when root was refused: open(2) gives root EPERM
    // under kernel lockdown (kernel_lockdown(7)), a security module's policy, a container's
    // device rules or a hypervisor's locked disk, and a second run as root meets the same.
    let how = if why.contains(crate::evidence::REFUSED_EVEN_TO_ROOT) && how.contains("as root") {
        "look at what refused it: diskdoc already ran as root, so running it again as root \
         will not help (`dmesg` and the audit log name a security module's or kernel \
         lockdown's denial; on a virtual machine or in a container, run diskdoc on the host)"
    } else {
        how
    };
    Finding::new(check, &d.name, Verdict::Unknown, Severity::Info, title)
        .explain(format!(
            "{what}: unknown ({why}). To find out, {how}. diskdoc does not guess from \
             missing facts."
        ))
        .confidence(Confidence::Low)
}

/// A not-applicable finding with its reason.
pub(crate) fn not_applicable(check: &str, d: &DiskFacts, reason: &str) -> Finding {
    let title = format!("does not apply to {}", d.name);
    Finding::new(
        check,
        &d.name,
        Verdict::NotApplicable,
        Severity::Info,
        title,
    )
    .explain(format!("Not applicable: {reason}."))
}

/// A pass finding.
pub(crate) fn pass(check: &str, d: &DiskFacts, title: impl Into<String>) -> Finding {
    Finding::new(check, &d.name, Verdict::Pass, Severity::Info, title)
}

/// Kernel events that point at the SATA link (cable, port, backplane) rather than the media:
/// shared by `link-errors` and `sata-link-below-max`.
pub(crate) fn is_link_event(k: KernelEventKind) -> bool {
    matches!(
        k,
        KernelEventKind::CrcError
            | KernelEventKind::LinkReset
            | KernelEventKind::LinkSpeedLimited
            | KernelEventKind::ComresetFailed
            | KernelEventKind::TransportError
    )
}

#[cfg(test)]
mod tests;
