//! LSI/Broadcom `MegaCli -LDInfo -Lall -aALL` and `MegaCli -PDList -aALL` (MegaCli64,
//! megacli). Reference: MegaRAID SAS software user guide (MegaCli chapter): virtual drive
//! sections "Virtual Drive: N (Target Id: N)" with "State : Optimal | Degraded | Partially
//! Degraded | Offline" and "Ongoing Progresses: Rebuild : Completed 45%, Taken 20 min.";
//! physical drive sections "Enclosure Device ID: 32" / "Slot Number: 4" with "Media Error
//! Count: N", "Other Error Count: N" (unexpected sense, bus resets: not the medium),
//! "Predictive Failure Count: N" and "Firmware state: Online, Spun Up | Failed | Rebuild |
//! Offline | Unconfigured(bad)", and "Drive has flagged a S.M.A.R.T alert : Yes".
//! Also the progress lines of `-PDRbld -ShowProg` ("Rebuild Progress on Device at Enclosure
//! 32, Slot 4 Completed 45% in 20 Minutes.") and `-LDCC|-LDBI|-LDRecon -ShowProg` ("Check
//! Consistency on VD #0 (target id #0) Completed 1% in 0 Minutes."), the virtual drive's
//! "Default Cache Policy:" / "Current Cache Policy:" pair (`-LDGetProp -Cache` prints the
//! current one: "Adapter 0-VD 0(target id: 0): Cache Policy:WriteBack, ..."), and the BBU's
//! "Battery State:" of `-AdpBbuCmd`. The user guide: the current policy falls back to
//! WriteThrough from a WriteBack default while the BBU is bad, charging or in a learn cycle
//! ("No Write Cache if Bad BBU"); a WriteThrough default is the owner's setting.

use crate::sources::raid_controller::{
    CacheOff, ControllerReport, LogicalDrive, PhysicalDrive, logical_state, percent,
    physical_state, write_through,
};
use crate::sources::spec;
use crate::sources::util::{clean_line, leading_u64};

crate::rx!(VD, r"^Virtual (?:Drive|Disk):\s*(\d+)");
crate::rx!(ADAPTER, r"^Adapter\s*#?(\d+)");
crate::rx!(
    GETPROP,
    r"^Adapter\s*(\d+)-VD\s*(\d+)\s*\((?i:target id):\s*\d+\):\s*Cache Policy:\s*(.+)$"
);
crate::rx!(
    PROGRESS,
    r"^(?:Rebuild Progress on Device at Enclosure\s*([^,]*),\s*Slot\s*(\d+)|(Check Consistency|Background Initialization|Reconstruction|Initialization) on VD #(\d+)\b.*?)\s+(?i:Completed)\s+(\d{1,3})%"
);

fn kv(t: &str) -> Option<(&str, &str)> {
    let (k, v) = t.split_once(':')?;
    Some((k.trim(), v.trim()))
}

/// Every virtual and physical drive of the text.
pub fn parse(text: &str) -> ControllerReport {
    let mut out = ControllerReport::default();
    let mut adapter = String::from("0");
    let mut enclosure: Option<String> = None;
    // Which kind of section the last heading opened.
    let mut in_pd = false;
    // The virtual drive's default write policy (write-through?, as printed).
    let mut default: Option<(bool, String)> = None;
    for raw in text.lines() {
        let line = clean_line(raw);
        let t = line.trim();
        let cap =
            |c: &regex::Captures<'_>, i: usize| c.get(i).map_or("", |m| m.as_str()).to_string();
        if let Some(c) = GETPROP.captures(t) {
            if write_through(cap(&c, 3).split(',').next().unwrap_or("")) == Some(true) {
                let name = format!("virtual drive {} of adapter {}", cap(&c, 2), cap(&c, 1));
                out.cache_off.push(cache_off(name, t, None));
            }
            continue;
        }
        if let Some(c) = PROGRESS.captures(t) {
            progress(&mut out, &c, &adapter, t);
            continue;
        }
        if let Some(c) = ADAPTER.captures(t) {
            adapter = c.get(1).map_or("0", |m| m.as_str()).to_string();
            continue;
        }
        if let Some(c) = VD.captures(t) {
            out.logical.push(LogicalDrive {
                name: format!(
                    "virtual drive {} of adapter {adapter}",
                    c.get(1).map_or("", |m| m.as_str())
                ),
                ..Default::default()
            });
            in_pd = false;
            default = None;
            continue;
        }
        let Some((k, v)) = kv(t) else { continue };
        match k {
            "Enclosure Device ID" => enclosure = Some(v.to_string()),
            "Slot Number" => {
                out.physical.push(PhysicalDrive {
                    address: format!(
                        "[{}:{v}] of adapter {adapter}",
                        enclosure.as_deref().unwrap_or("")
                    ),
                    ..Default::default()
                });
                in_pd = true;
            }
            "State" if !in_pd => {
                if let Some(d) = out.logical.last_mut() {
                    let (degraded, task) = logical_state(v);
                    d.state = v.to_string();
                    d.degraded = degraded;
                    d.task = d.task.or(task);
                    d.line = t.to_string();
                }
            }
            "Default Cache Policy" | "Current Cache Policy" if !in_pd => {
                let first = v.split(',').next().unwrap_or("").trim();
                let Some(wt) = write_through(first) else {
                    continue;
                };
                if k.starts_with("Default") {
                    default = Some((wt, first.to_string()));
                } else if wt {
                    let name = out.logical.last().map_or_else(
                        || format!("virtual drive of adapter {adapter}"),
                        |d| d.name.clone(),
                    );
                    out.cache_off.push(cache_off(name, t, default.as_ref()));
                }
            }
            "Battery State" => out.cache_protection = Some(v.to_string()),
            "RAID Level" if !in_pd => {
                if let Some(d) = out.logical.last_mut() {
                    d.level = Some(v.to_string());
                }
            }
            // "Rebuild : Completed 45%, Taken 20 min." under "Ongoing Progresses:".
            "Rebuild" | "Check Consistency" | "Background Initialization" | "Reconstruction"
                if !in_pd =>
            {
                if let Some(d) = out.logical.last_mut() {
                    let (_, task) = logical_state(k);
                    d.task = d.task.or(task);
                    d.percent = d.percent.or_else(|| percent(v));
                }
            }
            "Media Error Count"
            | "Predictive Failure Count"
            | "Firmware state"
            | "Drive has flagged a S.M.A.R.T alert"
                if in_pd =>
            {
                let Some(p) = out.physical.last_mut() else {
                    continue;
                };
                match k {
                    "Media Error Count" => p.media_errors = leading_u64(v),
                    "Predictive Failure Count" => {
                        p.predictive_count = leading_u64(v);
                        p.predictive_failure |= p.predictive_count.is_some_and(|n| n > 0);
                    }
                    "Firmware state" => {
                        let (failed, predictive, rebuilding) = physical_state(v);
                        p.state = v.to_string();
                        p.failed = failed;
                        p.predictive_failure |= predictive;
                        p.rebuilding = rebuilding;
                        p.line = t.to_string();
                    }
                    _ => p.predictive_failure |= v.eq_ignore_ascii_case("yes"),
                }
            }
            _ => {}
        }
    }
    out.logical.retain(|d| !d.state.is_empty());
    out.physical.retain(|p| !p.state.is_empty());
    out
}

/// A virtual drive running write-through; a fallback when its default is write-back.
fn cache_off(name: String, line: &str, default: Option<&(bool, String)>) -> CacheOff {
    CacheOff {
        name,
        line: line.to_string(),
        fallback: default.is_some_and(|d| !d.0),
        why: default.map(|d| format!("default cache policy {}", d.1)),
        whole_controller: false,
    }
}

/// A `-ShowProg` line: a rebuild onto a drive, or a task on a virtual drive.
fn progress(out: &mut ControllerReport, c: &regex::Captures<'_>, adapter: &str, t: &str) {
    let pct = c
        .get(5)
        .and_then(|m| m.as_str().parse::<f64>().ok())
        .filter(|p| *p <= 100.0);
    let (name, op) = match (c.get(2), c.get(3), c.get(4)) {
        (Some(slot), _, _) => {
            let enc = c.get(1).map_or("", |m| m.as_str().trim());
            let name = format!(
                "rebuild onto [{enc}:{}] of adapter {adapter}",
                slot.as_str()
            );
            (name, "Rebuild")
        }
        (None, Some(op), Some(vd)) => (
            format!("virtual drive {} of adapter {adapter}", vd.as_str()),
            op.as_str(),
        ),
        _ => return,
    };
    let (degraded, task) = logical_state(op);
    match out.logical.iter_mut().find(|d| d.name == name) {
        Some(d) => {
            d.task = d.task.or(task);
            d.percent = d.percent.or(pct);
        }
        None => out.logical.push(LogicalDrive {
            name,
            state: op.to_string(),
            degraded,
            task,
            percent: pct,
            line: t.to_string(),
            ..Default::default()
        }),
    }
}

// ---- the source spec (see sources::spec) ----

fn is_member(line: &str) -> bool {
    let l = clean_line(line);
    let t = l.trim();
    VD.is_match(t)
        || ADAPTER.is_match(t)
        || PROGRESS.is_match(t)
        || kv(t).is_some_and(|(k, _)| !k.is_empty() && k.len() <= 48)
        || t.starts_with("Exit Code")
}

fn start(lines: &[&str]) -> spec::Start {
    let Some(first) = lines.first() else {
        return spec::Start::No;
    };
    let l = clean_line(first);
    let t = l.trim();
    let next_has = |key: &str| {
        lines
            .iter()
            .skip(1)
            .take(4)
            .any(|n| clean_line(n).trim_start().starts_with(key))
    };
    if VD.is_match(t) {
        return spec::Start::from(next_has("Name") || next_has("RAID Level"));
    }
    if t.starts_with("Adapter #") || t.starts_with("Adapter 0 -- Virtual") {
        return spec::Start::from(
            next_has("Enclosure Device ID")
                || next_has("Virtual Drive")
                || next_has("Virtual Disk"),
        );
    }
    // The lines a grep or a -ShowProg / -LDGetProp / -AdpBbuCmd run prints alone.
    if t.starts_with("Default Cache Policy:")
        || t.starts_with("Current Cache Policy:")
        || GETPROP.is_match(t)
        || PROGRESS.is_match(t)
        || (t.starts_with("BBU status for Adapter") && next_has("BatteryType"))
    {
        return spec::Start::Yes;
    }
    spec::Start::from(t.starts_with("Enclosure Device ID") && next_has("Slot Number"))
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "megacli",
    starts: &[(65, start)],
    member: |t, _| spec::Member::from(is_member(t)),
    tolerance: (2, 0),
    classify: |_, _| "megacli",
    ..spec::Recogniser::NONE
};

fn args(a: &str) -> bool {
    a.trim_start().starts_with('-')
}

/// MegaCli's "Inquiry Data:" runs the drive's vendor, model, firmware and serial together
/// ("SEAGATE ST3600057SS     ES656SL1XXXX", "WD-WMAW30959975WDC WD1003FBYX-01Y7B1 01.01V02"):
/// the word that holds the serial is kept as one secret.
fn inquiry(text: &str) -> Vec<spec::Found> {
    let mut out = Vec::new();
    for l in text.lines() {
        let l = clean_line(l);
        let Some(v) = l.trim().strip_prefix("Inquiry Data:") else {
            continue;
        };
        let words: Vec<&str> = v.split_whitespace().collect();
        let cand = if words
            .first()
            .is_some_and(|w| w.contains("WD-") || w.len() >= 14)
        {
            words.first()
        } else {
            words.last()
        };
        if let Some(w) = cand
            && w.len() >= 8
        {
            out.push(spec::Found::sure(spec::SecretKind::Serial, w));
        }
    }
    out
}

pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, _| {
        matches!(p, "MegaCli" | "MegaCli64" | "megacli")
    })),
    programs: &[
        spec::Program::new("MegaCli", args),
        spec::Program::new("MegaCli64", args),
        spec::Program::new("megacli", args),
    ],
    // "WWN: X" is smartd's rule; "SAS Address(0): 0x..." is MegaCli's own.
    secrets: &[
        spec::Secret::Scan(inquiry),
        spec::Secret::After("sas address(0):", spec::SecretKind::Wwn),
        spec::Secret::After("sas address(1):", spec::SecretKind::Wwn),
    ],
    ..spec::SourceSpec::named("megacli", "LSI MegaCli")
};

#[cfg(test)]
mod tests;
