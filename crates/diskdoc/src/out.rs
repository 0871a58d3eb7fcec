//! Standard output that never panics. `println!` panics when stdout is a closed pipe
//! (`diskdoc bench --json | head`); these print the same text and, when the reader has gone,
//! exit quietly with 141, the status a shell shows for a tool killed by SIGPIPE (128 + 13).
//! Any write test's scratch file is removed before results are printed, so exiting here
//! leaves nothing behind.

use std::fmt::Arguments;
use std::io::{ErrorKind, Write};

/// Exit status after the reader of stdout went away (128 + SIGPIPE).
pub const BROKEN_PIPE_EXIT: i32 = 141;

/// Write `args` to `w`; false only when the reader has gone (EPIPE).
pub fn write_to(w: &mut dyn Write, args: Arguments<'_>, newline: bool) -> bool {
    let r = w
        .write_fmt(args)
        .and_then(|_| if newline { w.write_all(b"\n") } else { Ok(()) })
        .and_then(|_| w.flush());
    match r {
        Err(e) if e.kind() == ErrorKind::BrokenPipe => false,
        // Other errors (a full disk behind a redirect) cannot be reported on stdout either;
        // stderr says so once and the run goes on to its own exit status.
        Err(e) => {
            eprintln!("diskdoc: could not write to standard output: {e}");
            true
        }
        Ok(()) => true,
    }
}

pub fn print(args: Arguments<'_>, newline: bool) {
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    if !write_to(&mut lock, args, newline) {
        std::process::exit(BROKEN_PIPE_EXIT);
    }
}

/// `print!` without the panic on a closed pipe.
#[macro_export]
macro_rules! out {
    ($($t:tt)*) => { $crate::out::print(format_args!($($t)*), false) };
}

/// `println!` without the panic on a closed pipe.
#[macro_export]
macro_rules! outln {
    ($($t:tt)*) => { $crate::out::print(format_args!($($t)*), true) };
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Closed;
    impl Write for Closed {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::Error::from(ErrorKind::BrokenPipe))
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn closed_pipe_is_reported_not_panicked() {
        assert!(!write_to(&mut Closed, format_args!("x{}", 1), true));
        let mut v = Vec::new();
        assert!(write_to(&mut v, format_args!("a{}", 2), true));
        assert!(write_to(&mut v, format_args!("b"), false));
        assert_eq!(v, b"a2\nb");
    }
}
