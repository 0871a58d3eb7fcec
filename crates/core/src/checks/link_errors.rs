//! `link-errors`: the transport between port and drive is unhealthy: UDMA CRC errors (SMART
//! attribute 199) and kernel CRC/parity errors, hard link resets, COMRESET failures and
//! link-speed step-downs. References: ATA/ACS-3 and smartmontools' drive database
//! (UDMA_CRC_Error_Count), Linux drivers/ata/libata-eh.c messages, FreeBSD CAM error
//! messages, AHCI 1.3.1 PxSERR.

use crate::checks::common::{self, Source, cite, gbps, how_to_know};
use crate::checks::sata_link_below_max;
use crate::checks::{Check, Confidence, Finding, Fix, Severity, Verdict};
use crate::evidence::Platform;
use crate::facts::{DiskFacts, KernelEventKind, SystemFacts};

pub const ID: &str = "link-errors";

pub(crate) struct LinkErrors;

impl Check for LinkErrors {
    fn id(&self) -> &'static str {
        ID
    }
    fn label(&self) -> &'static str {
        "Link errors"
    }
    fn summary(&self) -> &'static str {
        "UDMA CRC errors, link resets, COMRESET failures, link speed step-downs (cable, port, power)"
    }
    fn run(&self, sys: &SystemFacts) -> Vec<Finding> {
        common::disks(sys)
            .map(|d| {
                let f = check_disk(sys, d);
                match btrfs_path_failure(d) {
                    Some(b) if !f.is_problem() => b,
                    _ => f,
                }
            })
            .collect()
    }
}

/// A btrfs member whose reads and writes (or cache flushes, counted with them) both failed
/// (`btrfs device stats`, fs/btrfs/volumes.h BTRFS_DEV_STAT_{READ,WRITE,FLUSH}_ERRS): the
/// device stopped completing requests of every kind, which a few bad sectors do not do (a
/// sector fails its reads; writes are remapped) and a failing cable, port, bridge or power
/// does. A flush carries no data at all: its failure is the device or its bus.
fn btrfs_path_failure(d: &DiskFacts) -> Option<Finding> {
    let v = d.vdev_errors.iter().find(|v| {
        v.is_btrfs()
            && v.read_errors.is_some_and(|n| n > 0)
            && v.write_errors.is_some_and(|n| n > 0)
    })?;
    Some(
        Finding::new(
            ID,
            &d.name,
            Verdict::Problem,
            Severity::Warning,
            format!(
                "{}: btrfs saw both reads and writes or flushes fail on {}",
                d.name, v.vdev
            ),
        )
        .explain(format!(
            "btrfs counted {} failed read(s) and {} failed write(s) or flush(es) on {}: the \
             device failed requests of every kind, as it does when the path to it (cable, \
             port, controller, USB bridge, power) drops out or resets, rather than at some \
             bad sectors. Check the kernel log of the moment for link resets and timeouts, \
             reseat or replace the cable, then `btrfs device stats -z` and a scrub.",
            v.read_errors.unwrap_or(0),
            v.write_errors.unwrap_or(0),
            v.vdev
        ))
        .confidence(Confidence::Medium)
        .evidence(v.from.clone(), v.line.clone()),
    )
}

pub(crate) fn check_disk(sys: &SystemFacts, d: &DiskFacts) -> Finding {
    // A virtual disk has no cable or PHY: its resets and timeouts are the emulator's or the
    // host's (virtual-or-bridged-device reports them).
    if d.smart
        .value()
        .and_then(|s| s.udma_crc_errors)
        .is_none_or(|n| n == 0)
        && !crate::checks::virtual_or_bridged_device::virtual_trouble(d).is_empty()
    {
        return common::not_applicable(
            ID,
            d,
            "a virtual disk has no physical link: its resets and timeouts are reported by \
             virtual-or-bridged-device (the emulator or the host's storage)",
        );
    }
    // Plain I/O errors around a failing link count here, not as media errors, when nothing
    // points at the media (see media_errors::link_explains_io_errors).
    let io_too = crate::checks::media_errors::link_explains_io_errors(d);
    // NVMe command timeouts with no media status are the drive's controller stalling (no
    // cable or PHY between host and an M.2 drive that a reset would recover from):
    // media-errors reports them (media_errors::nvme_stall), power-management those of a
    // suspend or resume.
    if crate::checks::media_errors::nvme_timeouts_are_the_path(d) {
        return common::not_applicable(
            ID,
            d,
            "NVMe command timeouts without a media status are the drive's controller \
             stalling: media-errors reports them (power-management those of a suspend or \
             resume)",
        );
    }
    // An MMC/SD card's host timing out on it or initialising it again after its errors is
    // the host-card bus's trouble as much as the card's (media-errors keeps the card's
    // side): see [`is_mmc_card`].
    let mmc = is_mmc_card(d);
    let host_timeout = |e: &crate::facts::KernelEvent| {
        mmc && e.kind == KernelEventKind::IoTimeout
            && crate::sources::kernel_log::mmc::is_host_timeout(&e.line)
    };
    let events: Vec<_> = d
        .kernel_events
        .iter()
        .filter(|e| {
            common::is_link_event(e.kind)
                || io_too && e.kind == KernelEventKind::IoError
                || host_timeout(e)
        })
        .collect();
    let crc = d.smart.value().and_then(|s| s.udma_crc_errors);
    // The drive's SATA Phy event counters (SATA 3.x 13.7.2, GP log 11h, read by smartctl
    // -l sataphy or openSeaChest): CRC-failed commands, R_ERR responses and the COMRESETs
    // the host sent. They count since the drive's last power-on or counter reset, so any
    // non-zero value is this session's link trouble.
    let phy = d.smart.value().map(|s| {
        [
            s.sata_phy_crc_errors,
            s.sata_phy_r_errors,
            s.sata_phy_comresets,
        ]
        .into_iter()
        .flatten()
        .fold(0u64, u64::saturating_add)
    });
    let phy_errors = phy.filter(|n| *n > 0);
    let non_medium = d.smart.value().and_then(excess_non_medium);
    // A USB disk's failing link is the bridge's and the USB side's: cable, hub, port power
    // (virtual-or-bridged-device says so with its fixes); SATA cables and the host's link
    // power policy are no fix there. The drive's own CRC count (through a SAT bridge) still
    // speaks of the SATA side inside the enclosure.
    if common::is_usb(d) && !events.is_empty() && crc.is_none_or(|n| n == 0) {
        return common::not_applicable(
            ID,
            d,
            "a USB disk: the failures of its bridge and USB link are reported by \
             virtual-or-bridged-device",
        );
    }
    if events.is_empty()
        && crc.is_none_or(|n| n == 0)
        && phy_errors.is_none()
        && non_medium.is_none()
    {
        if common::is_nvme(d) || common::is_virtual_bus(d) {
            return common::not_applicable(
                ID,
                d,
                if common::is_nvme(d) {
                    "NVMe has no SATA link (PCIe link errors are reported by the PCIe AER \
                     driver, which diskdoc does not read)"
                } else {
                    "a paravirtual disk has no physical link"
                },
            );
        }
        if crc.is_none() && !d.smart.is_known() {
            let mut f = common::unknown(
                ID,
                d,
                format!("link error count of {} unknown", d.name),
                "The drive's UDMA CRC error count (SMART attribute 199)",
                &common::why(&d.smart),
                &how_to_know(sys.platform, Source::Smart, d),
            );
            f.explanation
                .push_str(" The kernel log diskdoc read shows no link errors for this disk.");
            return f;
        }
        let f = common::pass(ID, d, "no link errors: good").explain(match crc {
            Some(_) => "SMART counts no UDMA CRC errors and the kernel log shows no link \
                        resets or CRC errors."
                .to_string(),
            None => "The kernel log shows no link resets or CRC errors (the drive keeps no \
                     CRC counter)."
                .to_string(),
        });
        return match crc {
            Some(n) => cite(f, &d.smart, format!("udma_crc_errors={n}")),
            None => f,
        };
    }
    let mut parts = Vec::new();
    if let Some(n) = crc.filter(|&n| n > 0) {
        parts.push(format!("{n} UDMA CRC errors counted by the drive"));
    }
    if let (Some(n), Some(sm)) = (phy_errors, d.smart.value()) {
        let mut what = Vec::new();
        for (v, w) in [
            (sm.sata_phy_crc_errors, "CRC-failed"),
            (sm.sata_phy_r_errors, "R_ERR responses"),
            (sm.sata_phy_comresets, "COMRESETs"),
        ] {
            if let Some(v) = v.filter(|v| *v > 0) {
                what.push(format!("{v} {w}"));
            }
        }
        parts.push(format!(
            "{n} SATA Phy events counted by the drive ({})",
            what.join(", ")
        ));
    }
    if let Some((n, gb)) = non_medium {
        parts.push(format!(
            "{n} non-medium errors counted by the drive over {gb:.0} GB read and written, \
             {:.2} per GB where a SAS link within its specified bit error ratio (10^-12) makes \
             about {:.3}",
            n as f64 / gb.max(1.0),
            LINK_BER_ERRORS_PER_GB
        ));
    }
    let count = |k: KernelEventKind| events.iter().filter(|e| e.kind == k).count();
    let n_dma = events
        .iter()
        .filter(|e| crate::sources::kernel_log::is_ide_dma_failure(&e.line))
        .count();
    if n_dma > 0 {
        parts.push(format!(
            "{n_dma} failed DMA transfer line(s) of the IDE driver"
        ));
    }
    let n_host = events.iter().filter(|e| host_timeout(e)).count();
    if n_host > 0 {
        parts.push(format!(
            "{n_host} timeout or recovery line(s) of the MMC host waiting for the card"
        ));
    }
    for (k, words) in [
        (KernelEventKind::CrcError, "kernel CRC/parity error line(s)"),
        (
            KernelEventKind::LinkReset,
            if mmc {
                "re-initialisation(s) of the card by its host after errors"
            } else {
                "link reset line(s)"
            },
        ),
        (KernelEventKind::ComresetFailed, "COMRESET failure line(s)"),
        (
            KernelEventKind::TransportError,
            "command(s) the host adapter, bridge or bus failed (transport errors)",
        ),
        (
            KernelEventKind::LinkSpeedLimited,
            "link speed step-down line(s)",
        ),
        (
            KernelEventKind::IoError,
            "I/O error line(s) around them (not media errors: none names a bad sector)",
        ),
    ] {
        let n = if k == KernelEventKind::TransportError {
            count(k).saturating_sub(n_dma)
        } else {
            count(k)
        };
        if n > 0 {
            parts.push(format!("{n} {words}"));
        }
    }
    let mut expl = format!("{}: {}. ", d.name, parts.join("; "));
    let scsi = scsi_bus(d).or(non_medium.map(|_| "SAS link"));
    // The old IDE driver's failed DMA transfers (sources::kernel_log::is_ide_dma_failure).
    let ide_dma = events
        .iter()
        .any(|e| crate::sources::kernel_log::is_ide_dma_failure(&e.line));
    match scsi {
        None if ide_dma => expl.push_str(
            "The IDE controller's DMA transfers failed (a bad DMA status, or a transfer that \
             never finished) and the driver reset the channel and dropped the drive to PIO \
             (\"DMA disabled\"): data did not cross the parallel ATA path, while the drive \
             reported no unreadable sector. The usual causes are the cable (a 40-wire or \
             damaged one; UDMA above 33 needs an 80-wire cable), a loose connector or drive \
             bay, a CompactFlash or IDE-to-SATA adapter that does not carry DMA, and the \
             chipset driver. Another cable or adapter, or limiting the drive to PIO4 (kernel \
             parameter libata.force=N.00:pio4 on libata), ends the resets. ",
        ),
        Some(bus) => expl.push_str(&format!(
            "These are errors on the {bus} between adapter and drive, not on the disk's \
             surface: the target or the adapter found a transfer damaged (SCSI sense ASC 47h, \
             parity or information-unit CRC, or 4Bh, data phase error) and the command was \
             aborted and retried. Each retry stalls I/O, and repeated errors make the adapter \
             lower the bus's transfer rate. The usual causes are a damaged or too long cable, \
             a missing, doubled or wrong terminator, a worn connector or backplane, or an \
             expander path. "
        )),
        None if mmc => expl.push_str(
            "These are errors on the bus between the MMC/SD host controller and the card, not \
             proven bad flash: the host timed out waiting for the card (a command-queue \
             recovery, a hardware-interrupt timeout), found a transfer damaged (a CRC error), \
             or reset the card and initialised it again from the slow identification clock. \
             At the fast bus modes (HS400 and HS200 for e.MMC, SDR104 and SDR50 for SD cards) \
             the signal margins are small: a marginal module connector or socket, the board's \
             traces, its I/O voltage switch or supply, or a card that cannot hold the mode \
             fails there and works at a slower mode. A card that keeps failing at a slow \
             mode is the card's own fault (media-errors). ",
        ),
        None => expl.push_str(
            "These are errors on the wire between port and drive, not on the disk's surface: a \
             frame arrived damaged and was sent again, or the link dropped and had to be \
             re-established. Each retry or reset stalls I/O, from milliseconds to the 30 s of a \
             command timeout, and repeated errors make the kernel lower the link speed. The usual \
             causes are a poor or loose SATA cable, a worn connector or backplane, a weak power \
             supply or splitter, and aggressive link power management. ",
        ),
    }
    if events.iter().any(|e| {
        e.kind == KernelEventKind::TransportError
            && !crate::sources::kernel_log::is_ide_dma_failure(&e.line)
    }) {
        expl.push_str(
            "The SCSI host adapter, not the drive, failed some commands (a host byte such as \
             DID_ERROR, or a bus that went away): the path to the drive broke, whether that \
             is this link, a USB or SAS bridge or the adapter itself. Read errors on the very \
             first sectors (0, 8, 16, 24) as the disk appears are the probe of a bridge that \
             cannot talk to the drive, not bad sectors. ",
        );
    }
    let pcie = events
        .iter()
        .filter(|e| crate::sources::kernel_log::is_pcie_line(&e.line))
        .count();
    if pcie > 0 {
        expl.push_str(
            "The SATA controller's own PCIe link reported errors (PCIe AER: damaged or lost \
             packets such as BadTLP, BadDLLP, MalfTLP, completion timeouts), or its registers \
             read as all ones because it dropped off the bus: the fault is on the PCIe side, \
             between the host and the controller (an add-in card, an M.2 or mPCIe adapter, a \
             riser or ribbon cable, a Raspberry Pi's PCIe connector), not on a drive's SATA \
             cable. A drive behind it that fails IDENTIFY or vanishes is a victim, not the \
             cause. ",
        );
    }
    if crc.is_some_and(|n| n > 0) && events.is_empty() {
        expl.push_str(
            "The CRC counter never resets: if it stays the same from now on, the cause may \
             already be gone (compare it again in a week). ",
        );
    }
    if let Some(max) = sata_link_below_max::below_max(d) {
        expl.push_str(&format!(
            "The link also runs below what drive and port support ({} instead of {} Gb/s; see \
             sata-link-below-max): the same faulty connection is the likely cause of both.",
            gbps(d.link_current_gbps.get().unwrap_or(0.0)),
            gbps(max)
        ));
    } else if count(KernelEventKind::LinkSpeedLimited) > 0 {
        expl.push_str(
            "The kernel lowered the link speed after the errors (see sata-link-below-max).",
        );
    }
    let old_and_small = events.is_empty()
        && phy_errors.is_none()
        && d.smart.value().is_some_and(crc_count_is_old_and_small);
    if old_and_small {
        expl.push_str(
            "A handful of CRC errors over the drive's whole life, with no error logged and no \
             link trouble in the output, is a transfer retried once in a while (a hot-plug, a \
             cable once bumped), not a failing link: nothing to fix unless the count rises.",
        );
    }
    let severity = if count(KernelEventKind::ComresetFailed) > 0 {
        Severity::Critical
    } else if old_and_small {
        Severity::Info
    } else if events.is_empty() && crc.is_none_or(|n| n == 0) {
        // Only the Phy counters: a handful of events since power-on is a hint, not yet a
        // failing link.
        Severity::Notice
    } else {
        Severity::Warning
    };
    let mut f = Finding::new(
        ID,
        &d.name,
        Verdict::Problem,
        severity,
        format!("{}: {}", d.name, parts.first().cloned().unwrap_or_default()),
    )
    .explain(expl.trim_end().to_string())
    .confidence(Confidence::Medium)
    .impact(0.3);
    if let Some(n) = crc {
        f = cite(f, &d.smart, format!("udma_crc_errors={n}"));
    }
    if let Some(n) = phy_errors {
        f = cite(f, &d.smart, format!("sata_phy_events={n}"));
    }
    if let Some((n, gb)) = non_medium {
        f = cite(
            f,
            &d.smart,
            format!("scsi_non_medium_errors={n} transferred_gb={gb:.1}"),
        );
    }
    for e in &events {
        f = f.evidence(e.from.clone(), e.line.clone());
    }
    if pcie > 0 && sys.platform != Platform::Unknown {
        f = f.fix(pcie_fix(sys.platform));
    }
    // Only PCIe reports: the SATA cable and link power advice does not apply.
    if let Some(bus) = scsi
        && sys.platform != Platform::Unknown
    {
        f = f.fix(Fix {
            platform: sys.platform,
            summary: format!("check the {bus}: cable, terminator, backplane"),
            steps: vec![
                "Power off; reseat both ends of the cable, or replace it with a short one \
                 rated for the bus's speed (U160/U320 needs an LVD cable)"
                    .to_string(),
                "Check termination: exactly one active terminator at the far end of a \
                 parallel SCSI chain, none on the drives; on SAS, try another port, \
                 backplane slot or expander path"
                    .to_string(),
                "Watch the kernel log for more parity/CRC sense (asc 47h, 4Bh) after the fix"
                    .to_string(),
            ],
            risk: "power the machine off before touching cables; none otherwise".to_string(),
        });
    } else if ide_dma && sys.platform != Platform::Unknown {
        f = f.fix(Fix {
            platform: sys.platform,
            summary: "replace the IDE cable or adapter, or run the drive in PIO".to_string(),
            steps: vec![
                "Power off; reseat the drive and replace the IDE cable with an 80-wire one \
                 (blue connector on the board, master at the far end); for a CompactFlash \
                 card, try an adapter that supports DMA"
                    .to_string(),
                "If DMA keeps failing, keep the drive in PIO4: `libata.force=N.00:pio4` \
                 on the kernel command line (ataN from dmesg) or `hdparm -d0`"
                    .to_string(),
            ],
            risk: "power the machine off before touching cables; PIO is slower (at most \
                   16.7 MB/s)"
                .to_string(),
        });
    } else if mmc && sys.platform != Platform::Unknown {
        f = f.fix(mmc_fix(sys.platform));
    } else if !old_and_small
        && (pcie < events.len() || crc.is_some_and(|n| n > 0) || phy_errors.is_some())
        && non_medium.is_none()
    {
        for fix in fixes(sys.platform, d) {
            f = f.fix(fix);
        }
    }
    f
}

/// The bus of a disk on a parallel SCSI or SAS host adapter, by its FreeBSD driver (the SIM
/// of CAM's "(da0:ahd0:0:0:0)" path): ahd(4)/ahc(4)/sym(4)/isp(4) parallel SCSI (isp(4)
/// also drives Fibre Channel, whose damaged frames are the same class of fault), mpt(4),
/// mps(4), mpr(4) SAS (mpt(4) also the 53c1030 parallel SCSI). Their CRC/parity events
/// are the SCSI bus's, where SATA cable and link power advice does not apply. A SATA drive
/// behind a SAS HBA keeps the SATA advice (its identity says ATA).
fn scsi_bus(d: &DiskFacts) -> Option<&'static str> {
    if d.is_ata() {
        return None;
    }
    let drv = d.controller.value()?.driver.as_deref()?;
    match drv {
        "ahd" | "ahc" | "sym" | "isp" => Some("SCSI bus"),
        "mpt" | "mps" | "mpr" => Some("SAS or SCSI link"),
        _ => None,
    }
}

/// Errors per gigabyte a SAS link makes at its specified bit error ratio: SAS-2 and SAS-3
/// (T10 SPL, the physical layer's BER objective) require fewer than one bit error in 10^12
/// bits, so 8 x 10^9 bits per GB give 0.008 errors per GB, each a frame retried and counted
/// as a non-medium error (SPC-4 log page 06h: "recoverable error events other than write,
/// read, or verify errors").
const LINK_BER_ERRORS_PER_GB: f64 = 8e9 * 1e-12;

/// How far over that rate a drive's lifetime non-medium count must be to speak of the link:
/// ten times, because the page counts other recovered events besides the link's, and the
/// gigabytes exclude commands and protocol frames.
const NON_MEDIUM_FACTOR: f64 = 10.0;

/// At least this many non-medium events before the rate is read at all: a handful on a drive
/// that moved little data is a hot-plug or a reset, not a rate.
const NON_MEDIUM_FLOOR: u64 = 10;

/// A SCSI drive's non-medium error count when it is more than [`NON_MEDIUM_FACTOR`] times
/// what the link's bit error ratio explains over the data the error counter log says was
/// read and written: the count and the gigabytes.
fn excess_non_medium(s: &crate::facts::Smart) -> Option<(u64, f64)> {
    let n = s
        .scsi_non_medium_errors
        .filter(|n| *n >= NON_MEDIUM_FLOOR)?;
    let gb = s
        .scsi_transferred_gb
        .filter(|g| g.is_finite() && *g >= 0.0)?;
    ((n as f64) > gb * LINK_BER_ERRORS_PER_GB * NON_MEDIUM_FACTOR).then_some((n, gb))
}

/// A lifetime UDMA CRC count too small and too old to speak of a failing link: fewer than
/// ten over the drive's life, at most one per 1000 power-on hours when the hours are known,
/// and no entry in the drive's error log. The counter (SMART attribute 199, smartmontools'
/// drive database) never resets, and every CRC error is a transfer the host retried; the
/// Linux IDE FAQ (Mark Hahn): "Seeing these warnings occasionally is not unusual or even a
/// bad thing ... Seeing lots of these warnings (multiple per second) is almost certainly a
/// sign that your IDE hardware is broken".
fn crc_count_is_old_and_small(s: &crate::facts::Smart) -> bool {
    let Some(n) = s.udma_crc_errors.filter(|n| (1..10).contains(n)) else {
        return false;
    };
    s.error_log_count.is_none_or(|c| c == 0)
        && s.power_on_hours
            .is_none_or(|h| n.checked_mul(1000).is_some_and(|per| per <= h))
}

/// An MMC/SD card's disk: Linux's mmcblkN (drivers/mmc/core/block.c), FreeBSD's mmcsdN
/// (sys/dev/mmc/mmcsd.c), or a disk the facts know to be on the MMC bus.
fn is_mmc_card(d: &DiskFacts) -> bool {
    d.transport.get() == Some(crate::facts::Transport::Mmc)
        || d.name
            .strip_prefix("mmcblk")
            .or_else(|| d.name.strip_prefix("mmcsd"))
            .is_some_and(|u| !u.is_empty() && u.bytes().all(|b| b.is_ascii_digit()))
}

/// The host-card bus of an MMC/SD card: slow the bus mode, reseat or replace the card or
/// module, check the board's supply.
fn mmc_fix(platform: Platform) -> Fix {
    let mut steps = vec![
        "Run the card at a slower bus mode to test: in the board's device tree, remove \
         `mmc-hs400-1_8v` / `mmc-hs200-1_8v` (e.MMC) or `sd-uhs-sdr104` (SD) from the host's \
         node, or lower its `max-frequency`; if the errors stop, the fast mode is what failed"
            .to_string(),
        "Power off; reseat the e.MMC module or the SD card (clean the contacts), or try a \
         known-good card in the same slot and this card in another reader"
            .to_string(),
        "Check the board's power: a weak or undervolted supply (a single-board computer's \
         USB supply or cable) makes cards time out under load"
            .to_string(),
    ];
    if platform == Platform::Linux {
        steps.push(
            "On an SDHCI host, `sdhci.debug_quirks2=4` on the kernel command line \
             (SDHCI_QUIRK2_NO_1_8_V, drivers/mmc/host/sdhci.h) keeps the card off the 1.8 V \
             UHS/HS200 modes"
                .to_string(),
        );
    }
    Fix {
        platform,
        summary: "slow the card's bus mode, reseat or replace the card, check power".to_string(),
        steps,
        risk: "a slower bus mode lowers throughput (HS200 about half of HS400, SDR50 about half \
               of SDR104); power the board off before touching the module or card"
            .to_string(),
    }
}

/// The PCIe link between host and SATA controller: seat it, slow it, keep it out of ASPM.
fn pcie_fix(platform: Platform) -> Fix {
    let mut steps = vec![
        "Power off and reseat the controller card, riser, adapter or PCIe ribbon cable; try \
         another slot or a shorter cable"
            .to_string(),
        "Limit the link to a lower PCIe generation (the firmware setup's PCIe link speed \
         setting; Gen 2 is often stable where Gen 3 is not on adapters and risers)"
            .to_string(),
    ];
    match platform {
        Platform::Linux => steps.push(
            "Boot once with `pcie_aspm=off` on the kernel command line: if the errors stop, \
             the link fails on leaving its power-saving state (ASPM L0s/L1)"
                .to_string(),
        ),
        Platform::Freebsd => steps.push(
            "Watch `dmesg` for pcib/AER errors after each change; `pciconf -lvc` shows the \
             controller's link speed and width"
                .to_string(),
        ),
        Platform::Unknown => {}
    }
    Fix {
        platform,
        summary: "fix the PCIe link to the SATA controller".to_string(),
        steps,
        risk: "power the machine off before touching cards and cables; pcie_aspm=off costs \
               a little idle power"
            .to_string(),
    }
}

fn fixes(platform: Platform, d: &DiskFacts) -> Vec<Fix> {
    let name = &d.name;
    let cable = |platform| Fix {
        platform,
        summary: "replace the SATA cable, try another port, check power".to_string(),
        steps: vec![
            "Power off; replace the SATA data cable with a new, short, latching one".to_string(),
            "Connect the drive's power directly from the supply (no splitter or adapter) and \
             try another port or backplane slot"
                .to_string(),
            "Note the CRC count now and compare it after a few days of use: it should stop \
             rising"
                .to_string(),
        ],
        risk: "power the machine off before touching cables; none otherwise".to_string(),
    };
    match platform {
        Platform::Linux => vec![
            cable(platform),
            Fix {
                platform,
                summary: "rule out link power management".to_string(),
                steps: vec![
                    format!(
                        "Find the port's host: `readlink -f /sys/block/{name}` shows .../hostN/..."
                    ),
                    "`cat /sys/class/scsi_host/hostN/link_power_management_policy`; if it is \
                     min_power or med_power_with_dipm, try `echo max_performance > \
                     /sys/class/scsi_host/hostN/link_power_management_policy`"
                        .to_string(),
                    "Make it permanent with a udev rule or your power tool's setting (TLP: \
                     SATA_LINKPWR_ON_AC)"
                        .to_string(),
                ],
                risk: "max_performance uses a little more power (laptops: shorter battery life)"
                    .to_string(),
            },
        ],
        Platform::Freebsd => vec![
            cable(platform),
            Fix {
                platform,
                summary: "rule out link power management".to_string(),
                steps: vec![
                    "Check /boot/loader.conf and /boot/device.hints for hint.ahcich.N.pm_level; \
                     set it to 0 (off) for this port and reboot"
                        .to_string(),
                ],
                risk: "a little more power use".to_string(),
            },
        ],
        Platform::Unknown => Vec::new(),
    }
}

#[cfg(test)]
mod tests;
