//! iotop (the Python original, guichaz/iotop) and iotop-c (Tomas-M/iotop): the threads or
//! processes doing I/O, batch (`-b`, `-o`, `-t`) or interactive, one row each under the
//! "Total DISK READ / Total DISK WRITE" and "Actual DISK READ / Actual DISK WRITE" lines:
//!
//! ```text
//!   TID  PRIO  USER     DISK READ  DISK WRITE  SWAPIN     IO>    COMMAND
//!  1175 be/4 root        0.00 B/s    0.00 B/s  0.00 % 99.99 % [ext4lazyinit]
//! ```
//!
//! DISK READ/WRITE are the bytes the task read and wrote from storage per second
//! (/proc/PID/io read_bytes, write_bytes); SWAPIN and IO are the share of the interval the
//! task waited for swap-in and for block I/O (taskstats swapin_delay_total and
//! blkio_delay_total, delay accounting: Documentation/accounting/delay-accounting.rst),
//! printed "?unavailable?" when delay accounting is off. PRIO is the I/O scheduling class
//! and level (ionice(1): be/4, rt/0, idle). Kernel threads are shown in brackets.

use crate::sources::spec;
use crate::sources::util::{clean_line, leading_f64};

/// One task's row.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct IotopRow {
    pub id: u32,
    /// The command, brackets of a kernel thread removed ("ext4lazyinit", "jbd2/sda1-8").
    pub command: String,
    pub read_bytes_per_sec: u64,
    pub write_bytes_per_sec: u64,
    /// Share of the interval the task waited for block I/O, 0-100; None when iotop printed
    /// "?unavailable?".
    pub io_wait_pct: Option<f64>,
}

// [time] TID PRIO USER READ unit WRITE unit (SWAPIN % IO % | ?unavailable?) COMMAND
crate::rx!(
    ROW,
    r"^\s*(?:\d{1,2}:\d{2}:\d{2}\s+)?(\d+)\s+(?:be|rt|idle|\?\?)(?:/[\d?])?\s+\S+\s+([\d.,]+)\s*([KMGT]?i?B/s|[KMGT]/s)\s+([\d.,]+)\s*([KMGT]?i?B/s|[KMGT]/s)\s+(?:[\d.,]+\s*%\s+([\d.,]+)\s*%|\?unavailable\?)\s+(.+?)\s*$"
);
// The USER column of a row: an account name, a secret (SecretKind::User).
crate::rx!(
    USER_COL,
    r"^\s*(?:\d{1,2}:\d{2}:\d{2}\s+)?\d+\s+(?:be|rt|idle|\?\?)(?:/[\d?])?\s+(\S+)\s"
);

/// The account names in the USER column of every task row: they leave the machine only
/// redacted (issue 15).
fn users(text: &str) -> Vec<spec::Found> {
    text.lines()
        .map(clean_line)
        .filter(|l| ROW.is_match(l))
        .filter_map(|l| {
            let c = USER_COL.captures(&l)?;
            Some(spec::Found::sure(
                spec::SecretKind::User,
                c.get(1)?.as_str(),
            ))
        })
        .collect()
}

crate::rx!(
    HEADER,
    r"^\s*(?:\d{1,2}:\d{2}:\d{2}\s+)?((Total|Actual|Current) DISK (READ|WRITE)\s*:|(TID|PID)\s+PRIO\s+USER\s+DISK READ)"
);

/// "2.97" with "M/s" (iotop's human sizes: B, K, M, G, T, powers of 1024; iotop-c also
/// "KiB/s"/"KB/s").
fn rate(n: &str, unit: &str) -> u64 {
    let v = leading_f64(&n.replace(',', ".")).unwrap_or(0.0).max(0.0);
    let mul = match unit.chars().next() {
        Some('K') => 1024.0,
        Some('M') => 1024.0 * 1024.0,
        Some('G') => 1024.0 * 1024.0 * 1024.0,
        Some('T') => 1024.0 * 1024.0 * 1024.0 * 1024.0,
        _ => 1.0,
    };
    (v * mul).clamp(0.0, 1e18) as u64
}

/// Every task row, in order; empty when none is found.
pub fn parse(text: &str) -> Vec<IotopRow> {
    let mut out = Vec::new();
    for raw in text.lines() {
        let l = clean_line(raw);
        let Some(c) = ROW.captures(&l) else { continue };
        let g = |i: usize| c.get(i).map_or("", |m| m.as_str());
        let Ok(id) = g(1).parse::<u32>() else {
            continue;
        };
        let command = g(7);
        let command = command
            .strip_prefix('[')
            .and_then(|x| x.strip_suffix(']'))
            .unwrap_or(command);
        out.push(IotopRow {
            id,
            command: command.to_string(),
            read_bytes_per_sec: rate(g(2), g(3)),
            write_bytes_per_sec: rate(g(4), g(5)),
            io_wait_pct: c
                .get(6)
                .and_then(|m| leading_f64(&m.as_str().replace(',', ".")))
                .map(|p| p.clamp(0.0, 100.0)),
        });
    }
    out
}

/// The block device a kernel thread is named after: the ext4/ocfs2 journal thread
/// "jbd2/DEV-INO" (fs/jbd2/journal.c: "jbd2/%s", with the journal inode after a '-'),
/// possibly cut by iotop's column ("jbd2/mmcblk0p2-").
pub fn thread_device(command: &str) -> Option<&str> {
    let rest = command.strip_prefix("jbd2/")?;
    let dev = rest.rsplit_once('-').map_or(rest, |(d, _)| d);
    (!dev.is_empty()).then_some(dev)
}

// ---- the source spec (see sources::spec) ----

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "iotop",
    starts: &[(120, |l| {
        spec::on_first(l, |t| HEADER.is_match(t) || ROW.is_match(t))
    })],
    member: |t, _| spec::Member::from(HEADER.is_match(t) || ROW.is_match(t)),
    tolerance: (1, 1),
    classify: |_, _| "iotop",
    ..spec::Recogniser::NONE
};

/// iotop / iotop-c: pasted beside a question.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, _| {
        p == "iotop" || p == "iotop-c"
    })),
    programs: &[
        spec::Program {
            names_device: false,
            ..spec::Program::new("iotop", spec::listing_args)
        },
        spec::Program {
            names_device: false,
            ..spec::Program::new("iotop-c", spec::listing_args)
        },
    ],
    secrets: &[spec::Secret::Scan(users)],
    ..spec::SourceSpec::named("iotop", "iotop")
};

#[cfg(test)]
mod tests;
