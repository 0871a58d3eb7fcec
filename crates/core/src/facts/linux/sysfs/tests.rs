use super::*;

#[test]
fn speeds() {
    assert_eq!(parse_gbps("6.0 Gbps"), Some(6.0));
    assert_eq!(parse_gbps("1.5 Gbps\n"), Some(1.5));
    assert_eq!(parse_gbps("<unknown>"), None);
    assert_eq!(parse_gbps("x Gbps"), None);
    assert_eq!(basename("/sys/bus/pci/drivers/ahci"), "ahci");
    assert_eq!(sanitize("A\u{1b}[31mB"), "A?[31mB");
    let f: Fact<u32> = first_known(vec![Fact::unknown("a"), Fact::unknown("b")]);
    assert_eq!(f.why(), Some("a; b"));
}
