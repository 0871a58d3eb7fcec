//! What to run and for how long: test selection, time budgets, block sizes and the byte
//! regions each test reads. Pure; the budget arithmetic is pinned by tests (the default read
//! run on one disk must fit in 5 s at worst, with --full-sweep in 20 s).

use super::TestName;
use super::error::MeasureError;
use super::runner::{Job, Op, Pattern};

pub const KIB: u64 = 1024;
pub const MIB: u64 = 1024 * 1024;
pub const GIB: u64 = 1024 * MIB;

/// The seven tests (the destructive one is asked for separately).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TestKind {
    /// 1. Sequential 1 MiB reads at the outer, middle and inner part of the device.
    Zones,
    /// 2. Block-size sweep, direct and buffered.
    Sweep,
    /// 3. Random 4 KiB reads at QD1 and QD32.
    Rand,
    /// 4. Sequential writes to a scratch file.
    Write,
    /// 5. 4 KiB writes with fsync each.
    Sync,
    /// 6. The same reads through the disk and each layer above it.
    Layers,
    /// Sequential writes until a byte or time budget, with the throughput curve (opt-in:
    /// never part of `all` or `write`).
    Sustained,
}

impl TestKind {
    pub fn name(self) -> &'static str {
        match self {
            TestKind::Zones => "seq",
            TestKind::Sweep => "sweep",
            TestKind::Rand => "rand",
            TestKind::Write => "write",
            TestKind::Sync => "sync",
            TestKind::Layers => "layers",
            TestKind::Sustained => "sustained",
        }
    }
    pub fn is_read(self) -> bool {
        !matches!(self, TestKind::Write | TestKind::Sync | TestKind::Sustained)
    }
}

/// Parse `--tests`: all, read, write, or a comma list of seq,sweep,rand,write,sync,layers.
pub fn parse_tests(spec: &str) -> Result<Vec<TestKind>, MeasureError> {
    use TestKind::*;
    let mut out: Vec<TestKind> = Vec::new();
    for word in spec.split(',').map(str::trim).filter(|w| !w.is_empty()) {
        let add: &[TestKind] = match word {
            "all" => &[Zones, Sweep, Rand, Layers, Write, Sync],
            "read" => &[Zones, Sweep, Rand, Layers],
            "write" => &[Write, Sync],
            "seq" | "zones" => &[Zones],
            "sweep" => &[Sweep],
            "rand" => &[Rand],
            "seq-write" => &[Write],
            "sync" => &[Sync],
            "layers" => &[Layers],
            "sustained" => &[Sustained],
            other => return Err(MeasureError::UnknownTest(other.to_string())),
        };
        for t in add {
            if !out.contains(t) {
                out.push(*t);
            }
        }
    }
    if out.is_empty() {
        return Err(MeasureError::NoTests);
    }
    Ok(out)
}

/// Time budgets in ns. Each job may stop earlier once stable, never before `min_fraction` of
/// its budget.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Budgets {
    pub zone_ns: u64,
    pub sweep_ns: u64,
    pub rand_ns: u64,
    pub layer_ns: u64,
    pub write_ns: u64,
    pub sync_ns: u64,
    pub min_fraction: f64,
    /// Sweep every power of two from the logical sector to 4 MiB, direct and buffered
    /// (`--full-sweep`), instead of the [`diagnostic_sweep_sizes`] with one buffered step.
    pub full_sweep: bool,
}

/// The longest the read run may take on one disk (with `--full-sweep`).
pub const READ_RUN_LIMIT_NS: u64 = 20_000_000_000;

/// The longest the default read run (the wizard's) may take on one disk when no job stops
/// early: 3 zones, the diagnostic sweep of a 512 B-sector disk (5 steps) and 2 random reads.
/// A device that settles (zram, an idle SSD) stops each job once its rate is known, well
/// inside this. Issue 29: the whole diagnosis on zram in <= 5 s.
pub const DEFAULT_READ_RUN_LIMIT_NS: u64 = 5_000_000_000;

impl Budgets {
    /// Defaults: the read tests of one disk in <= [`DEFAULT_READ_RUN_LIMIT_NS`] (the full
    /// sweep in <= [`READ_RUN_LIMIT_NS`]); `quick` halves them; `per_test_s` sets the zone,
    /// random, write and sync budgets (sweep steps get a tenth). Each job stops as soon as
    /// its rate is known within +-3 % (confidence::interval95, drift included) after a third
    /// of its budget; the budgets bound a device that never settles.
    pub fn for_run(quick: bool, per_test_s: Option<f64>, n_layers: usize) -> Budgets {
        let s = |x: f64| (x * 1e9) as u64;
        // 3 x 0.6 + 5 x 0.2 + 2 x 0.9 = 4.6 s at worst on a 512 B-sector disk (4.4 s on a
        // 4 KiB one such as zram), inside DEFAULT_READ_RUN_LIMIT_NS with room for the probe
        // and the queue's untimed submission trial.
        let mut b = Budgets {
            zone_ns: s(0.6),
            sweep_ns: s(0.2),
            rand_ns: s(0.9),
            // The disk plus each layer share 4 s.
            layer_ns: s((4.0 / (n_layers as f64 + 1.0)).min(1.0)),
            write_ns: s(3.0),
            sync_ns: s(2.0),
            min_fraction: 0.33,
            full_sweep: false,
        };
        if let Some(t) = per_test_s.filter(|t| t.is_finite() && *t > 0.0) {
            b.zone_ns = s(t);
            b.rand_ns = s(t);
            b.write_ns = s(t);
            b.sync_ns = s(t);
            b.sweep_ns = s(t / 10.0);
            b.layer_ns = s(t.min(4.0 / (n_layers as f64 + 1.0)));
        }
        if quick {
            for v in [
                &mut b.zone_ns,
                &mut b.sweep_ns,
                &mut b.rand_ns,
                &mut b.layer_ns,
                &mut b.write_ns,
                &mut b.sync_ns,
            ] {
                *v /= 2;
            }
        }
        b
    }

    /// Every job runs its whole budget (fio's time_based): the stability check may only stop
    /// a job once its budget is spent, when it stops anyway.
    pub fn time_based(self) -> Budgets {
        Budgets {
            min_fraction: 1.0,
            ..self
        }
    }

    /// The whole sweep (`--full-sweep`): every size, direct and buffered.
    pub fn with_full_sweep(self, full_sweep: bool) -> Budgets {
        Budgets { full_sweep, ..self }
    }

    /// Upper bound of the read tests on one disk (every job running to its budget) with
    /// `sweep_steps` sweep jobs in all (direct and buffered).
    pub fn worst_case_read_ns(&self, sweep_steps: usize, n_layers: usize) -> u64 {
        3 * self.zone_ns
            + sweep_steps as u64 * self.sweep_ns
            + 2 * self.rand_ns
            + if n_layers > 0 {
                (n_layers as u64 + 1) * self.layer_ns
            } else {
                0
            }
    }
}

/// Geometry of the target device.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Geometry {
    pub size: u64,
    pub logical: u64,
    pub physical: u64,
}

/// Block sizes of the sweep: the logical sector up to 4 MiB, powers of two.
pub fn sweep_sizes(logical: u64) -> Vec<u64> {
    let mut v = Vec::new();
    let mut bs = logical.clamp(512, 4 * MIB).next_power_of_two();
    while bs <= 4 * MIB {
        v.push(bs);
        bs *= 2;
    }
    v
}

/// The sweep a diagnosis needs (the default): the per-request overhead at the logical
/// sector (and at 4 KiB, the page size a `dd bs=4k` or a filesystem uses, when the sector is
/// smaller), 64 KiB between them (a common request size limit of USB bridges and old
/// controllers, and where most devices reach their large-block rate), and 1 MiB, the size
/// the small-block-overhead check compares against and the zone reads use. 3-4 steps
/// instead of the full sweep's 11-14 (issue 29: the wizard's diagnosis in 5 s): the 16x grid
/// places the knee (the smallest size reaching 90 % of the 1 MiB rate) within a factor of 16;
/// `--full-sweep` places it exactly.
pub fn diagnostic_sweep_sizes(logical: u64) -> Vec<u64> {
    let first = logical.clamp(512, 4 * MIB).next_power_of_two();
    let mut v = vec![first];
    for bs in [4 * KIB, 64 * KIB, MIB] {
        if bs > first {
            v.push(bs);
        }
    }
    v
}

/// The sweep's (block size, direct) steps: the full sweep reads every size both ways
/// (buffered only where `buffered`: FreeBSD has no page cache for disks); the default reads
/// [`diagnostic_sweep_sizes`] directly and only the smallest through the page cache, the
/// one buffered figure a finding uses (small-block-overhead: read-ahead hides the per-request
/// cost; cache-answered: faster than the link).
pub fn sweep_steps(logical: u64, full: bool, buffered: bool) -> Vec<(u64, bool)> {
    let sizes = if full {
        sweep_sizes(logical)
    } else {
        diagnostic_sweep_sizes(logical)
    };
    let mut out: Vec<(u64, bool)> = sizes.iter().map(|bs| (*bs, true)).collect();
    if buffered {
        let buffered_sizes = if full {
            &sizes[..]
        } else {
            &sizes[..1.min(sizes.len())]
        };
        out.extend(buffered_sizes.iter().map(|bs| (*bs, false)));
    }
    out
}

/// Why a device is too small for a test, or Ok.
pub fn fits(geo: &Geometry, needed: u64, test: &'static str) -> Result<(), MeasureError> {
    if geo.size < needed {
        Err(MeasureError::TooSmall {
            size: geo.size,
            needed,
            test,
        })
    } else {
        Ok(())
    }
}

fn job(
    test: TestName,
    label: &str,
    op: Op,
    pattern: Pattern,
    bs: u64,
    budget: u64,
    b: &Budgets,
) -> Job {
    let mut j = Job::new(test, label, op, pattern, bs as usize);
    j.budget_ns = budget;
    j.min_ns = (budget as f64 * b.min_fraction) as u64;
    // About 25 intervals per budget (8 by `min_ns`), so the interval (confidence::interval95)
    // has enough batches to be judged early: with 5 the t quantile alone is 2.78, with 10
    // it is 2.26.
    j.interval_ns = (budget / 25).clamp(20_000_000, 100_000_000);
    j
}

/// Test 1: three 1 MiB sequential-read regions. Each spans a ninth of the device (at most
/// 1 GiB), so "outer" and "inner" are really the first and last tracks on an HDD.
pub fn zone_jobs(geo: &Geometry, b: &Budgets) -> Result<Vec<Job>, MeasureError> {
    fits(geo, 3 * MIB, "zone")?;
    let span = ((geo.size / 9).min(GIB) / MIB * MIB).max(MIB);
    let mid = (geo.size / 2 / MIB * MIB).saturating_sub(span / 2 / MIB * MIB);
    let inner = (geo.size - span) / MIB * MIB;
    Ok([("outer", 0u64), ("middle", mid), ("inner", inner)]
        .into_iter()
        .map(|(label, start)| {
            let mut j = job(
                TestName::SeqRead,
                label,
                Op::Read,
                Pattern::Sequential,
                MIB,
                b.zone_ns,
                b,
            );
            j.region_start = start;
            j.region_len = span;
            j
        })
        .collect())
}

/// Test 2: sweep jobs ([`sweep_steps`]); buffered ones read each byte once (a wrap would
/// hit the page cache).
pub fn sweep_jobs(geo: &Geometry, b: &Budgets, buffered: bool) -> Vec<(Job, bool)> {
    let region = (geo.size.min(256 * MIB) / MIB * MIB).max(geo.size.min(4 * MIB));
    let mut out = Vec::new();
    for (bs, direct) in sweep_steps(geo.logical, b.full_sweep, buffered) {
        if bs > geo.size {
            continue;
        }
        let label = if direct {
            format!("bs={bs}")
        } else {
            format!("buffered bs={bs}")
        };
        let mut j = job(
            TestName::BsSweep,
            &label,
            Op::Read,
            Pattern::Sequential,
            bs,
            b.sweep_ns,
            b,
        );
        j.region_len = region / bs * bs;
        if !direct {
            j.max_bytes = Some(j.region_len);
        }
        out.push((j, direct));
    }
    out
}

/// Test 3: random 4 KiB (or the logical sector if larger) reads over the whole device.
pub fn rand_jobs(geo: &Geometry, b: &Budgets) -> Result<Vec<Job>, MeasureError> {
    let bs = geo.logical.max(4 * KIB);
    fits(geo, 2 * bs, "random-read")?;
    Ok([1u32, 32]
        .into_iter()
        .map(|qd| {
            let mut j = job(
                TestName::RandRead,
                &format!("qd{qd}"),
                Op::Read,
                Pattern::Random,
                bs,
                b.rand_ns,
                b,
            );
            j.queue_depth = qd;
            j.region_len = geo.size / bs * bs;
            // Random I/O is noisier per interval: judge over more of them.
            j.stable_window = 6;
            j
        })
        .collect())
}

/// Test 4: sequential 1 MiB writes, at most `cap` bytes (10 % of free space, <= 4 GiB).
pub fn write_job(cap: u64, b: &Budgets) -> Job {
    let mut j = job(
        TestName::SeqWrite,
        "1 MiB",
        Op::Write,
        Pattern::Sequential,
        MIB,
        b.write_ns,
        b,
    );
    let len = cap.min(4 * GIB) / MIB * MIB;
    j.region_len = len;
    j.max_bytes = Some(len);
    j
}

/// Test 5: 4 KiB writes with fsync each, inside at most 64 MiB.
pub fn sync_job(cap: u64, b: &Budgets) -> Job {
    let mut j = job(
        TestName::SyncWrite,
        "4 KiB + fsync",
        Op::Write,
        Pattern::Sequential,
        4 * KIB,
        b.sync_ns,
        b,
    );
    j.region_len = cap.min(64 * MIB) / (4 * KIB) * (4 * KIB);
    j.max_bytes = Some(cap);
    j.fsync_each = true;
    j
}

/// Test 6: 1 MiB sequential reads of `len` bytes starting at `start` on one device of the stack.
pub fn layer_job(label: &str, start: u64, len: u64, b: &Budgets) -> Job {
    let mut j = job(
        TestName::LayerCost,
        label,
        Op::Read,
        Pattern::Sequential,
        MIB,
        b.layer_ns,
        b,
    );
    j.region_start = start;
    j.region_len = len.max(MIB);
    j
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_based_keeps_budgets_and_disables_the_early_stop() {
        let b = Budgets::for_run(false, Some(2.0), 0);
        let t = b.time_based();
        assert_eq!(t.min_fraction, 1.0);
        assert_eq!(t.zone_ns, b.zone_ns);
        assert_eq!(t.rand_ns, b.rand_ns);
        let z = zone_jobs(
            &Geometry {
                size: 1 << 30,
                logical: 512,
                physical: 512,
            },
            &t,
        )
        .unwrap();
        assert!(z.iter().all(|j| j.min_ns == j.budget_ns), "{z:?}");
    }

    #[test]
    fn default_read_run_fits_in_5_seconds_and_the_full_sweep_in_20() {
        let diagnostic = sweep_steps(512, false, true).len();
        assert_eq!(diagnostic, 5);
        assert_eq!(DEFAULT_READ_RUN_LIMIT_NS, 5_000_000_000);
        let b = Budgets::for_run(false, None, 0);
        assert!(b.worst_case_read_ns(diagnostic, 0) <= DEFAULT_READ_RUN_LIMIT_NS);
        for layers in 0..=6 {
            let b = Budgets::for_run(false, None, layers).with_full_sweep(true);
            let worst = b.worst_case_read_ns(2 * sweep_sizes(512).len(), layers);
            assert!(worst <= READ_RUN_LIMIT_NS, "{layers} layers: {worst}");
            let q = Budgets::for_run(true, None, layers);
            assert!(q.worst_case_read_ns(28, layers) <= READ_RUN_LIMIT_NS / 2);
        }
        let b = Budgets::for_run(false, Some(4.0), 0);
        assert!(!b.full_sweep && b.with_full_sweep(true).full_sweep);
        assert_eq!(b.zone_ns, 4_000_000_000);
        assert_eq!(b.sweep_ns, 400_000_000);
        assert_eq!(
            Budgets::for_run(false, Some(f64::NAN), 0),
            Budgets::for_run(false, None, 0)
        );
    }

    #[test]
    fn the_default_sweep_has_the_sizes_a_diagnosis_needs() {
        assert_eq!(diagnostic_sweep_sizes(512), [512, 4 * KIB, 64 * KIB, MIB]);
        assert_eq!(diagnostic_sweep_sizes(4096), [4 * KIB, 64 * KIB, MIB]);
        // A 64 KiB-sector device still ends at 1 MiB; a sector above 1 MiB is the only step.
        assert_eq!(diagnostic_sweep_sizes(64 * KIB), [64 * KIB, MIB]);
        assert_eq!(diagnostic_sweep_sizes(128 * KIB), [128 * KIB, MIB]);
        assert_eq!(diagnostic_sweep_sizes(2 * MIB), [2 * MIB]);
        // Buffered: only the smallest size by default, every size in the full sweep, none
        // where the platform has no buffered path (FreeBSD).
        let steps = sweep_steps(4096, false, true);
        assert_eq!(steps.iter().filter(|(_, d)| !d).count(), 1);
        assert_eq!(steps.last(), Some(&(4096, false)));
        assert!(sweep_steps(4096, false, false).iter().all(|(_, d)| *d));
        let full = sweep_steps(4096, true, true);
        assert_eq!(full.len(), 22);
        assert_eq!(full.iter().filter(|(_, d)| !d).count(), 11);
        assert_eq!(sweep_steps(4096, true, false).len(), 11);
    }

    #[test]
    fn sweep_goes_from_the_logical_sector_to_4_mib() {
        let s = sweep_sizes(512);
        assert_eq!(s.len(), 14);
        assert_eq!(s[0], 512);
        assert_eq!(*s.last().unwrap(), 4 * MIB);
        assert_eq!(sweep_sizes(4096)[0], 4096);
        assert_eq!(sweep_sizes(4096).len(), 11);
        assert_eq!(sweep_sizes(0)[0], 512);
    }

    #[test]
    fn zones_sit_at_the_start_middle_and_end() {
        let geo = Geometry {
            size: 1000 * GIB,
            logical: 512,
            physical: 4096,
        };
        let z = zone_jobs(&geo, &Budgets::for_run(false, None, 0)).unwrap();
        assert_eq!(z.len(), 3);
        assert_eq!(z[0].region_start, 0);
        assert_eq!(z[0].region_len, GIB);
        assert_eq!(z[1].region_start, 500 * GIB - 512 * MIB);
        assert_eq!(z[2].region_start + z[2].region_len, 1000 * GIB);
        let small = Geometry {
            size: 90 * MIB,
            logical: 512,
            physical: 512,
        };
        let z = zone_jobs(&small, &Budgets::for_run(false, None, 0)).unwrap();
        assert_eq!(z[0].region_len, 10 * MIB);
        assert_eq!(z[2].region_start, 80 * MIB);
        let tiny = Geometry {
            size: MIB,
            logical: 512,
            physical: 512,
        };
        let e = zone_jobs(&tiny, &Budgets::for_run(false, None, 0))
            .unwrap_err()
            .to_string();
        assert!(e.contains("smaller than"), "{e}");
    }

    #[test]
    fn parse_test_lists() {
        assert_eq!(parse_tests("read").unwrap().len(), 4);
        assert_eq!(parse_tests("all").unwrap().len(), 6);
        assert_eq!(
            parse_tests("rand, sync").unwrap(),
            vec![TestKind::Rand, TestKind::Sync]
        );
        assert_eq!(
            parse_tests("bogus").unwrap_err().to_string(),
            "unknown test \"bogus\" in --tests; use all, read, write or a comma list of seq, \
             sweep, rand, write, sync, layers, sustained"
        );
        assert!(parse_tests(" , ").is_err());
    }

    #[test]
    fn write_jobs_are_bounded_by_the_cap() {
        let b = Budgets::for_run(false, None, 0);
        let w = write_job(100 * MIB + 5, &b);
        assert_eq!(w.max_bytes, Some(100 * MIB));
        assert_eq!(write_job(100 * GIB, &b).max_bytes, Some(4 * GIB));
        let s = sync_job(10 * MIB, &b);
        assert!(s.fsync_each);
        assert_eq!(s.region_len, 10 * MIB);
        let r = rand_jobs(
            &Geometry {
                size: GIB,
                logical: 512,
                physical: 4096,
            },
            &b,
        )
        .unwrap();
        assert_eq!(r[1].queue_depth, 32);
        assert_eq!(r[0].block_size, 4096);
    }
}
