use super::*;
use crate::evidence::{Capture, Origin, Platform};

/// The sysfs a QEMU guest shows for an NVMe behind pcie-root-port x-speed=2_5,x-width=1
/// (values as the lab scenario sets them; paths as Linux 6.1 lays them out).
fn bundle() -> EvidenceBundle {
    let mut b = EvidenceBundle::new(Platform::Linux, Origin::Hand);
    let dev = "/sys/devices/pci0000:00/0000:00:02.0/0000:01:00.0";
    let port = "/sys/devices/pci0000:00/0000:00:02.0";
    b.insert(
        &SourceKey::RealPath("/sys/block/nvme0n1".into()),
        Capture::ok(format!("{dev}/nvme/nvme0/nvme0n1")),
    );
    for d in [dev, port] {
        for (f, v) in [
            ("current_link_speed", "2.5 GT/s PCIe"),
            ("max_link_speed", "2.5 GT/s PCIe"),
            ("current_link_width", "1"),
            ("max_link_width", "1"),
        ] {
            b.insert(&SourceKey::file(&format!("{d}/{f}")), Capture::ok(v));
        }
    }
    b.insert(
        &SourceKey::file("/sys/block/nvme0n1/dev"),
        Capture::ok("259:0\n"),
    );
    b.insert(
        &SourceKey::file("/sys/block/nvme0n1/stat"),
        Capture::ok("100 0 800 50 10 0 80 20 0 100 200 0 0 0 0 0 0"),
    );
    b.insert(
        &SourceKey::file("/sys/dev/block/259:0/stat"),
        Capture::ok("500 0 4000 450 10 0 80 20 2 1050 2000 0 0 0 0 0 0"),
    );
    for (pid, a, c, comm) in [
        ("1234", 0u64, 92u64 << 20, "fio"),
        ("7", 4096, 4096, "idle"),
    ] {
        b.insert(
            &SourceKey::file(&format!("/proc/{pid}/io")),
            Capture::ok(format!("rchar: 1\nread_bytes: {a}\nwrite_bytes: 0\n")),
        );
        b.insert(
            &SourceKey::file(&format!("/proc/self/root/proc/{pid}/io")),
            Capture::ok(format!("rchar: 1\nread_bytes: {c}\nwrite_bytes: 0\n")),
        );
        b.insert(
            &SourceKey::file(&format!("/proc/{pid}/comm")),
            Capture::ok(comm),
        );
    }
    b
}

#[test]
fn pcie_path_busy_sample_and_top_process() {
    let b = bundle();
    let w = crate::facts::linux::controller::walk(&b, "nvme0n1");
    let top = top_processes(&b);
    assert_eq!(top.len(), 1);
    assert_eq!((top[0].pid, top[0].comm.as_str()), (1234, "fio"));
    let mut m = DiskFacts::default();
    disk(&b, "nvme0n1", &w, &top, &mut m);
    let links = m.pcie.value().cloned().unwrap_or_default();
    assert_eq!(links.len(), 2);
    assert_eq!(
        (links[0].address.as_str(), links[0].hop),
        ("0000:01:00.0", 0)
    );
    assert_eq!(links[1].address, "0000:00:02.0");
    assert_eq!(links[0].current_gts, Some(2.5));
    assert_eq!(links[1].max_width, Some(1));
    let s = m.busy.value().cloned().unwrap_or_default();
    assert_eq!(s.util_pct, 95.0);
    assert_eq!(s.ios, 400);
    assert_eq!(s.top.len(), 1);
    assert!(m.nvme_health.why().is_some_and(|w| w.contains("smart-log")));
    assert!(
        m.power
            .lpm_policy
            .why()
            .is_some_and(|w| w.contains("not a libata"))
    );
}

#[test]
fn md_sysfs_fills_limits() {
    let mut b = EvidenceBundle::new(Platform::Linux, Origin::Hand);
    b.insert(
        &SourceKey::file(plan::MDSTAT),
        Capture::ok(
            "Personalities : [raid1]\nmd0 : active raid1 vdb[1] vda[0]\n      \
                 1046528 blocks super 1.2 [2/2] [UU]\n      [==>.......]  resync = 12.5% \
                 (131072/1046528) finish=0.5min speed=26214K/sec\n\nunused devices: <none>\n",
        ),
    );
    b.insert(
        &SourceKey::file("/sys/block/md0/md/sync_speed_min"),
        Capture::ok("1000 (system)"),
    );
    b.insert(
        &SourceKey::file("/sys/block/md0/md/sync_speed_max"),
        Capture::ok("200000 (system)"),
    );
    let a = crate::facts::arrays::derive(&b)
        .value()
        .cloned()
        .unwrap_or_default();
    assert_eq!(a.len(), 1);
    assert_eq!(a[0].action, "resync");
    assert_eq!(
        (a[0].speed_min_kib_s, a[0].speed_max_kib_s),
        (Some(1000), Some(200000))
    );
    assert_eq!(a[0].members, vec!["vdb", "vda"]);
}
