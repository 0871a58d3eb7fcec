use super::parse;

#[test]
fn master_and_slave_on_one_bus_are_an_ata_channel() {
    let text = "<SanDisk SDCFH-004G HDX 6.02>      at scbus0 target 0 lun 0 (ada0,pass0)\n\
                    <ST3320620AS 3.AAK>                at scbus1 target 0 lun 0 (ada1,pass1)\n\
                    <ST2000DL003-9VT166 CC3C>          at scbus1 target 1 lun 0 (ada2,pass2)\n\
                    <WDC WD5000AAKS-00V1A0 05.01D05>   at scbus2 target 0 lun 0 (pass3,ada3)\n\
                    <_NEC DVD_RW ND-3550A 1.05>        at scbus2 target 1 lun 0 (cd0,pass4)\n";
    let l = parse(text);
    assert!(l.on_ata_channel("ada1"));
    assert!(l.on_ata_channel("ada2"));
    assert!(
        l.on_ata_channel("ada3"),
        "a slave CD makes it a channel too"
    );
    assert!(
        !l.on_ata_channel("ada0"),
        "alone at target 0: AHCI port or channel, unknown"
    );
    // A port multiplier behind AHCI: its drives at targets 0 and 1, the pmp at 15.
    let pmp = "<ST4000DM000-1F2168 CC52>  at scbus3 target 0 lun 0 (ada4,pass5)\n\
                   <ST4000DM000-1F2168 CC52>  at scbus3 target 1 lun 0 (ada5,pass6)\n\
                   <Port Multiplier 57231095 1706>  at scbus3 target 15 lun 0 (pass7,pmp0)\n";
    let l = parse(pmp);
    assert!(!l.on_ata_channel("ada4"));
    assert!(!l.on_ata_channel("ada5"));
    // SATA disks behind a SAS HBA are da disks at many targets: not ata(4).
    let sas = "<ATA ST4000NM0033-9ZM SN04>  at scbus0 target 1 lun 0 (pass1,da1)\n";
    assert!(!parse(sas).on_ata_channel("da1"));
}
