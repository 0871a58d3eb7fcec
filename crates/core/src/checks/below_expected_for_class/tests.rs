use super::*;
use crate::checks::measured_common::synth::*;
use crate::facts::Fact;

#[test]
fn every_entry_has_a_source_and_sane_numbers() {
    let mut ids = std::collections::HashSet::new();
    for c in CLASSES {
        assert!(c.source.trim().len() > 20, "{} has no real source", c.id);
        assert!(!c.name.is_empty());
        assert!(ids.insert(c.id), "duplicate {}", c.id);
        assert!(
            c.floor_mb_s > 0.0 && c.floor_mb_s < c.typical_mb_s.0,
            "{}",
            c.id
        );
        assert!(c.typical_mb_s.0 < c.typical_mb_s.1, "{}", c.id);
    }
    // Every id the matcher uses exists.
    for id in [
        "hdd-5400", "hdd-7200", "hdd-10k", "hdd-15k", "hdd", "hdd-pata", "sata-ssd", "nvme",
        "usb2-bot", "usb3-uas", "any",
    ] {
        assert!(entry(id).is_some(), "{id}");
    }
}

fn hdd(rpm: u32) -> DiskFacts {
    let mut d = DiskFacts::new("ada0", "/dev/ada0");
    d.class = Fact::known(
        DeviceClass::Hdd,
        crate::sources::camcontrol_identify::SPEC.key_for("ada0"),
    );
    d.rotation_rpm = Fact::known(
        rpm,
        crate::sources::camcontrol_identify::SPEC.key_for("ada0"),
    );
    d
}

#[test]
fn seed_like_legacy_ide_hdd_is_below_its_class() {
    // A 7200 rpm drive reading 57 MB/s (seed-001 style: legacy IDE mode).
    let s = sys(
        vec![hdd(7200)],
        vec![result(TestName::SeqRead, "outer", "ada0", 57.0, 1 << 20)],
    );
    let f = BelowExpectedForClass.run(&s);
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].verdict, Verdict::Problem);
    assert_eq!(
        f[0].title,
        "ada0 reads at 57.0 MB/s, below the 7200 rpm hard disk floor of 80.0 MB/s"
    );
    let s = sys(
        vec![hdd(5400)],
        vec![result(TestName::SeqRead, "outer", "ada0", 57.0, 1 << 20)],
    );
    assert_eq!(BelowExpectedForClass.run(&s)[0].verdict, Verdict::Pass);
}

#[test]
fn classes_without_a_figure_are_skipped() {
    let mut d = DiskFacts::new("zram1", "/dev/zram1");
    d.class = Fact::known(DeviceClass::Ram, crate::sources::sysfs::block("zram1", ""));
    let s = sys(
        vec![d],
        vec![result(TestName::SeqRead, "outer", "zram1", 1.0, 1 << 20)],
    );
    assert!(BelowExpectedForClass.run(&s).is_empty());
    let mut u = DiskFacts::new("sdc", "/dev/sdc");
    u.class = Fact::known(DeviceClass::Usb, "x");
    assert_eq!(class_of(&u).unwrap().id, "usb2-bot");
}

/// The findings for a pasted `hdparm -t` of `d` at `mb_s` MB/s.
fn pasted(d: DiskFacts, mb_s: f64) -> Vec<Finding> {
    let name = d.name.clone();
    let mut s = sys(vec![d], vec![]);
    s.user_benchmarks.push(crate::facts::UserBenchmark {
        tool: "hdparm -t".into(),
        input: Some(format!("/dev/{name}")),
        bytes_per_sec: Some(mb_s * 1e6),
        from: "pasted:hdparm-t lines 3-4".into(),
        ..Default::default()
    });
    BelowExpectedForClass.run(&s)
}

#[test]
fn a_disk_of_unknown_class_is_judged_against_the_lowest_floor() {
    // hdparm -t at 460.84 kB/s on a pasted /dev/sda, and at 2.5 MB/s: only the first
    // is below what any disk reads.
    for (name, mb_s, problem) in [
        ("sda", 0.46084, true),
        ("sdb", 2.5, false),
        ("nvme2n1", 391.7, true),
        ("nvme0n1", 1800.0, false),
        // The old IDE driver's disks (hda-hdt) are judged as IDE disks: a few MB/s is
        // PIO or worse, 25 MB/s an ordinary disk of the UDMA era.
        ("hda", 4.1, true),
        ("hdt", 9.5, true),
        ("hdc", 25.0, false),
        // Not the IDE driver's names: the floor below every class.
        ("hdu", 4.1, false),
        ("hda1x", 4.1, false),
    ] {
        let f = pasted(DiskFacts::new(name, &format!("/dev/{name}")), mb_s);
        assert_eq!(f.len(), usize::from(problem), "{name}: {f:?}");
    }
}

#[test]
fn an_ide_disk_is_judged_against_its_era() {
    let f = pasted(DiskFacts::new("hdb", "/dev/hdb"), 1.94);
    assert!(
        f.first()
            .is_some_and(|f| f.title.contains("parallel ATA (IDE) hard disk")
                && f.explanation.contains("using_dma")),
        "{f:?}"
    );
    // A hard disk of unknown rotation rate: on a parallel bus its era's floor, else the
    // hard-disk floor.
    let mut d = DiskFacts::new("sdb", "/dev/sdb");
    d.class = Fact::known(DeviceClass::Hdd, "x");
    assert_eq!(class_of(&d).map(|c| c.id), Some("hdd"));
    assert_eq!(pasted(d.clone(), 30.0).len(), 1);
    d.transport = Fact::known(Transport::Pata, "x");
    assert_eq!(class_of(&d).map(|c| c.id), Some("hdd-pata"));
    assert!(pasted(d.clone(), 30.0).is_empty());
    // A known rotation rate keeps its own entry; an optical drive on hdc has none.
    d.rotation_rpm = Fact::known(7200, "x");
    assert_eq!(class_of(&d).map(|c| c.id), Some("hdd-7200"));
    let mut cd = DiskFacts::new("hdc", "/dev/hdc");
    cd.class = Fact::known(DeviceClass::Optical, "x");
    assert!(class_of(&cd).is_none());
}

#[test]
fn a_small_hard_disk_is_judged_against_its_era() {
    // A 40 GB disk (hdparm -i's LBAsects) reading 40 MB/s is a healthy drive of 2002; a
    // 2 TB one at that rate is not; a 250 GB disk at 4 MB/s is held back whatever it is.
    let mut d = DiskFacts::new("sda", "/dev/sda");
    d.class = Fact::known(DeviceClass::Hdd, "x");
    d.size_bytes = Fact::known(78_165_360 * 512, "x");
    assert_eq!(class_of(&d).map(|c| c.id), Some("hdd-small"));
    assert!(pasted(d.clone(), 40.5).is_empty());
    let mut quarter = d.clone();
    quarter.size_bytes = Fact::known(250_059_350_016, "x");
    assert_eq!(pasted(quarter, 4.0).len(), 1);
    let mut big = d.clone();
    big.size_bytes = Fact::known(2_000_398_934_016, "x");
    assert_eq!(class_of(&big).map(|c| c.id), Some("hdd"));
    assert_eq!(pasted(big, 40.5).len(), 1);
    // A small 15k rpm SAS drive keeps its class; a small 7200 rpm one is of its era.
    let mut fast = d.clone();
    fast.rotation_rpm = Fact::known(15000, "x");
    assert_eq!(class_of(&fast).map(|c| c.id), Some("hdd-15k"));
    d.rotation_rpm = Fact::known(7200, "x");
    assert_eq!(class_of(&d).map(|c| c.id), Some("hdd-small"));
}

/// A pasted whole-device read of `dev` by `tool` at `mb_s`, from paste lines `line`-.
fn pasted_read_of(tool: &str, dev: &str, mb_s: f64, line: usize) -> crate::facts::UserBenchmark {
    crate::facts::UserBenchmark {
        tool: tool.into(),
        input: Some(format!("/dev/{dev}")),
        bytes_per_sec: Some(mb_s * 1e6),
        from: format!("pasted:hdparm-t lines {line}-{}", line + 1),
        ..Default::default()
    }
}

#[test]
fn a_disk_is_judged_by_its_best_pasted_read() {
    // hdparm -tT then hdparm --direct -tT of one SATA SSD: the buffered read under the
    // floor, the O_DIRECT one at the drive's rating. Either order, any device name.
    let run = pasted_read_of;
    for dev in ["sda", "sdc", "hdb"] {
        let mut d = DiskFacts::new(dev, &format!("/dev/{dev}"));
        d.class = Fact::known(DeviceClass::Ssd, "x");
        for order in [false, true] {
            let mut s = sys(vec![d.clone()], vec![]);
            let mut runs = vec![
                run("hdparm -t", dev, 169.0, 3),
                run("hdparm -t --direct", dev, 264.4, 7),
            ];
            if order {
                runs.reverse();
            }
            s.user_benchmarks = runs;
            assert!(BelowExpectedForClass.run(&s).is_empty(), "{dev} {order}");
            // Both reads under the floor: one finding, on the better figure.
            s.user_benchmarks[0].bytes_per_sec = Some(120.0e6);
            s.user_benchmarks[1].bytes_per_sec = Some(150.0e6);
            let f = BelowExpectedForClass.run(&s);
            assert_eq!(f.len(), 1, "{dev} {order}: {f:?}");
            assert!(f[0].title.contains("150.0 MB/s"), "{}", f[0].title);
        }
    }
    // Another disk's fast read does not excuse a slow one.
    let mut a = DiskFacts::new("sda", "/dev/sda");
    a.class = Fact::known(DeviceClass::Ssd, "x");
    let mut b = a.clone();
    b.name = "sdb".into();
    b.dev_path = "/dev/sdb".into();
    let mut s = sys(vec![a, b], vec![]);
    s.user_benchmarks = vec![
        run("hdparm -t", "sda", 520.0, 3),
        run("hdparm -t", "sdb", 120.0, 7),
    ];
    let f = BelowExpectedForClass.run(&s);
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].device, "sdb");
}

#[test]
fn a_disk_far_behind_its_neighbour_is_a_notice() {
    let run = pasted_read_of;
    let judge = |runs: Vec<crate::facts::UserBenchmark>| {
        let mut s = sys(vec![], vec![]);
        s.user_benchmarks = runs;
        BelowExpectedForClass.run(&s)
    };
    // An IDE disk at 64 MB/s and a SATA one at 15 MB/s; two IDE disks at 29 and 10.
    for (fast, slow, a, b) in [("hda", "sda", 63.99, 14.86), ("hdc", "hda", 28.94, 10.43)] {
        for tool in ["hdparm -t", "hdparm -t --direct"] {
            let f = judge(vec![run(tool, fast, a, 1), run(tool, slow, b, 5)]);
            assert_eq!(f.len(), 1, "{f:?}");
            assert_eq!(
                (f[0].device.as_str(), f[0].severity),
                (slow, Severity::Notice)
            );
            assert_eq!(f[0].evidence.len(), 2);
        }
    }
    // Three disks: only the one under 40 % of the fastest.
    let f = judge(vec![
        run("hdparm -t", "sda", 18.13, 1),
        run("hdparm -t", "sdb", 26.45, 5),
        run("hdparm -t", "sdc", 52.95, 9),
    ]);
    assert_eq!(
        f.iter().map(|f| f.device.as_str()).collect::<Vec<_>>(),
        ["sda"]
    );
    // Within a factor of two; an SSD beside a hard disk; partitions, md and dm volumes;
    // different timings: nothing.
    assert!(
        judge(vec![
            run("hdparm -t", "hda", 52.57, 1),
            run("hdparm -t", "sda", 66.57, 5)
        ])
        .is_empty()
    );
    assert!(
        judge(vec![
            run("hdparm -t", "sda", 526.4, 1),
            run("hdparm -t", "sdb", 133.4, 5)
        ])
        .is_empty()
    );
    assert!(
        judge(vec![
            run("hdparm -t", "sda1", 90.0, 1),
            run("hdparm -t", "sdb2", 20.0, 5)
        ])
        .is_empty()
    );
    assert!(
        judge(vec![
            run("hdparm -t", "md0", 90.0, 1),
            run("hdparm -t", "dm-0", 20.0, 5)
        ])
        .is_empty()
    );
    assert!(
        judge(vec![
            run("hdparm -t --direct", "sda", 90.0, 1),
            run("hdparm -t", "sdb", 20.0, 5)
        ])
        .is_empty()
    );
    // A disk known to be on USB is left out.
    let mut s = sys(vec![], vec![]);
    let mut u = DiskFacts::new("sdb", "/dev/sdb");
    u.transport = Fact::known(Transport::Usb, "x");
    s.disks.push(u);
    s.user_benchmarks = vec![
        run("hdparm -t", "sda", 90.0, 1),
        run("hdparm -t", "sdb", 20.0, 5),
    ];
    assert!(BelowExpectedForClass.run(&s).is_empty());
}

#[test]
fn own_measurements_of_unknown_class_are_not_judged() {
    // diskdoc's own measurement of a disk of unknown class is not judged.
    let s = sys(
        vec![DiskFacts::new("sda", "/dev/sda")],
        vec![result(TestName::SeqRead, "outer", "sda", 0.5, 1 << 20)],
    );
    assert!(BelowExpectedForClass.run(&s).is_empty());
}

#[test]
fn the_same_read_ten_times_slower_in_another_run_counts() {
    // hdparm -t of one NVMe namespace in two boots (raspberrypi/firmware#2021): 60 kB/s on
    // one, 425 MB/s on the other. The slow run is reported, the fast one cited beside it.
    let d = DiskFacts::new("nvme0n1p2", "/dev/nvme0n1p2");
    let mut s = sys(vec![d], vec![]);
    s.user_benchmarks = vec![
        pasted_read_of("hdparm -t", "nvme0n1p2", 0.06047, 2),
        pasted_read_of("hdparm -t", "nvme0n1p2", 425.46, 6),
    ];
    let f = BelowExpectedForClass.run(&s);
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(f[0].device, "nvme0n1p2");
    assert_eq!(f[0].evidence.len(), 3, "{:?}", f[0].evidence);
    // Near misses: runs of one read within a factor of ten, and a slow buffered read
    // beside a fast O_DIRECT one (the page cache, not the disk: a different read).
    let mut d = DiskFacts::new("sda", "/dev/sda");
    d.class = Fact::known(DeviceClass::Ssd, "x");
    let mut s = sys(vec![d], vec![]);
    s.user_benchmarks = vec![
        pasted_read_of("hdparm -t", "sda", 120.0, 2),
        pasted_read_of("hdparm -t", "sda", 520.0, 6),
    ];
    assert!(BelowExpectedForClass.run(&s).is_empty());
    s.user_benchmarks = vec![
        pasted_read_of("hdparm -t", "sda", 20.0, 2),
        pasted_read_of("hdparm -t --direct", "sda", 520.0, 6),
    ];
    assert!(BelowExpectedForClass.run(&s).is_empty());
}

#[test]
fn one_run_far_behind_the_agreeing_runs_of_the_same_read() {
    // canonical/microk8s#2779: hdparm -t of sda on three Raspberry Pi 4 nodes, 196.8, 34.6
    // and 194.8 MB/s.
    let run = pasted_read_of;
    let judge = |rates: &[f64]| {
        let mut s = sys(vec![], vec![]);
        s.user_benchmarks = rates
            .iter()
            .enumerate()
            .map(|(i, r)| run("hdparm -t", "sda", *r, 3 + 9 * i))
            .collect();
        BelowExpectedForClass.run(&s)
    };
    let f = judge(&[196.8, 34.6, 194.8]);
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(f[0].severity, Severity::Notice);
    assert!(f[0].title.contains("34.6 MB/s"), "{}", f[0].title);
    // Near misses: two runs only, runs that do not agree, or a gap of less than four.
    assert!(judge(&[196.8, 34.6]).is_empty());
    assert!(judge(&[196.8, 120.0, 34.6]).is_empty());
    assert!(judge(&[196.8, 60.0, 194.8]).is_empty());
}
