use super::*;

#[test]
fn rows_of_both_layouts() {
    // nvme-cli 1.x (linux-nvme/nvme-cli#814): decimal namespace, no Generic column.
    let t = "Node             SN                   Model                                    Namespace Usage                      Format           FW Rev\n\
                 ---------------- -------------------- ---------------------------------------- --------- -------------------------- ---------------- --------\n\
                 /dev/nvme0n1     KI99N0461I0109U0B    VK003840KWWFP                            1           3.84  TB /   3.84  TB    512   B +  0 B   HPK1\n";
    let v = parse(t);
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].node, "/dev/nvme0n1");
    assert_eq!(v[0].serial, "KI99N0461I0109U0B");
    assert_eq!(v[0].model, "VK003840KWWFP");
    assert_eq!(v[0].size_bytes, Some(3_840_000_000_000));
    assert_eq!(v[0].lba_bytes, Some(512));
    assert_eq!(v[0].firmware.as_deref(), Some("HPK1"));
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(start(&lines), spec::Start::Yes);
    // nvme-cli 2.x: the Generic column, a hex namespace id, a model with blanks.
    let t = "Node                  Generic               SN                   Model                                    Namespace  Usage                      Format           FW Rev\n\
                 --------------------- --------------------- -------------------- ---------------------------------------- ---------- -------------------------- ---------------- --------\n\
                 /dev/nvme1n1          /dev/ng1n1            S4EWNX0R123456       Samsung SSD 980 PRO 1TB                  0x1        200.11  GB /   1.00  TB      4 KiB +  0 B   5B2QGXA7\n";
    let v = parse(t);
    assert_eq!(v[0].model, "Samsung SSD 980 PRO 1TB");
    assert_eq!(v[0].serial, "S4EWNX0R123456");
    assert_eq!(v[0].size_bytes, Some(1_000_000_000_000));
    assert_eq!(v[0].lba_bytes, Some(4096));
    assert!(parse("/dev/nvme0n1 x / y\nNode SN Model\n").is_empty());
}
