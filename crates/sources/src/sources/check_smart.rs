//! The check_smart monitoring plugin's verdict line (Nagios/Icinga, Napsty/check_smart
//! check_smart.pl): "STATUS: Drive MODEL S/N SERIAL: MESSAGES|PERFDATA", where a message
//! names an attribute and its raw value ("Current_Pending_Sector is non-zero (8)",
//! "Load_Cycle_Count is above 600K load cycles (1239994) causing possible performance and
//! durability impact", "... is soon reaching 600K load cycles (N) ...") and the performance
//! data lists raw values as "Name=value;;;;". The names are smartctl's attribute names.
//! Releases before the "Drive ... S/N" prefix (the plugin's README shows them on FreeBSD:
//! "OK: no SMART errors detected|defect_list=0 sent_blocks=... temperature=24;;68",
//! "WARNING: 48 Elements in grown defect list | defect_list=48 ...") print the message
//! right after the status, and a loop over `-i megaraid,N` prints one such line per drive.

use crate::model::Smart;
use crate::sources::spec;

crate::rx!(
    VERDICT,
    r"^(OK|WARNING|CRITICAL|UNKNOWN): (?:Drive\s+(.*?) S/N (\S*):|(?:no SMART errors detected|[A-Za-z][\w-]+ is non-zero \(\d+\)|\d+ Elements in grown defect list)(?:[.,|\s]|$))"
);
crate::rx!(DEFECTS, r"(?:^|\s)(\d+) Elements in grown defect list");
crate::rx!(
    MESSAGE,
    r"\b([A-Za-z][\w-]+) is (?:non-zero|above 600K load cycles|soon reaching 600K load cycles) \((\d+)\)"
);
crate::rx!(
    DRIVE_SERIAL,
    r"(?:OK|WARNING|CRITICAL|UNKNOWN): Drive\s+[^\n]*? S/N (\S+):"
);
crate::rx!(PERFDATA, r"(?:^|\s|\|)([A-Za-z][\w-]+)=(\d+)(?:;|\s|$)");

/// What the verdict says of one drive: its model and the raw attribute values it names.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Verdict {
    /// The plugin's status: 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN (Nagios plugin API exit
    /// codes, which the word stands for).
    pub status: u8,
    pub model: Option<String>,
    /// (smartctl attribute name, raw value), in the order given.
    pub attributes: Vec<(String, u64)>,
}

/// The verdict lines of `text`.
pub fn parse(text: &str) -> Vec<Verdict> {
    let mut out = Vec::new();
    for l in text.lines() {
        let t = l.trim();
        let Some(c) = VERDICT.captures(t) else {
            continue;
        };
        let status = match c.get(1).map(|m| m.as_str()) {
            Some("WARNING") => 1,
            Some("CRITICAL") => 2,
            Some("UNKNOWN") => 3,
            _ => 0,
        };
        let mut v = Verdict {
            status,
            model: c
                .get(2)
                .map(|m| m.as_str().trim().to_string())
                .filter(|m| !m.is_empty()),
            attributes: Vec::new(),
        };
        let (msgs, perf) = t.split_once('|').unwrap_or((t, ""));
        if let Some(n) = DEFECTS
            .captures(msgs)
            .and_then(|d| d.get(1))
            .and_then(|n| n.as_str().parse().ok())
        {
            v.attributes.push(("defect_list".to_string(), n));
        }
        let pairs = MESSAGE
            .captures_iter(msgs)
            .chain(PERFDATA.captures_iter(perf));
        for p in pairs {
            let (Some(n), Some(raw)) = (p.get(1), p.get(2).and_then(|r| r.as_str().parse().ok()))
            else {
                continue;
            };
            if !v.attributes.iter().any(|(k, _)| k == n.as_str()) {
                v.attributes.push((n.as_str().to_string(), raw));
            }
        }
        out.push(v);
    }
    out
}

/// The SMART counters a verdict names (smartmontools drivedb.h default names), into `s`;
/// returns Load_Cycle_Count (193), which is a power fact.
pub fn apply(v: &Verdict, s: &mut Smart) -> Option<u64> {
    let mut load_cycles = None;
    for (name, raw) in &v.attributes {
        let raw = Some(*raw);
        match name.as_str() {
            "Reallocated_Sector_Ct" => s.reallocated_sectors = raw,
            "Power_On_Hours" => s.power_on_hours = raw,
            "Reported_Uncorrect" => s.reported_uncorrect = raw,
            "Current_Pending_Sector" => s.pending_sectors = raw,
            "Offline_Uncorrectable" => s.offline_uncorrectable = raw,
            "UDMA_CRC_Error_Count" => s.udma_crc_errors = raw,
            "Load_Cycle_Count" => load_cycles = raw,
            // SCSI drives: the grown defect list's length (the plugin's perfdata name).
            "defect_list" => s.grown_defects = raw,
            _ => {}
        }
    }
    load_cycles
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "check-smart",
    starts: &[(126, |l| spec::on_first(l, |t| VERDICT.is_match(t.trim())))],
    member: |t, _| spec::Member::from(VERDICT.is_match(t.trim())),
    classify: |_, _| "check-smart",
    ..spec::Recogniser::NONE
};

/// The plugin as typed: `./check_smart.pl -d /dev/sdd -i auto` (its `-d` names the disk).
fn args(a: &str) -> bool {
    a.split_whitespace()
        .any(|w| w == "-d" || w.starts_with("--device"))
}

/// The serial of each verdict line ("Drive MODEL S/N SERIAL: "), wherever the text is.
fn serials(text: &str) -> Vec<spec::Found> {
    DRIVE_SERIAL
        .captures_iter(text)
        .filter_map(|c| c.get(1))
        .filter(|m| !m.as_str().is_empty())
        .map(|m| spec::Found::sure(spec::SecretKind::Serial, m.as_str()))
        .collect()
}

pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, _| {
        p == "check_smart.pl" || p == "check_smart"
    })),
    programs: &[
        spec::Program::new("check_smart.pl", args),
        spec::Program::new("check_smart", args),
    ],
    secrets: &[spec::Secret::Scan(serials)],
    ..spec::SourceSpec::named("check-smart", "check_smart monitoring plugin")
};

#[cfg(test)]
mod tests;
