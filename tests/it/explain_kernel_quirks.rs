//! `diskdoc explain` on what the Linux kernel log says about how a disk is driven rather
//! than about a failed command: a SATA port libata drives as an IDE channel (ata_piix's
//! combined mode, the ISA compatibility addresses; drivers/ata/ata_piix.c, libata-core.c
//! ata_host_register), the first libata error handler's timeouts and speed step-downs
//! (2.6.17 libata-eh.c ata_eh_report, ata_down_xfermask_limit), uas(4) aborting a USB
//! bridge's commands on a kernel that names the disk by SCSI address only
//! (drivers/usb/storage/uas.c), and NCQ left off by the kernel itself (libata-core.c
//! ata_dev_config_ncq and its quirk list). Every input is built from the printk formats
//! with varied values, not copied from the scored corpus.

use std::collections::BTreeSet;

use crate::explain::quote;
use crate::explain_kernel_errors::{ids, run};
use diskdoc_core::checks::{Severity, Verdict};
use diskdoc_core::evidence::Platform;

#[test]
fn a_sata_disk_on_a_legacy_ide_channel_is_controller_legacy_mode() {
    // 2.6.8-2.6.15: "combined mode detected", the old identity line, the port at 1F0h.
    let old = "libata version 1.10 loaded.\n\
               ata_piix version 1.03\n\
               ata_piix: combined mode detected\n\
               ata1: SATA max UDMA/133 cmd 0x1F0 ctl 0x3F6 bmdma 0xFFA0 irq 14\n\
               ata1: dev 0 cfg 49:2f00 82:7c6b 83:7f09 84:4003 85:7c69 86:3e01 87:4003 88:407f\n\
               ata1: dev 0 ATA, max UDMA/133, 488397168 sectors: lba48\n\
               ata1: dev 0 configured for UDMA/133\n\
               scsi0 : ata_piix\n\
               ata2: PATA max UDMA/100 cmd 0x170 ctl 0x376 bmdma 0xFFA8 irq 15\n\
               ata2: dev 0 ATAPI, max UDMA/33\n\
               scsi1 : ata_piix\n";
    // 2.6.2x: MAP line, per-device identity lines, timestamps.
    let newer = "[    2.10] ata_piix 0000:00:1f.2: version 2.12\n\
                 [    2.10] ata_piix 0000:00:1f.2: MAP [ P0 P2 IDE IDE ]\n\
                 [    2.11] scsi0 : ata_piix\n\
                 [    2.11] scsi1 : ata_piix\n\
                 [    2.12] ata1: SATA max UDMA/133 cmd 0x1f0 ctl 0x3f6 bmdma 0xe000 irq 14\n\
                 [    2.12] ata2: PATA max UDMA/100 cmd 0x170 ctl 0x376 bmdma 0xe008 irq 15\n\
                 [    2.40] ata1.00: ATA-8: WDC WD3200AAJS-00L7A0, 01.03E01, max UDMA/133\n\
                 [    2.40] ata1.00: 625142448 sectors, multi 16: LBA48\n\
                 [    2.41] ata1.00: configured for UDMA/133\n";
    for text in [old, newer] {
        for t in [text.to_string(), quote(text)] {
            let ex = run(&t);
            assert_eq!(ex.platform, Platform::Linux, "{t}");
            assert_eq!(
                ids(&t),
                BTreeSet::from(["controller-legacy-mode".to_string()]),
                "{t}"
            );
        }
    }
    // The same disk on an AHCI port (the ABAR, no IDE driver), and a SATA-only driver at
    // native PCI addresses (sata_via): nothing of the kind.
    let ahci = "[    1.20] ahci 0000:00:1f.2: AHCI 0001.0300 32 slots 6 ports 6 Gbps 0x3f impl SATA mode\n\
                [    1.21] scsi host0: ahci\n\
                [    1.22] ata1: SATA max UDMA/133 abar m2048@0xf7e1a000 port 0xf7e1a100 irq 27\n\
                [    1.60] ata1.00: ATA-8: WDC WD3200AAJS-00L7A0, 01.03E01, max UDMA/133\n\
                [    1.60] ata1.00: configured for UDMA/133\n";
    let via = "[    2.70] scsi0 : sata_via\n\
               [    2.70] scsi1 : sata_via\n\
               [    2.71] ata1: SATA max UDMA/133 cmd 0xd000 ctl 0xd400 bmdma 0xe000 irq 20\n\
               [    2.71] ata2: SATA max UDMA/133 cmd 0xd800 ctl 0xdc00 bmdma 0xe008 irq 20\n\
               [    2.90] ata1.00: ATA-8: WDC WD3200AAJS-00L7A0, 01.03E01, max UDMA/133\n\
               [    2.90] ata1.00: configured for UDMA/133\n";
    for t in [ahci, via] {
        assert!(!ids(t).contains("controller-legacy-mode"), "{t}");
    }
}

#[test]
fn the_first_libata_eh_stepping_a_link_down_is_link_errors() {
    // 2.6.17 libata-eh.c: "tag N cmd 0xXX Emask ... (timeout)", "soft resetting port",
    // then the transfer mode or the SATA link speed stepped down after the errors.
    for (port, step) in [
        ("ata3", "ata3.00: limiting speed to UDMA/66"),
        ("ata2", "ata2: limiting SATA link speed to 1.5 Gbps"),
    ] {
        let text = format!(
            "{port}.00: exception Emask 0x0 SAct 0x0 SErr 0x0 action 0x2 frozen\n\
             {port}.00: tag 0 cmd 0xc8 Emask 0x4 stat 0x40 err 0x0 (timeout)\n\
             {port}: soft resetting port\n\
             {port}: SATA link up 3.0 Gbps (SStatus 123 SControl 300)\n\
             {port}.00: configured for UDMA/100\n\
             {port}: EH complete\n\
             {step}\n\
             {port}.00: tag 0 cmd 0xc8 Emask 0x4 stat 0x40 err 0x0 (timeout)\n\
             {port}: soft resetting port\n\
             {port}: EH complete\n"
        );
        for t in [text.clone(), quote(&text)] {
            let ex = run(&t);
            assert_eq!(ex.platform, Platform::Linux, "{t}");
            assert!(ids(&t).contains("link-errors"), "{t}\n{:?}", ids(&t));
        }
    }
}

#[test]
fn uas_aborts_on_a_disk_named_by_address_are_the_bridge() {
    // Before 3.17 the host registers as "scsiN : uas"; after, "scsi hostN: uas". The disk
    // is named only by its SCSI address when the paste stops before sd attaches it.
    for host in ["scsi5 : uas", "scsi host5: uas"] {
        let text = format!(
            "usb 3-1: new SuperSpeed USB device number 3 using xhci_hcd\n\
             usb 3-1: New USB device found, idVendor=152d, idProduct=0578\n\
             {host}\n\
             scsi 5:0:0:0: Direct-Access     JMicron  Generic          0508 PQ: 0 ANSI: 6\n\
             sd 5:0:0:0: Attached scsi generic sg1 type 0\n\
             sd 5:0:0:0: uas_eh_abort_handler 0 uas-tag 2 inflight: CMD IN\n\
             sd 5:0:0:0: uas_eh_abort_handler 0 uas-tag 1 inflight: CMD IN\n\
             scsi host5: uas_eh_device_reset_handler start\n"
        );
        for t in [text.clone(), quote(&text)] {
            assert!(
                ids(&t).contains("virtual-or-bridged-device"),
                "{t}\n{:?}",
                ids(&t)
            );
        }
    }
}

#[test]
fn ncq_the_kernel_turned_off_is_said_at_info() {
    let ncq = |t: &str| {
        run(t)
            .findings
            .into_iter()
            .filter(|f| f.check == "ncq-unavailable" && f.verdict == Verdict::Problem)
            .map(|f| (f.severity, f.title))
            .collect::<Vec<_>>()
    };
    // The kernel's quirk list, printed (6.11) or matched by model and firmware (older).
    let printed = "[    1.50] ata4: SATA link up 3.0 Gbps (SStatus 123 SControl 300)\n\
                   [    1.51] ata4.00: Model 'ST31500341AS', rev 'SD17', applying quirks: noncq\n\
                   [    1.51] ata4.00: ATA-8: ST31500341AS, SD17, max UDMA/133\n\
                   [    1.51] ata4.00: 2930277168 sectors, multi 16: LBA48 NCQ (not used)\n\
                   [    1.52] ata4.00: configured for UDMA/133\n";
    let matched = printed.replace(
        "[    1.51] ata4.00: Model 'ST31500341AS', rev 'SD17', applying quirks: noncq\n",
        "",
    );
    // A host chip without NCQ (sata_sil's SiI3114).
    let host = "[    3.00] scsi host0: sata_sil\n\
                [    3.00] scsi host1: sata_sil\n\
                [    3.01] ata1: SATA max UDMA/100 mmio m1024@0xfe9ffc00 tf 0xfe9ffc80 irq 18\n\
                [    3.01] ata2: SATA max UDMA/100 mmio m1024@0xfe9ffc00 tf 0xfe9ffcc0 irq 18\n\
                [    3.30] ata2.00: ATA-8: ST3500418AS, CC38, max UDMA/133\n\
                [    3.30] ata2.00: 976773168 sectors, multi 16: LBA48 NCQ (depth 0/32)\n\
                [    3.31] ata2.00: configured for UDMA/100\n";
    for t in [printed.to_string(), matched, host.to_string()] {
        let got = ncq(&t);
        assert_eq!(got.len(), 1, "{t}\n{got:?}");
        assert!(
            got.iter().all(|(s, _)| *s == Severity::Info),
            "{t}\n{got:?}"
        );
        assert!(!ids(&t).contains("ncq-unavailable"), "{t}");
    }
    // libata.force=noncq is the user's setting: a problem to undo.
    let forced = "[    1.49] ata4.00: FORCE: horkage modified (noncq)\n\
                  [    1.51] ata4.00: ATA-9: WDC WD40EFRX-68N32N0, 82.00A82, max UDMA/133\n\
                  [    1.51] ata4.00: 7814037168 sectors, multi 16: LBA48 NCQ (not used)\n";
    assert!(ids(forced).contains("ncq-unavailable"), "{:?}", ncq(forced));
    // "depth 0/32" with no driver named: the cause is unknown, so it stays a problem.
    let bare: String = host.lines().skip(2).map(|l| format!("{l}\n")).collect();
    assert!(ids(&bare).contains("ncq-unavailable"), "{:?}", ncq(&bare));
}

/// The controller-legacy-mode finding on `disk` of `text`, pasted plain and as a "> " quoted
/// reply; each must be a problem.
fn legacy_mode_problems(text: &str, disk: &str) -> Vec<diskdoc_core::checks::Finding> {
    [text.to_string(), quote(text)]
        .into_iter()
        .map(|t| {
            let f = run(&t)
                .findings
                .into_iter()
                .find(|f| f.check == "controller-legacy-mode" && f.device == disk)
                .unwrap_or_else(|| panic!("no controller-legacy-mode on {disk}: {t}"));
            assert_eq!(f.verdict, Verdict::Problem, "{t}");
            f
        })
        .collect()
}

#[test]
fn dma_off_read_back_in_the_same_block_as_the_timings() {
    // `hdparm -d0 -tT /dev/hda` (hdparm.c: the set flags' lines, then the timings, all under
    // one "/dev/hda:" header) and plain `hdparm -tT` after `hdparm -d0` (the old wording
    // "Timing buffer-cache reads" of hdparm before 6.x): the read-back is the state the
    // timings ran in, whatever the block is classified as.
    let set_then_time = "# hdparm -d0 -tT /dev/hda\n\n\
                         /dev/hda:\n \
                         setting using_dma to 0 (off)\n \
                         using_dma    =  0 (off)\n \
                         Timing cached reads:   626 MB in  2.00 seconds = 312.96 MB/sec\n \
                         Timing buffered disk reads:   12 MB in  3.08 seconds =   3.89 MB/sec\n";
    let old_words = "# hdparm -d0 -Tt /dev/hdc\n\n\
                     /dev/hdc:\n \
                     setting using_dma to 0 (off)\n \
                     using_dma    =  0 (off)\n \
                     Timing buffer-cache reads:   128 MB in  1.34 seconds = 95.52 MB/sec\n \
                     Timing buffered disk reads:  64 MB in 17.86 seconds =  3.58 MB/sec\n";
    for (text, disk) in [(set_then_time, "hda"), (old_words, "hdc")] {
        for f in legacy_mode_problems(text, disk) {
            assert!(f.explanation.contains("using_dma = 0"), "{}", f.explanation);
        }
    }
    // A web page that ran plain `hdparm`'s settings together on one line (the newlines lost,
    // the words kept): cut back into its read-backs (sources::hdparm FLAT_SETTINGS).
    let flat = "Here is what I get:\n\n/dev/hda: multcount = 16 (on) I/O support = 1 (32-bit) \
                unmaskirq = 1 (on) using_dma = 0 (off) keepsettings = 0 (off) readonly = 0 \
                (off) readahead = 8 (on) geometry = 4865/255/63, sectors = 78165360, start = 0\n";
    assert!(ids(flat).contains("controller-legacy-mode"), "{flat}");
    assert!(
        !ids(&flat.replace("using_dma = 0 (off)", "using_dma = 1 (on)"))
            .contains("controller-legacy-mode"),
        "{flat}"
    );
    // The same block with DMA on: nothing of the kind.
    let on = set_then_time
        .replace(
            "setting using_dma to 0 (off)",
            "setting using_dma to 1 (on)",
        )
        .replace("using_dma    =  0 (off)", "using_dma    =  1 (on)");
    assert!(!ids(&on).contains("controller-legacy-mode"), "{on}");
}

#[test]
fn dma_off_on_the_old_ide_driver_is_controller_legacy_mode() {
    // Real pastes: lkml 2001-04-12 "IDE DMA under 2.4?" (Message-ID
    // <87itkaup0g.fsf@danube.cs.umbc.edu>, a PIIX4 laptop, about 6 MB/s without DMA), and
    // lkml 2006-08-27 "Can't enable DMA over ATA on Intel Chipset 2.6.16" (Message-Id
    // <200608271239.32507.gustavo@compunauta.com>, an ICH6 board, plain `hdparm` first).
    let refused = "when i do 'hdparm -d 1 /dev/hda', i get\n\
                   /dev/hda:\n \
                   setting using_dma to 1 (on)\n \
                   HDIO_SET_DMA failed: Operation not permitted\n \
                   using_dma    =  0 (off)\n";
    let settings = "root@rp-1 /home/gus # hdparm /dev/hdc\n\n\
                    /dev/hdc:\n \
                    multcount    = 16 (on)\n \
                    IO_support   =  0 (default 16-bit)\n \
                    unmaskirq    =  0 (off)\n \
                    using_dma    =  0 (off)\n \
                    keepsettings =  0 (off)\n \
                    readonly     =  0 (off)\n \
                    readahead    = 256 (on)\n \
                    geometry     = 16383/255/63, sectors = 156368016, start = 0\n\
                    root@rp-1 /home/gus # hdparm -d1 /dev/hdc\n\n\
                    /dev/hdc:\n \
                    setting using_dma to 1 (on)\n \
                    HDIO_SET_DMA failed: Operation not permitted\n \
                    using_dma    =  0 (off)\n\
                    root@rp-1 /home/gus # \n";
    for (text, disk) in [(refused, "hda"), (settings, "hdc")] {
        for f in legacy_mode_problems(text, disk) {
            assert_eq!(f.severity, Severity::Warning, "{}", f.explanation);
            assert!(
                f.explanation.contains("HDIO_SET_DMA failed"),
                "{}",
                f.explanation
            );
            // The driver refused -d1: the fix is the driver, not the command that failed.
            assert!(
                f.fixes.iter().all(|x| x.summary != "switch DMA on"),
                "{:?}",
                f.fixes
            );
        }
    }
    // DMA on (the same layout with using_dma = 1): nothing of the kind.
    let on = settings.replace("using_dma    =  0 (off)", "using_dma    =  1 (on)");
    let on = on.replace(
        " setting using_dma to 1 (on)\n HDIO_SET_DMA failed: Operation not permitted\n",
        "",
    );
    assert!(!ids(&on).contains("controller-legacy-mode"), "{on}");
}
