use super::*;
use crate::checks::testutil::*;
use crate::facts::{DeviceClass, Fact, Transport};

#[test]
fn parses_sysfs_text() {
    assert_eq!(
        active("[mq-deadline] kyber bfq none").as_deref(),
        Some("mq-deadline")
    );
    assert_eq!(active("none [bfq]").as_deref(), Some("bfq"));
    assert_eq!(active("none").as_deref(), Some("none"));
    assert_eq!(active("[broken"), None);
    assert_eq!(active(""), None);
}

#[test]
fn hdd_with_mq_deadline_passes_none_is_notice() {
    let fs = IoScheduler.run(&linux(sata_hdd_ahci()));
    assert_vs(only(&fs, "sda"), Verdict::Pass, Severity::Info);
    let mut d = sata_hdd_ahci();
    d.scheduler = Fact::known(
        "[none] mq-deadline".to_string(),
        crate::sources::sysfs::block("sda", "queue/scheduler"),
    );
    let fs = IoScheduler.run(&linux(d));
    let f = only(&fs, "sda");
    assert_vs(f, Verdict::Problem, Severity::Notice);
    assert!(f.fixes[0].steps[0].contains("echo mq-deadline > /sys/block/sda/queue/scheduler"));
    assert_eq!(f.evidence[0].value, "scheduler=none");
}

#[test]
fn nvme_with_bfq_is_notice() {
    let mut d = sata_hdd_ahci();
    d.name = "nvme0n1".to_string();
    d.class = Fact::known(DeviceClass::Nvme, "realpath:/sys/block/nvme0n1");
    d.transport = Fact::known(Transport::Nvme, "realpath:/sys/block/nvme0n1");
    d.scheduler = Fact::known(
        "bfq".to_string(),
        crate::sources::sysfs::block("nvme0n1", "queue/scheduler"),
    );
    let fs = IoScheduler.run(&linux(d));
    assert_eq!(only(&fs, "nvme0n1").verdict, Verdict::Problem);
}

#[test]
fn freebsd_skipped_unknown_reported() {
    assert!(
        IoScheduler
            .run(&freebsd(sata_hdd_ahci_freebsd()))
            .is_empty()
    );
    let mut d = sata_hdd_ahci();
    d.scheduler = Fact::unknown("not present");
    let fs = IoScheduler.run(&linux(d));
    assert_vs(only(&fs, "sda"), Verdict::Unknown, Severity::Info);
}

#[test]
fn unknown_os_judges_only_disks_whose_scheduler_is_known() {
    // A paste of unknown OS (liquorix-package#50: only the cat of the sysfs file): a
    // known scheduler is a Linux fact; a disk without one gets no "unknown" row.
    let mut d = sata_hdd_ahci();
    d.name = "nvme0n1".to_string();
    d.class = Fact::known(DeviceClass::Nvme, "pasted");
    d.scheduler = Fact::known(
        "mq-deadline-nodefault [bfq] none".to_string(),
        "pasted:cat /sys/block/nvme0n1/queue/scheduler line 2",
    );
    let mut sys = linux(d);
    sys.platform = Platform::Unknown;
    let fs = IoScheduler.run(&sys);
    assert_eq!(only(&fs, "nvme0n1").verdict, Verdict::Problem);
    let mut d = sata_hdd_ahci();
    d.scheduler = Fact::unknown("not pasted");
    let mut sys = linux(d);
    sys.platform = Platform::Unknown;
    assert!(IoScheduler.run(&sys).is_empty());
}
