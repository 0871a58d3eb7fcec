use super::*;

#[test]
fn the_old_and_the_new_report() {
    let old = "sysbench 0.4.12:  multi-threaded system evaluation benchmark\n\
               Operations performed:  0 Read, 1024 Write, 0 Other = 1024 Total\n\
               Read 0b  Written 2Gb  Total transferred 2Gb  (177.56Mb/sec)\n\
               \x20 88.78 Requests/sec executed\n";
    let r = parse(old);
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].read_bps, None);
    let w = r[0].write_bps.unwrap_or_default();
    assert!((w - 177.56 * 1048576.0).abs() < 1.0);
    let lines: Vec<&str> = old.lines().collect();
    assert_eq!(start(&lines), spec::Start::Yes);
    let new = "sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)\n\n\
               File operations:\n    reads/s:                      0.00\n\
               \x20   writes/s:                     1234.56\n    fsyncs/s:                     1580.35\n\n\
               Throughput:\n    read, MiB/s:                  0.00\n\
               \x20   written, MiB/s:               19.29\n";
    let r = parse(new);
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].read_bps, Some(0.0));
    assert!((r[0].write_bps.unwrap_or_default() - 19.29 * 1048576.0).abs() < 1.0);
    let lines: Vec<&str> = new.lines().collect();
    assert_eq!(start(&lines), spec::Start::Yes);
    assert_eq!(start(&lines[2..]), spec::Start::Yes);
}

#[test]
fn near_misses_are_not_sysbench() {
    // Prose naming the tool, and a "Throughput:" of another tool with no MiB/s lines.
    assert_eq!(start(&["sysbench 1.0 is what I used"]), spec::Start::No);
    assert_eq!(start(&["File operations:", "were slow"]), spec::Start::No);
    assert!(
        parse("Throughput: 120 MB/s\nread 12\n")
            .iter()
            .all(|r| r.write_bps.is_none())
    );
    assert_eq!(
        member("Read 0b of the manual first", &Default::default()),
        spec::Member::No
    );
}
