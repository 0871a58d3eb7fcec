use super::*;

#[test]
fn usb_link_arithmetic() {
    assert!((bulk_mbps(12.0) - 1.216).abs() < 1e-9);
    assert!(bulk_mbps(1.5) < 0.01);
    assert_eq!(bulk_mbps(480.0), USB2_BULK_MBPS);
    assert!((USB2_BULK_MBPS - 53.248).abs() < 1e-9);
    assert_eq!(link_data_mbps(UsbSpeed::Super), 500.0);
    assert!((link_data_mbps(UsbSpeed::SuperPlus) - 1212.12).abs() < 0.01);
    // Bulk-Only on USB 2 stays under the bulk ceiling.
    assert!(USB2_BOT_MBPS.1 < USB2_BULK_MBPS);
    assert!(arithmetic_words().contains("53 MB/s"));
    // The BOT-bound threshold lies below BOT's limit, and UAS's limit above BOT's by
    // more than the measured gain (the gain, not the link, caps the range).
    const {
        assert!(USB3_BOT_LIMIT_MBPS * BOT_BOUND_SHARE < USB3_BOT_LIMIT_MBPS);
        assert!(USB3_BOT_LIMIT_MBPS * UAS_READ_GAIN_MAX < USB3_UAS_LIMIT_MBPS);
    }
    assert!(is_gen1(5000.0) && !is_gen1(480.0) && !is_gen1(10000.0));
}
