#[test]
fn tree_ports_drivers_and_speeds() {
    // lsusb-t.c's line formats (both paddings), NOT A CAPTURE; tests/it reads real posts.
    let t = "/:  Bus 04.Port 1: Dev 1, Class=root_hub, Driver=xhci_hcd/2p, 10000M\n\
                 \x20   |__ Port 1: Dev 11, If 0, Class=Hub, Driver=hub/4p, 10000M\n\
                 \x20       |__ Port 3: Dev 12, If 0, Class=Hub, Driver=hub/4p, 10000M\n\
                 \x20           |__ Port 1: Dev 17, If 0, Class=Mass Storage, Driver=usb-storage, 10000M\n\
                 \x20       |__ Port 2: Dev 13, If 0, Class=Mass Storage, Driver=uas, 10000M\n\
                 /:  Bus 003.Port 001: Dev 001, Class=root_hub, Driver=xhci_hcd/1p, 20000M/x2\n\
                 \x20   |__ Port 001: Dev 006, If 0, Class=Mass Storage, Driver=usb-storage, 480M\n\
                 \x20       ID 0bda:9210 Realtek Semiconductor Corp. RTL9210 M.2 NVME Adapter\n";
    let tree = super::parse_tree(t);
    assert_eq!(tree.roots.len(), 2);
    assert_eq!(tree.roots[1].speed_mbps, 20000.0);
    let s = tree.storage();
    assert_eq!(s.len(), 3);
    assert_eq!(s[0].usb_name().as_deref(), Some("4-1.3.1"));
    assert_eq!(s[0].driver, "usb-storage");
    assert_eq!(s[1].usb_name().as_deref(), Some("4-1.2"));
    assert_eq!(s[1].driver, "uas");
    assert_eq!(s[2].speed_mbps, 480.0);
    assert_eq!(
        s[2].id.as_deref(),
        Some("0bda:9210 Realtek Semiconductor Corp. RTL9210 M.2 NVME Adapter")
    );
    // A device line without its root hub: the bus is not known, the rest is.
    let lone = super::parse_tree(
        "    |__ Port 5: Dev 8, If 0, Class=Mass Storage, Driver=usb-storage, 5000M\n",
    );
    assert_eq!(lone.storage().len(), 1);
    assert_eq!(lone.storage()[0].usb_name(), None);
    // Garbage never panics and yields nothing.
    assert!(
        super::parse_tree("|__ Port x: Dev, If 0, Class=Mass Storage, Driver=uas, M\n")
            .devices
            .is_empty()
    );
}

#[test]
fn iserial_lines() {
    let t = "  iManufacturer           1 SanDisk\n  iProduct                2 Ultra\n  iSerial                 3 4C530001234567891234\n  iSerial                 0 \n";
    let v: Vec<String> = super::secrets(t).into_iter().map(|f| f.value).collect();
    assert_eq!(v, ["4C530001234567891234"]);
}

/// lsusb.py's tree as Synology DSM's `lsusb` prints it (a real post's lines, serial
/// shortened): the interface line names its driver and block device, and takes its link
/// speed from its device's line; an interface whose device line is missing, or a hub's, is
/// no disk.
#[test]
fn lsusb_py_tree_names_driver_speed_and_block_device() {
    let t = "|__usb2          1d6b:0003:0404 09  3.00 5000MBit/s 0mA 1IF  (Linux 4.4.302+ xhci-hcd xHCI Host Controller 0000:00:15.0) hub\n\
             \x20 |__2-2         152d:0580:7501 00  3.20 5000MBit/s 8mA 1IF  (Kuroutoshikou GW3.5AM-SU3G2P 37518000XXXX)\n\
             \x20 2-2:1.0         (IF) 08:06:50 2EPs () usb-storage host17 (sdq)\n";
    let tree = super::parse_tree(t);
    let s = tree.storage();
    assert_eq!(s.len(), 1, "{tree:?}");
    assert_eq!(s[0].driver, "usb-storage");
    assert_eq!(s[0].speed_mbps, 5000.0);
    assert_eq!(s[0].block.as_deref(), Some("sdq"));
    assert_eq!(s[0].usb_name().as_deref(), Some("2-2"));
    assert!(
        s[0].id
            .as_deref()
            .is_some_and(|i| i.starts_with("152d:0580"))
    );
    assert!(super::is_tree_line(t.lines().next().unwrap_or("")));
    // usbutils' own lsusb.py form (class name in the parentheses, UAS).
    let t = "usb4              1d6b:0003 09 3.00 5000MBit/s 0mA 1IF  (Linux 5.15.0 xhci-hcd xHCI Host Controller 0000:00:14.0) hub\n\
             \x20 4-1.4           174c:55aa 00 3.00 5000MBit/s 0mA 1IF  (ASMedia ASM1153E 123456789012)\n\
             \x20  4-1.4:1.0      (IF) 08:06:62 4EPs (Mass Storage) uas host3 (sdb)\n";
    let s = super::parse_tree(t);
    let s = s.storage();
    assert_eq!(s.len(), 1);
    assert_eq!(s[0].driver, "uas");
    assert_eq!(s[0].ports, vec![1, 4]);
    assert_eq!(s[0].block.as_deref(), Some("sdb"));
    // Near misses: an interface without its device line, a hub's interface.
    assert!(
        super::parse_tree("  2-2:1.0         (IF) 08:06:50 2EPs () usb-storage host17 (sdq)\n")
            .storage()
            .is_empty()
    );
    let hub = "|__usb2          1d6b:0003:0404 09  3.00 5000MBit/s 0mA 1IF  (Linux xhci-hcd) hub\n\
               \x20 |__2-1         05e3:0626:0404 09  3.10 5000MBit/s 0mA 1IF  (GenesysLogic USB3.1 Hub)\n\
               \x20 2-1:1.0         (IF) 09:00:03 1EP  () hub\n";
    assert!(super::parse_tree(hub).storage().is_empty());
}

#[test]
fn plain_list_finds_the_bridge_by_id_and_by_name() {
    let t = "Bus 002 Device 004: ID 152d:0583 JMicron Technology Corp. / JMicron USA Technology Corp. JMS583Gen 2 to PCIe Gen3x2 Bridge\n\
             Bus 001 Device 003: ID 1234:5678 Some Vendor SATA 6Gb/s bridge\n\
             Bus 001 Device 002: ID 046d:c52b Logitech, Inc. Unifying Receiver\n\
             Bus 001 Device 001: ID 1d6b:0002 Linux Foundation 2.0 root hub\n";
    let v = super::parse_list(t);
    assert_eq!(v.len(), 4);
    assert!(v[0].storage_bridge().is_some_and(|b| b.contains("JMS583")));
    assert!(v[1].storage_bridge().is_some());
    // Near misses: a receiver and a root hub are no disk bridges.
    assert!(v[2].storage_bridge().is_none());
    assert!(v[3].storage_bridge().is_none());
}

#[test]
fn descriptor_dump_bridge_and_tree_host_driver() {
    // lsusb.c's dump_device lines, NOT A CAPTURE.
    let t = "Device Descriptor:\n  bcdUSB               3.10\n\
             \x20 idVendor           0x174c ASMedia Technology Inc.\n\
             \x20 idProduct          0x55aa ASM1051E SATA 6Gb/s bridge\n\
             \x20     bInterfaceClass         8 Mass Storage\n\
             \x20     bInterfaceProtocol     80 Bulk-Only\n\
             \x20     bInterfaceProtocol     98\n\
             Device Descriptor:\n  bcdUSB               2.00\n\
             \x20 idVendor           0x046d Logitech, Inc.\n\
             \x20 idProduct          0xc31c Keyboard K120\n";
    let d = super::parse_described(t);
    assert_eq!(d.len(), 2);
    let b = d[0].storage_bridge().unwrap_or_default();
    assert!(
        b.contains("174c:55aa, bcdUSB 3.10, UAS and Bulk-Only"),
        "{b}"
    );
    assert_eq!(d[1].storage_bridge(), None);
    let tree = super::parse_tree(
        "/:  Bus 01.Port 1: Dev 1, Class=root_hub, Driver=xhci_hcd/1p, 480M\n\
         \x20   |__ Port 1: Dev 3, If 0, Class=Mass Storage, Driver=usb-storage, 480M\n\
         \x20       ID 0bda:9210 Realtek\n",
    );
    let s = tree.storage();
    assert_eq!(tree.host_driver(s[0]), Some("xhci_hcd"));
    assert_eq!(
        s[0].vendor_product(),
        Some(("0bda".to_string(), "9210".to_string()))
    );
}

/// The BOS descriptor's SuperSpeed capability pasted alone is lsusb -v; its header with no
/// field under it is not.
#[test]
fn superspeed_capability_excerpt() {
    let t = [
        "SuperSpeed USB Device Capability:",
        "  wSpeedsSupported   0x000e",
        "    Device can operate at Full Speed (12Mbps)",
        "    Device can operate at SuperSpeed (5Gbps)",
        "  Lowest fully-functional device speed is Full Speed (12Mbps)",
    ];
    assert_eq!(super::desc_start(&t), crate::sources::spec::Start::Yes);
    let st = crate::sources::spec::BlockState::default();
    assert_eq!(
        super::desc_member(t[2], &st),
        crate::sources::spec::Member::Yes
    );
    assert_eq!(
        super::desc_member(t[4], &st),
        crate::sources::spec::Member::Yes
    );
    assert_eq!(
        super::desc_start(&["SuperSpeed USB Device Capability:", "is what my hub shows"]),
        crate::sources::spec::Start::No
    );
}
