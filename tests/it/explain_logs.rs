//! `diskdoc explain` on log lines and short tool excerpts: syslog, journal and printk wrappers
//! around any tool's lines, each kernel event under the check of its cause, and the
//! smartctl/nvme-cli/hdparm text variants people paste. Every input here is built from the
//! printf formats of the programs (Linux drivers/ata/libata-eh.c, drivers/nvme/host/core.c
//! and pci.c, drivers/usb/storage/uas-detect.h, drivers/pci/pci.c; smartmontools smartd.cpp
//! and nvmeprint.cpp; hdparm sgio.c; check_smart.pl), not copied from the scored corpus.

use std::collections::BTreeSet;

use diskdoc_core::checks::{Severity, Verdict};
use diskdoc_core::explain::{Input, explain};

/// The problem check ids at notice or above, and the recognised tools.
fn run(text: &str) -> (BTreeSet<String>, Vec<String>) {
    let e = explain(&[Input {
        label: "paste".into(),
        bytes: text.as_bytes().to_vec(),
    }])
    .unwrap_or_else(|e| panic!("{e:?} for:\n{text}"));
    let ids = e
        .findings
        .iter()
        .filter(|f| f.verdict == Verdict::Problem && f.severity >= Severity::Notice)
        .map(|f| f.check.clone())
        .collect();
    let tools = e.recognised.iter().map(|r| r.tool.clone()).collect();
    (ids, tools)
}

fn ids(text: &str) -> BTreeSet<String> {
    run(text).0
}

/// The same text as a "> " quoted mail reply.
fn quoted(text: &str) -> String {
    text.lines().map(|l| format!("> {l}\n")).collect()
}

fn set(v: &[&str]) -> BTreeSet<String> {
    v.iter().map(|s| s.to_string()).collect()
}

#[test]
fn kernel_lines_behind_any_log_header_are_read() {
    // A SATA link that drops and is slowed (libata-eh.c / libata-core.c messages), under
    // the headers people paste it with.
    let body = [
        "ata5: exception Emask 0x10 SAct 0x0 SErr 0x4050000 action 0xe frozen",
        "ata5: SError: { PHYRdyChg CommWake DevExch }",
        "ata5: hard resetting link",
        "ata5: SATA link down (SStatus 0 SControl 300)",
        "ata5: limiting SATA link speed to 1.5 Gbps",
        "ata5: hard resetting link",
    ];
    let forms: Vec<(&str, String)> = vec![
        (
            "kernel: alone, indented",
            body.iter().map(|l| format!("    kernel: {l}\n")).collect(),
        ),
        (
            "RFC 3164",
            body.iter()
                .map(|l| format!("Feb 11 08:00:01 nas kernel: {l}\n"))
                .collect(),
        ),
        (
            "RFC 5424",
            body.iter()
                .map(|l| format!("<3>1 2025-02-11T08:00:01.5+01:00 nas kernel - - - {l}\n"))
                .collect(),
        ),
        (
            "RFC 3164 with milliseconds",
            body.iter()
                .map(|l| format!("Dec 17 07:41:00.384 test01 kernel: {l}\n"))
                .collect(),
        ),
        (
            "ISO 8601 (rsyslog's file format, journalctl -o short-iso-precise)",
            body.iter()
                .map(|l| format!("2023-12-17T07:41:00.384123+01:00 nas kernel: {l}\n"))
                .collect(),
        ),
        (
            "journal without host, CRLF",
            body.iter()
                .map(|l| format!("Feb 11 08:00:01 kernel: {l}\r\n"))
                .collect(),
        ),
        (
            "dmesg -T, tabs",
            body.iter()
                .map(|l| format!("[Tue Feb 11 08:00:01 2025]\t{l}\n"))
                .collect(),
        ),
        (
            "printk levels",
            body.iter()
                .map(|l| format!("<4>[  812.000001] {l}\n"))
                .collect(),
        ),
    ];
    for (form, text) in forms {
        for t in [text.clone(), quoted(&text)] {
            let got = ids(&t);
            assert!(got.contains("link-errors"), "{form}: {got:?}\n{t}");
            assert!(!got.contains("media-errors"), "{form}: {got:?}");
        }
    }
}

#[test]
fn other_programs_behind_a_syslog_header_are_their_own_output() {
    // smartctl through logger (a SONiC-style rsyslog template: year, fraction, severity).
    let smart = [
        "smartctl 7.4 2023-08-01 r5530 [x86_64-linux-6.1.0] (local build)",
        "=== START OF INFORMATION SECTION ===",
        "Model Number:                       ACME NV480 480GB",
        "Firmware Version:                   1.0",
        "NVMe Version:                       1.4",
        "Number of Namespaces:               1",
    ];
    let text: String = smart
        .iter()
        .map(|l| format!("2025 Mar  4 10:11:12.000123 sw7 NOTICE admin: {l}\n"))
        .collect();
    let (got, tools) = run(&text);
    assert!(tools.iter().any(|t| t == "smartctl"), "{tools:?}");
    assert!(got.is_empty(), "a healthy report: {got:?}");
    // zpool status stamped line by line by a log viewer: the indentation survives.
    let zpool = "  pool: tank\n state: ONLINE\n  scan: scrub in progress since Sun Mar  2 00:24:01 2025\n\t1.20T / 3.00T scanned at 400M/s, 1.10T / 3.00T issued at 380M/s\n\t0B repaired, 36.67% done, 01:23:45 to go\nconfig:\n\n\tNAME        STATE     READ WRITE CKSUM\n\ttank        ONLINE       0     0     0\n\t  sda       ONLINE       0     0     0\n\nerrors: No known data errors\n";
    let stamped: String = zpool
        .lines()
        .map(|l| format!("Mar  4 10:11:12 {l}\n"))
        .collect();
    let (_, tools) = run(&stamped);
    assert!(tools.iter().any(|t| t == "zpool-status"), "{tools:?}");
}

#[test]
fn smartd_warnings_are_the_drive_s_counters() {
    // smartd.cpp check_pending / ATA_Check, in syslog and in its warning mail.
    for text in [
        "Nov  2 01:02:03 nas smartd[901]: Device: /dev/sdc [SAT], 3 Currently unreadable (pending) sectors\n",
        "2024-11-02T01:02:03+0100 nas smartd[901]: Device: /dev/sdc, 5 Offline uncorrectable sectors\n",
        "This message was generated by the smartd daemon.\n\nThe following warning/error was logged by the smartd daemon: Device: /dev/ada2, 12 Currently unreadable (pending) sectors (changed +4)\n",
    ] {
        for t in [text.to_string(), quoted(text)] {
            assert_eq!(ids(&t), set(&["media-errors"]), "{t}");
        }
    }
    // Its informational lines say nothing is wrong.
    let fine = "Nov  2 01:02:03 nas smartd[901]: Device: /dev/sdc [SAT], opened\nNov  2 01:02:03 nas smartd[901]: Device: /dev/sdc [SAT], is SMART capable. Adding to \"monitor\" list.\n";
    assert!(ids(fine).is_empty());
}

#[test]
fn a_drive_that_fails_its_own_writes_is_media_errors() {
    // libata-eh.c ata_eh_link_report: the "res" half aligned under a journal prefix.
    let mut t = String::new();
    for (tag, lba) in [(3, "10:20:30"), (9, "10:28:30")] {
        t.push_str("Jan  9 10:00:00 box kernel: ata2.00: failed command: WRITE FPDMA QUEUED\n");
        t.push_str(&format!(
            "Jan  9 10:00:00 box kernel: ata2.00: cmd 61/08:18:{lba}/00:00:00:00:00/40 tag {tag} ncq dma 4096 out\n"
        ));
        t.push_str(&format!(
            "                                      res 41/04:08:{lba}/00:00:00:00:00/40 Emask 0x1 (device error)\n"
        ));
        t.push_str("Jan  9 10:00:00 box kernel: ata2.00: status: { DRDY ERR }\n");
        t.push_str("Jan  9 10:00:00 box kernel: ata2.00: error: { ABRT }\n");
    }
    assert_eq!(ids(&t), set(&["media-errors"]));
    // The same refusal of a SET FEATURES is no I/O failure.
    let feature = "ata2.00: cmd ef/05:fe:00:00:00/00:00:00:00:00/40 tag 0\nata2.00: res 51/04:fe:00:00:00/00:00:00:00:00/40 Emask 0x1 (device error)\nata2.00: error: { ABRT }\n";
    assert!(!ids(feature).contains("media-errors"));
}

#[test]
fn nvme_events_go_to_the_check_of_their_cause() {
    // pci.c nvme_timeout and nvme_remove_dead_ctrl: the drive stops answering.
    let gone = "[ 900.1] nvme nvme1: I/O 23 QID 2 timeout, aborting\n[ 930.1] nvme nvme1: I/O 0 QID 0 timeout, reset controller\n[ 960.2] nvme nvme1: Device not ready; aborting reset, CSTS=0x1\n[ 960.3] nvme nvme1: Removing after probe failure status: -19\n[ 960.4] nvme1n1: detected capacity change from 1000204886016 to 0\n";
    assert_eq!(ids(gone), set(&["media-errors"]));
    // nvme_warn_reset's hint after a controller fell off the bus in a power state: the
    // failed requests are the resets', not the medium's.
    let apst = "Mar  9 22:01:00 pi kernel: nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10\nMar  9 22:01:00 pi kernel: nvme nvme0: Does your device have a faulty power saving mode enabled?\nMar  9 22:01:00 pi kernel: nvme nvme0: Try \"nvme_core.default_ps_max_latency_us=0 pcie_aspm=off pcie_port_pm=off\" and report a bug\nMar  9 22:01:01 pi kernel: I/O error, dev nvme0n1, sector 2048 op 0x0:(READ) flags 0x0 phys_seg 1 prio class 2\n";
    assert_eq!(ids(apst), set(&["power-management"]));
    // core.c nvme_log_error with a media status (SCT 2h) is the medium's.
    let unc = "[ 5.0] nvme0n1: Read(0x2) @ LBA 77824, 8 blocks, Unrecovered Read Error (sct 0x2 / sc 0x81) DNR\n";
    assert_eq!(ids(unc), set(&["media-errors"]));
}

#[test]
fn usb_bridges_and_their_links() {
    // uas-detect.h: a host controller without streams sends the disk to usb-storage.
    let bot = "[    2.1] usb 2-1: new SuperSpeed USB device number 2 using xhci-hcd\n[    2.2] usb 2-1: USB controller f1058000.usb3 does not support streams, which are required by the UAS driver.\n[    2.2] usb 2-1: Please try an other USB controller if you wish to use UAS.\n[    2.3] usb-storage 2-1:1.0: USB Mass Storage device detected\n";
    assert_eq!(ids(bot), set(&["virtual-or-bridged-device"]));
    // A UAS bridge's damaged transfers (SPC ASC 47h/03h) and its bus reset: the link's.
    let crc = "[ 70.1] sd 4:0:0:0: [sdd] tag#3 FAILED Result: hostbyte=DID_OK driverbyte=DRIVER_OK cmd_age=0s\n[ 70.1] sd 4:0:0:0: [sdd] tag#3 Sense Key : Aborted Command [current]\n[ 70.1] sd 4:0:0:0: [sdd] tag#3 Add. Sense: Information unit iuCRC error detected\n[ 70.1] I/O error, dev sdd, sector 4096 op 0x1:(WRITE) flags 0x0 phys_seg 8 prio class 0\n";
    let got = ids(crc);
    assert!(
        got.contains("link-errors") && !got.contains("media-errors"),
        "{got:?}"
    );
    // uas(4) taking commands back and resetting the bus: the bridge's link, reported by
    // virtual-or-bridged-device for a disk its uas lines show on USB.
    let reset = "[ 80.0] sd 4:0:0:0: [sdd] tag#1 uas_zap_pending 0 uas-tag 2 inflight: CMD\n[ 80.0] scsi host4: uas_eh_bus_reset_handler start\n[ 80.1] usb 2-1: reset SuperSpeed USB device number 2 using xhci_hcd\n";
    assert_eq!(ids(reset), set(&["virtual-or-bridged-device"]));
}

#[test]
fn the_pci_core_names_a_narrow_nvme_link() {
    // pci.c __pcie_print_link_status for an NVMe function (class 0108h).
    let t = "$ dmesg | grep 0001:01:00.0\n[    1.10] pci 0001:01:00.0: [144d:a80a] type 00 class 0x010802\n[    1.12] pci 0001:01:00.0: 3.938 Gb/s available PCIe bandwidth, limited by 5.0 GT/s PCIe x1 link at 0001:00:00.0 (capable of 63.012 Gb/s with 16.0 GT/s PCIe x4 link)\n";
    assert!(ids(t).contains("pcie-link-limited"), "{:?}", ids(t));
}

#[test]
fn nvme_health_text_variants() {
    // nvme-cli's hex byte in a two-line fragment: bit 1, temperature.
    let got = ids("critical_warning: 0x2\ntemperature: 81 °C\n");
    assert!(
        got.contains("thermal-throttling") || got.contains("nvme-health"),
        "{got:?}"
    );
    // smartctl -H of an NVMe drive: the reason is nvme-health's, not a media error.
    let failed = "# smartctl -H /dev/nvme1\nsmartctl 7.3 2022-02-28 r5338 [x86_64-linux-6.1.0] (local build)\nCopyright (C) 2002-22, Bruce Allen, Christian Franke, www.smartmontools.org\n\n=== START OF SMART DATA SECTION ===\nSMART overall-health self-assessment test result: FAILED!\n- NVM subsystem reliability has been degraded\n";
    assert_eq!(ids(failed), set(&["nvme-health"]));
    // 512 B in use with 4096 B offered at the same relative performance: nothing to fix.
    let same = "=== START OF INFORMATION SECTION ===\nModel Number:                       ACME NV2 512GB\nNamespace 1 Formatted LBA Size:     512\nSupported LBA Sizes (NSID 0x1)\nId Fmt  Data  Metadt  Rel_Perf\n 0 +     512       0         0\n 1 -    4096       0         0\n\n=== START OF SMART DATA SECTION ===\nSMART overall-health self-assessment test result: PASSED\n\nSMART/Health Information (NVMe Log 0x02)\nCritical Warning:                   0x00\nTemperature:                        35 Celsius\nAvailable Spare:                    100%\nAvailable Spare Threshold:          10%\nPercentage Used:                    1%\nMedia and Data Integrity Errors:    0\nError Information Log Entries:      1,024\n";
    assert!(ids(same).is_empty(), "{:?}", ids(same));
    // ... one step of the four-step scale faster (512 B "Good", 4096 B "Better", as WD's
    // client drives report): a remark, not a problem ...
    let one_step = same
        .replace(
            " 1 -    4096       0         0",
            " 1 -    4096       0         1",
        )
        .replace(
            " 0 +     512       0         0",
            " 0 +     512       0         2",
        );
    assert!(ids(&one_step).is_empty(), "{:?}", ids(&one_step));
    // ... and rated two steps faster, it is the notice.
    let better = one_step.replace(
        " 1 -    4096       0         1",
        " 1 -    4096       0         0",
    );
    assert_eq!(ids(&better), set(&["nvme-health"]));
}

#[test]
fn smart_counters_in_summaries_bridges_and_plugins() {
    // A poster's own summary of the attribute table.
    let summary = "SMART overall-health self-assessment test result: PASSED\n\nReallocated_Sector_Ct    val=098 worst=098 thresh=036  raw=312\nCurrent_Pending_Sector   val=100 worst=100 thresh=000  raw=40\n";
    assert_eq!(ids(summary), set(&["media-errors"]));
    // hdparm -I through a bridge that drops ATA pass-through (hdparm sgio.c).
    let hdparm = "# hdparm -I /dev/sdc\n\n/dev/sdc:\nSG_IO: bad/missing sense data, sb[]:  70 00 05 00 00 00 00 0a 00 00 00 00 20 00 00 00\n\nATA device, with non-removable media\nStandards:\n\tLikely used: 1\nConfiguration:\n\tLogical\t\tmax\tcurrent\n\tcylinders\t1234\t0\n\tdevice size with M = 1024*1024:           0 MBytes\nCapabilities:\n\tIORDY not likely\n";
    assert_eq!(ids(hdparm), set(&["virtual-or-bridged-device"]));
    // check_smart.pl's verdict on load cycles past the rating, no power-on hours.
    let plugin = "$ ./check_smart.pl -d /dev/sdb -i auto\nCRITICAL: Drive WDC WD10JPVX-22JC3T0 S/N WD-WX11A1234567: Load_Cycle_Count is above 600K load cycles (812345) causing possible performance and durability impact\n";
    assert_eq!(ids(plugin), set(&["power-management"]));
}

#[test]
fn a_usb_bridge_s_sata_link_is_read_when_the_drive_reports_it() {
    // smartctl -d usbjmicron through a USB bridge: the drive's IDENTIFY gives the link to the
    // bridge (ataprint.cpp "SATA Version is: ..., 6.0 Gb/s (current: 1.5 Gb/s)").
    let t = "# smartctl -i -d usbjmicron /dev/sdb\nsmartctl 7.3 2022-02-28 r5338 [x86_64-linux-6.1.0] (local build)\nCopyright (C) 2002-22, Bruce Allen, Christian Franke, www.smartmontools.org\n\n=== START OF INFORMATION SECTION ===\nDevice Model:     TOSHIBA DT01ACA100\nUser Capacity:    1,000,204,886,016 bytes [1.00 TB]\nSector Sizes:     512 bytes logical, 4096 bytes physical\nRotation Rate:    7200 rpm\nATA Version is:   ATA8-ACS T13/1699-D revision 4\nSATA Version is:  SATA 3.0, 6.0 Gb/s (current: 1.5 Gb/s)\nSMART support is: Available - device has SMART capability.\nSMART support is: Enabled\n";
    let got = ids(t);
    assert!(got.contains("sata-link-below-max"), "{got:?}");
}

/// A two-LUN USB enclosure's attach lines as the Linux kernel prints them (hub.c
/// announce_device, usb.c's usb-storage host, sd.c's capacity and attach lines), then the
/// same lines with the second LUN a removable card-reader slot.
fn two_lun_enclosure(removable: bool) -> String {
    let attach = if removable {
        "Attached SCSI removable disk"
    } else {
        "Attached SCSI disk"
    };
    format!(
        "usb 2-1.3: new high-speed USB device number 3 using ehci-pci\n\
         usb 2-1.3: New USB device found, idVendor=1e91, idProduct=a3a8, bcdDevice=2.07\n\
         usb 2-1.3: New USB device strings: Mfr=1, Product=2, SerialNumber=5\n\
         usb 2-1.3: SerialNumber: 0123456789AB\n\
         usb-storage 2-1.3:1.0: USB Mass Storage device detected\n\
         scsi host5: usb-storage 2-1.3:1.0\n\
         scsi 5:0:0:0: Direct-Access     Vendor   Dual Bay-1       0207 PQ: 0 ANSI: 6\n\
         scsi 5:0:0:1: Direct-Access     Vendor   Dual Bay-2       0207 PQ: 0 ANSI: 6\n\
         sd 5:0:0:0: [sdc] 7814037168 512-byte logical blocks: (4.00 TB/3.64 TiB)\n\
         sd 5:0:0:1: [sdd] 7814037168 512-byte logical blocks: (4.00 TB/3.64 TiB)\n\
         sd 5:0:0:0: [sdc] Attached SCSI disk\n\
         sd 5:0:0:1: [sdd] {attach}\n"
    )
}

#[test]
fn two_luns_of_one_usb_enclosure_share_its_serial_at_any_quote_depth() {
    for q in ["", "> ", "> > ", "> > > "] {
        let t: String = two_lun_enclosure(false)
            .lines()
            .map(|l| format!("{q}{l}\n"))
            .collect();
        let e = explain(&[Input {
            label: "paste".into(),
            bytes: t.as_bytes().to_vec(),
        }])
        .unwrap_or_else(|e| panic!("{e:?}"));
        let f: Vec<_> = e
            .findings
            .iter()
            .filter(|f| f.check == "virtual-or-bridged-device" && f.verdict == Verdict::Problem)
            .collect();
        assert_eq!(f.len(), 2, "depth {q:?}\n{:#?}", e.findings);
        for x in f {
            assert_eq!(
                x.severity,
                Severity::Info,
                "a high-speed link on a USB 2 host (ehci-pci) with nothing measured is said, not a problem"
            );
            assert!(
                x.explanation.contains("same serial number"),
                "{}",
                x.explanation
            );
            assert!(
                x.fixes
                    .iter()
                    .any(|fx| fx.steps.iter().any(|s| s.contains("by-partuuid")))
            );
        }
    }
    // A removable LUN (a card reader's slot) is no second drive of the bridge.
    let e = explain(&[Input {
        label: "paste".into(),
        bytes: two_lun_enclosure(true).into_bytes(),
    }])
    .unwrap_or_else(|e| panic!("{e:?}"));
    assert!(
        e.findings
            .iter()
            .all(|f| !f.explanation.contains("same serial number")),
        "{:#?}",
        e.findings
    );
}
