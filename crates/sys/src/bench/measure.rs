//! The benchmark library's entry points: [`measure`] (read tests on a device, write tests
//! in a scratch directory) and [`destructive`] (the raw-device write test), each from a typed
//! [`BenchRequest`]. Both probe and read the system through [`LiveHost`], so what they learn
//! (geometry ioctls, the stack, who holds the device) is recorded in the evidence bundle.
//! Shared by `diskdoc bench` and the wizard; presentation lives in the binary.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use crate::bench::BenchResult;
use crate::bench::engine::{DirectEngine, Engine};
use crate::bench::plan::{self, Budgets, Geometry, TestKind};
use crate::bench::progress;
use crate::bench::rawdev;
use crate::bench::safety;
use crate::bench::suite::{self, Ctx, StackMember};
use crate::host::{Host, HostExt, IoctlRequest, LiveHost};
use diskdoc_core::evidence::{EvidenceBundle, Origin};
use diskdoc_core::facts;

/// What to measure, typed: which tests, on which device, where to write, how long.
#[derive(Debug, Clone, Default)]
pub struct BenchRequest {
    /// The tests to run, in order (reads need `device`, writes use `scratch_dir`).
    pub tests: Vec<TestKind>,
    /// The device (or image file) the read tests read.
    pub device: Option<String>,
    /// Directory for the write tests' scratch file (default: the current directory).
    pub scratch_dir: Option<PathBuf>,
    /// Shorter budgets.
    pub quick: bool,
    /// The whole block-size sweep (`--full-sweep`, plan::sweep_steps).
    pub full_sweep: bool,
    /// Time budget per test, seconds (None: the plan's default).
    pub budget_secs: Option<f64>,
    /// Run every test for its whole budget (fio's --time_based).
    pub time_based: bool,
    /// Progress bars and remarks on stderr.
    pub bars: bool,
    /// `--destructive` on a partition whose sibling partition (or disk) is in use: allowed.
    pub allow_busy_siblings: bool,
    /// `--preset`: cdm runs the CrystalDiskMark tests instead of `tests` (all but
    /// `sustained`, which still runs when asked for).
    pub preset: crate::bench::preset::Preset,
    /// `--export fio FILE`: write the fio job file of the tests run.
    pub export_fio: Option<PathBuf>,
}

pub use crate::bench::error::MeasureError;

/// "sda", "/dev/sda" -> ("sda", "/dev/sda"). Paths outside /dev are kept as given (an image
/// file can be read like a device).
pub fn resolve_device(host: &mut dyn Host, dev: &str) -> (String, String) {
    let dev = dev.trim();
    // /dev/disk/by-id/... and /dev/mapper/... are symlinks: the kernel name (sysfs, facts)
    // is the link target's (realpath(3), asked of the host so the bundle records it).
    if dev.starts_with("/dev/")
        && let Some(real) = host.real_path(dev).data().map(|r| r.trim().to_string())
        && let Some(n) = Path::new(&real).file_name()
    {
        return (n.to_string_lossy().into_owned(), real);
    }
    if dev.starts_with('/') {
        let name = Path::new(dev)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| dev.to_string());
        (name, dev.to_string())
    } else {
        (dev.to_string(), format!("/dev/{dev}"))
    }
}

fn ioctl_u64(host: &mut LiveHost, dev: &str, req: IoctlRequest) -> Option<u64> {
    host.ioctl(dev, req)
        .data()
        .and_then(|d| d.trim().parse().ok())
}

/// Size and sector sizes: ioctls (recorded in the bundle), else the engine's view.
fn geometry(host: &mut LiveHost, dev_path: &str) -> Result<Geometry, MeasureError> {
    // Linux BLK* or FreeBSD DIOCG* (bench::geometry).
    let platform = host.platform();
    let (size_req, logical_req, physical_req) = crate::bench::geometry::requests(platform);
    let size = ioctl_u64(host, dev_path, size_req);
    let logical = ioctl_u64(host, dev_path, logical_req);
    let physical = ioctl_u64(host, dev_path, physical_req);
    let size = match size {
        Some(s) => s,
        None => {
            // Not a block device (an image file) or the ioctl failed: open it to learn why.
            let mut e = DirectEngine::new();
            let info = e
                .open(Path::new(dev_path), Default::default())
                .map_err(|err| MeasureError::Open {
                    path: PathBuf::from(dev_path),
                    advice: suite::describe_open_error(Path::new(dev_path), &err, false),
                })?;
            e.close();
            info.size
        }
    };
    if size == 0 {
        return Err(MeasureError::Empty {
            path: dev_path.to_string(),
            hint: "no medium, an unconfigured loop or zram device?",
        });
    }
    Ok(crate::bench::geometry::from_answers(
        platform, size, logical, physical,
    ))
}

/// The stack above a disk: from the facts when the probe found layers, else from sysfs
/// (partitions with their `start`, then holders, breadth first).
fn stack_for(host: &mut LiveHost, sys: &facts::SystemFacts, name: &str) -> Vec<StackMember> {
    let mut out = Vec::new();
    if let Some(d) = sys.disk(name) {
        for l in d.layers.iter().take(6) {
            let start = d
                .partition_table
                .value()
                .and_then(|t| t.partitions.iter().find(|p| p.name == l.name))
                .map(|p| p.start_bytes)
                .unwrap_or(0);
            let kind = l
                .kind
                .map(|k| format!("{k:?}").to_lowercase())
                .unwrap_or_else(|| "layer".into());
            out.push(StackMember {
                label: format!("{kind} {}", l.name),
                path: format!("/dev/{}", l.name),
                start_on_disk: start,
            });
        }
        if !out.is_empty() {
            return out;
        }
    }
    let base = format!("/sys/class/block/{name}");
    let mut queue: Vec<String> = Vec::new();
    for e in host.entries(&base) {
        if e.starts_with(name) && host.text(&format!("{base}/{e}/partition")).is_some() {
            let start = host
                .text(&format!("{base}/{e}/start"))
                .and_then(|s| s.parse::<u64>().ok())
                .map(|s| s * 512) // sysfs `start` counts 512-byte units (block/partitions docs)
                .unwrap_or(0);
            out.push(StackMember {
                label: format!("partition {e}"),
                path: format!("/dev/{e}"),
                start_on_disk: start,
            });
            queue.push(e);
        }
    }
    queue.push(name.to_string());
    let mut seen = 0;
    while let Some(dev) = queue.pop() {
        seen += 1;
        if seen > 16 || out.len() >= 6 {
            break;
        }
        for h in host.entries(&format!("/sys/class/block/{dev}/holders")) {
            if out.iter().any(|m| m.path.ends_with(&format!("/{h}"))) {
                continue;
            }
            let uuid = host
                .text(&format!("/sys/class/block/{h}/dm/uuid"))
                .unwrap_or_default();
            let kind = if uuid.starts_with("CRYPT-LUKS") {
                "luks"
            } else if uuid.starts_with("CRYPT-") {
                "dm-crypt"
            } else if uuid.starts_with("LVM-") {
                "lvm"
            } else if h.starts_with("md") {
                "md"
            } else if h.starts_with("dm-") {
                "dm"
            } else {
                "layer"
            };
            out.push(StackMember {
                label: format!("{kind} {h}"),
                path: format!("/dev/{h}"),
                start_on_disk: 0,
            });
            queue.insert(0, h);
        }
    }
    out
}

/// The budgets the request asks for; `time_based` turns the early stop off.
fn budgets(req: &BenchRequest, n_layers: usize) -> Budgets {
    let b = Budgets::for_run(req.quick, req.budget_secs, n_layers).with_full_sweep(req.full_sweep);
    if req.time_based { b.time_based() } else { b }
}

/// The bundle of a run that probes nothing (no device named: the writes go to a scratch
/// file), named by this machine's anonymous host ID.
pub fn unprobed() -> EvidenceBundle {
    let mut b = EvidenceBundle::new(crate::host::current_platform(), Origin::Live);
    b.host_id = crate::host_id::this_host();
    b
}

/// `--scratch-dir DIR` names a directory that exists (a missing one is not "not a
/// directory": the user mistyped it or has to create it).
pub fn scratch_dir_usable(dir: &Path) -> Result<(), MeasureError> {
    match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => Ok(()),
        Ok(_) => Err(MeasureError::ScratchNotDirectory(dir.to_path_buf())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            Err(MeasureError::ScratchMissing(dir.to_path_buf()))
        }
        Err(e) => Err(MeasureError::ScratchUnusable {
            dir: dir.to_path_buf(),
            source: e,
        }),
    }
}

/// Run the tests `req.tests` names on `req.device` (reads) and in `req.scratch_dir` (writes)
/// and return `bundle` (the caller's probe of the device, [`unprobed`] without one) with the
/// results appended. `sys` are the facts the caller derived from that probe: the layers
/// above the disk, its class and interface (the results' notes) come from them, so a
/// bench probes and derives once.
pub fn measure(
    req: &BenchRequest,
    bundle: EvidenceBundle,
    sys: &facts::SystemFacts,
) -> Result<EvidenceBundle, MeasureError> {
    // A signal from here on stops the tests and keeps what was measured.
    let _busy = crate::interrupt::busy();
    if req.preset == crate::bench::preset::Preset::Cdm {
        return measure_cdm(req, bundle, sys);
    }
    let args = req;
    let device = req.device.as_deref();
    let bars = req.bars;
    let kinds = req.tests.clone();
    let wants_read = kinds.iter().any(|k| k.is_read());
    let wants_write = kinds.iter().any(|k| !k.is_read());
    let mut results: Vec<BenchResult> = Vec::new();
    let mut bundle = bundle;
    // disk-busy: was the disk busy right before the tests? (The report's facts read it;
    // the tests need none of it.)
    crate::probe::add_busy_sample(&mut bundle);
    let mut host = LiveHost::new();
    crate::bench::tsc::choose(&mut host);
    let factory = || -> Box<dyn Engine> { Box::new(DirectEngine::new()) };
    let named = device.map(|d| resolve_device(&mut host, d));
    let disk_name = named.as_ref().map(|n| n.0.clone()).unwrap_or_default();

    if let (true, Some((name, path))) = (wants_read, named) {
        let geo = geometry(&mut host, &path)?;
        let layers = if kinds.contains(&TestKind::Layers) {
            stack_for(&mut host, sys, &name)
        } else {
            Vec::new()
        };
        let budgets = budgets(args, layers.len());
        let ctx = Ctx {
            target: path.clone(),
            disk: name.clone(),
            stop: &progress::STOP,
            bars,
            engine: &factory,
        };
        results.extend(suite::read_tests(&ctx, &geo, &budgets, &kinds));
        let failed_hard = results.iter().any(suite::is_fatal);
        if kinds.contains(&TestKind::Layers) && !failed_hard && !progress::interrupted() {
            if layers.is_empty() {
                if bars {
                    eprintln!(
                        "layer cost: {path} has no partitions, crypt, LVM or md layers above it; nothing to compare"
                    );
                }
            } else {
                let disk = StackMember {
                    label: "disk".into(),
                    path: path.clone(),
                    start_on_disk: 0,
                };
                let len = (geo.size / 4).min(256 * plan::MIB);
                results.extend(suite::layer_cost(&ctx, &disk, &layers, &budgets, len));
            }
        }
    }
    if wants_write && !progress::interrupted() {
        let dir = args
            .scratch_dir
            .clone()
            .unwrap_or_else(|| PathBuf::from("."));
        scratch_dir_usable(&dir)?;
        let budgets = budgets(args, 0);
        let ctx = Ctx {
            target: dir.display().to_string(),
            disk: disk_name.clone(),
            stop: &progress::STOP,
            bars,
            engine: &factory,
        };
        results.extend(suite::write_tests(&ctx, &mut host, &dir, &budgets, &kinds));
        if kinds.contains(&TestKind::Sustained) && !progress::interrupted() {
            let class = sys.disk(&disk_name).and_then(|d| d.class.get());
            results.extend(crate::bench::sustained::run(
                &ctx,
                &dir,
                crate::bench::sustained::budget_ns(req.budget_secs, req.quick),
                class,
            ));
        }
    }
    // The write tests' directory, `.` when none was named: its filesystem's notes (tmpfs,
    // ZFS, a loop device without direct I/O) belong on their results either way.
    let scratch = args
        .scratch_dir
        .clone()
        .unwrap_or_else(|| PathBuf::from("."));
    let scratch = wants_write.then_some(scratch.as_path());
    crate::bench::honesty::annotate(&mut results, &mut host, sys, scratch);
    Ok(bundle_with(bundle, host, results))
}

/// `--preset cdm`: the four CrystalDiskMark tests, read (on `req.device`, else on the
/// scratch file) and write (on the scratch file), each with its fio equivalent; the fio job
/// file goes to `req.export_fio`.
fn measure_cdm(
    req: &BenchRequest,
    mut bundle: EvidenceBundle,
    sys: &facts::SystemFacts,
) -> Result<EvidenceBundle, MeasureError> {
    use crate::bench::{cdm, preset};
    let mut host = LiveHost::new();
    crate::bench::tsc::choose(&mut host);
    let factory = || -> Box<dyn Engine> { Box::new(DirectEngine::new()) };
    let dev = req.device.as_deref().map(|d| resolve_device(&mut host, d));
    let geo = match &dev {
        Some((_, path)) => Some(geometry(&mut host, path)?),
        None => None,
    };
    let dir = req
        .scratch_dir
        .clone()
        .unwrap_or_else(|| PathBuf::from("."));
    // `--tests write` (or sync) keeps the cdm writes only; otherwise reads and writes.
    let only_writes = !req.tests.is_empty()
        && req
            .tests
            .iter()
            .all(|k| matches!(k, TestKind::Write | TestKind::Sync));
    let writes = true;
    scratch_dir_usable(&dir)?;
    let disk = dev.as_ref().map(|d| d.0.clone()).unwrap_or_default();
    let ctx = Ctx {
        target: dev
            .as_ref()
            .map(|d| d.1.clone())
            .unwrap_or_else(|| dir.display().to_string()),
        disk: disk.clone(),
        stop: &progress::STOP,
        bars: req.bars,
        engine: &factory,
    };
    let dev_path = dev.as_ref().map(|d| PathBuf::from(&d.1));
    let plan = cdm::CdmPlan {
        device: dev_path.as_deref().zip(geo),
        scratch_dir: &dir,
        budget_ns: preset::cdm_budget_ns(req.budget_secs, req.quick),
        writes,
        reads: !only_writes,
        class: sys.disk(&disk).and_then(|d| d.class.get()),
        time_based: req.time_based,
    };
    if req.bars && dev.is_none() && plan.reads {
        eprintln!(
            "cdm: no --device named: the reads read the scratch file in {} (through its filesystem)",
            dir.display()
        );
    }
    let (mut results, exported) = cdm::run(&ctx, &mut host, &plan);
    if req.tests.contains(&TestKind::Sustained) && !progress::interrupted() {
        results.extend(crate::bench::sustained::run(
            &ctx,
            &dir,
            crate::bench::sustained::budget_ns(req.budget_secs, req.quick),
            plan.class,
        ));
    }
    crate::bench::honesty::annotate(&mut results, &mut host, sys, Some(&dir));
    if let Some(p) = &req.export_fio {
        std::fs::write(p, preset::fio_jobfile(&exported)).map_err(write_error(p))?;
    }
    // thermal-throttling: the drive temperatures after the tests.
    crate::probe::add_temp_sample(&mut bundle, true);
    Ok(bundle_with(bundle, host, results))
}

fn bundle_with(
    mut bundle: EvidenceBundle,
    host: LiveHost,
    results: Vec<BenchResult>,
) -> EvidenceBundle {
    let extra = host.into_bundle();
    for (k, v) in extra.captures {
        bundle.captures.entry(k).or_insert(v);
    }
    bundle.benchmarks.extend(results);
    bundle
}

fn refusal(path: &str, reasons: &[String]) -> MeasureError {
    MeasureError::Refused {
        path: path.to_string(),
        reasons: reasons.to_vec(),
        after_consent: false,
    }
}

/// `--export fio FILE` could not be written.
fn write_error(path: &Path) -> impl FnOnce(std::io::Error) -> MeasureError + '_ {
    move |source| MeasureError::Write {
        path: path.to_path_buf(),
        source,
    }
}

/// The destructive raw-device write test on `dev`: the path is resolved once and opened once
/// (exclusively, [`rawdev::RawDevice`]); it is refused if that open says "in use", if the
/// device is occupied or carries a signature (read through that descriptor); then `confirm`
/// must see its path typed back, the signatures and occupancy are checked again on the same
/// descriptor, and the writes go through it. Returns the bundle with the results.
pub fn destructive(req: &BenchRequest, dev: &str) -> Result<EvidenceBundle, MeasureError> {
    let mut host = LiveHost::new();
    crate::bench::tsc::choose(&mut host);
    let raw = match rawdev::RawDevice::open(&mut host, dev) {
        Ok(r) => r,
        Err(rawdev::OpenRefusal::InUse(path, occ)) => {
            return Err(refusal(&path, &occ.reasons_with(req.allow_busy_siblings)));
        }
        Err(rawdev::OpenRefusal::Error(e)) => return Err(e),
    };
    let path = raw.path.clone();
    let geo = raw.geometry()?;
    let check = |host: &mut LiveHost| -> Result<Vec<String>, MeasureError> {
        let mut reasons = raw.occupancy(host).reasons_with(req.allow_busy_siblings);
        let (sigs, notes) = raw.signatures(host, geo.size)?;
        reasons.extend(sigs);
        for n in notes {
            eprintln!("note: {n}");
        }
        Ok(reasons)
    };
    let reasons = check(&mut host)?;
    if !reasons.is_empty() {
        return Err(refusal(&path, &reasons));
    }
    let tty = std::io::stdin().is_terminal();
    {
        // Open before the question shows, so a paste after it is bracketed (os::tty); Ctrl-C
        // at this prompt stays a signal (ISIG on): it ends diskdoc at once, exit 130. The
        // terminal is put back when `reader` drops, before the first write.
        let mut reader = match tty {
            true => Some(crate::os::tty::AnswerReader::open(true).map_err(MeasureError::Terminal)?),
            false => None,
        };
        // What was typed or pasted before the question shows is no answer.
        if let Some(r) = reader.as_mut() {
            r.discard_pending().map_err(MeasureError::Terminal)?;
        }
        let mut read = || match reader.as_mut() {
            Some(r) => r.read(&mut std::io::stderr()),
            None => Ok(crate::os::tty::Typed::Closed),
        };
        safety::confirm(&path, tty, &mut read, &mut std::io::stderr())?;
    }
    // Again, on the same descriptor, right before the first write: whatever appeared while
    // the prompt waited (a non-exclusive writer putting a filesystem there) refuses.
    let reasons = check(&mut host)?;
    if !reasons.is_empty() {
        return Err(refusal(&path, &reasons).after_consent());
    }
    let factory = || -> Box<dyn Engine> { Box::new(DirectEngine::new()) };
    let ctx = Ctx {
        target: path.clone(),
        disk: raw.name.clone(),
        stop: &progress::STOP,
        bars: req.bars,
        engine: &factory,
    };
    let budgets = budgets(req, 0);
    // Only the writes are busy work: a signal at the prompt ends diskdoc at once.
    let busy = crate::interrupt::busy();
    let results = if req.preset == crate::bench::preset::Preset::Cdm {
        // The write half of the cdm preset, on the same checked descriptor.
        let budget_ns = crate::bench::preset::cdm_budget_ns(req.budget_secs, req.quick);
        let (rs, exported) = crate::bench::cdm::raw_writes(&ctx, &geo, budget_ns, None, raw.file());
        if let Some(p) = &req.export_fio {
            std::fs::write(p, crate::bench::preset::fio_jobfile(&exported))
                .map_err(write_error(p))?;
        }
        rs
    } else {
        suite::raw_write(&ctx, &geo, &budgets, raw.file())
    };
    drop(busy);
    drop(raw);
    Ok(bundle_with(unprobed(), host, results))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn device_names_resolve() {
        use diskdoc_core::evidence::{Capture, Platform, SourceKey};
        // The link's target is what the host answers (a replay: the recorded answer).
        let mut b = EvidenceBundle::new(Platform::Linux, Origin::Live);
        b.insert(
            &SourceKey::RealPath("/dev/disk/by-id/ata-X".into()),
            Capture::ok("/dev/sdb"),
        );
        let mut host = crate::host::ReplayHost { bundle: &b };
        assert_eq!(
            resolve_device(&mut host, "sda"),
            ("sda".into(), "/dev/sda".into())
        );
        assert_eq!(
            resolve_device(&mut host, "/dev/nvme0n1"),
            ("nvme0n1".into(), "/dev/nvme0n1".into())
        );
        assert_eq!(
            resolve_device(&mut host, "/dev/disk/by-id/ata-X"),
            ("sdb".into(), "/dev/sdb".into())
        );
        assert_eq!(
            resolve_device(&mut host, "/tmp/img"),
            ("img".into(), "/tmp/img".into())
        );
    }
}
