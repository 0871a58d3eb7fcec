//! `nvme id-ctrl /dev/nvmeX` (nvme-cli): the Identify Controller data structure (NVMe Base
//! Specification, Figure "Identify Controller Data Structure"), printed by nvme-cli's
//! `stdout_id_ctrl` (nvme-print-stdout.c; `show_nvme_id_ctrl` in nvme-print.c of 1.x) as
//! "NVME Identify Controller:" then one "name<padding>: value" line per field, in the
//! specification's order ("vid", "ssvid", "sn", "mn", "fr", ... "apsta", "wctemp",
//! "cctemp", ...), and per power state "ps    N : mp:8.25W operational enlat:.. exlat:.."
//! with a continuation line "rwt:.. rwl:.. idle_power:.. active_power:..". It describes
//! the controller, not its health: a healthy drive's identify is answered as such.

use crate::sources::{spec, util};

crate::rx!(HEADER, r"^NVME Identify Controller:\s*$");
crate::rx!(FIELD, r"^([a-z][a-z0-9_]{1,11})\s*:\s*(.*?)\s*$");
crate::rx!(POWER_STATE, r"^ps\s+(\d+)\s*:\s*mp:(\d+(?:\.\d+)?)W\b");
crate::rx!(PS_TAIL, r"^rwt:\d+\s+rwl:\d+\b");

/// What the identify says that a diagnosis uses.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct IdCtrl {
    pub model: Option<String>,
    pub serial: Option<String>,
    pub firmware: Option<String>,
    /// APSTA bit 0: the controller supports Autonomous Power State Transitions.
    pub apst_supported: Option<bool>,
    /// WCTEMP / CCTEMP, the warning and critical composite temperatures, in kelvin as the
    /// structure holds them (nvme-cli prints the raw field, "343" for 70 C; newer releases
    /// append " K" or a Celsius figure in brackets).
    pub wctemp_k: Option<u64>,
    pub cctemp_k: Option<u64>,
    /// Maximum power of each power state, in watts, in state order.
    pub power_states_w: Vec<f64>,
}

/// A field's value as a number: "0x1" and "343" and "343 K" read alike.
fn number(v: &str) -> Option<u64> {
    let w = v.split_whitespace().next()?;
    match w.strip_prefix("0x") {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None => w.parse().ok(),
    }
}

/// The identify data in `text` (None when it holds no "NVME Identify Controller:" block).
pub(crate) fn parse(text: &str) -> Option<IdCtrl> {
    let mut lines = text.lines().map(util::clean_line);
    lines.by_ref().find(|l| HEADER.is_match(l.trim()))?;
    let mut id = IdCtrl::default();
    for l in lines {
        let t = l.trim();
        if let Some(c) = POWER_STATE.captures(t) {
            if let Some(w) = c.get(2).and_then(|w| w.as_str().parse::<f64>().ok()) {
                id.power_states_w.push(w);
            }
            continue;
        }
        let Some(c) = FIELD.captures(t) else {
            continue;
        };
        let (Some(k), Some(v)) = (c.get(1), c.get(2)) else {
            continue;
        };
        let v = v.as_str().trim();
        let text = || Some(v.to_string()).filter(|v| !v.is_empty());
        match k.as_str() {
            "mn" => id.model = text(),
            "sn" => id.serial = text(),
            "fr" => id.firmware = text(),
            "apsta" => id.apst_supported = number(v).map(|a| a & 1 == 1),
            "wctemp" => id.wctemp_k = number(v),
            "cctemp" => id.cctemp_k = number(v),
            _ => {}
        }
    }
    Some(id)
}

// ---- the source spec (see sources::spec) ----

fn start(lines: &[&str]) -> spec::Start {
    let first = lines
        .first()
        .map(|l| util::clean_line(l))
        .unwrap_or_default();
    let next = lines
        .get(1)
        .map(|l| util::clean_line(l))
        .unwrap_or_default();
    // The header, then the first field (vid) so that a sentence quoting the header is not
    // taken for the output.
    spec::Start::from(HEADER.is_match(first.trim()) && FIELD.is_match(next.trim()))
}

fn member(l: &str, _: &spec::BlockState) -> spec::Member {
    let l = util::clean_line(l);
    let t = l.trim();
    spec::Member::from(FIELD.is_match(t) || POWER_STATE.is_match(t) || PS_TAIL.is_match(t))
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "nvme-id-ctrl",
    starts: &[(40, start)],
    member,
    tolerance: (0, 0),
    classify: |_, _| "nvme-id-ctrl",
    ..spec::Recogniser::NONE
};

/// `nvme id-ctrl`: pasted beside a question about a drive (its model, firmware, APST).
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Linux),
    parse: Some(|t| usize::from(parse(t).is_some())),
    secrets: &[spec::Secret::Scan(|t| {
        parse(t)
            .and_then(|id| id.serial)
            .map(|s| spec::Found::sure(spec::SecretKind::Serial, &s))
            .into_iter()
            .collect()
    })],
    paste: Some(spec::Paste::new(&RECOGNISER, |p, a| {
        p == "nvme" && a.trim_start().starts_with("id-ctrl")
    })),
    ..spec::SourceSpec::named("nvme-id-ctrl", "nvme id-ctrl")
};

#[cfg(test)]
mod tests;
