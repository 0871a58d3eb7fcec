use super::*;

#[test]
fn classic_columns_map_to_devices() {
    let t = "tty ad4 ad6 cpu\n tin tout KB/t tps MB/s KB/t tps MB/s us ni sy in id\n 1 2 0.50 7535 3.68 64.00 10 0.62 1 0 3 0 96\n";
    let v = parse(t);
    assert_eq!(v.len(), 2);
    assert_eq!(
        v.first().map(|s| (s.device.as_str(), s.kb_per_transfer)),
        Some(("ad4", Some(0.5)))
    );
    assert_eq!(v.get(1).and_then(|s| s.mb_per_sec), Some(0.62));
}

#[test]
fn basic_table_in_a_decimal_comma_locale() {
    // sysstat 12 without -x in de_DE: tps, kB_read/s, kB_wrtn/s, kB_dscd/s, totals.
    let t = "Device             tps    kB_read/s    kB_wrtn/s    kB_dscd/s    kB_read    kB_wrtn    kB_dscd\n\
             md0               2,20         0,00         8,80         0,00          0         44          0\n\
             sdb              54,20         0,00     26223,10         0,00          0     131115          0\n";
    for row in t.lines().skip(1) {
        assert!(IOSTAT_MEMBER.is_match(row), "{row}");
    }
    let s = parse(t);
    assert_eq!(s.len(), 2, "{s:?}");
    assert_eq!(s[1].device, "sdb");
    assert_eq!(s[1].transfers_per_sec, Some(54.2));
    assert_eq!(s[1].write_kb_per_sec, Some(26223.1));
    assert_eq!(s[1].read_kb_per_sec, Some(0.0));
    // The same with -m and the C locale.
    let m = "Device             tps    MB_read/s    MB_wrtn/s    MB_read    MB_wrtn\n\
             sda              12.00         1.50         0.25         30          5\n";
    let s = parse(m);
    assert_eq!(s.first().and_then(|x| x.read_kb_per_sec), Some(1536.0));
    assert_eq!(s.first().and_then(|x| x.write_kb_per_sec), Some(256.0));
}

#[test]
fn garbage() {
    assert!(parse("tin tout KB/t\nDevice r/s\nDisks").is_empty());
}

#[test]
fn extended_table_rewrapped_by_a_mail_client() {
    // The old-layout header and a row of tests/fixtures/linux/iostat/
    // x-old-layout-five-disks-98-100pct-util-seastar-593.txt, wrapped at 72 columns.
    let t = "Device:         rrqm/s   wrqm/s     r/s     w/s    rMB/s    wMB/s avgrq-sz\n\
             avgqu-sz   await r_await w_await  svctm  %util\n\
             sdb               0.00     0.00 2147.50    6.50  1073.75     0.20\n\
             1021.10   130.61   60.62   60.81    0.00   0.46 100.00\n";
    let s = super::parse(t);
    assert_eq!(s.len(), 1, "{s:?}");
    assert_eq!(s[0].busy_pct, Some(100.0));
    assert_eq!(s[0].queue_len, Some(130.61));
}

/// vegaprotocol/vega #7775: `iostat -xmt 1` with the poster's "..." in place of the other
/// devices, before and after the sda row: the table goes on past an elision line. The near
/// miss: a prose line ends the table.
#[test]
fn elided_rows_do_not_end_the_table() {
    let t = "Device            r/s     rMB/s   rrqm/s  %rrqm r_await rareq-sz     w/s     wMB/s   wrqm/s  %wrqm w_await wareq-sz     d/s     dMB/s   drqm/s  %drqm d_await dareq-sz  aqu-sz  %util\n\
             ...\n\
             sda           1632.00     16.20     0.00   0.00    1.09    10.16   63.00      1.73    39.00  38.24    1.19    28.13    0.00      0.00     0.00   0.00    0.00     0.00    0.08 100.00\n\
             ...\n";
    let s = parse(t);
    assert_eq!(s.len(), 1, "{s:?}");
    assert_eq!(s[0].device, "sda");
    assert_eq!(s[0].busy_pct, Some(100.0));
    assert_eq!(s[0].reads_per_sec, Some(1632.0));
    for e in ["...", "…", "[...]", "  ....  "] {
        assert!(is_elision(e), "{e}");
    }
    for e in ["..", "sda ...", "and so on"] {
        assert!(!is_elision(e), "{e}");
    }
    let cut = t.replacen("...", "the other disks are idle", 1);
    assert!(parse(&cut).is_empty());
}

#[test]
fn write_columns_only_start_a_table() {
    // sysstat 12 -x with the read group trimmed by the poster: the header starts at w/s.
    let t = "Device               w/s     wkB/s   wrqm/s  %wrqm w_await wareq-sz  aqu-sz  %util\n\
             nvme1n1          7497.00 105250.50     0.00   0.00    0.03    14.04    0.23 100.00\n";
    assert!(IOSTAT_START.is_match(t.lines().next().unwrap_or("")));
    let s = parse(t);
    assert_eq!(s.len(), 1, "{s:?}");
    assert_eq!(s[0].queue_len, Some(0.23));
    assert_eq!(s[0].busy_pct, Some(100.0));
    assert_eq!(s[0].await_ms, Some(0.03));
    // Near miss: a "Device" word followed by prose is no table.
    assert!(!IOSTAT_START.is_match("Device wise the w/s is fine"));
    assert!(!IOSTAT_START.is_match("Device Model:     Samsung SSD"));
}

/// A `-x` table whose device column the poster relabelled: the header keeps only the
/// numeric columns ("rrqm/s wrqm/s ... %util"), each row is named in words ("HA Start-up").
/// Read as the same table. The near miss: a prose line after it ends it, and a header of
/// other columns is not taken for it.
#[test]
fn relabelled_device_column() {
    let t = "                rrqm/s   wrqm/s     r/s     w/s    rkB/s    wkB/s avgrq-sz avgqu-sz   await r_await w_await  svctm  %util\n\
             HA not running    0.00     0.15    0.00    0.20     0.00     1.40    14.00     0.00    0.00    0.00    0.00   0.00   0.00\n\
             HA Start-up       0.00   114.13    0.28  134.05     3.80  1336.13    19.95     0.57    4.26    9.41    4.25   1.27  17.12\n\
             Repeat of above but with History turned-off:\n";
    let s = parse(t);
    assert_eq!(s.len(), 2, "{s:?}");
    assert_eq!(s[1].device, "HA Start-up");
    assert_eq!(s[1].busy_pct, Some(17.12));
    assert_eq!(s[1].write_kb_per_sec, Some(1336.13));
    for l in t.lines().take(3) {
        assert!(IOSTAT_START.is_match(l) || IOSTAT_MEMBER.is_match(l), "{l}");
    }
    assert!(IOSTAT_START.is_match(t.lines().next().unwrap_or_default()));
    // sysstat 12's column order without "Device".
    let t = "  r/s     rkB/s   rrqm/s  %rrqm r_await rareq-sz     w/s     wkB/s   wrqm/s  %wrqm w_await wareq-sz  aqu-sz  %util\n\
             sd card   1.00     4.00     0.00   0.00    0.50     4.00    2.00     8.00     0.00   0.00    1.00     4.00    0.01   0.30\n";
    assert_eq!(parse(t).first().map(|x| x.busy_pct), Some(Some(0.3)));
    // Not a header: gstat's columns, and numbers alone.
    assert!(parse(" L(q)  ops/s    r/s   kBps   ms/r    w/s   kBps   ms/w   %busy Name\n    0      0      0      0    0.0      0      0    0.0    0.0| ada0\n").is_empty());
    assert!(!bare_header(&["r/s", "1.0", "w/s", "x"]));
}

/// openzfs/zfs #9375: `iostat -x 10` of a raidz2 member during a write: a few slow reads
/// beside 1312 writes/s at 4.3 ms. The average wait is the rate-weighted one (4.4 ms), not
/// the plain mean of r_await and w_await (40 ms).
#[test]
fn await_is_weighted_by_the_rates() {
    let t = "Device            r/s     w/s     rkB/s     wkB/s   rrqm/s   wrqm/s  %rrqm  %wrqm r_await w_await aqu-sz rareq-sz wareq-sz  svctm  %util\n\
             sdf              0.70 1312.40      0.40 120686.40     0.00     2.20   0.00   0.17   76.71    4.32   5.64     0.57    91.96   0.49  63.87\n";
    let s = parse(t);
    let a = s.first().and_then(|x| x.await_ms).unwrap_or(0.0);
    assert!((a - 4.36).abs() < 0.01, "{a}");
    // Near miss: no rates in the table (columns trimmed): the plain mean stays.
    let t = "Device:         rrqm/s   wrqm/s r_await w_await  %util\n\
             sdf               0.00     2.20   76.71    4.32  63.87\n";
    let s = parse(t);
    let a = s.first().and_then(|x| x.await_ms).unwrap_or(0.0);
    assert!((a - 40.515).abs() < 0.01, "{a}");
}

/// A sysstat -x table split in two by a narrow page, with two devices: each part's rows
/// follow their part of the header, and the rows join in order. A first part whose rows do
/// not come back after the second header is not joined. NOT A CAPTURE: sysstat 10.x columns.
#[test]
fn a_table_split_in_two_is_joined_row_by_row() {
    let t = "Device: rrqm/s wrqm/s r/s w/s rMB/s\nsda 0.00 0.20 1.00 163.40 0.00\nsdb 0.00 0.00 12.00 0.00 1.50\nwMB/s avgrq-sz avgqu-sz await r_await w_await svctm %util\n81.09 1010.19 142.74 866.47 97.60 871.17 6.08 100.00\n0.00 256.00 0.10 8.00 8.00 0.00 4.00 9.60\n";
    let v = parse(t);
    assert_eq!(v.len(), 2);
    let sda = v
        .iter()
        .find(|s| s.device == "sda")
        .cloned()
        .unwrap_or_default();
    assert_eq!(sda.busy_pct, Some(100.0));
    assert_eq!(sda.queue_len, Some(142.74));
    assert_eq!(sda.writes_per_sec, Some(163.4));
    let sdb = v
        .iter()
        .find(|s| s.device == "sdb")
        .cloned()
        .unwrap_or_default();
    assert_eq!(sdb.busy_pct, Some(9.6));
    let t = "Device: rrqm/s wrqm/s r/s w/s rMB/s\nsda 0.00 0.20 1.00 163.40 0.00\nwMB/s avgrq-sz avgqu-sz await r_await w_await svctm %util\n";
    assert!(parse(t).iter().all(|s| s.busy_pct.is_none()));
}
