use super::*;

#[test]
fn drive_lines_and_daemon_records() {
    let t = "/dev/sda: WDC WD3200BEKT-75PVMT1: 32°C\n/dev/sdb: WDC WD3200BEKX-75B7WT0: 88°F\n\
             /dev/sdc: ST2000DM001: S.M.A.R.T. not available\n/dev/sdd: ST4000: drive is sleeping\n";
    let r = parse(t);
    assert_eq!(r.len(), 4);
    assert_eq!(r[0].device, "/dev/sda");
    assert_eq!(r[0].model, "WDC WD3200BEKT-75PVMT1");
    assert_eq!(r[0].celsius, Some(32.0));
    assert!(r[1].celsius.is_some_and(|c| (c - 31.1).abs() < 0.1));
    assert_eq!(r[2].celsius, None);
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!((RECOGNISER.starts[0].1)(&lines), spec::Start::Yes);
    let d = parse("|/dev/sda|WDC WD3200BEKT-75PVMT1|32|C||/dev/sdb|ST4000|SLP|*|");
    assert_eq!(d.len(), 2);
    assert_eq!(d[0].celsius, Some(32.0));
    assert_eq!(d[1].celsius, None);
    // Near misses: blkid's and hdparm's "/dev/sda..." lines are no hddtemp.
    for l in [
        "/dev/sda1: UUID=\"1234\" TYPE=\"ext4\"",
        "/dev/sda:",
        " Timing buffered disk reads: 32 MB in 3.0 seconds",
    ] {
        assert!(!is_line(l), "{l}");
    }
}
