use super::*;

/// sysstat 10 (CentOS 7), 12-hour stamps, sectors: the busy disk's row as the shared busy
/// sample; device-mapper rows keep their devM-N name (a dynamic major).
#[test]
fn old_columns_with_am_pm_stamps() {
    let t = "Linux 3.10.0-1062.9.1.el7.x86_64 (host)         01/07/2020      _x86_64_        (32 CPU)\n\
             \n\
             06:43:44 PM       DEV       tps  rd_sec/s  wr_sec/s  avgrq-sz  avgqu-sz     await     svctm     %util\n\
             06:43:45 PM    dev8-0   6274.00    400.00 796672.00    127.04    142.20     22.64      0.16    100.00\n\
             06:43:45 PM  dev253-0     50.00    400.00      0.00      8.00      0.00      0.08      0.08      0.40\n";
    let s = parse(t);
    assert_eq!(s.len(), 2, "{s:?}");
    assert_eq!(s[0].device, "sda");
    assert_eq!(s[0].busy_pct, Some(100.0));
    assert_eq!(s[0].await_ms, Some(22.64));
    assert_eq!(s[0].queue_len, Some(142.2));
    assert_eq!(s[0].read_kb_per_sec, Some(200.0));
    assert_eq!(s[0].transfers_per_sec, Some(6274.0));
    assert_eq!(s[1].device, "dev253-0");
    let lines: Vec<&str> = t.lines().skip(2).collect();
    assert_eq!((RECOGNISER.starts[1].1)(&lines), spec::Start::Yes);
    // sysstat's banner starts the sar report when a sar header follows it (before iostat,
    // which prints the same banner); followed by an iostat table it does not.
    let all: Vec<&str> = t.lines().collect();
    assert_eq!((RECOGNISER.starts[0].1)(&all), spec::Start::Yes);
    let iostat = [all[0], "", "Device  r/s  w/s  rkB/s  wkB/s  %util"];
    assert_eq!((RECOGNISER.starts[0].1)(&iostat), spec::Start::No);
    for l in &lines {
        assert!(SAR_HEADER.is_match(l) || SAR_ROW.is_match(l), "{l}");
    }
}

/// sysstat 12.1+ (dkB/s, no svctm), 24-hour stamps, `-p` names, and the Average block as
/// the last report.
#[test]
fn new_columns_p_names_and_average() {
    let t = "21:15:28          DEV       tps     rkB/s     wkB/s     dkB/s   areq-sz    aqu-sz     await     %util\n\
             21:15:29      nvme0n1     22.00      0.00    244.00      0.00     11.09      0.02      0.91      2.00\n\
             21:15:29      nvme1n1   1059.00      0.00 262688.00      0.00    248.05     16.35     15.44    100.00\n\
             \n\
             Average:          DEV       tps     rkB/s     wkB/s     dkB/s   areq-sz    aqu-sz     await     %util\n\
             Average:      nvme1n1   1040.50      0.00 258664.00      0.00    248.60     16.49     15.85    100.00\n";
    let s = parse(t);
    assert_eq!(s.len(), 3, "{s:?}");
    assert_eq!(s[2].device, "nvme1n1");
    assert_eq!(s[2].report, 1);
    assert_eq!(s[2].write_kb_per_sec, Some(258664.0));
    assert_eq!(s[2].await_ms, Some(15.85));
    // An Average row under a 12-hour header: one word where the stamp was two.
    let t = "01:50:00 AM       DEV       tps     rkB/s     wkB/s   areq-sz    aqu-sz     await     svctm     %util\n\
             Average:          sdb    188.90 162210.55     94.02    859.21      7.12     36.80      5.00     99.10\n";
    assert_eq!(parse(t).first().map(|x| x.device.as_str()), Some("sdb"));
}

#[test]
fn major_minor_names() {
    assert_eq!(device("dev8-0"), "sda");
    assert_eq!(device("dev8-16"), "sdb");
    assert_eq!(device("dev8-17"), "sdb1");
    assert_eq!(device("dev65-0"), "sdq");
    assert_eq!(device("dev65-160"), "sdaa");
    assert_eq!(device("dev9-3"), "md3");
    assert_eq!(device("dev179-0"), "mmcblk0");
    assert_eq!(device("dev179-2"), "mmcblk0p2");
    assert_eq!(device("dev202-16"), "xvdb");
    assert_eq!(device("dev3-64"), "hdb");
    assert_eq!(device("dev22-0"), "hdc");
    // Dynamic majors stay as printed; so does a name that is not devM-N.
    assert_eq!(device("dev259-1"), "dev259-1");
    assert_eq!(device("dev8-x"), "dev8-x");
    assert_eq!(device("centos-root"), "centos-root");
}

/// Near misses: `sar -n DEV` (network, IFACE), `sar -b` (no DEV), and a sar -d header with
/// rows that do not fit its columns yield nothing.
#[test]
fn other_sar_reports_are_not_disks() {
    let net = "12:10:01 AM     IFACE   rxpck/s   txpck/s    rxkB/s    txkB/s   rxcmp/s   txcmp/s  rxmcst/s   %ifutil\n\
               12:10:01 AM      eth0      5.23      3.45      1.23      0.89      0.00      0.00      0.00      0.01\n";
    assert!(parse(net).is_empty());
    assert!(!SAR_HEADER.is_match(net.lines().next().unwrap_or_default()));
    let b = "04:17:25 PM       tps      rtps      wtps   bread/s   bwrtn/s\n\
             04:17:26 PM      6.00      4.00      2.00     32.00     23.00\n";
    assert!(parse(b).is_empty());
    let short = "18:09:17          DEV       tps  rd_sec/s  wr_sec/s  avgrq-sz  avgqu-sz     await     svctm     %util\n\
                 18:09:18       dev8-0    113.00      0.00\n";
    assert!(parse(short).is_empty());
    assert!(parse("DEV tps\n1 2 3\n").is_empty());
}
