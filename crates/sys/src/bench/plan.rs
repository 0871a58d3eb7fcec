//! What to run and for how long: test selection, time budgets, block sizes and the byte
//! regions each test reads. Pure; the budget arithmetic is pinned by tests (the default read
//! run on one disk must fit in 20 s).

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
}

/// The longest the default read run may take on one disk.
pub const READ_RUN_LIMIT_NS: u64 = 20_000_000_000;

impl Budgets {
    /// Defaults: the read tests of one disk in <= 20 s; `quick` halves them; `per_test_s`
    /// sets the zone, random, write and sync budgets (sweep steps get a tenth).
    pub fn for_run(quick: bool, per_test_s: Option<f64>, n_layers: usize) -> Budgets {
        let s = |x: f64| (x * 1e9) as u64;
        let mut b = Budgets {
            zone_ns: s(1.5),
            sweep_ns: s(0.3),
            rand_ns: s(1.5),
            // The disk plus each layer share 4 s.
            layer_ns: s((4.0 / (n_layers as f64 + 1.0)).min(1.0)),
            write_ns: s(3.0),
            sync_ns: s(2.0),
            min_fraction: 0.33,
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

    /// Upper bound of the read tests on one disk (every job running to its budget).
    pub fn worst_case_read_ns(&self, sweep_steps: usize, n_layers: usize) -> u64 {
        3 * self.zone_ns
            + 2 * sweep_steps as u64 * self.sweep_ns
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
    // At least ~8 intervals per budget so stability can be judged.
    j.interval_ns = (budget / 15).clamp(20_000_000, 100_000_000);
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

/// Test 2: sweep jobs; buffered ones read each byte once (a wrap would hit the page cache).
pub fn sweep_jobs(geo: &Geometry, b: &Budgets) -> Vec<(Job, bool)> {
    let region = (geo.size.min(256 * MIB) / MIB * MIB).max(geo.size.min(4 * MIB));
    let mut out = Vec::new();
    for direct in [true, false] {
        for bs in sweep_sizes(geo.logical) {
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
    fn default_read_run_fits_in_20_seconds() {
        for layers in 0..=6 {
            let b = Budgets::for_run(false, None, layers);
            let worst = b.worst_case_read_ns(sweep_sizes(512).len(), layers);
            assert!(worst <= READ_RUN_LIMIT_NS, "{layers} layers: {worst}");
            let q = Budgets::for_run(true, None, layers);
            assert!(q.worst_case_read_ns(14, layers) <= READ_RUN_LIMIT_NS / 2);
        }
        let b = Budgets::for_run(false, Some(4.0), 0);
        assert_eq!(b.zone_ns, 4_000_000_000);
        assert_eq!(b.sweep_ns, 400_000_000);
        assert_eq!(
            Budgets::for_run(false, Some(f64::NAN), 0),
            Budgets::for_run(false, None, 0)
        );
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
