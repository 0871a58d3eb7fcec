use super::*;

// putfsent() layout: tabs pad the first two fields to 24 columns.
const SAMPLE: &str = "zroot/ROOT/default\t/\tzfs\trw,noatime,nfsv4acls\t0 0\n\
devfs\t\t\t/dev\t\tdevfs\trw\t\t0 0\n\
/dev/ada0p1\t\t/boot/efi\tmsdosfs\trw\t\t2 2\n\
zroot/usr/home\t\t/usr/home\tzfs\trw,noatime,nfsv4acls\t0 0\n\
/dev/gpt/data\t\t/data\t\tufs\trw,noatime\t2 2\n";

#[test]
fn fields_and_datasets() {
    let m = parse(SAMPLE);
    assert_eq!(m.len(), 5);
    assert_eq!(m[0].pool(), Some("zroot"));
    assert_eq!(m[2].provider(), Some("ada0p1"));
    assert_eq!(m[2].fstype, "msdosfs");
    assert_eq!(m[4].options, "rw,noatime");
    assert_eq!(zfs_datasets(&m), ["zroot/ROOT/default", "zroot/usr/home"]);
    assert_eq!(
        mount_for_path(&m, "/usr/home/alice/x").map(|x| x.source.as_str()),
        Some("zroot/usr/home")
    );
    assert_eq!(
        mount_for_path(&m, "/usr/homer").map(|x| x.source.as_str()),
        Some("zroot/ROOT/default")
    );
    assert_eq!(
        mount_for_path(&m, "/data").map(|x| x.source.as_str()),
        Some("/dev/gpt/data")
    );
}

#[test]
fn junk_is_skipped() {
    assert!(parse("garbage\n\nx y\n").is_empty());
}
