//! `diskdoc compare BEFORE AFTER`: both files (any report kind or bundle) re-derived with this
//! diskdoc, compared, and printed as text, Markdown or the `compare` report (the later report
//! with the earlier one and the comparison inside, so `replay` and `compare` read it back).

use std::path::Path;

use crate::cli::CompareArgs;
use crate::commands::replay::load_within;
use crate::commands::{AppResult, ExitStatus, emit};
use crate::limits::InputBudget;
use diskdoc_core::report::{self, Report, report_from_loaded};

/// `diskdoc compare BEFORE AFTER`; the exit status is the later report's.
pub fn compare(args: &CompareArgs) -> AppResult {
    args.output.format()?;
    // One budget for both files: the cap is the command's total.
    let mut budget = InputBudget::new("compare");
    let b = report_from_loaded(load_within(&args.before, &mut budget)?, Vec::new());
    let a = report_from_loaded(
        load_within(&args.after, &mut budget)?,
        report::current_argv(),
    );
    let label = |p: &Path, r: &Report| {
        let when = if r.bundle.captured_at_unix > 0 {
            report::view::utc(r.bundle.captured_at_unix)
        } else {
            "time unknown".into()
        };
        format!("{} ({when})", p.display())
    };
    // Two different disks have nothing to compare: refuse, naming the way to insist. When
    // the machines differ but a disk matches, the comparison goes on with its warning.
    if !args.force
        && let Some(why) = report::compare::no_common_disk(&b, &a)
    {
        return Err(crate::error::UsageError::NotComparable {
            before: args.before.clone(),
            after: args.after.clone(),
            why,
        }
        .into());
    }
    let (lb, la) = (label(&args.before, &b), label(&args.after, &a));
    let r = Report::compared(b, a, &lb, &la);
    // One token map over both reports (Report::shareable collects `before` too), so the
    // tokens agree across the two.
    emit(&r, &args.output, |r| {
        r.comparison()
            .map(|c| report::compare::render_text(&c))
            .unwrap_or_default()
    })?;
    Ok(ExitStatus::from_code(r.exit_status))
}
