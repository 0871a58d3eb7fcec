//! `diskdoc explain [FILE ...] [--format text|markdown|json]`: read the inputs (standard
//! input when none or `-`), run [`diskdoc_core::explain::explain`] and render the answer
//! (JSON: the `explain` report envelope).

use std::path::PathBuf;

use crate::limits::InputBudget;

use diskdoc_core::checks;
use diskdoc_core::explain::render::{render_markdown, render_text};
use diskdoc_core::explain::{Input, explain};
use diskdoc_core::report::{self, Pasted, Report};

use crate::cli::{ExplainArgs, Format};
use crate::error::UserError;

/// Read the inputs, at most the input cap in total ([`InputBudget`]; segment uses the first
/// 4 MiB of each input and reports the rest as ignored). Errors name the file.
pub fn read_inputs(files: &[PathBuf]) -> Result<Vec<Input>, String> {
    let mut budget = InputBudget::new("explain");
    let mut out = Vec::new();
    let stdin_only = files.is_empty();
    let names: Vec<PathBuf> = if stdin_only {
        vec![PathBuf::from("-")]
    } else {
        files.to_vec()
    };
    for f in names {
        if f.as_os_str() == "-" {
            use std::io::IsTerminal;
            if std::io::stdin().is_terminal() {
                // Not a blank screen: say what to do.
                eprintln!(
                    "diskdoc explain: paste the tool output, then press Ctrl-D on an empty \
                     line (or give files: diskdoc explain FILE ...)"
                );
            }
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
    // Text and Markdown are the explanation's own forms: redacted here (the JSON report is
    // redacted as a whole by `share`). Every form passes the final check before it is
    // written (nothing is written when a secret is left).
    let own = |render: fn(&diskdoc_core::explain::Explanation) -> String| {
        if args.output.redact() {
            let (shared, red) = diskdoc_core::report::redact::share_explanation(&ex);
            let out = render(&shared);
            red.verify(&out).map(|()| out)
        } else {
            Ok(render(&ex))
        }
    };
    let out = match format {
        Format::Markdown => own(render_markdown)?,
        Format::Text => own(render_text)?,
        Format::Json | Format::Prometheus => {
            let r = Report::from_explanation(ex, pasted, report::current_argv())
                .share(args.output.redact());
            if format == Format::Json {
                r.render(report::json::render)?
            } else {
                r.render(report::prometheus::render)?
            }
        }
    };
    crate::commands::print_or_save(&out, &args.output)?;
    Ok(code)
}
