#[test]
fn usb3_in_product_strings() {
    for yes in [
        "Kingston DataTraveler 3.0 PMAP",
        "Generic USB3.0-CRW 1.00",
        "SanDisk Ultra USB 3.0 1.00",
        "Corsair Survivor 3.0 000D",
        "Transcend USB 3.1 Flash",
        "JetFlash USB 3",
    ] {
        assert!(names_usb3(yes), "{yes}");
    }
    for no in [
        "Kingston DataTraveler 2.0 1.00",
        "ASMedia AS2115, class 0/0, rev 2.10/0.01, addr 15",
        "Norelsys NS1066, class 0/0, rev 2.10/3.00, addr 2",
        "SMI USB DISK 1100",
        "ST3000DM001-1CH166 CC27",
        "WD Elements 25A3 1030",
    ] {
        assert!(!names_usb3(no), "{no}");
    }
}
use super::*;

#[test]
fn full_speed_storage_device() {
    // lkml 2005-02 'USB 2.0 Mass storage device' (an MSI MEGA Player 5511 sold as USB 2.0).
    let t = "T:  Bus=04 Lev=01 Prnt=01 Port=00 Cnt=01 Dev#=  2 Spd=12  MxCh= 0\n\
                 D:  Ver= 1.10 Cls=00(>ifc ) Sub=00 Prot=00 MxPS=64 #Cfgs=  1\n\
                 P:  Vendor=1462 ProdID=5511 Rev=10.01\n\
                 S:  Manufacturer=MSI\n\
                 S:  Product=MEGA Player 5511\n\
                 C:* #Ifs= 1 Cfg#= 1 Atr=80 MxPwr=100mA\n\
                 I:  If#= 0 Alt= 0 #EPs= 2 Cls=08(stor.) Sub=06 Prot=50 Driver=usb-storage\n\
                 E:  Ad=81(I) Atr=02(Bulk) MxPS=  64 Ivl=0ms\n";
    let v = parse(t);
    assert_eq!(v.len(), 1);
    assert_eq!((v[0].bus, v[0].dev), (4, 2));
    assert_eq!(v[0].speed_mbps, 12.0);
    assert_eq!(speed_name(v[0].speed_mbps), "full speed");
    assert_eq!(v[0].driver.as_deref(), Some("usb-storage"));
    assert_eq!(v[0].usb_version.as_deref(), Some("1.10"));
    assert_eq!(v[0].product.as_deref(), Some("MEGA Player 5511"));
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(start(&lines), spec::Start::Yes);
}

#[test]
fn hubs_and_input_devices_are_no_storage() {
    // gregkh/usbutils PR 103 (debugfs list, Linux 5.5, hex interface numbers): a root
    // hub, a USB 2 hub and a low-speed trackball; no mass-storage interface among them.
    let t = "T:  Bus=07 Lev=00 Prnt=00 Port=00 Cnt=00 Dev#=  1 Spd=480 MxCh= 4\n\
                 D:  Ver= 2.00 Cls=09(hub  ) Sub=00 Prot=01 MxPS=64 #Cfgs=  1\n\
                 P:  Vendor=1d6b ProdID=0002 Rev=05.05\n\
                 I:  If#=0x0 Alt= 0 #EPs= 1 Cls=09(hub  ) Sub=00 Prot=00 Driver=hub\n\
                 \n\
                 T:  Bus=07 Lev=02 Prnt=02 Port=00 Cnt=01 Dev#=  3 Spd=1.5 MxCh= 0\n\
                 D:  Ver= 1.10 Cls=00(>ifc ) Sub=00 Prot=00 MxPS= 8 #Cfgs=  1\n\
                 I:  If#=0x0 Alt= 0 #EPs= 1 Cls=03(HID  ) Sub=01 Prot=02 Driver=usbhid\n\
                 \n\
                 T:  Bus=02 Lev=01 Prnt=01 Port=00 Cnt=01 Dev#=  4 Spd=5000 MxCh= 0\n\
                 D:  Ver= 3.10 Cls=00(>ifc ) Sub=00 Prot=00 MxPS= 9 #Cfgs=  1\n\
                 S:  Product=Extreme SSD\n\
                 I:* If#=0x0 Alt= 1 #EPs= 4 Cls=08(stor.) Sub=06 Prot=62 Driver=uas\n";
    let v = parse(t);
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].speed_mbps, 5000.0);
    assert_eq!(v[0].driver.as_deref(), Some("uas"));
    assert_eq!(speed_name(1.5), "low speed");
    // Garbage never panics and yields nothing.
    assert!(parse("T: Bus=x Spd=\nI: Cls=08(stor.)\n").is_empty());
}
