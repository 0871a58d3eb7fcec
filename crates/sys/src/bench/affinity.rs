//! Which CPU a synchronous (queue depth 1) test runs on.
//!
//! At queue depth 1 every I/O waits for its completion, and the time from the device's
//! completion to the waiting thread running again is part of each I/O's latency. The
//! completion arrives where the device's interrupt is handled (for a loop device or a file
//! on it: where the disk underneath interrupts; /proc/interrupts). A thread sleeping on that
//! CPU is woken there; a thread sleeping on another CPU needs a cross-CPU wakeup, and in a
//! virtual machine the halted vCPU must first be resumed by the host. The scheduler keeps a
//! thread where it last ran while that CPU is idle, so where a test lands is chance and
//! history (a previous queued test's io_uring worker threads, say), not something the test
//! chooses. What that was worth on ext4 on a loop device on this project's 2-vCPU VM
//! (virtio disk interrupts on CPU 1; fio pinned with --cpus_allowed, paired 1 s runs, load
//! ~2): random 4 KiB QD1 reads p50 68-104 us on CPU 1 vs 85-100 us on CPU 0, writes 67-78
//! vs 89-111 us; a perf trace of diskdoc's run put its thread on CPU 0 in 82 % of its
//! writes, where completion-to-wakeup and wakeup-to-run took 7 and 6 us (p50) against
//! fio's 2 and 2 on CPU 1.
//!
//! So before a long enough queue-depth-1 test, a short untimed trial runs the job's own
//! pattern pinned to each CPU the process may use (two passes, in opposite orders), and the
//! test runs pinned to a CPU only when it was clearly faster ([`GAIN`]) in every pass
//! ([`pick_in_every`]); otherwise it runs where the scheduler puts it. The result says which CPU, and
//! its fio line carries `--cpus_allowed` so fio runs the same way. The thread's CPU set is
//! given back after the test.

/// How much faster the best CPU must have been than the slowest in the trial before the
/// test is pinned to it: above the noise of a short trial on a shared machine, below the
/// 1.15-1.4x seen on a loop device.
pub const GAIN: f64 = 1.10;

/// The most CPUs tried; with more the trial would cost more than it can show in a
/// test's budget, and the test runs where the scheduler puts it.
pub const MAX_CPUS: usize = 8;

/// Shortest test budget worth a trial (the default diagnosis's short tests skip it).
pub const MIN_BUDGET_NS: u64 = 1_000_000_000;

/// The note on a result whose test ran pinned to `cpu`; [`pinned_cpu`] reads it back.
pub fn pinned_note(cpu: usize) -> String {
    format!(
        "{PINNED_PREFIX}{cpu}: in a short untimed trial before the test, queue-depth-1 I/O \
         completed at least {GAIN:.2} times as fast there as on the slowest CPU (the wakeup \
         after each completion is cheapest on the CPU that handles the device's \
         interrupts); fio's --cpus_allowed does the same"
    )
}

const PINNED_PREFIX: &str = "ran pinned to CPU ";

/// The CPU a result's note says its test was pinned to.
pub fn pinned_cpu(notes: &[String]) -> Option<usize> {
    notes.iter().find_map(|n| {
        let rest = n.strip_prefix(PINNED_PREFIX)?;
        rest.split(':').next()?.parse().ok()
    })
}

/// The CPU to pin to, from each tried CPU's (cpu, I/Os, ns): the fastest, when its rate is
/// at least [`GAIN`] times the slowest's; none when fewer than two CPUs were measured or
/// any measured nothing.
pub fn pick(tried: &[(usize, u64, u64)]) -> Option<usize> {
    if tried.len() < 2 {
        return None;
    }
    let rate = |ios: u64, ns: u64| {
        if ns > 0 { ios as f64 / ns as f64 } else { 0.0 }
    };
    let mut best: Option<(usize, f64)> = None;
    let mut slowest = f64::INFINITY;
    for &(cpu, ios, ns) in tried {
        let r = rate(ios, ns);
        if r <= 0.0 {
            return None;
        }
        slowest = slowest.min(r);
        if best.is_none_or(|(_, b)| r > b) {
            best = Some((cpu, r));
        }
    }
    best.filter(|&(_, b)| b >= slowest * GAIN).map(|(c, _)| c)
}

/// [`pick`] over the passes of a trial: the CPU must win every pass on its own, each by
/// [`GAIN`], so one disturbed window cannot choose it. (With one clearly faster CPU among
/// two, a single pass chose the slower one for two of three 3 s read tests at load 2.3-2.9:
/// docs/benchmarks-vs-fio.md.)
pub fn pick_in_every(passes: &[Vec<(usize, u64, u64)>]) -> Option<usize> {
    let first = pick(passes.first()?)?;
    passes
        .iter()
        .all(|p| pick(p) == Some(first))
        .then_some(first)
}

/// The calling thread's CPU set, to pin it and give it back.
#[cfg(target_os = "linux")]
pub struct Pin {
    old: nix::sched::CpuSet,
}

#[cfg(target_os = "linux")]
impl Pin {
    /// The CPUs this thread may run on now and its current set, or None when it cannot be
    /// read.
    pub fn current() -> Option<(Vec<usize>, Pin)> {
        use nix::sched::{CpuSet, sched_getaffinity};
        use nix::unistd::Pid;
        let old = sched_getaffinity(Pid::from_raw(0)).ok()?;
        let cpus = (0..CpuSet::count())
            .filter(|&c| old.is_set(c).unwrap_or(false))
            .collect();
        Some((cpus, Pin { old }))
    }

    /// Run the calling thread on `cpu` only.
    pub fn to(&self, cpu: usize) -> bool {
        use nix::sched::{CpuSet, sched_setaffinity};
        use nix::unistd::Pid;
        let mut one = CpuSet::new();
        one.set(cpu).is_ok() && sched_setaffinity(Pid::from_raw(0), &one).is_ok()
    }

    /// Give the thread its CPU set back.
    pub fn restore(&self) {
        let _ = nix::sched::sched_setaffinity(nix::unistd::Pid::from_raw(0), &self.old);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pins_only_to_a_clearly_faster_cpu() {
        // 10k vs 13k I/Os in the same time: 1.3x, pinned to the faster.
        assert_eq!(pick(&[(0, 10_000, 1_000), (1, 13_000, 1_000)]), Some(1));
        assert_eq!(pick(&[(0, 13_000, 1_000), (1, 10_000, 1_000)]), Some(0));
        // 1.05x is within a short trial's noise: where the scheduler puts it.
        assert_eq!(pick(&[(0, 10_000, 1_000), (1, 10_500, 1_000)]), None);
        // Rates, not counts: the same I/Os in less time is faster.
        assert_eq!(pick(&[(2, 1_000, 1_300), (5, 1_000, 1_000)]), Some(5));
        // Against the slowest of several.
        assert_eq!(
            pick(&[(0, 100, 10), (1, 105, 10), (2, 120, 10), (3, 104, 10)]),
            Some(2)
        );
    }

    #[test]
    fn every_pass_must_agree() {
        let fast1 = vec![(0, 100, 10), (1, 130, 10)];
        let fast0 = vec![(0, 130, 10), (1, 100, 10)];
        let level = vec![(0, 100, 10), (1, 104, 10)];
        assert_eq!(pick_in_every(&[fast1.clone(), fast1.clone()]), Some(1));
        // One pass the other way, or one within the noise: no pin.
        assert_eq!(pick_in_every(&[fast1.clone(), fast0]), None);
        assert_eq!(pick_in_every(&[fast1.clone(), level.clone()]), None);
        assert_eq!(pick_in_every(&[level, fast1]), None);
        assert_eq!(pick_in_every(&[]), None);
    }

    #[test]
    fn no_pin_without_two_measured_cpus() {
        assert_eq!(pick(&[]), None);
        assert_eq!(pick(&[(0, 10_000, 1_000)]), None);
        assert_eq!(pick(&[(0, 10_000, 1_000), (1, 0, 1_000)]), None);
        assert_eq!(pick(&[(0, 10_000, 1_000), (1, 10, 0)]), None);
    }

    #[test]
    fn the_note_names_the_cpu() {
        let notes = vec!["something else".to_string(), pinned_note(3)];
        assert_eq!(pinned_cpu(&notes), Some(3));
        assert_eq!(pinned_cpu(&notes[..1]), None);
        assert!(pinned_note(12).starts_with("ran pinned to CPU 12: "));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_pin_is_given_back() {
        let (cpus, pin) = Pin::current().unwrap();
        assert!(!cpus.is_empty());
        assert!(pin.to(cpus[cpus.len() - 1]));
        let (now, _) = Pin::current().unwrap();
        assert_eq!(now, vec![cpus[cpus.len() - 1]]);
        pin.restore();
        let (back, _) = Pin::current().unwrap();
        assert_eq!(back, cpus);
    }
}
