//! Native MBR / GPT / BSD-label parsing from raw device bytes (read-only captures).
//! References: UEFI 2.10 section 5.2 (legacy MBR, protective MBR) and 5.3 (GPT header and
//! entries), the classic IBM PC MBR/EBR layout, FreeBSD bsdlabel(8) and sys/disklabel.h.
//!
//! Everything here reads from byte slices that came from a device or a bundle: every offset
//! is bounds-checked, and truncated or garbage input gives `None` or a note, never a panic.

use crate::model::{Partition, PartitionTable};

/// Little-endian readers that return None past the end of the slice.
fn le16(b: &[u8], off: usize) -> Option<u16> {
    let s = b.get(off..off.checked_add(2)?)?;
    Some(u16::from_le_bytes([s[0], s[1]]))
}
fn le32(b: &[u8], off: usize) -> Option<u32> {
    let s = b.get(off..off.checked_add(4)?)?;
    Some(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
}
fn le64(b: &[u8], off: usize) -> Option<u64> {
    let s = b.get(off..off.checked_add(8)?)?;
    let mut a = [0u8; 8];
    a.copy_from_slice(s);
    Some(u64::from_le_bytes(a))
}

/// One MBR (or EBR) partition entry: 16 bytes at 446 + 16*i.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MbrEntry {
    /// Slot 1-4.
    pub slot: u32,
    pub boot: bool,
    pub type_code: u8,
    /// Start LBA (relative to the disk for the MBR, to the EBR for logical entries).
    pub start: u64,
    pub sectors: u64,
}

/// Read the four entries of an MBR/EBR sector, None without the 0x55AA signature.
pub fn mbr_entries(sector: &[u8]) -> Option<Vec<MbrEntry>> {
    // Boot signature at bytes 510-511.
    if sector.get(510..512)? != [0x55, 0xAA] {
        return None;
    }
    let mut out = Vec::new();
    for i in 0..4u32 {
        let off = 446 + 16 * i as usize;
        let boot = *sector.get(off)? == 0x80;
        let type_code = *sector.get(off + 4)?;
        let start = u64::from(le32(sector, off + 8)?);
        let sectors = u64::from(le32(sector, off + 12)?);
        if type_code == 0 || sectors == 0 {
            continue;
        }
        out.push(MbrEntry {
            slot: i + 1,
            boot,
            type_code,
            start,
            sectors,
        });
    }
    Some(out)
}

/// MBR types that hold an extended partition chain (DOS 0x05, Win95 LBA 0x0F, Linux 0x85).
pub fn is_extended(t: u8) -> bool {
    matches!(t, 0x05 | 0x0F | 0x85)
}

/// Names for common MBR partition type bytes.
fn mbr_type_name(t: u8) -> String {
    let n = match t {
        0x01 => "FAT12",
        0x04 | 0x06 | 0x0E => "FAT16",
        0x05 | 0x0F | 0x85 => "extended",
        0x07 => "NTFS/exFAT/HPFS",
        0x0B | 0x0C => "FAT32",
        0x27 => "Windows recovery",
        0x82 => "Linux swap",
        0x83 => "Linux",
        0x8E => "Linux LVM",
        0xA5 => "FreeBSD",
        0xA6 => "OpenBSD",
        0xA9 => "NetBSD",
        0xAF => "Apple HFS",
        0xEE => "GPT protective",
        0xEF => "EFI System",
        0xFD => "Linux RAID autodetect",
        _ => return format!("0x{t:02x}"),
    };
    n.to_string()
}

/// Names for common GPT partition type GUIDs (lowercase, textual form).
pub fn gpt_type_name(guid: &str) -> Option<&'static str> {
    Some(match guid {
        "c12a7328-f81f-11d2-ba4b-00a0c93ec93b" => "EFI System",
        "21686148-6449-6e6f-744e-656564454649" => "BIOS boot",
        "0fc63daf-8483-4772-8e79-3d69d8477de4" => "Linux filesystem",
        "0657fd6d-a4ab-43c4-84e5-0933c84b4f4f" => "Linux swap",
        "e6d6d379-f507-44c2-a23c-238f2a3df928" => "Linux LVM",
        "a19d880f-05fc-4d3b-a006-743f0f84911e" => "Linux RAID",
        "4f68bce3-e8cd-4db1-96e7-fbcaf984b709" => "Linux root (x86-64)",
        "933ac7e1-2eb4-4f13-b844-0e14e2aef915" => "Linux home",
        "ca7d7ccb-63ed-4c53-861c-1742536059cc" => "Linux LUKS",
        "ebd0a0a2-b9e5-4433-87c0-68b6b72699c7" => "Microsoft basic data",
        "e3c9e316-0b5c-4db8-817d-f92df00215ae" => "Microsoft reserved",
        "de94bba4-06d1-4d40-a16a-bfd50179d6ac" => "Windows recovery",
        "83bd6b9d-7f41-11dc-be0b-001560b84f0f" => "FreeBSD boot",
        "516e7cb4-6ecf-11d6-8ff8-00022d09712b" => "FreeBSD UFS",
        "516e7cb5-6ecf-11d6-8ff8-00022d09712b" => "FreeBSD swap",
        "516e7cba-6ecf-11d6-8ff8-00022d09712b" => "FreeBSD ZFS",
        "516e7cb6-6ecf-11d6-8ff8-00022d09712b" => "FreeBSD vinum",
        "6a898cc3-1dd2-11b2-99a6-080020736631" => "Solaris /usr or Apple ZFS",
        "48465300-0000-11aa-aa11-00306543ecac" => "Apple HFS+",
        "7c3457ef-0000-11aa-aa11-00306543ecac" => "Apple APFS",
        _ => return None,
    })
}

/// Format a GUID stored in the mixed-endian GPT layout (first three fields little-endian).
pub fn guid_string(b: &[u8]) -> Option<String> {
    let g = b.get(0..16)?;
    Some(format!(
        "{:08x}-{:04x}-{:04x}-{:02x}{:02x}-{:02x}{:02x}{:02x}{:02x}{:02x}{:02x}",
        u32::from_le_bytes([g[0], g[1], g[2], g[3]]),
        u16::from_le_bytes([g[4], g[5]]),
        u16::from_le_bytes([g[6], g[7]]),
        g[8],
        g[9],
        g[10],
        g[11],
        g[12],
        g[13],
        g[14],
        g[15]
    ))
}

/// CRC-32 (IEEE 802.3, reflected, as GPT uses for header and entry checksums).
pub fn crc32(data: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &b in data {
        crc ^= u32::from(b);
        for _ in 0..8 {
            let mask = (crc & 1).wrapping_neg();
            crc = (crc >> 1) ^ (0xEDB8_8320 & mask);
        }
    }
    !crc
}

fn partition(number: u32, start: u64, size: u64, ls: u32, type_name: Option<String>) -> Partition {
    Partition {
        number,
        name: String::new(),
        start_sector: start,
        size_sectors: size,
        sector_bytes: ls,
        start_bytes: start.saturating_mul(u64::from(ls)),
        type_name,
        alignment_offset_bytes: None,
        children: Vec::new(),
        active: false,
    }
}

/// Parse a partition table from the first bytes of a device (at least LBA 0-33 for GPT).
/// `logical_sector` is the device's logical sector size. None when no table is recognised.
///
/// Partition names are left empty: the kernel's naming (sda1, nvme0n1p1) depends on the
/// disk name, see [`kernel_partition_name`]. Logical partitions in an extended MBR partition
/// live in EBRs beyond the captured bytes; the container is recorded with a note, and
/// [`logical_partitions`] follows the EBR chain when a caller can read more sectors.
pub fn parse(bytes: &[u8], logical_sector: u32) -> Option<PartitionTable> {
    let ls = if logical_sector >= 512 && logical_sector.is_power_of_two() {
        logical_sector
    } else {
        512
    };
    let Some(entries) = mbr_entries(bytes) else {
        // No table; say what is there instead when a filesystem starts at byte 0.
        return whole_disk_filesystem(bytes).map(|fs| PartitionTable {
            scheme: "none".into(),
            partitions: Vec::new(),
            notes: vec![
                "no MBR boot signature (0x55AA): no partition table".into(),
                fs.note(),
            ],
        });
    };
    // A protective MBR (type 0xEE) announces GPT (UEFI 2.10 5.2.3). Hybrid MBRs also
    // carry an 0xEE entry next to others; GPT is authoritative for both.
    if entries.iter().any(|e| e.type_code == 0xEE) {
        let mut notes = Vec::new();
        match parse_gpt(bytes, ls, &mut notes) {
            Some(t) => return Some(t),
            None => {
                notes.insert(
                    0,
                    "protective MBR only: the GPT header is missing or unreadable".into(),
                );
                let parts = entries
                    .iter()
                    .map(|e| {
                        partition(
                            e.slot,
                            e.start,
                            e.sectors,
                            ls,
                            Some(mbr_type_name(e.type_code)),
                        )
                    })
                    .collect();
                return Some(PartitionTable {
                    scheme: "mbr".into(),
                    partitions: parts,
                    notes,
                });
            }
        }
    }
    let mut table = PartitionTable {
        scheme: "mbr".into(),
        partitions: Vec::new(),
        notes: Vec::new(),
    };
    for e in &entries {
        let mut p = partition(
            e.slot,
            e.start,
            e.sectors,
            ls,
            Some(mbr_type_name(e.type_code)),
        );
        if is_extended(e.type_code) {
            // Logical partitions (5, 6, ...) sit in a chain of EBRs starting at e.start.
            let (logicals, notes) = logical_partitions(e.start, ls, |lba| {
                let off = usize::try_from(lba.checked_mul(u64::from(ls))?).ok()?;
                bytes.get(off..off.checked_add(512)?).map(<[u8]>::to_vec)
            });
            if logicals.is_empty() {
                table.notes.push(format!(
                    "extended partition {} at sector {}: its logical partitions need EBR reads \
                     beyond the captured bytes",
                    e.slot, e.start
                ));
            } else {
                table.notes.extend(notes);
            }
            table.partitions.push(p);
            table.partitions.extend(logicals);
            continue;
        }
        if e.boot {
            p.type_name = p.type_name.map(|t| format!("{t} (boot)"));
        }
        table.partitions.push(p);
    }
    Some(table)
}

/// Parse the GPT header at LBA 1 and its entries. Notes CRC mismatches and entries that
/// lie beyond the captured bytes.
fn parse_gpt(bytes: &[u8], ls: u32, notes: &mut Vec<String>) -> Option<PartitionTable> {
    let h0 = ls as usize;
    let hdr = bytes.get(h0..h0 + 92)?;
    if hdr.get(0..8)? != b"EFI PART" {
        return None;
    }
    let header_size = le32(hdr, 12)? as usize;
    let header_crc = le32(hdr, 16)?;
    if (92..=ls as usize).contains(&header_size) {
        if let Some(h) = bytes.get(h0..h0 + header_size) {
            let mut copy = h.to_vec();
            // The CRC is computed with its own field zeroed (UEFI 2.10 5.3.2).
            copy[16..20].copy_from_slice(&[0, 0, 0, 0]);
            if crc32(&copy) != header_crc {
                notes.push("[CORRUPT] GPT header CRC mismatch".into());
            }
        }
    } else {
        notes.push(format!("GPT header size {header_size} is out of range"));
    }
    let entries_lba = le64(hdr, 72)?;
    let count = le32(hdr, 80)?;
    let entry_size = le32(hdr, 84)? as usize;
    let entries_crc = le32(hdr, 88)?;
    if !(128..=4096).contains(&entry_size) || count > 4096 {
        notes.push(format!(
            "implausible GPT entry layout ({count} entries of {entry_size} bytes)"
        ));
        return Some(PartitionTable {
            scheme: "gpt".into(),
            partitions: Vec::new(),
            notes: std::mem::take(notes),
        });
    }
    let base = usize::try_from(entries_lba.checked_mul(u64::from(ls))?).ok()?;
    let total = entry_size * count as usize;
    match bytes.get(base..base.saturating_add(total)) {
        Some(all) if crc32(all) != entries_crc => {
            notes.push("[CORRUPT] GPT entry array CRC mismatch".into())
        }
        Some(_) => {}
        None => notes.push("GPT entry array extends beyond the captured bytes".into()),
    }
    let mut parts = Vec::new();
    for i in 0..count as usize {
        let Some(off) = i.checked_mul(entry_size).and_then(|x| x.checked_add(base)) else {
            break;
        };
        let Some(e) = bytes.get(off..off.saturating_add(128)) else {
            break;
        };
        if e[0..16].iter().all(|&b| b == 0) {
            continue; // unused entry
        }
        let type_guid = guid_string(&e[0..16])?;
        let first = le64(e, 32)?;
        let last = le64(e, 40)?;
        let size = last
            .checked_sub(first)
            .map(|d| d.saturating_add(1))
            .unwrap_or(0);
        let name: Vec<u16> = (0..36)
            .filter_map(|k| le16(e, 56 + 2 * k))
            .take_while(|&c| c != 0)
            .collect();
        let label = String::from_utf16_lossy(&name);
        let tname = gpt_type_name(&type_guid)
            .map(str::to_string)
            .unwrap_or(type_guid);
        parts.push(partition((i + 1) as u32, first, size, ls, Some(tname)));
        if !label.is_empty() {
            notes.push(format!("partition {} label {:?}", i + 1, label));
        }
    }
    Some(PartitionTable {
        scheme: "gpt".into(),
        partitions: parts,
        notes: std::mem::take(notes),
    })
}

/// Follow the EBR chain of an extended partition starting at `ext_start` (LBA).
/// `read` returns the 512-byte sector at an absolute LBA, or None when it is not available.
/// Logical partitions are numbered from 5, as Linux does. Loops and runaway chains stop.
pub fn logical_partitions(
    ext_start: u64,
    ls: u32,
    mut read: impl FnMut(u64) -> Option<Vec<u8>>,
) -> (Vec<Partition>, Vec<String>) {
    let mut parts = Vec::new();
    let mut notes = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    let mut ebr = ext_start;
    let mut number = 5;
    while seen.insert(ebr) {
        if seen.len() > 128 {
            notes.push("EBR chain longer than 128 links: stopped".into());
            break;
        }
        let Some(sector) = read(ebr) else {
            if !parts.is_empty() {
                notes.push(format!(
                    "EBR at sector {ebr} not captured: later logical partitions missing"
                ));
            }
            break;
        };
        let Some(entries) = mbr_entries(&sector) else {
            notes.push(format!("EBR at sector {ebr} has no 0x55AA signature"));
            break;
        };
        // First entry: the logical partition, relative to this EBR. Second: the next EBR,
        // relative to the start of the extended partition.
        let mut next = None;
        for e in entries {
            if is_extended(e.type_code) {
                next = ext_start.checked_add(e.start);
            } else if e.slot == 1 {
                let start = ebr.saturating_add(e.start);
                parts.push(partition(
                    number,
                    start,
                    e.sectors,
                    ls,
                    Some(mbr_type_name(e.type_code)),
                ));
                number += 1;
            }
        }
        match next {
            Some(n) => ebr = n,
            None => break,
        }
    }
    if seen.len() > 1 && parts.is_empty() {
        notes.push("EBR chain holds no logical partitions".into());
    }
    (parts, notes)
}

/// FreeBSD disklabel magic (sys/disklabel.h DISKMAGIC), at d_magic and d_magic2.
pub(crate) const DISKMAGIC: u32 = 0x8256_4557;

/// Parse a FreeBSD BSD label (sys/disklabel.h `struct disklabel`) read from sector 1 of an
/// MBR slice (type 0xA5) starting at `slice_start` (LBA). Returns the label's partitions
/// a, b, d, ... (the raw 'c' partition covering the slice is skipped) with absolute start
/// sectors; their `name` is the letter, to be prefixed with the slice name (ada0s1a).
pub fn parse_bsdlabel(
    label: &[u8],
    slice_start: u64,
    logical_sector: u32,
) -> Option<Vec<Partition>> {
    // d_magic at 0 and d_magic2 at 132; d_npartitions (u16) at 138; the partition array
    // (16 bytes each: p_size, p_offset, p_fsize u32, p_fstype u8...) starts at 148.
    if le32(label, 0)? != DISKMAGIC || le32(label, 132)? != DISKMAGIC {
        return None;
    }
    let n = usize::from(le16(label, 138)?).min(26);
    // Offsets in a label are traditionally absolute (relative to the disk), and the raw
    // partition 'c' then starts at the slice start; FreeBSD's GEOM subtracts c's offset so
    // both absolute and slice-relative labels work. Do the same.
    let raw_off = if n > 2 {
        u64::from(le32(label, 148 + 2 * 16 + 4)?)
    } else {
        0
    };
    let mut out = Vec::new();
    for i in 0..n {
        let e = 148 + 16 * i;
        let size = u64::from(le32(label, e)?);
        let off = u64::from(le32(label, e + 4)?);
        let fstype = *label.get(e + 12)?;
        if size == 0 || i == 2 {
            continue;
        }
        let rel = off.saturating_sub(raw_off);
        let start = slice_start.saturating_add(rel);
        let type_name = match fstype {
            1 => "swap".to_string(),
            7 => "4.2BSD (UFS)".to_string(),
            27 => "ZFS".to_string(),
            0 => "unused".to_string(),
            t => format!("fstype {t}"),
        };
        let mut p = partition(
            (i + 1) as u32,
            start,
            size,
            logical_sector.max(512),
            Some(type_name),
        );
        p.name = ((b'a' + i as u8) as char).to_string();
        out.push(p);
    }
    Some(out)
}

/// Byte offset and length of the BSD label sector for a slice starting at `slice_start`:
/// sector 1 of the slice (sys/disklabel.h LABELSECTOR = 1, LABELOFFSET = 0).
pub fn bsdlabel_location(slice_start: u64, logical_sector: u32) -> (u64, u64) {
    let ls = u64::from(logical_sector.max(512));
    (slice_start.saturating_mul(ls).saturating_add(ls), ls)
}

/// The kernel's partition naming: a digit-ending disk name gets a "p" (nvme0n1p1,
/// loop0p1, mmcblk0p1); others just the number (sda1). FreeBSD names differ (ada0p1,
/// ada0s1); its parser names them itself.
pub fn kernel_partition_name(disk: &str, number: u32) -> String {
    if disk.ends_with(|c: char| c.is_ascii_digit()) {
        format!("{disk}p{number}")
    } else {
        format!("{disk}{number}")
    }
}

// ---- a filesystem on the whole device (no table) ----

/// The ext2/3/4 superblock: 1024 bytes at byte 1024 (Linux Documentation/filesystems/ext4/
/// super.rst). Offsets inside it.
const EXT_SB: usize = 1024;
const EXT_MAGIC_AT: usize = 0x38;
const EXT_FEATURES_AT: usize = 0x5C; // compat, incompat, ro_compat (3 x u32)
const EXT_UUID_AT: usize = 0x68;
const EXT_LABEL_AT: usize = 0x78;

/// A filesystem found at byte 0 of a device read: its kind, volume label and UUID.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WholeDiskFs {
    pub kind: &'static str,
    pub label: String,
    /// The textual UUID; a redacted read holds the token ("UUID-1") instead.
    pub uuid: String,
}

impl WholeDiskFs {
    pub fn note(&self) -> String {
        let mut n = format!("{} filesystem on the whole device", self.kind);
        if !self.label.is_empty() {
            n.push_str(&format!(", label \"{}\"", self.label));
        }
        if !self.uuid.is_empty() {
            n.push_str(&format!(", UUID {}", self.uuid));
        }
        n
    }
}

/// A 16-byte UUID field: the 8-4-4-4-12 text of its bytes (stored big-endian, as ext4
/// does), or the token a redacted read put there (ASCII, zero padded), or "" when all zero.
fn uuid_field(b: &[u8]) -> String {
    if b.iter().all(|&x| x == 0) {
        return String::new();
    }
    let text: Vec<u8> = b.iter().copied().take_while(|&x| x != 0).collect();
    if text.first().is_some_and(u8::is_ascii_alphabetic)
        && text.iter().all(|c| c.is_ascii_graphic())
        && b[text.len()..].iter().all(|&x| x == 0)
    {
        return String::from_utf8_lossy(&text).into_owned();
    }
    let h: String = b.iter().map(|x| format!("{x:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &h[0..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..32]
    )
}

/// An ext2/3/4 filesystem starting at byte 0 of `b` (magic 0xEF53), with its label and UUID.
pub fn whole_disk_filesystem(b: &[u8]) -> Option<WholeDiskFs> {
    let sb = b.get(EXT_SB..EXT_SB + 0x88)?;
    if le16(sb, EXT_MAGIC_AT)? != 0xEF53 {
        return None;
    }
    let compat = le32(sb, EXT_FEATURES_AT)?;
    let incompat = le32(sb, EXT_FEATURES_AT + 4)?;
    // INCOMPAT_EXTENTS 0x40, 64BIT 0x80, FLEX_BG 0x200 mean ext4; COMPAT_HAS_JOURNAL 0x4 ext3.
    let kind = if incompat & (0x40 | 0x80 | 0x200) != 0 {
        "ext4"
    } else if compat & 0x4 != 0 {
        "ext3"
    } else {
        "ext2"
    };
    let label_bytes: Vec<u8> = sb[EXT_LABEL_AT..EXT_LABEL_AT + 16]
        .iter()
        .copied()
        .take_while(|&c| c != 0)
        .collect();
    Some(WholeDiskFs {
        kind,
        label: String::from_utf8_lossy(&label_bytes).into_owned(),
        uuid: uuid_field(&sb[EXT_UUID_AT..EXT_UUID_AT + 16]),
    })
}

/// Rewrite the label and UUID of a whole-device filesystem in a device read (`rename` gets
/// the label, then the textual UUID, and returns what to store; a UUID that is not a UUID
/// any more is stored as ASCII).
pub fn rename_filesystem(b: &[u8], rename: impl Fn(&str) -> String) -> Vec<u8> {
    let mut out = b.to_vec();
    let Some(fs) = whole_disk_filesystem(b) else {
        return out;
    };
    let put = |out: &mut Vec<u8>, at: usize, text: &str| {
        if let Some(field) = out.get_mut(EXT_SB + at..EXT_SB + at + 16) {
            field.fill(0);
            for (d, c) in field.iter_mut().zip(text.bytes()) {
                *d = c;
            }
        }
    };
    if !fs.label.is_empty() {
        put(&mut out, EXT_LABEL_AT, &rename(&fs.label));
    }
    if !fs.uuid.is_empty() {
        let new = rename(&fs.uuid);
        if new != fs.uuid {
            put(&mut out, EXT_UUID_AT, &new);
        }
    }
    out
}

// ---- what a device read may keep (no raw sectors whole) ----
//
// A device read is stored in the evidence bundle, and bundles leave the machine. The first
// sectors of a disk hold more than the partition table: boot code, the MBR disk signature,
// the GPT disk and partition GUIDs, and, on a disk without a table, the superblock of the
// filesystem (ext4 keeps its volume label, UUID and last mount path at byte 1024). The
// parsers above read only the MBR/EBR entries and signature (bytes 446-511), the GPT header
// fields and the used entries' type GUID, LBAs, attributes and name, and the BSD label's
// magic and partition array. [`minimize`] keeps exactly those and zeroes the rest.

/// The logical sector sizes at which `b` holds a GPT header ("EFI PART" at LBA 1) behind a
/// protective MBR. Usually one; a re-formatted image can hold two.
fn gpt_sector_sizes(b: &[u8]) -> Vec<usize> {
    let protective = mbr_entries(b).is_some_and(|e| e.iter().any(|e| e.type_code == 0xEE));
    [512usize, 1024, 2048, 4096, 8192]
        .into_iter()
        .filter(|&ls| protective && b.get(ls..ls + 8) == Some(b"EFI PART"))
        .collect()
}

/// The GPT whose header is at `ls`: (header size, entry array offset, entry count, entry
/// size), when the header is there; no entries when their layout is implausible.
fn gpt_layout(b: &[u8], ls: usize) -> Option<(usize, usize, usize, usize)> {
    let hdr = b.get(ls..ls + 92)?;
    let header_size = (le32(hdr, 12)? as usize).clamp(92, ls);
    let entries_lba = le64(hdr, 72)?;
    let count = le32(hdr, 80)? as usize;
    let esize = le32(hdr, 84)? as usize;
    let base = entries_lba
        .checked_mul(ls as u64)
        .and_then(|b| usize::try_from(b).ok());
    match base {
        Some(base) if (128..=4096).contains(&esize) && count <= 4096 => {
            Some((header_size, base, count, esize))
        }
        _ => Some((header_size, 0, 0, 128)),
    }
}

/// Whether the header CRC and the entry array CRC of the GPT at `ls` match.
fn gpt_crcs_ok(b: &[u8], ls: usize) -> (bool, bool) {
    let Some((hsize, base, count, esize)) = gpt_layout(b, ls) else {
        return (false, false);
    };
    let header = b.get(ls..ls + hsize).is_some_and(|h| {
        let mut copy = h.to_vec();
        copy[16..20].fill(0);
        le32(h, 16) == Some(crc32(&copy))
    });
    let entries = b
        .get(base..base.saturating_add(count.saturating_mul(esize)))
        .zip(le32(b, ls + 88))
        .is_some_and(|(a, stored)| crc32(a) == stored);
    (header, entries)
}

/// Edit every GPT of `b` in place: `header` gets the header bytes, `entry` each used entry
/// (non-zero type GUID). The CRCs that were right in `orig` (the bytes as read) are
/// recomputed, the ones that were wrong stay wrong, so a replay reports exactly the
/// corruption the disk had.
fn edit_gpt(
    orig: &[u8],
    b: &mut [u8],
    mut header: impl FnMut(&mut [u8]),
    mut entry: impl FnMut(&mut [u8]),
) {
    for ls in gpt_sector_sizes(orig) {
        let Some((hsize, base, count, esize)) = gpt_layout(b, ls) else {
            continue;
        };
        let (header_ok, entries_ok) = gpt_crcs_ok(orig, ls);
        if let Some(h) = b.get_mut(ls..ls + hsize) {
            header(h);
        }
        for i in 0..count {
            let off = base.saturating_add(i.saturating_mul(esize));
            if let Some(e) = b.get_mut(off..off.saturating_add(esize))
                && e.get(0..16).is_some_and(|t| t.iter().any(|&x| x != 0))
            {
                entry(e);
            }
        }
        let array_end = base.saturating_add(count.saturating_mul(esize));
        if entries_ok
            && let Some(c) = b.get(base..array_end).map(crc32)
            && let Some(f) = b.get_mut(ls + 88..ls + 92)
        {
            f.copy_from_slice(&c.to_le_bytes());
        }
        if header_ok && let Some(h) = b.get(ls..ls + hsize) {
            let mut copy = h.to_vec();
            copy[16..20].fill(0);
            let c = crc32(&copy);
            if let Some(f) = b.get_mut(ls + 16..ls + 20) {
                f.copy_from_slice(&c.to_le_bytes());
            }
        }
    }
}

/// Copy `range` of `from` into `to` (both the same length); out-of-range parts are skipped.
fn keep(from: &[u8], to: &mut [u8], start: usize, end: usize) {
    let end = end.min(from.len());
    if let (Some(src), Some(dst)) = (from.get(start..end), to.get_mut(start..end)) {
        dst.copy_from_slice(src);
    }
}

/// The bytes of a device read the parsers of this file use; everything else zeroed. Same
/// length as the input, so every offset the parsers compute still holds, and
/// `parse(&minimize(b), ls) == parse(b, ls)` for every input (tested). A read that is
/// neither an MBR/EBR/GPT nor a BSD label (a whole-disk filesystem) becomes all zeros.
pub fn minimize(b: &[u8]) -> Vec<u8> {
    let mut out = vec![0u8; b.len()];
    // A BSD label sector: d_magic, the partition count and array, d_magic2 (the type and
    // pack names at 8-39 are a label, the geometry is unused).
    if le32(b, 0) == Some(DISKMAGIC) && le32(b, 132) == Some(DISKMAGIC) {
        let n = usize::from(le16(b, 138).unwrap_or(0)).min(26);
        keep(b, &mut out, 0, 4);
        keep(b, &mut out, 132, 148 + 16 * n);
        return out;
    }
    let Some(entries) = mbr_entries(b) else {
        // A filesystem on the whole device: its magic, feature flags (which ext), UUID and
        // label; not the rest of the superblock (last mount path, times, counters).
        if whole_disk_filesystem(b).is_some() {
            keep(
                b,
                &mut out,
                EXT_SB + EXT_MAGIC_AT,
                EXT_SB + EXT_MAGIC_AT + 2,
            );
            keep(
                b,
                &mut out,
                EXT_SB + EXT_FEATURES_AT,
                EXT_SB + EXT_LABEL_AT + 16,
            );
        }
        return out;
    };
    // MBR: the four entries and the 0x55AA signature; not the boot code, not the disk
    // signature at 440.
    keep(b, &mut out, 446, 512);
    // EBRs that lie inside this read (an extended partition near the start).
    for ls in [512u64, 4096] {
        for e in entries.iter().filter(|e| is_extended(e.type_code)) {
            let _ = logical_partitions(e.start, ls as u32, |lba| {
                let off = usize::try_from(lba.checked_mul(ls)?).ok()?;
                let sector = b.get(off..off.checked_add(512)?)?;
                keep(b, &mut out, off + 446, off + 512);
                Some(sector.to_vec())
            });
        }
    }
    for ls in gpt_sector_sizes(b) {
        let Some((hsize, base, count, esize)) = gpt_layout(b, ls) else {
            continue;
        };
        keep(b, &mut out, ls, ls + hsize);
        for i in 0..count {
            let off = base.saturating_add(i.saturating_mul(esize));
            if b.get(off..off + 16)
                .is_some_and(|t| t.iter().any(|&x| x != 0))
            {
                // Type GUID, unique GUID (zeroed below), LBAs, attributes, name.
                keep(b, &mut out, off, off.saturating_add(128));
            }
        }
    }
    // The disk GUID (header bytes 56-71) and each partition's unique GUID (entry bytes
    // 16-31): identifiers no parser reads.
    edit_gpt(
        b,
        &mut out,
        |h| h.get_mut(56..72).into_iter().for_each(|g| g.fill(0)),
        |e| e.get_mut(16..32).into_iter().for_each(|g| g.fill(0)),
    );
    out
}

/// The GPT partition names in a (minimized or raw) device read, in entry order.
pub fn gpt_names(b: &[u8]) -> Vec<String> {
    let mut names = Vec::new();
    let mut copy = b.to_vec();
    edit_gpt(b, &mut copy, |_| {}, |e| names.push(entry_name(e)));
    names.retain(|n| !n.is_empty());
    names
}

/// The partition type GUIDs of the used GPT entries in a device read (textual form).
pub fn gpt_type_guids(b: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    let mut copy = b.to_vec();
    edit_gpt(
        b,
        &mut copy,
        |_| {},
        |e| out.extend(e.get(0..16).and_then(guid_string)),
    );
    out
}

fn entry_name(e: &[u8]) -> String {
    let units: Vec<u16> = (0..36)
        .filter_map(|k| le16(e, 56 + 2 * k))
        .take_while(|&c| c != 0)
        .collect();
    String::from_utf16_lossy(&units)
}

/// Rename the GPT partitions of a device read (`rename` gets each non-empty name and
/// returns the new one, cut to the 36 UTF-16 units of the field); CRCs stay as valid as
/// they were.
pub fn rename_gpt(b: &[u8], rename: impl Fn(&str) -> String) -> Vec<u8> {
    let mut out = b.to_vec();
    edit_gpt(
        b,
        &mut out,
        |_| {},
        |e| {
            let old = entry_name(e);
            if old.is_empty() {
                return;
            }
            let new: Vec<u16> = rename(&old).encode_utf16().take(36).collect();
            if let Some(field) = e.get_mut(56..128) {
                field.fill(0);
                for (k, c) in new.iter().enumerate() {
                    if let Some(d) = field.get_mut(2 * k..2 * k + 2) {
                        d.copy_from_slice(&c.to_le_bytes());
                    }
                }
            }
        },
    );
    out
}

/// Disk images for tests (here and in diskdoc-core's redaction tests, through the
/// `testutil` feature): an MBR sector and a GPT disk's first 34 sectors.
#[cfg(any(test, feature = "testutil"))]
pub mod testimg {
    use super::crc32;

    pub fn mbr(entries: &[(u8, u32, u32)]) -> Vec<u8> {
        let mut s = vec![0u8; 512];
        for (i, &(t, start, size)) in entries.iter().enumerate() {
            let o = 446 + 16 * i;
            s[o + 4] = t;
            s[o + 8..o + 12].copy_from_slice(&start.to_le_bytes());
            s[o + 12..o + 16].copy_from_slice(&size.to_le_bytes());
        }
        s[510] = 0x55;
        s[511] = 0xAA;
        s
    }

    fn guid_bytes(g: &str) -> [u8; 16] {
        let h: Vec<u8> = g
            .replace('-', "")
            .as_bytes()
            .chunks(2)
            .map(|c| u8::from_str_radix(std::str::from_utf8(c).unwrap(), 16).unwrap())
            .collect();
        let mut b = [0u8; 16];
        b[0..4].copy_from_slice(&[h[3], h[2], h[1], h[0]]);
        b[4..6].copy_from_slice(&[h[5], h[4]]);
        b[6..8].copy_from_slice(&[h[7], h[6]]);
        b[8..16].copy_from_slice(&h[8..16]);
        b
    }

    /// A GPT disk image (first 34 sectors) with the given (type guid, first, last, name).
    pub fn gpt(ls: usize, parts: &[(&str, u64, u64, &str)]) -> Vec<u8> {
        let mut img = vec![0u8; ls * 34];
        img[..512].copy_from_slice(&mbr(&[(0xEE, 1, 0xFFFF_FFFF)]));
        let mut entries = vec![0u8; 128 * 128];
        for (i, (t, first, last, name)) in parts.iter().enumerate() {
            let e = &mut entries[i * 128..(i + 1) * 128];
            e[0..16].copy_from_slice(&guid_bytes(t));
            e[16] = 0x42;
            e[32..40].copy_from_slice(&first.to_le_bytes());
            e[40..48].copy_from_slice(&last.to_le_bytes());
            for (k, c) in name.encode_utf16().enumerate() {
                e[56 + 2 * k..58 + 2 * k].copy_from_slice(&c.to_le_bytes());
            }
        }
        let entries_at = 2 * ls;
        let room = img.len() - entries_at;
        let n = room.min(entries.len());
        img[entries_at..entries_at + n].copy_from_slice(&entries[..n]);
        let mut h = vec![0u8; 92];
        h[0..8].copy_from_slice(b"EFI PART");
        h[8..12].copy_from_slice(&0x0001_0000u32.to_le_bytes());
        h[12..16].copy_from_slice(&92u32.to_le_bytes());
        h[24..32].copy_from_slice(&1u64.to_le_bytes());
        h[72..80].copy_from_slice(&2u64.to_le_bytes());
        h[80..84].copy_from_slice(&128u32.to_le_bytes());
        h[84..88].copy_from_slice(&128u32.to_le_bytes());
        h[88..92].copy_from_slice(&crc32(&entries).to_le_bytes());
        let c = crc32(&h);
        h[16..20].copy_from_slice(&c.to_le_bytes());
        img[ls..ls + 92].copy_from_slice(&h);
        img
    }
}

#[cfg(test)]
mod tests {
    use super::testimg::*;
    use super::*;

    #[test]
    fn crc32_known_value() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    }

    #[test]
    fn mbr_at_63_and_types() {
        let img = mbr(&[(0x83, 63, 1000), (0x82, 2048, 4096)]);
        let t = parse(&img, 512).unwrap();
        assert_eq!(t.scheme, "mbr");
        assert_eq!(t.partitions.len(), 2);
        assert_eq!(t.partitions[0].number, 1);
        assert_eq!(t.partitions[0].start_sector, 63);
        assert_eq!(t.partitions[0].start_bytes, 63 * 512);
        assert_eq!(t.partitions[0].size_sectors, 1000);
        assert_eq!(t.partitions[0].type_name.as_deref(), Some("Linux"));
        assert_eq!(t.partitions[1].type_name.as_deref(), Some("Linux swap"));
        assert!(t.notes.is_empty());
    }

    #[test]
    fn gpt_512_and_4096() {
        for ls in [512usize, 4096] {
            let img = gpt(
                ls,
                &[
                    ("c12a7328-f81f-11d2-ba4b-00a0c93ec93b", 2048, 4095, "EFI"),
                    (
                        "0fc63daf-8483-4772-8e79-3d69d8477de4",
                        4096,
                        9999,
                        "root fs",
                    ),
                ],
            );
            let t = parse(&img, ls as u32).unwrap();
            assert_eq!(t.scheme, "gpt", "ls {ls}");
            assert_eq!(t.partitions.len(), 2);
            assert_eq!(t.partitions[0].start_sector, 2048);
            assert_eq!(t.partitions[0].size_sectors, 2048);
            assert_eq!(t.partitions[0].start_bytes, 2048 * ls as u64);
            assert_eq!(t.partitions[0].type_name.as_deref(), Some("EFI System"));
            assert_eq!(t.partitions[1].number, 2);
            assert_eq!(t.partitions[1].size_sectors, 5904);
            assert_eq!(
                t.partitions[1].type_name.as_deref(),
                Some("Linux filesystem")
            );
            assert!(
                t.notes.iter().any(|n| n == "partition 2 label \"root fs\""),
                "{:?}",
                t.notes
            );
            assert!(
                !t.notes.iter().any(|n| n.contains("CORRUPT")),
                "{:?}",
                t.notes
            );
        }
    }

    #[test]
    fn gpt_corruption_and_truncation() {
        let mut img = gpt(
            512,
            &[("0fc63daf-8483-4772-8e79-3d69d8477de4", 2048, 4095, "x")],
        );
        img[1024 + 32] ^= 0xFF; // flip a byte of the first entry
        let t = parse(&img, 512).unwrap();
        assert!(
            t.notes.iter().any(|n| n.contains("entry array CRC")),
            "{:?}",
            t.notes
        );
        // Only LBA 0-1 captured: entries missing, still a gpt scheme with a note.
        let t = parse(&img[..1024], 512).unwrap();
        assert_eq!(t.scheme, "gpt");
        assert!(t.partitions.is_empty());
        assert!(t.notes.iter().any(|n| n.contains("beyond the captured")));
        // Only the MBR: protective only.
        let t = parse(&img[..512], 512).unwrap();
        assert_eq!(t.scheme, "mbr");
        assert_eq!(t.partitions[0].type_name.as_deref(), Some("GPT protective"));
        assert!(t.notes[0].contains("protective MBR only"));
    }

    #[test]
    fn hostile_gpt_header_values() {
        let mut img = gpt(
            512,
            &[("0fc63daf-8483-4772-8e79-3d69d8477de4", 0, u64::MAX, "x")],
        );
        // Entry spanning the whole u64 range: size saturates instead of overflowing.
        let t = parse(&img, 512).unwrap();
        assert_eq!(t.partitions[0].size_sectors, u64::MAX);
        // Entry array at an absurd LBA, with the maximum entry count.
        img[512 + 72..512 + 80].copy_from_slice(&(u64::MAX / 512).to_le_bytes());
        img[512 + 80..512 + 84].copy_from_slice(&4096u32.to_le_bytes());
        let t = parse(&img, 512).unwrap();
        assert!(t.partitions.is_empty());
        assert!(
            t.notes.iter().any(|n| n.contains("CORRUPT")),
            "{:?}",
            t.notes
        );
        // Entry size below the spec minimum of 128.
        img[512 + 84..512 + 88].copy_from_slice(&16u32.to_le_bytes());
        let t = parse(&img, 512).unwrap();
        assert!(
            t.notes.iter().any(|n| n.contains("implausible")),
            "{:?}",
            t.notes
        );
    }

    #[test]
    fn garbage_never_panics() {
        assert_eq!(parse(&[], 512), None);
        assert_eq!(parse(&[0u8; 100], 512), None);
        assert_eq!(parse(&vec![0u8; 17408], 512), None);
        // Random-ish bytes with a boot signature.
        let mut x: u32 = 12345;
        for len in [512usize, 600, 1024, 17408] {
            let mut b: Vec<u8> = (0..len)
                .map(|_| {
                    x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
                    (x >> 16) as u8
                })
                .collect();
            b[510] = 0x55;
            b[511] = 0xAA;
            b[446 + 4] = 0xEE;
            if len > 520 {
                b[512..520].copy_from_slice(b"EFI PART");
            }
            let _ = parse(&b, 512);
            b[446 + 4] = 0x05;
            let _ = parse(&b, 512);
            let _ = parse_bsdlabel(&b, 0, 512);
        }
    }

    #[test]
    fn extended_partition_with_ebr_chain() {
        // Primary 1 at 63, extended at 4096 covering 8192; EBR chain inside the image.
        let mut img = vec![0u8; 512 * 6200];
        img[..512].copy_from_slice(&mbr(&[(0x83, 63, 1000), (0x05, 4096, 8192)]));
        // EBR 1 at 4096: logical at +63 (len 100), next EBR at ext+2000.
        let e1 = mbr(&[(0x83, 63, 100), (0x05, 2000, 500)]);
        img[4096 * 512..4097 * 512].copy_from_slice(&e1);
        let e2 = mbr(&[(0x82, 2, 50)]);
        img[6096 * 512..6097 * 512].copy_from_slice(&e2);
        let t = parse(&img, 512).unwrap();
        let starts: Vec<(u32, u64)> = t
            .partitions
            .iter()
            .map(|p| (p.number, p.start_sector))
            .collect();
        assert_eq!(starts, vec![(1, 63), (2, 4096), (5, 4159), (6, 6098)]);
        assert_eq!(t.partitions[1].type_name.as_deref(), Some("extended"));
        // Only 34 sectors captured: container kept, note says EBR reads are needed.
        let t = parse(&img[..34 * 512], 512).unwrap();
        assert_eq!(t.partitions.len(), 2);
        assert!(t.notes[0].contains("need EBR reads"), "{:?}", t.notes);
        // A self-referencing chain terminates.
        let mut img2 = vec![0u8; 512 * 10];
        img2[..512].copy_from_slice(&mbr(&[(0x05, 2, 8)]));
        img2[1024..1536].copy_from_slice(&mbr(&[(0x83, 1, 1), (0x05, 0, 8)]));
        let t = parse(&img2, 512).unwrap();
        assert_eq!(t.partitions.len(), 2);
    }

    /// A FreeBSD label with a (root), b (swap), c (raw) using absolute offsets.
    pub(crate) fn bsdlabel(slice: u32, parts: &[(u32, u32, u8)]) -> Vec<u8> {
        let mut l = vec![0u8; 512];
        l[0..4].copy_from_slice(&DISKMAGIC.to_le_bytes());
        l[132..136].copy_from_slice(&DISKMAGIC.to_le_bytes());
        l[138..140].copy_from_slice(&8u16.to_le_bytes());
        for (i, &(off, size, fstype)) in parts.iter().enumerate() {
            let e = 148 + 16 * i;
            l[e..e + 4].copy_from_slice(&size.to_le_bytes());
            l[e + 4..e + 8].copy_from_slice(&(off + slice).to_le_bytes());
            l[e + 12] = fstype;
        }
        l
    }

    #[test]
    fn bsd_label_in_a_slice() {
        let l = bsdlabel(63, &[(0, 1000, 7), (1000, 500, 1), (0, 1600, 0)]);
        let p = parse_bsdlabel(&l, 63, 512).unwrap();
        assert_eq!(p.len(), 2);
        assert_eq!(p[0].name, "a");
        assert_eq!(p[0].start_sector, 63);
        assert_eq!(p[0].type_name.as_deref(), Some("4.2BSD (UFS)"));
        assert_eq!(p[1].name, "b");
        assert_eq!(p[1].start_sector, 1063);
        assert_eq!(p[1].size_sectors, 500);
        assert_eq!(bsdlabel_location(63, 512), (64 * 512, 512));
        assert_eq!(parse_bsdlabel(&l[..100], 63, 512), None);
        assert_eq!(parse_bsdlabel(&[0u8; 512], 63, 512), None);
    }

    /// Every image the tests above build parses the same after [`minimize`].
    #[test]
    fn minimized_reads_parse_the_same() {
        let efi = "c12a7328-f81f-11d2-ba4b-00a0c93ec93b";
        let linux = "0fc63daf-8483-4772-8e79-3d69d8477de4";
        let mut imgs: Vec<(Vec<u8>, u32)> = vec![
            (mbr(&[(0x83, 63, 1000), (0x82, 2048, 4096)]), 512),
            (
                gpt(
                    512,
                    &[(efi, 2048, 4095, "EFI"), (linux, 4096, 9999, "alice-taxes")],
                ),
                512,
            ),
            (gpt(4096, &[(linux, 256, 9999, "root fs")]), 4096),
        ];
        let mut corrupt = gpt(512, &[(linux, 2048, 4095, "x")]);
        corrupt[1024 + 32] ^= 0xFF;
        imgs.push((corrupt, 512));
        let mut img = vec![0u8; 512 * 34];
        img[..512].copy_from_slice(&mbr(&[(0x83, 63, 10), (0x05, 2, 30)]));
        img[1024..1536].copy_from_slice(&mbr(&[(0x83, 1, 1), (0x05, 4, 8)]));
        img[3072..3584].copy_from_slice(&mbr(&[(0x82, 1, 2)]));
        imgs.push((img, 512));
        for (i, (img, ls)) in imgs.iter().enumerate() {
            let mut noisy = img.clone();
            noisy[..440].fill(0xCC); // boot code
            noisy[440..444].copy_from_slice(&[1, 2, 3, 4]); // disk signature
            let m = minimize(&noisy);
            assert_eq!(m.len(), noisy.len());
            assert_eq!(parse(&m, *ls), parse(&noisy, *ls), "image {i}");
            assert!(
                m[..446].iter().all(|&b| b == 0),
                "image {i}: boot code kept"
            );
            assert_eq!(minimize(&m), m, "image {i}: not idempotent");
        }
        let l = bsdlabel(63, &[(0, 1000, 7), (1000, 500, 1), (0, 1600, 0)]);
        let mut named = l.clone();
        named[24..40].copy_from_slice(b"alice-pack-name!");
        let m = minimize(&named);
        assert_eq!(parse_bsdlabel(&m, 63, 512), parse_bsdlabel(&l, 63, 512));
        assert!(!m.windows(5).any(|w| w == b"alice"));
    }

    #[test]
    fn minimize_drops_guids_and_whole_disk_filesystems() {
        let mut img = gpt(
            512,
            &[("0fc63daf-8483-4772-8e79-3d69d8477de4", 2048, 4095, "x")],
        );
        // A unique partition GUID and a disk GUID, as sgdisk writes them (CRCs fixed up).
        img[1024 + 16..1024 + 32].copy_from_slice(&[0xAB; 16]);
        img[512 + 56..512 + 72].copy_from_slice(&[0xCD; 16]);
        let entries = img[1024..1024 + 128 * 128].to_vec();
        img[512 + 88..512 + 92].copy_from_slice(&crc32(&entries).to_le_bytes());
        img[512 + 16..512 + 20].fill(0);
        let c = crc32(&img[512..512 + 92]);
        img[512 + 16..512 + 20].copy_from_slice(&c.to_le_bytes());
        assert!(
            parse(&img, 512)
                .unwrap()
                .notes
                .iter()
                .all(|n| !n.contains("CORRUPT"))
        );
        let m = minimize(&img);
        assert!(!m.windows(16).any(|w| w == [0xAB; 16] || w == [0xCD; 16]));
        assert_eq!(parse(&m, 512), parse(&img, 512));
        // ext4 on the whole disk: superblock at 1024 with the label at +120 and the UUID at
        // +104; no table, so nothing is kept.
        let mut fs = vec![0u8; 17408];
        fs[1024 + 56..1024 + 58].copy_from_slice(&0xEF53u16.to_le_bytes());
        fs[1024 + 120..1024 + 136].copy_from_slice(b"alice-taxes-2026");
        fs[1024 + 96] = 0x40; // INCOMPAT_EXTENTS
        fs[1024 + 104..1024 + 120].copy_from_slice(&[0x5f; 16]);
        fs[1024 + 136..1024 + 152].copy_from_slice(b"/home/alice/mnt\0"); // s_last_mounted
        let m = minimize(&fs);
        assert!(!m.windows(5).any(|w| w == b"/home"));
        assert_eq!(parse(&m, 512), parse(&fs, 512));
        let t = parse(&m, 512).unwrap();
        assert_eq!(t.scheme, "none");
        assert_eq!(
            t.notes[1],
            "ext4 filesystem on the whole device, label \"alice-taxes-2026\", \
             UUID 5f5f5f5f-5f5f-5f5f-5f5f-5f5f5f5f5f5f"
        );
        // Redacted: the tokens stand in the fields, and parse back as the tokens.
        let r = rename_filesystem(&m, |v| {
            if v.starts_with("alice") {
                "LABEL-1".into()
            } else {
                "UUID-1".into()
            }
        });
        assert_eq!(
            parse(&r, 512).unwrap().notes[1],
            "ext4 filesystem on the whole device, label \"LABEL-1\", UUID UUID-1"
        );
    }

    #[test]
    fn renamed_gpt_keeps_valid_crcs_valid() {
        let img = gpt(
            4096,
            &[(
                "0fc63daf-8483-4772-8e79-3d69d8477de4",
                256,
                999,
                "alice-taxes",
            )],
        );
        assert_eq!(gpt_names(&img), vec!["alice-taxes".to_string()]);
        let r = rename_gpt(&img, |_| "LABEL-1".to_string());
        assert_eq!(gpt_names(&r), vec!["LABEL-1".to_string()]);
        let t = parse(&r, 4096).unwrap();
        assert_eq!(t.notes, vec!["partition 1 label \"LABEL-1\"".to_string()]);
        let mut bad = img.clone();
        bad[4096 + 88] ^= 1; // wrong entry CRC stays wrong
        let t = parse(&rename_gpt(&bad, |_| "LABEL-1".into()), 4096).unwrap();
        assert!(
            t.notes.iter().any(|n| n.contains("entry array CRC")),
            "{:?}",
            t.notes
        );
    }

    #[test]
    fn names() {
        assert_eq!(kernel_partition_name("sda", 1), "sda1");
        assert_eq!(kernel_partition_name("nvme0n1", 2), "nvme0n1p2");
        assert_eq!(kernel_partition_name("loop3", 1), "loop3p1");
    }
}

#[cfg(test)]
mod proptests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Arbitrary bytes with a boot signature and a chosen first type byte never panic,
        /// and every partition reported lies where its numbers say.
        #[test]
        fn parse_survives_arbitrary_bytes(
            mut bytes in proptest::collection::vec(any::<u8>(), 0..20_000),
            t in prop::sample::select(vec![0xEEu8, 0x05, 0x0F, 0xA5, 0x83, 0x00]),
            ls in prop::sample::select(vec![0u32, 512, 4096, 520, 1 << 20]),
            gpt_sig in any::<bool>(),
        ) {
            if bytes.len() >= 512 {
                bytes[510] = 0x55;
                bytes[511] = 0xAA;
                bytes[446 + 4] = t;
            }
            if gpt_sig && bytes.len() >= 520 {
                bytes[512..520].copy_from_slice(b"EFI PART");
            }
            if let Some(table) = parse(&bytes, ls) {
                for p in &table.partitions {
                    prop_assert_eq!(p.start_bytes, p.start_sector.saturating_mul(u64::from(p.sector_bytes)));
                }
            }
            let _ = parse_bsdlabel(&bytes, 63, ls);
            // What a bundle keeps parses as what was read.
            prop_assert_eq!(parse(&minimize(&bytes), ls), parse(&bytes, ls));
            prop_assert_eq!(parse_bsdlabel(&minimize(&bytes), 63, ls), parse_bsdlabel(&bytes, 63, ls));
            let _ = logical_partitions(1, 512, |lba| {
                let off = usize::try_from(lba.checked_mul(512)?).ok()?;
                bytes.get(off..off.checked_add(512)?).map(<[u8]>::to_vec)
            });
        }
    }
}
