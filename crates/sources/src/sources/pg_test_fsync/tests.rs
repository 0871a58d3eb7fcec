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
    assert_eq!(r[1].writes, Some(1));
    assert_eq!(r[1].ops_per_sec, Some(608.573));
    assert_eq!(r[2].ops_per_sec, None);
    assert_eq!(r[3].writes, Some(2));
    assert_eq!(r[4].method, "1 * 16kB open_sync write");
    assert_eq!(r[4].writes, Some(0));
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(start(&lines), spec::Start::Yes);
    assert_eq!(start(&lines[3..]), spec::Start::Yes);
}

#[test]
fn near_misses_are_not_pg_test_fsync() {
    // A sentence quoting the header, a rate line of no wal_sync_method outside any
    // section, and one method row alone.
    assert_eq!(
        start(&["5 seconds per test is the default", "so I ran it longer"]),
        spec::Start::No
    );
    assert!(parse("        iops      608.573 ops/sec\n").is_empty());
    assert_eq!(
        start(&[
            "        fdatasync      608.573 ops/sec",
            "that is what I get"
        ]),
        spec::Start::No
    );
    assert_eq!(
        member(
            "I got 600 ops/sec and more with fdatasync on it",
            &Default::default()
        ),
        spec::Member::No
    );
}

#[test]
fn an_excerpt_opening_on_method_rows_of_an_old_release() {
    // Rows cut from the "one 8kB write" section, then 9.1's capitalised "Non-Sync'ed"
    // section (releases before 9.5 spell it so).
    let t = "        open_datasync                    1204.117 ops/sec     830 usecs/op\n\
             \x20       fdatasync                        1187.020 ops/sec     842 usecs/op\n\
             \x20       fsync_writethrough                            n/a\n\
             Non-Sync'ed 8kB writes:\n\
             \x20       write                           80211.904 ops/sec      12 usecs/op\n";
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(start(&lines), spec::Start::Yes);
    assert_eq!(start(&lines[1..]), spec::Start::Yes);
    assert!(
        lines
            .iter()
            .all(|l| member(l, &Default::default()) == spec::Member::Yes)
    );
    let r = parse(t);
    assert_eq!(r.len(), 4);
    assert_eq!(r[0].writes, None);
    assert_eq!(r[1].ops_per_sec, Some(1187.02));
    assert_eq!(r[3].method, "write");
    assert_eq!(r[3].writes, Some(0));
}
