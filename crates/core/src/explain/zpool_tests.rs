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
