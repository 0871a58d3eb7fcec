//! `diskdoc summarize FILE|DIR ...`: load many reports (every kind diskdoc writes, and
//! evidence bundles), re-derive each with this diskdoc, and print one table of hosts x
//! findings, worst host first. A directory contributes its `*.json` files, sorted.

use std::path::{Path, PathBuf};

use diskdoc_core::report::{Report, report_from_loaded, summarize};

use crate::cli::{Format, SummarizeArgs};
use crate::error::{AppResult, UserError};
use crate::limits::InputBudget;

fn files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, UserError> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut in_dir: Vec<PathBuf> = std::fs::read_dir(p)
                .map_err(|e| UserError(format!("cannot read directory {}: {e}", p.display())))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.extension().is_some_and(|x| x == "json") && f.is_file())
                .collect();
            in_dir.sort();
            if in_dir.is_empty() {
                return Err(UserError(format!(
                    "{} holds no .json report; give report files or a directory of them",
                    p.display()
                )));
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
    let format = args
        .output
        .format_of(
            "summarize",
            &[Format::Text, Format::Markdown, Format::Json],
            Some("node_exporter reads each host's own `diskdoc check --format prometheus` file"),
        )
        .map_err(UserError)?;
    let mut reports: Vec<(String, Report)> = Vec::new();
    // One input budget for all files (--max-input-mib raises it for a large fleet).
    let mut budget = InputBudget::new("summarize");
    for f in files(&args.paths)? {
        let loaded = crate::commands::replay::load_within(&f, &mut budget)?;
        reports.push((label(&f), report_from_loaded(loaded, Vec::new())));
    }
    let s = summarize::summarize(&reports);
    let out = match format {
        Format::Text => summarize::render_text(&s),
        Format::Markdown => summarize::render_markdown(&s),
        Format::Prometheus => {
            return Err(UserError(
                "summarize has no prometheus form; node_exporter reads each host's own \
                 `diskdoc check --format prometheus` file"
                    .into(),
            ));
        }
        Format::Json => {
            let mut j = serde_json::to_string_pretty(&s)
                .map_err(|e| UserError(format!("cannot print JSON: {e}")))?;
            j.push('\n');
            j
        }
    };
    crate::commands::print_or_save(&out, &args.output)?;
    // 1 when any host has a finding at warning or above, like check.
    Ok(i32::from(
        s.hosts.iter().any(|h| h.critical > 0 || h.warning > 0),
    ))
}
