use super::*;
use crate::checks::testutil::*;
use crate::checks::testutil_nvme::fixture;
use crate::facts::arrays::md_activity;
use crate::facts::arrays::zfs_arrays;
use crate::sources::mdstat;

fn md(rel: &str) -> Vec<ArrayActivity> {
    mdstat::parse(&fixture(rel))
        .into_iter()
        .map(|a| md_activity(&a, vec![format!("pasted:{rel}")]))
        .collect()
}

fn run(arrays: Vec<ArrayActivity>) -> Vec<Finding> {
    let mut s = linux(sata_hdd_ahci());
    s.arrays = Fact::known(arrays, crate::sources::sysfs::proc("mdstat"));
    ArrayRebuilding.run(&s)
}

#[test]
fn md_fixtures_fire() {
    let f = run(md(
        "mdstat/raid6-recovery-19.6pct-degraded-4of6-check-raid-43.txt",
    ));
    assert_vs(&f[0], Verdict::Problem, Severity::Warning);
    assert!(f[0].explanation.contains("19.6 % done"));
    assert!(f[0].explanation.contains("degraded"));
    assert!(f[0].fixes[0].steps[1].contains("sync_speed_min"));
    let f = run(md("mdstat/raid6-reshape-48.4pct-spares-check-raid-43.txt"));
    assert!(f[0].title.contains("reshape in progress"));
    let f = run(md(
        "mdstat/raid5-delayed-raid1-resync-21.5pct-munin-613.txt",
    ));
    assert_eq!(f.len(), 2);
    assert!(f.iter().all(|x| x.verdict == Verdict::Problem));
    assert!(f[0].explanation.contains("DELAYED"));
    let f = run(md("mdstat/raid5-replace-recovery-1.4pct-procfs-676.txt"));
    assert!(f[0].title.contains("recovery"));
    assert!(f[0].evidence[0].value.contains("speed=50071K/sec"));
    let f = run(md(
        "mdstat/raid1-recovery-wrapped-line-centos3-monitoring-plugins-995.txt",
    ));
    assert!(f[0].evidence[0].value.contains("0.4%"));
    assert!(f[0].evidence[0].value.contains("speed=1452K/sec"));
}

#[test]
fn zfs_resilver_fires_finished_scrub_passes() {
    let t = fixture("freebsd/zpool-status/resilver-in-progress-replacing-slow-issued-no-eta.txt");
    let f = run(zfs_arrays(&t, &crate::sources::zpool::SPEC.key_for("")));
    assert!(
        f.iter()
            .any(|x| x.verdict == Verdict::Problem && x.title.contains("resilver in progress"))
    );
    let t = fixture("linux/zpool-status/mirror-wwn-features-not-enabled.txt");
    let f = run(zfs_arrays(&t, &crate::sources::zpool::SPEC.key_for("")));
    assert!(!f.is_empty());
    assert!(f.iter().all(|x| x.verdict == Verdict::Pass), "{f:#?}");
}

#[test]
fn progress_lines_alone_fire_and_a_steep_slowdown_is_said() {
    // Progress lines in status_resync's format (drivers/md/md.c), NOT A CAPTURE.
    let line = |pct: &str, speed: u32| {
        format!(
            "[=>..................]  recovery = {pct}% (1/9) finish=9.9min speed={speed}K/sec\n"
        )
    };
    let arrays = |t: &str| -> Vec<ArrayActivity> {
        mdstat::parse(t)
            .iter()
            .map(|a| md_activity(a, vec!["pasted:mdstat".into()]))
            .collect()
    };
    let falling = [line("1.0", 52000), line("2.0", 20000), line("3.0", 6000)].concat();
    let f = run(arrays(&falling));
    assert_eq!(f.len(), 1);
    assert_vs(&f[0], Verdict::Problem, Severity::Warning);
    assert!(f[0].title.starts_with(mdstat::UNNAMED), "{}", f[0].title);
    assert!(f[0].explanation.contains("3.0 % done"));
    assert!(
        f[0].explanation
            .contains("from as much as 52000 KiB/s on an earlier line to 6000 KiB/s (8x")
    );
    assert!(f[0].fixes[0].steps[0].contains("names the array"));
    assert!(
        f[0].fixes[0]
            .steps
            .iter()
            .any(|s| s.contains("/sys/block/mdN/md/"))
    );
    // A steady rebuild, or one that sped up, says nothing of a slowdown.
    let steady = [line("1.0", 52000), line("2.0", 40000)].concat();
    assert!(!run(arrays(&steady))[0].explanation.contains("fell from"));
    let faster = [line("1.0", 6000), line("2.0", 52000)].concat();
    assert!(!run(arrays(&faster))[0].explanation.contains("fell from"));
    let named = format!("md3 : active raid1 sdb1[2] sda1[0]\n{falling}");
    let f = run(arrays(&named));
    assert!(f[0].title.starts_with("md3:"));
    assert!(f[0].fixes[0].steps[0].contains("/sys/block/md3/md/sync_speed"));
}

#[test]
fn idle_md_passes_unknown_is_silent() {
    let a = ArrayActivity {
        name: "md0".into(),
        kind: "md".into(),
        action: "idle".into(),
        ..Default::default()
    };
    assert_vs(&run(vec![a])[0], Verdict::Pass, Severity::Info);
    assert!(ArrayRebuilding.run(&linux(sata_hdd_ahci())).is_empty());
}

/// An md array /proc/mdstat lists as inactive serves no I/O: a warning naming the slot no
/// member holds, with the mdadm steps to find it and start the array. An Intel RST
/// container, which md always lists inactive, is not one. NOT A CAPTURE: lines in
/// md_seq_show's format.
#[test]
fn an_inactive_array_is_not_running_but_a_container_is_fine() {
    let text = "Personalities : [raid6] [raid5] [raid4]\nmd0 : inactive sdb1[1] sda1[0] sdd1[2] sde1[4](S)\n      5860270080 blocks\n\nunused devices: <none>\n";
    let a: Vec<ArrayActivity> = mdstat::parse(text)
        .into_iter()
        .map(|a| md_activity(&a, vec!["pasted:mdstat".into()]))
        .collect();
    let f = run(a);
    assert_vs(&f[0], Verdict::Problem, Severity::Warning);
    assert!(
        f[0].title.contains("inactive, not running"),
        "{}",
        f[0].title
    );
    assert!(
        f[0].explanation.contains("none in slot 3"),
        "{}",
        f[0].explanation
    );
    assert!(f[0].evidence[0].value.ends_with("inactive"));
    assert!(
        f[0].fixes[0]
            .steps
            .iter()
            .any(|s| s.contains("--assemble --run /dev/md0"))
    );
    let text = "Personalities : [raid1]\nmd126 : active raid1 sda[1] sdb[0]\n      976759808 blocks super external:/md127/0 [2/2] [UU]\n\nmd127 : inactive sdb[1](S) sda[0](S)\n      5288 blocks super external:imsm\n\nunused devices: <none>\n";
    let a: Vec<ArrayActivity> = mdstat::parse(text)
        .into_iter()
        .map(|a| md_activity(&a, vec!["pasted:mdstat".into()]))
        .collect();
    let f = run(a);
    assert_eq!(f.len(), 2);
    assert!(f.iter().all(|x| x.verdict == Verdict::Pass), "{f:?}");
}
