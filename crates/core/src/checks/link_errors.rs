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

pub struct LinkErrors;

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
        common::disks(sys).map(|d| check_disk(sys, d)).collect()
    }
}

pub(crate) fn check_disk(sys: &SystemFacts, d: &DiskFacts) -> Finding {
    // Plain I/O errors around a failing link count here, not as media errors, when nothing
    // points at the media (see media_errors::link_explains_io_errors).
    let io_too = crate::checks::media_errors::link_explains_io_errors(d);
    let events: Vec<_> = d
        .kernel_events
        .iter()
        .filter(|e| common::is_link_event(e.kind) || io_too && e.kind == KernelEventKind::IoError)
        .collect();
    let crc = d.smart.value().and_then(|s| s.udma_crc_errors);
    if events.is_empty() && crc.is_none_or(|n| n == 0) {
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
    let count = |k: KernelEventKind| events.iter().filter(|e| e.kind == k).count();
    for (k, words) in [
        (KernelEventKind::CrcError, "kernel CRC/parity error line(s)"),
        (KernelEventKind::LinkReset, "link reset line(s)"),
        (KernelEventKind::ComresetFailed, "COMRESET failure line(s)"),
        (
            KernelEventKind::LinkSpeedLimited,
            "link speed step-down line(s)",
        ),
        (
            KernelEventKind::IoError,
            "I/O error line(s) around them (not media errors: none names a bad sector)",
        ),
    ] {
        let n = count(k);
        if n > 0 {
            parts.push(format!("{n} {words}"));
        }
    }
    let mut expl = format!("{}: {}. ", d.name, parts.join("; "));
    expl.push_str(
        "These are errors on the wire between port and drive, not on the disk's surface: a \
         frame arrived damaged and was sent again, or the link dropped and had to be \
         re-established. Each retry or reset stalls I/O, from milliseconds to the 30 s of a \
         command timeout, and repeated errors make the kernel lower the link speed. The usual \
         causes are a poor or loose SATA cable, a worn connector or backplane, a weak power \
         supply or splitter, and aggressive link power management. ",
    );
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
    let severity = if count(KernelEventKind::ComresetFailed) > 0 {
        Severity::Critical
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
    for e in &events {
        f = f.evidence(e.from.clone(), e.line.clone());
    }
    for fix in fixes(sys.platform, d) {
        f = f.fix(fix);
    }
    f
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
mod tests {
    use super::*;
    use crate::checks::testutil::*;
    use crate::facts::{Fact, KernelEvent, Smart};

    fn run(sys: &SystemFacts) -> Finding {
        let fs = LinkErrors.run(sys);
        assert_eq!(fs.len(), 1);
        fs.into_iter().next().unwrap_or_else(|| unreachable!())
    }

    fn ev(kind: KernelEventKind, line: &str) -> KernelEvent {
        KernelEvent {
            kind,
            line: line.to_string(),
            from: "cmd:dmesg".to_string(),
        }
    }

    #[test]
    fn clean_passes() {
        let f = run(&linux(sata_hdd_ahci()));
        assert_vs(&f, Verdict::Pass, Severity::Info);
        assert_eq!(f.evidence[0].value, "udma_crc_errors=0");
    }

    #[test]
    fn crc_count_is_warning_with_cable_fix() {
        let mut d = sata_hdd_ahci();
        let mut s = d.smart.value().cloned().unwrap_or_default();
        s.udma_crc_errors = Some(117);
        d.smart = Fact::known(s, "cmd:smartctl -j -a /dev/sda");
        let f = run(&linux(d));
        assert_vs(&f, Verdict::Problem, Severity::Warning);
        assert_eq!(f.title, "sda: 117 UDMA CRC errors counted by the drive");
        assert!(f.explanation.contains("compare it again"));
        assert!(f.fixes[0].steps[0].contains("SATA data cable"));
        assert!(
            f.fixes[1]
                .steps
                .iter()
                .any(|s| s.contains("max_performance"))
        );
    }

    #[test]
    fn events_tie_to_slow_link() {
        let mut d = sata_hdd_ahci();
        d.link_current_gbps = Fact::known(3.0, "file:/sys/class/ata_link/link1/sata_spd");
        d.kernel_events = vec![
            ev(KernelEventKind::CrcError, "ata1.00: error: { ICRC ABRT }"),
            ev(
                KernelEventKind::LinkSpeedLimited,
                "ata1: limiting SATA link speed to 3.0 Gbps",
            ),
            ev(KernelEventKind::LinkReset, "ata1: hard resetting link"),
        ];
        let f = run(&linux(d));
        assert_vs(&f, Verdict::Problem, Severity::Warning);
        assert!(
            f.explanation
                .contains("3.0 instead of 6.0 Gb/s; see sata-link-below-max")
        );
        assert_eq!(f.evidence.len(), 4);
        assert!(
            f.evidence
                .iter()
                .any(|e| e.value == "ata1: hard resetting link")
        );
    }

    #[test]
    fn comreset_failed_is_critical() {
        let mut d = sata_hdd_ahci_freebsd();
        d.kernel_events = vec![ev(
            KernelEventKind::ComresetFailed,
            "ahcich0: Timeout on slot 0 port 0",
        )];
        let f = run(&freebsd(d));
        assert_vs(&f, Verdict::Problem, Severity::Critical);
        assert!(f.fixes[1].steps[0].contains("pm_level"));
    }

    #[test]
    fn unknown_smart_no_events() {
        let mut d = sata_hdd_ahci();
        d.smart = Fact::unknown("permission denied (run as root)");
        let f = run(&linux(d));
        assert_vs(&f, Verdict::Unknown, Severity::Info);
        assert!(f.explanation.contains("smartctl -j -a /dev/sda"));
    }

    #[test]
    fn smart_without_crc_counter_passes() {
        let mut d = sata_hdd_ahci();
        d.smart = Fact::known(Smart::default(), "cmd:smartctl -j -a /dev/sda");
        let f = run(&linux(d));
        assert_vs(&f, Verdict::Pass, Severity::Info);
    }
}
