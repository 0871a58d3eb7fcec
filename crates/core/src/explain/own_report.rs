//! diskdoc's own report pasted back into explain (a mail reply quoting it): its text holds
//! the findings diskdoc stated, not the evidence behind them, so explain repeats each
//! stated problem as the report gives it, cites the pasted lines, and asks for the JSON
//! report, which `diskdoc replay` turns back into the same findings with their evidence.

use super::recognize::Recognized;
use crate::checks::{self, Confidence, Finding, Fix, Severity, Verdict};
use crate::evidence::Platform;
use crate::sources::diskdoc_report;

fn severity(s: &str) -> Option<Severity> {
    match s {
        "critical" => Some(Severity::Critical),
        "warning" => Some(Severity::Warning),
        "notice" => Some(Severity::Notice),
        _ => None,
    }
}

/// The problems every pasted diskdoc report states (notice and above, for checks this
/// diskdoc knows), each as a finding that says where it was read.
pub(crate) fn stated_findings(rec: &Recognized, platform: Platform) -> Vec<Finding> {
    let mut out = Vec::new();
    for b in rec
        .blocks
        .iter()
        .filter(|b| b.tool.is(&diskdoc_report::SPEC))
    {
        for s in diskdoc_report::parse(&b.text) {
            let Some(sev) = severity(&s.severity) else {
                continue;
            };
            // A check another version had and this one lacks is still the report's word,
            // but its id would not be one of ours: keep only known ids.
            if checks::by_id(&s.check).is_none() {
                continue;
            }
            let line = b.first.saturating_add(s.line);
            out.push(
                Finding::new(&s.check, &s.device, Verdict::Problem, sev, s.title.clone())
                    .explain(format!(
                        "The pasted diskdoc report states this finding (line {line} of the \
                         paste). Its text does not carry the evidence the finding rests on, \
                         so diskdoc repeats it as stated and cannot re-check it."
                    ))
                    .evidence(
                        format!("pasted:line {line}"),
                        format!("[{}] {}: {} ({})", s.severity, s.device, s.title, s.check),
                    )
                    .confidence(Confidence::Low)
                    .fix(Fix {
                        platform,
                        summary: "send the JSON report and replay it".into(),
                        steps: vec![
                            "Ask for the report as JSON: the command that printed it, run \
                             again with `--format json > report.json` (it is redacted like \
                             the text), attached rather than pasted"
                                .into(),
                            "Then `diskdoc replay report.json` re-derives every finding with \
                             its evidence, exactly as on the machine"
                                .into(),
                        ],
                        risk: "none: replay reads the file and nothing else".into(),
                    }),
            );
        }
    }
    out
}
