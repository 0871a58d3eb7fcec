use super::*;

#[test]
fn usb_bridge_and_nvme_records() {
    let t = "P: /devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0/host6/target6:0:0/6:0:0:0/block/sdb\n\
                 N: sdb\nS: disk/by-id/usb-JMicron_Generic_0123-0:0\nE: ID_BUS=usb\nE: ID_MODEL=Generic\n\
                 E: ID_VENDOR_ID=152d\n\n\
                 P: /devices/pci0000:00/0000:00:1d.0/0000:3d:00.0/nvme/nvme0/nvme0n1\nN: nvme0n1\n\
                 E: ID_MODEL=Samsung SSD 980 PRO 1TB\nE: DEVTYPE=disk\n";
    let r = parse(t);
    assert_eq!(r.len(), 2);
    assert_eq!(r[0].name.as_deref(), Some("sdb"));
    assert!(r[0].usb());
    assert_eq!(r[0].model().as_deref(), Some("Generic"));
    assert!(!r[1].usb());
    assert_eq!(r[1].name.as_deref(), Some("nvme0n1"));
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(start(&lines), spec::Start::Yes);
    assert_eq!(start(&["P: foo", "bar"]), spec::Start::No);
}
