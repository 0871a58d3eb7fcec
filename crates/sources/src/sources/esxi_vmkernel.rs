//! The VMware ESXi host's kernel log (/var/log/vmkernel.log). Each line carries the UTC
//! time, the CPU and the world (thread) that logged it, then the module's message:
//! "2016-05-22T10:07:33.017Z cpu0:35374)nvme:nvmeCoreLogError:333:command failed: 0x43..."
//! (ESXi 5-6), with "opID=..." after the world when a management operation logged it, and
//! since ESXi 7 a level and the tag between the time and the CPU ("2021-03-05T10:06:31.123Z
//! In(182) vmkernel: cpu5:2097585)..."); ESX 4 and syslog copies put "vmkernel: " and the
//! uptime first ("vmkernel: 76:23:45:36.239 cpu11:22687)NMP: ...").
//!
//! A SCSI command the storage stack saw fail is reported with the host, device and plugin
//! status and, on a CHECK CONDITION, the sense data ("ScsiDeviceIO: 2315: Cmd(0x...) 0x28,
//! CmdSN 0x51 to dev \"naa.6005...\" failed H:0x0 D:0x2 P:0x0 Valid sense data: 0x3 0x11
//! 0x0.", VMware KB 289902 / 338435, "Understanding SCSI sense codes in ESXi"): the sense
//! key is SPC-4's (table 27: 3h MEDIUM ERROR). Only that key names the medium; ILLEGAL
//! REQUEST (5h) is a command the device refused, what a management tool's probing gets,
//! and the NVMe driver's "nvmeCoreLogError: command failed" lines carry no status at all.

use crate::sources::spec::{self, Found, SecretKind};

// Each part before "cpuN:W)" is optional: explain's segmenter takes a line's ISO stamp and a
// syslog header ("host vmkernel: ") off before the recogniser sees it.
crate::rx!(
    VMKERNEL_LINE,
    r"^(?:\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z\s+)?(?:[A-Z][a-z]\(\d+\)\s+)?(?:(?:\S+\s+)*vmkernel:\s+)?(?:\d+:\d\d:\d\d:\d\d\.\d+\s+)?cpu\d+:\d+(?:\s+opID=\S+)?\)"
);

/// Whether a line is a vmkernel log line (see the module docs).
fn is_line(t: &str) -> bool {
    VMKERNEL_LINE.is_match(t.trim_start())
}

/// The SCSI sense key of a failed command's line ("... failed H:0x0 D:0x2 P:0x0 Valid sense
/// data: 0x3 0x11 0x0."): Some only for a CHECK CONDITION with valid sense data.
fn sense_key(t: &str) -> Option<u8> {
    let (_, rest) = t.split_once("Valid sense data: ")?;
    let key = rest.split_whitespace().next()?.trim_end_matches('.');
    let hex = key.strip_prefix("0x")?;
    u8::from_str_radix(hex, 16).ok()
}

/// The lines of `text` whose sense data says the medium failed (sense key 3h MEDIUM
/// ERROR), as pasted.
pub fn medium_error_lines(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter(|t| is_line(t) && sense_key(t) == Some(3))
        .map(str::to_string)
        .collect()
}

/// The device ids in a vmkernel log, each the drive's (or LUN's) identity: "naa.<hex>" and
/// "eui.<hex>" (SPC-4 7.8.6 designators, NAA and EUI-64), "vml.<hex>" (VMware's legacy id,
/// the NAA inside it) and "t10.<vendor>_<model>_<serial>" (the T10 vendor id designator
/// built from the ATA or NVMe identity: the serial stands at its end). The prefix stays
/// visible in a redacted line; only what follows it is secret.
pub fn secrets(text: &str) -> Vec<Found> {
    let mut out = Vec::new();
    for (i, _) in text.match_indices('.') {
        let Some(prefix) = i.checked_sub(3).and_then(|s| text.get(s..i)) else {
            continue;
        };
        // A whole word: "naa." not inside another word ("xnaa.").
        let before = i.checked_sub(4).and_then(|s| text.get(s..i - 3));
        if before.is_some_and(|b| b.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')) {
            continue;
        }
        let rest = text.get(i + 1..).unwrap_or("");
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
            .unwrap_or(rest.len());
        let id = rest.get(..end).unwrap_or("");
        let hex = id.len() >= 16 && id.chars().all(|c| c.is_ascii_hexdigit());
        match prefix {
            "naa" | "eui" | "vml" if hex => out.push(Found::sure(SecretKind::Wwn, id)),
            // A t10 id names at least a vendor and a serial; "t10.NVMe" alone (a driver's
            // word in "Device t10.NVMe has been turned off") names nobody.
            "t10" if id.len() >= 12 && id.contains('_') => {
                out.push(Found::sure(SecretKind::Serial, id))
            }
            _ => {}
        }
    }
    out
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "esxi-vmkernel",
    starts: &[(45, |lines| {
        spec::Start::from(lines.first().is_some_and(|t| is_line(t)))
    })],
    member: |l, _| spec::Member::from(is_line(l)),
    tolerance: (1, 2),
    classify: |_, _| "esxi-vmkernel",
    ..spec::Recogniser::NONE
};

/// The ESXi vmkernel log: pasted from a host diskdoc does not run on. Device ids
/// ("t10.NVMe____INTEL_SSDPEDME400G4____...CVMD517401J4400AGN__00000001", "naa.6005...")
/// carry the drive's serial number.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    parse: Some(|t| t.lines().filter(|l| is_line(l)).count()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, _| {
        matches!(p, "cat" | "tail" | "grep" | "less")
    })),
    secrets: &[spec::Secret::Scan(secrets)],
    ..spec::SourceSpec::named("esxi-vmkernel", "ESXi vmkernel log")
};

#[cfg(test)]
mod tests;
