//! Input caps for the files a command reads whole (`replay`, `compare`, `explain`): a total
//! per command, checked against the file size before reading and enforced while reading (a
//! pipe or a growing file has no size), so a 200 MB bundle or thirty 100 MB pastes end in one
//! clear error instead of gigabytes of memory. `--max-input-mib N` raises the cap.

use std::io::Read;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::InputError;

/// The default total cap, MiB (the web page has the same).
pub use diskdoc_core::answer::DEFAULT_MAX_INPUT_MIB;

static MAX_INPUT_BYTES: AtomicU64 = AtomicU64::new(DEFAULT_MAX_INPUT_MIB << 20);

/// Set the cap from `--max-input-mib`.
pub fn set_max_input_mib(mib: u64) {
    MAX_INPUT_BYTES.store(mib.saturating_mul(1 << 20), Ordering::Relaxed);
}

/// What one command may still read, in total over all its inputs.
#[derive(Debug)]
pub struct InputBudget {
    cap: u64,
    left: u64,
    /// The command reading (`replay`, `explain` ...), for the fixes errors name.
    command: &'static str,
}

impl InputBudget {
    /// A budget of the configured cap for `command` (its name in the fixes errors give).
    pub fn new(command: &'static str) -> InputBudget {
        InputBudget::with_cap(command, MAX_INPUT_BYTES.load(Ordering::Relaxed))
    }

    pub fn with_cap(command: &'static str, cap: u64) -> InputBudget {
        InputBudget {
            cap,
            left: cap,
            command,
        }
    }

    fn too_big(&self, label: &str) -> InputError {
        InputError::TooBig(diskdoc_core::answer::over_cap(
            label,
            self.cap,
            "raise it with --max-input-mib N",
        ))
    }

    /// Read all of `r` (labelled `label` in errors) within the budget.
    pub fn read(
        &mut self,
        label: &str,
        r: impl Read,
        size_hint: Option<u64>,
    ) -> Result<Vec<u8>, InputError> {
        if size_hint.is_some_and(|n| n > self.left) {
            return Err(self.too_big(label));
        }
        let mut buf = Vec::new();
        r.take(self.left.saturating_add(1))
            .read_to_end(&mut buf)
            .map_err(|e| InputError::Read {
                label: label.to_string(),
                reason: e.to_string(),
            })?;
        let n = buf.len() as u64;
        if n > self.left {
            return Err(self.too_big(label));
        }
        self.left -= n;
        Ok(buf)
    }

    /// Read the file at `path` within the budget ("cannot read PATH: ..." when it cannot be
    /// opened); `-` is standard input. Directories, devices, sockets and a FIFO that nobody
    /// writes to are refused by name at once, never waited on (diskdoc_sys::input), with
    /// the way to give their content on standard input.
    pub fn read_file(&mut self, path: &Path) -> Result<Vec<u8>, InputError> {
        if path.as_os_str() == "-" {
            return self.read("standard input", std::io::stdin(), None);
        }
        let label = path.display().to_string();
        let f = diskdoc_sys::input::open_input(path).map_err(|e| {
            use diskdoc_sys::input::InputRefusal as R;
            let fix = match e {
                R::PipeWithoutWriter | R::CharDevice | R::Socket => format!(
                    ". Give its content on standard input instead: diskdoc {} - < {label}",
                    self.command
                ),
                _ => String::new(),
            };
            InputError::Refused {
                label: label.clone(),
                reason: e.to_string(),
                fix,
            }
        })?;
        let hint = f.size;
        self.read(&label, f, hint)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_is_a_total_and_names_the_flag() {
        let mut b = InputBudget::with_cap("explain", 10);
        assert_eq!(b.read("a", &b"12345"[..], None).unwrap().len(), 5);
        assert_eq!(b.read("b", &b"12345"[..], None).unwrap().len(), 5);
        let e = b.read("c", &b"1"[..], None).unwrap_err().to_string();
        assert!(e.contains("c goes over"), "{e}");
        assert!(e.contains("--max-input-mib"), "{e}");
        // Without a size (a pipe) the read stops one byte past the cap.
        let mut b = InputBudget::with_cap("explain", 4);
        let endless = std::io::repeat(b'x');
        assert!(b.read("stdin", endless, None).is_err());
        // A size over the cap fails before reading.
        let mut b = InputBudget::with_cap("explain", 4);
        assert!(b.read("f", std::io::repeat(b'x'), Some(5)).is_err());
    }
}
