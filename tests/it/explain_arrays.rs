//! Arrays and layers through `diskdoc explain`: `mdadm --detail` (mdadm Detail.c's
//! printfs), `zpool status` vdev error counters and by-id names (OpenZFS zpool_main.c
//! status_callback / print_status_config), `zpool list -v`, `zdb` ashift lines and `lsblk -D`.
//! Every input here is built from the tool's print format, not copied from a post; a healthy
//! twin of each stays silent.

use std::collections::BTreeSet;

use diskdoc_core::checks::{Severity, Verdict};

use crate::support::{explain_text as run, problem_ids};

fn ids(list: &[&str]) -> BTreeSet<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// Detail.c's key column (right-aligned to 18) and " : ".
fn md_key(k: &str, v: &str) -> String {
    format!("{k:>18} : {v}\n")
}

/// A `mdadm --detail` output of a `level` array with `raid` slots: `state` is the State
/// line, `status` an optional "Rebuild Status" percentage, `rows` the device table rows as
/// (number, slot, state words, device).
fn mdadm_detail(
    header: bool,
    level: &str,
    raid: u32,
    state: &str,
    counts: (u32, u32, u32, u32),
    status: Option<u32>,
    rows: &[(&str, &str, &str, &str)],
) -> String {
    let mut t = String::new();
    if header {
        t.push_str("/dev/md4:\n");
    }
    t.push_str(&md_key("Version", "1.2"));
    t.push_str(&md_key("Creation Time", "Mon Mar  2 09:00:00 2026"));
    t.push_str(&md_key("Raid Level", level));
    t.push_str(&md_key("Array Size", "3906762752 (3.64 TiB 4.00 TB)"));
    t.push_str(&md_key("Raid Devices", &raid.to_string()));
    t.push_str(&md_key("Total Devices", &rows.len().to_string()));
    t.push_str(&md_key("Persistence", "Superblock is persistent"));
    t.push('\n');
    t.push_str(&md_key("Update Time", "Mon Mar  2 10:00:00 2026"));
    t.push_str(&format!("{:>18} : {state} \n", "State"));
    t.push_str(&md_key("Active Devices", &counts.0.to_string()));
    t.push_str(&md_key("Working Devices", &counts.1.to_string()));
    t.push_str(&md_key("Failed Devices", &counts.2.to_string()));
    t.push_str(&md_key("Spare Devices", &counts.3.to_string()));
    t.push('\n');
    t.push_str(&md_key("Consistency Policy", "bitmap"));
    t.push('\n');
    if let Some(p) = status {
        t.push_str(&format!("{:>14} Status : {p}% complete\n\n", "Rebuild"));
    }
    t.push_str(&md_key("Name", "fileserver:4  (local to host fileserver)"));
    t.push_str(&md_key("UUID", "5e6f7a8b:9c0d1e2f:3a4b5c6d:7e8f9a0b"));
    t.push_str(&md_key("Events", "4711"));
    t.push_str("\n    Number   Major   Minor   RaidDevice State\n");
    for (n, slot, st, dev) in rows {
        t.push_str(&format!(
            "   {n:>5}   {:>5}    {:>5}    {slot:>5}      {st}   {dev}\n",
            8, 16
        ));
    }
    t
}

#[test]
fn mdadm_detail_degraded_recovering_and_removed_are_array_rebuilding() {
    // A RAID6 with one slot removed, no header (the paste starts at "Version :").
    let removed = mdadm_detail(
        false,
        "raid6",
        4,
        "clean, degraded",
        (3, 3, 0, 0),
        None,
        &[
            ("0", "0", "active sync", "/dev/sda1"),
            ("1", "1", "active sync", "/dev/sdb1"),
            ("-", "2", "removed", ""),
            ("3", "3", "active sync", "/dev/sdd1"),
        ],
    );
    // A RAID1 recovering onto a spare, typed command and header.
    let recovering = format!(
        "root@fileserver:~# mdadm --detail /dev/md4\n{}",
        mdadm_detail(
            true,
            "raid1",
            2,
            "active, degraded, recovering",
            (1, 2, 0, 1),
            Some(62),
            &[
                ("2", "0", "spare rebuilding", "/dev/sdc1"),
                ("1", "1", "active sync", "/dev/sdb1"),
            ],
        )
    );
    // Failed members counted, the State line lost in the paste's flattening.
    let failed = mdadm_detail(
        true,
        "raid5",
        3,
        "clean",
        (3, 3, 1, 0),
        None,
        &[
            ("0", "0", "active sync", "/dev/sda1"),
            ("1", "1", "active sync", "/dev/sdb1"),
            ("3", "2", "active sync", "/dev/sde1"),
            ("2", "-", "faulty", "/dev/sdc1"),
        ],
    )
    .lines()
    .map(str::trim_start)
    .collect::<Vec<_>>()
    .join("\n");
    for t in [&removed, &recovering, &failed] {
        let ex = run(t);
        assert_eq!(problem_ids(&ex), ids(&["array-rebuilding"]), "{t}");
    }
    let ex = run(&recovering);
    let f = ex
        .findings
        .iter()
        .find(|f| f.check == "array-rebuilding")
        .expect("finding");
    assert_eq!(f.device, "md4");
    assert!(f.explanation.contains("62.0 % done"), "{}", f.explanation);
    assert!(
        f.evidence
            .iter()
            .any(|e| e.source == "cmd:mdadm --detail /dev/md4")
    );
    // The array's name and UUID are redacted in the shared answer.
    let shared = diskdoc_core::report::redact::redact_explanation(&ex);
    let out = diskdoc_core::explain::render::render_text(&shared);
    assert!(
        !out.contains("5e6f7a8b") && !out.contains("fileserver"),
        "{out}"
    );
}

#[test]
fn mdadm_detail_of_a_healthy_array_is_silent() {
    let t = mdadm_detail(
        true,
        "raid1",
        2,
        "clean",
        (2, 3, 0, 1),
        None,
        &[
            ("0", "0", "active sync", "/dev/sda1"),
            ("1", "1", "active sync", "/dev/sdb1"),
            ("2", "-", "spare", "/dev/sdc1"),
        ],
    );
    let ex = run(&t);
    assert!(problem_ids(&ex).is_empty(), "{:#?}", ex.findings);
    assert!(
        ex.findings.iter().any(|f| f.check == "array-rebuilding"),
        "the array is read: {:#?}",
        ex.findings
    );
}

/// A `zpool status` config section as print_status_config lays it out: a tab, the name
/// column padded, STATE, then READ WRITE CKSUM (zfs_nicenum: "701", "1.2K") and a note.
fn zpool_status(state: &str, scan: &str, rows: &[(usize, &str, &str, &str, &str)]) -> String {
    let mut t = format!(
        "  pool: vault\n state: {state}\nstatus: One or more devices is currently being resilvered.  The pool will\n\tcontinue to function, possibly in a degraded state.\naction: Wait for the resilver to complete.\n  scan: {scan}\nconfig:\n\n\tNAME                                          STATE     READ WRITE CKSUM\n"
    );
    for (depth, name, st, counts, note) in rows {
        let n = format!("{}{name}", "  ".repeat(*depth));
        t.push_str(&format!("\t{n:<45} {st:<8} {counts}  {note}\n"));
    }
    t.push_str("\nerrors: No known data errors\n");
    t
}

const RESILVER: &str = "resilver in progress since Mon Mar  2 09:00:00 2026\n\t1.21T scanned at 310M/s, 1.02T issued at 262M/s, 7.20T total\n\t255G resilvered, 14.21% done, 06:52:10 to go";

#[test]
fn zpool_vdev_read_errors_are_media_errors_beside_the_resilver() {
    // Counters with a K suffix and a decimal comma (a de_DE locale), and a leaf ZFS gave up
    // on ("too many errors"); the by-id names carry the model.
    let t = zpool_status(
        "DEGRADED",
        RESILVER,
        &[
            (0, "vault", "DEGRADED", "    0     0     0", ""),
            (1, "raidz1-0", "DEGRADED", "1,2K     0     0", ""),
            (
                2,
                "ata-ST4000VN008-2DR166_ZGY0AAAA",
                "ONLINE",
                "1,2K     0     0",
                "",
            ),
            (
                2,
                "ata-ST4000VN008-2DR166_ZGY0BBBB",
                "FAULTED",
                "    0     0     0",
                "too many errors",
            ),
            (
                2,
                "ata-ST4000VN008-2DR166_ZGY0CCCC",
                "ONLINE",
                "    0     0     0",
                "(resilvering)",
            ),
        ],
    );
    let ex = run(&t);
    assert_eq!(
        problem_ids(&ex),
        ids(&["array-rebuilding", "media-errors"]),
        "{t}"
    );
    let media: Vec<&str> = ex
        .findings
        .iter()
        .filter(|f| f.check == "media-errors" && f.verdict == Verdict::Problem)
        .map(|f| f.device.as_str())
        .collect();
    assert_eq!(media.len(), 2, "{media:?}");
    assert!(media.iter().all(|d| d.starts_with("ata-ST4000VN008")));
    // Checksum errors alone (ZFS-8000-9P) are a notice that names the path (cable, port,
    // memory) as well as the drive, not a warning that the drive is failing.
    let t = zpool_status(
        "ONLINE",
        "scrub repaired 0B in 05:10:11 with 0 errors on Sun Mar  1 05:34:12 2026",
        &[
            (0, "vault", "ONLINE", "    0     0     0", ""),
            (1, "mirror-0", "ONLINE", "    0     0     0", ""),
            (2, "sda", "ONLINE", "    0     0    12", ""),
            (2, "sdb", "ONLINE", "    0     0     0", ""),
        ],
    );
    let ex = run(&t);
    let cksum: Vec<_> = ex
        .findings
        .iter()
        .filter(|f| f.check == "media-errors" && f.verdict == Verdict::Problem)
        .collect();
    assert_eq!(cksum.len(), 1, "{t}");
    assert_eq!(cksum[0].device, "sda");
    assert_eq!(cksum[0].severity, Severity::Notice);
    assert!(
        cksum[0].explanation.contains("cable"),
        "{}",
        cksum[0].explanation
    );
}

#[test]
fn an_smr_model_in_a_by_id_vdev_name_is_smr_drive() {
    let t = zpool_status(
        "DEGRADED",
        RESILVER,
        &[
            (0, "vault", "DEGRADED", "    0     0     0", ""),
            (1, "mirror-0", "DEGRADED", "    0     0     0", ""),
            (2, "replacing-0", "DEGRADED", "    0     0     0", ""),
            (
                3,
                "1234567890123456789",
                "UNAVAIL",
                "    0     0     0",
                "was /dev/disk/by-id/ata-WDC_WD40EFRX-68N32N0_WD-WCC7K0AAAAAA-part1",
            ),
            (
                3,
                "ata-WDC_WD40EFAX-68JH4N0_WD-WX12D0BBBBBB",
                "ONLINE",
                "    0     0     0",
                "(resilvering)",
            ),
            (
                2,
                "ata-WDC_WD40EFRX-68N32N0_WD-WCC7K0CCCCCC",
                "ONLINE",
                "    0     0     0",
                "",
            ),
        ],
    );
    let ex = run(&t);
    assert_eq!(
        problem_ids(&ex),
        ids(&["array-rebuilding", "smr-drive"]),
        "{t}"
    );
}

#[test]
fn a_pool_suspended_or_degraded_in_zpool_list_is_array_rebuilding() {
    // zpool_main.c print_list_stats columns, `zpool list -v`; a healthy twin is silent.
    let table = |health: &str, leaf: &str| {
        format!(
            "$ zpool list -v\nNAME              SIZE  ALLOC   FREE  CKPOINT  EXPANDSZ   FRAG    CAP  DEDUP    HEALTH  ALTROOT\nbackup           7.27T  2.10T  5.17T        -         -     3%    28%  1.00x  {health:>8}  -\n  mirror-0       7.27T  2.10T  5.17T        -         -     3%  28.9%      -  {health:>8}\n    sdc          7.28T      -      -        -         -      -      -      -    ONLINE\n    {leaf:<12} 7.28T      -      -        -         -      -      -      -  {}\n",
            if health == "ONLINE" {
                "  ONLINE"
            } else {
                " UNAVAIL"
            }
        )
    };
    let ex = run(&table("DEGRADED", "sdd"));
    assert_eq!(problem_ids(&ex), ids(&["array-rebuilding"]));
    let ex = run(&table("ONLINE", "sdd"));
    assert!(problem_ids(&ex).is_empty(), "{:#?}", ex.findings);
    // A suspended pool in zpool status, each line behind an indentation.
    let t = zpool_status(
        "SUSPENDED",
        "scrub in progress since Sun Mar  1 00:24:01 2026\n\t3.10T / 9.80T scanned at 1.2G/s, 2.90T / 9.80T issued at 1.1G/s\n\t0B repaired, 29.59% done, 01:47:33 to go",
        &[
            (0, "vault", "ONLINE", "    0     0     0", ""),
            (1, "raidz2-0", "ONLINE", "    0     0     0", ""),
            (2, "sda", "ONLINE", "    0     0     0", ""),
            (2, "sdb", "ONLINE", "    0     0     0", ""),
        ],
    );
    let indented: String = t.lines().map(|l| format!("    {l}\n")).collect();
    let ex = run(&indented);
    let f = ex
        .findings
        .iter()
        .find(|f| f.check == "array-rebuilding")
        .expect("array-rebuilding");
    assert_eq!(
        (f.verdict, f.severity),
        (Verdict::Problem, Severity::Warning)
    );
}

#[test]
fn refused_discards_on_zero_discard_devices_are_trim_unavailable() {
    // lsblk -D (lsblk.c columns) of a Xen guest after fstrim(8) failed. Without the
    // refusal the same table is silent: a disk whose media is unknown (or rotating) and
    // takes no discard is normal.
    let lsblk = "NAME    DISC-ALN DISC-GRAN DISC-MAX DISC-ZERO\nxvda           0        0B       0B         0\n└─xvda1        0        0B       0B         0\nxvdb           0        0B       0B         0\n";
    let t = format!(
        "# fstrim -v /srv\nfstrim: /srv: the discard operation is not supported\n# lsblk -D\n{lsblk}"
    );
    let ex = run(&t);
    assert_eq!(problem_ids(&ex), ids(&["trim-unavailable"]), "{t}");
    // The table alone (nobody asked for a discard) says nothing.
    let ex = run(&format!("# lsblk -D\n{lsblk}"));
    assert!(problem_ids(&ex).is_empty(), "{:#?}", ex.findings);
    // ext4 refusing its discard mount option names the partition's disk.
    let t = "[ 12.345678] EXT4-fs (sdb1): mounting with \"discard\" option, but the device does not support discard\n# lsblk -D\nNAME   DISC-ALN DISC-GRAN DISC-MAX DISC-ZERO\nsdb           0        0B       0B         0\n└─sdb1        0        0B       0B         0\n";
    let ex = run(t);
    assert!(
        problem_ids(&ex).contains("trim-unavailable"),
        "{:#?}",
        ex.findings
    );
    let f = ex
        .findings
        .iter()
        .find(|f| f.check == "trim-unavailable" && f.verdict == Verdict::Problem)
        .expect("finding");
    assert_eq!(f.device, "sdb");
}

/// One line of /proc/mdstat's sync progress as status_resync (drivers/md/md.c) prints it:
/// a 20-step bar ('=' per 5 % done, '>' then '.'), the action, the percentage with one
/// decimal ("%3u.%u%%"), done/total blocks, the estimated finish and the speed in KiB/s.
fn md_progress(action: &str, permille: u64, total: u64, speed: u64) -> String {
    let steps = usize::try_from(permille / 50).unwrap_or(0).min(19);
    let bar = format!("[{}>{}]", "=".repeat(steps), ".".repeat(19 - steps));
    let done = total / 1000 * permille;
    let left_min = (total - done) / speed.max(1) / 60;
    format!(
        "\t{bar}  {action} ={:>3}.{}% ({done}/{total}) finish={left_min}.0min speed={speed}K/sec\n",
        permille / 10,
        permille % 10
    )
}

#[test]
fn md_progress_lines_alone_are_an_array_rebuilding() {
    // A sync's progress lines copied one after another, without the file's array lines, in
    // every action status_resync names; plain, quoted once and twice.
    for action in ["recovery", "resync", "check", "reshape"] {
        let steady: String = [(12, 90_000), (60, 88_000), (131, 91_000)]
            .iter()
            .map(|(p, s)| md_progress(action, *p, 62_487_552, *s))
            .collect();
        let falling: String = [(2, 27_148), (9, 6_352), (46, 4_303), (562, 1_961)]
            .iter()
            .map(|(p, s)| md_progress(action, *p, 62_487_552, *s))
            .collect();
        for (text, slowed) in [(&steady, false), (&falling, true)] {
            for q in ["", "> ", "> > "] {
                let t: String = text.lines().map(|l| format!("{q}{l}\n")).collect();
                let ex = run(&t);
                let f: Vec<_> = ex
                    .findings
                    .iter()
                    .filter(|f| f.check == "array-rebuilding" && f.verdict == Verdict::Problem)
                    .collect();
                assert_eq!(f.len(), 1, "{t}\n{:#?}", ex.findings);
                assert!(
                    f[0].title.contains(&format!("{action} in progress")),
                    "{}",
                    f[0].title
                );
                assert!(f[0].title.starts_with("an md array"), "{}", f[0].title);
                let expect_sev = if action == "check" {
                    Severity::Notice
                } else {
                    Severity::Warning
                };
                assert_eq!(f[0].severity, expect_sev);
                // The last line is the state now.
                let last = if slowed { "56.2 % done" } else { "13.1 % done" };
                assert!(f[0].explanation.contains(last), "{}", f[0].explanation);
                assert_eq!(
                    f[0].explanation.contains(
                        "fell from as much as 27148 KiB/s on an earlier line to 1961 KiB/s"
                    ),
                    slowed,
                    "{}",
                    f[0].explanation
                );
            }
        }
    }
    // A bar with no action word is no md line.
    let bar = diskdoc_core::explain::explain(&[diskdoc_core::explain::Input {
        label: "paste".into(),
        bytes: b"[=====>..............] 25% downloaded\n".to_vec(),
    }]);
    assert!(bar.is_err(), "not recognised as any tool's output");
}

/// `mdadm --examine` of a version-1 member: "Array State : AA.A" has a slot no device holds,
/// so the array ran degraded (super1.c examine_super1). The real post, and a variant of
/// another member and level with its missing slot first; all slots held is silent.
#[test]
fn mdadm_examine_with_a_missing_slot_is_array_rebuilding() {
    let text = std::fs::read_to_string(crate::support::manifest(
        "tests/fixtures/corpus-reviewed/batch-9/fixtures/linux/mdadm-examine/sf868266-osmarks-raid10-examine-sdc-events-6531-array-state-AA.A-after-power-outage.txt",
    ))
    .expect("fixture");
    assert_eq!(problem_ids(&run(&text)), ids(&["array-rebuilding"]));
    let variant = "# mdadm -E /dev/sdb1\n/dev/sdb1:\n          Magic : a92b4efc\n        Version : 1.2\n    Feature Map : 0x0\n     Array UUID : 01234567:89abcdef:01234567:89abcdef\n     Raid Level : raid5\n   Raid Devices : 3\n\n          State : clean\n    Device UUID : fedcba98:76543210:fedcba98:76543210\n         Events : 77\n\n   Device Role : Active device 1\n   Array State : .AA ('A' == active, '.' == missing, 'R' == replacing)\n";
    let quoted: String = variant.lines().map(|l| format!("> {l}\n")).collect();
    for t in [variant, quoted.as_str()] {
        assert_eq!(problem_ids(&run(t)), ids(&["array-rebuilding"]), "{t}");
    }
    let whole = variant.replace(".AA (", "AAA (");
    assert!(problem_ids(&run(&whole)).is_empty());
}
