//! A USB disk's path in the kernel log: a drive that dropped off after a reset, the 2.6
//! hub's speed words, usb-storage's bus address, and resets behind a vendor CPU field.

use super::*;

/// DietPi issue 6071 (a Raspberry Pi's USB drive, dwc_otg): a high-speed reset, then a
/// WRITE failing with NOT READY / ASC 0x3a (medium not present) and the block layer's I/O
/// error: the drive left the bus, a path event, not a medium's.
const DROPPED: &str = "\
Jan 20 11:30:34 redspi.local kernel: usb 1-1.4: reset high-speed USB device number 5 using dwc_otg
Jan 20 11:31:37 redspi.local kernel: sd 1:0:0:0: [sdb] tag#0 UNKNOWN(0x2003) Result: hostbyte=0x00 driverbyte=DRIVER_OK cmd_age=94s
Jan 20 11:31:37 redspi.local kernel: sd 1:0:0:0: [sdb] tag#0 Sense Key : 0x2 [current]
Jan 20 11:31:37 redspi.local kernel: sd 1:0:0:0: [sdb] tag#0 ASC=0x3a ASCQ=0x0
Jan 20 11:31:37 redspi.local kernel: sd 1:0:0:0: [sdb] tag#0 CDB: opcode=0x2a 2a 00 73 af 42 78 00 00 08 00
Jan 20 11:31:37 redspi.local kernel: blk_update_request: I/O error, dev sdb, sector 1940865656 op 0x1:(WRITE) flags 0x800 phys_seg 1 prio class 0
";

#[test]
fn medium_not_present_after_a_reset_is_the_path() {
    let ev = events_for("sdb", DROPPED, "cmd:dmesg");
    assert!(
        ev.iter()
            .any(|e| e.kind == KernelEventKind::TransportError
                && e.line.ends_with("ASC=0x3a ASCQ=0x0")),
        "{ev:?}"
    );
    assert!(!ev.iter().any(|e| e.kind == KernelEventKind::MediumError));
    // The decoded form of the same sense counts the same.
    let decoded = DROPPED.replace("ASC=0x3a ASCQ=0x0", "Add. Sense: Medium not present");
    let ev = events_for("sdb", &decoded, "cmd:dmesg");
    assert!(
        ev.iter().any(|e| e.kind == KernelEventKind::TransportError),
        "{ev:?}"
    );
}

#[test]
fn medium_not_present_of_a_card_reader_or_without_a_reset_cancels_the_io_error() {
    // No reset before it: an ejected medium's answer, the I/O error it explains goes.
    let no_reset: String = DROPPED.lines().skip(1).map(|l| format!("{l}\n")).collect();
    let ev = events_for("sdb", &no_reset, "cmd:dmesg");
    assert!(ev.is_empty(), "{ev:?}");
    // A removable-media device (a card reader's empty slot) after a reset: the same.
    let reader = format!(
        "{DROPPED}Jan 20 11:31:38 redspi.local kernel: sd 1:0:0:0: [sdb] Attached SCSI removable disk\n"
    );
    let ev = events_for("sdb", &reader, "cmd:dmesg");
    assert!(
        !ev.iter().any(|e| e.kind == KernelEventKind::TransportError),
        "{ev:?}"
    );
}

/// An OpenWrt router's 2.6.19 log (wl500g.info thread 9858): the hub's "new high speed USB
/// device using ehci_hcd and address 4" and usb-storage's "device found at 4" name the
/// disk's USB device and its link speed.
#[test]
fn a_2_6_log_names_the_usb_device_by_its_address_and_speed() {
    let log = "usb 3-2: new high speed USB device using ehci_hcd and address 4\n\
               usb 3-2: configuration #1 chosen from 1 choice\n\
               scsi2 : SCSI emulation for USB Mass Storage devices\n\
               usb-storage: device found at 4\n";
    assert_eq!(usb_storage_device_by_address(log).as_deref(), Some("3-2"));
    assert_eq!(usb_link_speed_of("3-2", log), Some(480.0));
    assert_eq!(
        usb_link_speed_of(
            "1-1",
            "usb 1-1: new full speed USB device using uhci_hcd and address 2"
        ),
        Some(12.0)
    );
    // Two devices at the same address on two buses: no guess.
    let two = format!("{log}usb 1-1: new full speed USB device using uhci_hcd and address 4\n");
    assert_eq!(usb_storage_device_by_address(&two), None);
    assert_eq!(
        usb_storage_device_by_address(
            "usb 3-2: new high speed USB device using ehci_hcd and address 4\n"
        ),
        None
    );
}

/// DietPi issue 487 (ODROID XU4, Exynos kernel with its "[c0]" CPU field): a WD Elements
/// reset twice on SuperSpeed, with xHCI's drop-endpoint warnings of the reset between.
#[test]
fn repeated_superspeed_resets_behind_a_cpu_field_are_link_failures() {
    let log = "[ 1394.012800] [c0] usb 4-1.2: reset SuperSpeed USB device number 3 using xhci-hcd\n\
               [ 1394.027708] [c0] xhci-hcd xhci-hcd.2.auto: xHCI xhci_drop_endpoint called with disabled ep dd9fad80\n\
               [ 1479.052776] [c0] usb 4-1.2: reset SuperSpeed USB device number 3 using xhci-hcd\n";
    let ev = usb_link_failures(log, "cmd:dmesg", false);
    assert_eq!(ev.len(), 2, "{ev:?}");
    assert!(ev.iter().all(|e| e.kind == KernelEventKind::LinkReset));
    // One reset is a probe's.
    let one: String = log.lines().take(2).map(|l| format!("{l}\n")).collect();
    assert!(usb_link_failures(&one, "cmd:dmesg", false).is_empty());
    // 2.6's wording of a reset counts too.
    let old = "usb 3-2: reset high speed USB device using ehci_hcd and address 4\n\
               usb 3-2: reset high speed USB device using ehci_hcd and address 4\n";
    assert_eq!(usb_link_failures(old, "cmd:dmesg", false).len(), 2);
}

/// LKML 2023-01 (OWC Elite Pro Dual on EHCI): the hub driver's word that the bridge's UAS
/// is ignored names the device; another device's line does not.
#[test]
fn uas_ignored_names_its_device() {
    let log = "> usb 2-1.3: UAS is ignored for this device, using usb-storage instead\n\
               > usb-storage 2-1.3:1.0: USB Mass Storage device detected\n";
    assert!(uas_ignored("2-1.3", log));
    assert!(!uas_ignored("2-1", log));
    assert!(!uas_ignored("1-1.3", log));
}

/// LKML 2024-05 (a Kingston DataTraveler G2 resetting in a loop under 6.9): the hub's
/// resets of the disk's own USB device are the disk's link failing; the product string
/// of a morihaya.tech RHEL 7 log ("External USB 3.0") is the device's.
#[test]
fn resets_of_the_disks_usb_device_and_its_product_are_its_own() {
    let log = "usb 1-1.3: new high-speed USB device number 4 using ehci-pci\n\
               usb 1-1.3: Product: DataTraveler G2\n\
               scsi host6: usb-storage 1-1.3:1.0\n\
               sd 6:0:0:0: [sdb] Attached SCSI removable disk\n\
               usb 1-1.3: reset high-speed USB device number 4 using ehci-pci\n\
               usb 1-1.3: reset high-speed USB device number 4 using ehci-pci\n\
               usb 1-1.4: reset high-speed USB device number 5 using ehci-pci\n\
               usb 1-1.4: reset high-speed USB device number 5 using ehci-pci\n";
    let ev = usb_device_resets("sdb", log, "cmd:dmesg");
    assert_eq!(ev.len(), 2, "{ev:?}");
    assert!(ev.iter().all(|e| e.line.starts_with("usb 1-1.3: reset")));
    assert_eq!(
        usb_product_of("1-1.3", log).as_deref(),
        Some("DataTraveler G2")
    );
    // One reset (the probe's) is none; a disk the log ties to no USB device has none.
    let once: String = log.lines().take(5).map(|l| format!("{l}\n")).collect();
    assert!(usb_device_resets("sdb", &once, "cmd:dmesg").is_empty());
    assert!(usb_device_resets("sdc", log, "cmd:dmesg").is_empty());
}

#[test]
fn a_usb_line_is_on_the_disks_path_by_bus_port_path_not_device_number() {
    let reset = "usb 1-9: reset full-speed USB device number 5 using xhci_hcd";
    assert!(!usb_line_on_path(reset, "2-4"));
    assert!(usb_line_on_path(reset, "1-9"));
    // A hub above the disk, and the bus's root hub, carry it; a sibling port does not.
    assert!(usb_line_on_path(
        "usb 1-1: USB disconnect, device number 2",
        "1-1.3"
    ));
    assert!(usb_line_on_path(
        "usb usb2: root hub lost power or was reset",
        "2-4"
    ));
    assert!(!usb_line_on_path(
        "usb 1-1.4: USB disconnect, device number 7",
        "1-1.3"
    ));
    assert!(!usb_line_on_path(
        "usb 1-10: USB disconnect, device number 7",
        "1-1"
    ));
    // A line that names no USB device is the caller's to judge.
    assert!(usb_line_on_path(
        "xhci_hcd 0000:00:14.0: HC died; cleaning up",
        "2-4"
    ));
}

/// storaged-project/udisks issue 244 (Fedora 26): a USB stick pulled while the page cache
/// was still flushing a copy to it. The write queued at the disconnect fails with
/// DID_NO_CONNECT: the unplug being logged, no fault of the stick.
const PULLED: &str = "\
Apr 19 21:58:03 f26h.localdomain kernel: usb 3-1: USB disconnect, device number 6
Apr 19 21:58:03 f26h.localdomain kernel: sd 2:0:0:0: [sda] tag#0 FAILED Result: hostbyte=DID_NO_CONNECT driverbyte=DRIVER_OK
Apr 19 21:58:03 f26h.localdomain kernel: sd 2:0:0:0: [sda] tag#0 CDB: Write(10) 2a 00 00 0a 80 e8 00 00 f0 00
Apr 19 21:58:03 f26h.localdomain kernel: blk_update_request: I/O error, dev sda, sector 688360
Apr 19 21:58:04 f26h.localdomain kernel: FAT-fs (sda1): unable to read boot sector to mark fs as dirty
";

#[test]
fn errors_after_the_disk_s_own_removal_are_the_unplug() {
    assert!(events_for("sda", PULLED, "k").is_empty());
    // The log naming the disk's USB device: its own disconnect, whatever the host byte.
    let own = format!(
        "[ 1.0] scsi host2: usb-storage 3-1:1.0\n{}",
        PULLED.replace("DID_NO_CONNECT", "DID_ERROR")
    );
    assert!(events_for("sda", &own, "k").is_empty());
}

#[test]
fn errors_before_a_disconnect_or_beside_a_failing_host_stay() {
    // Near miss: the errors came first, the disconnect after them (the device dropped off).
    let lines: Vec<&str> = PULLED.lines().collect();
    let after = format!("{}\n{}\n{}\n", lines[1], lines[3], lines[0]);
    assert_eq!(events_for("sda", &after, "k").len(), 2);
    // Another device's disconnect, when the log names the disk's own device.
    let other = format!("[ 1.0] scsi host2: usb-storage 2-4:1.0\n{PULLED}");
    assert_eq!(events_for("sda", &other, "k").len(), 2);
    // Unknown device and a host byte that says nothing of a removal (DID_ERROR).
    assert_eq!(
        events_for("sda", &PULLED.replace("DID_NO_CONNECT", "DID_ERROR"), "k").len(),
        2
    );
    // The host controller complaining beside the disconnect (openwrt issue 15536, xhci-mtk).
    let host = PULLED.replacen(
        "\n",
        "\n[ 2.0] xhci-mtk 11200000.usb: WARN Set TR Deq Ptr cmd failed due to incorrect slot or ep state.\n",
        1,
    );
    assert_eq!(events_for("sda", &host, "k").len(), 2);
    // The host controller dying before it (dietpi issue 3039's "HC died; cleaning up").
    let died = format!("[ 0.5] xhci_hcd 0000:01:00.0: HC died; cleaning up\n{PULLED}");
    assert_eq!(events_for("sda", &died, "k").len(), 2);
    // A reset of the link before the disconnect: a device dropping off, not an unplug.
    let reset =
        format!("[ 0.5] usb 3-1: reset high-speed USB device number 6 using xhci_hcd\n{PULLED}");
    assert_eq!(events_for("sda", &reset, "k").len(), 2);
    // The device back again: errors after its new attach are a new device's.
    let back = format!(
        "{PULLED}[ 9.0] usb 3-1: new high-speed USB device number 7 using xhci_hcd\n\
         [ 9.5] blk_update_request: I/O error, dev sda, sector 8\n"
    );
    assert_eq!(events_for("sda", &back, "k").len(), 1);
}
