use super::*;

#[test]
fn verdicts_messages_and_perfdata() {
    // check_smart.pl's formats: "Drive $model S/N $serial: " then the messages joined
    // with ", ", then "|" and "$attribute_name=$raw_value;;;;" items.
    let t = "WARNING: Drive  ST2000DM008-2FR102 S/N ZFL0XXXX: Current_Pending_Sector is non-zero (8), Reallocated_Sector_Ct is non-zero (16), |Reallocated_Sector_Ct=16;;;; Power_On_Hours=20211;;;; Current_Pending_Sector=8;;;;\n\
                 CRITICAL: Drive WDC WD10JPVX-22JC3T0 S/N WX-1: Load_Cycle_Count is above 600K load cycles (702113) causing possible performance and durability impact\n\
                 OK: Drive Samsung SSD 860 EVO 500GB S/N S3Z: no SMART errors detected. |Power_On_Hours=1200;;;;\n";
    let v = parse(t);
    assert_eq!(v.len(), 3);
    assert_eq!(v[0].model.as_deref(), Some("ST2000DM008-2FR102"));
    let mut s = Smart::default();
    assert_eq!(apply(&v[0], &mut s), None);
    assert_eq!(
        (s.pending_sectors, s.reallocated_sectors, s.power_on_hours),
        (Some(8), Some(16), Some(20211))
    );
    assert_eq!(apply(&v[1], &mut Smart::default()), Some(702_113));
    assert_eq!(v[2].attributes, vec![("Power_On_Hours".to_string(), 1200)]);
    assert!(parse("CRITICAL: the disk is on fire").is_empty());
}

#[test]
fn verdicts_without_the_drive_prefix() {
    // The older release's lines, one per drive of a `-i megaraid,N` loop, and its SCSI
    // form (the plugin's README, FreeBSD ciss examples).
    let t = "OK: no SMART errors detected. |Raw_Read_Error_Rate=0 Power_On_Hours=25099 UDMA_CRC_Error_Count=0\n\
                 WARNING: UDMA_CRC_Error_Count is non-zero (4739)|Raw_Read_Error_Rate=0 UDMA_CRC_Error_Count=4739\n\
                 WARNING: 48 Elements in grown defect list | defect_list=48 sent_blocks=1137657348 temperature=22;;68\n";
    let v = parse(t);
    assert_eq!(
        v.iter().map(|v| v.status).collect::<Vec<_>>(),
        vec![0, 1, 1]
    );
    assert_eq!(v[0].model, None);
    let mut s = Smart::default();
    apply(&v[1], &mut s);
    assert_eq!(s.udma_crc_errors, Some(4739));
    let mut s = Smart::default();
    apply(&v[2], &mut s);
    assert_eq!(s.grown_defects, Some(48));
    // Near misses: another plugin's OK line, a status word in prose.
    assert!(parse("OK: all disks are fine\nWARNING: load average is 12").is_empty());
    assert!(parse("OK: no SMART errors detectedness").is_empty());
}
