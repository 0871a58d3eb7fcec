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
        from: crate::sources::kernel_log::LINUX_SPEC.key_for(""),
    }
}

/// A parallel SCSI disk's parity/iuCRC sense (CAM, aic7902 ahd(4)): the SCSI bus's
/// cable and terminator, not SATA cable and link power advice; a SATA drive keeps it.
#[test]
fn scsi_bus_crc_sense_gets_the_scsi_bus_advice() {
    let scsi = |driver: &str, ata: bool| {
        let mut d = sata_hdd_ahci_freebsd();
        d.name = "da0".to_string();
        d.ata_identify = None;
        d.smart = Fact::unknown("not read");
        d.transport = Fact::known(
            if ata {
                crate::facts::Transport::Sata
            } else {
                crate::facts::Transport::Scsi
            },
            "file:/var/run/dmesg.boot",
        );
        d.controller = Fact::known(
            crate::facts::Controller {
                driver: Some(driver.to_string()),
                ..Default::default()
            },
            "file:/var/run/dmesg.boot",
        );
        d.kernel_events = vec![ev(
            KernelEventKind::CrcError,
            "(da0:ahd0:0:0:0): ABORTED COMMAND info:40ff asc:47,3",
        )];
        run(&freebsd(d))
    };
    let f = scsi("ahd", false);
    assert_vs(&f, Verdict::Problem, Severity::Warning);
    assert!(f.explanation.contains("terminator"), "{}", f.explanation);
    assert!(f.fixes.iter().any(|x| x.summary.contains("SCSI bus")));
    assert!(!f.fixes.iter().any(|x| x.summary.contains("SATA cable")));
    // Near misses: the same event on an AHCI port, and a SATA drive behind a SAS HBA.
    for (drv, ata) in [("ahci", false), ("mps", true)] {
        let f = scsi(drv, ata);
        assert!(
            f.fixes.iter().any(|x| x.summary.contains("SATA cable")),
            "{drv}"
        );
        assert!(!f.explanation.contains("terminator"), "{drv}");
    }
}

/// NVMe command timeouts without a media status belong to media-errors (the drive's
/// controller stalling; media_errors/tests.rs), not to a link an M.2 drive does not have.
#[test]
fn nvme_timeouts_are_left_to_media_errors() {
    let log = "[ 99.0] nvme nvme0: I/O 91 QID 4 timeout, reset controller\n";
    let mut d = crate::checks::testutil_nvme::nvme_ssd();
    d.kernel_events = crate::sources::kernel_log::events_for("nvme0n1", log, "cmd:dmesg");
    assert_eq!(d.kernel_events.len(), 1, "{:?}", d.kernel_events);
    let f = run(&linux(d));
    assert_eq!(f.verdict, Verdict::NotApplicable, "{f:?}");
    assert!(f.explanation.contains("media-errors reports them"), "{f:?}");
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
    d.smart = Fact::known(s, crate::sources::smartctl::SPEC.key_for("sda"));
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

fn with_crc(crc: u64, hours: Option<u64>, log: Option<u64>) -> Finding {
    let mut d = sata_hdd_ahci();
    let mut s = d.smart.value().cloned().unwrap_or_default();
    s.udma_crc_errors = Some(crc);
    s.power_on_hours = hours;
    s.error_log_count = log;
    d.smart = Fact::known(s, crate::sources::smartctl::SPEC.key_for("sda"));
    run(&linux(d))
}

#[test]
fn one_old_crc_error_alone_is_info() {
    // A WD20EARS, `smartctl -a`: "199 UDMA_CRC_Error_Count ... 1" at 11073 power-on
    // hours, "No Errors Logged", no kernel log.
    let f = with_crc(1, Some(11073), Some(0));
    assert_vs(&f, Verdict::Problem, Severity::Info);
    assert!(f.explanation.contains("not a failing link"), "{f:?}");
    assert!(f.fixes.is_empty(), "{:?}", f.fixes);
    // Near misses: the same count on a young drive, a count that is no longer a
    // handful, or one with errors in the drive's log stay warnings.
    assert_vs(
        &with_crc(1, Some(200), Some(0)),
        Verdict::Problem,
        Severity::Warning,
    );
    assert_vs(
        &with_crc(18, Some(100_000), None),
        Verdict::Problem,
        Severity::Warning,
    );
    assert_vs(
        &with_crc(3, Some(20_000), Some(35)),
        Verdict::Problem,
        Severity::Warning,
    );
}

#[test]
fn events_tie_to_slow_link() {
    let mut d = sata_hdd_ahci();
    d.link_current_gbps = Fact::known(3.0, crate::sources::sysfs::ata_link("link1", "sata_spd"));
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
    d.smart = Fact::known(
        Smart::default(),
        crate::sources::smartctl::SPEC.key_for("sda"),
    );
    let f = run(&linux(d));
    assert_vs(&f, Verdict::Pass, Severity::Info);
}

fn with_non_medium(n: u64, gb: f64) -> Finding {
    let mut d = sata_hdd_ahci();
    let mut s = d.smart.value().cloned().unwrap_or_default();
    s.udma_crc_errors = None;
    s.scsi_non_medium_errors = Some(n);
    s.scsi_transferred_gb = Some(gb);
    d.smart = Fact::known(s, crate::sources::smartctl::SPEC.key_for("sda"));
    run(&linux(d))
}

#[test]
fn a_sas_drives_non_medium_count_far_over_the_link_ber_is_a_link_error() {
    // SanDisk LT0400WM, smartctl -a: "Non-medium error count: 4210" over 399.6 GB read
    // and 13.9 GB written (the 2800 GB verified stay inside the drive).
    let f = with_non_medium(4210, 413.5);
    assert_vs(&f, Verdict::Problem, Severity::Notice);
    assert!(f.title.contains("non-medium"), "{}", f.title);
    assert!(f.explanation.contains("SAS link"), "{}", f.explanation);
    // Near misses: its twin with 25 over 2931 GB is at the link's own rate, and a
    // handful of events on a drive that moved little data is no rate.
    assert_vs(&with_non_medium(25, 2931.4), Verdict::Pass, Severity::Info);
    assert_vs(&with_non_medium(9, 1.0), Verdict::Pass, Severity::Info);
}

/// An MMC card's host timing out on it (CQE recovery) or initialising it again after its
/// errors: the host-card bus, with MMC words and fixes, not SATA cable advice. A card with
/// only its own I/O errors gets nothing here.
#[test]
fn mmc_host_timeouts_and_card_reinits_are_the_card_bus() {
    let card = |events: Vec<KernelEvent>| {
        let mut d = crate::facts::DiskFacts::new("mmcblk2", "/dev/mmcblk2");
        d.kernel_events = events;
        LinkErrors.run(&linux(d))
    };
    let io = ev(
        KernelEventKind::IoError,
        "I/O error, dev mmcblk2, sector 4096 op 0x1:(WRITE) flags 0x0 phys_seg 2 prio class 0",
    );
    for extra in [
        ev(KernelEventKind::IoTimeout, "mmc2: running CQE recovery"),
        ev(
            KernelEventKind::LinkReset,
            "mmc_host mmc2: Bus speed (slot 0) = 400000Hz (slot req 400000Hz, actual 400000HZ div = 0)",
        ),
    ] {
        let fs = card(vec![extra.clone(), io.clone()]);
        let f = fs.first().unwrap_or_else(|| unreachable!());
        assert_vs(f, Verdict::Problem, Severity::Warning);
        assert!(
            f.explanation.contains("host controller and the card"),
            "{}",
            f.explanation
        );
        assert!(f.fixes.iter().any(|x| x.summary.contains("bus mode")));
        assert!(!f.fixes.iter().any(|x| x.summary.contains("SATA cable")));
    }
    // The card's own timeout line and a plain I/O error: no link finding.
    let fs = card(vec![
        io.clone(),
        ev(
            KernelEventKind::IoTimeout,
            "mmcblk2: error -110 sending stop command, original cmd response 0x900, card status 0x900",
        ),
    ]);
    assert!(fs.iter().all(|f| f.verdict != Verdict::Problem), "{fs:?}");
    // A SATA disk's timeout stays no link event.
    let mut d = sata_hdd_ahci();
    d.kernel_events = vec![ev(
        KernelEventKind::IoTimeout,
        "ata1.00: cmd 60/08:00:00:00:00/00:00:00:00:00/40 tag 0 ncq dma 4096 in res 40/00:00:00:00:00/00:00:00:00:00/00 Emask 0x4 (timeout)",
    )];
    assert!(
        LinkErrors
            .run(&linux(d))
            .iter()
            .all(|f| f.verdict != Verdict::Problem)
    );
}

/// btrfs saw reads and writes (or flushes) fail on one member: the path failed requests of
/// every kind, a link error; reads alone, or a clean member, are no link error.
#[test]
fn btrfs_reads_and_writes_failing_together_are_the_path() {
    let mut d = sata_hdd_ahci();
    d.vdev_errors.push(btrfs_counters("/dev/sdd2", 4_120, 88));
    let f = run(&linux(d.clone()));
    assert_eq!(f.verdict, Verdict::Problem, "{f:?}");
    assert!(
        f.explanation.contains("4120 failed read(s)"),
        "{}",
        f.explanation
    );
    d.vdev_errors = vec![btrfs_counters("/dev/sdd2", 4_120, 0)];
    assert_ne!(run(&linux(d.clone())).verdict, Verdict::Problem);
    d.vdev_errors = vec![btrfs_counters("/dev/sdd2", 0, 0)];
    assert_ne!(run(&linux(d)).verdict, Verdict::Problem);
}
