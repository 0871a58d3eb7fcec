//! Why no range was given where a before/after case or a reader expects one, said exactly:
//! - [`why_silent`]: a check whose fix changes a rate raised no finding at all, because the
//!   run lacks the fact the check reads (the drive's reported state, not a command typed or a
//!   sentence claiming it) or because that fact says there is nothing to fix;
//! - [`why_other_metric`]: a finding's one range is for another metric than the one asked
//!   about (a link fix's sequential range, asked for 4 KiB reads at queue depth 1).
//!
//! The wording names the output lines that carry each fact, with the source of each line.

use super::{EffectMetric, pcie_link_mbps};
use crate::checks::Finding;
use crate::facts::{DiskFacts, LayerKind, SystemFacts, Transport};

/// The disks' names joined for a sentence: "sda, sdb".
fn names<'a>(it: impl Iterator<Item = &'a DiskFacts>) -> String {
    it.map(|d| d.name.as_str()).collect::<Vec<_>>().join(", ")
}

/// The reason for a check that reads one reported state: `missing` when no disk of the run
/// has it, else "{present} ({disks}): nothing to fix" for the disks where it is fine.
fn state_reason(fine: Vec<&DiskFacts>, missing: &str, present: &str) -> String {
    if fine.is_empty() {
        missing.to_string()
    } else {
        format!("{present} ({}): nothing to fix", names(fine.into_iter()))
    }
}

/// Why `check` raised no finding on `sys`, for the checks whose fix changes a rate and whose
/// input is one reported state of the drive or its path. `None` for a check this does not
/// cover (the caller says it found nothing to judge).
pub fn why_silent(sys: &SystemFacts, check: &str) -> Option<String> {
    let disks = || sys.disks.iter();
    let why = match check {
        // hdparm -W prints "write-caching =  0 (off)" (hdparm.c, get_wcache); hdparm -I lists
        // "Write cache" under its enabled features with a '*' (identify.c); the sd driver
        // logs "[sda] Write cache: disabled" (drivers/scsi/sd.c, sd_read_cache_type); sdparm
        // reads the caching mode page's WCE bit (SBC-3, 6.4.5).
        "write-cache-disabled" => state_reason(
            disks()
                .filter(|d| d.write_cache_enabled.get() == Some(true))
                .collect(),
            "no disk's write-cache state is in the run: the check reads the drive's own \
                 report of it (hdparm -W's \"write-caching =  0 (off)\", the enabled-features \
                 list of hdparm -I, the kernel's \"[sda] Write cache: disabled\", sdparm's WCE \
                 bit, FreeBSD's camcontrol or atacontrol); a typed `hdparm -W 0` without its \
                 output, or a sentence saying the cache is off, is what someone ran or claims, \
                 not the drive's state",
            "the write cache is on",
        ),
        // libata prints the queue on the identify line: "LBA48 NCQ (depth 32)", "NCQ (not
        // used)", "NCQ (depth 0/32)" (drivers/ata/libata-core.c, ata_dev_config_ncq).
        "ncq-unavailable" => state_reason(
            disks()
                .filter(|d| d.ncq_active.get() == Some(true))
                .collect(),
            "no disk's NCQ state is in the run: the check reads libata's identify line \
                 (\"LBA48 NCQ (depth 32)\", \"NCQ (not used)\", \"NCQ (depth 0/32)\"), the \
                 kernel's \"FORCE: horkage modified (noncq)\", hdparm -I's queue depth, or \
                 FreeBSD's camcontrol identify; a kernel line quoted in a sentence as what \
                 should appear is not the kernel's output, and a benchmark figure alone does \
                 not show whether commands were queued",
            "NCQ is in use",
        ),
        // libata: "ata1: SATA link up 1.5 Gbps (SStatus 113 SControl 300)" (libata-eh.c,
        // sata_print_link_status); smartctl: "SATA Version is: SATA 3.2, 6.0 Gb/s (current:
        // 1.5 Gb/s)" (ataprint.cpp); FreeBSD: "ada0: 150.000MB/s transfers" (ata_da.c).
        "sata-link-below-max" => state_reason(
            disks()
                .filter(|d| d.link_current_gbps.get().is_some())
                .collect(),
            "no disk's negotiated SATA link speed is in the run: the check reads libata's \
                 \"ataN: SATA link up 1.5 Gbps\", smartctl's \"(current: 1.5 Gb/s)\" or \
                 FreeBSD's \"ada0: 150.000MB/s transfers\"; a benchmark figure alone does not \
                 show the link (drives of any rate sit on every link speed), and a BIOS or \
                 link limit named only in prose is a claim, not the link's report",
            "the link runs at the highest speed the run shows for its drive and port",
        ),
        // lsusb -t prints the interface driver ("Driver=usb-storage", "Driver=uas"); the
        // kernel logs "usb-storage 2-1:1.0: USB Mass Storage device detected" or "scsi host0:
        // uas" (drivers/usb/storage/usb.c, uas.c).
        "virtual-or-bridged-device" => {
            let usb: Vec<_> = disks()
                .filter(|d| d.transport.get() == Some(Transport::Usb))
                .collect();
            let uas: Vec<_> = usb
                .iter()
                .copied()
                .filter(|d| {
                    d.controller
                        .value()
                        .is_some_and(|c| c.usb_driver.as_deref() == Some("uas"))
                })
                .collect();
            if !uas.is_empty() {
                format!(
                    "the disk is on UAS already ({}): nothing to move to UAS",
                    names(uas.into_iter())
                )
            } else if usb.is_empty() {
                "no disk of the run is known to sit behind a USB bridge or a hypervisor: the \
                 check reads lsusb -t's \"Driver=usb-storage\" or \"Driver=uas\", the kernel's \
                 \"USB Mass Storage device detected\" or \"scsi hostN: uas\", FreeBSD's \
                 \"umass0\", or a virtual disk's model; a dd to a file on a mounted drive \
                 names neither the drive nor its path"
                    .to_string()
            } else {
                format!(
                    "the USB disk ({}) shows nothing the check acts on: its driver (usb-storage \
                     or uas) is not in the run",
                    names(usb.into_iter())
                )
            }
        }
        // dmsetup table's "crypt" target, cryptsetup status, lsblk's TYPE "crypt", geli list
        // (GELI's "Crypto: software"), zfs get encryption, manage-bde -status.
        "encryption-bound" | "encryption-layer" => {
            let layers = disks().flat_map(|d| d.layers.iter()).any(|l| {
                matches!(
                    l.kind,
                    Some(LayerKind::Luks | LayerKind::DmCrypt | LayerKind::Geli)
                ) || l.cipher.is_some()
            });
            if layers {
                "an encryption layer is in the run, but nothing shows the cipher holding the \
                 rate (the cipher's own rate on this CPU, from cryptsetup benchmark or GELI's \
                 reported crypto, against the disk's)"
                    .to_string()
            } else {
                "no encryption layer is in the run: the check reads dmsetup table's crypt \
                 target, cryptsetup status, lsblk's TYPE crypt, geli list, zfs get encryption \
                 or manage-bde -status; a benchmark program's report (CrystalDiskMark, fio) \
                 prints no volume state, and a heading saying the volume is encrypted is prose"
                    .to_string()
            }
        }
        _ => return None,
    };
    Some(format!("{check} found nothing to judge: {why}"))
}

/// Bytes a 4 KiB NVMe read moves over PCIe besides its data, at the least: the 64-byte
/// submission entry (fetched by a read request and returned in a completion), the 16-byte
/// completion entry, the MSI-X write and two doorbell writes, each in a TLP with about 24
/// bytes of framing, sequence number, header and LCRC (NVMe 1.4 sections 4.2-4.6; PCIe Base
/// 3.0 section 2.1, 3.5). The data itself goes in 256-byte payload TLPs of the same framing.
const NVME_READ_OVERHEAD_BYTES: f64 = 230.0;
/// The data of a 4 KiB read with its TLP framing at a 256-byte payload: 16 TLPs of 24 bytes.
const NVME_READ_DATA_BYTES: f64 = 4096.0 + 16.0 * 24.0;

/// Why a finding's range does not answer `metric` (at `queue_depth`): its one range is for
/// another metric. Said for a link fix asked about 4 KiB reads at queue depth 1, where the
/// arithmetic of the link gives only the transfer's share of each request's time.
pub fn why_other_metric(
    sys: &SystemFacts,
    f: &Finding,
    metric: EffectMetric,
    queue_depth: Option<u32>,
) -> Option<String> {
    let e = f.expected_effect.as_ref()?;
    if e.metric == metric && e.queue_depth == queue_depth {
        return None;
    }
    let random = matches!(
        metric,
        EffectMetric::RandReadIops | EffectMetric::RandWriteIops
    );
    if f.check != "pcie-link-limited" || !random || queue_depth.is_some_and(|q| q > 1) {
        return Some(format!(
            "the finding's one range is for {}, not for {}",
            e.metric.words(),
            metric.words()
        ));
    }
    let d = sys.disks.iter().find(|d| d.name == f.device)?;
    let links = d.pcie.value()?;
    let now = links
        .iter()
        .filter_map(|l| Some(pcie_link_mbps(l.current_gts?, l.current_width?)))
        .fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.min(v))))?;
    let full = links
        .iter()
        .filter(|l| l.hop <= 1)
        .filter_map(|l| Some(pcie_link_mbps(l.max_gts?, l.max_width?)))
        .fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.max(v))))?;
    let bytes = NVME_READ_DATA_BYTES + NVME_READ_OVERHEAD_BYTES;
    // MB/s is bytes per microsecond.
    let us = |mbps: f64| bytes / mbps;
    Some(format!(
        "the finding's one range is for {} (what the link carries per second); a 4 KiB read \
         at queue depth 1 waits for each request's round trip, of which the link's transfer \
         is about {bytes:.0} bytes with the queue entries, interrupt and doorbells (NVMe 1.4, \
         PCIe 3.0 framing): {:.1} µs on the current link ({now:.0} MB/s after line coding) \
         and {:.1} µs on the full one ({full:.0} MB/s), so a read saves at most that \
         difference plus the link's own latency per crossing, which no stored source states \
         per generation; the rest of the time is the drive's, which the link does not change",
        e.metric.words(),
        us(now),
        us(full)
    ))
}
