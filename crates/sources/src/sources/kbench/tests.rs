use super::parse;

#[test]
fn timestamped_summary_rows_are_read() {
    // open-cas-linux#1693: `kubectl logs --timestamps` of a kbench pod.
    let t = "TEST_FILE: /volume1/test\n\
             2025-10-15T15:56:41.992490457+08:00 TEST_SIZE: 60G\n\
             Benchmarking iops.fio into Local-Path-iops.json\n\
             2025-10-15T16:16:41.526907567+08:00 IOPS (Read/Write)\n\
             2025-10-15T16:16:41.526910587+08:00         Random:            617 / 104,155\n";
    let f = parse(t);
    assert_eq!(f.len(), 1);
    let f = f.first();
    assert_eq!(
        f.map(|f| (f.metric.as_str(), f.pattern.as_str())),
        Some(("IOPS", "Random"))
    );
    assert_eq!(f.map(|f| (f.read, f.write)), Some((617, 104_155)));
}

#[test]
fn a_row_without_its_heading_is_not_read() {
    // Near miss: "Random: 1 / 2" elsewhere (no kbench metric heading above it).
    assert!(parse("Random: 617 / 104,155\n").is_empty());
}
