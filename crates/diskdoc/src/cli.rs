//! Command-line flags (clap derive).

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

#[derive(Debug, Parser)]
#[command(
    name = "diskdoc",
    version,
    about = "Why is my disk slow? A guided diagnosis for Linux and FreeBSD.",
    long_about = "Run without a subcommand for the guided wizard. Reads are safe; nothing is \
                  written without asking."
)]
pub struct Cli {
    /// List the checks diskdoc runs and exit.
    #[arg(long)]
    pub list_checks: bool,
    #[command(flatten)]
    pub wizard: WizardArgs,
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Flags of the guided wizard (no subcommand).
#[derive(Debug, Args, Default, Clone)]
pub struct WizardArgs {
    /// The disk to diagnose (name, /dev path, or a path on a filesystem).
    #[arg(long, global = true)]
    pub device: Option<String>,
    /// Accept the defaults without asking (never destructive).
    #[arg(long)]
    pub yes: bool,
    /// Skip the read/write tests.
    #[arg(long)]
    pub no_bench: bool,
    /// Shorter tests.
    #[arg(long)]
    pub quick: bool,
    /// Save the text report here (and the JSON report next to it as .json).
    #[arg(long)]
    pub report: Option<PathBuf>,
    /// Print the JSON report on stdout.
    #[arg(long, global = true)]
    pub json: bool,
    /// Keep serial numbers, WWNs and host names in reports.
    #[arg(long, global = true)]
    pub no_redact: bool,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Probe and print the facts per disk.
    Scan {
        /// Also write the evidence bundle to FILE.
        #[arg(long)]
        evidence_out: Option<PathBuf>,
    },
    /// Probe, run every check and print the ranked findings (no read/write tests).
    Check {
        /// Also write the evidence bundle to FILE.
        #[arg(long)]
        evidence_out: Option<PathBuf>,
        /// Output: text (default), json, or prometheus (text exposition for node_exporter's
        /// textfile collector; redacted unless --no-redact).
        #[arg(long, value_enum, value_name = "FORMAT", default_value_t = CheckFormat::Text)]
        format: CheckFormat,
        /// Write the output to FILE atomically (a temporary file renamed over FILE, as the
        /// textfile collector requires) instead of standard output.
        #[arg(long, value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// One table of hosts x findings from many JSON reports or bundles (files or directories).
    Summarize {
        #[arg(required = true, value_name = "FILE|DIR")]
        paths: Vec<PathBuf>,
        /// Output: text (default), markdown, json.
        #[arg(long, value_enum, value_name = "FORMAT", default_value_t = SummaryFormat::Text)]
        format: SummaryFormat,
    },
    /// Re-derive facts and findings from an evidence bundle or a JSON report.
    Replay {
        file: PathBuf,
        /// Output: findings (default), facts, text, markdown, json, prometheus (the last four
        /// are shareable reports, redacted unless --no-redact).
        #[arg(long, default_value = "findings")]
        format: String,
    },
    /// Run the read/write tests.
    Bench(BenchArgs),
    /// Diagnose from pasted tool outputs (files, or standard input).
    Explain {
        files: Vec<PathBuf>,
        /// Output: text (default), markdown, json.
        #[arg(long, default_value = "text")]
        format: String,
    },
    /// Compare two JSON reports (before/after).
    Compare { before: PathBuf, after: PathBuf },
}

/// Output formats of `check`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CheckFormat {
    Text,
    Json,
    Prometheus,
}

/// Output formats of `summarize`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SummaryFormat {
    Text,
    Markdown,
    Json,
}

#[derive(Debug, Args, Clone, Default)]
pub struct BenchArgs {
    /// Tests to run: all, read, write (comma separated: seq,sweep,rand,write,sync,layers);
    /// `sustained` (opt-in) writes until the time budget to find a write-cache cliff.
    #[arg(long, default_value = "read")]
    pub tests: String,
    /// Directory for the write tests' scratch file (default: current directory).
    #[arg(long)]
    pub scratch_dir: Option<PathBuf>,
    /// Time budget per test, seconds.
    #[arg(long)]
    pub budget: Option<f64>,
    /// Shorter tests.
    #[arg(long)]
    pub quick: bool,
    /// Run every test for its whole budget instead of stopping once the estimate is stable
    /// (like fio's --time_based): for side-by-side comparisons of equal length.
    #[arg(long)]
    pub time_based: bool,
    /// Destructive raw-device write test on DEVICE (asks you to type its path).
    #[arg(long)]
    pub destructive: Option<String>,
    /// Also write the evidence bundle (with results) to FILE.
    #[arg(long)]
    pub evidence_out: Option<PathBuf>,
    /// Test set: cdm (CrystalDiskMark's SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1,
    /// read and write), quick, default.
    #[arg(long, default_value = "default")]
    pub preset: String,
    /// `--export fio FILE`: write the fio job file of the tests run (cdm preset).
    #[arg(long, num_args = 2, value_names = ["FORMAT", "FILE"])]
    pub export: Vec<String>,
}
