//! Ctrl-C handling and progress bars for the tests.
//!
//! SIGINT only sets a flag (ctrlc crate; signal-safety(7): a handler may do little more);
//! the measuring loop sees it between I/Os, stops, drops the scratch-file guard and still
//! reports what it measured. Bars (indicatif) are drawn on a terminal only.

use std::io::IsTerminal;
use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};

use indicatif::{ProgressBar, ProgressStyle};

/// Set by SIGINT/SIGTERM; checked by the runner between I/Os.
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

pub fn interrupted() -> bool {
    STOP.load(Ordering::Relaxed)
}

/// A bar for one test, or nothing when stderr is not a terminal.
pub struct Bar {
    bar: Option<ProgressBar>,
}

impl Bar {
    pub fn new(label: &str, enabled: bool) -> Bar {
        let bar = if enabled && std::io::stderr().is_terminal() {
            let b = ProgressBar::new(1000);
            if let Ok(style) = ProgressStyle::with_template(
                "{prefix:>28} [{bar:30}] {percent:>3}% {msg} (ETA {eta})",
            ) {
                b.set_style(style.progress_chars("=> "));
            }
            b.set_prefix(label.to_string());
            Some(b)
        } else {
            None
        };
        Bar { bar }
    }
    /// Fraction of the time budget used and bytes so far.
    pub fn update(&self, fraction: f64, bytes: u64) {
        if let Some(b) = &self.bar {
            b.set_position((fraction.clamp(0.0, 1.0) * 1000.0) as u64);
            b.set_message(crate::app::human_bytes(bytes));
        }
    }
    pub fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}
