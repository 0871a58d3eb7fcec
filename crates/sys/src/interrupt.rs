//! The process-wide Ctrl-C flag, shared by the wizard and the test engine. One handler,
//! owned here; long-running work (the bench runner between I/Os, the wizard between steps)
//! polls it, cleans up and reports.
//!
//! SIGINT, SIGTERM and SIGHUP (closing the terminal) all only set the flag: the ctrlc crate
//! with its `termination` feature handles the three alike (signal-safety(7): a handler may do
//! little more). SIGKILL cannot be caught; the scratch files have no name, so it leaves
//! nothing behind either (bench::scratch).
//!
//! The flag only helps where something polls it: the measuring loops, marked [`busy`]. A
//! signal that arrives while nothing is busy (diskdoc waits at a prompt, or probes), and a
//! second signal at any time, end the process at once with status 130: the handler runs on
//! ctrlc's own thread, not in signal context, and since no scratch file has a name and the
//! raw device is written only through an open descriptor, exiting leaves nothing behind.

use std::sync::Once;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Set by SIGINT, SIGTERM or SIGHUP; checked by the runner between I/Os.
pub static STOP: AtomicBool = AtomicBool::new(false);

static INSTALL: Once = Once::new();

/// How many measuring loops poll [`STOP`] right now.
static BUSY: AtomicUsize = AtomicUsize::new(0);

/// Marks work that polls [`STOP`] and wants to finish and report after a signal; dropped,
/// it unmarks.
#[derive(Debug)]
pub struct Busy(());

impl Drop for Busy {
    fn drop(&mut self) {
        BUSY.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Mark the caller's work as polling [`STOP`] until the guard drops.
pub fn busy() -> Busy {
    BUSY.fetch_add(1, Ordering::SeqCst);
    Busy(())
}

/// What a signal does: with busy work, set the flag (the work stops and reports); with none,
/// or when the flag was already set (a second signal), exit with 130.
fn on_signal() {
    let again = STOP.swap(true, Ordering::SeqCst);
    if again || BUSY.load(Ordering::SeqCst) == 0 {
        std::process::exit(130);
    }
}

/// Install the handler once per process. Returns false if another handler was already set
/// by someone else (then Ctrl-C keeps its default meaning).
pub fn install_ctrlc() -> bool {
    let mut ok = true;
    INSTALL.call_once(|| {
        ok = ctrlc::set_handler(on_signal).is_ok();
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
