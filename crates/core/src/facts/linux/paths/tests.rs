use super::*;

#[test]
fn partition_names() {
    assert!(is_partition_of("sda1", "sda"));
    assert!(is_partition_of("sda12", "sda"));
    assert!(!is_partition_of("sdaa", "sda"));
    assert!(is_partition_of("nvme0n1p3", "nvme0n1"));
    assert!(!is_partition_of("nvme0n12", "nvme0n1"));
    assert!(!is_partition_of("mmcblk0boot0", "mmcblk0"));
    assert!(!is_partition_of("sda", "sda"));
    let all = vec!["sda".to_string(), "loop1".into(), "loop10".into()];
    assert_eq!(owning_disk("sda2", &all).as_deref(), Some("sda"));
    assert_eq!(owning_disk("loop10p1", &all).as_deref(), Some("loop10"));
    assert_eq!(owning_disk("loop1p1", &all).as_deref(), Some("loop1"));
    assert_eq!(owning_disk("sdb1", &all), None);
    assert!(!valid_name("../etc"));
    assert!(!valid_name("a b"));
    assert!(valid_name("luks-1234_ab"));
}

#[test]
fn classifies_a_sata_path() {
    let p = split_sys_path(
        "/sys/devices/pci0000:00/0000:00:1f.2/ata3/host2/target2:0:0/2:0:0:0/block/sda",
    );
    let kinds: Vec<&SysPathPart> = p.iter().map(|(_, k)| k).collect();
    assert_eq!(*kinds[3], SysPathPart::Pci("0000:00:1f.2".into()));
    assert_eq!(p[3].0, "/sys/devices/pci0000:00/0000:00:1f.2");
    assert_eq!(*kinds[4], SysPathPart::AtaPort("3".into()));
    assert_eq!(*kinds[5], SysPathPart::ScsiHost("2".into()));
    assert!(matches!(kinds[7], SysPathPart::ScsiDevice { target, .. } if target == "0"));
    assert_eq!(
        classify_component("2-1.4:1.0"),
        SysPathPart::UsbInterface("2-1.4:1.0".into())
    );
    assert_eq!(
        classify_component("2-1.4"),
        SysPathPart::UsbDevice("2-1.4".into())
    );
    assert_eq!(
        classify_component("virtio1"),
        SysPathPart::Virtio("1".into())
    );
    assert_eq!(
        classify_component("target2:0:0"),
        SysPathPart::Other("target2:0:0".into())
    );
}

#[test]
fn mount_lookup() {
    let mi = "27 1 254:0 / / rw,relatime - ext4 /dev/vda rw\n\
                  40 27 8:1 / /home rw - ext4 /dev/sda1 rw\n\
                  41 27 8:2 / /home2 rw - ext4 /dev/sda2 rw\n";
    assert_eq!(mount_devno_for_path(mi, "/home/x").as_deref(), Some("8:1"));
    assert_eq!(mount_devno_for_path(mi, "/home").as_deref(), Some("8:1"));
    assert_eq!(mount_devno_for_path(mi, "/home2/a").as_deref(), Some("8:2"));
    assert_eq!(mount_devno_for_path(mi, "/homeX").as_deref(), Some("254:0"));
    assert_eq!(mount_devno_for_path("", "/x"), None);
}
