//! `fdisk -l` / `fdisk -lu` (old util-linux 2.1x-2.2x and current) and `sfdisk -l` listings:
//! disk headers, sector sizes, partition rows and the "does not start on physical sector
//! boundary" warnings.
//!
//! Reference: util-linux fdisk(8)/sfdisk(8) output. Old fdisk prints "Units = sectors of 1 *
//! 512" (or cylinders without -u, in which case starts are cylinders and not sector
//! numbers), a "Blocks" column (1 KiB units, "+" for an odd sector) and a hex "Id"; new
//! fdisk/sfdisk print "Sectors" and "Size" and either "Id Type" (dos) or "Type" (gpt). The
//! warning fdisk prints compares start x logical size against the physical sector size (or
//! the minimum I/O size), which is the alignment check diskdoc cares about; on a GPT disk
//! old fdisk shows only the protective MBR entry (type ee at 1), whose warning is spurious.

use crate::sources::util::{clean_line, leading_u64};

#[derive(Debug, Clone, PartialEq, Default)]
pub struct FdiskPartition {
    /// "/dev/sda1" as printed.
    pub device: String,
    /// Trailing number of the device name (1 for sda1, 2 for nvme0n1p2).
    pub number: Option<u32>,
    pub boot: bool,
    /// Start in logical sectors; None when the listing is in cylinders.
    pub start: Option<u64>,
    pub end: Option<u64>,
    /// Start/end cylinder when the units are cylinders ("0+", "130-" rounded).
    pub start_cylinder: Option<u64>,
    pub sectors: Option<u64>,
    /// Hex MBR type ("83", "ee", "5").
    pub type_id: Option<String>,
    pub type_name: Option<String>,
    pub extended: bool,
    /// fdisk printed "Partition N does not start on physical sector boundary."
    pub boundary_warning: bool,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct FdiskDisk {
    /// "/dev/sda"; None when only a partition table was pasted.
    pub device: Option<String>,
    pub size_bytes: Option<u64>,
    pub total_sectors: Option<u64>,
    pub logical_sector_bytes: Option<u32>,
    pub physical_sector_bytes: Option<u32>,
    pub min_io_bytes: Option<u64>,
    pub opt_io_bytes: Option<u64>,
    /// "dos", "gpt" (Disklabel type), or "gpt" when old fdisk warned it found GPT.
    pub label: Option<String>,
    pub identifier: Option<String>,
    pub model: Option<String>,
    /// "sectors" or "cylinders".
    pub units: Option<String>,
    pub partitions: Vec<FdiskPartition>,
    /// Other warnings fdisk printed (DOS limits, deprecated mode, GPT detected).
    pub warnings: Vec<String>,
    /// Old fdisk said "GPT ... detected": the MBR rows are the protective entry only.
    pub gpt_detected: bool,
}

#[derive(Default, Clone, Copy)]
struct Layout {
    has_size: bool,
    has_id: bool,
    /// Old fdisk "Blocks" or new "Sectors" after Start End.
    has_count: bool,
    cylinders: bool,
    /// sfdisk's "#cyls #blocks" pair of columns (old `sfdisk -l`), where fdisk in cylinder
    /// units prints one "Blocks" column.
    cyls_column: bool,
}

/// All disks in a fdisk/sfdisk listing, in order. A table without a "Disk" header yields one
/// disk with `device: None`.
pub fn parse(text: &str) -> Vec<FdiskDisk> {
    let mut out: Vec<FdiskDisk> = Vec::new();
    let mut pending_warnings: Vec<String> = Vec::new();
    let mut gpt_warned_for: Option<String> = None;
    let mut layout = Layout {
        has_id: true,
        has_count: true,
        ..Default::default()
    };
    for raw in text.lines() {
        let line = clean_line(raw);
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        if let Some(rest) = t
            .strip_prefix("Disk /dev/")
            .or_else(|| t.strip_prefix("Disk /"))
        {
            let name_end = rest.find(':').unwrap_or(rest.len());
            let dev = if t.starts_with("Disk /dev/") {
                format!("/dev/{}", rest.get(..name_end).unwrap_or(""))
            } else {
                format!("/{}", rest.get(..name_end).unwrap_or(""))
            };
            let after = rest.get(name_end + 1..).unwrap_or("");
            let mut d = FdiskDisk {
                device: Some(dev.clone()),
                warnings: std::mem::take(&mut pending_warnings),
                ..Default::default()
            };
            // "1000.2 GB, 1000204886016 bytes" / "238.5 GiB, 256060514304 bytes, 500118192 sectors"
            for part in after.split(',') {
                let p = part.trim();
                if p.ends_with(" bytes") {
                    d.size_bytes = leading_u64(p);
                } else if p.ends_with(" sectors") && !p.contains("track") {
                    d.total_sectors = leading_u64(p);
                }
            }
            if gpt_warned_for.as_deref() == Some(dev.as_str()) {
                d.gpt_detected = true;
                d.label = Some("gpt".into());
            }
            out.push(d);
            layout.cylinders = false;
            continue;
        }
        // fdisk's interactive session on a blank disk (an installer's log, or a person
        // partitioning): "Building a new DOS disklabel with disk identifier 0x..." (util-linux
        // before 2.23) or "Created a new DOS disklabel ..." (later), then, for a disk past
        // the MBR limit, "The size of this disk is 6 TiB (6001175126016 bytes). DOS partition
        // table format cannot be used on drives for volumes larger than 2199023255040 bytes
        // for 512-byte sectors." (fdisk/fdisk-menu.c and libfdisk/src/dos.c).
        if (t.starts_with("Building a new DOS disklabel")
            || t.starts_with("Created a new DOS disklabel"))
            && out
                .last()
                .is_none_or(|d| d.label.is_some() || !d.partitions.is_empty())
        {
            out.push(FdiskDisk {
                label: Some("dos".into()),
                identifier: t
                    .split_whitespace()
                    .find(|w| w.starts_with("0x"))
                    .map(|w| w.trim_end_matches('.').to_string()),
                warnings: std::mem::take(&mut pending_warnings),
                ..Default::default()
            });
            continue;
        }
        if let Some(rest) = t
            .strip_prefix("WARNING: The size of this disk is")
            .or_else(|| t.strip_prefix("The size of this disk is"))
            && let Some(d) = out.last_mut()
            && d.size_bytes.is_none()
        {
            d.size_bytes = rest
                .split_once('(')
                .and_then(|(_, b)| leading_u64(b))
                .filter(|_| rest.contains("bytes"));
            d.warnings.push(t.to_string());
            continue;
        }
        if t.starts_with("WARNING: GPT") || t.contains("GPT (GUID Partition Table) detected on") {
            gpt_warned_for = t.split('\'').nth(1).map(str::to_string);
            pending_warnings.push(t.to_string());
            continue;
        }
        if t.starts_with("WARNING:") {
            pending_warnings.push(t.to_string());
            continue;
        }
        if let Some(rest) = t.strip_prefix("Partition ")
            && rest.contains("does not start on physical sector boundary")
        {
            let n = leading_u64(rest).and_then(|n| u32::try_from(n).ok());
            if let Some(d) = out.last_mut()
                && let Some(p) = d.partitions.iter_mut().rev().find(|p| p.number == n)
            {
                p.boundary_warning = true;
            }
            continue;
        }
        // Disk header lines.
        if let Some(d) = out.last_mut() {
            if let Some(v) = t.strip_prefix("Sector size (logical/physical):") {
                let mut it = v.split('/');
                d.logical_sector_bytes = it
                    .next()
                    .and_then(leading_u64)
                    .and_then(|n| u32::try_from(n).ok());
                d.physical_sector_bytes = it
                    .next()
                    .and_then(leading_u64)
                    .and_then(|n| u32::try_from(n).ok());
                continue;
            }
            if let Some(v) = t.strip_prefix("I/O size (minimum/optimal):") {
                let mut it = v.split('/');
                d.min_io_bytes = it.next().and_then(leading_u64);
                d.opt_io_bytes = it.next().and_then(leading_u64);
                continue;
            }
            if let Some(v) = t.strip_prefix("Disklabel type:") {
                d.label = Some(v.trim().to_string());
                continue;
            }
            if let Some(v) = t.strip_prefix("Disk identifier:") {
                d.identifier = Some(v.trim().to_string());
                if v.trim().starts_with("0x") && d.label.is_none() {
                    d.label = Some("dos".into());
                }
                continue;
            }
            if let Some(v) = t.strip_prefix("Disk model:") {
                d.model = Some(v.trim().to_string());
                continue;
            }
            if let Some(v) = t
                .strip_prefix("Units")
                .map(|v| v.trim_start_matches([' ', '=', ':']))
            {
                let cyl = v.starts_with("cylinders");
                d.units = Some(if cyl { "cylinders" } else { "sectors" }.into());
                layout.cylinders = cyl;
                if d.logical_sector_bytes.is_none() && !cyl {
                    // "sectors of 1 * 512 = 512 bytes"
                    d.logical_sector_bytes = v
                        .rsplit_once('=')
                        .and_then(|(_, b)| leading_u64(b))
                        .and_then(|n| u32::try_from(n).ok());
                }
                continue;
            }
        }
        // Table header.
        let tk: Vec<&str> = t.split_whitespace().collect();
        if tk.first() == Some(&"Device") && tk.contains(&"Start") {
            layout.has_size = tk.contains(&"Size");
            layout.has_id = tk.contains(&"Id");
            layout.has_count = tk
                .iter()
                .any(|w| matches!(*w, "Blocks" | "Sectors" | "#blocks"));
            layout.cyls_column = tk.contains(&"#cyls");
            if layout.cyls_column {
                layout.cylinders = true;
            }
            if out.is_empty() {
                out.push(FdiskDisk::default());
            }
            continue;
        }
        if tk.first().is_some_and(|w| w.starts_with("/dev/")) {
            // Unused MBR slots (type 0 "Empty") are not partitions.
            if let Some(p) = row(&tk, layout).filter(|p| p.type_id.as_deref() != Some("0")) {
                if out.is_empty() {
                    out.push(FdiskDisk::default());
                }
                if let Some(d) = out.last_mut() {
                    d.partitions.push(p);
                }
            }
        }
    }
    out
}

fn part_number(dev: &str) -> Option<u32> {
    let digits: String = dev
        .chars()
        .rev()
        .take_while(|c| c.is_ascii_digit())
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    digits.parse().ok()
}

/// One partition row from its tokens.
fn row(tk: &[&str], layout: Layout) -> Option<FdiskPartition> {
    let device = tk.first()?.to_string();
    let mut i = 1;
    let boot = tk.get(1) == Some(&"*");
    if boot {
        i += 1;
    }
    let num = |s: &str| -> Option<u64> { s.trim_end_matches(['+', '-']).parse().ok() };
    let start_tok = tk.get(i)?;
    let start_v = num(start_tok)?;
    i += 1;
    let end_v = tk.get(i).and_then(|s| num(s));
    if tk.get(i).is_some_and(|s| *s == "-") || end_v.is_some() {
        i += 1;
    }
    let mut sectors = None;
    if layout.cyls_column {
        // #cyls #blocks
        i += 2;
    } else if layout.cylinders && layout.has_count {
        // Old fdisk without -u: Start and End are cylinders, "Blocks" is in 1 KiB units
        // ("2147483647+" for an odd sector count), so the sectors come from the blocks.
        sectors = tk.get(i).and_then(|s| num(s)).map(|c| c.saturating_mul(2));
        i += 1;
    } else if layout.has_count {
        let count_tok = tk.get(i).copied().unwrap_or("");
        let c = num(count_tok);
        // New format: a sector count; old format: 1 KiB blocks.
        sectors = c.map(|c| {
            if layout.has_size {
                c
            } else {
                c.saturating_mul(2)
            }
        });
        if !layout.has_size {
            // Odd sector counts print as "N+" blocks; take the exact count from start/end.
            sectors = end_v
                .map(|e| e.saturating_sub(start_v).saturating_add(1))
                .or(sectors);
        }
        i += 1;
    }
    if layout.has_size {
        i += 1;
    }
    let mut type_id = None;
    if layout.has_id {
        let id = tk.get(i).copied().unwrap_or("");
        if !id.is_empty() && id.chars().all(|c| c.is_ascii_hexdigit()) {
            type_id = Some(id.to_ascii_lowercase());
            i += 1;
        }
    }
    let type_name =
        Some(tk.get(i..).map(|r| r.join(" ")).unwrap_or_default()).filter(|s| !s.is_empty());
    let extended = matches!(type_id.as_deref(), Some("5") | Some("f") | Some("85"))
        || type_name
            .as_deref()
            .is_some_and(|n| n.contains("Extended") || n.contains("Ext'd"));
    Some(FdiskPartition {
        number: part_number(&device),
        device,
        boot,
        start: (!layout.cylinders).then_some(start_v),
        end: if layout.cylinders { None } else { end_v },
        start_cylinder: layout.cylinders.then_some(start_v),
        sectors,
        type_id,
        type_name,
        extended,
        boundary_warning: false,
    })
}

// ---- the source spec (see sources::spec) ----
use crate::sources::spec;

// A listing starts at a disk header, or at the partition table's column header alone: the
// DOS one has "Boot" ("Device Boot Start End Blocks Id System" before util-linux 2.23,
// "Device Boot Start End Sectors Size Id Type" after), the GPT one none ("Device Start End
// Sectors Size Type", libfdisk's gpt columns), so it needs the count column after End.
crate::rx!(
    FDISK_START,
    r"^(Disk /dev/\S+: [\d.,]+ ?\S*B?, \d+ bytes|Disk /dev/\S+: \d+ cylinders|\s*Device\s+(?:Boot\s+Start\s+End|Start\s+End\s+(?:Sectors|Blocks))|Disklabel type:|Units[:=] (sectors|cylinders)|Sector size \(logical/physical\)|(Building|Created) a new DOS disklabel with disk identifier 0x[0-9a-f]+)"
);
crate::rx!(FDISK_DISK, r"^Disk (/dev/\S+?):");
crate::rx!(
    FDISK_MEMBER,
    r"^(Disk |Units|Sector size|I/O size|Disklabel type|Disk identifier|Disk model|\d+ heads|\s*Device\s+(Boot\s+)?Start|/dev/\S+\s+\*?\s*\d|Partition \d+ (does not|has different)|Partition table entries are not in disk order|WARNING:|Command \(m for help\)|Device does not contain a recognized partition table|The size of this disk is|Changes will remain in memory only|Be careful before using the write command|DOS partition table format can ?not be used|larger than \(?\d+ bytes\)?|partition table format \(GPT\)|The device presents a logical sector size|the physical sector size|I/O\) size boundary|\s+\S)"
);
// A partition row's device: "/dev/sda1", and the kernel's "p" names of disks whose own name
// ends in a digit ("/dev/nvme0n1p2", "/dev/mmcblk0p1", "/dev/loop0p1"; block/partitions/
// core.c add_partition's "%sp%d").
crate::rx!(
    FDISK_PART_DEV,
    r"(?m)^(?:(/dev/(?:nvme\d+n\d+|mmcblk\d+|loop\d+|md\d+))p|(/dev/[a-z]+))\d+\s"
);
crate::rx!(FDISK_DISK_ANY, r"(?m)^Disk (/dev/\S+?):");

/// Block marker: a "Disk /dev/X:" line was seen (the next one is another disk).
const SEEN_DISK: u32 = 1;

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "fdisk-l",
    starts: &[
        (170, |l| spec::on_first(l, |t| FDISK_START.is_match(t))),
        // fdisk's DOS-limit warning, printed before the listing (or alone, when fdisk
        // opens a large disk interactively).
        (171, |l| spec::on_first(l, limit_line)),
    ],
    member: |t, st| {
        if FDISK_DISK.is_match(t) && st.has(SEEN_DISK) {
            return spec::Member::NewBlock;
        }
        spec::Member::from(FDISK_START.is_match(t) || FDISK_MEMBER.is_match(t) || limit_line(t))
    },
    update: Some(|t, st| {
        if FDISK_DISK.is_match(t) {
            st.mark(SEEN_DISK);
        }
    }),
    tolerance: (3, 4),
    classify: |_, _| "fdisk-l",
    ..spec::Recogniser::NONE
};

/// `fdisk -l`: every disk's table, as users paste it.
pub const LIST: spec::Live = spec::Live::Cmd(&["fdisk", "-l"]);

/// fdisk(8) -l and sfdisk -l (util-linux): captured by no live probe (the partition table
/// is read natively).
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Linux),
    fixture_dirs: &["linux/sfdisk-l"],
    parse: Some(|t| parse(t).len().saturating_add(parse_limit(t).len())),
    paste: Some(spec::Paste {
        device: Some(|text| {
            FDISK_DISK_ANY
                .captures(text)
                .and_then(|c| c.get(1))
                .or_else(|| {
                    FDISK_PART_DEV
                        .captures(text)
                        .and_then(|c| c.get(1).or_else(|| c.get(2)))
                })
                .map(|m| spec::strip_dev(m.as_str()))
        }),

        ..spec::Paste::new(&RECOGNISER, |p, _| p == "fdisk" || p == "sfdisk")
    }),
    programs: &[spec::Program::new("fdisk", spec::flags_or_node)],
    mention: Some(r"fdisk\s+-l"),
    ..spec::SourceSpec::named("fdisk-l", "fdisk -l / sfdisk -l")
};

// ---- fdisk's refusal of a DOS table on a large disk ----

// util-linux libfdisk/src/dos.c (dos_create_disklabel / the size check on reading): "The
// size of this disk is %s (%ju bytes). DOS partition table format cannot be used on drives
// for volumes larger than %lu bytes for %lu-byte sectors. Use GUID partition table format
// (GPT)."; fdisk before util-linux 2.23 printed "WARNING: The size of this disk is 3.0 TB
// (3000592982016 bytes).", "DOS partition table format can not be used on drives for
// volumes", "larger than (2199023255040 bytes) for 512-byte sectors. Use parted(1) and GUID",
// "partition table format (GPT)." on four lines.
crate::rx!(
    DOS_LIMIT,
    r"DOS partition table format can ?not be used on drives for volumes\s+larger than \(?(\d+) bytes"
);
crate::rx!(DISK_SIZE, r"The size of this disk is [^(]*\((\d+) bytes\)");
// BusyBox fdisk (util-linux/fdisk.c, get_geometry: "device has more than 2^32 sectors, can't
// use all of them", with the sector count clamped to 2^32 - 1) and util-linux fdisk before
// libfdisk ("WARNING: The size of this disk is ..."): a DOS label's 32-bit sector fields
// cannot address the rest of the disk.
crate::rx!(
    SECTORS_2_32,
    r"device has more than 2\^32 sectors, can'?t use all of them"
);

/// fdisk's DOS-limit warnings (`from` left empty for the caller); the message may be cut
/// over lines, so the text is read joined.
pub fn parse_limit(text: &str) -> Vec<crate::model::PartitionToolMessage> {
    let joined = text
        .lines()
        .map(|l| crate::sources::util::clean_line(l).trim().to_string())
        .collect::<Vec<_>>()
        .join(" ");
    let size = DISK_SIZE
        .captures(&joined)
        .and_then(|c| c.get(1))
        .and_then(|m| m.as_str().parse::<u64>().ok());
    let busybox = text
        .lines()
        .map(|l| crate::sources::util::clean_line(l).trim().to_string())
        .filter(|l| SECTORS_2_32.is_match(l))
        .map(|l| crate::model::PartitionToolMessage {
            tool: "fdisk".to_string(),
            verdict: crate::model::PartitionToolVerdict::MbrTooSmall,
            partition: None,
            disk_bytes: None,
            line: l,
            from: String::new(),
        });
    DOS_LIMIT
        .captures_iter(&joined)
        .map(|_| crate::model::PartitionToolMessage {
            tool: "fdisk".to_string(),
            verdict: crate::model::PartitionToolVerdict::MbrTooSmall,
            partition: None,
            disk_bytes: size,
            line: text
                .lines()
                .map(|l| crate::sources::util::clean_line(l).trim().to_string())
                .find(|l| l.contains("DOS partition table format"))
                .unwrap_or_default(),
            from: String::new(),
        })
        .chain(busybox)
        .collect()
}

/// fdisk's own alignment verdicts (`from` left empty for the caller): "Partition N does not
/// start on physical sector boundary." (util-linux libfdisk/src/dos.c and gpt.c,
/// fdisk_warnx after comparing the start with the physical sector size or the minimum I/O
/// size). Not for the extended container (it holds only the chain of boot records, see
/// checks::partition_misaligned) nor for old fdisk's protective MBR entry of a GPT disk
/// (type ee at sector 1: the warning is spurious there). The partition is named as the
/// table row names it, else by its number.
pub fn parse_boundary(text: &str) -> Vec<crate::model::PartitionToolMessage> {
    let disks = parse(text);
    let mut out = Vec::new();
    let mut disk_at = 0usize;
    for raw in text.lines() {
        let line = clean_line(raw);
        let t = line.trim();
        if t.starts_with("Disk /") {
            disk_at = disk_at.saturating_add(1);
            continue;
        }
        let Some(rest) = t.strip_prefix("Partition ") else {
            continue;
        };
        if !rest.contains("does not start on physical sector boundary") {
            continue;
        }
        let Some(n) = leading_u64(rest).and_then(|n| u32::try_from(n).ok()) else {
            continue;
        };
        // The disk whose table came before the warning (a table without a "Disk" header is
        // the only one).
        let disk = disks.get(disk_at.saturating_sub(1)).or(disks.first());
        if disk.is_some_and(|d| d.gpt_detected) {
            continue;
        }
        let row = disk.and_then(|d| d.partitions.iter().rev().find(|p| p.number == Some(n)));
        // Nor for a reserved or boot-code partition (Microsoft reserved, BIOS boot): it
        // holds no file system and sees no bulk I/O.
        let reserved = |p: &FdiskPartition| {
            p.type_name.as_deref().is_some_and(|t| {
                let t = t.to_ascii_lowercase();
                t.contains("microsoft reserved") || t.contains("bios boot") || t.trim() == "msr"
            })
        };
        if row.is_some_and(|p| p.extended || p.type_id.as_deref() == Some("ee") || reserved(p)) {
            continue;
        }
        let name = row
            .map(|p| p.device.trim_start_matches("/dev/").to_string())
            .filter(|d| !d.is_empty() && !d.contains('/'))
            .unwrap_or_else(|| n.to_string());
        out.push(crate::model::PartitionToolMessage {
            tool: "fdisk".to_string(),
            verdict: crate::model::PartitionToolVerdict::Misaligned,
            partition: Some(name),
            disk_bytes: None,
            line: t.to_string(),
            from: String::new(),
        });
    }
    out
}

fn limit_line(t: &str) -> bool {
    let t = crate::sources::util::clean_line(t);
    let t = t.trim();
    SECTORS_2_32.is_match(t)
        || t.contains("The size of this disk is")
        || t.contains("DOS partition table format can")
        || (t.starts_with("larger than") && t.contains("bytes"))
        || t.starts_with("partition table format (GPT)")
}

#[cfg(test)]
mod tests;
