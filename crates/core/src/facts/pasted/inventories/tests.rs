use super::*;

#[test]
fn sd_names() {
    assert!(linux_sd("sda"));
    assert!(linux_sd("sdab"));
    assert!(!linux_sd("sd"));
    assert!(!linux_sd("ada0"));
    assert!(!linux_sd("sda1"));
    assert_eq!(sata_rate(3.0), Some(3.0));
    assert_eq!(sata_rate(31.6), None);
}
