//! NVMe command timeouts with no media status (media_errors::nvme_timeouts_are_the_path):
//! the drive's controller stopped answering for a while. nvme(4) on Linux
//! (drivers/nvme/host/pci.c nvme_timeout: "I/O N QID M timeout, aborting", "..., reset
//! controller") and FreeBSD (nvme_qpair.c nvme_qpair_timeout) report it; an NVMe drive has
//! no cable between port and drive whose errors a timeout could stand for, so the stall is
//! the drive's (firmware, a power state it hangs in, a marginal slot or adapter), which is
//! why the check list files timeouts under media errors.

use super::ID;
use crate::checks::{Confidence, Finding, Fix, Severity, Verdict};
use crate::evidence::Platform;
use crate::facts::{DiskFacts, SystemFacts};
use crate::sources::{ask, spec::Ask};

pub(super) fn nvme_timeouts(
    sys: &SystemFacts,
    d: &DiskFacts,
    events: &[&crate::facts::KernelEvent],
) -> Finding {
    let n = events.len();
    let mut f = Finding::new(
        ID,
        &d.name,
        Verdict::Problem,
        Severity::Warning,
        format!(
            "{}: {n} NVMe command timeout line(s) (aborts, resets)",
            d.name
        ),
    )
    .explain(format!(
        "{}: {n} kernel line(s) of NVMe commands that ran past the driver's timeout and were \
         aborted or made the driver reset the controller. No command failed with a media \
         status (an unreadable block is reported as one), so this is not a bad-sector \
         problem: the controller stopped answering for a while. Each timeout stalls I/O for \
         the whole timeout (30 s by default). The usual causes are a controller hanging in \
         a power-saving state (APST), firmware, a marginal PCIe slot, riser or adapter, and \
         in a virtual machine the host's storage backend being slow to answer the emulated \
         controller.",
        d.name
    ))
    .confidence(Confidence::Low)
    .impact(0.3);
    for e in events {
        f = f.evidence(e.from.clone(), e.line.clone());
    }
    // The controller the kernel named (nvme1 of nvme1n1).
    let ctrl = crate::sources::kernel_log::nvme_controller_of(&d.name).unwrap_or(&d.name);
    let steps = match sys.platform {
        Platform::Freebsd => vec![format!(
            "`nvmecontrol logpage -p 2 {ctrl}` (health) and `nvmecontrol identify {ctrl}` \
             (firmware): look for a firmware update from the vendor"
        )],
        _ => vec![
            format!(
                "`{}` (or `nvme error-log /dev/{ctrl}`): the controller's own error log and \
                 firmware version; look for a firmware update",
                ask(Ask::SmartExtended, &format!("/dev/{ctrl}"))
            ),
            "Rule out power saving: boot once with `nvme_core.default_ps_max_latency_us=0` \
             and see whether the timeouts stop"
                .to_string(),
        ],
    };
    let mut steps = steps;
    steps.push(
        "In a virtual machine, look at the host: the disk image's storage and its latency \
         while the guest logs the timeouts"
            .to_string(),
    );
    steps.push(
        "On real hardware, reseat the drive or try another M.2/PCIe slot (no riser or \
         adapter)"
            .to_string(),
    );
    if sys.platform != Platform::Unknown {
        f = f.fix(Fix {
            platform: sys.platform,
            summary: "find why the controller stalls".to_string(),
            steps,
            risk: "none; the boot parameter only turns NVMe power saving off".to_string(),
        });
    }
    f
}
