//! `diskdoc bench`: probe the device, run the chosen tests, append the results to the
//! evidence bundle, derive the measurement findings and print them (text or JSON).

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

use crate::app::{AppResult, UserError, human_bytes};
use crate::bench::BenchResult;
use crate::bench::engine::{DirectEngine, Engine};
use crate::bench::plan::{self, Budgets, Geometry, TestKind};
use crate::bench::progress;
use crate::bench::safety;
use crate::bench::tests::{self, Ctx, StackMember};
use crate::cli::BenchArgs;
use crate::evidence::EvidenceBundle;
use crate::facts::{self, LayerKind};
use crate::host::{Host, HostExt, IoctlRequest, LiveHost};

/// "sda", "/dev/sda" -> ("sda", "/dev/sda"). Paths outside /dev are kept as given (an image
/// file can be read like a device).
pub fn resolve_device(dev: &str) -> (String, String) {
    let dev = dev.trim();
    // /dev/disk/by-id/... and /dev/mapper/... are symlinks: the kernel name (sysfs, facts)
    // is the link target's.
    if dev.starts_with("/dev/")
        && let Ok(real) = std::fs::canonicalize(dev)
        && let Some(n) = real.file_name()
    {
        return (n.to_string_lossy().into_owned(), real.display().to_string());
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
fn geometry(host: &mut LiveHost, dev_path: &str) -> Result<Geometry, UserError> {
    let size = ioctl_u64(host, dev_path, IoctlRequest::BlkGetSize64);
    let logical = ioctl_u64(host, dev_path, IoctlRequest::BlkSszGet).filter(|v| *v >= 512);
    let physical = ioctl_u64(host, dev_path, IoctlRequest::BlkPbszGet).filter(|v| *v >= 512);
    let size = match size {
        Some(s) => s,
        None => {
            // Not a block device (an image file) or the ioctl failed: open it to learn why.
            let mut e = DirectEngine::new();
            let info = e
                .open(Path::new(dev_path), Default::default())
                .map_err(|err| {
                    UserError(tests::describe_open_error(Path::new(dev_path), &err, false))
                })?;
            e.close();
            info.size
        }
    };
    if size == 0 {
        return Err(UserError(format!(
            "{dev_path} has size 0 (no medium, an unconfigured loop or zram device?)"
        )));
    }
    Ok(Geometry {
        size,
        logical: logical.unwrap_or(512),
        physical: physical.or(logical).unwrap_or(512),
    })
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
            let _ = LayerKind::Partition;
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

/// Entry point of `diskdoc bench`.
/// The budgets the options ask for; `--time-based` turns the early stop off.
fn budgets(args: &BenchArgs, n_layers: usize) -> Budgets {
    let b = Budgets::for_run(args.quick, args.budget, n_layers);
    if args.time_based { b.time_based() } else { b }
}

pub fn run(args: &BenchArgs, device: Option<&str>, json: bool) -> AppResult {
    progress::install_ctrlc();
    if let Some(dev) = &args.destructive {
        return run_destructive(args, dev, json);
    }
    let kinds = plan::parse_tests(&args.tests).map_err(UserError)?;
    let wants_read = kinds.iter().any(|k| k.is_read());
    if wants_read && device.is_none() {
        return Err(UserError(
            "name the disk to read with --device (for example --device /dev/sda); \
             `--tests write` alone needs no device"
                .into(),
        ));
    }
    let bundle = measure(args, device, !json)?;
    let interrupted = progress::STOP.load(Ordering::Relaxed);
    finish(bundle, args, json, interrupted)
}

/// Run the tests `args.tests` names on `device` (reads) and in `args.scratch_dir` (writes)
/// and return the evidence bundle with the results appended. Shared by `diskdoc bench` and
/// the wizard; `bars` shows progress bars and remarks on a terminal.
pub fn measure(
    args: &BenchArgs,
    device: Option<&str>,
    bars: bool,
) -> Result<EvidenceBundle, UserError> {
    let kinds = plan::parse_tests(&args.tests).map_err(UserError)?;
    let wants_read = kinds.iter().any(|k| k.is_read());
    let wants_write = kinds.iter().any(|k| !k.is_read());
    let mut results: Vec<BenchResult> = Vec::new();
    let mut bundle = match device {
        Some(d) => crate::app::probe_live(Some(d)).unwrap_or_else(|_| {
            EvidenceBundle::new(
                crate::evidence::Platform::current(),
                crate::evidence::Origin::Live,
            )
        }),
        None => EvidenceBundle::new(
            crate::evidence::Platform::current(),
            crate::evidence::Origin::Live,
        ),
    };
    let sys = facts::derive(&bundle);
    let mut host = LiveHost::new();
    let factory = || -> Box<dyn Engine> { Box::new(DirectEngine::new()) };
    let disk_name = device.map(|d| resolve_device(d).0).unwrap_or_default();

    if let (true, Some(dev)) = (wants_read, device) {
        let (name, path) = resolve_device(dev);
        let geo = geometry(&mut host, &path)?;
        let layers = if kinds.contains(&TestKind::Layers) {
            stack_for(&mut host, &sys, &name)
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
        results.extend(tests::read_tests(&ctx, &geo, &budgets, &kinds));
        let failed_hard = results.iter().any(tests::is_fatal);
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
                results.extend(tests::layer_cost(&ctx, &disk, &layers, &budgets, len));
            }
        }
    }
    if wants_write && !progress::interrupted() {
        let dir = args
            .scratch_dir
            .clone()
            .unwrap_or_else(|| PathBuf::from("."));
        if !dir.is_dir() {
            return Err(UserError(format!(
                "--scratch-dir {}: not a directory",
                dir.display()
            )));
        }
        let budgets = budgets(args, 0);
        let ctx = Ctx {
            target: dir.display().to_string(),
            disk: disk_name.clone(),
            stop: &progress::STOP,
            bars,
            engine: &factory,
        };
        results.extend(tests::write_tests(&ctx, &dir, &budgets, &kinds));
    }
    Ok(bundle_with(&mut bundle, host, results))
}

fn bundle_with(
    bundle: &mut EvidenceBundle,
    host: LiveHost,
    results: Vec<BenchResult>,
) -> EvidenceBundle {
    let extra = host.into_bundle();
    for (k, v) in extra.captures {
        bundle.captures.entry(k).or_insert(v);
    }
    bundle.benchmarks.extend(results);
    bundle.clone()
}

fn finish(bundle: EvidenceBundle, args: &BenchArgs, json: bool, interrupted: bool) -> AppResult {
    if let Some(p) = &args.evidence_out {
        std::fs::write(p, bundle.to_json())
            .map_err(|e| UserError(format!("cannot write {}: {e}", p.display())))?;
    }
    let sys = facts::derive(&bundle);
    let mut findings: Vec<crate::checks::Finding> = crate::checks::CHECKS
        .iter()
        .filter(|c| crate::checks::MEASURED_CHECK_IDS.contains(&c.id()))
        .flat_map(|c| c.run(&sys))
        .collect();
    crate::checks::rank(&mut findings);
    if json {
        let v = serde_json::json!({
            "interrupted": interrupted,
            "benchmarks": bundle.benchmarks,
            "findings": findings,
        });
        crate::outln!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
    } else {
        crate::out!("{}", render_results(&bundle.benchmarks));
        for f in findings.iter().filter(|f| f.is_problem()) {
            crate::outln!(
                "[{}] {} {}: {}",
                f.severity.label(),
                f.device,
                f.check,
                f.title
            );
            for line in f.explanation.lines() {
                crate::outln!("    {line}");
            }
        }
        if interrupted {
            crate::outln!("Interrupted: the results above are what was measured before Ctrl-C.");
        }
    }
    if interrupted {
        return Ok(130);
    }
    Ok(crate::checks::exit_code(&findings))
}

fn ns(v: u64) -> String {
    if v >= 1_000_000 {
        format!("{:.1}ms", v as f64 / 1e6)
    } else {
        format!("{:.1}us", v as f64 / 1e3)
    }
}

/// One line per result.
pub fn render_results(rs: &[BenchResult]) -> String {
    let mut s = format!(
        "{:<11} {:<20} {:>10} {:>4} {:>11} {:>10} {:>9} {:>9} {:>9} {:>7}  {}\n",
        "test", "label", "bs", "qd", "MB/s", "IOPS", "p50", "p99", "p99.9", "spread", "stop"
    );
    for r in rs {
        let (p50, p99, p999) = r
            .latency
            .as_ref()
            .map(|l| (ns(l.p50_ns), ns(l.p99_ns), ns(l.p999_ns)))
            .unwrap_or_default();
        s.push_str(&format!(
            "{:<11} {:<20} {:>10} {:>4} {:>11.1} {:>10.0} {:>9} {:>9} {:>9} {:>7}  {}\n",
            r.test,
            r.label,
            human_bytes(r.block_size_bytes),
            r.queue_depth,
            r.bytes_per_sec / 1e6,
            r.iops,
            p50,
            p99,
            p999,
            r.spread_pct.map(|c| format!("{c:.1}%")).unwrap_or_default(),
            r.stop_reason
        ));
        if let Some(e) = &r.error {
            s.push_str(&format!(
                "    error {} at byte {}: {}\n",
                e.kind, e.offset_bytes, e.message
            ));
        }
        for n in &r.notes {
            s.push_str(&format!("    note: {n}\n"));
        }
    }
    s
}

/// Gather why a device must not be written (sysfs and the mount table, recorded).
fn occupancy(host: &mut LiveHost, name: &str, path: &str) -> safety::Occupancy {
    let base = format!("/sys/class/block/{name}");
    let mut o = safety::Occupancy::default();
    for e in host.entries(&base) {
        if e.starts_with(name) && host.text(&format!("{base}/{e}/partition")).is_some() {
            o.partitions.push(e);
        }
    }
    o.holders = host.entries(&format!("{base}/holders"));
    if let (Some(mm), Some(mi)) = (
        host.text(&format!("{base}/dev")),
        host.text("/proc/self/mountinfo"),
    ) {
        o.mounts = safety::mounts_of(&mi, &mm);
    }
    if let Some(sw) = host.text("/proc/swaps")
        && sw
            .lines()
            .skip(1)
            .any(|l| l.split_whitespace().next() == Some(path))
    {
        o.swaps.push(path.to_string());
    }
    o
}

fn read_window(path: &str, offset: u64, len: u64) -> Result<Vec<u8>, String> {
    use std::os::unix::fs::FileExt;
    let f = std::fs::File::open(path)
        .map_err(|e| tests::describe_open_error(Path::new(path), &e, false))?;
    let mut buf = vec![0u8; len as usize];
    let mut got = 0usize;
    while got < buf.len() {
        match f.read_at(&mut buf[got..], offset + got as u64) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) => {
                return Err(format!(
                    "cannot read {path} at byte {}: {e}",
                    offset + got as u64
                ));
            }
        }
    }
    buf.truncate(got);
    Ok(buf)
}

fn run_destructive(args: &BenchArgs, dev: &str, json: bool) -> AppResult {
    let (name, path) = resolve_device(dev);
    if !path.starts_with("/dev/") {
        return Err(UserError(format!(
            "--destructive needs a block device under /dev, not {dev:?}"
        )));
    }
    let mut host = LiveHost::new();
    let geo = geometry(&mut host, &path)?;
    let mut reasons = occupancy(&mut host, &name, &path).reasons();
    let win = plan::MIB.min(geo.size);
    let head = read_window(&path, 0, win).map_err(UserError)?;
    let tail = read_window(&path, geo.size - win, win).map_err(UserError)?;
    for s in safety::find_signatures(&head, &tail, geo.size) {
        reasons.push(format!("it holds data: {} at byte {}", s.what, s.offset));
    }
    if !reasons.is_empty() {
        return Err(UserError(format!(
            "refusing to write to {path}: {}. The destructive test only runs on an empty device \
             (wipe it yourself first if you are sure, e.g. with wipefs)",
            reasons.join("; ")
        )));
    }
    let stdin = std::io::stdin();
    let tty = stdin.is_terminal();
    safety::confirm(&path, tty, &mut stdin.lock(), &mut std::io::stderr()).map_err(UserError)?;
    let factory = || -> Box<dyn Engine> { Box::new(DirectEngine::new()) };
    let ctx = Ctx {
        target: path.clone(),
        disk: name,
        stop: &progress::STOP,
        bars: !json,
        engine: &factory,
    };
    let budgets = budgets(args, 0);
    let results = tests::raw_write(&ctx, &geo, &budgets);
    let mut bundle = EvidenceBundle::new(
        crate::evidence::Platform::current(),
        crate::evidence::Origin::Live,
    );
    let interrupted = progress::interrupted();
    finish(
        bundle_with(&mut bundle, host, results),
        args,
        json,
        interrupted,
    )
}

#[cfg(test)]
mod tests_cli {
    use super::*;

    #[test]
    fn device_names_resolve() {
        assert_eq!(resolve_device("sda"), ("sda".into(), "/dev/sda".into()));
        assert_eq!(
            resolve_device("/dev/nvme0n1"),
            ("nvme0n1".into(), "/dev/nvme0n1".into())
        );
        assert_eq!(
            resolve_device("/tmp/img"),
            ("img".into(), "/tmp/img".into())
        );
    }

    #[test]
    fn rendering_shows_errors_and_notes() {
        let r = BenchResult {
            test: "seq-read".into(),
            label: "outer".into(),
            block_size_bytes: 1 << 20,
            queue_depth: 1,
            bytes_per_sec: 150e6,
            stop_reason: "error".into(),
            error: Some(crate::bench::BenchError {
                kind: "EIO".into(),
                offset_bytes: 4096,
                message: "Input/output error".into(),
            }),
            notes: vec!["n1".into()],
            ..Default::default()
        };
        let s = render_results(&[r]);
        assert!(s.contains("error EIO at byte 4096"), "{s}");
        assert!(s.contains("150.0"), "{s}");
        assert!(s.contains("note: n1"));
    }
}
