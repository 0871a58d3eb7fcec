use super::*;

#[test]
fn digest_lines_of_gnu_and_bsd_tools() {
    assert_eq!(
        digest_line("49438591914268785da79c8569b3b571  -"),
        Some(("49438591914268785da79c8569b3b571".into(), "-".into()))
    );
    assert_eq!(
        digest_line("E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855 */dev/sdb"),
        Some((
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855".into(),
            "/dev/sdb".into()
        ))
    );
    assert_eq!(
        digest_line("MD5 (/dev/da0) = d41d8cd98f00b204e9800998ecf8427e"),
        Some(("d41d8cd98f00b204e9800998ecf8427e".into(), "/dev/da0".into()))
    );
    // Near misses: a hex id of another length, a sentence.
    assert_eq!(digest_line("deadbeef  -"), None);
    assert_eq!(digest_line("the sum was different"), None);
}

#[test]
fn commands_that_read_a_device_into_a_digest() {
    assert_eq!(
        read_command("root@(none):/# dd if=/dev/mmcblk1p3 bs=8M count=3 | md5sum"),
        Some((
            "dd if=/dev/mmcblk1p3 bs=8M count=3 | md5sum".into(),
            "/dev/mmcblk1p3".into()
        ))
    );
    assert_eq!(
        read_command("$ sudo sha256sum /dev/sdb"),
        Some(("sha256sum /dev/sdb".into(), "/dev/sdb".into()))
    );
    // Near misses: random data, a copy to another device, a file, no digest.
    assert_eq!(
        read_command("dd if=/dev/urandom bs=1M count=1 | md5sum"),
        None
    );
    assert_eq!(
        read_command("dd if=/dev/sda of=/dev/sdb bs=1M | md5sum"),
        None
    );
    assert_eq!(read_command("md5sum image.iso"), None);
    assert_eq!(read_command("dd if=/dev/sda of=/dev/null bs=1M"), None);
}

#[test]
fn the_same_read_hashing_differently_is_unstable() {
    let text = "# dd if=/dev/sdc bs=1M count=64 skip=100 | sha1sum\n\
                da39a3ee5e6b4b0d3255bfef95601890afd80709  -\n\
                64+0 records in\n64+0 records out\n\
                # dd if=/dev/sdc bs=1M count=64 skip=100 | sha1sum\n\
                2fd4e1c67a2d28fced849ee1bb76e7391b93eb12  -\n\
                64+0 records in\n64+0 records out\n";
    let lines: Vec<&str> = text.lines().collect();
    let u = unstable_reads(&lines);
    assert_eq!(u.len(), 1);
    assert_eq!(u[0].device, "/dev/sdc");
    assert_eq!(u[0].digests.len(), 2);
    assert_eq!(u[0].lines, vec![1, 5]);
    // Near misses: the same digest twice; two different commands (other ranges).
    let same = text.replace(
        "2fd4e1c67a2d28fced849ee1bb76e7391b93eb12",
        "da39a3ee5e6b4b0d3255bfef95601890afd80709",
    );
    assert!(unstable_reads(&same.lines().collect::<Vec<_>>()).is_empty());
    let other = text.replacen("skip=100", "skip=200", 1);
    assert!(unstable_reads(&other.lines().collect::<Vec<_>>()).is_empty());
}
