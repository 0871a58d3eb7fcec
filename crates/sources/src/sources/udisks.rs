//! udisksd's own log lines (the udisks2 daemon behind GNOME Disks and desktop automounting),
//! as `journalctl` or syslog carry them: "udisksd[721]: MESSAGE". Reference: udisks
//! src/udiskslinuxdriveata.c handle_smart_update, udisks_warning ("Error updating ATA smart
//! for %s: %s (%s, %d)", object path, error message, error domain, code), where the
//! refresh fails with UDISKS_ERROR_WOULD_WAKEUP "Disk is in sleep mode and the nowakeup
//! option was passed" when the caller asked not to wake a sleeping disk;
//! src/udiskslinuxprovider.c's housekeeping, "Error performing housekeeping for drive %s:
//! %s (%s, %d)" (its message "Error updating SMART data: ..."); and the probe's "Error
//! probing device: Error sending ATA command IDENTIFY DEVICE to /dev/sdb: Unexpected sense
//! data returned:" followed by a hex dump of the sense data and "(g-io-error-quark, 0)".
//!
//! These lines say what udisks could not do, not what the drive did: a refresh refused
//! because the disk sleeps (spun down by its owner or by its own timer) is udisks keeping
//! it asleep; "Unexpected sense data" and "Operation not supported" are a bridge or drive
//! answering udisks' ATA pass-through in a way it does not parse (udisks #511, #965). The
//! kernel's own lines, pasted beside them, say whether the drive failed.

use crate::sources::{by_id, spec, util};

/// What one udisksd line reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Event {
    /// A SMART refresh refused because the disk is in standby and the caller passed
    /// `nowakeup` (UDISKS_ERROR_WOULD_WAKEUP): the disk is asleep, nothing failed.
    AsleepNotWoken,
    /// A SMART refresh, housekeeping or probe that failed, with udisks' message.
    Failed(String),
}

crate::rx!(
    LINE,
    r"(?:\budisksd\[\d+\]: |^)(Error updating ATA smart for \S+|Error performing housekeeping for drive \S+|Error probing device): (.*)$"
);
// Any line udisksd writes: its journal/syslog tag.
crate::rx!(TAG, r"\budisksd\[\d+\]: \S");
// The head of one of its messages alone: a message without its tag that a mail client
// wrapped (the object path is long) keeps only its first words on the first line.
crate::rx!(
    HEAD,
    r"^(?:Error updating ATA smart for|Error performing housekeeping for drive|Error probing device:)(?:\s|$)"
);
// The continuation lines of a multi-line message: the sense data's hex dump
// ("0000: 70 00 0b 00 ...") and the GError's "(g-io-error-quark, 0)".
crate::rx!(HEX_DUMP, r"^[0-9a-f]{4}: (?:[0-9a-f]{2} +){8}");
crate::rx!(QUARK, r"^\((?:g-io|udisks)-error-quark, \d+\)$");

/// The drive object paths a line names: "/org/freedesktop/UDisks2/drives/MODEL_SERIAL".
fn drive_names(text: &str) -> Vec<&str> {
    text.split(|c: char| c.is_whitespace() || c == ':')
        .filter_map(|w| w.strip_prefix("/org/freedesktop/UDisks2/drives/"))
        .filter(|n| !n.is_empty())
        .collect()
}

/// Every event of udisksd in `text`, in order.
pub(crate) fn parse(text: &str) -> Vec<Event> {
    let mut out = Vec::new();
    for raw in text.lines() {
        let c = util::clean_line(raw);
        let Some(m) = LINE.captures(c.trim()) else {
            continue;
        };
        let msg = m.get(2).map_or("", |x| x.as_str()).trim();
        out.push(if msg.starts_with("Disk is in sleep mode") {
            Event::AsleepNotWoken
        } else {
            Event::Failed(msg.to_string())
        });
    }
    out
}

/// A line of udisksd's: its tag, or one of its messages standing alone.
fn is_line(l: &str) -> bool {
    let c = util::clean_line(l);
    TAG.is_match(&c) || HEAD.is_match(c.trim())
}

fn is_continuation(l: &str) -> bool {
    let c = util::clean_line(l);
    let t = c.trim();
    HEX_DUMP.is_match(t) || QUARK.is_match(t)
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "udisks",
    starts: &[(125, |l| spec::on_first(l, is_line))],
    member: |l, _| spec::Member::from(is_line(l) || is_continuation(l)),
    // Lines of other daemons between udisksd's in a journal excerpt.
    tolerance: (1, 3),
    classify: |_, _| "udisks",
    ..spec::Recogniser::NONE
};

/// udisksd's journal lines: pasted beside a question, not captured by a probe.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Linux),
    parse: Some(|t| parse(t).len()),
    // The drive object is named from its vendor, model and serial joined by '_'
    // (udiskslinuxdriveobject.c), as udev's by-id names are.
    secrets: &[spec::Secret::Scan(|t| {
        drive_names(t)
            .into_iter()
            .flat_map(|n| by_id::secrets(&format!("ata-{n}"), false))
            .collect()
    })],
    paste: Some(spec::Paste::new(&RECOGNISER, |p, a| {
        p == "journalctl" && a.contains("udisks")
    })),
    ..spec::SourceSpec::named("udisks", "udisksd log lines")
};

#[cfg(test)]
mod tests;
