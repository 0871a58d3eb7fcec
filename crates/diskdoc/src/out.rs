//! Standard output that never panics. `println!` panics when stdout is a closed pipe
//! (`diskdoc bench --json | head`); these print the same text and, when the reader has gone,
//! return [`Error::BrokenPipe`], which travels up to `main` and ends the run quietly with
//! 141, the status a shell shows for a tool killed by SIGPIPE (128 + 13). Any write test's
//! scratch file is removed before results are printed, so stopping there leaves nothing
//! behind.

use std::fmt::Arguments;
use std::io::{ErrorKind, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use crate::error::Error;

/// Set once a write found the reader gone; later output is not attempted, and `main` exits
/// with 141 even where the error could not travel up (the wizard's prompter says things and
/// cannot fail).
static CLOSED: AtomicBool = AtomicBool::new(false);

/// Whether the reader of standard output went away.
pub fn closed() -> bool {
    CLOSED.load(Ordering::Relaxed)
}

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

/// Print to standard output; [`Error::BrokenPipe`] once the reader has gone.
pub fn print(args: Arguments<'_>, newline: bool) -> Result<(), Error> {
    if closed() {
        return Err(Error::BrokenPipe);
    }
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    if write_to(&mut lock, args, newline) {
        Ok(())
    } else {
        CLOSED.store(true, Ordering::Relaxed);
        Err(Error::BrokenPipe)
    }
}

/// `print!` without the panic on a closed pipe: `Err(Error::BrokenPipe)` when the reader has
/// gone.
#[macro_export]
macro_rules! out {
    ($($t:tt)*) => { $crate::out::print(format_args!($($t)*), false) };
}

/// `println!` without the panic on a closed pipe: `Err(Error::BrokenPipe)` when the reader
/// has gone.
#[macro_export]
macro_rules! outln {
    ($($t:tt)*) => { $crate::out::print(format_args!($($t)*), true) };
}

/// Write `bytes` to `path` so that a reader sees the old file or the new one, never a part:
/// a temporary file in the same directory (same filesystem, so rename(2) is atomic), synced,
/// then renamed over `path`. node_exporter's textfile collector asks for exactly this
/// ("write to a temporary file then mv"). The temporary file is removed if anything fails.
pub fn write_atomic(path: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write as _;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| std::io::Error::new(ErrorKind::InvalidInput, "no file name"))?;
    // A leading dot and no .prom suffix: the collector ignores the file while it is written.
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
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

    #[test]
    fn atomic_write_replaces_and_leaves_no_temporary() {
        let d = std::env::temp_dir().join(format!("diskdoc-atomic-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        let p = d.join("x.prom");
        std::fs::write(&p, "old").unwrap();
        super::write_atomic(&p, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "new");
        let names: Vec<_> = std::fs::read_dir(&d)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 1, "{names:?}");
        assert!(super::write_atomic(&d.join("missing-dir/x.prom"), b"y").is_err());
        std::fs::remove_dir_all(&d).unwrap();
    }
}
