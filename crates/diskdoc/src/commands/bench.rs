//! `diskdoc bench`: build a typed [`BenchRequest`] from the flags, run the tests through the
//! benchmark library (diskdoc-sys), derive the measurement findings and print them (the
//! results table, or the report as Markdown/JSON). No test with a result is exit status 2.

use diskdoc_core::evidence::EvidenceBundle;
use diskdoc_core::report::{self, Message, Report, ReportKind};
use diskdoc_core::units::bytes_iec1;
use diskdoc_sys::bench::measure::{self, BenchRequest};
use diskdoc_sys::bench::{BenchResult, TestName};
use diskdoc_sys::bench::{plan, preset};
use diskdoc_sys::interrupt;

use crate::cli::{BenchArgs, Format};
use crate::error::{AppResult, Error, ExitStatus, UsageError};

/// The typed request the flags ask for (`--tests` parsed into test kinds).
pub fn request(args: &BenchArgs, device: Option<&str>, bars: bool) -> Result<BenchRequest, Error> {
    let preset = preset::parse_preset(&args.preset)?;
    let export_fio = match args.export.as_slice() {
        [] => None,
        [format, file] if format == "fio" => Some(std::path::PathBuf::from(file)),
        [format, _] => {
            return Err(UsageError::ExportFormat(format.clone()).into());
        }
        _ => {
            return Err(UsageError::ExportArgs.into());
        }
    };
    if export_fio.is_some() && preset != preset::Preset::Cdm {
        return Err(UsageError::ExportNeedsCdm.into());
    }
    Ok(BenchRequest {
        tests: plan::parse_tests(&args.tests)?,
        device: device.map(str::to_string),
        scratch_dir: args.scratch_dir.clone(),
        quick: args.quick || preset == preset::Preset::Quick,
        full_sweep: args.full_sweep,
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
    let format = args.output.format()?;
    let bars = format == Format::Text;
    let device = args.device.or(&args.positional);
    let device = device.as_deref();
    // A usage error in --tests is reported before anything about the device.
    plan::parse_tests(&args.tests)?;
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
            full_sweep: false,
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
    // One target, one probe: /dev/null or a missing path is an error before anything
    // runs; a directory or file measures the disk under it (and a directory holds the
    // write tests' scratch file), resolved from the probe the tests then reuse.
    let mut checked = Some(crate::target::check_live(device)?);
    let kind = checked.as_ref().and_then(|c| c.kind);
    let mut probed = None;
    let mut target = None;
    if let Some(d) = device
        && matches!(
            kind,
            Some(crate::target::PathKind::Directory | crate::target::PathKind::File)
        )
        && let Some(c) = checked.take()
    {
        let p = c.probe(true);
        let (t, note) = crate::target::for_bench(&p, d)?;
        if let Some(n) = note {
            eprintln!("diskdoc: {n}");
        }
        probed = Some(p);
        target = Some(t);
    }
    let dev_path = match (&target, device) {
        (Some(t), _) => Some(t.dev_path.as_str()),
        // A block device or name is measured as named.
        (None, d) => d,
    };
    let mut req = request(args, dev_path, bars)?;
    if req.scratch_dir.is_none() {
        req.scratch_dir = target.as_ref().and_then(|t| t.scratch.clone());
    }
    let wants_read = req.tests.iter().any(|k| k.is_read());
    // The cdm preset reads the scratch file when no device is named (and says so).
    if wants_read && dev_path.is_none() && req.preset != preset::Preset::Cdm {
        return Err(UsageError::ReadNeedsDevice.into());
    }
    // A device named as such is probed once the flags are known good; without one there
    // is nothing to probe (the writes go to a scratch file).
    let probed = match (probed, checked) {
        (Some(p), _) => p,
        (None, Some(c)) if device.is_some() => c.probe(true),
        _ => crate::target::Probed::of(measure::unprobed()),
    };
    let bundle = measure::measure(&req, probed.bundle, &probed.facts)?;
    let interrupted = interrupt::requested();
    finish(bundle, args, interrupted)
}

/// The report of a bench: the facts of the measured bundle (derived once, after the tests:
/// their captures, such as the temperatures after a cdm run, are facts too), about the
/// disks the tests measured when the bundle describes them.
pub fn report_of(bundle: EvidenceBundle) -> Report {
    let facts = crate::target::derive(&bundle);
    let mut scope: Vec<String> = Vec::new();
    for b in &bundle.benchmarks {
        if facts.disk(&b.disk).is_some() && !scope.contains(&b.disk) {
            scope.push(b.disk.clone());
        }
    }
    Report::from_facts(
        ReportKind::Bench,
        bundle,
        facts,
        Vec::new(),
        scope,
        report::current_argv(),
    )
}

fn finish(bundle: EvidenceBundle, args: &BenchArgs, interrupted: bool) -> AppResult {
    let bundle_out = crate::commands::prepare_bundle(
        &bundle,
        args.evidence_out.as_deref(),
        args.output.redact(),
    )?;
    let mut r = report_of(bundle);
    if interrupted {
        r.messages.push(Message::warning(format!(
            "interrupted: the results are what was measured before {}",
            interrupt::cause()
        )));
    } else if report::bench_failed(&r.bundle.benchmarks) {
        r.messages.push(Message::warning(
            "no test produced a result (see each test's error); exit status 2",
        ));
    }
    crate::commands::emit(&r, &args.output, |r| {
        let mut s = render_results(&r.bundle.benchmarks);
        s.push_str(&crate::commands::check::render_problems(&r.findings));
        if interrupted {
            s.push_str(&format!(
                "Interrupted: the results above are what was measured before {}.\n",
                interrupt::cause()
            ));
        } else if report::bench_failed(&r.bundle.benchmarks) {
            s.push_str("No test produced a result: every test failed (errors above).\n");
        }
        s
    })?;
    bundle_out.write()?;
    if interrupted {
        // 128 + the signal's number: 130 Ctrl-C, 129 SIGHUP, 131 SIGQUIT, 143 SIGTERM.
        return Ok(ExitStatus::interrupted());
    }
    Ok(ExitStatus::from_code(r.exit_status))
}

/// The device `--destructive` writes: its own value, else the one `--device` (or the
/// positional DEVICE) names; naming two different ones is refused rather than guessed.
fn destructive_target(named: &str, device: Option<&str>) -> Result<String, Error> {
    match (named, device) {
        ("", Some(d)) => Ok(d.to_string()),
        ("", None) => Err(UsageError::DestructiveNeedsDevice.into()),
        (n, Some(d)) if n != d => Err(UsageError::TwoDevices {
            destructive: n.to_string(),
            device: d.to_string(),
        }
        .into()),
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

/// Width of the console table: the 72 columns of every report (a bench's text output is
/// its report), so it survives a mail quote and an 80-column terminal.
const TABLE_WIDTH: usize = diskdoc_core::report::text::WIDTH;

/// Two lines per result, within [`TABLE_WIDTH`]: the throughput row, then its latency
/// percentiles and why it stopped; errors and notes follow, wrapped. A label too long for
/// its column gets a line of its own rather than a cut.
pub fn render_results(rs: &[BenchResult]) -> String {
    let row = |test: &str, label: &str, cols: [&str; 5]| {
        format!(
            "{test:<11} {label:<18} {:>8} {:>5} {:>9} {:>9} {:>6}",
            cols[0], cols[1], cols[2], cols[3], cols[4]
        )
        .trim_end()
        .to_string()
    };
    let mut s = row("test", "label", ["bs", "Q/T", "MB/s", "IOPS", "spread"]);
    s.push('\n');
    s.push_str(&format!(
        "{:12}latency p50 / p99 / p99.9, stop reason\n",
        ""
    ));
    let wrap = |text: &str, first: &str, indent: usize| {
        diskdoc_core::report::text::wrap(text, first, indent, TABLE_WIDTH).join("\n") + "\n"
    };
    for r in rs
        .iter()
        .filter(|r| r.test != TestName::SustainedWriteCurve)
    {
        let test = r.test.to_string();
        let (test, label) = if r.label.chars().count() > 18 || test.chars().count() > 11 {
            s.push_str(&wrap(&r.label, &format!("{test} "), 12));
            (String::new(), String::new())
        } else {
            (test, r.label.clone())
        };
        let cols = [
            bytes_iec1(r.block_size_bytes),
            // Queue depth / threads, as CrystalDiskMark writes Q8T1. Threads is 0 only in
            // results built without a job (refusals): one thread, as in old reports.
            format!("{}/{}", r.queue_depth, r.threads.max(1)),
            format!("{:.1}", r.bytes_per_sec / 1e6),
            format!("{:.0}", r.iops),
            r.spread_pct.map(|c| format!("{c:.1}%")).unwrap_or_default(),
        ];
        s.push_str(&row(
            &test,
            &label,
            [&cols[0], &cols[1], &cols[2], &cols[3], &cols[4]],
        ));
        s.push('\n');
        let latency = r
            .latency
            .as_ref()
            .map(|l| format!("{} / {} / {}, ", ns(l.p50_ns), ns(l.p99_ns), ns(l.p999_ns)))
            .unwrap_or_default();
        // How sure the rate is (95 % confidence, from the per-interval rates).
        let sure = r
            .ci95_pct
            .map(|c| format!(", rate +-{c:.1}% (95% confidence)"))
            .unwrap_or_default();
        s.push_str(&wrap(
            &format!("{latency}stop: {}{sure}", r.stop_reason),
            &" ".repeat(12),
            14,
        ));
        if let Some(e) = &r.error {
            s.push_str(&wrap(
                &format!("error {} at byte {}: {}", e.kind, e.offset_bytes, e.message),
                "    ",
                6,
            ));
        }
        for n in &r.notes {
            match n.strip_prefix("fio equivalent: ") {
                // A command stays pasteable: split with shell line continuations.
                Some(cmd) => {
                    s.push_str("    note: fio equivalent:\n");
                    let lines =
                        diskdoc_core::units::wrap_words(cmd, "      ", 8, TABLE_WIDTH - 2, false);
                    s.push_str(&lines.join(" \\\n"));
                    s.push('\n');
                }
                None => s.push_str(&wrap(&format!("note: {n}"), "    ", 6)),
            }
        }
    }
    s.push_str(&sustained_chart(rs));
    s
}

/// The sustained-write curve as bars (MB/s against the amount written), when there is one.
fn sustained_chart(rs: &[BenchResult]) -> String {
    let pts: Vec<&BenchResult> = rs
        .iter()
        .filter(|r| r.test == TestName::SustainedWriteCurve)
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
    use diskdoc_sys::bench::StopReason;

    #[test]
    fn rendering_shows_errors_and_notes() {
        let r = BenchResult {
            test: TestName::SeqRead,
            label: "outer".into(),
            block_size_bytes: 1 << 20,
            queue_depth: 1,
            bytes_per_sec: 150e6,
            stop_reason: StopReason::Error,
            error: Some(diskdoc_sys::bench::BenchError {
                kind: "EIO".into(),
                offset_bytes: 4096,
                message: "Input/output error".into(),
            }),
            notes: vec![
                "n1".into(),
                "fio equivalent: fio --name=outer-read --filename=/dev/zram1 --rw=read \
                 --bs=1048576 --ioengine=psync --iodepth=1 --numjobs=1 --direct=1"
                    .into(),
            ],
            ..Default::default()
        };
        let t4 = BenchResult {
            test: TestName::CdmRead,
            label: "SEQ1M Q8T4".into(),
            queue_depth: 8,
            threads: 4,
            ..Default::default()
        };
        let s = render_results(&[r.clone(), t4]);
        let header: Vec<&str> = s.lines().next().unwrap().split_whitespace().collect();
        assert_eq!(header[3], "Q/T", "{s}");
        let row = s.lines().find(|l| l.contains("Q8T4")).unwrap();
        let cols: Vec<&str> = row.split_whitespace().collect();
        // test, label (two words), bs (two words), queue depth / threads.
        assert_eq!(cols[5], "8/4", "{row}");
        let s = render_results(&[r]);
        // The fio command is split with shell continuations: joined, it is the command.
        let fio: Vec<&str> = s
            .lines()
            .skip_while(|l| !l.contains("fio equivalent:"))
            .skip(1)
            .collect();
        assert!(fio.len() > 1 && fio.iter().all(|l| l.len() <= 72), "{s}");
        assert!(
            fio[..fio.len() - 1].iter().all(|l| l.ends_with(" \\")),
            "{s}"
        );
        let joined: Vec<&str> = fio
            .iter()
            .map(|l| l.trim().trim_end_matches('\\').trim())
            .collect();
        assert!(joined.join(" ").ends_with("--numjobs=1 --direct=1"), "{s}");
        assert!(s.contains("error EIO at byte 4096"), "{s}");
        assert!(s.contains("150.0"), "{s}");
        assert!(s.contains("note: n1"));
    }

    /// The table fits the report width without dropping anything: the longest labels
    /// diskdoc writes, every latency column, a long stop reason and a long error message.
    #[test]
    fn the_table_fits_72_columns_and_keeps_every_value() {
        let lat = diskdoc_sys::bench::LatencySummary {
            p50_ns: 123_456,
            p99_ns: 9_876_543,
            p999_ns: 123_456_789,
            ..Default::default()
        };
        let results = [
            BenchResult {
                test: TestName::BsSweep,
                label: "buffered bs=1048576".into(),
                block_size_bytes: 1 << 20,
                queue_depth: 1,
                bytes_per_sec: 12_345.6e6,
                iops: 11_773.7,
                spread_pct: Some(100.0),
                ci95_pct: Some(12.34),
                latency: Some(lat.clone()),
                stop_reason: StopReason::Budget
                    .with_fallback("one thread: the engine could not be cloned for a second one"),
                ..Default::default()
            },
            BenchResult {
                test: TestName::SustainedWrite,
                label: "a label much longer than its column".into(),
                block_size_bytes: 4096,
                queue_depth: 32,
                bytes_per_sec: 1.5e6,
                iops: 366.2,
                latency: Some(lat),
                stop_reason: StopReason::Error,
                error: Some(diskdoc_sys::bench::BenchError {
                    kind: "EIO".into(),
                    offset_bytes: 9_223_372_035_779_985_408,
                    message: "Input/output error while reading the middle zone of the disk".into(),
                }),
                ..Default::default()
            },
        ];
        let s = render_results(&results);
        for l in s.lines() {
            assert!(l.chars().count() <= 72, "over 72 columns: {l:?}\n{s}");
        }
        for want in [
            "bs-sweep",
            "buffered bs=1048576",
            "1.0 MiB",
            "12345.6",
            "11774",
            "100.0%",
            "123.5us / 9.9ms / 123.5ms",
            "+-12.3%",
            "budget (one thread:",
            "second one",
            "sustained-write",
            "a label much longer than its column",
            "366",
            "error EIO at byte 9223372035779985408",
            "of the disk",
        ] {
            assert!(s.contains(want), "{want:?} missing:\n{s}");
        }
    }
}

#[cfg(test)]
mod preset_tests {
    use super::*;

    #[test]
    fn destructive_takes_its_own_device_or_the_named_one_never_two() {
        assert_eq!(
            destructive_target("/dev/loop7", None).unwrap(),
            "/dev/loop7"
        );
        assert_eq!(
            destructive_target("", Some("/dev/loop7")).unwrap(),
            "/dev/loop7"
        );
        assert_eq!(
            destructive_target("/dev/loop7", Some("/dev/loop7")).unwrap(),
            "/dev/loop7"
        );
        assert!(
            destructive_target("", None)
                .unwrap_err()
                .to_string()
                .contains("--device")
        );
        assert!(
            destructive_target("/dev/loop7", Some("/dev/sda"))
                .unwrap_err()
                .to_string()
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
                .to_string()
                .contains("only export format is fio")
        );
        a.export = vec!["fio".into(), "/tmp/x".into()];
        a.preset = "default".into();
        assert!(
            request(&a, None, false)
                .unwrap_err()
                .to_string()
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
            test: TestName::SustainedWriteCurve,
            label: format!("@ {gib}.0 GiB"),
            bytes_per_sec: mb * 1e6,
            ..Default::default()
        };
        let summary = BenchResult {
            test: TestName::SustainedWrite,
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
