use super::*;

#[test]
fn default_and_sg_columns() {
    // util-linux#307: `lsscsi -g` of a laptop disk and a WD My Passport (and its SES LU).
    let t = "[0:0:0:0]    disk    ATA      ST1000LM024 HN-M 0003  /dev/sda   /dev/sg0 \n\
                 [4:0:0:0]    disk    WD       My Passport 0837 1072  /dev/sdb   /dev/sg1 \n\
                 [4:0:0:1]    enclosu WD       SES Device       1072  -          /dev/sg2 \n";
    let v = parse(t);
    assert_eq!(v.len(), 3, "{v:?}");
    assert_eq!(v[0].vendor.as_deref(), Some("ATA"));
    assert_eq!(v[0].model.as_deref(), Some("ST1000LM024 HN-M"));
    assert_eq!(v[0].rev.as_deref(), Some("0003"));
    assert_eq!(v[0].device.as_deref(), Some("sda"));
    assert_eq!(v[1].model.as_deref(), Some("My Passport 0837"));
    assert_eq!(v[2].kind, "enclosu");
    assert_eq!(v[2].device, None);
    assert!(!emulated(&v[0]));
}

#[test]
fn transports_virtual_disks_and_squeezed_columns() {
    let t = "[0:0:0:0]    disk    sata:5000c500a1b2c3d4           /dev/sda \n\
                 [6:0:0:0]    disk    usb: 2-1:1.0                    /dev/sdb \n\
                 [7:0:0:0]    disk    iqn.2003-01.org.linux-iscsi.nas.x8664:sn.1,t,0x1  /dev/sdc \n\
                 [N:0:1:1]    disk    Samsung SSD 970 EVO Plus 500GB__1          /dev/nvme0n1\n";
    let v = parse(t);
    assert_eq!(v.len(), 4);
    assert_eq!(v[0].bus(), Some("sata"));
    assert_eq!(v[1].bus(), Some("usb"));
    assert_eq!(v[2].bus(), Some("iqn"));
    assert_eq!(
        v[3].model.as_deref(),
        Some("Samsung SSD 970 EVO Plus 500GB")
    );
    assert_eq!(v[3].device.as_deref(), Some("nvme0n1"));
    if let Some(spec::Secret::Scan(f)) = SPEC.secrets.first() {
        let s = f(t);
        assert!(s.iter().any(|x| x.value == "5000c500a1b2c3d4"), "{s:?}");
    }
    // A forum collapsed the padding: words, not columns.
    let q = parse("[2:0:0:0] disk QEMU QEMU HARDDISK 2.5+ /dev/sda");
    assert_eq!(q[0].vendor.as_deref(), Some("QEMU"));
    assert_eq!(q[0].model.as_deref(), Some("QEMU HARDDISK"));
    assert!(emulated(&q[0]));
    // A line cut before its node still names its unit.
    let cut = parse("[0:0:0:0]    disk    ATA      WDC WD40EFRX-68N 0A82");
    assert_eq!(cut[0].device, None);
    assert_eq!(cut[0].vendor.as_deref(), Some("ATA"));
}

#[test]
fn near_misses() {
    // The kernel's own INQUIRY line and a dmesg HCTL are not lsscsi's.
    assert!(
        parse("scsi 4:0:0:0: Direct-Access     ATA      WDC WD20EADS-00S 0A01 PQ: 0 ANSI: 5")
            .is_empty()
    );
    assert!(parse("[4:0:0:0] is the disk that failed").is_empty());
    assert!(parse("[    1.234567] sd 0:0:0:0: [sda] Attached SCSI disk").is_empty());
}
