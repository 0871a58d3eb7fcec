//! `diskdoc bench`: build a typed [`BenchRequest`] from the flags, run the tests through the
//! benchmark library (diskdoc-sys), derive the measurement findings and print them (the
//! results table, or the report as Markdown/JSON). No test with a result is exit status 2.

use diskdoc_core::evidence::EvidenceBundle;
use diskdoc_core::report::{self, Message, Report, ReportKind};
use diskdoc_core::units::bytes_iec1;
use diskdoc_sys::bench::BenchResult;
use diskdoc_sys::bench::measure::{self, BenchRequest};
use diskdoc_sys::bench::plan;
use diskdoc_sys::interrupt;

use crate::cli::{BenchArgs, Format};
use crate::error::{AppResult, UserError};

/// The typed request the flags ask for (`--tests` parsed into test kinds).
pub fn request(
    args: &BenchArgs,
    device: Option<&str>,
    bars: bool,
) -> Result<BenchRequest, UserError> {
    Ok(BenchRequest {
        tests: plan::parse_tests(&args.tests).map_err(UserError)?,
        device: device.map(str::to_string),
        scratch_dir: args.scratch_dir.clone(),
        quick: args.quick,
        budget_secs: args.budget,
        time_based: args.time_based,
        bars,
        allow_busy_siblings: false,
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
    if let Some(dev) = &args.destructive {
        // The raw-device write test ignores --tests (it is the one test it runs).
        let req = BenchRequest {
            tests: Vec::new(),
            device: None,
            scratch_dir: None,
            quick: args.quick,
            budget_secs: args.budget,
            time_based: args.time_based,
            bars,
            allow_busy_siblings: args.allow_busy_siblings,
        };
        let bundle = measure::destructive(&req, dev)?;
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
    if wants_read && device.is_none() {
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
            bytes_iec1(r.block_size_bytes),
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
        let s = render_results(&[r]);
        assert!(s.contains("error EIO at byte 4096"), "{s}");
        assert!(s.contains("150.0"), "{s}");
        assert!(s.contains("note: n1"));
    }
}
