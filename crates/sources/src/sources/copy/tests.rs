use super::*;

#[test]
fn rsync_pv_time() {
    let v = parse(
        "$ rsync -a /src/ /mnt/dst/\nsent 1,048,576,000 bytes  received 35 bytes  52,428,801.00 bytes/sec\n",
    );
    let b = v.first().cloned().unwrap_or_default();
    assert_eq!(
        (b.tool.as_str(), b.bytes, b.bytes_per_sec),
        ("rsync", Some(1_048_576_000), Some(52_428_801.0))
    );
    assert_eq!(b.flags, vec!["-a".to_string()]);
    let v = parse("# pv big.img\n1.00GiB 0:00:10 [ 100MiB/s] [================>] 100%\n");
    let b = v.first().cloned().unwrap_or_default();
    assert_eq!(
        (b.bytes, b.seconds, b.bytes_per_sec),
        (Some(1 << 30), Some(10.0), Some(100.0 * 1048576.0))
    );
    let v = parse("$ time cp a b\nreal\t0m12.500s\n");
    assert_eq!(v.first().and_then(|b| b.seconds), Some(12.5));
    assert!(parse("I used cp for this and cp was slow").is_empty());
}
