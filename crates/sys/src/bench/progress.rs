//! Progress bars for the tests, and the tests' view of the Ctrl-C flag.
//!
//! The flag is owned by [`crate::interrupt`]; the measuring loop sees it between I/Os, stops,
//! drops the scratch-file guard and still reports what it measured. Bars (indicatif) are
//! drawn on a terminal only.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicU16, Ordering};

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

/// The terminal's width now: asked of the kernel at each call (a resized terminal gives its
/// new width), else what the binary said at start, else 80.
fn columns_now() -> u16 {
    #[cfg(unix)]
    if let Some(c) = crate::os::tty::stderr_columns() {
        return c;
    }
    match COLUMNS.load(Ordering::Relaxed) {
        0 => 80,
        c => c,
    }
}

/// The bar's layout for a terminal `cols` wide. The bar takes the columns the rest leaves
/// (indicatif's wide_bar, which indicatif sizes at each draw), so the line never wraps at
/// 80 columns and redraws in place; under 72 columns (a 40-column terminal) the label is
/// cut to 16 and the bytes and ETA left out, or the fixed parts alone would be wider than
/// the terminal and wrap.
fn template_for(cols: u16) -> &'static str {
    if is_wide(cols) {
        "{prefix:>28} [{wide_bar}] {percent:>3}% {msg} (ETA {eta})"
    } else {
        "{prefix:>16!} [{wide_bar}] {percent:>3}%"
    }
}

fn is_wide(cols: u16) -> bool {
    cols >= 72
}

/// A bar for one test, or nothing when stderr is not a terminal.
pub struct Bar {
    bar: Option<ProgressBar>,
    /// Whether the wide layout is drawn now; changed when the terminal is resized across
    /// 72 columns.
    wide: AtomicBool,
}

impl Bar {
    pub fn new(label: &str, enabled: bool) -> Bar {
        let cols = columns_now();
        let bar = if enabled && std::io::stderr().is_terminal() {
            let b = ProgressBar::new(1000);
            set_template(&b, template_for(cols));
            b.set_prefix(label.to_string());
            Some(b)
        } else {
            None
        };
        Bar {
            bar,
            wide: AtomicBool::new(is_wide(cols)),
        }
    }
    /// Fraction of the time budget used and bytes so far. The width is read again at each
    /// update (about ten a second): a terminal narrowed while the test runs gets the narrow
    /// layout at the next redraw instead of a bar that wraps on every redraw.
    pub fn update(&self, fraction: f64, bytes: u64) {
        if let Some(b) = &self.bar {
            let cols = columns_now();
            if self.wide.swap(is_wide(cols), Ordering::Relaxed) != is_wide(cols) {
                set_template(b, template_for(cols));
            }
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

fn set_template(b: &ProgressBar, template: &str) {
    if let Ok(style) = ProgressStyle::with_template(template) {
        b.set_style(style.progress_chars("=> "));
    }
}

#[cfg(test)]
mod tests {
    /// The fixed parts of the wide layout fit from 72 columns; narrower terminals get the
    /// short one, whatever width the bar started with.
    #[test]
    fn the_layout_follows_the_width() {
        assert!(super::template_for(80).contains("ETA"));
        assert!(super::template_for(72).contains("ETA"));
        assert!(!super::template_for(71).contains("ETA"));
        assert!(!super::template_for(40).contains("{msg}"));
    }
}
