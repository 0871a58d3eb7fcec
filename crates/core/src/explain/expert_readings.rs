//! Pastes read as the expert in a thread would, each a synthetic variant of a class the
//! first-sight corpus showed (other disks, other numbers, other prefixes than the posts):
//! what must be raised at notice or above, and what must stay quiet.

use super::{Explanation, Input, explain};
use crate::checks::{Severity, Verdict};
use std::collections::BTreeSet;

fn run(text: &str) -> Explanation {
    explain(&[Input {
        label: "t".into(),
        bytes: text.as_bytes().to_vec(),
    }])
    .unwrap_or_else(|e| panic!("{e:?}\n{text}"))
}

/// The checks with a problem at notice or above (the corpus's strict rule).
fn problems(text: &str) -> BTreeSet<String> {
    run(text)
        .findings
        .iter()
        .filter(|f| f.verdict == Verdict::Problem && f.severity >= Severity::Notice)
        .map(|f| f.check.to_string())
        .collect()
}

fn has(text: &str, id: &str) -> bool {
    problems(text).contains(id)
}

#[test]
fn a_sata3_drive_at_300_mbps_behind_a_port_of_unknown_generation_is_not_a_problem() {
    // Boot-log attach lines alone: the drive says SATA 3.x, the link runs SATA 2.x, and
    // nothing names the port's generation; two different drive families, one of them
    // behind a syslog prefix.
    let bare = "ada2 at ahcich4 bus 0 scbus4 target 0 lun 0\n\
                ada2: <TOSHIBA DT01ACA300 MX6OABB0> ATA8-ACS SATA 3.x device\n\
                ada2: Serial Number 12345ABCDE\n\
                ada2: 300.000MB/s transfers (SATA 2.x, UDMA6, PIO 8192bytes)\n\
                ada2: Command Queueing enabled\n\
                ada2: 2861588MB (5860533168 512 byte sectors)\n";
    assert!(!has(bare, "sata-link-below-max"), "{:?}", problems(bare));
    let syslog = "Mar  3 10:11:12 nas kernel: ada5: <WDC WD60EFAX-68SHWN0 82.00A82> ACS-3 ATA SATA 3.x device\n\
                  Mar  3 10:11:12 nas kernel: ada5: 300.000MB/s transfers (SATA 2.x, UDMA6, PIO 8192bytes)\n\
                  Mar  3 10:11:12 nas kernel: ada5: 5723166MB (11721045168 512 byte sectors)\n";
    assert!(
        !has(syslog, "sata-link-below-max"),
        "{:?}",
        problems(syslog)
    );
}

#[test]
fn a_sata3_port_or_a_sata1_link_still_proves_a_slow_link() {
    // The controller's line says its ports run 6 Gbps: the 3 Gb/s link is below both.
    let port = "ahci0: <Intel Cougar Point AHCI SATA controller> port 0xf070-0xf077 mem 0xf7d05000-0xf7d057ff irq 19 at device 31.2 on pci0\n\
                ahci0: AHCI v1.30 with 6 6Gbps ports, Port Multiplier not supported\n\
                ahcich3: <AHCI channel> at channel 3 on ahci0\n\
                ada2 at ahcich3 bus 0 scbus3 target 0 lun 0\n\
                ada2: <TOSHIBA DT01ACA300 MX6OABB0> ATA8-ACS SATA 3.x device\n\
                ada2: 300.000MB/s transfers (SATA 2.x, UDMA6, PIO 8192bytes)\n";
    assert!(has(port, "sata-link-below-max"), "{:?}", problems(port));
    // 1.5 Gb/s caps any disk of the last fifteen years, port known or not.
    let sata1 = "ada1: <ST2000DM008-2FR102 0001> ACS-3 ATA SATA 3.x device\n\
                 ada1: 150.000MB/s transfers (SATA 1.x, UDMA6, PIO 8192bytes)\n\
                 ada1: 1907729MB (3907029168 512 byte sectors)\n";
    assert!(has(sata1, "sata-link-below-max"), "{:?}", problems(sata1));
}

#[test]
fn a_geli_record_cut_before_its_consumers_still_sits_on_a_disk() {
    // Two records quoted without their Providers/Consumers sections, indented: the geom
    // name is the consumer's plus ".eli" (g_eli.c), so the layers are on disks.
    let software = "  Geom name: ada3p4.eli\n  State: ACTIVE\n  EncryptionAlgorithm: AES-CBC\n  \
                    KeyLength: 128\n  Crypto: software\n  Version: 6\n\n  \
                    Geom name: label/backup.eli\n  State: ACTIVE\n  EncryptionAlgorithm: AES-XTS\n  \
                    KeyLength: 256\n  Crypto: software\n  Version: 7\n";
    let ex = run(software);
    let enc: Vec<_> = ex
        .findings
        .iter()
        .filter(|f| f.check == "encryption-layer" && f.verdict == Verdict::Problem)
        .collect();
    assert!(
        enc.iter()
            .any(|f| f.device == "ada3" && f.severity >= Severity::Notice),
        "{enc:#?}"
    );
}

#[test]
fn a_timed_out_command_with_only_commwake_in_serror_is_link_power_management() {
    // The drive signalled COMWAKE (SError bit 18) on a frozen port with no damaged frame:
    // it was in a link power state; the port then cannot be reset.
    let log = "[  811.402113] ata3.00: exception Emask 0x0 SAct 0x0 SErr 0x40000 action 0x6 frozen\n\
               [  811.402118] ata3: SError: { CommWake }\n\
               [  811.402121] ata3.00: failed command: FLUSH CACHE EXT\n\
               [  811.402125] ata3.00: cmd ea/00:00:00:00:00/00:00:00:00:00/a0 tag 7\n\
               [  811.402125]          res 40/00:00:00:4f:c2/00:00:00:00:00/00 Emask 0x4 (timeout)\n\
               [  811.402128] ata3.00: status: { DRDY }\n\
               [  811.402131] ata3: hard resetting link\n\
               [  821.766540] ata3: COMRESET failed (errno=-16)\n";
    assert!(has(log, "power-management"), "{:?}", problems(log));
    // A CRC error beside it is damage on the wire, and an ATA bus error (Emask 0x10) a
    // transport fault the host flagged: neither is a power state.
    let crc = log.replace("SErr 0x40000", "SErr 0x240000");
    assert!(!has(&crc, "power-management"), "{:?}", problems(&crc));
    let bus = log.replace("Emask 0x0 SAct", "Emask 0x10 SAct");
    assert!(!has(&bus, "power-management"), "{:?}", problems(&bus));
}

#[test]
fn a_smartd_mail_of_a_growing_ata_error_log_is_a_drive_failing_commands() {
    // smartd's ErrorCount mail (smartd.cpp ATACheckDevice): another disk, other counts.
    let mail = "This message was generated by the smartd daemon running on:\n\n\
                \x20  host name:  files\n\n\
                The following warning/error was logged by the smartd daemon:\n\n\
                Device: /dev/sdc [SAT], ATA error count increased from 7 to 19\n\n\
                Device info:\n\
                ST3000DM001-1CH166, S/N:Z1F0ABCD, WWN:5-000c50-0abcdef12, FW:CC27, 3.00 TB\n";
    assert!(has(mail, "media-errors"), "{:?}", problems(mail));
    // An opened device and its identity alone say nothing.
    let quiet = "Device: /dev/sdc [SAT], opened\n\
                 Device: /dev/sdc [SAT], ST3000DM001-1CH166, S/N:Z1F0ABCD, FW:CC27, 3.00 TB\n\
                 Device: /dev/sdc [SAT], is SMART capable. Adding to \"monitor\" list.\n";
    assert!(problems(quiet).is_empty(), "{:?}", problems(quiet));
    // One more entry on a long-grown log: the count alone says nothing new.
    let one_more = "Device: /dev/sdb [SAT], ATA error count increased from 130 to 131\n";
    assert!(problems(one_more).is_empty(), "{:?}", problems(one_more));
}

#[test]
fn an_sd_cards_block_layer_errors_and_a_wrapped_ide_error_register_are_read() {
    // The block layer names an SD card by a disk name that ends in a digit.
    let sd = "[    2.104281] I/O error, dev mmcblk1, sector 2048 op 0x0:(READ) flags 0x80700 phys_seg 1 prio class 2\n\
              [    2.104310] Buffer I/O error on dev mmcblk1p1, logical block 0, async page read\n\
              [    2.118002] I/O error, dev mmcblk1, sector 2048 op 0x0:(READ) flags 0x0 phys_seg 1 prio class 2\n";
    assert!(has(sd, "media-errors"), "{:?}", problems(sd));
    // The old IDE driver's decoded names wrapped onto a line of their own by a mail client.
    let ide = "Feb  2 10:01:02 box kernel: hdc: dma_intr: status=0x51\n\
               { DriveReady SeekComplete Error }\n\
               Feb  2 10:01:02 box kernel: hdc: dma_intr: error=0x40\n\
               { UncorrectableError }, LBAsect=1234567, sector=1234560\n\
               Feb  2 10:01:02 box kernel: end_request: I/O error, dev 16:00\n";
    assert!(has(ide, "media-errors"), "{:?}", problems(ide));
}

#[test]
fn ahci_on_a_function_the_firmware_left_in_ide_class_is_not_legacy_mode() {
    // FreeBSD ahci(4) attached to an AMD SB7x0/Hudson function whose class says IDE.
    let t = "ahci0: <ATI IXP700 AHCI SATA controller> port 0xa000-0xa007 mem 0xfe6ff800-0xfe6ffbff irq 22 at device 17.0 on pci0\n\
             ahci0: AHCI v1.10 with 4 3Gbps ports, Port Multiplier supported\n\
             ahcich0: <AHCI channel> at channel 0 on ahci0\n\
             ada0 at ahcich0 bus 0 scbus0 target 0 lun 0\n\
             ada0: <WDC WD10EZEX-08WN4A0 01.01A01> ACS-3 ATA SATA 3.x device\n\
             ada0: 300.000MB/s transfers (SATA 2.x, UDMA6, PIO 8192bytes)\n\
             ada0: Command Queueing enabled\n\
             ahci0@pci0:0:17:0:\tclass=0x01018f rev=0x00 hdr=0x00 vendor=0x1002 device=0x4390\n\
             \x20   vendor     = 'Advanced Micro Devices, Inc. [AMD/ATI]'\n\
             \x20   device     = 'SB7x0/SB8x0/SB9x0 SATA Controller [IDE mode]'\n\
             \x20   class      = mass storage\n\
             \x20   subclass   = ATA\n";
    assert!(!has(t, "controller-legacy-mode"), "{:?}", problems(t));
}

#[test]
fn smartctl_asking_for_a_device_type_behind_an_unknown_usb_bridge_is_a_notice() {
    // A UAS bridge on a SuperSpeed link is healthy as far as USB goes; smartctl not knowing
    // it (drivedb.h has no entry) leaves the drive's SMART unread unless told `-d sat`.
    let lsusb = "/:  Bus 02.Port 1: Dev 1, Class=root_hub, Driver=xhci_hcd/4p, 5000M\n    \
                 |__ Port 1: Dev 2, If 0, Class=Mass Storage, Driver=uas, 5000M\n\n";
    let unknown = "# smartctl -a /dev/sdb\n\
                   smartctl 7.2 2020-12-30 r5155 [x86_64-linux-5.15.0-91-generic] (local build)\n\
                   Copyright (C) 2002-20, Bruce Allen, Christian Franke, www.smartmontools.org\n\n\
                   /dev/sdb: Unknown USB bridge [0x174c:0x55aa (0x100)]\n\
                   Please specify device type with the -d option.\n\n\
                   Use smartctl -h to get a usage summary\n";
    let text = format!("{lsusb}{unknown}");
    assert!(
        has(&text, "virtual-or-bridged-device"),
        "{:?}",
        problems(&text)
    );
    // Near miss: the same bridge read with `-d sat` and no "Unknown USB bridge" line.
    let sat = "# smartctl -d sat -i /dev/sdb\n\
               smartctl 7.2 2020-12-30 r5155 [x86_64-linux-5.15.0-91-generic] (local build)\n\
               Copyright (C) 2002-20, Bruce Allen, Christian Franke, www.smartmontools.org\n\n\
               === START OF INFORMATION SECTION ===\n\
               Device Model:     ST4000DM004-2CV104\n\
               User Capacity:    4,000,787,030,016 bytes [4.00 TB]\n\
               Sector Sizes:     512 bytes logical, 4096 bytes physical\n\
               Rotation Rate:    5425 rpm\n";
    let text = format!("{lsusb}{sat}");
    assert!(
        !has(&text, "virtual-or-bridged-device"),
        "{:?}",
        problems(&text)
    );
}

#[test]
fn registers_missing_on_a_raspberry_pi_is_a_usb_bridge_not_elsewhere() {
    let report = |platform: &str| {
        format!(
            "smartctl 7.3 2022-02-28 r5338 [{platform}] (local build)\n\
             Copyright (C) 2002-22, Bruce Allen, Christian Franke, www.smartmontools.org\n\n\
             === START OF INFORMATION SECTION ===\n\
             Device Model:     Samsung SSD 870 EVO 1TB\n\
             User Capacity:    1,000,204,886,016 bytes [1.00 TB]\n\
             Sector Size:      512 bytes logical/physical\n\
             Rotation Rate:    Solid State Device\n\
             SMART support is: Enabled\n\n\
             === START OF READ SMART DATA SECTION ===\n\
             SMART Status not supported: Incomplete response, ATA output registers missing\n\
             SMART overall-health self-assessment test result: PASSED\n\
             Warning: This result is based on an Attribute check.\n"
        )
    };
    let pi = report("aarch64-linux-6.6.31+rpt-rpi-v8");
    assert!(has(&pi, "virtual-or-bridged-device"), "{:?}", problems(&pi));
    // A PC's kernel: the translator could as well be a SAS HBA's or a RAID controller's.
    let pc = report("x86_64-linux-6.6.51-1-lts");
    assert!(
        !has(&pc, "virtual-or-bridged-device"),
        "{:?}",
        problems(&pc)
    );
}

#[test]
fn a_usb_nvme_bridge_refusing_its_own_smartctl_type_is_a_notice() {
    let refused = "$ sudo smartctl -a -d sntjmicron /dev/sdc\n\
                   smartctl 7.4 2023-08-01 r5530 [x86_64-linux-6.8.0-40-generic] (local build)\n\
                   Copyright (C) 2002-23, Bruce Allen, Christian Franke, www.smartmontools.org\n\n\
                   Read NVMe Identify Controller failed: scsi error unsupported scsi opcode\n";
    assert!(
        has(refused, "virtual-or-bridged-device"),
        "{:?}",
        problems(refused)
    );
    // Near miss: a native NVMe drive failing the command answers with an NVMe status.
    let native = refused
        .replace("-d sntjmicron /dev/sdc", "/dev/nvme0")
        .replace(
            "scsi error unsupported scsi opcode",
            "NVMe Status 0x4002 (Invalid Field in Command)",
        );
    assert!(
        !has(&native, "virtual-or-bridged-device"),
        "{:?}",
        problems(&native)
    );
}

#[test]
fn hdparm_sense_it_cannot_read_is_no_bridge_when_the_same_disk_answers_later() {
    // hdparm reads only descriptor-format sense; a fixed-format answer (f0 ... 00 1d, "ATA
    // PASS-THROUGH INFORMATION AVAILABLE") once, and a decoded state on the same disk in
    // another run of the paste: the path carries the command, no bridge is shown.
    let failed = "# hdparm -C /dev/sdb\n\n/dev/sdb:\n\
                  SG_IO: bad/missing sense data, sb[]:  f0 00 01 00 50 00 00 0a 00 00 00 00 00 1d 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00\n \
                  drive state is:  unknown\n";
    let later = format!("{failed}\n# hdparm -C /dev/sdb\n\n/dev/sdb:\n drive state is:  standby\n");
    assert!(
        !has(&later, "virtual-or-bridged-device"),
        "{:?}",
        problems(&later)
    );
    // Another disk answering does not speak for this one.
    let other = format!("{failed}\n# hdparm -C /dev/sdc\n\n/dev/sdc:\n drive state is:  standby\n");
    assert!(
        has(&other, "virtual-or-bridged-device"),
        "{:?}",
        problems(&other)
    );
}

#[test]
fn a_usb3_bridge_chip_by_its_usb_id_on_a_high_speed_link_is_a_notice() {
    // The enclosure's product string names no USB generation; the bridge chip's ID does
    // (an ASMedia ASM2362 USB-NVMe bridge is a USB 3.2 Gen 2 device).
    let log = |id: &str| {
        format!(
            "[   88.100000] usb 2-1: new high-speed USB device number 5 using xhci_hcd\n\
             [   88.250000] usb 2-1: New USB device found, idVendor={id}, bcdDevice= 1.00\n\
             [   88.250010] usb 2-1: Product: Portable SSD\n\
             [   88.260000] usb-storage 2-1:1.0: USB Mass Storage device detected\n\
             [   88.260500] scsi host3: usb-storage 2-1:1.0\n\
             [   89.300000] scsi 3:0:0:0: Direct-Access     KINGSTON SNV2S1000G       0    PQ: 0 ANSI: 6\n\
             [   89.310000] sd 3:0:0:0: [sdc] 1953525168 512-byte logical blocks: (1.00 TB/932 GiB)\n\
             [   89.320000] sd 3:0:0:0: [sdc] Attached SCSI disk\n"
        )
    };
    let usb3 = log("174c, idProduct=2362");
    assert!(
        has(&usb3, "virtual-or-bridged-device"),
        "{:?}",
        problems(&usb3)
    );
    // Near miss: a USB 2 bridge chip (JMicron JM20329) at 480M on a USB 2 (EHCI) host
    // gives no more. (On an xHCI host the same fixed disk is held by the USB 2 link:
    // a_fixed_disk_at_high_speed_on_an_xhci_host_is_held_by_usb2.)
    let usb2 = log("152d, idProduct=2329").replace("using xhci_hcd", "using ehci-pci");
    assert!(
        !has(&usb2, "virtual-or-bridged-device"),
        "{:?}",
        problems(&usb2)
    );
}

#[test]
fn reset_timeouts_on_qemus_emulated_ahci_point_at_the_emulator() {
    // A FreeBSD guest on QEMU's q35 (ICH9 AHCI at version 1.00 with 1.5 Gb/s ports,
    // sources::dmesg::Attach::emulator): the polled soft reset of a probe times out on a
    // channel with no disk attached.
    let head = "ahci0: <Intel ICH9 AHCI SATA controller> port 0xc040-0xc05f mem 0xfea1a000-0xfea1afff irq 18 at device 31.2 on pci0\n";
    let caps_qemu = "ahci0: AHCI v1.00 with 6 1.5Gbps ports, Port Multiplier not supported\n";
    let tail = "ahcich4: <AHCI channel> at channel 4 on ahci0\n\
                ahcich4: Poll timeout on slot 3 port 0\n\
                ahcich4: is 00000000 cs 00000008 ss 00000000 rs 00000008 tfd 170 serr 00000000 cmd 0000c317\n\
                (aprobe4:ahcich4:0:0:0): SOFT_RESET. ACB: 00 00 00 00 00 00 00 00 00 00 00 00\n\
                (aprobe4:ahcich4:0:0:0): CAM status: Command timeout\n\
                (aprobe4:ahcich4:0:0:0): Error 5, Retries exhausted\n";
    let qemu = format!("{head}{caps_qemu}{tail}");
    assert!(
        has(&qemu, "virtual-or-bridged-device"),
        "{:?}",
        problems(&qemu)
    );
    assert!(!has(&qemu, "link-errors"), "{:?}", problems(&qemu));
    // Near miss: the same lines on a real ICH9 (AHCI 1.2, 3 Gb/s) are no emulator's.
    let real = qemu.replace(
        caps_qemu,
        "ahci0: AHCI v1.20 with 6 3Gbps ports, Port Multiplier not supported\n",
    );
    assert!(
        !has(&real, "virtual-or-bridged-device"),
        "{:?}",
        problems(&real)
    );
    // Near miss: QEMU's AHCI with a disk that attached and no timeouts stays quiet.
    let healthy = format!(
        "{head}{caps_qemu}ahcich0: <AHCI channel> at channel 0 on ahci0\n\
         ada0 at ahcich0 bus 0 scbus0 target 0 lun 0\n\
         ada0: <QEMU HARDDISK 2.5+> ATA-7 SATA device\n\
         ada0: 150.000MB/s transfers (SATA, UDMA5, PIO 8192bytes)\n\
         ada0: Command Queueing enabled\n\
         ada0: 20480MB (41943040 512 byte sectors)\n"
    );
    assert!(problems(&healthy).is_empty(), "{:?}", problems(&healthy));
}

#[test]
fn resets_of_another_usb_device_are_not_the_usb_disks_link() {
    // A USB disk the log shows by its USB lines only (no "[sdX]"), on device 2-4, and a
    // full-speed device 1-9 (a keyboard or receiver) reset twice: device numbers repeat
    // across buses, so only the bus-port path ties a reset to the disk.
    let log = |reset_dev: &str| {
        format!(
            "[21982.284691] usb {reset_dev}: reset full-speed USB device number 5 using xhci_hcd\n\
             [22490.241976] usb {reset_dev}: reset full-speed USB device number 5 using xhci_hcd\n\
             [22605.332265] usb 2-4: new SuperSpeed USB device number 5 using xhci_hcd\n\
             [22605.348993] usb 2-4: New USB device found, idVendor=1058, idProduct=1230\n\
             [22605.352058] usb-storage 2-4:1.0: USB Mass Storage device detected\n\
             [22605.352301] scsi host5: usb-storage 2-4:1.0\n\
             [22606.352978] scsi 5:0:0:0: Direct-Access     WD       My Book 1230     1050 PQ: 0 ANSI: 6\n\
             [22606.356847] sd 5:0:0:0: Attached scsi generic sg1 type 0\n"
        )
    };
    let failed = |text: &str| {
        run(text)
            .findings
            .iter()
            .any(|f| f.check == "virtual-or-bridged-device" && f.title.contains("failed"))
    };
    assert!(!failed(&log("1-9")), "{:?}", run(&log("1-9")).findings);
    // Near miss: the same resets of the disk's own device are its link failing.
    assert!(failed(&log("2-4")), "{:?}", run(&log("2-4")).findings);
}

#[test]
fn an_m2_bridge_with_provisioning_mode_full_is_an_ssd_without_trim() {
    // usb-storage never reads the provisioning VPD page, so the disk stays at "full" (no
    // discard); the bridge's USB ID (an M.2 bridge, Realtek RTL9210) says it holds an SSD.
    let text = |id: &str| {
        format!(
            "/sys/block/sdf/device/scsi_disk/8:0:0:0/provisioning_mode:full\n\n\
             [  176.009742] usb 1-3: new SuperSpeed USB device number 12 using xhci_hcd\n\
             [  176.155752] usb 1-3: New USB device found, idVendor={id}, bcdDevice=f0.01\n\
             [  176.214591] usb-storage 1-3:1.0: USB Mass Storage device detected\n\
             [  176.214909] scsi host8: usb-storage 1-3:1.0\n\
             [  179.875749] scsi 8:0:0:0: Direct-Access     Samsung   SSD 980 1TB     1.00 PQ: 0 ANSI: 6\n\
             [  179.881878] sd 8:0:0:0: [sdf] 1953525168 512-byte logical blocks: (1.00 TB/932 GiB)\n\
             [  179.959742] sd 8:0:0:0: [sdf] Attached SCSI disk\n"
        )
    };
    let m2 = text("0bda, idProduct=9210");
    assert!(has(&m2, "trim-unavailable"), "{:?}", problems(&m2));
    // Near miss: a USB-SATA bridge (JMicron JMS578) may hold a hard disk: no TRIM verdict.
    let sata = text("152d, idProduct=0578");
    assert!(!has(&sata, "trim-unavailable"), "{:?}", problems(&sata));
}

#[test]
fn a_fixed_disk_at_high_speed_on_an_xhci_host_is_held_by_usb2() {
    // A 2.5-inch hard disk behind a USB bridge, enumerated at high speed by an xHCI host:
    // the link, not the drive, sets its speed (about 30-40 MB/s over Bulk-Only).
    let log = |host: &str, attach: &str| {
        format!(
            "[ 1534.484480] usb 1-1: new high-speed USB device number 2 using {host}\n\
             [ 1534.668601] usb-storage 1-1:1.0: USB Mass Storage device detected\n\
             [ 1534.669105] scsi host0: usb-storage 1-1:1.0\n\
             [ 1535.677484] scsi 0:0:0:0: Direct-Access     WDC WD50 00LPVX-22V0TT0   0009 PQ: 0 ANSI: 0\n\
             [ 1535.697848] sd 0:0:0:0: [sda] 976773168 512-byte logical blocks: (500 GB/466 GiB)\n\
             [ 1535.754037] sd 0:0:0:0: [sda] {attach}\n"
        )
    };
    let xhci = log("xhci_hcd", "Attached SCSI disk");
    assert!(
        has(&xhci, "virtual-or-bridged-device"),
        "{:?}",
        problems(&xhci)
    );
    // Near misses: a USB 2 host (EHCI) offers nothing faster, and a removable stick or
    // card may be slower than USB 2 on its own.
    for quiet in [
        log("ehci-pci", "Attached SCSI disk"),
        log("xhci_hcd", "Attached SCSI removable disk"),
    ] {
        assert!(
            !has(&quiet, "virtual-or-bridged-device"),
            "{:?}\n{quiet}",
            problems(&quiet)
        );
    }
}

#[test]
fn a_usb3_bridge_on_an_xhci_hosts_usb2_bus_in_lsusb_t_is_a_notice() {
    // lsusb-t.c's format and hub.c's announce line, NOT A CAPTURE: the tree places the disk
    // at 1-1.1 on the xHCI host's 480M bus; the log names 1-1.1's ID.
    let paste = |id: &str| {
        format!(
            "$ lsusb -t\n\
             /:  Bus 02.Port 1: Dev 1, Class=root_hub, Driver=xhci_hcd/4p, 5000M\n\
             /:  Bus 01.Port 1: Dev 1, Class=root_hub, Driver=xhci_hcd/1p, 480M\n\
             \x20   |__ Port 1: Dev 2, If 0, Class=Hub, Driver=hub/4p, 480M\n\
             \x20       |__ Port 1: Dev 3, If 0, Class=Mass Storage, Driver=usb-storage, 480M\n\
             \n\
             [    3.205594] usb 1-1.1: new high-speed USB device number 3 using xhci_hcd\n\
             [    3.308632] usb 1-1.1: New USB device found, idVendor={id}, bcdDevice=22.1d\n"
        )
    };
    let usb3 = paste("0bda, idProduct=9210");
    assert!(
        has(&usb3, "virtual-or-bridged-device"),
        "{:?}",
        problems(&usb3)
    );
    // Near miss: a USB 2 bridge (JMicron JM20329) at 480M is what it can do.
    let usb2 = paste("152d, idProduct=2329");
    assert!(
        !has(&usb2, "virtual-or-bridged-device"),
        "{:?}",
        problems(&usb2)
    );
}

#[test]
fn a_disk_bridge_in_lsusb_v_is_recognised() {
    // lsusb.c's dump_device lines, NOT A CAPTURE.
    let bridge = "Device Descriptor:\n\
                  \x20 bLength                18\n\
                  \x20 bcdUSB               3.00\n\
                  \x20 idVendor           0x152d JMicron Technology Corp. / JMicron USA Technology Corp.\n\
                  \x20 idProduct          0x0578 JMS567 SATA 6Gb/s bridge\n\
                  \x20     bInterfaceClass         8 Mass Storage\n\
                  \x20     bInterfaceProtocol     80 Bulk-Only\n";
    assert!(
        has(bridge, "virtual-or-bridged-device"),
        "{:?}",
        problems(bridge)
    );
    // Near miss: a keyboard's descriptors name no disk.
    let keyboard = "Device Descriptor:\n\
                    \x20 bLength                18\n\
                    \x20 bcdUSB               2.00\n\
                    \x20 idVendor           0x046d Logitech, Inc.\n\
                    \x20 idProduct          0xc31c Keyboard K120\n\
                    \x20     bInterfaceClass         3 Human Interface Device\n";
    assert!(
        !has(keyboard, "virtual-or-bridged-device"),
        "{:?}",
        problems(keyboard)
    );
}

#[test]
fn zfs_leaves_that_cannot_be_trimmed() {
    // zpool status -t (zpool_main.c print_status_trim): SSD-named leaves without TRIM.
    let ssd = "  pool: vm\n state: ONLINE\nconfig:\n\n\
               \tNAME          STATE     READ WRITE CKSUM\n\
               \tvm            ONLINE       0     0     0\n\
               \t  mirror-0    ONLINE       0     0     0\n\
               \t    vm-ssd-a  ONLINE       0     0     0  (trim unsupported)\n\
               \t    vm-ssd-b  ONLINE       0     0     0  (trim unsupported)\n\n\
               errors: No known data errors\n";
    assert!(has(ssd, "trim-unavailable"), "{:?}", problems(ssd));
    // Near misses: HDD-named leaves print the same note by design; trimmed leaves.
    let hdd = ssd
        .replace("vm-ssd-a", "bay1-hdd")
        .replace("vm-ssd-b", "bay2-5400");
    assert!(!has(&hdd, "trim-unavailable"), "{:?}", problems(&hdd));
    let trimmed = ssd.replace(
        "(trim unsupported)",
        "(100% trimmed, completed at Sun 01 Mar 2026 04:05:06 AM UTC)",
    );
    assert!(
        !has(&trimmed, "trim-unavailable"),
        "{:?}",
        problems(&trimmed)
    );
    // zpool trim refused for the whole pool (libzfs_pool.c zpool_trim).
    let refused = "NAME                                   STATE     READ WRITE CKSUM\n\
                   data                                   ONLINE       0     0     0\n\
                   \x20 ata-CT1000MX500SSD1_2219E6112233     ONLINE       0     0     0\n\n\
                   # zpool trim data\n\
                   cannot trim: no devices in pool support trim operations\n";
    assert!(has(refused, "trim-unavailable"), "{:?}", problems(refused));
}

#[test]
fn an_nvme_drive_hidden_by_intel_rst_remapping() {
    let log = "[    0.912044] ahci 0000:00:17.0: Found 1 remapped NVMe devices.\n\
               [    0.912415] ahci 0000:00:17.0: Switch your BIOS from RAID to AHCI mode to use them.\n";
    assert!(has(log, "controller-legacy-mode"), "{:?}", problems(log));
    // Near miss: the same controller in AHCI mode.
    let ahci = "[    0.912044] ahci 0000:00:17.0: AHCI 0001.0301 32 slots 2 ports 6 Gbps 0x3 impl SATA mode\n";
    assert!(problems(ahci).is_empty(), "{:?}", problems(ahci));
}

#[test]
fn a_card_reader_that_loses_its_card_after_a_spin_down() {
    let log = "sdd spindown\n\
               disk=sdd command=scsi spunDown=true reads=1201 writes=0 idleTime=300\n\
               [ 3301.551002] sdd: detected capacity change from 124735488 to 0\n\
               [ 3320.101144] sd 6:0:0:0: [sdd] tag#0 access beyond end of device\n\
               [ 3320.101150] I/O error, dev sdd, sector 81920 op 0x0:(READ) flags 0x0 phys_seg 1 prio class 2\n";
    let p = problems(log);
    assert!(p.contains("power-management"), "{p:?}");
    assert!(!p.contains("media-errors"), "{p:?}");
    // Near miss: another disk was spun down; sdd's errors stay media errors.
    let other = log
        .replace("sdd spindown", "sda spindown")
        .replace("disk=sdd", "disk=sda");
    assert!(!has(&other, "power-management"), "{:?}", problems(&other));
}

#[test]
fn a_discard_limit_that_comes_and_goes() {
    let flip = "$ lsblk -D /dev/sdb\n\
                NAME DISC-ALN DISC-GRAN DISC-MAX DISC-ZERO\n\
                sdb         0      512B       0B         0\n\n\
                $ lsblk -D /dev/sdb\n\
                NAME DISC-ALN DISC-GRAN DISC-MAX DISC-ZERO\n\
                sdb         0      512B       2G         0\n";
    assert!(has(flip, "trim-unavailable"), "{:?}", problems(flip));
    // Near miss: the same limit in both listings.
    let same = flip.replace("       0B ", "       2G ");
    assert!(!has(&same, "trim-unavailable"), "{:?}", problems(&same));
}

#[test]
fn a_usb_bridge_link_on_a_raspberry_pi_is_information() {
    let report = |build: &str| {
        format!(
            "smartctl 7.3 2022-02-28 r5338 [{build}] (local build)\n\
             === START OF INFORMATION SECTION ===\n\
             Device Model:     TOSHIBA DT01ACA200\n\
             User Capacity:    2,000,398,934,016 bytes [2.00 TB]\n\
             Rotation Rate:    7200 rpm\n\
             SATA Version is:  SATA 3.0, 6.0 Gb/s (current: 1.5 Gb/s)\n\
             SMART overall-health self-assessment test result: PASSED\n"
        )
    };
    let pi = report("armv7l-linux-5.10.103-v7l+");
    assert!(!has(&pi, "sata-link-below-max"), "{:?}", problems(&pi));
    // Near miss: the same drive on a PC.
    let pc = report("x86_64-linux-6.1.0-18-amd64");
    assert!(has(&pc, "sata-link-below-max"), "{:?}", problems(&pc));
}

#[test]
fn an_ata_disk_at_pio_on_an_udma_controller_has_dma_off() {
    // A FreeBSD boot log of a PATA disk that ata(4) set up for PIO (hw.ata.ata_dma=0, as the
    // boot menu's Safe Mode sets it) on a VIA UDMA133 chipset.
    let log = |mode: &str, std: &str| {
        format!(
            "atapci1: <VIA 8237 UDMA133 controller> port 0x1f0-0x1f7,0x3f6,0x170-0x177,0x376,0xe000-0xe00f at device 15.1 on pci0\n\
             ata0: <ATA channel> at channel 0 on atapci1\n\
             ada1 at ata0 bus 0 scbus1 target 0 lun 0\n\
             ada1: <WDC WD800JB-00JJC0 05.01C05> {std} device\n\
             ada1: {mode}\n\
             ada1: 76319MB (156301488 512 byte sectors)\n"
        )
    };
    let pio = log("16.700MB/s transfers (PIO4, PIO 8192bytes)", "ATA-6");
    assert!(has(&pio, "controller-legacy-mode"), "{:?}", problems(&pio));
    // Near miss: the same disk in Ultra DMA is healthy.
    let udma = log("100.000MB/s transfers (UDMA5, PIO 8192bytes)", "ATA-6");
    assert!(problems(&udma).is_empty(), "{:?}", problems(&udma));
    // Near miss: a drive of ATA-4 or earlier (an old CompactFlash card) may have no DMA.
    let old = log("16.700MB/s transfers (PIO4, PIO 8192bytes)", "ATA-4");
    assert!(problems(&old).is_empty(), "{:?}", problems(&old));
}
