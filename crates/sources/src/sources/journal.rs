//! journalctl's output of user-space units (`journalctl -u UNIT`, `journalctl -b`): the
//! header journalctl prints before the entries ("-- Logs begin at TIME, end at TIME. --"
//! before systemd 246, "-- Journal begins at TIME, ends at TIME. --" from 246, "-- No
//! entries --", and the "-- Reboot --" / "-- Boot ID --" separators between boots;
//! src/journal/journalctl.c) and the entries in the default short format, "MMM DD
//! HH:MM:SS HOST IDENTIFIER[PID]: MESSAGE" (journalctl(1) `-o short`; `-o short-iso` puts
//! an ISO 8601 stamp first).
//!
//! A unit's log says what a service or script did, not what a disk did: a tuning script
//! whose `echo noop > /sys/block/mmcblk0/queue/scheduler` fails with "write error: Invalid
//! argument" asked for an elevator the queue does not have (multi-queue block devices offer
//! none, mq-deadline, kyber and bfq; block/elevator.c elv_iosched_store returns -EINVAL for
//! any other name), and the disk keeps its default. It is read so that such a paste is
//! answered, and stays silent. The kernel's own lines ("HOST kernel: ...") and the
//! daemons diskdoc reads on their own (smartd, udisksd) start their own blocks.

use crate::sources::spec;
use crate::sources::util::clean_line;

crate::rx!(
    HEADER,
    r"^-- (?:Logs begin at .+, end at .+\. --|Journal begins at .+, ends at .+\. --|No entries --|Reboot --|Boot [0-9a-f]{32} --)$"
);
// One entry in the short (or short-iso, short-precise) format. The identifier is the
// syslog tag: a program name, "systemd", "sshd", a script's name; the PID is optional.
crate::rx!(
    ENTRY,
    r"^(?:\w{3}\s+\d{1,2}\s+\d\d:\d\d:\d\d(?:\.\d{1,6})?|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:[.,]\d{1,6})?(?:[+-]\d{4}|Z)?)\s+([\w.-]+)\s+([\w.@/-]+)(?:\[\d+\])?:\s"
);

/// The host and identifier of an entry line, when it is one.
fn entry(l: &str) -> Option<(String, String)> {
    let c = ENTRY.captures(l)?;
    Some((
        c.get(1)?.as_str().to_string(),
        c.get(2)?.as_str().to_string(),
    ))
}

fn is_header(l: &str) -> bool {
    HEADER.is_match(l.trim())
}

/// An entry of the kernel's (sources::kernel_log reads those).
fn is_kernel_entry(l: &str) -> bool {
    entry(l.trim()).is_some_and(|(_, ident)| ident == "kernel")
}

/// The journal's lines in `text` from its first header on: headers and entries, whole or
/// as explain hands them over, the syslog header already taken off (explain::segment
/// strip_log_header), so every line after a header is an entry's message. Without a
/// header the lines are any syslog's, which this source does not claim.
pub(crate) fn parse(text: &str) -> usize {
    text.lines()
        .map(clean_line)
        .skip_while(|l| !is_header(l))
        .filter(|l| !l.trim().is_empty() && !is_kernel_entry(l))
        .count()
}

/// The host names the entries carry (the syslog HOSTNAME field).
fn secrets(text: &str) -> Vec<spec::Found> {
    let lines: Vec<String> = text.lines().map(clean_line).collect();
    if !lines.iter().any(|l| is_header(l)) {
        return Vec::new();
    }
    let mut out: Vec<spec::Found> = Vec::new();
    for l in &lines {
        if let Some((host, _)) = entry(l.trim())
            && !out.iter().any(|f| f.value == host)
        {
            out.push(spec::Found::sure(spec::SecretKind::Host, &host));
        }
    }
    out
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "journal",
    // Late: after every tool whose lines a journal may carry.
    starts: &[(245, |l| spec::on_first(l, |t| is_header(&clean_line(t))))],
    // Every line up to a blank one: journalctl prints none, and explain hands the entries
    // over without their syslog header, so an entry is any text.
    member: |t, _| spec::Member::from(!t.trim().is_empty() && !is_kernel_entry(&clean_line(t))),
    tolerance: (0, 0),
    // Another tool's first line (a kernel line, smartd's, udisksd's) starts its own block.
    permissive: true,
    classify: |_, _| "journal",
    ..spec::Recogniser::NONE
};

/// journalctl's output of user-space units: pasted beside a question, not captured by a probe.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Linux),
    parse: Some(parse),
    secrets: &[spec::Secret::Scan(secrets)],
    paste: Some(spec::Paste::new(&RECOGNISER, |p, _| p == "journalctl")),
    ..spec::SourceSpec::named("journal", "journalctl output of services")
};

#[cfg(test)]
mod tests;
