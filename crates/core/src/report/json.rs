//! The JSON report: the [`Envelope`](crate::report::envelope::Envelope) pretty-printed.
//! Schema: docs/report-format.md.

use crate::report::Report;
use crate::report::envelope::Envelope;

/// Render the report as pretty JSON with a trailing newline.
pub fn render(r: &Report) -> String {
    let env = Envelope::from_report(r);
    match serde_json::to_string_pretty(&env) {
        Ok(mut s) => {
            s.push('\n');
            s
        }
        // Serializing plain data cannot fail short of a non-string map key, which the types
        // do not have; still, say so in JSON rather than panic.
        Err(e) => format!("{{\"error\": \"cannot serialize the report: {e}\"}}\n"),
    }
}
