//! The terminal the wizard asks on: throw away input typed (or pasted) ahead of a question,
//! and ask whether more input is already waiting. Thin safe wrappers of tcflush(3) with
//! TCIFLUSH and poll(2) on standard input (POSIX termios; nix keeps them free of `unsafe`).

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
