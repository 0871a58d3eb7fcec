//! A cheap monotonic clock for timing every I/O: the CPU's time-stamp counter when the
//! kernel itself trusts it, else `std::time::Instant`.
//!
//! Why: a 4 KiB read from a RAM-backed device takes ~2 us, and `Instant::now()` (the
//! clock_gettime(2) vDSO) costs 20-90 ns per call on a busy VM, two calls per I/O; RDTSC
//! costs a fraction of that (fio's default clocksource does the same). The TSC is used only
//! when the kernel runs on it (`current_clocksource` is "tsc": it judged the counter
//! constant-rate and synchronized across CPUs, see Documentation/virt/kvm/x86/timekeeping.rst),
//! and it is calibrated against `Instant` once per process. The clocksource is read through
//! the bench's [`Host`] ([`choose`]), so the bundle records what the choice rested on.
#![allow(unsafe_code)]

use std::sync::OnceLock;
use std::time::Instant;

use diskdoc_core::evidence::Platform;

use crate::host::{Host, HostExt};

/// Nanoseconds per TSC tick, or None when the TSC must not be used. Unset until [`choose`]
/// ran: a clock started before that is `Instant`.
static NS_PER_TICK: OnceLock<Option<f64>> = OnceLock::new();

/// The clocksource the kernel keeps time with (Documentation/ABI/testing/sysfs-devices-system-clocksource).
pub const CLOCKSOURCE: &str = "/sys/devices/system/clocksource/clocksource0/current_clocksource";

/// Decide, once per process, whether [`Clock`] uses the TSC: asks `host` for the Linux
/// clocksource (recorded in its bundle). Not Linux, not x86_64, or no such file: `Instant`.
pub fn choose(host: &mut dyn Host) {
    NS_PER_TICK.get_or_init(|| decide(host));
}

/// What [`choose`] settles on: nanoseconds per tick when the kernel runs on the TSC and the
/// calibration is plausible.
fn decide(host: &mut dyn Host) -> Option<f64> {
    if !cfg!(target_arch = "x86_64") || host.platform() != Platform::Linux {
        return None;
    }
    calibrate(&host.text(CLOCKSOURCE)?)
}

#[cfg(target_arch = "x86_64")]
#[inline]
fn rdtsc() -> u64 {
    // SAFETY: RDTSC reads a counter register; it touches no memory and has no preconditions
    // on x86_64 (every x86_64 CPU implements it).
    unsafe { core::arch::x86_64::_rdtsc() }
}

#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn rdtsc() -> u64 {
    0
}

/// Nanoseconds per tick for the clocksource named `src` ("tsc" only).
fn calibrate(src: &str) -> Option<f64> {
    if src.trim() != "tsc" {
        return None;
    }
    // Spin 20 ms: long enough that Instant's own jitter is ~1e-5 of the interval.
    let i0 = Instant::now();
    let t0 = rdtsc();
    while i0.elapsed().as_millis() < 20 {
        std::hint::spin_loop();
    }
    let t1 = rdtsc();
    let ns = i0.elapsed().as_nanos() as f64;
    let ticks = t1.checked_sub(t0)? as f64;
    if ticks <= 0.0 {
        return None;
    }
    let npt = ns / ticks;
    // A TSC between 100 MHz and 20 GHz is plausible; anything else means a broken counter.
    (0.05..=10.0).contains(&npt).then_some(npt)
}

/// A clock started at creation.
#[derive(Debug, Clone, Copy)]
pub enum Clock {
    Tsc { start: u64, ns_per_tick: f64 },
    Std(Instant),
}

impl Clock {
    pub fn start() -> Clock {
        match NS_PER_TICK.get().copied().flatten() {
            Some(ns_per_tick) => Clock::Tsc {
                start: rdtsc(),
                ns_per_tick,
            },
            None => Clock::Std(Instant::now()),
        }
    }
    /// Nanoseconds since `start()`.
    #[inline]
    pub fn now_ns(&self) -> u64 {
        match *self {
            Clock::Tsc { start, ns_per_tick } => {
                (rdtsc().saturating_sub(start) as f64 * ns_per_tick) as u64
            }
            Clock::Std(i) => i.elapsed().as_nanos() as u64,
        }
    }
    pub fn is_tsc(&self) -> bool {
        matches!(self, Clock::Tsc { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clocksource_is_read_through_the_host_and_recorded() {
        let root = std::env::temp_dir().join(format!("diskdoc-tsc-{}", std::process::id()));
        let file = root.join(CLOCKSOURCE.trim_start_matches('/'));
        std::fs::create_dir_all(file.parent().expect("the path has a parent"))
            .expect("a scratch tree");
        let key = format!("file:{CLOCKSOURCE}");
        for (src, tsc) in [
            ("kvm-clock\n", false),
            ("tsc\n", cfg!(target_arch = "x86_64")),
        ] {
            std::fs::write(&file, src).expect("the clocksource file");
            let mut host = crate::host::LiveHost::with_root(&root);
            let npt = decide(&mut host);
            assert_eq!(npt.is_some(), tsc, "{src:?}: {npt:?}");
            if let Some(n) = npt {
                assert!((0.05..=10.0).contains(&n), "{n}");
            }
            let b = host.into_bundle();
            let recorded = b.captures.get(&key).and_then(|c| c.data());
            if crate::host::current_platform() == Platform::Linux {
                assert_eq!(recorded, Some(src), "the bundle keeps the answer");
            }
        }
        // No file: Instant, and the failed read is recorded as such.
        std::fs::remove_file(&file).expect("remove");
        let mut host = crate::host::LiveHost::with_root(&root);
        assert_eq!(decide(&mut host), None);
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn clock_agrees_with_instant() {
        let c = Clock::start();
        let i = Instant::now();
        let a = c.now_ns();
        std::thread::sleep(std::time::Duration::from_millis(30));
        let b = c.now_ns();
        let truth = i.elapsed().as_nanos() as f64;
        let measured = (b - a) as f64;
        // Same interval within 5 % (sleep overshoot is seen by both clocks).
        assert!(
            (measured / truth - 1.0).abs() < 0.05,
            "{measured} vs {truth} (tsc: {})",
            c.is_tsc()
        );
        assert!(c.now_ns() >= b);
    }
}
