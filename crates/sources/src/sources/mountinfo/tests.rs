use super::*;

#[test]
fn parses_optional_fields_and_escapes() {
    let t = "36 35 98:0 /mnt1 /mnt/my\\040disk rw,noatime master:1 shared:2 - ext3 /dev/root rw,errors=continue\n\
                 garbage line\n\
                 27 1 254:0 / / rw,relatime - ext4 /dev/vda rw,discard\n\
                 99 1 x / /y rw - tmpfs t rw\n";
    let m = parse_mountinfo(t);
    assert_eq!(m.len(), 2);
    assert_eq!(m[0].devno, "98:0");
    assert_eq!(m[0].mountpoint, "/mnt/my disk");
    assert_eq!(m[0].fstype, "ext3");
    assert_eq!(m[0].source, "/dev/root");
    assert_eq!(m[0].options, "rw,noatime");
    assert_eq!(m[1].super_options, "rw,discard");
    assert_eq!(unescape("a\\134b\\"), "a\\b\\");
}
