//! `diskdoc summarize FILE|DIR ...`: load many reports (every kind diskdoc writes, and
//! evidence bundles), re-derive each with this diskdoc, and print one table of hosts x
//! findings, worst host first. A directory contributes its `*.json` files, sorted.

use std::path::{Path, PathBuf};

use diskdoc_core::report::{self, Report, report_from_loaded, summarize};

use crate::cli::SummaryFormat;
use crate::error::{AppResult, UserError};

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

pub fn run(paths: &[PathBuf], format: SummaryFormat) -> AppResult {
    let mut reports: Vec<(String, Report)> = Vec::new();
    for f in files(paths)? {
        let loaded = report::load_report(&f).map_err(|e| UserError(e.to_string()))?;
        reports.push((label(&f), report_from_loaded(loaded, Vec::new())));
    }
    let s = summarize::summarize(&reports);
    let out = match format {
        SummaryFormat::Text => summarize::render_text(&s),
        SummaryFormat::Markdown => summarize::render_markdown(&s),
        SummaryFormat::Json => {
            let mut j = serde_json::to_string_pretty(&s)
                .map_err(|e| UserError(format!("cannot print JSON: {e}")))?;
            j.push('\n');
            j
        }
    };
    crate::out!("{out}");
    // 1 when any host has a finding at warning or above, like check.
    Ok(i32::from(
        s.hosts.iter().any(|h| h.critical > 0 || h.warning > 0),
    ))
}
