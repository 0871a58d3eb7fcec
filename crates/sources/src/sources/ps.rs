//! `ps aux` (procps-ng ps(1) on Linux, ps(1) on FreeBSD: the same BSD-style columns USER
//! PID %CPU %MEM VSZ RSS TT STAT START TIME COMMAND), pasted to show what a process is
//! doing during a slow copy. STAT's first letter is the state: D is uninterruptible sleep,
//! usually waiting for I/O (procps ps(1) "PROCESS STATE CODES"; FreeBSD's equivalent is
//! the wait channel, "D" being "disk (or other short term, uninterruptible) wait").

use crate::sources::spec;

crate::rx!(
    HEADER,
    r"^\s*USER\s+PID\s+%CPU\s+%MEM\s+VSZ\s+RSS\s+TTY?\s+STAT\s+START(?:ED)?\s+TIME\s+COMMAND\s*$"
);
crate::rx!(
    ROW,
    r"^\s*\S+\s+(\d+)\s+\d+(?:[.,]\d+)?\s+\d+(?:[.,]\d+)?\s+\d+\s+\d+\s+\S+\s+([DIRSTtWXZLNsl<+]+)\s+\S+\s+\d+:\d\d(?:[.:]\d\d)?\s+(\S.*)$"
);

/// One process row: its PID, its STAT code and its command line.
#[derive(Debug, Clone, PartialEq)]
pub struct PsRow {
    pub pid: u32,
    pub stat: String,
    pub command: String,
}

/// The process rows of `text`, in order.
pub fn parse(text: &str) -> Vec<PsRow> {
    text.lines()
        .filter_map(|l| {
            let c = ROW.captures(l)?;
            Some(PsRow {
                pid: c.get(1)?.as_str().parse().ok()?,
                stat: c.get(2)?.as_str().to_string(),
                command: c.get(3)?.as_str().trim().to_string(),
            })
        })
        .collect()
}

// ---- the source spec (see sources::spec) ----

static RECOGNISER: spec::Recogniser = spec::Recogniser::table(
    "ps",
    &[(70, |l| {
        spec::on_first(l, |t| HEADER.is_match(t) || ROW.is_match(t))
    })],
    |t, _| spec::Member::from(HEADER.is_match(t) || ROW.is_match(t)),
    |_, _| "ps",
);

/// The USER column of the process rows, but for root: the names of the machine's people.
fn users(text: &str) -> Vec<spec::Found> {
    text.lines()
        .filter(|l| ROW.is_match(l))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|u| *u != "root")
        .map(|u| spec::Found::sure(spec::SecretKind::User, u))
        .collect()
}

/// ps aux: a process listing people paste, captured by no probe.
pub const SPEC: spec::SourceSpec = spec::pasted_only!(
    "ps",
    "ps aux",
    None,
    &RECOGNISER,
    parse: |t| parse(t).len(),
    secrets: &[spec::Secret::Scan(users)],
    args: |a| a.starts_with("aux") || a.starts_with('-'),
);

#[cfg(test)]
mod tests;
