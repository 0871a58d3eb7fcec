//! `diskdoc replay FILE [--format ...]` and `diskdoc compare BEFORE AFTER`: load reports or
//! bundles, re-derive with this diskdoc, render. Errors are one line naming the file, the
//! problem and the schema version (exit 2 via `UserError`).

use std::path::Path;

use crate::app::{UserError, select_device};
use crate::checks;
use crate::report::{self, Loaded, Message, Report, compare, json, markdown, redact, text};

/// Build a report from a loaded file with this diskdoc's parsers and checks.
///
/// When this diskdoc derives no disk at all from the evidence but the file is a report whose
/// writer did (an older bundle layout, evidence this version cannot parse yet), the facts and
/// findings stored in the report are used instead, with a message saying so: an expert still
/// sees what the user saw.
pub fn report_from_loaded(loaded: Loaded, argv: Vec<String>) -> Report {
    let Loaded { bundle, envelope } = loaded;
    let mut r = Report::from_bundle(bundle, argv);
    if r.facts.disks.is_empty()
        && let Some(env) = envelope
        && !env.system.disks.is_empty()
    {
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

fn load(path: &Path) -> Result<Loaded, UserError> {
    report::load_report(path).map_err(|e| UserError(e.to_string()))
}

/// `diskdoc replay FILE --format findings|facts|text|markdown|json`.
pub fn replay(
    file: &Path,
    format: &str,
    device: Option<&str>,
    json_flag: bool,
    no_redact: bool,
) -> Result<i32, UserError> {
    // Check the format before reading, so a typo is reported as such.
    if !["findings", "facts", "text", "markdown", "json"].contains(&format) {
        return Err(UserError(format!(
            "unknown --format {format:?}; use findings, facts, text, markdown or json"
        )));
    }
    let loaded = load(file)?;
    let mut r = report_from_loaded(loaded, report::current_argv());
    r.facts = select_device(r.facts, device)?;
    if device.is_some() {
        let names: Vec<String> = r.facts.disks.iter().map(|d| d.name.clone()).collect();
        r.findings
            .retain(|f| f.device == "system" || names.contains(&f.device));
        r.exit_status = checks::exit_code(&r.findings);
    }
    match format {
        "facts" => {
            crate::app::print_facts(&r.facts, json_flag);
            Ok(0)
        }
        "findings" => {
            crate::app::print_findings(&r.findings, json_flag);
            Ok(r.exit_status)
        }
        other => {
            let shared = r.shareable(!no_redact);
            let out = match other {
                "text" => text::render(&shared),
                "markdown" => markdown::render(&shared),
                _ => json::render(&shared),
            };
            crate::out!("{out}");
            Ok(shared.exit_status)
        }
    }
}

/// `diskdoc compare BEFORE AFTER`: both files re-derived, redacted with one token map (so
/// tokens agree across the two), then compared.
pub fn compare(
    before: &Path,
    after: &Path,
    json_flag: bool,
    no_redact: bool,
) -> Result<i32, UserError> {
    let b = report_from_loaded(load(before)?, Vec::new());
    let a = report_from_loaded(load(after)?, Vec::new());
    let (b, a) = if no_redact {
        (b, a)
    } else {
        let mut red = redact::Redactor::new();
        red.collect_report(&b);
        red.collect_report(&a);
        (
            redact::apply_report(&red, &b),
            redact::apply_report(&red, &a),
        )
    };
    let label = |p: &Path, r: &Report| {
        let when = if r.bundle.captured_at_unix > 0 {
            crate::report::view::utc(r.bundle.captured_at_unix)
        } else {
            "time unknown".into()
        };
        format!("{} ({when})", p.display())
    };
    let c = compare::compare(&b, &a, &label(before, &b), &label(after, &a));
    if json_flag {
        crate::outln!(
            "{}",
            serde_json::to_string_pretty(&c)
                .map_err(|e| UserError(format!("cannot print JSON: {e}")))?
        );
    } else {
        crate::out!("{}", compare::render_text(&c));
    }
    Ok(0)
}
