//! Kernel log lines about a disk (Linux dmesg/journal, FreeBSD dmesg.boot/CAM).

use crate::facts::KernelEvent;

/// Events in `log` that concern the disk named `disk` (sda, ada0); `from` is the capture key.
pub fn events_for(_disk: &str, _log: &str, _from: &str) -> Vec<KernelEvent> {
    Vec::new()
}
