//! The read and write tests as functions over an engine factory: zone curve, block-size sweep,
//! random reads, sequential and synchronous writes to a scratch file, layer cost and the
//! destructive raw-device write. Each returns results, never panics; a device error ends the
//! reads on that device ("stop safely") and is kept in the result.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use super::engine::{Engine, OpenHow, OpenInfo};
use super::plan::{self, Budgets, Geometry};
use super::progress::Bar;
use super::runner::{Job, run_job};
use super::scratch;
use super::{BenchError, BenchResult, StopReason, TestName};
use crate::host::Host;

/// Makes a fresh engine per job.
pub type EngineFactory<'a> = &'a dyn Fn() -> Box<dyn Engine>;

/// Shared settings of a run.
pub struct Ctx<'a> {
    pub target: String,
    pub disk: String,
    pub stop: &'a AtomicBool,
    pub bars: bool,
    pub engine: EngineFactory<'a>,
}

/// A plain-words message for a failed open(2), for the user diskdoc runs as.
pub fn describe_open_error(path: &Path, e: &std::io::Error, writing: bool) -> String {
    describe_open_error_as(path, e, writing, nix::unistd::geteuid().is_root())
}

/// The advice depends on who was refused: "try sudo" helps only a user who is not root
/// already; root refused (EACCES/EPERM) meets a policy, not a missing privilege
/// (open(2): EPERM "the operation was prevented by a file seal", LSMs such as SELinux or
/// AppArmor, kernel lockdown, a container's device cgroup, an immutable file).
pub fn describe_open_error_as(
    path: &Path,
    e: &std::io::Error,
    writing: bool,
    root: bool,
) -> String {
    let p = path.display();
    match e.raw_os_error() {
        Some(libc::EACCES) | Some(libc::EPERM) if root => format!(
            "permission denied opening {p} although diskdoc runs as root: the kernel refused it \
             (a security module such as SELinux or AppArmor, kernel lockdown, a container \
             without access to the device, or an immutable file); {}",
            if writing {
                "choose another place with --scratch-dir"
            } else {
                "check `dmesg` and the audit log for the denial"
            }
        ),
        // The scratch file is opened as the directory itself (O_TMPFILE) or as a name in it.
        Some(libc::EACCES) | Some(libc::EPERM) if writing => format!(
            "permission denied creating a file in {}: you cannot write there; choose a \
             directory you own with --scratch-dir (or run as root)",
            if path.is_dir() {
                path
            } else {
                path.parent().unwrap_or(path)
            }
            .display()
        ),
        Some(libc::ENOENT) => {
            format!("{p} does not exist (check the name; `lsblk` lists block devices)")
        }
        Some(libc::EACCES) | Some(libc::EPERM) => format!(
            "permission denied opening {p}: {} needs root (try sudo)",
            if writing {
                "writing there"
            } else {
                "reading a raw device"
            }
        ),
        Some(libc::EROFS) => format!(
            "{p} is on a read-only filesystem or device; choose a writable place with --scratch-dir"
        ),
        Some(libc::ENOSPC) => format!("no space left to create {p}"),
        Some(libc::ENXIO) | Some(libc::ENODEV) => {
            format!("{p} has no medium or the device was removed")
        }
        Some(libc::EBUSY) => format!(
            "{p} is in use (mounted, or held by dm/md/LVM); it cannot be opened exclusively"
        ),
        Some(libc::EEXIST) => format!("{p} already exists; diskdoc never overwrites a file"),
        Some(libc::ELOOP) => {
            format!("{p} is a symbolic link; diskdoc does not follow links for its scratch file")
        }
        Some(libc::ENOTDIR) => format!("{p}: a parent is not a directory"),
        _ => format!("cannot open {p}: {e}"),
    }
}

/// Why the read tests could not open `dev`, in [`describe_open_error`]'s words, or None
/// when they can: the same open(2) (read-only) they make, closed at once, so a test that
/// would only fail is not offered (a user who is not root is refused a raw disk on most
/// systems: the device nodes are root:disk 0660).
pub fn read_refusal(dev: &Path) -> Option<String> {
    match std::fs::File::open(dev) {
        Ok(_) => None,
        Err(e) => Some(describe_open_error(dev, &e, false)),
    }
}

/// A result for a test that could not run at all.
pub fn failed(
    test: TestName,
    label: &str,
    ctx_target: &str,
    disk: &str,
    kind: &str,
    message: String,
) -> BenchResult {
    BenchResult {
        test,
        target: ctx_target.into(),
        disk: disk.into(),
        label: label.into(),
        stop_reason: StopReason::Error,
        error: Some(BenchError {
            kind: kind.into(),
            offset_bytes: 0,
            message,
        }),
        ..BenchResult::default()
    }
}

/// The result for a job whose target could not be opened: the errno's name as the error
/// kind ("open" when the OS gave none) and the plain-words reason.
fn open_failed(
    job: &Job,
    disk: &str,
    path: &Path,
    err: &std::io::Error,
    writing: bool,
) -> BenchResult {
    let kind = err
        .raw_os_error()
        .map(super::runner::errno_name)
        .unwrap_or_else(|| "open".into());
    failed(
        job.test.clone(),
        &job.label,
        &job.target,
        disk,
        &kind,
        describe_open_error(path, err, writing),
    )
}

/// Device errors after which no further reads should be sent to a device.
pub fn is_fatal(r: &BenchResult) -> bool {
    matches!(
        r.error.as_ref().map(|e| e.kind.as_str()),
        Some("EIO" | "ENODEV" | "ENXIO" | "ENOMEDIUM" | "EBADF")
    )
}

/// Errors that may mean the device itself went away (detached loop device, unplugged disk).
const MAYBE_GONE: &[&str] = &["EOF", "ENXIO", "ENODEV", "ENOMEDIUM", "ENOENT"];

/// Why `path` is no longer the device of `size` bytes that the test started on: it no longer
/// exists, has no device behind it, or reports another size (a detached loop device reads as
/// 0 bytes; loop(4) LOOP_CLR_FD). None if it still looks the same.
pub fn device_gone(path: &Path, size: u64) -> Option<String> {
    use std::io::{Seek, SeekFrom};
    let mut f = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) => {
            return match e.raw_os_error() {
                Some(libc::ENOENT) => Some(format!("{} no longer exists", path.display())),
                // ENOMEDIUM is Linux's; FreeBSD answers ENXIO for a vanished provider.
                Some(libc::ENXIO | libc::ENODEV) => Some(format!(
                    "{} has no device behind it any more ({e})",
                    path.display()
                )),
                #[cfg(target_os = "linux")]
                Some(libc::ENOMEDIUM) => {
                    Some(format!("{} has no medium any more ({e})", path.display()))
                }
                _ => None,
            };
        }
    };
    match f.seek(SeekFrom::End(0)) {
        Ok(now) if now != size => Some(format!(
            "{} now reports {now} bytes instead of {size}",
            path.display()
        )),
        Ok(_) => None,
        Err(e) => Some(format!("{} cannot be sized any more ({e})", path.display())),
    }
}

/// A read that ended in EOF, ENXIO, ENODEV, ... on a device that is no longer there becomes
/// one plain "the device went away" error (kind ENODEV: fatal, and the read-errors check
/// reports it), instead of a "smaller than the test region?" puzzle per remaining test.
fn mark_if_gone(r: &mut BenchResult, path: &Path, size: u64) {
    let Some(err) = r.error.as_mut() else {
        return;
    };
    if !MAYBE_GONE.contains(&err.kind.as_str()) {
        return;
    }
    if let Some(why) = device_gone(path, size) {
        err.kind = "ENODEV".into();
        err.message = format!(
            "the device went away during the test: {why}. The test stopped; the results \
             before this one were measured while it was there"
        );
    }
}

/// Run one read job: open, measure, close.
pub(crate) fn read_once(ctx: &Ctx, path: &Path, mut job: Job, direct: bool) -> BenchResult {
    let mut e = (ctx.engine)();
    job.target = path.display().to_string();
    job.disk = ctx.disk.clone();
    let info = match e.open(
        path,
        OpenHow {
            write: false,
            create_new: false,
            direct,
            exclusive: false,
        },
    ) {
        Ok(i) => i,
        Err(err) => return open_failed(&job, &ctx.disk, path, &err, false),
    };
    let mut notes = Vec::new();
    if direct && !info.direct {
        notes.push("O_DIRECT was refused here; this read went through the page cache".to_string());
    }
    if !direct {
        // Cold cache: a buffered read must come from the disk, not from an earlier test.
        if let Err(err) = e.drop_cache(job.region_start, job.region_len) {
            notes.push(format!(
                "could not drop cached pages first ({err}); the result may include cache hits"
            ));
        }
    }
    let bar = Bar::new(&format!("{} {}", job.test, job.label), ctx.bars);
    let mut r = run_job(e.as_mut(), &job, info.direct, ctx.stop, &mut |f, b| {
        bar.update(f, b)
    });
    bar.finish();
    e.close();
    r.notes.extend(notes);
    r.notes.extend(super::preset::fio_notes(
        &job.after_run(&r),
        &path.display().to_string(),
        info.direct,
    ));
    r
}

/// Tests 1-3 on one device: zones, sweep, random. Stops after a fatal device error.
pub fn read_tests(
    ctx: &Ctx,
    geo: &Geometry,
    b: &Budgets,
    kinds: &[plan::TestKind],
) -> Vec<BenchResult> {
    use plan::TestKind;
    let path = PathBuf::from(&ctx.target);
    let mut jobs: Vec<(Job, bool)> = Vec::new();
    let mut out = Vec::new();
    let mut skipped_buffered = false;
    for k in kinds {
        match k {
            TestKind::Zones => match plan::zone_jobs(geo, b) {
                Ok(js) => jobs.extend(js.into_iter().map(|j| (j, true))),
                Err(m) => out.push(failed(
                    TestName::SeqRead,
                    "zones",
                    &ctx.target,
                    &ctx.disk,
                    "too-small",
                    m.to_string(),
                )),
            },
            TestKind::Sweep => {
                let platform = crate::host::current_platform();
                let buffered = super::geometry::buffered_sweep_applies(platform, &ctx.target);
                skipped_buffered |= !buffered;
                jobs.extend(plan::sweep_jobs(geo, b, buffered));
            }
            TestKind::Rand => match plan::rand_jobs(geo, b) {
                Ok(js) => jobs.extend(js.into_iter().map(|j| (j, true))),
                Err(m) => out.push(failed(
                    TestName::RandRead,
                    "qd1",
                    &ctx.target,
                    &ctx.disk,
                    "too-small",
                    m.to_string(),
                )),
            },
            _ => {}
        }
    }
    for (job, direct) in jobs {
        if ctx.stop.load(std::sync::atomic::Ordering::Relaxed) {
            break;
        }
        let mut r = read_once(ctx, &path, job, direct);
        mark_if_gone(&mut r, &path, geo.size);
        let fatal = is_fatal(&r);
        out.push(r);
        if fatal {
            if let Some(last) = out.last_mut() {
                let why = if last.error.as_ref().is_some_and(|e| e.kind == "ENODEV") {
                    "it went away"
                } else {
                    "it reported an I/O error"
                };
                last.notes
                    .push(format!("further reads of this device were skipped: {why}"));
            }
            break;
        }
    }
    if skipped_buffered && let Some(r) = out.iter_mut().rev().find(|r| r.test == TestName::BsSweep)
    {
        r.notes.push(super::geometry::NO_BUFFERED_SWEEP.into());
    }
    out
}

/// One device of a stack for the layer-cost test.
#[derive(Debug, Clone, PartialEq)]
pub struct StackMember {
    /// "disk", "partition sda1", "luks dm-0".
    pub label: String,
    pub path: String,
    /// Where the layer's byte 0 sits on the device below (partition start), when known.
    pub start_on_disk: u64,
}

/// Test 6: read the same amount through the disk and each layer; note each layer's tax.
pub fn layer_cost(
    ctx: &Ctx,
    disk: &StackMember,
    layers: &[StackMember],
    b: &Budgets,
    len: u64,
) -> Vec<BenchResult> {
    let mut out = Vec::new();
    let first_start = layers.first().map(|l| l.start_on_disk).unwrap_or(0);
    let mut base = read_once(
        ctx,
        Path::new(&disk.path),
        plan::layer_job(&disk.label, first_start, len, b),
        true,
    );
    base.test = TestName::LayerCost;
    let base_bw = base.bytes_per_sec;
    let stop_after = is_fatal(&base);
    out.push(base);
    if stop_after {
        return out;
    }
    for l in layers {
        if ctx.stop.load(std::sync::atomic::Ordering::Relaxed) {
            break;
        }
        let mut r = read_once(
            ctx,
            Path::new(&l.path),
            plan::layer_job(&l.label, 0, len, b),
            true,
        );
        if r.error.is_none() && base_bw > 0.0 {
            let tax = (1.0 - r.bytes_per_sec / base_bw) * 100.0;
            r.notes.insert(
                0,
                format!(
                    "layer tax: {:.0} MB/s through {} vs {:.0} MB/s from the disk: {tax:.0}% {}",
                    r.bytes_per_sec / 1e6,
                    l.label,
                    base_bw / 1e6,
                    if tax >= 0.0 {
                        "slower"
                    } else {
                        "faster (cache or readahead in the layer)"
                    }
                ),
            );
        }
        let fatal = is_fatal(&r);
        out.push(r);
        if fatal {
            break;
        }
    }
    out
}

/// Notes about the filesystem holding `dir` that change what a write result means (btrfs
/// compression mount options), and, when it is a ZFS dataset, what the benchmark captured
/// about it (bench::zfs: its properties, its pool's log devices, the ARC). The mount table
/// and the ZFS captures are read through `host`, so they are in the evidence bundle and a
/// replay sees what the notes were made from.
pub fn scratch_context(
    host: &mut dyn Host,
    dir: &Path,
) -> (
    Vec<String>,
    Option<diskdoc_core::sources::zfs_bench::ZfsBench>,
) {
    let mut notes = Vec::new();
    let canon = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    if host.platform() != diskdoc_core::evidence::Platform::Freebsd
        && let Some(mi) = host
            .read_file("/proc/self/mountinfo")
            .data()
            .map(str::to_string)
    {
        let mounts = scratch::parse_mountinfo(&mi);
        if let Some(m) = scratch::mount_for(&mounts, &canon.to_string_lossy()) {
            notes.extend(scratch::btrfs_compression_note(m));
        }
    }
    let zfs = super::zfs::for_dir(host, dir);
    if let Some(z) = &zfs {
        notes.push(z.summary());
        notes.extend(z.write_notes());
    }
    (notes, zfs)
}

/// Tests 4 and 5: a fresh scratch file per job in `dir`, always removed.
pub fn write_tests(
    ctx: &Ctx,
    host: &mut dyn Host,
    dir: &Path,
    b: &Budgets,
    kinds: &[plan::TestKind],
) -> Vec<BenchResult> {
    write_tests_capped(ctx, host, dir, b, kinds, None)
}

/// [`write_tests`] with the size cap overridden (fault tests use a cap above the free space
/// to meet a real ENOSPC mid-write).
pub fn write_tests_capped(
    ctx: &Ctx,
    host: &mut dyn Host,
    dir: &Path,
    b: &Budgets,
    kinds: &[plan::TestKind],
    cap_override: Option<u64>,
) -> Vec<BenchResult> {
    use plan::TestKind;
    let mut out = Vec::new();
    let dir_s = dir.display().to_string();
    let free = match scratch::free_bytes(dir) {
        Ok(f) => f,
        Err(e) => {
            out.push(failed(
                TestName::SeqWrite,
                "1 MiB",
                &dir_s,
                &ctx.disk,
                "statvfs",
                describe_open_error(dir, &e, true),
            ));
            return out;
        }
    };
    let cap = cap_override.unwrap_or_else(|| scratch::size_cap(free, plan::MIB));
    let (notes, zfs) = scratch_context(host, dir);
    for k in kinds {
        if ctx.stop.load(std::sync::atomic::Ordering::Relaxed) {
            break;
        }
        let (job, tag) = match k {
            TestKind::Write => {
                // The region is the space cap; the amount written is the time budget's,
                // wrapping over the region, up to a cap past a drive's write cache
                // (honesty::write_cap), so a small filesystem still writes for the budget.
                let mut j = plan::write_job(cap, b);
                j.max_bytes = j.max_bytes.map(|m| m.max(super::honesty::write_cap(None)));
                j.min_ns = j.budget_ns;
                (j, "write")
            }
            TestKind::Sync => (plan::sync_job(cap, b), "sync"),
            _ => continue,
        };
        if cap < job.block_size as u64 {
            out.push(failed(job.test.clone(), &job.label, &dir_s, &ctx.disk, "ENOSPC", format!(
                "only {} free on {dir_s}; the write test uses at most 10% of free space and needs at least {}",
                diskdoc_core::units::bytes_iec1(free),
                diskdoc_core::units::bytes_iec1(job.block_size as u64 * 10)
            )));
            continue;
        }
        let mut r = write_once(ctx, dir, job, tag);
        // The 4 KiB + fsync test on ZFS measures the intent log: on a SLOG, on the data
        // disks, or nothing at all with sync=disabled (sources::zfs_bench::sync_verdict).
        if let Some(z) = zfs.as_ref().filter(|_| r.test == TestName::SyncWrite) {
            let v = z.sync_verdict();
            r.answered_by = v.answered_by.map(str::to_string);
            r.notes.push(v.note);
        }
        r.notes.extend(notes.iter().cloned());
        // A failed write (EIO: the device under the filesystem failed or went away, or the
        // filesystem shut down) ends the write tests: the next one would only fail again,
        // and its error would hide the first. The results so far are kept.
        let fatal = is_fatal(&r);
        if fatal {
            if let Some(e) = r.error.as_mut() {
                e.message = format!(
                    "writing the scratch file on {dir_s} failed: {}. The device under the \
                     filesystem failed the write or went away, or the filesystem shut down; \
                     the write tests stopped here",
                    e.message
                );
            }
            r.notes
                .push("further write tests were skipped after this I/O error".into());
        }
        out.push(r);
        if fatal {
            break;
        }
    }
    out
}

fn write_once(ctx: &Ctx, dir: &Path, mut job: Job, tag: &str) -> BenchResult {
    job.target = format!("{} (unnamed scratch file)", dir.display());
    job.scratch = true;
    job.disk = ctx.disk.clone();
    let mut e = (ctx.engine)();
    // Direct for the streaming test; the fsync test writes through the page cache like an
    // application would and pays for the flush on every write.
    let want_direct = job.test == TestName::SeqWrite;
    let how = OpenHow {
        write: true,
        create_new: true,
        direct: want_direct,
        exclusive: false,
    };
    // The file has no name from here on (or never had one): nothing to remove later.
    let s = match scratch::create(dir, tag) {
        Ok(s) => s,
        Err(err) => return open_failed(&job, &ctx.disk, dir, &err, true),
    };
    let removed_note = s.note();
    let info: OpenInfo = match e.open_file(s.file, how) {
        Ok(i) => i,
        Err(err) => return open_failed(&job, &ctx.disk, dir, &err, true),
    };
    let mut notes = Vec::new();
    if want_direct && info.direct && super::honesty::os_needs_fsync(cfg!(target_os = "freebsd")) {
        job.fsync_at_end = true;
        notes.push("O_DIRECT does not make writes synchronous on this OS; the final fsync(2) is inside the timed region".to_string());
    }
    if want_direct && !info.direct {
        job.fsync_at_end = true;
        notes.push("this filesystem refused O_DIRECT; the writes went through the page cache and the final fsync is inside the timed region".to_string());
    }
    let bar = Bar::new(&format!("{} {}", job.test, job.label), ctx.bars);
    let mut r = run_job(e.as_mut(), &job, info.direct, ctx.stop, &mut |f, b| {
        bar.update(f, b)
    });
    bar.finish();
    e.close();
    notes.push(super::honesty::amount_note(&r, job.region_len));
    notes.push(removed_note);
    if let Some(err) = &r.error
        && err.kind == "ENOSPC"
    {
        notes.push(format!(
            "the filesystem filled up at {} written; the test stopped and its file is gone",
            diskdoc_core::units::bytes_iec1(r.bytes)
        ));
    }
    r.notes.extend(notes);
    // diskdoc's file has no name; fio's line names one in the same directory, which fio
    // creates at --size and lays out itself (overwrite=1) before its timed writes.
    let fio_file = dir.join(format!("diskdoc-{tag}.fio"));
    r.notes.extend(super::preset::fio_notes(
        &job.after_run(&r),
        &fio_file.display().to_string(),
        info.direct,
    ));
    r
}

/// Test 7 body: sequential 1 MiB and random 4 KiB writes over the first GiB of a device that
/// passed [`super::safety`] checks, written through `dev`, the descriptor those checks read
/// (each job gets a dup(2) of it: the same open file description, never a new open by path).
/// The caller is responsible for the checks.
/// A new engine on a duplicate of the raw device's one checked descriptor (dup(2): the same
/// open file, so its O_EXCL claim and the guard's checks carry over; nothing is re-opened by
/// path). Err: the failed result to report for `test`/`label`.
pub(crate) fn on_raw_device(
    ctx: &Ctx,
    dev: &File,
    test: TestName,
    label: &str,
) -> Result<(Box<dyn super::engine::Engine>, super::engine::OpenInfo), Box<BenchResult>> {
    let mut e = (ctx.engine)();
    let how = OpenHow {
        write: true,
        create_new: false,
        direct: true,
        exclusive: true,
    };
    match dev.try_clone().and_then(|f| e.open_file(f, how)) {
        Ok(info) => Ok((e, info)),
        Err(err) => Err(Box::new(failed(
            test,
            label,
            &ctx.target,
            &ctx.disk,
            "open",
            format!("cannot use the open device {}: {err}", ctx.target),
        ))),
    }
}

pub fn raw_write(ctx: &Ctx, geo: &Geometry, b: &Budgets, dev: &File) -> Vec<BenchResult> {
    use super::runner::{Op, Pattern};
    let region = geo.size.min(plan::GIB) / plan::MIB * plan::MIB;
    let mut out = Vec::new();
    if region < plan::MIB {
        out.push(failed(
            TestName::RawWrite,
            "seq",
            &ctx.target,
            &ctx.disk,
            "too-small",
            format!("the device is {} bytes, smaller than 1 MiB", geo.size),
        ));
        return out;
    }
    for (label, pattern, bs) in [
        ("seq 1 MiB", Pattern::Sequential, plan::MIB as usize),
        (
            "rand 4 KiB qd1",
            Pattern::Random,
            geo.logical.max(4096) as usize,
        ),
    ] {
        if ctx.stop.load(std::sync::atomic::Ordering::Relaxed) {
            break;
        }
        let mut job = Job::new(TestName::RawWrite, label, Op::Write, pattern, bs);
        job.target = ctx.target.clone();
        job.disk = ctx.disk.clone();
        job.region_len = region;
        job.budget_ns = b.write_ns;
        job.min_ns = (b.write_ns as f64 * b.min_fraction) as u64;
        let (mut e, info) = match on_raw_device(ctx, dev, TestName::RawWrite, label) {
            Ok(x) => x,
            Err(r) => {
                out.push(*r);
                break;
            }
        };
        if !info.direct {
            job.fsync_at_end = true;
        }
        let mut r = run_job(e.as_mut(), &job, info.direct, ctx.stop, &mut |_, _| {});
        e.close();
        mark_if_gone(&mut r, Path::new(&ctx.target), geo.size);
        let fatal = is_fatal(&r);
        if fatal {
            r.notes.push(
                "the write test stopped at this error; the results before it were measured \
                 while the device worked"
                    .into(),
            );
        }
        out.push(r);
        if fatal {
            break;
        }
    }
    out
}

#[cfg(test)]
pub(crate) mod unit {
    use super::*;
    use crate::bench::engine::FakeEngine;
    use crate::bench::plan::{GIB, MIB, TestKind};

    pub(crate) fn ctx<'a>(stop: &'a AtomicBool, f: EngineFactory<'a>) -> Ctx<'a> {
        Ctx {
            target: "/dev/fake".into(),
            disk: "fake".into(),
            stop,
            bars: false,
            engine: f,
        }
    }

    #[test]
    fn full_read_suite_on_a_fake_disk_is_within_budget() {
        let stop = AtomicBool::new(false);
        let f = || -> Box<dyn Engine> { Box::new(FakeEngine::new(100 * GIB, 80, 150.0)) };
        let c = ctx(&stop, &f);
        let geo = Geometry {
            size: 100 * GIB,
            logical: 512,
            physical: 4096,
        };
        let kinds = [TestKind::Zones, TestKind::Sweep, TestKind::Rand];
        // The default sweep: 512 B, 4 and 64 KiB and 1 MiB direct, 512 B buffered.
        let b = Budgets::for_run(false, None, 0);
        let rs = read_tests(&c, &geo, &b, &kinds);
        let labels: Vec<&str> = rs.iter().map(|r| r.label.as_str()).collect();
        assert_eq!(
            labels,
            [
                "outer",
                "middle",
                "inner",
                "bs=512",
                "bs=4096",
                "bs=65536",
                "bs=1048576",
                "buffered bs=512",
                "qd1",
                "qd32"
            ]
        );
        assert!(rs[3].bytes_per_sec * 20.0 < rs[6].bytes_per_sec);
        let total: u64 = rs.iter().map(|r| r.elapsed_ns).sum();
        assert!(total <= plan::DEFAULT_READ_RUN_LIMIT_NS, "{total}");
        // --full-sweep: every power of two to 4 MiB, direct and buffered.
        let rs = read_tests(&c, &geo, &b.with_full_sweep(true), &kinds);
        assert_eq!(rs.len(), 3 + 28 + 2);
        let total: u64 = rs.iter().map(|r| r.elapsed_ns).sum();
        assert!(total <= plan::READ_RUN_LIMIT_NS, "{total}");
        assert!(rs.iter().all(|r| r.error.is_none()));
        assert_eq!(rs[0].label, "outer");
        assert_eq!(rs[3].label, "bs=512");
        assert!(!rs[3 + 14].direct);
        assert_eq!(rs[3 + 14].label, "buffered bs=512");
        assert_eq!(rs[32].label, "qd32");
        // Small blocks pay the per-I/O cost: 512 B is far slower than 1 MiB.
        assert!(rs[3].bytes_per_sec * 20.0 < rs[3 + 11].bytes_per_sec);
    }

    #[test]
    fn eio_stops_further_reads() {
        let stop = AtomicBool::new(false);
        let f = || -> Box<dyn Engine> {
            let mut e = FakeEngine::new(10 * GIB, 80, 150.0);
            e.eio_at = Some(3 * MIB + 5);
            Box::new(e)
        };
        let c = ctx(&stop, &f);
        let geo = Geometry {
            size: 10 * GIB,
            logical: 512,
            physical: 512,
        };
        let rs = read_tests(
            &c,
            &geo,
            &Budgets::for_run(true, None, 0),
            &[TestKind::Zones, TestKind::Rand],
        );
        assert_eq!(rs.len(), 1);
        assert_eq!(rs[0].error.as_ref().unwrap().kind, "EIO");
        assert_eq!(rs[0].error.as_ref().unwrap().offset_bytes, 3 * MIB);
        assert!(rs[0].notes.iter().any(|n| n.contains("skipped")));
    }

    #[test]
    fn small_device_is_explained() {
        let stop = AtomicBool::new(false);
        let f = || -> Box<dyn Engine> { Box::new(FakeEngine::new(MIB, 80, 150.0)) };
        let c = ctx(&stop, &f);
        let geo = Geometry {
            size: MIB,
            logical: 512,
            physical: 512,
        };
        let rs = read_tests(
            &c,
            &geo,
            &Budgets::for_run(true, None, 0),
            &[TestKind::Zones],
        );
        assert_eq!(rs[0].error.as_ref().unwrap().kind, "too-small");
    }

    #[test]
    fn layer_tax_is_noted() {
        let stop = AtomicBool::new(false);
        let f = || -> Box<dyn Engine> { Box::new(FakeEngine::new(GIB, 0, 500.0)) };
        let c = ctx(&stop, &f);
        let disk = StackMember {
            label: "disk".into(),
            path: "/dev/fake".into(),
            start_on_disk: 0,
        };
        let layer = StackMember {
            label: "luks dm-0".into(),
            path: "/dev/dm-0".into(),
            start_on_disk: MIB,
        };
        let rs = layer_cost(
            &c,
            &disk,
            &[layer],
            &Budgets::for_run(true, None, 1),
            64 * MIB,
        );
        assert_eq!(rs.len(), 2);
        assert_eq!(rs[0].offset_bytes, MIB);
        assert!(
            rs[1].notes[0].starts_with("layer tax: 500 MB/s"),
            "{:?}",
            rs[1].notes
        );
    }

    #[test]
    fn write_test_on_a_real_directory_removes_its_file() {
        let dir = tempfile::tempdir().unwrap();
        let stop = AtomicBool::new(false);
        let f = || -> Box<dyn Engine> { Box::new(crate::bench::engine::DirectEngine::new()) };
        let c = ctx(&stop, &f);
        let mut b = Budgets::for_run(true, Some(0.2), 0);
        b.min_fraction = 0.1;
        let rs = write_tests(
            &c,
            &mut crate::host::LiveHost::new(),
            dir.path(),
            &b,
            &[TestKind::Write, TestKind::Sync],
        );
        assert_eq!(rs.len(), 2);
        for r in &rs {
            assert!(r.error.is_none(), "{r:?}");
            assert!(r.bytes > 0);
            assert!(
                r.notes
                    .iter()
                    .any(|n| n.starts_with("scratch file removed")),
                "{:?}",
                r.notes
            );
        }
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn interrupted_write_leaves_no_file() {
        let dir = tempfile::tempdir().unwrap();
        let stop = AtomicBool::new(true);
        let f = || -> Box<dyn Engine> { Box::new(crate::bench::engine::DirectEngine::new()) };
        let c = ctx(&stop, &f);
        let rs = write_tests(
            &c,
            &mut crate::host::LiveHost::new(),
            dir.path(),
            &Budgets::for_run(true, None, 0),
            &[TestKind::Write],
        );
        assert!(rs.is_empty() || rs[0].stop_reason == StopReason::Interrupted);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn a_device_that_went_away_is_named_once() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("disk");
        std::fs::write(&p, vec![0u8; 8192]).unwrap();
        assert_eq!(device_gone(&p, 8192), None);
        let mut r = failed(
            TestName::SeqRead,
            "middle",
            "x",
            "d",
            "EOF",
            "no data".into(),
        );
        mark_if_gone(&mut r, &p, 8192);
        assert_eq!(r.error.as_ref().unwrap().kind, "EOF");
        std::fs::write(&p, b"").unwrap();
        assert!(
            device_gone(&p, 8192)
                .unwrap()
                .contains("now reports 0 bytes")
        );
        mark_if_gone(&mut r, &p, 8192);
        let e = r.error.as_ref().unwrap();
        assert_eq!(e.kind, "ENODEV");
        assert!(
            e.message.starts_with("the device went away"),
            "{}",
            e.message
        );
        assert!(is_fatal(&r));
        std::fs::remove_file(&p).unwrap();
        assert!(device_gone(&p, 8192).unwrap().contains("no longer exists"));
        // An EIO is a disk error, not a disappearance: left as it is.
        let mut r = failed(TestName::SeqRead, "middle", "x", "d", "EIO", "bad".into());
        mark_if_gone(&mut r, &p, 8192);
        assert_eq!(r.error.as_ref().unwrap().kind, "EIO");
    }

    #[test]
    fn open_errors_read_plainly() {
        let e = std::io::Error::from_raw_os_error(libc::EACCES);
        let dev = Path::new("/dev/sda");
        assert!(describe_open_error_as(dev, &e, false, false).contains("needs root"));
        // Root refused: no "try sudo", the policy named instead.
        let eperm = std::io::Error::from_raw_os_error(libc::EPERM);
        let m = describe_open_error_as(dev, &eperm, false, true);
        assert!(
            !m.contains("sudo") && m.contains("although diskdoc runs as root"),
            "{m}"
        );
        // A scratch directory the user cannot write: --scratch-dir, not root.
        let m = describe_open_error_as(Path::new("/srv/ro/.diskdoc-1"), &e, true, false);
        assert!(m.contains("--scratch-dir") && m.contains("/srv/ro"), "{m}");
        let e = std::io::Error::from_raw_os_error(libc::ENOENT);
        assert!(describe_open_error(Path::new("/dev/sdz"), &e, false).contains("does not exist"));
        let e = std::io::Error::from_raw_os_error(libc::EROFS);
        assert!(describe_open_error(Path::new("/ro/x"), &e, true).contains("read-only"));
    }

    /// The 4 KiB + fsync test on a dataset with sync=disabled is labelled RAM's.
    #[test]
    fn fsync_test_on_sync_disabled_is_labelled() {
        use crate::bench::zfs::testing::{direct_engine, zfs_machine};
        use diskdoc_core::sources::zfs_bench::ANSWERED_BY_NO_SYNC;
        let dir = tempfile::tempdir().unwrap();
        let b = zfs_machine(dir.path(), "disabled");
        let stop = std::sync::atomic::AtomicBool::new(false);
        let f = direct_engine;
        let c = ctx(&stop, &f);
        let mut budgets = Budgets::for_run(true, Some(0.2), 0);
        budgets.min_fraction = 0.1;
        let rs = write_tests(
            &c,
            &mut crate::host::ReplayHost { bundle: &b },
            dir.path(),
            &budgets,
            &[TestKind::Write, TestKind::Sync],
        );
        assert_eq!(rs.len(), 2);
        assert_eq!(rs[0].answered_by, None);
        assert_eq!(rs[1].answered_by.as_deref(), Some(ANSWERED_BY_NO_SYNC));
        assert!(
            rs[1].notes.iter().any(|n| n.contains("zil_commit")),
            "{:?}",
            rs[1].notes
        );
        assert!(
            rs[0]
                .notes
                .iter()
                .any(|n| n.contains("sync=disabled: the final fsync"))
        );
    }
}
