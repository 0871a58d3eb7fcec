use super::*;

#[test]
fn libata_forty_wire_with_drive_and_host_maxima() {
    let log = "[    3.3] ata1: PATA max UDMA/100 cmd 0x1f0 ctl 0x3f6 bmdma 0x4ce0 irq 14\n\
                   [    3.5] ata1.00: ATA-8: WDC WD1600BEVS-00VAT0, 11.01A11, max UDMA/133\n\
                   [    3.5] ata1.00: limited to UDMA/33 due to 40-wire cable\n\
                   [    4.9] hda: WDC WD1600BEVS-00VAT0, ATA DISK drive\n\
                   [    5.7] hda: UDMA/100 mode selected\n";
    let c = cable_limits(log);
    assert_eq!(c.len(), 1);
    assert_eq!(c[0].port, 1);
    assert_eq!(c[0].mode.current_udma_mb_s, Some(33));
    assert_eq!(c[0].mode.drive_max_udma_mb_s, Some(133));
    assert_eq!(c[0].mode.host_max_udma_mb_s, Some(100));
    assert_eq!(c[0].mode.model.as_deref(), Some("WDC WD1600BEVS-00VAT0"));
    assert!(
        c[0].mode
            .faster_elsewhere
            .as_deref()
            .is_some_and(|l| l.contains("UDMA/100"))
    );
    // Without the old driver's line the cable may be a real 40-wire one.
    let plain: String = log.lines().take(3).map(|l| format!("{l}\n")).collect();
    assert_eq!(cable_limits(&plain)[0].mode.faster_elsewhere, None);
}

#[test]
fn configured_for_udma33_below_drive_and_host() {
    // lkml 2006-08 'sata_promise / libata defaulting to UDMA/33' (2.6.17 libata names
    // devices "ata2: dev 0"; the webmail's <b> tags kept).
    let log = "ata2: PATA max UDMA/133 cmd 0xF8ABC280 ctl 0xF8ABC2B8 bmdma 0x0 irq 137\n\
                   ata2: dev 0 cfg 49:2f00 82:346b 83:7f01 84:4003 85:3469 86:3c01 87:4003 88:203f\n\
                   ata2: dev 0 ATA-6, max UDMA/100, 312581808 sectors: LBA48\n\
                   <b>ata2: dev 0 configured for UDMA/33</b>\n";
    let c = cable_limits(log);
    assert_eq!(c.len(), 1);
    assert_eq!(c[0].port, 2);
    assert_eq!(c[0].mode.current_udma_mb_s, Some(33));
    assert_eq!(c[0].mode.drive_max_udma_mb_s, Some(100));
    assert_eq!(c[0].mode.host_max_udma_mb_s, Some(133));
    assert_eq!(c[0].mode.model, None);
    // The same report fixed (2.6.18-rc3 in the thread): UDMA/100 is no limit.
    let fixed = log.replace("UDMA/33", "UDMA/100");
    assert!(cable_limits(&fixed).is_empty());
    // Today's names, with the model on the IDENTIFY line.
    let now = "ata3: PATA max UDMA/100 cmd 0x1f0 ctl 0x3f6 bmdma 0xf000 irq 14\n\
                   ata3.00: ATA-7: ST3160021A, 3.06, max UDMA/100\n\
                   ata3.00: configured for UDMA/33\n";
    let c = cable_limits(now);
    assert_eq!(c.len(), 1);
    assert_eq!(c[0].mode.model.as_deref(), Some("ST3160021A"));
    // A step down after transfer errors is the errors' doing, not the cable's.
    let eh = format!("{now}ata3: limiting speed to UDMA/33:PIO4\n");
    assert!(cable_limits(&eh).is_empty());
    // A host that does no more than UDMA/33 holds nothing back.
    let slow = now.replace("PATA max UDMA/100", "PATA max UDMA/33");
    assert!(cable_limits(&slow).is_empty());
}

#[test]
fn optical_drives_and_other_lines_are_not_limits() {
    let log = "ata4.00: ATAPI: _NEC DVD_RW ND-3550A, 1.04, max UDMA/33\n\
                   ata4.00: limited to UDMA/33 due to 40-wire cable\n\
                   ata1.00: configured for UDMA/33\n\
                   ata2.00: limited to UDMA/33 due to nonsense\n";
    assert!(cable_limits(log).is_empty());
}
