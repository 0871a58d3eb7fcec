//! Arrays and layers through `diskdoc explain`: `mdadm --detail` (mdadm Detail.c's
//! printfs), `zpool status` vdev error counters and by-id names (OpenZFS zpool_main.c
//! status_callback / print_status_config), `zpool list -v`, `zdb` ashift lines and `lsblk -D`.
//! Every input here is built from the tool's print format, not copied from a post; a healthy
//! twin of each stays silent.

use std::collections::BTreeSet;

use diskdoc_core::checks::{Severity, Verdict};
use diskdoc_core::explain::{Explanation, Input, explain};

fn run(text: &str) -> Explanation {
    explain(&[Input {
        label: "paste".into(),
        bytes: text.as_bytes().to_vec(),
    }])
    .unwrap_or_else(|e| panic!("{e:?}\n{text}"))
}

/// The checks with a problem at notice or above (the corpus's strict rule).
fn problem_ids(ex: &Explanation) -> BTreeSet<String> {
    ex.findings
        .iter()
        .filter(|f| f.verdict == Verdict::Problem && f.severity >= Severity::Notice)
        .map(|f| f.check.clone())
        .collect()
}

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
