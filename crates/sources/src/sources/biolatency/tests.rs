use super::*;

#[test]
fn bcc_histograms_per_disk_in_usecs() {
    // biolatency -D (usecs), two disks, one with I/Os past a second.
    let text = "Tracing block device I/O... Hit Ctrl-C to end.\n\
                ^C\n\
                \n\
                disk = 'nvme0n1'\n\
                \x20    usecs               : count     distribution\n\
                \x20        0 -> 1          : 0        |                                        |\n\
                \x20       16 -> 31         : 412      |****************************************|\n\
                \x20       32 -> 63         : 97       |*********                               |\n\
                \n\
                disk = 'sdc'\n\
                \x20    usecs               : count     distribution\n\
                \x20     4096 -> 8191       : 55       |****************************************|\n\
                \x20   524288 -> 1048575    : 3        |**                                      |\n\
                \x20  1048576 -> 2097151    : 2        |*                                       |\n";
    let h = parse(text);
    assert_eq!(h.len(), 2);
    assert_eq!(h[0].disk.as_deref(), Some("nvme0n1"));
    assert_eq!(h[0].count_from(1_000_000_000), 0);
    assert_eq!(h[1].disk.as_deref(), Some("sdc"));
    // 1048576 us = 1.05 s: the last bucket.
    assert_eq!(h[1].count_from(1_000_000_000), 2);
    assert_eq!(h[1].slowest_ns(), Some(1_048_576_000));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(start(&lines), spec::Start::Yes);
}

#[test]
fn bcc_msecs_and_bpftrace_units() {
    let ms = "22:10:03\n\
              \x20              msecs                         : count     distribution\n\
              \x20                  0 -> 1                    : 40       |********************|\n\
              \x20                  8 -> 15                   : 2        |*                   |\n";
    let h = parse(ms);
    assert_eq!(h.len(), 1);
    assert_eq!(h[0].slowest_ns(), Some(8_000_000));
    assert_eq!(h[0].count_from(1_000_000_000), 0);
    let bt = "Attaching 4 probes...\n\
              Tracing block device I/O... Hit Ctrl-C to end.\n\
              ^C\n\
              \n\
              @usecs:\n\
              [0]                    3 |@@                                                  |\n\
              [256, 512)            11 |@@@@@@@@                                            |\n\
              [1K, 2K)              70 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n\
              [1M, 2M)               1 |                                                    |\n";
    let h = parse(bt);
    assert_eq!(h.len(), 1);
    assert_eq!(h[0].buckets.len(), 4);
    assert_eq!(h[0].buckets[2].low_ns, 1024 * 1000);
    assert_eq!(h[0].count_from(1_000_000_000), 1);
    let lines: Vec<&str> = bt.lines().collect();
    assert_eq!(start(&lines), spec::Start::Yes);
}

#[test]
fn not_a_histogram() {
    for t in ["usecs: 12", "0 -> 1 : 5", "@bytes:\n[4K, 8K) 5 |@|"] {
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(start(&lines), spec::Start::No, "{t}");
    }
    assert!(is_bpf_tool("/usr/sbin/biolatency-bpfcc", "biolatency"));
    assert!(is_bpf_tool("biolatency.bt", "biolatency"));
    assert!(!is_bpf_tool("biolatencyx", "biolatency"));
}
