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
