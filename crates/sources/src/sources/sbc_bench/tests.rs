use super::*;

/// ThomasKaiser/Knowledge, "Quick Preview of ROCK 5 ITX" (SATA SSDs on the ASM1164) and
/// the same article's microSD / eMMC listing, and sbc-bench reports' NVMe, USB and
/// bridged-SATA lines.
#[test]
fn device_lines() {
    let t = "  * 111.8GB \"Samsung SSD 750 EVO 120GB\" SSD as /dev/sda: SATA 3.1, 6.0 Gb/s (current: 6.0 Gb/s), 3% worn out, drive temp: 26°C\n\
  * 238.8GB \"Samsung EE4S5\" UHS SDR104 SDXC card as /dev/mmcblk1: date 05/2023, manfid/oemid: 0x00001b/0x534d, hw/fw rev: 0x3/0x0\n\
  * 29.1GB \"Samsung BJTD4R\" HS400 Enhanced strobe eMMC card as /dev/mmcblk0: date 09/2023, manfid/oemid: 0x000015/0x0100, hw/fw rev: 0x0/0x0300000000000000\n\
  * 476.9GB \"ZHITAI TiPlus7100 512GB\" SSD as /dev/nvme0: Speed 8GT/s (downgraded), Width x4, 0% worn out, drive temp: 53°C\n\
  * \"ASMedia SATA 6Gb/s bridge\" as /dev/sdb: USB, Driver=usb-storage, 5Gbps (capable of 12Mbps, 480Mbps, 5Gbps)\n\
  * 119.2GB \"SAMSUNG MZ7TE128HMGR-00004\" SSD as /dev/sdc [SATA 3.1, 6.0 Gb/s (current: 6.0 Gb/s)]: behind VIA Labs VL715/VL716 SATA 6Gb/s bridge (2109:0715), 4% worn out, Driver=uas, 10Gbps\n";
    let v = parse(t);
    assert_eq!(v.len(), 6, "{v:?}");
    assert_eq!(
        (v[0].node.as_str(), v[0].kind, v[0].sata, v[0].usb),
        ("sda", Kind::Ssd, true, false)
    );
    assert_eq!(v[0].model, "Samsung SSD 750 EVO 120GB");
    assert_eq!((v[1].node.as_str(), v[1].kind), ("mmcblk1", Kind::MmcCard));
    assert_eq!((v[2].node.as_str(), v[2].kind), ("mmcblk0", Kind::MmcCard));
    assert!(v[3].nvme && v[3].kind == Kind::Ssd);
    assert_eq!((v[4].kind, v[4].usb), (Kind::Usb, true));
    assert_eq!((v[5].kind, v[5].sata, v[5].usb), (Kind::Ssd, true, true));
}

#[test]
fn other_bullets_are_no_devices() {
    // The report's other lists: swap, software versions, SPI flash.
    assert!(parse("  * /dev/zram0: 1.9G (0K used, lzo-rle, 6 streams)\n").is_empty());
    assert!(
        parse("  * Xtx XT25F32B 4MB SPI NOR flash, drivers in use: spi-nor/rockchip-spi\n")
            .is_empty()
    );
    assert!(parse("  * Ubuntu 24.04 LTS  v1.0.15009 (noble)\n").is_empty());
}
