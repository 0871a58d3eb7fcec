use super::*;

#[test]
fn rows_with_and_without_header() {
    let text = "TIME(s)     COMM           PID     DISK      T SECTOR     BYTES  LAT(ms)\n\
                0.000000    jbd2/dm-0-8    412     nvme0n1   W 10452480   8192      0.05\n\
                0.004121    postgres       2211    sdb       R 88123904   16384    12.84\n\
                1.322004    kworker/u8:1   19      sdb       W 3362816    4096   1210.33\n";
    let ios = parse(text);
    assert_eq!(ios.len(), 3);
    assert_eq!(ios[0].comm, "jbd2/dm-0-8");
    assert!(ios[0].write && !ios[1].write);
    assert_eq!((ios[2].disk.as_str(), ios[2].bytes), ("sdb", 4096));
    assert!((ios[2].latency_ms - 1210.33).abs() < 1e-9);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(start(&lines), spec::Start::Yes);
    // A grep of the rows (older releases' nine decimals), and -Q's queue column.
    let rows = "12.000000000   dd             3321   sdc     W  2048      1048576     8.41\n\
                12.010000000   dd             3321   sdc     W  4096      1048576     8.39\n";
    let lines: Vec<&str> = rows.lines().collect();
    assert_eq!(start(&lines), spec::Start::Yes);
    let q = row("0.101000    fio            901     vda       R 524288     4096      0.30    1.02");
    assert!(q.is_some_and(|io| (io.latency_ms - 1.02).abs() < 1e-9));
}

#[test]
fn one_row_alone_or_other_tables_are_not_biosnoop() {
    let one = ["0.5 cp 12 sda R 100 4096 1.00", "hello"];
    assert_eq!(start(&one), spec::Start::No);
    let ps = [
        "  PID TTY          TIME CMD",
        " 1204 pts/0    00:00:00 bash",
    ];
    assert_eq!(start(&ps), spec::Start::No);
}
