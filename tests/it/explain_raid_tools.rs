//! RAID controller tools and the partitioning tools' own verdicts through `diskdoc explain`:
//! every real output under tests/fixtures/linux/{ssacli, areca-cli, arcconf, megacli,
//! megaclisas-status, tw-cli, check-raid, parted, mkfs-xfs, fdisk-l} (sources in
//! tests/fixtures/INDEX.md, "RAID controller tools and the partitioning tools' own
//! verdicts") answered as the expert would: a degraded or rebuilding array is
//! array-rebuilding, a failed or failing member media-errors, a tool's "not aligned"
//! partition-misaligned, its MBR refusal partition-table-limit, and a healthy output
//! nothing. Each output is also read quoted ("> ") as a mail reply carries it.

use diskdoc_core::checks::Severity;

use crate::support::{explain_text as run, manifest, wrong_expert_answers};

/// (fixture under tests/fixtures/linux, the problem ids at notice or above, exactly).
const CASES: &[(&str, &[&str])] = &[
    (
        "ssacli/checkraid-hpacucli-e200i-raid5-interim-recovery-mode.txt",
        &["array-rebuilding"],
    ),
    (
        "ssacli/checkraid98-hpacucli-p410-array-b-failed-logicaldrives-ok.txt",
        &["array-rebuilding"],
    ),
    (
        // The ARM advisory before logicaldrive 4: its members' unreadable sectors.
        "ssacli/checkraid212-ssacli-p816i-ld-all-show-recovering-55pct-ready-for-rebuild-truncated.txt",
        &["array-rebuilding", "media-errors"],
    ),
    (
        "ssacli/checkraid145-hpssacli-h244br-physicaldrive-all-show-ok.txt",
        &[],
    ),
    (
        "ssacli/agrohost-hpacucli-p410i-ctrl-all-show-config-raid1-ok-sn-wwid.txt",
        &[],
    ),
    (
        "areca-cli/checkraid-cli64-rsf-info-data-rebuilding.txt",
        &["array-rebuilding"],
    ),
    (
        "areca-cli/checkraid-cli64-disk-info-16-drives-one-failed.txt",
        &["media-errors"],
    ),
    (
        "areca-cli/checkraid72-cli64-disk-info-enclosure-slots.txt",
        &[],
    ),
    (
        "arcconf/checkraid47-arcconf-getconfig-raid5-degraded-device3-rebuilding.txt",
        &["array-rebuilding"],
    ),
    (
        "arcconf/checkraid47-arcconf-getstatus-rebuild-1pct.txt",
        &["array-rebuilding"],
    ),
    (
        "arcconf/checkraid-arcconf31000-getconfig-two-optimal-lds.txt",
        &[],
    ),
    ("megacli/checkraid41-megacli-ldinfo-three-optimal.txt", &[]),
    (
        "megacli/checkraid85-megacli-pdlist-other-error-16548-online.txt",
        &[],
    ),
    (
        "megacli/checkraid3-megacli-pdlist-unconfigured-bad.txt",
        &["media-errors"],
    ),
    (
        "megaclisas-status/notes-sas3508-raid1-raid5-optimal-six-disks.txt",
        &[],
    ),
    (
        "tw-cli/checkraid-lumpy-tw-cli-unitstatus-raid1-rebuilding-98pct.txt",
        &["array-rebuilding"],
    ),
    (
        "tw-cli/checkraid-lumpy-tw-cli-drivestatus-p0-degraded.txt",
        &["media-errors"],
    ),
    (
        "tw-cli/checkraid-2-tw-cli-c0-show-all-raid5-verifying-16pct.txt",
        &["array-rebuilding"],
    ),
    (
        "check-raid/checkraid-arcconf-test-raid1-degraded-drive-0-1-failed.txt",
        &["array-rebuilding", "media-errors"],
    ),
    (
        "check-raid/checkraid-tw-cli-test-raid1-rebuilding-98pct-p0-degraded.txt",
        &["array-rebuilding", "media-errors"],
    ),
    (
        "check-raid/checkraid-megacli-comment-volumes-optimal-battery-non-operational.txt",
        &[],
    ),
    (
        "parted/noqqe-parted-mkpart-32.3kb-not-properly-aligned-warning.txt",
        &["partition-misaligned"],
    ),
    (
        "parted/notes-st8000nm0185-mkpart-0kb-17.4kb-not-aligned-ignore.txt",
        &["partition-misaligned"],
    ),
    (
        "parted/cloudatlas-parted-align-check-optimal-1-aligned.txt",
        &[],
    ),
    (
        "mkfs-xfs/notes-mkfs-xfs-sdb1-not-properly-aligned-then-f-geometry-truncated.txt",
        &["partition-misaligned"],
    ),
    (
        "mkfs-xfs/ubuntuforums-mkfs-xfs-md2-raid0-not-properly-aligned-one-line.txt",
        &["partition-misaligned"],
    ),
    (
        "fdisk-l/msdocs-azure-fdisk-8.8tb-dos-limit-util-linux-2.23-four-lines.txt",
        &["partition-table-limit"],
    ),
    (
        "fdisk-l/notes-zentao-fdisk-2.27-4tib-dos-limit-one-line.txt",
        &["partition-table-limit"],
    ),
];

fn read(rel: &str) -> String {
    std::fs::read_to_string(manifest(&format!("tests/fixtures/linux/{rel}")))
        .unwrap_or_else(|e| panic!("{rel}: {e}"))
}

#[test]
fn every_output_gets_the_experts_answer_plain_and_quoted() {
    let wrong = wrong_expert_answers("linux/", CASES);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn rebuild_progress_and_failed_members_are_named() {
    let ex = run(&read(
        "ssacli/checkraid212-ssacli-p816i-ld-all-show-recovering-55pct-ready-for-rebuild-truncated.txt",
    ));
    let rebuild = ex
        .findings
        .iter()
        .find(|f| f.check == "array-rebuilding" && f.title.contains("logicaldrive 2"))
        .expect("logicaldrive 2's finding");
    assert_eq!(rebuild.title, "logicaldrive 2: recovery in progress");
    assert!(
        rebuild.explanation.contains("55.7 % done"),
        "{}",
        rebuild.explanation
    );
    assert!(
        rebuild.fixes.iter().any(|x| x
            .steps
            .iter()
            .any(|s| s.contains("ssacli ctrl all show config detail"))),
        "{:?}",
        rebuild.fixes
    );
    let ex = run(&read(
        "areca-cli/checkraid-cli64-disk-info-16-drives-one-failed.txt",
    ));
    let failed = ex
        .findings
        .iter()
        .find(|f| f.check == "media-errors" && f.severity == Severity::Critical)
        .expect("the failed drive");
    assert!(failed.title.contains("channel 16"), "{}", failed.title);
    // The drive has no node of its own behind the controller: no command names one.
    assert!(
        failed
            .fixes
            .iter()
            .flat_map(|x| x.steps.iter())
            .all(|s| !s.contains("/dev/channel")),
        "{:?}",
        failed.fixes
    );
}

#[test]
fn partition_tool_verdicts_name_the_disk_and_partition() {
    let ex = run(&read(
        "mkfs-xfs/notes-mkfs-xfs-sdb1-not-properly-aligned-then-f-geometry-truncated.txt",
    ));
    let f = ex
        .findings
        .iter()
        .find(|f| f.check == "partition-misaligned" && f.severity == Severity::Warning)
        .expect("mkfs.xfs's verdict");
    assert_eq!(f.title, "sdb: mkfs.xfs reports sdb1 not aligned");
    // parted(8)'s non-interactive form, the answer on the line after each command (a
    // prompt long enough that a mail client's re-wrap rule must not join the answer to it).
    let ex = run(
        "admin@storage-gateway-02:/srv$ sudo parted /dev/sdc align-check optimal 2\n2 not aligned\nadmin@storage-gateway-02:/srv$ sudo parted /dev/sdc align-check optimal 1\n1 aligned\n",
    );
    let f = ex
        .findings
        .iter()
        .find(|f| f.check == "partition-misaligned" && f.severity == Severity::Warning)
        .expect("parted's verdict");
    assert_eq!(f.title, "sdc: parted reports partition 2 not aligned");
    assert!(
        f.explanation.contains("found partition 1 aligned"),
        "{}",
        f.explanation
    );
}
