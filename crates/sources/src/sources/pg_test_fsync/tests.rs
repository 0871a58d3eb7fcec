use super::*;

#[test]
fn sections_and_rows_of_a_modern_and_an_old_release() {
    // PostgreSQL 16 (usecs/op column) and a pre-9.2 release (ops/sec only).
    let t = "5 seconds per test\n\
             O_DIRECT supported on this platform for open_datasync and open_sync.\n\n\
             Compare file sync methods using one 8kB write:\n\
             (in \"wal_sync_method\" preference order, except fdatasync is Linux's default)\n\
             \x20       open_datasync                       249.578 ops/sec    4007 usecs/op\n\
             \x20       fdatasync                           608.573 ops/sec    1643 usecs/op\n\
             \x20       fsync_writethrough                              n/a\n\n\
             Compare file sync methods using two 8kB writes:\n\
             \x20       fdatasync                           160.920 ops/sec\n\
             Compare open_sync with different write sizes:\n\
             \x20        1 * 16kB open_sync write           163.539 ops/sec\n";
    let r = parse(t);
    assert_eq!(r.len(), 5);
    assert_eq!(r[1].method, "fdatasync");
    assert_eq!(r[1].writes, 1);
    assert_eq!(r[1].ops_per_sec, Some(608.573));
    assert_eq!(r[2].ops_per_sec, None);
    assert_eq!(r[3].writes, 2);
    assert_eq!(r[4].method, "1 * 16kB open_sync write");
    assert_eq!(r[4].writes, 0);
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(start(&lines), spec::Start::Yes);
    assert_eq!(start(&lines[3..]), spec::Start::Yes);
}

#[test]
fn near_misses_are_not_pg_test_fsync() {
    // A sentence quoting the header, and a rate line outside any section.
    assert_eq!(
        start(&["5 seconds per test is the default", "so I ran it longer"]),
        spec::Start::No
    );
    assert!(parse("        fdatasync      608.573 ops/sec\n").is_empty());
    assert_eq!(
        member(
            "I got 600 ops/sec and more with fdatasync on it",
            &Default::default()
        ),
        spec::Member::No
    );
}
