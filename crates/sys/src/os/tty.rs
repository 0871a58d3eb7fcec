//! The terminal the wizard asks on: throw away input typed (or pasted) ahead of a question,
//! ask whether more input is already waiting, and read a whole multi-line paste. Thin safe
//! wrappers of tcflush(3) with TCIFLUSH, poll(2) and tcsetattr(3) on standard input (POSIX
//! termios; nix keeps them free of `unsafe`).
//!
//! Why a paste is read with the line discipline off (no ICANON): in canonical mode the
//! kernel keeps at most 4095 bytes of unread input and drops the rest of a large paste
//! (a whole `smartctl -a` is 7 KB) while a line editor reads it key by key; without
//! ICANON a full buffer holds the writer back instead, and nothing is lost.

use std::os::fd::AsFd;
use std::time::Duration;

/// Discard input received on the terminal on standard input but not yet read (TCIFLUSH), so
/// the rest of a paste or a key pressed early cannot answer the next question. Does nothing
/// when standard input is not a terminal (a script's answers are not thrown away).
pub fn discard_pending_input() -> std::io::Result<()> {
    let stdin = std::io::stdin();
    let fd = stdin.as_fd();
    if !nix::unistd::isatty(fd).unwrap_or(false) {
        return Ok(());
    }
    nix::sys::termios::tcflush(fd, nix::sys::termios::FlushArg::TCIFLUSH)
        .map_err(std::io::Error::from)
}

/// Whether standard input has something to read within `wait` (a paste still arriving).
pub fn input_pending(wait: Duration) -> bool {
    use nix::poll::{PollFd, PollFlags, PollTimeout};
    let stdin = std::io::stdin();
    let mut fds = [PollFd::new(stdin.as_fd(), PollFlags::POLLIN)];
    let timeout = PollTimeout::try_from(wait).unwrap_or(PollTimeout::ZERO);
    matches!(nix::poll::poll(&mut fds, timeout), Ok(n) if n > 0)
}

/// How a paste read ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PasteEnd {
    /// The lines read (an empty first line: nothing pasted).
    Text(String),
    /// Ctrl-C.
    Interrupted,
}

/// Restores the terminal settings when dropped.
struct Restore<'a> {
    fd: std::os::fd::BorrowedFd<'a>,
    saved: nix::sys::termios::Termios,
}

impl Drop for Restore<'_> {
    fn drop(&mut self) {
        let _ = nix::sys::termios::tcsetattr(
            self.fd,
            nix::sys::termios::SetArg::TCSADRAIN,
            &self.saved,
        );
    }
}

/// Read a paste from the terminal on standard input, echoing it to `echo`: lines until an
/// empty line that no more input follows within `settle` (tool output has blank lines of
/// its own; the rest of a paste is already waiting), Ctrl-D, or `max_lines`. Backspace
/// edits the current line. Without a terminal, reads lines the same way from stdin.
pub fn read_paste(
    echo: &mut dyn std::io::Write,
    settle: Duration,
    max_lines: usize,
) -> std::io::Result<PasteEnd> {
    use nix::sys::termios::{LocalFlags, SetArg, tcgetattr, tcsetattr};
    use std::io::Read;
    let stdin = std::io::stdin();
    let fd = stdin.as_fd();
    let _restore = if nix::unistd::isatty(fd).unwrap_or(false) {
        let saved = tcgetattr(fd).map_err(std::io::Error::from)?;
        let mut raw = saved.clone();
        // Keys one by one, no kernel echo, Ctrl-C as a byte (0x03) so it can be handled
        // here; output processing stays on.
        raw.local_flags
            .remove(LocalFlags::ICANON | LocalFlags::ECHO | LocalFlags::ISIG | LocalFlags::IEXTEN);
        raw.input_flags.remove(nix::sys::termios::InputFlags::ICRNL);
        raw.control_chars[nix::sys::termios::SpecialCharacterIndices::VMIN as usize] = 1;
        raw.control_chars[nix::sys::termios::SpecialCharacterIndices::VTIME as usize] = 0;
        tcsetattr(fd, SetArg::TCSADRAIN, &raw).map_err(std::io::Error::from)?;
        Some(Restore { fd, saved })
    } else {
        None
    };
    let mut lines: Vec<String> = Vec::new();
    let mut line: Vec<u8> = Vec::new();
    let mut buf = [0u8; 4096];
    // Unbuffered: a BufReader (StdinLock) would hold input that poll(2) cannot see.
    let mut input = std::fs::File::from(fd.try_clone_to_owned()?);
    let mut last_cr = false;
    'read: loop {
        let n = match input.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        for (i, &b) in buf[..n].iter().enumerate() {
            match b {
                0x03 => {
                    let _ = echo.write_all(b"^C\r\n");
                    return Ok(PasteEnd::Interrupted);
                }
                0x04 if line.is_empty() => break 'read,
                b'\n' if last_cr => {
                    // The LF of a CR LF pair: the line already ended.
                    last_cr = false;
                    continue;
                }
                b'\r' | b'\n' => {
                    last_cr = b == b'\r';
                    let _ = echo.write_all(b"\r\n");
                    let text = String::from_utf8_lossy(&line).into_owned();
                    line.clear();
                    let blank = text.trim().is_empty();
                    // More of the paste is in this chunk, or already waiting.
                    let more = i + 1 < n || input_pending(settle);
                    if blank && (lines.is_empty() || !more) {
                        break 'read;
                    }
                    lines.push(text);
                    if lines.len() >= max_lines {
                        break 'read;
                    }
                    continue;
                }
                0x7f | 0x08 => {
                    if line.pop().is_some() {
                        let _ = echo.write_all(b"\x08 \x08");
                    }
                }
                _ => {
                    line.push(b);
                    let _ = echo.write_all(&[b]);
                }
            }
            last_cr = false;
        }
        let _ = echo.flush();
    }
    let _ = echo.flush();
    if !line.is_empty() {
        lines.push(String::from_utf8_lossy(&line).into_owned());
    }
    while lines.last().is_some_and(|l| l.trim().is_empty()) {
        lines.pop();
    }
    Ok(PasteEnd::Text(lines.join("\n")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn discarding_without_a_terminal_is_harmless() {
        // Under `cargo test` stdin is usually not a terminal: nothing to do, no error.
        if !nix::unistd::isatty(std::io::stdin().as_fd()).unwrap_or(false) {
            assert!(discard_pending_input().is_ok());
        }
    }
}
