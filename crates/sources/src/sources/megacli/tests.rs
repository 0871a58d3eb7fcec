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

#[test]
fn cache_policy_pair_and_bbu() {
    // glensc/nagios-plugin-check_raid issue 65: the current policy fell back from the
    // default; the near miss: WriteThrough set by default is the owner's, and WriteBack in
    // both is a cache on.
    let pair = "Default Cache Policy: WriteBack, ReadAheadNone, Cached, No Write Cache if Bad BBU\nCurrent Cache Policy: WriteThrough, ReadAheadNone, Cached, No Write Cache if Bad BBU\n";
    assert_eq!(start(&pair.lines().collect::<Vec<_>>()), spec::Start::Yes);
    let r = parse(pair);
    assert_eq!(r.cache_off.len(), 1);
    assert!(r.cache_off[0].fallback);
    assert_eq!(r.cache_off[0].name, "virtual drive of adapter 0");
    assert!(
        r.cache_off[0]
            .line
            .starts_with("Current Cache Policy: WriteThrough")
    );
    let chosen = parse(
        "Virtual Drive: 1 (Target Id: 1)\nState               : Optimal\nDefault Cache Policy: WriteThrough, ReadAhead, Direct, No Write Cache if Bad BBU\nCurrent Cache Policy: WriteThrough, ReadAhead, Direct, No Write Cache if Bad BBU\n",
    );
    assert_eq!(chosen.cache_off.len(), 1);
    assert!(!chosen.cache_off[0].fallback);
    assert_eq!(chosen.cache_off[0].name, "virtual drive 1 of adapter 0");
    assert!(
        parse(&pair.replace(
            "Current Cache Policy: WriteThrough",
            "Current Cache Policy: WriteBack"
        ))
        .cache_off
        .is_empty()
    );
    // -LDGetProp -Cache prints the current policy alone; -AdpBbuCmd the BBU.
    let r = parse(
        "Adapter 0-VD 1(target id: 1): Cache Policy:WriteThrough, ReadAheadNone, Direct, No Write Cache if bad BBU\nAdapter 0-VD 0(target id: 0): Cache Policy:WriteBack, ReadAheadNone, Direct, No Write Cache if bad BBU\n",
    );
    assert_eq!(r.cache_off.len(), 1);
    assert_eq!(r.cache_off[0].name, "virtual drive 1 of adapter 0");
    assert!(!r.cache_off[0].fallback);
    let b =
        "BBU status for Adapter: 0\n\nBatteryType: iBBU\nVoltage: 4042 mV\nBattery State: Failed\n";
    assert_eq!(start(&b.lines().collect::<Vec<_>>()), spec::Start::Yes);
    assert_eq!(parse(b).cache_protection.as_deref(), Some("Failed"));
}

#[test]
fn show_progress_lines() {
    // eLvErDe/hwraid issue 61 (an enclosure without an id) and MegaCli's -LDRecon/-LDCC
    // wordings; "not in rebuild process" is no rebuild.
    let t = "Rebuild Progress on Device at Enclosure N/A, Slot 67 Completed 31% in 959 Minutes.\n";
    assert_eq!(start(&[t.trim_end()]), spec::Start::Yes);
    let r = parse(t);
    assert_eq!(r.logical.len(), 1);
    assert_eq!(r.logical[0].name, "rebuild onto [N/A:67] of adapter 0");
    assert_eq!(
        (r.logical[0].task, r.logical[0].percent),
        (Some(Task::Recovery), Some(31.0))
    );
    assert!(r.logical[0].degraded);
    let r = parse(
        "Check Consistency on VD #0 (target id #0) Completed 1% in 0 Minutes.\nReconstruction on VD #2 (target id #2) Completed 43% in 501 Minutes.\n",
    );
    assert_eq!(r.logical[0].task, Some(Task::Check));
    assert!(!r.logical[0].degraded);
    assert_eq!(
        (r.logical[1].task, r.logical[1].percent),
        (Some(Task::Reshape), Some(43.0))
    );
    assert!(parse("Device(Encl-32 Slot-4) is not in rebuild process\n").is_empty());
    assert_eq!(
        start(&["Device(Encl-32 Slot-4) is not in rebuild process"]),
        spec::Start::No
    );
}
