//! The process-wide Ctrl-C flag, shared by the wizard and the test engine. One handler,
//! owned here; long-running work (the bench runner between I/Os, the wizard between steps)
//! polls it, cleans up and reports.
//!
//! SIGINT, SIGTERM and SIGHUP (closing the terminal) all only set the flag: the ctrlc crate
//! with its `termination` feature handles the three alike (signal-safety(7): a handler may do
//! little more). SIGKILL cannot be caught; the scratch files have no name, so it leaves
//! nothing behind either (bench::scratch).

use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set by SIGINT, SIGTERM or SIGHUP; checked by the runner between I/Os.
pub static STOP: AtomicBool = AtomicBool::new(false);

static INSTALL: Once = Once::new();

/// Install the handler once per process. Returns false if another handler was already set
/// by someone else (then Ctrl-C keeps its default meaning).
pub fn install_ctrlc() -> bool {
    let mut ok = true;
    INSTALL.call_once(|| {
        ok = ctrlc::set_handler(|| STOP.store(true, Ordering::SeqCst)).is_ok();
    });
    ok
}

/// Install the handler (idempotent), saying so on stderr when that fails. Without it SIGINT
/// kills the process outright.
pub fn install() {
    if !install_ctrlc() {
        eprintln!("diskdoc: cannot install the Ctrl-C handler; Ctrl-C will stop at once");
    }
}

/// Whether Ctrl-C was pressed.
pub fn requested() -> bool {
    STOP.load(Ordering::Relaxed)
}

/// Forget an earlier Ctrl-C (after it has been handled).
pub fn clear() {
    STOP.store(false, Ordering::SeqCst);
}
