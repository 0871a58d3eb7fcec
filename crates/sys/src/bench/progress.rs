//! Progress bars for the tests, and the tests' view of the Ctrl-C flag.
//!
//! The flag is owned by [`crate::interrupt`]; the measuring loop sees it between I/Os, stops,
//! drops the scratch-file guard and still reports what it measured. Bars (indicatif) are
//! drawn on a terminal only.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicU16, Ordering};

use indicatif::{ProgressBar, ProgressStyle};

pub use crate::interrupt::STOP;

/// Whether Ctrl-C was pressed (the flag is owned by [`crate::interrupt`]).
pub fn interrupted() -> bool {
    crate::interrupt::requested()
}

/// The terminal's width in columns as the binary found it (it owns the terminal
/// libraries: this crate does not depend on console); 0 until said, read as 80.
static COLUMNS: AtomicU16 = AtomicU16::new(0);

/// Say how wide the terminal the bars are drawn on is (stderr's columns).
pub fn set_columns(cols: u16) {
    COLUMNS.store(cols, Ordering::Relaxed);
}

/// A bar for one test, or nothing when stderr is not a terminal.
pub struct Bar {
    bar: Option<ProgressBar>,
}

impl Bar {
    pub fn new(label: &str, enabled: bool) -> Bar {
        let bar = if enabled && std::io::stderr().is_terminal() {
            let b = ProgressBar::new(1000);
            // The bar takes the columns the rest leaves (indicatif's wide_bar), so the line
            // never wraps at 80 columns and redraws in place; under 72 columns (a 40-column
            // terminal) the label is cut to 16 and the bytes and ETA left out, or the
            // fixed parts alone would be wider than the terminal and wrap.
            let cols = match COLUMNS.load(Ordering::Relaxed) {
                0 => 80,
                c => c,
            };
            let template = if cols >= 72 {
                "{prefix:>28} [{wide_bar}] {percent:>3}% {msg} (ETA {eta})"
            } else {
                "{prefix:>16!} [{wide_bar}] {percent:>3}%"
            };
            if let Ok(style) = ProgressStyle::with_template(template) {
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
            b.set_message(diskdoc_core::units::bytes_iec1(bytes));
        }
    }
    pub fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}
