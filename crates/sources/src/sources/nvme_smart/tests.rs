use super::*;

#[test]
fn fragments_and_the_failed_reasons_of_smartctl() {
    // nvme-cli's newer hex byte over two temperature lines: enough for an NVMe log.
    let h = parse("critical_warning: 0x2\ntemperature: 77 °C\nTemperature Sensor 1: 77 °C\n")
        .expect("fragment");
    assert_eq!(h.critical_warning, Some(2));
    assert_eq!(h.temperature_c, Some(77));
    // smartctl -H of an NVMe drive (nvmeprint.cpp print_critical_warning): the reasons
    // are the byte's bits.
    let h = parse(
        "SMART overall-health self-assessment test result: FAILED!\n\
             - available spare has fallen below threshold\n\
             - media has been placed in read only mode\n",
    )
    .expect("reasons");
    assert_eq!(h.critical_warning, Some(0x09));
    // A grep for "temp" of smartctl's NVMe section: its thermal management times.
    let h = parse(
        "Temperature:                        52 Celsius\n\
             Warning  Comp. Temperature Time:    0\n\
             Thermal Temp. 2 Total Time:         31\n",
    )
    .expect("grep");
    assert_eq!(h.tmt2_seconds, Some(31));
    // One temperature line alone is not an NVMe log (SATA reports have it too).
    assert_eq!(parse("Temperature:    40 Celsius\n"), None);
}

#[test]
fn pasted_logs_go_under_the_controllers_key() {
    let key = |s: &spec::SourceSpec, d| s.pasted_key(Some(d)).map(|k| k.to_string());
    assert_eq!(
        key(&NVME_CLI_SPEC, "nvme0n1").as_deref(),
        Some("cmd:nvme smart-log /dev/nvme0")
    );
    assert_eq!(
        key(&SPEC, "nvme1ns1").as_deref(),
        Some("cmd:nvmecontrol logpage -p 2 nvme1")
    );
    // nvd0 names no controller: no key (as live_key).
    assert_eq!(key(&SPEC, "nvd0"), None);
    assert_eq!(SPEC.pasted_key(None), None);
}

#[test]
fn nvmecontrol_format_from_logpage_c() {
    // Layout of sbin/nvmecontrol/logpage.c print_log_health (FreeBSD 13); values
    // constructed for the test, not a field capture.
    let t = "SMART/Health Information Log\n============================\n\
Critical Warning State:         0x04\n Available spare:               0\n Temperature:                   0\n\
 Device reliability:            1\n Read only:                     0\n Volatile memory backup:        0\n\
Temperature:                    318 K, 44.85 C, 112.73 F\nAvailable spare:                100\n\
Available spare threshold:      10\nPercentage used:                3\nMedia errors:                   2\n\
Warning Temp Composite Time:    7\nError Temp Composite Time:      0\n\
Temperature 1 Transition Count: 12\nTotal Time For Temperature 1:   340\n";
    let h = parse(t).unwrap_or_default();
    assert_eq!(h.critical_warning, Some(4));
    assert_eq!(h.temperature_c, Some(45));
    assert_eq!(h.available_spare, Some(100));
    assert_eq!(h.spare_threshold, Some(10));
    assert_eq!(h.percentage_used, Some(3));
    assert_eq!(h.media_errors, Some(2));
    assert_eq!(h.warning_temp_minutes, Some(7));
    assert_eq!((h.tmt1_count, h.tmt1_seconds), (Some(12), Some(340)));
}

#[test]
fn json_fields() {
    let j = r#"{"nvme_smart_health_information_log":{"critical_warning":1,"temperature":51,
            "available_spare":4,"available_spare_threshold":10,"percentage_used":103,
            "media_errors":7,"warning_temp_time":3,"critical_comp_time":0,
            "temperature_sensors":[51,60]},
            "nvme_composite_temperature_threshold":{"warning":70,"critical":80}}"#;
    let h = parse(j).unwrap_or_default();
    assert_eq!(h.critical_warning, Some(1));
    assert_eq!(h.sensors_c, vec![51, 60]);
    assert_eq!((h.warning_temp_c, h.critical_temp_c), (Some(70), Some(80)));
    assert_eq!(h.percentage_used, Some(103));
}

#[test]
fn words_and_garbage() {
    assert_eq!(warning_words(0x09).len(), 2);
    assert!(warning_words(0).is_empty());
    assert_eq!(parse("Temperature: 40 Celsius\n"), None);
    assert_eq!(parse("critical_warning : 0xZZ\n"), None);
    assert_eq!(warning_byte("0x1ff"), None);
    assert_eq!(temperature("0 K, -273.15 C"), None);
}
