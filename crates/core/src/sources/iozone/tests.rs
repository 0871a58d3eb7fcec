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
