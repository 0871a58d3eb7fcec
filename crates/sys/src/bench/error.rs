//! Why a benchmark could not run, typed: the one error of the benchmark layer (request
//! parsing, the plan, the scratch directory, the raw-device handle and its typed consent).
//! Every message is one line that names the problem and the way out; the binary prints it and
//! exits with status 2.

use std::path::PathBuf;

/// What `--destructive` accepts, repeated in every refusal of the path itself.
const NEEDS: &str = "--destructive needs a block device under /dev";

/// The benchmark layer's error.
#[derive(Debug, thiserror::Error)]
pub enum MeasureError {
    /// `--tests` named a test that does not exist.
    #[error(
        "unknown test {0:?} in --tests; use all, read, write or a comma list of seq, sweep, \
         rand, write, sync, layers, sustained"
    )]
    UnknownTest(String),
    /// `--tests` named nothing.
    #[error("--tests is empty; use all, read or write")]
    NoTests,
    /// `--preset` named a preset that does not exist.
    #[error("unknown preset {0:?}; use cdm (the CrystalDiskMark tests), quick or default")]
    UnknownPreset(String),
    /// A test group the wizard does not have.
    #[error("unknown test group {0}")]
    UnknownGroup(String),
    /// The device is smaller than a test's regions.
    #[error("the device is {size} bytes, smaller than the {needed} bytes the {test} test needs")]
    TooSmall {
        size: u64,
        needed: u64,
        test: &'static str,
    },
    /// The device (or image file) could not be opened; the text is
    /// [`crate::bench::suite::describe_open_error`]'s, which says what to do.
    #[error("{advice}")]
    Open { path: PathBuf, advice: String },
    /// The device has no bytes; `hint` names the usual reasons.
    #[error("{path} has size 0 ({hint})")]
    Empty { path: String, hint: &'static str },
    /// lseek(2) to the end of the device failed.
    #[error("cannot size {path}: {source}")]
    Size {
        path: String,
        source: std::io::Error,
    },
    /// pread(2) on the device failed.
    #[error("cannot read {path} at byte {offset}: {source}")]
    Read {
        path: String,
        offset: u64,
        source: std::io::Error,
    },
    /// A file diskdoc was asked to write (`--export fio FILE`) could not be written.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    /// `--scratch-dir` names something that is not a directory.
    #[error(
        "--scratch-dir {}: not a directory (name the directory to hold the scratch file)",
        .0.display()
    )]
    ScratchNotDirectory(PathBuf),
    /// `--scratch-dir` names nothing.
    #[error(
        "--scratch-dir {}: does not exist (create it, or name an existing directory)",
        .0.display()
    )]
    ScratchMissing(PathBuf),
    /// `--scratch-dir` cannot be looked at (stat(2) failed otherwise).
    #[error("--scratch-dir {}: {source}", dir.display())]
    ScratchUnusable {
        dir: PathBuf,
        source: std::io::Error,
    },
    /// `--destructive` was given an empty name or one with a NUL byte.
    #[error("refusing {given:?}: {NEEDS}")]
    NotAPath { given: String },
    /// `--destructive`: the name could not be resolved or looked at; `advice` says why.
    #[error("{advice}; {NEEDS}")]
    Unresolvable { advice: String },
    /// `--destructive`: the name resolves outside /dev (or into /dev/shm).
    #[error(
        "refusing {given:?}: it resolves to {}, which is not a device node under /dev; {NEEDS}",
        canonical.display()
    )]
    OutsideDev { given: String, canonical: PathBuf },
    /// `--destructive`: the node is not a block device; `kind` says what it is.
    #[error("refusing {given:?} ({}): it is {kind}; {NEEDS}", canonical.display())]
    NotABlockDevice {
        given: String,
        canonical: PathBuf,
        kind: &'static str,
    },
    /// fstat(2) on the opened device failed.
    #[error("cannot fstat {path}: {source}")]
    Fstat {
        path: String,
        source: std::io::Error,
    },
    /// What was opened is not the block device that was checked.
    #[error(
        "refusing {path}: what was opened is not the block device that was checked (it \
         changed between the check and the open)"
    )]
    Changed { path: String },
    /// The device is in use or holds data; each reason names what and where.
    #[error(
        "refusing to write to {path}: {}. The destructive test only runs on a blank device \
         that nothing uses{}",
        reasons.join("; "),
        if *after_consent { " (found after you confirmed, before anything was written)" } else { "" }
    )]
    Refused {
        path: String,
        reasons: Vec<String>,
        /// Found by the second look, after the path was typed back.
        after_consent: bool,
    },
    /// The terminal for the typed consent could not be set up or drained.
    #[error("cannot read your answer: {0}")]
    Terminal(std::io::Error),
    /// Reading the typed consent failed.
    #[error("could not read your answer: {0}")]
    Answer(std::io::Error),
    /// No terminal to type the device path on.
    #[error(
        "refusing the destructive write test on {device}: standard input is not a terminal, \
         and the test needs you to type the device path"
    )]
    NoTerminal { device: String },
    /// Something other than the device path was typed.
    #[error("cancelled: you typed {typed:?}, not {device:?}")]
    Mistyped { device: String, typed: String },
    /// The answer was pasted, not typed.
    #[error(
        "cancelled: the answer was pasted, and only a typed path is consent to erase {device}; \
         run again and type it"
    )]
    Pasted { device: String },
    /// The answer never came (end of input, an interrupt).
    #[error("cancelled: no answer")]
    NoAnswer,
}

impl MeasureError {
    /// The same refusal, found again after the consent.
    pub fn after_consent(self) -> MeasureError {
        match self {
            MeasureError::Refused { path, reasons, .. } => MeasureError::Refused {
                path,
                reasons,
                after_consent: true,
            },
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_way_out() {
        let e = MeasureError::Refused {
            path: "/dev/loop3".into(),
            reasons: vec!["a".into(), "b".into()],
            after_consent: false,
        };
        assert_eq!(
            e.to_string(),
            "refusing to write to /dev/loop3: a; b. The destructive test only runs on a blank \
             device that nothing uses"
        );
        assert_eq!(
            e.after_consent().to_string(),
            "refusing to write to /dev/loop3: a; b. The destructive test only runs on a blank \
             device that nothing uses (found after you confirmed, before anything was written)"
        );
        assert_eq!(
            MeasureError::NotAPath { given: "".into() }.to_string(),
            "refusing \"\": --destructive needs a block device under /dev"
        );
        assert_eq!(
            MeasureError::TooSmall {
                size: 10,
                needed: 20,
                test: "zone"
            }
            .to_string(),
            "the device is 10 bytes, smaller than the 20 bytes the zone test needs"
        );
    }
}
