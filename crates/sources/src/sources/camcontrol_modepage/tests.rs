#[test]
fn wce_bit() {
    let c =
        super::parse("IC:  0\nABPF:  0\nCAP:  0\nDISC:  0\nSIZE:  0\nWCE:  1\nMF:  0\nRCD:  0\n");
    assert_eq!(c.wce, Some(true));
    assert_eq!(c.rcd, Some(false));
    assert_eq!(super::parse("WCE:  0\n").wce, Some(false));
    assert_eq!(super::parse("nothing").wce, None);
}
