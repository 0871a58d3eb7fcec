//! `hwinfo --disk` (openSUSE hwinfo, src/hd/hdp.c `dump_normal`): one entry per device,
//! opened by "30: IDE 100.0: 10600 Disk" (the entry index, its bus, the bus address, the
//! class code and the class name), then two-space-indented "Key: value" lines:
//! "[Created at block.245]", "Model: \"APPLE HDD HTS545\"", "Serial ID: \"...\"",
//! "Driver: \"ahci\", \"sd\"", "Device File: /dev/sda", "Size: 976773168 sectors a 512
//! bytes", "Capacity: 465 GB (500107862016 bytes)", "Attached to: #24 (SATA controller)".
//! An inventory: it names the disk and the driver that serves it, and shows no problem.

use crate::sources::{spec, util};

/// One hwinfo entry.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct HwinfoDevice {
    /// "Disk", "Partition", "Storage controller", ...
    pub class: String,
    pub device_file: Option<String>,
    pub model: Option<String>,
    pub serial: Option<String>,
    /// The drivers in use ("ahci", "sd").
    pub drivers: Vec<String>,
    /// "Capacity: 465 GB (500107862016 bytes)".
    pub bytes: Option<u64>,
    /// "Attached to: #24 (SATA controller)": the controller's class name.
    pub attached_to: Option<String>,
}

/// "30: IDE 100.0: 10600 Disk" -> the class name.
fn entry_header(l: &str) -> Option<String> {
    let (idx, rest) = l.split_once(": ")?;
    if idx.is_empty() || !idx.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let (_bus_addr, rest) = rest.split_once(": ")?;
    let (code, class) = rest.trim().split_once(' ')?;
    (code.len() == 5 && code.chars().all(|c| c.is_ascii_hexdigit()))
        .then(|| class.trim().to_string())
}

fn unquote(v: &str) -> String {
    v.trim().trim_matches('"').to_string()
}

/// Every entry in the text.
pub fn parse(text: &str) -> Vec<HwinfoDevice> {
    let mut out: Vec<HwinfoDevice> = Vec::new();
    for raw in text.lines() {
        let l = util::clean_line(raw);
        if let Some(class) = entry_header(l.trim_start()) {
            out.push(HwinfoDevice {
                class,
                ..HwinfoDevice::default()
            });
            continue;
        }
        let Some(d) = out.last_mut() else { continue };
        let Some((k, v)) = l.trim().split_once(": ") else {
            continue;
        };
        match k {
            "Device File" => d.device_file = v.split_whitespace().next().map(str::to_string),
            "Model" => d.model = Some(unquote(v)),
            "Serial ID" => d.serial = Some(unquote(v)),
            "Driver" => d.drivers = v.split(',').map(unquote).collect(),
            "Capacity" => {
                d.bytes = v.split_once('(').and_then(|(_, b)| util::leading_u64(b));
            }
            "Attached to" => {
                d.attached_to = v
                    .split_once('(')
                    .and_then(|(_, c)| c.split_once(')'))
                    .map(|(c, _)| c.to_string());
            }
            _ => {}
        }
    }
    out
}

// ---- the source spec (see sources::spec) ----

fn start(lines: &[&str]) -> spec::Start {
    let Some(first) = lines.first().map(|l| util::clean_line(l)) else {
        return spec::Start::No;
    };
    let next = lines
        .get(1)
        .map(|l| util::clean_line(l))
        .unwrap_or_default();
    spec::Start::from(
        entry_header(first.trim_start()).is_some() && next.trim_start().starts_with("[Created at "),
    )
}

fn member(l: &str, _: &spec::BlockState) -> spec::Member {
    let c = util::clean_line(l);
    let t = c.trim_start();
    spec::Member::from(
        entry_header(t).is_some()
            || (c.starts_with("  ") && (t.starts_with('[') || t.contains(": "))),
    )
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "hwinfo",
    starts: &[(40, start)],
    member,
    tolerance: (1, 0),
    classify: |_, _| "hwinfo",
    ..spec::Recogniser::NONE
};

/// `hwinfo`: pasted beside a question, not captured by a probe.
pub const SPEC: spec::SourceSpec = spec::pasted_only!(
    "hwinfo",
    "hwinfo",
    Some(crate::evidence::Platform::Linux),
    &RECOGNISER,
    parse: |t| parse(t).len(),
    // "Serial ID: \"...\"": the entry's own layout locates it, quotes and all.
    secrets: &[spec::Secret::Scan(|t| {
        parse(t)
            .iter()
            .filter_map(|d| d.serial.as_deref())
            .filter(|s| !s.is_empty())
            .map(|s| spec::Found::sure(spec::SecretKind::Serial, s))
            .collect()
    })],
);

#[cfg(test)]
mod tests;
