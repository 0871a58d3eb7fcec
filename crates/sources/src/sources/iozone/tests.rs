use super::*;

/// geerlingguy/raspberry-pi-pcie-devices#664 (Crucial P3 Plus 1TB on a Raspberry Pi 5,
/// PCIe Gen 2 x1), the table as posted.
const P3_PLUS_GEN2: &str = "| Benchmark                  | Result |\n\
        | -------------------------- | ------ |\n\
        | iozone 4K random read      | 71.42 MB/s |\n\
        | iozone 4K random write     | 214.83 MB/s |\n\
        | iozone 1M random read      | 441.99 MB/s |\n\
        | iozone 1M random write     | 431.29 MB/s |\n\
        | iozone 1M sequential read  | 442.15 MB/s |\n\
        | iozone 1M sequential write | 429.62 MB/s |\n";

#[test]
fn rows_of_the_report_table() {
    let r = parse(P3_PLUS_GEN2);
    assert_eq!(r.len(), 6);
    assert_eq!(
        (r[0].record_bytes, r[0].random, r[0].read),
        (4096, true, true)
    );
    assert_eq!(
        (r[5].record_bytes, r[5].random, r[5].read),
        (1 << 20, false, false)
    );
    let b = seq_read_benchmark(P3_PLUS_GEN2, "pasted:1").unwrap();
    assert!((b.bytes_per_sec.unwrap() - 442.15e6).abs() < 1.0);
    assert_eq!(b.block_size_bytes, Some(1 << 20));
    assert_eq!(b.tool, "iozone");
}

#[test]
fn template_placeholders_and_prose_are_no_rows() {
    assert!(parse("| iozone 1M sequential read  | TODO MB/s |\n").is_empty());
    assert!(parse("iozone 1M sequential read gave about 400 MB/s\n").is_empty());
    // Without a sequential large-record read there is no benchmark to give.
    assert!(seq_read_benchmark("| iozone 4K random read | 20.2 MB/s |\n", "p").is_none());
    let l = [
        "| Benchmark | Result |",
        "| --- | --- |",
        "| iozone 4K random read | 1 MB/s |",
    ];
    assert_eq!(starts(&l), spec::Start::Yes);
    assert_eq!(
        starts(&["| Benchmark | Result |", "| Foo | 1 |"]),
        spec::Start::No
    );
}

/// ThomasKaiser/Knowledge "Quick Preview of ROCK 5B": iozone's own table of an mdraid-0 of
/// two USB3 SSDs (`iozone -e -I -a -s 1000M -r 1024k -r 16384k -i 0 -i 1`).
const NATIVE: &str = "     kB  reclen    write  rewrite    read    reread\n\
1024000    1024   258830   270261   341979   344249\n\
1024000   16384   270022   271088   667757   679947\n";

#[test]
fn iozone_own_table_with_o_direct() {
    let r = parse(NATIVE);
    assert_eq!(r.len(), 8, "{r:?}");
    let b = native_benchmarks(
        NATIVE,
        "iozone -e -I -a -s 1000M -r 1024k -r 16384k -i 0 -i 1",
        "p",
    );
    assert_eq!(b.len(), 2);
    // The best large-record read is the 16 MiB reread, in kB/s of 1024 bytes.
    assert!((b[0].bytes_per_sec.unwrap() - 679947.0 * 1024.0).abs() < 1.0);
    assert!(b[0].flags.iter().any(|f| f == "rw=read"));
    assert!((b[1].bytes_per_sec.unwrap() - 271088.0 * 1024.0).abs() < 1.0);
    assert_eq!(b[1].block_size_bytes, Some(16384 * 1024));
    // Without -I the reads may be the page cache's; with -O the figures are ops/s.
    assert!(native_benchmarks(NATIVE, "iozone -e -a -s 1000M -i 0 -i 1", "p").is_empty());
    assert!(native_benchmarks(NATIVE, "iozone -e -I -O -a -i 0 -i 1", "p").is_empty());
    assert!(native_benchmarks(NATIVE, "", "p").is_empty());
    let l: Vec<&str> = NATIVE.lines().collect();
    assert_eq!(starts(&l), spec::Start::Yes);
}

/// A test `-i` did not select prints blanks (iozone.c test_output[]): `-i 0 -i 2` leaves
/// read and reread empty, and the random columns keep their places.
#[test]
fn blank_columns_keep_their_places() {
    let t = [
        "                                                              random    random     bkwd    record    stride",
        "              kB  reclen    write  rewrite    read    reread    read     write     read   rewrite      read   fwrite frewrite    fread  freread",
        "          102400    1024   388250   392446                     290025   392099",
    ]
    .join("\n");
    let t = t.as_str();
    let r = parse(t);
    assert_eq!(r.len(), 4, "{r:?}");
    assert!(r.iter().filter(|x| x.read).all(|x| x.random));
    assert!(
        r.iter()
            .any(|x| x.random && x.read && (x.bytes_per_sec - 290025.0 * 1024.0).abs() < 1.0)
    );
    // A row under no header is no row; nor is a line of numbers after prose.
    assert!(parse("1024000    1024   258830   270261\n").is_empty());
}

#[test]
fn the_phoronix_test_suite_result_is_read() {
    // phoronix-test-suite#417: pts/iozone's read test, eight runs and their average.
    let t = "IOzone 3.465:\n\
             \x20   pts/iozone-1.9.4 [Record Size: 64Kb - File Size: 4GB - Disk Test: Read Performance]\n\
             \x20   Test 10 of 18\n\
             \x20       Started Run 1 @ 15:13:17\n\n\
             \x20   Record Size: 64Kb - File Size: 4GB - Disk Test: Read Performance:\n\
             \x20       11673.06640625\n\
             \x20       12361.700195312\n\n\
             \x20   Average: 11725.952026367 MB/s\n\
             \x20   Deviation: 3.31%\n";
    let b = super::pts_benchmarks(t, "k");
    assert_eq!(b.len(), 1);
    let b = b.first();
    assert_eq!(b.and_then(|b| b.bytes), Some(4 << 30));
    assert_eq!(b.and_then(|b| b.block_size_bytes), Some(64 << 10));
    assert_eq!(
        b.map(|b| b.flags.clone()),
        Some(vec!["rw=read".to_string()])
    );
    assert!(
        b.and_then(|b| b.bytes_per_sec)
            .is_some_and(|r| (r - 11725.952026367e6).abs() < 1.0)
    );
    // Near miss: an average with no IOzone options above it (another PTS test).
    assert!(super::pts_benchmarks("    Average: 512.3 MB/s\n", "k").is_empty());
}
