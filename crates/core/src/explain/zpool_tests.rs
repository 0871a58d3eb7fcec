//! facts::pasted::zpool read end to end: pasted `zpool status` through explain to the checks.

use crate::checks::{Severity, Verdict};
use crate::explain::{Input, explain};

/// The (device, severity) of each problem finding of `check`.
fn problems(text: &str, check: &str) -> Vec<(String, Severity)> {
    explain(&[Input {
        label: "t".into(),
        bytes: text.as_bytes().to_vec(),
    }])
    .expect("recognised")
    .findings
    .iter()
    .filter(|f| f.check == check && f.verdict == Verdict::Problem)
    .map(|f| (f.device.clone(), f.severity))
    .collect()
}

fn media(text: &str) -> Vec<(String, Severity)> {
    problems(text, "media-errors")
}

const HEAD: &str = "  pool: mypool\n state: ONLINE\nconfig:\n\n\tNAME                    STATE     READ WRITE CKSUM\n";

#[test]
fn io_errors_on_a_geli_provider_of_a_gpt_label_are_its_disks() {
    // BSD Now 400 feedback ("Dennis - zfs questions"), FreeNAS 11.3: the second disk of a
    // GELI mirror with READ 139, WRITE 1.56K (zpool's K suffix) and CKSUM 500.
    let t = format!(
        "{HEAD}\tmypool                  ONLINE       0     0    24\n\t mirror-0              ONLINE       0     0    48\n\t   gpt/zfs-wd5PG8.eli  ONLINE       0     0    48\n\t   gpt/zfs-wd5PKU.eli  ONLINE     139 1.56K   500\n"
    );
    let m = media(&t);
    assert!(
        m.iter()
            .any(|(d, s)| d == "gpt/zfs-wd5PKU" && *s >= Severity::Warning),
        "{m:?}"
    );
}

#[test]
fn checksum_errors_on_every_mirror_member_name_no_disk() {
    // BSD Now 452 feedback ("Jeff - ZFS checksum repair"): both sides of a mirror counted
    // checksum errors after a RAM module died; no read or write failed.
    let both = format!(
        "{HEAD}\tdata                   ONLINE       0     0     0\n\t  mirror-0             ONLINE       0     0     0\n\t    gpt/zfs0-ZL20D1YS  ONLINE       0     0     5\n\t    gpt/zfs1-ZL20B0T9  ONLINE       0     0    10\n"
    );
    assert_eq!(media(&both), vec![]);
    // Near miss: one member alone with checksum errors is still that disk's notice.
    let one = both.replace("ONLINE       0     0     5", "ONLINE       0     0     0");
    assert_eq!(
        media(&one),
        vec![("gpt/zfs1-ZL20B0T9".to_string(), Severity::Notice)]
    );
}

#[test]
fn a_table_cut_to_a_replacing_vdev_is_a_rebuilding_array() {
    // yoichiro's blog (2013-05-06), FreeNAS 8: no "state:" and no "scan:" line.
    let t = "# zpool status\n\nNAME                      STATE     READ WRITE CKSUM\ntobu                        DEGRADED     0     0     0\n  raidz2                    DEGRADED     0     0     0\n    ada0p2                ONLINE       0     0     0\n    ada1p2                ONLINE       0     0     0  1.06M resilvered\n    ada2p2                ONLINE       0     0     0  8.94M resilvered\n    replacing             DEGRADED     0     0     0\n        15868252100758834784  UNAVAIL      0     0     0  was /dev/ada3p2\n        ada3                ONLINE       0     0     0  72.0G resilvered\n";
    let p = problems(t, "array-rebuilding");
    assert!(p.iter().any(|(_, s)| *s == Severity::Warning), "{p:?}");
    // Near miss: a healthy table with an old "repaired" note is no rebuild.
    let healthy = "NAME        STATE     READ WRITE CKSUM\ntank        ONLINE       0     0     0\n  mirror    ONLINE       0     0     0\n    ada0p2  ONLINE       0     0     0  1.06M repaired\n    ada1p2  ONLINE       0     0     0\n";
    assert_eq!(problems(healthy, "array-rebuilding"), vec![]);
}

#[test]
fn an_untrimmed_nvme_vdev_is_a_trim_hint() {
    // reefland/ansible-zfs_on_root#1 (2022): `zpool status -t` of a root pool on a Samsung 980.
    let t = "$ zpool status -t\n  pool: rpool\n state: ONLINE\n  scan: scrub repaired 0B in 0 days 00:00:36 with 0 errors on Sun Jun 12 00:24:37 2022\nconfig:\n\n        NAME                                              STATE     READ WRITE CKSUM\n        rpool                                             ONLINE       0     0     0\n          nvme-Samsung_SSD_980_1TB_S64ANS0T131593J-part4  ONLINE       0     0     0  (untrimmed)\n";
    let p = problems(t, "trim-unavailable");
    assert_eq!(
        p,
        vec![(
            "nvme-Samsung_SSD_980_1TB_S64ANS0T131593J".to_string(),
            Severity::Notice
        )]
    );
    // A kernel-named NVMe partition too: NVMe by its name alone.
    let wd = t.replace(
        "nvme-Samsung_SSD_980_1TB_S64ANS0T131593J-part4",
        "nvme0n1p4                                     ",
    );
    assert_eq!(problems(&wd, "trim-unavailable").len(), 1, "{wd}");
    // Near misses: the pool's autotrim is on; a leaf nothing calls an SSD; a trimmed leaf.
    let on = format!(
        "{t}$ zpool get autotrim rpool\nNAME   PROPERTY  VALUE     SOURCE\nrpool  autotrim  on        local\n"
    );
    assert_eq!(problems(&on, "trim-unavailable"), vec![]);
    let sdb = t.replace(
        "nvme-Samsung_SSD_980_1TB_S64ANS0T131593J-part4",
        "sdb1                                          ",
    );
    assert_eq!(problems(&sdb, "trim-unavailable"), vec![]);
    let done = t.replace(
        "(untrimmed)",
        "(100% trimmed, completed at Sun Jun 12 00:30:01 2022)",
    );
    assert_eq!(problems(&done, "trim-unavailable"), vec![]);
}

#[test]
fn a_lone_progress_line_is_a_running_scan() {
    // openzfs/zfs#9977 (2020): `zpool status | grep scanned` right after `zpool scrub`.
    let t = "root@d:~# zpool status | grep scanned\n    1.08T scanned at 52.5G/s, 552K issued at 26.3K/s, 21.3T total\n";
    let p = problems(t, "array-rebuilding");
    assert_eq!(
        p,
        vec![(crate::sources::zpool::UNNAMED.to_string(), Severity::Notice)]
    );
    // Near miss: a finished scrub's line.
    let done = "root@d:~# zpool status | grep scan\n  scan: scrub repaired 0B in 00:10:11 with 0 errors on Sun Mar 10 00:34:12 2024\n";
    assert_eq!(problems(done, "array-rebuilding"), vec![]);
}

#[test]
fn data_zfs_lost_is_a_media_error_of_the_pool() {
    // sanoid#784 (2022): ZFS-8000-8A on tank, cut before its vdev rows.
    let t = "root@nas:~# zpool status -v\n  pool: tank\n state: ONLINE\nstatus: One or more devices has experienced an error resulting in data\n\tcorruption.  Applications may be affected.\naction: Restore the file in question if possible.  Otherwise restore the\n\tentire pool from backup.\n   see: https://openzfs.github.io/openzfs-docs/msg/ZFS-8000-8A\n  scan: scrub in progress since Mon Dec  5 19:00:01 2022\n\t1.32T scanned at 1.25G/s, 612G issued at 580M/s, 3.84T total\n\t0B repaired, 15.55% done, 01:37:44 to go\n";
    assert_eq!(media(t), vec![("tank".to_string(), Severity::Warning)]);
    // Near miss: no known data errors.
    let clean = format!(
        "{HEAD}\ttank                    ONLINE       0     0     0\n\t  sda                   ONLINE       0     0     0\n\nerrors: No known data errors\n"
    );
    assert_eq!(media(&clean), vec![]);
    // A vdev with ZFS's counts names the disk: no second finding for the pool.
    let counted = format!(
        "{HEAD}\tmypool                  ONLINE       0     0     2\n\t  gpt/ttt               ONLINE       0     0     2\n\nerrors: Permanent errors have been detected in the following files:\n\n        /mypool/dummy\n"
    );
    assert_eq!(
        media(&counted),
        vec![("gpt/ttt".to_string(), Severity::Notice)]
    );
}
