use super::*;
use crate::checks::testutil::*;
use crate::facts::{Fact, KernelEvent, Smart};

fn run(sys: &SystemFacts) -> Finding {
    let fs = MediaErrors.run(sys);
    assert_eq!(fs.len(), 1);
    fs.into_iter().next().unwrap_or_else(|| unreachable!())
}

fn smart(d: &mut DiskFacts, f: impl FnOnce(&mut Smart)) {
    let mut s = d.smart.value().cloned().unwrap_or_default();
    f(&mut s);
    d.smart = Fact::known(s, crate::sources::smartctl::SPEC.key_for("sda"));
}

#[test]
fn a_pasted_surface_scan_with_bad_blocks_is_a_media_error() {
    let scan = |bad: u64, r: u64, c: u64| crate::model::SurfaceScan {
        tool: "badblocks".into(),
        bad_blocks: bad,
        read_errors: Some(r),
        write_errors: Some(0),
        corruption_errors: Some(c),
        completed: true,
        line: format!("Pass completed, {bad} bad blocks found. ({r}/0/{c} errors)"),
        from: "pasted:badblocks lines 1-24".into(),
    };
    let bare = || DiskFacts::new("sda", "/dev/sda");
    let mut d = bare();
    d.surface_scans.push(scan(64, 64, 0));
    let f = run(&linux(d));
    assert_vs(&f, Verdict::Problem, Severity::Critical);
    assert!(
        f.title.contains("badblocks found 64 bad blocks"),
        "{}",
        f.title
    );
    assert!(
        f.evidence
            .iter()
            .any(|e| e.source == "pasted:badblocks lines 1-24")
    );
    // Blocks read back different only: a warning (memory, bridge or drive).
    let mut d = bare();
    d.surface_scans.push(scan(3, 0, 3));
    assert_vs(&run(&linux(d)), Verdict::Problem, Severity::Warning);
    // A clean scan is a pass, not "SMART unknown".
    let mut d = bare();
    d.surface_scans.push(scan(0, 0, 0));
    assert_vs(&run(&linux(d)), Verdict::Pass, Severity::Info);
}

#[test]
fn clean_smart_passes() {
    let f = run(&linux(sata_hdd_ahci()));
    assert_vs(&f, Verdict::Pass, Severity::Info);
    assert!(f.evidence[0].value.contains("health=PASSED"));
}

#[test]
fn pending_sectors_are_critical() {
    let mut d = sata_hdd_ahci();
    smart(&mut d, |s| s.pending_sectors = Some(8));
    let f = run(&linux(d));
    assert_vs(&f, Verdict::Problem, Severity::Critical);
    assert_eq!(f.title, "sda: 8 pending sectors (Current_Pending_Sector)");
    assert!(f.evidence.iter().any(|e| {
        e.source == crate::sources::smartctl::SPEC.key_for("sda")
            && e.value
                .contains("pending sectors (Current_Pending_Sector)=8")
    }));
    assert!(f.fixes.iter().any(|x| {
        x.steps
            .iter()
            .any(|s| s.contains("smartctl -t long /dev/sda"))
    }));
}

#[test]
fn logged_unc_errors_are_a_warning() {
    let mut d = sata_hdd_ahci();
    smart(&mut d, |s| s.error_log_unc = Some(1));
    let f = run(&linux(d));
    assert_vs(&f, Verdict::Problem, Severity::Warning);
    assert!(f.title.contains("error log (UNC, WP)"), "{}", f.title);
}

#[test]
fn old_logged_unc_errors_with_nothing_pending_are_history() {
    // Four UNC entries at 6214 hours on a drive now at 15330 hours, nothing pending,
    // reallocated or offline-uncorrectable: a pass that still names them.
    let mut d = sata_hdd_ahci();
    smart(&mut d, |s| {
        s.error_log_unc = Some(4);
        s.error_log_unc_last_hours = Some(6214);
        s.power_on_hours = Some(15330);
    });
    let f = run(&linux(d.clone()));
    assert_vs(&f, Verdict::Pass, Severity::Info);
    assert!(
        f.evidence
            .iter()
            .any(|e| e.value.contains("newest at 6214 of 15330")),
        "{:?}",
        f.evidence
    );
    // Recent entries, a pending sector now, or hours unknown: still a warning or worse.
    for (last, pending, poh) in [
        (15000, 0, Some(15330)),
        (6214, 1, Some(15330)),
        (6214, 0, None),
        (16000, 0, Some(15330)),
        // Past 65,535 hours the stamp has wrapped: 4000 may be 69,536 (464 hours ago).
        (4000, 0, Some(70000)),
    ] {
        let mut e = d.clone();
        smart(&mut e, |s| {
            s.error_log_unc_last_hours = Some(last);
            s.pending_sectors = Some(pending);
            s.power_on_hours = poh;
        });
        let f = run(&linux(e));
        assert_eq!(f.verdict, Verdict::Problem, "{last} {pending} {poh:?}");
    }
    // A wrapped stamp that is old under every reading (4500 at 70,000 hours can only be
    // 4500: 70,036 lies in the future) is still history.
    let mut e = d.clone();
    smart(&mut e, |s| {
        s.error_log_unc_last_hours = Some(4500);
        s.power_on_hours = Some(70000);
    });
    assert_eq!(run(&linux(e)).verdict, Verdict::Pass);
}

#[test]
fn a_pasted_dd_that_stopped_with_eio_is_a_warning_on_its_disk() {
    let dd = |text: &str| crate::sources::dd::parse(text);
    for (platform, disk, text) in [
        (
            Platform::Linux,
            "sdb",
            "dd if=/dev/zero of=/dev/sdb\ndd: writing to ‘/dev/sdb’: Input/output error\n\
                 1871049+0 records in\n1871048+0 records out\n\
                 957976576 bytes (958 MB) copied, 8600,9 s, 111 kB/s\n",
        ),
        (
            Platform::Linux,
            "sda",
            "dd if=/dev/sda1 of=/dev/null bs=1M\ndd: error reading '/dev/sda1': Input/output error\n\
                 22+0 records in\n22+0 records out\n\
                 23068672 bytes (23 MB, 22 MiB) copied, 13.3 s, 1.7 MB/s\n",
        ),
        (
            Platform::Freebsd,
            "ada1",
            "dd if=/dev/ada1 of=/dev/null bs=1m\ndd: /dev/ada1: Input/output error\n\
                 131+0 records in\n131+0 records out\n\
                 137363456 bytes transferred in 12.002071 secs (11445055 bytes/sec)\n",
        ),
    ] {
        let mut s = system(
            platform,
            vec![DiskFacts::new(disk, &format!("/dev/{disk}"))],
        );
        s.user_benchmarks = dd(text);
        let f = run(&s);
        assert_vs(&f, Verdict::Problem, Severity::Warning);
        assert!(
            f.title.contains("dd stopped with an I/O error"),
            "{}",
            f.title
        );
        assert!(
            f.evidence
                .iter()
                .any(|e| e.value.contains("Input/output error")),
            "{:?}",
            f.evidence
        );
        // Another disk's run says nothing of this one; a virtual disk's EIO is the host's.
        let mut other = system(platform, vec![DiskFacts::new("sdq", "/dev/sdq")]);
        other.user_benchmarks = dd(text);
        assert_ne!(run(&other).verdict, Verdict::Problem);
    }
    let mut s = system(Platform::Linux, vec![DiskFacts::new("vdb", "/dev/vdb")]);
    s.user_benchmarks = dd("dd if=/dev/vdb of=/dev/null bs=1M\n\
             dd: error reading '/dev/vdb': Input/output error\n1+0 records in\n1+0 records out\n");
    assert_ne!(run(&s).verdict, Verdict::Problem);
}

fn vdev(read: u64, cksum: u64) -> crate::model::VdevErrors {
    crate::model::VdevErrors {
        pool: "tank".into(),
        vdev: "sda".into(),
        state: Some("ONLINE".into()),
        read_errors: Some(read),
        write_errors: Some(0),
        checksum_errors: Some(cksum),
        note: None,
        line: format!("sda  ONLINE  {read}  0  {cksum}"),
        from: "cmd:zpool status".into(),
    }
}

#[test]
fn checksum_errors_alone_are_a_notice_and_add_to_other_errors() {
    // A clean drive with 2 CKSUM on its vdev: a notice naming the path as well as the
    // drive, with the scrub to tell them apart.
    let mut d = sata_hdd_ahci();
    d.vdev_errors.push(vdev(0, 2));
    let f = run(&linux(d.clone()));
    assert_vs(&f, Verdict::Problem, Severity::Notice);
    assert!(
        f.title
            .contains("2 checksum error(s) on vdev sda of pool tank"),
        "{}",
        f.title
    );
    assert!(f.explanation.contains("cable"), "{}", f.explanation);
    assert!(f.evidence.iter().any(|e| e.source == "cmd:zpool status"));
    assert!(
        f.fixes
            .iter()
            .any(|x| x.steps.iter().any(|s| s.contains("zpool scrub tank")))
    );
    // Beside a pending sector they are one more line of the critical finding.
    smart(&mut d, |s| s.pending_sectors = Some(8));
    let f = run(&linux(d.clone()));
    assert_vs(&f, Verdict::Problem, Severity::Critical);
    assert!(
        f.explanation.contains("2 checksum error(s)"),
        "{}",
        f.explanation
    );
    // Failed reads are I/O errors, not checksum-only.
    let mut d = sata_hdd_ahci();
    d.vdev_errors.push(vdev(3, 2));
    assert_vs(&run(&linux(d)), Verdict::Problem, Severity::Warning);
    // No counts: a pass.
    let mut d = sata_hdd_ahci();
    d.vdev_errors.push(vdev(0, 0));
    assert_vs(&run(&linux(d)), Verdict::Pass, Severity::Info);
}

#[test]
fn reallocated_only_is_warning() {
    let mut d = sata_hdd_ahci();
    smart(&mut d, |s| s.reallocated_sectors = Some(24));
    assert_vs(&run(&linux(d)), Verdict::Problem, Severity::Warning);
}

#[test]
fn failing_attribute_is_critical() {
    let mut d = sata_hdd_ahci();
    smart(&mut d, |s| {
        s.failing_attributes = vec!["Reallocated_Sector_Ct (FAILING_NOW)".to_string()]
    });
    assert_vs(&run(&linux(d)), Verdict::Problem, Severity::Critical);
}

#[test]
fn seagate_fixture_reported_uncorrect_and_past_failure() {
    // freebsd/smartctl/x-hdd-seagate-5900-512e-sector0-offset-512.txt: Reported_Uncorrect
    // raw 1006, Airflow_Temperature_Cel WHEN_FAILED In_the_past, health PASSED.
    let mut d = sata_hdd_ahci();
    smart(&mut d, |s| {
        s.reported_uncorrect = Some(1006);
        s.failing_attributes = vec!["190 Airflow_Temperature_Cel (In_the_past)".to_string()];
    });
    let f = run(&linux(d));
    assert_vs(&f, Verdict::Problem, Severity::Warning);
    assert_eq!(f.title, "sda: 1006 reported uncorrectable errors");
    // The temperature attribute's past failure is a hot drive, not media evidence: the
    // finding rests on the uncorrectable count alone.
    assert!(
        !f.explanation.contains("Airflow_Temperature_Cel"),
        "{}",
        f.explanation
    );
}

#[test]
fn kernel_medium_error_without_smart() {
    let mut d = sata_hdd_ahci();
    d.smart = Fact::unknown("the tool is not installed");
    d.kernel_events.push(KernelEvent {
        kind: KernelEventKind::MediumError,
        line: "sd 0:0:0:0: [sda] Sense Key : Medium Error [current]".to_string(),
        from: crate::sources::kernel_log::LINUX_SPEC.key_for(""),
    });
    let f = run(&linux(d));
    assert_vs(&f, Verdict::Problem, Severity::Critical);
    assert_eq!(f.confidence, Confidence::Low);
    assert!(f.explanation.contains("the tool is not installed"));
    assert_eq!(
        f.evidence[0].source,
        crate::sources::kernel_log::LINUX_SPEC.key_for("")
    );
}

#[test]
fn nvme_timeouts_and_the_block_layer_errors_of_aborted_requests_are_the_path() {
    // pci.c nvme_timeout, then blk_print_req_error of the request the driver aborted.
    let ev = |kind, line: &str| KernelEvent {
        kind,
        line: line.to_string(),
        from: crate::sources::kernel_log::LINUX_SPEC.key_for(""),
    };
    let mut d = crate::checks::testutil_nvme::nvme_ssd();
    d.kernel_events.push(ev(
        KernelEventKind::IoTimeout,
        "nvme nvme0: I/O tag 717 (c2cd) opcode 0x1 (Write) QID 1 timeout, reset controller",
    ));
    d.kernel_events.push(ev(
        KernelEventKind::IoError,
        "I/O error, dev nvme0n1, sector 55523248 op 0x0:(READ) flags 0x80700",
    ));
    assert!(nvme_timeouts_are_the_path(&d));
    // Near misses: the controller given up, or a media status, stays the drive's.
    let mut dead = d.clone();
    dead.kernel_events.push(ev(
        KernelEventKind::IoError,
        "nvme nvme0: Removing after probe failure status: -19",
    ));
    assert!(!nvme_timeouts_are_the_path(&dead));
    let mut media = d.clone();
    media.kernel_events.push(ev(
        KernelEventKind::MediumError,
        "nvme0n1: Read(0x2) @ LBA 8, 8 blocks, Unrecovered Read Error (sct 0x2 / sc 0x81)",
    ));
    assert!(!nvme_timeouts_are_the_path(&media));
}

#[test]
fn timeouts_with_clean_smart_point_at_link() {
    let mut d = sata_hdd_ahci();
    d.kernel_events.push(KernelEvent {
        kind: KernelEventKind::IoTimeout,
        line: "ata1.00: failed command: READ FPDMA QUEUED".to_string(),
        from: crate::sources::kernel_log::LINUX_SPEC.key_for(""),
    });
    let f = run(&linux(d));
    assert_vs(&f, Verdict::Problem, Severity::Warning);
    assert!(f.explanation.contains("link-errors"));
}

#[test]
fn a_raid_controllers_command_timeouts_are_no_media_errors() {
    let mut d = sata_hdd_ahci_freebsd();
    d.kernel_events.push(KernelEvent {
        kind: KernelEventKind::IoTimeout,
        line: "mfi0: COMMAND 0xfffffe00013a6440 TIMEOUT AFTER 37 SECONDS".to_string(),
        from: "file:/var/run/dmesg.boot".to_string(),
    });
    assert_ne!(run(&freebsd(d.clone())).verdict, Verdict::Problem);
    // Near miss: a CAM command timeout of the disk itself still counts.
    d.kernel_events[0].line = "(ada0:ahcich0:0:0:0): CAM status: Command timeout".to_string();
    assert_eq!(run(&freebsd(d)).verdict, Verdict::Problem);
}

#[test]
fn unknown_smart_freebsd_says_pkg_install() {
    let mut d = sata_hdd_ahci_freebsd();
    d.smart = Fact::unknown("the tool is not installed");
    let f = run(&freebsd(d));
    assert_vs(&f, Verdict::Unknown, Severity::Info);
    assert!(f.explanation.contains("pkg install smartmontools"));
}

#[test]
fn virtual_without_smart_not_applicable() {
    let mut d = sata_hdd_ahci();
    d.class = Fact::known(DeviceClass::Virtual, "realpath:/sys/block/vda");
    d.smart = Fact::unknown("not supported here");
    assert_eq!(run(&linux(d)).verdict, Verdict::NotApplicable);
}

/// `btrfs device stats` counters (facts::pasted::drive_tools): failed reads and writes of a
/// member device are failed I/O, no sector named: read-errors and link-errors report them,
/// media-errors does not apply. With corrupted blocks beside them, the data came back wrong
/// and media-errors says so, as btrfs's.
#[test]
fn btrfs_device_stats_failed_io() {
    let mut d = sata_hdd_ahci();
    d.smart = Fact::unknown("not pasted");
    let mut v = vdev(3_751_023, 0);
    v.pool = String::new();
    v.vdev = "/dev/sdb1".into();
    v.state = None;
    v.write_errors = Some(7_490_016);
    v.from = "pasted:btrfs-device-stats lines 2-11".into();
    assert!(v.is_btrfs());
    let mut io_only = d.clone();
    io_only.vdev_errors.push(v.clone());
    assert_eq!(run(&linux(io_only)).verdict, Verdict::NotApplicable);
    v.checksum_errors = Some(12);
    d.vdev_errors.push(v);
    let f = run(&linux(d));
    assert_vs(&f, Verdict::Problem, Severity::Warning);
    assert!(
        f.explanation
            .contains("btrfs counted 3751023 failed read(s), 7490016 failed write(s)"),
        "{}",
        f.explanation
    );
    assert!(!f.explanation.contains("ZFS counted"), "{}", f.explanation);
    // Near miss: ZFS's own row keeps its wording.
    assert!(!vdev(3, 0).is_btrfs());
}

/// NVMe timeouts whose Abort the controller completed ("Abort status: 0x0"), then reads
/// failing with sectors, with no power-state line: the drive's. With a power log (a reset
/// the kernel blamed on a power state, a sleep transition) they stay the path's.
#[test]
fn nvme_timeouts_with_answered_aborts_are_the_drive() {
    let mut d = crate::checks::testutil_nvme::nvme_ssd();
    d.kernel_events = vec![
        ev(
            KernelEventKind::IoTimeout,
            "nvme nvme0: I/O 0 QID 5 timeout, aborting",
        ),
        ev(KernelEventKind::IoTimeout, "nvme nvme0: Abort status: 0x0"),
        ev(
            KernelEventKind::IoTimeout,
            "nvme nvme0: I/O 0 QID 5 timeout, reset controller",
        ),
        ev(
            KernelEventKind::IoError,
            "blk_update_request: I/O error, dev nvme0n1, sector 153333328 op 0x0:(READ)",
        ),
    ];
    assert!(!nvme_timeouts_are_the_path(&d));
    assert_eq!(run(&linux(d.clone())).verdict, Verdict::Problem);
    // Near misses: no answered abort; no failed read; a power log beside them.
    let mut unanswered = d.clone();
    unanswered.kernel_events.remove(1);
    assert!(nvme_timeouts_are_the_path(&unanswered));
    let mut no_reads = d.clone();
    no_reads.kernel_events.pop();
    assert!(nvme_timeouts_are_the_path(&no_reads));
    d.power.power_log = Fact::known(
        vec!["nvme nvme0: controller is down; will reset: CSTS=0xffffffff".to_string()],
        "cmd:dmesg".to_string(),
    );
    assert!(nvme_timeouts_are_the_path(&d));
}

#[test]
fn a_temperature_attribute_failed_in_the_past_is_no_media_evidence() {
    assert!(is_temperature_attribute(
        "190 Airflow_Temperature_Cel (In_the_past)"
    ));
    assert!(is_temperature_attribute(
        "194 Temperature_Celsius (FAILING_NOW)"
    ));
    // Near misses: media attributes keep counting.
    assert!(!is_temperature_attribute(
        "5 Reallocated_Sector_Ct (In_the_past)"
    ));
    assert!(!is_temperature_attribute(
        "197 Current_Pending_Sector (FAILING_NOW)"
    ));
}

#[test]
fn a_few_reallocations_with_nothing_pending_are_watched_not_flagged() {
    // smartctl -a of an ST4000NM0033: Reallocated_Sector_Ct 2, 197/198/187 all 0, PASSED.
    // The healthy builder has 197, 198 and 187 at 0 and health PASSED.
    let mut d = sata_hdd_ahci();
    smart(&mut d, |s| s.reallocated_sectors = Some(2));
    let f = run(&linux(d.clone()));
    assert_vs(&f, Verdict::Problem, Severity::Info);
    assert!(f.title.contains("watch"), "{}", f.title);
    // Near misses: one pending sector, an unknown pending count, or more than a few.
    let mut p = d.clone();
    smart(&mut p, |s| s.pending_sectors = Some(1));
    assert_vs(&run(&linux(p)), Verdict::Problem, Severity::Critical);
    let mut u = d.clone();
    smart(&mut u, |s| s.pending_sectors = None);
    assert_vs(&run(&linux(u)), Verdict::Problem, Severity::Warning);
    let mut m = d.clone();
    smart(&mut m, |s| s.reallocated_sectors = Some(11));
    assert_vs(&run(&linux(m)), Verdict::Problem, Severity::Warning);
    let mut r = d;
    smart(&mut r, |s| s.reported_uncorrect = Some(3));
    assert_vs(&run(&linux(r)), Verdict::Problem, Severity::Warning);
}

#[test]
fn nvme_timeouts_across_a_sleep_transition_are_left_to_power_management() {
    let log = "[ 40.0] PM: suspend entry (s2idle)\n\
                   [ 41.5] nvme nvme0: I/O 88 QID 4 timeout, aborting\n\
                   [ 42.0] PM: suspend exit\n\
                   [ 99.0] nvme nvme0: I/O 91 QID 4 timeout, reset controller\n";
    let mut d = crate::checks::testutil_nvme::nvme_ssd();
    d.power.power_log = Fact::known(
        crate::sources::power_log::nvme_power_lines(log, "nvme0", &[]),
        "cmd:dmesg",
    );
    d.kernel_events = crate::sources::kernel_log::events_for("nvme0n1", log, "cmd:dmesg");
    assert_eq!(d.kernel_events.len(), 2, "{:?}", d.kernel_events);
    // The timeout after the resume is still the path's.
    let f = run(&linux(d.clone()));
    assert_vs(&f, Verdict::Problem, Severity::Warning);
    assert_eq!(f.evidence.len(), 1, "{:?}", f.evidence);
    assert!(
        f.evidence[0].value.contains("QID 4 timeout, reset"),
        "{:?}",
        f.evidence
    );
    // Only the one inside the transition: power-management's.
    d.kernel_events.truncate(1);
    let f = run(&linux(d));
    assert_eq!(f.verdict, Verdict::NotApplicable, "{f:?}");
}

/// Block-layer and buffer-cache I/O error lines alone (blk_print_req_error, fs/buffer.c)
/// name no cause: media-errors leaves them to read-errors. A medium error beside them, or
/// SMART's pending sectors, keeps them the medium's.
#[test]
fn generic_io_error_lines_alone_are_no_media_evidence() {
    let mut d = DiskFacts::new("sdc", "/dev/sdc");
    d.kernel_events = vec![
        ev(
            KernelEventKind::IoError,
            "blk_update_request: I/O error, dev sdc, sector 88012 op 0x1:(WRITE) flags 0x800",
        ),
        ev(
            KernelEventKind::IoError,
            "Buffer I/O error on dev sdc2, logical block 40961, lost async page write",
        ),
    ];
    let sys = linux(d.clone());
    assert_eq!(generic_io_errors_only(&sys, &sys.disks[0]).len(), 2);
    assert_eq!(run(&sys).verdict, Verdict::NotApplicable);
    // Near misses: a medium error line beside them, pending sectors, a device given up.
    let mut medium = d.clone();
    medium.kernel_events.push(ev(
        KernelEventKind::MediumError,
        "sd 2:0:0:0: [sdc] tag#4 Sense Key : Medium Error [current]",
    ));
    let sys = linux(medium);
    assert!(generic_io_errors_only(&sys, &sys.disks[0]).is_empty());
    assert_eq!(run(&sys).verdict, Verdict::Problem);
    let mut pending = d.clone();
    smart(&mut pending, |s| s.pending_sectors = Some(8));
    let sys = linux(pending);
    assert!(generic_io_errors_only(&sys, &sys.disks[0]).is_empty());
    let mut offline = d.clone();
    offline.kernel_events.push(ev(
        KernelEventKind::IoError,
        "sd 2:0:0:0: rejecting I/O to offline device",
    ));
    let sys = linux(offline);
    assert!(generic_io_errors_only(&sys, &sys.disks[0]).is_empty());
    // Before 4.13 the block layer printed no status: "end_request: I/O error" says nothing
    // either way and stays media-errors'.
    let mut old = d.clone();
    old.kernel_events = vec![ev(
        KernelEventKind::IoError,
        "end_request: I/O error, dev sdc, sector 1048576",
    )];
    let sys = linux(old);
    assert!(generic_io_errors_only(&sys, &sys.disks[0]).is_empty());
    assert_eq!(run(&sys).verdict, Verdict::Problem);
    // An SD card's driver fails every request with the generic status.
    let mut card = DiskFacts::new("mmcblk1", "/dev/mmcblk1");
    card.kernel_events = d.kernel_events.clone();
    let sys = linux(card);
    assert!(generic_io_errors_only(&sys, &sys.disks[0]).is_empty());
}

/// Requests whose SCSI result says the target was gone (DID_NO_CONNECT, DID_BAD_TARGET),
/// with the old block layer's status-less echo of each: no evidence of the medium, they are
/// read-errors'. The same echo without such a result stays the medium's.
#[test]
fn requests_to_a_gone_target_are_no_media_evidence() {
    let mut d = DiskFacts::new("sdf", "/dev/sdf");
    d.kernel_events = vec![
        ev(
            KernelEventKind::IoError,
            "sd 4:0:1:0: [sdf] tag#7 FAILED Result: hostbyte=DID_NO_CONNECT driverbyte=DRIVER_OK",
        ),
        ev(
            KernelEventKind::IoError,
            "blk_update_request: I/O error, dev sdf, sector 2048",
        ),
    ];
    let sys = linux(d.clone());
    assert_eq!(generic_io_errors_only(&sys, &sys.disks[0]).len(), 2);
    assert_eq!(run(&sys).verdict, Verdict::NotApplicable);
    let mut bad = d.clone();
    bad.kernel_events[0].line =
        "sd 4:0:1:0: [sdf] tag#7 FAILED Result: hostbyte=DID_BAD_TARGET driverbyte=DRIVER_OK"
            .into();
    let sys = linux(bad);
    assert_eq!(generic_io_errors_only(&sys, &sys.disks[0]).len(), 2);
    // Near misses: the echo alone, the gone target alone (no failed block request), and a
    // medium error beside a gone target.
    let mut alone = d.clone();
    alone.kernel_events.truncate(1);
    let sys = linux(alone);
    assert!(generic_io_errors_only(&sys, &sys.disks[0]).is_empty());
    let mut echo = d.clone();
    echo.kernel_events.remove(0);
    let sys = linux(echo);
    assert!(generic_io_errors_only(&sys, &sys.disks[0]).is_empty());
    let mut medium = d.clone();
    medium.kernel_events.push(ev(
        KernelEventKind::MediumError,
        "sd 4:0:1:0: [sdf] tag#8 Sense Key : Medium Error [current]",
    ));
    let sys = linux(medium);
    assert!(generic_io_errors_only(&sys, &sys.disks[0]).is_empty());
}

/// A disk that did not answer its probe (READ CAPACITY failed) is read-errors', even with a
/// USB disconnect beside it; a plain failed request beside the same disconnect stays the
/// link's.
#[test]
fn an_unanswered_probe_is_no_link_error() {
    let mut d = DiskFacts::new("sdd", "/dev/sdd");
    d.kernel_events = vec![
        ev(
            KernelEventKind::TransportError,
            "usb 3-2: USB disconnect, device number 4",
        ),
        ev(
            KernelEventKind::IoError,
            "sd 9:0:0:0: [sdd] READ CAPACITY(16) failed",
        ),
    ];
    let sys = linux(d.clone());
    assert_eq!(generic_io_errors_only(&sys, &sys.disks[0]).len(), 1);
    let mut plain = d.clone();
    plain.kernel_events[1].line =
        "blk_update_request: I/O error, dev sdd, sector 0 op 0x0:(READ) flags 0x0".into();
    let sys = linux(plain);
    assert!(generic_io_errors_only(&sys, &sys.disks[0]).is_empty());
}

/// libata's device error whose error register has no bit a read or write defines is a
/// generic status; the
/// same report with UNC is the medium's.
#[test]
fn an_ata_device_error_without_a_media_bit_is_no_media_evidence() {
    let mut d = DiskFacts::new("ata3", "ata3");
    d.kernel_events = vec![ev(
        KernelEventKind::IoError,
        "res 41/02:00:00:08:00/00:00:00:00:00/40 Emask 0x401 (device error) <F>",
    )];
    let sys = linux(d.clone());
    assert_eq!(generic_io_errors_only(&sys, &sys.disks[0]).len(), 1);
    assert_eq!(run(&sys).verdict, Verdict::NotApplicable);
    let mut unc = d.clone();
    unc.kernel_events = vec![ev(
        KernelEventKind::DeviceError,
        "res 51/40:00:00:08:00/00:00:00:00:00/40 Emask 0x409 (device error) <F>",
    )];
    let sys = linux(unc);
    assert!(generic_io_errors_only(&sys, &sys.disks[0]).is_empty());
    assert_eq!(run(&sys).verdict, Verdict::Problem);
}

/// A dmesg event of `kind` for `line`.
fn ev(kind: KernelEventKind, line: &str) -> KernelEvent {
    KernelEvent {
        kind,
        line: line.to_string(),
        from: "cmd:dmesg".into(),
    }
}

/// The MMC core's "unknown error %d sending read/write command" (core/block.c
/// mmc_blk_cmd_error's default case) is the host driver's own error code, no answer of the
/// card: read-errors', not media-errors'. A card's timeout stays the card's.
#[test]
fn mmc_host_error_codes_are_no_media_evidence() {
    let mut d = DiskFacts::new("mmcblk2", "/dev/mmcblk2");
    d.kernel_events = vec![ev(
        KernelEventKind::IoError,
        "mmcblk2: unknown error -12 sending read/write command, card status 0xb00",
    )];
    let sys = linux(d.clone());
    assert_eq!(generic_io_errors_only(&sys, &sys.disks[0]).len(), 1);
    assert_eq!(run(&sys).verdict, Verdict::NotApplicable);
    // Near miss: the card timed out (-110): the card's, media-errors keeps it.
    d.kernel_events.push(ev(
        KernelEventKind::IoTimeout,
        "mmcblk2: error -110 sending status command, retrying",
    ));
    let sys = linux(d);
    assert!(generic_io_errors_only(&sys, &sys.disks[0]).is_empty());
}
