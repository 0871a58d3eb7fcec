#[test]
fn text_and_json() {
    let t = "193 Load_Cycle_Count        0x0032   198   198   000    Old_age   Always       -       7282\n";
    assert_eq!(super::ata_raw(t, 193), Some(7282));
    assert_eq!(super::ata_raw_timed(t, 193), vec![(None, 7282)]);
    assert_eq!(super::ata_raw(t, 9), None);
    let j = r#"{"ata_smart_attributes":{"table":[{"id":193,"raw":{"value":1239994}}]}}"#;
    assert_eq!(super::ata_raw(j, 193), Some(1239994));
    assert_eq!(super::ata_raw("193 x", 193), None);
}

#[test]
fn timed_readings_of_one_attribute() {
    let row = |v: u64| {
        format!(
            "193 Load_Cycle_Count        0x0032   198   198   000    Old_age   Always       -       {v}\n"
        )
    };
    // Stamps in the shapes people write them: bare, with seconds, dotted with an "h",
    // date(1)'s output; a reading with no stamp before it has none.
    let t = format!(
        "{}14:18\n{}Fri Oct 31 14:33:07 CET 2008\n{}00.05.00h\n{}",
        row(100),
        row(120),
        row(200),
        row(210)
    );
    assert_eq!(
        super::ata_raw_timed(&t, 193),
        vec![
            (None, 100),
            (Some(14 * 3600 + 18 * 60), 120),
            (Some(14 * 3600 + 33 * 60 + 7), 200),
            (Some(300), 210)
        ]
    );
    // Other attributes, sizes and prose are no stamps.
    assert_eq!(super::time_of_day("3.00 TB"), None);
    assert_eq!(super::time_of_day("25:10"), None);
    assert_eq!(
        super::time_of_day("Power_On_Hours 12:30 and more words here"),
        None
    );
    assert!(super::ata_raw_timed(&row(5), 9).is_empty());
    // From the first to the last timed reading: 14:18 to 00:05 the next day.
    let w = super::watched(&t, 193).unwrap();
    assert_eq!((w.first, w.last), (120, 210));
    assert_eq!(w.seconds, 86_400 - (14 * 3600 + 18 * 60) + 300);
    // One timed reading, or none, is no growth.
    assert_eq!(
        super::watched(&format!("{}12:00\n{}", row(1), row(2)), 193),
        None
    );
    assert_eq!(super::watched(&format!("{}{}", row(1), row(2)), 193), None);
}

#[test]
fn brief_rows_of_smartctl_x() {
    // `smartctl --xall` of a WD20EARX (smartctl 7.1): the brief table, flags as letters.
    let t = "  9 Power_On_Hours          -O--CK   011   010   000    -    65554\n\
             193 Load_Cycle_Count        -O--CK   001   001   000    -    2717503\n";
    assert_eq!(super::ata_raw(t, 193), Some(2717503));
    assert_eq!(super::ata_raw(t, 9), Some(65554));
    // Near miss: a row whose third word is no flags column (a poster's summary line).
    assert_eq!(
        super::ata_raw("193 Load_Cycle_Count is 001 001 000 - 2717503\n", 193),
        None
    );
}
