use super::*;

#[test]
fn every_ask_is_answered_by_exactly_one_spec() {
    for a in Ask::ALL {
        let answers: Vec<&str> = SPECS
            .iter()
            .filter(|s| s.asks.iter().any(|(k, _)| *k == a))
            .map(|s| s.id)
            .collect();
        assert_eq!(answers.len(), 1, "{a:?} is answered by {answers:?}");
    }
}

#[test]
fn an_ask_fills_the_device_as_written() {
    assert_eq!(ask(Ask::SmartExtended, "/dev/sda"), "smartctl -x /dev/sda");
    assert_eq!(ask_bare(Ask::SmartExtended), "smartctl -x");
    assert_eq!(ask_bare(Ask::CamIdentify), "camcontrol identify");
    assert_eq!(ask_bare(Ask::CamDevlist), "camcontrol devlist -v");
    // A device the asker has as an empty string stays as it was written.
    assert_eq!(ask(Ask::SmartJson, ""), "smartctl -j -a ");
    assert_eq!(ask(Ask::CamTags, "ada0"), "camcontrol tags ada0 -v");
    assert_eq!(ask(Ask::PciDevice, "01:00.0"), "lspci -vv -s 01:00.0");
    assert_eq!(
        ask(Ask::SmartSatIdentity, "/dev/da1"),
        "smartctl -d sat -i /dev/da1"
    );
}
