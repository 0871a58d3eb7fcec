//! Dell OpenManage Server Administrator's `omreport storage vdisk [controller=N]` and
//! `omreport storage pdisk controller=N` (also `omreport storage battery`, whose sections
//! are read only to keep them in the block). Reference: the Dell OpenManage Server
//! Administrator command line interface guide, "omreport storage": each object is a section
//! of padded "Key : Value" lines after a "Controller PERC H710 Mini (Embedded)" line; a
//! virtual disk prints "ID", "Status" (Ok, Non-Critical, Critical), "State" (Ready,
//! Degraded, Failed, Rebuilding, Background Initialization, Resynching), "Layout" (RAID-5),
//! "Device Name" (the OS node, /dev/sda), "Write Policy" (Write Back, Write Through, Force
//! Write Back), "Disk Cache Policy" (Enabled, Disabled); a physical disk "ID" (0:0:1),
//! "State" (Online, Failed, Rebuilding, Offline) and "Failure Predicted" (Yes, No). A
//! virtual disk the controller runs Write Through makes every write wait for its drives (a
//! PERC falls back to it when its battery fails or learns, or it was set so), the classic
//! slow RAID volume.

use crate::sources::raid_controller::{ControllerReport, LogicalDrive, PhysicalDrive};
use crate::sources::spec;
use crate::sources::util::clean_line;

/// A virtual disk the controller runs write-through.
#[derive(Debug, Clone, PartialEq)]
pub struct WriteThrough {
    /// "Virtual Disk 0" (its Name, else "vdisk ID").
    pub name: String,
    /// The OS node from "Device Name", without /dev/ ("sda"); None when not printed.
    pub device: Option<String>,
    /// The "Write Policy" line as printed.
    pub line: String,
}

/// What an omreport storage output says.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Omreport {
    pub report: ControllerReport,
    pub write_through: Vec<WriteThrough>,
}

fn kv(t: &str) -> Option<(&str, &str)> {
    let (k, v) = t.split_once(" : ").or_else(|| t.split_once(": "))?;
    let k = k.trim();
    (!k.is_empty()
        && k.len() <= 40
        && k.chars()
            .all(|c| c.is_ascii_alphanumeric() || " ./-()".contains(c)))
    .then_some((k, v.trim()))
}

#[derive(Default)]
struct Section {
    /// "vdisk" or "pdisk" once its keys tell which (Layout/Write Policy vs Failure Predicted).
    id: Option<String>,
    name: Option<String>,
    state: Option<String>,
    state_line: String,
    layout: Option<String>,
    device: Option<String>,
    write_policy: Option<(String, String)>,
    failure_predicted: bool,
    pdisk: bool,
    vdisk: bool,
}

fn flush(out: &mut Omreport, s: Section) {
    if s.vdisk {
        let name = s
            .name
            .clone()
            .or_else(|| s.id.as_ref().map(|i| format!("vdisk {i}")))
            .unwrap_or_else(|| "vdisk".to_string());
        if let Some(state) = &s.state {
            out.report.logical.push(LogicalDrive::from_state(
                name.clone(),
                s.layout.clone(),
                state,
                &s.state_line,
            ));
        }
        if let Some((policy, line)) = &s.write_policy
            // "Write Through" (and its older "Write-Through"); "Force Write Back" and
            // "Write Back" keep the cache.
            && policy.to_ascii_lowercase().replace('-', " ").contains("write through")
        {
            out.write_through.push(WriteThrough {
                name,
                device: s
                    .device
                    .as_deref()
                    .filter(|d| d.starts_with("/dev/"))
                    .map(|d| d.trim_start_matches("/dev/").to_string()),
                line: line.clone(),
            });
        }
    } else if s.pdisk
        && let Some(id) = &s.id
    {
        let state = s.state.clone().unwrap_or_default();
        let mut d = PhysicalDrive::from_state(id, &state, &s.state_line);
        d.predictive_failure |= s.failure_predicted;
        if d.has_problem() {
            out.report.physical.push(d);
        }
    }
}

pub fn parse(text: &str) -> Omreport {
    let mut out = Omreport::default();
    let mut sec: Option<Section> = None;
    for raw in text.lines() {
        let l = clean_line(raw);
        let t = l.trim();
        let Some((k, v)) = kv(t) else {
            continue;
        };
        if k == "ID" {
            if let Some(s) = sec.take() {
                flush(&mut out, s);
            }
            sec = Some(Section {
                id: Some(v.to_string()),
                ..Default::default()
            });
            continue;
        }
        let Some(s) = sec.as_mut() else {
            continue;
        };
        match k {
            "Name" => s.name = Some(v.to_string()),
            "State" => {
                s.state = Some(v.to_string());
                s.state_line = t.to_string();
            }
            "Layout" => {
                s.layout = Some(v.to_string());
                s.vdisk = true;
            }
            "Device Name" => {
                s.device = Some(v.to_string());
                s.vdisk = true;
            }
            "Write Policy" => {
                s.write_policy = Some((v.to_string(), t.to_string()));
                s.vdisk = true;
            }
            "Failure Predicted" => {
                s.failure_predicted = v.eq_ignore_ascii_case("yes");
                s.pdisk = true;
            }
            "Vendor ID" | "Product ID" | "Serial No." | "Capacity" => s.pdisk = true,
            _ => {}
        }
    }
    if let Some(s) = sec.take() {
        flush(&mut out, s);
    }
    out
}

fn is_member(line: &str) -> bool {
    let l = clean_line(line);
    let t = l.trim();
    kv(t).is_some() || is_heading(t) || t.starts_with("Controller ") || t.starts_with("Battery ")
}

/// The title line omreport prints above its sections.
fn is_heading(t: &str) -> bool {
    t == "List of Virtual Disks in the System"
        || t.starts_with("List of Virtual Disks on Controller")
        || t.starts_with("List of Physical Disks on Controller")
        || t.starts_with("List of Physical Disks belonging to")
        || (t.starts_with("Battery ") && t.contains(" on Controller "))
}

fn start(lines: &[&str]) -> spec::Start {
    let Some(first) = lines.first() else {
        return spec::Start::No;
    };
    let l = clean_line(first);
    spec::Start::from(is_heading(l.trim()))
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "omreport",
    starts: &[(64, start)],
    member: |t, _| spec::Member::from(is_member(t)),
    // A heading, a blank line, the controller's line, its sections one blank line apart.
    tolerance: (2, 1),
    classify: |_, _| "omreport",
    ..spec::Recogniser::NONE
};

fn args(a: &str) -> bool {
    a.trim_start().starts_with("storage")
}

pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    parse: Some(|t| {
        let o = parse(t);
        o.report.len().saturating_add(o.write_through.len())
    }),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, _| p == "omreport")),
    programs: &[spec::Program::new("omreport", args)],
    mention: Some(r"omreport\s+storage\s+(?:vdisk|pdisk|battery)"),
    secrets: &[
        spec::Secret::After("serial no.", spec::SecretKind::Serial),
        spec::Secret::After("sas address", spec::SecretKind::Wwn),
    ],
    ..spec::SourceSpec::named("omreport", "Dell OpenManage omreport storage")
};

#[cfg(test)]
mod tests;
