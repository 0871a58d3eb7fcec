//! `btrfs device stats PATH|DEVICE` (btrfs-progs, cmds/device.c `print_device_stat`): the
//! per-device error counters btrfs keeps on disk (BTRFS_DEV_STAT_* in the kernel's
//! fs/btrfs/volumes.h), one line each, "[/dev/sdb3].write_io_errs    0" ("[%s].%-16s %llu"):
//! write_io_errs, read_io_errs and flush_io_errs count I/O the block layer failed;
//! corruption_errs checksum mismatches (bad data or metadata read back) and generation_errs
//! blocks older than expected (a lost write). The counters are cumulative since the last
//! `btrfs device stats -z`. `-T` prints a table instead ("Id Path Write errors Read errors
//! ..."), read here too.

use crate::sources::{spec, util};

/// One device's counters.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BtrfsDevStats {
    /// "/dev/sdb3" (as printed: a member device's path).
    pub device: String,
    pub write_io_errs: Option<u64>,
    pub read_io_errs: Option<u64>,
    pub flush_io_errs: Option<u64>,
    pub corruption_errs: Option<u64>,
    pub generation_errs: Option<u64>,
}

/// "[/dev/sdb3].write_io_errs    0" -> (device, counter, value).
fn stat_line(l: &str) -> Option<(&str, &str, u64)> {
    let rest = l.trim().strip_prefix('[')?;
    let (dev, rest) = rest.split_once("].")?;
    let mut w = rest.split_whitespace();
    let name = w.next()?;
    let v = w.next()?.parse().ok()?;
    if w.next().is_some() || dev.is_empty() || !name.ends_with("_errs") {
        return None;
    }
    Some((dev, name, v))
}

/// The header of `btrfs device stats -T` (cmds/device.c, the table's columns "Id", "Path",
/// "Write errors", "Read errors", "Flush errors", "Corruption errors", "Generation errors").
fn is_table_header(l: &str) -> bool {
    let w: Vec<&str> = l.split_whitespace().collect();
    w.starts_with(&["Id", "Path", "Write", "errors", "Read", "errors"])
}

/// The header's underline ("-- --------- ------------ ...").
fn is_table_rule(l: &str) -> bool {
    let t = l.trim();
    !t.is_empty() && t.split_whitespace().all(|w| w.chars().all(|c| c == '-'))
}

/// Counter names of the table's columns after Id and Path, in order.
const TABLE_COLUMNS: [&str; 5] = [
    "write_io_errs",
    "read_io_errs",
    "flush_io_errs",
    "corruption_errs",
    "generation_errs",
];

/// A row of the -T table: " 2 /dev/sdb1  25  25  25  25  25" -> (device, counters).
fn table_row(l: &str) -> Option<(&str, [u64; 5])> {
    let mut w = l.split_whitespace();
    w.next()?.parse::<u64>().ok()?;
    let dev = w.next()?;
    if !dev.starts_with('/') {
        return None;
    }
    let mut v = [0u64; 5];
    for slot in &mut v {
        *slot = w.next()?.parse().ok()?;
    }
    w.next().is_none().then_some((dev, v))
}

/// Every device's counters, in the order printed; a device printed twice (the same
/// filesystem asked by device and by mount point, or in both forms) keeps its latest values.
pub fn parse(text: &str) -> Vec<BtrfsDevStats> {
    let mut out: Vec<BtrfsDevStats> = Vec::new();
    for raw in text.lines() {
        let l = util::clean_line(raw);
        let values: Vec<(&str, &str, u64)> = match (stat_line(&l), table_row(&l)) {
            (Some(one), _) => vec![one],
            (None, Some((dev, v))) => TABLE_COLUMNS
                .iter()
                .zip(v)
                .map(|(n, x)| (dev, *n, x))
                .collect(),
            (None, None) => continue,
        };
        for (dev, name, v) in values {
            let at = match out.iter().position(|d| d.device == dev) {
                Some(i) => i,
                None => {
                    out.push(BtrfsDevStats {
                        device: dev.to_string(),
                        ..BtrfsDevStats::default()
                    });
                    out.len() - 1
                }
            };
            let Some(d) = out.get_mut(at) else { continue };
            let slot = match name {
                "write_io_errs" => &mut d.write_io_errs,
                "read_io_errs" => &mut d.read_io_errs,
                "flush_io_errs" => &mut d.flush_io_errs,
                "corruption_errs" => &mut d.corruption_errs,
                "generation_errs" => &mut d.generation_errs,
                _ => continue,
            };
            *slot = Some(v);
        }
    }
    out
}

/// The kernel's own print of the same counters, once per failed bio of a device
/// (fs/btrfs/volumes.c btrfs_dev_stat_print_on_error: "bdev %s errs: wr %u, rd %u, flush
/// %u, corrupt %u, gen %u" behind btrfs_printk's "BTRFS error (device sdb1): ", whose
/// parenthesis names the filesystem's first device and, since 6.x, its state: "(device
/// sdb1 state EA)"): the device of the "bdev" word is the one whose counters these are. The
/// counters are cumulative, so the last line of a device holds its totals.
pub fn printk_stats(log: &str) -> Vec<BtrfsDevStats> {
    let mut out: Vec<BtrfsDevStats> = Vec::new();
    for raw in log.lines() {
        let Some(d) = printk_line(raw) else { continue };
        match out.iter_mut().find(|x| x.device == d.device) {
            Some(x) => *x = d,
            None => out.push(d),
        }
    }
    out
}

/// One "bdev /dev/sdb1 errs: wr 0, rd 1, flush 0, corrupt 0, gen 0" print.
fn printk_line(raw: &str) -> Option<BtrfsDevStats> {
    // After the printk's level word ("error", "warning", "info") and its device
    // parenthesis.
    let (_, rest) = raw.split_once("BTRFS ")?;
    let (_, rest) = rest.split_once("): bdev ")?;
    let (dev, counts) = rest.split_once(" errs: ")?;
    let dev = dev.trim();
    if dev.is_empty() || dev.contains(char::is_whitespace) {
        return None;
    }
    let mut d = BtrfsDevStats {
        device: dev.to_string(),
        ..BtrfsDevStats::default()
    };
    for part in counts.split(',') {
        let mut w = part.split_whitespace();
        let (Some(name), Some(v)) = (w.next(), w.next()) else {
            return None;
        };
        let v: u64 = v.parse().ok()?;
        let slot = match name {
            "wr" => &mut d.write_io_errs,
            "rd" => &mut d.read_io_errs,
            "flush" => &mut d.flush_io_errs,
            "corrupt" => &mut d.corruption_errs,
            "gen" => &mut d.generation_errs,
            _ => return None,
        };
        *slot = Some(v);
    }
    (d.write_io_errs.is_some() && d.read_io_errs.is_some()).then_some(d)
}

// ---- the source spec (see sources::spec) ----

fn start(lines: &[&str]) -> spec::Start {
    spec::on_first(lines, |l| {
        is_table_header(&util::clean_line(l))
            || stat_line(&util::clean_line(l)).is_some_and(|(_, n, _)| {
                [
                    "write_io_errs",
                    "read_io_errs",
                    "flush_io_errs",
                    "corruption_errs",
                    "generation_errs",
                ]
                .contains(&n)
            })
    })
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "btrfs-device-stats",
    starts: &[(40, start)],
    member: |l, _| {
        let l = util::clean_line(l);
        spec::Member::from(
            stat_line(&l).is_some()
                || table_row(&l).is_some()
                || is_table_rule(&l)
                || is_table_header(&l),
        )
    },
    tolerance: (1, 0),
    classify: |_, _| "btrfs-device-stats",
    ..spec::Recogniser::NONE
};

/// `btrfs device stats`: pasted beside a question, not captured by a probe.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Linux),
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, a| {
        p == "btrfs" && a.split_whitespace().take(2).eq(["device", "stats"])
    })),
    programs: &[spec::Program {
        names_device: false,
        ..spec::Program::new("btrfs", |a| {
            a.starts_with("device") || a.starts_with("dev ") || a.starts_with("scrub")
        })
    }],
    ..spec::SourceSpec::named("btrfs-device-stats", "btrfs device stats")
};

#[cfg(test)]
mod tests;
