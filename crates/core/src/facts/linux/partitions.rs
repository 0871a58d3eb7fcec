//! A disk's partition table: the native table read from its first sectors (MBR/GPT/BSD
//! label, facts::partition_table) merged with the kernel's view in sysfs (per-partition
//! `partition`, `start`, `size` in 512-byte units and `alignment_offset`, sysfs-block ABI).
//! When the bytes could not be read (no root), the sysfs view stands alone with a note.

use crate::evidence::{EvidenceBundle, SourceKey};
use crate::facts::linux::sysfs::{fkey, text};
use crate::facts::{Fact, Partition, PartitionTable};
use crate::sources::partition_table::{self as pt, kernel_partition_name};

/// The kernel's view of one partition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SysfsPartition {
    pub name: String,
    pub number: u32,
    /// Start and size in 512-byte units, as sysfs always reports them.
    pub start_512: u64,
    pub size_512: u64,
    pub alignment_offset: Option<i64>,
}

pub(crate) fn sysfs_partitions(
    b: &EvidenceBundle,
    disk: &str,
    names: &[String],
) -> Vec<SysfsPartition> {
    let mut out: Vec<SysfsPartition> = names
        .iter()
        .filter_map(|p| {
            let base = format!("/sys/block/{disk}/{p}");
            let num = |f: &str| text(b, &format!("{base}/{f}")).and_then(|t| t.parse::<u64>().ok());
            Some(SysfsPartition {
                name: p.clone(),
                number: u32::try_from(num("partition")?).ok()?,
                start_512: num("start")?,
                size_512: num("size")?,
                alignment_offset: text(b, &format!("{base}/alignment_offset"))
                    .and_then(|t| t.parse().ok()),
            })
        })
        .collect();
    crate::sort::sort_by_key(&mut out, |p| p.number);
    out
}

/// The captured bytes of a device read at `offset` (any length), decoded.
fn read_at(b: &EvidenceBundle, dev: &str, offset: u64) -> Option<(Vec<u8>, String)> {
    reads_at(b, dev, offset)
        .find_map(|(k, c)| Some((crate::evidence::hex_decode(c.data()?)?, k.clone())))
}

/// Captures of reads of `dev` at `offset` (any length). The captures map is ordered, so
/// this is a range scan over the `read:<dev>:<offset>:` prefix, not a walk of the bundle.
fn reads_at<'a>(
    b: &'a EvidenceBundle,
    dev: &str,
    offset: u64,
) -> impl Iterator<Item = (&'a String, &'a crate::evidence::Capture)> {
    let prefix = format!("read:{dev}:{offset}:");
    let (dev, offset) = (dev.to_string(), offset);
    b.captures
        .range(prefix.clone()..)
        .take_while(move |(k, _)| k.starts_with(&prefix))
        .filter(move |(k, _)| {
            matches!(SourceKey::parse(k), Some(SourceKey::DeviceRead { device, offset: o, .. })
                if device == dev && o == offset)
        })
}

/// Why the table bytes at offset 0 of `dev` are unknown.
fn read_why(b: &EvidenceBundle, dev: &str) -> String {
    reads_at(b, dev, 0)
        .map(|(_, c)| c.why())
        .next()
        .unwrap_or_else(|| "the first sectors were not read".to_string())
}

fn from_sysfs(disk: &str, s: &SysfsPartition, ls: u32) -> Partition {
    let start_bytes = s.start_512.saturating_mul(512);
    Partition {
        number: s.number,
        name: s.name.clone(),
        start_sector: start_bytes / u64::from(ls),
        size_sectors: s.size_512.saturating_mul(512) / u64::from(ls),
        sector_bytes: ls,
        start_bytes,
        type_name: None,
        alignment_offset_bytes: s.alignment_offset.and_then(|a| u64::try_from(a).ok()),
        children: Vec::new(),
        active: false,
    }
    .named(disk)
}

trait Named {
    fn named(self, disk: &str) -> Self;
}
impl Named for Partition {
    fn named(mut self, disk: &str) -> Self {
        if self.name.is_empty() {
            self.name = kernel_partition_name(disk, self.number);
        }
        self
    }
}

/// Derive the partition table of `disk` (device node `dev`) with logical sector `ls`.
pub fn derive(
    b: &EvidenceBundle,
    disk: &str,
    dev: &str,
    ls: u32,
    sysfs: &[SysfsPartition],
) -> Fact<PartitionTable> {
    let dir_key = format!("dir:/sys/block/{disk}");
    let Some((bytes, key)) = read_at(b, dev, 0) else {
        if sysfs.is_empty() {
            return Fact::unknown(format!(
                "{}: reading the partition table needs the device to be readable (run as root)",
                read_why(b, dev)
            ));
        }
        let t = PartitionTable {
            scheme: "unknown".into(),
            partitions: sysfs.iter().map(|s| from_sysfs(disk, s, ls)).collect(),
            notes: vec![format!(
                "table bytes not read ({}): partitions from sysfs only",
                read_why(b, dev)
            )],
        };
        let mut from = vec![dir_key];
        from.extend(
            sysfs
                .iter()
                .map(|s| fkey(&format!("/sys/block/{disk}/{}/start", s.name))),
        );
        return Fact::known_from(t, from);
    };
    let mut from = vec![key];
    let mut table = match pt::parse(&bytes, ls) {
        Some(t) => t,
        None if bytes.len() < 512 => {
            return Fact::unknown(format!("only {} bytes of {dev} were captured", bytes.len()));
        }
        None => PartitionTable {
            scheme: "none".into(),
            partitions: Vec::new(),
            notes: vec!["no MBR boot signature (0x55AA): no partition table".into()],
        },
    };
    // Follow EBR chains the probe read, and BSD labels in FreeBSD slices.
    let ext: Vec<(u64, usize)> = table
        .partitions
        .iter()
        .enumerate()
        .filter(|(_, p)| p.type_name.as_deref() == Some("extended"))
        .map(|(i, p)| (p.start_sector, i))
        .collect();
    if !table.partitions.iter().any(|p| p.number >= 5) {
        for (start, _) in ext {
            let (logicals, notes) = pt::logical_partitions(start, ls, |lba| {
                let (bytes, k) = read_at(b, dev, lba.checked_mul(u64::from(ls))?)?;
                from.push(k);
                Some(bytes)
            });
            if !logicals.is_empty() {
                table.notes.retain(|n| !n.contains("need EBR reads"));
                table.notes.extend(notes);
                table.partitions.extend(logicals);
            }
        }
    }
    if table.scheme == "mbr" {
        for p in table.partitions.iter_mut() {
            if p.type_name.as_deref() == Some("FreeBSD") {
                let (off, _) = pt::bsdlabel_location(p.start_sector, ls);
                if let Some((lb, k)) = read_at(b, dev, off)
                    && let Some(children) = pt::parse_bsdlabel(&lb, p.start_sector, ls)
                {
                    p.children = children;
                    from.push(k);
                }
            }
        }
    }
    for p in table.partitions.iter_mut() {
        *p = std::mem::take(p).named(disk);
        let slice_name = p.name.clone();
        for c in p.children.iter_mut() {
            c.name = format!("{slice_name}{}", c.name);
        }
        if let Some(s) = sysfs.iter().find(|s| s.number == p.number) {
            p.name = s.name.clone();
            p.alignment_offset_bytes = s.alignment_offset.and_then(|a| u64::try_from(a).ok());
            if s.start_512.saturating_mul(512) != p.start_bytes
                && p.type_name.as_deref() != Some("extended")
            {
                table.notes.push(format!(
                    "the kernel has {} starting at byte {}, the table at byte {}: re-read the table (partx -u, blockdev --rereadpt)",
                    s.name,
                    s.start_512.saturating_mul(512),
                    p.start_bytes
                ));
            }
        }
    }
    // Linux numbers the entries of a BSD label inside a FreeBSD slice from 5 on
    // (block/partitions/msdos.c parse_bsd); match them by start to the label's children.
    let mut claimed: Vec<u32> = Vec::new();
    for p in table.partitions.iter_mut() {
        for c in p.children.iter_mut() {
            if let Some(s) = sysfs
                .iter()
                .find(|s| s.number > 4 && s.start_512.saturating_mul(512) == c.start_bytes)
            {
                c.name = s.name.clone();
                c.alignment_offset_bytes = s.alignment_offset.and_then(|a| u64::try_from(a).ok());
                claimed.push(s.number);
            }
        }
    }
    for s in sysfs {
        if claimed.contains(&s.number) {
            continue;
        }
        if !table.partitions.iter().any(|p| p.number == s.number) {
            table.notes.push(format!(
                "the kernel knows {} which the table does not list",
                s.name
            ));
            table.partitions.push(from_sysfs(disk, s, ls));
        }
    }
    if !sysfs.is_empty() {
        from.push(dir_key);
    }
    Fact::known_from(table, from)
}
