//! `io-scheduler`: the Linux block-layer I/O scheduler against the device class (no
//! scheduler on an HDD, bfq on NVMe). References: Linux Documentation/block/ (switching
//! schedulers, queue-sysfs `scheduler`), mq-deadline and bfq documentation.

use crate::checks::common::{self, Media, cite, media};
use crate::checks::{Check, Confidence, Finding, Fix, Severity, Verdict};
use crate::evidence::Platform;
use crate::facts::{DiskFacts, SystemFacts};

pub const ID: &str = "io-scheduler";

pub(crate) struct IoScheduler;

impl Check for IoScheduler {
    fn id(&self) -> &'static str {
        ID
    }
    fn label(&self) -> &'static str {
        "I/O scheduler"
    }
    fn summary(&self) -> &'static str {
        "Linux I/O scheduler unsuited to the device (none on an HDD, bfq on NVMe)"
    }
    fn run(&self, sys: &SystemFacts) -> Vec<Finding> {
        match sys.platform {
            Platform::Linux => common::disks(sys).map(check_disk).collect(),
            // FreeBSD's CAM has no per-disk scheduler switch in GENERIC kernels.
            Platform::Freebsd => Vec::new(),
            // A paste of unknown OS: only Linux has /sys/block/X/queue/scheduler, so a
            // disk whose scheduler is known is a Linux disk (liquorix-package#50 pasted
            // just the cat of an NVMe drive's file).
            _ => common::disks(sys)
                .filter(|d| d.scheduler.is_known())
                .map(check_disk)
                .collect(),
        }
    }
}

/// The active scheduler from sysfs text ("[mq-deadline] kyber bfq none") or a bare name.
pub(crate) fn active(s: &str) -> Option<String> {
    let s = s.trim();
    if let Some(open) = s.find('[') {
        let rest = s.get(open + 1..)?;
        let close = rest.find(']')?;
        return rest.get(..close).map(str::to_string);
    }
    s.split_whitespace().next().map(str::to_string)
}

pub(crate) fn check_disk(d: &DiskFacts) -> Finding {
    if common::is_virtual_bus(d) {
        return common::not_applicable(
            ID,
            d,
            "a paravirtual disk: the host schedules the real I/O (none is the usual choice in \
             a guest)",
        );
    }
    let Some(raw) = d.scheduler.value() else {
        return common::unknown(
            ID,
            d,
            format!("I/O scheduler of {} unknown", d.name),
            "The active I/O scheduler",
            &common::why(&d.scheduler),
            &format!(
                "let diskdoc read /sys/block/{}/queue/scheduler (no root needed)",
                d.name
            ),
        );
    };
    let Some(sched) = active(raw) else {
        return common::unknown(
            ID,
            d,
            format!("I/O scheduler of {} unreadable", d.name),
            "The active I/O scheduler",
            &format!("the scheduler file read {raw:?}"),
            &format!("check `cat /sys/block/{}/queue/scheduler`", d.name),
        );
    };
    let ev = format!("scheduler={sched}");
    let (want, why) = match (media(d), common::is_nvme(d), sched.as_str()) {
        (Some(Media::Hdd), _, "none" | "noop") => (
            "mq-deadline",
            "With no scheduler, requests reach the HDD in arrival order; mq-deadline (or bfq \
             for desktops) sorts them by position and keeps reads from starving behind \
             writes, which matters when several programs use the disk at once. NCQ reorders \
             too, but only within its 32 slots.",
        ),
        (_, true, "bfq") => (
            "none",
            "bfq does per-request bookkeeping that costs CPU time; on an NVMe drive doing \
             hundreds of thousands of I/Os per second it becomes the limit. NVMe drives \
             schedule internally; none is the usual choice.",
        ),
        _ => {
            return cite(
                common::pass(ID, d, format!("I/O scheduler {sched}: suits this device")),
                &d.scheduler,
                ev,
            );
        }
    };
    let name = &d.name;
    let f = Finding::new(
        ID,
        name,
        Verdict::Problem,
        Severity::Notice,
        format!("{name}: I/O scheduler {sched}; {want} suits this device better"),
    )
    .explain(why.to_string())
    .confidence(Confidence::Low)
    .impact(0.05)
    .fix(Fix {
        platform: Platform::Linux,
        summary: format!("switch {name} to {want}"),
        steps: vec![
            format!("Now: `echo {want} > /sys/block/{name}/queue/scheduler`"),
            format!(
                "Permanently: /etc/udev/rules.d/60-scheduler.rules with ACTION==\"add|change\", \
                 KERNEL==\"{name}\", ATTR{{queue/scheduler}}=\"{want}\" (kernel names can \
                 change; match ENV{{ID_SERIAL}} to be exact)"
            ),
        ],
        risk: "none; switching back is the same command".to_string(),
    });
    cite(f, &d.scheduler, ev)
}

#[cfg(test)]
mod tests {
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
}
