use super::*;

/// Root refused by the kernel (EPERM on the newcomer's /dev/vda): the unknown finding
/// never tells root to run as root; a user who is not root still is told to.
#[test]
fn root_refused_is_not_told_to_run_as_root() {
    let d = DiskFacts::new("vda", "/dev/vda");
    let how = how_to_know(Platform::Linux, Source::PartitionTable, &d);
    let refused = unknown(
        "partition-misaligned",
        &d,
        "partition table of vda unknown",
        "Where the partitions start",
        "permission denied (refused even to root) (Operation not permitted (os error 1))",
        &how,
    );
    assert!(
        !refused.explanation.contains("run diskdoc as root")
            && refused
                .explanation
                .contains("diskdoc already ran as root, so running it again as root will not help"),
        "{}",
        refused.explanation
    );
    let user = unknown(
        "partition-misaligned",
        &d,
        "partition table of vda unknown",
        "Where the partitions start",
        "permission denied (run as root)",
        &how,
    );
    assert!(
        user.explanation.contains("run diskdoc as root"),
        "{}",
        user.explanation
    );
}

#[test]
fn link_ceilings_follow_8b10b() {
    assert_eq!(link_ceiling_mb_s(1.5), 150);
    assert_eq!(link_ceiling_mb_s(3.0), 300);
    assert_eq!(link_ceiling_mb_s(6.0), 600);
}

#[test]
fn human_bytes_units() {
    assert_eq!(human_bytes(516_096), "504.0 KiB");
    assert_eq!(human_bytes(3_000_592_982_016), "2.7 TiB");
    assert_eq!(human_bytes(100), "100 bytes");
}

#[test]
fn scope_by_class_and_name() {
    let mut d = DiskFacts::new("loop0", "/dev/loop0");
    assert!(!in_scope(&d));
    d.class = Fact::known(
        DeviceClass::Hdd,
        crate::sources::sysfs::block("loop0", "queue/rotational"),
    );
    assert!(in_scope(&d));
    assert!(in_scope(&DiskFacts::new("sda", "/dev/sda")));
    assert!(!in_scope(&DiskFacts::new("dm-3", "/dev/dm-3")));
    assert!(in_scope(&DiskFacts::new("mmcblk0", "/dev/mmcblk0")));
}

#[test]
fn names_used_only_when_class_unknown() {
    assert!(is_nvme(&DiskFacts::new("nvd0", "/dev/nvd0")));
    assert!(is_nvme(&DiskFacts::new("nvme0n1", "/dev/nvme0n1")));
    assert!(is_virtual_bus(&DiskFacts::new("vtbd0", "/dev/vtbd0")));
    assert!(is_virtual_bus(&DiskFacts::new("vda", "/dev/vda")));
    assert!(!is_virtual_bus(&DiskFacts::new("sda", "/dev/sda")));
    let mut d = DiskFacts::new("vda", "/dev/vda");
    d.class = Fact::known(
        DeviceClass::Hdd,
        crate::sources::sysfs::block("vda", "queue/rotational"),
    );
    assert!(!is_virtual_bus(&d));
}

#[test]
fn legacy_ad_names() {
    assert!(is_freebsd_legacy_ad("ad4"));
    assert!(!is_freebsd_legacy_ad("ada0"));
    assert!(!is_freebsd_legacy_ad("ad"));
}
