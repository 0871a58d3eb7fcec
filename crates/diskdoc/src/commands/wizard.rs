//! The guided wizard (`diskdoc` with no subcommand): flags to [`crate::wizard::Config`], the
//! prompter for this terminal, and the report on stdout with `--format json|markdown|html`.
//!
//! It asks when standard input is a terminal (the conversation may go to a pipe: `diskdoc
//! | tee log`); without one it needs `--yes`. With `--format json|markdown|html` or `--report -`
//! the conversation goes to stderr so standard output carries only the report.

use std::io::IsTerminal;

use crate::cli::Format;
use crate::error::{AppResult, ExitStatus, UsageError};
use diskdoc_sys::bench::measure::MeasureError;

/// The guided wizard (no subcommand).
pub(crate) fn run_wizard(args: &crate::cli::WizardArgs) -> AppResult {
    use crate::wizard::{self, Config};
    // The wizard prints its conversation and the report: no Prometheus exposition
    // (`check --format prometheus` is the one for node_exporter).
    let format = args.output.format_of(
        "the wizard",
        &[Format::Text, Format::Markdown, Format::Json, Format::Html],
        Some("node_exporter reads `diskdoc check --format prometheus`"),
    )?;
    // Flags naming places are checked before any question, so a mistyped one never costs
    // a whole run (the tests first, the refusal at the end).
    let scratch_dir = match &args.scratch_dir {
        Some(d) => {
            diskdoc_sys::bench::measure::scratch_dir_usable(d)?;
            // Absolute, links resolved: compared with the disk's mount points.
            Some(
                std::fs::canonicalize(d).map_err(|source| MeasureError::ScratchUnusable {
                    dir: d.clone(),
                    source,
                })?,
            )
        }
        None => None,
    };
    if let Some(r) = args
        .report
        .as_deref()
        .filter(|r| *r != std::path::Path::new("-"))
    {
        report_dir_exists(r)?;
    }
    let ascii = !wizard::sanitize::locale_is_utf8();
    let cfg = Config {
        device: args.device.device.clone(),
        yes: args.yes,
        no_bench: args.no_bench,
        quick: args.quick,
        report: args.report.clone(),
        redact: args.output.redact(),
        ascii,
        scratch_dir,
    };
    let stdin_tty = std::io::stdin().is_terminal();
    wizard::check_interactive(&cfg, stdin_tty)?;
    if std::env::var_os("NO_COLOR").is_some() {
        console::set_colors_enabled(false);
        console::set_colors_enabled_stderr(false);
    }
    let to_stderr = format != Format::Text || cfg.report.as_deref() == Some("-".as_ref());
    // A signal at a prompt ends the wizard at once (130); during its tests (measure marks
    // itself busy) the tests stop, and the wizard reports where it stopped.
    diskdoc_sys::interrupt::install();
    let mut machine = wizard::LiveMachine {
        full_sweep: args.full_sweep,
    };
    let outcome = if cfg.yes || !stdin_tty {
        let mut p = if to_stderr {
            wizard::AutoPrompter {
                out: Box::new(std::io::stderr()),
            }
        } else {
            wizard::AutoPrompter::stdout()
        };
        wizard::run(&cfg, &mut p, &mut machine)
    } else {
        let colors = console::colors_enabled_stderr() && !ascii;
        let mut p = wizard::TerminalPrompter::new(colors, to_stderr);
        wizard::run(&cfg, &mut p, &mut machine)
    };
    // --format json|markdown|html: the conversation went to stderr; stdout carries the
    // report.
    if let (Format::Json | Format::Markdown | Format::Html, Some(r)) = (format, &outcome.report) {
        let shared = r.share(cfg.redact);
        let s = match format {
            Format::Json => shared.render(diskdoc_core::report::json::render),
            Format::Html => diskdoc_core::report::html::render_shared(&shared),
            _ => shared.render(diskdoc_core::report::markdown::render),
        };
        crate::out!("{}", s?)?;
    }
    Ok(ExitStatus::from_code(outcome.exit_code))
}

/// `--report PATH`: the directory that is to hold it exists (the file itself is made at the
/// end, under a free name).
fn report_dir_exists(path: &std::path::Path) -> Result<(), UsageError> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => return Ok(()),
    };
    match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => Ok(()),
        Ok(_) => Err(UsageError::ReportDirNotDirectory {
            report: path.to_path_buf(),
            dir: dir.to_path_buf(),
        }),
        Err(_) => Err(UsageError::ReportDirMissing {
            report: path.to_path_buf(),
            dir: dir.to_path_buf(),
        }),
    }
}
