//! Redacting facts, findings, explanations and reports.

use super::json::walk_strings;
use super::*;

impl Redactor {
    /// Collect from facts: each disk's serial and WWN (in disk order, so SERIAL-1 is the
    /// first disk), the host name, then every other string of the facts (mount points,
    /// table notes, layer names) by pattern.
    pub(crate) fn collect_facts(&mut self, sys: &SystemFacts) {
        for d in &sys.disks {
            if let Some(s) = d.serial.value() {
                self.add_trusted(Kind::Serial, s);
            }
            if let Some(w) = d.wwn.value() {
                self.add(Kind::Wwn, w);
            }
        }
        if let Some(h) = sys.hostname.value() {
            self.add(Kind::Host, h);
        }
        if let Ok(v) = serde_json::to_value(sys) {
            walk_strings(&v, &mut |s| self.collect_text(s));
        }
    }

    /// Collect everything the report holds.
    pub(crate) fn collect_report(&mut self, r: &Report) {
        // The bundle's own facts first: the same numbering as `redact_bundle` of that bundle.
        self.note_type_guids(&r.bundle);
        let all = crate::facts::derive(&r.bundle);
        self.collect_facts(&all);
        if r.facts != all {
            self.collect_facts(&r.facts);
        }
        self.collect_bundle(&r.bundle);
        self.collect_findings(&r.findings);
        for a in &r.argv {
            self.collect_text(a);
        }
    }

    /// Collect from findings: evidence sources and values, explanations.
    pub(crate) fn collect_findings(&mut self, findings: &[Finding]) {
        for f in findings {
            for e in &f.evidence {
                self.collect_text(&e.source);
                self.collect_line(&e.value);
            }
            self.collect_text(&f.explanation);
            self.collect_text(&f.title);
        }
    }
}

/// The facts `scan` prints (`shown`, selected from `all = facts::derive(b)`), with the
/// tokens of the whole run. None when they cannot be rewritten (the caller then prints
/// nothing rather than the secrets).
pub fn redact_facts(
    b: &EvidenceBundle,
    all: &SystemFacts,
    shown: &SystemFacts,
) -> Option<SystemFacts> {
    redactor_for(b, all, shown, &[]).apply_serde(shown)
}

/// The answer of `explain` with the secrets of the paste as tokens: everything the
/// renderers print (commands, ignored lines, findings, facts, the assembled bundle).
pub fn redact_explanation(ex: &Explanation) -> Explanation {
    share_explanation(ex).0
}

/// [`redact_explanation`] and the redactor that made it, whose [`Redactor::verify`] checks
/// each rendering before it is written.
pub fn share_explanation(ex: &Explanation) -> (Explanation, Redactor) {
    let mut red = redactor_for(&ex.bundle, &ex.facts, &ex.facts, &ex.findings);
    for c in &ex.commands {
        red.collect_text(&c.text);
    }
    for i in &ex.ignored {
        red.collect_text(&i.starts_with);
    }
    for t in ex.inputs.iter().chain(&ex.notes).chain(&ex.missing) {
        red.collect_text(t);
    }
    let a = |s: &String| red.apply(s);
    let ao = |s: &Option<String>| s.as_ref().map(|s| red.apply(s));
    let mut out = ex.clone();
    out.inputs = ex.inputs.iter().map(a).collect();
    for r in out.recognised.iter_mut() {
        r.device = ao(&r.device);
        r.input = red.apply(&r.input);
        r.key = red.apply(&r.key);
        r.command = ao(&r.command);
    }
    for c in out.commands.iter_mut() {
        c.text = red.apply(&c.text);
        c.device = ao(&c.device);
    }
    for i in out.ignored.iter_mut() {
        i.input = red.apply(&i.input);
        i.starts_with = red.apply(&i.starts_with);
    }
    out.benchmarks = red.apply_serde(&ex.benchmarks).unwrap_or_default();
    out.findings = red.apply_serde(&ex.findings).unwrap_or_default();
    out.missing = ex.missing.iter().map(a).collect();
    out.next_commands = ex.next_commands.iter().map(a).collect();
    out.notes = ex.notes.iter().map(a).collect();
    out.facts = red
        .apply_serde(&ex.facts)
        .unwrap_or_else(|| SystemFacts::empty(ex.facts.platform));
    out.bundle = red.apply_bundle(&ex.bundle);
    (out, red)
}

/// Apply a prepared redactor to a report.
pub(crate) fn apply_report(red: &Redactor, r: &Report) -> Report {
    // Never fall back to the unredacted value: drop what cannot be rewritten, and say so.
    let mut messages = red.apply_serde(&r.messages).unwrap_or_default();
    let facts: SystemFacts = red.apply_serde(&r.facts).unwrap_or_else(|| {
        messages.push(crate::report::Message::warning(
            "facts left out: redaction could not rewrite them; use --no-redact to see them",
        ));
        SystemFacts::empty(r.facts.platform)
    });
    let findings: Vec<Finding> = red.apply_serde(&r.findings).unwrap_or_else(|| {
        messages.push(crate::report::Message::warning(
            "findings left out: redaction could not rewrite them; use --no-redact to see them",
        ));
        Vec::new()
    });
    Report {
        argv: r.argv.iter().map(|a| red.apply(a)).collect(),
        messages,
        exit_status: r.exit_status,
        facts,
        findings,
        bundle: red.apply_bundle(&r.bundle),
        redacted: true,
        // The envelope fields redaction has no rule for are rewritten by
        // Report::redacted_with (report/mod.rs), which calls this.
        ..r.clone()
    }
}
