use super::*;

#[test]
fn a_clean_rescue_and_one_with_bad_areas() {
    // ddrescue 1.24, a 32 GB image copied without an error.
    let clean = "GNU ddrescue 1.24\nPress Ctrl-C to interrupt\n\
        \x20    ipos:   32212 MB, non-trimmed:        0 B,  current rate:    533 MB/s\n\
        \x20    opos:   32212 MB, non-scraped:        0 B,  average rate:    657 MB/s\n\
        non-tried:        0 B,  bad-sector:        0 B,    error rate:       0 B/s\n\
        \x20 rescued:   32212 MB,   bad areas:        0,        run time:         48s\n\
        pct rescued:  100.00%, read errors:        0,  remaining time:         n/a\n\
        \x20                             time since last successful read:         n/a\n\
        Finished\n";
    let s = parse(clean).expect("a screen");
    assert_eq!(
        (s.bad_areas, s.read_errors, s.bad_sector_bytes),
        (Some(0), Some(0), Some(0))
    );
    assert!(s.finished && !s.found_errors());
    assert_eq!(scan(&s).map(|x| x.bad_blocks), Some(0));
    for l in clean.lines() {
        assert!(is_member(l), "{l}");
    }
    // ddrescue 1.22 reading a failing disk: 3 bad areas, 45 read errors.
    let bad = "GNU ddrescue 1.22\n\
        ipos: 2127 GB, non-trimmed: 0 B, current rate: 3072 B/s\n\
        opos: 2127 GB, non-scraped: 0 B, average rate: 160 MB/s\n\
        non-tried: 0 B, bad-sector: 21504 B, error rate: 0 B/s\n\
        rescued: 3000 GB, bad areas: 3, run time: 5h 11m 20s\n\
        pct rescued: 99.99%, read errors: 45, remaining time: 0s\n\
        time since last successful read: n/a\nFinished\n";
    let s = parse(bad).expect("a screen");
    assert_eq!(
        (s.bad_areas, s.read_errors, s.bad_sector_bytes),
        (Some(3), Some(45), Some(21504))
    );
    assert!(s.found_errors());
    assert_eq!(scan(&s).map(|x| x.bad_blocks), Some(45));
}

#[test]
fn the_screen_before_1_20() {
    let old = "rescued:   640021 MB,  errsize:    5377 kB,  current rate:        0 B/s\n\
               \x20  ipos:     3094 MB,   errors:     246,    average rate:        0 B/s\n\
               \x20  opos:     3094 MB,     time since last successful read:   22.3 m\n";
    let s = parse(old).expect("a screen");
    assert_eq!(
        (s.bad_areas, s.bad_sector_bytes),
        (Some(246), Some(5_377_000))
    );
    assert!(s.found_errors());
    // Near misses: prose about a rescue, and a dd summary, hold no screen.
    assert!(parse("I rescued: most of it, errors: none that I saw\n").is_none());
    assert!(parse("1073741824 bytes (1.1 GB) copied, 3.69 s, 291 MB/s\n").is_none());
    assert!(!is_member("rescued most files, bad luck with the rest"));
}
