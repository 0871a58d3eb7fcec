use super::*;

#[test]
fn two_samples() {
    let a = parse_fields("100 0 800 50 10 0 80 20 0 100 200").unwrap_or_default();
    let b = parse_fields("200 0 1600 150 10 0 80 20 3 1070 2200 0 0 0 0").unwrap_or_default();
    let s = busy(&a, &b, 1000).unwrap_or_default();
    assert_eq!(s.util_pct, 97.0);
    assert_eq!(s.ios, 100);
    assert_eq!(s.bytes, 800 * 512);
    assert_eq!(s.avg_queue, 2.0);
    assert_eq!(s.await_ms, Some(1.0));
    assert_eq!(busy(&b, &a, 1000), None);
    assert_eq!(parse_fields("1 2 3"), None);
    assert_eq!(
        proc_io_bytes("rchar: 5\nread_bytes: 4096\nwrite_bytes: 8192\n"),
        Some(12288)
    );
}
