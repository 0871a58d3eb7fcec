//! `diskdoc summarize FILE|DIR ...`: load many reports (every kind diskdoc writes, and
//! evidence bundles), re-derive each with this diskdoc, and print one table of hosts x
//! findings, worst host first. A directory contributes its `*.json` files, sorted.

use std::path::{Path, PathBuf};

use diskdoc_core::report::{Member, Message, Report, ReportKind, current_argv, report_from_loaded};

use crate::cli::{Format, SummarizeArgs};
use crate::error::{AppResult, Error, ExitStatus, UsageError};
use crate::limits::InputBudget;

fn files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, Error> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut in_dir: Vec<PathBuf> = std::fs::read_dir(p)
                .map_err(|source| Error::ReadDir {
                    path: p.clone(),
                    source,
                })?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.extension().is_some_and(|x| x == "json") && f.is_file())
                .collect();
            in_dir.sort();
            if in_dir.is_empty() {
                return Err(UsageError::NoReportIn(p.clone()).into());
            }
            out.extend(in_dir);
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}

fn label(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| p.display().to_string())
}

pub fn run(args: &SummarizeArgs) -> AppResult {
    // Checked before any file is read; emit() renders the format asked for.
    args.output.format_of(
        "summarize",
        &[Format::Text, Format::Markdown, Format::Json, Format::Html],
        Some("node_exporter reads each host's own `diskdoc check --format prometheus` file"),
    )?;
    let mut members = Vec::new();
    let mut notes = Vec::new();
    // One input budget for all files (--max-input-mib raises it for a large fleet).
    let mut budget = InputBudget::new("summarize");
    let mut skip = |file: &Path, why: String| {
        let text = format!("skipped {}: {why}", label(file));
        eprintln!("diskdoc: {text}");
        notes.push(Message::warning(text));
    };
    for f in files(&args.paths)? {
        // A file that is not a report (a directory holds other JSON too, this command's
        // own earlier output included) is skipped with a note, not the end of the run.
        let loaded = match crate::commands::replay::load_within(&f, &mut budget) {
            Ok(l) => l,
            Err(e) => {
                skip(&f, e.to_string());
                continue;
            }
        };
        if loaded
            .envelope
            .as_ref()
            .is_some_and(|e| e.derived_as.unwrap_or(e.kind) == ReportKind::Summarize)
        {
            skip(
                &f,
                "it is a summary itself (`diskdoc replay` shows it again)".to_string(),
            );
            continue;
        }
        members.push(Member {
            file: label(&f),
            report: report_from_loaded(loaded, Vec::new()),
        });
    }
    if members.is_empty() {
        return Err(UsageError::NothingToSummarize {
            skipped: notes.iter().map(|n| n.text.clone()).collect(),
        }
        .into());
    }
    let r = Report::summarized(members, notes, current_argv());
    crate::commands::emit(&r, &args.output, diskdoc_core::answer::replay_text)?;
    Ok(ExitStatus::from_code(r.exit_status))
}
