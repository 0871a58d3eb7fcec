use super::*;

#[test]
fn speeds_in_both_spellings() {
    assert_eq!(parse_gts("8.0 GT/s PCIe"), Some(8.0));
    assert_eq!(parse_gts("2.5GT/s"), Some(2.5));
    assert_eq!(parse_gts("5 GT/s"), Some(5.0));
    assert_eq!(parse_gts("Unknown"), None);
    assert_eq!(parse_gts("unknown GT/s"), None);
    assert_eq!(parse_gts("0 GT/s"), None);
}

#[test]
fn quoted_block_without_header() {
    let t = "> \t\tLnkCap:\tPort #0, Speed 8GT/s, Width x4, ASPM L1\n\
                 > \t\tLnkSta:\tSpeed 5GT/s (downgraded), Width x1 (downgraded)\n\
                 > \t\tLnkSta2: Current De-emphasis Level: -3.5dB\n";
    let d = parse(t);
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].address, "");
    assert_eq!((d[0].cap_gts, d[0].cap_width), (Some(8.0), Some(4)));
    assert_eq!((d[0].sta_gts, d[0].sta_width), (Some(5.0), Some(1)));
    assert!(d[0].downgraded);
}

#[test]
fn one_marked_field_tells_the_other_capability_without_lnkcap() {
    // A Raspberry Pi 5 at Gen 3 (batch 24): the speed is the drive's own maximum, the
    // width is below it.
    let t = "0000:01:00.0 Non-Volatile memory controller: Micron Technology Inc Device 5416\n\
                 \t\tLnkSta:\tSpeed 8GT/s, Width x1 (downgraded)\n";
    let d = parse(t);
    assert!(d[0].width_downgraded && !d[0].speed_downgraded && d[0].downgraded);
    let l = link(&d[0]);
    assert_eq!((l.max_gts, l.max_width), (Some(8.0), None));
    // Both marked: neither capability is known.
    let both = parse("\t\tLnkSta:\tSpeed 5GT/s (downgraded), Width x1 (downgraded)\n");
    let l = link(&both[0]);
    assert_eq!((l.max_gts, l.max_width), (None, None));
    // No mark at all (older pciutils print none): nothing is inferred.
    let none = parse("\t\tLnkSta:\tSpeed 8GT/s, Width x1\n");
    let l = link(&none[0]);
    assert_eq!((l.max_gts, l.max_width), (None, None));
    // A LnkCap line wins over the inference.
    let cap = parse(
        "\t\tLnkCap:\tPort #0, Speed 16GT/s, Width x4\n\t\tLnkSta:\tSpeed 8GT/s, Width x1 (downgraded)\n",
    );
    let l = link(&cap[0]);
    assert_eq!((l.max_gts, l.max_width), (Some(16.0), Some(4)));
}

#[test]
fn header_and_garbage() {
    let t = "0001:01:00.0 Non-Volatile memory controller: X (prog-if 02 [NVM Express])\n\
                 \tLnkCap:\tPort #0, Speed 99999GT/s, Width x999\n\
                 00:1f.2 SATA controller: Intel\n";
    let d = parse(t);
    assert_eq!(d.len(), 2);
    assert_eq!(d[0].address, "0001:01:00.0");
    assert!(d[0].is_storage() && d[1].is_storage());
    assert_eq!((d[0].cap_gts, d[0].cap_width), (None, None));
    assert_eq!(parse("LnkSta:,,,,Speed").len(), 1);
    // A VMD domain (five hex digits) is an address; a nine-digit one is not.
    let vmd = "10000:e0:06.0 PCI bridge: Intel Corporation Device a74d\n\
                   \tLnkCap:\tPort #5, Speed 16GT/s, Width x4\n\
                   \tLnkSta:\tSpeed 8GT/s, Width x4\n\
                   10000:e2:00.0 Non-Volatile memory controller: X\n\
                   \tLnkCap:\tPort #0, Speed 8GT/s, Width x4\n\
                   \tLnkSta:\tSpeed 8GT/s, Width x4\n\
                   100000000:e3:00.0 Non-Volatile memory controller: Y\n";
    let d = parse(vmd);
    assert_eq!(d.len(), 2);
    assert_eq!(d[1].address, "10000:e2:00.0");
    assert_eq!((d[1].sta_gts, d[1].cap_gts), (Some(8.0), Some(8.0)));
    assert_eq!((d[0].sta_gts, d[0].cap_gts), (Some(8.0), Some(16.0)));
    assert_eq!(parse("\u{0}\u{1}LnkSta:,,,,Speed").len(), 0);
}

#[test]
fn the_port_above_a_device_is_the_nearest_bridge_whose_buses_hold_it() {
    // A CM4's lspci -vv: the BCM2711 root port (00:00.0, one lane at 5 GT/s) above the NVMe
    // drive at 01:00.0; a switch's ports nest inside the root port's range.
    let t = "00:00.0 PCI bridge: Broadcom Inc. and subsidiaries BCM2711 PCIe Bridge (rev 10) (prog-if 00 [Normal decode])\n\
             \tBus: primary=00, secondary=01, subordinate=01, sec-latency=0\n\
             \t\tLnkCap:\tPort #0, Speed 5GT/s, Width x1, ASPM L0s L1, Exit Latency L0s <2us\n\
             \t\tLnkSta:\tSpeed 5GT/s, Width x1\n\
             01:00.0 Non-Volatile memory controller: SK hynix Device 174a (prog-if 02 [NVM Express])\n\
             \t\tLnkCap:\tPort #0, Speed 8GT/s, Width x4, ASPM L1, Exit Latency L1 <64us\n\
             \t\tLnkSta:\tSpeed 5GT/s (downgraded), Width x1 (downgraded)\n";
    let d = parse(t);
    assert_eq!(d[0].buses_behind, Some((1, 1)));
    let port = port_above(&d, &d[1]).map(|p| p.address.as_str());
    assert_eq!(port, Some("00:00.0"));
    let nested = "00:1c.0 PCI bridge: root\n\tBus: primary=00, secondary=02, subordinate=3a, sec-latency=0\n\
                  \t\tLnkCap:\tPort #1, Speed 8GT/s, Width x4\n\
                  03:01.0 PCI bridge: switch down\n\tBus: primary=02, secondary=04, subordinate=04, sec-latency=0\n\
                  \t\tLnkCap:\tPort #1, Speed 8GT/s, Width x1\n\
                  04:00.0 Non-Volatile memory controller: X\n\
                  \t\tLnkCap:\tPort #0, Speed 8GT/s, Width x4\n";
    let n = parse(nested);
    assert_eq!(
        port_above(&n, &n[2]).map(|p| p.address.as_str()),
        Some("03:01.0")
    );
    // Near misses: a bridge of another domain, a bus outside the range, no Bus line.
    let other = "0001:00:00.0 PCI bridge: x\n\tBus: primary=00, secondary=01, subordinate=01, sec-latency=0\n\
                 \t\tLnkCap:\tPort #0, Speed 8GT/s, Width x1\n\
                 00:02.0 PCI bridge: y\n\tBus: primary=00, secondary=05, subordinate=06, sec-latency=0\n\
                 \t\tLnkCap:\tPort #0, Speed 8GT/s, Width x1\n\
                 01:00.0 Non-Volatile memory controller: X\n\
                 \t\tLnkCap:\tPort #0, Speed 8GT/s, Width x4\n";
    let o = parse(other);
    assert_eq!(port_above(&o, &o[2]), None);
    assert_eq!(bus_range("00, secondary=zz, subordinate=01"), None);
    assert_eq!(bus_range("00, secondary=05, subordinate=01"), None);
}
