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
pub fn read_device(_dev: &Path, _offset: u64, _len: u64) -> Capture {
    Capture::unavailable(Unavailable::Unsupported, "device reads on this OS")
}
pub fn sysctl(name: &str) -> Capture {
    Capture::unavailable(
        Unavailable::Unsupported,
        format!("sysctl {name} on this OS"),
    )
}
