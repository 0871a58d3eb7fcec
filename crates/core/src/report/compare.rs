//! Before/after comparison of two reports ("did the BIOS change help?"): what changed in the
//! configuration (controller mode, link speed, cache, NCQ, alignment), which findings
//! appeared or were resolved, and the measured difference per test.
//!
//! Disks are matched by name; when exactly one disk on each side is left over they are paired
//! as a rename, because switching a FreeBSD controller from legacy IDE to AHCI renames ad4 to
//! ada0 (ata(4) vs ada(4)). Results are matched by disk, test and label, then by test and
//! label alone for the renamed disk.
//!
//! The before report's expected effects (checks/effect.rs) are checked against the after
//! report's figure of the same rate on the same disk: "predicted 58-84 MB/s, measured 76: as
//! predicted", or below the prediction with what to look at next.

use schemars::JsonSchema;
use serde::Serialize;

use crate::checks::{Finding, Verdict};
use crate::evidence::{BenchResult, TestName};
use crate::facts::{DiskFacts, Fact};
use crate::report::Report;
use crate::report::text::{WIDTH, finish, table, wrap};
use crate::report::view::{self, show};
use crate::units;

/// One configuration difference.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Change {
    pub disk: String,
    pub what: String,
    pub before: String,
    pub after: String,
}

/// One finding that appeared or went away.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct FindingChange {
    pub check: String,
    pub device: String,
    pub severity: String,
    pub title: String,
}

/// One test measured on both sides.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Measured {
    pub disk: String,
    pub test: TestName,
    pub label: String,
    pub before_bytes_per_sec: Option<f64>,
    pub after_bytes_per_sec: Option<f64>,
    pub delta_pct: Option<f64>,
    pub before_p99_ns: Option<u64>,
    pub after_p99_ns: Option<u64>,
    /// The two runs' measured spread added (each result's coefficient of variation of
    /// per-interval throughput, %): a change smaller than this is noise.
    pub noise_pct: Option<f64>,
    /// `|delta_pct| <= noise_pct`.
    pub within_noise: Option<bool>,
}

/// One expected effect of the before report against the after report's measurement.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct PredictionCheck {
    pub check: String,
    pub device: String,
    /// The rate predicted (checks/effect.rs `EffectMetric`, as in the report).
    pub metric: String,
    /// The predicted range, MB/s; `low` absent for a ceiling ("up to").
    pub low: Option<f64>,
    pub high: f64,
    /// The after report's figure of that rate on that disk, MB/s, when it has one.
    pub measured: Option<f64>,
    /// One line: "predicted 58-84 MB/s, measured 76: as predicted".
    pub verdict: String,
}

/// The whole comparison (also the `--json` output of `diskdoc compare`).
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Comparison {
    pub before_label: String,
    pub after_label: String,
    /// (before name, after name) of disks paired although named differently.
    pub renamed: Vec<(String, String)>,
    pub only_before: Vec<String>,
    pub only_after: Vec<String>,
    pub changes: Vec<Change>,
    /// Problems of the earlier report that the later one tested again and found passing.
    pub resolved: Vec<FindingChange>,
    /// Problems of the earlier report that the later one did not test again (no
    /// measurement, the fact unknown, the check not run): neither resolved nor still there.
    #[serde(default)]
    pub not_checked_again: Vec<FindingChange>,
    pub appeared: Vec<FindingChange>,
    pub measured: Vec<Measured>,
    /// The before report's expected effects checked against the after report.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub predictions: Vec<PredictionCheck>,
    /// Results present on one side only: "before: seq-read outer on ada0".
    pub unmatched_results: Vec<String>,
    /// Reasons the comparison may mean nothing: different machines, different disks, the
    /// "before" report newer than the "after" one.
    pub warnings: Vec<String>,
}

fn fc(f: &Finding) -> FindingChange {
    FindingChange {
        check: f.check.clone(),
        device: f.device.clone(),
        severity: f.severity.label().to_string(),
        title: f.title.clone(),
    }
}

fn bool_word(b: &bool, yes: &str, no: &str) -> String {
    if *b { yes.into() } else { no.into() }
}

/// Count partitions (and nested label entries) not starting on a 4 KiB boundary.
fn misaligned(d: &DiskFacts) -> Fact<String> {
    let phys = d.physical_sector_bytes.get().unwrap_or(512).max(4096) as u64;
    match &d.partition_table {
        Fact::Known { value, from } => {
            fn walk(ps: &[crate::facts::Partition], phys: u64, bad: &mut Vec<String>) {
                for p in ps {
                    if p.start_bytes % phys != 0 {
                        bad.push(p.name.clone());
                    }
                    walk(&p.children, phys, bad);
                }
            }
            let mut bad = Vec::new();
            walk(&value.partitions, phys, &mut bad);
            let s = if bad.is_empty() {
                "all aligned".to_string()
            } else {
                format!("misaligned: {}", bad.join(", "))
            };
            Fact::known_from(s, from.clone())
        }
        Fact::Unknown { why } => Fact::unknown(why.clone()),
    }
}

/// The facts compared, each as a printable string.
fn aspects(d: &DiskFacts) -> Vec<(&'static str, String)> {
    vec![
        (
            "controller",
            show(&d.controller, |c| {
                c.mode
                    .map(|m| view::mode_label(m).to_string())
                    .or_else(|| c.driver.clone())
                    .unwrap_or_else(|| "?".into())
            }),
        ),
        (
            "driver",
            show(&d.controller, |c| c.driver.clone().unwrap_or_default()),
        ),
        (
            "SATA link",
            show(&d.link_current_gbps, |g| format!("{g:.1} Gb/s")),
        ),
        (
            "link limit",
            show(&d.link_limit_gbps, |g| format!("{g:.1} Gb/s")),
        ),
        (
            "write cache",
            show(&d.write_cache_enabled, |b| bool_word(b, "on", "off")),
        ),
        ("NCQ", show(&d.ncq_supported, |b| bool_word(b, "yes", "no"))),
        (
            "NCQ in use",
            show(&d.ncq_active, |b| bool_word(b, "yes", "no")),
        ),
        ("queue depth", show(&d.queue_depth, |q| q.to_string())),
        ("alignment", show(&misaligned(d), |s| s.clone())),
        ("firmware", show(&d.firmware, |s| s.clone())),
        ("scheduler", show(&d.scheduler, |s| s.clone())),
        (
            "layers",
            d.layers
                .iter()
                .map(|l| l.name.clone())
                .collect::<Vec<_>>()
                .join(","),
        ),
    ]
}

/// Unknown on one side only is not a change worth a line ("unknown (not captured)" ->
/// "on" is a probe difference, not a configuration change), unless it is all we have.
fn is_unknown(s: &str) -> bool {
    s.starts_with("unknown (")
}

/// The disks of two reports, paired: by name, and when exactly one disk is left over on
/// each side, those two as a rename (ad4 -> ada0 when a controller leaves legacy IDE mode).
struct Pairing<'a> {
    pairs: Vec<(&'a DiskFacts, &'a DiskFacts)>,
    left_b: Vec<&'a DiskFacts>,
    left_a: Vec<&'a DiskFacts>,
    renamed: Vec<(String, String)>,
}

fn pair_disks<'a>(before: &'a Report, after: &'a Report) -> Pairing<'a> {
    let mut pairs: Vec<(&DiskFacts, &DiskFacts)> = Vec::new();
    let mut left_b: Vec<&DiskFacts> = Vec::new();
    for d in &before.facts.disks {
        match after.facts.disks.iter().find(|a| a.name == d.name) {
            Some(a) => pairs.push((d, a)),
            None => left_b.push(d),
        }
    }
    let mut left_a: Vec<&DiskFacts> = after
        .facts
        .disks
        .iter()
        .filter(|a| !before.facts.disks.iter().any(|d| d.name == a.name))
        .collect();
    let mut renamed = Vec::new();
    if left_b.len() == 1 && left_a.len() == 1 {
        renamed.push((left_b[0].name.clone(), left_a[0].name.clone()));
        pairs.push((left_b[0], left_a[0]));
        left_b.clear();
        left_a.clear();
    }
    Pairing {
        pairs,
        left_b,
        left_a,
        renamed,
    }
}

/// Why two reports cannot be compared: both cover disks, and no disk of one is a disk of
/// the other (no pair by name or rename, or every pair is known to be a different disk by
/// its serial, model or size). `None` when at least one disk may be the same; a pair whose
/// identity is unknown counts as the same disk (its warning stays).
pub fn no_common_disk(before: &Report, after: &Report) -> Option<String> {
    if before.facts.disks.is_empty() || after.facts.disks.is_empty() {
        return None;
    }
    let p = pair_disks(before, after);
    let serials = serials_comparable(before, after);
    if p.pairs
        .iter()
        .any(|(b, a)| different_disk(b, a, serials).is_none())
    {
        return None;
    }
    // Names only: this goes to the terminal unredacted, so no serial is quoted.
    let list = |ds: &[DiskFacts]| {
        ds.iter()
            .map(|d| d.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let why = if p.pairs.is_empty() {
        ""
    } else {
        ", and the disks paired by name or rename differ in serial, model or size"
    };
    Some(format!(
        "the two reports cover no common disk (before: {}; after: {}{why}), so every \
         difference would be between different disks",
        list(&before.facts.disks),
        list(&after.facts.disks)
    ))
}

/// Compare two reports. Labels name the files in the output.
pub fn compare(
    before: &Report,
    after: &Report,
    before_label: &str,
    after_label: &str,
) -> Comparison {
    let mut c = Comparison {
        before_label: before_label.to_string(),
        after_label: after_label.to_string(),
        renamed: Vec::new(),
        only_before: Vec::new(),
        only_after: Vec::new(),
        changes: Vec::new(),
        resolved: Vec::new(),
        not_checked_again: Vec::new(),
        appeared: Vec::new(),
        measured: Vec::new(),
        predictions: Vec::new(),
        unmatched_results: Vec::new(),
        warnings: Vec::new(),
    };
    c.warnings = machine_warnings(before, after);
    // A side whose every test failed measured nothing: said, so its missing speeds are
    // never read as a clean comparison.
    for (side, r) in [("before", before), ("after", after)] {
        if let Some(failed) = super::tests_failed(&r.bundle.benchmarks) {
            c.warnings.push(format!(
                "in the {side} report {failed}: it has no speed to compare"
            ));
        }
    }
    let Pairing {
        pairs,
        left_b,
        left_a,
        renamed,
    } = pair_disks(before, after);
    c.renamed = renamed;
    if pairs.is_empty() && !left_b.is_empty() && !left_a.is_empty() {
        c.warnings.push(format!(
            "no disk is in both reports (before: {}; after: {}): these are different disks, \
             so the findings and speeds below compare different disks",
            names(&left_b),
            names(&left_a)
        ));
    }
    let serials = serials_comparable(before, after);
    for (b, a) in &pairs {
        // A pair known to differ (serial, model, size) is a different disk whether it was
        // paired by name (two machines' sda) or as the one rename.
        if let Some(w) = different_disk(b, a, serials) {
            c.warnings.push(w);
        } else if b.name != a.name && !same_disk(b, a, serials) {
            c.warnings.push(format!(
                "{} (before) is compared with {} (after) as one renamed disk (as when a \
                 controller changes from IDE to AHCI); if they are different disks, the \
                 comparison means nothing",
                b.name, a.name
            ));
        }
    }
    c.only_before = left_b.iter().map(|d| d.name.clone()).collect();
    c.only_after = left_a.iter().map(|d| d.name.clone()).collect();
    for (b, a) in &pairs {
        for ((what, vb), (_, va)) in aspects(b).into_iter().zip(aspects(a)) {
            if vb != va && !is_unknown(&vb) && !is_unknown(&va) {
                c.changes.push(Change {
                    disk: a.name.clone(),
                    what: what.to_string(),
                    before: vb,
                    after: va,
                });
            }
        }
    }
    // Findings: problems keyed by (check, device), devices mapped through renames.
    let rename = |dev: &str| -> String {
        c.renamed
            .iter()
            .find(|(b, _)| b == dev)
            .map(|(_, a)| a.clone())
            .unwrap_or_else(|| dev.to_string())
    };
    let problems = |r: &Report| -> Vec<Finding> {
        r.findings
            .iter()
            .filter(|f| f.verdict == Verdict::Problem)
            .cloned()
            .collect()
    };
    let pb = problems(before);
    let pa = problems(after);
    for f in &pb {
        let dev = rename(&f.device);
        if pa.iter().any(|g| g.check == f.check && g.device == dev) {
            continue;
        }
        // Not resolved when the later report could not judge it again: the check said
        // unknown or not applicable there, or it reads diskdoc's own measurements and the
        // later run measured nothing on that disk (a wizard run with tests, then one with
        // --no-bench).
        let unjudged = after.findings.iter().any(|g| {
            g.check == f.check
                && g.device == dev
                && matches!(g.verdict, Verdict::Unknown | Verdict::NotApplicable)
        });
        let unmeasured = crate::checks::by_id(&f.check)
            .is_some_and(|ch| ch.input() == crate::checks::CheckInput::Measured)
            && !after
                .facts
                .benchmarks
                .iter()
                .any(|b| b.disk == dev || (dev == "system" && b.disk.is_empty()));
        if unjudged || unmeasured {
            c.not_checked_again.push(fc(f));
        } else {
            c.resolved.push(fc(f));
        }
    }
    for g in &pa {
        if !pb
            .iter()
            .any(|f| f.check == g.check && rename(&f.device) == g.device)
        {
            c.appeared.push(fc(g));
        }
    }
    // Measurements.
    let rb = &before.facts.benchmarks;
    let ra = &after.facts.benchmarks;
    let mut used_a = vec![false; ra.len()];
    let mut unmatched_b = Vec::new();
    for r in rb {
        let exact = ra.iter().enumerate().position(|(i, x)| {
            !used_a[i] && rename(&r.disk) == x.disk && x.test == r.test && x.label == r.label
        });
        let loose = exact.or_else(|| {
            ra.iter()
                .enumerate()
                .position(|(i, x)| !used_a[i] && x.test == r.test && x.label == r.label)
        });
        match loose {
            Some(i) => {
                used_a[i] = true;
                c.measured.push(measured(r, &ra[i]));
            }
            None => unmatched_b.push(r),
        }
    }
    for r in unmatched_b {
        c.unmatched_results
            .push(format!("before only: {} {} on {}", r.test, r.label, r.disk));
    }
    for (i, r) in ra.iter().enumerate() {
        if !used_a[i] {
            c.unmatched_results
                .push(format!("after only: {} {} on {}", r.test, r.label, r.disk));
        }
    }
    for f in &pb {
        let Some(e) = &f.expected_effect else {
            continue;
        };
        let dev = rename(&f.device);
        let measured = crate::checks::effect::measured_for(&after.facts, &dev, e);
        c.predictions.push(PredictionCheck {
            check: f.check.clone(),
            device: dev,
            metric: e.metric.words().to_string(),
            low: e.low,
            high: e.high,
            measured,
            verdict: prediction_verdict(e, measured),
        });
    }
    c
}

/// "predicted A-B MB/s, measured C: as predicted", or what to look at when it is not.
fn prediction_verdict(e: &crate::checks::effect::ExpectedEffect, measured: Option<f64>) -> String {
    // MB/s figures as every rate here; I/O operations per second as whole numbers.
    let num = |v: f64| {
        if e.metric.is_iops() {
            format!("{v:.0}")
        } else {
            units::mb_number(v * 1e6)
        }
    };
    let range = match e.low {
        Some(l) => format!("{}-{} {}", num(l), num(e.high), e.unit),
        None => format!("up to {} {}", num(e.high), e.unit),
    };
    let Some(m) = measured else {
        return format!(
            "predicted {} {range}, not measured after: run the same test again to check it",
            e.metric.words()
        );
    };
    let at = num(m);
    let head = format!("predicted {} {range}, measured {at}", e.metric.words());
    if e.low.is_some_and(|l| m < l * 0.999) {
        format!(
            "{head}: below the prediction: look at what else limits this disk (the findings \
             still open after the fix, another load during the test, a test that is not the \
             same as before)"
        )
    } else if m > e.high * 1.001 {
        format!("{head}: above the prediction (a cache answered, or the model's ceiling is low)")
    } else {
        format!("{head}: as predicted")
    }
}

fn names(ds: &[&DiskFacts]) -> String {
    ds.iter()
        .map(|d| d.name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// A renamed disk that is the same drive: the same serial, or the same model and size.
/// Whether serial numbers tell disks apart: not when either report is redacted, because a
/// token ("SERIAL-1") stands for a different serial in each report's token map, and a
/// redacted serial never equals the raw one.
fn serials_comparable(before: &Report, after: &Report) -> bool {
    !before.redacted && !after.redacted
}

fn same_disk(b: &DiskFacts, a: &DiskFacts, serials: bool) -> bool {
    if serials && let (Some(x), Some(y)) = (b.serial.value(), a.serial.value()) {
        return x == y;
    }
    matches!((b.model.value(), a.model.value()), (Some(x), Some(y)) if x == y)
        && b.size_bytes.get() == a.size_bytes.get()
}

/// Two disks paired by a rename that are known to differ (serial, model or size).
fn different_disk(b: &DiskFacts, a: &DiskFacts, serials: bool) -> Option<String> {
    let differs = |x: Option<String>, y: Option<String>| match (x, y) {
        (Some(x), Some(y)) if x != y => Some((x, y)),
        _ => None,
    };
    let (what, (x, y)) = [
        (
            "serial",
            differs(
                b.serial.value().filter(|_| serials).cloned(),
                a.serial.value().cloned(),
            ),
        ),
        (
            "model",
            differs(b.model.value().cloned(), a.model.value().cloned()),
        ),
        (
            "size",
            differs(
                b.size_bytes.get().map(units::bytes_si),
                a.size_bytes.get().map(units::bytes_si),
            ),
        ),
    ]
    .into_iter()
    .find_map(|(w, d)| d.map(|d| (w, d)))?;
    Some(format!(
        "{} (before) and {} (after) are different disks ({what} {x} vs {y}): the comparison \
         compares different disks",
        b.name, a.name
    ))
}

/// Warnings about the two runs themselves: other machine, other platform, wrong order.
fn machine_warnings(before: &Report, after: &Report) -> Vec<String> {
    let mut w = Vec::new();
    if before.facts.platform != after.facts.platform {
        w.push(format!(
            "the reports come from different platforms ({:?} vs {:?})",
            before.facts.platform, after.facts.platform
        ));
    }
    if let (Some(hb), Some(ha)) = (before.facts.hostname.value(), after.facts.hostname.value())
        && hb != ha
    {
        w.push(format!(
            "the reports come from different machines ({hb} vs {ha}): differences may be \
             the machines, not a change"
        ));
    }
    let (tb, ta) = (
        before.bundle.captured_at_unix,
        after.bundle.captured_at_unix,
    );
    if tb > 0 && ta > 0 && tb > ta {
        w.push(format!(
            "the \"before\" report ({}) is newer than the \"after\" one ({}): are they the \
             right way round?",
            view::utc(tb),
            view::utc(ta)
        ));
    }
    w
}

fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

fn measured(b: &BenchResult, a: &BenchResult) -> Measured {
    let delta_pct = units::delta_pct(b.bytes_per_sec, a.bytes_per_sec);
    let noise_pct = match (b.spread_pct.and_then(finite), a.spread_pct.and_then(finite)) {
        (Some(x), Some(y)) => Some(x + y),
        _ => None,
    };
    let within_noise = match (delta_pct, noise_pct) {
        (Some(d), Some(n)) => Some(d.abs() <= n),
        _ => None,
    };
    Measured {
        noise_pct,
        within_noise,
        disk: a.disk.clone(),
        test: a.test.clone(),
        label: a.label.clone(),
        before_bytes_per_sec: finite(b.bytes_per_sec),
        after_bytes_per_sec: finite(a.bytes_per_sec),
        delta_pct,
        before_p99_ns: b.latency.as_ref().map(|l| l.p99_ns),
        after_p99_ns: a.latency.as_ref().map(|l| l.p99_ns),
    }
}

/// One line for the top: counts, and the median change over the tests run on both sides.
pub fn summary(c: &Comparison) -> String {
    let mut deltas: Vec<f64> = c.measured.iter().filter_map(|m| m.delta_pct).collect();
    deltas.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    let median = match deltas.len() {
        0 => None,
        n if n % 2 == 1 => deltas.get(n / 2).copied(),
        n => match (deltas.get(n / 2 - 1), deltas.get(n / 2)) {
            (Some(a), Some(b)) => Some((a + b) / 2.0),
            _ => None,
        },
    };
    let plural = |n: usize, one: &str, many: &str| {
        if n == 1 {
            format!("{n} {one}")
        } else {
            format!("{n} {many}")
        }
    };
    let mut s = format!(
        "Summary: {}, {} resolved, {} appeared, {} compared",
        plural(
            c.changes.len(),
            "configuration change",
            "configuration changes"
        ),
        plural(c.resolved.len(), "finding", "findings"),
        c.appeared.len(),
        plural(c.measured.len(), "test", "tests"),
    );
    if !c.not_checked_again.is_empty() {
        s.push_str(&format!(
            ", {} not checked again",
            plural(c.not_checked_again.len(), "finding", "findings")
        ));
    }
    if let Some(m) = median {
        s.push_str(&format!(" (median change {})", units::pct(Some(m))));
    }
    let noise = c
        .measured
        .iter()
        .filter(|m| m.within_noise == Some(true))
        .count();
    if noise > 0 {
        s.push_str(&format!(", {noise} of them within noise"));
    }
    s.push('.');
    s
}

fn heading(lines: &mut Vec<String>, t: &str) {
    lines.push(String::new());
    lines.push(t.to_string());
    lines.push("-".repeat(t.len()));
}

/// The comparison as plain text (same rules as the text report: ASCII, 72 columns).
/// Markdown of a comparison: a heading and the text form in a fence (its tables are
/// column-aligned text).
pub fn render_markdown(c: &Comparison) -> String {
    format!("## diskdoc compare\n\n```text\n{}```\n", render_text(c))
}

pub fn render_text(c: &Comparison) -> String {
    let mut lines = vec!["diskdoc compare".to_string(), "===============".to_string()];
    lines.extend(wrap(&c.before_label, "Before: ", 8, WIDTH));
    lines.extend(wrap(&c.after_label, "After:  ", 8, WIDTH));
    lines.extend(wrap(&summary(c), "", 0, WIDTH));
    for w in &c.warnings {
        lines.extend(wrap(w, "WARNING: ", 9, WIDTH));
    }

    heading(&mut lines, "What changed");
    for (b, a) in &c.renamed {
        lines.extend(wrap(
            &format!("{b} is now {a} (compared as the same disk)"),
            "  ",
            2,
            WIDTH,
        ));
    }
    for d in &c.only_before {
        lines.push(format!("  {d}: only in before"));
    }
    for d in &c.only_after {
        lines.push(format!("  {d}: only in after"));
    }
    if c.changes.is_empty() {
        lines.push("  No change in controller, link, cache, NCQ or alignment.".into());
    } else {
        lines.push(String::new());
        let rows: Vec<Vec<String>> = c
            .changes
            .iter()
            .map(|x| {
                vec![
                    x.disk.clone(),
                    x.what.clone(),
                    x.before.clone(),
                    x.after.clone(),
                ]
            })
            .collect();
        let headers: Vec<String> = ["disk", "what", "before", "after"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        lines.extend(table(&headers, &rows, 2, WIDTH));
    }

    heading(&mut lines, "Findings");
    if c.resolved.is_empty() && c.appeared.is_empty() && c.not_checked_again.is_empty() {
        lines.push("  No finding appeared or was resolved.".into());
    }
    for (word, list) in [
        ("  resolved: ", &c.resolved),
        ("  not checked again: ", &c.not_checked_again),
        ("  appeared: ", &c.appeared),
    ] {
        for f in list {
            // Some checks start their title with the device already.
            let title = if f
                .title
                .strip_prefix(f.device.as_str())
                .is_some_and(|r| r.starts_with(':'))
            {
                f.title.clone()
            } else {
                format!("{}: {}", f.device, f.title)
            };
            lines.extend(wrap(
                &format!("[{}] {title} ({})", f.severity, f.check),
                word,
                12,
                WIDTH,
            ));
        }
    }

    heading(&mut lines, "Measured (MB/s)");
    if c.measured.is_empty() {
        lines.push("  No test was run on both sides.".into());
    } else {
        let opt = |x: Option<f64>| x.map(units::mb_number).unwrap_or_else(|| "n/a".into());
        let lat = |x: Option<u64>| x.map(units::duration_ns).unwrap_or_else(|| "-".into());
        let rows: Vec<Vec<String>> = c
            .measured
            .iter()
            .map(|m| {
                vec![
                    m.test.to_string(),
                    view::human_label(&m.label),
                    opt(m.before_bytes_per_sec),
                    opt(m.after_bytes_per_sec),
                    match m.within_noise {
                        Some(true) => format!("{} ~", units::pct(m.delta_pct)),
                        _ => units::pct(m.delta_pct),
                    },
                    lat(m.before_p99_ns),
                    lat(m.after_p99_ns),
                ]
            })
            .collect();
        let headers: Vec<String> = [
            "test", "label", "before", "after", "delta", "p99 bef", "p99 aft",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        lines.extend(table(&headers, &rows, 2, WIDTH));
        if c.measured.iter().any(|m| m.within_noise == Some(true)) {
            lines.extend(wrap(
                "~ within noise: the change is smaller than the two runs' measured \
                 spread added (each result's spread_pct)",
                "  ",
                4,
                WIDTH,
            ));
        }
    }
    for u in &c.unmatched_results {
        lines.extend(wrap(u, "  ", 4, WIDTH));
    }
    if !c.predictions.is_empty() {
        heading(&mut lines, "Predicted by the findings before");
        for p in &c.predictions {
            lines.extend(wrap(
                &format!("{} ({}): {}", p.device, p.check, p.verdict),
                "  ",
                4,
                WIDTH,
            ));
        }
    }
    finish(lines)
}

#[cfg(test)]
mod tests;
