use super::*;

#[test]
fn models_of_by_id_names() {
    assert_eq!(
        model("ata-WDC_WD60EFAX-68SHWN0_WD-WX11D39929YU").as_deref(),
        Some("WDC WD60EFAX-68SHWN0")
    );
    assert_eq!(
        model("ata-ST8000AS0002-1NA17Z_Z840ABCD-part1").as_deref(),
        Some("ST8000AS0002-1NA17Z")
    );
    assert_eq!(
        model("scsi-SATA_ST4000DM004-2CV1_ZFN0ABCD").as_deref(),
        Some("ST4000DM004-2CV1")
    );
    assert_eq!(
        model("nvme-Samsung_SSD_970_EVO_1TB_S467NX0M123456_1").as_deref(),
        Some("Samsung SSD 970 EVO 1TB")
    );
    assert_eq!(model("scsi-35000c50094bacf9f"), None);
    assert_eq!(model("wwn-0x5000c500a1b2c3d4"), None);
    assert_eq!(model("ata-NOSERIAL"), None);
    assert_eq!(model("sda1"), None);
}

fn values(name: &str) -> Vec<(SecretKind, String)> {
    secrets(name, true)
        .into_iter()
        .map(|f| (f.kind, f.value))
        .collect()
}

#[test]
fn serial_and_wwn_parts_of_by_id_names() {
    use SecretKind::*;
    let s = |v: &str| vec![(Serial, v.to_string())];
    let w = |v: &str| vec![(Wwn, v.to_string())];
    assert_eq!(
        values("ata-Samsung_SSD_860_EVO_1TB_S5VSNJ0R123456A"),
        s("S5VSNJ0R123456A")
    );
    assert_eq!(
        values("ata-WDC_WD40EFRX-68N32N0_WD-WCC7K1234567-part1"),
        s("WD-WCC7K1234567")
    );
    assert_eq!(values("nvme-eui.0025388b91b2c5a1"), w("0025388b91b2c5a1"));
    assert_eq!(
        values("wwn-0x5000c500a1b2c3d4-part2"),
        w("5000c500a1b2c3d4")
    );
    assert_eq!(values("scsi-35000c500a1b2c3d4"), w("5000c500a1b2c3d4"));
    assert_eq!(
        values("usb-SanDisk_Ultra_4C530001234567891234-0:0"),
        s("4C530001234567891234")
    );
    assert_eq!(
        values("nvme-Samsung_SSD_970_EVO_Plus_1TB_S4EWNX0N123456_1"),
        s("S4EWNX0N123456")
    );
    assert_eq!(values("scsi-SATA_ST4000DM004-2CV1_ZFN0ABCD"), s("ZFN0ABCD"));
    assert_eq!(values("virtio-overlayblk"), s("overlayblk"));
    // Driver names and prose with a prefix are no names.
    assert!(scan("usb-storage 2-1:1.0: USB Mass Storage device detected").is_empty());
    assert!(scan("scsi-mq is on; ata-piix").is_empty());
}

#[test]
fn names_in_a_listing_and_in_paths() {
    let t = "lrwxrwxrwx 1 root root  9 Dec  1 09:00 ata-Samsung_SSD_860_EVO_1TB_S5VSNJ0R123456A -> ../../sda\n\
                 zpool create tank mirror /dev/disk/by-id/wwn-0x5000c500a1b2c3d4";
    let v: Vec<String> = scan(t).into_iter().map(|f| f.value).collect();
    assert_eq!(v, ["S5VSNJ0R123456A", "5000c500a1b2c3d4"]);
}
