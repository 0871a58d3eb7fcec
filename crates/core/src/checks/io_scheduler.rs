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
mod tests;
