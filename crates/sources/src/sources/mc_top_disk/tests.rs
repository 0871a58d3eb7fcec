use super::*;

// Rows in mc's layout (cmd/support-top-disk, NOT A CAPTURE: other paths and figures).
const TABLE: &str = "\
      DISK             USED     TPS        READ           WRITE          DISCARD         AWAIT           UTIL
 /mnt/drive1          52%     41      3.10 MiB/s      0.40 MiB/s      0.00 MiB/s      2.1 ms          8.5%
/mnt/drive2!          52%     38      2.95 MiB/s      0.38 MiB/s      0.00 MiB/s      1.9 ms          7.9%
 /mnt/drive3          52%     912     0.10 MiB/s      12.50 MiB/s     0.00 MiB/s      1.2 s           99.6%
";

#[test]
fn rows_become_iostat_samples() {
    let v = parse(TABLE);
    assert_eq!(v.len(), 3, "{v:?}");
    assert_eq!(
        v[1].device, "/mnt/drive2",
        "the state marker is not part of the path"
    );
    assert_eq!(v[0].busy_pct, Some(8.5));
    assert_eq!(v[2].await_ms, Some(1200.0));
    assert_eq!(v[2].transfers_per_sec, Some(912.0));
    assert!(
        v[2].write_kb_per_sec
            .is_some_and(|k| (k - 12800.0).abs() < 1e-6)
    );
}

#[test]
fn the_header_starts_the_table_and_other_tables_do_not() {
    let lines: Vec<&str> = TABLE.lines().collect();
    assert_eq!(start(&lines), spec::Start::Yes);
    // iostat's own header and a df line are not this table.
    assert_eq!(
        start(&[
            "Device  r/s  w/s  rkB/s  wkB/s  %util",
            "sda 1.0 2.0 3.0 4.0 5.0"
        ]),
        spec::Start::No
    );
    assert!(row("/dev/sda1  50G  20G  30G  40% /").is_none());
}

#[test]
fn a_table_re_wrapped_by_mail_is_read_whole() {
    // Each row broken before its AWAIT (a 72-column mail client).
    let wrapped = "       DISK             USED     TPS        READ           WRITE\n\
                   DISCARD         AWAIT           UTIL\n\
                   \x20/mnt/drive3          52%     912     0.10 MiB/s      12.50 MiB/s     0.00 MiB/s\n\
                   1.2 s           99.6%\n";
    let v = parse(wrapped);
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(v[0].busy_pct, Some(99.6));
    let lines: Vec<&str> = wrapped.lines().collect();
    assert_eq!(start(&lines), spec::Start::Yes);
    assert!(lines.iter().all(|l| is_member(l)), "{lines:?}");
}
