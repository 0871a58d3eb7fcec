//! The wizard's text and JSON reports, built from the one report envelope.

use diskdoc_core::checks::Finding;
use diskdoc_core::evidence::EvidenceBundle;
use diskdoc_core::facts::SystemFacts;

/// (text report, JSON report), redacted unless `redact` is false, each checked for a
/// secret redaction missed.
pub fn reports(
    bundle: &EvidenceBundle,
    sys: &SystemFacts,
    findings: &[Finding],
    redact: bool,
) -> Result<(String, String), diskdoc_core::report::redact::Leak> {
    let report = diskdoc_core::report::Report::new(
        bundle.clone(),
        sys.clone(),
        findings.to_vec(),
        diskdoc_core::report::current_argv(),
    );
    let shared = report.share(redact);
    Ok((
        shared.render(diskdoc_core::report::text::render)?,
        shared.render(diskdoc_core::report::json::render)?,
    ))
}
