//! Command-line flags (clap derive). One flag, one meaning: `--format
//! text|markdown|json|prometheus|html` on every command that prints (`--json` is exactly `--format json`), `--device` and
//! `--no-redact` on the commands that use them, and the wizard's flags (`--yes`,
//! `--no-bench`, `--quick`, `--report`) only where the wizard runs: before no subcommand.

use crate::error::UsageError;
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// The exit statuses, shown by `--help` and documented in the README.
pub const EXIT_STATUS_HELP: &str = "\
Exit status:
  0    no finding at warning or above
  1    findings at warning or above (compare: in the later report)
  2    usage or runtime error; also bench when no test produced a result, the
       wizard when the report could not be saved, and compare of two reports
       with no disk in common (without --force)
  129  stopped by SIGHUP (the terminal closed)
  130  interrupted (Ctrl-C)
  131  stopped by SIGQUIT (Ctrl-\\)
  143  stopped by SIGTERM
  141  standard output was closed (broken pipe)";

#[derive(Debug, Parser)]
#[command(
    name = "diskdoc",
    version = concat!(env!("CARGO_PKG_VERSION"), " (git ", env!("DISKDOC_GIT_HASH"), ")"),
    about = "Why is my disk slow? A guided diagnosis for Linux and FreeBSD.",
    long_about = "Run without a subcommand for the guided wizard. Reads are safe; nothing is \
                  written without asking. Every --json output is the one versioned report \
                  that `diskdoc replay` and `diskdoc compare` read back.",
    after_help = EXIT_STATUS_HELP,
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    /// List the checks diskdoc runs and exit (as JSON with --json).
    #[arg(long)]
    pub list_checks: bool,
    #[command(flatten)]
    pub wizard: WizardArgs,
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Output formats of every command that prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// For people: the console form of the command (replay: the text report).
    Text,
    /// For forums and issue trackers.
    Markdown,
    /// The versioned report envelope (docs/report-format.md), redacted unless --no-redact.
    Json,
    /// Prometheus text exposition for node_exporter's textfile collector: one
    /// `diskdoc_finding` series per finding, per-disk gauges, bench results; redacted unless
    /// --no-redact (no serial labels).
    Prometheus,
    /// One self-contained HTML page (inline CSS and SVG, no script): the findings with their
    /// evidence and fixes, and charts of the test results; redacted unless --no-redact.
    Html,
}

/// `--format` and its shorthand `--json`.
#[derive(Debug, Args, Default, Clone)]
pub struct OutputArgs {
    /// Output format.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<Format>,
    /// Exactly --format json.
    #[arg(long)]
    pub json: bool,
    /// Keep serial numbers, WWNs, host names and user names in the output.
    #[arg(long)]
    pub no_redact: bool,
    /// Write the output to FILE instead of standard output, atomically (a temporary file in
    /// the same directory renamed over FILE, as node_exporter's textfile collector requires).
    /// With --format markdown, the report's charts are written beside FILE as SVG files
    /// (FILE's name, a number and the chart's kind) and linked from it.
    #[arg(long = "output", value_name = "FILE")]
    pub output_file: Option<PathBuf>,
}

impl OutputArgs {
    /// The format asked for; `--json` with another `--format` is a usage error.
    pub fn format(&self) -> Result<Format, UsageError> {
        match (self.json, self.format) {
            (true, Some(f)) if f != Format::Json => Err(UsageError::JsonWithFormat(f.name())),
            (true, _) => Ok(Format::Json),
            (false, f) => Ok(f.unwrap_or(Format::Text)),
        }
    }
    /// The format asked for, when `command` can produce it (`has`: the formats it has);
    /// otherwise a usage error listing them, so a format a command lacks never prints
    /// nothing and exits 0. `why` says where else that output comes from, if anywhere.
    pub fn format_of(
        &self,
        command: &str,
        has: &[Format],
        why: Option<&str>,
    ) -> Result<Format, UsageError> {
        let f = self.format()?;
        if has.contains(&f) {
            return Ok(f);
        }
        Err(UsageError::NoSuchFormat {
            command: command.to_string(),
            format: f.name(),
            why: why.map(str::to_string),
            has: has.iter().map(|f| f.name()).collect(),
        })
    }
    pub fn redact(&self) -> bool {
        !self.no_redact
    }
}

impl From<Format> for diskdoc_core::answer::Form {
    fn from(f: Format) -> Self {
        use diskdoc_core::answer::Form;
        match f {
            Format::Text => Form::Text,
            Format::Markdown => Form::Markdown,
            Format::Json => Form::Json,
            Format::Prometheus => Form::Prometheus,
            Format::Html => Form::Html,
        }
    }
}

impl Format {
    /// The value `--format` takes for it (clap's own name for the variant).
    pub fn name(self) -> String {
        self.to_possible_value()
            .map(|v| v.get_name().to_string())
            .unwrap_or_default()
    }
}

/// `--max-input-mib`, on the commands that read reports or pasted text (and only there, so
/// the help of a command that reads no input does not offer it).
#[derive(Debug, Args, Default, Clone)]
pub struct InputArgs {
    /// Read at most this many MiB of input in total (default 64).
    #[arg(long, value_name = "MIB")]
    pub max_input_mib: Option<u64>,
}

/// `--device`, resolved by one function for every command (target.rs).
#[derive(Debug, Args, Default, Clone)]
pub struct DeviceArg {
    /// The disk: a name (sda, ada0), a /dev path, a partition, a by-id/by-path link, or a
    /// path on a filesystem (the disk under it).
    #[arg(long, value_name = "DEVICE")]
    pub device: Option<String>,
}

impl DeviceArg {
    /// `--device`, or the device given as the first positional argument (`diskdoc check
    /// /dev/sda`, as smartctl and hdparm take it): the same value, the same resolver.
    pub fn or(&self, positional: &Option<String>) -> Option<String> {
        self.device.clone().or_else(|| positional.clone())
    }
}

/// Flags of the guided wizard (no subcommand).
#[derive(Debug, Args, Default, Clone)]
pub struct WizardArgs {
    #[command(flatten)]
    pub device: DeviceArg,
    /// Accept the safe defaults without asking (never writes to a disk); works without a
    /// terminal, e.g. `diskdoc --yes | tee log`.
    #[arg(long)]
    pub yes: bool,
    /// Skip the read/write tests.
    #[arg(long)]
    pub no_bench: bool,
    /// Shorter tests.
    #[arg(long)]
    pub quick: bool,
    /// The block-size sweep reads every power of two from the sector size to 4 MiB, direct
    /// and buffered, instead of the sizes a diagnosis needs.
    #[arg(long)]
    pub full_sweep: bool,
    /// Directory for the write tests' scratch file (default: current directory); it must
    /// be on a filesystem of the disk tested.
    #[arg(long, value_name = "DIR")]
    pub scratch_dir: Option<PathBuf>,
    /// Save the text report to PATH and the JSON report beside it (PATH.json, or PATH.txt
    /// when PATH ends in .json); an existing name gets a new one (-2, -3, ...); `-` prints
    /// the text report on standard output.
    #[arg(long, value_name = "PATH")]
    pub report: Option<PathBuf>,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Probe and print the facts per disk.
    Scan(ProbeArgs),
    /// Probe, run every check and print the ranked findings (no read/write tests).
    Check(ProbeArgs),
    /// Re-derive facts and findings from any diskdoc JSON report or evidence bundle.
    Replay(ReplayArgs),
    /// Run the read/write tests.
    Bench(BenchArgs),
    /// Diagnose from pasted tool outputs (files, or standard input).
    Explain(ExplainArgs),
    /// Compare two reports (before/after a change).
    ///
    /// Two reports that cover no common disk are refused (exit status 2) unless --force;
    /// reports of different machines with a disk in common are compared, with a warning.
    Compare(CompareArgs),
    /// One table of hosts x findings from many reports or bundles (files or directories).
    Summarize(SummarizeArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions {
        /// The shell.
        #[arg(value_enum, value_name = "SHELL")]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff; docs/diskdoc.1 is this output).
    Manpage,
    /// Print the JSON Schema of every JSON report (docs/report.schema.json).
    ///
    /// One schema (draft 2020-12) for the versioned envelope that every --format json
    /// writes, every kind included; docs/report.schema.json is this output.
    Schema,
}

#[derive(Debug, Args, Clone)]
pub struct SummarizeArgs {
    /// Reports (the JSON of any diskdoc command) or evidence bundles; a directory gives its
    /// *.json files.
    #[arg(required = true, value_name = "FILE|DIR")]
    pub paths: Vec<PathBuf>,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// `scan` and `check`.
#[derive(Debug, Args, Clone, Default)]
pub struct ProbeArgs {
    #[command(flatten)]
    pub device: DeviceArg,
    /// The same as --device DEVICE.
    #[arg(value_name = "DEVICE", conflicts_with = "device")]
    pub positional: Option<String>,
    /// Also write the evidence bundle to FILE.
    #[arg(long, value_name = "FILE")]
    pub evidence_out: Option<PathBuf>,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Debug, Args, Clone)]
pub struct ReplayArgs {
    /// A report (the JSON of any diskdoc command, any schema version) or an evidence
    /// bundle (--evidence-out); `-` reads it from standard input.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Show only this disk (a name as in the report).
    #[arg(long, value_name = "DEVICE")]
    pub device: Option<String>,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Debug, Args, Clone)]
pub struct ExplainArgs {
    /// Files with the pasted text (standard input when none, or `-`).
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Debug, Args, Clone)]
pub struct CompareArgs {
    /// The earlier report (or bundle).
    #[arg(value_name = "BEFORE")]
    pub before: PathBuf,
    /// The later report (or bundle).
    #[arg(value_name = "AFTER")]
    pub after: PathBuf,
    /// Compare even when the two reports cover no common disk (otherwise exit status 2).
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Debug, Args, Clone, Default)]
pub struct BenchArgs {
    #[command(flatten)]
    pub device: DeviceArg,
    /// The same as --device DEVICE.
    #[arg(value_name = "DEVICE", conflicts_with = "device")]
    pub positional: Option<String>,
    /// Tests to run: all, read, write (comma separated: seq,sweep,rand,write,sync,layers);
    /// `sustained` (opt-in) writes until the time budget to find a write-cache cliff.
    #[arg(long, default_value = "read", value_name = "TESTS")]
    pub tests: String,
    /// Directory for the write tests' scratch file (default: current directory).
    #[arg(long, value_name = "DIR")]
    pub scratch_dir: Option<PathBuf>,
    /// Time budget per test, seconds (more than 0; default: each test's own budget).
    #[arg(long, value_name = "SECONDS", value_parser = positive_seconds, allow_negative_numbers = true)]
    pub budget: Option<f64>,
    /// Shorter tests.
    #[arg(long)]
    pub quick: bool,
    /// The block-size sweep reads every power of two from the sector size to 4 MiB, direct
    /// and buffered, instead of the sizes a diagnosis needs.
    #[arg(long)]
    pub full_sweep: bool,
    /// Run every test for its whole budget instead of stopping once the estimate is stable
    /// (like fio's --time_based): for side-by-side comparisons of equal length.
    #[arg(long)]
    pub time_based: bool,
    /// Destructive raw-device write test on DEVICE (asks you to type its path); without a
    /// value, on the --device named. With --preset cdm: the preset's four writes, on the
    /// device itself.
    #[arg(long, value_name = "DEVICE", num_args = 0..=1, default_missing_value = "")]
    pub destructive: Option<String>,
    /// With --destructive on a partition: write even though another partition of the same
    /// disk (or the disk itself) is mounted or held.
    #[arg(long, requires = "destructive")]
    pub allow_busy_siblings: bool,
    /// Also write the evidence bundle (with results) to FILE.
    #[arg(long, value_name = "FILE")]
    pub evidence_out: Option<PathBuf>,
    /// Test set: cdm (CrystalDiskMark's SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1,
    /// read and write), quick, default.
    #[arg(long, default_value = "default", value_name = "PRESET")]
    pub preset: String,
    /// `--export fio FILE`: write the fio job file of the tests run (cdm preset).
    #[arg(long, num_args = 2, value_names = ["FORMAT", "FILE"])]
    pub export: Vec<String>,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// `--budget`: a number of seconds above 0 (and at most a day).
fn positive_seconds(s: &str) -> Result<f64, UsageError> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| UsageError::NotSeconds(s.to_string()))?;
    if v.is_finite() && v > 0.0 && v <= 86_400.0 {
        Ok(v)
    } else {
        Err(UsageError::SecondsOutOfRange(s.to_string()))
    }
}
