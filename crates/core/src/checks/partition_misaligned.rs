//! `partition-misaligned`: partition starts compared with the drive's physical sector and
//! with 1 MiB. References: ATA/ACS-3 IDENTIFY words 106 and 209 (logical/physical sector
//! relationship, LBA 0 offset), SBC-3 READ CAPACITY(16) LOWEST ALIGNED LOGICAL BLOCK, Linux
//! Documentation/ABI/testing/sysfs-block (alignment_offset), FreeBSD geom(4) stripesize and
//! stripeoffset, UEFI 2.10 section 5.3 (GPT), gpart(8) `-a`.
//!
//! Offset convention: `DiskFacts::alignment_offset_bytes` arrives in one of two opposite
//! conventions, and the capture key says which. The kernel's (Linux queue alignment_offset,
//! FreeBSD stripeoffset / DIOCGSTRIPEOFFSET, diskinfo) is the distance from LBA 0 to the
//! first physical-sector boundary. The drive's (IDENTIFY word 209 as sysfs ata_device/id,
//! hdparm, smartctl "(offset N bytes)", camcontrol identify "offset N") is where LBA 0 sits
//! inside its physical sector. A drive whose LBA 0 sits 512 bytes into a 4096-byte physical
//! sector reports 512 the drive's way and 3584 the kernel's; its boundaries are at LBA 7, 15,
//! ... 63, so on it a partition at 63 is aligned and one at 2048 is not.

use crate::checks::common::{self, Media, Source, cite, how_to_know, human_bytes, media};
use crate::checks::{Check, Confidence, Finding, Fix, Severity, Verdict};
use crate::evidence::Platform;
use crate::facts::{DiskFacts, Partition, PartitionTable, SystemFacts};

pub const ID: &str = "partition-misaligned";

const MIB: u64 = 1 << 20;

pub(crate) struct PartitionMisaligned;

impl Check for PartitionMisaligned {
    fn id(&self) -> &'static str {
        ID
    }
    fn label(&self) -> &'static str {
        "Partition alignment"
    }
    fn summary(&self) -> &'static str {
        "partition starts not on a physical-sector boundary (read-modify-write on 512e drives)"
    }
    fn run(&self, sys: &SystemFacts) -> Vec<Finding> {
        // Loop and zram devices too: they have sector sizes and partition tables.
        // And any device a partitioning or mkfs tool judged (an md array, a dm device):
        // the tool's verdict stands whatever the device is.
        sys.disks
            .iter()
            .filter(|d| {
                common::partitioned_disks(sys).any(|x| x.name == d.name)
                    || !d.tool_messages.is_empty()
            })
            .map(|d| check_disk(sys, d))
            .collect()
    }
}

/// A partition with its absolute start, flattened from nested tables.
#[derive(Debug, Clone)]
pub(crate) struct Placed<'a> {
    pub part: &'a Partition,
    pub start_bytes: u64,
}

/// MBR entries that are not data partitions: the protective entry of a GPT disk (type 0xEE)
/// and extended-partition containers (05h, 0Fh, 85h), whose logical partitions are listed
/// separately.
fn is_container_or_protective(p: &Partition) -> bool {
    let Some(t) = p.type_name.as_deref() else {
        return false;
    };
    let t = t.trim().to_ascii_lowercase();
    let t = t.trim_start_matches("0x");
    t.contains("protective")
        || t.contains("extended")
        || t == "ee"
        || t == "gpt"
        || t == "5"
        || t == "05"
        || t == "f"
        || t == "0f"
        || t == "85"
        || t == "ebr"
}

/// Partitions no file system lives on and nothing reads or writes in bulk, whose alignment
/// therefore costs nothing: Windows' Microsoft Reserved Partition (GPT type e3c9e316-...;
/// Windows and old tools put it at LBA 34), the GRUB BIOS boot partition and FreeBSD's
/// freebsd-boot (boot code read once at boot).
fn is_reserved_or_boot(p: &Partition) -> bool {
    p.type_name.as_deref().is_some_and(|t| {
        let t = t.trim().to_ascii_lowercase();
        t.contains("microsoft reserved")
            || t == "msr"
            || t.contains("bios boot")
            || t == "freebsd-boot"
            || t.starts_with("e3c9e316")
    })
}

/// Extended-partition containers (not the GPT protective entry) with their absolute start.
fn containers(t: &PartitionTable) -> Vec<Placed<'_>> {
    t.partitions
        .iter()
        .filter(|p| is_container_or_protective(p) && !is_protective(p))
        .map(|p| Placed {
            part: p,
            start_bytes: if p.start_bytes == 0 {
                p.start_sector.saturating_mul(u64::from(p.sector_bytes))
            } else {
                p.start_bytes
            },
        })
        .collect()
}

fn is_protective(p: &Partition) -> bool {
    p.type_name.as_deref().is_some_and(|t| {
        let t = t.trim().to_ascii_lowercase();
        let t = t.trim_start_matches("0x");
        t.contains("protective") || t == "ee" || t == "gpt"
    })
}

/// Every data partition with its absolute start in bytes.
pub(crate) fn placed(t: &PartitionTable) -> Vec<Placed<'_>> {
    fn walk<'a>(parts: &'a [Partition], parent_start: Option<u64>, out: &mut Vec<Placed<'a>>) {
        for p in parts {
            // A parser that left sector_bytes at 0 most likely meant the kernel's 512-byte
            // units (Linux sysfs `start` is always in 512-byte sectors).
            let unit = if p.sector_bytes == 0 {
                512
            } else {
                u64::from(p.sector_bytes)
            };
            let own = p.start_sector.saturating_mul(unit);
            let start = match parent_start {
                None if p.start_bytes == 0 => own,
                None => p.start_bytes,
                // A child's start_bytes is absolute; a value below its parent's start means
                // the parser left it relative, so add the parent's start.
                Some(ps) if p.start_bytes < ps => ps.saturating_add(own),
                Some(_) => p.start_bytes,
            };
            if p.size_sectors > 0 && !is_container_or_protective(p) {
                out.push(Placed {
                    part: p,
                    start_bytes: start,
                });
            }
            walk(&p.children, Some(start), out);
        }
    }
    let mut out = Vec::new();
    walk(&t.partitions, None, &mut out);
    out
}

/// Whether a capture key holds the drive's own view (IDENTIFY word 209 and tools printing
/// it), whose offset runs the opposite way from the kernel's alignment_offset/stripeoffset.
fn drive_convention(source: &str) -> bool {
    let s = source.to_ascii_lowercase();
    s.contains("/ata_device/")
        || s.contains("identify")
        || crate::sources::smartctl::names_key(&s)
        || s.contains("atacontrol")
        || s.contains("hdparm")
}

/// Bytes from LBA 0 to the first physical boundary, and the facts it came from.
fn first_boundary(d: &DiskFacts, phys: u64) -> Option<(u64, String)> {
    if let Some(x) = d
        .ata_identify
        .as_ref()
        .and_then(|i| i.lba0_offset_bytes)
        .map(u64::from)
    {
        return Some((
            (phys - x % phys) % phys,
            format!("IDENTIFY word 209: LBA 0 sits {x} bytes into its physical sector"),
        ));
    }
    let a = d.alignment_offset_bytes.get()?;
    let from_drive = d
        .alignment_offset_bytes
        .sources()
        .first()
        .is_some_and(|s| drive_convention(s));
    if from_drive && a % phys != 0 {
        Some((
            (phys - a % phys) % phys,
            format!("the drive reports LBA 0 at offset {a} inside its physical sector"),
        ))
    } else {
        Some((a % phys, format!("alignment_offset={a}")))
    }
}

/// A partition the kernel judged but whose start sector is not known: `diskinfo -v` of a
/// FreeBSD partition gives GEOM's stripeoffset (the distance past a physical-sector
/// boundary, g_part.c) and no start (facts::freebsd records it at start 0).
fn start_unknown(p: &Partition) -> bool {
    p.start_sector == 0 && p.start_bytes == 0 && p.alignment_offset_bytes.is_some()
}

/// A partition's kernel-computed offset as evidence: Linux's sysfs attribute, or on FreeBSD
/// GEOM's stripeoffset from the capture the partition table came from (diskinfo -v,
/// gpart list, kern.geom.confxml).
fn kernel_offset_evidence(f: Finding, sys: &SystemFacts, d: &DiskFacts, p: &Partition) -> Finding {
    let off = p.alignment_offset_bytes.unwrap_or(0);
    match sys.platform {
        Platform::Freebsd => cite(
            f,
            &d.partition_table,
            format!("{}: stripeoffset {off} past a stripe boundary", p.name),
        ),
        _ => f.evidence(
            format!("file:/sys/block/{}/{}/alignment_offset", d.name, p.name),
            format!("{off}"),
        ),
    }
}

fn name_list(v: &[(&Placed<'_>, u64)]) -> String {
    v.iter()
        .map(|(p, past)| {
            if start_unknown(p.part) {
                format!(
                    "{} ({past} bytes past a physical-sector boundary, the kernel's own \
                     figure; its start sector was not shown)",
                    p.part.name
                )
            } else {
                format!(
                    "{} at sector {} (byte {})",
                    p.part.name,
                    p.start_bytes / 512,
                    p.start_bytes
                )
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A partitioning or mkfs tool judged a partition of this disk misaligned (parted's
/// `align-check` answer "N not aligned" or its "not properly aligned for best performance"
/// warning, mkfs.xfs's "device is not properly aligned"): each computed it from the
/// kernel's topology of the real device, which the paste may not show.
fn tool_verdict(sys: &SystemFacts, d: &DiskFacts) -> Option<Finding> {
    use crate::facts::PartitionToolVerdict;
    let bad: Vec<&crate::facts::PartitionToolMessage> = d
        .tool_messages
        .iter()
        .filter(|m| m.verdict == PartitionToolVerdict::Misaligned)
        .collect();
    let first = bad.first()?;
    let good: Vec<String> = d
        .tool_messages
        .iter()
        .filter(|m| m.verdict == PartitionToolVerdict::Aligned)
        .filter_map(|m| m.partition.clone())
        .collect();
    let mut which: Vec<String> = Vec::new();
    for m in &bad {
        let w = match (&m.partition, m.tool.as_str()) {
            (Some(p), _) if p.chars().all(|c| c.is_ascii_digit()) => format!("partition {p}"),
            (Some(p), _) => p.clone(),
            (None, _) => "the partition".to_string(),
        };
        if !which.contains(&w) {
            which.push(w);
        }
    }
    let mut f = Finding::new(
        ID,
        &d.name,
        Verdict::Problem,
        Severity::Warning,
        format!(
            "{}: {} reports {} not aligned",
            d.name,
            first.tool,
            which.join(", ")
        ),
    )
    .explain(format!(
        "{} checked the start against the device's own alignment (parted's optimal \
         alignment is the device's optimal I/O size or 1 MiB, its minimal one the physical \
         sector; mkfs.xfs the physical sector) and found {} off it. Every write that \
         straddles a physical sector then costs a read-modify-write inside the drive (seed \
         003's drive: 4 KiB writes 11.3 MB/s aligned, 5.0 MB/s misaligned).{}",
        first.tool,
        which.join(", "),
        if good.is_empty() {
            String::new()
        } else {
            format!(
                " The same check found partition {} aligned.",
                good.join(", ")
            )
        }
    ))
    .confidence(Confidence::High)
    .impact(0.3);
    for m in &bad {
        f = f.evidence(m.from.clone(), m.line.clone());
    }
    if sys.platform != Platform::Freebsd {
        f = f.fix(Fix {
            platform: sys.platform,
            summary: "recreate the partition on a 1 MiB boundary".to_string(),
            steps: vec![
                "Back up the partition's data and check the backup".to_string(),
                "Recreate it with a start that is a multiple of 2048 sectors: `parted -a \
                 optimal /dev/DISK mkpart ... 1MiB ...` (fdisk and parted do this by default)"
                    .to_string(),
                "Check it: `parted /dev/DISK align-check optimal N` answers \"N aligned\""
                    .to_string(),
            ],
            risk: "recreating a partition destroys its data: restore from the backup".to_string(),
        });
    }
    Some(f)
}

pub(crate) fn check_disk(sys: &SystemFacts, d: &DiskFacts) -> Finding {
    if let Some(f) = tool_verdict(sys, d) {
        return f;
    }
    let Some(table) = d.partition_table.value() else {
        return common::unknown(
            ID,
            d,
            format!("partition table of {} unknown", d.name),
            "Where the partitions start",
            &common::why(&d.partition_table),
            &how_to_know(sys.platform, Source::PartitionTable, d),
        );
    };
    let parts = placed(table);
    let scheme = table.scheme.clone();
    let table_s = |f: Finding| {
        let starts: Vec<String> = parts
            .iter()
            .map(
                |p| match (start_unknown(p.part), p.part.alignment_offset_bytes) {
                    (true, Some(o)) => format!("{}@?+{o}", p.part.name),
                    _ => format!("{}@{}", p.part.name, p.start_bytes),
                },
            )
            .collect();
        cite(
            f,
            &d.partition_table,
            format!(
                "{}{}",
                if scheme.is_empty() {
                    String::new()
                } else {
                    format!("{scheme}: ")
                },
                if starts.is_empty() {
                    "no partitions".to_string()
                } else {
                    starts.join(" ")
                }
            ),
        )
    };
    if parts.is_empty() {
        return table_s(
            common::pass(ID, d, "no partitions: the data starts at LBA 0: aligned").explain(
                "The disk has no partitions (or only a GPT protective entry), so whatever is on it \
             starts at the first sector.",
            ),
        );
    }

    // Kernel-computed partition offsets are evidence of their own (Linux sets them per
    // partition from the same topology).
    let kernel_bad: Vec<&Placed<'_>> = parts
        .iter()
        .filter(|p| p.part.alignment_offset_bytes.is_some_and(|o| o != 0))
        .collect();

    let Some(phys) = d
        .physical_sector_bytes
        .get()
        .map(u64::from)
        .filter(|&p| p > 0)
    else {
        if !kernel_bad.is_empty() {
            return problem_kernel_only(sys, d, &kernel_bad, table_s);
        }
        if parts
            .iter()
            .all(|p| p.part.alignment_offset_bytes == Some(0))
        {
            return table_s(
                common::pass(ID, d, "partitions aligned (per the kernel): good")
                    .explain("The kernel reports an alignment offset of 0 for every partition."),
            );
        }
        if let Some(f) = likely_4k_misaligned(sys, d, table, &parts) {
            return table_s(f);
        }
        let at63 = parts.iter().any(|p| p.start_bytes % 4096 != 0);
        return table_s(common::unknown(
            ID,
            d,
            format!("physical sector size of {} unknown", d.name),
            &format!(
                "The drive's physical sector size{}",
                if at63 {
                    " (a partition here starts off a 4 KiB boundary, which matters only on a \
                     4K-sector drive)"
                } else {
                    ""
                }
            ),
            &common::why(&d.physical_sector_bytes),
            &how_to_know(sys.platform, Source::SectorSize, d),
        ));
    };
    let logical = d.logical_sector_bytes.get().map(u64::from).unwrap_or(512);
    let phys_s = format!("physical_sector_bytes={phys}");

    // The kernel's per-partition verdicts (GEOM stripeoffset) already count the disk's
    // own offset, so they need no first boundary.
    let judged = parts.iter().any(|p| start_unknown(p.part));
    let boundary = first_boundary(d, phys).or_else(|| {
        judged.then(|| {
            (
                0,
                "the kernel's per-partition offsets (GEOM stripeoffset)".to_string(),
            )
        })
    });
    let Some((first, off_s)) = boundary else {
        if phys <= logical {
            // Every start is a whole logical sector, hence a whole physical one.
            return aligned_pass(d, &parts, phys, table_s, &phys_s);
        }
        return cite(
            table_s(common::unknown(
                ID,
                d,
                format!("alignment offset of {} unknown", d.name),
                "Whether LBA 0 of this 4K-sector drive starts on a physical boundary (nearly all \
                 do; drives with a Windows XP jumper do not)",
                &common::why(&d.alignment_offset_bytes),
                &how_to_know(sys.platform, Source::SectorSize, d),
            )),
            &d.physical_sector_bytes,
            phys_s,
        );
    };
    if phys <= logical && first == 0 {
        return aligned_pass(d, &parts, phys, table_s, &phys_s);
    }
    let off = |p: &Placed<'_>| ((p.start_bytes % phys) + phys - first) % phys;
    let bad: Vec<(&Placed<'_>, u64)> = parts
        .iter()
        .filter(|p| !is_reserved_or_boot(p.part))
        .filter_map(|p| {
            let past = if start_unknown(p.part) {
                p.part.alignment_offset_bytes.unwrap_or(0) % phys
            } else {
                off(p)
            };
            (past != 0).then_some((p, past))
        })
        .collect();
    if bad.is_empty() {
        let mut f = aligned_pass(d, &parts, phys, table_s, &phys_s);
        let off_reserved: Vec<String> = parts
            .iter()
            .filter(|p| is_reserved_or_boot(p.part) && off(p) != 0)
            .map(|p| format!("{} (sector {})", p.part.name, p.start_bytes / 512))
            .collect();
        if !off_reserved.is_empty() {
            f.explanation.push_str(&format!(
                " {} starts off a physical boundary, but it is a reserved or boot-code \
                 partition that holds no file system and sees no bulk I/O, so nothing is \
                 slowed.",
                off_reserved.join(", ")
            ));
        }
        let off_containers: Vec<String> = containers(table)
            .iter()
            .filter(|c| ((c.start_bytes % phys) + phys - first) % phys != 0)
            .map(|c| format!("{} (sector {})", c.part.name, c.start_bytes / 512))
            .collect();
        if !off_containers.is_empty() {
            f.explanation.push_str(&format!(
                " The extended-partition container {} starts off a physical boundary (fdisk \
                 warns about it), but it only holds the small boot records that chain the \
                 logical partitions; the logical partitions inside are aligned, so nothing is \
                 slowed.",
                off_containers.join(", ")
            ));
        }
        return if first != 0 {
            cite(f, &d.alignment_offset_bytes, off_s)
        } else {
            f
        };
    }
    let is_ssd = media(d) == Some(Media::Ssd);
    let mut expl = format!(
        "{} stores data in {phys}-byte physical sectors but addresses {logical}-byte logical \
         sectors. ",
        d.name
    );
    if first != 0 {
        expl.push_str(&format!(
            "Its LBA 0 does not start on a physical boundary ({off_s}): the first boundary is \
             {first} bytes in, so aligned partitions start {first} bytes past a multiple of \
             {phys}. "
        ));
    }
    expl.push_str(&format!(
        "{} start{} off a physical-sector boundary. A filesystem block then straddles two \
         physical sectors, and each write of one makes the drive read both, merge and write \
         them back (read-modify-write), an extra platter revolution on an HDD. Measured on \
         seed 003's TOSHIBA DT01ACA300 (4096-byte physical) with phybs: 4 KiB writes at 11.3 \
         MB/s aligned versus 5.0 MB/s shifted by 512 bytes (2.2x slower), 8 KiB writes at 13.8 \
         versus 6.2 MB/s. Large sequential transfers and reads suffer much less. ",
        name_list(&bad),
        if bad.len() == 1 { "s" } else { "" }
    ));
    let starts: Vec<u64> = bad.iter().map(|(p, _)| p.start_bytes / 512).collect();
    if starts.contains(&63) {
        expl.push_str(
            "Sector 63 is the old DOS cylinder default (fdisk, FreeBSD's sysinstall, Windows \
             XP), chosen long before 4K-sector drives existed. ",
        );
    }
    if starts.contains(&34) && table.scheme.eq_ignore_ascii_case("gpt") {
        expl.push_str(
            "Sector 34 is the first sector after a GPT's header and table; older gpart and \
             other tools put the first partition there unless told to align (gpart add -a). ",
        );
    }
    if is_ssd {
        expl.push_str(
            "An SSD hides part of this, but misaligned writes still touch twice the flash \
             pages and wear it faster. ",
        );
    }
    expl.push_str(
        "A partition cannot be shifted in place: the data has to be copied off, the partition \
         recreated at a 1 MiB boundary (aligned for every sector size) and the data restored.",
    );
    let first_bad = bad
        .first()
        .map(|(p, _)| p.part.name.clone())
        .unwrap_or_default();
    let mut f = Finding::new(
        ID,
        &d.name,
        Verdict::Problem,
        Severity::Warning,
        format!(
            "{}: {} not aligned to the {phys}-byte physical sector",
            d.name,
            if bad.len() == 1 {
                first_bad
            } else {
                format!("{} partitions", bad.len())
            }
        ),
    )
    .explain(expl)
    .confidence(Confidence::Medium)
    .impact(if is_ssd { 0.2 } else { 0.3 });
    f = table_s(f);
    f = cite(f, &d.physical_sector_bytes, phys_s);
    if first != 0 || d.ata_identify.is_none() {
        f = cite(f, &d.alignment_offset_bytes, off_s);
    }
    for p in &kernel_bad {
        f = kernel_offset_evidence(f, sys, d, p.part);
    }
    for fix in fixes(sys.platform, d, table) {
        f = f.fix(fix);
    }
    f
}

/// The smallest disk, in bytes, on which a start off the 4 KiB grid is called likely
/// misaligned when the physical sector size is not shown: hard disks of 1 TB and more made
/// since 2011 are nearly all 4K-sector ("Advanced Format", IDEMA's transition of January
/// 2011) drives emulating 512-byte sectors. The disk's size here is the end of its last
/// partition, a lower bound (a 1 TB drive fully partitioned ends at 1,000,204,886,016).
const LIKELY_4K_BYTES: u64 = 990_000_000_000;

/// A partition off the 4 KiB grid (sector 63, the old DOS default) on a disk of 1 TB or
/// more whose physical sector size is unknown: a notice with low confidence, and how to
/// know for sure. Smaller disks (virtual disks, old drives) stay unknown.
fn likely_4k_misaligned(
    sys: &SystemFacts,
    d: &DiskFacts,
    table: &PartitionTable,
    parts: &[Placed<'_>],
) -> Option<Finding> {
    if common::is_virtual_bus(d) {
        return None;
    }
    // An NVMe drive is flash whatever LBA format it shows: its NAND programs pages of 4 KiB
    // and more (NVMe 1.4 Identify Namespace NPWG/NOWS, which Linux's nvme driver turns into
    // the queue's physical_block_size/optimal_io_size), so a start off the 4 KiB grid splits
    // writes there at any size; parted's "align-check optimal" says the same. Emulated NVMe
    // is a virtual bus and left out above.
    let flash = common::is_nvme(d);
    let end = parts
        .iter()
        .map(|p| {
            let unit = u64::from(p.part.sector_bytes.max(512));
            p.start_bytes
                .saturating_add(p.part.size_sectors.saturating_mul(unit))
        })
        .max()?;
    let size = d.size_bytes.get().unwrap_or(0).max(end);
    // A GPT table says when the layout was made: every tool that writes GPT aligns its
    // partitions to 4 KiB or 1 MiB by default since 2010 (parted 2.2 and util-linux fdisk
    // 2.17.1 to 1 MiB, gdisk to 2048 sectors, FreeBSD's gpart(8) with `-a 4k` as the
    // Handbook's ZFS and UFS chapters use it), because 4K-sector drives, SSDs and the 4 KiB
    // blocks behind virtual disks all need it. A GPT data partition off the 4 KiB grid was
    // placed by hand or by an old default (FreeBSD 9/10's installer put freebsd-ufs right
    // after a 64 KiB freebsd-boot at sector 34, i.e. at sector 162) and is misaligned on
    // any of those, whatever the disk's size; an MBR slice at 63 on a small disk may be an
    // old 512-byte drive and stays unknown. So does a small GPT disk FreeBSD's old ata(4)
    // driver names adN: that name says FreeBSD 8 or earlier (CAM's adaN from 9.0 on), whose
    // gpart(8) had no -a, on a physical ATA drive, and a small drive of that time has
    // 512-byte sectors, where every start is aligned.
    let gpt = table.scheme.eq_ignore_ascii_case("gpt") && !common::is_freebsd_legacy_ad(&d.name);
    // A disk of a whole number of GiB under 1 TB is a virtual disk or a volume: images and
    // volumes are sized in GiB, while drives follow IDEMA LBA1-03's decimal capacities
    // (97,696,368 + 1,953,504 x (GB - 50) sectors), none of which from 50 to 1000 GB is a
    // whole GiB, and older drives their cylinder counts. The image lies on host storage of
    // 4 KiB blocks or larger (file systems, qcow2 clusters, VMFS and array chunks), so a
    // guest partition off the 4 KiB grid splits its I/O there (VMware's "Recommendations
    // for Aligning VMFS Partitions"; NetApp TR-3747).
    let image = d
        .size_bytes
        .get()
        .is_some_and(|s| s > 0 && s < LIKELY_4K_BYTES && s.is_multiple_of(1 << 30));
    if size < LIKELY_4K_BYTES && !flash && !gpt && !image {
        return None;
    }
    let off: Vec<&Placed<'_>> = parts
        .iter()
        .filter(|p| !is_reserved_or_boot(p.part) && !start_unknown(p.part))
        .filter(|p| !p.start_bytes.is_multiple_of(4096))
        .collect();
    let first = off.first()?;
    let names: Vec<String> = off
        .iter()
        .map(|p| format!("{} at sector {}", p.part.name, p.start_bytes / 512))
        .collect();
    let mut f = Finding::new(
        ID,
        &d.name,
        Verdict::Problem,
        Severity::Notice,
        format!(
            "{}: {} starts off the 4 KiB grid; on a 4K-sector drive that is misaligned",
            d.name, first.part.name
        ),
    )
    .explain(format!(
        "{} start{} off the 4 KiB grid (a start sector that is not a multiple of 8). The \
         drive's physical sector size is not in what was shown, but {}. On such a drive \
         every filesystem block straddles two physical sectors and each small write costs a \
         read-modify-write inside the drive (seed 003's 4K drive: 4 KiB writes 11.3 MB/s \
         aligned, 5.0 MB/s misaligned).{} To be sure, look at the drive's physical sector \
         size: {}.",
        names.join(", "),
        if off.len() == 1 { "s" } else { "" },
        if flash {
            "an NVMe drive is flash that writes pages of 4 KiB or more whatever LBA size it \
             shows"
                .to_string()
        } else if image && !gpt {
            format!(
                "at exactly {} GiB it is a virtual disk or a volume (images are sized in GiB; \
                 no drive under 1 TB is), whose image lies on storage of 4 KiB blocks or \
                 larger",
                size >> 30
            )
        } else if gpt && size < LIKELY_4K_BYTES {
            "the table is GPT, and every GPT tool since 2010 aligns to 4 KiB or 1 MiB \
             because 4K-sector drives, SSDs and the 4 KiB blocks behind virtual disks need \
             it: a start off that grid was placed by hand or by an old default (FreeBSD \
             9/10's installer put freebsd-ufs at sector 162, right after a 64 KiB \
             freebsd-boot at 34)"
                .to_string()
        } else {
            format!(
                "at {} it is very likely a 4K-sector (\"Advanced Format\") drive: nearly all \
                 hard disks of 1 TB and more made since 2011 store 4096-byte sectors and \
                 emulate 512-byte ones",
                human_bytes(size)
            )
        },
        if off.iter().any(|p| p.start_bytes / 512 == 63) {
            " Sector 63 is the old DOS cylinder default (fdisk, FreeBSD's sysinstall, \
             Windows XP), chosen long before 4K-sector drives existed."
        } else {
            ""
        },
        match sys.platform {
            Platform::Freebsd => format!("`diskinfo -v {}` shows stripesize 4096", d.name),
            _ => format!(
                "`cat /sys/block/{}/queue/physical_block_size` shows 4096",
                d.name
            ),
        }
    ))
    .confidence(Confidence::Low)
    .impact(0.2);
    for fix in fixes(sys.platform, d, table) {
        f = f.fix(fix);
    }
    Some(f)
}

fn problem_kernel_only(
    sys: &SystemFacts,
    d: &DiskFacts,
    bad: &[&Placed<'_>],
    table_s: impl Fn(Finding) -> Finding,
) -> Finding {
    let names: Vec<String> = bad
        .iter()
        .map(|p| {
            format!(
                "{} (alignment_offset {})",
                p.part.name,
                p.part.alignment_offset_bytes.unwrap_or(0)
            )
        })
        .collect();
    let mut f = Finding::new(
        ID,
        &d.name,
        Verdict::Problem,
        Severity::Warning,
        format!("{}: the kernel reports misaligned partitions", d.name),
    )
    .explain(format!(
        "The kernel computed a non-zero alignment offset for {}: those partitions do not \
         start on a physical-sector boundary, so writes cost a read-modify-write inside the \
         drive (seed 003's drive: 4 KiB writes 11.3 MB/s aligned, 5.0 MB/s misaligned). The \
         physical sector size itself is unknown ({}).",
        names.join(", "),
        common::why(&d.physical_sector_bytes)
    ))
    .confidence(Confidence::Medium)
    .impact(0.3);
    f = table_s(f);
    for p in bad {
        f = kernel_offset_evidence(f, sys, d, p.part);
    }
    if let Some(t) = d.partition_table.value() {
        for fix in fixes(sys.platform, d, t) {
            f = f.fix(fix);
        }
    }
    f
}

fn aligned_pass(
    d: &DiskFacts,
    parts: &[Placed<'_>],
    phys: u64,
    table_s: impl Fn(Finding) -> Finding,
    phys_s: &str,
) -> Finding {
    let off_mib: Vec<&Placed<'_>> = parts.iter().filter(|p| p.start_bytes % MIB != 0).collect();
    let logical = d.logical_sector_bytes.get().map(u64::from).unwrap_or(512);
    // "=> 63" in `gpart show` of an MBR disk is the first usable sector; say so when no
    // partition actually starts there, because people read it as the slice's start.
    let mbr = d.partition_table.value().is_some_and(|t| {
        matches!(
            t.scheme.trim().to_ascii_lowercase().as_str(),
            "mbr" | "dos" | "msdos"
        )
    });
    let none_at_63 = mbr && parts.iter().all(|p| p.start_bytes != 63 * 512);
    let f = if phys <= logical {
        common::pass(
            ID,
            d,
            format!("{phys}-byte physical sectors: every partition start is aligned"),
        )
        .explain(format!(
            "The drive's physical sector is no larger than its logical sector ({logical} \
             bytes), so any partition start is on a physical boundary.{}",
            if off_mib.is_empty() {
                ""
            } else {
                " Some starts are not on 1 MiB boundaries; that matters only if the data is \
                 later copied to a 4K-sector drive with the same layout."
            }
        ))
    } else if off_mib.is_empty() {
        common::pass(ID, d, "partitions start on 1 MiB boundaries: aligned").explain(format!(
            "Every partition starts on a 1 MiB boundary, a multiple of the {phys}-byte physical \
             sector."
        ))
    } else {
        let list: Vec<String> = off_mib
            .iter()
            .map(|p| {
                format!(
                    "{} at byte {} ({} past a 1 MiB boundary)",
                    p.part.name,
                    p.start_bytes,
                    human_bytes(p.start_bytes % MIB)
                )
            })
            .collect();
        common::pass(
            ID,
            d,
            format!("partitions aligned to the {phys}-byte physical sector"),
        )
        .explain(format!(
            "Every partition starts on a physical-sector boundary, so the partition layout \
             causes no read-modify-write inside the drive. {} not on a 1 MiB boundary; that is harmless for this drive \
             (1 MiB matters for RAID stripes and some SSD erase blocks), so there is nothing \
             to fix.{}",
            list.join(", ") + if off_mib.len() == 1 { " is" } else { " are" },
            if none_at_63 {
                " A table listing that begins at 63 (gpart's \"=> 63\") shows the first \
                 usable sector, not a partition start."
            } else {
                ""
            }
        ))
    };
    cite(table_s(f), &d.physical_sector_bytes, phys_s.to_string())
}

fn fixes(platform: Platform, d: &DiskFacts, table: &PartitionTable) -> Vec<Fix> {
    let name = &d.name;
    let dev = if d.dev_path.is_empty() {
        format!("/dev/{name}")
    } else {
        d.dev_path.clone()
    };
    let risk = "repartitioning destroys data: back up and restore first (verify the backup \
                before deleting anything); a partition cannot be moved in place"
        .to_string();
    let zfs = d
        .layers
        .iter()
        .any(|l| l.kind == Some(crate::facts::LayerKind::Zfs));
    match platform {
        Platform::Freebsd if freebsd_boot_disk(d, table).is_some() => {
            freebsd_boot_fix(d, table, zfs, risk)
        }
        Platform::Freebsd => {
            let ptype = if zfs { "freebsd-zfs" } else { "freebsd-ufs" };
            vec![Fix {
                platform,
                summary: "recreate the partitions at 1 MiB boundaries (gpart -a 1m)".to_string(),
                steps: vec![
                    format!(
                        "Back up everything on {name} (dump(8), `zfs send`, tar) and check the \
                         backup; if {name} is the boot disk, boot from install media"
                    ),
                    format!("`gpart destroy -F {name}`"),
                    format!("`gpart create -s gpt {name}`"),
                    format!(
                        "`gpart add -t {ptype} -a 1m {name}` (add -s SIZE for several partitions)"
                    ),
                    format!(
                        "Check with `gpart show {name}`: starts are multiples of 2048; then \
                         `newfs -U /dev/{name}p1` (or zpool create) and restore the data"
                    ),
                ],
                risk,
            }]
        }
        Platform::Linux => {
            let mut steps = vec![
                format!(
                    "Back up everything on {dev} and check the backup (with LVM you can instead \
                     `pvmove` the data onto a new, aligned PV)"
                ),
                format!("Save the old layout for reference: `sfdisk -d {dev} > {name}-table.txt`"),
            ];
            if table.scheme.eq_ignore_ascii_case("gpt") {
                steps.push(format!("`sgdisk --zap-all {dev}`"));
            } else {
                steps.push(format!("`wipefs -a {dev}`"));
            }
            steps.push(format!(
                "`sgdisk -o -n 1:2048:0 -t 1:8300 {dev}` (a new GPT, partition 1 at sector \
                 2048 = 1 MiB with 512-byte sectors; or `parted -s -a optimal {dev} mklabel \
                 gpt mkpart primary 1MiB 100%`)"
            ));
            steps.push(format!(
                "Check: `parted {dev} align-check optimal 1` says aligned; then mkfs and \
                 restore the data"
            ));
            vec![Fix {
                platform,
                summary: "recreate the partitions at 1 MiB boundaries (sgdisk / parted)"
                    .to_string(),
                steps,
                risk,
            }]
        }
        Platform::Unknown => Vec::new(),
    }
}

/// How a FreeBSD disk boots, when it does: a GPT with an `efi` and/or `freebsd-boot`
/// partition, or an MBR disk that holds `/` or whose active slice holds a BSD label with an
/// `a` partition (boot0 starts the active slice, whose boot1/boot2 load /boot/loader from
/// the label's first partition: boot(8), stand/i386/boot2/boot2.c).
#[derive(Debug, Clone, PartialEq, Eq)]
struct BootWay {
    efi: bool,
    bios_gpt: bool,
    mbr: bool,
    /// Why the disk counts as a boot disk, for the first step.
    why: String,
}

/// The `a` partition of a BSD label (index 1; da0s1a with `gpart show -p`).
fn is_bsd_a(slice: &Partition, c: &Partition) -> bool {
    c.number == 1 || c.name == format!("{}a", slice.name)
}

fn freebsd_boot_disk(d: &DiskFacts, table: &PartitionTable) -> Option<BootWay> {
    let has = |t: &str| {
        table
            .partitions
            .iter()
            .any(|p| p.type_name.as_deref() == Some(t))
    };
    let root = d.mounts.iter().find(|m| m.mountpoint == "/");
    let mbr = table.scheme.eq_ignore_ascii_case("mbr");
    let active = table
        .partitions
        .iter()
        .find(|p| p.active && p.children.iter().any(|c| is_bsd_a(p, c)));
    let (efi, bios_gpt) = (has("efi"), has("freebsd-boot"));
    let why = match (root, active) {
        (Some(m), _) => format!("`/` is mounted from {} (mount -p)", m.source),
        (None, Some(p)) => format!(
            "its active slice {} holds a BSD label with an `a` partition, the one the boot \
             blocks load the loader from",
            p.name
        ),
        (None, None) if efi => "it has an EFI system partition".to_string(),
        (None, None) if bios_gpt => "it has a freebsd-boot partition".to_string(),
        (None, None) => return None,
    };
    Some(BootWay {
        efi,
        bios_gpt,
        mbr: mbr && (root.is_some() || active.is_some()),
        why,
    })
}

/// The re-creation of a boot disk that still boots (gpart(8) BOOTSTRAPPING, FreeBSD
/// 12-15): the boot partitions come back first, with their boot code, before the data
/// partition. A partition cannot be moved in place, so the data is backed up and restored
/// from other media (the running root cannot be repartitioned).
fn freebsd_boot_fix(d: &DiskFacts, table: &PartitionTable, zfs: bool, risk: String) -> Vec<Fix> {
    let name = &d.name;
    let Some(way) = freebsd_boot_disk(d, table) else {
        return Vec::new();
    };
    let ptype = if zfs { "freebsd-zfs" } else { "freebsd-ufs" };
    let mut steps = vec![format!(
        "{name} is a boot disk ({}): it cannot be re-partitioned while FreeBSD runs from it. \
         Back up everything on it (`zfs send -R`, dump(8), tar) to other media, check the \
         backup, and boot from FreeBSD install media (Live CD shell)",
        way.why
    )];
    steps.push(format!("`gpart destroy -F {name}`"));
    if way.mbr && !way.efi && !way.bios_gpt {
        // MBR (gpart(8) BOOTSTRAPPING): boot0 in the MBR starts the active slice, whose
        // BSD label carries /boot/boot (boot1 + boot2).
        steps.push(format!("`gpart create -s mbr {name}`"));
        steps.push(format!("`gpart add -t freebsd -a 1m {name}`"));
        steps.push(format!("`gpart set -a active -i 1 {name}`"));
        steps.push(format!("`gpart bootcode -b /boot/boot0 {name}`"));
        steps.push(format!("`gpart create -s bsd {name}s1`"));
        steps.push(format!("`gpart add -t freebsd-ufs -a 1m {name}s1`"));
        steps.push(format!("`gpart bootcode -b /boot/boot {name}s1`"));
        steps.push(format!(
            "Check with `gpart show {name} {name}s1` (starts multiples of 2048), then \
             `newfs -U /dev/{name}s1a`, restore the data and check /etc/fstab names {name}s1a"
        ));
    } else {
        steps.push(format!("`gpart create -s gpt {name}`"));
        let mut idx = 0u32;
        if way.efi {
            idx += 1;
            steps.push(format!("`gpart add -t efi -a 1m -s 260m {name}`"));
            steps.push(format!(
                "`newfs_msdos -F 32 -c 1 /dev/{name}p{idx}`, then `mount -t msdosfs \
                 /dev/{name}p{idx} /mnt`, `mkdir -p /mnt/efi/boot /mnt/efi/freebsd`, `cp \
                 /boot/loader.efi /mnt/efi/boot/bootx64.efi`, `cp /boot/loader.efi \
                 /mnt/efi/freebsd/loader.efi`, `umount /mnt` (what bsdinstall's bootconfig \
                 does)"
            ));
        }
        if way.bios_gpt || !way.efi {
            idx += 1;
            let partcode = if zfs {
                "/boot/gptzfsboot"
            } else {
                "/boot/gptboot"
            };
            steps.push(format!("`gpart add -t freebsd-boot -a 4k -s 512k {name}`"));
            steps.push(format!(
                "`gpart bootcode -b /boot/pmbr -p {partcode} -i {idx} {name}`"
            ));
        }
        steps.push(format!(
            "`gpart add -t {ptype} -a 1m {name}` (swap and other partitions first with -s \
             SIZE, each with -a 1m)"
        ));
        steps.push(format!(
            "Check with `gpart show {name}`: every start a multiple of 2048; then `newfs -U` \
             (or `zpool create -o ashift=12`), restore the data, and check that /etc/fstab \
             and the loader (vfs.root.mountfrom, bootfs) name the new partitions"
        ));
    }
    vec![Fix {
        platform: Platform::Freebsd,
        summary: "back up, then re-create the boot disk at 1 MiB boundaries with its boot \
                  partitions and boot code (gpart bootcode)"
            .to_string(),
        steps,
        risk,
    }]
}

#[cfg(test)]
mod tests;
