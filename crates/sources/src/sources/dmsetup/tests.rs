use super::*;

#[test]
fn crypt_mapping_names() {
    for n in [
        "truecrypt1",
        "/dev/mapper/truecrypt12",
        "veracrypt3",
        "luks-0f3a4b5c-1d2e-4f60-8a9b-0c1d2e3f4a5b",
        "sda5_crypt",
        "nvme0n1p3_crypt",
    ] {
        assert!(is_crypt_mapping_name(n), "{n}");
    }
    for n in [
        "ubuntu--desktop-root",
        "truecrypt",
        "veracryptx",
        "luks-",
        "_crypt",
        "vg0-swap",
        "cryptic",
    ] {
        assert!(!is_crypt_mapping_name(n), "{n}");
    }
}
