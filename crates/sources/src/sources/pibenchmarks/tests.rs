use super::*;

const TABLE: &str = "     Category                  Test                      Result     
HDParm                    Disk Read                 419.38 MB/s
HDParm                    Cached Disk Read          1073.62 MB/s
DD                        Disk Write                171 MB/s
FIO                       4k random read            106113 IOPS (424455 KB/s)
FIO                       4k random write           51431 IOPS (205724 KB/s)
IOZone                    4k read                   142355 KB/s
IOZone                    4k write                  106285 KB/s
IOZone                    4k random read            44871 KB/s
IOZone                    4k random write           117430 KB/s

                          Score: 13937";

#[test]
fn the_table_s_rows_and_units() {
    let rows = parse(TABLE);
    assert_eq!(rows.len(), 9);
    assert_eq!(rows[0].bytes_per_sec, 419.38 * 1048576.0);
    assert_eq!(rows[2].bytes_per_sec, 171e6);
    assert_eq!(rows[3].iops, Some(106113.0));
    assert_eq!(rows[3].bytes_per_sec, 424455.0 * 1024.0);
    assert_eq!(rows[7].bytes_per_sec, 44871.0 * 1024.0);
    let b = benchmarks(TABLE, "pasted:x");
    // hdparm read, dd write, two fio rows, two iozone random rows.
    assert_eq!(b.len(), 6);
    assert!(b[0].flags.contains(&"rw=read".to_string()));
    assert!(b[2].flags.contains(&"iodepth=64".to_string()));
    assert!(b[4].flags.contains(&"iodepth=1".to_string()));
    assert!(b.iter().all(|u| u.tool == "PiBenchmarks"));
}

#[test]
fn the_brief_s_wording_and_near_misses() {
    assert!(row("HDParm                    Disk Read                 419.38 MB/sec").is_some());
    // Prose, another tool's table, another summary's wording: not rows.
    for near in [
        "hdparm disk read was 419.38 MB/s",
        "| iozone 4K random read | 71.42 MB/s |",
        "DD Write: 33.2 MB/s",
    ] {
        assert_eq!(row(near), None, "{near}");
    }
}
