//! `diskdoc explain [FILE ...] [--format text|markdown|json]`: read the inputs (standard
//! input when none or `-`), and print [`diskdoc_core::answer::explain`] (JSON: the `explain`
//! report envelope).

use std::path::PathBuf;

use crate::limits::InputBudget;

use diskdoc_core::explain::Input;
use diskdoc_core::report;

use crate::cli::ExplainArgs;
use crate::error::{AppResult, Error, ExitStatus, InputError};

/// Read the inputs, at most the input cap in total ([`InputBudget`]; segment uses the first
/// 4 MiB of each input and reports the rest as ignored). Errors name the file.
pub fn read_inputs(files: &[PathBuf]) -> Result<Vec<Input>, InputError> {
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
                return Err(InputError::Directory(f));
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
/// The answer is [`diskdoc_core::answer::explain`], the function the web page calls too.
pub fn run(args: &ExplainArgs) -> AppResult {
    let format = args.output.format()?;
    let inputs = read_inputs(&args.files)?;
    let answer = diskdoc_core::answer::explain(
        &inputs,
        format.into(),
        args.output.redact(),
        report::current_argv(),
    )
    .map_err(Error::Answer)?;
    crate::commands::print_or_save(&answer.output, &args.output)?;
    Ok(ExitStatus::from_code(answer.exit_status))
}
