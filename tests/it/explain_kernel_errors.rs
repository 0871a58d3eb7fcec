//! `diskdoc explain` on the error lines of kernel drivers that report a failed command with
//! the registers or result bytes that say what failed: the old Linux IDE driver
//! (drivers/ide/ide-lib.c ide_dump_status), FreeBSD's ata(4) of releases 4-8
//! (sys/dev/ata/ata-queue.c ata_completed), the SCSI midlayer's result word and host byte
//! (include/scsi/scsi_status.h, scsi_lib.c, scsi_logging.c), xHCI and the USB hub driver
//! (drivers/usb/host/xhci-ring.c, drivers/usb/core/hub.c), NVMe command timeouts
//! (drivers/nvme/host/pci.c nvme_timeout), libata's PATA error handling (libata-eh.c,
//! libata-sff.c) and CAM on umass(4). Each event goes to the check of its cause: the cable
//! or link (link-errors), the medium (media-errors), or the bridge (virtual-or-bridged-
//! device). Every input is built from the printf formats with varied values, not copied
//! from the scored corpus.

use std::collections::BTreeSet;

use diskdoc_core::checks::{Severity, Verdict};
use diskdoc_core::evidence::Platform;
use diskdoc_core::explain::{Explanation, Input, explain};

pub(crate) fn run(text: &str) -> Explanation {
    explain(&[Input {
        label: "paste".into(),
        bytes: text.as_bytes().to_vec(),
    }])
    .unwrap_or_else(|e| panic!("{e:?} for:\n{text}"))
}

/// The problem check ids at notice or above.
pub(crate) fn ids(text: &str) -> BTreeSet<String> {
    run(text)
        .findings
        .iter()
        .filter(|f| f.verdict == Verdict::Problem && f.severity >= Severity::Notice)
        .map(|f| f.check.clone())
        .collect()
}

fn set(v: &[&str]) -> BTreeSet<String> {
    v.iter().map(|s| s.to_string()).collect()
}

#[test]
fn ide_register_dumps_name_the_cable_or_the_medium() {
    // ide_dump_status then ide_dump_ata_error: bit 80h with ABRT is "BadCRC" (an Ultra DMA
    // CRC error), 40h "UncorrectableError".
    for (drive, msg) in [
        ("hda", "dma_intr"),
        ("hdg", "ide_dma_intr"),
        ("hdb", "read_intr"),
    ] {
        let crc = format!(
            "{drive}: {msg}: status=0x51 {{ DriveReady SeekComplete Error }}\n{drive}: {msg}: error=0x84 {{ DriveStatusError BadCRC }}\n"
        );
        assert_eq!(ids(&crc), set(&["link-errors"]), "{crc}");
        let unc = format!(
            "{drive}: {msg}: status=0x51 {{ DriveReady SeekComplete Error }}\n{drive}: {msg}: error=0x40 {{ UncorrectableError }}, LBAsect=23789761, high=1, low=7235777, sector=23789696\nide: failed opcode was: unknown\nend_request: I/O error, dev {drive}, sector 23789696\n"
        );
        assert_eq!(ids(&unc), set(&["media-errors"]), "{unc}");
    }
    // A SET FEATURES the drive refused (error=0x04 alone) is no fault.
    let refused = "hda: task_no_data_intr: status=0x51 { DriveReady SeekComplete Error }\nhda: task_no_data_intr: error=0x04 { DriveStatusError }\nide: failed opcode was: 0xef\n";
    assert!(ids(refused).is_empty(), "{:?}", ids(refused));
}

#[test]
fn freebsd_ata_requests_are_read_by_their_error_bits() {
    // ata-queue.c: TIMEOUT ... retrying, FAILURE with the status and error registers (%b).
    let timeouts = "Mar  2 03:04:05 fbsd kernel: ad2: TIMEOUT - READ_DMA retrying (1 retry left) LBA=77123\nMar  2 03:04:40 fbsd kernel: ad2: TIMEOUT - WRITE_DMA48 retrying (0 retries left) LBA=312581808\n";
    let e = run(timeouts);
    assert_eq!(e.platform, Platform::Freebsd);
    assert!(
        ids(timeouts).contains("media-errors"),
        "{:?}",
        ids(timeouts)
    );
    let unc = "ad10: FAILURE - READ_DMA48 status=51<READY,DSC,ERROR> error=40<UNCORRECTABLE> LBA=488397105\n";
    assert_eq!(ids(unc), set(&["media-errors"]));
    // The same line wrapped by a narrow mail client before "error=".
    let wrapped = "> ad12: FAILURE - READ_DMA status=51<READY,DSC,ERROR>\n> error=40<UNCORRECTABLE> LBA=9001\n";
    assert_eq!(ids(wrapped), set(&["media-errors"]));
    // ICRC: the cable.
    let icrc =
        "ad6: FAILURE - WRITE_DMA status=51<READY,DSC,ERROR> error=84<ICRC,ABORTED> LBA=4410\n";
    assert_eq!(ids(icrc), set(&["link-errors"]));
    // A refused SET_MULTI and an ECC-corrected read: nothing to report.
    let fine = "ad4: FAILURE - SET_MULTI status=51<READY,DSC,ERROR> error=4<ABORTED>\nad4: WARNING - READ_DMA soft error (ECC corrected) LBA=1000\nad4: 30520MB <ACME SSD 1.0> at ata2-master UDMA100\n";
    assert!(ids(fine).is_empty(), "{:?}", ids(fine));
    // A channel reset of ad14's channel (ATA_STATIC_ID: ad14 is ata7-master).
    let chan = "box kernel: ad14: TIMEOUT - FLUSHCACHE48 retrying (1 retry left)\nbox kernel: ata7: hardware reset timeout\n";
    assert!(ids(chan).contains("link-errors"), "{:?}", ids(chan));
}

#[test]
fn a_host_byte_is_the_transport_not_the_medium() {
    // 2.6 scsi_lib.c: driver byte 10h (SUGGEST_RETRY), host byte 07h (DID_ERROR), and the
    // first sectors failing as the disk is probed.
    let mut old = String::new();
    for sector in [0, 8, 16, 24] {
        old.push_str("sd 5:0:0:0: SCSI error: return code = 0x10070000\n");
        old.push_str(&format!(
            "end_request: I/O error, dev sdc, sector {sector}\n"
        ));
    }
    let got = ids(&old);
    assert!(
        got.contains("link-errors") && !got.contains("media-errors"),
        "{got:?}"
    );
    // scsi_logging.c's named form, a USB disk gone from its bus.
    let named = "[  812.1] scsi host6: usb-storage 2-2:1.0\n[  813.0] sd 6:0:0:0: [sdd] 976773168 512-byte logical blocks: (500 GB/466 GiB)\n[ 9001.5] sd 6:0:0:0: [sdd] tag#0 FAILED Result: hostbyte=DID_NO_CONNECT driverbyte=DRIVER_OK cmd_age=3s\n[ 9001.5] I/O error, dev sdd, sector 123456 op 0x0:(READ) flags 0x80700 phys_seg 1 prio class 0\n";
    let got = ids(named);
    assert!(
        got.contains("virtual-or-bridged-device") && !got.contains("media-errors"),
        "{got:?}"
    );
    // DID_OK leaves the verdict to the sense data: MEDIUM ERROR is the medium.
    let sense = "sd 1:0:0:0: [sdb] tag#7 FAILED Result: hostbyte=DID_OK driverbyte=DRIVER_SENSE\nsd 1:0:0:0: [sdb] tag#7 Sense Key : Medium Error [current]\nsd 1:0:0:0: [sdb] tag#7 Add. Sense: Unrecovered read error\nblk_update_request: I/O error, dev sdb, sector 99999\n";
    assert_eq!(ids(sense), set(&["media-errors"]));
}

#[test]
fn a_dead_usb_host_controller_is_the_bridge_s_path() {
    // xhci-ring.c xhci_hc_died, hub.c usb_disconnect, scsi_error.c offlining, then the
    // block layer's errors on the disk that was behind it.
    let t = "Feb 11 09:10:11 pi kernel: [ 3000.1] xhci_hcd 0000:01:00.0: xHCI host controller not responding, assume dead\nFeb 11 09:10:11 pi kernel: [ 3000.1] xhci_hcd 0000:01:00.0: HC died; cleaning up\nFeb 11 09:10:11 pi kernel: [ 3000.2] usb 2-1: USB disconnect, device number 3\nFeb 11 09:10:11 pi kernel: [ 3000.3] sd 1:0:0:0: Device offlined - not ready after error recovery\nFeb 11 09:10:11 pi kernel: [ 3000.4] blk_update_request: I/O error, dev sdb, sector 8812 op 0x1:(WRITE) flags 0x0 phys_seg 1 prio class 0\n";
    let got = ids(t);
    assert!(
        got.contains("virtual-or-bridged-device") && !got.contains("media-errors"),
        "{got:?}"
    );
    // A USB stick pulled out on a SATA machine names no SATA disk's fault.
    let unplug = "[ 10.0] ata1: SATA link up 6.0 Gbps (SStatus 133 SControl 300)\n[ 10.1] sd 0:0:0:0: [sda] 1953525168 512-byte logical blocks\n[ 99.0] usb 1-4: USB disconnect, device number 5\n";
    assert!(ids(unplug).is_empty(), "{:?}", ids(unplug));
}

#[test]
fn nvme_command_timeouts_are_no_bad_sectors() {
    // pci.c nvme_timeout: aborts that the controller answered, no media status. The
    // drive's controller stalled: media-errors reports it with the stall's own text (no
    // bad-sector advice), not link-errors (an NVMe drive has no cable).
    let mut t = String::new();
    for (i, io) in [412, 415, 419, 433].iter().enumerate() {
        t.push_str(&format!(
            "[  97.{i}] nvme nvme2: I/O {io} QID 3 timeout, aborting\n[  97.{i}] nvme nvme2: Abort status: 0x0\n"
        ));
    }
    assert_eq!(ids(&t), set(&["media-errors"]));
    let e = run(&t);
    let f = e
        .findings
        .iter()
        .find(|f| f.check == "media-errors" && f.verdict == Verdict::Problem)
        .unwrap_or_else(|| panic!("{:?}", e.findings));
    assert!(f.title.contains("NVMe command timeout"), "{}", f.title);
    assert!(
        f.explanation.contains("not a bad-sector problem"),
        "{}",
        f.explanation
    );
}

#[test]
fn a_pata_live_cd_log_stays_one_linux_block() {
    // libata-eh.c ata_eh_link_report with its indented "res" half, libata-sff.c's soft
    // reset, ata_down_xfermask_limit's step-downs; the paste starts with an elision.
    let mut t = String::from("...\n");
    for mode in ["UDMA/100:PIO4", "UDMA/44:PIO4"] {
        t.push_str("ata3.00: exception Emask 0x0 SAct 0x0 SErr 0x0 action 0x6 frozen\n");
        t.push_str("ata3.00: failed command: READ DMA\n");
        t.push_str("ata3.00: cmd c8/00:08:10:00:00/00:00:00:00:00/e0 tag 0 dma 4096 in\n");
        t.push_str("         res 40/00:00:00:00:00/00:00:00:00:00/00 Emask 0x4 (timeout)\n");
        t.push_str("ata3.00: status: { DRDY }\n");
        t.push_str("ata3: device not ready (errno=-16), forcing hardreset\n");
        t.push_str("ata3: soft resetting link\n");
        t.push_str("ata3: SRST failed (errno=-16)\n");
        t.push_str(&format!("ata3.00: limiting speed to {mode}\n"));
    }
    let e = run(&t);
    assert_eq!(e.platform, Platform::Linux);
    let tools: Vec<&str> = e.recognised.iter().map(|r| r.tool.as_str()).collect();
    assert_eq!(tools, vec!["linux-dmesg"], "{tools:?}");
    let got = ids(&t);
    assert!(got.contains("link-errors"), "{got:?}");
}

#[test]
fn a_umass_probe_that_fails_is_the_bridge() {
    // umass(4) attaches, CAM's probe of the device fails with CAM_REQ_CMP_ERR.
    let t = "Jun  3 10:11:12 bsd kernel: umass1 on uhub2\nJun  3 10:11:12 bsd kernel: umass1: <Generic Mass Storage, class 0/0, rev 2.00/1.00, addr 4> on usbus1\nJun  3 10:11:12 bsd kernel: umass1:  SCSI over Bulk-Only; quirks = 0x0000\nJun  3 10:11:13 bsd kernel: (probe0:umass-sim1:1:0:0): INQUIRY. CDB: 12 00 00 00 24 00 \nJun  3 10:11:13 bsd kernel: (probe0:umass-sim1:1:0:0): CAM status: CCB request completed with an error\nJun  3 10:11:13 bsd kernel: (probe0:umass-sim1:1:0:0): Retrying command\n";
    let e = run(t);
    assert_eq!(e.platform, Platform::Freebsd);
    assert_eq!(ids(t), set(&["virtual-or-bridged-device"]));
}
