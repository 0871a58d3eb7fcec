use super::*;

#[test]
fn power_condition_page() {
    // Rows as sdparm prints them (hd-idle issue 138's layout, values varied).
    let t = "/dev/sdi: SEAGATE   ST2000NX0463      NT32\nPower condition mode page:\nPM_BG         0  [cha: n, def:  0, sav:  0]\nSTANDBY_Y     0  [cha: n, def:  0, sav:  0]\nIDLE_C        0  [cha: y, def:  0, sav:  0]\nIDLE_B        1  [cha: y, def:  1, sav:  0]\nIDLE_A        0  [cha: y, def:  1, sav:  0]\nSTANDBY_Z     1  [cha: y, def:  0, sav:  1]\nIACT          10  [cha: n, def: 10, sav: 10]\nSZCT          6000  [cha: y, def:36000, sav:36000]\nIBCT          1200  [cha: n, def:6000, sav:6000]\n";
    let r = parse(t);
    assert_eq!(r.device.as_deref(), Some("sdi"));
    assert_eq!(r.inquiry.as_deref(), Some("SEAGATE ST2000NX0463 NT32"));
    let z = r
        .timers
        .iter()
        .find(|t| t.condition == "STANDBY_Z")
        .expect("standby_z");
    assert!(z.enabled && z.spins_down);
    assert_eq!(z.timer_ms, 600_000);
    let b = r
        .timers
        .iter()
        .find(|t| t.condition == "IDLE_B")
        .expect("idle_b");
    assert!(b.enabled && !b.spins_down);
    assert_eq!(b.timer_ms, 120_000);
    // STANDBY_Y has no SYCT row here: no timer.
    assert!(!r.timers.iter().any(|t| t.condition == "STANDBY_Y"));
    assert_eq!(r.write_cache, None);
}

#[test]
fn write_cache_field() {
    let on = "    /dev/sdb: SEAGATE   ST4000NM0023      0004\nWCE           1  [cha: y, def:  1, sav:  1]\n";
    assert_eq!(parse(on).write_cache, Some(true));
    let off = "WCE         0  [cha: y, def:  1, sav:  0]\n";
    assert_eq!(parse(off).write_cache, Some(false));
    assert_eq!(
        start(&["WCE         0  [cha: y, def:  1, sav:  0]"]),
        spec::Start::Yes
    );
    assert_eq!(start(&["the WCE bit is 0 here"]), spec::Start::No);
    // Older sdparm and --get print fewer columns.
    assert_eq!(parse("WCE           1  [cha: y]\n").write_cache, Some(true));
    assert_eq!(
        parse("  WCE           0  [cha: y, def:  1]\n").write_cache,
        Some(false)
    );
}
