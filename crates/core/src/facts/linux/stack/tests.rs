use super::*;

fn fixture(p: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/../../tests/fixtures/linux/{p}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

#[test]
fn dmsetup_luks2_keyring_fixture() {
    let t = parse_dmsetup_table(&fixture(
        "dmsetup-table/luks2-keyring-allow-discards-uuid-redacted.txt",
    ));
    assert_eq!(t.len(), 1);
    assert_eq!(t[0].name, "debian_crypt");
    assert_eq!(t[0].len, 463583232);
    assert_eq!(t[0].target, "crypt");
    assert_eq!(
        crypt_params(&t[0].args),
        (Some("aes-xts-plain64".to_string()), Some(512))
    );
    assert_eq!(t[0].args.get(3).map(String::as_str), Some("8:19"));
}

#[test]
fn dmsetup_multi_segment_and_striped_fixtures() {
    let t = parse_dmsetup_table(&fixture(
        "dmsetup-table/linear-with-error-target-sector-209.txt",
    ));
    let targets: Vec<(&str, u64)> = t.iter().map(|d| (d.target.as_str(), d.start)).collect();
    assert!(targets.contains(&("error", 209)), "{targets:?}");
    let t = parse_dmsetup_table(&fixture("dmsetup-table/lvm-striped-4x-nvme-128k.txt"));
    assert_eq!(t[0].target, "striped");
    assert_eq!(t[0].len, 25004900352);
    let hex = vec!["aes-cbc-essiv:sha256".to_string(), "0".repeat(64)];
    assert_eq!(crypt_params(&hex).1, Some(256));
}

#[test]
fn cryptsetup_status_fixtures() {
    let s = parse_cryptsetup_status(&fixture(
        "cryptsetup-status/luks2-kata-vm-sector-4096-in-use.txt",
    ));
    assert_eq!(s.kind.as_deref(), Some("LUKS2"));
    assert_eq!(s.cipher.as_deref(), Some("aes-xts-plain64"));
    assert_eq!(s.key_bits, Some(512));
    assert_eq!(s.sector_bytes, Some(4096));
    let s = parse_cryptsetup_status(&fixture(
        "cryptsetup-status/luks2-new-units-format-loop-backed-fcos.txt",
    ));
    assert_eq!(s.key_bits, Some(512));
    assert_eq!(s.sector_bytes, Some(512));
}
