use super::*;

const RUN: &str = "Basic System Information:
---------------------------------
Processor  : Intel Xeon Processor (Skylake, IBRS)
AES-NI     : \u{2714} Enabled
VM-x/AMD-V : \u{274c} Disabled
RAM        : 1.7 GiB
VM Type    : KVM

fio Disk Speed Tests (Mixed R/W 50/50) (Partition /dev/vda1):
---------------------------------
Block Size | 4k            (IOPS) | 64k           (IOPS)
  ------   | ---            ----  | ----           ----
Read       | 144.49 MB/s  (36.1k) | 1.26 GB/s    (19.8k)
Write      | 144.87 MB/s  (36.2k) | 1.27 GB/s    (19.9k)
Total      | 289.36 MB/s  (72.3k) | 2.54 GB/s    (39.7k)
";

#[test]
fn the_header_and_the_fio_table() {
    let (h, runs) = parse(RUN);
    assert_eq!(h.aes_ni, Some(true));
    assert_eq!(h.vm_type.as_deref(), Some("KVM"));
    assert!(
        h.ram_bytes
            .is_some_and(|r| r > 1_800_000_000 && r < 1_900_000_000)
    );
    assert_eq!(runs.len(), 2);
    let r = runs.get(1).cloned().unwrap_or_default();
    assert_eq!(r.block_bytes, 65536);
    assert!(r.write_bps.is_some_and(|w| (w - 1.27e9).abs() < 1e6));
    assert!(
        runs.first()
            .and_then(|r| r.read_bps)
            .is_some_and(|v| (v - 144.49e6).abs() < 1e3)
    );
    let lines: Vec<&str> = RUN.lines().collect();
    assert!(matches!(start(&lines), spec::Start::Yes));
}

#[test]
fn a_sentence_naming_the_table_is_not_it() {
    let lines = [
        "fio Disk Speed Tests were slow on my VPS",
        "so I switched hosts",
    ];
    assert!(!matches!(start(&lines), spec::Start::Yes));
    let (_, runs) = parse("Read | fast | slow\n");
    assert!(runs.is_empty());
}
