use super::*;

#[test]
fn device_and_feature_per_line() {
    let t = "/dev/disk/by-id/ata-CT1000MX500SSD1_X1:          *    Data Set Management TRIM supported (limit 8 blocks)\n\
                 /dev/sdb:      Deterministic read ZEROs after TRIM\n\
                 /dev/sdc: hello world\n";
    let p = parse(t);
    assert_eq!(p.len(), 2);
    assert_eq!(p[0].0, "/dev/disk/by-id/ata-CT1000MX500SSD1_X1");
    assert!(p[0].1.starts_with("Data Set Management TRIM supported"));
    assert_eq!(
        trim_supported(t),
        vec!["/dev/disk/by-id/ata-CT1000MX500SSD1_X1".to_string()]
    );
}
