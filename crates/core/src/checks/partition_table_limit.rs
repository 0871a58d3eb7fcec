//! `partition-table-limit`: an MBR partition table on a disk larger than MBR can address.
//! Reference: the classic MBR layout (partition entries hold a 32-bit start LBA and a 32-bit
//! sector count), UEFI 2.10 section 5.2.1; gpart(8), sgdisk(8) `--mbrtogpt`.

use crate::checks::common::{self, Source, cite, how_to_know, human_bytes};
use crate::checks::{Check, Confidence, Finding, Fix, Severity, Verdict};
use crate::evidence::Platform;
use crate::facts::{DiskFacts, SystemFacts};

pub const ID: &str = "partition-table-limit";

pub(crate) struct PartitionTableLimit;

impl Check for PartitionTableLimit {
    fn id(&self) -> &'static str {
        ID
    }
    fn label(&self) -> &'static str {
        "Partition table"
    }
    fn summary(&self) -> &'static str {
        "MBR partition table on a disk larger than 2 TiB (the rest cannot be used)"
    }
    fn run(&self, sys: &SystemFacts) -> Vec<Finding> {
        // And any device a partitioning tool refused an MBR table on.
        sys.disks
            .iter()
            .filter(|d| common::disks(sys).any(|x| x.name == d.name) || !d.tool_messages.is_empty())
            .map(|d| check_disk(sys, d))
            .collect()
    }
}

fn is_mbr(scheme: &str) -> bool {
    matches!(
        scheme.trim().to_ascii_lowercase().as_str(),
        "mbr" | "dos" | "msdos"
    )
}

/// A partitioning tool refused an MBR table on this disk (fdisk's "DOS partition table
/// format cannot be used on drives for volumes larger than N bytes", parted's "partition
/// length of N sectors exceeds the msdos-partition-table-imposed maximum of 4294967295"):
/// the tool's own word, whatever else is known of the disk.
fn tool_refusal(sys: &SystemFacts, d: &DiskFacts) -> Option<Finding> {
    let msgs: Vec<&crate::facts::PartitionToolMessage> = d
        .tool_messages
        .iter()
        .filter(|m| m.verdict == crate::facts::PartitionToolVerdict::MbrTooSmall)
        .collect();
    let first = msgs.first()?;
    let size = first.disk_bytes.or_else(|| d.size_bytes.get());
    let mut f = Finding::new(
        ID,
        &d.name,
        Verdict::Problem,
        Severity::Notice,
        format!(
            "{}: {} says an MBR (msdos/DOS) table cannot address this disk{}",
            d.name,
            first.tool,
            size.map(|s| format!(" of {}", human_bytes(s)))
                .unwrap_or_default()
        ),
    )
    .explain(
        "An MBR partition table records starts and lengths as 32-bit sector numbers, so with \
         512-byte sectors it describes at most 2^32 x 512 bytes = 2 TiB. The tool refused \
         to put more of the disk in an MBR table: whatever lies beyond 2 TiB cannot be used. \
         It does not slow the disk; GPT has no such limit."
            .to_string(),
    )
    .confidence(Confidence::High);
    for m in &msgs {
        f = f.evidence(m.from.clone(), m.line.clone());
    }
    for fix in fixes(sys.platform, d) {
        f = f.fix(fix);
    }
    Some(f)
}

pub(crate) fn check_disk(sys: &SystemFacts, d: &DiskFacts) -> Finding {
    if let Some(f) = tool_refusal(sys, d) {
        return f;
    }
    let Some(table) = d.partition_table.value() else {
        return common::unknown(
            ID,
            d,
            format!("partition table of {} unknown", d.name),
            "Which partition table the disk has",
            &common::why(&d.partition_table),
            &how_to_know(sys.platform, Source::PartitionTable, d),
        );
    };
    let scheme_s = format!("scheme={}", table.scheme);
    let scheme = table.scheme.trim().to_ascii_lowercase();
    if scheme.is_empty() || scheme == "unknown" {
        // Partition starts can come from sysfs without the table itself (no root to read
        // the first sectors): the table type is then not known.
        return cite(
            common::unknown(
                ID,
                d,
                format!("partition table type of {} unknown", d.name),
                "Whether the partition table is MBR (limited to 2^32 sectors) or GPT",
                "only the partition starts were read, not the table",
                &how_to_know(sys.platform, Source::PartitionTable, d),
            ),
            &d.partition_table,
            scheme_s,
        );
    }
    if !is_mbr(&table.scheme) {
        return cite(
            common::pass(
                ID,
                d,
                format!("{} partition table: no size limit", table.scheme),
            )
            .explain("Only MBR tables are limited (to 2^32 sectors)."),
            &d.partition_table,
            scheme_s,
        );
    }
    let Some(size) = d.size_bytes.get() else {
        return common::unknown(
            ID,
            d,
            format!("size of {} unknown", d.name),
            "The disk's size (to compare with MBR's 2 TiB limit)",
            &common::why(&d.size_bytes),
            &how_to_know(sys.platform, Source::SectorSize, d),
        );
    };
    let logical = d
        .logical_sector_bytes
        .get()
        .map(u64::from)
        .or_else(|| table.partitions.first().map(|p| u64::from(p.sector_bytes)))
        .filter(|&l| l > 0)
        .unwrap_or(512);
    // 32-bit sector numbers: at most 2^32 sectors can be described.
    let limit = (1u64 << 32).saturating_mul(logical);
    let size_s = format!("size_bytes={size}");
    if size <= limit {
        return cite(
            cite(
                common::pass(ID, d, "MBR on a disk MBR can fully address: fine").explain(format!(
                    "MBR reaches {} with {logical}-byte sectors; this disk holds {}.",
                    human_bytes(limit),
                    human_bytes(size)
                )),
                &d.partition_table,
                scheme_s,
            ),
            &d.size_bytes,
            size_s,
        );
    }
    let lost = size - limit;
    let pct = lost.saturating_mul(100) / size.max(1);
    let mut f = Finding::new(
        ID,
        &d.name,
        Verdict::Problem,
        Severity::Notice,
        format!(
            "{}: MBR table can use only {} of this {} disk",
            d.name,
            human_bytes(limit),
            human_bytes(size)
        ),
    )
    .explain(format!(
        "An MBR partition table records starts and lengths as 32-bit sector numbers, so with \
         {logical}-byte sectors it can describe at most 2^32 x {logical} bytes = {}. This disk \
         holds {}: the last {} (about {pct}%) cannot be put in any partition. Seed 003 met \
         exactly this: a 2 TB slice on a 3 TB TOSHIBA DT01ACA300. It does not slow the disk; \
         GPT has no such limit.",
        human_bytes(limit),
        human_bytes(size),
        human_bytes(lost)
    ))
    .confidence(Confidence::High);
    f = cite(f, &d.partition_table, scheme_s);
    f = cite(f, &d.size_bytes, size_s);
    for fix in fixes(sys.platform, d) {
        f = f.fix(fix);
    }
    f
}

fn fixes(platform: Platform, d: &DiskFacts) -> Vec<Fix> {
    let name = &d.name;
    let dev = if d.dev_path.is_empty() {
        format!("/dev/{name}")
    } else {
        d.dev_path.clone()
    };
    match platform {
        Platform::Freebsd => vec![Fix {
            platform,
            summary: "replace the MBR with a GPT table".to_string(),
            steps: vec![
                format!("Back up everything on {name} and check the backup"),
                format!("`gpart destroy -F {name}` then `gpart create -s gpt {name}`"),
                format!("`gpart add -t freebsd-ufs -a 1m {name}` (freebsd-zfs for ZFS)"),
                format!("`newfs -U /dev/{name}p1` (or zpool create), then restore the data"),
                "A boot disk also needs `gpart add -t freebsd-boot -s 512k` and `gpart \
                 bootcode` (or an efi partition)"
                    .to_string(),
            ],
            risk: "destroys data: back up and restore first".to_string(),
        }],
        Platform::Linux => vec![Fix {
            platform,
            summary: "convert the table to GPT and grow the last partition".to_string(),
            steps: vec![
                format!("Back up the data on {dev} and check the backup"),
                format!(
                    "`sgdisk --mbrtogpt {dev}` (needs the first partition to start at sector 34 \
                     or later and the last 33 sectors free)"
                ),
                format!(
                    "Grow the last partition into the freed space (`growpart {dev} N` or \
                     `parted {dev} resizepart N 100%`), then the filesystem (`resize2fs`, \
                     `xfs_growfs`)"
                ),
                "A BIOS-booted system disk needs a 1 MiB BIOS boot partition (type ef02) for \
                 GRUB before it boots from GPT"
                    .to_string(),
            ],
            risk: "rewrites the partition table: back up first; a boot disk may not boot \
                   until the boot loader is reinstalled for GPT"
                .to_string(),
        }],
        Platform::Unknown => Vec::new(),
    }
}

#[cfg(test)]
mod tests;
