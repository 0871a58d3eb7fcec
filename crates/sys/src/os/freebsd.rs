//! FreeBSD-only syscall glue: sys/disk.h ioctls, sysctl(3) via the sysctl crate, device reads.
//! Only compiled on FreeBSD; CI (Linux) never builds it, so it stays a few lines.
#![allow(unsafe_code)]

use std::os::unix::fs::FileExt;
use std::path::Path;

use super::io_unavailable;
use diskdoc_core::evidence::IoctlRequest;
use diskdoc_core::evidence::{Capture, Unavailable};

// sys/disk.h: DIOCGSECTORSIZE _IOR('d', 128, u_int), DIOCGMEDIASIZE _IOR('d', 129, off_t),
// DIOCGSTRIPESIZE _IOR('d', 139, off_t), DIOCGSTRIPEOFFSET _IOR('d', 140, off_t).
nix::ioctl_read!(diocg_sectorsize, b'd', 128, libc::c_uint);
nix::ioctl_read!(diocg_mediasize, b'd', 129, libc::off_t);
nix::ioctl_read!(diocg_stripesize, b'd', 139, libc::off_t);
nix::ioctl_read!(diocg_stripeoffset, b'd', 140, libc::off_t);

/// Open a GEOM provider for the raw-device write test: read-write, O_NOFOLLOW. FreeBSD's
/// g_dev_open ignores O_EXCL ("#ifdef notyet" in sys/geom/geom_dev.c); the GEOM equivalent is
/// g_access(9): a write open fails with EPERM while any consumer holds the provider
/// exclusively (a mounted UFS, gmirror, geli, a PART geom on top ...).
pub fn open_raw_exclusive(dev: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(dev)
}

pub fn ioctl(dev: &Path, req: IoctlRequest) -> Capture {
    let f = match std::fs::File::open(dev) {
        Ok(f) => f,
        Err(e) => return io_unavailable(&e),
    };
    ioctl_file(&f, req)
}

/// [`ioctl`] on a descriptor that is already open.
pub fn ioctl_file(f: &std::fs::File, req: IoctlRequest) -> Capture {
    use std::os::fd::AsRawFd;
    let fd = f.as_raw_fd();
    let res: nix::Result<u64> = match req {
        IoctlRequest::DiocgSectorSize => {
            let mut v: libc::c_uint = 0;
            // SAFETY: fd is open; the kernel writes one u_int.
            unsafe { diocg_sectorsize(fd, &mut v) }.map(|_| v as u64)
        }
        IoctlRequest::DiocgMediaSize => {
            let mut v: libc::off_t = 0;
            // SAFETY: fd is open; the kernel writes one off_t.
            unsafe { diocg_mediasize(fd, &mut v) }.map(|_| v as u64)
        }
        IoctlRequest::DiocgStripeSize => {
            let mut v: libc::off_t = 0;
            // SAFETY: as above.
            unsafe { diocg_stripesize(fd, &mut v) }.map(|_| v as u64)
        }
        IoctlRequest::DiocgStripeOffset => {
            let mut v: libc::off_t = 0;
            // SAFETY: as above.
            unsafe { diocg_stripeoffset(fd, &mut v) }.map(|_| v as u64)
        }
        _ => {
            return Capture::unavailable(
                Unavailable::Unsupported,
                format!("{} is a Linux ioctl", req.name()),
            );
        }
    };
    match res {
        Ok(v) => Capture::ok(v.to_string()),
        Err(e) => io_unavailable(&std::io::Error::from(e)),
    }
}

pub fn read_device(dev: &Path, offset: u64, len: u64) -> Capture {
    let f = match std::fs::File::open(dev) {
        Ok(f) => f,
        Err(e) => return io_unavailable(&e),
    };
    let mut buf = vec![0u8; len.min(1 << 20) as usize];
    match f.read_at(&mut buf, offset) {
        Ok(n) => {
            buf.truncate(n);
            Capture::ok(diskdoc_core::evidence::hex_encode(&buf))
        }
        Err(e) => io_unavailable(&e),
    }
}

pub fn sysctl(name: &str) -> Capture {
    use sysctl::Sysctl;
    match sysctl::Ctl::new(name).and_then(|c| c.value_string()) {
        Ok(v) => Capture::ok(v),
        Err(e) => Capture::unavailable(Unavailable::NotFound, e.to_string()),
    }
}
