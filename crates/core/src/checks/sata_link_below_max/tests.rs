use super::*;
use crate::checks::testutil::*;
use crate::facts::{DeviceClass, Fact, KernelEvent};

fn run(sys: &SystemFacts) -> Finding {
    let fs = SataLinkBelowMax.run(sys);
    assert_eq!(fs.len(), 1);
    fs.into_iter().next().unwrap_or_else(|| unreachable!())
}

fn pata(name: &str, line: &str, drive: u32, host: u32, key: &str) -> DiskFacts {
    let mut d = DiskFacts::new(name, &format!("/dev/{name}"));
    d.pata_mode = Fact::known(
        crate::model::PataMode {
            current_udma_mb_s: Some(33),
            drive_max_udma_mb_s: Some(drive),
            host_max_udma_mb_s: Some(host),
            cable_40_wire: true,
            model: None,
            line: line.to_string(),
            faster_elsewhere: None,
        },
        key,
    );
    d
}

#[test]
fn every_disk_port_of_a_host_at_udma33_is_a_notice() {
    let fs = |disks: Vec<DiskFacts>| {
        let sys = system(Platform::Linux, disks);
        SataLinkBelowMax.run(&sys)
    };
    // Two or three ports, each "configured for UDMA/33" with no reason printed, drives
    // and host faster (2.6.17's "ata2: dev 0" names, or today's "ata3.00").
    for (a, b) in [
        (
            "ata2: dev 0 configured for UDMA/33",
            "ata3: dev 0 configured for UDMA/33",
        ),
        (
            "ata3.00: configured for UDMA/33",
            "ata4.00: configured for UDMA/33",
        ),
    ] {
        let out = fs(vec![
            pata("ata2", a, 100, 133, "cmd:dmesg"),
            pata("ata3", b, 133, 100, "cmd:dmesg"),
        ]);
        assert_eq!(out.len(), 2);
        for f in &out {
            assert_vs(f, Verdict::Problem, Severity::Notice);
            assert!(f.title.contains("other disk ports"), "{}", f.title);
        }
    }
    // One port alone stays information: its cable may really be a 40-wire one.
    let one = fs(vec![pata(
        "ata2",
        "ata2: dev 0 configured for UDMA/33",
        100,
        133,
        "cmd:dmesg",
    )]);
    assert_vs(&one[0], Verdict::Problem, Severity::Info);
    // The kernel named the 40-wire cable on both: the cables, as it says.
    let named = fs(vec![
        pata(
            "ata1",
            "ata1.00: limited to UDMA/33 due to 40-wire cable",
            100,
            100,
            "cmd:dmesg",
        ),
        pata(
            "ata3",
            "ata3.00: limited to UDMA/33 due to 40-wire cable",
            133,
            100,
            "cmd:dmesg",
        ),
    ]);
    assert!(named.iter().all(|f| f.severity == Severity::Info));
    // Two separate pastes' logs are not one host.
    let apart = fs(vec![
        pata(
            "ata2",
            "ata2: dev 0 configured for UDMA/33",
            100,
            133,
            "pasted:dmesg lines 1-9",
        ),
        pata(
            "ata3",
            "ata3: dev 0 configured for UDMA/33",
            100,
            133,
            "pasted:dmesg lines 30-39",
        ),
    ]);
    assert!(apart.iter().all(|f| f.severity == Severity::Info));
}

#[test]
fn a_usb_bridge_s_sata_link_counts_when_the_drive_reports_it() {
    // smartctl through a USB bridge: the drive's IDENTIFY word 77 says 1.5 Gb/s.
    let mut d = sata_hdd_ahci();
    d.transport = Fact::known(Transport::Usb, "pasted:smartctl");
    d.rotation_rpm = Fact::known(7200, "pasted:smartctl");
    d.link_current_gbps = Fact::known(1.5, "pasted:smartctl");
    d.link_drive_max_gbps = Fact::known(6.0, "pasted:smartctl");
    d.link_port_max_gbps = Fact::unknown("smartctl does not print it");
    let f = run(&linux(d.clone()));
    assert_eq!(
        (f.verdict, f.severity),
        (Verdict::Problem, Severity::Notice)
    );
    assert!(
        f.explanation.contains("USB bridge's SATA side"),
        "{}",
        f.explanation
    );
    // Nothing read through the bridge: the bridge's business.
    d.link_current_gbps = Fact::unknown("not shown");
    assert_eq!(run(&linux(d)).verdict, Verdict::NotApplicable);
}

#[test]
fn a_port_slower_than_its_proven_neighbours_is_a_notice_whatever_the_drive() {
    // A pasted boot log: the port linked at 3.0 Gb/s while another port of the same
    // AHCI adapter reached its 6 Gb/s; the drive's own maximum is not in the log.
    let log = crate::sources::kernel_log::LINUX_SPEC.live[0].key_for("sdb");
    let log = log.as_str();
    let mut d = DiskFacts::new("sdb", "/dev/sdb");
    d.transport = Fact::known(Transport::Sata, log);
    d.link_current_gbps = Fact::known(3.0, log);
    d.link_port_max_gbps = Fact::known(6.0, log);
    let f = run(&linux(d.clone()));
    assert_vs(&f, Verdict::Problem, Severity::Notice);
    assert!(f.title.contains("3.0 Gb/s (300 MB/s)"), "{}", f.title);
    assert!(f.explanation.contains("smartctl -i"), "{}", f.explanation);
    // 1.5 Gb/s on a 3 Gb/s adapter: the same reading.
    d.link_current_gbps = Fact::known(1.5, log);
    d.link_port_max_gbps = Fact::known(3.0, log);
    assert_vs(&run(&linux(d.clone())), Verdict::Problem, Severity::Notice);
    // A 7200 rpm disk on 3.0 Gb/s: the link does not limit it, information only.
    d.rotation_rpm = Fact::known(7200, "pasted:smartctl");
    d.link_current_gbps = Fact::known(3.0, log);
    d.link_port_max_gbps = Fact::known(6.0, log);
    assert_vs(&run(&linux(d.clone())), Verdict::Problem, Severity::Info);
    // A port maximum from elsewhere (sysfs, the adapter) beside a drive that reports
    // no generation: unknown, as before.
    let mut q = d.clone();
    q.rotation_rpm = Fact::unknown("not read");
    q.link_port_max_gbps = Fact::known(6.0, "sysfs:/sys/class/ata_link/link1");
    assert_eq!(run(&linux(q)).verdict, Verdict::Unknown);
    // No port reached a faster speed: unknown, as before.
    d.link_port_max_gbps = Fact::unknown("no port reached it");
    assert_eq!(run(&linux(d)).verdict, Verdict::Unknown);
}

#[test]
fn six_gbps_both_passes() {
    let f = run(&linux(sata_hdd_ahci()));
    assert_vs(&f, Verdict::Pass, Severity::Info);
    assert_eq!(f.evidence.len(), 2);
    assert_eq!(
        f.evidence[0].source,
        crate::sources::sysfs::ata_link("link1", "sata_spd")
    );
    assert_eq!(f.evidence[0].value, "link_current=6.0 Gb/s");
}

#[test]
fn hdd_at_3gbps_is_information_not_a_problem_to_act_on() {
    // A 7200 rpm disk reads at most ~280 MB/s; SATA 2 carries 300 MB/s.
    let mut d = sata_hdd_ahci();
    d.rotation_rpm = Fact::known(7200, "ioctl:/dev/sda:ATA_IDENTIFY");
    d.link_current_gbps = Fact::known(3.0, crate::sources::sysfs::ata_link("link1", "sata_spd"));
    let f = run(&linux(d));
    assert_vs(&f, Verdict::Problem, Severity::Info);
    assert!(f.title.contains("3.0 Gb/s (300 MB/s)"));
    assert!(f.explanation.contains("barely notices"));
    assert!(
        f.fixes
            .iter()
            .any(|x| x.steps.iter().any(|s| s.contains("smartctl -i /dev/sda")))
    );
}

#[test]
fn ssd_at_3gbps_is_a_warning() {
    let mut d = sata_hdd_ahci();
    d.class = Fact::known(
        DeviceClass::Ssd,
        crate::sources::sysfs::block("sda", "queue/rotational"),
    );
    d.link_current_gbps = Fact::known(3.0, crate::sources::sysfs::ata_link("link1", "sata_spd"));
    let f = run(&linux(d));
    assert_vs(&f, Verdict::Problem, Severity::Warning);
    assert!(f.explanation.contains("about 46%"), "{}", f.explanation);
    assert!((f.impact.unwrap_or(0.0) - (1.0 - 300.0 / 550.0)).abs() < 1e-9);
}

#[test]
fn hdd_at_1_5_is_a_warning() {
    let mut d = sata_hdd_ahci();
    d.link_current_gbps = Fact::known(1.5, crate::sources::sysfs::ata_link("link1", "sata_spd"));
    let f = run(&linux(d));
    assert_vs(&f, Verdict::Problem, Severity::Warning);
}

#[test]
fn configured_limit_is_named_first() {
    let mut d = sata_hdd_ahci();
    d.link_current_gbps = Fact::known(3.0, crate::sources::sysfs::ata_link("link1", "sata_spd"));
    d.link_limit_gbps = Fact::known(3.0, crate::sources::sysfs::proc("cmdline"));
    let f = run(&linux(d));
    assert!(f.explanation.contains("configured limit of 3.0 Gb/s"));
    assert_eq!(f.fixes[0].summary, "remove the configured link-speed limit");
    assert!(
        f.evidence
            .iter()
            .any(|e| e.source == crate::sources::sysfs::proc("cmdline"))
    );
}

#[test]
fn kernel_step_down_cited() {
    let mut d = sata_hdd_ahci_freebsd();
    d.link_current_gbps = Fact::known(
        1.5,
        crate::sources::camcontrol_identify::SPEC.key_for("ada0"),
    );
    d.link_port_max_gbps = Fact::known(6.0, crate::sources::dmesg::SPEC.key_for(""));
    d.kernel_events.push(KernelEvent {
        kind: KernelEventKind::LinkSpeedLimited,
        line: "ata1: limiting SATA link speed to 1.5 Gbps".to_string(),
        from: crate::sources::kernel_log::LINUX_SPEC.key_for(""),
    });
    let f = run(&freebsd(d));
    assert_eq!(f.verdict, Verdict::Problem);
    assert!(f.explanation.contains("lowered the speed itself"));
    assert!(
        f.evidence
            .iter()
            .any(|e| e.value.contains("limiting SATA link speed"))
    );
    assert!(f.fixes.iter().all(|x| x.platform == Platform::Freebsd));
    assert!(
        f.fixes[0]
            .steps
            .iter()
            .any(|s| s.contains("camcontrol identify ada0"))
    );
}

#[test]
fn port_is_the_limit_passes() {
    let mut d = sata_hdd_ahci();
    d.link_current_gbps = Fact::known(3.0, crate::sources::sysfs::ata_link("link1", "sata_spd"));
    d.link_port_max_gbps = Fact::known(
        3.0,
        crate::sources::sysfs::ata_link("link1", "hw_sata_spd_limit"),
    );
    let f = run(&linux(d));
    assert_vs(&f, Verdict::Pass, Severity::Info);
    assert!(f.explanation.contains("could do 6.0 Gb/s on a faster port"));
}

#[test]
fn qemu_drive_without_generation_bits_is_unknown() {
    let mut d = sata_hdd_ahci();
    d.link_current_gbps = Fact::known(1.5, crate::sources::sysfs::ata_link("link1", "sata_spd"));
    d.link_drive_max_gbps = Fact::unknown("IDENTIFY word 76 reports no SATA generation");
    let f = run(&linux(d));
    assert_vs(&f, Verdict::Unknown, Severity::Info);
    assert!(
        f.explanation
            .contains("IDENTIFY word 76 reports no SATA generation")
    );
    assert!(f.explanation.contains("QEMU"));
}

#[test]
fn rotating_disks_below_the_link_ceiling_are_information_in_every_shape() {
    // 5400 rpm and 7200 rpm (and rpm unknown: taken as 7200) at 3 Gb/s, port known or
    // not, Linux or FreeBSD: information. At 1.5 Gb/s (150 MB/s) the link does limit.
    for (rpm, port_known, gbps, want) in [
        (Some(5400), true, 3.0, Severity::Info),
        (Some(7200), false, 3.0, Severity::Info),
        (None, true, 3.0, Severity::Info),
        (None, false, 3.0, Severity::Info),
        (Some(7200), true, 1.5, Severity::Warning),
    ] {
        // With link errors (CRC) the slow link is a symptom: not information only.
        let mut d = sata_hdd_ahci();
        d.link_current_gbps =
            Fact::known(gbps, crate::sources::sysfs::ata_link("link1", "sata_spd"));
        d.kernel_events = vec![KernelEvent {
            kind: crate::facts::KernelEventKind::CrcError,
            line: "ata1.00: error: { ICRC ABRT }".to_string(),
            from: crate::sources::kernel_log::LINUX_SPEC.key_for(""),
        }];
        assert!(run(&linux(d)).severity > Severity::Info);
        for bsd in [false, true] {
            let mut d = if bsd {
                sata_hdd_ahci_freebsd()
            } else {
                sata_hdd_ahci()
            };
            if let Some(r) = rpm {
                d.rotation_rpm = Fact::known(r, "ioctl:/dev/sda:ATA_IDENTIFY");
            }
            d.link_current_gbps =
                Fact::known(gbps, crate::sources::sysfs::ata_link("link1", "sata_spd"));
            if !port_known {
                d.link_port_max_gbps = Fact::unknown("not present");
            }
            let f = run(&if bsd { freebsd(d) } else { linux(d) });
            assert_vs(&f, Verdict::Problem, want);
            if want == Severity::Info && !port_known {
                assert!(
                    f.explanation.contains("does not limit"),
                    "{}",
                    f.explanation
                );
            }
        }
    }
}

#[test]
fn unknown_port_max_gives_the_known_half_at_notice() {
    // smartctl's "SATA 3.0, 6.0 Gb/s (current: 3.0 Gb/s)" never names the port's
    // maximum: the finding says what the drive proves and what would settle the rest.
    // An SSD: its ~550 MB/s would use the faster link.
    let mut d = sata_hdd_ahci();
    d.class = Fact::known(
        DeviceClass::Ssd,
        crate::sources::sysfs::block("sda", "queue/rotational"),
    );
    d.link_current_gbps = Fact::known(3.0, crate::sources::sysfs::ata_link("link1", "sata_spd"));
    d.link_port_max_gbps = Fact::unknown("not present");
    let f = run(&linux(d));
    assert_vs(&f, Verdict::Problem, Severity::Notice);
    assert_eq!(f.confidence, Confidence::Low);
    assert!(f.title.contains("port's maximum is unknown"), "{}", f.title);
    assert!(f.explanation.contains("hw_sata_spd_limit"));
    assert!(below_max(&linux(sata_hdd_ahci()).disks[0]).is_none());
}

#[test]
fn unknown_current_link() {
    let mut d = sata_hdd_ahci_freebsd();
    d.link_current_gbps = Fact::unknown("permission denied (run as root)");
    let f = run(&freebsd(d));
    assert_vs(&f, Verdict::Unknown, Severity::Info);
    assert!(f.explanation.contains("camcontrol identify ada0"));
}

#[test]
fn seed003_sas_hba_at_600_passes_on_current_alone() {
    let f = run(&seed003(seed003_mbr_1008()));
    assert_vs(&f, Verdict::Pass, Severity::Info);
}

#[test]
fn current_above_drive_max_is_a_quirk_not_a_problem() {
    // freebsd/smartctl/x-ssd-transcend-current-speed-exceeds-max-anomaly.txt:
    // "SATA 3.1, 3.0 Gb/s (current: 6.0 Gb/s)".
    let mut d = sata_hdd_ahci_freebsd();
    d.link_drive_max_gbps = Fact::known(3.0, crate::sources::smartctl::EXTENDED.key_for("ada0"));
    d.link_current_gbps = Fact::known(6.0, crate::sources::smartctl::EXTENDED.key_for("ada0"));
    let f = run(&freebsd(d));
    assert_vs(&f, Verdict::Pass, Severity::Info);
    assert!(f.explanation.contains("firmware quirk"));
}

#[test]
fn drive_max_3_at_3_passes() {
    // linux/smartctl-json/a-sat-megaraid0-wd4000fyyx-3gbps.txt: max 3.0 / current 3.0.
    let mut d = sata_hdd_ahci();
    d.link_drive_max_gbps = Fact::known(3.0, crate::sources::smartctl::SPEC.key_for("sda"));
    d.link_current_gbps = Fact::known(3.0, crate::sources::smartctl::SPEC.key_for("sda"));
    let f = run(&linux(d));
    assert_vs(&f, Verdict::Pass, Severity::Info);
    assert_eq!(f.title, "3.0 Gb/s link, the most the drive supports: good");
}

#[test]
fn nvme_not_applicable() {
    let mut d = sata_hdd_ahci();
    d.class = Fact::known(DeviceClass::Nvme, "realpath:/sys/block/nvme0n1");
    assert_eq!(run(&linux(d)).verdict, Verdict::NotApplicable);
}

#[test]
fn ssd_at_3gbps_on_an_arm_board_with_unknown_port_is_information() {
    // A Novena (i.MX6, armv7l) smartctl -i: "SATA 3.1, 6.0 Gb/s (current: 3.0 Gb/s)", the
    // i.MX6's own SATA II port; the machine named by smartctl's build string.
    let ssd = || {
        let mut d = sata_hdd_ahci();
        d.class = Fact::known(DeviceClass::Ssd, "pasted:smartctl lines 1-20");
        d.link_current_gbps = Fact::known(3.0, "pasted:smartctl lines 1-20");
        d.link_port_max_gbps = Fact::unknown("not present");
        d
    };
    let mut sys = linux(ssd());
    sys.cpu_model = Fact::known("armv7l".to_string(), "pasted:line 3");
    let f = run(&sys);
    assert_vs(&f, Verdict::Problem, Severity::Info);
    assert!(f.explanation.contains("SATA II"), "{}", f.explanation);
    // Near misses: the same on a PC, and 1.5 Gb/s on the ARM board, stay notices.
    let mut pc = linux(ssd());
    pc.cpu_model = Fact::known("Intel(R) Core(TM) i5-4590 CPU".to_string(), "x");
    assert_vs(&run(&pc), Verdict::Problem, Severity::Notice);
    let mut slow = ssd();
    slow.link_current_gbps = Fact::known(1.5, "pasted:smartctl lines 1-20");
    let mut arm = linux(slow);
    arm.cpu_model = Fact::known("armv7l".to_string(), "pasted:line 3");
    assert_vs(&run(&arm), Verdict::Problem, Severity::Notice);
}
