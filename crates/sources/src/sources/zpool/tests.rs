use super::*;

/// yoichiro's blog "FreeNAS8のHDD交換" (2013-05-06): the tables alone, with no "state:"
/// and no "scan:" line, of a raidz2 on FreeNAS 8 (ZFS v15) two hours into a replace.
const REPLACING: &str = "NAME                      STATE     READ WRITE CKSUM\ntobu                        DEGRADED     0     0     0\n  raidz2                    DEGRADED     0     0     0\n    ada0p2                ONLINE       0     0     0\n    ada1p2                ONLINE       0     0     0  1.06M resilvered\n    replacing             DEGRADED     0     0     0\n        15868252100758834784  UNAVAIL      0     0     0  was /dev/ada3p2\n        ada3                ONLINE       0     0     0  72.0G resilvered\n";

#[test]
fn the_pool_row_gives_the_state_a_paste_lost() {
    let p = &parse(REPLACING)[0];
    assert_eq!(p.state.as_deref(), Some("DEGRADED"));
    // A "state:" line wins over the row.
    let t = format!(" state: ONLINE\nconfig:\n\n{REPLACING}");
    assert_eq!(parse(&t)[0].state.as_deref(), Some("ONLINE"));
}

#[test]
fn a_replacing_vdev_or_a_resilvering_leaf_is_a_running_resilver() {
    assert!(tree_says_resilvering(&parse(REPLACING)[0]));
    // belgianbeer's Qiita post (2025): OpenZFS's "replacing-0" and "(resilvering)".
    let modern = "\tNAME             STATE     READ WRITE CKSUM\n\tupool            DEGRADED     0     0     0\n\t  raidz1-0       DEGRADED     0     0     0\n\t    gpt/usb1     ONLINE       0     0     0  (resilvering)\n";
    assert!(tree_says_resilvering(&parse(modern)[0]));
    // Near miss: the pre-2010 "N resilvered" note outlives the resilver (vs_scrub_repaired).
    let done = REPLACING
        .replace(
            "    replacing             DEGRADED",
            "    ada3p2                ONLINE  ",
        )
        .replace(
            "        15868252100758834784  UNAVAIL      0     0     0  was /dev/ada3p2\n",
            "",
        )
        .replace(
            "        ada3                ONLINE       0     0     0  72.0G resilvered\n",
            "",
        );
    assert!(!tree_says_resilvering(&parse(&done)[0]), "{done}");
}

#[test]
fn the_2_2_progress_line_is_a_running_scan() {
    // OpenZFS 2.2 print_scan_scrub_resilver_status, belgianbeer's post above.
    for t in [
        "        630M / 630M scanned, 264M / 630M issued at 20.3M/s\n",
        "\t1.20T / 3.61T scanned at 1.02G/s, 310G / 3.61T issued at 263M/s\n",
    ] {
        assert!(
            SCAN_PROGRESS.is_match(t.lines().next().unwrap_or("")),
            "{t}"
        );
    }
    assert!(!SCAN_PROGRESS.is_match("630M / 630M of the disk was scanned"));
}

#[test]
fn trim_notes_of_zpool_status_t() {
    assert_eq!(trim_note("(trim unsupported)"), Some(false));
    assert_eq!(trim_note("(untrimmed)"), Some(true));
    assert_eq!(
        trim_note("(42% trimmed, started at Tue 03 Mar 2026 01:02:03 AM UTC)"),
        Some(true)
    );
    // Near misses: other notes of a vdev row.
    assert_eq!(trim_note("(resilvering)"), None);
    assert_eq!(trim_note("was /dev/sdc1"), None);
}

#[test]
fn data_zfs_could_not_repair() {
    // sanoid#784 (2022): ZFS-8000-8A's status, the paste cut before "errors:".
    let t = "  pool: tank\n state: ONLINE\nstatus: One or more devices has experienced an error resulting in data\n\tcorruption.  Applications may be affected.\naction: Restore the file in question if possible.  Otherwise restore the\n\tentire pool from backup.\n   see: https://openzfs.github.io/openzfs-docs/msg/ZFS-8000-8A\n  scan: scrub in progress since Mon Dec  5 19:00:01 2022\n";
    let p = &parse(t)[0];
    assert!(
        data_errors(p).is_some_and(|s| s.contains("resulting in data corruption")),
        "{p:?}"
    );
    for e in [
        "errors: Permanent errors have been detected in the following files:\n\n        /tank/a\n",
        "errors: 2 data errors, use '-v' for a list\n",
    ] {
        let p = &parse(&format!("  pool: tank\n state: ONLINE\n{e}"))[0];
        assert!(data_errors(p).is_some(), "{e}");
    }
    // Near misses: no known errors, another status text.
    for e in [
        "errors: No known data errors\n",
        "errors: 0 data errors, use '-v' for a list\n",
        "status: One or more devices has experienced an unrecoverable error.  An\n\tattempt was made to correct the error.  Applications are unaffected.\n",
    ] {
        let p = &parse(&format!("  pool: tank\n state: ONLINE\n{e}"))[0];
        assert_eq!(data_errors(p), None, "{e}");
    }
}

#[test]
fn io_failures_with_every_leaf_clean_are_unattributed() {
    let text = |leaf: &str| {
        format!(
            "  pool: tank\n state: ONLINE\n\
             status: One or more devices are faulted in response to IO failures.\n\
             action: Make sure the affected devices are connected, then run 'zpool clear'.\n\
             config:\n\n\
             \tNAME        STATE     READ WRITE CKSUM\n\
             \ttank        ONLINE       0     7     0\n\
             \t  ada3      ONLINE       0     0     0\n\
             {leaf}\n\n\
             errors: No known data errors\n"
        )
    };
    let p = parse(&text("\t  ada4      ONLINE       0     0     0"));
    assert_eq!(
        p.first().and_then(unattributed_io_failure).as_deref(),
        Some("status: One or more devices are faulted in response to IO failures.")
    );
    // Near misses: a member that left ONLINE, or counted errors, is the one to blame.
    for leaf in [
        "\t  ada4      UNAVAIL      0     0     0  cannot open",
        "\t  ada4      ONLINE       3     0     0",
    ] {
        let p = parse(&text(leaf));
        assert_eq!(p.first().and_then(unattributed_io_failure), None, "{leaf}");
    }
}
