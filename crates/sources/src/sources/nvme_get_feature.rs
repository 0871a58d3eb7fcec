//! `nvme get-feature DEV -f FID [-H]` (nvme-cli): one NVMe feature's value. nvme-cli prints
//! "get-feature:0xc (Autonomous Power State Transition), Current value:0x000001"
//! (nvme-print.c `nvme_feature_show`: "get-feature:%#0*x (%s), %s value:%#0*x", the
//! value's kind "Current", "Default", "Saved" or "Supported capabilities"), and with -H the
//! fields decoded one per tab-indented line (`nvme_feature_show_fields`). For Autonomous
//! Power State Transition (FID 0Ch, NVMe Base Specification 5.27.1.12) that is "Autonomous
//! Power State Transition Enable (APSTE): Enabled" and, per table entry,
//! "Entry[ 0]", "Idle Time Prior to Transition (ITPT): 275 ms" and
//! "Idle Transition Power State   (ITPS): 3": after that much idle time the controller
//! moves itself to that non-operational power state. APST enabled is the normal state of a
//! drive under Linux (drivers/nvme/host/core.c nvme_configure_apst); only a reset or a
//! timeout while the drive sleeps (the kernel log) shows it hurting.

use crate::sources::{spec, util};

/// One APST table entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ApstEntry {
    pub index: u32,
    pub idle_ms: u64,
    pub power_state: u32,
}

/// One `get-feature` answer.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct NvmeFeature {
    /// The feature id (0x0c).
    pub fid: u32,
    /// Its name as nvme-cli prints it ("Autonomous Power State Transition").
    pub name: String,
    /// "Current", "Default", "Saved".
    pub kind: String,
    pub value: u64,
    /// APST: "APSTE: Enabled" (None for another feature, or without -H).
    pub apst_enabled: Option<bool>,
    /// APST: the table entries whose idle time is not zero (an entry of 0 ms is unused).
    pub apst_entries: Vec<ApstEntry>,
}

fn hex(s: &str) -> Option<u64> {
    let s = s.trim();
    let h = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X"))?;
    u64::from_str_radix(h, 16).ok()
}

/// "get-feature:0xc (Autonomous Power State Transition), Current value:0x000001".
fn header(l: &str) -> Option<NvmeFeature> {
    let rest = l.trim().strip_prefix("get-feature:")?;
    let (fid, rest) = rest.split_once(' ')?;
    let fid = u32::try_from(hex(fid)?).ok()?;
    let rest = rest.trim_start().strip_prefix('(')?;
    let (name, rest) = rest.split_once("),")?;
    let (kind, value) = rest.trim().split_once(" value:")?;
    Some(NvmeFeature {
        fid,
        name: name.to_string(),
        kind: kind.to_string(),
        value: hex(value)?,
        ..NvmeFeature::default()
    })
}

/// The number after `key` up to the first non-digit ("ITPT): 275 ms" -> 275).
fn number_after(l: &str, key: &str) -> Option<u64> {
    util::leading_u64(l.split_once(key)?.1.trim_start_matches([':', ' ']))
}

/// Every feature answer in the text, with the fields -H decoded under it.
pub fn parse(text: &str) -> Vec<NvmeFeature> {
    let mut out: Vec<NvmeFeature> = Vec::new();
    let mut entry: Option<u32> = None;
    let mut idle: Option<u64> = None;
    for raw in text.lines() {
        let l = util::clean_line(raw);
        let t = l.trim();
        if let Some(f) = header(t) {
            out.push(f);
            entry = None;
            continue;
        }
        let Some(f) = out.last_mut() else { continue };
        if let Some(v) = t.strip_prefix("Autonomous Power State Transition Enable (APSTE):") {
            f.apst_enabled = match v.trim() {
                "Enabled" => Some(true),
                "Disabled" => Some(false),
                _ => None,
            };
        } else if let Some(i) = t.strip_prefix("Entry[") {
            entry = i.split_once(']').and_then(|(n, _)| n.trim().parse().ok());
            idle = None;
        } else if t.starts_with("Idle Time Prior to Transition") {
            idle = number_after(t, "(ITPT)");
        } else if t.starts_with("Idle Transition Power State") {
            let ps = number_after(t, "(ITPS)").and_then(|v| u32::try_from(v).ok());
            if let (Some(index), Some(idle_ms), Some(power_state)) = (entry, idle, ps)
                && idle_ms > 0
            {
                f.apst_entries.push(ApstEntry {
                    index,
                    idle_ms,
                    power_state,
                });
            }
        }
    }
    out
}

// ---- the source spec (see sources::spec) ----

fn is_field(l: &str) -> bool {
    let t = l.trim();
    t.starts_with("Autonomous Power State Transition")
        || t.starts_with("Auto PST Entries")
        || t.starts_with("Entry[")
        || t.starts_with("Idle Time Prior to Transition")
        || t.starts_with("Idle Transition Power State")
        || (!t.is_empty() && t.chars().all(|c| c == '.'))
        // Another feature's -H fields: "Power State   (PS): 0", tab-indented.
        || (l.starts_with(['\t', ' ']) && t.contains("): "))
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "nvme-get-feature",
    starts: &[(40, |lines| {
        spec::on_first(lines, |l| header(&util::clean_line(l)).is_some())
    })],
    member: |l, _| {
        let c = util::clean_line(l);
        spec::Member::from(header(&c).is_some() || is_field(&c) || is_field(l))
    },
    tolerance: (1, 0),
    classify: |_, _| "nvme-get-feature",
    ..spec::Recogniser::NONE
};

/// `nvme get-feature`: pasted beside a question, not captured by a probe.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Linux),
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, a| {
        p == "nvme" && a.trim_start().starts_with("get-feature")
    })),
    ..spec::SourceSpec::named("nvme-get-feature", "nvme get-feature")
};

#[cfg(test)]
mod tests;
