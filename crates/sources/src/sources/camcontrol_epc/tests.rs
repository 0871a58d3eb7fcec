use super::*;

#[test]
fn status_lines() {
    let t = "APM: NOT Supported, NOT Enabled\nEPC: Supported, Enabled\n\
                 Low Power Standby NOT Supported\nSet EPC Power Source NOT Supported\n\
                 Current power state: PM0:Active or PM1:Idle(0xff)\n";
    let s = parse(t).expect("status");
    assert_eq!(s.apm, Some((false, false)));
    assert_eq!(s.epc, Some((true, true)));
    assert_eq!(
        s.power_state.as_deref(),
        Some("PM0:Active or PM1:Idle(0xff)")
    );
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!((RECOGNISER.starts[0].1)(&lines), spec::Start::Yes);
    assert!(parse("APM: maybe\n").is_none());
}
