//! The process-wide stop flag, shared by the wizard and the test engine. One handler, owned
//! here; long-running work (the bench runner between I/Os, the wizard between steps) polls
//! it, cleans up and reports.
//!
//! SIGINT (Ctrl-C), SIGTERM, SIGHUP (the terminal closed) and SIGQUIT (Ctrl-\) all only set
//! the flag and record which signal came: signal-hook's iterator delivers them to a thread
//! of ours, outside signal context (signal-safety(7): a handler may do little more than
//! that). SIGKILL cannot be caught; the scratch files have no name, so it leaves nothing
//! behind either (bench::scratch).
//!
//! The flag only helps where something polls it: the measuring loops, marked [`busy`]. A
//! signal that arrives while nothing is busy (diskdoc waits at a prompt, or probes), and a
//! second signal at any time, end the process at once: the terminal is put back as it was
//! (line mode, echo, bracketed paste off: os::tty), and since no scratch file has a name
//! and the raw device is written only through an open descriptor, exiting leaves nothing
//! behind. The exit status is the shell's for a death by that signal, 128 + its number
//! (bash(1), "EXIT STATUS"): 130 for SIGINT, 129 SIGHUP, 131 SIGQUIT, 143 SIGTERM.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Once, OnceLock};

use signal_hook::consts::signal::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};

/// Set by SIGINT, SIGTERM, SIGHUP or SIGQUIT; checked by the runner between I/Os.
pub static STOP: AtomicBool = AtomicBool::new(false);

/// One flag per signal of [`STOP_SIGNALS`], set by the signal handler itself
/// (signal_hook::flag), so it is set before any read(2) or poll(2) the signal interrupted
/// returns to the code that reacts to it. Kept by [`clear`], so the exit status and the
/// wording can name the signal after the work stopped.
static CAME: OnceLock<[Arc<AtomicBool>; 4]> = OnceLock::new();

fn came() -> &'static [Arc<AtomicBool>; 4] {
    CAME.get_or_init(|| std::array::from_fn(|_| Arc::new(AtomicBool::new(false))))
}

/// The signal that stopped diskdoc: the first of [`STOP_SIGNALS`] that came (0: none).
fn last_signal() -> i32 {
    STOP_SIGNALS
        .iter()
        .zip(came().iter())
        .find(|(_, f)| f.load(Ordering::SeqCst))
        .map(|((s, _), _)| *s)
        .unwrap_or(0)
}

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

/// The signals diskdoc stops on, each with the words a message uses for it, SIGINT last:
/// when a signal interrupts dialoguer's wait for a key, console raises SIGINT itself
/// (console's read_single_key), so any other signal that came is the real cause.
const STOP_SIGNALS: [(i32, &str); 4] = [
    (SIGTERM, "SIGTERM"),
    (SIGHUP, "SIGHUP (the terminal closed)"),
    (SIGQUIT, "SIGQUIT"),
    (SIGINT, "Ctrl-C"),
];

/// What a signal does: with busy work, set the flag (the work stops and reports); with none,
/// or when the flag was already set (a second signal), put the terminal back and exit with
/// that signal's status.
fn on_signal() {
    let again = STOP.swap(true, Ordering::SeqCst);
    if again || BUSY.load(Ordering::SeqCst) == 0 {
        crate::os::tty::restore_for_exit();
        // The one `process::exit` outside `main`, on purpose: this runs on the signal
        // thread while the main thread may be blocked in a read(2) of a prompt or a tool's
        // pipe, or in a probe's ioctl, with no point where it polls a flag; an error cannot
        // travel up from there. Exiting from here is what the default action of the signal
        // would do, with the shell's status and the terminal put back; no scratch file has
        // a name and the raw device is written only through a descriptor, so nothing is
        // left behind (the bench_devices signal tests check it).
        std::process::exit(exit_status());
    }
}

/// 128 + the signal's number, the status a shell gives a process that signal killed.
fn status_of(sig: i32) -> i32 {
    128 + sig
}

/// Install the handler once per process (and remember the terminal's settings, so a signal
/// that ends diskdoc at a prompt restores them). Returns false if the handler could not be
/// installed (then the signals keep their default meaning: they end diskdoc at once).
pub fn install_ctrlc() -> bool {
    let mut ok = true;
    INSTALL.call_once(|| {
        crate::os::tty::remember_terminal();
        for ((sig, _), flag) in STOP_SIGNALS.iter().zip(came().iter()) {
            if signal_hook::flag::register(*sig, Arc::clone(flag)).is_err() {
                ok = false;
            }
        }
        match signal_hook::iterator::Signals::new(STOP_SIGNALS.map(|(s, _)| s)) {
            Ok(mut signals) => {
                let spawned = std::thread::Builder::new()
                    .name("diskdoc-signals".into())
                    .spawn(move || {
                        for _ in signals.forever() {
                            on_signal();
                        }
                    });
                ok &= spawned.is_ok();
            }
            Err(_) => ok = false,
        }
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

/// Whether a stop signal (Ctrl-C, SIGTERM, SIGHUP, SIGQUIT) came.
pub fn requested() -> bool {
    STOP.load(Ordering::Relaxed)
}

/// Forget an earlier signal's stop request (after it has been handled); [`exit_status`]
/// and [`cause`] still name it.
pub fn clear() {
    STOP.store(false, Ordering::SeqCst);
}

/// The exit status of a run the last signal stopped: 128 + its number (130 when none came,
/// as for Ctrl-C pressed at a prompt, which the prompt reads as a key).
pub fn exit_status() -> i32 {
    match last_signal() {
        0 => status_of(SIGINT),
        s => status_of(s),
    }
}

/// The last stop signal in words for messages ("Ctrl-C", "SIGTERM", "SIGHUP (the terminal
/// closed)", "SIGQUIT"); "Ctrl-C" when none came.
pub fn cause() -> &'static str {
    let sig = last_signal();
    STOP_SIGNALS
        .iter()
        .find(|(s, _)| *s == sig)
        .map(|(_, w)| *w)
        .unwrap_or("Ctrl-C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_statuses_follow_the_shell_convention() {
        assert_eq!(status_of(SIGINT), 130);
        assert_eq!(status_of(SIGHUP), 129);
        assert_eq!(status_of(SIGQUIT), 131);
        assert_eq!(status_of(SIGTERM), 143);
    }
}
