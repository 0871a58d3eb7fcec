//! `media-errors`: the drive has trouble reading its own media: pending, reallocated or
//! offline-uncorrectable sectors, failing SMART attributes, NVMe media errors, and kernel
//! medium errors or I/O timeouts on the disk. References: ATA/ACS-3 SMART (attributes 5,
//! 187, 197, 198 as smartmontools' drive database names them), NVMe 1.4 SMART/Health log
//! (Media and Data Integrity Errors), SCSI sense key 03h MEDIUM ERROR.

use crate::checks::common::{self, Source, cite, how_to_know};
use crate::checks::{Check, Confidence, Finding, Fix, Severity, Verdict};
use crate::evidence::Platform;
use crate::facts::{DeviceClass, DiskFacts, KernelEventKind, SystemFacts};
use crate::sources::kernel_log::is_buffer_io_error;
use crate::sources::{ask, ask_bare, power_log, spec::Ask};

pub const ID: &str = "media-errors";

mod nvme_stall;

/// The share of rated write endurance used from which an SSD counts as worn out.
const WORN_OUT_PERCENT: u64 = 95;

pub(crate) struct MediaErrors;

impl Check for MediaErrors {
    fn id(&self) -> &'static str {
        ID
    }
    fn label(&self) -> &'static str {
        "Media errors"
    }
    fn summary(&self) -> &'static str {
        "pending/reallocated/uncorrectable sectors, failing SMART, kernel medium errors and timeouts"
    }
    fn run(&self, sys: &SystemFacts) -> Vec<Finding> {
        let mut out: Vec<Finding> = common::disks(sys).map(|d| check_disk(sys, d)).collect();
        out.extend(lost_pool_data(sys));
        out.extend(btrfs_bad_data(sys));
        out
    }
}

/// ZFS pools that lost data (ArrayActivity::data_errors, sources::zpool::data_errors): blocks
/// whose every copy failed its checksum or could not be read, listed in the pool's
/// persistent error log (zpool-status(8), ZFS-8000-8A). Said of the pool when no member disk
/// carries ZFS's error counts of it already (the paste cut the vdev rows, or the counters
/// were cleared): the media of the members returned bad data and nothing could repair it,
/// unless memory or a controller corrupted it on the way.
fn lost_pool_data(sys: &SystemFacts) -> Vec<Finding> {
    let Some(arrays) = sys.arrays.value() else {
        return Vec::new();
    };
    let counted = |pool: &str| {
        sys.disks
            .iter()
            .any(|d| d.vdev_errors.iter().any(|v| v.pool == pool))
    };
    let mut out = Vec::new();
    for a in arrays
        .iter()
        // A degraded pool lost a member (REMOVED, UNAVAIL): the blocks it cannot repair had
        // their other copy there, and the member's disappearance (cable, port, power) is what
        // link-errors and array-rebuilding report; the permanent errors say nothing of media.
        .filter(|a| a.kind == "zfs" && !counted(&a.name) && !a.degraded)
        // Blocks lost when the pool's I/O failed with no member to blame (ZFS-8000-HC/-JQ
        // and every leaf clean) were never read from a medium: read-errors reports them.
        .filter(|a| a.io_failure.is_none())
    {
        let Some(line) = &a.data_errors else { continue };
        let pool = if a.name == crate::sources::zpool::UNNAMED {
            "POOL"
        } else {
            a.name.as_str()
        };
        let mut f = Finding::new(
            ID,
            &a.name,
            Verdict::Problem,
            Severity::Warning,
            format!("{}: ZFS lost data it could not repair", a.name),
        )
        .explain(format!(
            "\"{line}\": ZFS read blocks of {} whose data failed its checksum, or could not \
             be read, on every copy the pool keeps, so it could not repair them (ZFS-8000-8A). \
             Most often a member disk's media returned bad data where the pool had no \
             redundancy left; memory or a controller that corrupts data on the way does the \
             same. No member disk with ZFS's error counts is known here, so which disk is not said.",
            a.name
        ))
        .confidence(Confidence::Medium)
        .impact(0.3);
        for k in &a.from {
            f = f.evidence(k.clone(), line.clone());
        }
        if sys.platform != Platform::Unknown {
            f = f.fix(Fix {
                platform: sys.platform,
                summary: "find the damaged files and the disk that returned them".to_string(),
                steps: vec![
                    format!(
                        "`zpool status -v {pool}` lists the damaged files: restore them from \
                         a backup, or delete them"
                    ),
                    format!(
                        "The vdev rows' READ and CKSUM columns name the disk; read its SMART \
                         report (`{}`) for pending or uncorrectable sectors",
                        ask_bare(Ask::SmartExtended)
                    ),
                    format!(
                        "After a `zpool scrub {pool}` ends, the list keeps only what is still \
                         damaged"
                    ),
                ],
                risk: "a scrub reads every block of the pool: slower I/O until it ends".to_string(),
            });
        }
        out.push(f);
    }
    out
}

/// btrfs filesystems whose scrub found blocks with the wrong content (csum and verify
/// errors, sources::btrfs_scrub): the device returned data, but not the data btrfs wrote.
/// As with ZFS's checksum errors, a drive's media returning bad data is the usual cause,
/// memory or a controller corrupting it on the way the other; corrected ones were repaired
/// from another copy, uncorrectable ones are lost.
fn btrfs_bad_data(sys: &SystemFacts) -> Vec<Finding> {
    let Some(arrays) = sys.arrays.value() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for a in arrays.iter().filter(|a| a.kind == "btrfs") {
        let Some(line) = &a.data_errors else { continue };
        let mut f = Finding::new(
            ID,
            &a.name,
            Verdict::Problem,
            Severity::Warning,
            format!("{}: btrfs's scrub found blocks with bad checksums", a.name),
        )
        .explain(format!(
            "\"{line}\": blocks of {} read back from a member device did not match the \
             checksum btrfs stored when it wrote them. Most often the drive's medium returned \
             bad data; memory or a controller that corrupts data on the way does the same.",
            a.name
        ))
        .confidence(Confidence::Medium)
        .impact(0.3);
        for k in &a.from {
            f = f.evidence(k.clone(), line.clone());
        }
        if sys.platform != Platform::Freebsd {
            f = f.fix(Fix {
                platform: Platform::Linux,
                summary: "find the damaged files and the disk that returned them".to_string(),
                steps: vec![
                    "`btrfs device stats MOUNTPOINT`: corruption_errs names the member".to_string(),
                    "`dmesg | grep -i 'checksum error'` names the damaged files (\"csum failed \
                     root N ino N\"): restore them from a backup"
                        .to_string(),
                    format!(
                        "That member's SMART report (`{}`); a memory test if every member \
                         shows errors",
                        ask_bare(Ask::SmartExtended)
                    ),
                ],
                risk: "none: these only read".to_string(),
            });
        }
        out.push(f);
    }
    out
}

fn is_media_event(k: KernelEventKind) -> bool {
    matches!(
        k,
        KernelEventKind::MediumError
            | KernelEventKind::IoTimeout
            | KernelEventKind::IoError
            | KernelEventKind::DeviceError
    )
}

/// Whether the disk's plain I/O errors ("I/O error, dev sda, sector N" with no sense data
/// naming the medium) are better explained by its link than by its media: no medium-error
/// line, no pending or uncorrectable sector in SMART, and the link itself failing (CRC or
/// bus errors, speed step-downs, COMRESET failures): I/O submitted while the link is down or
/// being renegotiated fails without the drive ever reading the sector. A reset alone does
/// not count (libata's error handler resets the link after any timeout), and timeouts stay
/// media errors: a drive retrying a bad sector internally also times out.
pub(crate) fn link_explains_io_errors(d: &DiskFacts) -> bool {
    let medium = d
        .kernel_events
        .iter()
        .any(|e| e.kind == KernelEventKind::MediumError);
    let bad_sectors = d.smart.value().is_some_and(|s| {
        s.pending_sectors.is_some_and(|n| n > 0) || s.offline_uncorrectable.is_some_and(|n| n > 0)
    });
    let link_failing = d.kernel_events.iter().any(|e| {
        matches!(
            e.kind,
            KernelEventKind::CrcError
                | KernelEventKind::LinkSpeedLimited
                | KernelEventKind::ComresetFailed
                | KernelEventKind::TransportError
        )
    });
    // A disk that did not answer its probe (READ CAPACITY failed, spin-up not responding:
    // sources::kernel_log::is_unanswered_disk_probe) failed before any I/O of its own ran:
    // a USB disconnect or a reset beside it does not make it the link's, and the failed
    // probe stays read-errors' (the cause is not shown).
    let unanswered = d.kernel_events.iter().any(|e| {
        e.kind == KernelEventKind::IoError
            && crate::sources::kernel_log::is_unanswered_disk_probe(&e.line.to_ascii_lowercase())
    });
    !medium && !bad_sectors && link_failing && !unanswered
}

/// Whether the disk's plain I/O errors are better explained by its NVMe controller being
/// reset after a power-saving state (the kernel's own "controller is down; will reset" and
/// "faulty power saving mode" lines, sources::power_log; power-management names it): the
/// requests in flight when the controller dropped off the bus fail without the drive
/// reading the medium.
fn power_explains_io_errors(d: &DiskFacts) -> bool {
    let medium = d
        .kernel_events
        .iter()
        .any(|e| e.kind == KernelEventKind::MediumError);
    // A disk whose medium vanished after a spin-down (capacity 0,
    // sources::power_log::medium_lost_after_stop): its reads fail "beyond end of device".
    let lost = d
        .power
        .power_log
        .value()
        .is_some_and(|v| v.iter().any(|l| power_log::is_medium_lost(l)));
    if lost && !medium {
        return true;
    }
    // Only an NVMe controller's resets: a SATA drive's failed link power management setup
    // (the same fact, sources::power_log) fails no I/O request.
    d.is_nvme()
        && !medium
        && d.power.power_log.value().is_some_and(|v| {
            v.iter()
                .any(|l| !l.contains("AER") && !l.contains("PCIe Bus Error"))
        })
}

/// Whether an NVMe disk's command timeouts are its controller's or its path's rather than
/// its medium's: the driver aborted or reset commands that ran past their timeout
/// (drivers/nvme/host/pci.c nvme_timeout: "I/O 775 QID 2 timeout, aborting", "..., reset
/// controller"), and no command failed with a status of its own. An NVMe drive reports an
/// unreadable block with a media status (NVMe Base 2.0 figure 102, status code type 2h,
/// read by sources::kernel_log); a timeout says the controller did not answer in time: a
/// firmware or power-state hang, the PCIe link, or for a guest the host's storage backend.
/// A controller the driver then removed (an I/O error line) stays here as a failed drive.
/// The block layer's "I/O error, dev nvme0n1, sector N" of the requests the driver aborted
/// (their status "Host Aborted Command (sct 0x3 / sc 0x71)", a path status) names no
/// cause of its own: it does not make the timeouts a medium's.
///
/// Except when the controller answered the Abort of a timed-out command ("Abort status:
/// 0x0", sources::kernel_log::is_answered_nvme_abort) and nothing in the log speaks of a
/// power state (no sleep transition, no hint of the kernel's, no power log at all), and
/// the block layer then failed requests with their sectors: the controller was awake and
/// on its link, and the I/O hung inside the drive, as it does reading flash it can no
/// longer read in time; the timeouts and the failed reads are the drive's.
pub(crate) fn nvme_timeouts_are_the_path(d: &DiskFacts) -> bool {
    let answered = d.kernel_events.iter().any(|e| {
        e.kind == KernelEventKind::IoTimeout
            && crate::sources::kernel_log::is_answered_nvme_abort(&e.line)
    });
    let power = d.power.power_log.value().is_some_and(|v| !v.is_empty());
    let failed_reads = d
        .kernel_events
        .iter()
        .any(|e| e.kind == KernelEventKind::IoError && is_aborted_request_error(&e.line));
    // The drive's own hang: an answered abort, requests the block layer then failed with
    // their sectors, and no power-state line. Timeouts alone stay the path's.
    let drive_hung = answered && failed_reads && !power;
    d.is_nvme()
        && !drive_hung
        && d.kernel_events
            .iter()
            .any(|e| e.kind == KernelEventKind::IoTimeout)
        && !d.kernel_events.iter().any(|e| {
            matches!(
                e.kind,
                KernelEventKind::MediumError | KernelEventKind::DeviceError
            ) || (e.kind == KernelEventKind::IoError && !is_aborted_request_error(&e.line))
        })
}

/// A block-layer I/O error line of a request, which carries no status of its own
/// (blk-core.c blk_print_req_error "I/O error, dev nvme0n1, sector 8 op 0x0:(READ)", older
/// "blk_update_request: I/O error, dev ..."), as opposed to the driver giving the controller
/// up ("Removing after probe failure", "Device not ready; aborting reset").
fn is_aborted_request_error(line: &str) -> bool {
    let low = line.to_ascii_lowercase();
    low.contains("i/o error, dev ")
        && !low.contains("removing after probe failure")
        && !low.contains("device not ready")
}

/// Power-on hours the drive must have run since its newest logged UNC error, with no
/// sector pending or offline-uncorrectable now, for those entries to count as history: the
/// sector was read or rewritten since and the drive kept no unreadable one (months of use).
const UNC_HISTORY_HOURS: u64 = 1000;

/// At most this many reallocated sectors, with none pending, none offline-uncorrectable and
/// none reported uncorrectable, is a count to watch, not a finding: smartd's default
/// directives (smartd.conf(5), `-a` = `-H -f -t -l error -l selftest -C 197 -U 198`) warn
/// on a failing health status or attribute, new error-log or self-test entries and
/// pending (197) or offline-uncorrectable (198) sectors, not on attribute 5's raw count,
/// which the drive's own normalised value and threshold judge. A single media flaw (a
/// particle, a scratch) spans a few neighbouring sectors; ten is a flaw or two. More than
/// that, or any sector still unreadable, stays a warning (Pinheiro et al., "Failure Trends
/// in a Large Disk Drive Population", FAST 2007: failure rates rise with the count).
const FEW_REALLOCATIONS: u64 = 10;

/// The reallocated count when it is the only thing the SMART data holds against the drive
/// and it is a few (`FEW_REALLOCATIONS`): pending and offline-uncorrectable known to be 0,
/// no reported-uncorrectable or UNC entries, health not FAILED.
fn few_reallocations_only(s: &crate::model::Smart) -> Option<u64> {
    let n = s
        .reallocated_sectors
        .filter(|n| (1..=FEW_REALLOCATIONS).contains(n))?;
    let zero = |v: Option<u64>| v.is_none_or(|x| x == 0);
    (s.pending_sectors == Some(0)
        && zero(s.offline_uncorrectable)
        && zero(s.reported_uncorrect)
        && zero(s.error_log_unc)
        && zero(s.self_test_errors)
        && zero(s.media_errors)
        && s.health_passed != Some(false)
        && s.failing_attributes.is_empty())
    .then_some(n)
}

/// The ATA error log's UNC entries when they are old history: (entries, lifetime of the
/// newest, power-on hours now). The log keeps its last five entries for the drive's whole
/// life (ACS-3 A.7, Summary/Comprehensive SMART Error log), so a read that failed years ago
/// stays listed; with Current_Pending_Sector 0 and no offline-uncorrectable sector the drive
/// holds no unreadable sector now. Counting them needs the lifetime of the newest entry and
/// the power-on hours (SMART attribute 9).
///
/// The entry's lifetime is a 16-bit word (ACS-3 A.7: "Life timestamp" of the error log data
/// structure; smartmontools prints it from an unsigned short), so past 65,535 power-on hours
/// it has wrapped: only the age modulo 65,536 is known, and the smallest age that fits is
/// taken, so that a recent entry is never read as old history.
fn old_unc_entries(s: &crate::facts::Smart) -> Option<(u64, u64, u64)> {
    const LIFE_STAMP_WRAP: u64 = 1 << 16;
    let n = s.error_log_unc.filter(|n| *n > 0)?;
    let last = s.error_log_unc_last_hours?;
    let poh = s.power_on_hours?;
    let none_now = s.pending_sectors == Some(0) && s.offline_uncorrectable.is_none_or(|x| x == 0);
    let since = poh.checked_sub(last)?;
    let age = if last < LIFE_STAMP_WRAP {
        since % LIFE_STAMP_WRAP
    } else {
        since
    };
    (none_now && age >= UNC_HISTORY_HOURS).then_some((n, last, poh))
}

/// The pasted dd runs that stopped with an I/O error on `d` or one of its partitions
/// (sources::dd::failed_io_device), with the node each failed on. A raw read or write that
/// the device answers with EIO is the block layer passing on a request the drive failed: an
/// unreadable or unwritable sector, or a drive that stopped answering (the kernel log of
/// the moment tells which). A virtual disk's EIO is the host's (virtual-or-bridged-device).
fn failed_runs<'a>(
    sys: &'a SystemFacts,
    d: &DiskFacts,
) -> Vec<(String, &'a crate::facts::UserBenchmark)> {
    if crate::checks::common::is_virtual_disk(d) {
        return Vec::new();
    }
    sys.user_benchmarks
        .iter()
        .filter_map(|b| Some((crate::sources::dd::failed_io_device(b)?, b)))
        .filter(|(node, _)| crate::facts::device_names::whole_disk(node) == d.name)
        .collect()
}

/// Whether a kernel I/O error line says the request failed with the block layer's generic
/// status, BLK_STS_IOERR, rather than a medium's. Since Linux 4.13 the block layer prints
/// each failed request with the text of its status (block/blk-core.c blk_errors[] via
/// print_req_error, later blk_update_request and blk_print_req_error: "I/O error, dev
/// sdb, sector 8 op 0x0:(READ)", "critical medium error, dev ...", "timeout, dev ..."), and
/// the drivers report a medium fault as BLK_STS_MEDIUM: the SCSI midlayer sets
/// DID_MEDIUM_ERROR for sense MEDIUM ERROR with ASC 11h/13h/14h (scsi_error.c
/// scsi_check_sense), and nvme_error_status maps Write Fault and Unrecovered Read Error to
/// it. So a plain "I/O error" of that era is a request that failed for another reason.
/// Older kernels printed "end_request: I/O error" (and 3.18-4.12 "blk_update_request: I/O
/// error, dev sda, sector N" without the op) for every failure: those say nothing either
/// way and are not read here. Also generic: the NVMe statuses sources::kernel_log reads as
/// plain I/O errors ("(sct 0x2 / sc 0x86)"), and the block line of an NVMe disk whose
/// status line decides ("critical medium error, dev nvme0n1" beside it).
/// Also libata's "(device error)" whose error register names no medium
/// (sources::kernel_log::is_unnamed_ata_device_error), and sd's probe of a disk that did
/// not answer (sources::kernel_log::is_unanswered_disk_probe).
fn states_generic_status(line: &str) -> bool {
    let low = line.to_ascii_lowercase();
    low.contains("print_req_error: i/o error")
        || (low.contains("i/o error, dev ") && low.contains(" op 0x"))
        || low.contains("(sct 0x")
        || low.contains("critical medium error, dev nvme")
        || crate::sources::kernel_log::is_unnamed_ata_device_error(line)
        || crate::sources::kernel_log::is_unanswered_disk_probe(&low)
}

/// The disk's kernel I/O error lines when they are all that is held against it: every
/// error line states the generic status ([`states_generic_status`]) or is the buffer
/// cache's echo of one ([`is_buffer_io_error`]), with no medium error, timeout or
/// device error beside it, no link or power state that explains them (those checks name
/// them), no virtual layer, and nothing from the drive itself (no SMART counter of bad
/// sectors, no failing health or attribute, no ZFS or RAID controller error counts, no
/// failed surface scan or dd run). A request the block layer failed without a sense key,
/// an ATA error register or an NVMe media status names no cause: the drive may have
/// refused it, the path or a layer above it may have failed it (a guest's passed-through
/// device, an IOMMU, a bridge), so the failed I/O is read-errors', not evidence of the
/// medium.
pub(crate) fn generic_io_errors_only<'a>(
    sys: &SystemFacts,
    d: &'a DiskFacts,
) -> Vec<&'a crate::facts::KernelEvent> {
    if !crate::checks::virtual_or_bridged_device::virtual_trouble(d).is_empty()
        || link_explains_io_errors(d)
        || power_explains_io_errors(d)
        || nvme_timeouts_are_the_path(d)
        || d.controller_drive.is_some()
        || !d.vdev_errors.is_empty()
        || !d.surface_scans.is_empty()
        || !failed_runs(sys, d).is_empty()
    {
        return Vec::new();
    }
    let zero = |v: Option<u64>| v.is_none_or(|x| x == 0);
    let smart_clean = d.smart.value().is_none_or(|s| {
        zero(s.pending_sectors)
            && zero(s.offline_uncorrectable)
            && zero(s.reallocated_sectors)
            && zero(s.reported_uncorrect)
            && zero(s.media_errors)
            && zero(s.self_test_errors)
            && zero(s.error_log_unc)
            && s.health_passed != Some(false)
            && s.failing_attributes.is_empty()
    });
    if !smart_clean {
        return Vec::new();
    }
    let errors: Vec<_> = d
        .kernel_events
        .iter()
        .filter(|e| is_media_event(e.kind))
        .collect();
    // An MMC/SD card's block driver fails every request with BLK_STS_IOERR
    // (drivers/mmc/core/block.c mmc_blk_mq_complete_rq), whatever the card's fault: its
    // "I/O error" is all a card can say, and stays media-errors'.
    let card = d.name.starts_with("mmcblk");
    // A filesystem's own report of a request its device failed (JBD2's "Detected IO
    // errors while flushing file data on sda1-8", ext4's and XFS's I/O error lines,
    // sources::kernel_log::fs_io_error_device) states the failure as the block layer's line
    // does, and no more of its cause.
    // FreeBSD's g_vfs_done()/spec_getpages lines (sources::kernel_log::bsd_fs_io_error)
    // carry only the errno the driver returned (EIO, ENXIO): the same report, a level up.
    let fs_level = |l: &str| {
        (crate::sources::kernel_log::fs_io_error_device(l).is_some() && !is_buffer_io_error(l))
            || crate::sources::kernel_log::bsd_fs_io_error(l).is_some()
    };
    // A request whose SCSI result says the target was gone (DID_NO_CONNECT, DID_BAD_TARGET:
    // sources::kernel_log::is_target_gone) names no cause of the medium; the block layer's
    // line for the same request ("blk_update_request: I/O error, dev sdd, sector 0", the
    // format of kernels before 4.19 that said no status) is its echo. Without such a line
    // the failed commands were not the block layer's I/O (a tool's ATA PASS-THROUGH) and
    // read-errors has no failed request to report.
    let gone = errors
        .iter()
        .any(|e| crate::sources::kernel_log::is_target_gone(&e.line));
    let echo = |l: &str| gone && l.to_ascii_lowercase().contains("i/o error, dev ");
    // Except the core's "unknown error -1 sending read/write command" (the host driver's
    // own error code, sources::kernel_log::mmc::is_unknown_error): the card said nothing.
    let host_code = |l: &str| crate::sources::kernel_log::mmc::is_unknown_error_line(l);
    let generic = (!card || errors.iter().all(|e| host_code(&e.line)))
        && errors.iter().all(|e| {
            e.kind == KernelEventKind::IoError
                && (states_generic_status(&e.line)
                    || host_code(&e.line)
                    || is_buffer_io_error(&e.line)
                    || fs_level(&e.line)
                    || crate::sources::kernel_log::is_target_gone(&e.line)
                    || echo(&e.line))
        })
        && errors.iter().any(|e| {
            states_generic_status(&e.line)
                || fs_level(&e.line)
                || echo(&e.line)
                || host_code(&e.line)
        });
    if generic { errors } else { Vec::new() }
}

pub(crate) fn check_disk(sys: &SystemFacts, d: &DiskFacts) -> Finding {
    if !generic_io_errors_only(sys, d).is_empty() {
        return common::not_applicable(
            ID,
            d,
            "the kernel's I/O error lines name no sense key, drive error or media status: no evidence of the medium (read-errors reports the failed requests)",
        );
    }
    // A virtual disk's error lines are the emulator's or the host's, not a medium's
    // (virtual-or-bridged-device reports them); its SMART data, if any, still counts.
    let virtual_layer = !crate::checks::virtual_or_bridged_device::virtual_trouble(d).is_empty();
    let link = link_explains_io_errors(d) || power_explains_io_errors(d);
    let nvme_path = nvme_timeouts_are_the_path(d);
    if nvme_path && !virtual_layer {
        // NVMe timeouts logged while the system suspended or resumed are the power-state
        // change's (sources::power_log::nvme_sleep_transition_lines; power-management
        // reports them).
        let power = d.power.power_log.value().cloned().unwrap_or_default();
        let stalls: Vec<_> = d
            .kernel_events
            .iter()
            .filter(|e| {
                e.kind == KernelEventKind::IoTimeout
                    && !power.iter().any(|l| l.ends_with(e.line.as_str()))
            })
            .collect();
        if stalls.is_empty() {
            return common::not_applicable(
                ID,
                d,
                "the NVMe command timeouts came while the system suspended or resumed: \
                 power-management reports them",
            );
        }
        return nvme_stall::nvme_timeouts(sys, d, &stalls);
    }
    let events: Vec<_> = d
        .kernel_events
        .iter()
        .filter(|e| is_media_event(e.kind) && !(link && e.kind == KernelEventKind::IoError))
        .filter(|e| !(nvme_path && e.kind == KernelEventKind::IoTimeout))
        // mfi(4)'s "COMMAND ... TIMEOUT AFTER N SECONDS" is the MegaRAID firmware leaving a
        // command unanswered (sources::kernel_log::is_mfi_timeout): the controller, not a
        // sector (virtual-or-bridged-device names the volume).
        // So is mpt(4)'s "request ... timed out for ccb" on its RAID volume.
        .filter(|e| {
            !(e.kind == KernelEventKind::IoTimeout
                && (crate::sources::kernel_log::is_mfi_timeout(&e.line)
                    || (common::is_raid_volume(d)
                        && crate::sources::kernel_log::is_mpt_timeout(&e.line))))
        })
        .filter(|_| !virtual_layer)
        .filter(|e| {
            !(e.kind == KernelEventKind::IoTimeout
                && !crate::checks::controller_legacy_mode::legacy_timeouts(d).is_empty()
                && common::is_sata_drive(d).is_none())
        })
        .collect();
    let smart = d.smart.value();
    let controller = d.controller_drive.as_ref();
    let failed_runs = failed_runs(sys, d);
    if smart.is_none()
        && events.is_empty()
        && d.vdev_errors.is_empty()
        && controller.is_none()
        && failed_runs.is_empty()
        && d.surface_scans.is_empty()
    {
        if common::is_virtual_bus(d) || d.class.get() == Some(DeviceClass::Virtual) {
            return common::not_applicable(
                ID,
                d,
                "a virtual disk has no real SMART data; the host sees the real drive's health",
            );
        }
        if common::is_raid_volume(d) {
            return common::not_applicable(
                ID,
                d,
                &format!(
                    "the RAID controller hides its drives' SMART data; read it with `{}` (or \
                     the controller's tool) for each member",
                    ask_bare(Ask::SmartMegaraidReport)
                ),
            );
        }
        return common::unknown(
            ID,
            d,
            format!("SMART data of {} unknown", d.name),
            "The drive's SMART error counters",
            &common::why(&d.smart),
            &how_to_know(sys.platform, Source::Smart, d),
        );
    }

    let mut critical = Vec::new();
    let mut warning = Vec::new();
    let mut values = Vec::new();
    if let Some(s) = smart {
        let mut count = |label: &str, v: Option<u64>, crit: bool| {
            if let Some(n) = v {
                values.push(format!("{label}={n}"));
                if n > 0 {
                    let line = format!("{n} {label}");
                    if crit {
                        critical.push(line);
                    } else {
                        warning.push(line);
                    }
                }
            }
        };
        // Pending and offline-uncorrectable sectors are ones the drive could not read: each
        // read of them retries for seconds. Reallocated and reported-uncorrect are history.
        count(
            "pending sectors (Current_Pending_Sector)",
            s.pending_sectors,
            true,
        );
        count(
            "offline uncorrectable sectors",
            s.offline_uncorrectable,
            true,
        );
        count("reallocated sectors", s.reallocated_sectors, false);
        count("reported uncorrectable errors", s.reported_uncorrect, false);
        count(
            "NVMe media and data integrity errors",
            s.media_errors,
            false,
        );
        // A failed self-test is the drive's own surface read stopping at a sector it could
        // not read (smartctl -l selftest: "Completed: read failure" with its LBA).
        count(
            "failed self-tests in the drive's log",
            s.self_test_errors,
            false,
        );
        // Logged UNC entries are reads that failed at some time in the drive's life: history,
        // like reallocations, unless pending sectors show they are still unreadable.
        let old_unc = old_unc_entries(s);
        count(
            "failed reads or writes in the drive's error log (UNC, WP)",
            if old_unc.is_some() {
                None
            } else {
                s.error_log_unc
            },
            false,
        );
        if let Some((n, last, poh)) = old_unc {
            values.push(format!(
                "{n} failed reads or writes in the drive's error log (UNC, WP), the newest at {last} \
                 of {poh} power-on hours, none pending now"
            ));
        }
        // An NVMe drive's overall health is its Critical Warning byte (smartctl prints
        // FAILED when any bit is set, nvmeprint.cpp): nvme-health names the bit, and only
        // the media-error count of that log is this check's.
        let nvme_warning = d
            .nvme_health
            .value()
            .is_some_and(|h| h.critical_warning.is_some_and(|c| c != 0));
        if s.health_passed == Some(false) && nvme_warning {
            values.push("health=FAILED (the NVMe critical warning, see nvme-health)".to_string());
        } else if s.health_passed == Some(false) {
            critical.push("the drive's own SMART health assessment: FAILED".to_string());
            values.push("health=FAILED".to_string());
        } else if s.health_passed == Some(true) {
            values.push("health=PASSED".to_string());
        }
        // An SSD's wear figure (a vendor life attribute's normalized VALUE, or the ATA or
        // SCSI endurance indicator; sources::smartctl): at 95 % or more of its rated writes
        // the flash is at the end of its life; NVMe drives' own figure is nvme-health's.
        if !common::is_nvme(d)
            && !d.nvme_health.is_known()
            && let Some(p) = s.percentage_used.filter(|p| *p >= WORN_OUT_PERCENT)
        {
            values.push(format!("endurance_used={p}%"));
            warning.push(format!(
                "the SSD's wear indicator says {p} % of its rated write endurance is used up"
            ));
        }
        // A temperature attribute (190 Airflow_Temperature_Cel, 194 Temperature_Celsius;
        // smartmontools drivedb.h) that crossed its threshold says the drive ran hot, not
        // that its surface failed: it is no media evidence.
        for a in s
            .failing_attributes
            .iter()
            .filter(|a| !is_temperature_attribute(a))
        {
            // WHEN_FAILED "In_the_past" (JSON "past"): the attribute crossed its threshold
            // once (often a temperature excursion) and recovered; "FAILING_NOW" is current.
            if a.to_ascii_lowercase().contains("past") {
                warning.push(format!("attribute {a} failed in the past"));
            } else {
                critical.push(format!("failing attribute {a}"));
            }
        }
    }
    let n_medium = events
        .iter()
        .filter(|e| e.kind == KernelEventKind::MediumError)
        .count();
    let n_timeout = events
        .iter()
        .filter(|e| e.kind == KernelEventKind::IoTimeout)
        .count();
    let n_io = events
        .iter()
        .filter(|e| e.kind == KernelEventKind::IoError)
        .count();
    // smartd's "Read SMART Self-Test Log Failed" (sources::smartd): the drive no longer
    // answers the log command it answered when smartd registered it.
    let n_log = events
        .iter()
        .filter(|e| {
            e.kind == KernelEventKind::DeviceError
                && crate::sources::smartd::is_log_read_failure(&e.line)
        })
        .count();
    // smartd's "ATA error count increased from 0 to 4": the drive's own error log grew.
    let grew: Vec<(u64, u64)> = events
        .iter()
        .filter(|e| e.kind == KernelEventKind::DeviceError)
        .flat_map(|e| crate::sources::smartd::parse(&e.line))
        .filter_map(|w| match w.warning {
            crate::sources::smartd::Warning::ErrorLogGrew(a, b) => Some((a, b)),
            _ => None,
        })
        .collect();
    let n_device = events
        .iter()
        .filter(|e| e.kind == KernelEventKind::DeviceError)
        .count()
        .saturating_sub(n_log)
        .saturating_sub(grew.len());
    // Only a log that at least doubled (or started from nothing) says the drive has begun
    // failing commands; one more entry on a log of hundreds is a drive with a long history
    // whose new entry could be anything the log records (ICRC, ABRT at a power event):
    // that needs the entries themselves (smartctl -l xerror), not the count.
    if let (Some(first), Some(last)) = (grew.first(), grew.last())
        && first.0.checked_mul(2).is_some_and(|twice| last.1 >= twice)
        && last.1 > first.0
    {
        warning.push(format!(
            "smartd saw the drive's ATA error log grow from {} to {}: commands the drive \
             itself failed since its last check",
            first.0, last.1
        ));
    }
    if n_log > 0 {
        warning.push(format!(
            "smartd could no longer read the drive's SMART log ({n_log} warning(s)): the \
             drive stopped answering its log commands"
        ));
    }
    if n_medium > 0 {
        critical.push(format!("{n_medium} kernel medium-error line(s)"));
    }
    if n_device > 0 {
        warning.push(format!(
            "{n_device} command(s) the drive itself failed (libata \"device error\", SCSI \
             sense HARDWARE ERROR)"
        ));
    }
    if n_timeout > 0 {
        warning.push(format!("{n_timeout} kernel I/O timeout line(s)"));
    }
    if n_io > 0 {
        warning.push(format!("{n_io} kernel I/O error line(s)"));
    }
    // ZFS's own count of failed reads and writes on the vdev (zpool-status(8)): the
    // drive returned an error or none in time, which its SMART counters may not show yet.
    // Writes alone that failed name no sector (a drive remaps on write): read-errors
    // reports them.
    for v in d
        .vdev_errors
        .iter()
        .filter(|v| v.io_failed() && !v.writes_only_failed())
    {
        let n = |x: Option<u64>| x.map(|n| n.to_string()).unwrap_or_else(|| "?".into());
        // btrfs's per-device counters (btrfs device stats) count bios the device failed
        // (fs/btrfs/volumes.h BTRFS_DEV_STAT_{WRITE,READ,FLUSH}_ERRS: the block layer
        // returned an error), not sectors found bad: read-errors reports them, link-errors
        // when reads and writes or flushes failed together (the path, not a sector).
        // Corrupted or stale blocks beside them are data that came back wrong: kept here.
        if v.is_btrfs() {
            if v.checksum_errors.is_some_and(|n| n > 0) {
                warning.push(format!(
                    "btrfs counted {} failed read(s), {} failed write(s) or flush(es) and {} \
                     corrupted or stale block(s) on device {}",
                    n(v.read_errors),
                    n(v.write_errors),
                    n(v.checksum_errors),
                    v.vdev
                ));
            }
            continue;
        }
        // ZED's notice that ZFS faulted or degraded the vdev (sources::zed) has no counts.
        let counted = [v.read_errors, v.write_errors, v.checksum_errors]
            .iter()
            .any(Option::is_some);
        let line = if !counted {
            format!(
                "ZFS marked vdev {}{} {} for too many errors",
                v.vdev,
                if v.pool.is_empty() {
                    String::new()
                } else {
                    format!(" of pool {}", v.pool)
                },
                v.state.as_deref().unwrap_or("FAULTED")
            )
        } else {
            format!(
                "ZFS counted {} read, {} write and {} checksum errors on vdev {}{}{}",
                n(v.read_errors),
                n(v.write_errors),
                n(v.checksum_errors),
                v.vdev,
                if v.pool.is_empty() {
                    String::new()
                } else {
                    format!(" of pool {}", v.pool)
                },
                // The note zpool prints for a vdev it gave up on; `zpool status -c` script
                // columns may follow it on the row and are not repeated here.
                match (
                    v.state.as_deref(),
                    v.note
                        .as_deref()
                        .is_some_and(|n| n.contains("too many errors")),
                ) {
                    (Some(st), true) => format!(" ({st}, too many errors)"),
                    (Some(st), false) if st != "ONLINE" => format!(" ({st})"),
                    _ => String::new(),
                }
            )
        };
        if v.state.as_deref() == Some("FAULTED") {
            critical.push(line);
        } else {
            warning.push(line);
        }
    }
    // The RAID controller's own view of the drive (sources::raid_controller): it took the
    // drive out of service, the drive predicts its own failure, or the controller counted
    // media errors on it.
    if let Some(c) = controller {
        let by = format!("the RAID controller ({})", c.tool);
        if c.failed {
            critical.push(format!("{by} marks drive {} {}", c.address, c.state));
        }
        if c.predictive_failure {
            critical.push(format!(
                "{by} reports a predictive failure on drive {} (the drive's own failure \
                 prediction tripped)",
                c.address
            ));
        }
        if let Some(n) = c.media_errors.filter(|n| *n > 0) {
            warning.push(format!(
                "{by} counted {n} media errors on drive {}",
                c.address
            ));
        }
        // HPE's advisory: sectors of the members it could not read during a rebuild or
        // surface scan; the stripes on them stay unreadable until they are written again.
        if c.unrecoverable_media {
            warning.push(format!(
                "{by} detected unrecoverable media errors on {}: sectors of its drives it \
                 could not read during a rebuild or surface scan, so the data there is lost \
                 until it is restored and rewritten",
                c.address
            ));
        }
    }
    for (node, b) in &failed_runs {
        warning.push(format!(
            "dd stopped with an I/O error on /dev/{node}{}",
            b.bytes
                .map(|n| format!(" after {}", crate::units::bytes_si(n)))
                .unwrap_or_default()
        ));
    }
    // A pasted surface scan (badblocks(8)): blocks it could not read, write, or read back
    // as written. Read errors are sectors the drive cannot read now, like pending sectors.
    for sc in &d.surface_scans {
        let n = |x: Option<u64>| x.map(|n| n.to_string()).unwrap_or_else(|| "?".into());
        values.push(format!("{}: {} bad blocks", sc.tool, sc.bad_blocks));
        if sc.bad_blocks > 0 {
            let line = format!(
                "{} found {} bad blocks{} ({} read, {} write, {} compare errors)",
                sc.tool,
                sc.bad_blocks,
                if sc.completed {
                    ""
                } else {
                    " before the paste ends"
                },
                n(sc.read_errors),
                n(sc.write_errors),
                n(sc.corruption_errors)
            );
            if sc.read_errors.is_some_and(|r| r > 0) || sc.write_errors.is_some_and(|w| w > 0) {
                critical.push(line);
            } else {
                warning.push(line);
            }
        }
    }
    let smart_s = values.join(", ");

    // Checksum errors alone: blocks that came back different from what ZFS wrote, with no
    // failed read or write (zpool-status(8); ZFS-8000-9P's action is to decide whether the
    // device needs replacing). Beside the drive's own errors they add to its list; alone
    // they are a notice, because the cable, the controller or the memory corrupt data on
    // the way as well as the drive does.
    let cksum: Vec<&crate::model::VdevErrors> =
        d.vdev_errors.iter().filter(|v| v.checksum_only()).collect();
    let cksum_line = |v: &crate::model::VdevErrors| {
        format!(
            "ZFS counted {} checksum error(s) on vdev {}{}",
            v.checksum_errors.unwrap_or(0),
            v.vdev,
            if v.pool.is_empty() {
                String::new()
            } else {
                format!(" of pool {}", v.pool)
            }
        )
    };
    if critical.is_empty() && warning.is_empty() && !cksum.is_empty() {
        let lines: Vec<String> = cksum.iter().map(|v| cksum_line(v)).collect();
        let mut f = Finding::new(
            ID,
            &d.name,
            Verdict::Problem,
            Severity::Notice,
            format!("{}: {}", d.name, lines.join("; ")),
        )
        .explain(format!(
            "{}: {}, and no failed read or write. ZFS found blocks whose data did not match \
             their checksum and repaired them from the pool's redundancy where it had any. \
             The wrong data came from the drive (a failing surface or firmware), or was \
             corrupted on the way: a loose or bad SATA cable, the port or controller, or the \
             machine's memory. {}A count that grows after `zpool clear` and a scrub is a \
             drive or path to replace; one that stays at zero was a passing event.",
            d.name,
            lines.join("; "),
            if smart.is_some() {
                format!("The drive's SMART counters show no bad sectors ({smart_s}), which points at the path more than the medium. ")
            } else {
                format!(
                    "SMART data is unknown ({}): `{}` tells whether the drive itself \
                     counts bad sectors or interface CRC errors. ",
                    common::why(&d.smart),
                    ask_bare(Ask::SmartExtended)
                )
            }
        ))
        .confidence(Confidence::Low)
        .impact(0.1);
        for v in &cksum {
            f = f.evidence(v.from.clone(), v.line.clone());
        }
        let pool = cksum
            .iter()
            .map(|v| v.pool.as_str())
            .find(|p| !p.is_empty())
            .unwrap_or("POOL");
        if sys.platform != Platform::Unknown {
            f = f.fix(Fix {
                platform: sys.platform,
                summary: "reset the counters, scrub, and see whether they return".to_string(),
                steps: vec![
                    format!("`zpool clear {pool}`, then `zpool scrub {pool}`"),
                    format!(
                        "When the scrub ends, `zpool status -v {pool}`: new CKSUM errors on \
                         the same vdev mean a cable, port or drive to replace (reseat or swap \
                         the cable first)"
                    ),
                    format!(
                        "`{}` on the drive: UDMA_CRC_Error_Count growing is the cable, \
                         pending or reallocated sectors the drive",
                        ask_bare(Ask::SmartExtended)
                    ),
                ],
                risk: "a scrub reads every block of the pool: slower I/O until it ends".to_string(),
            });
        }
        return f;
    }
    warning.extend(cksum.iter().map(|v| cksum_line(v)));

    // A handful of reallocations and nothing else: see `FEW_REALLOCATIONS`.
    if critical.is_empty()
        && warning.len() == 1
        && let Some(n) = smart.and_then(few_reallocations_only)
    {
        let title = format!(
            "{}: {n} reallocated sector(s), nothing pending: watch the count",
            d.name
        );
        let f = Finding::new(ID, &d.name, Verdict::Problem, Severity::Info, title)
            .explain(format!(
                "{}: {n} reallocated sector(s), and no pending, offline-uncorrectable or \
             reported-uncorrectable sector, no failed self-test and no kernel I/O error \
             ({smart_s}). The drive found a few weak sectors and moved them to spares, which \
             it does from new; every read now succeeds. smartd, whose default checks warn on \
             pending and offline-uncorrectable sectors, failing attributes and new errors, \
             does not warn on this count. A count that grows from one reading to the next is \
             a surface that is degrading: compare `smartctl -A` in a few weeks.",
                d.name
            ))
            .confidence(Confidence::Medium)
            .impact(0.0);
        return cite(f, &d.smart, smart_s);
    }

    if critical.is_empty() && warning.is_empty() {
        if smart.is_none()
            && events.is_empty()
            && d.surface_scans.is_empty()
            && !d.vdev_errors.is_empty()
            && d.vdev_errors.iter().all(|v| v.is_btrfs())
            && d.vdev_errors
                .iter()
                .all(|v| v.checksum_errors.is_none_or(|n| n == 0))
        {
            return common::not_applicable(
                ID,
                d,
                "btrfs counted failed I/O on the device, which names no bad sector: \
                 read-errors (and link-errors) report it",
            );
        }
        if smart.is_none()
            && let Some(sc) = d.surface_scans.first()
        {
            return common::pass(ID, d, "no media errors: good")
                .explain(format!(
                    "The pasted surface scan of {} found no bad block ({smart_s}) and the \
                     kernel log has no medium errors or timeouts for it.",
                    d.name
                ))
                .evidence(sc.from.clone(), sc.line.clone());
        }
        let mut f = common::pass(ID, d, "no media errors: good").explain(format!(
            "SMART shows no pending, reallocated or uncorrectable sectors ({smart_s}) and the \
             kernel log has no medium errors or timeouts for {}.",
            d.name
        ));
        f = cite(f, &d.smart, smart_s);
        return f;
    }
    let severity = if critical.is_empty() {
        Severity::Warning
    } else {
        Severity::Critical
    };
    let mut all = critical.clone();
    all.extend(warning.iter().cloned());
    let mut expl = format!("{}: {}. ", d.name, all.join("; "));
    if smart.is_some_and(|s| s.percentage_used.is_some_and(|p| p >= WORN_OUT_PERCENT))
        && !common::is_nvme(d)
    {
        expl.push_str(
            "An SSD past its rated write endurance runs on its last spare blocks: writes slow \
             down as it retires worn blocks, and such drives often turn read-only or stop \
             answering without a bad sector first (smartmontools' drivedb names the life \
             attribute each vendor uses). ",
        );
    }
    expl.push_str(
        "A sector the drive cannot read makes it retry, often for several seconds per request \
         (desktop drives up to about 7-30 s before giving up), and every program reading near \
         it stalls: throughput drops to a few MB/s and latency spikes to seconds. Reallocated \
         sectors were already replaced by spares; a growing count means the surface is \
         degrading. ",
    );
    if n_timeout > 0 && n_medium == 0 && smart.is_some_and(|s| s.pending_sectors == Some(0)) {
        expl.push_str(
            "Timeouts without medium errors or pending sectors also point at the cable, port \
             or power (see link-errors). ",
        );
    }
    if n_device > 0 {
        expl.push_str(&format!(
            "The drive answered reads or writes with an error of its own (the status register's \
             ERR bit, \"device error\" in libata's report, or a SCSI HARDWARE ERROR sense) and \
             no transport CRC or bus error: \
             the drive, not the cable, failed them. Check its SMART log (`{}`). ",
            ask_bare(Ask::SmartExtended)
        ));
    }
    if smart.is_none() {
        expl.push_str(&format!(
            "SMART data is unknown ({}), so the drive's own counters could not confirm it. ",
            common::why(&d.smart)
        ));
    }
    expl.push_str("Back up now: drives with pending sectors often fail soon after.");
    let mut f = Finding::new(
        ID,
        &d.name,
        Verdict::Problem,
        severity,
        format!("{}: {}", d.name, all.first().cloned().unwrap_or_default()),
    )
    .explain(expl)
    .confidence(if smart.is_some() {
        Confidence::Medium
    } else {
        Confidence::Low
    })
    .impact(if severity == Severity::Critical {
        0.6
    } else {
        0.3
    });
    if smart.is_some() {
        f = cite(f, &d.smart, smart_s);
    }
    for e in &events {
        f = f.evidence(e.from.clone(), e.line.clone());
    }
    for v in d
        .vdev_errors
        .iter()
        .filter(|v| v.io_failed() || v.checksum_only())
    {
        f = f.evidence(v.from.clone(), v.line.clone());
    }
    for sc in d.surface_scans.iter().filter(|sc| sc.bad_blocks > 0) {
        f = f.evidence(sc.from.clone(), sc.line.clone());
    }
    for (_, b) in &failed_runs {
        let line = b.error.as_deref().unwrap_or_default();
        let line = line.split_once(": ").map_or(line, |(_, l)| l);
        f = f.evidence(b.from.clone(), line.to_string());
    }
    if let Some(c) = controller {
        f = f.evidence(c.from.clone(), c.line.clone());
        if smart.is_none() && events.is_empty() {
            // Only the controller spoke: replace the drive through it, not with a
            // self-test on a node the drive does not have.
            return f.fix(controller_fix(sys.platform, c));
        }
    }
    for fix in fixes(sys.platform, d) {
        f = f.fix(fix);
    }
    f
}

/// Replace a drive the RAID controller failed or predicts to fail: the controller's tool
/// shows it and rebuilds onto the replacement (or a hot spare) on its own.
fn controller_fix(platform: Platform, c: &crate::facts::ControllerDrive) -> Fix {
    let show = match c.tool.as_str() {
        "ssacli" => "`ssacli ctrl all show config detail`".to_string(),
        "arcconf" => "`arcconf getconfig 1 pd`".to_string(),
        "megacli" | "megaclisas-status" => {
            "`MegaCli64 -PDList -aALL` (or `storcli64 /c0 /eall /sall show all`)".to_string()
        }
        "areca-cli" => "`cli64 disk info`".to_string(),
        "tw-cli" => "`tw_cli /c0 show`".to_string(),
        _ => "the controller's own tool".to_string(),
    };
    if c.unrecoverable_media {
        // HPE: "Errors will be fixed automatically when the sector(s) are overwritten.
        // Backup and Restore are recommended."
        return Fix {
            platform,
            summary: format!("restore the data on {} from a backup", c.address),
            steps: vec![
                format!(
                    "Find the members with errors with {show} (each drive's status and the \
                     controller's advisory), and replace any that fail or keep growing errors"
                ),
                "Restore the affected files (or the whole volume) from a backup: the \
                 controller fixes the sectors only when they are written again"
                    .to_string(),
            ],
            risk: "reading the affected files returns errors until they are rewritten".to_string(),
        };
    }
    Fix {
        platform,
        summary: format!("replace drive {} behind the RAID controller", c.address),
        steps: vec![
            "Make sure the backup is current: the array runs without full redundancy until \
             the rebuild ends"
                .to_string(),
            format!("Check which slot it is with {show}; the drive's fault LED is usually lit"),
            "Swap in a drive of the same or larger size; the controller rebuilds onto it (or \
             onto a hot spare) by itself, and its tool shows the progress"
                .to_string(),
        ],
        risk: "a second member failing during the rebuild can lose the array: back up first"
            .to_string(),
    }
}

fn fixes(platform: Platform, d: &DiskFacts) -> Vec<Fix> {
    let dev = if d.dev_path.is_empty() {
        format!("/dev/{}", d.name)
    } else {
        d.dev_path.clone()
    };
    let install = match platform {
        Platform::Freebsd => "pkg install smartmontools",
        _ => "apt install smartmontools (or dnf install smartmontools)",
    };
    match platform {
        Platform::Unknown => Vec::new(),
        _ => vec![
            Fix {
                platform,
                summary: "back up the data now, then plan to replace the drive".to_string(),
                steps: vec![
                    "Copy the important data off first, most important first; if reads hang, a \
                     tool that skips bad areas (GNU ddrescue, `pkg install ddrescue` / `apt \
                     install gddrescue`) recovers the rest"
                        .to_string(),
                    "Replace the drive (under warranty, the SMART log is the evidence)".to_string(),
                ],
                risk: "none; heavy reading of a failing drive can hasten its end, so copy the \
                       important data first"
                    .to_string(),
            },
            Fix {
                platform,
                summary: "confirm with the drive's long self-test".to_string(),
                steps: vec![
                    format!("`{install}` if {} is missing", ask_bare(Ask::SmartProgram)),
                    format!(
                        "`{}`; when it is done ({} shows the time), `{}` lists the first \
                         failing LBA",
                        ask(Ask::SmartLongTest, &dev),
                        ask_bare(Ask::SmartTestTimes),
                        ask(Ask::SmartReport, &dev)
                    ),
                ],
                risk: "the test reads the whole surface and slows the disk for hours".to_string(),
            },
        ],
    }
}

#[cfg(test)]
mod tests;

/// Whether a failing-attribute entry ("ID NAME (WHEN)", sources::smartctl) is a temperature.
fn is_temperature_attribute(a: &str) -> bool {
    let mut w = a.split_whitespace();
    let id = w.next().unwrap_or("");
    let name = w.next().unwrap_or("").to_ascii_lowercase();
    id == "190" || id == "194" || name.contains("temperature")
}
