//! `power-management`: a power-saving state that costs speed or stability here. SATA link
//! power management (libata link_power_management_policy: max_performance, medium_power,
//! med_power_with_dipm, min_power_with_partial, min_power; AHCI 1.3.1 ALPM/DIPM) where the
//! link also resets; NVMe Autonomous Power State Transitions (NVMe Base spec, feature 0Ch)
//! and PCIe ASPM (PCIe Base spec 5.4) where the kernel log shows the controller falling off
//! the bus or AER errors on its link. Each fix states its power cost.

use crate::checks::common::{self, is_nvme};
use crate::checks::{Check, Confidence, Finding, Fix, Severity, Verdict};
use crate::evidence::Platform;
use crate::facts::{DiskFacts, KernelEventKind, SystemFacts};
use crate::sources::{ask, power_log, spec::Ask};

pub const ID: &str = "power-management";

pub(crate) struct PowerManagement;

impl Check for PowerManagement {
    fn id(&self) -> &'static str {
        ID
    }
    fn label(&self) -> &'static str {
        "Power saving"
    }
    fn summary(&self) -> &'static str {
        "power saving that hurts: SATA ALPM with link resets, HDD heads parked by APM or an idle timer (fast-growing load cycles), NVMe APST / PCIe ASPM failures in the kernel log"
    }
    fn run(&self, sys: &SystemFacts) -> Vec<Finding> {
        common::disks(sys)
            .filter_map(|d| check_disk(sys, d))
            .collect()
    }
}

/// ALPM policies that let the link sleep (Documentation/ABI/testing/sysfs-class-scsi_host
/// link_power_management_policy).
fn saving(policy: &str) -> bool {
    matches!(
        policy,
        "min_power" | "med_power_with_dipm" | "min_power_with_partial" | "medium_power"
    )
}

pub(crate) fn check_disk(sys: &SystemFacts, d: &DiskFacts) -> Option<Finding> {
    let log = d.power.power_log.value().cloned().unwrap_or_default();
    if is_nvme(d) {
        let apst: Vec<&String> = log
            .iter()
            .filter(|l| !l.contains("AER") && !l.contains("PCIe Bus Error"))
            .collect();
        let aer: Vec<&String> = log
            .iter()
            .filter(|l| l.contains("AER") || l.contains("PCIe Bus Error"))
            .collect();
        if apst.is_empty() && aer.is_empty() {
            return d.power.power_log.is_known().then(|| {
                common::cite(
                    common::pass(ID, d, "no power-state failures in the kernel log"),
                    &d.power.power_log,
                    "no APST/D3cold resets, no AER errors",
                )
            });
        }
        let cause = NvmeCause::of(&apst);
        let mut expl = cause
            .map(|c| c.explanation(apst.len(), apst.first().map_or("", |l| l.as_str())))
            .unwrap_or_default();
        if !aer.is_empty() {
            expl.push_str(&format!(
                "PCIe AER reports errors on the drive's link ({} lines, e.g. \"{}\"): \
                 retried packets cost throughput; ASPM transitions are a common cause. ",
                aer.len(),
                aer[0]
            ));
        }
        let mut f = Finding::new(
            ID,
            &d.name,
            Verdict::Problem,
            match cause {
                None | Some(NvmeCause::TimeoutResets) => Severity::Notice,
                Some(_) => Severity::Warning,
            },
            match cause {
                None => format!("{}: PCIe errors on the drive's link", d.name),
                Some(c) => format!("{}: {}", d.name, c.title()),
            },
        )
        .explain(expl)
        .confidence(Confidence::Medium)
        .impact(0.5);
        for l in apst.iter().chain(aer.iter()).take(4) {
            f = common::cite(f, &d.power.power_log, (*l).clone());
        }
        return Some(f.fix(nvme_fix(sys.platform)));
    }
    // A PCI function on the disk's path left in D3 (sources::power_log::
    // pci_power_up_failures), an SD/MMC card its host could not bring back from runtime
    // suspend (sources::kernel_log::mmc::runtime_pm_failures) or lost and found again within
    // seconds (sources::power_log::card_dropouts).
    for k in [&PCI_POWER_UP, &MMC_RESUME_FAILED, &CARD_DROPOUT] {
        let lines: Vec<&String> = log.iter().filter(|l| (k.is)(l)).collect();
        if !lines.is_empty() {
            return Some(keep_powered(sys, d, &lines, k));
        }
    }
    // A disk whose medium vanished after a spin-down (power_log::medium_lost_after_stop).
    let lost: Vec<&String> = log
        .iter()
        .filter(|l| power_log::is_medium_lost(l))
        .collect();
    if let Some(cap) = lost.first() {
        let all: Vec<&String> = log.iter().collect();
        return Some(power_log_finding(
            d,
            Severity::Warning,
            format!("{}: the device lost its medium after a spin-down", d.name),
            format!(
                "A spin-down (SCSI START STOP UNIT) was sent to {}, and then the kernel saw \
                 its capacity drop to 0 (\"{cap}\"): the device, typically a USB card \
                 reader or flash bridge with no spindle to stop, took the stop as an eject. \
                 Every read after it fails (\"access beyond end of device\", I/O errors) \
                 until it is plugged in again or the machine reboots; the medium itself is \
                 fine. Exclude it from the spin-down tool (hd-idle: `-a {} -i 0`).",
                d.name, d.name
            ),
            0.5,
            &all,
        ));
    }
    // A disk the kernel stops and starts again within minutes, over and over
    // (sources::power_log::disk_stop_start_cycles).
    let stops: Vec<&String> = log.iter().filter(|l| power_log::is_disk_stop(l)).collect();
    if !stops.is_empty() {
        return Some(stop_start_cycles(sys, d, &stops));
    }
    // A USB device that failed to enable USB 3 link power states
    // (sources::power_log::usb_lpm_enable_failures).
    let u: Vec<&String> = log
        .iter()
        .filter(|l| power_log::is_usb_lpm_failure(l))
        .collect();
    if !u.is_empty() {
        return Some(power_log_finding(
            d,
            Severity::Notice,
            format!(
                "{}: the USB device failed to enable USB 3 link power management",
                d.name
            ),
            format!(
                "The kernel asked the USB device to allow its USB 3 link power states (U1/U2) \
                 and the device failed the request ({} line(s), e.g. \"{}\"): it stalled, \
                 failed on the wire or did not answer within 5 s, a standard request every \
                 SuperSpeed device must accept. The kernel then keeps the link out of those \
                 states. A USB disk bridge that fails it mishandles its link's power states \
                 or its link is marginal (a weak supply, a poor cable): such bridges also \
                 drop off the bus and are reset, tens of seconds each at boot.",
                u.len(),
                u[0]
            ),
            0.2,
            &u,
        ));
    }
    // A SATA drive that failed the SET FEATURES turning its link power management on or
    // off (sources::power_log::sata_lpm_failures); AER lines of its controller's PCIe path
    // are no such thing.
    let lpm: Vec<&String> = log
        .iter()
        .filter(|l| !l.contains("AER") && !l.contains("PCIe Bus Error"))
        .collect();
    if !lpm.is_empty() && !common::is_usb(d) {
        return Some(lpm_refused(sys, d, &lpm));
    }
    if let Some(f) = head_parking(sys, d) {
        return Some(f);
    }
    if let Some(f) = drive_spin_down(sys, d) {
        return Some(f);
    }
    if !d.power.lpm_policy.is_known() {
        let wakes = link_wakes(d);
        if !wakes.is_empty() {
            return Some(link_wake(sys, d, &wakes));
        }
    }
    let policy = d.power.lpm_policy.value()?.trim().to_string();
    let resets = d
        .kernel_events
        .iter()
        .filter(|e| {
            matches!(
                e.kind,
                KernelEventKind::LinkReset
                    | KernelEventKind::ComresetFailed
                    | KernelEventKind::IoTimeout
            )
        })
        .count();
    let value = format!("link_power_management_policy={policy}");
    if !saving(&policy) || resets == 0 {
        let mut f = common::pass(
            ID,
            d,
            if saving(&policy) {
                format!("SATA link power saving ({policy}) with no link resets")
            } else {
                format!("SATA link power management {policy}")
            },
        );
        if saving(&policy) {
            f = f.explain(
                "The SATA link may sleep between requests; no link resets or timeouts were \
                 logged, so it costs at most a little latency on the first request after idle.",
            );
        }
        return Some(common::cite(f, &d.power.lpm_policy, value));
    }
    let mut f = Finding::new(
        ID,
        &d.name,
        Verdict::Problem,
        Severity::Warning,
        format!(
            "{}: SATA link power saving ({policy}) with {resets} link resets",
            d.name
        ),
    )
    .explain(format!(
        "The host lets this SATA link sleep ({policy}), and the kernel logged {resets} link \
         resets or command timeouts for it. Some drives and bridges mishandle DIPM/ALPM \
         wake-ups: requests stall until the link is reset, seconds each time."
    ))
    .confidence(Confidence::Medium)
    .impact(0.4);
    f = common::cite(f, &d.power.lpm_policy, value);
    for e in d.kernel_events.iter().take(3) {
        f = f.evidence(e.from.clone(), e.line.clone());
    }
    Some(f.fix(sata_fix(sys.platform, d)))
}

/// A SATA drive that advertises DIPM or DevSleep and fails the command that sets it
/// (libata-eh.c ata_eh_set_lpm, libahci.c ahci_set_aggressive_devslp): the error handler
/// takes the link through another round, often a reset (seconds at boot and after each
/// resume), and gives link power management up on the link after the last tries.
fn lpm_refused(sys: &SystemFacts, d: &DiskFacts, lines: &[&String]) -> Finding {
    let f = power_log_finding(
        d,
        Severity::Notice,
        format!(
            "{}: the drive failed to set up SATA link power management",
            d.name
        ),
        format!(
            "The kernel could not turn the drive's link power management on or off ({} line(s), \
         e.g. \"{}\"): the drive advertises device-initiated power management (DIPM) or \
         DevSleep and then failed the SET FEATURES command for it with an error other than a \
         plain refusal. The kernel's error handler takes the link through another round \
         for it, often a link reset that stalls I/O for seconds (at boot and after each \
         resume), and gives link power management up on that link after its last tries. A \
         drive firmware update often fixes it; until then keep the link out of the \
         power-saving states.",
            lines.len(),
            lines[0]
        ),
        0.2,
        lines,
    );
    if sys.platform == Platform::Unknown {
        return f;
    }
    f.fix(sata_fix(sys.platform, d))
}

/// A problem read from the disk's power-log lines, citing the first four of them.
fn power_log_finding(
    d: &DiskFacts,
    severity: Severity,
    title: String,
    explanation: String,
    impact: f64,
    lines: &[&String],
) -> Finding {
    let mut f = Finding::new(ID, &d.name, Verdict::Problem, severity, title)
        .explain(explanation)
        .confidence(Confidence::Medium)
        .impact(impact);
    for l in lines.iter().take(4) {
        f = common::cite(f, &d.power.power_log, (*l).clone());
    }
    f
}

/// A warning read from the disk's power-log lines whose fix keeps a device powered: its
/// title after the disk's name, its explanation with "{lines}" standing for the count of
/// lines and the first of them, and its Linux fix.
struct KeepPowered {
    /// Whether a power-log line is one of this finding's.
    is: fn(&str) -> bool,
    title: &'static str,
    explanation: &'static str,
    fix: &'static str,
    steps: &'static [&'static str],
    risk: &'static str,
}

fn keep_powered(sys: &SystemFacts, d: &DiskFacts, lines: &[&String], k: &KeepPowered) -> Finding {
    let first = lines.first().map_or("", |l| l.as_str());
    let f = power_log_finding(
        d,
        Severity::Warning,
        format!("{}: {}", d.name, k.title),
        k.explanation.replace(
            "{lines}",
            &format!("{} line(s), e.g. \"{first}\"", lines.len()),
        ),
        0.5,
        lines,
    );
    linux_fix(
        sys,
        f,
        k.fix,
        k.steps.iter().map(|s| s.to_string()).collect(),
        k.risk,
    )
}

/// A PCI function on the disk's path (the drive, the PCIe port above its controller, the
/// controller) that the PCI core could not bring back from D3 to D0: runtime PM (RTD3) or a
/// system sleep powered it off, and the platform's power control of the slot (ACPI power
/// resources, a GPIO another device shares) or the device did not power it on again. Its
/// config space reads all ones, the driver cannot reach it, and the disks behind it are gone
/// until a reboot.
const PCI_POWER_UP: KeepPowered = KeepPowered {
    is: power_log::is_pci_power_up_failure,
    title: "a PCIe device on the disk's path did not power up again (D3 to D0)",
    explanation: "The kernel could not bring a PCIe device on this disk's path back from its \
         powered-off state ({lines}): its configuration space reads as all ones, so the \
         driver cannot reach it and the disk behind it drops out (I/O errors, a RAID member \
         failed, no drive found at boot). The platform's power control of the slot (runtime \
         D3cold, the firmware's ACPI power resources or a GPIO) or the device's power states \
         failed, not the disk's medium. Keeping the device out of D3cold, or a firmware \
         (BIOS, coreboot) update, is the fix.",
    fix: "keep the device powered (no runtime D3cold)",
    steps: &[
        "Now: `echo on | sudo tee /sys/bus/pci/devices/ADDR/power/control` for the device and \
         the port above it (ADDR from the lines above)",
        "Permanently: the kernel parameter `pcie_port_pm=off`, or a udev rule setting \
         power/control to on; update the firmware",
    ],
    risk: "the device draws idle power: a little battery on a laptop",
};

/// A line of sd.c/mmc.c's runtime PM callbacks reporting the card's failed resume or
/// suspend (sources::kernel_log::mmc::runtime_pm_failure_host).
fn is_mmc_pm_failure(l: &str) -> bool {
    crate::sources::kernel_log::mmc::runtime_pm_failure_host(l).is_some()
}

/// An SD/MMC card that did not come back from runtime suspend: the host powered the idle
/// card down (runtime PM of the card device, drivers/mmc/core/bus.c mmc_runtime_suspend) and
/// re-initialising it on the next request failed, -110 (ETIMEDOUT) when the card held its
/// busy line past the timeout (mmc_ops.c "Card stuck being busy!"). The core then removes
/// the card (bus.c "card ... removed"), and a filesystem mounted on it loses its journal
/// and goes read-only until the card is detected again.
const MMC_RESUME_FAILED: KeepPowered = KeepPowered {
    is: is_mmc_pm_failure,
    title: "the SD/MMC card failed to resume from runtime suspend",
    explanation: "The kernel let the idle card power down and then could not bring it back \
         ({lines}): re-initialising the card timed out, the card was removed from the \
         system, and anything mounted from it lost its writes in flight (the filesystem \
         aborts its journal and goes read-only). Some cards, and some card readers' power \
         switching, do not survive being powered down at idle; keeping the card powered \
         while it is in use avoids the resume. If the card also fails outside a resume (busy \
         timeouts under load), the card itself is failing.",
    fix: "keep the card powered while it is in use",
    steps: &[
        "Now: `echo on | sudo tee /sys/bus/mmc/devices/mmcN:*/power/control` (N = the host in \
         the lines above), which stops runtime suspend of the card",
        "Permanently: a udev rule `ACTION==\"add\", SUBSYSTEM==\"mmc\", \
         ATTR{power/control}=\"on\"`",
        "Check the filesystem (`fsck`) once the card is back, and try another card if the \
         errors continue",
    ],
    risk: "the card draws idle power: a little battery on a handheld or laptop",
};

/// An SD card removed and detected again within seconds while in use: the card never left
/// its slot, the host lost it. The usual cause is the card reader's runtime power management
/// (rtsx_pci powers the idle slot down and misses the card when it powers it up), sometimes
/// a card-detect switch that bounces; anything mounted from the card loses its writes in
/// flight and its journal.
const CARD_DROPOUT: KeepPowered = KeepPowered {
    is: power_log::is_card_dropout,
    title: "the SD card dropped off its reader and came back seconds later",
    explanation: "The card reader reported the card removed and found it again within \
         seconds ({lines}): nobody takes a card out and puts it back that fast, so the reader \
         lost it. A file system mounted from it loses its writes in flight and its journal \
         (read-only until remounted). The usual cause is the reader's runtime power \
         management (Realtek rtsx_pci readers powering the idle slot down), sometimes a loose \
         card or a bouncing card-detect switch.",
    fix: "keep the card reader powered",
    steps: &[
        "Find the reader: `lspci -nn | grep -i 'card reader'`; then `echo on | sudo tee \
         /sys/bus/pci/devices/ADDR/power/control` stops its runtime suspend",
        "Permanently: a udev rule `ACTION==\"add\", SUBSYSTEM==\"pci\", \
         DRIVER==\"rtsx_pci\", ATTR{power/control}=\"on\"`",
        "If it continues: reseat the card, try another card",
    ],
    risk: "the reader draws idle power: a little battery on a handheld or laptop",
};

/// `f` with a Linux fix, on Linux only (the steps are Linux's).
fn linux_fix(
    sys: &SystemFacts,
    f: Finding,
    summary: &str,
    steps: Vec<String>,
    risk: &str,
) -> Finding {
    if sys.platform != Platform::Linux {
        return f;
    }
    f.fix(Fix {
        platform: sys.platform,
        summary: summary.into(),
        steps,
        risk: risk.into(),
    })
}

/// A disk the kernel stops and restarts again and again (sd.c "Stopping disk" / "Starting
/// disk" within minutes of each other, outside a system sleep): runtime PM of the disk
/// (Linux 4.15+ AHCI runtime PM, laptop-mode-tools, TLP) stops it after a short idle and
/// something (a SMART poller such as udisks2, a desktop's disk scan) wakes it again. Each
/// stop and start is a head unload and spin-up on an HDD (load-cycle wear, SMART 193) and
/// seconds of latency on the request that wakes it.
fn stop_start_cycles(sys: &SystemFacts, d: &DiskFacts, stops: &[&String]) -> Finding {
    let f = power_log_finding(
        d,
        Severity::Notice,
        format!(
            "{}: the kernel stopped the disk {} times within minutes of starting it",
            d.name,
            stops.len()
        ),
        format!(
            "The kernel stopped this disk again a short while after each start ({} times, \
             e.g. \"{}\"), outside any system suspend: runtime power management (the \
             kernel's AHCI runtime PM, laptop-mode-tools or TLP) stops the idle disk and the \
             next access starts it again. Each cycle spins an HDD down and up (wear on its \
             load/unload ramp and spindle, seconds of latency for the request that wakes it) \
             and can take a disk that mishandles it offline. Keep runtime suspend off for \
             this disk, and find what keeps waking it (a SMART poller such as udisks2 every \
             10 minutes).",
            stops.len(),
            stops[0]
        ),
        0.3,
        stops,
    );
    linux_fix(
        sys,
        f,
        "keep runtime suspend off for this disk",
        vec![
            format!(
                "Now: `echo on | sudo tee /sys/block/{}/device/power/control` (runtime PM of \
                 the disk off; `auto` lets it suspend)",
                d.name
            ),
            "laptop-mode-tools: add the disk's class to AUTOSUSPEND_RUNTIME_DEVTYPE_BLACKLIST \
             (runtime-pm.conf); TLP: add the controller to RUNTIME_PM_DENYLIST or set \
             AHCI_RUNTIME_PM_ON_BAT=on"
                .into(),
        ],
        "the disk stays spun up while idle: a little battery on a laptop",
    )
}

/// SError bits (include/linux/libata.h SERR_*, AHCI 1.3.1 PxSERR.DIAG): the PHY left the
/// ready state (PHYRdyChg, bit 16) and the drive signalled COMWAKE (CommWake, bit 18).
const SERR_PHYRDY_CHG: u64 = 1 << 16;
const SERR_COMM_WAKE: u64 = 1 << 18;
/// Bits that say frames were damaged or the drive was swapped: UnrecovData (8), Persist
/// (9), Proto (10), 10B8B (19), Dispar (20), BadCRC (21), Handshk (22), LinkSeq (23),
/// TrStaTr (24), UnrecFIS (25), DevExch (26).
const SERR_DAMAGE: u64 = (1 << 8)
    | (1 << 9)
    | (1 << 10)
    | (1 << 19)
    | (1 << 20)
    | (1 << 21)
    | (1 << 22)
    | (1 << 23)
    | (1 << 24)
    | (1 << 25)
    | (1 << 26);

/// libata exception lines whose SError says the link went down and the drive woke it
/// again, with no damaged frame and no device exchange: "ata1.00: exception Emask 0x10 SAct
/// 0x1 SErr 0x50000 action 0xe frozen" (libata-eh.c ata_eh_link_report). COMWAKE is the
/// out-of-band signal that ends a Partial or Slumber state (SATA 3.x 8.4, interface power
/// states), so a link that drops with it and nothing else is leaving a power-saving state
/// it was let into, by host (ALPM) or drive (DIPM), and failing to resume cleanly.
fn link_wakes(d: &DiskFacts) -> Vec<&crate::facts::KernelEvent> {
    d.kernel_events
        .iter()
        .filter(|e| {
            let low = e.line.to_ascii_lowercase();
            let Some(i) = low.find("serr 0x") else {
                return false;
            };
            if !low.contains("exception emask") {
                return false;
            }
            let hex: String = low
                .get(i + "serr 0x".len()..)
                .unwrap_or("")
                .chars()
                .take_while(|c| c.is_ascii_hexdigit())
                .collect();
            u64::from_str_radix(&hex, 16).is_ok_and(|v| {
                v & SERR_COMM_WAKE != 0
                    && v & SERR_DAMAGE == 0
                    && (v & SERR_PHYRDY_CHG != 0 || frozen(&low))
            })
        })
        .collect()
}

/// "action 0x6 frozen": the error handler froze the port because a command got no answer
/// (libata-eh.c; a timeout, Emask 0x4 on the result line). COMWAKE alone on such an
/// exception, with the PHY still ready, is a drive that was asleep in Partial or Slumber and
/// did not answer the command that should have woken it: the same power-state signature as
/// a link that dropped, seen before the link went down (the ALPM hangs of some SSDs on
/// FLUSH CACHE EXT).
/// Only with Emask 0x0 on the exception line: no transport error (AC_ERR_ATA_BUS 0x10 and
/// the like) flagged by the host beside it.
fn frozen(low: &str) -> bool {
    low.contains(" frozen") && low.contains("exception emask 0x0 ")
}

/// A SATA link that dropped and was woken by the drive, with the host's policy unknown.
fn link_wake(sys: &SystemFacts, d: &DiskFacts, wakes: &[&crate::facts::KernelEvent]) -> Finding {
    let mut f = Finding::new(
        ID,
        &d.name,
        Verdict::Problem,
        Severity::Notice,
        format!(
            "{}: the drive woke the SATA link from a power-saving state (SError CommWake)",
            d.name
        ),
    )
    .explain(format!(
        "The kernel logged {} exception(s) where the link left the ready state and the drive \
         sent COMWAKE to bring it back (SError PHYRdyChg and CommWake), with no damaged frame \
         (no CRC, disparity or 8b/10b error) and no drive swap. COMWAKE is how a SATA link \
         leaves the Partial and Slumber power states, so this is the signature of link power \
         management (the host's ALPM policy, e.g. med_power_with_dipm or min_power, or the \
         drive's DIPM) that the drive or controller does not resume from cleanly: the \
         command in flight fails and the link is reset. If it goes on with the policy at \
         max_performance, look at the cable and power instead (see link-errors).",
        wakes.len()
    ))
    .confidence(Confidence::Low)
    .impact(0.3);
    for e in wakes.iter().take(3) {
        f = f.evidence(e.from.clone(), e.line.clone());
    }
    if sys.platform == Platform::Unknown {
        return f;
    }
    f.fix(sata_fix(sys.platform, d))
}

/// APM levels 1-127 permit spin-down, 128-254 do not (ATA8-ACS SET FEATURES 05h; hdparm(8)
/// -B, camcontrol(8) apm).
const APM_SPINDOWN_MAX: u32 = 127;

/// A spin-down timer shorter than this (5 minutes) stops the platters between the bursts of
/// ordinary use: each burst then starts with a spin-up.
const SHORT_SPIN_DOWN_MS: u64 = 300_000;

/// A drive that spins itself down: an enabled standby timer of its own (SCSI power
/// condition STANDBY_Z/Y, ATA EPC Standby z/y). The next request after the timer waits for
/// the spindle to come up again, typically 10-20 s for a 3.5" drive, long enough for a RAID
/// layer, ZFS or the kernel's command timeout to take the drive for failing.
fn drive_spin_down(sys: &SystemFacts, d: &DiskFacts) -> Option<Finding> {
    if common::media(d) == Some(common::Media::Ssd) {
        return None;
    }
    let timers = d.power.drive_timers.value()?;
    let t = timers
        .iter()
        .filter(|t| t.enabled && t.spins_down)
        .min_by_key(|t| t.timer_ms)?;
    let secs = t.timer_ms / 1000;
    let when = if secs >= 120 {
        format!("{} min", secs / 60)
    } else {
        format!("{} s", t.timer_ms as f64 / 1000.0)
    };
    let sev = if t.timer_ms < SHORT_SPIN_DOWN_MS {
        Severity::Warning
    } else {
        Severity::Notice
    };
    let mut f = Finding::new(
        ID,
        &d.name,
        Verdict::Problem,
        sev,
        format!(
            "{}: the drive spins itself down after {when} idle ({})",
            d.name, t.condition
        ),
    )
    .explain(format!(
        "The drive's own {} timer is enabled at {when}: after that much idle time it stops \
         (or slows) its platters without the OS asking. The next request waits for the \
         spin-up, typically 10-20 s, and every cycle wears the motor and head ramp. In an \
         array or a ZFS pool the wait is long enough for commands to time out, so the drive \
         looks as if it failed, and the disks spin up one after another. {}",
        t.condition,
        if t.timer_ms < SHORT_SPIN_DOWN_MS {
            "A timer this short stops the drive between the bursts of ordinary use."
        } else {
            "Worth it for a drive that sits idle for hours; not for one an array or a pool \
             wakes every few minutes."
        }
    ))
    .confidence(Confidence::Medium)
    .impact(0.3);
    f = common::cite(
        f,
        &d.power.drive_timers,
        format!(
            "{} enabled, timer {} ms: {}",
            t.condition, t.timer_ms, t.line
        ),
    );
    Some(f.fix(spin_down_fix(sys.platform, d)))
}

fn spin_down_fix(platform: Platform, d: &DiskFacts) -> Fix {
    let dev = if d.dev_path.is_empty() {
        format!("/dev/{}", d.name)
    } else {
        d.dev_path.clone()
    };
    match platform {
        Platform::Freebsd => Fix {
            platform,
            summary: "turn off the drive's own standby timer".into(),
            steps: vec![
                format!(
                    "EPC drives: `{}` (and Standby_y)",
                    ask(Ask::CamEpcStandbyOff, &d.name)
                ),
                format!(
                    "SCSI drives: `{}` and set STANDBY to 0",
                    ask(Ask::CamEditPowerPage, &d.name)
                ),
            ],
            risk: "the drive keeps spinning when idle: a few watts more per drive".into(),
        },
        _ => Fix {
            platform,
            summary: "turn off the drive's own standby timer, or lengthen it".into(),
            steps: vec![
                format!(
                    "SCSI/SAS drives: `sudo sdparm --clear=STANDBY_Z --save {dev}` (and \
                     STANDBY_Y); `sdparm -p po {dev}` shows the result"
                ),
                format!(
                    "SATA drives with EPC (Seagate PowerChoice): `sudo openSeaChest_PowerControl \
                     -d {dev} --standby_z disable` (or `--standby_z default`; the same for \
                     --standby_y)"
                ),
                "If a spin-down daemon (hd-idle, hdparm -S, tuned) set it, change its settings \
                 too or it sets the timer again"
                    .into(),
            ],
            risk: "the drive keeps spinning when idle: a few watts more per drive, no risk to \
                   data"
                .into(),
        },
    }
}

/// Load/unload cycles drives are rated for (datasheets quote 300 000 to 600 000).
const RATED_LOAD_CYCLES: u64 = 600_000;

/// The lowest rating datasheets quote (300 000 load/unload cycles for 3.5" desktop and NAS
/// drives such as WD Green/Red and Seagate Barracuda; 2.5" drives are rated 600 000): a
/// count past it is at the end of many drives' ramp life, and at half or more of the
/// others', which no ordinary use reaches without parking after every pause.
const LOWEST_RATED_LOAD_CYCLES: u64 = 300_000;
/// More head loads per power-on hour than this means the heads park within minutes of idle
/// (an aggressive APM level <= 127, or a WD idle3 timer of seconds).
const PARKS_PER_HOUR: u64 = 20;

/// An HDD whose SMART 193 Load_Cycle_Count grows fast: every park and reload costs the next
/// request up to a second, and wears the head ramp.
fn head_parking(sys: &SystemFacts, d: &DiskFacts) -> Option<Finding> {
    // Only drives with heads count loads. An unknown medium is judged too: older drives
    // (WD Caviar Green WD20EARS, smartctl 6.4) print no "Rotation Rate", and a SMART 193
    // count is itself the head-load counter of ATA/ACS's Load/Unload Cycle Count.
    if common::media(d) == Some(common::Media::Ssd) {
        return None;
    }
    if let Some(f) = watched_parking(sys, d) {
        return Some(f);
    }
    let lc = d.power.load_cycles.get()?;
    let poh = d
        .smart
        .value()
        .and_then(|s| s.power_on_hours)
        .filter(|h| *h > 0);
    // Without the power-on hours (a monitoring plugin's one-line verdict, an excerpt) the
    // rate is unknown, but a count past the ramp's rating is the finding by itself.
    let Some(poh) = poh else {
        return (lc >= LOWEST_RATED_LOAD_CYCLES).then(|| past_rating(sys, d, lc));
    };
    let rate = lc / poh;
    let apm = d.power.apm_level.get();
    let value = format!("load_cycles={lc} power_on_hours={poh} ({rate}/h)");
    if lc < RATED_LOAD_CYCLES && rate < PARKS_PER_HOUR {
        return None;
    }
    let sev = if lc >= RATED_LOAD_CYCLES {
        Severity::Warning
    } else {
        Severity::Notice
    };
    let mut f = Finding::new(
        ID,
        &d.name,
        Verdict::Problem,
        sev,
        format!("{}: heads park {rate} times an hour ({lc} load cycles)", d.name),
    )
    .explain(format!(
        "SMART 193 Load_Cycle_Count is {lc} after {poh} power-on hours, {rate} per hour: the \
         drive parks its heads within moments of going idle ({}). Each request after a pause \
         waits for the heads to load again, and the ramp is rated for {RATED_LOAD_CYCLES} \
         cycles at most.",
        match apm {
            Some(l) if l <= APM_SPINDOWN_MAX => format!(
                "its Advanced Power Management level is {l}: 1-127 let the drive park and spin \
                 down on its own"
            ),
            Some(l) => format!(
                "its Advanced Power Management level is {l}, which does not allow spin-down, so \
                 a vendor idle timer parks them (WD's idle3)"
            ),
            None => "an Advanced Power Management level of 127 or less, or WD's idle3 timer"
                .to_string(),
        }
    ))
    .confidence(Confidence::Medium)
    .impact(0.2);
    f = common::cite(f, &d.power.load_cycles, value.clone());
    f = common::cite(f, &d.smart, value);
    if let Some(l) = apm {
        f = common::cite(f, &d.power.apm_level, format!("apm_level={l}"));
    }
    Some(f.fix(parking_fix(sys, d)))
}

/// The load cycle count read several times in one paste, with the poster's times between
/// the readings: the rate while they watched. Above PARKS_PER_HOUR the heads park within
/// minutes of every pause (an idle drive parks once and stays parked; one in use reloads on
/// each request after a pause), the notice head_parking gives from the lifetime rate.
/// Fewer than 10 cycles between the readings is no rate to speak of (a park and a wake or
/// two), whatever the time.
fn watched_parking(sys: &SystemFacts, d: &DiskFacts) -> Option<Finding> {
    let w = d.power.load_cycles_watched.value()?;
    let grown = w.last.checked_sub(w.first)?;
    let per_hour = grown.checked_mul(3600)?.checked_div(u64::from(w.seconds))?;
    if grown < 10 || per_hour < PARKS_PER_HOUR {
        return None;
    }
    let minutes = w.seconds / 60;
    let value = format!(
        "load_cycles {} -> {} in {minutes} min ({per_hour}/h)",
        w.first, w.last
    );
    let title = format!(
        "{}: heads parked {grown} times in {minutes} minutes ({per_hour} an hour)",
        d.name
    );
    let f = Finding::new(ID, &d.name, Verdict::Problem, Severity::Notice, title)
        .explain(format!(
            "SMART 193 Load_Cycle_Count went from {} to {} in the {minutes} minutes between the \
         readings in the paste, {per_hour} an hour: the drive parks its heads within moments \
         of going idle (an Advanced Power Management level of 127 or less, or WD's idle3 \
         timer). Each request after a pause waits for the heads to load again, and the ramp \
         is rated for {LOWEST_RATED_LOAD_CYCLES} to {RATED_LOAD_CYCLES} cycles, which this \
         rate reaches in another {} hours of use at most.",
            w.first,
            w.last,
            RATED_LOAD_CYCLES
                .saturating_sub(w.last)
                .checked_div(per_hour)
                .unwrap_or(0)
        ))
        .confidence(Confidence::Medium)
        .impact(0.2);
    let f = common::cite(f, &d.power.load_cycles_watched, value);
    Some(f.fix(parking_fix(sys, d)))
}

/// Load cycles near or past the ramp's rating with the power-on hours unknown: a warning
/// past the highest rating datasheets quote, a notice past the lowest.
fn past_rating(sys: &SystemFacts, d: &DiskFacts, lc: u64) -> Finding {
    let (severity, title, rating) = if lc >= RATED_LOAD_CYCLES {
        (
            Severity::Warning,
            format!(
                "{}: {lc} head load cycles, past the {RATED_LOAD_CYCLES} rated",
                d.name
            ),
            format!("more often than the ramp is rated for ({RATED_LOAD_CYCLES})"),
        )
    } else {
        (
            Severity::Notice,
            format!(
                "{}: {lc} head load cycles, past the {LOWEST_RATED_LOAD_CYCLES} many drives are \
                 rated for",
                d.name
            ),
            format!(
                "past the {LOWEST_RATED_LOAD_CYCLES} cycles 3.5\" drives are rated for and \
                 most of the {RATED_LOAD_CYCLES} of 2.5\" drives"
            ),
        )
    };
    let f = Finding::new(ID, &d.name, Verdict::Problem, severity, title)
        .explain(format!(
            "SMART 193 Load_Cycle_Count is {lc}: the heads have parked and loaded again {rating}. \
         Drives get there by parking within moments of going idle (an Advanced Power \
         Management level of 127 or less, or WD's idle3 timer); each request after a pause \
         then waits for the heads to load. The power-on hours, which would give the rate, \
         were not in the paste."
        ))
        .confidence(Confidence::Medium)
        .impact(0.2);
    let f = common::cite(f, &d.power.load_cycles, format!("load_cycles={lc}"));
    f.fix(parking_fix(sys, d))
}

fn parking_fix(sys: &SystemFacts, d: &DiskFacts) -> Fix {
    let dev = if d.dev_path.is_empty() {
        format!("/dev/{}", d.name)
    } else {
        d.dev_path.clone()
    };
    match sys.platform {
        Platform::Freebsd => Fix {
            platform: sys.platform,
            summary: "stop the aggressive head parking".into(),
            steps: vec![format!(
                "`{}` (254: performance, no parking)",
                ask(Ask::CamApmPerformance, &d.name)
            )],
            risk: "heads stay loaded: a little more idle power and noise".into(),
        },
        _ => Fix {
            platform: sys.platform,
            summary: "stop the aggressive head parking".into(),
            steps: vec![
                format!(
                    "`sudo hdparm -B 254 {dev}` (APM 254; `-B 255` turns APM off where supported)"
                ),
                format!(
                    "WD drives: `sudo idle3ctl -d {dev}` (idle3-tools), then power-cycle the drive"
                ),
                "Make -B permanent in /etc/hdparm.conf or a udev rule".into(),
            ],
            risk: "heads stay loaded: a little more idle power (about 0.5 W) and noise".into(),
        },
    }
}

/// What an NVMe controller's power-log lines (sources::power_log::nvme_power_lines) say
/// caused its trouble: one reading per controller, from the kind its lines all share.
#[derive(Debug, Clone, Copy, PartialEq)]
enum NvmeCause {
    /// Timeouts the driver escalated to a controller reset, outside any sleep transition
    /// and with no media status (power_log::nvme_timeout_resets): the common reading is a
    /// power state (APST, ASPM, the platform's D3 handling), at notice: the kernel did not
    /// say so itself.
    TimeoutResets,
    /// FreeBSD nvme(4) lines of a controller that did not come back from a reset
    /// (power_log::freebsd_nvme_reset_hangs): no kernel hint names a power state there.
    ResetHang,
    /// Timeouts logged while the system suspended or resumed
    /// (power_log::nvme_sleep_transition_lines), with no reset line of the kernel's own.
    SleepTransition,
    /// The kernel's own power-state lines ("controller is down; will reset", "faulty
    /// power saving mode", APST feature failures).
    KernelHint,
}

impl NvmeCause {
    /// The cause the lines share; None without lines (only AER reports).
    fn of(lines: &[&String]) -> Option<NvmeCause> {
        let all = |f: fn(&str) -> bool| lines.iter().all(|l| f(l));
        if lines.is_empty() {
            None
        } else if all(crate::sources::power_log::is_timeout_reset) {
            Some(NvmeCause::TimeoutResets)
        } else if all(crate::sources::power_log::is_freebsd_reset_hang) {
            Some(NvmeCause::ResetHang)
        } else if all(crate::sources::power_log::is_nvme_timeout) {
            Some(NvmeCause::SleepTransition)
        } else {
            Some(NvmeCause::KernelHint)
        }
    }

    fn title(self) -> &'static str {
        match self {
            NvmeCause::TimeoutResets => {
                "NVMe command timeouts and controller resets, no media error"
            }
            NvmeCause::ResetHang => "NVMe controller did not come back from a reset",
            NvmeCause::SleepTransition => "NVMe command timeouts during suspend/resume",
            NvmeCause::KernelHint => "NVMe resets after a power-saving state",
        }
    }

    /// The explanation's first part: `n` lines, `first` of them quoted.
    fn explanation(self, n: usize, first: &str) -> String {
        match self {
            NvmeCause::TimeoutResets => format!(
                "The NVMe controller stopped answering commands until the driver reset it \
                 ({n} lines, e.g. \"{first}\"), and no command failed with a media status: \
                 the requests it failed were aborted by the host, not refused by the flash. \
                 On a laptop or after a suspend this is most often a power state the drive \
                 or platform mishandles (NVMe APST, PCIe ASPM L1, or the drive not put in D3 \
                 over suspend), less often the PCIe link or the drive's firmware. Every reset \
                 stalls I/O for seconds and can fail writes. "
            ),
            NvmeCause::ResetHang => format!(
                "The driver reset the NVMe controller after commands timed out, and the \
                 controller did not become ready again ({n} lines, e.g. \"{first}\"): I/O \
                 waits for it, and at boot the root file system never mounts. A controller \
                 that stays not-ready after a reset is hung in a state the driver cannot take \
                 it out of: its own power states, the PCIe link's ASPM, or the platform \
                 firmware's setup of the slot (typical after a BIOS or coreboot change). Its \
                 medium is not what failed: no command came back with a media error. "
            ),
            NvmeCause::SleepTransition => format!(
                "The NVMe controller stopped answering commands while the system was \
                 suspending or resuming ({n} lines, e.g. \"{first}\"): the driver timed them \
                 out and aborted them. A drive that hangs exactly across a sleep transition \
                 is failing the power-state change (its own APST or D3 states, PCIe ASPM L1, \
                 or the platform's handling of the port), not its medium. Every timeout \
                 stalls I/O for seconds and can fail requests or hang the resume. "
            ),
            NvmeCause::KernelHint => format!(
                "The kernel log shows the NVMe controller dropping off the bus and being \
                 reset ({n} lines, e.g. \"{first}\"): the kernel itself suspects a faulty \
                 power-saving state (NVMe APST or PCIe ASPM L1). Every reset stalls I/O for \
                 seconds and can fail requests. "
            ),
        }
    }
}

fn nvme_fix(platform: Platform) -> Fix {
    match platform {
        Platform::Freebsd => Fix {
            platform,
            summary: "turn off PCIe link power management for the drive".into(),
            steps: vec![
                "Add `hw.pci.enable_aspm=0` to /boot/loader.conf and reboot".into(),
                "Update the drive's firmware".into(),
            ],
            risk: "costs idle power (a watt or so on a laptop); no risk to data".into(),
        },
        _ => Fix {
            platform,
            summary: "turn off the failing power states, then update the firmware".into(),
            steps: vec![
                "Add `nvme_core.default_ps_max_latency_us=0` to the kernel command line \
                 (disables APST); if resets continue add `pcie_aspm=off`"
                    .into(),
                "Debian/Ubuntu: edit GRUB_CMDLINE_LINUX in /etc/default/grub, `sudo update-grub`, reboot"
                    .into(),
                "Check for a drive firmware update (`sudo nvme fw-log /dev/nvme0`)".into(),
            ],
            risk: "the drive and link stop saving power at idle: a laptop loses some battery \
                   time (often 0.5-2 W); desktops hardly notice"
                .into(),
        },
    }
}

fn sata_fix(platform: Platform, d: &DiskFacts) -> Fix {
    match platform {
        Platform::Freebsd => Fix {
            platform,
            summary: "keep the SATA link awake".into(),
            steps: vec![
                "Set `hint.ahcich.N.pm_level=\"0\"` in /boot/loader.conf (N = the channel)".into(),
            ],
            risk: "costs idle power on laptops; no risk to data".into(),
        },
        _ => {
            let host = d
                .power
                .lpm_policy
                .sources()
                .first()
                .and_then(|s| s.strip_prefix("file:"))
                .unwrap_or("/sys/class/scsi_host/hostN/link_power_management_policy")
                .to_string();
            Fix {
                platform,
                summary: "keep the SATA link awake".into(),
                steps: vec![
                    format!("Now: `echo max_performance | sudo tee {host}`"),
                    "Permanently: a udev rule `ACTION==\"add\", SUBSYSTEM==\"scsi_host\", \
                     KERNEL==\"host*\", ATTR{link_power_management_policy}=\"max_performance\"`, \
                     or TLP's SATA_LINKPWR_ON_BAT/ON_AC"
                        .into(),
                ],
                risk: "the link stops sleeping: roughly 0.5-1.5 W more at idle on a laptop".into(),
            }
        }
    }
}

#[cfg(test)]
mod tests;
