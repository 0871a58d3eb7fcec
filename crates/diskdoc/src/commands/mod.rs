//! Command dispatch: turns parsed flags into calls of the libraries and an exit code
//! (0 no finding at warning or above, 1 such findings, 2 usage or runtime error). One file
//! per subcommand below; what several commands share (probing, `--device` selection) is here.

pub mod bench;
pub mod check;
pub mod compare;
pub mod explain;
pub mod replay;
pub mod scan;
pub mod summarize;
pub mod wizard;

pub use crate::error::{AppResult, Error, ExitStatus};

use std::ffi::OsString;
use std::path::Path;

use clap::{CommandFactory, Parser};

use crate::cli::{Cli, Command, Format, OutputArgs, ProbeArgs};
use diskdoc_core::checks;
use diskdoc_core::evidence::EvidenceBundle;
use diskdoc_core::facts::SystemFacts;
use diskdoc_core::report::{self, Report, ReportKind};

/// Parse the arguments, run, and say how the run ended: an error is printed here, once (a
/// closed standard output is not: nobody reads it), as ripgrep's `main` does.
pub fn main_with_args(args: Vec<OsString>) -> ExitStatus {
    let cli = match Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return match e.kind() {
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => {
                    ExitStatus::Clean
                }
                _ => ExitStatus::Error,
            };
        }
    };
    match run(cli) {
        // The wizard's conversation cannot fail on a closed pipe; its status says so here.
        Ok(_) if crate::out::closed() => ExitStatus::BrokenPipe,
        Ok(status) => status,
        Err(Error::BrokenPipe) => ExitStatus::BrokenPipe,
        Err(e) => {
            eprintln!("diskdoc: {e}");
            e.status()
        }
    }
}

pub fn run(cli: Cli) -> AppResult {
    if cli.list_checks {
        let json =
            cli.wizard
                .output
                .format_of("--list-checks", &[Format::Text, Format::Json], None)?
                == Format::Json;
        crate::out!("{}", list_checks(json))?;
        return Ok(ExitStatus::Clean);
    }
    let input = match &cli.command {
        Some(Command::Replay(a)) => Some(&a.input),
        Some(Command::Explain(a)) => Some(&a.input),
        Some(Command::Compare(a)) => Some(&a.input),
        Some(Command::Summarize(a)) => Some(&a.input),
        _ => None,
    };
    if let Some(mib) = input.and_then(|i| i.max_input_mib) {
        crate::limits::set_max_input_mib(mib);
    }
    // The progress bars fit the terminal they are drawn on (a 40-column one included).
    if let Some((_, cols)) = console::Term::stderr().size_checked() {
        diskdoc_sys::bench::progress::set_columns(cols);
    }
    match cli.command {
        Some(Command::Scan(args)) => {
            let (r, bundle_out) = probe_report(ReportKind::Scan, &args)?;
            emit(&r, &args.output, |r| scan::render_facts(&r.facts))?;
            bundle_out.write()?;
            Ok(ExitStatus::from_code(r.exit_status))
        }
        Some(Command::Check(args)) => {
            let (r, bundle_out) = probe_report(ReportKind::Check, &args)?;
            emit(&r, &args.output, |r| check::render_findings(&r.findings))?;
            bundle_out.write()?;
            Ok(ExitStatus::from_code(r.exit_status))
        }
        Some(Command::Replay(args)) => replay::replay(&args),
        Some(Command::Bench(args)) => bench::run(&args),
        Some(Command::Explain(args)) => explain::run(&args),
        Some(Command::Compare(args)) => compare::compare(&args),
        Some(Command::Summarize(args)) => summarize::run(&args),
        Some(Command::Completions { shell }) => {
            let mut out = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "diskdoc", &mut out);
            crate::out!("{}", String::from_utf8_lossy(&out))?;
            Ok(ExitStatus::Clean)
        }
        Some(Command::Manpage) => {
            crate::out!("{}", manpage())?;
            Ok(ExitStatus::Clean)
        }
        Some(Command::Schema) => {
            crate::out!("{}", diskdoc_core::report::schema::report_schema_json())?;
            Ok(ExitStatus::Clean)
        }
        None => wizard::run_wizard(&cli.wizard),
    }
}

/// Probe (only the named device when given), save the bundle when asked, and derive the
/// report of `scan` or `check` for the disk `--device` names (all disks without it). The
/// `--evidence-out` file is returned to write after the report passed the final check.
fn probe_report(kind: ReportKind, args: &ProbeArgs) -> Result<(Report, PendingBundle), Error> {
    let device = args.device.or(&args.positional);
    let device = device.as_deref();
    // A missing path or /dev/null fails before the probe; the one probe and its facts
    // serve the target, the report and its scope.
    let probed = crate::target::probe_live(device, true)?;
    let bundle_out = prepare_bundle(
        &probed.bundle,
        args.evidence_out.as_deref(),
        args.output.redact(),
    )?;
    let scope = match device {
        Some(d) => {
            let t = crate::target::resolve_in(&probed.bundle, &probed.facts, d)?;
            if t.disk != d.trim_start_matches("/dev/") {
                eprintln!("diskdoc: {}; diagnosing {}", t.why, t.disk);
            }
            vec![t.disk]
        }
        None => Vec::new(),
    };
    let r = Report::from_facts(
        kind,
        probed.bundle,
        probed.facts,
        Vec::new(),
        scope,
        report::current_argv(),
    );
    Ok((r, bundle_out))
}

/// Print a report as `--format` asks: JSON is the envelope and Markdown the Markdown
/// report, both redacted unless --no-redact; text is the command's own console form.
pub(crate) fn emit(
    r: &Report,
    out: &OutputArgs,
    text: impl FnOnce(&Report) -> String,
) -> Result<(), Error> {
    let format = out.format()?;
    if let (Format::Markdown, Some(path)) = (format, &out.output_file) {
        return save_markdown_with_charts(r, out.redact(), path);
    }
    let s = diskdoc_core::answer::render_report(r, format.into(), out.redact(), text)?;
    print_or_save(&s, out)
}

/// `--format markdown --output FILE`: the report's charts as SVG files beside FILE
/// (`STEM-N-KIND.svg`), linked from its Charts section, so a forum or issue tracker that
/// takes the files shows the same pictures as the HTML page. The charts are written
/// first: the Markdown never links a file that is not there.
fn save_markdown_with_charts(r: &Report, redact: bool, path: &Path) -> Result<(), Error> {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let files = diskdoc_core::answer::render_markdown_files(r, redact, &stem)?;
    let dir = path.parent().unwrap_or(Path::new(""));
    for (name, svg) in &files.charts {
        let p = dir.join(name);
        crate::out::write_atomic(&p, svg.as_bytes()).map_err(Error::write(&p))?;
    }
    crate::out::write_atomic(path, files.markdown.as_bytes()).map_err(Error::write(path))
}

/// Print `s`, or with `--output FILE` write it to FILE atomically.
pub(crate) fn print_or_save(s: &str, out: &OutputArgs) -> Result<(), Error> {
    match &out.output_file {
        Some(p) => crate::out::write_atomic(p, s.as_bytes()).map_err(Error::write(p)),
        None => {
            crate::out!("{s}")?;
            Ok(())
        }
    }
}

pub fn load_bundle(path: &Path) -> Result<EvidenceBundle, Error> {
    EvidenceBundle::load(path).map_err(Error::from)
}

/// The `--evidence-out` file, rendered and checked for secrets redaction missed, to be
/// written once the command's own output has passed the same check (so that a leak
/// anywhere writes nothing at all).
pub struct PendingBundle(Option<(std::path::PathBuf, String)>);

pub fn prepare_bundle(
    bundle: &EvidenceBundle,
    out: Option<&Path>,
    redact: bool,
) -> Result<PendingBundle, Error> {
    let Some(p) = out else {
        return Ok(PendingBundle(None));
    };
    let text = if redact {
        diskdoc_core::report::redact::share_bundle(bundle)?
    } else {
        bundle.to_json()
    };
    Ok(PendingBundle(Some((p.to_path_buf(), text))))
}

impl PendingBundle {
    pub fn write(self) -> Result<(), Error> {
        if let Some((p, text)) = self.0 {
            std::fs::write(&p, text).map_err(Error::write(&p))?;
        }
        Ok(())
    }
}

/// Keep only the named device; an unknown name is a usage error listing what exists.
pub fn select_device(mut sys: SystemFacts, device: Option<&str>) -> Result<SystemFacts, Error> {
    let Some(dev) = device else { return Ok(sys) };
    let name = dev.trim_start_matches("/dev/");
    if sys.disks.iter().any(|d| d.name == name) {
        sys.disks.retain(|d| d.name == name);
        Ok(sys)
    } else {
        Err(crate::error::UsageError::NoSuchDisk {
            device: dev.to_string(),
            known: sys.disks.iter().map(|d| d.name.clone()).collect(),
        }
        .into())
    }
}

/// The manual page of the whole command line (clap_mangen), subcommands included.
pub fn manpage() -> String {
    // The plain version: docs/diskdoc.1 is this output and must not change with each commit.
    let cmd = Cli::command().version(env!("CARGO_PKG_VERSION"));
    let mut out = Vec::new();
    // The main page section by section, so that the exit statuses get the EXIT STATUS
    // section man-pages(7) names (clap_mangen would put them under "EXTRA"), followed by
    // EXAMPLES.
    let man = clap_mangen::Man::new(cmd.clone());
    let _ = man.render_title(&mut out);
    let _ = man.render_name_section(&mut out);
    let _ = man.render_synopsis_section(&mut out);
    let _ = man.render_description_section(&mut out);
    let _ = man.render_options_section(&mut out);
    let _ = man.render_subcommands_section(&mut out);
    out.extend_from_slice(exit_status_and_examples().as_bytes());
    let _ = man.render_version_section(&mut out);
    if cmd.get_author().is_some() {
        let _ = man.render_authors_section(&mut out);
    }
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        let name = format!("diskdoc-{}", sub.get_name());
        let _ = clap_mangen::Man::new(sub.clone().name(name)).render(&mut out);
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Commands a reader copies from the manual, with what each does.
fn examples() -> Vec<(&'static str, String)> {
    vec![
        (
            "diskdoc",
            "The guided wizard: pick a disk, answer a few questions, read the answer.".to_string(),
        ),
        (
            "diskdoc check --device sda",
            "Every configuration check on one disk, without questions; exit 1 on a warning."
                .to_string(),
        ),
        (
            "diskdoc bench --device nvme0n1 --tests seq,rand",
            "Read tests on the raw device (read-only, O_DIRECT).".to_string(),
        ),
        (
            "diskdoc explain post.txt",
            format!(
                "Diagnose tool outputs pasted into a mail or forum post ({}, dmesg, zpool ...).",
                diskdoc_core::sources::ask_bare(diskdoc_core::sources::spec::Ask::SmartProgram)
            ),
        ),
        (
            "diskdoc check --format json --output before.json",
            "A replayable JSON report; `diskdoc replay before.json` shows it again.".to_string(),
        ),
        (
            "diskdoc replay before.json --format html --output before.html",
            "The same report as one HTML page with charts of the test results (no script, no \
         network), to open in a browser or attach to a ticket."
                .to_string(),
        ),
        (
            "diskdoc compare before.json after.json",
            "What changed between two reports of the same machine.".to_string(),
        ),
        (
            "diskdoc summarize reports/",
            "One row per host over a directory of reports from a fleet.".to_string(),
        ),
        (
            "diskdoc check --format prometheus --output /var/lib/node_exporter/diskdoc.prom",
            "Metrics for node_exporter's textfile collector.".to_string(),
        ),
    ]
}

/// Escape text for a roff line: backslashes, and hyphens as `\-` so options stay hyphens
/// (groff_man(7)); a leading dot or quote would be read as a request.
fn roff_text(t: &str) -> String {
    let t = t.replace('\\', "\\e").replace('-', "\\-");
    if t.starts_with('.') || t.starts_with('\'') {
        format!("\\&{t}")
    } else {
        t
    }
}

/// The EXIT STATUS and EXAMPLES sections of the main page (roff).
fn exit_status_and_examples() -> String {
    let mut s = String::from(".SH \"EXIT STATUS\"\n");
    for line in crate::cli::EXIT_STATUS_HELP.lines().skip(1) {
        let line = line.trim_start();
        // "N    text" starts an entry; an indented continuation belongs to the last one.
        match line.split_once("  ") {
            Some((code, text)) if code.chars().all(|c| c.is_ascii_digit()) => {
                s.push_str(&format!(".TP\n{code}\n{}\n", roff_text(text.trim())));
            }
            _ => s.push_str(&format!("{}\n", roff_text(line))),
        }
    }
    s.push_str(".SH EXAMPLES\n");
    for (cmd, what) in examples() {
        s.push_str(&format!(
            ".TP\n\\fB{}\\fR\n{}\n",
            roff_text(cmd),
            roff_text(&what)
        ));
    }
    s
}

/// The check registry: one line per check, or a JSON list of `{id, summary}`.
pub fn list_checks(json: bool) -> String {
    if json {
        let v: Vec<serde_json::Value> = checks::CHECKS
            .iter()
            .map(|c| serde_json::json!({"id": c.id(), "summary": c.summary()}))
            .collect();
        let mut s = serde_json::to_string_pretty(&v).unwrap_or_default();
        s.push('\n');
        return s;
    }
    let mut s = String::new();
    for c in checks::CHECKS {
        s.push_str(&format!("{:<28} {}\n", c.id(), c.summary()));
    }
    s
}
