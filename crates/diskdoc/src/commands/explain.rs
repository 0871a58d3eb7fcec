//! `diskdoc explain [FILE ...] [--format text|markdown|json]`: read the inputs (standard
//! input when none or `-`), run [`diskdoc_core::explain::explain`] and render the answer
//! (JSON: the `explain` report envelope).

use std::io::Read;
use std::path::PathBuf;

use diskdoc_core::checks;
use diskdoc_core::explain::render::{render_markdown, render_text};
use diskdoc_core::explain::{Input, explain};
use diskdoc_core::report::{self, Pasted, Report};

use crate::cli::{ExplainArgs, Format};
use crate::error::UserError;

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
            use std::io::IsTerminal;
            if std::io::stdin().is_terminal() {
                // Not a blank screen: say what to do.
                eprintln!(
                    "diskdoc explain: paste the tool output, then press Ctrl-D on an empty \
                     line (or give files: diskdoc explain FILE ...)"
                );
            }
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

/// Run explain and print; returns the exit code (0 / 1 like `check`), or a user error.
/// Text and Markdown are the explanation's own forms; JSON is the `explain` report, whose
/// pasted inputs a replay reads again.
pub fn run(args: &ExplainArgs) -> Result<i32, UserError> {
    let format = args.output.format().map_err(UserError)?;
    let inputs = read_inputs(&args.files).map_err(UserError)?;
    let pasted: Vec<Pasted> = inputs
        .iter()
        .map(|i| Pasted {
            label: i.label.clone(),
            text: String::from_utf8_lossy(&i.bytes).into_owned(),
        })
        .collect();
    let ex = explain(&inputs).map_err(|e| UserError(e.to_string()))?;
    let code = checks::exit_code(&ex.findings);
    let out = match format {
        Format::Markdown => render_markdown(&ex),
        Format::Text => render_text(&ex),
        Format::Json => {
            let r = Report::from_explanation(ex, pasted, report::current_argv());
            report::json::render(&r.shareable(args.output.redact()))
        }
    };
    crate::out!("{out}");
    Ok(code)
}
