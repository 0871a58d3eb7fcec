use super::*;
use crate::checks::testutil::*;
use crate::checks::testutil_nvme::{fixture, nvme_ssd};
use crate::facts::{Fact, KernelEvent};
use crate::sources::power_log;

#[test]
fn nvme_apst_reset_from_real_dmesg_fires() {
    let log = fixture("linux/dmesg/nvme-wd-sn570-apst-controller-down-faulty-power-saving.txt");
    let mut d = nvme_ssd();
    let lines = power_log::nvme_power_lines(&log, "nvme0", &["0000:01:00.0".into()]);
    assert_eq!(lines.len(), 4, "{lines:#?}");
    d.power.power_log = Fact::known(lines, crate::sources::kernel_log::LINUX_SPEC.key_for(""));
    let f = &PowerManagement.run(&linux(d))[0];
    assert_vs(f, Verdict::Problem, Severity::Warning);
    assert!(
        f.explanation.contains("faulty power-saving")
            || f.explanation.contains("power-saving state")
    );
    assert!(f.fixes[0].steps[0].contains("nvme_core.default_ps_max_latency_us=0"));
    assert!(f.fixes[0].risk.contains("battery"));
}

#[test]
fn nvme_timeouts_escalated_to_a_reset_are_a_power_notice() {
    // pci.c nvme_timeout's 6.x form, no sleep transition, a path status only.
    let log = "kernel: nvme nvme0: I/O tag 5 (1005) opcode 0x2 (Read) QID 3 timeout, aborting req_op:READ(0) size:8192\n\
                   kernel: nvme nvme0: I/O tag 5 (1005) opcode 0x2 (Read) QID 3 timeout, reset controller\n\
                   kernel: nvme0n1: Read(0x2) @ LBA 100, 16 blocks, Host Aborted Command (sct 0x3 / sc 0x71)\n";
    let mut d = nvme_ssd();
    d.power.power_log = Fact::known(
        power_log::nvme_power_lines(log, "nvme0", &[]),
        crate::sources::kernel_log::LINUX_SPEC.key_for(""),
    );
    let f = &PowerManagement.run(&linux(d.clone()))[0];
    assert_vs(f, Verdict::Problem, Severity::Notice);
    assert!(f.title.contains("controller resets"), "{}", f.title);
    assert!(f.fixes[0].steps[0].contains("nvme_core.default_ps_max_latency_us=0"));
    // Near miss: the same aborts that never escalated leave nothing to report.
    let aborts = "kernel: nvme nvme0: I/O tag 5 (1005) opcode 0x2 (Read) QID 3 timeout, aborting\n";
    d.power.power_log = Fact::known(
        power_log::nvme_power_lines(aborts, "nvme0", &[]),
        crate::sources::kernel_log::LINUX_SPEC.key_for(""),
    );
    assert!(PowerManagement.run(&linux(d))[0].verdict != Verdict::Problem);
}

#[test]
fn freebsd_nvme_reset_that_never_finishes_is_power_management() {
    let log = "nvme0: Resetting controller due to a timeout.\n\
                   nvme0: resetting controller\n\
                   nvme0: Waiting for reset to complete\n\
                   nvme0: Waiting for reset to complete\n";
    let mut d = nvme_ssd();
    d.power.power_log = Fact::known(
        power_log::freebsd_nvme_reset_hangs(log, "nvme0"),
        "file:/var/run/dmesg.boot",
    );
    let f = &PowerManagement.run(&freebsd(d))[0];
    assert_vs(f, Verdict::Problem, Severity::Warning);
    assert!(
        f.title.contains("did not come back from a reset"),
        "{}",
        f.title
    );
    assert!(f.fixes[0].steps[0].contains("hw.pci.enable_aspm=0"));
}

#[test]
fn nvme_timeouts_across_suspend_are_power_management() {
    // A resume log: ACPI wake, the driver's timeouts and abort, then suspend.c's exit.
    let log = "[ 7.0] ACPI: PM: Waking up from system sleep state S3\n\
                   [ 9.5] nvme nvme0: I/O 640 QID 7 timeout, aborting\n\
                   [ 9.6] nvme nvme0: Abort status: 0x371\n\
                   [ 9.9] PM: suspend exit\n";
    let mut d = nvme_ssd();
    d.power.power_log = Fact::known(
        power_log::nvme_power_lines(log, "nvme0", &[]),
        crate::sources::kernel_log::LINUX_SPEC.key_for(""),
    );
    let f = &PowerManagement.run(&linux(d))[0];
    assert_vs(f, Verdict::Problem, Severity::Warning);
    assert!(f.title.contains("during suspend/resume"), "{}", f.title);
    assert!(
        f.explanation.contains("not its medium"),
        "{}",
        f.explanation
    );
    assert_eq!(f.evidence.len(), 2, "{:?}", f.evidence);
}

#[test]
fn clean_log_passes_and_nothing_known_is_silent() {
    let mut d = nvme_ssd();
    d.power.power_log = Fact::known(vec![], crate::sources::kernel_log::LINUX_SPEC.key_for(""));
    assert_vs(
        &PowerManagement.run(&linux(d))[0],
        Verdict::Pass,
        Severity::Info,
    );
    assert!(PowerManagement.run(&linux(nvme_ssd())).is_empty());
    assert!(PowerManagement.run(&linux(sata_hdd_ahci())).is_empty());
}

#[test]
fn head_parking_from_check_smart_pr_91_fires() {
    // Napsty/check_smart pull request 91: WDC WD20SPZX-22CRAT0 with
    // Load_Cycle_Count=1239994 at Power_On_Hours=38056 (the plugin's perfdata line).
    let mut d = sata_hdd_ahci();
    d.power.load_cycles = Fact::known(1_239_994, crate::sources::smartctl::SPEC.key_for("sda"));
    if let Fact::Known { value, .. } = &mut d.smart {
        value.power_on_hours = Some(38_056);
    }
    let f = &PowerManagement.run(&linux(d))[0];
    assert_vs(f, Verdict::Problem, Severity::Warning);
    assert!(f.title.contains("32 times an hour"), "{}", f.title);
    assert!(f.fixes[0].steps[0].contains("hdparm -B 254 /dev/sda"));
}

#[test]
fn a_drive_failing_its_link_power_management_setup_is_a_notice() {
    // libata-eh.c ata_eh_set_lpm / libahci.c ahci_set_aggressive_devslp lines of the
    // disk's port, other ports and numbers than any fixture.
    let log = "[    3.1] ata4.00: failed to enable DEVSLP\n\
                   [    3.2] ata4.00: failed to enable DIPM, Emask 0x4\n\
                   [    3.3] ata3.00: failed to enable DIPM, Emask 0x40\n\
                   [   13.9] ata4.00: disabling LPM on the link\n";
    let mut d = sata_hdd_ahci();
    d.power.power_log = Fact::known(power_log::sata_lpm_failures(log, 4), "cmd:dmesg");
    let f = &PowerManagement.run(&linux(d.clone()))[0];
    assert_vs(f, Verdict::Problem, Severity::Notice);
    assert!(f.title.contains("link power management"), "{}", f.title);
    assert_eq!(f.evidence.len(), 3, "{:?}", f.evidence);
    assert!(
        f.fixes[0].steps[0].contains("max_performance"),
        "{:?}",
        f.fixes
    );
    // The same drive on a port without such lines: nothing from the log.
    d.power.power_log = Fact::known(power_log::sata_lpm_failures(log, 5), "cmd:dmesg");
    let fs = PowerManagement.run(&linux(d.clone()));
    assert!(fs.iter().all(|f| f.verdict != Verdict::Problem), "{fs:#?}");
    // AER lines of the controller's PCIe path are not the drive's power management.
    d.power.power_log = Fact::known(
        vec!["pcieport 0000:00:1c.0: AER: Corrected error received: 0000:03:00.0".into()],
        "cmd:dmesg",
    );
    let fs = PowerManagement.run(&linux(d));
    assert!(fs.iter().all(|f| f.verdict != Verdict::Problem), "{fs:#?}");
}

#[test]
fn load_cycles_past_the_rating_count_without_the_hours() {
    // check_smart.pl's verdict alone: Load_Cycle_Count, no Power_On_Hours.
    let mut d = sata_hdd_ahci();
    d.power.load_cycles = Fact::known(700_001, "pasted:check-smart line 1");
    if let Fact::Known { value, .. } = &mut d.smart {
        value.power_on_hours = None;
    }
    let f = &PowerManagement.run(&linux(d.clone()))[0];
    assert_vs(f, Verdict::Problem, Severity::Warning);
    assert!(f.title.contains("700001"), "{}", f.title);
    // Past the lowest rating datasheets quote (300 000), below the highest: a notice.
    for lc in [300_000, 412_345, 599_999] {
        d.power.load_cycles = Fact::known(lc, "pasted:smartctl line 2");
        let f = &PowerManagement.run(&linux(d.clone()))[0];
        assert_vs(f, Verdict::Problem, Severity::Notice);
        assert!(f.title.contains(&lc.to_string()), "{}", f.title);
        assert!(
            f.explanation.contains("were not in the paste"),
            "{}",
            f.explanation
        );
    }
    // Below every rating and no rate to judge: nothing said.
    for lc in [120_000, 299_999] {
        d.power.load_cycles = Fact::known(lc, "pasted:check-smart line 1");
        let fs = PowerManagement.run(&linux(d.clone()));
        assert!(fs.iter().all(|f| f.verdict != Verdict::Problem), "{fs:#?}");
    }
    // An SSD counts no head loads whatever its attribute 193 says.
    d.power.load_cycles = Fact::known(450_000, "pasted:smartctl line 2");
    d.class = Fact::known(crate::model::DeviceClass::Ssd, "pasted:smartctl line 2");
    let fs = PowerManagement.run(&linux(d));
    assert!(fs.iter().all(|f| f.verdict != Verdict::Problem), "{fs:#?}");
}

#[test]
fn head_parking_watched_in_the_paste() {
    use crate::model::WatchedLoadCycles;
    let run = |first: u64, last: u64, seconds: u32| {
        let mut d = sata_hdd_ahci();
        d.power.load_cycles = Fact::known(first, "pasted:smartctl lines 2-6");
        d.power.load_cycles_watched = Fact::known(
            WatchedLoadCycles {
                first,
                last,
                seconds,
            },
            "pasted:smartctl lines 2-6",
        );
        if let Fact::Known { value, .. } = &mut d.smart {
            value.power_on_hours = None;
        }
        PowerManagement
            .run(&linux(d))
            .into_iter()
            .filter(|f| f.verdict == Verdict::Problem)
            .collect::<Vec<_>>()
    };
    // 68 cycles in 10 minutes (a 2.5" drive on AC, the 2008 Ubuntu laptop class).
    let fs = run(12_522, 12_590, 600);
    assert_eq!(fs.len(), 1, "{fs:#?}");
    assert_vs(&fs[0], Verdict::Problem, Severity::Notice);
    assert!(fs[0].title.contains("408 an hour"), "{}", fs[0].title);
    // A drive read over a day of use, 3 an hour: not fast.
    assert!(run(5_000, 5_072, 86_400).is_empty());
    // A park or two while someone watched: no rate.
    assert!(run(100, 103, 60).is_empty());
}

#[test]
fn head_parking_names_a_low_apm_level() {
    let mut d = sata_hdd_ahci();
    d.power.load_cycles = Fact::known(1_239_994, crate::sources::smartctl::SPEC.key_for("sda"));
    if let Fact::Known { value, .. } = &mut d.smart {
        value.power_on_hours = Some(38_056);
    }
    d.power.apm_level = Fact::known(96, crate::sources::hdparm::APM_LIVE.key_for("sda"));
    let f = &PowerManagement.run(&linux(d.clone()))[0];
    assert!(
        f.explanation
            .contains("Advanced Power Management level is 96: 1-127"),
        "{}",
        f.explanation
    );
    assert!(!f.explanation.contains("  "), "{}", f.explanation);
    assert!(f.evidence.iter().any(
        |e| e.source == crate::sources::hdparm::APM_LIVE.key_for("sda")
            && e.value == "apm_level=96"
    ));
    assert!(f.fixes[0].steps[0].contains("hdparm -B 254 /dev/sda"));
    assert!(!f.fixes[0].risk.is_empty());
    // A level that forbids spin-down points at the vendor timer instead.
    d.power.apm_level = Fact::known(254, crate::sources::hdparm::APM_LIVE.key_for("sda"));
    let f = &PowerManagement.run(&linux(d.clone()))[0];
    assert!(
        f.explanation
            .contains("level is 254, which does not allow spin-down")
    );
    // FreeBSD: camcontrol apm.
    let mut s = linux(d);
    s.platform = Platform::Freebsd;
    let f = &PowerManagement.run(&s)[0];
    let fb = f
        .fixes
        .iter()
        .find(|x| x.platform == Platform::Freebsd)
        .expect("freebsd fix");
    assert!(
        fb.steps[0].contains("camcontrol apm sda -l 254"),
        "{:?}",
        fb.steps
    );
}

#[test]
fn head_parking_of_a_drive_of_unknown_medium_fires_but_not_of_an_ssd() {
    // Ubuntu Forums "Recover data from NAS HD": WD20EARS, smartctl 6.4 prints no
    // Rotation Rate; 625927 loads in 25103 hours.
    let mut d = sata_hdd_ahci();
    d.class = Fact::unknown("not pasted");
    d.rotation_rpm = Fact::unknown("not pasted");
    d.rotational = Fact::unknown("not pasted");
    d.power.load_cycles = Fact::known(625_927, crate::sources::smartctl::SPEC.key_for("sda"));
    if let Fact::Known { value, .. } = &mut d.smart {
        value.power_on_hours = Some(25_103);
    }
    let f = &PowerManagement.run(&linux(d.clone()))[0];
    assert_vs(f, Verdict::Problem, Severity::Warning);
    d.rotation_rpm = Fact::known(0, "pasted");
    assert!(PowerManagement.run(&linux(d)).is_empty());
}

#[test]
fn wd40efax_load_cycles_are_normal() {
    // tests/fixtures linux/smartctl/a-hdd-wd40efax-red-smr-smartctl7.2.txt: 7282 cycles in
    // 29520 hours.
    let t = fixture("linux/smartctl/a-hdd-wd40efax-red-smr-smartctl7.2.txt");
    let mut d = sata_hdd_ahci();
    let lc = crate::sources::smartctl_attr::ata_raw(&t, 193);
    assert_eq!(lc, Some(7282));
    d.power.load_cycles = Fact::known(7282, "pasted:smartctl");
    if let Fact::Known { value, .. } = &mut d.smart {
        value.power_on_hours = Some(29_520);
    }
    assert!(PowerManagement.run(&linux(d)).is_empty());
}

#[test]
fn alpm_with_link_resets_fires() {
    let mut d = sata_hdd_ahci();
    d.power.lpm_policy = Fact::known(
        "med_power_with_dipm".into(),
        crate::sources::sysfs::lpm_policy("host0"),
    );
    assert_vs(
        &PowerManagement.run(&linux(d.clone()))[0],
        Verdict::Pass,
        Severity::Info,
    );
    d.kernel_events.push(KernelEvent {
        kind: KernelEventKind::LinkReset,
        line: "ata1: hard resetting link".into(),
        from: crate::sources::kernel_log::LINUX_SPEC.key_for(""),
    });
    let f = &PowerManagement.run(&linux(d))[0];
    assert_vs(f, Verdict::Problem, Severity::Warning);
    assert!(f.fixes[0].steps[0].contains("host0/link_power_management_policy"));
    assert!(f.fixes[0].risk.contains("W more at idle"));
}

/// libata-eh.c ata_eh_link_report's exception line with SErr values: PHYRdyChg with
/// CommWake and nothing else is a link woken from a power state; a damaged-frame bit
/// (10B8B, LinkSeq, BadCRC) or a device exchange is not.
#[test]
fn link_dropped_and_woken_is_a_power_state_when_the_policy_is_unknown() {
    for (serr, wake) in [
        ("0x50000", true),
        ("0x70000", true),
        ("0x50002", true),
        ("0x10000", false),
        ("0x40000", false),
        ("0x850000", false),
        ("0xd0000", false),
        ("0x4050000", false),
        ("0x250000", false),
    ] {
        let mut d = sata_hdd_ahci();
        d.kernel_events.push(KernelEvent {
            kind: KernelEventKind::CrcError,
            line: format!("ata3.00: exception Emask 0x10 SAct 0x1 SErr {serr} action 0xe frozen"),
            from: "pasted:linux-dmesg lines 1-9".into(),
        });
        let f = PowerManagement.run(&linux(d.clone()));
        assert_eq!(
            f.iter().any(|f| f.verdict == Verdict::Problem),
            wake,
            "SErr {serr}: {f:?}"
        );
        if wake {
            assert_vs(&f[0], Verdict::Problem, Severity::Notice);
            assert!(f[0].fixes[0].steps[0].contains("max_performance"));
        }
        // A policy that keeps the link awake rules the power state out.
        d.power.lpm_policy = Fact::known(
            "max_performance".into(),
            crate::sources::sysfs::lpm_policy("host2"),
        );
        assert_vs(
            &PowerManagement.run(&linux(d))[0],
            Verdict::Pass,
            Severity::Info,
        );
    }
}

/// One cause per controller, from the kind its lines share: the driver's own timeout
/// escalation, a sleep transition's timeouts, FreeBSD's reset that never finished, and
/// otherwise the kernel's power-state hint (a mix of kinds included).
#[test]
fn nvme_cause_from_its_lines() {
    let l = |s: &str| s.to_string();
    let reset = l("nvme nvme0: I/O 0 QID 5 timeout, reset controller");
    let timeout = l("nvme nvme0: I/O 3 QID 5 timeout, aborting");
    let hint = l("nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10");
    let hang = l("nvme0: controller ready did not become 1 within 30000 ms");
    assert_eq!(NvmeCause::of(&[&reset]), Some(NvmeCause::TimeoutResets));
    assert_eq!(
        NvmeCause::of(&[&timeout, &reset]),
        Some(NvmeCause::SleepTransition)
    );
    assert_eq!(NvmeCause::of(&[&hang]), Some(NvmeCause::ResetHang));
    assert_eq!(NvmeCause::of(&[&hint]), Some(NvmeCause::KernelHint));
    // Near misses: no line at all (only AER reports), and a hint beside a timeout.
    assert_eq!(NvmeCause::of(&[]), None);
    assert_eq!(
        NvmeCause::of(&[&hint, &timeout]),
        Some(NvmeCause::KernelHint)
    );
    assert!(
        NvmeCause::TimeoutResets
            .explanation(2, &reset)
            .contains("2 lines")
    );
}

#[test]
fn an_sd_card_that_fails_its_runtime_resume() {
    // journalctl -k of a card that timed out re-initialising after runtime suspend
    // (mmc_ops.c __mmc_poll_for_busy, sd.c mmc_sd_runtime_resume, bus.c, block.c).
    let log = "Dec 07 16:34:25 deck kernel: mmc0: Card stuck being busy! __mmc_poll_for_busy\n\
               Dec 07 16:34:25 deck kernel: mmc0: error -110 doing runtime resume\n\
               Dec 07 16:34:25 deck kernel: mmc0: card d555 removed\n\
               Dec 07 16:34:31 deck kernel: mmcblk0: mmc0:d555 SM02T 1.86 TiB\n";
    let lines = crate::sources::kernel_log::mmc::runtime_pm_failures(log);
    assert_eq!(
        lines,
        [(
            "mmc0".to_string(),
            "mmc0: error -110 doing runtime resume".to_string()
        )]
    );
    assert_eq!(
        crate::sources::kernel_log::mmc::disk_of_host(log, "mmc0").as_deref(),
        Some("mmcblk0")
    );
    assert_eq!(
        crate::sources::kernel_log::mmc::disk_of_host(log, "mmc1"),
        None
    );
    let mut d = sata_hdd_ahci();
    d.name = "mmcblk0".into();
    d.power.power_log = Fact::known(
        lines.into_iter().map(|(_, l)| l).collect(),
        crate::sources::kernel_log::LINUX_SPEC.key_for(""),
    );
    let f = &PowerManagement.run(&linux(d))[0];
    assert_vs(f, Verdict::Problem, Severity::Warning);
    assert!(f.title.contains("failed to resume"), "{}", f.title);
    assert!(f.fixes[0].steps[0].contains("power/control"));
    // Near misses: the card's other errors (a busy timeout alone, an initialisation that
    // failed at insertion, a card taken out) are no runtime-PM failure.
    let other = "mmc0: Card stuck being busy! __mmc_poll_for_busy\n\
                 mmc0: error -110 whilst initialising SD card\n\
                 mmc1: cache flush error -110\n\
                 mmc0: card d555 removed\n";
    assert!(crate::sources::kernel_log::mmc::runtime_pm_failures(other).is_empty());
}

#[test]
fn a_disk_stopped_and_started_over_and_over_is_a_notice() {
    // laptop-mode-tools#123 (Linux 4.15 AHCI runtime PM): sd.c sd_suspend_common /
    // sd_resume lines every few seconds, syslog clock.
    let log = "Jan 16 12:33:27 priyasi kernel: sd 1:0:0:0: [sdb] Synchronizing SCSI cache\n\
               Jan 16 12:33:27 priyasi kernel: sd 1:0:0:0: [sdb] Stopping disk\n\
               Jan 16 12:33:30 priyasi kernel: ata2: SATA link up 6.0 Gbps (SStatus 133 SControl 300)\n\
               Jan 16 12:33:30 priyasi kernel: sd 1:0:0:0: [sdb] Starting disk\n\
               Jan 16 12:33:33 priyasi kernel: sd 1:0:0:0: [sdb] Stopping disk\n\
               Jan 16 12:33:33 priyasi kernel: sd 1:0:0:0: [sdb] Starting disk\n\
               Jan 16 12:33:35 priyasi kernel: sd 1:0:0:0: [sdb] Stopping disk\n";
    let stops = power_log::disk_stop_start_cycles(log, "sdb");
    assert_eq!(stops.len(), 2, "{stops:?}");
    assert!(power_log::disk_stop_start_cycles(log, "sda").is_empty());
    // TLP#791: every 10 minutes, restopped 19 s after each start, across midnight too.
    let tlp = "  Feb 19 23:30:58 ArchLinux kernel: sd 5:0:0:0: [sda] Starting disk\n\
               \x20 Feb 19 23:31:17 ArchLinux kernel: sd 5:0:0:0: [sda] Stopping disk\n\
               \x20 Feb 19 23:59:58 ArchLinux kernel: sd 5:0:0:0: [sda] Starting disk\n\
               \x20 Feb 20 00:00:17 ArchLinux kernel: sd 5:0:0:0: [sda] Stopping disk\n";
    assert_eq!(power_log::disk_stop_start_cycles(tlp, "sda").len(), 2);
    let mut d = sata_hdd_ahci();
    d.name = "sdb".into();
    d.power.power_log = Fact::known(stops, crate::sources::kernel_log::LINUX_SPEC.key_for(""));
    let f = &PowerManagement.run(&linux(d))[0];
    assert_vs(f, Verdict::Problem, Severity::Notice);
    assert!(f.fixes[0].steps[0].contains("/sys/block/sdb/device/power/control"));
    // Near misses: suspend/resume cycles hours apart (a `dmesg | grep disk` of a laptop),
    // the same lines inside system sleep transitions, a lone stop at shutdown, and lines
    // without a time.
    let suspends = "[ 7098.619891] sd 1:0:0:0: [sda] Stopping disk\n\
                    [ 7099.957395] sd 1:0:0:0: [sda] Starting disk\n\
                    [25933.946087] sd 1:0:0:0: [sda] Stopping disk\n\
                    [25935.329464] sd 1:0:0:0: [sda] Starting disk\n\
                    [26805.193511] sd 1:0:0:0: [sda] Stopping disk\n\
                    [26806.560883] sd 1:0:0:0: [sda] Starting disk\n\
                    [29011.221937] sd 1:0:0:0: [sda] Stopping disk\n";
    assert!(power_log::disk_stop_start_cycles(suspends, "sda").is_empty());
    let sleep = "[10.0] PM: suspend entry (deep)\n\
                 [10.1] sd 1:0:0:0: [sda] Stopping disk\n\
                 [10.2] sd 1:0:0:0: [sda] Starting disk\n\
                 [10.3] PM: suspend exit\n\
                 [20.0] PM: suspend entry (deep)\n\
                 [20.1] sd 1:0:0:0: [sda] Stopping disk\n\
                 [20.2] sd 1:0:0:0: [sda] Starting disk\n\
                 [20.3] PM: suspend exit\n\
                 [30.0] PM: suspend entry (s2idle)\n\
                 [30.1] sd 1:0:0:0: [sda] Stopping disk\n";
    assert!(power_log::disk_stop_start_cycles(sleep, "sda").is_empty());
    let bare = "sd 1:0:0:0: [sda] Starting disk\nsd 1:0:0:0: [sda] Stopping disk\n\
                sd 1:0:0:0: [sda] Starting disk\nsd 1:0:0:0: [sda] Stopping disk\n";
    assert!(power_log::disk_stop_start_cycles(bare, "sda").is_empty());
}

#[test]
fn a_usb_device_failing_to_enable_u1_u2_is_a_notice() {
    // geerlingguy/raspberry-pi-pcie-devices#365: an RTL9210 bridge, hub.c
    // usb_set_device_initiated_lpm.
    let log = "> [ 2.271169] usb 2-1: New USB device found, idVendor=0bda, idProduct=9210, bcdDevice=20.01\n\
               > [ 2.281256] usb 2-1: Enable of device-initiated U1 failed.\n\
               > [ 2.283657] usb 2-1: Enable of device-initiated U2 failed.\n";
    let lines = power_log::usb_lpm_enable_failures(log);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(lines[0].0, "2-1");
    let mut d = sata_hdd_ahci();
    d.power.power_log = Fact::known(
        lines.into_iter().map(|(_, l)| l).collect(),
        crate::sources::kernel_log::LINUX_SPEC.key_for(""),
    );
    let f = &PowerManagement.run(&linux(d))[0];
    assert_vs(f, Verdict::Problem, Severity::Notice);
    assert!(f.title.contains("USB 3 link power"), "{}", f.title);
    // Near misses: the hub's port timeout lines and a disable are no enable failure.
    let other = "usb 2-1: Disable of device-initiated U1 failed.\n\
                 usb 2-1: Failed to set U1 timeout to 0x0,error code -110\n\
                 usb 2-1: Enable of device-initiated U3 failed.\n";
    assert!(power_log::usb_lpm_enable_failures(other).is_empty());
}

#[test]
fn a_pci_function_left_in_d3cold_is_power_management() {
    // pci.c pci_power_up's 6.x line behind a journal prefix (Mac Pro 7,1 resume), and
    // 4.x pci_raw_set_power_state's; a graphics function's is no disk's.
    let log = "Sep 07 08:31:35 host kernel: pcieport 0000:8e:04.0: Unable to change power state from D3cold to D0, device inaccessible\n\
               [   50.9] nvme 0000:01:00.0: can't change power state from D3hot to D0 (config space inaccessible)\n\
               [   51.0] i915 0000:00:02.0: can't change power state from D3cold to D0 (config space inaccessible)\n";
    let lines: Vec<String> = power_log::pci_power_up_failures(log)
        .into_iter()
        .map(|(_, l)| l)
        .collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    let mut d = sata_hdd_ahci();
    d.power.power_log = Fact::known(lines, "cmd:dmesg");
    let f = &PowerManagement.run(&linux(d))[0];
    assert_vs(f, Verdict::Problem, Severity::Warning);
    assert!(f.title.contains("D3 to D0"), "{}", f.title);
    assert!(f.fixes[0].steps[0].contains("power/control"));
    // Near miss: the PCI core's successful wake-up lines are nothing.
    assert!(
        power_log::pci_power_up_failures(
            "pcieport 0000:00:1c.0: PME: Spurious native interrupt!\n"
        )
        .is_empty()
    );
}

#[test]
fn an_sd_card_lost_and_found_within_seconds_is_power_management() {
    // SteamOS on a Legion Go S (rtsx_pci reader): the card removed mid-game and found again
    // a second later.
    let log = "Mar 26 22:11:23 host kernel: mmc0: card 0001 removed\n\
               Mar 26 22:11:23 host kernel: JBD2: I/O error when updating journal superblock for mmcblk0p1-8.\n\
               Mar 26 22:11:24 host kernel: mmc0: new UHS-I speed SDR104 SDXC card at address 0001\n";
    let drops = power_log::card_dropouts(log);
    assert_eq!(drops.len(), 1, "{drops:?}");
    let mut d = sata_hdd_ahci();
    d.power.power_log = Fact::known(drops[0].1.clone(), "cmd:dmesg");
    let f = &PowerManagement.run(&linux(d))[0];
    assert_vs(f, Verdict::Problem, Severity::Warning);
    assert!(f.title.contains("dropped off its reader"), "{}", f.title);
    // Near misses: a card swapped a minute later, and lines without a time.
    let swapped = log.replace("22:11:24", "22:12:30");
    assert!(power_log::card_dropouts(&swapped).is_empty());
    let bare = "mmc0: card 0001 removed\nmmc0: new SDHC card at address 0001\n";
    assert!(power_log::card_dropouts(bare).is_empty());
}
