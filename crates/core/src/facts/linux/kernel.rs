//! Kernel log events for one Linux disk: the lines naming the disk (`sda`, `[sda]`) and,
//! when sysfs tells which libata port the disk hangs off (`.../ataN/hostH/...`), the
//! port's own lines ("ata1: limiting SATA link speed to 1.5 Gbps", "ata1.00: failed
//! command: READ FPDMA QUEUED"). Reference: drivers/ata/libata-eh.c names ports, not
//! disks, so without the port the link-level messages never reach the disk they concern.

use crate::evidence::{EvidenceBundle, SourceKey};
use crate::facts::KernelEvent;
use crate::sources::kernel_log;

/// The kernel log captures, in the order the probe tries them (dmesg, then the journal
/// when dmesg is empty or restricted by kernel.dmesg_restrict).
pub(crate) const LOG_COMMANDS: &[&[&str]] =
    &[&["dmesg"], &["journalctl", "-k", "-b", "--no-pager"]];

/// Events for `disk` from the first non-empty kernel log capture. `ata_port` is the N of
/// the `ataN` directory in the disk's sysfs path, when there is one. Behind a SATA port
/// multiplier several disks share one ataN, and its port-level lines ("ata3: hard
/// resetting link") are then reported on each of them: the link is shared, so is the fault.
pub fn events(b: &EvidenceBundle, disk: &str, ata_port: Option<&str>) -> Vec<KernelEvent> {
    for argv in LOG_COMMANDS {
        let k = SourceKey::cmd(argv);
        if let Some(log) = b.data(&k).filter(|l| !l.trim().is_empty()) {
            let from = k.to_string();
            let by_name = kernel_log::events_for(disk, log, &from);
            let by_port = ata_port
                .and_then(|p| p.trim().parse::<u32>().ok())
                .map(|p| kernel_log::events_for_port(p, log, &from))
                .unwrap_or_default();
            return merge(by_name, by_port);
        }
    }
    Vec::new()
}

/// Why the kernel leaves NCQ off for the drive on libata port `ata_port`, from the first
/// non-empty kernel log capture (kernel_log::ncq_off_cause).
pub(crate) fn ncq_off_cause(
    b: &EvidenceBundle,
    ata_port: Option<&str>,
) -> Option<((crate::model::NcqOffCause, String), String)> {
    let port = ata_port?.trim().parse::<u32>().ok()?;
    for argv in LOG_COMMANDS {
        let k = SourceKey::cmd(argv);
        if let Some(log) = b.data(&k).filter(|l| !l.trim().is_empty()) {
            return kernel_log::ncq_off_cause(port, log).map(|c| (c, k.to_string()));
        }
    }
    None
}

/// Union of two event lists without counting a line twice: `events_for` already includes
/// the port's lines when the log itself ties port and disk, so each distinct (kind, line)
/// is kept as often as the list holding it more often has it.
fn merge(mut by_name: Vec<KernelEvent>, by_port: Vec<KernelEvent>) -> Vec<KernelEvent> {
    let count = |list: &[KernelEvent], e: &KernelEvent| {
        list.iter()
            .filter(|x| x.kind == e.kind && x.line == e.line)
            .count()
    };
    let mut extra = Vec::new();
    for e in &by_port {
        let want = count(&by_port, e);
        let have = count(&by_name, e) + count(&extra, e);
        if have < want {
            extra.push(e.clone());
        }
    }
    by_name.extend(extra);
    by_name
}

#[cfg(test)]
mod tests;
