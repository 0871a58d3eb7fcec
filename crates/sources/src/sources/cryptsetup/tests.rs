use super::*;

/// The 1.0.x head ("%s/%s is active:" with a colon, no type line, an optional
/// "skipped:" row) and the current one start a block and parse alike. Written from
/// cryptsetup's printf formats, NOT A CAPTURE.
#[test]
fn old_and_new_heads() {
    let old = "/dev/mapper/backup is active:\n  cipher:  twofish-cbc-plain\n  keysize: 128 bits\n  device:  /dev/sdd2\n  offset:  0 sectors\n  size:    409600 sectors\n  skipped: 0 sectors\n  mode:    readonly\n";
    let lines: Vec<&str> = old.lines().collect();
    assert_eq!(start(&lines), spec::Start::Yes);
    let v = parse(old);
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].mapping, "/dev/mapper/backup");
    assert_eq!(v[0].cipher.as_deref(), Some("twofish-cbc-plain"));
    assert_eq!(v[0].key_bits, Some(128));
    assert_eq!(v[0].device.as_deref(), Some("/dev/sdd2"));
    assert_eq!(v[0].crypt_type, None);
    let new = "crypt is active and is in use.\n  type:    PLAIN\n  cipher:  aes-cbc-essiv:sha256\n  keysize: 256 bits\n  device:  /dev/vdb\n";
    let lines: Vec<&str> = new.lines().collect();
    assert_eq!(start(&lines), spec::Start::Yes);
    assert_eq!(parse(new)[0].crypt_type.as_deref(), Some("PLAIN"));
    // A sentence that ends in "is active:" with no status row after it is no block.
    assert_eq!(
        start(&["md0 is active:", "and then it crashed"]),
        spec::Start::Stop
    );
}
