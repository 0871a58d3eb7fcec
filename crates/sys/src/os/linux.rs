//! Linux-only syscall glue for the live host: block-device ioctls (linux/fs.h) and read-only
//! device reads. Kept thin on purpose: everything else is portable.
#![allow(unsafe_code)]

use std::os::unix::fs::FileExt;
use std::path::Path;

use super::io_unavailable;
use diskdoc_core::evidence::IoctlRequest;
use diskdoc_core::evidence::{Capture, Unavailable};

// linux/fs.h: #define BLKSSZGET _IO(0x12,104), BLKPBSZGET _IO(0x12,123),
// BLKGETSIZE64 _IOR(0x12,114,size_t).
nix::ioctl_read!(blk_getsize64, 0x12, 114, u64);
nix::ioctl_read_bad!(blk_sszget, nix::request_code_none!(0x12, 104), libc::c_int);
nix::ioctl_read_bad!(
    blk_pbszget,
    nix::request_code_none!(0x12, 123),
    libc::c_uint
);

fn open_ro(dev: &Path) -> Result<std::fs::File, Capture> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        // O_NONBLOCK: do not wait for removable media; O_CLOEXEC is the std default.
        .custom_flags(libc::O_NONBLOCK)
        .open(dev)
        .map_err(|e| io_unavailable(&e))
}

/// Open a block device for the raw-device write test: read-write, O_EXCL (without O_CREAT a
/// block device open then fails with EBUSY while it is mounted, in any mount namespace, or
/// claimed by dm/md/swap or another exclusive opener: open(2), block/bdev.c bd_prepare_to_claim),
/// O_NOFOLLOW (the caller passes a path it already resolved: a link planted since is refused).
pub fn open_raw_exclusive(dev: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags(libc::O_EXCL | libc::O_NOFOLLOW)
        .open(dev)
}

pub fn ioctl(dev: &Path, req: IoctlRequest) -> Capture {
    let f = match open_ro(dev) {
        Ok(f) => f,
        Err(c) => return c,
    };
    ioctl_file(&f, req)
}

/// [`ioctl`] on a descriptor that is already open.
pub fn ioctl_file(f: &std::fs::File, req: IoctlRequest) -> Capture {
    use std::os::fd::AsRawFd;
    let fd = f.as_raw_fd();
    let start = std::time::Instant::now();
    let res: nix::Result<u64> = match req {
        IoctlRequest::BlkGetSize64 => {
            let mut v: u64 = 0;
            // SAFETY: fd is an open descriptor; v is a valid u64 the kernel writes into.
            unsafe { blk_getsize64(fd, &mut v) }.map(|_| v)
        }
        IoctlRequest::BlkSszGet => {
            let mut v: libc::c_int = 0;
            // SAFETY: fd is open; BLKSSZGET writes one int.
            unsafe { blk_sszget(fd, &mut v) }.map(|_| v as u64)
        }
        IoctlRequest::BlkPbszGet => {
            let mut v: libc::c_uint = 0;
            // SAFETY: fd is open; BLKPBSZGET writes one unsigned int.
            unsafe { blk_pbszget(fd, &mut v) }.map(|_| v as u64)
        }
        _ => {
            return Capture::unavailable(
                Unavailable::Unsupported,
                format!("{} is a FreeBSD ioctl", req.name()),
            );
        }
    };
    match res {
        Ok(v) => Capture::Ok {
            data: v.to_string(),
            stderr: String::new(),
            exit_code: None,
            elapsed_ms: start.elapsed().as_millis() as u64,
        },
        Err(e) => io_unavailable(&std::io::Error::from(e)),
    }
}

pub fn read_device(dev: &Path, offset: u64, len: u64) -> Capture {
    let f = match open_ro(dev) {
        Ok(f) => f,
        Err(c) => return c,
    };
    let mut buf = vec![0u8; len.min(1 << 20) as usize];
    let mut got = 0;
    while got < buf.len() {
        match f.read_at(&mut buf[got..], offset + got as u64) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) => return io_unavailable(&e),
        }
    }
    buf.truncate(got);
    Capture::ok(diskdoc_core::evidence::hex_encode(&buf))
}

pub fn sysctl(name: &str) -> Capture {
    Capture::unavailable(
        Unavailable::Unsupported,
        format!("sysctl {name}: Linux has no BSD sysctl MIB; diskdoc reads sysfs instead"),
    )
}
