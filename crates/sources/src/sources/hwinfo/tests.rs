use super::*;

#[test]
fn a_disk_entry() {
    let t = "30: IDE 100.0: 10600 Disk\n  [Created at block.245]\n\
                 \x20 Model: \"APPLE HDD HTS545\"\n  Serial ID: \"TEG5193RKRBA9G\"\n\
                 \x20 Driver: \"ahci\", \"sd\"\n  Device File: /dev/sda\n\
                 \x20 Capacity: 465 GB (500107862016 bytes)\n\
                 \x20 Attached to: #24 (SATA controller)\n";
    let v = parse(t);
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].class, "Disk");
    assert_eq!(v[0].model.as_deref(), Some("APPLE HDD HTS545"));
    assert_eq!(v[0].drivers, vec!["ahci", "sd"]);
    assert_eq!(v[0].device_file.as_deref(), Some("/dev/sda"));
    assert_eq!(v[0].bytes, Some(500_107_862_016));
    assert_eq!(v[0].attached_to.as_deref(), Some("SATA controller"));
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(start(&lines), spec::Start::Yes);
    assert!(parse("30: x\n1: a: zz Disk\n").is_empty());
}
