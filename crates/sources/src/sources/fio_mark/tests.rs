use super::*;

#[test]
fn the_table_with_and_without_latency_columns() {
    let t = "Executing Default test:\n\
             \x20                   Read [MB/s]     Read [IOPS]    Write [MB/s]    Write [IOPS]\n\
             \x20    SEQ1M-Q8T1            8073            8073            6179            6179\n\
             \x20    RND4K-Q1T1            1319          337685             624          159918\n";
    let r = parse(t);
    assert_eq!(r.len(), 2);
    assert_eq!(r[1].label, "RND4K-Q1T1");
    assert_eq!(r[1].block_bytes, 4096);
    assert_eq!(r[1].queue_depth, 1);
    assert_eq!(r[1].read_mibs, Some(1319.0));
    assert_eq!(r[1].write_mibs, Some(624.0));
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(start(&lines), spec::Start::Yes);
    assert_eq!(start(&lines[1..]), spec::Start::Yes);
    let lat = "    Read [MB/s]     Read [IOPS]   Read [LAT_ns]    Write [MB/s]    Write [IOPS]  Write [LAT_ns]\n\
               \x20RND4K-Q1T1              45           11520           86000              60           15360          64000\n";
    let r = parse(lat);
    assert_eq!(r[0].read_mibs, Some(45.0));
    assert_eq!(r[0].write_mibs, Some(60.0));
}

#[test]
fn near_misses_are_not_fio_mark() {
    // A CrystalDiskMark row ("RND4K Q1T1: 45 MB/s") and a table row with no header.
    assert!(parse("  RND4K-Q1T1   1319   337685   624   159918\n").is_empty());
    assert_eq!(
        start(&["RND4K Q1T1:   45.12 MB/s", "SEQ1M Q8T1: 500 MB/s"]),
        spec::Start::No
    );
    assert_eq!(
        start(&["Executing Default test:", "then it hung"]),
        spec::Start::No
    );
}
