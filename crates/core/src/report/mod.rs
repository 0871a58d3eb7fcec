//! Reports: text (mailing-list safe), Markdown and versioned JSON, redacted by default.
//!
//! A [`Report`] is everything one run of diskdoc learned: the evidence bundle, the facts derived
//! from it, the ranked findings, plus the envelope (argv, messages, exit status). The
//! renderers (`text`, `markdown`, `json`) are pure functions of a `Report`; redaction
//! ([`redact`]) produces a new `Report` whose every string went through one consistent
//! token map, so all three formats share the same tokens. The JSON schema is documented in
//! docs/report-format.md and pinned by tests/report.rs.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::checks::{self, Finding};
use crate::evidence::EvidenceBundle;
use crate::facts::{self, SystemFacts};

pub mod chart;
pub mod compare;
pub mod envelope;
pub mod json;
pub mod load;
pub mod markdown;
pub mod prometheus;
pub mod redact;
pub mod summarize;
pub mod text;
pub mod view;

pub use load::{LoadError, Loaded, load, load_report, report_from_loaded};

/// Version of the JSON report envelope (docs/report-format.md). Bumped when a field changes
/// meaning or is removed; adding a field is also a bump because readers deny unknown fields.
pub const REPORT_SCHEMA_VERSION: u32 = 1;

/// How loud a report message is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MessageSeverity {
    Information,
    Warning,
    Error,
}

/// A note about the run itself (not about the disk): "tests were skipped", "not root".
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Message {
    pub severity: MessageSeverity,
    pub text: String,
}

impl Message {
    pub fn info(text: impl Into<String>) -> Message {
        Message {
            severity: MessageSeverity::Information,
            text: text.into(),
        }
    }
    pub fn warning(text: impl Into<String>) -> Message {
        Message {
            severity: MessageSeverity::Warning,
            text: text.into(),
        }
    }
}

/// One run of diskdoc, ready to render.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// The command line that produced the report (argv[0] included).
    pub argv: Vec<String>,
    pub messages: Vec<Message>,
    /// 0 no finding at warning or above, 1 such findings (see checks::exit_code).
    pub exit_status: i32,
    pub facts: SystemFacts,
    /// Ranked: problems first.
    pub findings: Vec<Finding>,
    pub bundle: EvidenceBundle,
    /// Whether secrets were replaced by tokens (set by [`redact::redact_report`]).
    pub redacted: bool,
}

impl Report {
    /// Assemble a report from parts; ranks the findings and computes the exit status.
    pub fn new(
        bundle: EvidenceBundle,
        facts: SystemFacts,
        mut findings: Vec<Finding>,
        argv: Vec<String>,
    ) -> Report {
        checks::rank(&mut findings);
        let exit_status = checks::exit_code(&findings);
        let mut messages = Vec::new();
        if facts.is_root.get() == Some(false) {
            messages.push(Message::warning(
                "diskdoc ran without root: some facts are unknown (see each \"unknown\" for why)",
            ));
        }
        if bundle.benchmarks.is_empty() {
            messages.push(Message::info("no read/write tests were run"));
        }
        Report {
            argv,
            messages,
            exit_status,
            facts,
            findings,
            bundle,
            redacted: false,
        }
    }

    /// Derive facts and findings from a bundle with this diskdoc (the replay path).
    pub fn from_bundle(bundle: EvidenceBundle, argv: Vec<String>) -> Report {
        let facts = facts::derive(&bundle);
        let findings = checks::run_all(&facts);
        Report::new(bundle, facts, findings, argv)
    }

    /// The copy to share: redacted unless `redact` is false.
    pub fn shareable(&self, redact: bool) -> Report {
        if redact {
            redact::redact_report(self)
        } else {
            self.clone()
        }
    }
}

/// Where [`write_reports`] put the two files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    pub text: PathBuf,
    pub json: PathBuf,
}

/// The JSON sibling of a text report path: `report.txt` -> `report.json`, `report` ->
/// `report.json`. When PATH itself ends in .json, the text goes to PATH with .txt instead.
pub fn report_paths(path: &Path) -> Written {
    if path.extension().is_some_and(|e| e == "json") {
        Written {
            text: path.with_extension("txt"),
            json: path.to_path_buf(),
        }
    } else {
        Written {
            text: path.to_path_buf(),
            json: path.with_extension("json"),
        }
    }
}

/// Write the text report to PATH and the JSON report next to it (see [`report_paths`]),
/// redacted unless `redact` is false. For the wizard's `--report PATH`.
///
/// Refuses to write over anything that is not a regular file, so a mistyped
/// `--report /dev/sda` can never touch a device.
pub fn write_reports(path: &Path, report: &Report, redact: bool) -> std::io::Result<Written> {
    let out = report_paths(path);
    for p in [&out.text, &out.json] {
        if let Ok(meta) = std::fs::symlink_metadata(p)
            && !meta.file_type().is_file()
        {
            return Err(std::io::Error::new(
                std::io::ErrorKind::AlreadyExists,
                format!(
                    "{} exists and is not a regular file; refusing to write a report there",
                    p.display()
                ),
            ));
        }
    }
    let shared = report.shareable(redact);
    std::fs::write(&out.text, text::render(&shared))?;
    std::fs::write(&out.json, json::render(&shared))?;
    Ok(out)
}

/// Text and JSON reports of one run, ready to save: for callers that hold the parts rather
/// than a [`Report`] (the wizard's `--report PATH` and "Save the report" step). Redacted
/// unless `redact` is false; the JSON is the documented envelope that `diskdoc replay` and
/// `diskdoc compare` read.
pub fn render_pair(
    bundle: &EvidenceBundle,
    facts: &SystemFacts,
    findings: &[Finding],
    redact: bool,
) -> (String, String) {
    let mut facts = facts.clone();
    facts.benchmarks = bundle.benchmarks.clone();
    let r = Report::new(bundle.clone(), facts, findings.to_vec(), current_argv());
    let shared = r.shareable(redact);
    (text::render(&shared), json::render(&shared))
}

/// The command line of this process, for the envelope's `argv`.
pub fn current_argv() -> Vec<String> {
    std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect()
}
