//! The binary's error and its exit status. Every error is one line that names the problem and
//! the way out, printed as `diskdoc: ...` with exit status 2; library errors (diskdoc-sys
//! `MeasureError`, core `LoadError`, `BundleError`, `AnswerError`, `Leak`) convert into it. A
//! closed standard output travels up as [`Error::BrokenPipe`] and ends the run quietly with
//! 141, the status a shell shows for a tool killed by SIGPIPE.

use std::path::PathBuf;

/// How a run ended, as the process's exit status (documented in `diskdoc --help`, "EXIT
/// STATUS"; the shell convention of bash(1) for a death by a signal, 128 + its number).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitStatus {
    /// 0: no finding at warning or above.
    Clean,
    /// 1: at least one finding at warning or above.
    Findings,
    /// 2: a usage or runtime error.
    Error,
    /// 128 + the signal's number: a stop signal ended the run (130 Ctrl-C, 129 SIGHUP,
    /// 131 SIGQUIT, 143 SIGTERM).
    Signal(u8),
    /// 141 (128 + SIGPIPE): the reader of standard output went away.
    BrokenPipe,
}

impl ExitStatus {
    /// The status a report or the wizard's outcome carries as a number (a report's
    /// `exit_status`: 0, 1, or 2 when every benchmark failed; the wizard's: also 128 + the
    /// signal that stopped it). Anything else is an error.
    pub fn from_code(code: i32) -> ExitStatus {
        match code {
            0 => ExitStatus::Clean,
            1 => ExitStatus::Findings,
            141 => ExitStatus::BrokenPipe,
            129..=159 => u8::try_from(code - 128).map_or(ExitStatus::Error, ExitStatus::Signal),
            _ => ExitStatus::Error,
        }
    }

    /// The status after the last stop signal (diskdoc_sys::interrupt): 128 + its number.
    pub fn interrupted() -> ExitStatus {
        ExitStatus::from_code(diskdoc_sys::interrupt::exit_status())
    }

    /// The number the process exits with.
    pub fn code(self) -> u8 {
        match self {
            ExitStatus::Clean => 0,
            ExitStatus::Findings => 1,
            ExitStatus::Error => 2,
            ExitStatus::Signal(s) => 128u8.saturating_add(s),
            ExitStatus::BrokenPipe => 141,
        }
    }
}

impl From<ExitStatus> for std::process::ExitCode {
    fn from(s: ExitStatus) -> Self {
        std::process::ExitCode::from(s.code())
    }
}

/// Flags that do not go together, or a value a flag cannot take.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UsageError {
    /// `--json` is `--format json`.
    #[error("--json means --format json; it cannot be combined with --format {0}")]
    JsonWithFormat(String),
    /// A format the command does not produce; `why` says where else that output comes from.
    #[error(
        "{command} has no {format} output{}; its formats are {} (--format {})",
        why.as_ref().map(|w| format!(" ({w})")).unwrap_or_default(),
        has.join(", "),
        has.join("|")
    )]
    NoSuchFormat {
        command: String,
        format: String,
        why: Option<String>,
        has: Vec<String>,
    },
    /// `--budget` is not a number.
    #[error("{0:?} is not a number of seconds")]
    NotSeconds(String),
    /// `--budget` is out of range.
    #[error("{0} seconds: give more than 0 and at most 86400")]
    SecondsOutOfRange(String),
    /// `--report PATH` in a directory that is not one.
    #[error(
        "--report {}: {} is not a directory; choose a path in an existing directory",
        report.display(),
        dir.display()
    )]
    ReportDirNotDirectory { report: PathBuf, dir: PathBuf },
    /// `--report PATH` in a directory that does not exist.
    #[error(
        "--report {}: the directory {} does not exist; create it first or choose another path \
         (nothing was run)",
        report.display(),
        dir.display()
    )]
    ReportDirMissing { report: PathBuf, dir: PathBuf },
    /// The wizard without a terminal and without `--yes`.
    #[error(
        "the wizard needs a terminal to ask questions. Run it non-interactively with --yes \
         (accept safe defaults; never writes), and choose with --device DEV, --no-bench, \
         --quick, --report PATH, --json"
    )]
    NoTerminal,
    /// `--export` with a format other than fio.
    #[error("--export {0}: the only export format is fio (--export fio FILE)")]
    ExportFormat(String),
    /// `--export` without its two values.
    #[error("--export needs a format and a file: --export fio FILE")]
    ExportArgs,
    /// `--export fio` without the cdm preset.
    #[error("--export fio writes the job file of the cdm preset: add --preset cdm")]
    ExportNeedsCdm,
    /// Read tests without a device.
    #[error(
        "name the disk to read with --device (for example --device /dev/sda); `--tests write` \
         alone needs no device"
    )]
    ReadNeedsDevice,
    /// `--destructive` without a device.
    #[error(
        "--destructive needs the device to write: --destructive /dev/sdX, or --device /dev/sdX \
         --destructive"
    )]
    DestructiveNeedsDevice,
    /// `--destructive A --device B`.
    #[error(
        "--destructive {destructive} and --device {device} name two devices; name the one to \
         write once"
    )]
    TwoDevices { destructive: String, device: String },
    /// `compare` of two reports that share no disk.
    #[error(
        "not comparing {} with {}: {why}; give --force to compare them anyway",
        before.display(),
        after.display()
    )]
    NotComparable {
        before: PathBuf,
        after: PathBuf,
        why: String,
    },
    /// `summarize DIR` of a directory without reports.
    #[error("{} holds no .json report; give report files or a directory of them", .0.display())]
    NoReportIn(PathBuf),
    /// `summarize` where every file was skipped; `skipped` are the reasons.
    #[error(
        "no report to summarise: every file was skipped ({}); give the JSON reports or \
         evidence bundles diskdoc wrote",
        skipped.join("; ")
    )]
    NothingToSummarize { skipped: Vec<String> },
    /// `replay --device` naming a disk the report does not have; `known` are those it has.
    #[error(
        "no block device named {device:?}; known devices: {}",
        if known.is_empty() { "none".to_string() } else { known.join(", ") }
    )]
    NoSuchDisk { device: String, known: Vec<String> },
}

/// `--device` names no disk.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DeviceError {
    /// The path does not exist.
    #[error(
        "--device {0}: no such file or device (check the name; `lsblk` or `geom disk list` \
         shows the disks)"
    )]
    Missing(String),
    /// stat(2) on the path failed otherwise.
    #[error("--device {spec}: {reason}")]
    Unreadable { spec: String, reason: String },
    /// A character device on Linux (/dev/null, a tty).
    #[error(
        "--device {0} is a character device, not a disk (on Linux disks are block devices: \
         /dev/sda, /dev/nvme0n1, /dev/loop0)"
    )]
    CharacterDevice(String),
    /// A socket, a FIFO ...
    #[error("--device {0} is neither a disk nor a file or directory on one")]
    NotADiskOrFile(String),
    /// A name the probe does not know; `known` are the names it does.
    #[error(
        "{}",
        diskdoc_core::facts::device_names::unknown_device_message(spec, known)
    )]
    Unknown { spec: String, known: Vec<String> },
}

/// An input (`explain`, `replay`, `summarize`) that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InputError {
    /// The inputs together go over `--max-input-mib`; the text names the flag.
    #[error("{0}")]
    TooBig(String),
    /// read(2) failed.
    #[error("cannot read {label}: {reason}")]
    Read { label: String, reason: String },
    /// The file cannot be opened, or is a kind of file that is never read (a directory, a
    /// device, a FIFO nobody writes to); `fix` says how to give its content instead.
    #[error("cannot read {label}: {reason}{fix}")]
    Refused {
        label: String,
        reason: String,
        fix: String,
    },
    /// `explain DIR`.
    #[error("{} is a directory; give the files with the pasted text", .0.display())]
    Directory(PathBuf),
}

/// Why a command stopped: exit status 2, or 141 for a closed standard output.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Usage(#[from] UsageError),
    #[error(transparent)]
    Device(#[from] DeviceError),
    #[error(transparent)]
    Input(#[from] InputError),
    #[error(transparent)]
    Bench(#[from] diskdoc_sys::bench::measure::MeasureError),
    /// A report or bundle that could not be loaded.
    #[error(transparent)]
    Load(#[from] diskdoc_core::report::load::LoadError),
    #[error(transparent)]
    Bundle(#[from] diskdoc_core::evidence::BundleError),
    #[error(transparent)]
    Answer(#[from] diskdoc_core::answer::AnswerError),
    /// A secret the final check found in an output (nothing was written).
    #[error(transparent)]
    Leak(#[from] diskdoc_core::report::redact::Leak),
    /// A file diskdoc was asked to write.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A report the wizard could not save (the wizard says "Could not save the report: "
    /// before it and offers another name).
    #[error("{}: {source}", path.display())]
    Save {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A directory diskdoc was asked to read.
    #[error("cannot read directory {}: {source}", path.display())]
    ReadDir {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The reader of standard output went away (`diskdoc bench --json | head`). Nothing is
    /// printed for it.
    #[error("standard output was closed")]
    BrokenPipe,
}

impl Error {
    /// The exit status of a run this error ended.
    pub fn status(&self) -> ExitStatus {
        match self {
            Error::BrokenPipe => ExitStatus::BrokenPipe,
            _ => ExitStatus::Error,
        }
    }

    /// The error for a failed write of `path`.
    pub fn write(path: &std::path::Path) -> impl FnOnce(std::io::Error) -> Error + '_ {
        move |source| Error::Write {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// What a command returns: how it ended, or why it stopped.
pub type AppResult = Result<ExitStatus, Error>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_are_the_documented_ones() {
        let codes: Vec<u8> = [
            ExitStatus::Clean,
            ExitStatus::Findings,
            ExitStatus::Error,
            ExitStatus::Signal(2),
            ExitStatus::Signal(15),
            ExitStatus::BrokenPipe,
        ]
        .iter()
        .map(|s| s.code())
        .collect();
        assert_eq!(codes, [0, 1, 2, 130, 143, 141]);
        for code in [0, 1, 2, 129, 130, 131, 141, 143] {
            assert_eq!(i32::from(ExitStatus::from_code(code).code()), code);
        }
        assert_eq!(ExitStatus::from_code(-1), ExitStatus::Error);
        assert_eq!(Error::BrokenPipe.status(), ExitStatus::BrokenPipe);
    }

    #[test]
    fn usage_messages_name_the_flags() {
        let e = UsageError::NoSuchFormat {
            command: "the wizard".into(),
            format: "prometheus".into(),
            why: Some("node_exporter reads `diskdoc check --format prometheus`".into()),
            has: vec!["text".into(), "json".into()],
        };
        assert_eq!(
            e.to_string(),
            "the wizard has no prometheus output (node_exporter reads `diskdoc check --format \
             prometheus`); its formats are text, json (--format text|json)"
        );
        assert_eq!(
            UsageError::NoSuchDisk {
                device: "sdz".into(),
                known: vec![]
            }
            .to_string(),
            "no block device named \"sdz\"; known devices: none"
        );
        assert_eq!(
            UsageError::NothingToSummarize {
                skipped: vec!["skipped a: x".into(), "skipped b: y".into()]
            }
            .to_string(),
            "no report to summarise: every file was skipped (skipped a: x; skipped b: y); give \
             the JSON reports or evidence bundles diskdoc wrote"
        );
        assert_eq!(
            DeviceError::CharacterDevice("/dev/null".into()).to_string(),
            "--device /dev/null is a character device, not a disk (on Linux disks are block \
             devices: /dev/sda, /dev/nvme0n1, /dev/loop0)"
        );
    }
}
