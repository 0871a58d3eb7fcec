//! Redacting an evidence bundle: its keys and payloads, device reads cut to the partition
//! table, and the bundle written for sharing.

use super::identify::identify_words;
use super::json::zero_json_ids;
use super::*;

impl Redactor {
    /// Note the partition type GUIDs of the bundle's device reads (see `type_guids`);
    /// before anything else is collected.
    pub(crate) fn note_type_guids(&mut self, b: &EvidenceBundle) {
        for (key, cap) in b.captures.range("read:".to_string()..) {
            if !key.starts_with("read:") {
                break;
            }
            if let Some(bytes) = cap.data().and_then(hex_decode) {
                self.type_guids
                    .extend(partition_table::gpt_type_guids(&bytes));
            }
        }
    }

    /// Collect from the raw captures by key and by pattern.
    pub(crate) fn collect_bundle(&mut self, b: &EvidenceBundle) {
        self.note_type_guids(b);
        for (key, cap) in &b.captures {
            self.collect_text(key);
            let (data, stderr) = match cap {
                Capture::Ok { data, stderr, .. } => (data.as_str(), stderr.as_str()),
                Capture::Unavailable { detail, .. } => (detail.as_str(), ""),
            };
            if key.starts_with("read:") {
                // Device bytes: the GPT partition names are labels.
                if let Some(bytes) = hex_decode(data) {
                    for n in partition_table::gpt_names(&bytes) {
                        self.add_trusted(Kind::Label, &n);
                    }
                    if let Some(fs) = partition_table::whole_disk_filesystem(&bytes) {
                        self.add_trusted(Kind::Label, &fs.label);
                        self.add(Kind::Uuid, &fs.uuid);
                    }
                }
                continue;
            }
            self.collect_keyed(key, data);
            if let Some(words) = identify_words(data) {
                self.collect_identify(&words);
            }
            if (data.trim_start().starts_with('{') || data.trim_start().starts_with('['))
                && let Ok(v) = serde_json::from_str::<Value>(data)
            {
                self.collect_json(&v, None);
            }
            self.collect_text(data);
            self.collect_text(stderr);
        }
        for n in &b.notes {
            self.collect_text(n);
        }
        for r in &b.benchmarks {
            self.collect_text(&r.target);
        }
    }

    /// Rewrite a raw capture payload: JSON payloads lose their numeric WWN/EUI-64 ids,
    /// ATA IDENTIFY words get the token in place of the serial and zeros for the WWN, VPD
    /// pages (binary) are dropped, and every text gets the token map.
    pub(super) fn apply_payload(&self, key: &str, data: &str) -> String {
        if key.starts_with("read:") {
            // Cut to the partition-table bytes (bundles written before that rule held whole
            // sectors), GPT partition names as tokens; CRCs stay as valid as they were.
            // Bytes that do not decode are not shared.
            return hex_decode(data)
                .map(|b| {
                    let kept = partition_table::minimize(&b);
                    let named = partition_table::rename_gpt(&kept, |n| self.apply(n));
                    hex_encode_sparse(&partition_table::rename_filesystem(&named, |n| {
                        self.apply(n)
                    }))
                })
                .unwrap_or_default();
        }
        if key.ends_with("/vpd_pg80") || key.ends_with("/vpd_pg83") {
            return "[redacted: binary VPD page with serial/WWN]".to_string();
        }
        if let Some(words) = identify_words(data) {
            return self.redact_identify(words);
        }
        let t = data.trim_start();
        if t.starts_with('{')
            && let Ok(mut v) = serde_json::from_str::<Value>(data)
            && zero_json_ids(&mut v, None)
        {
            self.apply_value(&mut v);
            return serde_json::to_string_pretty(&v).unwrap_or_default();
        }
        self.apply(data)
    }

    /// The bundle with every key, payload, stderr, note and benchmark target rewritten.
    pub(crate) fn apply_bundle(&self, b: &EvidenceBundle) -> EvidenceBundle {
        let mut out = b.clone();
        out.captures = b
            .captures
            .iter()
            .map(|(k, c)| {
                let c = match c {
                    Capture::Ok {
                        data,
                        stderr,
                        exit_code,
                        elapsed_ms,
                    } => Capture::Ok {
                        data: self.apply_payload(k, data),
                        stderr: self.apply(stderr),
                        exit_code: *exit_code,
                        elapsed_ms: *elapsed_ms,
                    },
                    Capture::Unavailable { reason, detail } => Capture::Unavailable {
                        reason: *reason,
                        detail: self.apply(detail),
                    },
                };
                (self.apply(k), c)
            })
            .collect();
        out.notes = b.notes.iter().map(|n| self.apply(n)).collect();
        out.benchmarks = self.apply_serde(&b.benchmarks).unwrap_or_default();
        out
    }
}

/// A redactor that knows every secret of one run: the bundle, the facts derived from it
/// (`all`, every disk of the bundle), the facts shown (`shown`, a `--device` subset of
/// `all`, or `all` itself) and the findings.
///
/// The facts of the whole bundle come first, so a `--device` output numbers its tokens as
/// the evidence bundle of the same run does.
pub(crate) fn redactor_for(
    b: &EvidenceBundle,
    all: &SystemFacts,
    shown: &SystemFacts,
    findings: &[Finding],
) -> Redactor {
    let mut red = Redactor::new();
    red.note_type_guids(b);
    red.collect_facts(all);
    if shown != all {
        red.collect_facts(shown);
    }
    red.collect_bundle(b);
    red.collect_findings(findings);
    red
}

/// The evidence bundle to write with `--evidence-out`: secrets as tokens, device reads cut
/// to the partition-table bytes. The facts are derived from the bundle first, so the tokens
/// are those of the report of the same run.
pub fn redact_bundle(b: &EvidenceBundle) -> EvidenceBundle {
    let all = crate::facts::derive(b);
    redactor_for(b, &all, &all, &[]).apply_bundle(b)
}

/// The JSON of the evidence bundle to write with `--evidence-out`: [`redact_bundle`], and
/// the final check ([`Redactor::verify`]) on the text to be written.
pub fn share_bundle(b: &EvidenceBundle) -> Result<String, Leak> {
    let all = crate::facts::derive(b);
    let red = redactor_for(b, &all, &all, &[]);
    let json = red.apply_bundle(b).to_json();
    red.verify(&json)?;
    Ok(json)
}
