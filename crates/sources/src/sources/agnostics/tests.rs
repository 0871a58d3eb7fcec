use super::*;

const RUN: &str = "prepare-file;0;0;179550;350
seq-write;0;0;179550;350
rand-4k-write;0;0;4380;1095
rand-4k-read;11636;2909;0;0
Sequential write speed 179550 KB/sec (target 10000) - PASS
Random write speed 1095 IOPS (target 500) - PASS
Random read speed 2909 IOPS (target 1500) - PASS";

#[test]
fn terse_lines_win_over_the_verdicts() {
    let j = parse(RUN);
    assert_eq!(j.len(), 3);
    assert_eq!(j[0].job, "seq-write");
    assert_eq!(j[0].bytes_per_sec, 179550.0 * 1024.0);
    assert_eq!(j[2].bytes_per_sec, 11636.0 * 1024.0);
    let b = benchmarks(RUN, "k");
    assert!(b[0].flags.contains(&"rw=write".to_string()));
    assert_eq!(b[0].block_size_bytes, Some(512 << 10));
    assert!(b[2].flags.contains(&"rw=randread".to_string()));
    assert!(b[2].flags.contains(&"iodepth=4".to_string()));
}

#[test]
fn verdicts_alone_and_near_misses() {
    let j = parse(
        "Sequential write speed 9100 (target 10000) - FAIL\nRandom read speed 2000 IOPS (target 1500) - PASS",
    );
    assert_eq!(j.len(), 2);
    assert_eq!(j[0].bytes_per_sec, 9100.0 * 1024.0);
    assert_eq!(j[1].bytes_per_sec, 2000.0 * 4096.0);
    // A sentence about the test, a fio terse line of another job.
    assert!(parse("The sequential write speed was 9100 KB/sec, below target.").is_empty());
    assert!(parse("randread;11636;2909;0;0").is_empty());
}
