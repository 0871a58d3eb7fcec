use super::*;

// linux-scsi 2022 (a Samsung T5 behind its own UAS bridge), the serial replaced.
const T5: &str = "standard INQUIRY:\n  PQual=0  Device_type=0  RMB=0  LU_CONG=0  version=0x06  [SPC-4]\n  [AERC=0]  [TrmTsk=0]  NormACA=0  HiSUP=0  Resp_data_format=2\n  SCCS=0  ACC=0  TPGS=0  3PC=0  Protect=0  [BQue=0]\n  EncServ=0  MultiP=0  [MChngr=0]  [ACKREQQ=0]  Addr16=0\n  [RelAdr=0]  WBus16=0  Sync=0  [Linked=0]  [TranDis=0]  CmdQue=1\n  [SPI: Clocking=0x0  QAS=0  IUS=0]\n    length=76 (0x4c)   Peripheral device type: disk\n Vendor identification: Samsung\n Product identification: Portable SSD T5\n Product revision level: 0\n Unit serial number: D3A3D7000000\n";

#[test]
fn inquiry_fields() {
    let r = parse(T5);
    assert_eq!(r.model().as_deref(), Some("Samsung Portable SSD T5"));
    assert_eq!(r.revision.as_deref(), Some("0"));
    assert_eq!(r.cmd_que, Some(true));
    assert_eq!(r.rows, 12);
    let lines: Vec<&str> = T5.lines().collect();
    assert_eq!((RECOGNISER.starts[0].1)(&lines), spec::Start::Yes);
    // Through libata the vendor field is "ATA": the product alone is the model.
    let ata = " Vendor identification: ATA     \n Product identification: ST4000DM004-2CV1\n";
    assert_eq!(parse(ata).model().as_deref(), Some("ST4000DM004-2CV1"));
}

#[test]
fn inquiry_near_misses() {
    // Prose and other tools' "Vendor:" rows are not INQUIRY fields.
    let other =
        "Vendor: SEAGATE  Model: ST2000NX0463  Rev: N003\nThe product identification looked wrong.";
    assert_eq!(parse(other), SgInq::default());
    let empty = " Vendor identification:    \n";
    assert_eq!(parse(empty).vendor, None);
}
