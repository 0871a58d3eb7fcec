//! One process-wide Ctrl-C flag. The first SIGINT sets it; long-running work (tests, prompts)
//! polls it, cleans up (scratch files) and reports what was done. Installed once.

use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};

static FLAG: AtomicBool = AtomicBool::new(false);
static INSTALL: Once = Once::new();

/// Install the handler (idempotent). Without it SIGINT kills the process outright.
pub fn install() {
    INSTALL.call_once(|| {
        // A second handler elsewhere would make this fail; then the default action stays,
        // which still leaves no scratch file because scratch files are removed by guards
        // only on orderly exit -- so report it.
        if let Err(e) = ctrlc::set_handler(|| FLAG.store(true, Ordering::SeqCst)) {
            eprintln!("diskdoc: cannot install the Ctrl-C handler: {e}");
        }
    });
}

/// Whether Ctrl-C was pressed.
pub fn requested() -> bool {
    FLAG.load(Ordering::SeqCst)
}

/// Forget an earlier Ctrl-C (after it has been handled).
pub fn clear() {
    FLAG.store(false, Ordering::SeqCst);
}

/// Simulate Ctrl-C (tests).
pub fn request() {
    FLAG.store(true, Ordering::SeqCst);
}
