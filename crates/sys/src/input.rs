//! Opening a file the user names as input (`replay`, `compare`, `explain`, `summarize`)
//! without ever blocking on it.
//!
//! open(2) of a FIFO for reading blocks until a writer opens it (fifo(7)), so `diskdoc
//! replay FIFO` with nobody writing would hang before reading a byte. Files are therefore
//! opened with O_NONBLOCK, which makes that open return at once (open(2): "O_NONBLOCK ... the
//! open() for reading-only shall return without delay" for a FIFO, POSIX); fstat(2) of the
//! descriptor (not of the name, which could be swapped) then decides:
//! - a regular file is read as it is (O_NONBLOCK has no effect on regular files);
//! - a FIFO or pipe (a named pipe, or `<(cmd)` process substitution) is read only when a
//!   writer has it open: one non-blocking read(2) tells, as it returns 0 (end of file) only
//!   when no process has the pipe open for writing, and EAGAIN when one does but has not
//!   written yet (pipe(7)); the descriptor then goes back to blocking reads;
//! - a directory, a terminal or other character device, a block device or a socket is
//!   refused by name, with what to give instead.

use std::io::Read;
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::Path;

/// Why a named input cannot be read.
#[derive(Debug)]
pub enum InputRefusal {
    /// open(2) or read(2) failed.
    Io(std::io::Error),
    Directory,
    /// A FIFO nobody writes to (reading it would wait for a writer forever).
    PipeWithoutWriter,
    /// A terminal, /dev/zero, a tape: not a file of text.
    CharDevice,
    /// A disk: the diskdoc commands that read a disk take it with --device.
    BlockDevice,
    Socket,
}

impl std::fmt::Display for InputRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InputRefusal::Io(e) => write!(f, "{e}"),
            InputRefusal::Directory => write!(f, "it is a directory"),
            InputRefusal::PipeWithoutWriter => write!(
                f,
                "it is a named pipe (FIFO) that no program writes to, and reading it would \
                 wait for one forever"
            ),
            InputRefusal::CharDevice => write!(
                f,
                "it is a character device (a terminal or a device like /dev/zero), not a file"
            ),
            InputRefusal::BlockDevice => write!(
                f,
                "it is a block device (a disk), not a saved file; diskdoc reads a disk with \
                 `diskdoc check DEVICE`"
            ),
            InputRefusal::Socket => write!(f, "it is a socket, not a file"),
        }
    }
}

/// A named input, open and ready to read: the bytes a probing read already took, then the
/// rest of the file.
pub struct InputFile {
    head: Vec<u8>,
    file: std::fs::File,
    /// The size of a regular file (None for a pipe).
    pub size: Option<u64>,
}

impl Read for InputFile {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if !self.head.is_empty() {
            let n = buf.len().min(self.head.len());
            buf[..n].copy_from_slice(&self.head[..n]);
            self.head.drain(..n);
            return Ok(n);
        }
        self.file.read(buf)
    }
}

/// Open `path` for reading without blocking on it (see the module comment).
pub fn open_input(path: &Path) -> Result<InputFile, InputRefusal> {
    use nix::fcntl::{FcntlArg, OFlag, fcntl};
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .map_err(InputRefusal::Io)?;
    let meta = file.metadata().map_err(InputRefusal::Io)?;
    let kind = meta.file_type();
    if kind.is_dir() {
        return Err(InputRefusal::Directory);
    }
    if kind.is_char_device() {
        return Err(InputRefusal::CharDevice);
    }
    if kind.is_block_device() {
        return Err(InputRefusal::BlockDevice);
    }
    if kind.is_socket() {
        return Err(InputRefusal::Socket);
    }
    let mut head = Vec::new();
    if kind.is_fifo() {
        let mut buf = vec![0u8; 64 << 10];
        loop {
            match (&file).read(&mut buf) {
                Ok(0) => return Err(InputRefusal::PipeWithoutWriter),
                Ok(n) => {
                    buf.truncate(n);
                    head = buf;
                    break;
                }
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(InputRefusal::Io(e)),
            }
        }
    }
    // Back to blocking reads: a writer that is slow to write is waited for.
    let flags = fcntl(&file, FcntlArg::F_GETFL).map_err(|e| InputRefusal::Io(e.into()))?;
    let flags = OFlag::from_bits_truncate(flags) - OFlag::O_NONBLOCK;
    fcntl(&file, FcntlArg::F_SETFL(flags)).map_err(|e| InputRefusal::Io(e.into()))?;
    Ok(InputFile {
        head,
        file,
        size: kind.is_file().then_some(meta.len()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(mut f: InputFile) -> Vec<u8> {
        let mut v = Vec::new();
        f.read_to_end(&mut v).unwrap();
        v
    }

    #[test]
    fn a_regular_file_reads_whole_with_its_size() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("r.txt");
        std::fs::write(&p, b"hello").unwrap();
        let f = open_input(&p).unwrap();
        assert_eq!(f.size, Some(5));
        assert_eq!(read_all(f), b"hello");
    }

    #[test]
    fn a_fifo_without_a_writer_is_refused_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("fifo");
        nix::unistd::mkfifo(&p, nix::sys::stat::Mode::from_bits_truncate(0o600)).unwrap();
        let t0 = std::time::Instant::now();
        let e = open_input(&p).err().unwrap();
        assert!(matches!(e, InputRefusal::PipeWithoutWriter), "{e}");
        assert!(t0.elapsed() < std::time::Duration::from_secs(2));
    }

    #[test]
    fn a_fifo_with_a_writer_is_read_to_its_end() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("fifo");
        nix::unistd::mkfifo(&p, nix::sys::stat::Mode::from_bits_truncate(0o600)).unwrap();
        // The writer opens first (its open waits for a reader, with the writer counted),
        // and writes only after a while: the reader must wait for it, not see an end.
        let w = p.clone();
        let writer = std::thread::spawn(move || {
            use std::io::Write;
            let mut f = std::fs::OpenOptions::new().write(true).open(w).unwrap();
            std::thread::sleep(std::time::Duration::from_millis(300));
            f.write_all(b"late text").unwrap();
        });
        // Give the writer's open(2) time to start waiting for a reader.
        std::thread::sleep(std::time::Duration::from_millis(200));
        let f = open_input(&p).unwrap();
        assert_eq!(f.size, None);
        assert_eq!(read_all(f), b"late text");
        writer.join().unwrap();
    }

    #[test]
    fn devices_and_directories_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(
            open_input(dir.path()).err(),
            Some(InputRefusal::Directory)
        ));
        assert!(matches!(
            open_input(Path::new("/dev/null")).err(),
            Some(InputRefusal::CharDevice)
        ));
        assert!(matches!(
            open_input(&dir.path().join("missing")).err(),
            Some(InputRefusal::Io(_))
        ));
    }
}
