//! The cdm preset over an engine factory: the four CrystalDiskMark reads on the device (or
//! on the scratch file when no device is named) and the four writes on a scratch file, which
//! is laid out first (like CrystalDiskMark's and fio's test file) and always removed.

use std::path::{Path, PathBuf};

use super::engine::{Engine, OpenHow, OpenInfo};
use super::honesty;
use super::plan::{Geometry, MIB};
use super::preset::{self, CDM_FILE};
use super::progress::Bar;
use super::runner::{Job, Op, Pattern, run_job};
use super::scratch;
use super::suite::{self, Ctx};
use super::{BenchError, BenchResult};
use super::{StopReason, TestName};
use crate::host::Host;
use diskdoc_core::model::DeviceClass;

/// What the cdm preset needs to know besides the context.
pub struct CdmPlan<'a> {
    /// The device to read, with its geometry; None: read the scratch file.
    pub device: Option<(&'a Path, Geometry)>,
    pub scratch_dir: &'a Path,
    pub budget_ns: u64,
    /// Run the writes (and the reads of the scratch file).
    pub writes: bool,
    /// Run the reads.
    pub reads: bool,
    /// The class of the disk the writes land on, for their size (None: unknown).
    pub class: Option<DeviceClass>,
    /// Every test runs its whole budget (fio's time_based; writes always do).
    pub time_based: bool,
}

/// The reads' early stop off when the plan is time-based, so a run compared with fio's
/// `--time_based` line measures a window of the same length.
fn timed(mut job: Job, plan: &CdmPlan) -> Job {
    if plan.time_based {
        job.min_ns = job.budget_ns;
    }
    job
}

/// The results, and each job with the file it ran on and whether it was direct (for
/// `--export fio`).
pub type Exported = Vec<(Job, String, bool)>;

fn noted(ctx: &Ctx, mut r: BenchResult, job: &Job, file: &str, direct: bool) -> BenchResult {
    r.disk = ctx.disk.clone();
    if !r.notes.iter().any(|n| n.starts_with("fio equivalent: ")) {
        r.notes.extend(preset::fio_notes(job, file, direct));
    }
    r
}

/// Run the cdm preset.
pub fn run(ctx: &Ctx, host: &mut dyn Host, plan: &CdmPlan) -> (Vec<BenchResult>, Exported) {
    let mut out = Vec::new();
    let mut exported = Vec::new();
    if plan.reads
        && let Some((dev, geo)) = plan.device
    {
        let len = geo.size.min(CDM_FILE);
        for job in preset::cdm_jobs(Op::Read, 0, len, geo.logical, plan.budget_ns, 0) {
            if ctx.stop.load(std::sync::atomic::Ordering::Relaxed) {
                break;
            }
            let job = timed(job, plan);
            let file = dev.display().to_string();
            let r = suite::read_once(ctx, dev, job.clone(), true);
            let direct = r.direct;
            let fatal = suite::is_fatal(&r);
            // The job as it ran (its fio line says what the engine did).
            let job = job.after_run(&r);
            out.push(noted(ctx, r, &job, &file, direct));
            exported.push((job, file, direct));
            if fatal {
                break;
            }
        }
    }
    let reads_on_file = plan.reads && plan.device.is_none();
    if plan.writes || reads_on_file {
        let (rs, ex) = on_scratch(ctx, host, plan, reads_on_file);
        out.extend(rs);
        exported.extend(ex);
    }
    (out, exported)
}

/// Lay out the scratch file, run the writes (and the reads when no device was named), and
/// remove the file.
fn on_scratch(
    ctx: &Ctx,
    host: &mut dyn Host,
    plan: &CdmPlan,
    reads: bool,
) -> (Vec<BenchResult>, Exported) {
    let dir = plan.scratch_dir;
    let dir_s = dir.display().to_string();
    let mut out = Vec::new();
    let mut exported = Vec::new();
    let fail = |kind: &str, message: String| {
        suite::failed(
            TestName::CdmWrite,
            "scratch",
            &dir_s,
            &ctx.disk,
            kind,
            message,
        )
    };
    let free = match scratch::free_bytes(dir) {
        Ok(f) => f,
        Err(e) => {
            out.push(fail("statvfs", suite::describe_open_error(dir, &e, true)));
            return (out, exported);
        }
    };
    // At most a quarter of the free space, whole MiB; at least 16 MiB to mean anything.
    let file_len = (free / 4).min(CDM_FILE) / MIB * MIB;
    if file_len < 16 * MIB {
        out.push(fail(
            "ENOSPC",
            format!(
                "only {} free on {dir_s}; the cdm preset needs at least 64 MiB free for its \
                 scratch file",
                diskdoc_core::units::bytes_iec1(free)
            ),
        ));
        return (out, exported);
    }
    let mut notes: Vec<String> = Vec::new();
    notes.extend(honesty::small_file_note(file_len, CDM_FILE, free));
    let fstype = honesty::fstype(host, dir);
    let (context, zfs) = suite::scratch_context(host, dir);
    notes.extend(context);
    let (mut e, info, path, removed) = match create(ctx, dir, "cdm", TestName::CdmWrite) {
        Ok(x) => x,
        Err(r) => {
            out.push(*r);
            return (out, exported);
        }
    };
    // `file` is the name fio's equivalent command uses; diskdoc's own file has none.
    let file = path.display().to_string();
    let unnamed = format!("{dir_s} (unnamed scratch file)");
    let (fsync, timing) =
        honesty::write_timing(cfg!(target_os = "freebsd"), fstype.as_deref(), info.direct);
    notes.extend(timing);
    // Lay the file out with real data (untimed): random writes then overwrite allocated
    // blocks, and reads of it read data, not holes (a hole or an unwritten extent reads as
    // zeros without touching the disk).
    let _ = e.preallocate(file_len);
    let mut fill = Job::new(
        TestName::CdmWrite,
        "layout",
        Op::Write,
        Pattern::Sequential,
        MIB as usize,
    );
    fill.queue_depth = 8;
    fill.region_len = file_len;
    fill.max_bytes = Some(file_len);
    fill.budget_ns = 600_000_000_000;
    fill.min_ns = fill.budget_ns;
    fill.fsync_at_end = true;
    let bar = Bar::new("cdm layout", ctx.bars);
    let laid = run_job(e.as_mut(), &fill, info.direct, ctx.stop, &mut |f, b| {
        bar.update(f, b)
    });
    bar.finish();
    if laid.error.is_some() || laid.bytes < file_len {
        let mut r = laid;
        r.target = unnamed.clone();
        r.label = "layout".into();
        r.notes.push(format!(
            "laying out the {} scratch file stopped early; the cdm tests did not run",
            diskdoc_core::units::bytes_iec1(file_len)
        ));
        out.push(r);
    } else {
        notes.push(format!(
            "the scratch file was laid out first: {} written in {:.1} s (not timed in the results)",
            diskdoc_core::units::bytes_iec1(laid.bytes),
            laid.elapsed_ns as f64 / 1e9
        ));
        let logical = 4096;
        let mut jobs = Vec::new();
        if reads {
            jobs.extend(preset::cdm_jobs(
                Op::Read,
                0,
                file_len,
                logical,
                plan.budget_ns,
                0,
            ));
        }
        if plan.writes {
            let cap = honesty::write_cap(plan.class);
            jobs.extend(
                preset::cdm_jobs(Op::Write, 0, file_len, logical, plan.budget_ns, cap)
                    .into_iter()
                    .map(|mut j| {
                        j.fsync_at_end = fsync;
                        j
                    }),
            );
        }
        for job in jobs {
            if ctx.stop.load(std::sync::atomic::Ordering::Relaxed) {
                break;
            }
            let mut job = timed(job, plan);
            job.target = unnamed.clone();
            job.scratch = true;
            job.disk = ctx.disk.clone();
            let bar = Bar::new(&format!("{} {}", job.test, job.label), ctx.bars);
            let mut r = run_job(e.as_mut(), &job, info.direct, ctx.stop, &mut |f, b| {
                bar.update(f, b)
            });
            bar.finish();
            if job.op == Op::Write && !job.fsync_at_end && r.error.is_none() {
                flush_untimed(e.as_mut(), &mut r);
            }
            if job.op == Op::Read {
                r.notes.push(format!(
                    "no --device was named: this read the scratch file in {dir_s}, through its \
                     filesystem"
                ));
                // A ZFS scratch file just written is in the ARC when the ARC can hold it:
                // those reads are labelled, not passed off as the disks'.
                if let Some(z) = &zfs {
                    let v = z.read_verdict(file_len);
                    r.answered_by = v.answered_by.map(str::to_string);
                    r.notes.push(v.note);
                }
            } else {
                r.notes.push(honesty::amount_note(&r, file_len));
                r.notes.extend(honesty::cache_note(&r, plan.class));
            }
            if r.error.as_ref().is_some_and(|e| e.kind == "ENOSPC") {
                r.notes
                    .push("the filesystem filled up; the test stopped and removed its file".into());
            }
            r.notes.extend(notes.iter().cloned());
            let fatal = suite::is_fatal(&r) || r.error.is_some() && job.op == Op::Write;
            // The job as it ran (its fio line says what the engine did).
            let job = job.after_run(&r);
            out.push(noted(ctx, r, &job, &file, info.direct));
            exported.push((job, file.clone(), info.direct));
            if fatal {
                break;
            }
        }
    }
    e.close();
    if let Some(last) = out.last_mut() {
        last.notes.push(removed);
    }
    (out, exported)
}

/// Untimed fsync(2) after a write test: what it left in caches below (dirty pages of a loop
/// device's backing file, a drive's write cache) is flushed before the next test starts,
/// instead of slowing that one. The time it took goes into a note.
fn flush_untimed(e: &mut dyn Engine, r: &mut BenchResult) {
    let t0 = std::time::Instant::now();
    match e.sync() {
        Ok(()) => r.notes.push(format!(
            "flushed (fsync, untimed) in {:.2} s before the next test",
            t0.elapsed().as_secs_f64()
        )),
        Err(err) => r
            .notes
            .push(format!("the untimed fsync afterwards failed: {err}")),
    }
}

/// Create a fresh scratch file in `dir` that never has a name ([`scratch::create`]: nothing
/// is left behind whatever ends diskdoc) and open it on a new engine, O_DIRECT asked.
/// Returns the engine, how it opened, the path fio's equivalent command uses (fio needs a
/// name; diskdoc's own file has none) and the cleanup note. Err: the failed result to report.
#[allow(clippy::type_complexity)]
pub(crate) fn create(
    ctx: &Ctx,
    dir: &Path,
    tag: &str,
    test: TestName,
) -> Result<(Box<dyn Engine>, OpenInfo, PathBuf, String), Box<BenchResult>> {
    let fail = |err: std::io::Error| {
        let kind = err
            .raw_os_error()
            .map(super::runner::errno_name)
            .unwrap_or_else(|| "open".into());
        Box::new(suite::failed(
            test.clone(),
            "scratch",
            &dir.display().to_string(),
            &ctx.disk,
            &kind,
            suite::describe_open_error(dir, &err, true),
        ))
    };
    let s = scratch::create(dir, tag).map_err(fail)?;
    let note = s.note();
    let mut e = (ctx.engine)();
    let how = OpenHow {
        write: true,
        create_new: true,
        direct: true,
        exclusive: false,
    };
    let info = e.open_file(s.file, how).map_err(fail)?;
    Ok((e, info, dir.join(format!("diskdoc-{tag}.fio")), note))
}

/// The write half of the cdm preset on a raw device, through the descriptor the destructive
/// guard opened exclusively and checked (bench::rawdev; measure::destructive re-checks it
/// right before calling this): each test runs on a duplicate of that one descriptor, so
/// nothing is re-resolved by path. The tests cover the first GiB (CrystalDiskMark's test
/// size) or the whole device when it is smaller; a device too small for the 4 KiB tests to
/// mean anything is refused before the first write.
pub fn raw_writes(
    ctx: &Ctx,
    geo: &Geometry,
    budget_ns: u64,
    class: Option<DeviceClass>,
    dev: &std::fs::File,
) -> (Vec<BenchResult>, Exported) {
    let mut out = Vec::new();
    let mut exported = Vec::new();
    let region = geo.size.min(CDM_FILE) / MIB * MIB;
    if region < 16 * MIB {
        out.push(suite::failed(
            TestName::CdmWrite,
            "raw",
            &ctx.target,
            &ctx.disk,
            "too-small",
            format!(
                "the device is {}; the cdm writes need at least 16 MiB",
                diskdoc_core::units::bytes_iec1(geo.size)
            ),
        ));
        return (out, exported);
    }
    let cap = honesty::write_cap(class);
    for mut job in preset::cdm_jobs(Op::Write, 0, region, geo.logical, budget_ns, cap) {
        if ctx.stop.load(std::sync::atomic::Ordering::Relaxed) {
            break;
        }
        job.target = ctx.target.clone();
        job.disk = ctx.disk.clone();
        let (mut e, info) = match suite::on_raw_device(ctx, dev, TestName::CdmWrite, &job.label) {
            Ok(x) => x,
            Err(r) => {
                out.push(*r);
                break;
            }
        };
        // Without O_DIRECT the writes land in the page cache; the fsync that puts them on
        // the device is then part of the measurement (as for a scratch file).
        job.fsync_at_end = !info.direct;
        let bar = Bar::new(&format!("{} {}", job.test, job.label), ctx.bars);
        let mut r = run_job(e.as_mut(), &job, info.direct, ctx.stop, &mut |f, b| {
            bar.update(f, b)
        });
        bar.finish();
        if !job.fsync_at_end && r.error.is_none() {
            // fsync(2) on a block device flushes the drive's write cache too.
            flush_untimed(e.as_mut(), &mut r);
        }
        e.close();
        r.notes.push(honesty::amount_note(&r, region));
        r.notes.extend(honesty::cache_note(&r, class));
        r.notes.push(format!(
            "raw device: wrote the first {} of {} directly (--destructive); its previous \
             contents there are gone",
            diskdoc_core::units::bytes_iec1(region),
            ctx.target
        ));
        // Any write error ends the run: the next test would only write into the same fault.
        let fatal = r.error.is_some();
        // The job as it ran (its fio line says what the engine did).
        let job = job.after_run(&r);
        out.push(noted(ctx, r, &job, &ctx.target, info.direct));
        exported.push((job, ctx.target.clone(), info.direct));
        if fatal {
            break;
        }
    }
    (out, exported)
}

/// A result for a cdm request that cannot run (kept for the report, never a panic).
pub fn refused(ctx: &Ctx, message: String) -> BenchResult {
    BenchResult {
        test: TestName::CdmRead,
        target: ctx.target.clone(),
        disk: ctx.disk.clone(),
        label: "cdm".into(),
        stop_reason: StopReason::Error,
        error: Some(BenchError {
            kind: "refused".into(),
            offset_bytes: 0,
            message,
        }),
        ..BenchResult::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::engine::{DirectEngine, FakeEngine};
    use crate::bench::suite::unit::ctx;
    use std::sync::atomic::AtomicBool;

    #[test]
    fn cdm_on_a_real_directory_reads_and_writes_the_scratch_file() {
        let dir = tempfile::tempdir().unwrap();
        let stop = AtomicBool::new(false);
        let f = || -> Box<dyn Engine> { Box::new(DirectEngine::new()) };
        let c = ctx(&stop, &f);
        let plan = CdmPlan {
            device: None,
            scratch_dir: dir.path(),
            budget_ns: 100_000_000,
            writes: true,
            reads: true,
            class: Some(DeviceClass::Ssd),
            time_based: false,
        };
        let (rs, ex) = run(&c, &mut crate::host::LiveHost::new(), &plan);
        let names: Vec<String> = rs
            .iter()
            .map(|r| format!("{} {}", r.test, r.label))
            .collect();
        assert_eq!(rs.len(), 8, "{names:?}");
        assert_eq!(ex.len(), 8);
        assert_eq!(names[0], "cdm-read SEQ1M Q8T1");
        assert_eq!(names[7], "cdm-write RND4K Q1T1");
        for r in &rs {
            assert!(r.error.is_none(), "{r:?}");
            assert!(r.bytes > 0, "{r:?}");
            assert!(
                r.notes
                    .iter()
                    .any(|n| n.starts_with("fio equivalent: fio "))
            );
            assert!(
                r.notes.iter().any(|n| n.contains("laid out first")),
                "{:?}",
                r.notes
            );
        }
        assert!(
            rs[0]
                .notes
                .iter()
                .any(|n| n.contains("no --device was named"))
        );
        assert!(
            rs[4].notes.iter().any(|n| n.starts_with("wrote ")),
            "{:?}",
            rs[4].notes
        );
        assert_eq!(rs[2].queue_depth, 32);
        assert!(
            rs[7]
                .notes
                .iter()
                .any(|n| n.starts_with("scratch file removed")),
            "{:?}",
            rs[7].notes
        );
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn cdm_reads_the_device_when_one_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let stop = AtomicBool::new(false);
        let f = || -> Box<dyn Engine> { Box::new(FakeEngine::new(8 << 30, 50, 500.0)) };
        let c = ctx(&stop, &f);
        let geo = Geometry {
            size: 8 << 30,
            logical: 512,
            physical: 4096,
        };
        let plan = CdmPlan {
            device: Some((Path::new("/dev/fake"), geo)),
            scratch_dir: dir.path(),
            budget_ns: 300_000_000,
            writes: false,
            reads: true,
            class: None,
            time_based: true,
        };
        let (rs, ex) = run(&c, &mut crate::host::LiveHost::new(), &plan);
        assert_eq!(rs.len(), 4);
        assert!(
            rs.iter()
                .all(|r| r.test == TestName::CdmRead && r.target == "/dev/fake")
        );
        // Q8 overlaps on a device that serves one at a time only as much as it allows.
        assert!(rs[0].bytes_per_sec > 0.0);
        assert!(ex[0].1 == "/dev/fake" && ex[0].2);
        assert!(
            rs[2].notes[0].contains("--filename=/dev/fake"),
            "{:?}",
            rs[2].notes
        );
    }

    /// The cdm preset on a real directory (real reads and writes of a real scratch file),
    /// with a host whose captures say that directory is a ZFS dataset: the reads of the
    /// file just written carry "ARC (RAM)" and why, the writes the dataset's properties.
    #[test]
    fn cdm_reads_of_a_zfs_scratch_file_are_labelled_arc() {
        use crate::bench::zfs::testing::{direct_engine, zfs_machine};
        use diskdoc_core::sources::zfs_bench::ANSWERED_BY_ARC;
        let dir = tempfile::tempdir().unwrap();
        let b = zfs_machine(dir.path(), "standard");
        let stop = std::sync::atomic::AtomicBool::new(false);
        let f = direct_engine;
        let c = ctx(&stop, &f);
        let plan = CdmPlan {
            device: None,
            scratch_dir: dir.path(),
            budget_ns: 50_000_000,
            writes: true,
            reads: true,
            class: None,
            time_based: false,
        };
        let (rs, _) = run(&c, &mut crate::host::ReplayHost { bundle: &b }, &plan);
        assert_eq!(rs.len(), 8);
        for r in &rs[..4] {
            assert_eq!(r.answered_by.as_deref(), Some(ANSWERED_BY_ARC), "{r:?}");
            assert!(r.notes.iter().any(|n| n.starts_with("labelled ARC (RAM)")));
        }
        for r in &rs[4..] {
            assert_eq!(r.answered_by, None);
            assert!(
                r.notes
                    .iter()
                    .any(|n| n.contains("compression=lz4") && n.contains("incompressible")),
                "{:?}",
                r.notes
            );
        }
        assert!(rs.iter().all(|r| r.notes.iter().any(|n| n.starts_with(
            "ZFS dataset tank/bench (pool tank): primarycache=all, sync=standard, logbias=latency"
        ))));
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}
