//! diskdoc-sys: everything of diskdoc that touches a machine, and all of its unsafe code.
//!
//! ```text
//! probe::collect(host, opts)  ->  EvidenceBundle      the ONLY stage that reads the system
//! bench::measure(request)     ->  bundle.benchmarks   opt-in, consent first
//! ```
//!
//! Everything goes through the [`host::Host`] seam (run an allowlisted command, read a file,
//! a sysctl, an ioctl, device bytes), which records every answer into the evidence bundle.
//! `os/` is the thin per-OS glue (ioctls, sysctl, device reads); `#[cfg(target_os)]` lives
//! here and nowhere in diskdoc-core.
#![deny(unsafe_code)]

pub mod bench;
pub mod exec;
pub mod host;
pub mod host_id;
pub mod input;
pub mod interrupt;
pub mod os;
pub mod probe;
