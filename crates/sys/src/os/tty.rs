//! The terminal the wizard asks on: throw away input typed (or pasted) ahead of a question,
//! ask whether more input is already waiting, read a whole multi-line paste, and read an
//! answer that only keys typed after the question can give. Thin safe wrappers of
//! tcflush(3) with TCIFLUSH, poll(2) and tcsetattr(3) on standard input (POSIX termios; nix
//! keeps them free of `unsafe`).
//!
//! Why a paste is read with the line discipline off (no ICANON): in canonical mode the
//! kernel keeps at most 4095 bytes of unread input and drops the rest of a large paste
//! (a whole `smartctl -a` is 7 KB) while a line editor reads it key by key; without
//! ICANON a full buffer holds the writer back instead, and nothing is lost.
//!
//! Why answers are read here and not by a line editor: consent must come from keys typed
//! after the question, and a line editor cannot tell typed keys from pasted text. While an
//! answer is read, the terminal is asked for bracketed paste (xterm's control sequences,
//! "Bracketed Paste Mode": after ESC[?2004h it wraps pasted text in ESC[200~ ... ESC[201~,
//! and ESC[?2004l turns that off), so a paste is recognised and thrown away whole; a line
//! whose Enter has more input right behind it (a paste on a terminal without bracketed
//! paste: nobody types Enter and the next key in the same instant) is no answer either; and
//! the input pending when the question appears, or after a refused answer, is discarded
//! (TCIFLUSH). The terminal's own settings and bracketed paste are put back when the read
//! ends, and by [`restore_for_exit`] when a signal ends diskdoc in the middle of it.

use std::os::fd::AsFd;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use nix::sys::termios::Termios;

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

/// How many columns wide the terminal on standard error is now, or None when standard error
/// is not a terminal. TIOCGWINSZ (tty_ioctl(4) on Linux, tty(4) on FreeBSD) asks the kernel
/// on every call, so a terminal resized since the last call (SIGWINCH, tmux resize-window)
/// gives its current width: a progress bar that keeps the width it started with wraps
/// once the terminal narrows.
#[allow(unsafe_code)]
pub fn stderr_columns() -> Option<u16> {
    nix::ioctl_read_bad!(tiocgwinsz, libc::TIOCGWINSZ, libc::winsize);
    let stderr = std::io::stderr();
    let fd = std::os::fd::AsRawFd::as_raw_fd(&stderr.as_fd());
    let mut ws = libc::winsize {
        ws_row: 0,
        ws_col: 0,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    // SAFETY: fd is standard error, open for the life of the process; TIOCGWINSZ writes
    // one struct winsize into `ws`, which lives across the call (a descriptor that is not
    // a terminal gives ENOTTY and writes nothing).
    let r = unsafe { tiocgwinsz(fd, &mut ws) };
    match r {
        Ok(_) if ws.ws_col > 0 => Some(ws.ws_col),
        _ => None,
    }
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

/// The terminal's settings when diskdoc started ([`remember_terminal`]), put back by
/// [`restore_for_exit`].
static ORIGINAL: Mutex<Option<Termios>> = Mutex::new(None);

/// Whether diskdoc has turned bracketed paste on (and not yet off).
static BRACKETED: AtomicBool = AtomicBool::new(false);

/// Remember the settings of the terminal on standard input (if it is one), so that a
/// signal that ends diskdoc while a prompt has them changed can put them back.
pub fn remember_terminal() {
    let stdin = std::io::stdin();
    let fd = stdin.as_fd();
    if !nix::unistd::isatty(fd).unwrap_or(false) {
        return;
    }
    if let Ok(t) = nix::sys::termios::tcgetattr(fd) {
        *ORIGINAL.lock().unwrap_or_else(|p| p.into_inner()) = Some(t);
    }
}

/// Put the terminal back before diskdoc exits on a signal: bracketed paste off and the
/// settings [`remember_terminal`] saw (line mode and echo, whatever a prompt changed).
/// Called from the signal thread (crate::interrupt), never from signal context.
pub fn restore_for_exit() {
    if BRACKETED.swap(false, Ordering::SeqCst) {
        let _ = write_to_terminal(BRACKETED_PASTE_OFF);
    }
    let saved = ORIGINAL.lock().unwrap_or_else(|p| p.into_inner()).clone();
    if let Some(t) = saved {
        let stdin = std::io::stdin();
        let _ = nix::sys::termios::tcsetattr(stdin.as_fd(), nix::sys::termios::SetArg::TCSANOW, &t);
    }
}

const BRACKETED_PASTE_ON: &[u8] = b"\x1b[?2004h";
const BRACKETED_PASTE_OFF: &[u8] = b"\x1b[?2004l";

/// Write control bytes to the terminal on standard input: through standard input itself
/// (a terminal is opened read-write), else through /dev/tty (tty(4): the controlling
/// terminal). Standard output and error may be pipes (`diskdoc | tee log`).
fn write_to_terminal(bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let stdin = std::io::stdin();
    let mut t = std::fs::File::from(stdin.as_fd().try_clone_to_owned()?);
    match t.write_all(bytes).and_then(|()| t.flush()) {
        Ok(()) => Ok(()),
        Err(_) => {
            let mut tty = std::fs::OpenOptions::new().write(true).open("/dev/tty")?;
            tty.write_all(bytes)?;
            tty.flush()
        }
    }
}

/// The terminal on standard input with its line discipline off for as long as this lives
/// (keys one by one, no kernel echo), optionally with bracketed paste on; dropped, both
/// are put back. Holds its own descriptor of the terminal (a dup of standard input).
struct RawMode {
    tty: std::fs::File,
    saved: Termios,
    bracketed: bool,
}

impl RawMode {
    /// `signals`: Ctrl-C and Ctrl-\ still raise SIGINT and SIGQUIT (ISIG); otherwise they
    /// arrive as the bytes 0x03 and 0x1c, for the reader to handle.
    fn enter(signals: bool, bracketed: bool) -> std::io::Result<RawMode> {
        use nix::sys::termios::{InputFlags, LocalFlags, SetArg, SpecialCharacterIndices};
        let tty = std::fs::File::from(std::io::stdin().as_fd().try_clone_to_owned()?);
        let saved = nix::sys::termios::tcgetattr(&tty).map_err(std::io::Error::from)?;
        let mut raw = saved.clone();
        // Output processing stays on (a "\n" still starts a line at column 0).
        raw.local_flags
            .remove(LocalFlags::ICANON | LocalFlags::ECHO | LocalFlags::IEXTEN);
        if !signals {
            raw.local_flags.remove(LocalFlags::ISIG);
        }
        raw.input_flags.remove(InputFlags::ICRNL);
        raw.control_chars[SpecialCharacterIndices::VMIN as usize] = 1;
        raw.control_chars[SpecialCharacterIndices::VTIME as usize] = 0;
        nix::sys::termios::tcsetattr(&tty, SetArg::TCSADRAIN, &raw)
            .map_err(std::io::Error::from)?;
        let mut mode = RawMode {
            tty,
            saved,
            bracketed: false,
        };
        if bracketed && write_to_terminal(BRACKETED_PASTE_ON).is_ok() {
            BRACKETED.store(true, Ordering::SeqCst);
            mode.bracketed = true;
        }
        Ok(mode)
    }
}

impl Drop for RawMode {
    fn drop(&mut self) {
        if self.bracketed && BRACKETED.swap(false, Ordering::SeqCst) {
            let _ = write_to_terminal(BRACKETED_PASTE_OFF);
        }
        let _ = nix::sys::termios::tcsetattr(
            &self.tty,
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
    use std::io::Read;
    let stdin = std::io::stdin();
    let fd = stdin.as_fd();
    // Ctrl-C as a byte (0x03) so it can be handled here.
    let _raw = if nix::unistd::isatty(fd).unwrap_or(false) {
        Some(RawMode::enter(false, false)?)
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

/// One answer read by [`AnswerReader::read`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Typed {
    /// A line typed after the question and ended with Enter (it may be empty).
    Line(String),
    /// Pasted text (bracketed, or a line whose Enter had more input right behind it),
    /// thrown away with whatever was typed before it on that line: no answer.
    Pasted,
    /// Ctrl-C, read as a key.
    Interrupted,
    /// Ctrl-D on an empty line, or the end of input.
    Closed,
}

/// How long after an Enter more input counts as part of the same burst (a paste still
/// arriving): far below the time between two typed keys.
const BURST: Duration = Duration::from_millis(50);

/// Answers read from the terminal on standard input: while this lives, the terminal is in
/// raw mode with bracketed paste on; dropped, both are put back. Open it before the
/// question is shown, so that every paste after the question is bracketed.
pub struct AnswerReader {
    raw: RawMode,
}

impl AnswerReader {
    /// `signals`: Ctrl-C raises SIGINT as usual instead of being read as
    /// [`Typed::Interrupted`]. Errors when standard input is not a terminal.
    pub fn open(signals: bool) -> std::io::Result<AnswerReader> {
        if !nix::unistd::isatty(std::io::stdin().as_fd()).unwrap_or(false) {
            return Err(std::io::Error::new(
                std::io::ErrorKind::NotConnected,
                "standard input is not a terminal",
            ));
        }
        Ok(AnswerReader {
            raw: RawMode::enter(signals, true)?,
        })
    }

    /// Throw away input typed or pasted so far (ahead of the question, or after a refused
    /// answer). Call it right before the question is shown, not after: keys typed once the
    /// question is on the screen are the answer and must not be lost (tcflush(3) TCIFLUSH
    /// drops everything received and not yet read).
    pub fn discard_pending(&mut self) -> std::io::Result<()> {
        nix::sys::termios::tcflush(&self.raw.tty, nix::sys::termios::FlushArg::TCIFLUSH)
            .map_err(std::io::Error::from)
    }

    /// Read one answer, echoing the typed keys to `echo`. Call [`Self::discard_pending`]
    /// before showing the question.
    pub fn read(&mut self, echo: &mut dyn std::io::Write) -> std::io::Result<Typed> {
        use std::io::Read;
        let mut line = AnswerLine::default();
        let mut buf = [0u8; 4096];
        loop {
            // Unbuffered: a BufReader would hold input that poll(2) cannot see.
            let n = match (&self.raw.tty).read(&mut buf) {
                Ok(0) => return Ok(Typed::Closed),
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            for (i, &b) in buf[..n].iter().enumerate() {
                // What follows this byte at once; the LF of a CR LF Enter is part of it.
                let more = || {
                    let rest = &buf[i + 1..n];
                    let rest = match rest {
                        [b'\n', tail @ ..] if b == b'\r' => tail,
                        _ => rest,
                    };
                    !rest.is_empty() || input_pending(BURST)
                };
                if let Some(done) = line.feed(b, more, echo) {
                    let _ = echo.flush();
                    return Ok(done);
                }
            }
            let _ = echo.flush();
        }
    }
}

/// Where an escape sequence stands (ECMA-48: ESC, then `[` and parameter bytes up to a
/// final byte in 0x40..=0x7e; or ESC and one more byte).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
enum Escape {
    #[default]
    None,
    /// ESC seen.
    Start,
    /// ESC [ and the parameter bytes so far.
    Csi(Vec<u8>),
    /// ESC O: one more byte (SS3, what some terminals send for arrow keys).
    Ss3,
}

/// The answer line being typed: the keys so far, and whether a paste is under way. Fed one
/// byte at a time by [`AnswerReader::read`], so the rules can be tested without a terminal.
#[derive(Debug, Default)]
struct AnswerLine {
    text: Vec<u8>,
    escape: Escape,
    /// Inside ESC[200~ ... ESC[201~.
    pasting: bool,
    /// The previous byte ended a line with CR (a following LF belongs to it).
    cr: bool,
}

impl AnswerLine {
    /// Take one byte; `more` tells whether more input follows at once. Returns the answer
    /// when this byte ends it.
    fn feed(
        &mut self,
        b: u8,
        more: impl FnOnce() -> bool,
        echo: &mut dyn std::io::Write,
    ) -> Option<Typed> {
        match std::mem::take(&mut self.escape) {
            Escape::None => {}
            Escape::Start => {
                self.escape = match b {
                    b'[' => Escape::Csi(Vec::new()),
                    b'O' => Escape::Ss3,
                    // ESC and another key (Alt-key): ignored.
                    _ => Escape::None,
                };
                return None;
            }
            Escape::Ss3 => return None,
            Escape::Csi(mut params) => {
                if !(0x40..=0x7e).contains(&b) {
                    // Parameter and intermediate bytes (a bound keeps a broken sequence
                    // from growing without end).
                    if params.len() < 16 {
                        params.push(b);
                    }
                    self.escape = Escape::Csi(params);
                    return None;
                }
                if b == b'~' && params == b"200" {
                    self.pasting = true;
                } else if b == b'~' && params == b"201" {
                    self.pasting = false;
                    self.erase(echo);
                    return Some(Typed::Pasted);
                }
                // Any other sequence (arrow keys, function keys): ignored.
                return None;
            }
        }
        if b == 0x1b {
            self.escape = Escape::Start;
            return None;
        }
        if self.pasting {
            // Pasted bytes are never an answer, Enter and Ctrl-C among them.
            return None;
        }
        let cr = std::mem::take(&mut self.cr);
        match b {
            0x03 => {
                let _ = echo.write_all(b"^C\r\n");
                Some(Typed::Interrupted)
            }
            0x04 if self.text.is_empty() => Some(Typed::Closed),
            // The LF of a CR LF pair: that line already ended.
            b'\n' if cr => None,
            b'\r' | b'\n' => {
                self.cr = b == b'\r';
                if more() {
                    self.erase(echo);
                    return Some(Typed::Pasted);
                }
                Some(Typed::Line(
                    String::from_utf8_lossy(&self.text).into_owned(),
                ))
            }
            0x7f | 0x08 => {
                self.pop_char(echo);
                None
            }
            // Ctrl-U: the whole line.
            0x15 => {
                self.erase(echo);
                None
            }
            // Other control keys (Tab, Ctrl-D on a typed line, ...): ignored.
            0x00..=0x1f => None,
            _ => {
                self.text.push(b);
                let _ = echo.write_all(&[b]);
                None
            }
        }
    }

    /// Remove the last character (all bytes of a UTF-8 sequence) and its echo.
    fn pop_char(&mut self, echo: &mut dyn std::io::Write) {
        while let Some(b) = self.text.pop() {
            // Continuation bytes (10xxxxxx) belong to the character before them.
            if b & 0xc0 != 0x80 {
                let _ = echo.write_all(b"\x08 \x08");
                break;
            }
        }
    }

    /// Remove the whole line and its echo.
    fn erase(&mut self, echo: &mut dyn std::io::Write) {
        while !self.text.is_empty() {
            self.pop_char(echo);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Feed `bytes` to an answer line; `burst`: every Enter has more input behind it.
    fn answer(bytes: &[u8], burst: bool) -> (Option<Typed>, String) {
        let mut line = AnswerLine::default();
        let mut echo: Vec<u8> = Vec::new();
        for &b in bytes {
            if let Some(t) = line.feed(b, || burst, &mut echo) {
                return (Some(t), String::from_utf8_lossy(&echo).into_owned());
            }
        }
        (None, String::from_utf8_lossy(&echo).into_owned())
    }

    #[test]
    fn typed_keys_make_an_answer() {
        assert_eq!(answer(b"yes\r", false).0, Some(Typed::Line("yes".into())));
        assert_eq!(answer(b"yes\n", false).0, Some(Typed::Line("yes".into())));
        assert_eq!(answer(b"\r", false).0, Some(Typed::Line(String::new())));
        // Backspace, Ctrl-U and arrow keys edit; the echo follows.
        assert_eq!(
            answer(b"yo\x7fes\r", false),
            (Some(Typed::Line("yes".into())), "yo\x08 \x08es".into())
        );
        assert_eq!(
            answer(b"maybe\x15no\r", false).0,
            Some(Typed::Line("no".into()))
        );
        assert_eq!(
            answer(b"\x1b[Ano\x1bOB\r", false).0,
            Some(Typed::Line("no".into()))
        );
        // A multi-byte character goes with one backspace.
        assert_eq!(
            answer("né\x7f\x7fo\r".as_bytes(), false).0,
            Some(Typed::Line("o".into()))
        );
        assert_eq!(answer(b"ye\x03", false).0, Some(Typed::Interrupted));
        assert_eq!(answer(b"\x04", false).0, Some(Typed::Closed));
        assert_eq!(answer(b"yes", false).0, None);
    }

    #[test]
    fn a_paste_is_never_an_answer() {
        // Bracketed: the whole paste, newlines and all, is thrown away, with what was
        // typed before it on the line (and its echo).
        let (t, echo) = answer(b"y\x1b[200~note: my disk\ryes\r\x1b[201~", false);
        assert_eq!(t, Some(Typed::Pasted));
        assert_eq!(echo, "y\x08 \x08");
        assert_eq!(
            answer(b"\x1b[200~yes\x1b[201~", false).0,
            Some(Typed::Pasted)
        );
        assert_eq!(
            answer(b"\x1b[200~\r\x1b[201~", false).0,
            Some(Typed::Pasted)
        );
        // Ctrl-C inside a paste is pasted text too.
        assert_eq!(
            answer(b"\x1b[200~\x03\x1b[201~", false).0,
            Some(Typed::Pasted)
        );
        // Not bracketed: an Enter with more input right behind it is a burst.
        assert_eq!(answer(b"note: my disk\ryes\r", true).0, Some(Typed::Pasted));
        assert_eq!(answer(b"\ryes\r", true).0, Some(Typed::Pasted));
        assert_eq!(answer(b"yes\r", true).0, Some(Typed::Pasted));
    }

    #[test]
    fn discarding_without_a_terminal_is_harmless() {
        // Under `cargo test` stdin is usually not a terminal: nothing to do, no error.
        if !nix::unistd::isatty(std::io::stdin().as_fd()).unwrap_or(false) {
            assert!(discard_pending_input().is_ok());
        }
    }
}
