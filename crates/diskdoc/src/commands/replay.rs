//! `diskdoc replay FILE [--format ...]`: load a report or bundle, re-derive with this diskdoc,
//! render. Errors are one line naming the file, the problem and the schema version (exit 2 via
//! `UserError`).

use std::path::Path;

use crate::commands::{UserError, select_device};
use crate::limits::InputBudget;
use diskdoc_core::checks;
use diskdoc_core::report::{self, Loaded, json, markdown, report_from_loaded, text};

pub(crate) fn load(path: &Path) -> Result<Loaded, UserError> {
    load_within(path, &mut InputBudget::new())
}

/// Load within a command's input budget (the read is capped here, where the file is read).
pub(crate) fn load_within(path: &Path, budget: &mut InputBudget) -> Result<Loaded, UserError> {
    let bytes = budget.read_file(path).map_err(UserError)?;
    // Lossy: a stray Latin-1 byte from a mail gateway becomes U+FFFD inside a string
    // rather than a refusal; serde_json then reports what is really wrong, if anything.
    report::load::parse(
        &path.display().to_string(),
        &String::from_utf8_lossy(&bytes),
    )
    .map_err(|e| UserError(e.to_string()))
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
                _ => json::render(&shared),
            };
            crate::out!("{out}");
            Ok(shared.exit_status)
        }
    }
}
