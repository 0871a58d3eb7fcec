//! `tlp-stat` (TLP, linrunner/TLP, tlp-stat.in): the laptop power tool's report, in
//! sections each opened by a "+++ Title" line (`tlp-stat -d` prints "+++ Storage Devices"
//! and "+++ AHCI Link Power Management (ALPM)"; the whole report starts with
//! "--- TLP 1.6.1 ----"). The disk section lists "Devices = nvme0n1 sda", then per device
//! "/dev/nvme0n1:" with "  Type      = NVMe", "  Model     = ...", "  Firmware  = ...",
//! "  Scheduler = [none] mq-deadline ...", or "/dev/sda: not present." for a configured
//! device the machine does not have; the ALPM section one
//! "/sys/class/scsi_host/hostN/link_power_management_policy = min_power" per SATA host.
//! The report names hosts, not the disks behind them, so a host's ALPM policy is tied to no
//! disk here; a policy alone (min_power is TLP's default on battery) is no problem.

use crate::sources::{spec, util};

/// One device of the "Storage Devices" section.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct TlpDisk {
    /// "nvme0n1" (from "/dev/nvme0n1:").
    pub name: String,
    /// "/dev/sda: not present.": configured in TLP, absent from the machine.
    pub present: bool,
    /// "NVMe", "ATA", "USB".
    pub kind: Option<String>,
    pub model: Option<String>,
    pub firmware: Option<String>,
    /// The scheduler in use (the bracketed one of "[none] mq-deadline kyber bfq").
    pub scheduler: Option<String>,
}

/// What a `tlp-stat` report says about storage.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct TlpStat {
    pub disks: Vec<TlpDisk>,
    /// (scsi_host, policy): "host0", "min_power".
    pub alpm: Vec<(String, String)>,
}

/// Parse the storage parts of a report.
pub fn parse(text: &str) -> TlpStat {
    let mut out = TlpStat::default();
    for raw in text.lines() {
        let l = util::clean_line(raw);
        let t = l.trim();
        if let Some(rest) = t.strip_prefix("/dev/")
            && let Some((name, after)) = rest.split_once(':')
            && !name.is_empty()
            && !name.contains(char::is_whitespace)
        {
            out.disks.push(TlpDisk {
                name: name.to_string(),
                present: !after.trim_start().starts_with("not present"),
                ..TlpDisk::default()
            });
            continue;
        }
        if let Some(path) = t.strip_prefix("/sys/class/scsi_host/")
            && let Some((host, v)) = path.split_once("/link_power_management_policy")
        {
            let policy = v.trim_start().trim_start_matches('=').trim();
            if !policy.is_empty() {
                out.alpm.push((host.to_string(), policy.to_string()));
            }
            continue;
        }
        // "  Type      = NVMe" under the last "/dev/X:" line, indented.
        if !l.starts_with(' ') {
            continue;
        }
        let Some(d) = out.disks.last_mut() else {
            continue;
        };
        let Some((k, v)) = t.split_once('=') else {
            continue;
        };
        let v = v.trim();
        match k.trim() {
            "Type" => d.kind = Some(v.to_string()),
            "Model" => d.model = Some(v.to_string()),
            "Firmware" => d.firmware = Some(v.to_string()),
            "Scheduler" => {
                d.scheduler = v
                    .split_once('[')
                    .and_then(|(_, r)| r.split_once(']'))
                    .map(|(s, _)| s.to_string());
            }
            _ => {}
        }
    }
    out
}

// ---- the source spec (see sources::spec) ----

fn is_section(l: &str) -> bool {
    let t = util::clean_line(l);
    let t = t.trim_start();
    t.starts_with("+++ ") && t.len() > 4
}

fn start(lines: &[&str]) -> spec::Start {
    let Some(first) = lines.first().map(|l| util::clean_line(l)) else {
        return spec::Start::No;
    };
    let t = first.trim_start();
    // "--- TLP 1.6.1 --------" (the report's banner) or a section title followed by one of
    // its "key = value" lines.
    let banner = t.starts_with("--- TLP ") && t.ends_with("---");
    let section = is_section(t)
        && lines
            .get(1)
            .is_some_and(|n| util::clean_line(n).contains(" = "));
    spec::Start::from(banner || section)
}

fn member(l: &str, _: &spec::BlockState) -> spec::Member {
    let c = util::clean_line(l);
    let t = c.trim();
    spec::Member::from(
        is_section(t)
            || t.contains(" = ")
            || (t.starts_with("/dev/") && t.contains(':'))
            || (c.starts_with("  ") && !t.is_empty()),
    )
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "tlp-stat",
    starts: &[(40, start)],
    member,
    tolerance: (2, 1),
    classify: |_, _| "tlp-stat",
    ..spec::Recogniser::NONE
};

/// `tlp-stat`: pasted beside a question; the live probe reads sysfs itself.
pub const SPEC: spec::SourceSpec = spec::pasted_only!(
    "tlp-stat",
    "tlp-stat",
    Some(crate::evidence::Platform::Linux),
    &RECOGNISER,
    parse: |t| {
        let r = parse(t);
        r.disks.len().saturating_add(r.alpm.len())
    },
    secrets: &[],
);

#[cfg(test)]
mod tests;
