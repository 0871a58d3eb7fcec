use super::*;

#[test]
fn spin_up_records_of_the_log_file() {
    // The log file of hd-idle issue 22 (adelolmo/hd-idle), and the Go port's after-sleep line.
    let t = "date: 2020-07-28, time: 08:00:25, disk: sdc, running: 600, stopped: 73892\n\
             date: 2020-07-28, time: 10:32:22, disk: sdc, running: 601, stopped: 8516\n\
             date: 2020-07-29, time: 06:01:00, disk: sdb, assuming disk spun up after long sleep\n";
    let r = parse(t);
    assert_eq!(r.len(), 3);
    assert_eq!(r[0].disk, "sdc");
    assert_eq!(
        (r[0].running_secs, r[0].stopped_secs),
        (Some(600), Some(73892))
    );
    assert_eq!((r[2].disk.as_str(), r[2].running_secs), ("sdb", None));
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(RECOGNISER.starts[0].1(&lines), spec::Start::Yes);
}

#[test]
fn debug_lines_start_and_events_follow() {
    for l in [
        "probing sda: reads: 13204, writes: 5521",
        "disk=sdb command=scsi spunDown=false reads=1 writes=2 idleTime=600 idleDuration=5",
    ] {
        assert!(starts(l), "{l}");
    }
    for l in ["spindown: sda", "sdb spindown", "sdb spinup"] {
        assert!(!starts(l), "{l}");
        assert_eq!(
            (RECOGNISER.member)(l, &spec::BlockState::default()),
            spec::Member::Yes
        );
    }
    // Prose about hd-idle, or a date line of another tool, is not its log.
    for l in [
        "date: 2020-07-28, the disk spun up again",
        "hd-idle spins down my disk, running: 600",
        "date: 2020-07-28, time: 08:00:25, disk: sdc, temperature: 40",
    ] {
        assert!(!starts(l), "{l}");
    }
    assert!(parse("running: 600, stopped: 73892").is_empty());
}

#[test]
fn a_by_id_disk_name_is_a_secret() {
    let t = "symlink /dev/disk/by-id/ata-WDC_WD40EFRX-68N32N0_WD-WCC7K1234567 resolved to sdc\n";
    let s = (SPEC.secrets.first().map(|s| match s {
        spec::Secret::Scan(f) => f(t),
        _ => Vec::new(),
    }))
    .unwrap_or_default();
    assert!(s.iter().any(|f| f.value == "WD-WCC7K1234567"), "{s:?}");
}
