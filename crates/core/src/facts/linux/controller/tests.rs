use super::*;
use crate::evidence::{Capture, EvidenceBundle, Origin, Platform, SourceKey};

fn bundle(real: &str, pci: &str, class: &str, driver: &str) -> EvidenceBundle {
    let mut b = EvidenceBundle::new(Platform::Linux, Origin::Hand);
    b.insert(
        &SourceKey::RealPath("/sys/block/sda".into()),
        Capture::ok(real),
    );
    b.insert(
        &SourceKey::file(&format!("{pci}/class")),
        Capture::ok(format!("{class}\n")),
    );
    b.insert(
        &SourceKey::RealPath(format!("{pci}/driver")),
        Capture::ok(format!("/sys/bus/pci/drivers/{driver}")),
    );
    b
}

#[test]
fn raid_hba_sas_hba_and_rst_raid_mode() {
    let pci = "/sys/devices/pci0000:00/0000:00:03.0/0000:03:00.0";
    let real = format!("{pci}/host0/target0:2:0/0:2:0:0/block/sda");
    let b = bundle(&real, pci, "0x010400", "megaraid_sas");
    let w = walk(&b, "sda");
    let c = controller(&b, "sda", &w);
    assert_eq!(c.value().and_then(|c| c.mode), Some(ControllerMode::Raid));
    assert_eq!(
        c.value().and_then(|c| c.driver.clone()).as_deref(),
        Some("megaraid_sas")
    );
    assert_eq!(
        transport("sda", &w, None, c.value(), false).get(),
        Some(Transport::Scsi)
    );

    let real = format!("{pci}/host0/port-0:0/end_device-0:0/target0:0:0/0:0:0:0/block/sda");
    let b = bundle(&real, pci, "0x010700", "mpt3sas");
    let w = walk(&b, "sda");
    assert!(w.sas);
    let c = controller(&b, "sda", &w);
    assert_eq!(c.value().and_then(|c| c.mode), Some(ControllerMode::SasHba));
    assert_eq!(
        transport("sda", &w, None, c.value(), false).get(),
        Some(Transport::Sas)
    );

    // Intel RST in RAID mode but driven by plain ahci: the disks are still AHCI ports.
    let pci = "/sys/devices/pci0000:00/0000:00:17.0";
    let real = format!("{pci}/ata2/host1/target1:0:0/1:0:0:0/block/sda");
    let b = bundle(&real, pci, "0x010400", "ahci");
    let w = walk(&b, "sda");
    let c = controller(&b, "sda", &w);
    assert_eq!(c.value().and_then(|c| c.mode), Some(ControllerMode::Ahci));
    assert!(
        c.value()
            .and_then(|c| c.description.clone())
            .unwrap()
            .contains("RST")
    );
    // No IDENTIFY, no link speed, but the ahci driver: SATA.
    assert_eq!(
        transport("sda", &w, None, c.value(), false).get(),
        Some(Transport::Sata)
    );

    // A PATA controller driver.
    let b = bundle(&real, pci, "0x01018f", "pata_jmicron");
    let w = walk(&b, "sda");
    let c = controller(&b, "sda", &w);
    assert_eq!(
        c.value().and_then(|c| c.mode),
        Some(ControllerMode::LegacyIde)
    );
    assert_eq!(
        transport("sda", &w, None, c.value(), false).get(),
        Some(Transport::Pata)
    );
}

#[test]
fn modes_and_virtual_names() {
    assert_eq!(mode_from_class(0x01018a), Some(ControllerMode::LegacyIde));
    assert_eq!(mode_from_class(0x010601), Some(ControllerMode::Ahci));
    assert_eq!(mode_from_class(0x010600), None);
    assert_eq!(mode_from_class(0x010802), Some(ControllerMode::Nvme));
    assert_eq!(
        mode_from_driver("pata_via"),
        Some(ControllerMode::LegacyIde)
    );
    assert!(looks_virtual("QEMU", "QEMU HARDDISK"));
    assert!(looks_virtual("VMware", "Virtual disk"));
    assert!(looks_virtual("Google", "PersistentDisk"));
    assert!(!looks_virtual("ATA", "Samsung SSD 860"));
}
