//! Kernel events of a FreeBSD disk, from the boot messages and the running message buffer.

use super::captures::{Global, key};
use crate::plan::freebsd as plan;

/// Kernel events from /var/run/dmesg.boot and from the running message buffer (`dmesg`,
/// only the current boot: the text after the last "---<<BOOT>>---" tag, sys/kern/
/// subr_prf.c BOOT_TAG). The running buffer repeats the boot messages until it wraps, so
/// each boot event consumes one identical running line; the rest happened after boot.
pub(super) fn kernel_events(g: &Global, name: &str) -> Vec<crate::facts::KernelEvent> {
    use crate::sources::kernel_log::events_for;
    let mut out = g
        .data(&plan::DMESG_BOOT, "")
        .map(|log| events_for(name, log, &g.dmesg_key()))
        .unwrap_or_default();
    let Some(run) = g.data(&plan::DMESG_RUNNING, "") else {
        return out;
    };
    let current = run
        .rfind("---<<BOOT>>---")
        .and_then(|i| run.get(i..))
        .unwrap_or(run);
    let mut running = events_for(name, current, &key(&plan::DMESG_RUNNING, ""));
    for e in &out {
        if let Some(i) = running.iter().position(|r| r.line == e.line) {
            running.remove(i);
        }
    }
    out.extend(running);
    out
}
