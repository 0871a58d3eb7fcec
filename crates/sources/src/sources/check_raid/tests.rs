use super::*;

#[test]
fn plugins_messages() {
    // Messages as glensc/nagios-plugin-check_raid's tests expect them (t/check_*.t).
    let t = "CRITICAL: arcconf:[Controller:Optimal, Degraded drives:1, ZMM Status: ZMM not installed, Logical device #0: Rebuild: In Progress 1%, Logical Device 0(data):Degraded, Drives: WD-WCAW1111,WD-WCAW2222,WD-WCAW3333=Online WD-WCAW4444=Rebuilding]\n\
                 WARNING: areca:[Array#1(data): Rebuilding, Drive Assignment: 1,2,3=Array#1 16=Failed]\n\
                 OK: mdstat:[md1(927.52 GiB raid1):UU, md0(203.81 MiB raid1):_U (recovery:3.6% 12K/sec ETA: 259.6min)]\n\
                 WARNING: tw_cli:[c0(9650SE-2LP): u0(RAID-1): REBUILDING 98%, Cache:OFF, Drives(2): p0=DEGRADED p1=OK]\n\
                 CRITICAL: hpacucli:[Smart Array P400i[OK]: Array A(OK)[LUN1:Interim Recovery Mode]]; megacli:[Volumes(2): OS:Optimal,DATA:Degraded; Devices(3): 04,05=Online 06=Failed]\n";
    let r = parse(t);
    let names: Vec<(&str, bool)> = r
        .logical
        .iter()
        .map(|d| (d.name.as_str(), d.degraded))
        .collect();
    assert_eq!(
        names,
        [
            ("Logical Device 0(data)", true),
            ("Array#1(data)", true),
            ("md1", false),
            ("md0", true),
            ("u0", true),
            ("Array A LUN1", true),
            ("OS", false),
            ("DATA", true),
        ]
    );
    assert_eq!(
        (r.logical[0].task, r.logical[0].percent),
        (Some(Task::Recovery), Some(1.0))
    );
    assert_eq!(r.logical[3].percent, Some(3.6));
    assert_eq!(r.logical[4].percent, Some(98.0));
    let bad: Vec<(&str, bool)> = r
        .physical
        .iter()
        .map(|p| (p.address.as_str(), p.failed))
        .collect();
    assert_eq!(
        bad,
        [
            ("WD-WCAW4444", false),
            ("16", true),
            ("p0", true),
            ("06", true)
        ]
    );
    let s: Vec<String> = drive_serials(t).into_iter().map(|f| f.value).collect();
    assert_eq!(
        s,
        ["WD-WCAW1111", "WD-WCAW2222", "WD-WCAW3333", "WD-WCAW4444"]
    );
}

#[test]
fn healthy_lines() {
    let t = "OK: arcconf:[Controller:Optimal, Logical Device 0:Optimal, Drives: 3LQ1WEH4,3LQ1WEWL=Online]\n";
    let r = parse(t);
    assert_eq!(r.logical.len(), 1);
    assert!(!r.logical[0].degraded);
    assert!(r.physical.is_empty());
    assert!(parse("OK: everything is fine").is_empty());
}
