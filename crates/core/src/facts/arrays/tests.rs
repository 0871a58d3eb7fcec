use super::{btrfs_arrays, zfs_arrays};

#[test]
fn zpool_initialize_is_a_background_operation() {
    // Leaf notes in print_status_initialize's format (cmd/zpool/zpool_main.c), NOT A
    // CAPTURE: running on three leaves, one already done.
    let t = "  pool: tank\n state: ONLINE\nconfig:\n\n\tNAME        STATE     READ WRITE CKSUM\n\ttank        ONLINE       0     0     0\n\t  raidz1-0  ONLINE       0     0     0\n\t    sda     ONLINE       0     0     0  (12% initialized, started at Tue Mar  5 10:12:01 2024)\n\t    sdb     ONLINE       0     0     0  (9% initialized, started at Tue Mar  5 10:12:01 2024)\n\t    sdc     ONLINE       0     0     0  (initialized, completed at Tue Mar  5 11:12:01 2024)\n\nerrors: No known data errors\n";
    let a = zfs_arrays(t, &crate::sources::zpool::SPEC.key_for(""));
    assert_eq!(a.len(), 1);
    assert_eq!(a[0].action, "initialize");
    assert_eq!(a[0].percent_done, Some(9.0));
    let done = t
        .replace("(12% initialized, started", "(initialized, completed")
        .replace("(9% initialized, started", "(initialized, completed");
    assert_eq!(zfs_arrays(&done, "k")[0].action, "idle");
    let paused = t.replace("initialized, started", "initialized, suspended");
    assert_eq!(zfs_arrays(&paused, "k")[0].action, "idle");
}

#[test]
fn a_resilvering_status_without_its_scan_line_is_a_resilver() {
    // zpool_main.c's ZPOOL_STATUS_RESILVERING text, NOT A CAPTURE: the paste stops before
    // the "scan:" line, or keeps the status alone.
    let head = "  pool: tank\n state: ONLINE\nstatus: One or more devices is currently being \
                    resilvered.  The pool will\n\tcontinue to function, possibly in a degraded \
                    state.\naction: Wait for the resilver to complete.\n";
    let a = zfs_arrays(head, "k");
    assert_eq!((a.len(), a[0].action.as_str()), (1, "resilver"));
    assert_eq!(a[0].percent_done, None);
    let alone = "status: One or more devices is currently being resilvered.\n";
    assert_eq!(zfs_arrays(alone, "k")[0].action, "resilver");
    // A finished scan line wins over the status text; another status is no resilver.
    let done = format!(
        "{head}  scan: resilvered 1.14M in 0h0m with 0 errors on Sat Jan 12 10:49:31 2019\n"
    );
    assert_eq!(zfs_arrays(&done, "k")[0].action, "idle");
    let other = head.replace("is currently being resilvered", "has been taken offline");
    assert_eq!(zfs_arrays(&other, "k")[0].action, "idle");
}

#[test]
fn btrfs_scrubs_become_filesystem_arrays() {
    // btrfs-progs 5.x status while running (cmds/scrub.c, NOT A CAPTURE): scrubbing, no errors.
    let running = "UUID:             3c6a0f55-1d2e-4b7a-9c41-0e2f8a7b6d10\nScrub started:    Tue Mar  4 02:00:01 2025\nStatus:           running\nDuration:         1:12:40\nTotal to scrub:   3.52TiB\nRate:             310.22MiB/s\nError summary:    no errors found\n";
    let a = btrfs_arrays(running, "k");
    assert_eq!(a.len(), 1);
    assert_eq!(
        (a[0].kind.as_str(), a[0].action.as_str()),
        ("btrfs", "scrub")
    );
    assert!(a[0].io_failure.is_none() && a[0].data_errors.is_none());
    // Finished with read and checksum errors: idle, with both counts as evidence.
    let bad = running.replace("running", "finished").replace(
        "no errors found",
        "read=12 csum=7\n  Corrected:      3\n  Uncorrectable:  16",
    );
    let a = btrfs_arrays(&bad, "k");
    assert_eq!(a[0].action, "idle");
    assert_eq!(
        a[0].io_failure.as_deref(),
        Some("btrfs scrub: read=12 (corrected 3, uncorrectable 16)")
    );
    assert!(
        a[0].data_errors
            .as_deref()
            .is_some_and(|l| l.contains("csum=7"))
    );
    // A clean finished scrub proves nothing wrong.
    let clean = running.replace("running", "finished");
    let a = btrfs_arrays(&clean, "k");
    assert_eq!(a[0].action, "idle");
    assert!(a[0].io_failure.is_none());
}
