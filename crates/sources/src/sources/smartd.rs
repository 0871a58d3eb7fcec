//! smartd(8)'s warnings, as syslog or its warning mail carry them. Reference: smartmontools
//! src/smartd.cpp: check_pending() prints "Device: %s, %PRId64 %s" with "Currently unreadable
//! (pending) sectors" or "Offline uncorrectable sectors" (with `-C`/`-U ...+`: "Total ...",
//! then " (changed %+d)" when the count moved), ATA_Check "Device: %s, FAILED SMART
//! self-check. BACK UP DATA NOW!", "Device: %s, Failed SMART usage Attribute: %d %s.", and
//! NVMe_Check "Device: %s, Critical Warning (0x%02x): %s", SCSI's scsiCheckDevice
//! "Device: %s, SMART Failure: %s" (the informational exception's text, such as "FAILURE
//! PREDICTION THRESHOLD EXCEEDED: ascq=0x5"), and the self-test log check "Device: %s,
//! Self-Test Log error count increased from %d to %d", and the log reads that failed:
//! CheckSelfTestLogs "Device: %s, Read SMART Self-Test Log Failed" (the log command
//! returned an error, MailWarning type 8) and ATACheckDevice "Device: %s, Read SMART Error
//! Log Failed" (type 7), and ATACheckDevice's "Device: %s, ATA error count increased from %d
//! to %d" (type 4). The device name is smartd's
//! (`/dev/sda`, with " [SAT]" or another `-d` type after it when smartd chose one; a drive
//! behind a RAID controller is "/dev/sg1 [cciss_disk_06] [SCSI]" or "/dev/bus/0
//! [megaraid_disk_21]").

use crate::sources::spec;

/// What one smartd warning says of a drive.
// PredictedFailure is SPC-4's own name for the condition; FailedAttribute reads as smartd's.
#[allow(clippy::enum_variant_names)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Warning {
    /// ATA attribute 197: sectors the drive could not read and waits to remap.
    Pending(u64),
    /// ATA attribute 198: sectors an offline scan could not read.
    OfflineUncorrectable(u64),
    /// The drive's own SMART RETURN STATUS said FAILED.
    HealthFailed,
    /// A usage attribute at or below its threshold (id and name).
    FailedAttribute(String),
    /// NVMe SMART/Health log byte 0 (NVMe Base 1.4 figure 194).
    CriticalWarning(u8),
    /// A SCSI drive's informational exception: its failure prediction tripped (SPC-4
    /// ASC 5Dh, "FAILURE PREDICTION THRESHOLD EXCEEDED"), smartctl's "SMART Health
    /// Status" failing.
    PredictedFailure(String),
    /// Failed self-tests in the drive's log: the count smartd saw grow to.
    SelfTestErrors(u64),
    /// smartd could not read one of the drive's logs ("Self-Test Log", "Error Log") that it
    /// had read when it registered the drive (smartd only monitors a log it could read at
    /// start-up, smartd.cpp ATADeviceScan/SCSIDeviceScan): the drive stopped answering
    /// its log commands.
    LogReadFailed(String),
    /// The drive's ATA error log grew between two checks (from, to): commands the drive
    /// itself failed since smartd last looked (smartd.cpp ATACheckDevice, "Device: %s, ATA
    /// error count increased from %d to %d", MailWarning type 4 "ErrorCount").
    ErrorLogGrew(u64, u64),
}

/// One warning with the device it names ("sda").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    pub device: String,
    pub warning: Warning,
    pub line: String,
}

crate::rx!(
    LINE,
    r"Device: (/dev/[\w/.-]+|[\w/.-]+)((?: \[[^\]]*\])*), (?:(\d+) (?:Currently|Total) unreadable \(pending\) sectors|(\d+) (?:Total )?[Oo]ffline uncorrectable sectors|(FAILED SMART self-check)|Failed SMART usage Attribute: (\d+ [\w-]+)|Critical Warning \(0x([0-9a-fA-F]{2})\)|SMART Failure: ([^\r\n]+)|Self-Test Log error count increased from \d+ to (\d+)|Read SMART (Self-Test Log|Error Log) [Ff]ailed|ATA error count increased from (\d+) to (\d+))"
);

/// Every smartd warning in `text`, in order.
pub fn parse(text: &str) -> Vec<Event> {
    let mut out = Vec::new();
    for l in text.lines() {
        for c in LINE.captures_iter(l) {
            let Some(dev) = c.get(1) else { continue };
            let num = |i: usize| c.get(i).and_then(|m| m.as_str().parse::<u64>().ok());
            let warning = if let Some(n) = num(3) {
                Warning::Pending(n)
            } else if let Some(n) = num(4) {
                Warning::OfflineUncorrectable(n)
            } else if c.get(5).is_some() {
                Warning::HealthFailed
            } else if let Some(a) = c.get(6) {
                Warning::FailedAttribute(a.as_str().to_string())
            } else if let Some(w) = c
                .get(7)
                .and_then(|m| u8::from_str_radix(m.as_str(), 16).ok())
            {
                Warning::CriticalWarning(w)
            } else if let Some(m) = c.get(8) {
                Warning::PredictedFailure(m.as_str().trim().to_string())
            } else if let Some(n) = num(9) {
                Warning::SelfTestErrors(n)
            } else if let Some(m) = c.get(10) {
                Warning::LogReadFailed(m.as_str().to_string())
            } else if let (Some(from), Some(to)) = (num(11), num(12)) {
                Warning::ErrorLogGrew(from, to)
            } else {
                continue;
            };
            // smartmontools os_linux.cpp names a drive behind a RAID controller
            // "[megaraid_disk_%02d]" / "[cciss_disk_%02d]" (also "[areca_disk_..]",
            // "[3ware_disk_..]"): its node (/dev/sg1, /dev/bus/0) is the controller's,
            // shared by every drive behind it, so the bracket names the drive.
            let behind = c.get(2).and_then(|b| {
                b.as_str()
                    .split(['[', ']'])
                    .map(str::trim)
                    .find(|x| x.contains("_disk_"))
                    .map(str::to_string)
            });
            out.push(Event {
                device: behind.unwrap_or_else(|| spec::strip_dev(dev.as_str())),
                warning,
                line: l.trim().to_string(),
            });
        }
    }
    out
}

/// Whether `line` is smartd's warning that it could not read one of the drive's logs
/// ([`Warning::LogReadFailed`]).
pub fn is_log_read_failure(line: &str) -> bool {
    parse(line)
        .iter()
        .any(|e| matches!(e.warning, Warning::LogReadFailed(_)))
}

// Any line smartd writes about a device: "Device: /dev/sdb [SAT], opened", its identity,
// "is SMART capable. Adding to \"monitor\" list.", the warnings.
crate::rx!(ANY, r"^Device: /dev/[\w/.-]+(?: \[[^\]]*\])*, \S");

fn is_line(t: &str) -> bool {
    LINE.is_match(t) || ANY.is_match(t.trim_start())
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "smartd",
    starts: &[(125, |l| spec::on_first(l, is_line))],
    member: |t, _| spec::Member::from(is_line(t)),
    // Lines of other daemons between smartd's in a syslog excerpt.
    tolerance: (1, 3),
    classify: |_, _| "smartd",
    ..spec::Recogniser::NONE
};

/// smartd's warnings in syslog (`grep smartd /var/log/syslog`, `journalctl -u smartd`) or
/// its warning mail.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    parse: Some(|t| parse(t).len()),
    // smartd's identity line: "Device: /dev/sdb [SAT], MODEL, S/N:SERIAL, WWN:5-000c50-...".
    secrets: &[
        spec::Secret::After("s/n:", spec::SecretKind::Serial),
        spec::Secret::After("wwn:", spec::SecretKind::Wwn),
    ],
    paste: Some(spec::Paste::new(&RECOGNISER, |p, a| {
        matches!(p, "grep" | "egrep" | "cat") || (p == "journalctl" && a.contains("smartd"))
    })),
    ..spec::SourceSpec::named("smartd", "smartd warnings (syslog)")
};

#[cfg(test)]
mod tests;
