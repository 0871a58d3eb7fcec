//! Kernel log lines about a disk (Linux dmesg/journal, FreeBSD dmesg.boot/CAM).
//!
//! Reference: the Linux libata error handler messages (drivers/ata/libata-eh.c: "failed
//! command:", "Emask 0x4 (timeout)", "{ ICRC ABRT }", "{ UNC }", "hard resetting link",
//! "limiting SATA link speed", "COMRESET failed"), the block layer ("I/O error, dev sda,
//! sector N"), SCSI sense decoding ("Sense Key : Medium Error", "Unrecovered read error"),
//! and FreeBSD CAM (cam_periph.c / ata_da.c: "(ada0:ahcich0:0:0:0): READ_FPDMA_QUEUED ...",
//! "CAM status: ATA Status Error", "CAM status: Command timeout", "MEDIUM ERROR",
//! "Uncorrectable parity/CRC error").
//!
//! libata names ports, not disks ("ata3.00:"), so a port line concerns a disk only when the
//! caller knows the port ([`events_for_port`]) or the log itself ties them together: the
//! "ataN.00: ATA-x: MODEL" identity line, the "scsi H:0:0:0: Direct-Access ATA MODEL" line
//! and the "sd H:0:0:0: [sda]" line share the model and the host number.

use crate::model::{KernelEvent, KernelEventKind};

/// Events in `log` that concern the disk named `disk` (sda, ada0); `from` is the capture key.
/// Lines naming the disk always count; libata port lines count when the log ties the port
/// to the disk (see the module docs).
pub fn events_for(disk: &str, log: &str, from: &str) -> Vec<KernelEvent> {
    let disk = disk.trim_start_matches("/dev/");
    if disk.is_empty() {
        return Vec::new();
    }
    let port = ata_port_for(disk, log);
    // A channel standing for its unnamed disk (a lone "ahcich2" or "umass-sim0") is its own.
    // An MMC card's disk has its host's lines too ("mmc0: Card stuck being busy!", mmc).
    let channel = mmc::host_for(disk, log)
        .or_else(|| ide_channel_of(disk))
        .or_else(|| cam_channel_for(disk, log))
        .or_else(|| Some(disk.to_string()));
    let hctl = scsi_address_of(disk, log).map(|h| format!("sd {h}: "));
    let mut out = Vec::new();
    let mut no_medium = 0usize;
    // ata(4) prints a FAILURE as one line that a narrow paste wraps before "error=": the
    // tail belongs to the disk of the head.
    let mut failure_above = false;
    // CAM prints each line of an error report behind the device's path ("(ada0:ata0:0:0:0):
    // "); a poster who elided that repeated prefix leaves the detail lines bare (".....CAM
    // status: ...", see log_prefix): they belong to the report above them.
    let mut cam_above = false;
    // The commands of the CAM error reports among the disk's lines: (periph, command).
    let mut cam_commands: Vec<(String, String)> = Vec::new();
    // The sd driver of Linux 2.6.x-3.x printed a decoded result or sense as two printks:
    // the device's prefix alone ("sd 0:0:2:0: [sdc] ", sd_print_result / sd_print_sense_hdr
    // of drivers/scsi/sd.c calling sd_printk(KERN_INFO, sdkp, " ")), then scsi_show_result
    // / scsi_show_sense_hdr's own KERN_INFO line ("Result: hostbyte=...", "Sense Key :
    // Medium Error [current]", "Add. Sense: Unrecovered read error"), which the log keeps
    // as a line of its own: that line belongs to the disk of the lone prefix above it.
    let mut lone_prefix_above = false;
    // The CAM error report above is about a READ or WRITE of data ([`is_data_transfer_op`]).
    let mut data_op_above = false;
    // A USB device or link was reset above ([`is_reset_line`]), and the disk's "medium not
    // present" sense lines after one ([`no_medium_after_reset`]).
    let mut reset_above = false;
    let mut gone: Vec<&str> = Vec::new();
    // The index in `out` of the last task-abort timeout, until its CDB line is read.
    let mut abort_at: Option<usize> = None;
    // The disk's USB device going away ([`Removal`]).
    let own_usb = usb_device_of(disk, log).map(|(d, _)| d);
    let mut removal = Removal::default();
    for (body, line_port, kind) in port_lines(log) {
        removal.read(body, own_usb.as_deref(), disk, out.len(), reset_above);
        reset_above |= is_reset_line(body, kind);
        let tail = failure_above && body.trim_start().starts_with("error=");
        let continued = lone_prefix_above
            && !body.trim_start().starts_with("sd ")
            && !body.trim_start().starts_with("sr ");
        lone_prefix_above = is_lone_sd_prefix(body, disk);
        let named = names_disk(body, disk) || continued;
        failure_above = named && body.contains(": FAILURE - ");
        let cam_tail = cam_above && is_cam_detail(body);
        cam_above = (named && body.starts_with('(')) || cam_tail;
        let mine = named
            || tail
            || cam_tail
            || port.is_some_and(|p| line_port == Some(p))
            || channel.as_deref().is_some_and(|c| names_channel(body, c))
            || hctl.as_deref().is_some_and(|h| body.starts_with(h));
        if !mine {
            continue;
        }
        if let Some(c) = cam_command(body) {
            data_op_above = is_data_transfer_op(&c.1);
            cam_commands.push(c);
        }
        let low = body.to_ascii_lowercase();
        // A READ or WRITE the device rejected as a command it does not know (sense key
        // ILLEGAL REQUEST, ASC 20h "INVALID COMMAND OPERATION CODE", SPC-4 annex D): every
        // block device implements READ(10) (SBC-3 table 13, mandatory) and the device served
        // the same command before, so the command reached it garbled or the translating chip
        // in front of the drive (a USB or SAS bridge) failed: the path's fault, not the
        // medium's. cam_error_print prints the CDB line first, then the sense
        // ("ILLEGAL REQUEST asc:20,0", "Invalid command operation code").
        if data_op_above
            && (low.contains("invalid command operation code") || low.contains("asc:20,0"))
        {
            data_op_above = false;
            out.push(KernelEvent {
                kind: KernelEventKind::TransportError,
                line: body.trim().to_string(),
                from: from.to_string(),
            });
        }
        if reset_above && is_no_medium_sense(&low) {
            gone.push(body.trim());
        } else if is_no_medium_sense(&low)
            || low.contains("illegal request")
            || low.contains("data protect")
        {
            no_medium = no_medium.saturating_add(1);
        }
        // The command a task abort was for: the driver prints its CDB right after the
        // abort line (mpt3sas_scsih.c scsih_abort: scsi_print_command). An ATA PASS-THROUGH
        // (SAT-4 opcodes A1h/85h, named "ATA command pass through(12)/(16)" by
        // scsi_logging's cdb names) is a tool's own command (smartctl, hdparm, a firmware
        // download), not the disk's I/O: its timeout says the path or the command was slow
        // to answer, not that the medium failed.
        if low.contains("cdb: ") {
            if low.contains("ata command pass through")
                && let Some(i) = abort_at
                && i < out.len()
            {
                out.remove(i);
            }
            abort_at = None;
        }
        // ata(4) resets a channel both when it probes it at boot and when a command of one
        // of its devices timed out (ata-all.c ata_cam_end_transaction: ATA_R_TIMEOUT sets
        // fatalerr, then ata_reinit resets the channel); a verbose boot prints the reset
        // ([`is_ata_channel_reset`]). After an error of the disk it is that recovery: the
        // channel's bus was reset under it, as ahci(4)'s "Timeout on slot" reset is.
        let kind = kind.or_else(|| {
            (out.iter().any(|e| e.kind != KernelEventKind::LinkReset)
                && channel.as_deref().is_some_and(|c| names_channel(body, c))
                && is_ata_channel_reset(body))
            .then_some(KernelEventKind::LinkReset)
        });
        if let Some(kind) = kind {
            if kind == KernelEventKind::IoTimeout && low.contains("attempting task abort") {
                abort_at = Some(out.len());
            }
            out.push(KernelEvent {
                kind,
                line: body.trim().to_string(),
                from: from.to_string(),
            });
        }
    }
    if port.is_none() {
        removal.drop_teardown(&mut out, own_usb.is_some());
    }
    // A command that failed with sense NOT READY, "Medium not present" (SPC-4 ASC 3Ah) met
    // an empty card-reader slot or an ejected medium, and one with sense key ILLEGAL
    // REQUEST (5h) is a command the device does not implement (REPORT LUNS on many USB
    // sticks while CAM probes them), and one with sense key DATA PROTECT (7h) a write to a
    // write-protected medium (an SD card's lock switch): its status line ("CAM status: SCSI
    // Status Error", the block layer's "I/O error") is no fault of a disk. Each such sense line cancels one
    // I/O-error line of its command.
    if no_medium_after_reset(disk, log, &gone, &out) {
        out.extend(gone.iter().map(|l| KernelEvent {
            kind: KernelEventKind::TransportError,
            line: l.to_string(),
            from: from.to_string(),
        }));
    } else {
        no_medium = no_medium.saturating_add(gone.len());
    }
    no_medium = no_medium.saturating_add(passive_path_refusals(log, &out));
    let refused = no_medium > 0;
    // The buffer cache's and file systems' lines for those requests (fs/buffer.c "Buffer
    // I/O error on dev sda1, logical block 2, async page read", fs_io_error_device) echo a
    // request that already failed: they go with it, not against the sense count.
    let echo = |l: &str| is_buffer_io_error(l) || fs_io_error_device(l).is_some();
    while no_medium > 0 {
        let Some(i) = out
            .iter()
            .rposition(|e| e.kind == KernelEventKind::IoError && !echo(&e.line))
        else {
            break;
        };
        out.remove(i);
        no_medium -= 1;
    }
    if refused && !out.iter().any(|e| !echo(&e.line)) {
        out.clear();
    }
    if probe_timeouts_only(&cam_commands, &out) {
        out.clear();
    }
    // Beside an unreadable sector (UNC, BadSector) a DMA timeout may be the drive retrying
    // it: the timeouts then count with the medium's errors, as other timeouts do.
    if out.iter().any(|e| e.kind == KernelEventKind::MediumError) {
        for e in out.iter_mut().filter(|e| is_ide_dma_failure(&e.line)) {
            e.kind = KernelEventKind::IoTimeout;
        }
    }
    // An IDE channel is reset after an error of one of its two drives (ide-io.c
    // ide_do_reset): the reset is the other drive's only when it had errors of its own.
    if ide_channel_of(disk).is_some() && out.iter().all(|e| e.line.starts_with("ide")) {
        out.clear();
    }
    // drivers/scsi/sd.c sd_shutdown (device removal through sd_remove, power-off) and
    // sd_suspend_common print "[sdg] Synchronizing SCSI cache" and then sd_sync_cache's
    // "[sdg] Synchronize Cache(10) failed: Result: hostbyte=..." when the flush fails: a
    // device already unplugged answers DID_ERROR or DID_NO_CONNECT. When that is all the log
    // holds of the disk, it is the flush of a disk going away, no fault of its path (the
    // flushes of running I/O fail as "I/O error, dev sdX ... (FLUSH)").
    let flush = |l: &str| l.contains("] Synchronize Cache(") && l.contains(") failed");
    let announced = format!("[{disk}] Synchronizing SCSI cache");
    if !out.is_empty()
        && out.iter().all(|e| flush(&e.line))
        && log.lines().any(|l| l.trim_end().ends_with(&announced))
    {
        out.clear();
    }
    one_count_per_timeout(out)
}

/// A USB disk's removal: the hub driver's "usb 3-1: USB disconnect, device number 6"
/// (drivers/usb/core/hub.c usb_disconnect) for the disk's own USB device or a hub above it
/// ([`usb_line_on_path`]), or, when the log does not say which device the disk is on, for
/// any device. Once its device is gone the storage driver fails every command still queued
/// or sent: usb-storage's queuecommand "Fail command during disconnect" and uas_disconnect's
/// uas_zap_pending complete them with DID_NO_CONNECT (drivers/usb/storage/scsiglue.c,
/// uas.c), the block layer reports each as an I/O error and the filesystem its lost writes.
/// Those errors are the unplug being logged (a stick pulled while the page cache was still
/// flushing), no fault of the bridge or the medium. The removal counts only when it came
/// cleanly: no error of the disk and no reset of its link before it (else the errors came
/// first and the disconnect is the device dropping off), and no complaint of the USB host
/// controller or hub beside it (an xHCI command failing on the endpoint's state, xhci-ring.c
/// "WARN Set TR Deq Ptr cmd failed due to incorrect slot or ep state", a hub port's "config
/// error", an enumeration failure, a host controller that died before it: the path failing,
/// not a user). Its window ends where the device is enumerated again or the disk attached
/// again: later errors are a new device's.
#[derive(Default)]
struct Removal {
    /// The clean disconnect was seen (no event of the disk came before it).
    seen: bool,
    /// Index in the disk's events where the device came back, if it did.
    to: Option<usize>,
    /// The host controller or a hub port complained before the device came back.
    trouble: bool,
}

impl Removal {
    /// Read one line: a host or hub error spoils the removal, a clean disconnect opens its
    /// window, a new enumeration or attach of the disk closes it.
    fn read(&mut self, body: &str, own: Option<&str>, disk: &str, events: usize, reset: bool) {
        if self.to.is_some() {
            return;
        }
        let b = body.trim();
        let low = b.to_ascii_lowercase();
        let host = ["xhci", "ehci", "ohci", "uhci", "dwc"]
            .iter()
            .any(|h| low.starts_with(h));
        if (host
            && (b.contains("WARN") || ["error", "died", "dead"].iter().any(|w| low.contains(w))))
            || (low.starts_with("usb usb") && low.contains("-port"))
            || is_usb_enumeration_failure(&low)
        {
            self.trouble = true;
        }
        let on_path = || own.is_none_or(|d| usb_line_on_path(b, d));
        if !self.seen {
            self.seen = events == 0
                && !reset
                && b.starts_with("usb ")
                && b.contains(": USB disconnect, device number")
                && on_path();
        } else if (b.starts_with("usb ") && b.contains(": new ") && on_path())
            || b.contains(&format!("[{disk}] Attached SCSI"))
        {
            self.to = Some(events);
        }
    }

    /// Drop the disk's events inside the window of a clean removal (all came after it).
    /// When the log does not tie the disk to the removed device, the first of them must be a
    /// command its host failed with DID_NO_CONNECT (host byte 01h, include/scsi/
    /// scsi_status.h): the storage driver saying its device is gone, which ties the disk to
    /// that disconnect.
    fn drop_teardown(self, out: &mut Vec<KernelEvent>, own_known: bool) {
        let tied = own_known
            || out
                .first()
                .is_some_and(|e| scsi_host_byte(&e.line) == Some(0x01));
        if self.seen && !self.trouble && tied {
            let end = self.to.unwrap_or(out.len()).min(out.len());
            out.drain(..end);
        }
    }
}

/// The channel of an old IDE driver disk: hda and hdb are the master and slave of ide0, hdc
/// and hdd of ide1, and so on (drivers/ide/ide-probe.c names a drive 'a' + hwif index *
/// MAX_DRIVES + unit, MAX_DRIVES = 2), so "ide1: reset: success" is hdc's and hdd's.
fn ide_channel_of(disk: &str) -> Option<String> {
    let rest = disk.strip_prefix("hd")?;
    let mut it = rest.bytes();
    let (Some(c), None) = (it.next(), it.next()) else {
        return None;
    };
    c.is_ascii_lowercase()
        .then(|| format!("ide{}", (c - b'a') / 2))
}

/// A sense line saying the medium is not present: the decoded "Add. Sense: Medium not
/// present" (drivers/scsi/constants.c, and CAM's text) or the bare codes scsi_show_sense_hdr
/// prints for an ASC it has no name for ("ASC=0x3a ASCQ=0x0", a kernel built without
/// CONFIG_SCSI_CONSTANTS). SPC-4 annex D: ASC 3Ah is MEDIUM NOT PRESENT, reported with sense
/// key 2h NOT READY. `low` is the lowercased line.
fn is_no_medium_sense(low: &str) -> bool {
    low.contains("medium not present") || low.contains("asc=0x3a ")
}

/// How many of the disk's I/O-error lines `out` are a path that does not serve I/O refusing
/// it, not a fault of the disk. A LUN of a multipath array answers on the paths to the
/// controller that does not own it with sense NOT READY (2h) and ASC 04h: ASCQ 0Ah
/// "asymmetric access state transition", 0Bh "target port in standby state", 0Ch "target
/// port in unavailable state" (the ALUA states, SPC-4 5.15.2 and annex D), or, on
/// active/passive arrays without ALUA (EMC CLARiiON's passive storage processor, the case of
/// Red Hat solution 18746), 03h "manual intervention required". Every scan of the block
/// devices (the partition table, blkid, LVM's label and metadata) reads the first sectors
/// of each path and fails there. The standby and unavailable states name the path; 03h
/// does only when every failed request of the disk is in that first MiB (sector < 2048): a
/// drive that needs intervention fails reads wherever they go. The sense lines often
/// carry only the H:C:T:L address ("sd 0:0:0:3: Device not ready"), so the whole log is
/// read for them.
fn passive_path_refusals(log: &str, out: &[KernelEvent]) -> usize {
    let io: Vec<&KernelEvent> = out
        .iter()
        .filter(|e| e.kind == KernelEventKind::IoError)
        .collect();
    if io.is_empty() {
        return 0;
    }
    let (mut port_state, mut manual) = (false, false);
    for l in log.lines() {
        let low = l.to_ascii_lowercase();
        port_state |= low.contains("target port in standby state")
            || low.contains("target port in unavailable state")
            || low.contains("asymmetric access state transition");
        manual |= low.contains("not ready, manual intervention required");
    }
    // The number after `key` in a line: "sector 0" (the block layer, 512-byte sectors) or
    // "logical block 0" (buffer.c, filesystem blocks of at most 4 KiB: 8 sectors).
    let after = |line: &str, key: &str| {
        line.split_once(key).and_then(|(_, r)| {
            r.split(|c: char| !c.is_ascii_digit())
                .next()
                .and_then(|d| d.parse::<u64>().ok())
        })
    };
    let label_area = || {
        io.iter().all(|e| {
            after(&e.line, ", sector ")
                .or_else(|| after(&e.line, "logical block ").map(|b| b.saturating_mul(8)))
                .is_some_and(|sector| sector < 2048)
        })
    };
    if port_state || (manual && label_area()) {
        io.len()
    } else {
        0
    }
}

/// A line that resets a USB device or a disk's link: the hub driver re-initialising a
/// device ("usb 1-1.4: reset high-speed USB device number 5 using dwc_otg", hub.c
/// hub_port_init; 2.6's "reset high speed USB device using ehci_hcd and address 2") or a
/// link reset [`classify`] reads (libata's "hard resetting link", uas's reset handlers).
fn is_reset_line(body: &str, kind: Option<KernelEventKind>) -> bool {
    kind == Some(KernelEventKind::LinkReset)
        || body.trim_start().strip_prefix("usb ").is_some_and(|r| {
            r.split_once(": reset ")
                .is_some_and(|(_, t)| t.contains(" USB device "))
        })
}

/// Whether the "medium not present" sense lines `gone` of a disk, each after a reset of a USB
/// device or link, say the device dropped off its path rather than that a medium is absent:
/// the disk is no removable-media device (sd.c's "Attached SCSI removable disk", the RMB
/// bit: a card reader's empty slot or an ejected stick answers the same sense) and a READ or
/// WRITE of it failed ([`KernelEventKind::IoError`]). A fixed drive has no medium to take
/// out, so NOT READY / MEDIUM NOT PRESENT (SPC-4 sense key 2h, ASC 3Ah) to a data command
/// after the reset means the bridge lost the drive behind it (power or connection), the
/// path's fault, never the medium's.
fn no_medium_after_reset(disk: &str, log: &str, gone: &[&str], out: &[KernelEvent]) -> bool {
    !gone.is_empty()
        && !is_removable(disk, log)
        && out.iter().any(|e| e.kind == KernelEventKind::IoError)
}

/// libata reports one timeout event twice: the port's "exception ... frozen" line, then one
/// "failed command" / "res ... Emask 0x4 (timeout)" pair per command (ata_eh_link_report,
/// libata-eh.c). Where the per-command lines are in the log they are the count; the frozen
/// line counts only in a log cut before them.
fn one_count_per_timeout(mut out: Vec<KernelEvent>) -> Vec<KernelEvent> {
    if out
        .iter()
        .any(|e| e.kind == KernelEventKind::IoTimeout && e.line.ends_with("(timeout)"))
    {
        out.retain(|e| !(e.kind == KernelEventKind::IoTimeout && is_frozen_exception(&e.line)));
    }
    out
}

/// libata's "exception Emask 0x0 SAct 0x.. SErr 0x0 action 0x6 frozen" port line.
fn is_frozen_exception(line: &str) -> bool {
    let low = line.to_ascii_lowercase();
    low.contains("exception emask ") && low.trim_end().ends_with(" frozen")
}

/// The sense key of an HP Smart Array command the controller completed with CHECK
/// CONDITION: drivers/block/cciss.c (Linux 2.6-4.x) check_ioctl_unit_attention /
/// evaluate_target_status print "cciss: cmd %p has CHECK CONDITION sense key = 0x%x" (older
/// "cciss: cmd ... has CHECK CONDITION  byte 2 = 0x%x"), the key being byte 2 of the fixed
/// sense data (SPC-4 4.5.3). The line names no disk, only the controller.
fn cciss_sense_key(low: &str) -> Option<u8> {
    if !low.contains("cciss") {
        return None;
    }
    let (_, rest) = low.split_once("has check condition")?;
    let rest = rest.trim_start();
    let hex = rest
        .strip_prefix("sense key = 0x")
        .or_else(|| rest.strip_prefix("byte 2 = 0x"))?;
    let digits: String = hex.chars().take_while(char::is_ascii_hexdigit).collect();
    u8::from_str_radix(&digits, 16).ok().map(|b| b & 0x0f)
}

/// The sense key of scsi_print_sense_hdr's line on a kernel built without
/// CONFIG_SCSI_CONSTANTS (drivers/scsi/scsi_logging.c scsi_format_sense_hdr: "Sense Key :
/// 0x%x" when scsi_sense_key_string has no name for it, then "ASC=0x%x ASCQ=0x%x"): "sd
/// 0:0:0:0: [sda] tag#27 Sense Key : 0x3 [current]". Read as [`cciss_sense_key`]'s value
/// (SPC-4 4.5.6: 3h MEDIUM ERROR, 4h HARDWARE ERROR).
fn hex_sense_key(low: &str) -> Option<u8> {
    let rest = low.split_once("sense key : 0x")?.1;
    let digits: String = rest.chars().take_while(char::is_ascii_hexdigit).collect();
    u8::from_str_radix(&digits, 16).ok()
}

/// The events of the HP Smart Array (cciss) sense lines in `log` ([`cciss_sense_key`]):
/// they name only the controller, so a log that names no disk gives them to the disk the
/// poster pasted (the logical drive cciss/cNdM the controller serves).
pub fn cciss_events(log: &str, from: &str) -> Vec<KernelEvent> {
    log.lines()
        .map(strip_prefixes)
        .filter(|b| cciss_sense_key(&b.to_ascii_lowercase()).is_some())
        .filter_map(|b| {
            Some(KernelEvent {
                kind: classify(b)?,
                line: b.trim().to_string(),
                from: from.to_string(),
            })
        })
        .collect()
}

/// The controller of a line an LSI/Broadcom SAS HBA driver prints under its own name
/// (mpt2sas/mpt3sas "mpt2sas0: ", "mpt3sas_cm0: ", ioc->name; the Fusion MPT "mptsas"
/// driver's "mptbase: ioc0: "), with the rest of the line.
fn sas_hba_line(body: &str) -> Option<&str> {
    let b = body.trim_start();
    let (ctrl, rest) = b.split_once(": ")?;
    let unit = ctrl
        .strip_prefix("mpt3sas_cm")
        .or_else(|| ctrl.strip_prefix("mpt2sas_cm"))
        .or_else(|| ctrl.strip_prefix("mpt3sas"))
        .or_else(|| ctrl.strip_prefix("mpt2sas"))
        .or_else(|| ctrl.strip_prefix("mptbase: ioc"))?;
    (!unit.is_empty() && unit.chars().all(|c| c.is_ascii_digit())).then_some(rest)
}

/// What an SAS HBA driver's own line reports about the targets behind it ([`sas_hba_line`]):
/// its IOC log info word ([`sas_log_info_kind`]); the SCSI error handler's escalation as
/// the driver announces each step (mpt3sas_scsih.c scsih_abort "attempting task abort!",
/// an I/O timeout; scsih_dev_reset "attempting device reset!", scsih_target_reset
/// "attempting target reset!" and scsih_host_reset "attempting host reset!", the
/// target still silent after the abort, so the path to it is reset); and the driver
/// failing to add a target it discovered (mpt3sas_scsih.c _scsih_add_device and
/// mpt3sas_transport.c _transport_set_identify print "failure at %s:%d/%s()!" when the
/// IOC cannot read the device's configuration page: the device left the topology while it
/// was being added).
fn sas_hba_kind(body: &str) -> Option<KernelEventKind> {
    let rest = sas_hba_line(body)?;
    if let Some(kind) = sas_log_info(body).and_then(sas_log_info_kind) {
        return Some(kind);
    }
    let low = rest.to_ascii_lowercase();
    if low.starts_with("attempting task abort!") {
        return Some(KernelEventKind::IoTimeout);
    }
    if ["device", "target", "host", "bus"]
        .iter()
        .any(|w| low.starts_with(&format!("attempting {w} reset!")))
    {
        return Some(KernelEventKind::LinkReset);
    }
    if low.starts_with("failure at ") && low.contains("add_device()") {
        return Some(KernelEventKind::TransportError);
    }
    None
}

/// The events of an SAS HBA driver's own lines ([`sas_hba_kind`]), for a log that names no
/// disk: the older mpt2sas printed its error-handler steps under the controller's name, and
/// its log info words and discovery failures name no target at all, so they go to the disk
/// the poster pasted. One reset alone is left out: the HBA resets a SATA target it
/// rediscovers with commands queued (log info 0x3111_0Exx, PL RESET, sub-code
/// DISCOVERY_SATA_INIT_W_IOS of mpi_log_sas.h) whenever a drive re-initialises, a locked or
/// power-cycled one too; a second reset, an abort, a timeout or a failed add is the path
/// failing again.
pub fn sas_hba_events(log: &str, from: &str) -> Vec<KernelEvent> {
    let out: Vec<KernelEvent> = log
        .lines()
        .map(strip_prefixes)
        .filter_map(|b| {
            Some(KernelEvent {
                kind: sas_hba_kind(b)?,
                line: b.trim().to_string(),
                from: from.to_string(),
            })
        })
        .collect();
    let lone_reset = out.len() == 1 && out.iter().all(|e| e.kind == KernelEventKind::LinkReset);
    if lone_reset { Vec::new() } else { out }
}

/// Whether a line is nvme(4)'s "Abort status: 0x0" (drivers/nvme/host/pci.c abort_endio,
/// "Abort status: 0x%x" with the completion's status): the controller completed the Abort
/// command for a timed-out I/O with status 0 (successful completion, NVMe Base 2.0 figure
/// 101), so it was awake, on the link and answering admin commands while that I/O hung.
pub fn is_answered_nvme_abort(line: &str) -> bool {
    let low = line.to_ascii_lowercase();
    low.strip_prefix("nvme nvme")
        .and_then(|r| r.split_once(": "))
        .is_some_and(|(_, r)| r.trim_end() == "abort status: 0x0")
}

/// Whether the NVMe controller `ctrl` ("nvme1") answered the Abort of every timed-out
/// command the log shows with generic status 06h, Internal Error ("nvme nvme1: Abort
/// status: 0x6", pci.c abort_endio), at least twice. Abort is a mandatory admin command
/// (NVMe Base 2.0 section 5.1): a controller completes it successfully, with Dword 0 bit 0
/// saying whether the command was aborted, or with Abort Command Limit Exceeded (the
/// driver prints 0x103) when too many are outstanding. An emulated controller that does
/// not implement Abort answers each one at once with Internal Error: Oxide's Propolis did
/// so until its pull request 581 (2023, lib/propolis/src/hw/nvme: "Abort ... we were
/// previously just returning STS_INTERNAL_ERR"), the NVMe device of its guests whose
/// timeouts come from the virtual backend (Crucible), not from a drive.
pub fn nvme_aborts_unimplemented(ctrl: &str, log: &str) -> bool {
    let head = format!("nvme {ctrl}: abort status: ");
    let mut internal = 0usize;
    for raw in log.lines() {
        let low = super::log_prefix::strip_prefixes(raw)
            .trim()
            .to_ascii_lowercase();
        let Some(status) = low.strip_prefix(&head) else {
            continue;
        };
        if status.trim() != "0x6" {
            return false;
        }
        internal = internal.saturating_add(1);
    }
    internal >= 2
}

/// Whether `body` is the sd driver's device prefix with nothing after it ("sd 0:0:2:0:
/// [sdc]", "sd 0:0:2:0: [sdc] CDB:"), naming `disk`: the head of a two-printk report (see
/// [`events_for`]).
fn is_lone_sd_prefix(body: &str, disk: &str) -> bool {
    // sr.c prints its drive's lines the same way ("sr 1:0:0:0: [sr0] ", sr_printk).
    let b = body.trim();
    let Some((hctl, tail)) = b
        .strip_prefix("sd ")
        .or_else(|| b.strip_prefix("sr "))
        .and_then(|r| r.split_once(": "))
    else {
        return false;
    };
    let tail = tail.trim();
    let tail = tail.strip_suffix("CDB:").map_or(tail, str::trim_end);
    hctl.split(':').count() == 4
        && hctl.chars().all(|c| c.is_ascii_digit() || c == ':')
        && tail.strip_prefix('[').and_then(|t| t.strip_suffix(']')) == Some(disk)
}

/// The device path and command of a CAM error report's command line: "(aprobe0:ahcich8:0:0:
/// 0): ATA_IDENTIFY. ACB: ec 00 ..." -> ("aprobe", "ATA_IDENTIFY") (cam_periph.c
/// cam_periph_error -> cam_error_string: the path, then ata_op_string or scsi_op_desc and
/// ". ACB: " / ". CDB: ").
fn cam_command(body: &str) -> Option<(String, String)> {
    let (path, rest) = body.trim_start().strip_prefix('(')?.split_once("): ")?;
    if !is_cam_detail(rest) || !(rest.contains(". ACB:") || rest.contains(". CDB:")) {
        return None;
    }
    let periph = path
        .split(':')
        .next()?
        .trim_end_matches(|c: char| c.is_ascii_digit());
    let op = rest.split_once(". ")?.0;
    Some((periph.to_string(), op.to_string()))
}

/// Whether a CAM command name (scsi_op_desc: "READ(10)", "WRITE(16)", "READ(6)") is a read
/// or write of data: the commands every block device serves, unlike the probe's optional
/// ones (READ CAPACITY(16), SYNCHRONIZE CACHE, REPORT LUNS) a USB device may reject.
fn is_data_transfer_op(op: &str) -> bool {
    ["READ(", "WRITE("]
        .iter()
        .any(|p| op.trim().to_ascii_uppercase().starts_with(p))
}

/// Whether a channel's only trouble is commands of a device probe that timed out: CAM's
/// probe periph (aprobe(4) of sys/cam/ata/ata_xpt.c, probe of scsi_xpt.c) or a pass(4)
/// command (camcontrol identify, smartctl) sending IDENTIFY DEVICE, IDENTIFY PACKET DEVICE,
/// SET FEATURES or SET MULTIPLE MODE (ata_all.c ata_op_string: "ATA_IDENTIFY",
/// "ATAPI_IDENTIFY", "SETFEATURES ...", "SET_MULTI") or a SCSI INQUIRY, with no read or
/// write of data failing and no status bits of the drive (no UNC, no ICRC): only "CAM
/// status: Command timeout" and the controller's own "Timeout on slot" report with its
/// register dump. The drive never answered the controller's first questions, the way a
/// controller the driver does not fully support yet behaves at attach (OPNsense on Intel
/// Denverton's AHCI before FreeBSD 11.2): no sector was read and no frame is known to have
/// been damaged, so it is no media error and no link error of a disk.
fn probe_timeouts_only(commands: &[(String, String)], events: &[KernelEvent]) -> bool {
    let probe = |(periph, op): &(String, String)| {
        matches!(periph.as_str(), "aprobe" | "probe" | "pass")
            && (matches!(
                op.as_str(),
                "ATA_IDENTIFY" | "ATAPI_IDENTIFY" | "SET_MULTI" | "INQUIRY"
            ) || op.starts_with("SETFEATURES"))
    };
    let timeout_only = |e: &KernelEvent| {
        let low = e.line.to_ascii_lowercase();
        match e.kind {
            KernelEventKind::IoTimeout => low.contains("cam status: command timeout"),
            KernelEventKind::LinkReset => {
                is_ata_channel_reset(&e.line)
                    || e.line
                        .split_once(": ")
                        .is_some_and(|(_, r)| is_channel_timeout(r))
            }
            _ => false,
        }
    };
    !commands.is_empty()
        && commands.iter().all(probe)
        && !events.is_empty()
        && events.iter().all(timeout_only)
}

/// Events on libata port `port` (the N of "ataN"), for callers that know which port the
/// disk hangs off (Linux sysfs `/sys/block/sda/device` -> `.../ataN/...`).
pub fn events_for_port(port: u32, log: &str, from: &str) -> Vec<KernelEvent> {
    let out = port_lines(log)
        .into_iter()
        .filter_map(|(body, line_port, kind)| {
            if line_port != Some(port) {
                return None;
            }
            kind.map(|kind| KernelEvent {
                kind,
                line: body.trim().to_string(),
                from: from.to_string(),
            })
        })
        .collect();
    one_count_per_timeout(out)
}

pub use super::log_prefix::strip_prefixes;

/// Every disk-health event in the log regardless of device, with the device it names
/// ("sda", "ata1", "ada2") when one can be read off the line.
pub fn all_events(log: &str, from: &str) -> Vec<(Option<String>, KernelEvent)> {
    port_lines(log)
        .into_iter()
        .filter_map(|(body, port, kind)| {
            let kind = kind?;
            let continued = port.filter(|_| port_of(body).is_none());
            Some((
                device_named(body).or_else(|| continued.map(|p| format!("ata{p}"))),
                KernelEvent {
                    kind,
                    line: body.trim().to_string(),
                    from: from.to_string(),
                },
            ))
        })
        .collect()
}

/// Whether `body` names the disk: "[sda]", "dev sda", "dev sda3," (a partition of it),
/// FreeBSD "(ada0:" CAM prefix or "ada0: " at the start.
fn names_disk(body: &str, disk: &str) -> bool {
    if body.contains(&format!("[{disk}]")) || body.contains(&format!("({disk}:")) {
        return true;
    }
    // md names the member it failed to read (sdc2 is on sdc).
    if let Some(m) = md_member(body)
        && m.strip_prefix(disk)
            .is_some_and(|r| r.chars().all(|c| c.is_ascii_digit()))
    {
        return true;
    }
    // nvme(4) names the controller ("nvme nvme0: I/O 5 QID 2 timeout"), which is the drive
    // of its namespaces (nvme0n1).
    if let Some(ctrl) = nvme_controller_of(disk)
        && body
            .strip_prefix("nvme ")
            .and_then(|r| r.strip_prefix(ctrl))
            .is_some_and(|r| r.starts_with(':'))
    {
        return true;
    }
    if let Some(rest) = body.strip_prefix(disk)
        && rest.starts_with(':')
    {
        return true;
    }
    if disk_error_provider(body).map(provider_disk) == Some(disk) {
        return true;
    }
    if bsd_fs_io_error(body).is_some_and(|(d, _)| d == disk) {
        return true;
    }
    if fs_io_error_device(body).and_then(block_disk_of) == Some(disk) {
        return true;
    }
    let mut search = body;
    while let Some(i) = search.find("dev ") {
        let after = search.get(i + 4..).unwrap_or("");
        if let Some(rest) = after.strip_prefix(disk) {
            let tail: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric())
                .collect();
            // sda3 is on sda; nvme0n1p2 on nvme0n1; but sdab is another disk.
            let partition = tail.is_empty()
                || tail.chars().all(|c| c.is_ascii_digit())
                    && !disk.ends_with(|c: char| c.is_ascii_digit())
                || tail
                    .strip_prefix('p')
                    .is_some_and(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
                || tail
                    .strip_prefix('s')
                    .is_some_and(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_alphanumeric()));
            if partition {
                return true;
            }
        }
        search = after;
    }
    false
}

/// Each line of `log` without its prefixes, with the libata port it concerns and what it
/// reports: the port the line names ("ata3.00: ..."), or for a "res ..." line the port of
/// the line before it. libata prints a failed command as one printk, "ataN.MM: cmd
/// ...\n         res ... Emask 0x4 (timeout)" (libata-eh.c ata_eh_link_report), so the
/// "res" half (which carries the error class) reaches the log as a line of its own, with or
/// without a timestamp; its "(device error)" is read with the command of the "cmd" half
/// ([`device_error_on_io`]).
fn port_lines(log: &str) -> Vec<(&str, Option<u32>, Option<KernelEventKind>)> {
    // A live scan asks this for every disk of the machine with the same dmesg (32 loop devices
    // and a 1,700-line log read it 40 times): the reading is kept for the last log seen, as
    // byte ranges into it, and handed out again when the same text comes back.
    type Read = Vec<(usize, usize, Option<u32>, Option<KernelEventKind>)>;
    thread_local! {
        static LAST: std::cell::RefCell<Option<(String, std::rc::Rc<Read>)>> =
            const { std::cell::RefCell::new(None) };
    }
    // Only a log worth keeping is kept: a paste of a few lines costs less to read again.
    const WORTH: usize = 16 * 1024;
    let cached = (log.len() >= WORTH)
        .then(|| {
            LAST.with(|c| {
                c.borrow()
                    .as_ref()
                    .filter(|(text, _)| text == log)
                    .map(|(_, r)| std::rc::Rc::clone(r))
            })
        })
        .flatten();
    let read = match cached {
        Some(r) => r,
        None => {
            let base = log.as_ptr() as usize;
            let r: Read = read_port_lines(log)
                .into_iter()
                .map(|(body, port, kind)| {
                    // `body` is a slice of `log` (strip_prefixes and wrapped_tail only cut).
                    let start = (body.as_ptr() as usize).saturating_sub(base);
                    (start, start.saturating_add(body.len()), port, kind)
                })
                .collect();
            let r = std::rc::Rc::new(r);
            if log.len() >= WORTH {
                LAST.with(|c| *c.borrow_mut() = Some((log.to_string(), std::rc::Rc::clone(&r))));
            }
            r
        }
    };
    read.iter()
        .map(|&(a, b, port, kind)| (log.get(a..b).unwrap_or(""), port, kind))
        .collect()
}

fn read_port_lines(log: &str) -> Vec<(&str, Option<u32>, Option<KernelEventKind>)> {
    let mut last: Option<u32> = None;
    // An SD card's failed initialisations before it attached are retries, no error.
    let settled = mmc::settled_hosts(log);
    let dead = mmc::dead_hosts(log);
    let mut opcode: Option<u8> = None;
    let mut read: Vec<_> = log
        .lines()
        .map(|raw| {
            let body = strip_prefixes(raw);
            let tail = wrapped_tail(body);
            let port = match port_of(body) {
                Some(p) => Some(p),
                None if body.trim_start().starts_with("res ") || tail.is_some() => last,
                None => None,
            };
            if port != last || port.is_none() {
                opcode = None;
            }
            last = port;
            if let Some(op) = cmd_opcode(body).or(tail.flatten()) {
                opcode = Some(op);
            }
            let kind = classify(body).or_else(|| device_error_on_io(body, opcode));
            let kind = kind.filter(|_| !mmc::is_retried_init(body, &settled));
            let kind = kind.filter(|_| {
                dead.is_empty() || !mmc::on_dead_host(body, device_named(body).as_deref(), &dead)
            });
            (body, port, kind)
        })
        .collect();
    drop_probe_resets(&mut read);
    join_disk_error_reports(&mut read);
    if has_nvme_status_lines(log) {
        for l in read.iter_mut() {
            if l.2 == Some(KernelEventKind::MediumError)
                && is_nvme_blk_medium_line(&l.0.to_ascii_lowercase())
            {
                l.2 = Some(KernelEventKind::IoError);
            }
        }
    }
    read
}

/// Forget the resets of a port's probe: libata brings every port up through its error
/// handler (ata_port_probe schedules EH; ata_eh_recover -> ata_eh_reset prints "hard resetting
/// link", and a hardreset whose link is not ready in time "COMRESET failed (errno=-16)",
/// libata-core.c ata_wait_ready / libata-sata.c sata_link_hardreset), so a healthy boot
/// log shows them on every port, empty ones too ("SATA link down"). A reset is the probe's
/// when nothing went wrong on the port before it, the port's first link status follows it,
/// and either the link is down (no drive) or the device's identity lines come after the
/// link-up (ata_dev_configure prints "ataN.00: ATA-10: MODEL" and "N sectors, multi" only
/// with ATA_EHI_PRINTINFO, set when a new device is attached). Only a port with no other
/// event before or after: a reset that follows an exception, or one more after the probe,
/// keeps every line.
fn drop_probe_resets(lines: &mut [(&str, Option<u32>, Option<KernelEventKind>)]) {
    let mut ports: Vec<u32> = lines.iter().filter_map(|l| l.1).collect();
    ports.sort_unstable();
    ports.dedup();
    for p in ports {
        let mut resets: Vec<usize> = Vec::new();
        let (mut linked, mut attached, mut clean) = (false, false, true);
        for (i, (body, _, kind)) in lines.iter().enumerate().filter(|(_, l)| l.1 == Some(p)) {
            let reset = matches!(
                kind,
                Some(KernelEventKind::LinkReset | KernelEventKind::ComresetFailed)
            );
            if reset && !linked {
                resets.push(i);
            } else if kind.is_some() {
                clean = false;
                break;
            } else if !linked {
                linked = body.contains("SATA link up") || body.contains("SATA link down");
                attached = body.contains("SATA link down");
            } else {
                attached |= is_identity_line(body);
            }
        }
        if clean && attached {
            for i in resets {
                if let Some(l) = lines.get_mut(i) {
                    l.2 = None;
                }
            }
        }
    }
}

/// libata's identity lines of a newly attached device (libata-core.c ata_dev_configure):
/// "ata1.00: ATA-8: MODEL, FW, max UDMA/133", "ATAPI: ...", "CFA: ...", "N sectors, multi
/// 16: LBA48 NCQ (depth 32)".
fn is_identity_line(body: &str) -> bool {
    body.split_once(": ").is_some_and(|(_, r)| {
        r.starts_with("ATA-")
            || r.starts_with("ATAPI: ")
            || r.starts_with("CFA: ")
            || r.contains(" sectors, multi ")
    })
}

/// A libata report line's tail that a mail client wrapped onto a line of its own: the
/// taskfile of a "cmd" line ("61/0b:a8:da:66:d1/00:00:08:00:00/40 tag 21 ncq dma 5632 out",
/// ata_eh_link_report's "%02x/%02x:%02x:%02x:%02x:%02x/%02x:%02x:%02x:%02x:%02x/%02x"; its
/// first byte is the command opcode, returned), or the rest of an "exception Emask ... SAct"
/// line ("0x4200000 SErr 0x0 action 0x6 frozen", ata_eh_link_report's "SAct 0x%x SErr 0x%x
/// action 0x%x"). Some(None) for a tail without an opcode.
fn wrapped_tail(body: &str) -> Option<Option<u8>> {
    let t = body.trim_start();
    let b = t.as_bytes();
    let hex = |i: usize| b.get(i).is_some_and(u8::is_ascii_hexdigit);
    let taskfile =
        hex(0) && hex(1) && b.get(2) == Some(&b'/') && hex(3) && hex(4) && b.get(5) == Some(&b':');
    if taskfile {
        return Some(t.get(..2).and_then(|h| u8::from_str_radix(h, 16).ok()));
    }
    let mut w = t.split_whitespace();
    let first = w.next().unwrap_or("");
    let is_hex = |x: &str| {
        x.strip_prefix("0x")
            .is_some_and(|h| !h.is_empty() && h.chars().all(|c| c.is_ascii_hexdigit()))
    };
    (is_hex(first) && matches!(w.next(), Some("SErr" | "action"))).then_some(None)
}

/// The ATA command opcode of libata's "cmd 61/20:70:68:b7:13/00:00:00:00:00/40 tag 14 ..."
/// (ata_eh_link_report prints the taskfile's command byte first).
fn cmd_opcode(body: &str) -> Option<u8> {
    let i = body.find("cmd ")?;
    let hex = body.get(i + 4..i + 6)?;
    let op = u8::from_str_radix(hex, 16).ok()?;
    (body.get(i + 6..i + 7) == Some("/")).then_some(op)
}

/// "res 51/04:20:... Emask 0x401 (device error)": the drive itself failed the command
/// (AC_ERR_DEV, include/linux/libata.h; ata_err_string "device error"), not the link
/// (that is "ATA bus error" or ICRC, read first by [`classify`]). On a read or write of
/// data (ACS-3 opcodes: READ/WRITE DMA (EXT), READ/WRITE FPDMA QUEUED, READ/WRITE SECTOR(S)
/// (EXT), READ/WRITE MULTIPLE (EXT), READ VERIFY SECTOR(S) (EXT)) it is a drive that cannot
/// do its I/O; on anything else (SET FEATURES, READ LOG EXT, a DSM TRIM the drive does not
/// take) it is a feature the drive refuses, and nothing here.
fn device_error_on_io(body: &str, opcode: Option<u8>) -> Option<KernelEventKind> {
    const IO: &[u8] = &[
        0x20, 0x24, 0x25, 0x29, 0xc4, 0xc8, 0x60, 0x40, 0x42, // reads, verifies
        0x30, 0x34, 0x35, 0x39, 0xc5, 0xca, 0x61, 0x3d, 0xce, // writes
    ];
    let op = cmd_opcode(body).or(opcode)?;
    if !(body.contains("(device error)") && IO.contains(&op)) {
        return None;
    }
    // The error register names what the drive failed on; without a bit the command defines
    // the request failed for a reason the drive does not say (a virtual disk's emulated
    // error): an I/O error, not a medium ([`is_unnamed_ata_device_error`]).
    if is_unnamed_ata_device_error(body) {
        return Some(KernelEventKind::IoError);
    }
    Some(KernelEventKind::DeviceError)
}

/// The status and error registers of libata's "res SS/EE:..." taskfile (ata_eh_link_report
/// prints the result taskfile's status byte, then its error byte, each "%02x").
fn res_registers(body: &str) -> Option<(u8, u8)> {
    let i = body.find("res ")?;
    let t = body.get(i + 4..i + 10)?;
    if t.as_bytes().get(2) != Some(&b'/') || t.as_bytes().get(5) != Some(&b':') {
        return None;
    }
    let stat = u8::from_str_radix(t.get(..2)?, 16).ok()?;
    let err = u8::from_str_radix(t.get(3..5)?, 16).ok()?;
    Some((stat, err))
}

/// A libata "res 41/02:00:... Emask 0x401 (device error)" whose status has ERR (bit 0) and
/// whose error register holds none of the bits a read or write defines (ATA8-ACS 6.3, Error
/// field, and the READ/WRITE FPDMA QUEUED and DMA EXT descriptions: 40h UNC uncorrectable
/// data, 10h IDNF address not found, 80h ICRC or the older BBK bad block, 04h ABRT the
/// device aborted the command, 01h the older AMNF address mark not found): only an obsolete
/// or reserved bit (02h) or none. The drive (often an emulated one) failed the request
/// without a cause the standard gives: no bad sector and no refusal of its own. ABRT on a
/// read or write stays the drive's device error: it aborted I/O it should have done.
pub fn is_unnamed_ata_device_error(body: &str) -> bool {
    body.contains("(device error)")
        && res_registers(body).is_some_and(|(stat, err)| stat & 0x01 != 0 && err & 0xd5 == 0)
}

/// Whether `body` is a line of channel `chan`: its own ("ahcich0: Timeout on slot 4") or,
/// on a channel that holds one device (a SATA port, a umass(4) SIM; a parallel ATA channel
/// holds two), a
/// CAM path through it ("(aprobe0:ahcich0:0:0:0): ...", "(probe0:umass-sim0:0:0:0): ...":
/// the device while it is probed, before it attaches as a disk).
fn names_channel(body: &str, chan: &str) -> bool {
    if body.strip_prefix(chan).is_some_and(|r| r.starts_with(':')) {
        return true;
    }
    let single = ["ahcich", "siisch", "mvsch", "umass-sim"].iter().any(|p| {
        chan.strip_prefix(p)
            .is_some_and(|u| u.chars().all(|c| c.is_ascii_digit()))
    });
    single
        && body
            .strip_prefix('(')
            .and_then(|p| p.split(':').nth(1))
            .is_some_and(|sim| sim == chan)
}

/// The member device an md error line names: "(sector 8 on sdc2)" (raid5.c) or
/// "md/raid1:md0: sdb1: unrecoverable ..." (raid1.c, raid10.c), as printed.
fn md_member(body: &str) -> Option<&str> {
    if !body.starts_with("md/raid") {
        return None;
    }
    if let Some(i) = body.find(" on ") {
        let rest = body.get(i + 4..)?;
        return rest.split([')', ' ', '.']).next().filter(|n| !n.is_empty());
    }
    let mut parts = body.split(": ");
    parts.next()?;
    parts.next().filter(|n| !n.is_empty() && !n.contains(' '))
}

/// The device a line names, for [`all_events`].
fn device_named(body: &str) -> Option<String> {
    if let Some(i) = body.find("dev ") {
        let name: String = body
            .get(i + 4..)
            .unwrap_or("")
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
            .collect();
        if !name.is_empty() {
            return Some(name);
        }
    }
    if let Some(i) = body.find('[') {
        let name: String = body
            .get(i + 1..)
            .unwrap_or("")
            .chars()
            .take_while(|c| *c != ']')
            .collect();
        if name.starts_with("sd") || name.starts_with("vd") || name.starts_with("nvme") {
            return Some(name);
        }
    }
    if let Some(rest) = body.strip_prefix('(') {
        return rest.split(':').next().map(str::to_string);
    }
    let first = body.split([':', '.']).next().unwrap_or("");
    if first.starts_with("ata")
        && first.len() > 3
        && first.chars().skip(3).all(|c| c.is_ascii_digit())
    {
        return Some(first.to_string());
    }
    None
}

/// What a kernel log line reports, if anything disk-health related.
pub fn classify(body: &str) -> Option<KernelEventKind> {
    let low = body.to_ascii_lowercase();
    // Lines whose own bits say what failed, decoded before any word match below. A line
    // whose bits name no fault still goes through the word matches: a paste run together
    // on one line carries "hostbyte=DID_OK" and the "Medium Error" sense after it.
    if let Some(kind) = scsi_host_byte(body).and_then(host_byte_kind) {
        return Some(kind);
    }
    if let Some(kind) = sas_log_info(body).and_then(sas_log_info_kind) {
        return Some(kind);
    }
    if let Some(kind) = freebsd_ata_request(body)
        .or_else(|| disk_error_report(body))
        .or_else(|| bsd_fs_io_error_kind(body))
        .or_else(|| ide_status(body))
        .or_else(|| translated_ata_error(body))
    {
        return Some(kind);
    }
    // Transport CRC errors first: "{ ICRC ABRT }" lines also carry "error:".
    // SCSI sense ASC 47h (SPC-4 annex: "SCSI parity error", 47h/03h "Information unit iuCRC
    // error detected"), as a USB (UAS) or SAS bridge reports a damaged transfer.
    if body.contains("ICRC")
        || cam_transport_sense(&low)
        || body.contains("BadCRC")
        || body.contains("iuCRC error")
        || low.contains("scsi parity error")
        || low.contains("interface crc error")
        || low.contains("communication crc error")
        || low.contains("uncorrectable parity/crc error")
    {
        return Some(KernelEventKind::CrcError);
    }
    if low.contains("comreset failed") {
        return Some(KernelEventKind::ComresetFailed);
    }
    if let Some(key) = cciss_sense_key(&low).or_else(|| hex_sense_key(&low)) {
        return match key {
            // SPC-4 4.5.6 table 27: 3h MEDIUM ERROR, 4h HARDWARE ERROR.
            3 => Some(KernelEventKind::MediumError),
            4 => Some(KernelEventKind::DeviceError),
            _ => None,
        };
    }
    // libata-core.c ata_dev_read_id: "ata1.00: failed to IDENTIFY (I/O error,
    // err_mask=0x40)". IDENTIFY DEVICE returns the drive's identity page and touches no user
    // data, so its failure is never a bad sector; err_mask says what failed
    // ([`identify_failure`]).
    if low.contains("failed to identify (") {
        return hex_field(&low, "err_mask=").and_then(identify_failure);
    }
    if is_mfi_timeout(body) || is_mpt_timeout(body) {
        return Some(KernelEventKind::IoTimeout);
    }
    // The drive's own sense data asking to be reset or power-cycled: SPC-4 ASC 04h ASCQ 21h
    // "LOGICAL UNIT NOT READY, HARD RESET REQUIRED" and 22h "... POWER CYCLE REQUIRED"
    // (drivers/scsi/constants.c names them so; a SATA drive returns them through ATA sense
    // data reporting, ACS-4 table "Sense data"). The drive has put itself out of service
    // (its firmware met a fault it cannot recover from), so the commands after it fail
    // with the host byte of a device libata disabled (DID_BAD_TARGET): the drive failed,
    // not the link. Other NOT READY codes (becoming ready, medium not present) are no fault.
    if low.contains("not ready, hard reset required")
        || low.contains("not ready, power cycle required")
    {
        return Some(KernelEventKind::DeviceError);
    }
    // Registers that read as all ones: a PCIe read of a function that has dropped off the
    // bus completes with every bit set (PCIe Base spec 2.3.2, Unsupported Request /
    // Completer Abort to a read returns all ones to software). libata prints them as "SATA
    // link down (SStatus FFFFFFFF SControl FFFFFFFF)" and "failed to resume link (SControl
    // FFFFFFFF)" (libata-sata.c sata_print_link_status, sata_link_resume), and libahci's
    // ahci_stop_engine says "AHCI controller unavailable!" when PORT_CMD reads 0xffffffff:
    // the SATA controller, not a drive or its cable, is gone.
    if body.contains("SStatus FFFFFFFF")
        || body.contains("SControl FFFFFFFF")
        || low.contains("ahci controller unavailable")
    {
        return Some(KernelEventKind::TransportError);
    }
    // The path to the drive, not the drive: xHCI/EHCI declaring the host controller dead
    // (drivers/usb/host/xhci-ring.c xhci_hc_died "HC died; cleaning up", xhci.c "xHCI host
    // controller not responding, assume dead", "Host System Error"), a USB device leaving
    // the bus (drivers/usb/core/hub.c usb_disconnect "USB disconnect, device number N"), the
    // SCSI error handler giving a device up (scsi_error.c scsi_eh_offline_sdevs "Device
    // offlined - not ready after error recovery"), and CAM's CAM_REQ_CMP_ERR ("CCB request
    // completed with an error") and CAM_SEL_TIMEOUT ("Selection Timeout", cam.c
    // cam_status_table): the transport failed the command before the medium was involved.
    if low.contains("hc died")
        || is_usb_enumeration_failure(&low)
        || low.contains("host controller not responding, assume dead")
        || (low.starts_with("xhci") && low.contains("host system error"))
        || low.contains(": usb disconnect, device number")
        || low.contains("device offlined - not ready after error recovery")
        || low.contains("ccb request completed with an error")
        || low.contains("cam status: selection timeout")
    {
        return Some(KernelEventKind::TransportError);
    }
    // "limiting SATA link speed to 1.5 Gbps"; on PATA and emulated IDE the same step-down
    // is of the transfer mode: "ata1.00: limiting speed to MWDMA1:PIO2" (libata-eh.c
    // ata_down_xfermask_limit).
    if low.contains("limiting sata link speed") || low.contains(": limiting speed to ") {
        return Some(KernelEventKind::LinkSpeedLimited);
    }
    // ahci(4) (sys/dev/ahci/ahci.c ahci_reset()): "ahcich0: AHCI reset: device not ready
    // after 31000ms": the port was reset and the drive did not come back ready.
    // uas(4) (drivers/usb/storage/uas.c): the SCSI error handler resetting the USB device
    // ("scsi host7: uas_eh_bus_reset_handler start", "scsi host0: uas_eh_device_reset_handler
    // success") and the commands it took back unfinished
    // ("[sdd] tag#0 uas_zap_pending 0 uas-tag 1 inflight: CMD"): the bridge stopped
    // answering, the USB link was reset.
    // The SFF soft reset failing ("ata1: SRST failed (errno=-16)", libata-sff.c
    // ata_sff_softreset, on PATA and legacy-mode SATA) is a reset of the bus that did not
    // bring the drive back, like ata(4)'s "ata2: hardware reset timeout" and "port is not
    // ready (timeout 15000ms)" (sys/dev/ata/ata-all.c, ata-sata.c): the channel was reset
    // and the device did not answer. libata-eh.c's "softreset failed (device not ready)"
    // is not read: it is also what a drive waking from standby prints before it answers
    // (Synology's kernels follow it with "the reset fail can be ignored").
    if low.contains("hard resetting link")
        // 2.6.17's libata-eh.c ata_eh_reset: "ata1: hard resetting port".
        || low.contains("hard resetting port")
        || low.contains("srst failed (errno=")
        || low.contains("hardware reset timeout")
        || low.contains("port is not ready (timeout")
        || low.contains("ahci reset: device not ready")
        || low.contains("uas_eh_bus_reset_handler")
        || low.contains("uas_eh_device_reset_handler")
        || low.contains("uas_zap_pending")
    {
        return Some(KernelEventKind::LinkReset);
    }
    // ahci(4) "ahcich0: Timeout on slot N port M" (sys/dev/ahci/ahci.c ahci_timeout()): the
    // controller gave up waiting for the port, marks the channel's error fatal and resets
    // the channel once its commands are ended (ch->fatalerr -> ahci_reset()), a COMRESET of
    // the link. The same text from siis(4), mvs(4) and fsl_sata. The disk's own "CAM status:
    // Command timeout" line stays an I/O timeout.
    // siis(4) prints its timeout as two lines (sys/dev/siis/siis.c siis_timeout: "Timeout on
    // slot %d", then "%s is %08x ss %08x rs %08x es %08x sts %08x serr %08x" with __func__)
    // and then resets the channel (siis_process_timeout -> siis_reset); an excerpt may keep
    // only the register line, "siisch1: siis_timeout is 00040000 ss 04000000 ...".
    if low.contains("timeout on slot") || is_siis_timeout_dump(&low) {
        return Some(KernelEventKind::LinkReset);
    }
    // CAM: "(ada0:ahcich4:0:0:0): lost device" - the disk dropped off its SATA/ATA channel
    // (cam_periph.c / ata_xpt.c on a link-down); on USB ("(da0:umass-sim0:...)") it is an
    // unplug and means nothing.
    // CAM's xpt also reports the loss from the probe periph: "(aprobe0:ahcich0:0:0:ffffffff):
    // sending LOST DEVICE" (cam_xpt.c xpt_async AC_LOST_DEVICE).
    if (low.contains("): lost device") || low.contains("): sending lost device"))
        && !low.contains("umass")
    {
        return Some(KernelEventKind::LinkReset);
    }
    // libata's Emask decoding: "(ATA bus error)" is a transport fault, like a CRC error.
    // "exception Emask 0x10" is AC_ERR_ATA_BUS (include/linux/libata.h: 1 << 4) on the
    // port line itself, whose decoded "(ATA bus error)" may sit on a continuation line.
    // SError bits 10B8B (8b/10b decode), Dispar (disparity), LinkSeq, Handshk, TrStaTr and
    // UnrecovData are damaged frames on the wire (libata-eh.c ata_eh_analyze_serror).
    if low.contains("(ata bus error)")
        || low.contains("exception emask 0x10 ")
        || (low.contains("serror: {")
            && [
                "10B8B",
                "Dispar",
                "LinkSeq",
                "Handshk",
                "TrStaTr",
                "UnrecovData",
            ]
            .iter()
            .any(|w| has_word(body, w)))
    {
        return Some(KernelEventKind::CrcError);
    }
    // The "res" half of a failed command whose error mask names the host side only:
    // "res 50/00:00:01:20:0b/00:00:00:00:00/e0 Emask 0x40 (internal error)".
    if let Some(kind) = host_side_emask(&low) {
        return Some(kind);
    }
    // "res c0/00:00:... Emask 0x3 (HSM violation)": ata_err_string names AC_ERR_HSM (02h,
    // include/linux/libata.h) when the device or the controller broke the ATA host state
    // machine protocol (libata-sff.c ata_sff_hsm_move, libata-eh.c ata_eh_analyze_tf: a
    // status with BSY set when the command completed, "status: { Busy }"). The command never
    // reached a medium result: the controller, the bridge or the link lost the protocol, as
    // on an AHCI port as under libsas (sas_ata.c reports through the same error handler).
    if is_res_line(&low) && low.contains("(hsm violation)") {
        return Some(KernelEventKind::TransportError);
    }
    // "exception Emask 0x0 SAct 0x3ffffff8 SErr 0x50000 action 0x6 frozen": SErr bit 16 is
    // PHYRdyChg (SERR_PHYRDY_CHG, include/linux/libata.h), the PHY dropping out of the ready
    // state. With queued commands outstanding (SAct non-zero) the link fell away under I/O,
    // which is link power management, a loose cable or a sagging supply; a hot-plug of an
    // idle port has SAct 0 and stays noise (below).
    if low.contains("exception emask")
        && hex_field(&low, "sact ").is_some_and(|v| v != 0)
        && hex_field(&low, "serr ").is_some_and(|v| v & 0x1_0000 != 0)
    {
        return Some(KernelEventKind::LinkReset);
    }
    // "exception Emask 0x0 SAct 0x0 SErr 0x40000 action 0x6 frozen": SErr bit 18 is
    // CommWake (SERR_COMM_WAKE), the drive's COMWAKE, which only ends a Partial or Slumber
    // link power state (SATA 3.x 8.4); a frozen port with it and no damaged-frame bit (the
    // CRC rule above) and no error the host flagged (Emask 0x0) is a link that went to sleep and failed the command that woke it, and
    // the error handler resets the link ("action 0x6" is hard reset).
    if low.contains("exception emask 0x0 ")
        && low.contains(" frozen")
        && hex_field(&low, "serr ").is_some_and(|v| v & 0x4_0000 != 0)
    {
        return Some(KernelEventKind::LinkReset);
    }
    // "exception Emask 0x0 SAct 0x78000001 SErr 0x0 action 0x6 frozen": no error of the
    // port's own (Emask 0x0), no SError bit, yet the port frozen with commands outstanding.
    // That is libata's timeout path: ata_scsi_cmd_error_handler (libata-eh.c) marks each
    // command the SCSI layer timed out with AC_ERR_TIMEOUT (its own "failed command" line
    // then ends "Emask 0x4 (timeout)") and freezes the port, leaving the port's err_mask 0.
    // A hot-plug or a link that fell away sets SError bits (the rules above); SAct 0x0
    // (no queued command) stays with the lines that follow it.
    if low.contains("exception emask 0x0 ")
        && low.trim_end().ends_with(" frozen")
        && hex_field(&low, "serr ") == Some(0)
        && hex_field(&low, "sact ").is_some_and(|v| v != 0)
    {
        return Some(KernelEventKind::IoTimeout);
    }
    // NVMe (drivers/nvme/host/core.c nvme_log_error): "nvme0n1: Read(0x2) @ LBA 8, 8 blocks,
    // Unrecovered Read Error (sct 0x2 / sc 0x81)": status code type 2h is Media and Data
    // Integrity Errors (NVMe Base 2.0 figure 102); other types (3h path, 0h generic) are no
    // fault of the medium and stay plain I/O errors below.
    // Within type 2h, three codes say nothing of the medium (figure 104): 85h Compare
    // Failure (the data differed from what the host sent), 86h Access Denied (the namespace
    // or range is locked or the host lacks access rights, as a self-encrypting drive answers
    // while locked) and 87h Deallocated or Unwritten Logical Block (a read of a block never
    // written, with DULBE set). The request failed, so they stay plain I/O errors, whatever
    // the status text (nvme_get_error_status_str: "Access Denied", or "I/O Error" without
    // CONFIG_NVME_VERBOSE_ERRORS).
    if let Some(sc) = nvme_media_type_code(&low) {
        return Some(if matches!(sc, 0x85..=0x87) {
            KernelEventKind::IoError
        } else {
            KernelEventKind::MediumError
        });
    }
    // md (drivers/md/raid5.c, raid1.c, raid10.c): a member's sectors it could not read
    // ("md/raid:md127: read error NOT corrected!! (sector 8 on sdc2).", "read error not
    // correctable", "md/raid1:md0: sdb1: unrecoverable I/O read error for block 8").
    if low.contains("md/raid")
        && (low.contains("read error not correct") || low.contains("unrecoverable i/o read error"))
    {
        return Some(KernelEventKind::MediumError);
    }
    // SCSI sense key 4h HARDWARE ERROR with ASC 44h INTERNAL TARGET FAILURE (SPC-4 4.5.6 and
    // annex D: the device detected a non-recoverable hardware failure while performing the
    // command), as scsi_logging.c prints it ("Add. Sense: Internal target failure", after
    // "Sense Key : Hardware Error [current]") and CAM does ("SCSI sense: HARDWARE FAILURE
    // asc:44,0 (Internal target failure)"): the drive, or the bridge answering for it,
    // failed the command itself. The sense key alone says less: with ASC 08h/03h "Logical
    // unit communication CRC error (Ultra-DMA/32)" the same key is a damaged transfer (read
    // above as a CRC error).
    if low.contains("add. sense: internal target failure")
        || low.contains("(internal target failure)")
    {
        return Some(KernelEventKind::DeviceError);
    }
    // ASC 32h/00h NO DEFECT SPARE LOCATION AVAILABLE (SPC-4 annex D; scsi_logging.c "Add.
    // Sense: No defect spare location available", CAM "(No defect spare location
    // available)"): the drive found a bad sector and had no spare left to remap it to, a
    // fault of the medium whatever sense key (often 4h HARDWARE ERROR) carries it.
    if low.contains("medium error")
        || low.contains("no defect spare location available")
        || low.contains("(media error)")
        || low.contains("unrecovered read error")
        || has_word(body, "UNC")
    {
        return Some(KernelEventKind::MediumError);
    }
    // uas(4): "sd 0:0:0:0: [sda] tag#28 uas_eh_abort_handler 0 uas-tag 10 inflight: CMD OUT"
    // is the SCSI error handler aborting a command the USB bridge left unanswered past its
    // timeout (uas.c uas_eh_abort_handler, called from scsi_error.c). A drive that cannot
    // read a sector answers with sense data (MEDIUM ERROR, read above); a UAS bridge that
    // stops answering queued commands is the bridge or its USB link, the case the kernel's
    // own quirks list answers by keeping such bridges off UAS (usb-storage quirk "u",
    // drivers/usb/storage/unusual_uas.h).
    if low.contains("uas_eh_abort_handler") {
        return Some(KernelEventKind::TransportError);
    }
    // FreeBSD nvme(4) (sys/dev/nvme/nvme_qpair.c nvme_qpair_timeout, nvme_qpair_fail;
    // nvme_ctrlr.c nvme_ctrlr_wait_for_ready). A command passed its deadline and the driver
    // resets the controller: "nvme0: Resetting controller due to a timeout." (older
    // releases: "resetting controller due to a timeout"), "timeout with nothing complete,
    // resetting"; a controller that never came ready again ("controller ready did not
    // become 1 within 30000 ms"); the I/O the reset gave up on ("failing outstanding i/o",
    // "failing queued i/o"). The same function prints "... a timeout and possible hot
    // unplug." when CSTS read back all ones: the PCIe reads themselves failed, so the device
    // dropped off its link rather than stalling on a command, and "Controller in fatal
    // status, resetting" when the controller set CSTS.CFS (NVMe Base 2.0 3.1.4.4: a fatal
    // error of the controller itself). The follow-ups "resetting controller", "Waiting for
    // reset to complete", "aborting outstanding i/o" and "resubmitting queued i/o" are the
    // reset running, not new failures.
    if let Some(kind) = freebsd_nvme(&low) {
        return Some(kind);
    }
    // The MMC/SD family (Linux's mmcblk/mmc lines, FreeBSD's mmcsd "Error indicated"): the
    // card's errors by their errno or error code (mmc::classify).
    if let Some(kind) = mmc::classify(body) {
        return Some(kind);
    }
    // libata: "cmd 60/... Emask 0x4 (timeout)"; CAM: "CAM status: Command timeout".
    // nvme(4) (drivers/nvme/host/pci.c nvme_timeout): "nvme nvme0: I/O 0 QID 0 timeout,
    // reset controller" (also "..., aborting", "..., disable controller").
    // libata before the EH rework (2.6.15 libata-core.c ata_qc_timeout): "ata1: command
    // 0x35 timeout, stat 0xd0 host_stat 0x21".
    // pci.c abort_endio: "nvme nvme0: Abort status: 0x0", the controller's answer to the
    // Abort the driver sent for a timed-out command: part of that timeout's report
    // (media_errors::nvme_answered_aborts reads what a successful one says).
    // The SCSI error handler aborting a command that passed its timeout: scsi_error.c
    // scsi_timeout -> scsi_abort_command queues the abort, and the low-level driver's
    // eh_abort_handler announces it: mpt2sas/mpt3sas (mpt3sas_scsih.c scsih_abort,
    // sdev_printk "attempting task abort! scmd(%p)", since 4.x "attempting task
    // abort!scmd(0x%p), outstanding for %u ms & timeout %u ms") and the older Fusion MPT
    // (message/fusion/mptscsih.c mptscsih_abort "attempting task abort! (sc=%p)"). The
    // answer "task abort: SUCCESS scmd(...)" is that abort's result, not another timeout.
    if (low.contains(" qid ") && low.contains(" timeout"))
        || low.contains("attempting task abort!")
        || is_answered_nvme_abort(&low)
        || (low.contains(": command 0x") && low.contains(" timeout,"))
        || low.contains("(timeout)")
        || low.contains("cam status: command timeout")
    {
        return Some(KernelEventKind::IoTimeout);
    }
    // nvme(4) gave the controller up (pci.c nvme_remove_dead_ctrl after a reset failed):
    // "nvme nvme2: Removing after probe failure status: -19"; its namespaces are gone. The
    // reset fails on core.c nvme_wait_ready's "Device not ready; aborting reset" (or
    // "initialisation"): CSTS.RDY did not follow CC.EN within CAP.TO, the function returns
    // -ENODEV, and the reset work removes the controller with the line above, which an
    // excerpt may not reach (sources::power_log reads the same line for the power state the
    // controller may have hung in).
    // "rejecting I/O to offline device" (scsi_lib.c scsi_prep_state_check): I/O sent to a
    // device the error handler already gave up on.
    // fs/jbd2/commit.c spells it "IO errors" ([`fs_io_error_device`]).
    if low.contains("i/o error")
        || fs_io_error_device(body).is_some()
        || low.contains("rejecting i/o to offline device")
        || low.contains("removing after probe failure")
        || low.contains("device not ready; aborting")
        || low.contains("cam status: ata status error")
        || low.contains("cam status: scsi status error")
        || low.contains("retries exhausted")
        || is_unanswered_disk_probe(&low)
    {
        return Some(KernelEventKind::IoError);
    }
    None
}

/// sd's probe of a disk that did not answer (drivers/scsi/sd.c): read_capacity_error's
/// "READ CAPACITY failed" / "READ CAPACITY(16) failed" (after READ CAPACITY returned an
/// error other than "medium not present", which sd_read_capacity takes as an empty drive
/// and does not print), and sd_spinup_disk's "Spinning up disk..." row of dots ending "not
/// responding..." instead of "ready". The disk is attached but does not do what every disk
/// must: an I/O failure whose cause the log does not name. From the lower-cased line.
pub fn is_unanswered_disk_probe(low: &str) -> bool {
    low.contains("read capacity failed")
        || low.contains("read capacity(10) failed")
        || low.contains("read capacity(16) failed")
        || low
            .split_once("spinning up disk...")
            .is_some_and(|(_, after)| {
                after
                    .trim_start_matches(['.', ' '])
                    .starts_with("not responding")
            })
}

/// The status code of an NVMe status of type 2h (Media and Data Integrity Errors) as
/// drivers/nvme/host/core.c nvme_log_error prints it, "(sct 0x2 / sc 0x81)", from the
/// lower-cased line; 0 when the code is not readable (the type alone still counts).
fn nvme_media_type_code(low: &str) -> Option<u64> {
    let i = low.find("(sct 0x2 /")?;
    let rest = low.get(i..)?;
    Some(hex_field(rest, "sc ").unwrap_or(0))
}

/// The block layer's text of a request's status (block/blk-core.c blk_errors[], printed by
/// blk_print_req_error "%s error, dev %s, sector %llu ...", earlier "print_req_error: %s
/// error, dev ..."): "critical medium error" is BLK_STS_MEDIUM, which nvme_error_status
/// (drivers/nvme/host/core.c) returns for NVMe statuses of the medium (Write Fault,
/// Unrecovered Read Error) and for others that are not (Access Denied, Compare Failure,
/// Deallocated or Unwritten Logical Block, Namespace Write Protected). Where the log holds
/// the controller's own status line for the request ("nvme0n1: ... (sct 0x2 / sc 0x86)",
/// core.c nvme_log_error, 5.18 and later), that status decides ([`classify`]), and the
/// block layer's line of an NVMe disk is a plain I/O error.
fn is_nvme_blk_medium_line(low: &str) -> bool {
    low.contains("critical medium error, dev nvme")
}

/// Whether the log holds NVMe status lines of nvme_log_error ("(sct 0x" after a namespace).
fn has_nvme_status_lines(log: &str) -> bool {
    log.lines()
        .any(|l| l.contains("(sct 0x") && l.contains("nvme"))
}

/// FreeBSD nvme(4)'s recovery messages (see [`classify`]), from the lower-cased line.
fn freebsd_nvme(low: &str) -> Option<KernelEventKind> {
    let (ctrl, rest) = low.trim_start().split_once(": ")?;
    let unit = ctrl.strip_prefix("nvme")?;
    if unit.is_empty() || !unit.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    // Two CPUs printing at once can repeat the prefix ("nvme0: nvme0: Resetting ...").
    let rest = rest.strip_prefix(&format!("{ctrl}: ")).unwrap_or(rest);
    if rest.starts_with("resetting controller due to a timeout and possible hot unplug") {
        return Some(KernelEventKind::TransportError);
    }
    if rest.starts_with("controller in fatal status") {
        return Some(KernelEventKind::DeviceError);
    }
    if rest.starts_with("resetting controller due to a timeout")
        || rest.starts_with("timeout with nothing complete")
        || (rest.starts_with("controller ready did not become") && rest.contains(" within "))
    {
        return Some(KernelEventKind::IoTimeout);
    }
    if rest.starts_with("failing outstanding i/o") || rest.starts_with("failing queued i/o") {
        return Some(KernelEventKind::IoError);
    }
    None
}

/// A line of a CAM error report without its device path: the command and its bytes
/// ("READ_DMA. ACB: c8 00 ...", "READ(10). CDB: 28 00 ...": cam_error_string's command
/// line, ata_op_string or scsi_op_desc then ". ACB: " or ". CDB: "), "CAM status: ...",
/// "ATA status: ...", "RES: ...", "SCSI status: ...", "SCSI sense: ...", "Retrying
/// command", "Error 5, Retries exhausted" (sys/cam/cam_periph.c cam_periph_error,
/// cam.c cam_error_string).
fn is_cam_detail(body: &str) -> bool {
    const LINES: &[&str] = &[
        "CAM status: ",
        "ATA status: ",
        "RES: ",
        "SCSI status: ",
        "SCSI sense: ",
        "Retrying command",
        "Error ",
    ];
    let b = body.trim_start();
    if LINES.iter().any(|p| b.starts_with(p)) {
        return true;
    }
    let Some((op, rest)) = b.split_once(". ") else {
        return false;
    };
    (rest.starts_with("ACB:") || rest.starts_with("CDB:"))
        && !op.is_empty()
        && op
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || "_()".contains(c))
}

/// Whether a line is ata(4)'s report of a channel reset, which it prints only on a verbose
/// boot: ata_generic_reset's first line "ata1: reset tp1 mask=03 ostat0=50 ostat1=00"
/// (sys/dev/ata/ata-lowlevel.c; its "stat0=..." and "reset tp2 ..." lines follow and are
/// the same reset) and ata_reinit's "ata2: reiniting channel .." (ata-all.c, FreeBSD 5 to
/// 9). Only the reset's first line counts, so one reset is one event.
fn is_ata_channel_reset(body: &str) -> bool {
    let Some((chan, rest)) = body.trim_start().split_once(": ") else {
        return false;
    };
    chan.strip_prefix("ata")
        .is_some_and(|u| !u.is_empty() && u.chars().all(|c| c.is_ascii_digit()))
        && (rest.starts_with("reset tp1 ") || rest.starts_with("reiniting channel"))
}

/// siis(4)'s register dump of a command timeout ([`classify`]): "siis_timeout is " after the
/// channel's name (lower-cased).
fn is_siis_timeout_dump(low: &str) -> bool {
    low.split_once(": ").is_some_and(|(chan, rest)| {
        chan.starts_with("siisch") && rest.starts_with("siis_timeout is ")
    })
}

/// Whether a line is mfi(4)'s report of a command its MegaRAID firmware left unanswered:
/// "mfi0: COMMAND 0xfffffe00013a6440 TIMEOUT AFTER 37 SECONDS" (sys/dev/mfi/mfi.c
/// mfi_timeout, printed for every command older than MFI_CMD_TIMEOUT, 30 s). The command
/// went to the controller, which answers for its volumes: the volume behind it stalled.
pub fn is_mfi_timeout(body: &str) -> bool {
    body.trim_start()
        .split_once(": ")
        .is_some_and(|(ctrl, rest)| {
            ctrl.strip_prefix("mfi")
                .is_some_and(|u| !u.is_empty() && u.chars().all(|c| c.is_ascii_digit()))
                && rest.starts_with("COMMAND ")
                && rest.contains(" TIMEOUT AFTER ")
                && rest.trim_end().ends_with("SECONDS")
        })
}

/// Whether a line is mpt(4)'s report of a SCSI request its LSI Fusion-MPT firmware left
/// unanswered: "mpt0: request 0xffffff80002f1400:54058 timed out for ccb 0xffffff0001c65000
/// (req->ccb 0xffffff0001c65000)" (sys/dev/mpt/mpt_cam.c mpt_timeout: "request %p:%u timed
/// out for ccb %p (req->ccb %p)"), after which mpt_recover_commands aborts it and may reset
/// the IOC. The request went to the controller, which answers for what is behind it.
/// The IOC log info word an LSI/Broadcom SAS HBA driver prints: Linux mpt2sas/mpt3sas
/// ("mpt3sas_cm0: log_info(0x31110e05): originator(PL), code(0x11), sub_code(0x0e05)",
/// mpt3sas_base.c _base_sas_log_info, ioc->name "mpt2sas0" before 4.x's merge and
/// "mpt3sas_cm0" after) and FreeBSD mps(4)/mpr(4), which print the same word after their
/// unit ("mpr0: ... log_info 0x31110e05", "log_info(0x31120100)"). None on any other line.
pub(crate) fn sas_log_info(body: &str) -> Option<u32> {
    let b = body.trim_start();
    if let Some(word) = fusion_log_info(b) {
        return Some(word);
    }
    let (ctrl, rest) = b.split_once(':')?;
    let unit = ctrl
        .strip_prefix("mpt3sas_cm")
        .or_else(|| ctrl.strip_prefix("mpt2sas_cm"))
        .or_else(|| ctrl.strip_prefix("mpt3sas"))
        .or_else(|| ctrl.strip_prefix("mpt2sas"))
        .or_else(|| ctrl.strip_prefix("mpr"))
        .or_else(|| ctrl.strip_prefix("mps"))?;
    if unit.is_empty() || !unit.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let i = rest.find("log_info")?;
    let after = rest.get(i.checked_add(8)?..)?;
    let hex = after
        .trim_start_matches(['(', ' ', '='])
        .strip_prefix("0x")?;
    let digits: String = hex.chars().take_while(char::is_ascii_hexdigit).collect();
    if digits.len() != 8 {
        return None;
    }
    u32::from_str_radix(&digits, 16).ok()
}

/// The same word from the older Fusion-MPT driver of Linux (drivers/message/fusion/mptbase.c
/// mpt_sas_log_info: "%s: LogInfo(0x%08x): Originator={%s}, Code={%s}, SubCode(0x%04x)",
/// printed behind the module and IOC names: "mptbase: ioc0: LogInfo(0x30030103):
/// Originator={IOP}, Code={Invalid Page}, SubCode(0x0103)").
fn fusion_log_info(b: &str) -> Option<u32> {
    let rest = ["mptbase: ", "mptsas: ", "mptscsih: ", "mptspi: "]
        .iter()
        .find_map(|m| b.strip_prefix(m))?;
    let (ioc, rest) = rest.split_once(": ")?;
    let unit = ioc.strip_prefix("ioc")?;
    if unit.is_empty() || !unit.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let hex = rest.strip_prefix("LogInfo(0x")?;
    let digits: String = hex.chars().take_while(char::is_ascii_hexdigit).collect();
    if digits.len() != 8 {
        return None;
    }
    u32::from_str_radix(&digits, 16).ok()
}

/// What a SAS log info word reports. Its layout (mpt3sas_base.c union loginfo_type): bus
/// type in bits 31-28 (3 = SAS; the driver prints no other), originator in 27-24 (0 IOP, 1
/// PL, 2 IR), code in 23-16, sub-code in 15-0. The protocol layer's codes (LSI's
/// mpi_log_sas.h, shipped with FreeBSD's mpt(4) and the firmware interface): 0x01
/// OPEN_FAILURE (the connection to the target could not be opened), 0x04 FRAME_XFER_ERROR,
/// 0x0D SATA_LINK_DOWN, 0x10 DSCVRY_SATA_INIT_TIMEOUT and 0x11 RESET (the PL reset the
/// link or device: its sub-code says why) are the wire between HBA, expander and drive
/// failing; 0x12 ABORT (the command was aborted, sub-code 0x01xx an open failure) and 0x18
/// IO_CANCELLED_DUE_TO_R_ERR are the path failing the command. 0x13/0x14 (IO_NOT_YET_/
/// IO_EXECUTED) are the commands a reset took back, counted with it, not again.
fn sas_log_info_kind(word: u32) -> Option<KernelEventKind> {
    let bus = word >> 28;
    let originator = (word >> 24) & 0xf;
    let code = (word >> 16) & 0xff;
    if bus != 3 || originator != 1 {
        return None;
    }
    match code {
        0x01 | 0x04 | 0x0d | 0x10 | 0x11 => Some(KernelEventKind::LinkReset),
        0x12 | 0x18 => Some(KernelEventKind::TransportError),
        _ => None,
    }
}

pub fn is_mpt_timeout(body: &str) -> bool {
    body.trim_start()
        .split_once(": ")
        .is_some_and(|(ctrl, rest)| {
            ctrl.strip_prefix("mpt")
                .is_some_and(|u| !u.is_empty() && u.chars().all(|c| c.is_ascii_digit()))
                && rest.starts_with("request 0x")
                && rest.contains(" timed out for ccb")
        })
}

/// The controller of a RAID controller's command timeout ([`is_mfi_timeout`],
/// [`is_mpt_timeout`]): "mfi0", "mpt0".
pub fn raid_controller_timeout(body: &str) -> Option<&str> {
    (is_mfi_timeout(body) || is_mpt_timeout(body))
        .then(|| body.trim_start().split_once(": ").map(|(c, _)| c))
        .flatten()
}

/// Whether mpt(4) reports an integrated-RAID volume of controller `ctrl` in `log`: "mpt0:
/// Volume(0:2): Volume Status Changed" (FreeBSD 6-8 mpt_raid.c mpt_vol_prt, "Volume(%d:%d%s):
/// ") or "mpt0:vol0(mpt0:0:0): ..." (later mpt_vol_prt, "%s:vol%d(%s:%d:%d): "): the disk
/// the OS sees behind it is the controller's volume, not a drive.
pub fn mpt_has_volume(log: &str, ctrl: &str) -> bool {
    log.lines().any(|l| {
        let b = strip_prefixes(l).trim_start();
        b.strip_prefix(ctrl).is_some_and(|r| {
            r.starts_with(": Volume(")
                || (r.starts_with(":vol") && r.contains(&format!("({ctrl}:")))
        })
    })
}

/// Whether a CAM sense line carries ASC 47h or 4Bh ("(da0:ahd0:0:0:0): ABORTED COMMAND
/// info:40ff asc:47,3", "SCSI sense: ABORTED COMMAND asc:47,3 (Information unit iuCRC error
/// detected)": sys/cam/scsi/scsi_all.c scsi_sense_sbuf prints "asc:%x,%x"). SPC-4 annex D:
/// 47h is "SCSI parity error" with ASCQ 01h "data phase CRC error detected", 02h "SCSI parity
/// error detected during ST data phase", 03h "information unit iuCRC error detected"; 4Bh is
/// "DATA PHASE ERROR" and its protocol faults (ACK/NAK timeout, NAK received). The target or
/// the initiator found a damaged transfer on the bus: a cable, terminator or expander path,
/// not the medium. Takes the lower-cased line.
fn cam_transport_sense(low: &str) -> bool {
    low.split("asc:").skip(1).any(|r| {
        r.split_once(',')
            .is_some_and(|(asc, _)| asc == "47" || asc == "4b")
    })
}

/// Whether the text after a SATA channel's "ahcich2: " reports a command that timed out on
/// it: "Timeout on slot 4 port 0" (ahci(4), siis(4), mvs(4)) or siis(4)'s register dump of
/// the same timeout ("siis_timeout is 00040000 ss ...", see [`classify`]), or ahci(4)'s
/// "Poll timeout on slot 1 port 0" of a reset command it polls instead of waiting for an
/// interrupt (sys/dev/ahci/ahci.c ahci_execute_transaction: the soft reset and DEVICE
/// RESET the probe sends never completed).
pub fn is_channel_timeout(rest: &str) -> bool {
    rest.starts_with("Timeout on slot")
        || rest.starts_with("Poll timeout on slot")
        || rest.starts_with("siis_timeout is ")
}

/// The SCSI host byte of a failed command, by the names of include/scsi/scsi_status.h
/// (DID_*): "FAILED Result: hostbyte=DID_ERROR driverbyte=DRIVER_OK" (scsi_logging.c
/// scsi_print_result; "hostbyte=0x07" when the kernel has no name for it), or the whole
/// result word of older kernels, "SCSI error: return code = 0x10070000" (2.6 scsi_lib.c
/// scsi_io_completion: driver byte << 24 | host byte << 16 | message << 8 | status).
/// `None` when the line carries no result.
fn scsi_host_byte(body: &str) -> Option<u8> {
    const NAMES: &[&str] = &[
        "DID_OK",
        "DID_NO_CONNECT",
        "DID_BUS_BUSY",
        "DID_TIME_OUT",
        "DID_BAD_TARGET",
        "DID_ABORT",
        "DID_PARITY",
        "DID_ERROR",
        "DID_RESET",
        "DID_BAD_INTR",
        "DID_PASSTHROUGH",
        "DID_SOFT_ERROR",
        "DID_IMM_RETRY",
        "DID_REQUEUE",
        "DID_TRANSPORT_DISRUPTED",
        "DID_TRANSPORT_FAILFAST",
        "DID_TARGET_FAILURE",
        "DID_NEXUS_FAILURE",
        "DID_ALLOC_FAILURE",
        "DID_MEDIUM_ERROR",
        "DID_TRANSPORT_MARGINAL",
    ];
    if let Some(i) = body.find("hostbyte=") {
        let tok: String = body
            .get(i + "hostbyte=".len()..)?
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if let Some(hex) = tok.strip_prefix("0x") {
            return u8::from_str_radix(hex, 16).ok();
        }
        return NAMES
            .iter()
            .position(|n| *n == tok)
            .and_then(|p| u8::try_from(p).ok());
    }
    let i = body.find("return code = 0x")?;
    let hex: String = body
        .get(i + "return code = 0x".len()..)?
        .chars()
        .take_while(|c| c.is_ascii_hexdigit())
        .collect();
    let code = u32::from_str_radix(&hex, 16).ok()?;
    u8::try_from((code >> 16) & 0xff).ok()
}

/// What a host byte says failed. DID_OK leaves the verdict to the sense lines that follow
/// ("Sense Key : Medium Error"); DID_IMM_RETRY, DID_REQUEUE and DID_PASSTHROUGH are the
/// midlayer retrying, no failure; DID_MEDIUM_ERROR is the medium; DID_PARITY a damaged
/// transfer; DID_RESET a bus or link reset; DID_ALLOC_FAILURE a thin-provisioned target out
/// of space (an I/O error, nothing of the path). DID_NO_CONNECT ("couldn't connect before
/// timeout period") and DID_BAD_TARGET ("BAD target", include/scsi/scsi_status.h) say the
/// target is not there any more ([`is_target_gone`]): a failed request with no cause of the
/// link or the medium in it. Every other code (DID_BUS_BUSY, DID_TIME_OUT, DID_ABORT,
/// DID_ERROR, DID_BAD_INTR, DID_SOFT_ERROR, DID_TRANSPORT_*, DID_TARGET_FAILURE,
/// DID_NEXUS_FAILURE, unknown codes) is the host adapter or bridge failing the command: the
/// transport, not the medium.
fn host_byte_kind(host: u8) -> Option<KernelEventKind> {
    match host {
        0x00 | 0x0a | 0x0c | 0x0d => None,
        0x06 => Some(KernelEventKind::CrcError),
        0x08 => Some(KernelEventKind::LinkReset),
        0x01 | 0x04 | 0x12 => Some(KernelEventKind::IoError),
        0x13 => Some(KernelEventKind::MediumError),
        _ => Some(KernelEventKind::TransportError),
    }
}

/// Whether a SCSI result line says the command found no target: the host byte
/// DID_NO_CONNECT (01h: a device that was detached, unplugged or never answered selection;
/// usb-storage and uas complete a gone device's commands with it) or DID_BAD_TARGET (04h:
/// the midlayer's answer for a device it has taken offline or deleted, scsi_lib.c
/// scsi_prep_state_check, and libata's for a disabled device). A hypervisor detaching a
/// virtual disk, a drive that dropped out, a node going down: the request never reached a
/// medium, and the link did not corrupt it.
pub fn is_target_gone(line: &str) -> bool {
    matches!(scsi_host_byte(line), Some(0x01 | 0x04))
}

/// ata(4) of FreeBSD 4-8 (sys/dev/ata/ata-queue.c ata_completed and ata_timeout), one line
/// per request: "ad0: TIMEOUT - READ_DMA retrying (1 retry left) LBA=1824447", "ad0:
/// FAILURE - READ_DMA timed out LBA=...", "ad6: FAILURE - READ_DMA status=51<READY,DSC,ERROR>
/// error=40<UNCORRECTABLE> LBA=134802751" (the status and error registers printed with %b,
/// hex without "0x"), "WARNING - WRITE_DMA UDMA ICRC error (retrying request)", "WARNING -
/// READ_DMA soft error (ECC corrected)", "WARNING - ... interrupt was seen but taskqueue
/// stalled". A wrapped copy may start a line at "error=40<UNCORRECTABLE>". `None` for a line
/// of no such request and for one that is no fault of the disk: an ECC-corrected read, a
/// completion the host's taskqueue delivered late (the drive had answered), a feature
/// command the drive refused (error=4<ABORTED> on SET_MULTI or SETFEATURES).
fn freebsd_ata_request(body: &str) -> Option<KernelEventKind> {
    let request = ["TIMEOUT - ", "FAILURE - ", "WARNING - "]
        .iter()
        .find_map(|w| body.find(w).map(|i| (*w, i)))
        .filter(|(_, i)| body.get(..*i).is_some_and(|h| h.ends_with(": ")));
    let error_at = if body.starts_with("error=") {
        Some(0)
    } else {
        body.find(" error=")
    };
    let (word, cmd) = match request {
        Some((w, i)) => (
            Some(w),
            body.get(i + w.len()..)
                .unwrap_or("")
                .split_whitespace()
                .next()
                .unwrap_or(""),
        ),
        // Only a wrapped tail "error=40<UNCORRECTABLE> LBA=..." goes on without its head.
        None if error_at == Some(0) && body.contains('<') => (None, ""),
        None => return None,
    };
    if word == Some("TIMEOUT - ") || body.contains(" timed out") {
        return Some(KernelEventKind::IoTimeout);
    }
    if word == Some("WARNING - ") {
        return body.contains("ICRC").then_some(KernelEventKind::CrcError);
    }
    let e = error_at?;
    let hex: String = body
        .get(e..)
        .unwrap_or("")
        .trim_start()
        .trim_start_matches("error=")
        .chars()
        .take_while(|c| c.is_ascii_hexdigit())
        .collect();
    let err = u8::from_str_radix(&hex, 16).ok()?;
    // ATA error register (ATA/ATAPI-7 6.2.2; the %b names of ata-queue.c): ICRC 80h, UNC
    // 40h, IDNF 10h, ABRT 04h.
    let io = cmd.starts_with("READ") || cmd.starts_with("WRITE");
    if err & 0x80 != 0 {
        Some(KernelEventKind::CrcError)
    } else if err & 0x40 != 0 {
        Some(KernelEventKind::MediumError)
    } else if err & 0x10 != 0 {
        // IDNF alone on a read: the drive found no sector at that address, "not found or
        // outside the range of user-accessible addresses" (ATA8-ACS, the Error field's ID
        // NOT FOUND bit), without the UNC of an unreadable sector. A read past the end of
        // what the medium really holds gives it: a CompactFlash card or flash key that
        // reports more sectors than it has, answering the probe of its last sector at
        // attach (pfSense's "CF NID Not Found" note: normal and safe to ignore). It says
        // nothing of a failed medium or link, so no event; a write's IDNF (data that could
        // not be placed) still counts.
        (!(cmd.starts_with("READ") && err == 0x10)).then_some(KernelEventKind::IoError)
    } else if err & 0x04 != 0 && io {
        Some(KernelEventKind::DeviceError)
    } else {
        None
    }
}

// FreeBSD's file-system side of a request its disk failed: GEOM's VFS consumer
// (sys/geom/geom_vfs.c g_vfs_done, through g_print_bio: "g_vfs_done():ada0p2[READ(offset=
// 65536, length=16384)]error = 5", " supressing further ENXIO" after error 6) and the specfs
// pager of FreeBSD 4-5 (sys/fs/specfs/spec_vnops.c spec_getpages: "spec_getpages:(ad0s1a)
// I/O read failure: (error=5) bp 0x... vp 0x...", whose devtoname() prints "#da/0x20005" for
// a device node without a name: driver and minor number). Group 1 or 2 is the provider,
// groups 3 and 4 the driver and minor, group 5 or 6 the errno.
crate::rx!(
    pub(crate) BSD_FS_IO_ERROR,
    r"^(?:g_vfs_done\(\):([a-z]+\d+[a-z0-9.]*)\[[A-Z]+(?:\([^)]*\))?\]\s*error = (\d+)|spec_getpages:\((?:([a-z]+\d+[a-z0-9]*)|#([a-z]+)/(0x[0-9a-fA-F]+))\) I/O read failure: \(error=(\d+)\))"
);

/// The disk and the errno of a FreeBSD file-system I/O error line ([`BSD_FS_IO_ERROR`]):
/// ("ada0", 5) for "g_vfs_done():ada0p2[READ(...)]error = 5". A "#da/0x20005" device is
/// decoded as FreeBSD 4's sys/sys/diskslice.h dkunit() reads the minor: the unit's low five
/// bits at bit 3, its high bits at bit 16 and up ("da0").
pub fn bsd_fs_io_error(body: &str) -> Option<(String, u32)> {
    let c = BSD_FS_IO_ERROR.captures(body.trim_start())?;
    let errno = c
        .get(2)
        .or_else(|| c.get(6))
        .and_then(|m| m.as_str().parse().ok())?;
    if let Some(p) = c.get(1).or_else(|| c.get(3)) {
        return Some((provider_disk(p.as_str()).to_string(), errno));
    }
    let drv = c.get(4)?.as_str();
    let minor = u32::from_str_radix(c.get(5)?.as_str().trim_start_matches("0x"), 16).ok()?;
    let unit = ((minor >> 3) & 0x1f) | ((minor >> 16) & 0x1e0);
    Some((format!("{drv}{unit}"), errno))
}

/// What a FreeBSD file-system I/O error line says: EIO (5) is a request the disk's driver
/// failed, ENXIO (6) one whose device was gone ("Device not configured": detached, or its
/// periph invalidated after errors); either is a failed request whose cause the line does
/// not name. Other errors (ENOSPC, EROFS, EOPNOTSUPP of a DELETE) are not the disk's.
fn bsd_fs_io_error_kind(body: &str) -> Option<KernelEventKind> {
    matches!(bsd_fs_io_error(body), Some((_, 5 | 6))).then_some(KernelEventKind::IoError)
}

// The head of a BSD disk driver's error report (FreeBSD 4 sys/kern/subr_disk.c diskerr,
// FreeBSD 5-6 disk_err; NetBSD and OpenBSD diskerr): "ad0s1g: hard error reading fsbn 19674311
// of 6765124-6765135 (ad0s1 bn 19674311; cn 1618 tn 16 sn 41)", "ad4: hard error cmd=read
// fsbn 1234 of 1200-1300". Group 1 is the provider (a disk, a slice or a partition), group 2
// what failed, as the driver passed it.
crate::rx!(
    pub(crate) DISK_ERR_HEAD,
    r"^([a-z]+\d+(?:s\d+)?[a-h]?): (hard error|UDMA ICRC error|soft error[^:]*?) (?:reading|writing|cmd=\w+) fsbn \d+"
);
// A line a mail client wrapped out of that report: the rest of its "(ad0s1 bn N; cn N tn N sn
// N)" geometry and the driver's own ending (" status=59 error=40", " trying PIO mode",
// " retrying", " falling back to PIO mode": FreeBSD 4 sys/dev/ata/ata-disk.c ad_interrupt).
crate::rx!(
    pub(crate) DISK_ERR_TAIL,
    r"^(?:(?:(?:bn|cn|tn|sn) )?\d+(?:; cn \d+)?(?: tn \d+)?(?: sn \d+)?\)|status=[0-9a-fA-F]{1,2} error=[0-9a-fA-F]{1,2}\b|trying PIO mode|retrying$|falling back to PIO mode)"
);

/// The provider a BSD disk error report is about ("ad0s1g"), for [`names_disk`] and the
/// FreeBSD disk list.
pub fn disk_error_provider(body: &str) -> Option<&str> {
    DISK_ERR_HEAD
        .captures(body.trim_start())
        .and_then(|c| c.get(1))
        .map(|m| m.as_str())
}

/// The disk of a BSD provider: the driver name and unit, without a slice ("s1") or a
/// partition letter ("ad0s1g" and "wd0a" are on ad0 and wd0).
fn provider_disk(name: &str) -> &str {
    let end = name
        .char_indices()
        .skip_while(|(_, c)| !c.is_ascii_digit())
        .find(|(_, c)| !c.is_ascii_digit())
        .map_or(name.len(), |(i, _)| i);
    name.get(..end).unwrap_or(name)
}

/// What a BSD disk error report says failed, read from the head and the driver's ending
/// (FreeBSD 4 ata-disk.c ad_interrupt, after the drive set ERR in its status or the DMA
/// engine flagged an error): "UDMA ICRC error" with " retrying" or " falling back to PIO
/// mode" is a damaged Ultra DMA transfer, the cable's; "hard error" with " status=59
/// error=40" has the drive's registers (hex, printf %02x), read as [`ata_error_register`]
/// reads them plus IDNF 10h (a sector the drive could not find); with " trying PIO mode" the
/// driver retries the read without DMA and the registers are not printed: a failed read the
/// report names no cause of. ABRT alone names no failed medium. "soft error" is a corrected
/// one (NetBSD wd.c "soft error (corrected)").
fn disk_error_report(text: &str) -> Option<KernelEventKind> {
    let c = DISK_ERR_HEAD.captures(text.trim_start())?;
    let what = c.get(2).map_or("", |m| m.as_str());
    if what == "UDMA ICRC error" {
        return Some(KernelEventKind::CrcError);
    }
    if what != "hard error" {
        return None;
    }
    let err = text
        .split_once(" error=")
        .map(|(_, r)| {
            r.chars()
                .take_while(char::is_ascii_hexdigit)
                .collect::<String>()
        })
        .and_then(|h| u8::from_str_radix(&h, 16).ok());
    match err {
        Some(e) if e & 0x10 != 0 && e & 0xc0 == 0 => Some(KernelEventKind::IoError),
        Some(e) => ata_error_register(e),
        None => Some(KernelEventKind::IoError),
    }
}

/// Join a BSD disk error report a mail client wrapped ([`DISK_ERR_TAIL`]) back onto its
/// head line, so the head carries the event of the whole report and the tail none.
fn join_disk_error_reports(lines: &mut [(&str, Option<u32>, Option<KernelEventKind>)]) {
    for i in 0..lines.len() {
        if disk_error_provider(lines[i].0).is_none() {
            continue;
        }
        let mut text = lines[i].0.trim().to_string();
        let mut tails = Vec::new();
        for (j, next) in lines.iter().enumerate().skip(i.saturating_add(1)).take(2) {
            let t = next.0.trim();
            if !DISK_ERR_TAIL.is_match(t) {
                break;
            }
            text.push(' ');
            text.push_str(t);
            tails.push(j);
        }
        if tails.is_empty() {
            continue;
        }
        lines[i].2 = disk_error_report(&text);
        for j in tails {
            if let Some(l) = lines.get_mut(j) {
                l.2 = None;
            }
        }
    }
}

/// The old IDE driver's register dump (drivers/ide/ide-lib.c ide_dump_status and
/// ide_dump_ata_error; 2.4 drivers/ide/ide.c): "hdc: dma_intr: status=0x51 { DriveReady
/// SeekComplete Error }" then "hdc: dma_intr: error=0x84 { DriveStatusError BadCRC }", and
/// its timeouts ("hda: lost interrupt", "hda: DMA timeout error", "hda: dma_timer_expiry:
/// dma status == 0x21", "hdb: irq timeout: status=0xd0 { Busy }") and channel resets
/// ("ide0: reset: success", "ide0: reset timed-out, status=0x80"). The error register's
/// bit 80h is named "BadCRC" next to ABRT (an Ultra DMA CRC error: the cable) and
/// "BadSector" without it (the drive's bad-block mark); 40h "UncorrectableError" is an
/// unreadable sector. The status line alone names no cause (its error line does), nor do
/// "ide: failed opcode was: 0xef" or an error=0x04 { DriveStatusError } alone (a command
/// the drive refused). A failed DMA transfer ([`is_ide_dma_failure`]) is the transfer
/// path's, not the drive's.
fn ide_status(body: &str) -> Option<KernelEventKind> {
    let (name, rest) = body.split_once(':')?;
    let drive = name.len() >= 3
        && name.len() <= 4
        && name.starts_with("hd")
        && name.chars().skip(2).all(|c| c.is_ascii_lowercase());
    let channel = name
        .strip_prefix("ide")
        .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
    if channel {
        return rest
            .trim_start()
            .starts_with("reset")
            .then_some(KernelEventKind::LinkReset);
    }
    if !drive {
        return None;
    }
    let rest = rest.trim_start();
    if ide_dma_failure_text(rest) {
        return Some(KernelEventKind::TransportError);
    }
    if rest.contains("lost interrupt") || rest.contains("irq timeout") {
        return Some(KernelEventKind::IoTimeout);
    }
    let reg = rest.split_once("error=0x")?.1;
    if is_atapi_dump(rest) {
        let err = reg.get(..2).and_then(|h| u8::from_str_radix(h, 16).ok())?;
        return atapi_sense_key(err >> 4);
    }
    if has_word(rest, "BadCRC") {
        Some(KernelEventKind::CrcError)
    } else if has_word(rest, "UncorrectableError") || has_word(rest, "BadSector") {
        Some(KernelEventKind::MediumError)
    } else if rest.contains('{') {
        None
    } else {
        // The decoded names follow the register in braces; a mail client may wrap them onto
        // a line of their own ("hda: dma_intr: error=0x40" / "{ UncorrectableError }"), so
        // without them the register is read with the same rules (ide_dump_ata_error).
        let err = reg.get(..2).and_then(|h| u8::from_str_radix(h, 16).ok())?;
        ata_error_register(err)
    }
}

/// The old IDE driver's failed bus-master DMA transfer (drivers/ide/ide-dma.c): ide_dma_intr's
/// "hda: dma_intr: bad DMA status (0x76)" (the controller's DMA status register, SFF-8038i
/// bit 1 = error moving data to or from memory), dma_timer_expiry's "hdc: dma_timer_expiry:
/// dma status == 0x21" (the transfer still active, no interrupt) and ide_dma_timeout_retry's
/// "hdc: DMA timeout error". The driver's answer is to reset the channel and drop the drive
/// to PIO ("hdc: DMA disabled", pre_reset), after which it works: the transfer failed on
/// the way (cable, connector, a CompactFlash adapter without working DMA lines, the chipset
/// or its driver), as libata reads the same status bit (libata-sff.c: ATA_DMA_ERR is
/// AC_ERR_HOST_BUS). A drive with an unreadable sector says UNC in its error register.
fn ide_dma_failure_text(rest: &str) -> bool {
    rest.contains("DMA timeout error")
        || rest.contains("dma_timer_expiry")
        || rest.contains("bad DMA status")
}

/// Whether a disk's event line is an old IDE driver's failed DMA transfer
/// ([`ide_dma_failure_text`]): "hdc: dma_timer_expiry: ...".
pub fn is_ide_dma_failure(line: &str) -> bool {
    line.split_once(':').is_some_and(|(name, rest)| {
        name.len() >= 3 && name.len() <= 4 && name.starts_with("hd") && ide_dma_failure_text(rest)
    })
}

/// An ATAPI device's register dump (a CD-ROM, a Zip or LS-120 drive, a tape on the old
/// IDE driver): the messages ide-cd passes to ide_dump_status ("packet command error",
/// "command error", "media error (bad sector)", and ide_error's "cdrom_decode_status",
/// drivers/block/ide-cd.c cdrom_decode_status, 2.0 to 2.6), or the ATAPI names that
/// ide_dump_atapi_status / ide_dump_atapi_error print in braces from 2.4 on
/// ("{ AbortedCommand LastFailedSense=0x05 }", drivers/ide/ide-lib.c). An ATAPI device's
/// error register is not the ATA one: bits 7-4 are the sense key of the failed packet
/// command and bits 3-0 are MCR, ABRT, EOM and ILI (the Error register of the PACKET
/// command's outputs, ATA/ATAPI-4 and later), so 40h is no UNC and 80h no ICRC there; ide-cd
/// reads it the same way ("sense_key = err >> 4"). Kernels before 2.4 print no names
/// after an ATAPI register at all (they decode the register only for ide_disk).
fn is_atapi_dump(rest: &str) -> bool {
    const IDE_CD: [&str; 4] = [
        "packet command error:",
        "command error:",
        "media error (bad sector):",
        "cdrom_decode_status:",
    ];
    IDE_CD.iter().any(|m| rest.starts_with(m))
        || [
            "LastFailedSense",
            "AbortedCommand",
            "MediaChangeRequested",
            "EndOfMedia",
            "IllegalLengthIndication",
        ]
        .iter()
        .any(|w| has_word(rest, w))
}

/// What the sense key of a failed ATAPI packet command names (SPC-4 section 4.5.6, table
/// 48, which MMC devices use unchanged): 3h MEDIUM ERROR is a flaw in the medium or an
/// error of the drive reading it ("the disc or the drive", as ide-cd's maintainers read it),
/// 4h HARDWARE ERROR a failure of the drive itself. 5h ILLEGAL REQUEST is a command or a
/// field the device does not support (a MODE SENSE page a Zip drive lacks, a read mode
/// wrong for the track), 2h NOT READY an empty tray or a disc spinning up, 6h UNIT
/// ATTENTION a changed medium, 7h DATA PROTECT a write-protected one: no fault of drive,
/// disc or cable.
fn atapi_sense_key(key: u8) -> Option<KernelEventKind> {
    match key {
        3 => Some(KernelEventKind::MediumError),
        4 => Some(KernelEventKind::DeviceError),
        _ => None,
    }
}

/// What the ATA error register of a failed command names, the one decode of the old IDE
/// driver's dump ([`ide_status`]) and libata's translation ([`translated_ata_error`]). Bit
/// 80h with ABRT (04h) is ICRC, an Ultra DMA or SATA frame CRC error on the interface;
/// without ABRT it is the older BBK, a sector the drive marked bad: ide_dump_ata_error names
/// it "BadSector", and libata's ata_to_sense_error table maps 0x80 alone ("NB: ICRC & !ABRT
/// is BBD") to MEDIUM_ERROR 11/04 as it does 40h UNC, data the drive could not read
/// (ATA8-ACS section 6.3, Error field). Other bits (20h media change, 04h alone: a command
/// refused) name no fault of disk or cable.
fn ata_error_register(err: u8) -> Option<KernelEventKind> {
    if err & 0x80 != 0 && err & 0x04 != 0 {
        Some(KernelEventKind::CrcError)
    } else if err & 0xc0 != 0 {
        Some(KernelEventKind::MediumError)
    } else {
        None
    }
}

/// libata's first report of a failed command (2.6.x before the new error handler,
/// libata-scsi.c ata_to_sense_error): "ata1: translated ATA stat/err 0x51/84 to SCSI
/// SK/ASC/ASCQ 0xb/47/00", the drive's status and error registers in hex. With ERR (status
/// bit 0) set, the error register is read by [`ata_error_register`], as libata's own
/// sense table reads it.
fn translated_ata_error(body: &str) -> Option<KernelEventKind> {
    let rest = body.split_once("translated ATA stat/err 0x")?.1;
    let (stat, err) = rest.split_whitespace().next()?.split_once('/')?;
    let stat = u8::from_str_radix(stat, 16).ok()?;
    let err = u8::from_str_radix(err.trim_start_matches("0x"), 16).ok()?;
    if stat & 0x01 == 0 {
        return None;
    }
    ata_error_register(err)
}

/// What a failed IDENTIFY says by its err_mask (include/linux/libata.h AC_ERR_*): an ATA bus
/// error (AC_ERR_ATA_BUS 10h) is damaged frames on the SATA link; a host bus or system
/// error (AC_ERR_HOST_BUS 20h, AC_ERR_SYSTEM 40h), a protocol violation (AC_ERR_HSM 02h) or
/// an unclassified one (AC_ERR_OTHER 100h) is the host side: the controller, a bridge chip
/// or the PCIe link to it; a timeout (AC_ERR_TIMEOUT 04h) is a drive that did not answer,
/// which libata meets with a link reset. A drive that refused the command (AC_ERR_DEV 01h)
/// or only a hint (AC_ERR_NODEV_HINT 200h) names no fault.
fn identify_failure(mask: u64) -> Option<KernelEventKind> {
    if mask & 0x10 != 0 {
        Some(KernelEventKind::CrcError)
    } else if mask & (0x02 | 0x20 | 0x40 | 0x100) != 0 {
        Some(KernelEventKind::TransportError)
    } else if mask & 0x04 != 0 {
        Some(KernelEventKind::LinkReset)
    } else {
        None
    }
}

/// A failed command's "res" line (libata-eh.c ata_eh_link_report: "res %02x/.../%02x Emask
/// 0x%x (%s)") whose error mask holds a host bus error (AC_ERR_HOST_BUS 20h) or a system
/// error (AC_ERR_SYSTEM 40h, which ata_err_string names "internal error": the controller
/// driver failed to map or move the DMA, or the host reported a fault of its own) and none
/// of the drive's (AC_ERR_DEV 01h, AC_ERR_MEDIA 08h), nor a timeout or HSM violation
/// (04h, 02h, read by the lines they print). The command failed on the host's side of the
/// cable, whatever the drive's status says (typically "res 50/..." : DRDY, no ERR): the
/// controller, its DMA mapping (IOMMU) or the bus to it, the same host side that
/// [`identify_failure`] names. From the lower-cased line.
fn host_side_emask(low: &str) -> Option<KernelEventKind> {
    if !is_res_line(low) {
        return None;
    }
    let mask = hex_field(low, "emask ")?;
    let host = mask & (0x20 | 0x40) != 0;
    let drive_or_other = mask & (0x01 | 0x02 | 0x04 | 0x08 | 0x10) != 0;
    (host && !drive_or_other).then_some(KernelEventKind::TransportError)
}

/// Whether a lower-cased line holds libata's "res ..." half of a failed command report.
fn is_res_line(low: &str) -> bool {
    low.trim_start().starts_with("res ") || low.contains(": res ") || low.contains(" res ")
}

/// The hex number after `key` ("sact " -> 0x3ffffff8) in a lower-cased libata line.
fn hex_field(low: &str, key: &str) -> Option<u64> {
    let rest = low.get(low.find(key)? + key.len()..)?.strip_prefix("0x")?;
    let digits: String = rest.chars().take_while(|c| c.is_ascii_hexdigit()).collect();
    u64::from_str_radix(&digits, 16).ok()
}

fn has_word(s: &str, w: &str) -> bool {
    s.split(|c: char| !c.is_ascii_alphanumeric())
        .any(|t| t == w)
}

/// The libata port of `disk`, when the log ties them: "sd H:C:T:L: [disk]" gives the SCSI
/// host H; "scsi H:C:T:L: Direct-Access ATA MODEL16" gives the model as SCSI inquiry shows
/// it (16 bytes); "ataN.00: ATA-x: MODEL, FW, ..." whose model starts with MODEL16 gives N.
pub fn ata_port_for(disk: &str, log: &str) -> Option<u32> {
    let tag = format!("[{disk}]");
    let mut hctl: Option<String> = None;
    for raw in log.lines() {
        let b = strip_prefixes(raw);
        if let Some(rest) = b.strip_prefix("sd ")
            && let Some((h, tail)) = rest.split_once(": ")
            && tail.starts_with(&tag)
        {
            hctl = Some(h.trim().to_string());
            break;
        }
    }
    let hctl = hctl?;
    let mut model: Option<String> = None;
    for raw in log.lines() {
        let b = strip_prefixes(raw);
        if let Some(rest) = b.strip_prefix("scsi ")
            && let Some((h, tail)) = rest.split_once(": ")
            && h.trim() == hctl
            && let Some(after) = tail.split_once(" ATA ").map(|(_, a)| a)
        {
            // Inquiry product is 16 bytes; the revision follows.
            let m: String = after.chars().take(16).collect();
            model = Some(m.trim().to_string());
        }
    }
    let model = model.filter(|m| !m.is_empty())?;
    let mut found: Option<u32> = None;
    for raw in log.lines() {
        let b = strip_prefixes(raw);
        let Some(rest) = b.strip_prefix("ata") else {
            continue;
        };
        let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
        let Ok(n) = digits.parse::<u32>() else {
            continue;
        };
        let Some(after) = rest.get(digits.len()..) else {
            continue;
        };
        // "ata1.00: ATA-10: INTEL SSDSC2KG480G8, XCV10120, max UDMA/133"
        if let Some(id) = after
            .strip_prefix(".00: ATA-")
            .and_then(|x| x.split_once(": "))
            && id.1.starts_with(&model)
        {
            if found.is_some_and(|f| f != n) {
                return None; // ambiguous: two ports with this model
            }
            found = Some(n);
        }
    }
    found
}

/// The line of a guest's kernel log that shows it runs under a hypervisor: x86's
/// "Hypervisor detected: KVM" (arch/x86/kernel/cpu/hypervisor.c init_hypervisor_platform),
/// or a disk that names itself a hypervisor's emulated one on libata's identify line
/// ("ata4.00: ATA-9: BHYVE SATA DISK, 001, max UDMA/133", libata-core.c ata_dev_configure)
/// or the SCSI scan line ("scsi 2:0:0:0: Direct-Access QEMU QEMU HARDDISK 2.5+ PQ: 0 ANSI:
/// 5", scsi_scan.c) (sources::util::names_emulated_disk). In a guest the ATA and SCSI
/// controllers are the hypervisor's emulation too, so an error on any of its ports is the
/// virtual layer's, whatever disk it names.
pub fn guest_evidence(log: &str) -> Option<String> {
    log.lines().map(strip_prefixes).find_map(|b| {
        let b = b.trim();
        if b.starts_with("Hypervisor detected: ") {
            return Some(b.to_string());
        }
        let ata_model = b
            .strip_prefix("ata")
            .and_then(|r| r.split_once(".00: ATA-"))
            .and_then(|(_, r)| r.split_once(": "))
            .map(|(_, id)| id.split(',').next().unwrap_or(id));
        let scsi_ident = b
            .strip_prefix("scsi ")
            .and_then(|r| r.split_once(": Direct-Access "))
            .map(|(_, id)| id.split(" PQ:").next().unwrap_or(id));
        ata_model
            .or(scsi_ident)
            .filter(|m| crate::sources::util::names_emulated_disk(m))
            .map(|_| b.to_string())
    })
}

/// [`ata_port_for`], else (for a pasted log, where no sysfs says it) the libata numbering
/// of [`port_by_host_number`].
pub fn ata_port_guess(disk: &str, log: &str) -> Option<u32> {
    if let Some(p) = ata_port_for(disk, log) {
        return Some(p);
    }
    let hctl = sd_address(disk, log)?;
    port_by_host_number(&hctl, log)
}

/// The SCSI address of `disk` for its lines that carry no "[sdX]": the sd driver's own
/// ([`sd_address`]), else, when the log names this one disk only and its "sd H:C:T:L:"
/// lines all carry one address (a paste of the error lines of old kernels, whose
/// "sd 3:0:0:0: SCSI error: return code = ..." never names the disk), that address.
fn scsi_address_of(disk: &str, log: &str) -> Option<String> {
    if let Some(h) = sd_address(disk, log) {
        return Some(h);
    }
    if disks_named(log) != [disk] {
        return None;
    }
    let mut seen: Option<String> = None;
    for raw in log.lines() {
        let Some((h, _)) = strip_prefixes(raw)
            .strip_prefix("sd ")
            .and_then(|r| r.split_once(": "))
        else {
            continue;
        };
        if h.split(':').count() != 4 || !h.chars().all(|c| c.is_ascii_digit() || c == ':') {
            continue;
        }
        match &seen {
            Some(s) if s != h => return None,
            _ => seen = Some(h.to_string()),
        }
    }
    seen
}

/// The SCSI address H:C:T:L the sd driver gave `disk` ("sd 0:0:0:1: [sdb] ..."), first seen.
fn sd_address(disk: &str, log: &str) -> Option<String> {
    let tag = format!("[{disk}]");
    log.lines().find_map(|raw| {
        let b = strip_prefixes(raw);
        let (h, tail) = b.strip_prefix("sd ")?.split_once(": ")?;
        tail.starts_with(&tag).then(|| h.trim().to_string())
    })
}

/// Without the "scsi H:0:0:0: Direct-Access ATA MODEL" line (a grep, a trimmed paste), the
/// libata numbering: port N registers SCSI host N-1 when the ports of one controller come up
/// in order, which is how ahci and the sata_* drivers number them (libata-core.c
/// ata_host_register gives ports print ids from 1, scsi_host_alloc numbers hosts from 0).
/// Used only when the ports the log names run 1..=N without a gap (one controller's ports,
/// numbered from 1) and port H+1 is among them.
fn port_by_host_number(hctl: &str, log: &str) -> Option<u32> {
    let host: u32 = hctl.split(':').next()?.trim().parse().ok()?;
    let port = host.checked_add(1)?;
    let ports = ports_in(log);
    let max = ports.iter().copied().max()?;
    let contiguous = (1..=max).all(|n| ports.contains(&n));
    (contiguous && ports.contains(&port)).then_some(port)
}

/// The libata ports ("ataN:" / "ataN.00:") the log has lines of, in order, once each.
pub fn ports_in(log: &str) -> Vec<u32> {
    let mut out = Vec::new();
    for raw in log.lines() {
        if let Some(n) = port_of(strip_prefixes(raw))
            && !out.contains(&n)
        {
            out.push(n);
        }
    }
    out
}

/// N of a line starting "ataN:" or "ataN.MM:".
pub fn port_of(body: &str) -> Option<u32> {
    let rest = body.trim_start().strip_prefix("ata")?;
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    let n = digits.parse::<u32>().ok()?;
    matches!(
        rest.get(digits.len()..).and_then(|r| r.chars().next()),
        Some(':') | Some('.') | Some(' ')
    )
    .then_some(n)
}

/// The logical unit number of `disk`'s SCSI address ("sd 2:0:0:1: [sda]" gives 1). A drive
/// on a SATA or SAS port is a target with one logical unit, LUN 0 (SAT-4 maps the ATA
/// device to LUN 0; a SAS drive reports one LU); units at other LUNs belong to a target that
/// exports several: a storage array, an iSCSI or Fibre Channel target, a hypervisor's
/// controller, a multi-bay USB enclosure or card reader.
pub fn lun_of(disk: &str, log: &str) -> Option<u64> {
    sd_address(disk, log)?.rsplit(':').next()?.parse().ok()
}

/// The write-cache state the sd driver reported for `disk` ("sd 0:0:0:0: [sda] Write cache:
/// disabled, read cache: enabled, ..." from sd.c sd_read_cache_type); the last line wins.
pub fn write_cache_of(disk: &str, log: &str) -> Option<bool> {
    let tag = format!("[{disk}] Write cache: ");
    log.lines().rev().find_map(|raw| {
        let b = strip_prefixes(raw);
        let rest = b.get(b.find(&tag)? + tag.len()..)?;
        if rest.starts_with("enabled") {
            Some(true)
        } else if rest.starts_with("disabled") {
            Some(false)
        } else {
            None
        }
    })
}

/// The SCSI INQUIRY vendor and product of `disk` as the scan line shows them: "sd 0:0:0:1:
/// [sdb] ..." gives the address, and "scsi 0:0:0:1: Direct-Access     Msft     Virtual Disk
/// 1.0  PQ: 0 ANSI: 5" holds the 8-byte vendor and 16-byte product fields, blank-padded
/// (scsi_scan.c scsi_add_lun prints them with %8.8s %16.16s).
pub fn inquiry_of(disk: &str, log: &str) -> Option<(String, String)> {
    let hctl = sd_address(disk, log)?;
    log.lines().find_map(|raw| {
        let b = strip_prefixes(raw);
        let (h, tail) = b.strip_prefix("scsi ")?.split_once(": ")?;
        if h.trim() != hctl {
            return None;
        }
        let fields = tail.strip_prefix("Direct-Access")?.trim_start();
        let vendor: String = fields.chars().take(8).collect();
        let model: String = fields.chars().skip(9).take(16).collect();
        let (vendor, model) = (vendor.trim().to_string(), model.trim().to_string());
        (!vendor.is_empty() || !model.is_empty()).then_some((vendor, model))
    })
}

/// The model the old IDE driver's probe line gives disk `disk` (drivers/ide/ide-probe.c
/// do_identify: "hdc: HTS721060G9AT00, ATA DISK drive"): the IDENTIFY model string before the
/// comma. Only for IDE names (hda .. hdz); the last such line wins.
pub fn ide_model_of(disk: &str, log: &str) -> Option<String> {
    if !is_ide_name(disk) {
        return None;
    }
    log.lines().rev().find_map(|raw| {
        let b = strip_prefixes(raw);
        let (name, rest) = b.split_once(':')?;
        if name != disk {
            return None;
        }
        let model = rest.trim().strip_suffix(", ATA DISK drive")?.trim();
        (!model.is_empty() && !model.contains(',')).then(|| model.to_string())
    })
}

/// What libata's IDENTIFY line says of NCQ on port `port`: "ata1.00: 61865984 sectors,
/// multi 1: LBA48 NCQ (depth 32), AA". libata-core.c ata_dev_config_ncq prints "NCQ (depth
/// N)" when host and drive queue N commands, "NCQ (depth H/D)" when the host queues fewer
/// than the drive (H = 0: the host has no NCQ, e.g. an AHCI port without it or sata_nv),
/// and "NCQ (not used)" when NCQ is turned off for the drive (a horkage or libata.force
/// noncq). A drive without NCQ gets no "NCQ" word at all, which says nothing here.
/// Returns (drive supports NCQ, commands are queued, drive depth); the last line wins.
pub fn ncq_of_port(port: u32, log: &str) -> Option<(bool, bool, Option<u32>)> {
    log.lines().rev().find_map(|raw| {
        let b = strip_prefixes(raw);
        if port_of(b) != Some(port) || !b.contains(" sectors, multi ") {
            return None;
        }
        let rest = b.get(b.find(" NCQ (")? + " NCQ (".len()..)?;
        let inner = rest.split(')').next()?;
        if inner == "not used" {
            return Some((true, false, None));
        }
        let depths = inner.strip_prefix("depth ")?;
        let (host, drive) = match depths.split_once('/') {
            Some((h, d)) => (h.trim().parse::<u32>().ok()?, d.trim().parse::<u32>().ok()?),
            None => {
                let n = depths.trim().parse::<u32>().ok()?;
                (n, n)
            }
        };
        Some((true, host > 1, Some(drive)))
    })
}

/// Whether the sd driver attached `disk` as removable media ("sd 7:0:0:0: [sdb] Attached
/// SCSI removable disk", sd.c sd_probe: the RMB bit of the INQUIRY data), which USB flash
/// sticks and card readers set.
pub fn is_removable(disk: &str, log: &str) -> bool {
    let tag = format!("[{disk}] Attached SCSI removable disk");
    log.lines().any(|raw| strip_prefixes(raw).contains(&tag))
}

/// Whether the sd driver attached `disk` as a fixed disk ("sd 0:0:0:0: [sda] Attached SCSI
/// disk", sd.c sd_probe with the INQUIRY's RMB bit clear): a USB bridge in front of a hard
/// disk or SSD, not a flash stick or a card reader's slot ([`is_removable`]).
pub fn is_fixed_disk(disk: &str, log: &str) -> bool {
    let tag = format!("[{disk}] Attached SCSI disk");
    log.lines()
        .any(|raw| strip_prefixes(raw).trim_end().ends_with(&tag))
}

/// The host controller driver USB device `dev` ("2-1") was enumerated by, from the hub
/// driver's "usb 2-1: new high-speed USB device number 2 using xhci_hcd" (hub.c
/// hub_port_init: "... using %s", the host controller driver's name: xhci_hcd or
/// xhci-hcd, ehci-pci, ehci_hcd, ohci_hcd, dwc_otg, ...). The last such line wins.
pub fn usb_host_driver_of(dev: &str, log: &str) -> Option<String> {
    let want = format!("usb {dev}: ");
    log.lines().rev().find_map(|raw| {
        let rest = strip_prefixes(raw).strip_prefix(&want)?;
        if !(rest.starts_with("new ") || rest.starts_with("reset ")) {
            return None;
        }
        let (_, host) = rest.rsplit_once(" using ")?;
        let host = host.split_whitespace().next()?;
        (!host.is_empty()).then(|| host.to_string())
    })
}

/// The USB storage driver behind `disk` when the log shows it: "sd 0:0:0:0: [sda] ..."
/// gives SCSI host 0, and "scsi host0: usb-storage 2-1:1.0" (Bulk-Only Transport) or
/// "scsi host0: uas" (USB Attached SCSI) names the driver that registered that host
/// (drivers/usb/storage/usb.c, uas.c).
pub fn usb_driver_of(disk: &str, log: &str) -> Option<&'static str> {
    let tag = format!("[{disk}]");
    // uas.c's own lines about a command of the disk: uas_log_cmd_state prints the calling
    // function and the UAS tag ("[sda] tag#24 uas_eh_abort_handler 0 uas-tag 7 inflight:
    // CMD"), uas_zap_pending likewise; only the uas driver prints them.
    if log.lines().any(|raw| {
        let b = strip_prefixes(raw);
        b.contains(&tag) && (b.contains(" uas-tag ") || b.contains(" uas_"))
    }) {
        return Some("uas");
    }
    let host = scsi_host_of(disk, log)?;
    let want = format!("scsi host{host}: ");
    log.lines().rev().find_map(|raw| {
        let b = strip_prefixes(raw);
        // The host's registration line in either kernel's form ("scsi host8: usb-storage
        // 4-1:1.0" since 3.17, "scsi8 : usb-storage 4-1:1.0" before), read by
        // scsi_host_driver.
        if let Some((h, drv)) = scsi_host_driver(b)
            && h.to_string() == host
        {
            return Some(drv);
        }
        let drv = b.strip_prefix(&want)?;
        (drv.starts_with("uas_eh_")).then_some("uas")
    })
}

/// The SCSI host number of `disk`: "sd 5:0:0:1: [sdd] ..." (sd.c's sd_printk names the
/// disk as host:channel:target:lun) gives "5".
fn scsi_host_of(disk: &str, log: &str) -> Option<String> {
    let tag = format!("[{disk}]");
    log.lines().find_map(|raw| {
        let b = strip_prefixes(raw);
        let (h, tail) = b.strip_prefix("sd ")?.split_once(": ")?;
        tail.starts_with(&tag)
            .then(|| h.split(':').next().map(str::trim).map(str::to_string))
            .flatten()
    })
}

/// The USB device a usb-storage disk is on, and the serial number that device reported:
/// "scsi host5: usb-storage 2-1.3:1.0" (drivers/usb/storage/usb.c names the host after the
/// interface, device "2-1.3" + ":config.interface") and "usb 2-1.3: SerialNumber: X"
/// (drivers/usb/core/hub.c announce_device). Every LUN of a multi-bay bridge is a disk on
/// the same device, and udev takes the USB device's serial as each disk's ID_SERIAL_SHORT
/// (systemd src/udev/udev-builtin-usb_id.c), the serial lsblk shows.
pub fn usb_device_of(disk: &str, log: &str) -> Option<(String, Option<String>)> {
    let host = scsi_host_of(disk, log)?;
    let want = format!("scsi host{host}: usb-storage ");
    let dev = log.lines().rev().find_map(|raw| {
        let iface = strip_prefixes(raw).strip_prefix(&want)?.trim();
        let (dev, _) = iface.rsplit_once(':')?;
        (!dev.is_empty()
            && dev
                .chars()
                .all(|c| c.is_ascii_digit() || c == '-' || c == '.'))
        .then(|| dev.to_string())
    })?;
    let serial_of = format!("usb {dev}: SerialNumber: ");
    let serial = log.lines().rev().find_map(|raw| {
        let s = strip_prefixes(raw).strip_prefix(&serial_of)?.trim();
        (!s.is_empty()).then(|| s.to_string())
    });
    Some((dev, serial))
}

/// The speed, Mbit/s, of the USB link device `dev` ("2-1", as [`usb_device_of`] gives it)
/// came up on, from the hub driver's line "usb 2-1: new SuperSpeed USB device number 2 using
/// xhci_hcd" (drivers/usb/core/hub.c hub_port_init: "%s %s USB device number %d using %s",
/// "new" or "reset", with usb_speed_string(): "low-speed", "full-speed", "high-speed",
/// "SuperSpeed", "SuperSpeed Plus"; since Linux 5.x the SuperSpeed form names its generation
/// and lanes, "SuperSpeed Gen 1", "SuperSpeed Plus Gen 2x1", "SuperSpeed Plus Gen 2x2").
/// Rates per USB 2.0 section 7.1 and USB 3.2 section 3 (Gen 1 5 Gb/s, Gen 2 10 Gb/s, two
/// lanes twice that). The last such line of the device wins (a reset re-enumerates it).
pub fn usb_link_speed_of(dev: &str, log: &str) -> Option<f64> {
    let want = format!("usb {dev}: ");
    log.lines().rev().find_map(|raw| {
        let rest = strip_prefixes(raw).strip_prefix(&want)?;
        let rest = rest
            .strip_prefix("new ")
            .or_else(|| rest.strip_prefix("reset "))?;
        let (speed, _) = rest.split_once(" USB device ")?;
        usb_speed_words_mbps(speed.trim())
    })
}

/// The USB device a 2.6 kernel's usb-storage bound, from its "usb-storage: device found at
/// 4" (drivers/usb/storage/usb.c usb_stor_scan_thread, the device's bus address) and the
/// hub's line that gave that address ("usb 3-2: new high speed USB device using ehci_hcd
/// and address 4", 2.6's hub_port_init; "... USB device number 4 using ..." since). Only a
/// log with one such address: two buses can hand out the same number.
pub fn usb_storage_device_by_address(log: &str) -> Option<String> {
    let mut found = log.lines().filter_map(|raw| {
        strip_prefixes(raw)
            .trim()
            .strip_prefix("usb-storage: device found at ")
            .map(str::to_string)
    });
    let addr = found.next()?;
    if found.any(|a| a != addr) {
        return None;
    }
    let tails = [
        format!(" and address {addr}"),
        format!(" USB device number {addr} "),
    ];
    let mut devs = log.lines().filter_map(|raw| {
        let (dev, rest) = strip_prefixes(raw)
            .trim_end()
            .strip_prefix("usb ")?
            .split_once(": ")?;
        let hit = rest.ends_with(tails[0].as_str()) || rest.contains(tails[1].as_str());
        (hit && (rest.starts_with("new ") || rest.starts_with("reset "))).then_some(dev)
    });
    let dev = devs.next()?;
    devs.all(|d| d == dev).then(|| dev.to_string())
}

/// The link rate, Mbit/s, of usb_speed_string()'s words (see [`usb_link_speed_of`]).
fn usb_speed_words_mbps(w: &str) -> Option<f64> {
    let two_lanes = w.ends_with("x2");
    // 2.6's hub_port_init wrote the speed as "%s speed" ("high speed", "super speed").
    let rate = match w.replace(" speed", "-speed").as_str() {
        "low-speed" => 1.5,
        "full-speed" => 12.0,
        "high-speed" => 480.0,
        "super-speed" => 5000.0,
        _ if w.starts_with("SuperSpeed Plus") && w.contains("Gen 1") => 5000.0,
        _ if w.starts_with("SuperSpeed Plus") => 10000.0,
        _ if w == "SuperSpeed" || w.starts_with("SuperSpeed Gen 1") => 5000.0,
        _ => return None,
    };
    Some(if two_lanes && rate >= 5000.0 {
        rate * 2.0
    } else {
        rate
    })
}

/// The product string USB device `dev` announced (drivers/usb/core/hub.c announce_device:
/// "usb 1-1.3: Product: External USB 3.0").
pub fn usb_product_of(dev: &str, log: &str) -> Option<String> {
    let want = format!("usb {dev}: Product: ");
    log.lines().find_map(|raw| {
        let p = strip_prefixes(raw).strip_prefix(&want)?.trim();
        (!p.is_empty()).then(|| p.to_string())
    })
}

/// The vendor and product ID USB device `dev` announced, lower-case hex (drivers/usb/core/
/// hub.c announce_device: "usb 1-3: New USB device found, idVendor=0bda, idProduct=9210,
/// bcdDevice=f0.01").
pub fn usb_id_of(dev: &str, log: &str) -> Option<(String, String)> {
    let want = format!("usb {dev}: New USB device found, ");
    log.lines().find_map(|raw| {
        let rest = strip_prefixes(raw).strip_prefix(&want)?;
        let field = |k: &str| {
            rest.split_once(k)
                .map(|(_, v)| v.get(..4).unwrap_or("").to_ascii_lowercase())
                .filter(|v| v.len() == 4 && v.bytes().all(|b| b.is_ascii_hexdigit()))
        };
        Some((field("idVendor=")?, field("idProduct=")?))
    })
}

/// Whether the hub driver said of USB device `dev` that its UAS is ignored
/// (drivers/usb/storage/uas-detect.h uas_use_uas_driver: "usb 2-1.3: UAS is ignored for
/// this device, using usb-storage instead"): the bridge offers UAS and the kernel's quirks
/// keep it on Bulk-Only Transport.
///
/// The same holds when the host controller keeps UAS off (uas-detect.h: "usb 3-1: USB
/// controller f10f8000.usb3 does not support streams, which are required by the UAS
/// driver."), when usb-storage's quirk flags for the device carry US_FL_IGNORE_UAS
/// (0x00800000, include/linux/usb_usual.h: "usb-storage 2-2:1.0: Quirks match for vid 174c
/// pid 55aa: 800000"), and when the kernel command line sets the 'u' quirk
/// ("usb-storage.quirks=0bc2:231a:u", Documentation/admin-guide/kernel-parameters.txt) for
/// the device's vid:pid, or for any device when the paste does not give its IDs.
pub fn uas_ignored(dev: &str, log: &str) -> bool {
    let want = format!("usb {dev}: UAS is ignored for this device");
    let streams = format!("usb {dev}: USB controller ");
    let quirks = format!("usb-storage {dev}:");
    let id = usb_id_of(dev, log);
    log.lines().any(|raw| {
        let b = strip_prefixes(raw);
        b.starts_with(&want)
            || (b.starts_with(&streams)
                && b.contains("does not support streams, which are required by the UAS driver"))
            || (b.starts_with(&quirks)
                && b.split_once("Quirks match for vid ")
                    .and_then(|(_, r)| r.rsplit_once(": "))
                    .and_then(|(_, flags)| u32::from_str_radix(flags.trim(), 16).ok())
                    .is_some_and(|f| f & 0x0080_0000 != 0))
            || raw
                .split_whitespace()
                .filter_map(|w| w.strip_prefix("usb-storage.quirks="))
                .flat_map(|list| list.split(','))
                .any(|q| {
                    let mut parts = q.splitn(3, ':');
                    let (v, p, flags) = (parts.next(), parts.next(), parts.next());
                    flags.is_some_and(|f| f.contains('u'))
                        && match (&id, v, p) {
                            (Some((iv, ip)), Some(v), Some(p)) => {
                                iv.eq_ignore_ascii_case(v) && ip.eq_ignore_ascii_case(p)
                            }
                            (None, Some(_), Some(_)) => true,
                            _ => false,
                        }
                })
    })
}

/// The USB device ("2-2") a usb-storage line names: "usb-storage 2-2:1.0: USB Mass Storage
/// device detected", "scsi host0: usb-storage 2-2:1.0" (the interface, device + ":config.
/// interface") or the hub's "usb 2-2: UAS is ignored for this device, ...".
pub fn usb_device_in_line(line: &str) -> Option<String> {
    // Either word may also stand in the message ("..., using usb-storage instead"): the
    // first place followed by a device address counts.
    ["usb-storage ", "usb "].iter().find_map(|word| {
        line.match_indices(word).find_map(|(i, w)| {
            let after = line.get(i + w.len()..)?;
            let dev: String = after
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == '-' || *c == '.')
                .collect();
            let colon = after.get(dev.len()..).is_some_and(|r| r.starts_with(':'));
            (dev.contains('-') && colon).then_some(dev)
        })
    })
}

/// The USB storage driver the log shows bound to a USB disk when it names no SCSI disk at
/// all (a `dmesg | grep usb` excerpt): usb-storage's "usb-storage 3-1:1.0: USB Mass Storage
/// device detected" (drivers/usb/storage/usb.c), "scsi host0: usb-storage 3-1:1.0", "scsi
/// host0: uas", and uas's fallbacks to usb-storage, "UAS is ignored for this device, using
/// usb-storage instead" (a bridge the kernel's quirks list keeps off UAS) and "USB
/// controller X does not support streams, which are required by the UAS driver"
/// (drivers/usb/storage/uas-detect.h uas_use_uas_driver). The last driver seen wins.
/// usb-storage's own quirks line ("usb-storage 2-1:1.0: Quirks match for vid 174c pid
/// 55aa: 400000", drivers/usb/storage/usb.c get_device_info) and the uas driver's error
/// handler lines, which only uas prints (uas.c uas_eh_abort_handler, uas_zap_pending,
/// uas_eh_device_reset_handler) name the driver too.
pub fn usb_storage_driver(log: &str) -> Option<(&'static str, String)> {
    log.lines().rev().find_map(|raw| {
        let b = strip_prefixes(raw);
        if b.contains("USB Mass Storage device detected")
            || b.contains("UAS is ignored for this device, using usb-storage instead")
            || b.contains("which are required by the UAS driver")
            || (b.starts_with("usb-storage ") && b.contains("Quirks match for vid"))
        {
            return Some(("usb-storage", b.trim().to_string()));
        }
        if b.contains(" uas_eh_") || b.contains(" uas_zap_pending") {
            return Some(("uas", b.trim().to_string()));
        }
        scsi_host_driver(b).map(|(_, drv)| (drv, b.trim().to_string()))
    })
}

/// The SCSI host a USB storage driver registers, from the line the SCSI midlayer prints
/// for it: "scsi host7: uas", "scsi host6: usb-storage 2-1:1.0" (scsi_host.c
/// scsi_add_host_with_dma, shost_printk since 3.17) or, before 3.17, "scsi7 : uas" and
/// "scsi6 : SCSI emulation for USB Mass Storage devices" (printk "scsi%d : %s" of the host
/// template's name or info(); usb-storage's info() in drivers/usb/storage/scsiglue.c).
/// Returns (host number, driver).
fn scsi_host_driver(b: &str) -> Option<(u32, &'static str)> {
    let (host, drv) = scsi_host_line(b)?;
    if drv == "uas" {
        Some((host, "uas"))
    } else if drv.starts_with("usb-storage ")
        || drv.starts_with("SCSI emulation for USB Mass Storage devices")
    {
        Some((host, "usb-storage"))
    } else {
        None
    }
}

/// The SCSI host number and the name a host adapter registered it with: "scsi host0:
/// sata_via" (3.17 and later) or "scsi0 : sata_via" (before), as [`scsi_host_driver`] reads.
fn scsi_host_line(b: &str) -> Option<(u32, &str)> {
    let (head, name) = b.trim_end().split_once(':')?;
    let num = head
        .strip_prefix("scsi host")
        .or_else(|| head.strip_prefix("scsi"))?
        .trim_end();
    Some((num.parse::<u32>().ok()?, name.trim_start()))
}

/// A SATA port the kernel log shows driven as an IDE channel, with a disk on it.
#[derive(Debug, Clone, PartialEq)]
pub struct LegacySataPort {
    pub port: u32,
    /// The libata driver, when the log names it ([`port_driver`], or the driver of a
    /// "combined mode detected" line).
    pub driver: Option<String>,
    /// The port's registration line ("ata2: SATA max UDMA/133 cmd 0x170 ctl 0x376 bmdma
    /// 0xFEA8 irq 15").
    pub line: String,
    /// Why it is legacy IDE, worded for the explanation.
    pub why: String,
}

/// SATA ports driven as IDE channels: libata registers every port with "ataN: SATA max
/// UDMA/133 ..." (ata_host_register; ATA_FLAG_SATA gives the "SATA"), and an SFF (IDE
/// taskfile) port names its command block there ("cmd 0x1f0 ctl 0x3f6 bmdma ... irq 14"),
/// where an AHCI port names its ABAR ("abar m2048@0x... port 0x... irq 27"). A SATA port
/// counts here when:
/// - it sits at the ISA compatibility addresses, 1F0h (IRQ 14) or 170h (IRQ 15): the PCI
///   IDE Controller Specification 1.0's compatibility mode, which the BIOS's "IDE",
///   "combined" or "legacy" SATA setting selects;
/// - ata_piix said "combined mode detected" (drivers/ata/ata_piix.c piix_init_one, 2.6.x:
///   the ICH's SATA ports share the legacy channels with parallel ATA, as the BIOS set it);
/// - or its driver is a legacy IDE one (ata_piix, ata_generic, pata_*).
///
/// Only ports with an ATA disk on them ("ataN.00: ATA-7: ...", or 2.6.8-2.6.15's "ataN: dev
/// 0 ATA, max UDMA/133, ..." from ata_dev_identify) are returned: an ATAPI drive gains
/// nothing from AHCI.
pub fn legacy_sata_ports(log: &str) -> Vec<LegacySataPort> {
    let combined = log.lines().find_map(|raw| {
        let b = strip_prefixes(raw);
        let i = b.find("combined mode detected")?;
        let drv = b.get(..i)?.split([':', ' ']).next()?.to_string();
        (!drv.is_empty()).then_some(drv)
    });
    let mut out: Vec<LegacySataPort> = Vec::new();
    for (port, b, rest) in registrations(log, "SATA max ") {
        if out.iter().any(|p| p.port == port) {
            continue;
        }
        let low = rest.to_ascii_lowercase();
        let cmd = hex_field(&low, "cmd ");
        let compat = matches!(cmd, Some(0x1f0) | Some(0x170));
        let driver = port_driver(port, log).or_else(|| combined.clone());
        let legacy_driver = driver
            .as_deref()
            .filter(|d| *d == "ata_piix" || *d == "ata_generic" || d.starts_with("pata_"));
        let why = if compat {
            format!(
                "the SATA port ata{port} sits at the legacy IDE addresses (cmd 0x{:x}, the \
                 compatibility mode of a PCI IDE controller)",
                cmd.unwrap_or(0)
            )
        } else if let (Some(drv), true) = (combined.as_deref(), cmd.is_some()) {
            format!("{drv} reports the controller in combined (legacy IDE) mode")
        } else if let Some(drv) = legacy_driver {
            format!("the SATA port ata{port} is driven by the IDE driver {drv}")
        } else {
            continue;
        };
        if !port_has_ata_disk(port, log) {
            continue;
        }
        out.push(LegacySataPort {
            port,
            driver,
            line: b.to_string(),
            why,
        });
    }
    out
}

/// The Linux GPT reader's complaint that the backup header is not at the disk's end
/// (block/partitions/efi.c, compare_gpts/find_valid_gpt: "GPT:Primary header thinks Alt.
/// header is not at the end of the disk.", "GPT:Alternate GPT header not at the end of the
/// disk.", then "GPT:%lld != %lld" and "GPT: Use GNU Parted to correct GPT errors."). These
/// lines name no disk: check_partition (block/partitions/core.c) prints the disk's
/// partition list (" vda: vda1 vda2", from its pp_buf) after the reader returns, so the disk
/// is the one whose list follows. One message per disk, the disk in `partition`.
pub fn gpt_backup_not_at_end(log: &str) -> Vec<crate::model::PartitionToolMessage> {
    let lines: Vec<&str> = log.lines().map(|l| strip_prefixes(l).trim()).collect();
    let mut out: Vec<crate::model::PartitionToolMessage> = Vec::new();
    for (i, b) in lines.iter().enumerate() {
        let complaint = b.starts_with("GPT:Primary header thinks Alt. header is not at the end")
            || b.starts_with("GPT:Alternate GPT header not at the end");
        if !complaint {
            continue;
        }
        let disk = lines
            .iter()
            .skip(i.saturating_add(1))
            .take(8)
            .find_map(|l| partition_list_disk(l));
        let Some(disk) = disk else {
            continue;
        };
        if out.iter().any(|m| m.partition.as_deref() == Some(disk)) {
            continue;
        }
        out.push(crate::model::PartitionToolMessage::gpt_backup_not_at_end(
            "kernel", disk, b,
        ));
    }
    out
}

/// The disk of a partition-list line, "sda: sda1 sda2 sda3" or "nvme0n1: p1 p2" (the
/// kernel prints " %s:" then each partition; an extended one as "< sda5 >"; a name ending
/// in a digit gets "p1", block/partitions/core.c).
fn partition_list_disk(line: &str) -> Option<&str> {
    let (disk, rest) = line.split_once(": ")?;
    if disk.is_empty() || !disk.chars().all(|c| c.is_ascii_alphanumeric()) {
        return None;
    }
    let parts: Vec<&str> = rest
        .split_whitespace()
        .filter(|w| *w != "<" && *w != ">")
        .collect();
    (!parts.is_empty()
        && parts.iter().all(|w| {
            w.starts_with(disk)
                || w.strip_prefix('p')
                    .is_some_and(|n| n.parse::<u32>().is_ok())
        }))
    .then_some(disk)
}

/// Parallel-ATA channels with an ATA disk on them: libata registers an SFF channel without
/// ATA_FLAG_SATA as "ataN: PATA max UDMA/100 cmd 0x1f0 ctl 0x3f6 bmdma 0xc040 irq 14"
/// (drivers/ata/libata-core.c ata_host_register: "%cATA max %s" with 'P' or 'S'), whatever
/// the driver (ata_piix, pata_*, ata_generic), and the disk's IDENTIFY line follows
/// ("ataN.00: ATA-7: ..."). Returns the port and its registration line; an ATAPI-only
/// channel (a CD drive) is left out, as in [`legacy_sata_ports`].
pub fn pata_ports(log: &str) -> Vec<(u32, String)> {
    let mut out: Vec<(u32, String)> = Vec::new();
    for (port, b, _) in registrations(log, "PATA max ") {
        if !out.iter().any(|(p, _)| *p == port) && port_has_ata_disk(port, log) {
            out.push((port, b.to_string()));
        }
    }
    out
}

/// libata's port registration lines of one kind ("SATA max " or "PATA max ", from
/// ata_host_register), every one (a log of several boots repeats them): the port, the line without its log prefix, and
/// the text after "ataN: ".
fn registrations<'a>(log: &'a str, kind: &str) -> Vec<(u32, &'a str, &'a str)> {
    let mut out: Vec<(u32, &str, &str)> = Vec::new();
    for raw in log.lines() {
        let b = strip_prefixes(raw).trim();
        let Some(port) = port_of(b) else {
            continue;
        };
        let Some(rest) = b.split_once(": ").map(|x| x.1) else {
            continue;
        };
        if rest.starts_with(kind) {
            out.push((port, b, rest));
        }
    }
    out
}

/// The SATA link of one port of an AHCI host adapter, as the boot log shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct AhciPortLink {
    pub port: u32,
    /// The speed of the port's last "SATA link up" line, Gb/s: after a reset that lowered
    /// it, the last line is the link's state now.
    pub current_gbps: f64,
    /// The fastest speed the adapter supports (AHCI 1.3.1 3.1.1 CAP.ISS, which the driver
    /// prints as "N Gbps"), when another ATA port of the same adapter, or this one, linked
    /// at it: a port reaching it shows that neither the board nor the firmware setup holds
    /// the adapter's ports below it. None when no port reached it.
    pub port_max_gbps: Option<f64>,
}

/// The links of the ATA disks on AHCI ports. drivers/ata/libahci.c ahci_print_info prints
/// "ahci 0000:00:1f.2: AHCI 0001.0300 32 slots 6 ports 6 Gbps 0x3f impl SATA mode" (speed
/// "1.5", "3" or "6"; "... impl platform mode" for ahci_platform), and ahci_host_activate
/// then registers the adapter's ports, each printing one line from ata_host_register
/// ("ata1: SATA max UDMA/133 abar m2048@0xf7e36000 port 0xf7e36100 irq 27", or "ata3:
/// DUMMY" for a port not implemented), "N ports" of them, in order. libata-core.c
/// sata_print_link_status prints "ata1: SATA link up 6.0 Gbps (SStatus 133 SControl 300)".
/// A port that holds an ATAPI device (an optical drive, often at 1.5 Gb/s by design) or no
/// ATA device is left out, and so is one whose adapter line the paste does not hold.
pub fn ahci_port_links(log: &str) -> Vec<AhciPortLink> {
    // port -> (adapter index, adapter Gb/s) from the registration lines after each
    // adapter line; port -> last link speed.
    let mut adapter_of: Vec<(u32, usize, f64)> = Vec::new();
    let mut links: Vec<(u32, f64)> = Vec::new();
    let mut adapter: Option<(usize, f64, u32)> = None; // (index, Gb/s, ports left)
    let mut adapters = 0usize;
    for raw in log.lines() {
        let b = strip_prefixes(raw).trim();
        if let Some((gbps, ports)) = ahci_adapter_line(b) {
            adapters = adapters.saturating_add(1);
            adapter = Some((adapters, gbps, ports));
            continue;
        }
        let Some(port) = port_of(b) else {
            continue;
        };
        let Some(rest) = b.split_once(": ").map(|x| x.1) else {
            continue;
        };
        if rest.starts_with("SATA max ") || rest.starts_with("DUMMY") {
            if let Some((i, g, left)) = adapter.as_mut().filter(|a| a.2 > 0) {
                adapter_of.retain(|(p, _, _)| *p != port);
                adapter_of.push((port, *i, *g));
                *left = left.saturating_sub(1);
            }
            continue;
        }
        if let Some(v) = rest.strip_prefix("SATA link up ")
            && let Some(g) = v
                .split_once(" Gbps")
                .and_then(|(n, _)| n.trim().parse::<f64>().ok())
                .filter(|g| g.is_finite() && *g > 0.0)
        {
            links.retain(|(p, _)| *p != port);
            links.push((port, g));
        }
    }
    let ata = |p: u32| port_has_ata_disk(p, log);
    links
        .iter()
        .filter(|(p, _)| ata(*p))
        .filter_map(|&(port, current_gbps)| {
            let &(_, i, max) = adapter_of.iter().find(|(p, _, _)| *p == port)?;
            let reached = links.iter().any(|(q, g)| {
                *g + 0.01 >= max && ata(*q) && adapter_of.iter().any(|(r, j, _)| r == q && *j == i)
            });
            Some(AhciPortLink {
                port,
                current_gbps,
                port_max_gbps: reached.then_some(max),
            })
        })
        .collect()
}

/// NVMe drives Intel RST hides behind an AHCI controller: with the firmware's SATA mode
/// set to RAID ("Intel RST Premium with Optane"), the chipset remaps them into the AHCI
/// function's BAR, where no NVMe driver reaches them. drivers/ata/ahci.c ahci_remap_check
/// (Linux 4.20 on) counts them and warns "ahci 0000:00:17.0: Found 1 remapped NVMe
/// devices." and "Switch your BIOS from RAID to AHCI mode to use them.". (the AHCI
/// function's address, the count, the line) of the first such line.
pub fn remapped_nvme(log: &str) -> Option<(String, u32, String)> {
    log.lines().find_map(|raw| {
        let b = strip_prefixes(raw).trim();
        let (dev, rest) = b.split_once(": Found ")?;
        let (n, tail) = rest.split_once(' ')?;
        let addr = dev.strip_prefix("ahci ")?.trim();
        tail.starts_with("remapped NVMe device")
            .then(|| Some((addr.to_string(), n.parse().ok()?, b.to_string())))?
    })
}

/// The speed (Gb/s) and port count of libahci's adapter line ("ahci 0000:02:00.1: AHCI
/// 0001.0301 32 slots 8 ports 6 Gbps 0x33 impl SATA mode").
fn ahci_adapter_line(b: &str) -> Option<(f64, u32)> {
    let (_, rest) = b.split_once(": AHCI ")?;
    let w: Vec<&str> = rest.split_whitespace().collect();
    let at = w.iter().position(|x| *x == "Gbps")?;
    let gbps = w.get(at.checked_sub(1)?)?.parse::<f64>().ok()?;
    let ports = w
        .iter()
        .position(|x| *x == "ports")
        .and_then(|i| w.get(i.checked_sub(1)?))
        .and_then(|n| n.parse::<u32>().ok())?;
    (rest.contains(" slots ") && gbps.is_finite() && gbps > 0.0).then_some((gbps, ports))
}

/// Whether libata found an ATA (not ATAPI) device on port `port`.
///
/// A device libata applies bridge limits to ("ata2.00: applying bridge limits",
/// libata-core.c ata_dev_configure when ata_dev_knobble: a SATA port whose device's
/// IDENTIFY has no SATA capabilities, word 76) is a parallel ATA device behind a
/// SATA-to-PATA bridge (a CompactFlash or IDE disk on an adapter): it has no NCQ (a word 76
/// bit) for AHCI to give, so it counts no more than an ATAPI drive or a CFA card does.
fn port_has_ata_disk(port: u32, log: &str) -> bool {
    let lines: Vec<&str> = log.lines().map(strip_prefixes).collect();
    let bridged = |dev: &str| {
        lines.iter().any(|b| {
            b.split_once(": ")
                .is_some_and(|(d, r)| d == dev && r.trim_end() == "applying bridge limits")
        })
    };
    lines.iter().any(|b| {
        port_of(b) == Some(port)
            && b.split_once(": ").is_some_and(|(dev, r)| {
                (r.starts_with("ATA-") && !bridged(dev))
                    || r.strip_prefix("dev ")
                        .and_then(|x| x.split_once(' '))
                        .is_some_and(|(_, t)| t.starts_with("ATA, "))
            })
    })
}

/// The libata driver of port `port`, from the SCSI host it registered: libata gives ports
/// print ids from 1 and each port its SCSI host, numbered from 0, in order
/// ([`port_by_host_number`]), so port N is host N-1 when the log's ports run 1..=N without
/// a gap. The name is the host template's ("sata_via", "ata_piix", "ahci").
fn port_driver(port: u32, log: &str) -> Option<String> {
    let host = port.checked_sub(1)?;
    let ports = ports_in(log);
    let max = ports.iter().copied().max()?;
    if !(1..=max).all(|n| ports.contains(&n)) {
        return None;
    }
    log.lines().find_map(|raw| {
        let (h, name) = scsi_host_line(strip_prefixes(raw))?;
        let name = name.split_whitespace().next()?;
        (h == host && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
            .then(|| name.to_string())
    })
}

/// Why libata sends port `port`'s drive one command at a time when neither the user nor a
/// fixable setting chose it:
/// - the kernel's own quirk list turns NCQ off for the drive (ATA_HORKAGE_NONCQ, since 6.11
///   ATA_QUIRK_NONCQ, in drivers/ata/libata-core.c): 6.11's ata_dev_print_quirks says so
///   ("ata1.00: Model 'Maxtor 6L160M0', rev 'BANC1G10', applying quirks: noncq"), older
///   kernels only print "NCQ (not used)" (ata_dev_config_ncq), so the drive's model and
///   firmware from its identity line are matched against the list ([`KERNEL_NONCQ`]);
/// - the host adapter's driver has no NCQ ("NCQ (depth 0/32)": ata_dev_config_ncq takes
///   the host depth from ATA_FLAG_NCQ, which the driver sets only for NCQ-capable
///   hardware) and is a SATA driver for chips without it ([`HOSTS_WITHOUT_NCQ`]). A legacy
///   IDE driver (ata_piix, pata_*) is not one: there the cure is the controller's AHCI mode.
///
/// A noncq the user forced ("ata1.00: FORCE: horkage modified (noncq)", libata.force) is
/// none of these. Returns the cause and its detail for the explanation.
pub fn ncq_off_cause(port: u32, log: &str) -> Option<(NcqOffCause, String)> {
    let mut forced = false;
    let mut quirk_line: Option<String> = None;
    let mut identity: Option<(String, String)> = None;
    let mut not_used = false;
    let mut host_zero = false;
    for raw in log.lines() {
        let b = strip_prefixes(raw);
        if port_of(b) != Some(port) {
            continue;
        }
        let Some((_, rest)) = b.split_once(": ") else {
            continue;
        };
        if rest.starts_with("FORCE: ") && rest.contains("noncq") {
            forced = true;
        }
        if rest.starts_with("Model '")
            && rest
                .split_once("applying quirks: ")
                .is_some_and(|(_, q)| q.split([',', ' ']).any(|w| w == "noncq"))
        {
            quirk_line = Some(b.trim().to_string());
        }
        // "ATA-7: Maxtor 6L160M0, BANC1G10, max UDMA/133" (ata_dev_configure).
        if let Some(id) = rest
            .strip_prefix("ATA-")
            .and_then(|r| r.split_once(": "))
            .map(|x| x.1)
        {
            let mut f = id.split(", ");
            if let (Some(m), Some(fw)) = (f.next(), f.next()) {
                identity = Some((m.trim().to_string(), fw.trim().to_string()));
            }
        }
        if rest.contains(" sectors, multi ") {
            not_used = rest.contains("NCQ (not used)");
            host_zero = rest.contains("NCQ (depth 0/");
        }
    }
    if forced {
        return None;
    }
    if not_used {
        if let Some(line) = quirk_line {
            return Some((
                NcqOffCause::KernelQuirk,
                format!("the kernel says \"{line}\""),
            ));
        }
        let (model, fw) = identity?;
        let row = KERNEL_NONCQ
            .iter()
            .find(|(m, f)| glob_match(m, &model) && f.is_none_or(|f| glob_match(f, &fw)))?;
        return Some((
            NcqOffCause::KernelQuirk,
            format!(
                "the drive, {model} firmware {fw}, matches the entry \"{}\"{} of that list",
                row.0,
                row.1.map(|f| format!(", \"{f}\"")).unwrap_or_default()
            ),
        ));
    }
    if host_zero {
        let Some(drv) = port_driver(port, log) else {
            return sata_host_without_ncq(port, log).map(|d| (NcqOffCause::HostWithoutNcq, d));
        };
        let row = HOSTS_WITHOUT_NCQ.iter().find(|(d, _)| *d == drv)?;
        return Some((
            NcqOffCause::HostWithoutNcq,
            format!("the port is driven by {drv}, {}", row.1),
        ));
    }
    None
}

/// The first lines of a kernel crash whose call trace runs through the storage I/O path:
/// the oops header (arch/x86/mm/fault.c "BUG: unable to handle page fault for address",
/// "BUG: kernel NULL pointer dereference", kernel/panic.c and arch/x86/kernel/dumpstack.c
/// "Oops: 0000 [#1] SMP", traps.c "general protection fault", lib/bug.c "kernel BUG at")
/// followed, before its "---[ end trace" or the next header, by a "Call Trace:" holding a
/// frame of the block layer's or a storage driver's completion ([`STORAGE_FRAMES`]:
/// block/blk-mq.c, drivers/scsi/scsi_lib.c, drivers/block/virtio_blk.c,
/// drivers/scsi/virtio_scsi.c, drivers/scsi/storvsc_drv.c, drivers/nvme/host/pci.c,
/// drivers/ata/libata-*.c). The kernel died completing a disk's I/O: the header and the
/// first storage frame, once per crash.
pub fn storage_path_oops(log: &str) -> Vec<String> {
    const HEADERS: &[&str] = &[
        "BUG: unable to handle ",
        "BUG: kernel NULL pointer dereference",
        "Oops: ",
        "general protection fault",
        "kernel BUG at ",
    ];
    let mut out = Vec::new();
    let mut header: Option<String> = None;
    let mut in_trace = false;
    for raw in log.lines() {
        let b = strip_prefixes(raw).trim();
        if HEADERS.iter().any(|h| b.starts_with(h)) {
            // "Oops: 0000 [#1]" after "BUG: unable to handle ..." is the same crash.
            if header.is_none() || in_trace {
                header = Some(b.to_string());
                in_trace = false;
            }
            continue;
        }
        if b.starts_with("---[ end trace") {
            header = None;
            in_trace = false;
            continue;
        }
        if header.is_none() {
            continue;
        }
        if b.starts_with("Call Trace:") {
            in_trace = true;
            continue;
        }
        if !in_trace {
            continue;
        }
        let frame = b.trim_start_matches("? ").trim();
        let func = frame.split(['+', ' ']).next().unwrap_or("");
        if STORAGE_FRAMES.contains(&func)
            && let Some(h) = header.take()
        {
            out.push(h);
            out.push(frame.to_string());
            in_trace = false;
        }
    }
    out
}

/// Functions of the storage completion path a crash's call trace may run through (see
/// [`storage_path_oops`]), by the kernel file that holds them.
const STORAGE_FRAMES: &[&str] = &[
    // block/blk-mq.c, block/blk-core.c, block/bio.c
    "blk_update_request",
    "blk_mq_end_request",
    "__blk_mq_end_request",
    "blk_complete_reqs",
    "blk_mq_complete_request",
    "blk_done_softirq",
    "bio_endio",
    // drivers/scsi/scsi_lib.c, scsi.c
    "scsi_io_completion",
    "scsi_end_request",
    "scsi_finish_command",
    "scsi_complete",
    "scsi_softirq_done",
    // drivers/block/virtio_blk.c, drivers/scsi/virtio_scsi.c, drivers/scsi/storvsc_drv.c
    "virtblk_done",
    "virtblk_request_done",
    "virtscsi_complete_cmd",
    "virtscsi_req_done",
    "virtscsi_vq_done",
    "storvsc_on_channel_callback",
    "storvsc_command_completion",
    // drivers/nvme/host/pci.c, core.c
    "nvme_irq",
    "nvme_pci_complete_rq",
    "nvme_complete_rq",
    // drivers/ata/libata-core.c, libata-scsi.c
    "ata_qc_complete",
    "ata_scsi_qc_complete",
];

/// A host depth of 0 on a port whose driver the log does not name, when the port is a
/// SATA host's with no IDE taskfile interface: the port's own "ataN: SATA link up 3.0 Gbps
/// (SStatus 123 SControl 300)" line (libata-core.c sata_print_link_status, printed only by
/// a driver that reads the SATA status registers) and no "cmd 0x1f0 ctl 0x3f6 bmdma ..."
/// port description (libata-sff.c: the taskfile addresses of an SFF/IDE-style interface,
/// which an Intel or AMD chipset in IDE mode shows; an AHCI port shows "abar ..."). Such a
/// host advertises no NCQ (ata_dev_config_ncq takes the host depth 0 without
/// ATA_FLAG_NCQ): the controller chip or its driver cannot queue, and no setting of the
/// drive or the kernel command line changes that.
fn sata_host_without_ncq(port: u32, log: &str) -> Option<String> {
    let mut link_up: Option<String> = None;
    for raw in log.lines() {
        let b = strip_prefixes(raw).trim();
        if port_of(b) != Some(port) {
            continue;
        }
        let Some((_, rest)) = b.split_once(": ") else {
            continue;
        };
        if (rest.starts_with("SATA max ") || rest.starts_with("PATA max "))
            && rest.contains(" cmd 0x")
        {
            return None;
        }
        if rest.starts_with("SATA link up ") && link_up.is_none() {
            link_up = Some(b.to_string());
        }
    }
    link_up.map(|l| {
        format!(
            "the port's controller offers no command queue: the kernel gives it a host depth \
             of 0 (\"NCQ (depth 0/N)\") on a SATA port (\"{l}\") whose driver the log does not \
             name; if it is a chipset with an AHCI mode (set to IDE in the firmware setup), \
             AHCI mode would queue"
        )
    })
}

pub(crate) use crate::model::NcqOffCause;

/// libata's NCQ quirk entries (model, firmware; `None` = any firmware), as listed in
/// drivers/ata/libata-core.c __ata_dev_quirks ("Devices where NCQ should be avoided", the
/// Seagate "NCQ + FLUSH CACHE firmware bug" rows, the entries from the Silicon Image
/// 3124/3132 Windows driver, Crucial C300 firmware 0001). Patterns are the kernel's
/// glob_match ones.
const KERNEL_NONCQ: &[(&str, Option<&str>)] = &[
    ("WDC WD740ADFD-00", None),
    ("WDC WD740ADFD-00NLR1", None),
    ("FUJITSU MHT2060BH", None),
    ("Maxtor *", Some("BANC*")),
    ("Maxtor 7V300F0", Some("VA111630")),
    ("ST380817AS", Some("3.42")),
    ("ST3160023AS", Some("3.42")),
    ("OCZ CORE_SSD", Some("02.10104")),
    ("ST31500341AS", Some("SD1[5-9]")),
    ("ST31000333AS", Some("SD1[5-9]")),
    ("ST3640[36]23AS", Some("SD1[5-9]")),
    ("ST3320[68]13AS", Some("SD1[5-9]")),
    ("HTS541060G9SA00", Some("MB3OC60D")),
    ("HTS541080G9SA00", Some("MB4OC60D")),
    ("HTS541010G9SA00", Some("MBZOC60D")),
    ("C300-CTFDDAC128MAG", Some("0001")),
];

/// libata SATA host drivers whose chips have no NCQ: none of their port_info entries sets
/// ATA_FLAG_NCQ, so every drive on them gets "NCQ (depth 0/N)".
const HOSTS_WITHOUT_NCQ: &[(&str, &str)] = &[
    (
        "sata_via",
        "VIA's SATA driver, which queues nothing (drivers/ata/sata_via.c: no port_info of \
         the VT6420/VT6421/VT8251 family sets ATA_FLAG_NCQ)",
    ),
    (
        "sata_sil",
        "Silicon Image's SiI3112/3114 driver (drivers/ata/sata_sil.c: those chips have no \
         NCQ; the SiI3124/3132, driven by sata_sil24, do)",
    ),
    (
        "sata_sis",
        "SiS's SATA driver (drivers/ata/sata_sis.c: no ATA_FLAG_NCQ)",
    ),
    (
        "sata_uli",
        "ULi's M5287/M5289 driver (drivers/ata/sata_uli.c: no ATA_FLAG_NCQ)",
    ),
];

/// The kernel's glob_match (lib/glob.c) for the quirk table: '*' any run, '?' one
/// character, '[...]' a set with ranges.
fn glob_match(pat: &str, s: &str) -> bool {
    let p: Vec<char> = pat.chars().collect();
    let t: Vec<char> = s.chars().collect();
    glob_at(&p, &t)
}

fn glob_at(p: &[char], t: &[char]) -> bool {
    match p.split_first() {
        None => t.is_empty(),
        Some(('*', rest)) => (0..=t.len()).any(|i| t.get(i..).is_some_and(|tt| glob_at(rest, tt))),
        Some(('?', rest)) => t.split_first().is_some_and(|(_, tt)| glob_at(rest, tt)),
        Some(('[', rest)) => {
            let Some(end) = rest.iter().position(|c| *c == ']') else {
                return false;
            };
            let (set, after) = rest.split_at(end);
            let Some((c, tt)) = t.split_first() else {
                return false;
            };
            let mut hit = false;
            let mut i = 0;
            while let Some(&a) = set.get(i) {
                if set.get(i + 1) == Some(&'-')
                    && let Some(&b) = set.get(i + 2)
                {
                    hit |= (a..=b).contains(c);
                    i += 3;
                } else {
                    hit |= a == *c;
                    i += 1;
                }
            }
            hit && glob_at(after.get(1..).unwrap_or(&[]), tt)
        }
        Some((c, rest)) => t
            .split_first()
            .is_some_and(|(x, tt)| x == c && glob_at(rest, tt)),
    }
}

/// The failures of a USB disk the log names by SCSI address only ("sd 1:0:0:0:
/// uas_eh_abort_handler 0 tag 3 inflight: ", without "[sdX]"): the event lines of a SCSI
/// host a USB storage driver registered ([`scsi_host_driver`]), and uas.c's own error
/// handler lines (uas_eh_abort_handler, uas_eh_device_reset_handler, uas_zap_pending),
/// which only that driver prints.
pub fn usb_host_failures(log: &str, from: &str) -> Vec<KernelEvent> {
    let hosts: Vec<u32> = log
        .lines()
        .filter_map(|raw| scsi_host_driver(strip_prefixes(raw)).map(|(h, _)| h))
        .collect();
    log.lines()
        .filter_map(|raw| {
            let b = strip_prefixes(raw);
            let kind = classify(b)?;
            let host = b
                .strip_prefix("sd ")
                .or_else(|| b.strip_prefix("scsi "))
                .and_then(|r| r.split(':').next())
                .and_then(|h| h.trim().parse::<u32>().ok())
                .or_else(|| {
                    b.strip_prefix("scsi host")
                        .and_then(|r| r.split(':').next())
                        .and_then(|h| h.parse::<u32>().ok())
                });
            let uas_line = b.contains(" uas_eh_") || b.contains(" uas_zap_pending");
            (uas_line || host.is_some_and(|h| hosts.contains(&h))).then(|| KernelEvent {
                kind,
                line: b.trim().to_string(),
                from: from.to_string(),
            })
        })
        .collect()
}

/// The USB side failing under `disk`: the host controller dying or a device leaving the bus
/// ([`classify`]'s transport lines that name no disk: "xhci_hcd 0000:01:00.0: HC died;
/// cleaning up", "usb 1-1: USB disconnect, device number 2"), before the disk's own error
/// lines. They count for the disk when the log shows it is a USB disk ([`usb_driver_of`]),
/// or when the log has no libata port at all (no SATA link the disk could be on) and the
/// disk has errors of its own after them: a USB disk whose bus went away, as on a Raspberry
/// Pi's xHCI. Returns the lines as events; empty when nothing ties them to the disk.
pub fn usb_path_failures(disk: &str, log: &str, from: &str) -> Vec<KernelEvent> {
    let usb = usb_driver_of(disk, log).is_some();
    if !usb && !ports_in(log).is_empty() {
        return Vec::new();
    }
    // The disk's own USB device, when the log names it: another device's lines (a
    // full-speed keyboard's resets, a stick unplugged) are not the disk's path failing.
    let own = usb_device_of(disk, log).map(|(d, _)| d);
    let mut pending: Vec<KernelEvent> = Vec::new();
    let mut own_after = false;
    // A card reader or stick unplugged after its slot said it was empty: the disk's only
    // errors before the disconnect are NOT READY, MEDIUM NOT PRESENT (ASC 3Ah) and their
    // block-layer echoes, no reset or error of its USB path came first, and nothing of the
    // disk follows. The hub driver's "USB disconnect" is then the user pulling the reader,
    // as hub.c prints it for any removal, not the path failing.
    let mut trouble = false;
    let mut no_medium = false;
    for raw in log.lines() {
        let body = strip_prefixes(raw);
        let low = body.to_ascii_lowercase();
        if is_no_medium_sense(&low) {
            no_medium = true;
        }
        let is_usb_line = (body.starts_with("usb ")
            || body.starts_with("xhci")
            || body.starts_with("ehci")
            || body.starts_with("ohci"))
            && classify(body) == Some(KernelEventKind::TransportError)
            && own.as_deref().is_none_or(|d| usb_line_on_path(body, d));
        let unplugged =
            is_usb_line && no_medium && !trouble && low.contains(": usb disconnect, device number");
        if low.starts_with("usb ") && low.contains("reset ") && low.contains("usb device") {
            trouble = true;
        }
        // The disk's own failures other than the block layer's echo of a failed request
        // (a timeout, a medium error, a command its host failed) are trouble too.
        if !is_usb_line
            && names_disk(body, disk)
            && classify(body).is_some_and(|k| k != KernelEventKind::IoError)
        {
            trouble = true;
        }
        if unplugged {
            continue;
        }
        if is_usb_line {
            trouble = true;
            pending.push(KernelEvent {
                kind: KernelEventKind::TransportError,
                line: body.trim().to_string(),
                from: from.to_string(),
            });
        } else if !pending.is_empty() && names_disk(body, disk) && classify(body).is_some() {
            own_after = true;
        }
    }
    if usb || own_after {
        pending
    } else {
        Vec::new()
    }
}

/// Whether a USB line is about the USB device `dev` ("2-4", as [`usb_device_of`] gives
/// it) or about something that carries it: a line of the hub driver names the device it
/// is about ("usb 1-9: reset full-speed USB device number 5 using xhci_hcd", "usb 1-1: USB
/// disconnect, device number 2"; drivers/usb/core/hub.c prints dev_name(), the bus-port
/// path), and only that device, a hub above it ("1-1" above "1-1.3", whose disconnect takes
/// the disk along) or its bus's root hub ("usb usb2") is on the disk's path. Device numbers
/// repeat across buses, so the path, not the number, ties a line to the disk. A line that
/// names no USB device (the host controller's "xhci_hcd 0000:00:14.0: HC died", a SCSI
/// line) is the caller's to judge: true.
pub fn usb_line_on_path(line: &str, dev: &str) -> bool {
    let Some(other) = line
        .trim_start()
        .strip_prefix("usb ")
        .and_then(|r| r.split_once(':'))
        .map(|(d, _)| d.trim())
    else {
        return true;
    };
    if other == dev {
        return true;
    }
    if let Some(bus) = other.strip_prefix("usb") {
        return dev.split_once('-').is_some_and(|(b, _)| b == bus);
    }
    // A hub above the device: its path is a prefix of the device's, up to a port separator
    // ("1-1" of "1-1.3"; the root port's "1-1" of a device "1-1.4.2").
    dev.strip_prefix(other)
        .is_some_and(|rest| rest.starts_with('.'))
}

/// The hub's repeated resets of the USB device `disk` is on ([`usb_device_of`]: "usb 1-1.3:
/// reset high-speed USB device number 4 using ehci-pci" again and again): the storage
/// driver's error handler resetting a device that stopped answering (usb_reset_device), the
/// disk's own link failing ([`usb_link_failures`] counts from the second reset).
pub fn usb_device_resets(disk: &str, log: &str, from: &str) -> Vec<KernelEvent> {
    let Some((dev, _)) = usb_device_of(disk, log) else {
        return Vec::new();
    };
    let own = format!("usb {dev}: reset ");
    usb_link_failures(log, from, false)
        .into_iter()
        .filter(|e| e.kind == KernelEventKind::LinkReset && e.line.starts_with(&own))
        .collect()
}

/// A USB device that does not answer while the hub enumerates it (drivers/usb/core/hub.c
/// hub_port_init: "device not accepting address 5, error -110", "device descriptor read/64,
/// error -71"; hub_port_connect: "unable to enumerate USB device"): the device never came up
/// on its USB link, which is the cable, the port's power or the bridge, not a medium. `low`
/// is the lowercased line.
fn is_usb_enumeration_failure(low: &str) -> bool {
    low.contains("device not accepting address")
        || (low.contains("device descriptor read/") && low.contains("error -"))
        || low.contains("unable to enumerate usb device")
}

/// The USB link of a storage device failing, for a log that names no disk: the hub
/// re-initialising a device that stopped answering (drivers/usb/core/hub.c hub_port_init:
/// "usb 1-1.3: reset high-speed USB device number 4 using dwc_otg", the same words with
/// full-speed, SuperSpeed or "SuperSpeed Plus Gen 2x1" and ehci-pci or xhci_hcd; the
/// storage drivers' error handlers ask for it, usb_reset_device), the xHCI ring getting
/// an event for an endpoint or bulk stream that is gone (drivers/usb/host/xhci-ring.c
/// handle_tx_event: "ERROR Transfer event for disabled endpoint or incorrect stream ring",
/// which a narrow dmesg wraps after "disabled", and "... for unknown stream ring slot";
/// bulk streams are the UAS protocol's) and the device leaving the bus (hub.c
/// usb_disconnect "USB disconnect, device number N"; before 2.6.32 hub_port_init said
/// "reset high speed USB device using ehci_hcd and address 2"). A single reset is what a device
/// gets once at probe and a lone disconnect is an unplug: resets count from the second
/// of one device, and a disconnect only beside the other lines or a storage driver.
pub fn usb_link_failures(log: &str, from: &str, storage: bool) -> Vec<KernelEvent> {
    let mut resets: Vec<(String, String)> = Vec::new();
    let mut other = Vec::new();
    let mut disconnects = Vec::new();
    for raw in log.lines() {
        let b = strip_prefixes(raw).trim();
        if let Some(dev) = b
            .strip_prefix("usb ")
            .and_then(|r| r.split_once(": reset "))
            .filter(|(_, r)| {
                (r.contains(" USB device number ") && r.contains(" using "))
                    || r.contains(" USB device using ")
            })
            .map(|(d, _)| d.to_string())
        {
            resets.push((dev, b.to_string()));
        } else if b.contains("ERROR Transfer event for disabled")
            || b.contains("ERROR Transfer event for unknown stream ring")
        {
            other.push(KernelEvent {
                kind: KernelEventKind::TransportError,
                line: b.to_string(),
                from: from.to_string(),
            });
        } else if b.starts_with("usb ") && b.contains(": USB disconnect, device number") {
            disconnects.push(KernelEvent {
                kind: KernelEventKind::TransportError,
                line: b.to_string(),
                from: from.to_string(),
            });
        }
    }
    let mut out: Vec<KernelEvent> = Vec::new();
    for (dev, line) in &resets {
        let n = resets.iter().filter(|(d, _)| d == dev).count();
        if n >= 2 || storage {
            out.push(KernelEvent {
                kind: KernelEventKind::LinkReset,
                line: line.clone(),
                from: from.to_string(),
            });
        }
    }
    out.extend(other);
    if storage || !out.is_empty() {
        out.extend(disconnects);
    }
    out
}

/// The USB enumeration failures of a log ([`is_usb_enumeration_failure`]) as transport
/// events, for a log that names no disk at all: a USB disk that never got as far as the
/// SCSI layer.
pub fn usb_enumeration_failures(log: &str, from: &str) -> Vec<KernelEvent> {
    log.lines()
        .map(strip_prefixes)
        .filter(|b| is_usb_enumeration_failure(&b.to_ascii_lowercase()))
        .map(|b| KernelEvent {
            kind: KernelEventKind::TransportError,
            line: b.trim().to_string(),
            from: from.to_string(),
        })
        .collect()
}

crate::rx!(
    PCI_FN_LINE,
    r"^([a-z][\w-]*) ([0-9a-fA-F]{4}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7]):"
);
crate::rx!(
    PCI_ADDR,
    r"\b[0-9a-fA-F]{4}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7]\b"
);
crate::rx!(AER_BIT, r"^\s*\[\s*\d+\]\s+[A-Za-z]");

// A PCIe Advanced Error Reporting line (drivers/pci/pcie/aer.c), after its "driver
// DDDD:BB:DD.F: " device prefix: the root port's report ("AER: Corrected error received:
// 0000:81:00.0" up to 6.x, "AER: Correctable error message received from 0000:81:00.0"
// since, "AER: Multiple Uncorrected (Non-Fatal) error received: id=00e0" in 3.x/4.x), the
// function's own decoding ("PCIe Bus Error: severity=Corrected, type=Physical Layer,
// (Receiver ID)", "severity=Correctable" in newer kernels; "  device [144d:a808] error
// status/mask=00000001/0000e000") and the status bits ("   [ 0] RxErr", older kernels
// "[ 0] Receiver Error (First)"). Only Linux prints these words; a block may start on one.
// The PCI core failing to bring a function back to D0: drivers/pci/pci.c pci_power_up
// (6.x: "nvme 0000:01:00.0: Unable to change power state from D3cold to D0, device
// inaccessible") and pci_raw_set_power_state (4.x-5.x: "can't change power state from D3hot
// to D0 (config space inaccessible)"): the function's config space read back all ones, so
// it is still powered off or fell off its link. Only Linux prints these words; the device
// prefix may be cut. Group 1 is the driver ("nvme", "pcieport"), group 2 the function.
crate::rx!(
    pub PCI_POWER_UP_FAILED,
    r"^(?:([a-z][\w-]*) ([0-9a-fA-F]{4}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7]): )?(?:Unable to|can't) change power state from D3(?:hot|cold) to D0(?:, device inaccessible| \(config space inaccessible\))"
);
crate::rx!(
    AER_REPORT,
    r"^[a-z][\w-]* [0-9a-fA-F]{4}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7]: (?:AER: [A-Z]|PCIe Bus Error: severity=|\s*device \[[0-9a-fA-F]{4}:[0-9a-fA-F]{4}\] error status/mask=|\s*\[\s*\d+\]\s+[A-Za-z])"
);

/// Whether a kernel line (prefixes stripped) is a PCIe AER report ([`AER_REPORT`]).
pub(crate) fn is_aer_report(body: &str) -> bool {
    AER_REPORT.is_match(body.trim_start())
}

/// The PCI functions bound to the nvme driver that report PCIe AER errors of their own
/// ("nvme 0000:81:00.0: PCIe Bus Error: severity=Correctable, type=Physical Layer"): an
/// NVMe drive whose link errs, even where the log has no "nvme nvme0:" line naming its
/// controller. Addresses in lower case, first seen first.
pub fn nvme_functions_with_aer(log: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for raw in log.lines() {
        let b = strip_prefixes(raw).trim();
        if !is_aer_report(b) {
            continue;
        }
        let Some(c) = PCI_FN_LINE.captures(b) else {
            continue;
        };
        if c.get(1).map(|m| m.as_str()) != Some("nvme") {
            continue;
        }
        let addr = c.get(2).map_or("", |m| m.as_str()).to_ascii_lowercase();
        if !out.contains(&addr) {
            out.push(addr);
        }
    }
    out
}

/// Errors on the PCIe link of the SATA controller the disks hang off: AER reports
/// (drivers/pci/pcie/aer.c: "AER: Corrected error received: 0000:00:00.0", "AER: Multiple
/// Uncorrected (Non-Fatal) error received", "PCIe Bus Error: severity=Corrected, type=Data
/// Link Layer, (Receiver ID)" and its decoded status bits "[ 7] BadDLLP", "[14] CmpltTO",
/// "[18] MalfTLP"; drivers/pci/pcie/err.c "AER: can't recover (no error_detected
/// callback)", "AER: device recovery failed"). They concern the disks when they concern
/// the controller: an AER line of an ahci function the log shows ("ahci 0000:01:00.0:
/// AER: ..."), or a log whose only PCI functions are the AER ports and the functions they
/// name (a paste of the storage lines, as a Raspberry Pi's single PCIe port with a SATA
/// card behind it prints them). A full boot log whose AER lines name another function (a
/// network card's port) gives nothing. Returns the lines as transport events.
pub fn pcie_path_failures(log: &str, from: &str) -> Vec<KernelEvent> {
    let mut aer_addrs: Vec<String> = Vec::new();
    let mut lines: Vec<&str> = Vec::new();
    let mut ahci: Vec<String> = Vec::new();
    let mut others: Vec<String> = Vec::new();
    for raw in log.lines() {
        let b = strip_prefixes(raw).trim();
        let Some(c) = PCI_FN_LINE.captures(b) else {
            // A driver line naming its function another way ("r8169 0000:03:00.0 eth0:").
            for m in PCI_ADDR.find_iter(b) {
                let a = m.as_str().to_ascii_lowercase();
                if !others.contains(&a) {
                    others.push(a);
                }
            }
            continue;
        };
        let driver = c.get(1).map_or("", |m| m.as_str());
        let addr = c.get(2).map_or("", |m| m.as_str()).to_ascii_lowercase();
        let rest = b.get(c.get(0).map_or(0, |m| m.end())..).unwrap_or("");
        let aer = rest.contains("PCIe Bus Error")
            || (rest.contains("AER:")
                && (rest.contains("rror received")
                    || rest.contains("rror message received")
                    || rest.contains("can't recover")
                    || rest.contains("recovery failed")))
            || (AER_BIT.is_match(rest) && !lines.is_empty());
        if aer {
            lines.push(b);
            for a in std::iter::once(addr.clone()).chain(
                PCI_ADDR
                    .find_iter(rest)
                    .map(|m| m.as_str().to_ascii_lowercase()),
            ) {
                if !aer_addrs.contains(&a) {
                    aer_addrs.push(a);
                }
            }
        }
        if driver == "ahci" {
            ahci.push(addr.clone());
        }
        if !aer && !others.contains(&addr) {
            others.push(addr);
        }
    }
    if lines.is_empty() {
        return Vec::new();
    }
    let of_ahci = ahci.iter().any(|a| aer_addrs.contains(a));
    let alone = others.iter().all(|a| aer_addrs.contains(a));
    if !(of_ahci || alone) {
        return Vec::new();
    }
    lines
        .into_iter()
        .map(|l| KernelEvent {
            kind: KernelEventKind::TransportError,
            line: l.to_string(),
            from: from.to_string(),
        })
        .collect()
}

/// Whether an event line is a PCIe-side report ([`pcie_path_failures`], or registers
/// reading all ones): the controller's link, not the SATA cable.
pub fn is_pcie_line(line: &str) -> bool {
    line.contains("AER:")
        || line.contains("PCIe Bus Error")
        || line.contains("FFFFFFFF")
        || line.contains("controller unavailable")
        || PCI_FN_LINE.is_match(line) && AER_BIT.is_match(line.split_once(": ").map_or("", |x| x.1))
}

/// libata ports with disk-health events in the log ("ata3: hard resetting link").
pub fn ports_with_events(log: &str) -> Vec<u32> {
    let mut out = Vec::new();
    for (_, port, kind) in port_lines(log) {
        if let Some(n) = port
            && kind.is_some()
            && !out.contains(&n)
        {
            out.push(n);
        }
    }
    out
}

// A discard the block layer completed with an error: blk_print_req_error (block/blk-core.c)
// prints "%s error, dev %s, sector %llu op 0x%x:(%s) flags ..." with the status's name from
// blk_errors ("I/O", "critical target", "critical medium", ...) and the operation's
// (REQ_OP_DISCARD is 3 in include/linux/blk_types.h): "critical target error, dev sdb,
// sector 1874855936 op 0x3:(DISCARD) flags 0x800 ...". The device took the discard and
// failed it. Group 1 is the status, group 2 the device.
crate::rx!(
    pub DISCARD_FAILED,
    r"\b([a-z][a-z/ ]*) error, dev (\w+), sector \d+ op 0x3:\(DISCARD\)"
);

// FreeBSD CAM's error report names the failed command on a line of its own, after the CAM
// path: cam_error_print (sys/cam/cam.c) prints ata_cmd_string's "%s. ACB: ..." or
// scsi_command_string's "%s. CDB: ...", then "(path): CAM status: ...". ata_op_string
// (sys/cam/ata/ata_all.c) names opcode 06h with features 01h "DSM TRIM" (07h "DSM_XL
// TRIM"), and the queued form 64h "SEND_FPDMA_QUEUED" with its sub-command ("DATA SET
// MANAGEMENT"); scsi_op_desc names 42h "UNMAP". Group 1 is the CAM path, group 2 the
// periph ("ada0").
crate::rx!(
    CAM_TRIM_COMMAND,
    r"(\((\w+?\d+):[\w-]+:\d+:\d+:\d+\)): (?:DSM(?:_XL)? TRIM|SEND_FPDMA_QUEUED (?:DATA SET MANAGEMENT|DSM TRIM)|UNMAP)\. (?:ACB|CDB):"
);

// libata's error report (drivers/ata/libata-eh.c ata_eh_link_report) prints
// "ata1.00: failed command: %s" with ata_get_cmd_name's name of the opcode: "DATA SET
// MANAGEMENT" (06h, TRIM) or "SEND FPDMA QUEUED" (64h, which libata issues only for queued
// TRIM, ata_scsi_write_same_xlat). Group 1 is the port ("ata1").
crate::rx!(
    LIBATA_FAILED_TRIM,
    r"\b(ata\d+)(?:\.\d+)?: failed command: (?:DATA SET MANAGEMENT|SEND FPDMA QUEUED)\b"
);

/// TRIM commands the kernel reports failed, once per device: (device, index into `lines`
/// of the line naming the command). FreeBSD's CAM path names the disk ("ada0"); a CAM
/// command line counts only with its own path's "CAM status:" line within the next four
/// lines (the report cam_error_print prints only for a command that failed). libata names
/// the port ("ata1"), for the caller to tie to its disk.
pub fn failed_trims(lines: &[&str]) -> Vec<(String, usize)> {
    let mut out: Vec<(String, usize)> = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let dev = if let Some(c) = LIBATA_FAILED_TRIM.captures(l) {
            c.get(1).map(|m| m.as_str().to_string())
        } else if let Some(c) = CAM_TRIM_COMMAND.captures(l) {
            let (Some(path), Some(periph)) = (c.get(1), c.get(2)) else {
                continue;
            };
            let status = format!("{}: CAM status:", path.as_str());
            // A paste may carry the status on the command's own line: a console without
            // line breaks, or a mail client that re-joined the two.
            let same_line = l
                .get(path.end()..)
                .is_some_and(|rest| rest.contains(&status));
            (same_line
                || lines
                    .iter()
                    .skip(i.saturating_add(1))
                    .take(4)
                    .any(|x| x.contains(&status)))
            .then(|| periph.as_str().to_string())
        } else {
            None
        };
        if let Some(d) = dev
            && !out.iter().any(|(x, _)| *x == d)
        {
            out.push((d, i));
        }
    }
    out
}

/// Disks the log names: "sd H:C:T:L: [sdb] ..." attach lines and the block layer's
/// "I/O error, dev sda, sector N" (a partition counts for its disk), once each, in order.
pub fn disks_named(log: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut push = |n: String| {
        if !n.is_empty() && !out.contains(&n) {
            out.push(n);
        }
    };
    for raw in log.lines() {
        let b = strip_prefixes(raw);
        if let Some(rest) = b.strip_prefix("sd ").or_else(|| b.strip_prefix("sr "))
            && let Some((_, tail)) = rest.split_once(": [")
            && let Some((name, _)) = tail.split_once(']')
            && (is_sd_name(name) || is_optical_name(name))
            && (is_optical_name(name) == b.starts_with("sr "))
        {
            push(name.to_string());
        }
        // The same scmd_printk line without its "sd H:C:T:L: " head ("[sda] tag#7
        // uas_zap_pending ...", LINUX_DMESG_BARE).
        if let Some(rest) = b.strip_prefix('[')
            && let Some((name, tail)) = rest.split_once(']')
            && tail.starts_with(" tag#")
            && is_sd_name(name)
        {
            push(name.to_string());
        }
        if let Some(m) = md_member(b) {
            let disk = m.trim_end_matches(|c: char| c.is_ascii_digit());
            if is_sd_name(disk) && classify(b).is_some() {
                push(disk.to_string());
            }
        }
        if let Some(i) = b.find(", dev ").or_else(|| b.find("error on dev ")) {
            let after = b.get(i..).unwrap_or("");
            let after = after.split_once("dev ").map(|x| x.1).unwrap_or("");
            let name: String = after
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric())
                .collect();
            if let Some(d) = block_disk_of(&name) {
                push(d.to_string());
            }
        }
        // A filesystem's own report of a failed request, with no block-layer line beside
        // it ([`fs_io_error_device`]): the disk under the filesystem.
        if let Some(d) = fs_io_error_device(b).and_then(block_disk_of) {
            push(d.to_string());
        }
        // The IDE driver's drives (drivers/ide, kernels up to 3.x): "hda: ST380011A, ATA
        // DISK drive" (ide-probe.c) or an error line of the drive ([`ide_status`]).
        if let Some((name, rest)) = b.split_once(':')
            && is_ide_name(name)
            && (rest.contains("ATA DISK drive") || classify(b).is_some())
        {
            push(name.to_string());
        }
    }
    // MMC cards whose own or host's lines report errors ("mmcblk0: error -110 sending stop
    // command", or "mmc0: ..." of the card's host, mmc::host_for).
    for card in mmc::cards_with_errors(log) {
        push(card);
    }
    out
}

/// The disk of a block device name the kernel printed (a partition counts for its disk):
/// sda3 is on sda, vdb1 on vdb, mmcblk0p2 on mmcblk0, rbd0p1 on rbd0, loop0p1 on loop0.
/// None for a name that is no disk diskdoc reads (dm-0, md0: layers over disks the log
/// names itself). A loop device is a file's disk ([`is_loop_device`]): its failed requests
/// are its own, the file's, with no other disk's line beside them.
pub(crate) fn block_disk_of(name: &str) -> Option<&str> {
    let disk = name.trim_end_matches(|c: char| c.is_ascii_digit());
    if is_sd_name(disk) || is_ide_name(disk) || is_virtual_disk_name(disk) {
        return Some(disk);
    }
    if is_optical_name(name) {
        return Some(name);
    }
    numbered_disk_of(name)
}

/// A SCSI CD/DVD drive's name, "sr%d" (drivers/scsi/sr.c sr_probe; no partitions): its
/// failed reads are the disc's or the drive's as a disk's are, and the sd-style lines of
/// sr.c and scsi_logging name it the same way ("sr 1:0:0:0: [sr0] ...").
fn is_optical_name(n: &str) -> bool {
    n.strip_prefix("sr")
        .is_some_and(|r| !r.is_empty() && r.len() <= 3 && r.bytes().all(|c| c.is_ascii_digit()))
}

/// The disk of a block device name whose disk name ends in a unit number: the MMC/SD card
/// mmcblk0 (drivers/mmc/core/block.c "mmcblk%u") and the network block devices
/// ([`network_block_device`]), or a partition of one (the disk name ends in a digit, so a
/// partition takes a "p": block/partitions/core.c). NVMe names have their own reader
/// ([`nvme_disks_named`]). None for any other name.
fn numbered_disk_of(name: &str) -> Option<&str> {
    let digits = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
    let numbered = |b: &str| {
        ["mmcblk", "rbd", "nbd", "drbd", "loop"]
            .iter()
            .any(|p| b.strip_prefix(p).is_some_and(digits))
    };
    let base = match name.rsplit_once('p') {
        Some((b, part)) if digits(part) && numbered(b) => b,
        _ => name,
    };
    numbered(base).then_some(base)
}

/// A loop device ("loop%d", drivers/block/loop.c loop_add; a partition "loop0p1"): a disk
/// whose blocks are a file of another filesystem. The driver turns each request into a read
/// or write of that file (lo_read_simple / lo_write_bvec, "loop: Write error at byte offset
/// N, length M." when the write came back short or failed), so a failed request is the
/// backing file's: its filesystem full, read-only or failing, not a medium of the loop
/// device's own.
pub fn is_loop_device(name: &str) -> bool {
    numbered_disk_of(name).is_some_and(|d| d.starts_with("loop"))
}

/// What a network block device is, by its name: a volume another machine serves over the
/// network, so its failed requests are the cluster's, the server's or the network's, no
/// drive's of this machine. Ceph's kernel RBD client names its disks "rbd%d"
/// (drivers/block/rbd.c rbd_dev_device_setup, RBD_DRV_NAME "%d"), the network block device
/// driver "nbd%d" (drivers/block/nbd.c nbd_dev_add) and DRBD "drbd%d"
/// (drivers/block/drbd/drbd_main.c drbd_create_device). Partitions (rbd0p1) count for their
/// disk.
pub fn network_block_device(name: &str) -> Option<NetworkBlockDevice> {
    let disk = numbered_disk_of(name)?;
    if disk.starts_with("rbd") {
        Some(NetworkBlockDevice::CephRbd)
    } else if disk.starts_with("nbd") {
        Some(NetworkBlockDevice::Nbd)
    } else if disk.starts_with("drbd") {
        Some(NetworkBlockDevice::Drbd)
    } else {
        None
    }
}

/// The kinds of network block device ([`network_block_device`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NetworkBlockDevice {
    /// A Ceph RBD image mapped by the kernel client (krbd).
    CephRbd,
    /// A volume an NBD server exports (nbd-server, qemu-nbd).
    Nbd,
    /// A DRBD volume replicated to a peer over the network.
    Drbd,
}

impl NetworkBlockDevice {
    /// The controller description facts give such a disk; checks read it back with
    /// [`NetworkBlockDevice::from_description`].
    pub const fn description(self) -> &'static str {
        match self {
            NetworkBlockDevice::CephRbd => {
                "Ceph RBD image mapped by the kernel client (a volume a Ceph cluster serves over the network)"
            }
            NetworkBlockDevice::Nbd => {
                "network block device (a volume an NBD server exports over the network)"
            }
            NetworkBlockDevice::Drbd => {
                "DRBD volume (a disk replicated to a peer node over the network)"
            }
        }
    }

    /// The kind whose [`description`](NetworkBlockDevice::description) this is.
    pub fn from_description(s: &str) -> Option<NetworkBlockDevice> {
        [
            NetworkBlockDevice::CephRbd,
            NetworkBlockDevice::Nbd,
            NetworkBlockDevice::Drbd,
        ]
        .into_iter()
        .find(|k| k.description() == s)
    }
}

/// The buffer cache's line for a block whose request failed (fs/buffer.c: "Buffer I/O
/// error on dev sda1, logical block N, lost async page write", "async page read"): the
/// consequence of the request's error, with no status of its own.
pub fn is_buffer_io_error(line: &str) -> bool {
    line.to_ascii_lowercase()
        .contains("buffer i/o error on dev")
}

/// The block device a filesystem's own I/O error line names, when the line reports a
/// request the device failed (the filesystem saw the error; no status says why):
/// fs/jbd2/commit.c "JBD2: Detected IO errors while flushing file data on sda1-8" and
/// journal.c "JBD2: I/O error when updating journal superblock for sda1-8." (j_devname is
/// the device and the journal's inode, "%pg-%lu"); fs/ext4 "EXT4-fs (sda1): I/O error while
/// writing superblock" (ext4_commit_super) and page-io.c ext4_end_bio "EXT4-fs warning
/// (device sda1): ext4_end_bio:348: I/O error 10 writing to inode 12 starting block 34)";
/// fs/xfs "XFS (sdb1): metadata I/O error in \"xfs_buf_ioend\" at daddr 0x10 len 8 error 5"
/// (older kernels: "metadata I/O error: block 0x10 (...) error 5 numblks 8"); fs/buffer.c
/// before 4.x "Buffer I/O error on device sda1, logical block 8" (later "on dev sda1",
/// which the block-layer reading already takes).
pub fn fs_io_error_device(body: &str) -> Option<&str> {
    let b = body.trim();
    if let Some(rest) = b.strip_prefix("JBD2: ") {
        let low = rest.to_ascii_lowercase();
        let tail = if low.starts_with("detected io errors while flushing file data on ") {
            rest.rsplit_once(" on ")?.1
        } else if low.contains("i/o error when updating journal superblock for ")
            || low.contains("detected when updating journal superblock for ")
        {
            rest.rsplit_once(" for ")?.1
        } else {
            return None;
        };
        let dev = tail.trim_end_matches('.').trim();
        // "sda1-8": the device, then the journal's inode number.
        let (dev, ino) = dev.rsplit_once('-')?;
        return (!ino.is_empty() && ino.bytes().all(|c| c.is_ascii_digit())).then_some(dev);
    }
    if let Some(rest) = b.strip_prefix("Buffer I/O error on device ") {
        return rest.split([',', ' ']).next().filter(|d| !d.is_empty());
    }
    let (dev, rest) = if let Some(r) = b.strip_prefix("EXT4-fs warning (device ") {
        r.split_once("): ")?
    } else if let Some(r) = b.strip_prefix("EXT4-fs (") {
        r.split_once("): ")?
    } else if let Some(r) = b.strip_prefix("XFS (") {
        r.split_once("): ")?
    } else {
        return None;
    };
    let low = rest.to_ascii_lowercase();
    // XFS prints its verifiers' failures through the same line with "error 117"
    // (EFSCORRUPTED): damaged metadata read back fine, not a failed request. Only EIO (5) is
    // the device's.
    let xfs_eio = || {
        low.rsplit_once(" error ")
            .and_then(|(_, r)| r.split_whitespace().next())
            .filter(|n| n.bytes().all(|c| c.is_ascii_digit()))
            .is_none_or(|n| n == "5")
    };
    (low.starts_with("i/o error while writing superblock")
        || (low.starts_with("ext4_end_bio:") && low.contains(": i/o error "))
        || (low.starts_with("metadata i/o error") && xfs_eio()))
    .then_some(dev)
}

/// An IDE drive name of the old Linux IDE driver: hda .. hdz, hdaa ..
fn is_ide_name(n: &str) -> bool {
    n.strip_prefix("hd")
        .is_some_and(|r| (1..=2).contains(&r.len()) && r.chars().all(|c| c.is_ascii_lowercase()))
}

/// The controller of an NVMe disk name: "nvme0n1" and "nvme0" are both on "nvme0".
pub fn nvme_controller_of(disk: &str) -> Option<&str> {
    let rest = disk.strip_prefix("nvme")?;
    let digits = rest.chars().take_while(|c| c.is_ascii_digit()).count();
    let tail = rest.get(digits..)?;
    let ns_ok = tail.is_empty()
        || tail
            .strip_prefix('n')
            .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
    (digits > 0 && ns_ok)
        .then(|| disk.get(..4 + digits))
        .flatten()
}

/// The NVMe drives the log names: a namespace ("nvme0n1: ...", "dev nvme0n1") once each, and
/// a controller ("nvme nvme2: ...") whose namespaces the log does not name, in order.
pub fn nvme_disks_named(log: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut ctrls: Vec<String> = Vec::new();
    for raw in log.lines() {
        let b = strip_prefixes(raw);
        let mut names: Vec<&str> = Vec::new();
        if let Some(r) = b.strip_prefix("nvme ")
            && let Some((c, _)) = r.split_once(':')
        {
            names.push(c);
        }
        names.extend(b.split_once(':').map(|(n, _)| n));
        if let Some(i) = b.find("dev nvme") {
            let n = b.get(i + 4..).unwrap_or("");
            let end = n
                .find(|c: char| !c.is_ascii_alphanumeric())
                .unwrap_or(n.len());
            names.push(n.get(..end).unwrap_or(""));
        }
        for n in names {
            // A partition (nvme0n1p2) is on its namespace.
            let n = n.split('p').next().unwrap_or(n);
            let Some(ctrl) = nvme_controller_of(n) else {
                continue;
            };
            if n == ctrl {
                if !ctrls.iter().any(|c| c == ctrl) {
                    ctrls.push(ctrl.to_string());
                }
            } else if !out.iter().any(|o| o == n) {
                out.push(n.to_string());
            }
        }
    }
    for c in ctrls {
        if !out
            .iter()
            .any(|o| nvme_controller_of(o) == Some(c.as_str()))
        {
            out.push(c);
        }
    }
    out
}

crate::rx!(
    PCIE_LIMITED,
    r"(?:pci|nvme) ([0-9a-fA-F]{4}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7]): [\d.]+ Gb/s available PCIe bandwidth, limited by ([\d.]+) GT/s (?:PCIe )?x(\d+) link at ([0-9a-fA-F:.]+) \(capable of [\d.]+ Gb/s with ([\d.]+) GT/s (?:PCIe )?x(\d+) link\)"
);

/// The PCI core's bandwidth line (drivers/pci/pci.c __pcie_print_link_status, printed at
/// enumeration): "pci 0004:41:00.0: 2.000 Gb/s available PCIe bandwidth, limited by 2.5 GT/s
/// PCIe x1 link at 0004:40:00.0 (capable of 15.752 Gb/s with 8.0 GT/s PCIe x2 link)" (kernels
/// before 5.8 print "2.5 GT/s x1" without "PCIe"). Returns, per such line of an NVMe
/// function (class 0108h in the "pci ADDR: [vvvv:dddd] type 00 class 0x010802" line, or the
/// nvme driver's own "nvme ADDR:" lines), the function's address as hop 0 of its path, its
/// current link the one the kernel found limiting and its maximum the device's own
/// capability: the bandwidth the drive can get is bounded by the limiting link wherever it
/// sits on the path. The nvme driver's "nvme nvme0: pci function 0000:04:00.0" line (below)
/// also marks the function as an NVMe controller.
pub fn nvme_pcie_limits(log: &str) -> Vec<crate::model::PcieLink> {
    let nvme_fn = |addr: &str| {
        nvme_controller_at(log, addr).is_some()
            || log.lines().any(|raw| {
                let b = strip_prefixes(raw);
                b.strip_prefix("nvme ").is_some_and(|r| r.starts_with(addr))
                    || (b.strip_prefix("pci ").is_some_and(|r| r.starts_with(addr))
                        && b.contains(" class 0x0108"))
            })
    };
    let mut out: Vec<crate::model::PcieLink> = Vec::new();
    for raw in log.lines() {
        let b = strip_prefixes(raw);
        let Some(c) = PCIE_LIMITED.captures(b) else {
            continue;
        };
        let get = |i: usize| c.get(i).map_or("", |m| m.as_str());
        let addr = get(1);
        if !nvme_fn(addr) || out.iter().any(|l| l.address == addr) {
            continue;
        }
        out.push(crate::model::PcieLink {
            address: addr.to_string(),
            hop: 0,
            current_gts: get(2).parse().ok(),
            current_width: get(3).parse().ok(),
            max_gts: get(5).parse().ok(),
            max_width: get(6).parse().ok(),
            marked_downgraded: false,
        });
    }
    out
}

/// The NVMe controller (nvme0) the log ties to the PCI function `addr`: the nvme driver's
/// probe prints "nvme nvme0: pci function 0000:04:00.0" (drivers/nvme/host/pci.c nvme_probe,
/// `dev_info(dev->ctrl.device, "pci function %s\n", dev_name(&pdev->dev))`), the one line
/// that names both the controller and its function.
pub fn nvme_controller_at(log: &str, addr: &str) -> Option<String> {
    log.lines().find_map(|raw| {
        let b = strip_prefixes(raw).trim_end();
        let (ctrl, rest) = b.strip_prefix("nvme ")?.split_once(": pci function ")?;
        (rest == addr && nvme_controller_of(ctrl) == Some(ctrl)).then(|| ctrl.to_string())
    })
}

/// A paravirtual disk name: virtio-blk's vda.. (drivers/block/virtio_blk.c virtblk_name_format
/// "vd") and Xen's blkfront xvda.. (drivers/block/xen-blkfront.c, "xvd"); the block layer's
/// error lines name them like any disk ("I/O error, dev vda, sector 0").
pub fn is_virtual_disk_name(n: &str) -> bool {
    n.strip_prefix("xvd")
        .or_else(|| n.strip_prefix("vd"))
        .is_some_and(|r| !r.is_empty() && r.len() <= 3 && r.chars().all(|c| c.is_ascii_lowercase()))
}

fn is_sd_name(n: &str) -> bool {
    n.strip_prefix("sd")
        .is_some_and(|r| !r.is_empty() && r.len() <= 3 && r.chars().all(|c| c.is_ascii_lowercase()))
}

/// FreeBSD: the channel SIM of a CAM disk ("ahcich7" from "(ada2:ahcich7:0:0:0):" or from
/// the attach line "ada2 at ahcich7 bus 0 scbus7 target 0 lun 0", cam_periph.c
/// cam_periph_announce), so that channel lines ("ahcich7: Timeout on slot ...") count for
/// the disk.
pub fn cam_channel_for(disk: &str, log: &str) -> Option<String> {
    let tag = format!("({disk}:");
    let attach = format!("{disk} at ");
    ad_channel_for(disk, log).or_else(|| cam_sim_for(&tag, &attach, log))
}

/// The ata(4) channel of an ad(4) disk of FreeBSD 4-8: its attach line "ad4: 30520MB
/// <MTRON MSD-SATA3525 0.19R1H2> at ata2-master UDMA100" (ata-disk.c ad_describe), else the
/// numbering of `options ATA_STATIC_ID` (in GENERIC up to FreeBSD 8): adN is the master (N
/// even) or slave (N odd) of channel ata(N/2), so "ata20: hardware reset timeout" is ad40's.
fn ad_channel_for(disk: &str, log: &str) -> Option<String> {
    let n: u32 = disk
        .strip_prefix("ad")
        .filter(|r| !r.is_empty() && r.chars().all(|c| c.is_ascii_digit()))?
        .parse()
        .ok()?;
    let head = format!("{disk}: ");
    let attached = log.lines().find_map(|raw| {
        let b = strip_prefixes(raw);
        let rest = b.strip_prefix(&head)?;
        let at = rest.find("> at ata")?;
        let chan: String = rest
            .get(at + "> at ".len()..)?
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        (chan.len() > 3).then_some(chan)
    });
    attached.or_else(|| Some(format!("ata{}", n / 2)))
}

fn cam_sim_for(tag: &str, attach: &str, log: &str) -> Option<String> {
    log.lines().find_map(|raw| {
        let b = strip_prefixes(raw);
        let rest = match b.strip_prefix(attach) {
            Some(r) if r.contains(" bus ") => r,
            _ => b.get(b.find(tag)? + tag.len()..)?,
        };
        let chan: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
            .collect();
        (!chan.is_empty()).then_some(chan)
    })
}

// ---- the Linux kernel log's source spec (see sources::spec) ----
use crate::sources::spec;

// The journal's short-monotonic form puts the stamp before the tag: "[  170.467178] kernel:
// sd 0:0:0:0: ..." (journalctl -o short-monotonic -k); dmesg -T prints "[Tue Oct 27
// 08:51:30 2020] "; RFC 5424 syslog "<3>1 2020-12-02T21:55:55.868+01:00 host kernel - - - ";
// a log whose stamps and host were cut away keeps "kernel: " alone. The BSD-style syslog
// stamp may carry fractions of a second ("Dec 17 07:41:00.384 host kernel:", syslog-ng's
// frac-digits() and rsyslog's high-precision templates). An ISO 8601 stamp comes from
// rsyslog's default file format since v8, `journalctl -o short-iso(-precise)`
// ("2026-02-05T14:51:03+0100 host kernel: ") and syslog daemons' RFC 3339 templates, with or
// without the host ("2026-02-05 14:51:03 kernel: "); metalog writes the program in brackets
// after the stamp ("Aug 28 18:47:09 [kernel] usb 4-5: ...", metalog.c's "%s [%s] %s" line).
// An excerpt that starts inside the first line keeps the stamp without its "[" ("1982.874590]
// ata5.00: ...": printk.c prints "[%5lu.%06lu] ", so six digits after the dot).
// journalctl and syslog print the month in the locale's abbreviation (strftime's %b: "nov. 19
// 05:21:27 mini kernel:" under fr_FR, "Dez 4" under de_DE, "févr." with a non-ASCII letter),
// and a poster may cut the date and keep the time ("00:31:12 HTPC kernel: [ 1914.65] ...").
// Between the stamp (and its year) and the tag a syslog template may put a field more than
// the host: the facility and level (FreeBSD syslogd -v "<kern.crit> host kernel:", syslog-ng's
// "$HOST $FACILITY.$PRIORITY" templates) or the year again ("Jun 12 15:23:30 2011 barracuda
// 2011 kernel: ..." of a grep of /var/log/messages): up to two words are read as header.
// FreeBSD before 5.0 booted /kernel and syslogd tagged its lines with that path: "Feb 21
// 22:11:22 tuatara /kernel: da0 at umass-sim0 bus 0 target 0 lun 0".
// util-linux dmesg's own decorations: -x/--decode's "kern  :info  : " (print_record
// "%-6s:%-6s: ") and --reltime's "[Jan13 04:31]" and "[  +0.010370]". A blog that trims
// -T's ctime to the time and year keeps "[08:32:30 2021] " (the weekday, month and day cut).
// dmesg --time-format=iso and log shippers put a bare ISO 8601 stamp first
// ("2017-10-09T07:30:25,651011+00:00 ", "2017-10-09T07:30:25+0000: "), no tag after it.
crate::rx!(
    pub LINUX_PREFIX,
    r"^(?:\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d\S*\s+(?:\S+\s+)?kernel:\s*|\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d{1,9})?(?:Z|[+-]\d\d:?\d\d)?:?\s+|(?:\w{3}\s+)?\w{3}\s+\d+\s+[\d:]+(?:[.,]\d{1,9})?\s+\[kernel\]\s+|\[\s*\d+\.\d+\]\s*(?:kernel:\s*)?|\d+\.\d{6}\]\s+|\[(?:\w{2,5}\.? \w{2,5}\.? [ \d]\d )?\d\d:\d\d:\d\d \d{4}\]\s*|<\d{1,3}>1 \d{4}-\d\d-\d\dT\S+ \S+ kernel - - - |(?:\w{2,5}\.?\s+)?\w{3,5}\.?\s+\d+\s+[\d:]+(?:[.,]\d{1,9})?\s+(?:\d{4}\s+)?(?:\S+\s+){0,2}/?kernel:\s*|\d\d?:\d\d:\d\d(?:[.,]\d{1,9})?\s+(?:\S+\s+)?kernel:\s*|(?:[\w.-]+\s+)?kernel:\s+|<\d{1,3}>|(?:kern|user|mail|daemon|auth|syslog|lpr|news|uucp|cron|authpriv|ftp|local[0-7])\s*:\s*(?:emerg|alert|crit|err|warn|notice|info|debug)\s*:\s*|\[\s*\+\d+\.\d+\]\s*|\[[A-Z][a-z]{2}\s?\d{1,2} \d\d:\d\d\]\s*)"
);
crate::rx!(
    // libata-core.c ata_host_register prints "ataN: %cATA max MODE ..." with P for a parallel
    // port, and ata_dev_configure "ataN.DD: ATAPI: ..."; ata_dev_xfermask "limited to UDMA/33
    // due to 40-wire cable": Linux lines, though FreeBSD names its channels ataN too. The
    // first libata error handler (2.6.17 libata-eh.c) reported a failed command as "ata1.00:
    // tag 0 cmd 0x25 Emask 0x4 stat 0x40 err 0x0 (timeout)" (ata_eh_report) and its resets
    // as "ata1: soft resetting port" / "hard resetting port" (ata_eh_reset). Before the new
    // error handler, libata-scsi.c ata_to_sense_error reported a failed command as "ata1:
    // translated ATA stat/err 0x51/84 to SCSI SK/ASC/ASCQ 0xb/47/00", a line only Linux prints.
    // Before 3.17 the SCSI midlayer registered a host as "scsi0 : ata_piix" (printk "scsi%d :
    // %s", scsi_host.c), and libata's drivers announced themselves bare ("libata version
    // 1.02 loaded.", "ata_piix: combined mode detected", "sata_via 0000:00:0f.0: version").
    // A command's lines from the SCSI midlayer (scmd_printk, drivers/scsi/scsi_logging.c:
    // "sd 2:0:0:0: [sda] tag#7 ...", the disk's name and the command's tag after the device
    // prefix) often reach a post without their "sd H:C:T:L: " head ("[sda] tag#7
    // uas_zap_pending 0 uas-tag 13 inflight: CMD", "[sdb] tag#0 FAILED Result: ..."): the
    // bracketed sd name followed by "tag#" is Linux's alone.
    // The LSI Fusion-MPT drivers name themselves by module and IOC ("mptbase: ioc0: ",
    // drivers/message/fusion/mptbase.c MYIOC_s_FMT "%s: ") and mpt2sas/mpt3sas by their
    // controller ("mpt3sas_cm0: "): Linux's; FreeBSD's are mpt(4), mps(4) and mpr(4).
    // The HP Smart Array driver drivers/block/cciss.c (Linux only; FreeBSD's is ciss(4))
    // prints "cciss: cmd ... has CHECK CONDITION ..." and, through dev_warn, "cciss
    // 0000:05:00.0: ...".
    pub LINUX_DMESG_BARE,
    r"^(?:scsi\d+ : [\w-]|cciss(?:: | [0-9a-f]{4}:[0-9a-f]{2}:)|libata version \d|(?:ata_piix|ata_generic|pata_[a-z0-9]+|sata_[a-z0-9]+)(?:: | [0-9a-f]{4}:[0-9a-f]{2}:)|ata\d+(?:\.\d+)?: (?:SATA|PATA max|ATAPI: |limited to |ATA-|FORCE: |configured|exception|status|translated ATA stat/err |dev \d+ (?:cfg |ATA-|configured)|cmd|error|failed|hard resetting|soft resetting port|tag \d+ cmd 0x|limiting|COMRESET|softreset|link|EH|irq_stat|SError|\d+ sectors|Features|supports|Model|NCQ|DMA|qc timeout|found unknown|revalidation)|sd \d+:\d+:\d+:\d+: |\[sd[a-z]{1,3}\] tag#\d+ |scsi \d+:\d+:\d+:\d+: |scsi host\d+: |mpt(?:base|sas|scsih|spi|ctl): ioc\d+: |mpt[23]sas(?:_cm)?\d+: |usb-storage \d+-[\d.]+:|usb \d+-[\d.]+: |ahci \d{4}:|nvme nvme\d+|blk_update_request|print_req_error|Buffer I/O error|end_request|I/O error, dev|critical (?:target|medium|nexus|space allocation) error, dev |Linux version \d|hd[a-z]{1,2}:\s?(?:hd[a-z]{1,2}:\s)?(?:[\w ]+: (?:status|error)=0x[0-9a-fA-F]{2}|lost interrupt|DMA timeout error|dma_timer_expiry|irq timeout|[\w ]+: bad DMA status|DMA disabled|.*, ATA DISK drive)|ide\d+: reset|ide: failed opcode)"
);

crate::rx!(LIBATA_PORT, r"^ata\d+(?:\.\d{2})?: ");

// libata error-handler messages whose "ataN: " / "ataN.DD: " prefix the paste lost (a
// `cut`, an awk on the text after the colon, a forum quote of the message only): the
// formats of libata-eh.c ata_eh_link_report ("exception Emask 0x%x SAct 0x%x SErr 0x%x
// action 0x%x", "failed command: %s", "cmd %02x/%02x:...", "res %02x/%02x:...", "status:
// { DRDY }", "error: { ABRT }"), ata_eh_reset ("hard resetting link", "soft resetting
// link"), ata_eh_flush_cache ("retrying FLUSH 0x%x Emask 0x%x"), libata-sata.c
// sata_print_link_status ("SATA link up 1.5 Gbps (SStatus 113 SControl 310)", "SATA link
// down (SStatus 0 SControl 300)"), libata-core.c ata_dev_set_mode ("configured for
// UDMA/33") and the handler's last line ("EH complete"). A block may start only on a line
// that reports an error (LIBATA_EH_UNPREFIXED_START); the others are members.
crate::rx!(
    LIBATA_EH_UNPREFIXED_START,
    r"^(?:exception Emask 0x[0-9a-fA-F]+ SAct 0x[0-9a-fA-F]+ SErr 0x[0-9a-fA-F]+ action 0x[0-9a-fA-F]+|failed command: [A-Z][A-Z0-9 ]+$|hard resetting link$)"
);
crate::rx!(
    LIBATA_EH_UNPREFIXED,
    r"^(?:exception Emask 0x[0-9a-fA-F]+ SAct 0x[0-9a-fA-F]+ SErr 0x[0-9a-fA-F]+ action 0x[0-9a-fA-F]+|failed command: [A-Z][A-Z0-9 ]+$|(?:hard|soft) resetting link$|SATA link (?:up \d+(?:\.\d+)? Gbps |down )\(SStatus [0-9A-Fa-f]+ SControl [0-9A-Fa-f]+\)|configured for (?:UDMA|MWDMA|PIO)[\w/]*|EH complete$|(?:status|error): \{ [A-Za-z ]+ \}$|retrying FLUSH 0x[0-9a-fA-F]+ Emask 0x[0-9a-fA-F]+|(?:cmd|res) [0-9a-fA-F]{2}/[0-9a-fA-F]{2}:[0-9a-fA-F]{2}:)"
);

/// The events of a kernel log made of libata error-handler lines without their port
/// prefix ([`LIBATA_EH_UNPREFIXED`]): a log that names no port and no disk, whose events
/// come from those lines, concerns the one drive the poster pasted them about.
pub fn unprefixed_libata_events(log: &str, from: &str) -> Vec<KernelEvent> {
    if !ports_in(log).is_empty() || !disks_named(log).is_empty() {
        return Vec::new();
    }
    port_lines(log)
        .into_iter()
        .filter(|(body, port, _)| port.is_none() && LIBATA_EH_UNPREFIXED.is_match(body.trim()))
        .filter_map(|(body, _, kind)| {
            Some(KernelEvent {
                kind: kind?,
                line: body.trim().to_string(),
                from: from.to_string(),
            })
        })
        .collect()
}

// The kernel's lines of a system sleep transition, which say when a disk's timeouts came
// (sources::power_log::nvme_sleep_transition_lines): kernel/power/suspend.c ("PM: suspend
// entry (deep)", "PM: suspend exit"), hibernate.c ("PM: hibernation entry"), main.c ("PM:
// Syncing filesystems", "Filesystems sync: 0.000 seconds"), process.c ("Freezing user space
// processes", "Restarting tasks ... done."), the OOM killer's "OOM killer disabled."/
// "enabled.", drivers/acpi/sleep.c ("ACPI: PM: Preparing to enter system sleep state S3",
// "ACPI: PM: Waking up from system sleep state S3", "ACPI: PM: Low-level resume complete",
// without "PM: " before 5.x), drivers/acpi/ec.c ("ACPI: EC: interrupt blocked") and
// drivers/thermal/intel/intel_pch_thermal.c ("CPU-PCH is cool [47C], continue to suspend").
// All are Linux's own words.
crate::rx!(
    LINUX_SLEEP,
    r"^(?:PM: (?:suspend (?:entry|exit)|hibernation (?:entry|exit)|Syncing filesystems|suspend devices took|resume devices took)|Filesystems sync: |Freezing (?:user space processes|remaining freezable tasks)|Restarting tasks|OOM killer (?:dis|en)abled\.|ACPI: (?:PM: )?(?:Preparing to enter system sleep state|Waking up from system sleep state|Low-level resume complete)|ACPI: EC: interrupt (?:un)?blocked|intel_pch_thermal [0-9a-f:.]+: CPU-PCH is \w+ \[\d+C\], continue to suspend)"
);

// Linux's own storage-path drivers and layers, behind a kernel log prefix: USB host
// controllers (xhci_hcd, ehci-pci: a "HC died" takes every USB disk with it), the SCSI
// midlayer, md (drivers/md/raid*.c "md/raid:md0: ..."), device-mapper and the filesystems'
// I/O error lines. The SD/MMC core's lines are mmc::LINUX_MMC's. The iSCSI initiator's
// connection and session devices, the LSI/Broadcom SAS HBA driver ("mpt3sas_cm0: ...",
// "mpt2sas0: ...", [`sas_log_info`]) (scsi_transport_iscsi.c names them "connection%d:%d" and
// "session%d": "connection5:0: ping timeout of 5 secs expired", libiscsi.c
// iscsi_check_transport_timeouts; "detected conn error (1022)", iscsi_conn_error_event;
// "session7: session recovery timed out after 120 secs", session_recovery_timedout).
crate::rx!(
    LINUX_STORAGE_DRIVER,
    r"^(?:xhci_hcd |ehci[-_](?:pci|hcd|platform) |mpt[23]sas(?:_cm)?\d+: |scsi |connection\d+:\d+: |session\d+: |md/raid\d*:|md: |md\d+: |device-mapper: |EXT4-fs (?:error|warning|\()|XFS \(|BTRFS (?:error|warning|info) |JBD2: )"
);

// What a Windows Subsystem for Linux (WSL2) guest's kernel log says of the Windows drives it
// mounts: the kernel's 9P transport and filesystem (net/9p/trans_virtio.c p9_virtio_create
// "9pnet_virtio: no channels available for device %s", net/9p/mod.c "9pnet: Installing 9P2000
// support", fs/9p "9p: ..."; pr_fmt is KBUILD_MODNAME ": "), through which drvfs reaches
// C:\ and D:\, and WSL's own init, which writes its log into the kernel's ring buffer
// (/dev/kmsg): "WSL (PID - THREAD) ERROR: FUNCTION:LINE: ..." and "WSL (PID) WARNING: ..."
// (microsoft/WSL src/linux/init/common.h LOG_ERROR, LOG_WARNING, LOG_INFO "WSL (PID): ..."),
// before 2022 "init: (PID) ERROR: MountPlan9WithRetry:285: mount drvfs on /mnt/d (...)
// failed: 13". Only behind a kernel log stamp: the stamp makes it the ring buffer's.
crate::rx!(
    WSL_GUEST,
    r"^(?:9pnet(?:_virtio|_fd|_rdma|_xen)?: |9p: |(?:WSL|init:) \(\d+(?: - [\w.-]*)?\)(?::| (?:ERROR|WARNING|INFO):) )"
);

/// A timestamped, syslog-prefixed or printk-levelled line of Linux disk messages. Kernel
/// lines survive an indented paste (a Markdown code block, a quoted mail) and Markdown
/// inline code ("`ata1.00: FORCE: horkage modified (noncq)`").
fn start_prefixed(lines: &[&str]) -> spec::Start {
    if let Some(fixed) = lines.first().and_then(|t| spaced_port(t)) {
        return start_prefixed(&[fixed.as_str()]);
    }
    let lt = lines
        .first()
        .copied()
        .unwrap_or("")
        .trim_start()
        .trim_start_matches('`');
    if !LINUX_PREFIX.is_match(lt) {
        return spec::Start::No;
    }
    // Every header the line carries (a syslog stamp and the printk stamp after it:
    // "Jul 4 14:48:15 host kernel: [ 1672.75] usb 1-1: ...").
    let rest = strip_prefixes(lt);
    spec::Start::from(
        LINUX_DMESG_BARE.is_match(rest)
            || rest.contains("ata")
            || rest.starts_with("sd ")
            || rest.starts_with("nvme")
            || rest.starts_with("ahci")
            || mmc::msdc_line(rest).is_some()
            // The PCI core's enumeration lines of a storage function (class 01h) and its bandwidth.
            || (rest.starts_with("pci ")
                && (rest.contains("PCIe bandwidth") || rest.contains(" class 0x01")))
            || LINUX_STORAGE_DRIVER.is_match(rest)
            || mmc::LINUX_MMC.is_match(rest)
            || LINUX_SLEEP.is_match(rest)
            || AER_REPORT.is_match(rest)
            || PCI_POWER_UP_FAILED.is_match(rest)
            || WSL_GUEST.is_match(rest),
    )
}

// A printk timestamp in a line's header: the kernel's own "[  406.733087] " (printk.c
// print_time, "[%5lu.%06lu] ", behind a syslog header or not) or util-linux dmesg -T's ctime
// stamp in the locale's words ("[Tue Oct 27 08:51:30 2020] ", "[ven. nov.  2 15:29:39
// 2018] ").
crate::rx!(
    PRINTK_STAMP,
    r"(?:^|\s)\[\s*\d+\.\d{6}\]|^\[\w{2,5}\.? \w{2,5}\.? [ \d]\d \d\d:\d\d:\d\d \d{4}\]"
);

/// A line of text behind a printk timestamp ([`PRINTK_STAMP`]).
fn printk_stamped(t: &str) -> bool {
    let lt = t.trim_start().trim_start_matches('`');
    let rest = strip_prefixes(lt);
    let head = lt
        .len()
        .checked_sub(rest.len())
        .and_then(|n| lt.get(..n))
        .unwrap_or("");
    !rest.trim().is_empty() && PRINTK_STAMP.is_match(head)
}

/// Two consecutive lines behind printk timestamps are a Linux kernel log whatever their
/// subsystem (a Ceph client's "rbd: rbd0: ...", a snapshot driver's "datto: ...", a boot
/// console's "ignition[703]: ..."): only the kernel's ring buffer stamps lines so. Tried after
/// every other recogniser, so a tool's own lines stay its own; a log of no storage
/// subsystem yields no disk and no event.
fn start_stamped_run(lines: &[&str]) -> spec::Start {
    spec::Start::from(lines.len() >= 2 && lines.iter().take(2).all(|l| printk_stamped(l)))
}

fn start_bare(lines: &[&str]) -> spec::Start {
    if let Some(fixed) = lines.first().and_then(|t| spaced_port(t)) {
        return start_bare(&[fixed.as_str()]);
    }
    spec::Start::from(lines.first().is_some_and(|t| {
        LINUX_DMESG_BARE.is_match(t.trim_start().trim_start_matches('`'))
            || LINUX_DMESG_BARE.is_match(elided_prefix(t))
            || LINUX_SLEEP.is_match(t.trim_start())
            || LIBATA_EH_UNPREFIXED_START.is_match(t.trim())
            || AER_REPORT.is_match(t.trim_start())
            || PCI_POWER_UP_FAILED.is_match(t.trim_start())
            || mmc::LINUX_MMC.is_match(t.trim_start())
            || inline_line(t).is_some()
    }))
}

/// A kernel line whose stamp and header the poster replaced by an ellipsis ("... sd
/// 6:0:0:0: [sdb] Attached SCSI removable disk", "\u{2026} usb 1-1: ..."): the text after it,
/// which the bare patterns then read. The ellipsis must stand apart from the text, so a
/// progress row of dots ("......ready") is not taken for one.
fn elided_prefix(t: &str) -> &str {
    let lt = t.trim_start();
    let dots = lt.len().saturating_sub(lt.trim_start_matches('.').len());
    let rest = if dots >= 3 {
        lt.trim_start_matches('.')
    } else if let Some(r) = lt.strip_prefix('\u{2026}') {
        r
    } else {
        return t;
    };
    if rest.starts_with([' ', '\t']) {
        rest.trim_start()
    } else {
        t
    }
}

// Synology's DSM kernels print libata's port and device prefix with a space before the colon
// ("ata6 : SATA link up 3.0 Gbps ...", "ata6.15 : failed to read PMP GSCR[30] (Emask=0x1)",
// "ata3 : No present pin info for SATA link down event": their patched ata_port_printk /
// ata_dev_printk), and hand-copied logs often do the same. FreeBSD's ata(4) prints "ata0: "
// without the space, so the spaced form is Linux's.
crate::rx!(SPACED_PORT, r"^ata\d+(?:\.\d{1,2})? : \S");

/// A line whose libata prefix carries a space before its colon ([`SPACED_PORT`]), rewritten
/// to the kernel's own "ataN: " / "ataN.DD: " so the block reads like any libata log.
fn spaced_port(t: &str) -> Option<String> {
    let lt = t.trim_start().trim_start_matches('`');
    let rest = strip_prefixes(lt);
    if !SPACED_PORT.is_match(rest) || !lt.ends_with(rest) {
        return None;
    }
    let head = lt.get(..lt.len().checked_sub(rest.len())?)?;
    let (port, tail) = rest.split_once(" : ")?;
    Some(format!("{head}{port}: {tail}"))
}

/// A block line as the kernel wrote it: a quoted inline span ([`inline_line`]) or a spaced
/// libata prefix ([`spaced_port`]).
fn clean_line(t: &str) -> Option<String> {
    inline_line(t).or_else(|| spaced_port(t))
}

/// A kernel line quoted as Markdown inline code inside a sentence ("without NCQ (`ata1.00:
/// 61865984 sectors, multi 1: LBA48 NCQ (not used)`)"): the span, when it has the shape of
/// a bare kernel line ([`LINUX_DMESG_BARE`]). Only a sentence with one such span is read.
fn inline_line(t: &str) -> Option<String> {
    let mut spans = t.split('`').skip(1).step_by(2);
    let span = spans.next()?;
    (spans.next().is_none() && !t.trim_start().starts_with('`') && LINUX_DMESG_BARE.is_match(span))
        .then(|| span.to_string())
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "linux-dmesg",
    // After every tool's own lines and FreeBSD's syslog-prefixed ones (sources::dmesg), and
    // before FreeBSD's bare "ata1: " lines; a run of stamped lines of any subsystem last.
    starts: &[
        (231, start_prefixed),
        (240, start_bare),
        (260, start_stamped_run),
    ],
    // Inside a Linux block every libata port line is Linux's, whatever its verb ("ata1:
    // device not ready (errno=-16), forcing hardreset", which FreeBSD's "ata1: " start would
    // otherwise take), and so is the indented "res ..." half of a failed command's report
    // (libata-eh.c ata_eh_link_report prints "cmd ...\n         res ...").
    member: |t, _| {
        let lt = t.trim_start().trim_start_matches('`');
        spec::Member::from(
            LINUX_PREFIX.is_match(lt)
                || LINUX_DMESG_BARE.is_match(lt)
                || LINUX_DMESG_BARE.is_match(elided_prefix(t))
                || LIBATA_PORT.is_match(lt)
                || LIBATA_EH_UNPREFIXED.is_match(lt.trim_end())
                || mmc::LINUX_MMC.is_match(lt)
                || LINUX_SLEEP.is_match(lt)
                || AER_REPORT.is_match(lt)
                || PCI_POWER_UP_FAILED.is_match(lt)
                || (t.starts_with(char::is_whitespace) && lt.starts_with("res "))
                // `dmesg -T` indents the second line of a two-line message under the first's
                // text ("md/raid1:md0: Disk failure on sdc1, ...\n md/raid1:md0: Operation
                // continuing on 1 devices.", drivers/md/raid1.c raid1_error).
                || (t.starts_with(char::is_whitespace) && LINUX_STORAGE_DRIVER.is_match(lt))
                || inline_line(t).is_some()
                // A webmail's "<b>...</b>" around a line it wanted noticed.
                || LINUX_DMESG_BARE.is_match(super::markup::strip_html_emphasis(lt))
                || spaced_port(t).is_some(),
        )
    },
    tolerance: (1, 2),
    // The quoted kernel line, not the sentence around it, is the block's text.
    clean: Some(clean_line),
    classify: |_, _| "linux-dmesg",
    ..spec::Recogniser::NONE
};

/// Linux dmesg / journalctl -k / /var/log/kern.log: USB serials ("SerialNumber: X"),
/// "serial=" of some drivers.
pub const LINUX_SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Linux),
    fixture_dirs: &["linux/dmesg"],
    // The Linux probe reads dmesg, and the journal's kernel messages when dmesg gives
    // nothing (diskdoc-sys probe::linux collect_tools).
    live: &[
        spec::Live::Cmd(&["dmesg"]),
        spec::Live::Cmd(&["journalctl", "-k", "-b", "--no-pager"]),
    ],
    pasted_as: Some(spec::Live::Cmd(&["dmesg"])),
    // The disks the log names, the error events it holds and the software RAID arrays it
    // reports degraded or rebuilding (a healthy log has none of the last two).
    parse: Some(|t| {
        disks_named(t)
            .len()
            .saturating_add(nvme_functions_with_aer(t).len())
            .saturating_add(all_events(t, "paste").len())
            .saturating_add(super::raid_log::parse(t).len())
            .saturating_add(
                t.lines()
                    .filter(|l| PCI_POWER_UP_FAILED.is_match(strip_prefixes(l).trim()))
                    .count(),
            )
    }),
    secrets: &[
        spec::Secret::After("serialnumber", spec::SecretKind::Serial),
        spec::Secret::After("serial=", spec::SecretKind::Serial),
        spec::Secret::After("serial number", spec::SecretKind::Serial),
    ],
    paste: Some(spec::Paste {
        flat: &[FLAT],
        ..spec::Paste::new(&RECOGNISER, |p, _| {
            matches!(p, "dmesg" | "grep" | "egrep" | "journalctl" | "cat")
        })
    }),
    ..spec::SourceSpec::named("linux-dmesg", "Linux dmesg")
};

/// A kernel log whose newlines a web page or an index excerpt dropped: each line starts at
/// its printk stamp ("[   14.374593] ", printk.c print_time "[%5lu.%06lu] "), or, in a log
/// without stamps, at a libata port prefix ("ata1: ", "ata1.00: ", libata's ata_port_printk
/// and ata_dev_printk) that no stamp stands before. Cut only when the line holds a libata
/// device line ("ataN.DD: ", which FreeBSD never prints) or a stamped Linux disk message.
/// Without stamps the SCSI midlayer's and USB core's device prefixes start lines too
/// (sdev_printk "sd 6:0:0:0: ", "scsi 6:0:0:0: ", dev_printk "usb 4-1: "): a syslog copied
/// from a web page without its newlines and stamps is a run of those.
const FLAT: spec::Flat = spec::Flat {
    starts: &[
        r"(\[\s*\d{1,9}\.\d{1,9}\]\s)",
        r"(?:^|[^\]\s])\s+(ata\d+(?:\.\d\d)?: )",
        r"(?:^|[^\]\s:])\s+((?:sd|scsi) \d+:\d+:\d+:\d+: )",
        r"(?:^|[^\]\s:])\s+(usb \d+-[\d.]+: )",
    ],
    need: r"ata\d+\.\d\d: |\[\s*\d{1,9}\.\d{1,9}\]\s+(?:ata\d+[.:]|sd \d+:|scsi \d+:|blk_update_request|end_request|Buffer I/O error|print_req_error|I/O error, dev|nvme nvme\d)|[^\]\s:]\s+sd \d+:\d+:\d+:\d+: \[sd[a-z]{1,3}\] ",
    min: 3,
};

pub mod iscsi;
pub mod mmc;

#[cfg(test)]
mod tests;

#[cfg(test)]
mod usb_path_tests;
