use super::*;
use crate::evidence::{Capture, Origin, Platform};
use crate::facts::KernelEventKind;

fn bundle(log: &str) -> EvidenceBundle {
    let mut b = EvidenceBundle::new(Platform::Linux, Origin::Hand);
    b.insert(&SourceKey::cmd(&["dmesg"]), Capture::ok(log));
    b
}

const LOG: &str = "[    7.694638] sd 0:0:0:0: [sda] 62533296 512-byte logical blocks:\n\
[    7.742149] print_req_error: I/O error, dev sda, sector 54732672\n\
[    7.964634] ata1: limiting SATA link speed to 3.0 Gbps\n\
[    8.624635] ata1: limiting SATA link speed to 1.5 Gbps\n\
[    8.700000] ata2: limiting SATA link speed to 3.0 Gbps\n";

#[test]
fn port_lines_reach_the_disk_only_with_its_port() {
    let without = events(&bundle(LOG), "sda", None);
    assert_eq!(without.len(), 1);
    assert_eq!(without[0].kind, KernelEventKind::IoError);
    let with = events(&bundle(LOG), "sda", Some("1"));
    let kinds: Vec<KernelEventKind> = with.iter().map(|e| e.kind).collect();
    assert_eq!(
        kinds,
        [
            KernelEventKind::IoError,
            KernelEventKind::LinkSpeedLimited,
            KernelEventKind::LinkSpeedLimited
        ]
    );
    assert!(
        with.iter()
            .all(|e| e.from == crate::sources::kernel_log::LINUX_SPEC.key_for(""))
    );
    assert!(!with.iter().any(|e| e.line.contains("ata2")));
}

#[test]
fn a_log_that_ties_port_and_disk_is_not_counted_twice() {
    let log = "ata1.00: ATA-10: INTEL SSDSC2KG480G8, XCV10120, max UDMA/133\n\
scsi 0:0:0:0: Direct-Access     ATA      INTEL SSDSC2KG48 0120 PQ: 0 ANSI: 5\n\
sd 0:0:0:0: [sda] 937703088 512-byte logical blocks: (480 GB/447 GiB)\n\
ata1: hard resetting link\n";
    let by_name = events(&bundle(log), "sda", None);
    let both = events(&bundle(log), "sda", Some("1"));
    assert_eq!(by_name.len(), 1, "{by_name:?}");
    assert_eq!(both, by_name);
}

#[test]
fn garbage_port_and_empty_log() {
    assert!(events(&bundle(""), "sda", Some("1")).is_empty());
    assert_eq!(events(&bundle(LOG), "sda", Some("x1")).len(), 1);
}
