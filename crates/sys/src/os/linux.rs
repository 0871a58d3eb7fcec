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

/// struct loop_info64 (include/uapi/linux/loop.h), as LOOP_GET_STATUS64 fills it. Every
/// field is part of the kernel's layout, read or not.
#[repr(C)]
#[allow(dead_code)]
struct LoopInfo64 {
    lo_device: u64,
    lo_inode: u64,
    lo_rdevice: u64,
    lo_offset: u64,
    lo_sizelimit: u64,
    lo_number: u32,
    lo_encrypt_type: u32,
    lo_encrypt_key_size: u32,
    lo_flags: u32,
    lo_file_name: [u8; 64],
    lo_crypt_name: [u8; 64],
    lo_encrypt_key: [u8; 32],
    lo_init: [u64; 2],
}

// include/uapi/linux/loop.h: #define LOOP_GET_STATUS64 0x4C05 (a plain number, not _IOR).
nix::ioctl_read_bad!(loop_get_status64, 0x4C05, LoopInfo64);

/// What the kernel says a loop device's backing file is: drivers/block/loop.c
/// loop_get_status() stats the open backing file itself (vfs_getattr on its path), so the
/// answer holds whatever the file's name is now, and in whichever mount namespace it was
/// opened: `rdev` is the backing block device's number (0 for a regular file), `dev` and
/// `ino` identify a regular file. Numbers are in the userspace dev_t encoding
/// (huge_encode_dev), which nix's major()/minor() decode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoopStatus {
    pub dev: u64,
    pub ino: u64,
    pub rdev: u64,
    pub offset: u64,
    pub sizelimit: u64,
}

/// LOOP_GET_STATUS64 on an open loop device (ENXIO when it has no backing file).
pub fn loop_status(f: &std::fs::File) -> std::io::Result<LoopStatus> {
    use std::os::fd::AsRawFd;
    // SAFETY: all-zero bytes are a valid LoopInfo64 (integers and byte arrays only).
    let mut info: LoopInfo64 = unsafe { std::mem::zeroed() };
    // SAFETY: the descriptor is open; the kernel writes one struct loop_info64 into `info`.
    unsafe { loop_get_status64(f.as_raw_fd(), &mut info) }.map_err(std::io::Error::from)?;
    Ok(LoopStatus {
        dev: info.lo_device,
        ino: info.lo_inode,
        rdev: info.lo_rdevice,
        offset: info.lo_offset,
        sizelimit: info.lo_sizelimit,
    })
}

/// Whether the kernel lets `dev` be opened exclusively right now (read-only, O_EXCL, closed
/// at once): Err(EBUSY) while it is mounted in any mount namespace, claimed by dm/md/swap or
/// opened exclusively by a program (open(2); block/bdev.c bd_prepare_to_claim). The opened
/// node must be the block device `rdev` (a renamed node is not trusted).
pub fn probe_exclusive(dev: &Path, rdev: u64) -> std::io::Result<()> {
    use std::os::unix::fs::{FileTypeExt, MetadataExt, OpenOptionsExt};
    let f = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_EXCL | libc::O_NONBLOCK | libc::O_NOFOLLOW)
        .open(dev)?;
    let m = f.metadata()?;
    if !m.file_type().is_block_device() || m.rdev() != rdev {
        return Err(std::io::Error::other(format!(
            "{} is not the block device that was meant",
            dev.display()
        )));
    }
    Ok(())
}
