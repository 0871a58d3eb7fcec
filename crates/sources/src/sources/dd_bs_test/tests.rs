use super::*;

#[test]
fn read_back_run_with_rates_in_every_unit() {
    let t = "Generating test file...\n\
                 block size : transfer rate\n\
                 \x20    512 : 894 MB/s\n\
                 \x20   1024 : 1.2 GB/s\n\
                 \x20   4096 : 850 kB/s\n\
                 \x20   8192 : 134217728 bytes/sec\n\
                 \x2016777216 :\n";
    let r = parse(t).expect("run");
    assert!(r.read_back);
    assert!(!r.cache_kept_note);
    assert_eq!(r.rows.len(), 5);
    assert_eq!(r.rows[0].block_bytes, 512);
    assert_eq!(r.rows[0].bytes_per_sec, Some(894e6));
    assert_eq!(r.rows[1].bytes_per_sec, Some(1.2e9));
    assert_eq!(r.rows[2].bytes_per_sec, Some(850e3));
    assert_eq!(r.rows[3].bytes_per_sec, Some(134217728.0));
    // A row whose rate dd did not print (grep found nothing).
    assert_eq!(r.rows[4].bytes_per_sec, None);
}

#[test]
fn write_run_and_the_cache_note() {
    let t = "NOTE: Kernel cache will not be cleared between tests without sudo. This will likely cause inaccurate results.\n\
                 block size : transfer rate\n\
                 \x20    512 : 11.2 MB/s\n";
    let r = parse(t).expect("run");
    assert!(!r.read_back);
    assert!(r.cache_kept_note);
    assert!(parse("block size : transfer rate\n").is_none());
    assert!(parse("     512 : 894 MB/s\n").is_none());
}
