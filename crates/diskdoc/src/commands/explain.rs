//! `diskdoc explain [FILE ...] [--format text|markdown|json]`: read the inputs (standard
//! input when none or `-`), run [`diskdoc_core::explain::explain`] and render the answer.

use std::io::Read;
use std::path::PathBuf;

use diskdoc_core::checks;
use diskdoc_core::explain::render::{render_json, render_markdown, render_text};
use diskdoc_core::explain::{Input, explain};

/// Never read more than this from one input; [`diskdoc_core::explain::segment`] uses the first 4 MiB and
/// reports the rest as ignored.
const READ_CAP: u64 = 64 * 1024 * 1024;

/// Read the inputs. Errors name the file.
pub fn read_inputs(files: &[PathBuf]) -> Result<Vec<Input>, String> {
    let mut out = Vec::new();
    let stdin_only = files.is_empty();
    let names: Vec<PathBuf> = if stdin_only {
        vec![PathBuf::from("-")]
    } else {
        files.to_vec()
    };
    for f in names {
        let mut bytes = Vec::new();
        if f.as_os_str() == "-" {
            std::io::stdin()
                .take(READ_CAP)
                .read_to_end(&mut bytes)
                .map_err(|e| format!("cannot read standard input: {e}"))?;
            out.push(Input {
                label: "stdin".to_string(),
                bytes,
            });
        } else {
            let file =
                std::fs::File::open(&f).map_err(|e| format!("cannot read {}: {e}", f.display()))?;
            if file.metadata().map(|m| m.is_dir()).unwrap_or(false) {
                return Err(format!(
                    "{} is a directory; give the files with the pasted text",
                    f.display()
                ));
            }
            file.take(READ_CAP)
                .read_to_end(&mut bytes)
                .map_err(|e| format!("cannot read {}: {e}", f.display()))?;
            out.push(Input {
                label: f.display().to_string(),
                bytes,
            });
        }
    }
    Ok(out)
}

/// Run explain and print, redacted unless `redact` is false; returns the exit code (0 / 1
/// like `check`), or a user error.
pub fn run(files: &[PathBuf], format: &str, redact: bool) -> Result<i32, String> {
    if !matches!(format, "text" | "markdown" | "md" | "json") {
        return Err(format!(
            "unknown --format {format:?}; use text, markdown or json"
        ));
    }
    let inputs = read_inputs(files)?;
    let mut ex = explain(&inputs).map_err(|e| e.to_string())?;
    if redact {
        ex = diskdoc_core::report::redact::redact_explanation(&ex);
    }
    let out = match format {
        "json" => render_json(&ex),
        "markdown" | "md" => render_markdown(&ex),
        _ => render_text(&ex),
    };
    crate::out!("{out}");
    Ok(checks::exit_code(&ex.findings))
}
