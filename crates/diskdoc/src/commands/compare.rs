//! `diskdoc compare BEFORE AFTER`: both files re-derived with this diskdoc and compared.

use std::path::Path;

use crate::commands::UserError;
use crate::commands::replay::load_within;
use crate::limits::InputBudget;
use diskdoc_core::report::{Report, compare, redact, report_from_loaded};

/// `diskdoc compare BEFORE AFTER`: both files re-derived, redacted with one token map (so
/// tokens agree across the two), then compared.
pub fn compare(
    before: &Path,
    after: &Path,
    json_flag: bool,
    no_redact: bool,
) -> Result<i32, UserError> {
    // One budget for both files: the cap is the command's total.
    let mut budget = InputBudget::new();
    let b = report_from_loaded(load_within(before, &mut budget)?, Vec::new());
    let a = report_from_loaded(load_within(after, &mut budget)?, Vec::new());
    let (b, a) = if no_redact {
        (b, a)
    } else {
        let mut red = redact::Redactor::new();
        red.collect_report(&b);
        red.collect_report(&a);
        (
            redact::apply_report(&red, &b),
            redact::apply_report(&red, &a),
        )
    };
    let label = |p: &Path, r: &Report| {
        let when = if r.bundle.captured_at_unix > 0 {
            diskdoc_core::report::view::utc(r.bundle.captured_at_unix)
        } else {
            "time unknown".into()
        };
        format!("{} ({when})", p.display())
    };
    let c = compare::compare(&b, &a, &label(before, &b), &label(after, &a));
    if json_flag {
        crate::outln!(
            "{}",
            serde_json::to_string_pretty(&c)
                .map_err(|e| UserError(format!("cannot print JSON: {e}")))?
        );
    } else {
        crate::out!("{}", compare::render_text(&c));
    }
    Ok(0)
}
