//! The one error type of the test helpers: what failed, in words that say where to look (the
//! output, the file, the value) or what to run to get past it (the tool to install, the
//! privilege to have). A test that cannot run still says so through `support::capable` /
//! `skip_or_fail`; this type carries the reason there.

/// Why a test helper gave up, or what it found wrong.
#[derive(Debug, thiserror::Error)]
pub enum SupportError {
    /// A tool the test needs is not on this machine; `fix` installs it.
    #[error("{tool} is not installed ({fix})")]
    ToolMissing {
        tool: &'static str,
        fix: &'static str,
    },
    /// The test needs a privilege or a setting this run does not have (root, an opt-in
    /// variable): the message says which.
    #[error("{0}")]
    CannotRun(String),
    /// A helper command could not be started or failed: the command, then its error or
    /// stderr.
    #[error("{cmd}: {detail}")]
    Command { cmd: String, detail: String },
    /// A file operation of the helper failed (a temporary file or image).
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// An output or value the test reads is not there: which one.
    #[error("{0}")]
    Missing(String),
    /// An output is there but not of the form it should have: which, and what it holds.
    #[error("{0}")]
    Malformed(String),
    /// A value differs from what the test expects: the value and the expectation.
    #[error("{0}")]
    Mismatch(String),
    /// Several checks failed: each message, joined with "; ".
    #[error("{}", join(.0))]
    Several(Vec<SupportError>),
    /// The check does not apply to this run (a live-only output in a replay, a command not
    /// built yet): why.
    #[error("{0}")]
    NotApplicable(String),
    /// A JSON document does not match diskdoc's JSON Schema: the validator's explanation.
    #[error("{0}")]
    Schema(String),
}

fn join(errs: &[SupportError]) -> String {
    errs.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

/// `SupportError::Mismatch` of a `format!`.
macro_rules! mismatch {
    ($($t:tt)*) => {
        $crate::support::error::SupportError::Mismatch(format!($($t)*))
    };
}

/// `SupportError::Missing` of a `format!`.
macro_rules! missing {
    ($($t:tt)*) => {
        $crate::support::error::SupportError::Missing(format!($($t)*))
    };
}

/// `SupportError::Malformed` of a `format!`.
macro_rules! malformed {
    ($($t:tt)*) => {
        $crate::support::error::SupportError::Malformed(format!($($t)*))
    };
}

pub(crate) use {malformed, mismatch, missing};
