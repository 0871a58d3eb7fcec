use super::*;
use crate::sources::raid_controller::Task;

#[test]
fn ldinfo_and_pdlist() {
    // The layouts of glensc/nagios-plugin-check_raid t/data/megacli (issue41, issue85),
    // with a degraded drive and a rebuild put in.
    let t = "Adapter 0 -- Virtual Drive Information:\nVirtual Drive: 0 (Target Id: 0)\nName                :\nRAID Level          : Primary-1, Secondary-0, RAID Level Qualifier-0\nState               : Degraded\nOngoing Progresses:\n  Rebuild          : Completed 45%, Taken 20 min.\n\nAdapter #0\n\nEnclosure Device ID: 32\nSlot Number: 0\nMedia Error Count: 0\nOther Error Count: 16548\nPredictive Failure Count: 0\nFirmware state: Online, Spun Up\nInquiry Data:      WD-WMAW30959975WDC WD1003FBYX-01Y7B1                   01.01V02\nEnclosure Device ID: 32\nSlot Number: 1\nMedia Error Count: 12\nOther Error Count: 0\nPredictive Failure Count: 3\nFirmware state: Rebuild\n";
    let r = parse(t);
    assert_eq!(r.logical.len(), 1);
    assert!(r.logical[0].degraded);
    assert_eq!(
        (r.logical[0].task, r.logical[0].percent),
        (Some(Task::Recovery), Some(45.0))
    );
    assert_eq!(r.physical.len(), 2);
    assert!(
        !r.physical[0].has_problem(),
        "other errors are not the medium's"
    );
    assert_eq!(r.physical[1].address, "[32:1] of adapter 0");
    assert_eq!(r.physical[1].media_errors, Some(12));
    assert!(r.physical[1].predictive_failure && r.physical[1].rebuilding);
    assert_eq!(inquiry(t)[0].value, "WD-WMAW30959975WDC");
    assert_eq!(
        start(&["Adapter #0", "", "Enclosure Device ID: 32"]),
        spec::Start::Yes
    );
}
