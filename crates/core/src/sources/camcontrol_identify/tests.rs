use super::*;

const HEAD: &str = "pass1: <INTEL SSDSC2BW240A4 DC32> ACS-2 ATA SATA 3.x device\n";

fn ident(transfer: &str, dma: &str) -> Identify {
    parse(&format!(
        "{HEAD}pass1: 600.000MB/s transfers ({transfer})\n\nprotocol              ATA/ATAPI-9 SATA 3.x\n\
         device model          INTEL SSDSC2BW240A4\nDMA supported         {dma}\n"
    ))
}

/// ata(4) caps a SATA channel at UDMA5 (ata_sata_setmode): a UDMA6 drive shown at UDMA5.
#[test]
fn udma6_drive_at_udma5_is_capped_by_ata() {
    let id = ident("SATA 3.x, UDMA5, PIO 8192bytes", "WDMA2 UDMA6");
    assert!(id.mode_capped_by_ata_driver());
}

/// ahci(4) keeps the drive's UDMA6; a drive whose best mode is UDMA5 proves nothing.
#[test]
fn ahci_udma6_or_udma5_drive_not_capped() {
    assert!(!ident("SATA 3.x, UDMA6, PIO 8192bytes", "WDMA2 UDMA6").mode_capped_by_ata_driver());
    assert!(!ident("SATA 2.x, UDMA5, PIO 8192bytes", "WDMA2 UDMA5").mode_capped_by_ata_driver());
    // A parallel ATA channel at UDMA5 (an 80-wire cable limit or a PATA chip) is not this.
    assert!(!ident("UDMA5, PIO 8192bytes", "WDMA2 UDMA6").mode_capped_by_ata_driver());
}
