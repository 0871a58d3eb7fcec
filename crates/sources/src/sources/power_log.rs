//! Kernel log lines that say a power-saving state failed (for power-management):
//! drivers/nvme/host/pci.c nvme_warn_reset ("controller is down; will reset: CSTS=...",
//! "Does your device have a faulty power saving mode enabled?", the hint to set
//! nvme_core.default_ps_max_latency_us=0 pcie_aspm=off), drivers/nvme/host/core.c
//! nvme_wait_ready ("Device not ready; aborting reset, CSTS=0x1": the controller did not
//! leave or reach ready within CAP.TO while the driver reset it, the hang of a controller
//! stuck in a power state) and nvme_configure_apst ("failed to set APST feature (-19)": the
//! Set Features of Autonomous Power State Transitions failed, -19 ENODEV once the
//! controller has dropped off the bus), the PCI core's "Unable to change
//! power state from D3cold to D0", and AER reports ("PCIe Bus Error: severity=Corrected,
//! type=Physical Layer") on the PCI functions of a disk's path (drivers/pci/pcie/aer.c),
//! and SATA link power management a drive failed to turn on or off (libata-eh.c
//! ata_eh_set_lpm, libahci.c ahci_set_aggressive_devslp; [`sata_lpm_failures`]), disks
//! the kernel keeps stopping and starting ([`disk_stop_start_cycles`]) and USB devices that
//! fail to enable USB 3 link power states ([`usb_lpm_enable_failures`]).

/// SATA link power management that the drive or host failed to set up on libata port
/// `port`: libata-eh.c ata_eh_set_lpm ("ata2.00: failed to enable DIPM, Emask 0x40", "failed
/// to disable DIPM, Emask 0x4": SET FEATURES for device-initiated power management failed
/// with an error other than the drive refusing it, AC_ERR_DEV; the error handler then retries
/// and on the last tries prints "ata2.00: disabling LPM on the link" or "ata2: disabling LPM
/// on the link") and libahci.c ahci_set_aggressive_devslp ("ata2.00: failed to enable
/// DEVSLP", "failed to disable DEVSLP": SET FEATURES for DevSleep failed the same way). The
/// drive advertised the feature (ata_id_has_dipm, the Dev-Sleep bit of IDENTIFY) and then
/// failed the command that turns it on or off: its power-state handling is broken, the
/// failed command cost an error-handler round and often a link reset.
pub fn sata_lpm_failures(log: &str, port: u32) -> Vec<String> {
    const PATTERNS: &[&str] = &[
        "failed to enable DIPM",
        "failed to disable DIPM",
        "failed to enable DEVSLP",
        "failed to disable DEVSLP",
        "disabling LPM on the link",
    ];
    log.lines()
        .map(crate::sources::kernel_log::strip_prefixes)
        .filter(|b| PATTERNS.iter().any(|p| b.contains(p)))
        .filter(|b| crate::sources::kernel_log::port_of(b) == Some(port))
        .map(|b| b.trim().to_string())
        .collect()
}

/// Longest time a disk stays started before the kernel stops it again that reads as runtime
/// autosuspend rather than a system sleep: an autosuspend delay is seconds to a minute or
/// two (the runtime PM core's power/autosuspend_delay_ms, set by laptop-mode-tools, TLP or
/// the distribution), while suspends come when the user closes the lid.
const QUICK_RESTOP_SECS: f64 = 300.0;

/// A SCSI/SATA disk the kernel keeps stopping and starting: drivers/scsi/sd.c
/// sd_suspend_common prints "sd 1:0:0:0: [sdb] Stopping disk" (after "Synchronizing SCSI
/// cache" when the write cache is on) and sd_resume "[sdb] Starting disk", for runtime PM
/// (sd_suspend_runtime: the disk idled past its autosuspend delay, libata's
/// manage_start_stop) as for a system sleep and shutdown. The stops that come within
/// [`QUICK_RESTOP_SECS`] of the disk's last start, outside any system sleep transition
/// ([`SLEEP_ENTRY`] .. [`SLEEP_EXIT`]), two or more of them: the disk is spun down and up
/// again and again (a head load and a spin-up each, seconds of latency on the request that
/// wakes it). Lines without a time say nothing of the interval: not counted.
pub fn disk_stop_start_cycles(log: &str, disk: &str) -> Vec<String> {
    let tag = format!("[{disk}] ");
    let mut sleeping = false;
    let mut started: Option<f64> = None;
    let mut out = Vec::new();
    for raw in log.lines() {
        let body = crate::sources::kernel_log::strip_prefixes(raw).trim();
        let exit = SLEEP_EXIT.iter().any(|m| body.contains(m));
        if exit || SLEEP_ENTRY.iter().any(|m| body.contains(m)) {
            sleeping = !exit;
            started = None;
            continue;
        }
        if sleeping || !body.starts_with("sd ") || !body.contains(&tag) {
            continue;
        }
        if body.ends_with("] Starting disk") {
            started = line_secs(raw);
        } else if body.ends_with("] Stopping disk") {
            if let (Some(s), Some(t)) = (started, line_secs(raw)) {
                // A syslog clock that passed midnight.
                let up = if t >= s { t - s } else { t + 86_400.0 - s };
                if up <= QUICK_RESTOP_SECS {
                    out.push(body.to_string());
                }
            }
            started = None;
        }
    }
    if out.len() >= 2 { out } else { Vec::new() }
}

/// Whether a line is the kernel's report that a disk's medium vanished: block/genhd.c
/// set_capacity_and_notify "sdb: detected capacity change from 244328448 to 0" (the same
/// words from fs/block_dev.c check_disk_size_change before 5.11).
pub fn is_medium_lost(line: &str) -> bool {
    line.contains(": detected capacity change from ") && line.trim_end().ends_with(" to 0")
}

/// A spin-down sent to `disk` and then its capacity dropping to 0 ([`is_medium_lost`]):
/// [the stop line, the capacity line]. The stop is hd-idle's debug log ("sdb spindown",
/// "disk=sdb command=scsi spunDown=true ...": a SCSI START STOP UNIT) or sd's "[sdb]
/// Stopping disk". A USB card reader or flash bridge that takes the STOP as an eject loses
/// its medium, and every read after it fails until the device is plugged in again.
pub fn medium_lost_after_stop(text: &str, disk: &str) -> Vec<String> {
    let (tag, kv, cap) = (
        format!("[{disk}] Stopping disk"),
        format!("disk={disk} "),
        format!("{disk}: detected capacity change from "),
    );
    let mut stop: Option<&str> = None;
    for raw in text.lines() {
        let body = crate::sources::kernel_log::strip_prefixes(raw).trim();
        if body == format!("{disk} spindown")
            || (body.starts_with(&kv) && body.contains("spunDown=true"))
            || body.contains(&tag)
        {
            stop = Some(body);
        } else if let Some(s) = stop.filter(|_| body.starts_with(&cap) && is_medium_lost(body)) {
            return vec![s.to_string(), body.to_string()];
        }
    }
    Vec::new()
}

/// Whether a power-log line is one of [`disk_stop_start_cycles`].
pub fn is_disk_stop(line: &str) -> bool {
    line.starts_with("sd ") && line.ends_with("] Stopping disk")
}

/// The time of a kernel log line in seconds: its printk stamp ("[ 7098.619891]",
/// kernel/printk/printk.c print_time, seconds since boot), else the syslog or journal clock
/// ("Jan 16 12:33:27", seconds of the day).
fn line_secs(raw: &str) -> Option<f64> {
    if let Some((_, r)) = raw.split_once('[')
        && let Some((n, _)) = r.split_once(']')
        && let Ok(v) = n.trim().parse::<f64>()
    {
        return Some(v);
    }
    raw.as_bytes().windows(8).find_map(|w| match w {
        [h1, h2, b':', m1, m2, b':', s1, s2] => {
            let two = |a: &u8, b: &u8| {
                (a.is_ascii_digit() && b.is_ascii_digit())
                    .then(|| f64::from(a - b'0') * 10.0 + f64::from(b - b'0'))
            };
            Some(two(h1, h2)? * 3600.0 + two(m1, m2)? * 60.0 + two(s1, s2)?)
        }
        _ => None,
    })
}

/// USB 3 link power management a USB device failed to enable: drivers/usb/core/hub.c
/// usb_set_device_initiated_lpm sends the standard SET_FEATURE(U1_ENABLE / U2_ENABLE)
/// control request (USB 3.2 section 9.4.9, feature selectors a SuperSpeed device must
/// accept) and on an error prints "usb 2-1: Enable of device-initiated U1 failed." (the
/// request stalled, failed on the wire or timed out after USB_CTRL_SET_TIMEOUT, 5 s); the
/// hub driver then keeps that link state off for the device (usb_enable_link_state). A
/// device that fails the request mishandles its link's power states or did not answer on
/// its control pipe: the bridges of USB disks that do also drop off the bus when their
/// link is marginal (a weak supply). Each item is the USB device ("2-1") and the line.
pub fn usb_lpm_enable_failures(log: &str) -> Vec<(String, String)> {
    log.lines()
        .map(|raw| crate::sources::kernel_log::strip_prefixes(raw).trim())
        .filter_map(|b| {
            let (dev, rest) = b.strip_prefix("usb ")?.split_once(": ")?;
            let state = rest.strip_prefix("Enable of device-initiated ")?;
            (matches!(state, "U1 failed." | "U2 failed.") && dev.contains('-'))
                .then(|| (dev.to_string(), b.to_string()))
        })
        .collect()
}

/// Longest gap between an SD card's removal and the same host finding a card again that
/// reads as the host losing the card rather than a person swapping it: the core rescans at
/// once (core/core.c mmc_rescan from the card-detect interrupt), while taking a card out
/// and putting one in takes a person longer.
const CARD_BACK_SECS: f64 = 5.0;

/// SD cards that dropped off their host and came back: core/bus.c mmc_remove_card "mmc0:
/// card 0001 removed" then mmc_add_card "mmc0: new UHS-I speed SDR104 SDXC card at address
/// 0001" on the same host within [`CARD_BACK_SECS`]. The card never left the slot: the host
/// lost it (a card reader whose runtime power management powers the slot down and misses
/// the card on the way back, rtsx_pci's known case, or a card-detect glitch), and whatever
/// was mounted from it lost its writes in flight. Each item is the host ("mmc0") and the
/// two lines. Lines without a time say nothing of the gap: not counted.
pub fn card_dropouts(log: &str) -> Vec<(String, Vec<String>)> {
    let mut removed: Vec<(String, f64, String)> = Vec::new();
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for raw in log.lines() {
        let b = crate::sources::kernel_log::strip_prefixes(raw).trim();
        let Some((host, rest)) = b.split_once(": ") else {
            continue;
        };
        let unit = host
            .strip_prefix("mmc")
            .is_some_and(|u| !u.is_empty() && u.bytes().all(|c| c.is_ascii_digit()));
        let Some(t) = line_secs(raw).filter(|_| unit) else {
            continue;
        };
        if rest.starts_with("card ") && rest.ends_with(" removed") {
            removed.retain(|(h, _, _)| h != host);
            removed.push((host.to_string(), t, b.to_string()));
        } else if rest.starts_with("new ") && rest.contains(" card at address ") {
            let Some(i) = removed.iter().position(|(h, _, _)| h == host) else {
                continue;
            };
            let (h, t0, gone) = removed.swap_remove(i);
            let gap = if t >= t0 { t - t0 } else { t + 86_400.0 - t0 };
            if gap <= CARD_BACK_SECS {
                out.push((h, vec![gone, b.to_string()]));
            }
        }
    }
    out
}

/// Whether a power-log line is one of [`card_dropouts`].
pub fn is_card_dropout(line: &str) -> bool {
    line.starts_with("mmc")
        && ((line.contains(": card ") && line.ends_with(" removed"))
            || line.contains(" card at address "))
}

/// Whether a power-log line is one of [`usb_lpm_enable_failures`].
pub fn is_usb_lpm_failure(line: &str) -> bool {
    line.starts_with("usb ") && line.contains(": Enable of device-initiated U")
}

/// PCI functions the PCI core could not bring back to D0 (kernel_log::PCI_POWER_UP_FAILED:
/// pci.c pci_power_up "Unable to change power state from D3cold to D0, device
/// inaccessible", older pci_raw_set_power_state "can't change power state from D3hot to D0
/// (config space inaccessible)"), on a disk's path: an NVMe drive, the PCIe port above a
/// controller, a SATA controller or card reader, or a line whose device prefix was cut.
/// The function was left powered off by runtime PM (RTD3, D3cold) or system sleep and did
/// not come back: the platform's power control of the slot (ACPI _PR3/_ON, a GPIO) or the
/// device's own power states failed, and every disk behind it is gone until a reboot.
/// Graphics, audio, network and Wi-Fi functions are no disk's path. Each item is (the
/// function's driver, if named; the line).
pub fn pci_power_up_failures(log: &str) -> Vec<(Option<String>, String)> {
    const STORAGE: &[&str] = &[
        "nvme",
        "pcieport",
        "ahci",
        "rtsx_pci",
        "sdhci-pci",
        "xhci_hcd",
        "mpt3sas",
        "megaraid_sas",
        "vmd",
    ];
    log.lines()
        .map(|raw| crate::sources::kernel_log::strip_prefixes(raw).trim())
        .filter_map(|b| {
            let c = crate::sources::kernel_log::PCI_POWER_UP_FAILED.captures(b)?;
            let drv = c.get(1).map(|m| m.as_str().to_string());
            drv.as_deref()
                .is_none_or(|d| STORAGE.contains(&d))
                .then(|| (drv, b.to_string()))
        })
        .collect()
}

/// Whether a power-log line is one of [`pci_power_up_failures`].
pub fn is_pci_power_up_failure(line: &str) -> bool {
    crate::sources::kernel_log::PCI_POWER_UP_FAILED.is_match(line.trim())
}

/// NVMe power-state failures of controller `ctrl` ("nvme0") or its PCI function `addrs`.
pub fn nvme_power_lines(log: &str, ctrl: &str, addrs: &[String]) -> Vec<String> {
    const PATTERNS: &[&str] = &[
        "faulty power saving mode",
        "controller is down; will reset",
        "Device not ready; aborting",
        "failed to set APST feature",
        "default_ps_max_latency_us",
        "Unable to change power state from D3cold",
        "Disabling device after reset failure",
    ];
    let me = format!("nvme {ctrl}:");
    let sleeping = nvme_sleep_transition_lines(log, ctrl);
    // A controller the driver then gave up ("Removing after probe failure status: -19",
    // pci.c nvme_remove_dead_ctrl) did not come back from the reset at all: a dead drive,
    // and its "Device not ready" says nothing of a power state.
    let removed = log
        .lines()
        .any(|l| l.contains(&me) && l.contains("Removing after probe failure"));
    // With no sleep transition around them: the controller's own escalation from timed-out
    // commands to a reset (timeout_resets), when no namespace of it logged a media status.
    let resets = if sleeping.is_empty() && !removed {
        nvme_timeout_resets(log, ctrl)
    } else {
        Vec::new()
    };
    log.lines()
        .filter(|l| PATTERNS.iter().any(|p| l.contains(p)))
        .filter(|l| !(removed && l.contains("Device not ready; aborting")))
        .filter(|l| !is_apst_refused_by_drive(l))
        .filter(|l| {
            l.contains(&me)
                || addrs
                    .iter()
                    .any(|a| !a.is_empty() && l.contains(a.as_str()))
        })
        .map(|l| l.trim().to_string())
        .chain(sleeping)
        .chain(resets)
        .collect()
}

/// drivers/nvme/host/core.c nvme_configure_apst prints "failed to set APST feature (%d)"
/// with what nvme_set_features returned: a negative errno when the command never completed
/// (-19 ENODEV: the controller dropped off the bus, -4 EINTR, -110 ETIMEDOUT), or a
/// positive NVMe status the controller answered with (2 = Invalid Field in Command, NVMe
/// Base 2.0 figure 100: it rejected the power state table the driver built). A controller
/// that answered and refused keeps Autonomous Power State Transitions off: it stays in its
/// operational power state, the opposite of a power-saving hang, so the line is no fault.
pub(crate) fn is_apst_refused_by_drive(line: &str) -> bool {
    let Some((_, rest)) = line.split_once("failed to set APST feature (") else {
        return false;
    };
    let code: String = rest.chars().take_while(|c| *c != ')').collect();
    code.trim().parse::<i64>().is_ok_and(|n| n > 0)
}

/// NVMe commands of controller `ctrl` that timed out until the driver reset the controller
/// (drivers/nvme/host/pci.c nvme_timeout: a command past its timeout is aborted, "I/O 161
/// QID 2 timeout, aborting" or since 6.x "I/O tag 717 (c2cd) opcode 0x1 (Write) QID 1
/// timeout, aborting req_op:WRITE(1) size:4096"; when the abort itself times out, or an
/// admin command (QID 0) does, it says "..., reset controller"), in a log where no namespace
/// of the controller reported a media status (core.c nvme_log_error "(sct 0x2 / sc 0x81)",
/// NVMe Base 2.0 figure 102, status code type 2h). A controller that stops answering
/// commands and needs a reset, with no medium error, is the drive's power-state handling
/// (APST), the PCIe link's ASPM or the platform's power management in the common case
/// (the kernel's own hint for the same hang, nvme_warn_reset, names APST and ASPM); the
/// "Host Aborted Command (sct 0x3 / sc 0x71)" status of the requests it failed is a path
/// status, not a media one. Only the reset lines are returned.
pub(crate) fn nvme_timeout_resets(log: &str, ctrl: &str) -> Vec<String> {
    let me = format!("nvme {ctrl}:");
    let ns = format!("{ctrl}n");
    let media = log.lines().any(|raw| {
        let b = crate::sources::kernel_log::strip_prefixes(raw);
        b.starts_with(&ns) && b.contains("(sct 0x2 /")
    });
    // A controller that completed the Abort of a timed-out command ("Abort status: 0x0",
    // kernel_log::is_answered_nvme_abort) was awake and on its link: the hang was inside
    // the drive, not a power state (checks::media_errors::nvme_timeouts_are_the_path).
    // ... and the block layer then failed the namespace's requests with their sectors.
    let failed = format!("i/o error, dev {ns}");
    let answered = log.lines().any(|raw| {
        let b = crate::sources::kernel_log::strip_prefixes(raw);
        b.starts_with(&me) && crate::sources::kernel_log::is_answered_nvme_abort(b)
    }) && log
        .lines()
        .any(|raw| raw.to_ascii_lowercase().contains(&failed));
    if media || answered {
        return Vec::new();
    }
    log.lines()
        .filter(|raw| {
            let b = crate::sources::kernel_log::strip_prefixes(raw);
            b.starts_with(&me) && is_nvme_timeout(b) && b.contains("timeout, reset controller")
        })
        .map(|raw| raw.trim().to_string())
        .collect()
}

/// A power-management line of [`nvme_timeout_resets`]: the driver's reset after timeouts,
/// outside any sleep transition.
pub fn is_timeout_reset(line: &str) -> bool {
    is_nvme_timeout(line) && line.contains("timeout, reset controller")
        || line.contains(FREEBSD_TIMEOUT_RESET)
}

/// FreeBSD nvme(4) controller `ctrl` ("nvme0") that did not come back from a reset: the
/// driver gave up waiting for CSTS.RDY ("nvme0: controller ready did not become 1 within
/// 30000 ms", sys/dev/nvme/nvme_ctrlr.c nvme_ctrlr_wait_for_ready, the FreeBSD side of
/// Linux's "Device not ready; aborting reset" above), or I/O kept waiting on a reset that
/// did not finish ("nvme0: Waiting for reset to complete", printed again for each wait: two
/// or more say the reset outlasted one). A controller that stays not-ready after a reset
/// hangs in a state the driver cannot take it out of: its power states, the PCIe link's, or
/// the platform firmware's setup of the slot.
pub fn freebsd_nvme_reset_hangs(log: &str, ctrl: &str) -> Vec<String> {
    let mine = freebsd_controller_lines(log, ctrl);
    let not_ready: Vec<String> = mine
        .iter()
        .filter(|b| b.contains("controller ready did not become") && b.contains(" within "))
        .map(|b| b.to_string())
        .collect();
    let waiting: Vec<String> = mine
        .iter()
        .filter(|b| b.ends_with("Waiting for reset to complete"))
        .map(|b| b.to_string())
        .collect();
    let mut out = not_ready;
    if waiting.len() >= 2 {
        out.extend(waiting);
    }
    out
}

/// FreeBSD nvme(4) controller `ctrl` reset after a command timed out, the FreeBSD side of
/// [`nvme_timeout_resets`]: sys/dev/nvme/nvme_qpair.c nvme_timeout prints "nvme0:
/// Resetting controller due to a timeout." (with "%s" detail in newer releases) before
/// nvme_ctrlr_reset, and the outstanding commands then complete as "ABORTED - BY REQUEST
/// (00/07)", a generic status of the host's abort. Only when no command of the controller
/// completed with a media status (nvme_qpair.c get_status_string prints the status type and
/// code as "(%02x/%02x)": "UNRECOVERED READ ERROR (02/81)", type 2h): the reset lines.
pub fn freebsd_nvme_timeout_resets(log: &str, ctrl: &str) -> Vec<String> {
    let mine = freebsd_controller_lines(log, ctrl);
    if mine.iter().any(|b| b.contains(" (02/")) {
        return Vec::new();
    }
    mine.iter()
        .filter(|b| b.contains(FREEBSD_TIMEOUT_RESET))
        .map(|b| b.to_string())
        .collect()
}

/// nvme_qpair.c's reset-after-timeout message.
const FREEBSD_TIMEOUT_RESET: &str = "Resetting controller due to a timeout";

/// The lines of FreeBSD nvme(4) controller `ctrl`, without their prefixes ("nvme0: ...",
/// nvme_printf's device prefix).
fn freebsd_controller_lines<'a>(log: &'a str, ctrl: &str) -> Vec<&'a str> {
    let me = format!("{ctrl}: ");
    log.lines()
        .map(crate::sources::kernel_log::strip_prefixes)
        .map(str::trim)
        .filter(|b| b.starts_with(&me))
        .collect()
}

/// Whether a power-log line is one of [`freebsd_nvme_reset_hangs`].
pub fn is_freebsd_reset_hang(line: &str) -> bool {
    line.contains("controller ready did not become")
        || line.ends_with("Waiting for reset to complete")
}

/// Lines that open a system sleep transition: kernel/power/suspend.c ("PM: suspend entry
/// (s2idle)"), hibernate.c ("PM: hibernation entry"), main.c ksys_sync_helper ("PM: Syncing
/// filesystems ..."), process.c ("Freezing user space processes"), drivers/acpi/sleep.c
/// ("ACPI: PM: Preparing to enter system sleep state S3", and on the way back "ACPI: PM:
/// Waking up from system sleep state S3"), drivers/acpi/ec.c ("ACPI: EC: interrupt
/// blocked", while devices are suspended) and intel_pch_thermal.c ("CPU-PCH is cool [47C],
/// continue to suspend").
const SLEEP_ENTRY: &[&str] = &[
    "PM: suspend entry",
    "PM: hibernation entry",
    "PM: Syncing filesystems",
    "Freezing user space processes",
    "Preparing to enter system sleep state",
    "Waking up from system sleep state",
    "EC: interrupt blocked",
    "continue to suspend",
];

/// Lines that close it: suspend.c "PM: suspend exit", hibernate.c "PM: hibernation exit".
const SLEEP_EXIT: &[&str] = &["PM: suspend exit", "PM: hibernation exit"];

/// NVMe command timeouts and aborts of controller `ctrl` logged while the system was going
/// to sleep or waking up: between a line of [`SLEEP_ENTRY`] and the next of [`SLEEP_EXIT`]
/// (or the end of the log). drivers/nvme/host/pci.c nvme_timeout ("nvme nvme0: I/O 1015 QID
/// 2 timeout, aborting", "..., completion polled", "..., reset controller") and abort_endio
/// ("Abort status: 0x0"): a controller that stops answering exactly while the system
/// suspends or resumes is failing the power-state change (the drive's own power states, the
/// PCIe link's, or the platform's handling of the port), not its medium.
pub(crate) fn nvme_sleep_transition_lines(log: &str, ctrl: &str) -> Vec<String> {
    let me = format!("nvme {ctrl}:");
    let mut in_transition = false;
    let mut out = Vec::new();
    for raw in log.lines() {
        let body = crate::sources::kernel_log::strip_prefixes(raw);
        if SLEEP_EXIT.iter().any(|m| body.contains(m)) {
            in_transition = false;
            continue;
        }
        if SLEEP_ENTRY.iter().any(|m| body.contains(m)) {
            in_transition = true;
            continue;
        }
        if in_transition && body.starts_with(&me) && is_nvme_timeout(body) {
            out.push(raw.trim().to_string());
        }
    }
    // The PM core's report that the NVMe driver's resume or suspend callback failed
    // (drivers/base/power/main.c pm_dev_err: "nvme 0000:03:00.0: PM: failed to resume
    // async: error -16", after dpm_run_callback's "PM: dpm_run_callback(): pci_pm_resume+0x0
    // /0xe0 returns -16"): the controller's timeouts of such a log are the failed sleep
    // transition, whichever lines of it the paste kept.
    let pm_failed = log.lines().any(|raw| {
        let body = crate::sources::kernel_log::strip_prefixes(raw);
        body.starts_with("nvme ")
            && (body.contains("PM: failed to resume") || body.contains("PM: failed to suspend"))
    });
    if out.is_empty() && pm_failed {
        out = log
            .lines()
            .filter(|raw| {
                let body = crate::sources::kernel_log::strip_prefixes(raw);
                body.starts_with(&me) && is_nvme_timeout(body)
            })
            .map(|raw| raw.trim().to_string())
            .collect();
    }
    out
}

/// An NVMe driver line of a command timeout or of the abort it sent ([`nvme_sleep_transition_lines`]).
pub fn is_nvme_timeout(line: &str) -> bool {
    (line.contains(" QID ") && line.contains(" timeout")) || line.contains("Abort status:")
}

/// AER error reports naming one of `addrs` (the device or a port above it).
pub fn aer_lines(log: &str, addrs: &[String]) -> Vec<String> {
    log.lines()
        // "AER: enabled with IRQ" at boot is not an error; reports say "error received",
        // "Corrected"/"Uncorrected" or "PCIe Bus Error".
        .filter(|l| {
            l.contains("PCIe Bus Error")
                || (l.contains("AER:")
                    && (l.contains("rror received")
                        // 6.x: "AER: Correctable error message received from ADDR".
                        || l.contains("rror message received")
                        || l.contains("Corrected")
                        || l.contains("Uncorrected")))
        })
        .filter(|l| {
            addrs
                .iter()
                .any(|a| !a.is_empty() && l.contains(a.as_str()))
        })
        .map(|l| l.trim().to_string())
        .collect()
}

#[cfg(test)]
mod tests;
