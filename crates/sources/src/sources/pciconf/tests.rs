use super::*;

#[test]
fn freebsd14_vendor_device_header() {
    let v = parse(
        "ahci0@pci0:0:23:0:\tclass=0x010601 rev=0x10 hdr=0x00 vendor=0x8086 device=0xa352 subvendor=0x1028 subdevice=0x0869\n    vendor     = 'Intel Corporation'\n    device     = 'Cannon Lake PCH SATA AHCI Controller'\n    class      = mass storage\n    subclass   = SATA\n",
    );
    assert_eq!(v[0].pci_id.as_deref(), Some("8086:a352"));
    assert_eq!(v[0].class, Some(0x010601));
    assert_eq!(v[0].vendor.as_deref(), Some("Intel Corporation"));
}

#[test]
fn express_link_pair() {
    let v = parse(
        "nvme0@pci0:1:0:0:\tclass=0x010802 rev=0x00 hdr=0x00 vendor=0x144d device=0xa808 subvendor=0x144d subdevice=0xa801\n    cap 01[40] = powerspec 3  supports D0 D3  current D0\n    cap 10[70] = PCI-Express 2 endpoint max data 256(256) FLR RO NS\n                 link x2(x4) speed 8.0(8.0) ASPM disabled(L1)\n",
    );
    let l = v[0].link.clone().unwrap_or_default();
    assert_eq!(l.address, "nvme0@pci0:1:0:0");
    assert_eq!((l.current_width, l.max_width), (Some(2), Some(4)));
    assert_eq!((l.current_gts, l.max_gts), (Some(8.0), Some(8.0)));
    assert_eq!(l.hop, 0);
}

#[test]
fn link_line_and_no_link() {
    // Layout of pciconf(8) -c output (usr.sbin/pciconf/cap.c cap_express); values
    // constructed for the test. ahci0 has no PCI-Express capability: no link.
    let t = "nvme0@pci0:1:0:0:\tclass=0x010802 rev=0x00 hdr=0x00 vendor=0x144d\n\
                 \x20   cap 10[70] = PCI-Express 2 endpoint max data 256(256) FLR RO NS\n\
                 \x20                max read 512\n\
                 \x20                link x1(x4) speed 5.0(8.0) ASPM L1(L1)\n\
                 ahci0@pci0:0:23:0:\tclass=0x010601\n\
                 mps0@pci0:2:0:0:\tclass=0x010700\n\
                 \x20                link x0(x8) speed 0.0(5.0)\n";
    let v = links(t);
    assert_eq!(v.len(), 2);
    assert_eq!(v[0].0, "nvme0");
    assert_eq!((v[0].1.current_width, v[0].1.max_width), (Some(1), Some(4)));
    assert_eq!((v[0].1.current_gts, v[0].1.max_gts), (Some(5.0), Some(8.0)));
    // A link that is down: no current values, the capability stays.
    assert_eq!(v[1].0, "mps0");
    assert_eq!((v[1].1.current_width, v[1].1.max_width), (None, Some(8)));
    assert_eq!((v[1].1.current_gts, v[1].1.max_gts), (None, Some(5.0)));
    assert!(links("link x4(x4)").is_empty());
}

#[test]
fn link_wrapped_after_the_capability_line() {
    // FreeBSD 12-era layout, where "link x1(x1)" ends the capability line and the speed
    // opens the next (a public `pciconf -lvc` of an I211 NIC, search store id
    // 66876573411, repository not resolved; excerpt).
    let t = "igb0@pci0:3:0:0:        class=0x020000 card=0x00008086 chip=0x15398086 rev=0x03 hdr=0x00\n\
                 \x20   vendor     = 'Intel Corporation'\n\
                 \x20   cap 05[50] = MSI supports 1 message, 64 bit, vector masks\n\
                 \x20   cap 10[a0] = PCI-Express 2 endpoint max data 128(512) FLR link x1(x1)\n\
                 \x20                speed 2.5(2.5) ASPM disabled(L0s/L1)\n\
                 \x20   ecap 0001[100] = AER 2 0 fatal 0 non-fatal 0 corrected\n";
    let v = links(t);
    assert_eq!(v.len(), 1);
    assert_eq!((v[0].1.current_width, v[0].1.max_width), (Some(1), Some(1)));
    assert_eq!((v[0].1.current_gts, v[0].1.max_gts), (Some(2.5), Some(2.5)));
    // A mail client broke the line between "link" and its value.
    let t = "nvme0@pci0:1:0:0:\tclass=0x010802 rev=0x00 hdr=0x00 vendor=0x144d\n\
                 \x20   cap 10[70] = PCI-Express 2 endpoint max data 256(256) FLR RO NS link\n\
                 x2(x4) speed\n\
                 8.0(8.0) ASPM disabled(L1)\n";
    let v = links(t);
    assert_eq!(v.len(), 1);
    assert_eq!((v[0].1.current_width, v[0].1.max_width), (Some(2), Some(4)));
    assert_eq!((v[0].1.current_gts, v[0].1.max_gts), (Some(8.0), Some(8.0)));
}
