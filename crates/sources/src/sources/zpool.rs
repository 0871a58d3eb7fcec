//! `zpool status [-v]` output: pools, state, status/action text, the scan line (including
//! the legacy Solaris "scrub:" keyword and multi-line resilver progress), the vdev tree with
//! READ/WRITE/CKSUM counters, and the errors section with its file list.
//!
//! Reference: zpool-status(8) (OpenZFS) and the Solaris ZFS admin guide. The vdev tree is
//! encoded by indentation (two spaces per level under the NAME column); "logs", "cache",
//! "spares", "special", "dedup" start auxiliary sections. Pastes lose blank lines, turn tabs
//! into spaces and gain user comments ("# ..."), so indentation is measured relative to
//! the NAME header and comments are cut off.

use crate::sources::by_id;
use crate::sources::util::{clean_line, leading_f64, parse_human_size};

#[derive(Debug, Clone, PartialEq, Default)]
pub struct ZpoolVdev {
    pub name: String,
    pub state: Option<String>,
    pub read_errors: Option<u64>,
    pub write_errors: Option<u64>,
    pub cksum_errors: Option<u64>,
    /// 0 = the pool's own row (or the section's entries at top level).
    pub depth: usize,
    pub parent: Option<String>,
    /// "data", "logs", "cache", "spares", "special", "dedup".
    pub section: String,
    /// Trailing text: "was /dev/gpt/ndisk2", "cannot open", "insufficient replicas".
    pub note: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct ZpoolScan {
    /// "scrub", "resilver", "none".
    pub kind: String,
    pub in_progress: bool,
    pub canceled: bool,
    pub percent_done: Option<f64>,
    /// "with N errors" of a finished scan.
    pub errors: Option<u64>,
    /// "2 days 10:54:20 to go", "no estimated completion time".
    pub remaining: Option<String>,
    /// Issue rate of a running scan in bytes/s ("issued at 27.3K/s").
    pub issued_bytes_per_sec: Option<u64>,
    /// The whole scan text, continuation lines joined.
    pub text: String,
}

/// What a pool is called when the paste lost its "pool:" line (a scan's progress lines, a
/// status text or vdev rows alone): said as such, never put in a command (the fixes take the
/// placeholder POOL).
pub const UNNAMED: &str = "a ZFS pool";

#[derive(Debug, Clone, PartialEq, Default)]
pub struct ZpoolStatus {
    /// Empty when the paste starts below the "pool:" line.
    pub pool: String,
    pub state: Option<String>,
    pub status: Option<String>,
    pub action: Option<String>,
    pub see: Option<String>,
    pub scan: Option<ZpoolScan>,
    pub vdevs: Vec<ZpoolVdev>,
    /// "No known data errors" or "Permanent errors have been detected ...".
    pub errors: Option<String>,
    pub error_files: Vec<String>,
}

impl ZpoolStatus {
    /// Leaf devices (disks/partitions), excluding the pool row and grouping vdevs.
    pub fn leaves(&self) -> Vec<&ZpoolVdev> {
        let mut out = Vec::new();
        for (i, v) in self.vdevs.iter().enumerate() {
            let is_pool_row = v.depth == 0 && v.section == "data";
            let has_children = self
                .vdevs
                .get(i + 1)
                .is_some_and(|n| n.depth > v.depth && n.section == v.section);
            if !is_pool_row && !has_children {
                out.push(v);
            }
        }
        out
    }
}

/// Which OS printed the status. OpenZFS's zpool(8) is the same program on both; what
/// differs is how a leaf vdev names its device: the path it opened, with "/dev/" left off
/// (zpool_vdev_name() in lib/libzfs/libzfs_pool.c strips the dev directory).
/// - FreeBSD: a GEOM provider name, "ada0p3", "nvd0", "gpt/zfs0", "diskid/DISK-X",
///   "ada0p1.eli" (a slash is part of the name: labels live under /dev/gpt/ ...).
/// - Linux: a /dev name ("sda1"), or a /dev/disk/by-* link name ("ata-WDC_..-part1",
///   "wwn-0x5000..."), which the caller resolves against /dev/disk/by-id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeviceNaming {
    FreeBsd,
    Linux,
}

impl DeviceNaming {
    /// The device name a leaf row stands for, or None for rows that are no device: the
    /// numeric GUID zpool prints for a missing vdev ("was /dev/ada1" in the note), and
    /// names with characters no device node has.
    pub fn device_name(self, leaf: &str) -> Option<String> {
        let name = leaf.strip_prefix("/dev/").unwrap_or(leaf);
        let allowed = |c: char| match self {
            DeviceNaming::FreeBsd => c.is_ascii_alphanumeric() || "/._-:".contains(c),
            // udev's by-id names also carry '+' and '@' (escaped model strings).
            DeviceNaming::Linux => c.is_ascii_alphanumeric() || "/._-:+@".contains(c),
        };
        let device_like = name.starts_with(|c: char| c.is_ascii_alphanumeric())
            && name.chars().all(allowed)
            && !name.chars().all(|c| c.is_ascii_digit());
        device_like.then(|| name.to_string())
    }
}

/// The pool-to-device view of one pool: what the disk facts need to tie a pool to the
/// disks under it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PoolMembers {
    pub name: String,
    pub state: Option<String>,
    /// Leaf vdevs as device names (see [`DeviceNaming`]), spares, logs and caches included.
    pub leaves: Vec<String>,
    /// (leaf, its top-level vdev): "mirror-0" for a mirror member; a disk that is its own
    /// top-level vdev (or a log/cache/spare device) names itself. `zpool get ashift POOL
    /// all-vdevs` reports ashift per top-level vdev (vdev_prop_get in module/zfs/vdev.c).
    pub tops: Vec<(String, String)>,
}

impl ZpoolStatus {
    /// This pool's members as devices named the way `naming` says.
    pub fn members(&self, naming: DeviceNaming) -> PoolMembers {
        let mut out = PoolMembers {
            name: self.pool.clone(),
            state: self.state.clone(),
            ..Default::default()
        };
        // The top-level depth: 1 under the pool row, 0 in the auxiliary sections (their
        // entries sit where the pool row's children sit, see parse()).
        let top_depth = |v: &ZpoolVdev| usize::from(v.section == "data");
        let mut top: Option<&str> = None;
        let leaves = self.leaves();
        for v in &self.vdevs {
            if v.depth == top_depth(v) {
                top = Some(v.name.as_str());
            } else if v.depth < top_depth(v) {
                top = None;
            }
            // A grouping row left childless by a cut paste is still no device.
            if !leaves.iter().any(|l| std::ptr::eq(*l, v)) || is_group(&v.name) {
                continue;
            }
            let Some(dev) = naming.device_name(&v.name) else {
                continue;
            };
            if let Some(t) = top {
                let t = naming.device_name(t).unwrap_or_else(|| t.to_string());
                out.tops.push((dev.clone(), t));
            }
            out.leaves.push(dev);
        }
        out
    }
}

/// Grouping rows that are not devices ("mirror-0", "raidz2-1", "draid2:4d:8c:1s-0",
/// "replacing-0", "spare-3"): zpool_vdev_name() prints the vdev type and its id.
fn is_group(name: &str) -> bool {
    let base = name.split(['-', ':']).next().unwrap_or(name);
    matches!(
        base,
        "mirror" | "raidz" | "raidz1" | "raidz2" | "raidz3" | "replacing" | "spare" | "root"
    ) || base.starts_with("draid")
}

/// Every pool's members: the pool-to-device view of [`parse`].
pub fn pool_members(text: &str, naming: DeviceNaming) -> Vec<PoolMembers> {
    parse(text).iter().map(|p| p.members(naming)).collect()
}

#[derive(PartialEq, Clone, Copy)]
enum Field {
    None,
    Status,
    Action,
    Scan,
    Config,
    Errors,
}

fn counter(s: &str) -> Option<u64> {
    if s.chars().next().is_some_and(|c| c.is_ascii_digit()) {
        parse_human_size(s)
    } else {
        None
    }
}

/// All pools in the text.
pub fn parse(text: &str) -> Vec<ZpoolStatus> {
    let mut out: Vec<ZpoolStatus> = Vec::new();
    let mut field = Field::None;
    let mut name_indent = 0usize;
    // 1 when the rows came without the NAME header and the pool's row (a paste of a few
    // vdev rows): the first row is a vdev, not the pool.
    let mut depth_base = 0usize;
    let mut stack: Vec<(usize, String)> = Vec::new();
    let mut section = String::from("data");
    for raw in text.lines() {
        let line = clean_line(raw);
        let t = line.trim();
        let indent = line.len() - line.trim_start().len();
        let key = t.split_once(':').map(|(k, v)| (k.trim(), v.trim()));
        let is_key = |k: &str| {
            matches!(
                k,
                "pool"
                    | "state"
                    | "status"
                    | "action"
                    | "see"
                    | "scan"
                    | "scrub"
                    | "config"
                    | "errors"
                    | "remove"
            )
        };
        if let Some((k, v)) = key.filter(|(k, _)| is_key(k) && !t.starts_with('/')) {
            if k == "pool" || out.is_empty() {
                out.push(ZpoolStatus::default());
                section = "data".into();
                stack.clear();
            }
            let Some(p) = out.last_mut() else { continue };
            field = Field::None;
            match k {
                "pool" => p.pool = v.to_string(),
                "state" => p.state = Some(v.to_string()),
                "status" => {
                    p.status = Some(v.to_string());
                    field = Field::Status;
                }
                "action" => {
                    p.action = Some(v.to_string());
                    field = Field::Action;
                }
                "see" => p.see = Some(v.to_string()),
                "scan" | "scrub" => {
                    p.scan = Some(ZpoolScan {
                        text: v.to_string(),
                        ..Default::default()
                    });
                    field = Field::Scan;
                }
                "config" => field = Field::Config,
                "errors" => {
                    p.errors = Some(v.to_string());
                    field = Field::Errors;
                }
                _ => {}
            }
            continue;
        }
        if t.is_empty() {
            if field != Field::Errors && field != Field::Config {
                field = Field::None;
            }
            continue;
        }
        // A paste that starts at the scan's progress lines (no "pool:" and no "scan:").
        if field == Field::None && SCAN_PROGRESS.is_match(t) {
            if out.is_empty() {
                out.push(ZpoolStatus::default());
            }
            if let Some(p) = out.last_mut() {
                let s = p.scan.get_or_insert_with(ZpoolScan::default);
                if !s.text.is_empty() {
                    s.text.push(' ');
                }
                s.text.push_str(t);
            }
            field = Field::Scan;
            continue;
        }
        // A paste of the config table alone (no "pool:"/"config:" lines above it): its
        // NAME STATE READ WRITE CKSUM header starts the table.
        let header = field != Field::Config && t.starts_with("NAME") && t.contains("STATE");
        let bare_row = field == Field::None
            && VDEV_ROW.is_match(&line)
            && out.last().is_none_or(|p| p.vdevs.is_empty());
        if header || bare_row {
            if out.is_empty() {
                out.push(ZpoolStatus::default());
                section = "data".into();
                stack.clear();
            }
            field = Field::Config;
            name_indent = indent;
            depth_base = usize::from(bare_row);
            if header {
                continue;
            }
        }
        let Some(p) = out.last_mut() else { continue };
        match field {
            Field::Status | Field::Action => {
                let slot = if field == Field::Status {
                    &mut p.status
                } else {
                    &mut p.action
                };
                if let Some(s) = slot {
                    s.push(' ');
                    s.push_str(t);
                }
            }
            Field::Scan => {
                if let Some(s) = p.scan.as_mut() {
                    s.text.push(' ');
                    s.text.push_str(t);
                }
            }
            Field::Errors => {
                // File list of "Permanent errors": paths, indented or not.
                if t.starts_with('/') || t.starts_with('<') || t.contains(":<0x") {
                    p.error_files.push(t.to_string());
                }
            }
            Field::Config => {
                // Cut user comments ("\t# 默认池名").
                let body = t.split(" #").next().unwrap_or(t).trim();
                let tk: Vec<&str> = body.split_whitespace().collect();
                if tk.first() == Some(&"NAME") && tk.contains(&"STATE") {
                    name_indent = indent;
                    continue;
                }
                if tk.len() == 1
                    && matches!(
                        tk.first().copied(),
                        Some("logs" | "cache" | "spares" | "special" | "dedup")
                    )
                {
                    section = tk.first().copied().unwrap_or("data").to_string();
                    stack.clear();
                    continue;
                }
                let Some(name) = tk.first() else { continue };
                let state = tk.get(1).copied();
                let known_state = state.is_some_and(|s| {
                    matches!(
                        s,
                        "ONLINE"
                            | "DEGRADED"
                            | "FAULTED"
                            | "OFFLINE"
                            | "UNAVAIL"
                            | "REMOVED"
                            | "AVAIL"
                            | "INUSE"
                            | "SUSPENDED"
                    )
                });
                if !known_state {
                    continue; // "~~~ Trimmmed for brevity ~~~" and other inserted text
                }
                let rel = indent.saturating_sub(name_indent);
                let mut depth = if section == "data" {
                    rel / 2 + depth_base
                } else {
                    rel.saturating_sub(2) / 2
                };
                // The indentation was lost (a page that collapsed the blanks): every row
                // sits at the NAME column. The pool's own row came first; a group
                // (mirror-0, raidz2-0, replacing-1) is a top-level vdev, a device after a
                // group is that group's child, a device before any group a top-level vdev.
                let pool_row_seen = p.vdevs.iter().any(|v| v.section == "data" && v.depth == 0);
                if section == "data" && rel == 0 && depth_base == 0 && pool_row_seen {
                    let under_group = stack.iter().any(|(d, n)| *d == 1 && is_group(n));
                    depth = if is_group(name) {
                        1
                    } else if under_group {
                        2
                    } else {
                        1
                    };
                }
                while stack.last().is_some_and(|(d, _)| *d >= depth) {
                    stack.pop();
                }
                let parent = stack.last().map(|(_, n)| n.clone());
                stack.push((depth, name.to_string()));
                let note = tk.get(5..).map(|r| r.join(" ")).filter(|s| !s.is_empty());
                p.vdevs.push(ZpoolVdev {
                    name: name.to_string(),
                    state: state.map(str::to_string),
                    read_errors: tk.get(2).and_then(|s| counter(s)),
                    write_errors: tk.get(3).and_then(|s| counter(s)),
                    cksum_errors: tk.get(4).and_then(|s| counter(s)),
                    depth,
                    parent,
                    section: section.clone(),
                    note,
                });
            }
            Field::None => {
                // A paste that starts at the scan continuation (no "pool:" line).
            }
        }
    }
    for p in &mut out {
        if let Some(s) = p.scan.as_mut() {
            finish_scan(s);
        }
        // A paste of the table without its "state:" line: the pool's own row carries the
        // same state (print_status_config prints the root vdev's state there, and
        // "state:" is that root vdev's state too, zpool_main.c status_callback).
        if p.state.is_none() {
            p.state = p
                .vdevs
                .iter()
                .find(|v| v.depth == 0 && v.section == "data")
                .and_then(|v| v.state.clone());
        }
    }
    out
}

/// What a pool's text says of data ZFS lost, as zpool printed it, or None ("errors: No
/// known data errors"): the ZPOOL_STATUS_CORRUPT_DATA explanation (zpool_main.c
/// status_callback, ZFS-8000-8A: "One or more devices has experienced an error resulting
/// in data corruption."; libzfs_status.c gives that status when the pool's persistent error
/// log is not empty, blocks that failed their checksum with no good copy left), or the
/// "errors:" line that lists that log ("Permanent errors have been detected in the
/// following files:", without -v "N data errors, use '-v' for a list").
pub fn data_errors(p: &ZpoolStatus) -> Option<String> {
    if let Some(e) = p.errors.as_deref() {
        let n = e
            .split_whitespace()
            .next()
            .and_then(|w| w.parse::<u64>().ok());
        if e.starts_with("Permanent errors")
            || (n.is_some_and(|n| n > 0) && e.contains("data error"))
        {
            return Some(format!("errors: {e}"));
        }
    }
    let s: Vec<&str> = p.status.as_deref()?.split_whitespace().collect();
    let s = s.join(" ");
    s.contains("error resulting in data corruption")
        .then(|| format!("status: {s}"))
}

/// The pool's "status:" text when it is zpool's explanation of failed I/O that no member
/// device carries: "One or more devices are faulted in response to IO failures."
/// (zpool_main.c status_callback, ZPOOL_STATUS_IO_FAILURE_WAIT and _CONTINUE, ZFS-8000-HC
/// and -JQ: libzfs_status.c gives it when the pool's failmode stopped or failed I/O after
/// writes or reads could not be completed), with every leaf ONLINE and at zero READ, WRITE
/// and CKSUM. The failure is then the pool's I/O as a whole (the path to the devices, or
/// the filesystem under file vdevs), not a member's media: no leaf says which one failed.
pub fn unattributed_io_failure(p: &ZpoolStatus) -> Option<String> {
    let s: Vec<&str> = p.status.as_deref()?.split_whitespace().collect();
    let s = s.join(" ");
    if !s.contains("faulted in response to IO failures") {
        return None;
    }
    let leaves = p.leaves();
    let quiet = |v: &&ZpoolVdev| {
        v.state.as_deref().is_none_or(|st| st == "ONLINE")
            && [v.read_errors, v.write_errors, v.cksum_errors]
                .iter()
                .all(|n| n.is_none_or(|n| n == 0))
    };
    (!leaves.is_empty() && leaves.iter().all(quiet)).then(|| format!("status: {s}"))
}

/// Whether the vdev tree says a resilver runs when the paste lost the "scan:" line: a
/// leaf marked "(resilvering)", which zpool prints only while the scan runs
/// (print_status_config: pss_state == DSS_SCANNING), or a "replacing" vdev, which
/// `zpool replace` makes and the end of the resilver takes apart (spa_vdev_resilver_done
/// detaches the old disk). The old "72.0G resilvered" note is no sign: ZFS before the
/// 2010 scan rewrite printed vs_scrub_repaired, kept after the resilver ended.
pub fn tree_says_resilvering(p: &ZpoolStatus) -> bool {
    p.vdevs.iter().any(|v| {
        v.note.as_deref() == Some("(resilvering)") || v.name.split('-').next() == Some("replacing")
    })
}

/// Whether a pool's "status:" text is zpool's resilvering explanation (zpool_main.c
/// ZPOOL_STATUS_RESILVERING: "One or more devices is currently being resilvered."), which
/// says a resilver runs even when the paste lost the "scan:" line.
pub fn status_says_resilvering(status: &str) -> bool {
    status.contains("currently being resilvered")
}

fn finish_scan(s: &mut ZpoolScan) {
    let t = s.text.clone();
    s.kind = if t.starts_with("none") {
        "none".into()
    } else if t.contains("resilver") {
        "resilver".into()
    } else if t.contains("scrub") || t.contains(" repaired, ") {
        // Without its "scan:" line a running scrub names itself only by "repaired, N% done".
        "scrub".into()
    } else {
        String::new()
    };
    // The progress lines ("scanned ... at R/s", "N% done", "T to go") are printed only while
    // a scan runs (print_scan_status), so they say "in progress" when the paste lost it.
    s.in_progress = t.contains("in progress")
        || (!t.contains("canceled") && SCAN_PROGRESS.is_match(t.trim_start()));
    s.canceled = t.contains("canceled");
    if let Some((before, _)) = t.split_once("% done") {
        let start = before
            .rfind(|c: char| !(c.is_ascii_digit() || c == '.'))
            .map(|i| i + 1)
            .unwrap_or(0);
        s.percent_done = before.get(start..).and_then(leading_f64);
    }
    if let Some((_, after)) = t.split_once(" with ")
        && after
            .split_whitespace()
            .nth(1)
            .is_some_and(|w| w.starts_with("error"))
    {
        s.errors = after.split_whitespace().next().and_then(|n| n.parse().ok());
    }
    if let Some(i) = t.find(" to go") {
        let before = t.get(..i).unwrap_or("");
        let start = before.rfind(", ").map(|j| j + 2).unwrap_or(0);
        s.remaining = before.get(start..).map(|r| format!("{} to go", r.trim()));
    } else if t.contains("no estimated completion time") {
        s.remaining = Some("no estimated completion time".into());
    }
    if let Some((_, after)) = t.split_once(" issued at ") {
        let rate = after.split(['/', ' ', ',']).next().unwrap_or("");
        s.issued_bytes_per_sec = parse_human_size(rate);
    }
}

/// OpenZFS's per-vdev warning "block size: 512B configured, 4096B native"
/// (zpool_main.c print_status_config: the vdev's ashift is below the device's physical
/// ashift): (configured, native) bytes. None for other notes and for sizes that are not a
/// power of two between 512 B and 16 MiB.
pub fn block_size_note(note: &str) -> Option<(u64, u64)> {
    let rest = note.trim().strip_prefix("block size:")?;
    let (conf, native) = rest.split_once(',')?;
    let bytes = |s: &str, word: &str| -> Option<u64> {
        let n: u64 = s
            .trim()
            .strip_suffix(word)?
            .trim()
            .strip_suffix('B')?
            .parse()
            .ok()?;
        (n.is_power_of_two() && (512..=1 << 24).contains(&n)).then_some(n)
    };
    Some((bytes(conf, "configured")?, bytes(native, "native")?))
}

/// What `zpool status -t` says of a leaf's TRIM (zpool_main.c print_status_trim, printed
/// for leaf vdevs only): `Some(false)` for "(trim unsupported)", which it prints when
/// vs_trim_notsup is set, i.e. vdev_has_trim is false (module/zfs/vdev.c): the block device
/// under the leaf takes no discard (Linux vdev_disk.c: bdev_max_discard_sectors() == 0;
/// FreeBSD vdev_geom.c: GEOM::candelete off). `Some(true)` for "(untrimmed)" and "(N%
/// trimmed, ...)": ZFS can trim it. HDDs print "(trim unsupported)" too.
pub fn trim_note(note: &str) -> Option<bool> {
    let n = note.trim();
    if n == TRIM_UNSUPPORTED {
        Some(false)
    } else {
        (n == "(untrimmed)" || n.contains("% trimmed")).then_some(true)
    }
}

/// print_status_trim's note for a leaf that cannot be trimmed.
pub const TRIM_UNSUPPORTED: &str = "(trim unsupported)";

/// What `zpool trim POOL` prints when no leaf of the pool can be trimmed (lib/libzfs
/// libzfs_pool.c zpool_trim: EOPNOTSUPP as "cannot trim: no devices in pool support trim
/// operations").
pub const NO_TRIM_DEVICES: &str = "no devices in pool support trim operations";

#[cfg(test)]
mod block_size_tests {
    use super::*;

    #[test]
    fn block_size_note_reads_both_sizes_and_rejects_nonsense() {
        assert_eq!(
            block_size_note("block size: 512B configured, 4096B native"),
            Some((512, 4096))
        );
        assert_eq!(
            block_size_note("block size: 65536B configured, 262144B native"),
            Some((65536, 262144))
        );
        assert_eq!(block_size_note("was /dev/gpt/disk2"), None);
        assert_eq!(
            block_size_note("block size: 513B configured, 4096B native"),
            None
        );
        assert_eq!(
            block_size_note("block size: 99999999999999999999999B configured, 4096B native"),
            None
        );
    }
}

// ---- the source spec (see sources::spec) ----
use crate::sources::spec;

// The "status:" explanations zpool prints for a device (cmd/zpool/zpool_main.c
// status_callback: "One or more devices is currently being resilvered.", "... has experienced
// an unrecoverable error.", "... could not be opened.", "... are faulted ..."): a paste cut
// down to that line is zpool's.
// The progress lines under "scan:" (cmd/zpool/zpool_main.c print_scan_status): 0.6/0.7's
// "7.19G scanned out of 10.2T at 46.0M/s, 64h23m to go" and "1.73G resilvered, 0.07% done",
// 0.8's "1.03T scanned at 515M/s, 614G issued at 307M/s, 2.63T total" and "X resilvered,
// Y% done, T to go" ("repaired" while a scrub runs), 2.2's "630M / 630M scanned, 264M / 630M
// issued at 20.3M/s" (" / T scanned at R/s, " while it still scans). A paste cut down to them is a running scan.
crate::rx!(
    SCAN_PROGRESS,
    r"^\s*[\d.]+[KMGTPEZ]?B?\s+(?:/ [\d.]+[KMGTPEZ]?B?\s+)?scanned(?: (?:out of [\d.]+[KMGTPEZ]?B? )?at [\d.]+[KMGTPEZ]?B?/s\b|, [\d.]+[KMGTPEZ]?B? / [\d.]+[KMGTPEZ]?B? issued\b)|^\s*[\d.]+[KMGTPEZ]?B?\s+(?:resilvered|repaired), [\d.]+"
);
crate::rx!(
    ZPOOL_START,
    r"^\s*pool: \S+|^\s*scan: (resilver|scrub) |^\s*[\d.]+[KMGTPEZ]?B?\s+scanned (?:out of [\d.]+[KMGTPEZ]?B? )?at [\d.]+[KMGTPEZ]?B?/s\b|^\s*[\d.]+[KMGTPEZ]?B?\s+(?:resilvered|repaired), [\d.]+|^\s*NAME\s+STATE\s+READ\s+WRITE\s+CKSUM|^\s*status: One or more devices (?:is|has|have|are|could|were) "
);
crate::rx!(
    ZPOOL_MEMBER,
    r"^\s*(state|status|action|see|scan|scrub|config|errors|remove|checkpoint|pool):|^\s*NAME\s+STATE\s+READ|^\s+\S+\s+(ONLINE|DEGRADED|FAULTED|OFFLINE|UNAVAIL|REMOVED|AVAIL|INUSE)\b|^\s*(spares|logs|cache|special|dedup)\s*$|^\s+\S|^(/\S|<0x)|^\S+\s+(ONLINE|DEGRADED|FAULTED|OFFLINE|UNAVAIL|REMOVED|AVAIL|INUSE)\s+\d"
);
// A vdev row: name, state, READ WRITE CKSUM (counters may carry a K/M suffix), then an
// optional note ("too many errors", "was /dev/ada1").
crate::rx!(
    VDEV_ROW,
    r"^\s*[\w./:+@-]+\s+(ONLINE|DEGRADED|FAULTED|OFFLINE|UNAVAIL|REMOVED)\s+\d+(\.\d+)?[KMGT]?\s+\d+(\.\d+)?[KMGT]?\s+\d+(\.\d+)?[KMGT]?(\s|$)"
);

/// `zpool status` run together on one line (web pages and bug trackers that lost the
/// newlines and the tree's indentation): its keys ("pool:", "state:", "scan:", ...), the
/// NAME header, each vdev row and the auxiliary section names (zpool-status(8)).
const FLAT: spec::Flat = spec::Flat {
    starts: &[
        r"\b((?:pool|state|status|action|see|scan|scrub|config|errors):\s)",
        r"\b(NAME\s+STATE\s+READ\s+WRITE\s+CKSUM)",
        r"(?:^|\s)([\w./:+@-]+\s+(?:ONLINE|DEGRADED|FAULTED|OFFLINE|UNAVAIL|REMOVED|AVAIL|INUSE)\s+\d+\S*\s+\d+\S*\s+\d+\S*)",
        r"(?:^|\s)((?:logs|cache|spares|special|dedup)\s)[\w./:+@-]+\s+(?:ONLINE|DEGRADED|FAULTED|OFFLINE|UNAVAIL|REMOVED|AVAIL|INUSE)\s",
    ],
    need: r"\bpool:\s|\bNAME\s+STATE\s+READ\s+WRITE\s+CKSUM",
    min: 4,
};

/// Where a `zpool status` prints secrets: the pool's name (its "pool:" line and the config
/// table's first row) and in each vdev row its name: the serial or WWN part of a Linux by-id
/// name ([`by_id`]), a FreeBSD GEOM label (`gpt/NAME`, `diskid/DISK-SERIAL`), or the GUID
/// zpool prints for a missing vdev and for every vdev with `-g` (zpool-status(8)).
pub fn secrets(text: &str) -> Vec<spec::Found> {
    use spec::{Found, SecretKind};
    if !text.contains("pool:") && !text.contains("CKSUM") {
        return Vec::new();
    }
    let mut out = Vec::new();
    for st in parse(text) {
        if !st.pool.is_empty() {
            out.push(Found::sure(SecretKind::Pool, &st.pool));
        }
        // Rows come only from a NAME STATE READ WRITE CKSUM table.
        if !text.contains("CKSUM") {
            continue;
        }
        for v in &st.vdevs {
            if v.depth == 0 && v.section == "data" {
                out.push(Found::sure(SecretKind::Pool, &v.name));
            } else {
                out.extend(vdev_secrets(&v.name));
            }
        }
    }
    out
}

/// The secrets of one vdev name as zpool(8) prints it (the device path without "/dev/").
pub(crate) fn vdev_secrets(name: &str) -> Vec<spec::Found> {
    use spec::{Found, SecretKind};
    let n = name.strip_prefix("/dev/").unwrap_or(name);
    if n.len() >= 6 && n.chars().all(|c| c.is_ascii_digit()) {
        return vec![Found::sure(SecretKind::Guid, n)];
    }
    if let Some(found) = super::geom_util::geom_label_secret(n) {
        return vec![found];
    }
    let mut out = by_id::secrets(n, true);
    if out.is_empty() {
        // vdev_id.conf aliases and hand-made names that carry a WWN
        // ("zfs-0x5000c5009ce3d0c7"): 0x and the 16 digits of an NAA/EUI-64 id.
        if let Some(i) = n.find("0x") {
            let hex: String = n[i + 2..]
                .chars()
                .take_while(char::is_ascii_hexdigit)
                .collect();
            if hex.len() == 16 {
                out.push(Found::likely(SecretKind::Wwn, &hex));
            }
        }
    }
    out
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "zpool-status",
    starts: &[
        (110, |l| spec::on_first(l, |t| ZPOOL_START.is_match(t))),
        // Vdev rows cut out of their tree (no "pool:", no NAME header): the state and the
        // three counters are zpool's alone (print_status_config in cmd/zpool/zpool_main.c).
        (230, |l| spec::on_first(l, |t| VDEV_ROW.is_match(t))),
    ],
    member: |t, _| spec::Member::from(ZPOOL_START.is_match(t) || ZPOOL_MEMBER.is_match(t)),
    tolerance: (1, 2),
    classify: |_, _| "zpool-status",
    ..spec::Recogniser::NONE
};

/// zpool-status(8), on FreeBSD and Linux (OpenZFS).
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    live: &[spec::Live::Cmd(&["zpool", "status"])],
    pasted_as: Some(spec::Live::Cmd(&["zpool", "status"])),
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste {
        flat: &[FLAT],
        ..spec::Paste::new(&RECOGNISER, |p, _| p == "zpool")
    }),
    programs: &[spec::Program::new("zpool", |a| {
        spec::starts_with_any(a, &["status", "list", "iostat", "get"])
    })],
    mention: Some(r"zpool\s+status"),
    secrets: &[spec::Secret::Scan(secrets)],
    ..spec::SourceSpec::named("zpool-status", "zpool status")
};
#[cfg(test)]
mod member_tests {
    use super::*;

    /// The scan's progress lines alone, in each OpenZFS generation's words, are a running
    /// scan of the right kind; a finished scrub's line and prose with "scanned" are not.
    #[test]
    fn progress_lines_without_their_scan_line() {
        for (t, kind, pct) in [
            (
                "7.19G scanned out of 10.2T at 46.0M/s, 64h23m to go\n1.73G resilvered, 0.07% done\n",
                "resilver",
                Some(0.07),
            ),
            (
                "    1.03T scanned at 515M/s, 614G issued at 307M/s, 2.63T total\n    \
                 152G resilvered, 22.81% done, 01:28:41 to go\n",
                "resilver",
                Some(22.81),
            ),
            (
                "\t2.41T scanned out of 5.44T at 180M/s, 4h53m to go\n\t0 repaired, 44.30% done\n",
                "scrub",
                Some(44.3),
            ),
        ] {
            let lines: Vec<&str> = t.lines().collect();
            assert!(ZPOOL_START.is_match(lines[0]), "{t}");
            let st = parse(t);
            let scan = st.first().and_then(|p| p.scan.as_ref()).expect("scan");
            assert_eq!(scan.kind, kind, "{t}");
            assert!(scan.in_progress, "{t}");
            assert_eq!(scan.percent_done, pct, "{t}");
        }
        for t in [
            "the disk was scanned at night, and it was fine",
            "scan: scrub repaired 0B in 00:10:11 with 0 errors on Sun Mar 10 00:34:12 2024",
        ] {
            let st = parse(t);
            assert!(
                st.iter()
                    .all(|p| p.scan.as_ref().is_none_or(|s| !s.in_progress)),
                "{t}"
            );
        }
    }

    #[test]
    fn tops_by_indentation_and_sections() {
        let t = "  pool: tank\n state: ONLINE\nconfig:\n\n\tNAME        STATE     READ WRITE CKSUM\n\ttank        ONLINE       0     0     0\n\t  mirror-0  ONLINE       0     0     0\n\t    ada0p3  ONLINE       0     0     0\n\t    ada1p3  ONLINE       0     0     0\n\t  ada2p1    ONLINE       0     0     0\n\tlogs\n\t  nvd0p1    ONLINE       0     0     0\n\nerrors: No known data errors\n";
        let p = &pool_members(t, DeviceNaming::FreeBsd)[0];
        assert_eq!(p.name, "tank");
        assert_eq!(p.state.as_deref(), Some("ONLINE"));
        assert_eq!(p.leaves, ["ada0p3", "ada1p3", "ada2p1", "nvd0p1"]);
        let tops: Vec<(&str, &str)> = p
            .tops
            .iter()
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect();
        assert_eq!(
            tops,
            [
                ("ada0p3", "mirror-0"),
                ("ada1p3", "mirror-0"),
                ("ada2p1", "ada2p1"),
                ("nvd0p1", "nvd0p1")
            ]
        );
    }

    #[test]
    fn naming_drops_guids_and_keeps_labels() {
        assert_eq!(DeviceNaming::FreeBsd.device_name("1234567890123"), None);
        assert_eq!(
            DeviceNaming::FreeBsd
                .device_name("/dev/gpt/zfs0")
                .as_deref(),
            Some("gpt/zfs0")
        );
        assert_eq!(DeviceNaming::FreeBsd.device_name("~~~trim~~~"), None);
        assert_eq!(
            DeviceNaming::Linux
                .device_name("ata-WDC_WD40EFRX-68N32N0_WD-X+Y-part1")
                .as_deref(),
            Some("ata-WDC_WD40EFRX-68N32N0_WD-X+Y-part1")
        );
        assert_eq!(DeviceNaming::FreeBsd.device_name("a+b"), None);
    }
}

#[cfg(test)]
mod tests;
