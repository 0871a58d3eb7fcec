use super::*;

const LBPV: &str = "Logical block provisioning VPD page (SBC):
   Unmap command supported (LBPU): 1
   Write same (16) with unmap bit supported (LBPWS): 0
   Write same (10) with unmap bit supported (LBPWS10): 0
   Logical block provisioning read zeros (LBPRZ): 0
   Provisioning type: 0 (not known or fully provisioned)
";

#[test]
fn provisioning_page() {
    let v = parse(LBPV);
    assert_eq!(v.unmap_supported, Some(true));
    assert_eq!(v.write_same_unmap, Some(false));
    assert_eq!(v.rows, 5);
}

#[test]
fn limits_and_characteristics_pages() {
    let t = "Block limits VPD page (SBC):\n   Maximum unmap LBA count: -1 [unbounded]\n\nBlock device characteristics VPD page (SBC):\n  Nominal rotation rate: 1 (non-rotating medium)\n";
    let v = parse(t);
    assert_eq!(v.max_unmap_lba, Some(-1));
    assert_eq!(v.rotation_rpm, Some(0));
    let v =
        parse("Block device characteristics VPD page (SBC):\n  Nominal rotation rate: 7200 rpm\n");
    assert_eq!(v.rotation_rpm, Some(7200));
}

#[test]
fn rows_outside_a_page_are_not_read() {
    // Near miss: the same row shape with no VPD heading above it.
    let v = parse("   Unmap command supported (LBPU): 1\n");
    assert_eq!(v.rows, 0);
    assert_eq!(v.unmap_supported, None);
}

#[test]
fn older_short_rows() {
    // linux-scsi 2026-04 (StarTech bridge): no colon after the heading, "LBPU=1" rows.
    let t = "Logical block provisioning VPD page (SBC)\n   LBPU=1\n   LBPWS=0\n   LBPWS10=0\n   LBPRZ=0x0\n   ANC_SUP=0\n   DP=0\n   Minimum percentage: 0 [not reported]\n   Provisioning type: not known or fully provisioned\n";
    let v = parse(t);
    assert_eq!(v.unmap_supported, Some(true));
    assert_eq!(v.write_same_unmap, Some(false));
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!((RECOGNISER.starts[0].1)(&lines), spec::Start::Yes);
    // Near miss: an environment-style line outside any page.
    assert_eq!(parse("   LBPU=1\n").rows, 0);
}
