//! The process-wide Ctrl-C flag, shared by the wizard and the test engine (one handler,
//! owned by bench::progress). Long-running work polls it, cleans up and reports.

use std::sync::atomic::Ordering;

use crate::bench::progress;

/// Install the handler (idempotent). Without it SIGINT kills the process outright.
pub fn install() {
    if !progress::install_ctrlc() {
        eprintln!("diskdoc: cannot install the Ctrl-C handler; Ctrl-C will stop at once");
    }
}

/// Whether Ctrl-C was pressed.
pub fn requested() -> bool {
    progress::interrupted()
}

/// Forget an earlier Ctrl-C (after it has been handled).
pub fn clear() {
    progress::STOP.store(false, Ordering::SeqCst);
}
