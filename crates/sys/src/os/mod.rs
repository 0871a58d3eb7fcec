//! Per-OS glue, chosen in one place (smartmontools' `smart_interface::init()` idea): ioctls,
//! sysctl and raw device reads for Linux and FreeBSD, and a stub that answers "unsupported"
//! everywhere else.

#[cfg(target_os = "freebsd")]
#[path = "freebsd.rs"]
mod imp;
#[cfg(target_os = "linux")]
#[path = "linux.rs"]
mod imp;
#[cfg(not(any(target_os = "linux", target_os = "freebsd")))]
#[path = "other.rs"]
mod imp;

pub use imp::*;

#[cfg(unix)]
pub mod tty;

use diskdoc_core::evidence::{Capture, Unavailable};

/// Map an I/O error to the recorded reason.
pub fn io_unavailable(e: &std::io::Error) -> Capture {
    use std::io::ErrorKind as K;
    let reason = match e.kind() {
        K::NotFound => Unavailable::NotFound,
        K::PermissionDenied => Unavailable::PermissionDenied,
        K::Unsupported => Unavailable::Unsupported,
        _ => match e.raw_os_error() {
            Some(libc::ENOTTY) | Some(libc::EINVAL) | Some(libc::ENXIO) | Some(libc::ENODEV) => {
                Unavailable::Unsupported
            }
            Some(libc::EPERM) => Unavailable::PermissionDenied,
            _ => Unavailable::Failed,
        },
    };
    Capture::unavailable(reason, e.to_string())
}
