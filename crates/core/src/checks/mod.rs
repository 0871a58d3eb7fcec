//! Checks: pure functions from facts to findings, one file per check, registered in [`CHECKS`].
//!
//! A check returns one finding per device it looked at: a problem, a pass ("AHCI, native
//! mode: good") or an unknown ("unknown, because the tool is not installed; install
//! smartmontools"). Only problems are ranked in the answer; passes and unknowns feed the
//! wizard's step-by-step view and the report.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::evidence::Platform;
use crate::facts::SystemFacts;

pub(crate) mod array_rebuilding;
pub(crate) mod benchmark_buffered_device;
pub(crate) mod benchmark_page_cache;
pub(crate) mod benchmark_random_source;
pub(crate) mod benchmark_small_blocks;
pub(crate) mod benchmark_zero_source;
pub(crate) mod common;
pub(crate) mod controller_legacy_mode;
pub(crate) mod disk_busy;
pub mod effect;
pub(crate) mod encryption_layer;
pub(crate) mod io_scheduler;
pub(crate) mod link_errors;
pub(crate) mod media_errors;
pub(crate) mod ncq_unavailable;
pub(crate) mod nvme_health;
pub(crate) mod partition_misaligned;
pub(crate) mod partition_table_limit;
pub(crate) mod pasted_common;
#[cfg(test)]
pub(crate) mod pasted_tests;
pub(crate) mod pcie_link_limited;
pub(crate) mod power_management;
#[cfg(test)]
mod registry_tests;
pub(crate) mod sata_link_below_max;
pub(crate) mod smr_drive;
#[cfg(test)]
pub(crate) mod testutil;
#[cfg(test)]
pub(crate) mod testutil_nvme;
pub(crate) mod thermal_throttling;
pub(crate) mod trim_unavailable;
pub(crate) mod virtual_or_bridged_device;
pub(crate) mod write_cache_disabled;
pub(crate) mod zfs_ashift_too_small;

/// How bad a finding is.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, Hash, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    Info,
    Notice,
    Warning,
    Critical,
}

impl Severity {
    pub fn label(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Notice => "notice",
            Severity::Warning => "warning",
            Severity::Critical => "critical",
        }
    }
}

/// What the check concluded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Hash, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Looked, and this is fine.
    Pass,
    /// Looked, and this is (or may be) slowing the disk.
    Problem,
    /// Could not tell; `explanation` says why and what would make it known.
    Unknown,
    /// Does not apply to this device (an NVMe has no SATA link).
    NotApplicable,
}

/// How sure diskdoc is.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, Hash, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Confidence {
    /// Inferred from indirect signs.
    Low,
    /// Read from the device or OS configuration.
    Medium,
    /// Backed by a measurement.
    High,
}

impl Confidence {
    /// How sure, in words, and on what the finding rests (the wizard's answer says it
    /// after each cause).
    pub fn words(self) -> &'static str {
        match self {
            Confidence::High => "sure: measured",
            Confidence::Medium => "fairly sure: read from the device/OS",
            Confidence::Low => "a guess from indirect signs",
        }
    }
}

/// One piece of evidence a finding used.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct EvidenceRef {
    /// Capture key (docs/evidence-format.md) or "benchmark:<test>".
    pub source: String,
    /// What was read there, as it read.
    pub value: String,
}

/// A concrete fix for one platform.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Fix {
    pub platform: Platform,
    /// One line: what the fix does.
    pub summary: String,
    /// Commands or steps, in order.
    pub steps: Vec<String>,
    /// What can go wrong.
    pub risk: String,
}

/// What a check says about one device.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Finding {
    /// Stable kebab-case check id (`write-cache-disabled`).
    pub check: String,
    /// Device name (`sda`, `ada0`) or "system".
    pub device: String,
    pub verdict: Verdict,
    pub severity: Severity,
    pub confidence: Confidence,
    /// One line.
    pub title: String,
    /// Plain words: what it is, why it slows the disk, roughly by how much, and the number.
    pub explanation: String,
    pub evidence: Vec<EvidenceRef>,
    pub fixes: Vec<Fix>,
    /// Rough share of throughput this explains (0..1), used for ranking; None when unknown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub impact: Option<f64>,
    /// What the fix should bring (checks/effect.rs), when a model supports a range.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_effect: Option<effect::ExpectedEffect>,
    /// Why a problem finding with a fix carries no `expected_effect`: the fact its model needs
    /// that the run lacks, or that no model with a source covers the fix (checks/effect.rs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_effect_unknown: Option<String>,
}

impl Finding {
    /// A finding skeleton; fill in the rest with struct update syntax or setters.
    pub fn new(
        check: &str,
        device: &str,
        verdict: Verdict,
        severity: Severity,
        title: impl Into<String>,
    ) -> Finding {
        Finding {
            check: check.to_string(),
            device: device.to_string(),
            verdict,
            severity,
            confidence: Confidence::Medium,
            title: title.into(),
            explanation: String::new(),
            evidence: Vec::new(),
            fixes: Vec::new(),
            impact: None,
            expected_effect: None,
            expected_effect_unknown: None,
        }
    }
    pub fn explain(mut self, text: impl Into<String>) -> Finding {
        self.explanation = text.into();
        self
    }
    pub fn evidence(mut self, source: impl Into<String>, value: impl Into<String>) -> Finding {
        self.evidence.push(EvidenceRef {
            source: source.into(),
            value: value.into(),
        });
        self
    }
    pub fn fix(mut self, fix: Fix) -> Finding {
        self.fixes.push(fix);
        self
    }
    pub fn confidence(mut self, c: Confidence) -> Finding {
        self.confidence = c;
        self
    }
    pub fn impact(mut self, share: f64) -> Finding {
        self.impact = Some(share);
        self
    }
    pub fn is_problem(&self) -> bool {
        self.verdict == Verdict::Problem
    }
}

/// What a check reads, which decides where its findings are shown (`diskdoc bench` shows
/// only the [`CheckInput::Measured`] ones).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckInput {
    /// The configuration facts of a disk (controller, link, cache, layout).
    Config,
    /// diskdoc's own read/write test results (`SystemFacts::benchmarks`).
    Measured,
    /// Benchmarks a person ran and pasted (`SystemFacts::user_benchmarks`).
    Pasted,
}

/// A check: an id, a one-line description for `--list-checks`, and the pure function.
pub trait Check: Sync {
    fn id(&self) -> &'static str;
    /// A short name for people ("Write cache"), the wizard's verdict lines; the id when the
    /// check has none.
    fn label(&self) -> &'static str {
        self.id()
    }
    /// One line for `diskdoc --list-checks` and the README table.
    fn summary(&self) -> &'static str;
    fn run(&self, sys: &SystemFacts) -> Vec<Finding>;
    /// What the check reads; configuration checks need not say.
    fn input(&self) -> CheckInput {
        CheckInput::Config
    }
}

pub(crate) mod below_expected_for_class;
pub(crate) mod cache_answered;
pub(crate) mod encryption_bound;
pub(crate) mod latency_outliers;
pub(crate) mod link_ceiling_reached;
pub mod measured_common;
pub(crate) mod read_errors;
pub(crate) mod small_block_overhead;
pub(crate) mod write_much_slower_than_read;

/// Every check, in the order the wizard shows them.
pub static CHECKS: &[&dyn Check] = &[
    &controller_legacy_mode::ControllerLegacyMode,
    &sata_link_below_max::SataLinkBelowMax,
    &write_cache_disabled::WriteCacheDisabled,
    &ncq_unavailable::NcqUnavailable,
    &io_scheduler::IoScheduler,
    &partition_misaligned::PartitionMisaligned,
    &partition_table_limit::PartitionTableLimit,
    &zfs_ashift_too_small::ZfsAshiftTooSmall,
    &encryption_layer::EncryptionLayer,
    &media_errors::MediaErrors,
    &link_errors::LinkErrors,
    &virtual_or_bridged_device::VirtualOrBridgedDevice,
    &benchmark_page_cache::PageCache,
    &benchmark_small_blocks::SmallBlocks,
    &benchmark_zero_source::ZeroSource,
    &benchmark_buffered_device::BufferedDevice,
    &benchmark_random_source::RandomSource,
    &read_errors::ReadErrors,
    &cache_answered::CacheAnswered,
    &link_ceiling_reached::LinkCeilingReached,
    &below_expected_for_class::BelowExpectedForClass,
    &small_block_overhead::SmallBlockOverhead,
    &write_much_slower_than_read::WriteMuchSlowerThanRead,
    &latency_outliers::LatencyOutliers,
    &encryption_bound::EncryptionBound,
    // The causes of slowness on today's hardware.
    &pcie_link_limited::PcieLinkLimited,
    &nvme_health::NvmeHealthCheck,
    &array_rebuilding::ArrayRebuilding,
    &smr_drive::SmrDrive,
    &trim_unavailable::TrimUnavailable,
    &disk_busy::DiskBusy,
    &thermal_throttling::ThermalThrottling,
    &power_management::PowerManagement,
];

/// The README's check table, generated from [`CHECKS`] (a test keeps README.md in sync).
#[cfg(test)]
pub(crate) fn markdown_table() -> String {
    let mut s = String::from("| check | what it looks for |\n|---|---|\n");
    for c in CHECKS {
        s.push_str(&format!(
            "| `{}` | {} |\n",
            c.id(),
            c.summary().replace('|', "\\|")
        ));
    }
    s
}

/// The check of an id, if this diskdoc has it.
pub(crate) fn by_id(id: &str) -> Option<&'static dyn Check> {
    CHECKS.iter().copied().find(|c| c.id() == id)
}

/// The label people read for a check id ([`Check::label`]), or the id itself for an id this
/// diskdoc does not know (a report written by another version).
pub fn label_of(id: &str) -> &str {
    by_id(id).map_or(id, |c| c.label())
}

/// The checks that read `SystemFacts::benchmarks` (shown after `diskdoc bench`).
pub fn measured_checks() -> impl Iterator<Item = &'static dyn Check> {
    CHECKS
        .iter()
        .copied()
        .filter(|c| c.input() == CheckInput::Measured)
}

/// Run every check and rank: problems first by severity, then confidence, then impact.
pub fn run_all(sys: &SystemFacts) -> Vec<Finding> {
    let mut out: Vec<Finding> = CHECKS.iter().flat_map(|c| c.run(sys)).collect();
    effect::annotate(sys, &mut out);
    rank(&mut out);
    out
}

/// Sort findings for presentation.
pub fn rank(findings: &mut [Finding]) {
    findings.sort_by(|a, b| {
        b.is_problem()
            .cmp(&a.is_problem())
            .then(b.severity.cmp(&a.severity))
            .then(b.confidence.cmp(&a.confidence))
            .then(
                b.impact
                    .unwrap_or(0.0)
                    .partial_cmp(&a.impact.unwrap_or(0.0))
                    .unwrap_or(std::cmp::Ordering::Equal),
            )
    });
}

/// Exit status for a set of findings: 1 when a problem is at warning or above, else 0.
pub fn exit_code(findings: &[Finding]) -> i32 {
    if findings
        .iter()
        .any(|f| f.is_problem() && f.severity >= Severity::Warning)
    {
        1
    } else {
        0
    }
}
