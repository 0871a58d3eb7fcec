//! `diskdoc explain [FILE ...] [--format text|markdown|json]`: read the inputs (standard
//! input when none or `-`), run [`diskdoc_core::explain::explain`] and render the answer.

use std::path::PathBuf;

use crate::limits::InputBudget;

use diskdoc_core::checks;
use diskdoc_core::explain::render::{render_json, render_markdown, render_text};
use diskdoc_core::explain::{Input, explain};

/// Read the inputs, at most the input cap in total ([`InputBudget`]; segment uses the first
/// 4 MiB of each input and reports the rest as ignored). Errors name the file.
pub fn read_inputs(files: &[PathBuf]) -> Result<Vec<Input>, String> {
    let mut budget = InputBudget::new();
    let mut out = Vec::new();
    let stdin_only = files.is_empty();
    let names: Vec<PathBuf> = if stdin_only {
        vec![PathBuf::from("-")]
    } else {
        files.to_vec()
    };
    for f in names {
        if f.as_os_str() == "-" {
            let bytes = budget.read("standard input", std::io::stdin(), None)?;
            out.push(Input {
                label: "stdin".to_string(),
                bytes,
            });
        } else {
            if f.is_dir() {
                return Err(format!(
                    "{} is a directory; give the files with the pasted text",
                    f.display()
                ));
            }
            let bytes = budget.read_file(&f)?;
            out.push(Input {
                label: f.display().to_string(),
                bytes,
            });
        }
    }
    Ok(out)
}

/// Run explain and print; returns the exit code (0 / 1 like `check`), or a user error.
pub fn run(files: &[PathBuf], format: &str) -> Result<i32, String> {
    if !matches!(format, "text" | "markdown" | "md" | "json") {
        return Err(format!(
            "unknown --format {format:?}; use text, markdown or json"
        ));
    }
    let inputs = read_inputs(files)?;
    let ex = explain(&inputs).map_err(|e| e.to_string())?;
    let out = match format {
        "json" => render_json(&ex),
        "markdown" | "md" => render_markdown(&ex),
        _ => render_text(&ex),
    };
    crate::out!("{out}");
    Ok(checks::exit_code(&ex.findings))
}
