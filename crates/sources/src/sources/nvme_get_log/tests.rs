use super::*;

/// A 512-byte health log dump built the way nvme-print.c d() prints it.
fn dump(page: &[u8; 512], id: &str) -> String {
    let mut s = format!(
        "Device:nvme1 log-id:{id} namespace-id:0xffffffff\n       0  1  2  3  4  5  6  7  8  9  a  b  c  d  e  f\n"
    );
    for (i, row) in page.chunks(16).enumerate() {
        let hex: Vec<String> = row.iter().map(|b| format!("{b:02x}")).collect();
        s.push_str(&format!(
            "{:04x}: {} \"................\"\n",
            i * 16,
            hex.join(" ")
        ));
    }
    s
}

#[test]
fn fields_decode_by_the_spec_layout() {
    let mut p = [0u8; 512];
    p[0] = 0x04; // reliability degraded
    p[1] = 0x4d; // 333 K = 60 C
    p[2] = 0x01;
    p[3] = 7;
    p[4] = 10;
    p[5] = 121;
    p[160] = 0x10; // 4112 media errors
    p[161] = 0x10;
    p[192] = 5;
    p[224] = 0x2c;
    p[225] = 0x01; // 300 s
    let h = health(&dump(&p, "2")).expect("a health log");
    assert_eq!(h.critical_warning, Some(4));
    assert_eq!(h.temperature_c, Some(60));
    assert_eq!(h.available_spare, Some(7));
    assert_eq!(h.spare_threshold, Some(10));
    assert_eq!(h.percentage_used, Some(121));
    assert_eq!(h.media_errors, Some(4112));
    assert_eq!(h.warning_temp_minutes, Some(5));
    assert_eq!(h.tmt1_seconds, Some(300));
    assert_eq!(device(&dump(&p, "2")).as_deref(), Some("nvme1"));
    // Another log page is not a health log.
    assert!(health(&dump(&p, "0x1")).is_none());
}

#[test]
fn a_cut_dump_gives_only_what_it_holds() {
    let t = "Device:nvme0 log-id:2 namespace-id:0xffffffff\n       0  1  2  3  4  5  6  7  8  9  a  b  c  d  e  f\n\
                 0000: 00 38 01 64 0a 01 00 00 00 00 00 00 00 00 00 00 \".8.d............\"\n";
    let h = health(t).expect("a health log");
    assert_eq!(h.critical_warning, Some(0));
    assert_eq!(h.temperature_c, Some(39));
    assert_eq!(h.percentage_used, Some(1));
    assert_eq!(h.media_errors, None);
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(start(&lines), spec::Start::Yes);
}
