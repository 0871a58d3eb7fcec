//! Adaptec/Microchip `arcconf getconfig N [LD|PD|AL]` and `arcconf getstatus N`. Reference:
//! the arcconf command line utility user guide: "Logical device number N" (3.x: "Logical
//! Device number N") sections with "Status of logical device : Optimal | Degraded |
//! Impacted | Failed | Offline"; "Device #N" sections with "State : Online | Failed |
//! Rebuilding | Defunct | Hot Spare | Ready", "Reported Location : Enclosure 0, Slot 3",
//! "S.M.A.R.T. warnings : N"; getstatus's "Logical device Task:" with "Current operation :
//! Rebuild | Build/Verify | Verify with fix | Expand", "Percentage complete : N". Keys are
//! padded "Key   : value" lines, indented by section depth.
//!
//! A logical device's write cache: "Write-cache setting : Enabled (write-back) when protected
//! by battery/ZMM" is what it was given, "Write-cache status : Off" (older: "Write-cache mode :
//! Disabled (write-through)") what it runs; the controller drops to write-through while its
//! battery/ZMM cannot protect the cache. 3.x controllers print HPE's "Cache Status :
//! Temporarily Disabled" (sources::raid_controller::cache_status_off).

use crate::sources::raid_controller::{
    CacheOff, ControllerReport, LogicalDrive, PhysicalDrive, cache_status_off, logical_state,
    physical_state, write_through,
};
use crate::sources::spec;
use crate::sources::util::{clean_line, leading_f64, leading_u64};

crate::rx!(LD_HEAD, r"^(?i:logical device number) (\d+)\s*$");
crate::rx!(PD_HEAD, r"^Device #(\d+)\s*$");

fn kv(t: &str) -> Option<(&str, &str)> {
    let (k, v) = t
        .split_once(" : ")
        .or_else(|| t.strip_suffix(" :").map(|k| (k, "")))?;
    Some((k.trim(), v.trim()))
}

enum Section {
    None,
    Ld(usize),
    Pd(usize),
    Task,
}

/// Every logical and physical device of the text.
pub fn parse(text: &str) -> ControllerReport {
    let mut out = ControllerReport::default();
    let mut sec = Section::None;
    // getstatus: (logical device number, operation, percent).
    let mut task: (Option<String>, Option<String>, Option<f64>) = (None, None, None);
    // Per logical device: its write-cache setting, and the line saying it runs write-through.
    let mut wc: Vec<(Option<String>, Option<String>)> = Vec::new();
    let mut model = String::from("the controller");
    for raw in text.lines() {
        let line = clean_line(raw);
        let t = line.trim();
        if let Some(c) = LD_HEAD.captures(t) {
            out.logical.push(LogicalDrive {
                name: format!("logical device {}", c.get(1).map_or("", |m| m.as_str())),
                ..Default::default()
            });
            sec = Section::Ld(out.logical.len().saturating_sub(1));
            wc.push((None, None));
            continue;
        }
        if let Some(c) = PD_HEAD.captures(t) {
            out.physical.push(PhysicalDrive {
                address: format!("device #{}", c.get(1).map_or("", |m| m.as_str())),
                ..Default::default()
            });
            sec = Section::Pd(out.physical.len().saturating_sub(1));
            continue;
        }
        if t.starts_with("Logical device Task") || t.starts_with("Logical Device Task") {
            sec = Section::Task;
            continue;
        }
        let Some((k, v)) = kv(t) else { continue };
        match sec {
            Section::Ld(i) => {
                let Some(d) = out.logical.get_mut(i) else {
                    continue;
                };
                match k.to_ascii_lowercase().as_str() {
                    "logical device name" if !v.is_empty() => {
                        d.name = format!("{} ({v})", d.name);
                    }
                    "raid level" => d.level = Some(format!("RAID {v}")),
                    "write-cache setting" | "write-cache status" | "write-cache mode" => {
                        let Some(w) = wc.get_mut(i) else { continue };
                        if k.ends_with("setting") {
                            w.0 = Some(v.to_string());
                        } else if v.eq_ignore_ascii_case("off") || write_through(v) == Some(true) {
                            w.1 = Some(t.to_string());
                        }
                    }
                    "status of logical device" => {
                        let (degraded, task) = logical_state(v);
                        d.state = v.to_string();
                        d.degraded = degraded;
                        d.task = d.task.or(task);
                        d.line = t.to_string();
                    }
                    _ => {}
                }
            }
            Section::Pd(i) => {
                let Some(p) = out.physical.get_mut(i) else {
                    continue;
                };
                match k {
                    "State" => {
                        let (failed, predictive, rebuilding) = physical_state(v);
                        p.state = v.to_string();
                        p.failed = failed;
                        p.predictive_failure |= predictive;
                        p.rebuilding = rebuilding;
                        p.line = t.to_string();
                    }
                    "Reported Location" => p.address = format!("{} ({v})", p.address),
                    // The drive's own failure prediction, counted by the controller.
                    "S.M.A.R.T. warnings" => {
                        p.predictive_count = leading_u64(v);
                        if p.predictive_count.is_some_and(|n| n > 0) {
                            p.predictive_failure = true;
                        }
                    }
                    _ => {}
                }
            }
            Section::Task => match k {
                "Logical device" | "Logical Device" => task.0 = Some(v.to_string()),
                "Current operation" => task.1 = Some(v.to_string()),
                "Percentage complete" => {
                    task.2 = leading_f64(v).filter(|p| (0.0..=100.0).contains(p))
                }
                _ => {}
            },
            Section::None => match k {
                "Controller Model" => model = v.to_string(),
                "Cache Status" if cache_status_off(v) => out.cache_off.push(CacheOff {
                    name: model.clone(),
                    line: t.to_string(),
                    fallback: true,
                    whole_controller: true,
                    why: None,
                }),
                _ => {}
            },
        }
    }
    for (d, (setting, off)) in out.logical.iter().zip(wc) {
        let Some(line) = off else { continue };
        let on = |s: &String| {
            write_through(s) == Some(false) || s.to_ascii_lowercase().starts_with("enabled")
        };
        out.cache_off.push(CacheOff {
            name: d.name.clone(),
            line,
            fallback: setting.as_ref().is_some_and(on),
            why: setting.map(|s| format!("write-cache setting {s}")),
            whole_controller: false,
        });
    }
    // getstatus alone names a device the getconfig part may not show.
    if let (Some(n), Some(op)) = (&task.0, &task.1) {
        let (_, t) = logical_state(op);
        let name = format!("logical device {n}");
        match out
            .logical
            .iter_mut()
            .find(|d| d.name == name || d.name.starts_with(&format!("{name} (")))
        {
            Some(d) => {
                d.task = d.task.or(t);
                d.percent = d.percent.or(task.2);
            }
            None => out.logical.push(LogicalDrive {
                name,
                state: op.clone(),
                task: t,
                percent: task.2,
                degraded: false,
                line: format!("Current operation : {op}"),
                ..Default::default()
            }),
        }
    }
    out.logical
        .retain(|d| !d.state.is_empty() || d.task.is_some());
    out.physical.retain(|p| !p.state.is_empty());
    out
}

// ---- the source spec (see sources::spec) ----

fn is_member(line: &str) -> bool {
    let l = clean_line(line);
    let t = l.trim();
    kv(t).is_some_and(|(k, _)| !k.is_empty() && k.len() <= 48)
        || LD_HEAD.is_match(t)
        || PD_HEAD.is_match(t)
        || t.chars().all(|c| c == '-')
        || t.to_ascii_lowercase().ends_with("information")
        || t.starts_with("Controllers found")
        || t.starts_with("Device is a")
        || t.starts_with("Logical device Task")
        || t.starts_with("Command completed")
}

fn start(lines: &[&str]) -> spec::Start {
    let Some(first) = lines.first() else {
        return spec::Start::No;
    };
    let l = clean_line(first);
    let t = l.trim();
    if t.starts_with("Controllers found:") {
        return spec::Start::Yes;
    }
    if LD_HEAD.is_match(t) {
        return spec::Start::Yes;
    }
    // "Controller information" or "Logical device information" under a dashed rule.
    spec::Start::from(
        (t == "Controller information" || t == "Logical device information")
            && lines
                .get(1)
                .is_some_and(|n| clean_line(n).trim().starts_with("----")),
    )
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "arcconf",
    starts: &[(64, start)],
    member: |t, _| spec::Member::from(is_member(t)),
    // Sections are titled by one line between dashed rules ("Power Settings") and
    // separated by up to three blank lines.
    tolerance: (3, 1),
    classify: |_, _| "arcconf",
    ..spec::Recogniser::NONE
};

fn args(a: &str) -> bool {
    let a = a.trim_start().to_ascii_lowercase();
    ["getconfig", "getstatus", "getlogs", "list"]
        .iter()
        .any(|w| a.starts_with(w))
}

pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, _| p == "arcconf")),
    programs: &[spec::Program::new("arcconf", args)],
    mention: Some(r"arcconf\s+(?:getconfig|getstatus)"),
    // "Serial number : X" is the generic rule's; these are arcconf's own.
    secrets: &[
        spec::Secret::After("world-wide name", spec::SecretKind::Wwn),
        spec::Secret::After("controller serial number", spec::SecretKind::Serial),
    ],
    ..spec::SourceSpec::named("arcconf", "Adaptec arcconf")
};

#[cfg(test)]
mod tests;
