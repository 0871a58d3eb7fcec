//! `diskdoc bench`: build a typed [`BenchRequest`] from the flags, run the tests through the
//! benchmark library (diskdoc-sys), derive the measurement findings and print them (the
//! results table, or the report as Markdown/JSON). No test with a result is exit status 2.

use diskdoc_core::evidence::EvidenceBundle;
use diskdoc_core::report::{self, Message, Report, ReportKind};
use diskdoc_core::units::bytes_iec1;
use diskdoc_sys::bench::BenchResult;
use diskdoc_sys::bench::measure::{self, BenchRequest};
use diskdoc_sys::bench::{plan, preset};
use diskdoc_sys::interrupt;

use crate::cli::{BenchArgs, Format};
use crate::error::{AppResult, UserError};

/// The typed request the flags ask for (`--tests` parsed into test kinds).
pub fn request(
    args: &BenchArgs,
    device: Option<&str>,
    bars: bool,
) -> Result<BenchRequest, UserError> {
    let preset = preset::parse_preset(&args.preset).map_err(UserError)?;
    let export_fio = match args.export.as_slice() {
        [] => None,
        [format, file] if format == "fio" => Some(std::path::PathBuf::from(file)),
        [format, _] => {
            return Err(UserError(format!(
                "--export {format}: the only export format is fio (--export fio FILE)"
            )));
        }
        _ => {
            return Err(UserError(
                "--export needs a format and a file: --export fio FILE".into(),
            ));
        }
    };
    if export_fio.is_some() && preset != preset::Preset::Cdm {
        return Err(UserError(
            "--export fio writes the job file of the cdm preset: add --preset cdm".into(),
        ));
    }
    Ok(BenchRequest {
        tests: plan::parse_tests(&args.tests).map_err(UserError)?,
        device: device.map(str::to_string),
        scratch_dir: args.scratch_dir.clone(),
        quick: args.quick || preset == preset::Preset::Quick,
        budget_secs: args.budget,
        time_based: args.time_based,
        bars,
        allow_busy_siblings: false,
        preset,
        export_fio,
    })
}

/// Entry point of `diskdoc bench`.
pub fn run(args: &BenchArgs) -> AppResult {
    let format = args.output.format().map_err(UserError)?;
    let bars = format == Format::Text;
    let device = args.device.or(&args.positional);
    let device = device.as_deref();
    // A usage error in --tests is reported before anything about the device.
    plan::parse_tests(&args.tests).map_err(UserError)?;
    interrupt::install_ctrlc();
    if let Some(named) = &args.destructive {
        let dev = destructive_target(named, device)?;
        // The raw-device write test ignores --tests (it is the one test it runs); with
        // --preset cdm it is the write half of the preset, on the device itself.
        let parsed = request(args, None, bars)?;
        let req = BenchRequest {
            tests: Vec::new(),
            device: None,
            scratch_dir: None,
            quick: parsed.quick,
            budget_secs: args.budget,
            time_based: args.time_based,
            bars,
            allow_busy_siblings: args.allow_busy_siblings,
            preset: parsed.preset,
            export_fio: parsed.export_fio,
        };
        let bundle = measure::destructive(&req, &dev)?;
        return finish(bundle, args, interrupt::requested());
    }
    // One resolver: /dev/null or a missing path is an error; a directory or file measures
    // the disk under it (and a directory holds the write tests' scratch file).
    let (device, scratch) = match device {
        Some(d) => {
            let (dev, scratch, note) = crate::device::for_bench(d).map_err(UserError)?;
            if let Some(n) = note {
                eprintln!("diskdoc: {n}");
            }
            (Some(dev), scratch)
        }
        None => (None, None),
    };
    let device = device.as_deref();
    let mut req = request(args, device, bars)?;
    if req.scratch_dir.is_none() {
        req.scratch_dir = scratch;
    }
    let wants_read = req.tests.iter().any(|k| k.is_read());
    // The cdm preset reads the scratch file when no device is named (and says so).
    if wants_read && device.is_none() && req.preset != preset::Preset::Cdm {
        return Err(UserError(
            "name the disk to read with --device (for example --device /dev/sda); \
             `--tests write` alone needs no device"
                .into(),
        ));
    }
    let bundle = measure::measure(&req)?;
    let interrupted = interrupt::requested();
    finish(bundle, args, interrupted)
}

fn finish(bundle: EvidenceBundle, args: &BenchArgs, interrupted: bool) -> AppResult {
    crate::commands::save_bundle(&bundle, args.evidence_out.as_deref(), args.output.redact())?;
    // The report covers the disks the tests measured (when the bundle describes them).
    let described = diskdoc_core::facts::derive(&bundle);
    let mut scope: Vec<String> = Vec::new();
    for b in &bundle.benchmarks {
        if described.disk(&b.disk).is_some() && !scope.contains(&b.disk) {
            scope.push(b.disk.clone());
        }
    }
    let mut r = Report::derive(
        ReportKind::Bench,
        bundle,
        Vec::new(),
        scope,
        report::current_argv(),
    );
    if interrupted {
        r.messages.push(Message::warning(
            "interrupted: the results are what was measured before Ctrl-C",
        ));
    } else if report::bench_failed(&r.bundle.benchmarks) {
        r.messages.push(Message::warning(
            "no test produced a result (see each test's error); exit status 2",
        ));
    }
    crate::commands::emit(&r, &args.output, |r| {
        let mut s = render_results(&r.bundle.benchmarks);
        s.push_str(&crate::commands::check::render_problems(&r.findings));
        if interrupted {
            s.push_str("Interrupted: the results above are what was measured before Ctrl-C.\n");
        } else if report::bench_failed(&r.bundle.benchmarks) {
            s.push_str("No test produced a result: every test failed (errors above).\n");
        }
        s
    })?;
    if interrupted {
        return Ok(130);
    }
    Ok(r.exit_status)
}

/// The device `--destructive` writes: its own value, else the one `--device` (or the
/// positional DEVICE) names; naming two different ones is refused rather than guessed.
fn destructive_target(named: &str, device: Option<&str>) -> Result<String, UserError> {
    match (named, device) {
        ("", Some(d)) => Ok(d.to_string()),
        ("", None) => Err(UserError(
            "--destructive needs the device to write: --destructive /dev/sdX, or \
             --device /dev/sdX --destructive"
                .into(),
        )),
        (n, Some(d)) if n != d => Err(UserError(format!(
            "--destructive {n} and --device {d} name two devices; name the one to write once"
        ))),
        (n, _) => Ok(n.to_string()),
    }
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
        "{:<11} {:<20} {:>10} {:>4} {:>3} {:>11} {:>10} {:>9} {:>9} {:>9} {:>7}  {}\n",
        "test", "label", "bs", "qd", "thr", "MB/s", "IOPS", "p50", "p99", "p99.9", "spread", "stop"
    );
    for r in rs.iter().filter(|r| r.test != "sustained-write-curve") {
        let (p50, p99, p999) = r
            .latency
            .as_ref()
            .map(|l| (ns(l.p50_ns), ns(l.p99_ns), ns(l.p999_ns)))
            .unwrap_or_default();
        s.push_str(&format!(
            "{:<11} {:<20} {:>10} {:>4} {:>3} {:>11.1} {:>10.0} {:>9} {:>9} {:>9} {:>7}  {}\n",
            r.test,
            r.label,
            bytes_iec1(r.block_size_bytes),
            r.queue_depth,
            // 0 only in results built without a job (refusals): one thread, as in old reports.
            r.threads.max(1),
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
    s.push_str(&sustained_chart(rs));
    s
}

/// The sustained-write curve as bars (MB/s against the amount written), when there is one.
fn sustained_chart(rs: &[BenchResult]) -> String {
    let pts: Vec<&BenchResult> = rs
        .iter()
        .filter(|r| r.test == "sustained-write-curve")
        .collect();
    if pts.len() < 2 {
        return String::new();
    }
    let mut s = String::from("sustained write, MB/s against the amount written:\n");
    for l in diskdoc_core::report::chart::throughput(&pts, 2, 72) {
        s.push_str(&l);
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rendering_shows_errors_and_notes() {
        let r = BenchResult {
            test: "seq-read".into(),
            label: "outer".into(),
            block_size_bytes: 1 << 20,
            queue_depth: 1,
            bytes_per_sec: 150e6,
            stop_reason: "error".into(),
            error: Some(diskdoc_sys::bench::BenchError {
                kind: "EIO".into(),
                offset_bytes: 4096,
                message: "Input/output error".into(),
            }),
            notes: vec!["n1".into()],
            ..Default::default()
        };
        let t4 = BenchResult {
            test: "cdm-read".into(),
            label: "SEQ1M Q8T4".into(),
            queue_depth: 8,
            threads: 4,
            ..Default::default()
        };
        let s = render_results(&[r, t4]);
        let header: Vec<&str> = s.lines().next().unwrap().split_whitespace().collect();
        assert_eq!(header[3..5], ["qd", "thr"], "{s}");
        let row = s.lines().find(|l| l.contains("Q8T4")).unwrap();
        let cols: Vec<&str> = row.split_whitespace().collect();
        // test, label (two words), bs (two words), qd, thr.
        assert_eq!(cols[5..7], ["8", "4"], "{row}");
        assert!(s.contains("error EIO at byte 4096"), "{s}");
        assert!(s.contains("150.0"), "{s}");
        assert!(s.contains("note: n1"));
    }
}

#[cfg(test)]
mod preset_tests {
    use super::*;

    #[test]
    fn destructive_takes_its_own_device_or_the_named_one_never_two() {
        assert_eq!(destructive_target("/dev/loop7", None).unwrap(), "/dev/loop7");
        assert_eq!(destructive_target("", Some("/dev/loop7")).unwrap(), "/dev/loop7");
        assert_eq!(
            destructive_target("/dev/loop7", Some("/dev/loop7")).unwrap(),
            "/dev/loop7"
        );
        assert!(destructive_target("", None).unwrap_err().0.contains("--device"));
        assert!(
            destructive_target("/dev/loop7", Some("/dev/sda"))
                .unwrap_err()
                .0
                .contains("two devices")
        );
    }

    #[test]
    fn preset_and_export_flags_are_checked() {
        let mut a = BenchArgs {
            tests: "read".into(),
            preset: "cdm".into(),
            export: vec!["fio".into(), "/tmp/x.fio".into()],
            ..Default::default()
        };
        let r = request(&a, None, false).unwrap();
        assert_eq!(r.preset, preset::Preset::Cdm);
        assert_eq!(
            r.export_fio.as_deref(),
            Some(std::path::Path::new("/tmp/x.fio"))
        );
        a.export = vec!["json".into(), "/tmp/x".into()];
        assert!(
            request(&a, None, false)
                .unwrap_err()
                .0
                .contains("only export format is fio")
        );
        a.export = vec!["fio".into(), "/tmp/x".into()];
        a.preset = "default".into();
        assert!(
            request(&a, None, false)
                .unwrap_err()
                .0
                .contains("--preset cdm")
        );
        a.export.clear();
        a.preset = "quick".into();
        assert!(request(&a, None, false).unwrap().quick);
        a.preset = "atto".into();
        assert!(request(&a, None, false).is_err());
    }

    #[test]
    fn the_sustained_curve_is_charted_not_tabled() {
        let point = |gib: u64, mb: f64| BenchResult {
            test: "sustained-write-curve".into(),
            label: format!("@ {gib}.0 GiB"),
            bytes_per_sec: mb * 1e6,
            ..Default::default()
        };
        let summary = BenchResult {
            test: "sustained-write".into(),
            label: "1 MiB Q8".into(),
            notes: vec!["cliff after 2.0 GiB written".into()],
            ..Default::default()
        };
        let s = render_results(&[summary, point(1, 500.0), point(2, 500.0), point(3, 80.0)]);
        assert!(
            s.contains("sustained write, MB/s against the amount written:"),
            "{s}"
        );
        assert_eq!(s.matches("@ 3.0 GiB").count(), 1, "{s}");
        let bars: Vec<&str> = s.lines().filter(|l| l.contains(" |")).collect();
        assert_eq!(bars.len(), 3, "{s}");
        // The slow point's bar is shorter than the fast ones'.
        assert!(
            bars[2].matches('#').count() * 4 < bars[0].matches('#').count(),
            "{s}"
        );
        assert!(s.contains("note: cliff after 2.0 GiB"));
    }
}
