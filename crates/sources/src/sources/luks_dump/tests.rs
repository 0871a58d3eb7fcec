use super::*;

#[test]
fn luks2_and_luks1_headers() {
    // r/linux 15wyukc: a LUKS2 excerpt without the banner line.
    let t = "Version:        2\nData segments:\n  0: crypt\n        offset: 16777216 [bytes]\n        length: (whole device)\n        cipher: aes-xts-plain64\n        sector: 512 [bytes]\nKeyslots:\n  0: luks2\n        Key:        256 bits\n        Priority:   normal\n        Cipher:     aes-xts-plain64\n        Cipher key: 256 bits\n        PBKDF:      argon2id\n";
    let v = parse(t);
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].version, Some(2));
    assert_eq!(v[0].cipher.as_deref(), Some("aes-xts-plain64"));
    assert_eq!(v[0].key_bits, Some(256));
    assert_eq!(v[0].sector_bytes, Some(512));
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(start(&lines), spec::Start::Yes);
    assert!(
        t.lines().all(|l| LUKS_MEMBER.is_match(l)),
        "every line a member"
    );
    let l = v[0].to_layer(Some("nvme0n1p3"), "pasted:k");
    assert_eq!(l.kind, Some(LayerKind::Luks));
    assert_eq!(l.on, vec!["nvme0n1p3".to_string()]);
    // LUKS1 (cryptsetup 1.x): cipher name and mode on two lines, "MK bits".
    let t1 = "LUKS header information for /dev/sda2\n\nVersion:       \t1\nCipher name:   \taes\nCipher mode:   \txts-plain64\nHash spec:     \tsha256\nPayload offset:\t4096\nMK bits:       \t512\n";
    let v = parse(t1);
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].cipher.as_deref(), Some("aes-xts-plain64"));
    assert_eq!(v[0].key_bits, Some(512));
    // Near miss: another tool's "Version:" line followed by no LUKS line.
    let other = ["Version: 2", "Model: ACME", "Serial: X"];
    assert_eq!(start(&other), spec::Start::No);
    assert!(parse("Version: 2\nModel: ACME\n").is_empty());
}
