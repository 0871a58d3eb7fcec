//! What pasted drive-settings and drive-log tools prove (sdparm, Seagate openSeaChest,
//! nvme error-log, FreeBSD tunefs -p): the drive's write cache, its own idle and standby
//! timers, its SATA Phy event counters and SMART verdict, the media errors its NVMe error
//! log holds, the sectors partclone could not read, the reads diskscan logged
//! uncorrectable, the vdevs ZED reports ZFS faulted over their errors, and a UFS
//! filesystem's TRIM flag; each on the disk the output names, else the disk you pasted.
//! Read on any OS: the tools print the same text everywhere.

use super::{pasted_disk, set_if_unknown, whole_disk_or};
use crate::facts::{self, Fact, FsTrim, SystemFacts, Transport};
use crate::pasted::{Block, Pasted};
use crate::sources;

pub(super) fn derive(sys: &mut SystemFacts, p: &Pasted) {
    for b in p.blocks {
        let t = b.tool;
        if t.is(&sources::sdparm::SPEC) {
            sdparm(sys, b);
        } else if t.is(&sources::openseachest::SPEC) {
            openseachest(sys, b);
        } else if t.is(&sources::nvme_error_log::SPEC) {
            nvme_error_log(sys, b);
        } else if t.is(&sources::tunefs::SPEC) {
            tunefs(sys, b);
        } else if t.is(&sources::proc_ide::SPEC) {
            proc_ide(sys, b);
        } else if t.is(&sources::badblocks::SPEC) {
            badblocks(sys, b);
        } else if t.is(&sources::diskscan::SPEC) {
            diskscan(sys, b);
        } else if t.is(&sources::ddrescue::SPEC) {
            ddrescue(sys, b);
        } else if t.is(&sources::esxi_vmkernel::SPEC) {
            esxi_vmkernel(sys, b);
        } else if t.is(&sources::partclone::SPEC) {
            partclone(sys, b);
        } else if t.is(&sources::zed::SPEC) {
            zed(sys, b);
        } else if t.is(&sources::btrfs_stats::SPEC) {
            btrfs_stats(sys, b);
        } else if t.is(&sources::provisioning_mode::SPEC) {
            provisioning_mode(sys, b, p);
        } else if t.is(&sources::sg_vpd::SPEC) {
            sg_vpd(sys, b);
        } else if t.is(&sources::sg_readcap::SPEC) {
            sg_readcap(sys, b);
        } else if t.is(&sources::sg_inq::SPEC) {
            sg_inq(sys, b);
        }
    }
}

/// The disk a block is about: the name its text or command gives (a partition's whole
/// disk), else a disk of the paste already named as the placeholder, else the placeholder.
pub(super) fn disk_name(sys: &SystemFacts, named: Option<&str>) -> String {
    match named
        .map(|n| n.trim_start_matches("/dev/"))
        .filter(|n| !n.is_empty())
    {
        Some(n) => whole_disk_or(n),
        None => sys
            .disks
            .iter()
            .find(|d| facts::is_pasted_disk(&d.name))
            .map(|d| d.name.clone())
            .unwrap_or_else(|| facts::PASTED_DISK.to_string()),
    }
}

fn disk<'a>(
    sys: &'a mut SystemFacts,
    b: &Block,
    named: Option<&str>,
) -> Option<&'a mut facts::DiskFacts> {
    let name = disk_name(sys, named.or(b.device.as_deref()));
    let note = format!(
        "known only from the pasted {} output ({})",
        b.tool.id(),
        b.key
    );
    pasted_disk(sys, &name, &note)
}

fn timers(d: &mut facts::DiskFacts, v: Vec<facts::DriveTimer>, key: &str) {
    if !v.is_empty() && !d.power.drive_timers.is_known() {
        d.power.drive_timers = Fact::known(v, key.to_string());
    }
}

fn sdparm(sys: &mut SystemFacts, b: &Block) {
    let r = sources::sdparm::parse(&b.text);
    let key = b.key.clone();
    let Some(d) = disk(sys, b, r.device.as_deref()) else {
        return;
    };
    if let Some(wce) = r.write_cache {
        set_if_unknown(&mut d.write_cache_enabled, Some(wce), &key);
        // WCE is a field of a page that only a drive with a cache has (SBC-3 6.5.5).
        set_if_unknown(&mut d.write_cache_supported, Some(true), &key);
    }
    if let Some(i) = &r.inquiry {
        set_if_unknown(&mut d.model, Some(i.clone()), &key);
    }
    // sdparm speaks SCSI: the disk is a SCSI device (or a SAT-translated ATA one).
    set_if_unknown(&mut d.transport, Some(Transport::Scsi), &key);
    timers(d, r.timers, &key);
}

fn openseachest(sys: &mut SystemFacts, b: &Block) {
    let r = sources::openseachest::parse(&b.text);
    let key = b.key.clone();
    // A Windows handle (\\.\PhysicalDrive3) names no disk of ours.
    let named = r.device.as_deref().filter(|d| !d.contains('\\'));
    let Some(d) = disk(sys, b, named) else {
        return;
    };
    set_if_unknown(&mut d.model, r.model.clone(), &key);
    set_if_unknown(&mut d.serial, r.serial.clone(), &key);
    set_if_unknown(&mut d.write_cache_enabled, r.write_cache, &key);
    set_if_unknown(&mut d.rotation_rpm, r.rotation_rpm, &key);
    if let Some(rpm) = r.rotation_rpm {
        set_if_unknown(&mut d.rotational, Some(rpm != 0), &key);
    }
    set_if_unknown(&mut d.link_current_gbps, r.link_current_gbps, &key);
    set_if_unknown(&mut d.link_drive_max_gbps, r.link_max_gbps, &key);
    let counters = r.phy_crc.is_some() || r.phy_r_err.is_some() || r.phy_comreset.is_some();
    if counters || r.smart_ok.is_some() || r.power_on_hours.is_some() {
        let mut s = d.smart.value().cloned().unwrap_or_default();
        s.sata_phy_crc_errors = s.sata_phy_crc_errors.or(r.phy_crc);
        s.sata_phy_r_errors = s.sata_phy_r_errors.or(r.phy_r_err);
        s.sata_phy_comresets = s.sata_phy_comresets.or(r.phy_comreset);
        s.health_passed = s.health_passed.or(r.smart_ok);
        s.power_on_hours = s.power_on_hours.or(r.power_on_hours);
        d.smart = Fact::known(s, key.clone());
    }
    timers(d, r.timers, &key);
}

/// A badblocks scan: what its last run found, on the disk its command names (badblocks
/// /dev/sda), else the disk you pasted (checks::media_errors reads it).
fn badblocks(sys: &mut SystemFacts, b: &Block) {
    let Some(mut scan) = sources::badblocks::parse(&b.text)
        .iter()
        .filter_map(sources::badblocks::scan)
        .next_back()
    else {
        return;
    };
    scan.from = b.key.clone();
    add_surface_scan(sys, b, scan);
}

/// A diskscan run whose drive called reads uncorrectable (sources::diskscan): media
/// errors of the disk it names, else of the disk you pasted.
fn diskscan(sys: &mut SystemFacts, b: &Block) {
    let Some(run) = sources::diskscan::parse(&b.text) else {
        return;
    };
    let Some(scan) = run.scan(&b.key) else { return };
    let Some(d) = disk(sys, b, run.device.as_deref()) else {
        return;
    };
    if !d.surface_scans.contains(&scan) {
        d.surface_scans.push(scan);
    }
}

/// A surface scan read from a paste, on the disk it names or the disk you pasted (once).
fn add_surface_scan(sys: &mut SystemFacts, b: &Block, scan: crate::model::SurfaceScan) {
    let Some(d) = disk(sys, b, None) else {
        return;
    };
    if !d.surface_scans.contains(&scan) {
        d.surface_scans.push(scan);
    }
}

/// A GNU ddrescue run: what its last status screen counted, as a surface scan of the disk
/// it read, the disk you pasted (its operands are files as often as disks, so none is
/// taken for the device). A run with no error read its input end to end.
fn ddrescue(sys: &mut SystemFacts, b: &Block) {
    let Some(mut scan) = sources::ddrescue::parse(&b.text)
        .as_ref()
        .and_then(sources::ddrescue::scan)
    else {
        return;
    };
    scan.from = b.key.clone();
    add_surface_scan(sys, b, scan);
}

/// A partclone run whose reads of its source failed with EIO (sources::partclone): sectors
/// the disk could not read, as a surface scan of the disk it cloned (the partition's disk),
/// else the disk you pasted. A run stopped by its filesystem check gives nothing.
fn partclone(sys: &mut SystemFacts, b: &Block) {
    for r in sources::partclone::parse(&b.text) {
        let Some(line) = r.failure_line.filter(|_| r.read_failures > 0) else {
            continue;
        };
        let scan = crate::model::SurfaceScan {
            tool: "partclone".to_string(),
            bad_blocks: r.read_failures,
            read_errors: Some(r.read_failures),
            write_errors: None,
            corruption_errors: None,
            completed: false,
            line,
            from: b.key.clone(),
        };
        let Some(d) = disk(sys, b, r.device.as_deref()) else {
            continue;
        };
        if !d.surface_scans.contains(&scan) {
            d.surface_scans.push(scan);
        }
    }
}

/// ZED's notice that ZFS faulted or degraded a vdev over its errors (sources::zed), as
/// zpool status's "too many errors" row of that vdev (checks::media_errors reads it); an
/// io or checksum notice with the vdev's counts gives those counts. The vdev's disk is the
/// kernel name of its path (/dev/sdc1: sdc), else the disk you pasted.
fn zed(sys: &mut SystemFacts, b: &Block) {
    for e in sources::zed::parse(&b.text) {
        let counted = [e.read, e.write, e.cksum]
            .iter()
            .any(|n| n.is_some_and(|n| n > 0));
        if !e.faulted_for_errors() && !counted {
            continue;
        }
        let name = e
            .vpath
            .as_deref()
            .map(|p| p.rsplit('/').next().unwrap_or(p))
            .filter(|n| sources::spec::DEV_ARG.is_match(n));
        let errors = crate::model::VdevErrors {
            pool: e.pool.clone().unwrap_or_default(),
            vdev: e
                .vpath
                .clone()
                .unwrap_or_else(|| "(no path in ZED's notice)".to_string()),
            state: e.state.clone(),
            read_errors: e.read,
            write_errors: e.write,
            checksum_errors: e.cksum,
            note: e
                .faulted_for_errors()
                .then(|| "too many errors".to_string()),
            line: e.headline.clone(),
            from: b.key.clone(),
        };
        let Some(d) = disk(sys, b, name) else {
            continue;
        };
        if !d.vdev_errors.contains(&errors) {
            d.vdev_errors.push(errors);
        }
    }
}

/// An ESXi vmkernel log: the commands it shows failed with a MEDIUM ERROR sense key
/// (sources::esxi_vmkernel), on the disk you pasted (its device ids are the host's, not a
/// node of this system). Other failures (a refused command, a driver's status-less "command
/// failed") say nothing of the medium and give nothing.
fn esxi_vmkernel(sys: &mut SystemFacts, b: &Block) {
    let lines = sources::esxi_vmkernel::medium_error_lines(&b.text);
    if lines.is_empty() {
        return;
    }
    let Some(d) = disk(sys, b, None) else {
        return;
    };
    for line in lines {
        if !d.kernel_events.iter().any(|e| e.line == line) {
            d.kernel_events.push(crate::model::KernelEvent {
                kind: crate::model::KernelEventKind::MediumError,
                line,
                from: b.key.clone(),
            });
        }
    }
}

/// `btrfs device stats`: each member device whose reads, writes or flushes btrfs saw fail
/// (the block layer returned an error for them: fs/btrfs/volumes.h BTRFS_DEV_STAT_READ_ERRS,
/// WRITE_ERRS, FLUSH_ERRS) gets them as its failed I/O, as ZFS's READ and WRITE columns of a
/// vdev are (checks::media_errors reads both). Corruption and generation counts alone (no
/// failed I/O) are left: they say data came back wrong, from the drive, its path or memory,
/// and their fix is btrfs's scrub, not a drive's test.
fn btrfs_stats(sys: &mut SystemFacts, b: &Block) {
    let note = format!(
        "known only from the pasted {} output ({})",
        b.tool.id(),
        b.key
    );
    btrfs_counters(sys, sources::btrfs_stats::parse(&b.text), &b.key, &note);
}

/// Each device's btrfs counters with failed I/O as its failed I/O ([`btrfs_stats`]), from
/// `btrfs device stats` or from the kernel's print of the same counters
/// (sources::btrfs_stats::printk_stats): the two say the same thing and agree.
pub(super) fn btrfs_counters(
    sys: &mut SystemFacts,
    devs: Vec<sources::btrfs_stats::BtrfsDevStats>,
    key: &str,
    note: &str,
) {
    let key = key.to_string();
    for dev in devs {
        let sum = |xs: [Option<u64>; 2]| {
            xs.into_iter().flatten().fold(None, |a: Option<u64>, x| {
                Some(a.unwrap_or(0).saturating_add(x))
            })
        };
        let errors = crate::model::VdevErrors {
            pool: String::new(),
            vdev: dev.device.clone(),
            state: None,
            read_errors: dev.read_io_errs,
            write_errors: sum([dev.write_io_errs, dev.flush_io_errs]),
            checksum_errors: sum([dev.corruption_errs, dev.generation_errs]),
            note: None,
            line: format!(
                "[{}] write_io_errs {} read_io_errs {} flush_io_errs {} corruption_errs {} \
                 generation_errs {}",
                dev.device,
                dev.write_io_errs.unwrap_or(0),
                dev.read_io_errs.unwrap_or(0),
                dev.flush_io_errs.unwrap_or(0),
                dev.corruption_errs.unwrap_or(0),
                dev.generation_errs.unwrap_or(0)
            ),
            from: key.clone(),
        };
        if !errors.io_failed() {
            continue;
        }
        let name = disk_name(sys, Some(&dev.device));
        let Some(d) = pasted_disk(sys, &name, note) else {
            continue;
        };
        if !d.vdev_errors.iter().any(|e| e.line == errors.line) {
            d.vdev_errors.push(errors);
        }
    }
}

/// The error log's media errors (SCT 2h, unrecovered reads, write faults) as the drive's
/// count of logged uncorrectable errors; refused admin commands add nothing.
fn nvme_error_log(sys: &mut SystemFacts, b: &Block) {
    let entries = sources::nvme_error_log::parse(&b.text);
    let media = entries.iter().filter(|e| e.is_media_error()).count();
    let key = b.key.clone();
    // nvme-cli names the controller (nvme1); its namespace is the disk (nvme1n1).
    let ctrl = b.device.as_deref().map(|c| match c.strip_prefix("nvme") {
        Some(n) if !n.is_empty() && n.chars().all(|x| x.is_ascii_digit()) => format!("{c}n1"),
        _ => c.to_string(),
    });
    let Some(d) = disk(sys, b, ctrl.as_deref()) else {
        return;
    };
    if !d.transport.is_known() {
        d.transport = Fact::known(Transport::Nvme, key.clone());
    }
    let mut s = d.smart.value().cloned().unwrap_or_default();
    let n = u64::try_from(media).unwrap_or(u64::MAX);
    s.error_log_unc = Some(s.error_log_unc.map_or(n, |x| x.max(n)));
    d.smart = Fact::known(s, key);
}

/// A /proc/ide chipset page: each drive position running UDMA gets its parallel-ATA mode
/// (the rate in use, the chipset's highest, the channel's cable), for sata-link-below-max to
/// judge. The positions are hda..hdd by the old IDE driver's fixed naming
/// (sources::proc_ide); a PIO or DMA position may be empty or an optical drive, and is left.
fn proc_ide(sys: &mut SystemFacts, b: &Block) {
    let key = b.key.clone();
    for page in sources::proc_ide::parse(&b.text) {
        for drive in &page.drives {
            let Some(cur) = drive.udma_mb_s else { continue };
            let note = format!("known only from the pasted /proc/ide page ({key})");
            let Some(d) = pasted_disk(sys, &drive.name, &note) else {
                continue;
            };
            set_if_unknown(&mut d.transport, Some(Transport::Pata), &key);
            if d.pata_mode.is_known() {
                continue;
            }
            let cable = match drive.cable_80w {
                Some(true) => "80w",
                Some(false) => "40w",
                None => "unknown",
            };
            d.pata_mode = Fact::known(
                crate::model::PataMode {
                    current_udma_mb_s: Some(cur),
                    drive_max_udma_mb_s: None,
                    host_max_udma_mb_s: page.host_max_udma_mb_s,
                    cable_40_wire: drive.cable_80w == Some(false),
                    model: None,
                    line: format!(
                        "/proc/ide/{}: drive{} UDMA at {cur} MB/s, cable {cable}, highest DMA rate UDMA{}",
                        page.chipset.to_ascii_lowercase(),
                        drive.index,
                        page.host_max_udma_mb_s
                            .map_or_else(|| "?".to_string(), |m| m.to_string())
                    ),
                    faster_elsewhere: None,
                },
                key.clone(),
            );
        }
    }
}

/// A SCSI disk's provisioning_mode (sources::provisioning_mode), on the disk its path
/// names, else the disk the paste's kernel log names at the path's SCSI address ("sd
/// 8:0:0:0: [sde] ..."), else the disk you pasted. "full" and "disabled" set the queue's
/// discard limit to 0 (sd.c sd_config_discard): discard_max_bytes = 0. A write into the file
/// that the kernel refused is a discard path someone asked for and did not get
/// (discard_refused), the mode left where it was, which for a disk someone switches is the
/// no-discard "full" (the script or the user would not switch an "unmap" disk).
fn provisioning_mode(sys: &mut SystemFacts, b: &Block, p: &Pasted) {
    let key = b.key.clone();
    for m in sources::provisioning_mode::parse(&b.text) {
        let by_address = m.hctl.as_deref().and_then(|a| {
            let tag = format!("sd {a}: [");
            p.lines.iter().find_map(|l| {
                let rest = l.text.split_once(tag.as_str())?.1;
                let name = rest.split(']').next()?;
                (!name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric()))
                    .then(|| name.to_string())
            })
        });
        let named = m.disk.clone().or(by_address);
        let Some(d) = disk(sys, b, named.as_deref()) else {
            continue;
        };
        if let Some(line) = &m.write_failed {
            if !d.trim.discard_refused.is_known() {
                d.trim.discard_refused = Fact::known(line.clone(), key.clone());
            }
            set_if_unknown(&mut d.trim.discard_max_bytes, Some(0), &key);
        } else if m.no_discard() {
            set_if_unknown(&mut d.trim.discard_max_bytes, Some(0), &key);
        }
        if let Some(mode) = &m.mode {
            d.notes
                .push(format!("provisioning_mode ({key}): \"{mode}\""));
        }
    }
}

/// sg_vpd's pages (sources::sg_vpd): the device's nominal rotation rate (Block Device
/// Characteristics page), and a note of what its provisioning page advertises. The
/// provisioning page is the device's (or its bridge's) offer, not Linux's use of it
/// (sources::provisioning_mode), so it sets no discard fact.
fn sg_vpd(sys: &mut SystemFacts, b: &Block) {
    let r = sources::sg_vpd::parse(&b.text);
    let key = b.key.clone();
    let Some(d) = disk(sys, b, None) else {
        return;
    };
    set_if_unknown(&mut d.rotation_rpm, r.rotation_rpm, &key);
    set_if_unknown(&mut d.rotational, r.rotation_rpm.map(|n| n != 0), &key);
    if let Some(u) = r.unmap_supported {
        d.notes.push(format!(
            "sg_vpd ({key}): the device {} the UNMAP command (LBPU={})",
            if u {
                "advertises"
            } else {
                "does not advertise"
            },
            u8::from(u)
        ));
    }
}

/// sg_readcap's READ CAPACITY answer (sources::sg_readcap): the block sizes and the size,
/// and on Linux, with LBPME clear, a discard limit of 0: sd.c configures discards only for
/// a logical unit that sets LBPME (sd_read_block_limits), so the kernel sends none to it
/// whatever its VPD pages offer, unless someone set provisioning_mode by hand. A limit
/// pasted from sysfs or lsblk -D (read earlier) is what the kernel actually has, and wins.
fn sg_readcap(sys: &mut SystemFacts, b: &Block) {
    let r = sources::sg_readcap::parse(&b.text);
    let key = b.key.clone();
    let linux = sys.platform != crate::evidence::Platform::Freebsd;
    let Some(d) = disk(sys, b, None) else {
        return;
    };
    set_if_unknown(&mut d.logical_sector_bytes, r.logical_bytes, &key);
    set_if_unknown(&mut d.physical_sector_bytes, r.physical_bytes, &key);
    set_if_unknown(&mut d.size_bytes, r.size_bytes, &key);
    if linux && r.lbpme == Some(false) {
        set_if_unknown(&mut d.trim.discard_max_bytes, Some(0), &key);
        d.notes.push(format!(
            "sg_readcap ({key}): lbpme=0: the device reports no logical block provisioning, \
             so Linux's sd driver leaves discards off (provisioning_mode \"full\")"
        ));
    }
}

/// sg_inq's INQUIRY answer (sources::sg_inq): vendor, model and revision, and an SSD by its
/// product name ("Portable SSD T5": vendors put the word in SSD product names, no HDD
/// carries it; a hybrid drive says SSHD).
fn sg_inq(sys: &mut SystemFacts, b: &Block) {
    let r = sources::sg_inq::parse(&b.text);
    let key = b.key.clone();
    let Some(d) = disk(sys, b, None) else {
        return;
    };
    set_if_unknown(&mut d.model, r.model(), &key);
    set_if_unknown(&mut d.firmware, r.revision.clone(), &key);
    let ssd = r.product.as_deref().is_some_and(|p| {
        p.split(|c: char| !c.is_ascii_alphanumeric())
            .any(|w| w.eq_ignore_ascii_case("ssd"))
    });
    if ssd {
        set_if_unknown(&mut d.class, Some(facts::DeviceClass::Ssd), &key);
    }
}

/// `tunefs -p` of a UFS partition: its TRIM flag, on the partition's disk.
fn tunefs(sys: &mut SystemFacts, b: &Block) {
    let Some(on) = sources::tunefs::trim_enabled(&b.text) else {
        return;
    };
    let key = b.key.clone();
    let part = b
        .device
        .as_deref()
        .map(|x| x.trim_start_matches("/dev/").to_string())
        .unwrap_or_else(|| "the pasted filesystem".to_string());
    let Some(d) = disk(sys, b, None) else {
        return;
    };
    let mut t = d
        .trim
        .fs_trim
        .value()
        .cloned()
        .unwrap_or_else(FsTrim::default);
    let list = if on {
        &mut t.online
    } else {
        &mut t.without_discard
    };
    if !list.contains(&part) {
        list.push(part);
    }
    d.trim.fs_trim = Fact::known(t, key);
}
