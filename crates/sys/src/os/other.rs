//! Fallback for platforms diskdoc does not probe natively: every request is "unsupported".

use std::path::Path;

use diskdoc_core::evidence::IoctlRequest;
use diskdoc_core::evidence::{Capture, Unavailable};

pub fn ioctl(_dev: &Path, req: IoctlRequest) -> Capture {
    Capture::unavailable(
        Unavailable::Unsupported,
        format!("{} on this OS", req.name()),
    )
}
pub fn ioctl_file(_f: &std::fs::File, req: IoctlRequest) -> Capture {
    ioctl(Path::new(""), req)
}
pub fn open_raw_exclusive(_dev: &Path) -> std::io::Result<std::fs::File> {
    Err(std::io::Error::new(
        std::io::ErrorKind::Unsupported,
        "raw-device writes are supported on Linux and FreeBSD only",
    ))
}
pub fn read_device(_dev: &Path, _offset: u64, _len: u64) -> Capture {
    Capture::unavailable(Unavailable::Unsupported, "device reads on this OS")
}
pub fn sysctl(name: &str) -> Capture {
    Capture::unavailable(
        Unavailable::Unsupported,
        format!("sysctl {name} on this OS"),
    )
}
