//! Loading a JSON report or a bare evidence bundle for `diskdoc replay` and `diskdoc compare`.
//!
//! Reports travel through mail clients, forums and copy-paste, so they arrive truncated,
//! re-encoded or from a newer diskdoc. Every such case is one [`LoadError`] naming the file,
//! the problem and the schema version involved; nothing here panics on input.

use std::path::Path;

use serde_json::Value;

use crate::checks;
use crate::evidence::{self, EvidenceBundle};
use crate::report::envelope::Envelope;
use crate::report::{Message, Pasted, REPORT_SCHEMA_VERSION, Report, ReportKind};

/// Why a file could not be used.
#[derive(Debug)]
pub enum LoadError {
    Io {
        path: String,
        err: std::io::Error,
    },
    /// JSON ended early: a cut-off copy.
    /// Nothing but white space: saved before the command wrote anything.
    Empty {
        path: String,
    },
    Truncated {
        path: String,
        line: usize,
        column: usize,
        version: Option<u64>,
    },
    /// Not JSON at all (or damaged in the middle).
    Malformed {
        path: String,
        detail: String,
        version: Option<u64>,
    },
    /// JSON, but not shaped like a diskdoc report or bundle.
    Shape {
        path: String,
        what: &'static str,
        detail: String,
        version: Option<u64>,
    },
    /// Written by a newer diskdoc whose schema this one does not know.
    FutureVersion {
        path: String,
        what: &'static str,
        found: u64,
        supported: u32,
        writer: Option<String>,
    },
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ver = |v: &Option<u64>| match v {
            Some(v) => format!("schema version {v}"),
            None => "schema version unknown".to_string(),
        };
        match self {
            LoadError::Io { path, err } => write!(f, "cannot read {path}: {err}"),
            LoadError::Empty { path } => write!(
                f,
                "{path} is empty: it holds no report or bundle (was it redirected before the \
                 command ran, or saved while it was still running?); write it again with \
                 `--format json --output FILE`"
            ),
            LoadError::Truncated {
                path,
                line,
                column,
                version,
            } => write!(
                f,
                "{path} is truncated: the JSON ends early at line {line}, column {column} \
                 ({}); copy the whole file again",
                ver(version)
            ),
            LoadError::Malformed {
                path,
                detail,
                version,
            } => write!(
                f,
                "{path} is not valid JSON ({detail}; {}); was it edited or re-wrapped by a \
                 mail client? Attach the file rather than pasting it",
                ver(version)
            ),
            LoadError::Shape {
                path,
                what,
                detail,
                version,
            } => match version {
                // A versioned document of the wrong shape: say which versions we read.
                Some(_) => write!(
                    f,
                    "{path} is not a valid diskdoc {what} ({detail}; {}, this diskdoc {} \
                     reads report schema up to {REPORT_SCHEMA_VERSION})",
                    ver(version),
                    env!("CARGO_PKG_VERSION")
                ),
                // No version at all: another kind of document, not a version problem.
                None => write!(f, "{path} is not a diskdoc {what} ({detail})"),
            },
            LoadError::FutureVersion {
                path,
                what,
                found,
                supported,
                writer,
            } => write!(
                f,
                "{path} uses {what} schema version {found}{}, but this diskdoc {} reads up \
                 to version {supported}; upgrade diskdoc to read it",
                match writer {
                    Some(w) if !w.is_empty() => format!(" (written by diskdoc {w})"),
                    _ => String::new(),
                },
                env!("CARGO_PKG_VERSION")
            ),
        }
    }
}

impl std::error::Error for LoadError {}

/// What a file held.
#[derive(Debug, Clone, PartialEq)]
pub struct Loaded {
    pub bundle: EvidenceBundle,
    /// The full report when the file was a report (None for a bare bundle).
    pub envelope: Option<Envelope>,
    /// For a pre-envelope `--json` output of an older diskdoc (`bench --json`'s
    /// `{benchmarks, findings}`, `explain --json`'s object with `bundle`): the command
    /// that wrote it. None for reports (their `kind` says) and bare bundles.
    pub legacy_kind: Option<ReportKind>,
}

impl Loaded {
    /// A bare evidence bundle.
    pub fn bundle(bundle: EvidenceBundle) -> Loaded {
        Loaded {
            bundle,
            envelope: None,
            legacy_kind: None,
        }
    }
}

/// The older `--json` outputs that were not the envelope (diskdoc before report schema 2),
/// recognised by their keys: the ones with evidence load, the others get a message saying
/// what they are and what to run instead.
fn legacy(path: &str, obj: &serde_json::Map<String, Value>) -> Option<Result<Loaded, LoadError>> {
    let shape = |what: &'static str, detail: &str| {
        Some(Err(LoadError::Shape {
            path: path.to_string(),
            what,
            detail: detail.to_string(),
            version: None,
        }))
    };
    if obj.contains_key("bundle") && obj.contains_key("recognised") {
        // `explain --json` before schema 2: the explanation with its bundle.
        let bundle = obj.get("bundle").cloned().unwrap_or(Value::Null);
        return Some(
            serde_json::from_value::<EvidenceBundle>(bundle)
                .map(|bundle| Loaded {
                    bundle,
                    envelope: None,
                    legacy_kind: Some(ReportKind::Explain),
                })
                .map_err(|e| LoadError::Shape {
                    path: path.to_string(),
                    what: "explain output",
                    detail: e.to_string(),
                    version: None,
                }),
        );
    }
    if obj.contains_key("benchmarks") && obj.contains_key("interrupted") {
        // `bench --json` before schema 2: the raw results and their findings.
        let results = obj.get("benchmarks").cloned().unwrap_or(Value::Null);
        return Some(
            serde_json::from_value::<Vec<evidence::BenchResult>>(results)
                .map(|benchmarks| {
                    let mut bundle =
                        EvidenceBundle::new(evidence::Platform::Unknown, evidence::Origin::Live);
                    bundle.benchmarks = benchmarks;
                    Loaded {
                        bundle,
                        envelope: None,
                        legacy_kind: Some(ReportKind::Bench),
                    }
                })
                .map_err(|e| LoadError::Shape {
                    path: path.to_string(),
                    what: "bench output",
                    detail: e.to_string(),
                    version: None,
                }),
        );
    }
    if obj.contains_key("disks") && obj.contains_key("os_name") {
        return shape(
            "report",
            "it is the facts an older `diskdoc scan --json` printed, which carry no evidence \
             to re-derive them from; run `diskdoc scan --json` with this diskdoc, which writes \
             the replayable report",
        );
    }
    if obj.contains_key("before_label") && obj.contains_key("measured") {
        return shape(
            "report",
            "it is the comparison an older `diskdoc compare --json` printed, without the two \
             reports; compare the two reports again with this diskdoc",
        );
    }
    None
}

/// The first `"schema_version": N` in the text, for error messages about files too broken to
/// parse.
fn sniff_version(text: &str) -> Option<u64> {
    let i = text.find("\"schema_version\"")?;
    let rest = text.get(i + "\"schema_version\"".len()..)?;
    let rest = rest.trim_start().strip_prefix(':')?.trim_start();
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    digits.parse().ok()
}

fn json_error(path: &str, text: &str, e: serde_json::Error) -> LoadError {
    let version = sniff_version(text);
    if e.is_eof() {
        LoadError::Truncated {
            path: path.to_string(),
            line: e.line(),
            column: e.column(),
            version,
        }
    } else {
        LoadError::Malformed {
            path: path.to_string(),
            detail: e.to_string(),
            version,
        }
    }
}

/// Schema 1-3 reports kept a disk's PCIe, NVMe health, trim, power, busy and temperature
/// facts in one object, `modern`; schema 4 files them by topic on the disk itself (`pcie`,
/// `nvme_health`, `zoned`, `busy`, `temp_samples_c`, `trim {...}`, `power {...}`). Every
/// object that has a `modern` object beside `name` and `dev_path` (a disk's facts, wherever
/// it sits: `system`, `before`, a comparison) is rewritten to the schema 4 layout.
fn lift_disk_topics(v: &mut Value) {
    match v {
        Value::Array(a) => a.iter_mut().for_each(lift_disk_topics),
        Value::Object(o) => {
            if o.contains_key("name")
                && o.contains_key("dev_path")
                && let Some(Value::Object(m)) = o.remove("modern")
            {
                let mut trim = serde_json::Map::new();
                let mut power = serde_json::Map::new();
                for (k, val) in m {
                    match k.as_str() {
                        "discard_max_bytes" | "delete_method" | "fs_trim" | "zfs_autotrim" => {
                            trim.insert(k, val);
                        }
                        "lpm_policy" | "apm_level" | "load_cycles" | "power_log" => {
                            power.insert(k, val);
                        }
                        _ => {
                            o.insert(k, val);
                        }
                    }
                }
                o.insert("trim".into(), Value::Object(trim));
                o.insert("power".into(), Value::Object(power));
            }
            o.values_mut().for_each(lift_disk_topics);
        }
        _ => {}
    }
}

/// Parse report or bundle text. `path` only labels errors.
pub fn parse(path: &str, text: &str) -> Result<Loaded, LoadError> {
    // A UTF-8 byte-order mark from a Windows editor is not an error worth failing for.
    let text = text.trim_start_matches('\u{feff}');
    if text.trim().is_empty() {
        return Err(LoadError::Empty {
            path: path.to_string(),
        });
    }
    let v: Value = serde_json::from_str(text).map_err(|e| json_error(path, text, e))?;
    if v.is_array() {
        return Err(LoadError::Shape {
            path: path.to_string(),
            what: "report or evidence bundle",
            detail: "the top level is a list: the findings an older `diskdoc check --json` or \
                     `replay --json` printed carry no evidence to replay; run the command again \
                     with this diskdoc, which writes the replayable report"
                .into(),
            version: None,
        });
    }
    let Some(obj) = v.as_object() else {
        return Err(LoadError::Shape {
            path: path.to_string(),
            what: "report or evidence bundle",
            detail: "the top level is not a JSON object".into(),
            version: None,
        });
    };
    if let Some(l) = legacy(path, obj) {
        return l;
    }
    let version = obj.get("schema_version").and_then(Value::as_u64);
    if obj.contains_key("evidence") {
        let Some(found) = version else {
            return Err(LoadError::Shape {
                path: path.to_string(),
                what: "report",
                detail: "it has no numeric schema_version".into(),
                version: None,
            });
        };
        let writer = obj
            .get("diskdoc_version")
            .and_then(Value::as_str)
            .map(str::to_string);
        if found > REPORT_SCHEMA_VERSION as u64 {
            return Err(LoadError::FutureVersion {
                path: path.to_string(),
                what: "report",
                found,
                supported: REPORT_SCHEMA_VERSION,
                writer,
            });
        }
        if let Some(ev) = obj
            .get("evidence")
            .and_then(|e| e.get("schema_version"))
            .and_then(Value::as_u64)
            && ev > evidence::SCHEMA_VERSION as u64
        {
            return Err(LoadError::FutureVersion {
                path: path.to_string(),
                what: "evidence",
                found: ev,
                supported: evidence::SCHEMA_VERSION,
                writer,
            });
        }
        let mut v = v;
        if found < 4 {
            lift_disk_topics(&mut v);
        }
        let envelope: Envelope = serde_json::from_value(v).map_err(|e| LoadError::Shape {
            path: path.to_string(),
            what: "report",
            detail: e.to_string(),
            version,
        })?;
        Ok(Loaded {
            bundle: envelope.evidence.clone(),
            envelope: Some(envelope),
            legacy_kind: None,
        })
    } else if obj.contains_key("captures") || obj.contains_key("platform") {
        if let Some(found) = version
            && found > evidence::SCHEMA_VERSION as u64
        {
            return Err(LoadError::FutureVersion {
                path: path.to_string(),
                what: "evidence",
                found,
                supported: evidence::SCHEMA_VERSION,
                writer: obj
                    .get("diskdoc_version")
                    .and_then(Value::as_str)
                    .map(str::to_string),
            });
        }
        let bundle: EvidenceBundle = serde_json::from_value(v).map_err(|e| LoadError::Shape {
            path: path.to_string(),
            what: "evidence bundle",
            detail: e.to_string(),
            version,
        })?;
        Ok(Loaded::bundle(bundle))
    } else {
        Err(LoadError::Shape {
            path: path.to_string(),
            what: "report or evidence bundle",
            detail: "it has neither \"evidence\" (a report) nor \"captures\" (a bundle)".into(),
            version,
        })
    }
}

/// Load a report or a bundle from a file.
fn load_report(path: &Path) -> Result<Loaded, LoadError> {
    let label = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|err| LoadError::Io {
        path: label.clone(),
        err,
    })?;
    // Lossy: a stray Latin-1 byte from a mail gateway becomes U+FFFD inside a string
    // rather than a refusal; serde_json then reports what is really wrong, if anything.
    let text = String::from_utf8_lossy(&bytes);
    parse(&label, &text)
}

/// The evidence bundle in a report or bare bundle file (for `diskdoc replay`).
pub fn load(path: &Path) -> Result<EvidenceBundle, LoadError> {
    load_report(path).map(|l| l.bundle)
}

/// Build a report from a loaded file with this diskdoc's parsers and checks, by the rule
/// of the command that wrote it ([`Report::derive`]): the same kind, the same disks
/// (`scope`), the benchmarks the user pasted, the pasted text of an `explain` read again,
/// the earlier report of a `compare` re-derived too. A replay therefore ends with the same
/// findings and exit status as the original run.
///
/// When this diskdoc derives no disk at all from the evidence but the file is a report whose
/// writer did (an older bundle layout, evidence this version cannot parse yet), the facts and
/// findings stored in the report are used instead, with a message saying so: an expert still
/// sees what the user saw.
pub fn report_from_loaded(loaded: Loaded, argv: Vec<String>) -> Report {
    let Loaded {
        bundle,
        envelope,
        legacy_kind,
    } = loaded;
    let Some(env) = envelope else {
        let kind = legacy_kind.unwrap_or(ReportKind::Check);
        return Report::derive(kind, bundle, Vec::new(), Vec::new(), argv);
    };
    let kind = env.derived_as.unwrap_or(env.kind);
    if kind == ReportKind::Summarize {
        // Each member re-derived by its own rule, then the table made again.
        let members = env
            .members
            .iter()
            .map(|m| crate::report::Member {
                file: m.file.clone(),
                report: report_from_loaded(
                    Loaded {
                        bundle: m.report.evidence.clone(),
                        envelope: Some(m.report.clone()),
                        legacy_kind: None,
                    },
                    Vec::new(),
                ),
            })
            .collect();
        let notes = env
            .messages
            .iter()
            .filter(|m| m.severity != crate::report::MessageSeverity::Information)
            .cloned()
            .collect();
        let mut r = Report::summarized(members, notes, argv);
        r.kind = env.kind;
        r.derived_as = env.derived_as;
        r.redacted = env.redacted;
        return r;
    }
    // Schema 1 had no `scope`; its reports (the wizard's) kept only the chosen disk's facts,
    // so those are the disks it covered.
    let scope = if env.scope.is_empty() && env.schema_version < 2 {
        env.system.disks.iter().map(|d| d.name.clone()).collect()
    } else {
        env.scope.clone()
    };
    let mut r = if kind == ReportKind::Explain && !env.pasted.is_empty() {
        explain_again(&env.pasted, argv.clone())
            .unwrap_or_else(|| Report::derive(kind, bundle, Vec::new(), scope.clone(), argv))
    } else {
        Report::derive(
            kind,
            bundle,
            env.system.user_benchmarks.clone(),
            scope,
            argv,
        )
    };
    r.kind = env.kind;
    r.derived_as = env.derived_as;
    // Its serials and host names are tokens if the writer redacted them: a replay or a
    // compare must not take them for the real ones (compare's disk identity does not).
    r.redacted = env.redacted;
    r.symptom = env.symptom.clone();
    r.pasted = env.pasted.clone();
    r.before = env.before.as_ref().map(|b| {
        Box::new(report_from_loaded(
            Loaded {
                bundle: b.evidence.clone(),
                envelope: Some((**b).clone()),
                legacy_kind: None,
            },
            Vec::new(),
        ))
    });
    r.comparison = env.comparison.clone();
    if let Some(c) = r.comparison() {
        r.comparison = serde_json::to_value(&c).ok();
    }
    r.explanation = match (&r.explanation, &env.explanation) {
        (None, Some(e)) => Some(e.clone()),
        (mine, _) => mine.clone(),
    };
    if r.facts.disks.is_empty() && !env.system.disks.is_empty() {
        let benchmarks = r.facts.benchmarks.clone();
        r.facts = env.system;
        r.facts.benchmarks = benchmarks;
        r.findings = env.findings;
        checks::rank(&mut r.findings);
        r.exit_status = checks::exit_code(&r.findings);
        r.messages.push(Message::warning(format!(
            "this diskdoc ({}) derives no disk from the embedded evidence; facts and \
                     findings are shown as diskdoc {} wrote them",
            env!("CARGO_PKG_VERSION"),
            env.diskdoc_version
        )));
    }
    r
}

/// Read pasted text through `explain` again (the replay of an `explain` report).
fn explain_again(pasted: &[Pasted], argv: Vec<String>) -> Option<Report> {
    let inputs: Vec<crate::explain::Input> = pasted
        .iter()
        .map(|p| crate::explain::Input {
            label: p.label.clone(),
            bytes: p.text.clone().into_bytes(),
        })
        .collect();
    let ex = crate::explain::explain(&inputs).ok()?;
    Some(Report::from_explanation(ex, pasted.to_vec(), argv))
}

#[cfg(test)]
mod tests;
