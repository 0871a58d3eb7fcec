//! Reports: text (mailing-list safe), Markdown and versioned JSON, redacted by default.
//!
//! A [`Report`] is everything one run of diskdoc learned: the evidence bundle, the facts derived
//! from it, the ranked findings, plus the envelope (argv, messages, exit status). The
//! renderers (`text`, `markdown`, `json`) are pure functions of a `Report`; redaction
//! ([`redact`]) produces a new `Report` whose every string went through one consistent
//! token map, so all three formats share the same tokens. The JSON schema is documented in
//! docs/report-format.md and pinned by tests/it/report.rs.

use std::path::{Path, PathBuf};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::checks::{self, Finding};
use crate::evidence::{BenchResult, EvidenceBundle};
use crate::facts::{self, SystemFacts, UserBenchmark};

pub mod chart;
pub mod compare;
pub(crate) mod envelope;
#[cfg(feature = "html")]
pub mod html;
pub mod json;
pub mod load;
pub mod markdown;
pub mod prometheus;
pub mod redact;
pub mod schema;
pub(crate) mod summarize;
#[cfg(feature = "html")]
pub(crate) mod svg;
pub mod text;
pub mod view;

pub use load::{LoadError, Loaded, load, report_from_loaded};

/// Version of the JSON report envelope (docs/report-format.md). Bumped when a field changes
/// meaning or is removed; adding a field is also a bump because readers deny unknown fields.
/// Version 2 added `kind`, `derived_as`, `scope`, `symptom`, `pasted`, `explanation`,
/// `comparison` and `before`; version 1 reports still load (as `kind: wizard`). Version 3
/// added `threads` to each benchmark (version 2 reports load with 1). Version 4 files a
/// disk's facts by topic (`pcie`, `nvme_health`, `zoned`, `trim`, `power`, `busy`,
/// `temp_samples_c`) instead of in one `modern` object; older reports are rewritten on load.
pub const REPORT_SCHEMA_VERSION: u32 = 4;

/// Which command wrote a report: every JSON output of diskdoc is the one envelope, and
/// `kind` says whose it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ReportKind {
    /// `diskdoc scan`: facts only, no findings.
    Scan,
    /// `diskdoc check`: every configuration check.
    Check,
    /// `diskdoc bench`: the read/write tests and the checks that judge measurements.
    Bench,
    /// The guided wizard: one disk, the user's symptom and pasted numbers.
    Wizard,
    /// `diskdoc explain`: pasted tool outputs.
    Explain,
    /// `diskdoc compare`: this report against `before`.
    Compare,
    /// `diskdoc replay`: a report re-derived by this diskdoc.
    Replay,
    /// `diskdoc summarize`: many reports in one table, one row per host (`members`).
    Summarize,
}

impl ReportKind {
    /// The kind schema-1 reports load as: only the wizard (and `replay --format json`, which
    /// re-derived a wizard report or a bundle) wrote the envelope then.
    pub fn legacy() -> ReportKind {
        ReportKind::Wizard
    }
    /// The stable string of the schema.
    pub fn as_str(self) -> &'static str {
        match self {
            ReportKind::Scan => "scan",
            ReportKind::Check => "check",
            ReportKind::Bench => "bench",
            ReportKind::Wizard => "wizard",
            ReportKind::Explain => "explain",
            ReportKind::Compare => "compare",
            ReportKind::Replay => "replay",
            ReportKind::Summarize => "summarize",
        }
    }
}

/// Text a person pasted into diskdoc, kept so a replay reads it again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Pasted {
    /// Where it came from: a file name, "stdin", "wizard paste".
    pub label: String,
    pub text: String,
}

/// How loud a report message is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MessageSeverity {
    Information,
    Warning,
    Error,
}

/// A note about the run itself (not about the disk): "tests were skipped", "not root".
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
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
    /// Whether secrets were replaced by tokens (set by `redact::apply_report`).
    pub redacted: bool,
    /// Which command made the report.
    pub kind: ReportKind,
    /// How the findings were derived when that differs from `kind` (a replay or a compare
    /// carries the rule of the report it re-derived); see [`Report::derivation`].
    pub derived_as: Option<ReportKind>,
    /// The disks the report covers; empty = all disks of the evidence.
    pub scope: Vec<String>,
    /// What the user said feels slow.
    pub symptom: Option<String>,
    /// Text the user pasted.
    pub pasted: Vec<Pasted>,
    /// `explain`: the recognised/ignored listing (JSON of the explanation).
    pub explanation: Option<serde_json::Value>,
    /// `compare`: the comparison (JSON of [`compare::Comparison`]).
    pub comparison: Option<serde_json::Value>,
    /// `compare`: the earlier report.
    pub before: Option<Box<Report>>,
    /// `summarize`: the reports summarised, each with the file it came from.
    pub members: Vec<Member>,
}

/// One report of a `summarize`: the file it was read from, and the report re-derived.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    pub file: String,
    pub report: Report,
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
            kind: ReportKind::Check,
            derived_as: None,
            scope: Vec::new(),
            symptom: None,
            pasted: Vec::new(),
            explanation: None,
            comparison: None,
            before: None,
            members: Vec::new(),
        }
    }

    /// Derive facts and findings from a bundle with this diskdoc (the replay path of a bare
    /// evidence bundle: every check, every disk).
    pub fn from_bundle(bundle: EvidenceBundle, argv: Vec<String>) -> Report {
        Report::derive(ReportKind::Check, bundle, Vec::new(), Vec::new(), argv)
    }

    /// The one derivation every command and every replay uses, so a replay gives the same
    /// findings and exit status as the run that wrote the report: facts from the bundle (plus
    /// the benchmarks the user pasted), only the disks in `scope` (all when empty), and the
    /// checks `kind` runs (see [`derive_findings`], [`exit_status`]).
    pub fn derive(
        kind: ReportKind,
        bundle: EvidenceBundle,
        user_benchmarks: Vec<UserBenchmark>,
        scope: Vec<String>,
        argv: Vec<String>,
    ) -> Report {
        let facts = facts::derive(&bundle);
        Report::from_facts(kind, bundle, facts, user_benchmarks, scope, argv)
    }

    /// [`Report::derive`] with the facts the caller already derived from `bundle` (a
    /// command derives its probe's facts once and uses them for its target too).
    pub fn from_facts(
        kind: ReportKind,
        bundle: EvidenceBundle,
        mut facts: SystemFacts,
        user_benchmarks: Vec<UserBenchmark>,
        scope: Vec<String>,
        argv: Vec<String>,
    ) -> Report {
        facts.user_benchmarks = user_benchmarks;
        if !scope.is_empty() {
            facts.disks.retain(|d| scope.contains(&d.name));
        }
        let findings = derive_findings(kind, &facts, &scope);
        let mut r = Report::new(bundle, facts, findings, argv);
        r.kind = kind;
        r.scope = scope;
        r.exit_status = exit_status(kind, &r.findings, &r.bundle.benchmarks);
        r
    }

    /// The report of an explanation (`diskdoc explain`): its bundle, facts and findings,
    /// the pasted inputs (so a replay reads them again) and the listing of what was
    /// recognised.
    pub fn from_explanation(
        ex: crate::explain::Explanation,
        pasted: Vec<Pasted>,
        argv: Vec<String>,
    ) -> Report {
        let explanation = serde_json::to_value(&ex).ok().map(|mut v| {
            if let Some(o) = v.as_object_mut() {
                // Kept once, in the envelope's own fields.
                for k in ["facts", "bundle", "findings"] {
                    o.remove(k);
                }
            }
            v
        });
        let mut r = Report::new(ex.bundle, ex.facts, ex.findings, argv);
        r.kind = ReportKind::Explain;
        r.pasted = pasted;
        r.explanation = explanation;
        r
    }

    /// The report of `diskdoc compare`: the later report, with the earlier one and the
    /// comparison inside; findings and exit status are the later report's (the state the
    /// machine is in now).
    pub fn compared(
        before: Report,
        after: Report,
        before_label: &str,
        after_label: &str,
    ) -> Report {
        let c = compare::compare(&before, &after, before_label, after_label);
        let mut r = after;
        r.derived_as = Some(r.derivation());
        r.kind = ReportKind::Compare;
        r.comparison = serde_json::to_value(&c).ok();
        r.before = Some(Box::new(before));
        r
    }

    /// The report of `diskdoc summarize`: no facts or findings of its own, the reports it
    /// summarises in `members`, and `notes` on the files it skipped. Its exit status is 1
    /// when any host has a finding at warning or above, like `check`.
    pub fn summarized(members: Vec<Member>, notes: Vec<Message>, argv: Vec<String>) -> Report {
        let bundle = EvidenceBundle::new(crate::evidence::Platform::Unknown, Default::default());
        let facts = SystemFacts::empty(crate::evidence::Platform::Unknown);
        let mut r = Report::new(bundle, facts, Vec::new(), argv);
        r.kind = ReportKind::Summarize;
        r.messages = notes;
        r.members = members;
        r.exit_status = summarize::summarize(&r.members).exit_status();
        r
    }

    /// The table of a summarize report (also when replayed), re-made from its members.
    pub fn summary(&self) -> Option<summarize::Summary> {
        (self.derivation() == ReportKind::Summarize).then(|| summarize::summarize(&self.members))
    }

    /// The comparison of a compare report, re-made from its two reports (labels kept).
    pub fn comparison(&self) -> Option<compare::Comparison> {
        let before = self.before.as_ref()?;
        let label = |k: &str| {
            self.comparison
                .as_ref()
                .and_then(|v| v.get(k))
                .and_then(serde_json::Value::as_str)
                .unwrap_or(k)
                .to_string()
        };
        Some(compare::compare(
            before,
            self,
            &label("before_label"),
            &label("after_label"),
        ))
    }

    /// The rule the findings were derived by: `derived_as`, else `kind`.
    pub fn derivation(&self) -> ReportKind {
        self.derived_as.unwrap_or(self.kind)
    }

    /// The copy to share: redacted unless `redact` is false.
    pub fn shareable(&self, redact: bool) -> Report {
        self.share(redact).report
    }

    /// The copy to share with the final check its renderings must pass before they are
    /// written ([`Shared::render`]).
    pub fn share(&self, redact: bool) -> Shared {
        if redact {
            let mut red = redact::Redactor::new();
            self.collect_secrets(&mut red);
            Shared {
                report: self.redacted_with(&red),
                red: Some(red),
            }
        } else {
            Shared {
                report: self.clone(),
                red: None,
            }
        }
    }

    /// Feed every secret of the report (pasted text and the earlier report of a compare
    /// included) to one redactor, so all of it shares one token map.
    fn collect_secrets(&self, red: &mut redact::Redactor) {
        red.collect_report(self);
        for p in &self.pasted {
            red.collect_text(&p.text);
        }
        if let Some(b) = &self.before {
            b.collect_secrets(red);
        }
        for m in &self.members {
            m.report.collect_secrets(red);
        }
    }

    /// Apply a prepared redactor to the whole report, the fields [`redact::apply_report`]
    /// does not know about included.
    pub(crate) fn redacted_with(&self, red: &redact::Redactor) -> Report {
        let mut r = redact::apply_report(red, self);
        r.kind = self.kind;
        r.derived_as = self.derived_as;
        r.symptom = self.symptom.clone();
        r.scope = self.scope.iter().map(|s| red.apply(s)).collect();
        r.pasted = self
            .pasted
            .iter()
            .map(|p| Pasted {
                label: red.apply(&p.label),
                text: red.apply(&p.text),
            })
            .collect();
        // Never fall back to the unredacted value (as apply_report does for facts).
        r.explanation = self.explanation.as_ref().and_then(|v| red.apply_serde(v));
        r.comparison = self.comparison.as_ref().and_then(|v| red.apply_serde(v));
        r.before = self.before.as_ref().map(|b| Box::new(b.redacted_with(red)));
        // A fleet's files are often named after their hosts.
        r.members = self
            .members
            .iter()
            .map(|m| Member {
                file: red.apply(&m.file),
                report: m.report.redacted_with(red),
            })
            .collect();
        r
    }
}

/// A report ready to leave the machine: redacted (unless `--no-redact`), with the secrets
/// its redaction collected, so that every rendering is checked for them before it is
/// written ([`redact::Redactor::verify`]): an output that still holds one is an error,
/// never a file or a screen.
#[derive(Debug, Clone)]
pub struct Shared {
    pub report: Report,
    red: Option<redact::Redactor>,
}

impl Shared {
    /// Render the shared report with `f` and check the text: the text, or the leak that
    /// stops it.
    pub fn render(&self, f: impl FnOnce(&Report) -> String) -> Result<String, redact::Leak> {
        self.check(f(&self.report))
    }

    /// Check a text made from the shared report (unredacted outputs pass as they are).
    pub fn check(&self, out: String) -> Result<String, redact::Leak> {
        if let Some(red) = &self.red {
            red.verify(&out)?;
        }
        Ok(out)
    }
}

/// The findings a command of `kind` derives from `facts` (already limited to `scope`):
/// `scan` none, `bench` the checks that judge measurements, the wizard every check on its
/// one disk (findings about other devices dropped), every other kind every check.
pub fn derive_findings(kind: ReportKind, facts: &SystemFacts, scope: &[String]) -> Vec<Finding> {
    let mut findings: Vec<Finding> = match kind {
        ReportKind::Scan => Vec::new(),
        ReportKind::Bench => checks::measured_checks()
            .flat_map(|c| c.run(facts))
            .collect(),
        ReportKind::Wizard if !scope.is_empty() => checks::run_all(facts)
            .into_iter()
            .filter(|f| {
                scope.contains(&f.device)
                    || f.device == "system"
                    || f.verdict == checks::Verdict::Problem && f.device.is_empty()
            })
            .collect(),
        _ => checks::run_all(facts),
    };
    checks::rank(&mut findings);
    findings
}

/// The exit status a run of `kind` ends with: 0 no finding at warning or above, 1 such
/// findings, and for `bench` 2 when no test produced a result (every test failed): a total
/// failure is never 0.
pub fn exit_status(kind: ReportKind, findings: &[Finding], benchmarks: &[BenchResult]) -> i32 {
    if kind == ReportKind::Bench && bench_failed(benchmarks) {
        return 2;
    }
    checks::exit_code(findings)
}

/// True when no read/write test produced a result: none ran, or none completed a single
/// I/O (each failed at its start: EISDIR, EACCES, EROFS...). A test that measured some I/O
/// before an error (a bad sector) did produce a result.
pub fn bench_failed(benchmarks: &[BenchResult]) -> bool {
    benchmarks.iter().all(|b| b.ios == 0)
}

/// When read/write tests were run and every one failed before its first I/O (a read-only
/// scratch directory, a device even root may not open, a full filesystem): what they said,
/// for the report's headline, so such a run never reads as "no problems" (nothing was
/// measured). None when no test ran or one measured something.
pub(crate) fn tests_failed(benchmarks: &[BenchResult]) -> Option<String> {
    if benchmarks.is_empty() || !bench_failed(benchmarks) {
        return None;
    }
    let mut errors: Vec<String> = Vec::new();
    for e in benchmarks.iter().filter_map(|b| b.error.as_ref()) {
        let said = format!("{}: {}", e.kind, e.message);
        if !errors.contains(&said) {
            errors.push(said);
        }
    }
    let n = benchmarks.len();
    Some(format!(
        "{} read/write test{} failed, so nothing was measured ({})",
        if n == 1 {
            "the only".to_string()
        } else {
            format!("all {n}")
        },
        if n == 1 { "" } else { "s" },
        if errors.is_empty() {
            "no test completed an I/O".to_string()
        } else {
            errors.join("; ")
        }
    ))
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

/// `path` with `-N` before its extension (`x.txt` -> `x-2.txt`, `x` -> `x-2`); `n <= 1`
/// is `path` itself. The names a report takes when the first is in use.
pub fn numbered(path: &Path, n: u32) -> PathBuf {
    if n <= 1 {
        return path.to_path_buf();
    }
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = match path.extension() {
        Some(e) => format!("{stem}-{n}.{}", e.to_string_lossy()),
        None => format!("{stem}-{n}"),
    };
    path.with_file_name(name)
}

/// Write the text report to PATH and the JSON report next to it (see [`report_paths`]),
/// redacted unless `redact` is false. For the wizard's `--report PATH`.
///
/// Never overwrites: both files are created new, and when a name is in use the pair takes
/// the next free number ([`numbered`]: `disk-2.txt` + `disk-2.json`). Refuses to write
/// over anything that is not a regular file, so a mistyped `--report /dev/sda` can never
/// touch a device.
pub fn write_reports(path: &Path, report: &Report, redact: bool) -> std::io::Result<Written> {
    let base = report_paths(path);
    for p in [&base.text, &base.json] {
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
    // Both texts pass the final check before either file is made.
    let shared = report.share(redact);
    let leak = |e: redact::Leak| std::io::Error::new(std::io::ErrorKind::InvalidData, e);
    let text_out = shared.render(text::render).map_err(leak)?;
    let json_out = shared.render(json::render).map_err(leak)?;
    let create = |p: &Path, body: &str| -> std::io::Result<()> {
        use std::io::Write;
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(p)?;
        f.write_all(body.as_bytes())
    };
    for n in 1..1000 {
        let out = Written {
            text: numbered(&base.text, n),
            json: numbered(&base.json, n),
        };
        if out.text.exists() || out.json.exists() {
            continue;
        }
        match create(&out.text, &text_out) {
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            r => r?,
        }
        create(&out.json, &json_out)?;
        return Ok(out);
    }
    Err(std::io::Error::new(
        std::io::ErrorKind::AlreadyExists,
        format!("{} and 998 numbered names are in use", base.text.display()),
    ))
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
) -> Result<(String, String), redact::Leak> {
    let mut facts = facts.clone();
    facts.benchmarks = bundle
        .benchmarks
        .iter()
        .cloned()
        .map(BenchResult::finite)
        .collect();
    let r = Report::new(bundle.clone(), facts, findings.to_vec(), current_argv());
    let shared = r.share(redact);
    Ok((shared.render(text::render)?, shared.render(json::render)?))
}

/// The command line of this process, for the envelope's `argv`.
pub fn current_argv() -> Vec<String> {
    std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect()
}
