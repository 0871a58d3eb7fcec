use super::*;

#[test]
fn lpm_setter_failures_of_the_client_and_of_dbus() {
    let client = "setting power profile to Balanced\n\
                  daemon returned an error message: \"Errors found when setting profile:\n\
                  \x20   - failed to set scsi host profiles: failed to set link time power management policy med_power_with_dipm on host3: Operation not supported (os error 95)\"\n";
    let r = parse(client);
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].setter, "scsi host profiles");
    assert_eq!(
        r[0].lpm,
        Some(("med_power_with_dipm".to_string(), "host3".to_string()))
    );
    assert_eq!(r[0].error, "Operation not supported (os error 95)");
    let lines: Vec<&str> = client.lines().collect();
    assert_eq!(start(&lines), spec::Start::Yes);
    assert!(lines.iter().all(|l| is_member(l)));

    let dbus = "org.freedesktop.DBus.Error.Failed: Errors found when setting profile:\n\n\
                \x20 - failed to set backlight profiles: permission denied\n";
    let lines: Vec<&str> = dbus.lines().collect();
    assert_eq!(start(&lines), spec::Start::Yes);
    let r = parse(dbus);
    assert_eq!((r.len(), r[0].lpm.is_none()), (1, true));
}

#[test]
fn prose_is_not_system76_power() {
    assert_eq!(
        start(&["after setting power profile to battery mode my disk got slow"]),
        spec::Start::No
    );
    assert!(!is_member("failed to set the clock"));
    assert!(parse("I failed to set link time power management policy by hand").is_empty());
}
