use super::*;

#[test]
fn one_drive_page() {
    let t = "Drive Information \n===============================================================\nDevice Type                        : SAS(5000C50042B11C01)\nDevice Location                    : Enclosure#2 SLOT 05\nModel Name                         : SEAGATE ST3600057SS\nSerial Number                      : 6SL1XXXX\nDevice State                       : FAILED\nTimeout Count                      : 0\nMedia Error Count                  : 3\n";
    let r = parse(t);
    assert_eq!(r.physical.len(), 1);
    let p = &r.physical[0];
    assert_eq!(p.address, "Enclosure#2 SLOT 05");
    assert!(p.failed);
    assert_eq!(p.media_errors, Some(3));
    assert_eq!(sas_address(t)[0].value, "5000C50042B11C01");
}

#[test]
fn tables() {
    // glensc/nagios-plugin-check_raid t/data/areca: cli64.disk.info-16, cli64.rsf.info-16,
    // pr72 (enclosure/slot layout), ticket40.
    let t = "  # Ch# ModelName                       Capacity  Usage\n===============================================================================\n 15 15  WDC WD7500AYYS-01RCA0            750.2GB  data            \n 16 16  WDC WD7502ABYS-05A6B0            750.2GB  Failed    \n===============================================================================\nGuiErrMsg<0x00>: Success.\n #  Name             Disks TotalCap  FreeCap DiskChannels       State          \n===============================================================================\n 1  data                15 11250.0GB    0.0GB 123456789ABCDEF    Rebuilding\n 2  Raid Set # 00        9 4500.0GB    0.0GB 143256789          Normal\n  # Enc# Slot#   ModelName                        Capacity  Usage\n  9  02  Slot 01 TOSHIBA MK2001TRKB               2000.4GB  Raid Set # 000  \n  1  01  Slot#1  N.A.                                0.0GB  N.A.      \n";
    let r = parse(t);
    assert_eq!(r.physical.len(), 4);
    assert!(!r.physical[0].failed && r.physical[1].failed);
    assert_eq!(r.physical[1].address, "channel 16");
    assert_eq!(r.physical[2].address, "enclosure 02 slot 01");
    assert_eq!(r.physical[2].state, "Raid Set # 000");
    assert_eq!(r.logical.len(), 2);
    assert_eq!(r.logical[0].name, "raid set data");
    assert!(r.logical[0].degraded);
    assert_eq!(r.logical[1].name, "raid set Raid Set # 00");
    assert!(!r.logical[1].degraded);
}

#[test]
fn volume_sets() {
    let t = "  # Name             Raid Name       Level   Capacity Ch/Id/Lun  State         \n===============================================================================\n  1 ARC-1220-VOL#00  Raid Set # 00   Raid5    750.0GB 00/00/00   Rebuilding(12.3%)\n  2 WinData          Raid Set # 01   Raid1   2000.0GB 00/00/01   Normal\n";
    let r = parse(t);
    assert_eq!(r.logical.len(), 2);
    assert_eq!(r.logical[0].percent, Some(12.3));
    assert_eq!(r.logical[0].level.as_deref(), Some("Raid5"));
    assert!(!r.logical[1].degraded);
}
