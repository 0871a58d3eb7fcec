//! Probes: the only stage that touches the system, always through a [`Host`].
//!
//! `collect` walks what there is to capture for the host's platform. Run against a
//! `LiveHost` it records a bundle; against a `ReplayHost` it re-reads the same bundle.

use crate::evidence::{EvidenceBundle, Platform};
use crate::host::Host;

pub mod freebsd;
pub mod linux;
pub mod plan;

#[cfg(target_os = "linux")]
#[path = "os_linux.rs"]
pub mod os;
#[cfg(target_os = "freebsd")]
#[path = "os_freebsd.rs"]
pub mod os;
#[cfg(not(any(target_os = "linux", target_os = "freebsd")))]
#[path = "os_other.rs"]
pub mod os;

/// What to probe.
#[derive(Debug, Clone, Default)]
pub struct ProbeOptions {
    /// Only this device (name or /dev path); all disks when None.
    pub device: Option<String>,
    /// Also run slower tools (smartctl, hdparm, kernel log).
    pub with_tools: bool,
}

/// Capture everything for the host's platform.
pub fn collect(host: &mut dyn Host, opts: &ProbeOptions) {
    match host.platform() {
        Platform::Linux => linux::collect(host, opts),
        Platform::Freebsd => freebsd::collect(host, opts),
        Platform::Unknown => {}
    }
}

/// Probe the live machine and return the bundle.
pub fn live(opts: &ProbeOptions) -> EvidenceBundle {
    let mut host = crate::host::LiveHost::new();
    collect(&mut host, opts);
    host.into_bundle()
}

/// Lowercase hex, the payload form of device reads.
pub fn hex_encode(bytes: &[u8]) -> String {
    use std::fmt::Write;
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

/// Inverse of [`hex_encode`]; None on odd length or a non-hex digit.
pub fn hex_decode(s: &str) -> Option<Vec<u8>> {
    let s = s.trim();
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}
