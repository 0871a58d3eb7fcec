use super::*;
use crate::checks::measured_common::synth::*;

/// A bench whose every test failed at its start (a read-only scratch directory, a
/// device root may not open) is unknown, not "no I/O errors".
#[test]
fn tests_that_never_ran_are_unknown_not_clean() {
    let mut r = with_error(
        result(TestName::SeqRead, "outer", "sdb", 0.0, 1 << 20),
        "EACCES",
        0,
    );
    r.ios = 0;
    r.bytes = 0;
    let s = sys(vec![], vec![r]);
    let f = ReadErrors.run(&s);
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(f[0].verdict, Verdict::Unknown, "{f:?}");
    assert!(
        f[0].title.contains("no test could run (EACCES)"),
        "{}",
        f[0].title
    );
}

#[test]
fn eio_is_critical_with_the_offset() {
    let s = sys(
        vec![],
        vec![
            result(TestName::SeqRead, "outer", "sdb", 150.0, 1 << 20),
            with_error(
                result(TestName::SeqRead, "middle", "sdb", 20.0, 1 << 20),
                "EIO",
                1_048_576_000,
            ),
        ],
    );
    let f = ReadErrors.run(&s);
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].verdict, Verdict::Problem);
    assert_eq!(f[0].severity, Severity::Critical);
    assert_eq!(
        f[0].title,
        "sdb returned an I/O error at byte 1048576000 (sector 2048000 of 512 B)"
    );
}

#[test]
fn removal_and_clean_runs() {
    let s = sys(
        vec![],
        vec![with_error(
            result(TestName::RandRead, "qd1", "loop9", 1.0, 4096),
            "ENODEV",
            8192,
        )],
    );
    let f = ReadErrors.run(&s);
    assert!(f[0].title.contains("disappeared"), "{}", f[0].title);
    let s = sys(
        vec![],
        vec![result(TestName::SeqRead, "outer", "sda", 150.0, 1 << 20)],
    );
    assert_eq!(ReadErrors.run(&s)[0].verdict, Verdict::Pass);
    assert!(ReadErrors.run(&sys(vec![], vec![])).is_empty());
    // ENOSPC is a full filesystem, not a disk error.
    let s = sys(
        vec![],
        vec![with_error(
            result(TestName::SeqWrite, "1 MiB", "", 100.0, 1 << 20),
            "ENOSPC",
            0,
        )],
    );
    assert!(ReadErrors.run(&s).is_empty());
}

#[test]
fn a_scratch_file_write_error_is_not_a_disk_offset() {
    let mut r = with_error(
        result(TestName::SyncWrite, "4 KiB + fsync", "loop2", 1.0, 4096),
        "EIO",
        4096,
    );
    r.target = "/mnt/x (unnamed scratch file)".into();
    let f = ReadErrors.run(&sys(vec![], vec![r]));
    assert_eq!(
        f[0].title,
        "loop2: a write to the filesystem on /mnt/x failed with an I/O error (at byte 4096 \
             of diskdoc's scratch file)"
    );
    assert!(!f[0].title.contains("sector"), "{}", f[0].title);
    assert!(
        f[0].explanation.contains("stopped the write tests"),
        "{}",
        f[0].explanation
    );
    let r = with_error(
        result(TestName::RawWrite, "seq 1 MiB", "loop3", 50.0, 1 << 20),
        "EIO",
        1 << 20,
    );
    let f = ReadErrors.run(&sys(vec![], vec![r]));
    assert!(
        f[0].explanation.starts_with("Writing /dev/loop3 failed"),
        "{}",
        f[0].explanation
    );
}

/// A pool whose I/O failed (ZFS-8000-HC) with every leaf clean: the pool's read-errors, and
/// not media-errors; a member that counted the errors takes them over.
#[test]
fn a_pool_faulted_by_io_failures_without_a_member_to_blame() {
    let status = |leaf_row: &str| {
        [
            "  pool: scratch",
            " state: ONLINE",
            "status: One or more devices are faulted in response to IO failures.",
            "action: Make sure the affected devices are connected, then run 'zpool clear'.",
            "   see: https://openzfs.github.io/openzfs-docs/msg/ZFS-8000-HC",
            "  scan: none requested",
            "config:",
            "",
            "\tNAME               STATE     READ WRITE CKSUM",
            "\tscratch            ONLINE       0    42     0",
            "\t  mirror-0         ONLINE       0     0     0",
            "\t    /var/tmp/vd0   ONLINE       0     0     0",
            leaf_row,
            "",
            "errors: 3 data errors, use '-v' for a list",
        ]
        .join("\n")
    };
    let sys_of = |text: &str| {
        let mut s = crate::facts::SystemFacts::empty(Platform::Freebsd);
        s.arrays = crate::facts::Fact::known(
            crate::facts::arrays::zfs_arrays(text, "cmd:zpool status"),
            "cmd:zpool status",
        );
        s
    };
    let clean = sys_of(&status("\t    /var/tmp/vd1   ONLINE       0     0     0"));
    let f = ReadErrors.run(&clean);
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(f[0].device, "scratch");
    assert_eq!(f[0].verdict, Verdict::Problem);
    assert!(
        f[0].explanation.contains("vdevs are files"),
        "{}",
        f[0].explanation
    );
    let media = crate::checks::by_id("media-errors").map(|c| c.run(&clean));
    assert!(
        media.is_some_and(|m| m.iter().all(|x| x.verdict != Verdict::Problem)),
        "media-errors must leave the pool's failed I/O to read-errors"
    );
    // Near miss: a leaf that counted the write errors names the device.
    let blamed = sys_of(&status(
        "\t    /var/tmp/vd1   FAULTED      0    42     0  too many errors",
    ));
    assert!(ReadErrors.run(&blamed).is_empty());
}

/// A disk whose kernel log holds only generic I/O error lines (no sense, no ATA error, no
/// NVMe media status) is read-errors' at warning; a clean disk and one with a medium error
/// get nothing from it.
#[test]
fn kernel_io_errors_without_a_cause_are_read_errors() {
    use crate::checks::testutil::linux;
    use crate::facts::{DiskFacts, KernelEvent, KernelEventKind};
    let ev = |kind, line: &str| KernelEvent {
        kind,
        line: line.to_string(),
        from: "cmd:dmesg".into(),
    };
    let mut d = DiskFacts::new("nvme2n1", "/dev/nvme2n1");
    d.kernel_events = vec![
        ev(
            KernelEventKind::IoError,
            "I/O error, dev nvme2n1, sector 2048 op 0x1:(WRITE) flags 0x4800 phys_seg 1 prio class 0",
        ),
        ev(
            KernelEventKind::IoError,
            "Buffer I/O error on dev nvme2n1p1, logical block 7, lost async page write",
        ),
    ];
    let fs = ReadErrors.run(&linux(d.clone()));
    assert_eq!(fs.len(), 1, "{fs:?}");
    assert_eq!(fs[0].verdict, Verdict::Problem);
    assert_eq!(fs[0].severity, Severity::Warning);
    assert_eq!(fs[0].device, "nvme2n1");
    assert!(fs[0].explanation.contains("never reached the disk"));
    // Near misses: no error line, or a media status among them.
    let mut clean = d.clone();
    clean.kernel_events.clear();
    assert!(ReadErrors.run(&linux(clean)).is_empty());
    d.kernel_events.push(ev(
        KernelEventKind::MediumError,
        "nvme2n1: Read(0x2) @ LBA 2048, 8 blocks, Unrecovered Read Error (sct 0x2 / sc 0x81)",
    ));
    assert!(ReadErrors.run(&linux(d)).is_empty());
}

/// A filesystem's own I/O error lines with no block-layer line (JBD2, ext4's end_bio, XFS
/// metadata I/O): the failed requests of the disk under it, read-errors' too; a journal
/// line beside a medium error stays media-errors'.
#[test]
fn filesystem_io_error_lines_alone_are_read_errors() {
    use crate::checks::testutil::linux;
    use crate::facts::{DiskFacts, KernelEvent, KernelEventKind};
    let ev = |kind, line: &str| KernelEvent {
        kind,
        line: line.to_string(),
        from: "cmd:dmesg".into(),
    };
    let mut d = DiskFacts::new("vdc", "/dev/vdc");
    d.kernel_events = vec![
        ev(
            KernelEventKind::IoError,
            "JBD2: Detected IO errors while flushing file data on vdc1-8",
        ),
        ev(
            KernelEventKind::IoError,
            "XFS (vdc2): metadata I/O error in \"xfs_buf_ioend\" at daddr 0x80 len 8 error 5",
        ),
    ];
    let mut real = DiskFacts::new("sdc", "/dev/sdc");
    real.kernel_events = d.kernel_events.clone();
    for (disk, name) in [(d.clone(), "vdc"), (real.clone(), "sdc")] {
        let sys = linux(disk);
        let fs = ReadErrors.run(&sys);
        // A virtual disk's errors are virtual-or-bridged-device's instead.
        if name == "vdc" {
            assert!(fs.is_empty(), "{fs:?}");
            continue;
        }
        assert_eq!(fs.len(), 1, "{fs:?}");
        assert_eq!(fs[0].severity, Severity::Warning);
        assert!(
            crate::checks::media_errors::generic_io_errors_only(&sys, &sys.disks[0]).len() == 2
        );
    }
    // Buffer-cache echoes alone state no failed request of their own: unchanged.
    let mut echo = DiskFacts::new("sdc", "/dev/sdc");
    echo.kernel_events = vec![ev(
        KernelEventKind::IoError,
        "Buffer I/O error on device sdc1, logical block 3",
    )];
    assert!(ReadErrors.run(&linux(echo)).is_empty());
    // A medium error beside them.
    real.kernel_events.push(ev(
        KernelEventKind::MediumError,
        "sd 2:0:0:0: [sdc] Sense Key : Medium Error [current]",
    ));
    assert!(ReadErrors.run(&linux(real)).is_empty());
}

/// btrfs's failed-I/O counters of a member are read errors of that disk; zeros are silent.
#[test]
fn btrfs_failed_io_counters_are_read_errors() {
    let mut d = crate::checks::testutil::sata_hdd_ahci();
    d.vdev_errors
        .push(crate::checks::testutil::btrfs_counters("/dev/sdc1", 0, 17));
    let s = crate::checks::testutil::linux(d.clone());
    let f: Vec<Finding> = ReadErrors
        .run(&s)
        .into_iter()
        .filter(|f| f.is_problem())
        .collect();
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(f[0].severity, Severity::Warning);
    assert!(f[0].title.contains("17 failed write(s)"), "{}", f[0].title);
    d.vdev_errors = vec![crate::checks::testutil::btrfs_counters("/dev/sdc1", 0, 0)];
    let s = crate::checks::testutil::linux(d);
    assert!(!ReadErrors.run(&s).iter().any(Finding::is_problem));
}

/// A loop device's failed requests (drivers/block/loop.c: a write of the backing file that
/// failed) are read-errors that point at the backing file and its filesystem, not at a
/// drive's SMART report; a disk's own lines keep the drive's wording.
#[test]
fn loop_device_errors_point_at_the_backing_file() {
    use crate::checks::testutil::linux;
    use crate::facts::{DiskFacts, KernelEvent, KernelEventKind};
    let ev = |kind, line: &str| KernelEvent {
        kind,
        line: line.to_string(),
        from: "cmd:dmesg".into(),
    };
    let mut d = DiskFacts::new("loop3", "/dev/loop3");
    d.kernel_events = vec![
        ev(
            KernelEventKind::IoError,
            "blk_update_request: I/O error, dev loop3, sector 90112 op 0x1:(WRITE) flags 0x0",
        ),
        ev(
            KernelEventKind::IoError,
            "Buffer I/O error on dev loop3p1, logical block 11264, lost async page write",
        ),
    ];
    let fs = ReadErrors.run(&linux(d.clone()));
    assert_eq!(fs.len(), 1, "{fs:?}");
    assert_eq!(fs[0].severity, Severity::Warning);
    assert!(fs[0].explanation.contains("backing file"), "{fs:?}");
    assert!(
        fs[0]
            .fixes
            .iter()
            .any(|f| f.steps.iter().any(|s| s.contains("losetup -l /dev/loop3")))
    );
    // Healthy: no error line, nothing said.
    let mut clean = d.clone();
    clean.kernel_events.clear();
    assert!(ReadErrors.run(&linux(clean)).is_empty());
    // A disk's same lines keep the drive's wording.
    let mut sd = d;
    sd.name = "sdc".into();
    let fs = ReadErrors.run(&linux(sd));
    assert!(!fs[0].explanation.contains("backing file"), "{fs:?}");
}

/// ZFS WRITE counts with no failed read and no checksum error name no sector (a drive remaps
/// on write): read-errors, and media-errors stays silent; one failed read beside them makes
/// it the medium's again.
#[test]
fn zfs_write_only_errors_are_read_errors_not_media() {
    use crate::checks::media_errors::MediaErrors;
    let vdev = |r: u64, w: u64, c: u64| crate::facts::VdevErrors {
        pool: "vault".into(),
        vdev: "ada3".into(),
        state: Some("ONLINE".into()),
        read_errors: Some(r),
        write_errors: Some(w),
        checksum_errors: Some(c),
        note: None,
        line: format!("ada3 ONLINE {r} {w} {c}"),
        from: "cmd:zpool status".into(),
    };
    let mut d = crate::checks::testutil::sata_hdd_ahci();
    d.vdev_errors.push(vdev(0, 3, 0));
    let s = crate::checks::testutil::linux(d.clone());
    let f: Vec<Finding> = ReadErrors
        .run(&s)
        .into_iter()
        .filter(|f| f.is_problem())
        .collect();
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(f[0].title.contains("3 failed write(s)"), "{}", f[0].title);
    assert!(!MediaErrors.run(&s).iter().any(Finding::is_problem));
    d.vdev_errors = vec![vdev(1, 3, 0)];
    let s = crate::checks::testutil::linux(d);
    assert!(!ReadErrors.run(&s).iter().any(Finding::is_problem));
    assert!(MediaErrors.run(&s).iter().any(Finding::is_problem));
}
