use super::*;

const CDM8: &str = "------------------------------------------------------------------------------
CrystalDiskMark 8.0.4 x64 (C) 2007-2021 hiyohiyo
                                  Crystal Dew World: https://crystalmark.info/
------------------------------------------------------------------------------
* MB/s = 1,000,000 bytes/s [SATA/600 = 600,000,000 bytes/s]
* KB = 1000 bytes, KiB = 1024 bytes

[Read]
  SEQ    1MiB (Q=  8, T= 1):  3567.123 MB/s [   3401.8 IOPS] <  2349.55 us>
  SEQ    1MiB (Q=  1, T= 1):  2745.574 MB/s [   2618.4 IOPS] <   381.58 us>
  RND    4KiB (Q= 32, T= 1):   616.066 MB/s [ 150406.7 IOPS] <   212.10 us>
  RND    4KiB (Q=  1, T= 1):    59.043 MB/s [  14414.8 IOPS] <    69.13 us>

[Write]
  SEQ    1MiB (Q=  8, T= 1):  3047.318 MB/s [   2906.1 IOPS] <  2750.45 us>
  SEQ    1MiB (Q=  1, T= 1):  2900.000 MB/s [   2765.7 IOPS] <   361.36 us>
  RND    4KiB (Q= 32, T= 1):   535.015 MB/s [ 130619.9 IOPS] <   244.50 us>
  RND    4KiB (Q=  1, T= 1):   186.066 MB/s [  45426.3 IOPS] <    21.89 us>

Profile: Default
   Test: 1 GiB (x5) [C: 50% (238/476GiB)]
   Mode: [Admin]
   Time: Measure 5 sec / Interval 5 sec
";

#[test]
fn crystaldiskmark_8_rows_with_their_sections() {
    let rows = parse(CDM8);
    assert_eq!(rows.len(), 8);
    assert_eq!(
        rows[0],
        DiskmarkRow {
            write: false,
            random: false,
            block_bytes: 1 << 20,
            queue_depth: 8,
            threads: 1,
            mbps: 3567.123
        }
    );
    assert!(rows[2].random && rows[2].queue_depth == 32 && rows[2].block_bytes == 4096);
    assert!(rows[4].write && !rows[4].random && rows[4].mbps == 3047.318);
    let b = benchmarks(CDM8, "CrystalDiskMark", "pasted:x", Some(1 << 30));
    // Best sequential read and write, then the four random rows.
    assert_eq!(b.len(), 6);
    assert_eq!(b[0].bytes_per_sec, Some(3567.123e6));
    assert!(b[0].flags.contains(&"rw=read".to_string()));
    assert_eq!(b[1].bytes_per_sec, Some(3047.318e6));
    assert!(b[1].flags.contains(&"rw=write".to_string()));
    let q32 = &b[2];
    assert!(q32.flags.contains(&"rw=randread".to_string()));
    assert!(q32.flags.contains(&"iodepth=32".to_string()));
    assert!(q32.flags.contains(&"numjobs=1".to_string()));
    assert_eq!(q32.block_size_bytes, Some(4096));
}

#[test]
fn crystaldiskmark_7_and_kdiskmark_rows() {
    let cdm7 = "[Read]
Sequential 1MiB (Q=  8, T= 1):   406.196 MB/s [    387.4 IOPS] < 20604.07 us>
    Random 4KiB (Q= 32, T=16):   263.148 MB/s [  64245.1 IOPS] <  7961.90 us>
[Write]
Sequential 1MiB (Q=  8, T= 1):   403.297 MB/s [    384.6 IOPS] < 20731.71 us>
";
    let rows = parse(cdm7);
    assert_eq!(rows.len(), 3);
    assert_eq!((rows[1].queue_depth, rows[1].threads), (32, 16));
    assert!(rows[2].write);
    let kdm = "                    KDiskMark (3.1.4): https://github.com/JonMagon/KDiskMark
[Read]
Sequential 1 MiB (Q= 8, T= 1):   550.921 MB/s [    525.4 IOPS] < 15175.44 us>
Random 4 KiB (Q=32, T= 1):   311.420 MB/s [  76030.3 IOPS] <   420.51 us>
";
    let rows = parse(kdm);
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0].block_bytes, 1 << 20);
    assert!(rows[1].random && rows[1].queue_depth == 32 && !rows[1].write);
}

#[test]
fn crystaldiskmark_5_6_and_classic_rows() {
    let cdm5 = "   Sequential Read (Q= 32,T= 1) :   557.889 MB/s
  Sequential Write (Q= 32,T= 1) :   523.091 MB/s
  Random Read 4KiB (Q= 32,T= 1) :   384.282 MB/s [ 93818.8 IOPS]
         Sequential Read (T= 1) :   536.171 MB/s
   Random Read 4KiB (Q= 1,T= 1) :    36.796 MB/s [  8983.4 IOPS]";
    let rows = parse(cdm5);
    assert_eq!(rows.len(), 5);
    assert_eq!((rows[0].block_bytes, rows[0].queue_depth), (128 << 10, 32));
    assert!(rows[1].write);
    assert_eq!((rows[2].block_bytes, rows[2].queue_depth), (4096, 32));
    assert_eq!((rows[3].block_bytes, rows[3].queue_depth), (1 << 20, 1));
    let cdm3 = "           Sequential Read :   505.825 MB/s
          Sequential Write :   189.856 MB/s
         Random Read 512KB :   381.142 MB/s
    Random Read 4KB (QD=1) :    25.206 MB/s [  6153.8 IOPS]
   Random Read 4KB (QD=32) :   271.859 MB/s [ 66371.9 IOPS]";
    let rows = parse(cdm3);
    assert_eq!(rows.len(), 5);
    assert_eq!(rows[0].block_bytes, 1 << 20);
    assert!(rows[2].random && rows[2].block_bytes == 512 << 10);
    assert_eq!((rows[4].block_bytes, rows[4].queue_depth), (4096, 32));
    let b = benchmarks(cdm3, "CrystalDiskMark", "k", None);
    // The 512 KB random row is neither a sequential figure nor a 4 KiB one.
    assert_eq!(b.len(), 4);
    assert_eq!(b[0].bytes_per_sec, Some(505.825e6));
}

#[test]
fn typed_window_labels() {
    let rows = parse(
        "Seq Q32T1 Read : 485.698 MB/s\n4K QD32 Read : 27.81 MB/s\nSEQ1M Q8T1 : 3500.12 MB/s",
    );
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[0].block_bytes, 128 << 10);
    assert_eq!((rows[1].block_bytes, rows[1].queue_depth), (4096, 32));
    assert_eq!((rows[2].block_bytes, rows[2].queue_depth), (1 << 20, 8));
}

#[test]
fn near_misses_are_not_rows() {
    // Prose with a figure, a Mix row, the header lines, a crawled flattened table.
    let text = "The sequential read was 485 MB/s in the end.
[Mix]
  SEQ    1MiB (Q=  8, T= 1):  1000.000 MB/s [ 953.7 IOPS] < 100.00 us>
* MB/s = 1,000,000 bytes/s [SATA/600 = 600,000,000 bytes/s]
random 4K QD32 read/write speed |
2 7.81/77.16 |";
    assert!(parse(text).is_empty());
}
