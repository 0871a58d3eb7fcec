//! `diskdoc replay FILE [--format ...]`: load a report or bundle, re-derive with this diskdoc,
//! render. Errors are one line naming the file, the problem and the schema version (exit 2 via
//! `UserError`).

use std::path::Path;

use crate::commands::{UserError, select_device};
use diskdoc_core::checks;
use diskdoc_core::report::{self, Loaded, json, markdown, report_from_loaded, text};

pub(crate) fn load(path: &Path) -> Result<Loaded, UserError> {
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
    if ![
        "findings",
        "facts",
        "text",
        "markdown",
        "json",
        "prometheus",
    ]
    .contains(&format)
    {
        return Err(UserError(format!(
            "unknown --format {format:?}; use findings, facts, text, markdown, json or prometheus"
        )));
    }
    let loaded = load(file)?;
    let mut r = report_from_loaded(loaded, report::current_argv());
    // A partition, label or path maps to its disk from the replayed captures, as on the
    // machine itself (scan/check resolve the same way).
    let resolved = crate::commands::resolve_device(&r.bundle, device.map(str::to_string));
    let device = resolved.as_deref();
    r.facts = select_device(r.facts, device)?;
    if device.is_some() {
        let names: Vec<String> = r.facts.disks.iter().map(|d| d.name.clone()).collect();
        r.findings
            .retain(|f| f.device == "system" || names.contains(&f.device));
        r.exit_status = checks::exit_code(&r.findings);
    }
    match format {
        "facts" => {
            crate::commands::scan::print_facts(&r.facts, json_flag);
            Ok(0)
        }
        "findings" => {
            crate::commands::check::print_findings(&r.findings, json_flag);
            Ok(r.exit_status)
        }
        other => {
            let shared = r.shareable(!no_redact);
            let out = match other {
                "text" => text::render(&shared),
                "markdown" => markdown::render(&shared),
                "prometheus" => report::prometheus::render(&shared),
                _ => json::render(&shared),
            };
            crate::out!("{out}");
            Ok(shared.exit_status)
        }
    }
}
