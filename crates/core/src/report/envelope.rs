//! The JSON report envelope (docs/report-format.md): smartctl-style header fields
//! (`schema_version`, `diskdoc_version`, `argv`, `platform`, `messages`, `exit_status`), then
//! the facts, the findings, the benchmark results with unit-suffixed keys and interpreted
//! `_string` values beside the raw ones (the smartctl `interface_speed` pattern, fio's unit
//! suffixes), and the whole evidence bundle so the report replays anywhere.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::checks::Finding;
use crate::evidence::{BenchError, BenchResult, LatencySummary, StopReason, TestName};
use crate::evidence::{EvidenceBundle, Platform};
use crate::facts::SystemFacts;
use crate::report::{Message, Pasted, REPORT_SCHEMA_VERSION, Report, ReportKind};
use crate::units;

/// The top-level JSON object of a diskdoc report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Envelope {
    /// Version of this envelope; see [`REPORT_SCHEMA_VERSION`].
    pub schema_version: u32,
    /// Which command wrote the report (schema 2; schema 1 reports were the wizard's and
    /// load as `wizard`).
    #[serde(default = "ReportKind::legacy")]
    pub kind: ReportKind,
    /// How the findings were derived when that is not `kind`'s own rule: a `replay` or a
    /// `compare` carries the kind of the report it re-derived (`check`, `wizard`, ...), so a
    /// replay of it derives the same way again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub derived_as: Option<ReportKind>,
    /// The disks the report covers (`--device`, the wizard's chosen disk); empty = every
    /// disk of the evidence. Replay shows only these.
    #[serde(default)]
    pub scope: Vec<String>,
    /// What the user said feels slow (the wizard's first question).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub symptom: Option<String>,
    /// Text the user pasted (the wizard's paste prompt, `explain`'s inputs), redacted like
    /// the rest; replay reads it through the same parsers again.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pasted: Vec<Pasted>,
    /// The diskdoc that wrote the report.
    pub diskdoc_version: String,
    /// Command line of the run.
    pub argv: Vec<String>,
    pub platform: Platform,
    pub messages: Vec<Message>,
    /// 0: no finding at warning or above; 1: such findings; 2 never appears in a report.
    pub exit_status: i32,
    /// Whether serials, WWNs, host names, user names and MACs were replaced by tokens.
    pub redacted: bool,
    /// The facts as the writing diskdoc derived them (`system.benchmarks` is always empty:
    /// the results are in `benchmarks` and `evidence.benchmarks`).
    pub system: SystemFacts,
    /// Ranked findings, problems first.
    pub findings: Vec<Finding>,
    /// Read/write test results in interpreted form (the raw ones are in `evidence`).
    pub benchmarks: Vec<BenchmarkJson>,
    /// The evidence bundle (docs/evidence-format.md); `diskdoc replay` reads this.
    pub evidence: EvidenceBundle,
    /// `kind: explain`: what was recognised in the pasted text, what was ignored, the
    /// commands to ask for next (the explanation without its facts, findings and bundle).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "explanation_listing")]
    pub explanation: Option<serde_json::Value>,
    /// `kind: compare`: the comparison of `before` with this report.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "comparison_schema")]
    pub comparison: Option<serde_json::Value>,
    /// `kind: compare`: the earlier report, whole (this envelope is the later one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<Box<Envelope>>,
    /// `kind: summarize`: the table, one row per host, as this diskdoc derived it from
    /// `members` (a replay derives it again).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "summary_schema")]
    pub summary: Option<serde_json::Value>,
    /// `kind: summarize`: the reports summarised, each whole, with the file it was read from.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub members: Vec<MemberJson>,
}

/// One report of a summary.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MemberJson {
    /// The file it was read from (its name, redacted like the rest).
    pub file: String,
    pub report: Envelope,
}

/// One read/write test in the report: raw numbers with unit suffixes and their human forms.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BenchmarkJson {
    pub test: TestName,
    pub label: String,
    pub target: String,
    pub disk: String,
    pub block_size_bytes: u64,
    pub block_size_string: String,
    pub queue_depth: u32,
    /// Threads, each with `queue_depth` in flight (fio's numjobs). Schema 2 reports have
    /// none and ran one thread.
    #[serde(default = "one_thread")]
    pub threads: u32,
    pub direct: bool,
    /// What answered the I/O instead of the disk, when diskdoc knows it ("ARC (RAM)",
    /// "RAM (sync=disabled)"); absent: the disk, or not known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answered_by: Option<String>,
    pub offset_bytes: u64,
    pub bytes: u64,
    pub ios: u64,
    pub elapsed_ns: u64,
    pub elapsed_string: String,
    /// Bytes per second; `null` when not finite.
    pub bytes_per_sec: Option<f64>,
    /// e.g. "183.0 MB/s" (decimal megabytes).
    pub bytes_per_sec_string: String,
    pub iops: Option<f64>,
    pub latency: Option<LatencyJson>,
    pub spread_pct: Option<f64>,
    /// Half-width of the 95 % confidence interval of the rate, % of it (absent in reports
    /// written before it was recorded, and for results of fewer than three intervals).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ci95_pct: Option<f64>,
    pub stop_reason: StopReason,
    pub error: Option<BenchError>,
    pub notes: Vec<String>,
}

/// Latency percentiles: nanoseconds and their human forms.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LatencyJson {
    pub min_ns: u64,
    pub mean_ns: u64,
    pub p50_ns: u64,
    pub p90_ns: u64,
    pub p99_ns: u64,
    pub p999_ns: u64,
    pub max_ns: u64,
    pub min_string: String,
    pub mean_string: String,
    pub p50_string: String,
    pub p90_string: String,
    pub p99_string: String,
    pub p999_string: String,
    pub max_string: String,
}

fn one_thread() -> u32 {
    1
}

fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

impl LatencyJson {
    fn from_summary(l: &LatencySummary) -> LatencyJson {
        let s = units::duration_ns;
        LatencyJson {
            min_ns: l.min_ns,
            mean_ns: l.mean_ns,
            p50_ns: l.p50_ns,
            p90_ns: l.p90_ns,
            p99_ns: l.p99_ns,
            p999_ns: l.p999_ns,
            max_ns: l.max_ns,
            min_string: s(l.min_ns),
            mean_string: s(l.mean_ns),
            p50_string: s(l.p50_ns),
            p90_string: s(l.p90_ns),
            p99_string: s(l.p99_ns),
            p999_string: s(l.p999_ns),
            max_string: s(l.max_ns),
        }
    }
}

impl BenchmarkJson {
    fn from_result(r: &BenchResult) -> BenchmarkJson {
        BenchmarkJson {
            test: r.test.clone(),
            label: r.label.clone(),
            target: r.target.clone(),
            disk: r.disk.clone(),
            block_size_bytes: r.block_size_bytes,
            block_size_string: units::block_size(r.block_size_bytes),
            queue_depth: r.queue_depth,
            threads: r.threads.max(1),
            direct: r.direct,
            answered_by: r.answered_by.clone(),
            offset_bytes: r.offset_bytes,
            bytes: r.bytes,
            ios: r.ios,
            elapsed_ns: r.elapsed_ns,
            elapsed_string: units::duration_ns(r.elapsed_ns),
            bytes_per_sec: finite(r.bytes_per_sec),
            bytes_per_sec_string: units::mb_per_sec(r.bytes_per_sec),
            iops: finite(r.iops),
            latency: r.latency.as_ref().map(LatencyJson::from_summary),
            spread_pct: r.spread_pct.and_then(finite),
            ci95_pct: r.ci95_pct.and_then(finite),
            stop_reason: r.stop_reason.clone(),
            error: r.error.clone(),
            notes: r.notes.clone(),
        }
    }
}

impl Envelope {
    pub(crate) fn from_report(r: &Report) -> Envelope {
        Envelope {
            schema_version: REPORT_SCHEMA_VERSION,
            kind: r.kind,
            derived_as: r.derived_as,
            scope: r.scope.clone(),
            symptom: r.symptom.clone(),
            pasted: r.pasted.clone(),
            diskdoc_version: env!("CARGO_PKG_VERSION").to_string(),
            argv: r.argv.clone(),
            platform: r.facts.platform,
            messages: r.messages.clone(),
            exit_status: r.exit_status,
            redacted: r.redacted,
            system: SystemFacts {
                // Kept once, in `benchmarks` (interpreted) and `evidence` (raw).
                benchmarks: Vec::new(),
                ..r.facts.clone()
            },
            findings: r.findings.clone(),
            benchmarks: r
                .facts
                .benchmarks
                .iter()
                .map(BenchmarkJson::from_result)
                .collect(),
            evidence: r.bundle.clone(),
            explanation: r.explanation.clone(),
            comparison: r.comparison.clone(),
            before: r
                .before
                .as_ref()
                .map(|b| Box::new(Envelope::from_report(b))),
            summary: r.summary().and_then(|s| serde_json::to_value(s).ok()),
            members: r
                .members
                .iter()
                .map(|m| MemberJson {
                    file: m.file.clone(),
                    report: Envelope::from_report(&m.report),
                })
                .collect(),
        }
    }
}

// The schemas of two envelope fields held as JSON values (schemars' `schema_with`): here,
// beside the fields, so that report::schema imports the envelope and not the reverse.

/// `explanation` (kind `explain`): the explanation without its facts, findings and bundle,
/// which [`crate::report::Report::from_explanation`] removes because the envelope holds
/// them once in its own fields.
fn explanation_listing(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
    let mut schema = crate::explain::Explanation::json_schema(generator);
    for key in ["facts", "bundle", "findings"] {
        if let Some(props) = schema
            .get_mut("properties")
            .and_then(serde_json::Value::as_object_mut)
        {
            props.remove(key);
        }
        if let Some(req) = schema
            .get_mut("required")
            .and_then(serde_json::Value::as_array_mut)
        {
            req.retain(|v| v.as_str() != Some(key));
        }
    }
    schema
}

/// `comparison` (kind `compare`): a [`Comparison`].
fn comparison_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
    generator.subschema_for::<crate::report::compare::Comparison>()
}

/// `summary` (kind `summarize`): a [`Summary`](crate::report::summarize::Summary).
fn summary_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
    generator.subschema_for::<crate::report::summarize::Summary>()
}

#[cfg(test)]
mod tests;
