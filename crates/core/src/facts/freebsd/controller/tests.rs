use super::*;

#[test]
fn qemu_default_serials() {
    for s in ["QM00001", "QM00004", " QM12345 "] {
        assert!(is_qemu_default_serial(s), "{s}");
    }
    for s in [
        "QM0001",
        "QM000001",
        "WD-WCC4E1234567",
        "QMX0001",
        "S21NNXAG123456",
    ] {
        assert!(!is_qemu_default_serial(s), "{s}");
    }
}

#[test]
fn iscsi_session_sims() {
    // An OCI instance booted from its block volume: "da0 at iscsi1 bus 0 scbus0 target 0
    // lun 1", "da0: <ORACLE BlockVolume 1.0>".
    assert!(is_iscsi_sim("iscsi1"));
    assert!(is_iscsi_sim("iscsi12"));
    // Near misses: local HBAs' SIMs and a bare prefix.
    for s in ["ahcich0", "mpr0", "isp0", "iscsi", "iscsix1", "umass-sim0"] {
        assert!(!is_iscsi_sim(s), "{s}");
    }
}

#[test]
fn raid_volumes_by_their_inquiry() {
    // BSD Router Project 2013 (IBM x3550 M3, mpt(4) RAID-0): "da0: <LSILOGIC Logical
    // Volume 3000> Fixed Direct Access SCSI-2 device".
    assert!(is_raid_volume_inquiry("LSILOGIC Logical Volume 3000"));
    assert!(is_raid_volume_inquiry("DELL PERC H730P Mini 4.30"));
    // Near miss: a drive behind the same HBA answers with its own maker.
    assert!(!is_raid_volume_inquiry("SEAGATE ST300MM0006 LS08"));
    assert!(!is_raid_volume_inquiry("ATA ST2000DM001-1CH1 CC29"));
}

#[test]
fn ahci_attached_to_an_ide_class_function_is_ahci() {
    // A PC Engines APU2's Hudson-2 (pciconf "ahci0@pci0:0:17:0: class=0x01018f",
    // "FCH SATA Controller [IDE mode]", its disk "Command Queueing enabled").
    assert_eq!(
        mode_for(Some("ahci"), None, Some(0x01018f), false, "ada"),
        Some(ControllerMode::Ahci)
    );
    // The same class under atapci(4) is the legacy driver.
    assert_eq!(
        mode_for(Some("atapci"), None, Some(0x01018f), false, "ada"),
        Some(ControllerMode::LegacyIde)
    );
    assert_eq!(
        mode_for(None, None, Some(0x01018a), false, "ada"),
        Some(ControllerMode::LegacyIde)
    );
}

#[test]
fn udma_rates_and_ata_levels() {
    // ata(4) chipset descriptions by their fastest mode.
    for d in [
        "Intel ICH4 UDMA100 controller",
        "VIA 8237 UDMA133 controller",
        "Intel ICH7 SATA300 controller",
    ] {
        assert!(names_udma_rate(d), "{d}");
    }
    // Near misses: a multiword-DMA chip, a generic function, a bare prefix.
    for d in [
        "Intel PIIX3 WDMA2 controller",
        "Generic PCI ATA controller",
        "UDMA controller",
    ] {
        assert!(!names_udma_rate(d), "{d}");
    }
    assert_eq!(ata_level("ATA-6 device"), Some(6));
    assert_eq!(ata_level("ATA-8 SATA 2.x device"), Some(8));
    assert_eq!(ata_level("ATA8-ACS SATA 3.x device"), None);
    assert_eq!(ata_level("Removable CD-ROM SCSI device"), None);
}
