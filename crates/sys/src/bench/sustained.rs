//! `--tests sustained` (opt-in): sequential 1 MiB writes at queue depth 8 to a growing
//! scratch file until a byte budget (most of the free space) or a time budget runs out,
//! with the throughput of every interval against the amount written, and the cliff where
//! it falls for good: an SSD's SLC cache filling (QLC/TLC drives fold it into the slow
//! cells), or a drive-managed SMR disk's CMR cache zone filling (it then rewrites shingled
//! bands). The file only grows (no wrap), so every write goes to fresh blocks, as a long copy
//! does.
//!
//! Results: one "sustained-write" summary, then "sustained-write-curve" points (at most
//! [`CURVE_POINTS`], labelled by the amount written), which the text report charts.

use std::path::Path;

use super::BenchResult;
use super::honesty;
use super::plan::{GIB, MIB};
use super::progress::Bar;
use super::runner::{Job, Op, Pattern, run_job_intervals};
use super::scratch;
use super::suite::{self, Ctx};
use super::{StopReason, TestName};
use diskdoc_core::model::DeviceClass;
use diskdoc_core::units::bytes_iec1;

/// Points of the curve kept in the results (intervals are merged into this many).
pub const CURVE_POINTS: usize = 24;
/// Default time budget: long enough to fill a typical 10-40 GB SLC cache at SATA speed
/// partly, and a few GiB of an HDD's CMR zone.
pub const DEFAULT_SECS: f64 = 60.0;
/// Space left free on the filesystem, whatever the byte budget.
pub const RESERVE: u64 = GIB;

/// `--budget`, else 60 s; quick halves it.
pub fn budget_ns(budget_secs: Option<f64>, quick: bool) -> u64 {
    super::preset::budget_or(budget_secs, DEFAULT_SECS, quick)
}

/// The byte budget: 80 % of the free space less a 1 GiB reserve, whole MiB.
pub fn byte_budget(free: u64) -> u64 {
    (free.saturating_sub(RESERVE) / 10 * 8) / MIB * MIB
}

/// One point: bytes written when the interval ended, and its rate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    pub written: u64,
    pub bytes_per_sec: f64,
}

/// Interval rates `dt_ns` apart -> points against the amount written.
pub fn curve(rates: &[f64], dt_ns: u64) -> Vec<Point> {
    let dt = dt_ns as f64 / 1e9;
    let mut written = 0.0;
    rates
        .iter()
        .map(|r| {
            written += r * dt;
            Point {
                written: written as u64,
                bytes_per_sec: *r,
            }
        })
        .collect()
}

/// Merge consecutive points into at most `n` (mean rate, last amount).
pub fn downsample(points: &[Point], n: usize) -> Vec<Point> {
    if points.len() <= n || n == 0 {
        return points.to_vec();
    }
    let per = points.len().div_ceil(n);
    points
        .chunks(per)
        .filter_map(|c| {
            let last = c.last()?;
            Some(Point {
                written: last.written,
                bytes_per_sec: c.iter().map(|p| p.bytes_per_sec).sum::<f64>() / c.len() as f64,
            })
        })
        .collect()
}

/// Where the throughput fell for good.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cliff {
    /// Bytes written when the fall began.
    pub at: u64,
    pub before: f64,
    pub after: f64,
}

fn median(v: &[f64]) -> f64 {
    let mut s: Vec<f64> = v.iter().copied().filter(|x| x.is_finite()).collect();
    if s.is_empty() {
        return 0.0;
    }
    s.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    let m = s.len() / 2;
    if s.len().is_multiple_of(2) {
        (s[m - 1] + s[m]) / 2.0
    } else {
        s[m]
    }
}

/// The split that best separates a fast start from a slow rest: the median before is at
/// least 1.5x the median after, with at least three points on each side, and the fall holds
/// (the three points after the split are all below the before-median's 80 %). A single slow
/// interval (a stall) or a slow start is no cliff.
pub fn find_cliff(points: &[Point]) -> Option<Cliff> {
    let rates: Vec<f64> = points.iter().map(|p| p.bytes_per_sec).collect();
    let n = rates.len();
    if n < 6 {
        return None;
    }
    let mut best: Option<(f64, usize, f64, f64)> = None;
    for k in 3..=n - 3 {
        let before = median(&rates[..k]);
        let after = median(&rates[k..]);
        if after <= 0.0 || before < 1.5 * after {
            continue;
        }
        if !rates[k..k + 3].iter().all(|r| *r < before * 0.8) {
            continue;
        }
        let ratio = before / after;
        if best.is_none_or(|b| ratio > b.0) {
            best = Some((ratio, k, before, after));
        }
    }
    best.map(|(_, k, before, after)| Cliff {
        at: points
            .get(k.wrapping_sub(1))
            .map(|p| p.written)
            .unwrap_or(0),
        before,
        after,
    })
}

/// What the cliff (or its absence) means, in words.
pub fn cliff_note(cliff: Option<Cliff>, written: u64, class: Option<DeviceClass>) -> String {
    let cause = match class {
        Some(DeviceClass::Hdd) => "a drive-managed SMR disk's CMR cache zone filling",
        Some(DeviceClass::Ssd | DeviceClass::Nvme) => {
            "the SSD's SLC write cache filling (the drive now writes its slower TLC/QLC cells)"
        }
        _ => "a write cache below the OS filling (SSD SLC cache, SMR CMR zone, host cache)",
    };
    match cliff {
        Some(c) => format!(
            "cliff after {} written: {:.0} MB/s fell to {:.0} MB/s ({:.0}% lower); likely {cause}",
            bytes_iec1(c.at),
            c.before / 1e6,
            c.after / 1e6,
            (1.0 - c.after / c.before.max(1.0)) * 100.0
        ),
        None => format!(
            "no cliff in {} written: the rate held (any write cache is larger than this, or \
             absent)",
            bytes_iec1(written)
        ),
    }
}

/// Run the sustained test in `dir`.
pub fn run(ctx: &Ctx, dir: &Path, budget_ns: u64, class: Option<DeviceClass>) -> Vec<BenchResult> {
    let dir_s = dir.display().to_string();
    let fail = |kind: &str, m: String| {
        vec![suite::failed(
            TestName::SustainedWrite,
            "1 MiB Q8",
            &dir_s,
            &ctx.disk,
            kind,
            m,
        )]
    };
    let free = match scratch::free_bytes(dir) {
        Ok(f) => f,
        Err(e) => return fail("statvfs", suite::describe_open_error(dir, &e, true)),
    };
    let cap = byte_budget(free);
    if cap < 64 * MIB {
        return fail(
            "ENOSPC",
            format!(
                "only {} free on {dir_s}; the sustained test keeps 1 GiB free and needs 64 MiB \
                 more",
                bytes_iec1(free)
            ),
        );
    }
    let (mut e, info, path, removed) =
        match super::cdm::create(ctx, dir, "sustained", TestName::SustainedWrite) {
            Ok(x) => x,
            Err(r) => return vec![*r],
        };
    let mut job = Job::new(
        TestName::SustainedWrite,
        "1 MiB Q8",
        Op::Write,
        Pattern::Sequential,
        MIB as usize,
    );
    job.target = format!("{} (unnamed scratch file)", dir.display());
    job.scratch = true;
    job.disk = ctx.disk.clone();
    job.queue_depth = 8;
    job.region_len = cap;
    job.max_bytes = Some(cap);
    job.budget_ns = budget_ns;
    job.min_ns = budget_ns;
    // About 100 intervals over the budget, none shorter than 100 ms.
    job.interval_ns = (budget_ns / 100).max(100_000_000);
    job.fsync_at_end = !info.direct || honesty::os_needs_fsync(cfg!(target_os = "freebsd"));
    let bar = Bar::new(TestName::SustainedWrite.as_str(), ctx.bars);
    let (mut r, rates) = run_job_intervals(e.as_mut(), &job, info.direct, ctx.stop, &mut |f, b| {
        bar.update(f, b)
    });
    bar.finish();
    e.close();
    let points = curve(&rates, job.interval_ns);
    let cliff = find_cliff(&points);
    r.notes.push(honesty::amount_note(&r, cap));
    r.notes.push(cliff_note(cliff, r.bytes, class));
    if r.stop_reason == StopReason::Size {
        r.notes.push(format!(
            "the byte budget ended the test: {} (80 % of the free space less 1 GiB)",
            bytes_iec1(cap)
        ));
    }
    r.notes.extend(super::preset::fio_notes(
        &job,
        &path.display().to_string(),
        info.direct,
    ));
    if !info.direct {
        r.notes.push(
            "O_DIRECT was refused: the page cache absorbed the start, the final fsync is timed"
                .into(),
        );
    }
    r.notes.push(removed);
    let mut out = vec![r.clone()];
    for p in downsample(&points, CURVE_POINTS) {
        out.push(BenchResult {
            test: TestName::SustainedWriteCurve,
            target: r.target.clone(),
            disk: r.disk.clone(),
            label: format!("@ {}", bytes_iec1(p.written)),
            block_size_bytes: r.block_size_bytes,
            queue_depth: r.queue_depth,
            threads: r.threads,
            direct: r.direct,
            offset_bytes: p.written,
            bytes_per_sec: p.bytes_per_sec,
            stop_reason: StopReason::Curve,
            ..BenchResult::default()
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pts(rates: &[f64]) -> Vec<Point> {
        curve(rates, 1_000_000_000)
    }

    #[test]
    fn curve_accumulates_the_amount() {
        let p = pts(&[100e6, 200e6]);
        assert_eq!(p[0].written, 100_000_000);
        assert_eq!(p[1].written, 300_000_000);
        assert_eq!(downsample(&pts(&[1.0; 100]), 24).len(), 20);
        assert_eq!(downsample(&pts(&[1.0; 10]), 24).len(), 10);
    }

    #[test]
    fn a_slc_cache_running_out_is_a_cliff() {
        // 10 s at 500 MB/s, then 80 MB/s: the cliff is at 5 GB.
        let mut rates = vec![500e6; 10];
        rates.extend([80e6, 75e6, 85e6, 80e6, 78e6, 82e6, 80e6]);
        let c = find_cliff(&pts(&rates)).unwrap();
        assert_eq!(c.at, 5_000_000_000);
        assert!((c.before - 500e6).abs() < 1.0 && (c.after - 80e6).abs() < 1.0);
        let n = cliff_note(Some(c), 6 << 30, Some(DeviceClass::Ssd));
        assert!(
            n.starts_with("cliff after 4.7 GiB written: 500 MB/s fell to 80 MB/s"),
            "{n}"
        );
        assert!(n.contains("SLC"));
    }

    #[test]
    fn noise_stalls_and_slow_starts_are_no_cliff() {
        let steady = [200e6, 210e6, 190e6, 205e6, 195e6, 200e6, 198e6, 202e6];
        assert_eq!(find_cliff(&pts(&steady)), None);
        // One stall in the middle.
        let stall = [200e6, 210e6, 190e6, 20e6, 195e6, 200e6, 198e6, 202e6];
        assert_eq!(find_cliff(&pts(&stall)), None);
        // Slow first, fast later (a drive waking up).
        let rise = [50e6, 50e6, 50e6, 200e6, 200e6, 200e6, 200e6];
        assert_eq!(find_cliff(&pts(&rise)), None);
        assert_eq!(find_cliff(&pts(&[1.0, 2.0])), None);
        assert!(cliff_note(None, GIB, None).starts_with("no cliff in 1.0 GiB"));
    }

    #[test]
    fn budgets() {
        assert_eq!(budget_ns(None, false), 60_000_000_000);
        assert_eq!(budget_ns(Some(4.0), true), 2_000_000_000);
        assert_eq!(byte_budget(11 * GIB), 8 * GIB);
        assert_eq!(byte_budget(GIB / 2), 0);
    }

    #[test]
    fn sustained_on_a_real_directory() {
        let dir = tempfile::tempdir().unwrap();
        if scratch::free_bytes(dir.path()).unwrap_or(0) < 2 * GIB {
            eprintln!("skipping: less than 2 GiB free in the temp directory");
            return;
        }
        let stop = std::sync::atomic::AtomicBool::new(false);
        let f = || -> Box<dyn super::super::engine::Engine> {
            Box::new(super::super::engine::DirectEngine::new())
        };
        let c = crate::bench::suite::unit::ctx(&stop, &f);
        let rs = run(&c, dir.path(), 1_000_000_000, None);
        assert!(rs[0].error.is_none(), "{:?}", rs[0]);
        assert_eq!(rs[0].test, TestName::SustainedWrite);
        assert!(
            rs[0].notes.iter().any(|n| n.contains("cliff")),
            "{:?}",
            rs[0].notes
        );
        assert!(rs.len() > 3, "{rs:?}");
        assert!(
            rs[1..]
                .iter()
                .all(|r| r.test == TestName::SustainedWriteCurve)
        );
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}
