use super::*;
use crate::evidence::{Capture, Origin};

#[test]
fn linux_lists_sys_block_entries() {
    let mut b = EvidenceBundle::new(Platform::Linux, Origin::Hand);
    b.insert(
        &SourceKey::Dir("/sys/block".into()),
        Capture::ok("zram0\nloop10\nloop0\nloop2\nvda\n"),
    );
    assert_eq!(listed(&b), ["loop0", "loop2", "loop10", "vda", "zram0"]);
    let m = unknown_device_message("nosuch", &listed(&b));
    assert!(
        m.contains("\"nosuch\"") && m.contains("loop0, loop2, loop10, vda, zram0"),
        "{m}"
    );
    assert!(m.contains("--device"), "{m}");
}

#[test]
fn freebsd_lists_kern_disks_without_cd() {
    let mut b = EvidenceBundle::new(Platform::Freebsd, Origin::Hand);
    b.insert(
        &SourceKey::Sysctl("kern.disks".into()),
        Capture::ok("kern.disks: cd0 ada1 ada0"),
    );
    assert_eq!(listed(&b), ["ada0", "ada1"]);
}

#[test]
fn nothing_listed_says_so() {
    let b = EvidenceBundle::new(Platform::Linux, Origin::Hand);
    assert!(listed(&b).is_empty());
    let m = unknown_device_message("sdz", &[]);
    assert!(m.contains("no block devices could be listed"), "{m}");
}

#[test]
fn whole_disk_names() {
    assert_eq!(whole_disk("ad4s1g.eli"), "ad4");
    assert_eq!(whole_disk("ada0p2"), "ada0");
    assert_eq!(whole_disk("sda1"), "sda");
    assert_eq!(whole_disk("nvme0n1p2"), "nvme0n1");
    assert_eq!(whole_disk("da0s1a"), "da0");
    assert_eq!(whole_disk("zero"), "");
    // Xen blkfront disks (an AWS EC2 xvda and its partition); "xv" alone is no disk.
    assert_eq!(whole_disk("xvda"), "xvda");
    assert_eq!(whole_disk("xvdf1"), "xvdf");
    assert_eq!(whole_disk("xv"), "");
}
