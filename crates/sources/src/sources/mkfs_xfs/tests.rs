use super::*;

#[test]
fn warning_and_geometry() {
    let t = "meta-data=/dev/sdc1              isize=512    agcount=4, agsize=122094660 blks\n         =                       sectsz=512   attr=2, projid32bit=1\ndata     =                       bsize=4096   blocks=488378637, imaxpct=5\nwarning: device is not properly aligned /dev/sdc1\nUse -f to force usage of a misaligned device\n";
    let v = parse(t);
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].partition.as_deref(), Some("sdc1"));
    assert_eq!(text_device(t).as_deref(), Some("sdc1"));
    assert_eq!(count(t), 5);
    assert!(parse("meta-data=/dev/sdb1 isize=512\n").is_empty());
}
