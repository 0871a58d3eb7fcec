//! Guards for the destructive raw-device write test: refuse any device that holds data
//! (partition table, filesystem, RAID/LVM/LUKS/ZFS/swap signature), is mounted or held, and
//! ask the person to type the exact device path on a terminal.
//!
//! Magic numbers and their places (facts from the on-disk format specifications):
//! MBR boot signature 0x55 0xAA at bytes 510-511 (also FAT and NTFS boot sectors);
//! GPT header "EFI PART" at LBA 1 and backup at the last LBA (UEFI 2.10 s5.3);
//! ext2/3/4 s_magic 0xEF53 at byte 1080 (superblock at 1024, field at 0x38);
//! XFS "XFSB" at 0; LUKS1/2 "LUKS\xba\xbe" at 0, LUKS2 secondary "SKUL\xba\xbe" at 16 KiB
//! multiples; LVM2 "LABELONE" at the start of one of the first four 512-byte sectors;
//! md superblock magic 0xa92b4efc (v1.1 at 0, v1.2 at 4 KiB, v0.90/v1.0 near the end);
//! ZFS uberblock magic 0x00bab10c inside the four 256 KiB vdev labels (two at each end);
//! btrfs "_BHRfS_M" at 64 KiB + 64; swap "SWAPSPACE2"/"SWAP-SPACE" ending at the page size;
//! ISO 9660 "CD001" at 32769.
//!
//! Added later (each from the format's own header or libblkid's probe table,
//! util-linux libblkid/src/superblocks/*.c, whose `kboff`/`sboff` give the same places):
//! f2fs F2FS_SUPER_MAGIC 0xF2F52010 (le32) at F2FS_SUPER_OFFSET 1024 (linux include/linux/f2fs_fs.h);
//! erofs EROFS_SUPER_MAGIC_V1 0xE0F5E1E2 (le32) at EROFS_SUPER_OFFSET 1024 (linux fs/erofs/erofs_fs.h);
//! squashfs "hsqs" (le 0x73717368) or "sqsh" (big-endian) at 0 (linux fs/squashfs/squashfs_fs.h);
//! cramfs CRAMFS_MAGIC 0x28cd3d45 in either byte order at 0, or at 512 after a pad
//! (linux include/uapi/linux/cramfs_fs.h, CRAMFS_PAD; libblkid cramfs.c);
//! minix s_magic (le16 0x137F, 0x138F, 0x2468, 0x2478, or byte-swapped) at 1024 + 16, minix3
//! 0x4D5A at 1024 + 24 (linux fs/minix/minix.h; libblkid minix.c);
//! bfs BFS_MAGIC 0x1BADFACE (le32) at 0 (linux include/uapi/linux/bfs_fs.h);
//! UFS1 FS_UFS1_MAGIC 0x011954 and UFS2 FS_UFS2_MAGIC 0x19540119 in fs_magic, byte 1372 of a
//! superblock at SBLOCK_FLOPPY 0, SBLOCK_UFS1 8192, SBLOCK_UFS2 65536 or SBLOCK_PIGGY 262144
//! (FreeBSD sys/ufs/ffs/fs.h; libblkid ufs.c probes the same four places, both byte orders);
//! GEOM metadata in the provider's LAST sector, starting with the class magic: GELI
//! G_ELI_MAGIC "GEOM::ELI" (sys/geom/eli/g_eli.h, g_eli_read_metadata reads
//! mediasize - sectorsize), gmirror G_MIRROR_MAGIC "GEOM::MIRROR" (sys/geom/mirror/g_mirror.h),
//! and every other class that keeps its metadata there ("GEOM::RAID3", "GEOM::STRIPE",
//! "GEOM::CONCAT", "GEOM::SHSEC", "GEOM::LABEL", "GEOM::JOURNAL", "GEOM::MULTIPATH",
//! "GEOM::CACHE", "GEOM::VIRSTOR", ...): any "GEOM::" at the start of the last 512 or 4096
//! bytes refuses;
//! BSD disklabel DISKMAGIC 0x82564557 (le32, d_magic at 0 of struct disklabel) at
//! LABELSECTOR 1 / LABELOFFSET 0 (FreeBSD sys/sys/disklabel.h: byte 512), and at the other
//! known places (sector 0 at 0, 64 or 128; sector 2 at 0), in either byte order.

use crate::os::tty::Typed;

/// One signature found, with where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signature {
    pub what: String,
    /// Byte offset on the device.
    pub offset: u64,
}

fn at(buf: &[u8], off: usize, magic: &[u8]) -> bool {
    buf.get(off..off + magic.len()) == Some(magic)
}

/// Look for data signatures in the first and last bytes of a device. `head` starts at
/// offset 0; `tail` ends at `device_size`. Pure; tested on synthetic images.
pub fn find_signatures(head: &[u8], tail: &[u8], device_size: u64) -> Vec<Signature> {
    let mut out = Vec::new();
    let tail_start = device_size.saturating_sub(tail.len() as u64);
    let mut add = |what: &str, offset: u64| {
        if !out.iter().any(|s: &Signature| s.what == what) {
            out.push(Signature {
                what: what.to_string(),
                offset,
            });
        }
    };
    if at(head, 510, &[0x55, 0xaa]) {
        add("MBR/boot sector signature 0x55AA", 510);
    }
    for lba in [512usize, 4096] {
        if at(head, lba, b"EFI PART") {
            add("GPT header \"EFI PART\"", lba as u64);
        }
    }
    for back in [512usize, 4096] {
        if let Some(off) = tail.len().checked_sub(back)
            && at(tail, off, b"EFI PART")
        {
            add("backup GPT header \"EFI PART\"", tail_start + off as u64);
        }
    }
    if at(head, 1080, &[0x53, 0xef]) {
        add("ext2/3/4 superblock magic 0xEF53", 1080);
    }
    if at(head, 0, b"XFSB") {
        add("XFS superblock \"XFSB\"", 0);
    }
    if at(head, 0, b"LUKS\xba\xbe") {
        add("LUKS header", 0);
    }
    for k in 1..=64usize {
        if at(head, k * 16384, b"SKUL\xba\xbe") {
            add("LUKS2 secondary header", (k * 16384) as u64);
        }
    }
    for s in 0..4usize {
        if at(head, s * 512, b"LABELONE") {
            add("LVM2 physical volume label \"LABELONE\"", (s * 512) as u64);
        }
    }
    if at(head, 65536 + 64, b"_BHRfS_M") {
        add("btrfs superblock \"_BHRfS_M\"", 65536 + 64);
    }
    for page in [4096usize, 8192, 16384, 65536] {
        if at(head, page - 10, b"SWAPSPACE2") || at(head, page - 10, b"SWAP-SPACE") {
            add("swap signature", (page - 10) as u64);
        }
    }
    if at(head, 32769, b"CD001") {
        add("ISO 9660 volume descriptor", 32769);
    }
    if at(head, 1024, &0xF2F5_2010u32.to_le_bytes()) {
        add("f2fs superblock magic 0xF2F52010", 1024);
    }
    if at(head, 1024, &0xE0F5_E1E2u32.to_le_bytes()) {
        add("erofs superblock magic 0xE0F5E1E2", 1024);
    }
    if at(head, 0, b"hsqs") || at(head, 0, b"sqsh") {
        add("squashfs superblock \"hsqs\"", 0);
    }
    for off in [0usize, 512] {
        let m = 0x28cd_3d45u32;
        if at(head, off, &m.to_le_bytes()) || at(head, off, &m.to_be_bytes()) {
            add("cramfs superblock magic 0x28CD3D45", off as u64);
        }
    }
    for m in [0x137Fu16, 0x138F, 0x2468, 0x2478] {
        if at(head, 1040, &m.to_le_bytes()) || at(head, 1040, &m.to_be_bytes()) {
            add("minix superblock magic", 1040);
        }
    }
    if at(head, 1048, &0x4D5Au16.to_le_bytes()) || at(head, 1048, &0x4D5Au16.to_be_bytes()) {
        add("minix v3 superblock magic 0x4D5A", 1048);
    }
    if at(head, 0, &0x1BAD_FACEu32.to_le_bytes()) {
        add("bfs superblock magic 0x1BADFACE", 0);
    }
    for sb in [0usize, 8192, 65536, 262_144] {
        let off = sb + 1372;
        for (m, name) in [
            (0x0001_1954u32, "UFS1 superblock magic 0x011954"),
            (0x1954_0119u32, "UFS2 superblock magic 0x19540119"),
        ] {
            if at(head, off, &m.to_le_bytes()) || at(head, off, &m.to_be_bytes()) {
                add(name, off as u64);
            }
        }
    }
    for off in [512usize, 0, 64, 128, 1024] {
        let m = 0x8256_4557u32;
        if at(head, off, &m.to_le_bytes()) || at(head, off, &m.to_be_bytes()) {
            add("BSD disklabel magic 0x82564557", off as u64);
        }
    }
    for sector in [512usize, 4096] {
        if let Some(off) = tail.len().checked_sub(sector)
            && at(tail, off, b"GEOM::")
        {
            let class: String = tail[off + 6..]
                .iter()
                .take(16)
                .take_while(|b| b.is_ascii_alphanumeric())
                .map(|b| *b as char)
                .collect();
            let what = match class.as_str() {
                "ELI" => "GELI metadata \"GEOM::ELI\" in the last sector".to_string(),
                "MIRROR" => "gmirror metadata \"GEOM::MIRROR\" in the last sector".to_string(),
                c => format!("GEOM metadata \"GEOM::{c}\" in the last sector"),
            };
            add(&what, tail_start + off as u64);
        }
    }
    // md and ZFS superblocks sit at several places that depend on version, size and ashift:
    // scan every 512-byte boundary of both windows (a false alarm only refuses).
    let md = 0xa92b_4efcu32.to_le_bytes();
    let zfs_le = 0x00ba_b10cu64.to_le_bytes();
    let zfs_be = 0x00ba_b10cu64.to_be_bytes();
    for (buf, base) in [(head, 0u64), (tail, tail_start)] {
        for off in (0..buf.len()).step_by(512) {
            if at(buf, off, &md) {
                add("Linux md RAID superblock", base + off as u64);
            }
            if at(buf, off, &zfs_le) || at(buf, off, &zfs_be) {
                add("ZFS uberblock", base + off as u64);
            }
        }
    }
    out
}

/// Why a device may not be written, from what sysfs, the mount tables and the kernel say.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Occupancy {
    pub partitions: Vec<String>,
    pub holders: Vec<String>,
    pub mounts: Vec<String>,
    pub swaps: Vec<String>,
    /// The exclusive open was refused (Linux EBUSY; FreeBSD GEOM's EPERM): the errno's text.
    pub exclusive_refused: Option<String>,
    /// Other partitions of the same disk that are in use ("loop0p2 mounted on /mnt").
    pub siblings_in_use: Vec<String>,
    /// GEOM geoms above the provider (FreeBSD kern.geom.conftxt): "PART ada0p1".
    pub geom_consumers: Vec<String>,
}

impl Occupancy {
    /// Every reason, one phrase each. `allow_busy_siblings` drops the sibling reason only.
    pub fn reasons_with(&self, allow_busy_siblings: bool) -> Vec<String> {
        let mut r = Vec::new();
        if let Some(e) = &self.exclusive_refused {
            r.push(format!(
                "the kernel refused to open it exclusively ({e}): it is mounted (perhaps in \
                 another mount namespace), held by dm/md/LVM/swap, or opened exclusively by \
                 another program"
            ));
        }
        if !self.partitions.is_empty() {
            r.push(format!("it has partitions: {}", self.partitions.join(", ")));
        }
        if !self.holders.is_empty() {
            r.push(format!(
                "it is held by {} (dm, md, LVM or similar)",
                self.holders.join(", ")
            ));
        }
        if !self.mounts.is_empty() {
            r.push(format!("it is mounted on {}", self.mounts.join(", ")));
        }
        if !self.swaps.is_empty() {
            r.push("it is in use as swap".into());
        }
        if !self.geom_consumers.is_empty() {
            r.push(format!(
                "GEOM classes are attached to it: {}",
                self.geom_consumers.join(", ")
            ));
        }
        if !self.siblings_in_use.is_empty() && !allow_busy_siblings {
            r.push(format!(
                "another partition of the same disk is in use: {} (pass \
                 --allow-busy-siblings to write to this partition anyway)",
                self.siblings_in_use.join("; ")
            ));
        }
        r
    }

    pub fn reasons(&self) -> Vec<String> {
        self.reasons_with(false)
    }
}

/// Mount points in a mountinfo table whose device is `maj_min` (proc(5): field 3), or whose
/// mount source (the field after the fstype) is `dev_path` (btrfs and others report an
/// anonymous 0:N device number but name the block device as the source).
pub fn mounts_of_dev(mountinfo: &str, maj_min: &str, dev_path: &str) -> Vec<String> {
    diskdoc_core::sources::mountinfo::parse_mountinfo(mountinfo)
        .into_iter()
        .filter(|m| m.devno == maj_min || m.source == dev_path)
        .map(|m| m.mountpoint)
        .collect()
}

/// Mount points in /proc/self/mountinfo whose device is `maj:min` (proc(5): field 3).
pub fn mounts_of(mountinfo: &str, maj_min: &str) -> Vec<String> {
    mounts_of_dev(mountinfo, maj_min, "\0")
}

/// What `blkid -p -o export` found: the TYPE and PTTYPE values (superblocks and partition
/// tables). PART_ENTRY_* lines describe the parent's table entry of a partition, not data on
/// it, and are ignored. blkid(8): exit 0 = found, 2 = nothing found, 8 = ambivalent result.
pub fn blkid_findings(export: &str, exit_code: Option<i32>) -> Vec<String> {
    let mut out: Vec<String> = export
        .lines()
        .filter_map(|l| {
            let (k, v) = l.split_once('=')?;
            match k {
                "TYPE" => Some(format!("blkid -p reports a {v} signature")),
                "PTTYPE" => Some(format!("blkid -p reports a {v} partition table")),
                _ => None,
            }
        })
        .collect();
    if exit_code == Some(8) {
        out.push("blkid -p found several conflicting signatures (exit 8)".into());
    }
    out
}

/// FreeBSD kern.geom.conftxt: one line per geom, "<depth> <CLASS> <name> ...", children
/// indented by a larger depth right after their parent (sys/geom/geom_dump.c
/// g_conftxt_geom). The geoms stacked on provider `name`: "PART ada0p1".
pub fn geom_children(conftxt: &str, name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth: Option<u32> = None;
    for l in conftxt.lines() {
        let f: Vec<&str> = l.split_whitespace().collect();
        let (Some(d), Some(class), Some(n)) = (
            f.first().and_then(|d| d.parse::<u32>().ok()),
            f.get(1),
            f.get(2),
        ) else {
            continue;
        };
        match depth {
            None if *n == name => depth = Some(d),
            Some(base) if d > base => out.push(format!("{class} {n}")),
            Some(_) => {
                if *n == name {
                    continue;
                }
                depth = None;
            }
            None => {}
        }
    }
    out
}

/// The errno with which an exclusive open for writing says "in use": Linux EBUSY (open(2):
/// O_EXCL on a mounted or claimed block device); FreeBSD EPERM, which g_access()
/// (sys/geom/geom_subr.c) returns for a write open while another consumer holds an
/// exclusive count, and for an exclusive open while another one writes. Any other errno is a plain failure
/// (ENOENT, EACCES, ...), not a reason to read the occupancy. Both values are the same
/// numbers on both systems (EPERM 1, EBUSY 16), so this is decidable on Linux too.
pub fn in_use_errno(platform: diskdoc_core::evidence::Platform, errno: i32) -> bool {
    use diskdoc_core::evidence::Platform;
    match platform {
        Platform::Freebsd => errno == libc::EPERM,
        _ => errno == libc::EBUSY,
    }
}

/// FreeBSD: who uses GEOM provider `name` ("da0s1a"), decided from the kernel's own graph,
/// so the decision is testable on captured text. From kern.geom.confxml (geom(4);
/// sys/geom/geom_dump.c g_conf_consumer/g_conf_provider print each consumer's and
/// provider's `<mode>rNwNeN</mode>`):
/// - every consumer of the provider other than a DEV geom (the /dev node diskdoc itself
///   opened) is a reason: PART (a partition table), LABEL, ELI, MIRROR, VFS (a mounted
///   filesystem), SWAP... even at r0w0e0, since a class only attaches to what it recognised;
///   SWAP holds its provider r1w1e0 without an exclusive count, and g_access() refuses a
///   write only while another consumer has one, so the write open would succeed and only
///   this check refuses it;
/// - for a partition, every other provider of the same PART geom, and of each PART geom
///   above it (a BSD label inside an MBR slice), whose mode is not r0w0e0 is a busy sibling.
///
/// Without confxml the older, mode-less kern.geom.conftxt still names the geoms stacked on
/// the provider ([`geom_children`]).
pub fn freebsd_occupancy(confxml: Option<&str>, conftxt: Option<&str>, name: &str) -> Occupancy {
    use diskdoc_core::sources::confxml;
    let name = name.trim_start_matches("/dev/");
    let mut o = Occupancy::default();
    let mesh = confxml.map(confxml::parse).filter(|m| !m.geoms.is_empty());
    let Some(mesh) = mesh else {
        o.geom_consumers = conftxt.map(|c| geom_children(c, name)).unwrap_or_default();
        return o;
    };
    let users = |id: &str| -> Vec<String> {
        mesh.geoms
            .iter()
            .filter(|g| g.class != "DEV")
            .flat_map(|g| {
                g.consumers
                    .iter()
                    .filter(move |c| c.provider == id)
                    .map(move |c| match c.mode {
                        Some(m) => format!("{} {} ({m})", g.class, g.name),
                        None => format!("{} {}", g.class, g.name),
                    })
            })
            .collect()
    };
    // The geom that offers a provider, and the provider itself.
    let owner = |pname: &str| {
        mesh.geoms
            .iter()
            .find_map(|g| g.providers.iter().find(|p| p.name == pname).map(|p| (g, p)))
    };
    let Some((geom, prov)) = owner(name) else {
        return o;
    };
    o.geom_consumers = users(&prov.id);
    let (mut geom, mut prov) = (geom, prov);
    // Up the partition stack: da0s1a's siblings in the BSD label da0s1, then da0s1's in the
    // MBR of da0. A DISK (or any other class) ends the walk. The depth bound only guards
    // against a malformed graph that loops.
    for _ in 0..8 {
        if geom.class != "PART" {
            break;
        }
        for q in geom.providers.iter().filter(|q| q.id != prov.id) {
            if let Some(m) = q.mode.filter(|m| !m.idle()) {
                let by = users(&q.id);
                let by = if by.is_empty() {
                    String::new()
                } else {
                    format!(" by {}", by.join(", "))
                };
                o.siblings_in_use.push(format!("{} open {m}{by}", q.name));
            }
        }
        let Some(parent) = geom.consumes.first().and_then(|id| mesh.provider_by_id(id)) else {
            break;
        };
        let Some((pg, pp)) = owner(&parent.name) else {
            break;
        };
        (geom, prov) = (pg, pp);
    }
    o
}

/// The person must type the device path exactly, after the question; anything else (a
/// paste, a blank line, another path, or no terminal) refuses. `read` gives the answer
/// (crate::os::tty::AnswerReader on the terminal: it discards what was pending when the
/// question appeared and recognises a paste).
pub fn confirm(
    device: &str,
    is_tty: bool,
    read: &mut dyn FnMut() -> std::io::Result<Typed>,
    prompt: &mut dyn std::io::Write,
) -> Result<(), String> {
    if !is_tty {
        return Err(format!(
            "refusing the destructive write test on {device}: standard input is not a terminal, \
             and the test needs you to type the device path"
        ));
    }
    let _ = write!(
        prompt,
        "This ERASES data on {device}: it writes random data over the start of the device.\n\
         Type the device path ({device}) to continue, anything else to cancel: "
    );
    let _ = prompt.flush();
    let typed = read().map_err(|e| format!("could not read your answer: {e}"))?;
    let _ = writeln!(prompt);
    match typed {
        Typed::Line(line) if line == device => Ok(()),
        Typed::Line(line) => Err(format!(
            "cancelled: you typed {:?}, not {device:?}",
            line.trim_end()
        )),
        Typed::Pasted => Err(format!(
            "cancelled: the answer was pasted, and only a typed path is consent to erase \
             {device}; run again and type it"
        )),
        Typed::Interrupted | Typed::Closed => Err("cancelled: no answer".to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIB: usize = 1 << 20;

    fn image() -> (Vec<u8>, Vec<u8>) {
        (vec![0u8; MIB], vec![0u8; MIB])
    }

    fn whats(h: &[u8], t: &[u8]) -> Vec<String> {
        find_signatures(h, t, 100 * MIB as u64)
            .into_iter()
            .map(|s| s.what)
            .collect()
    }

    #[test]
    fn blank_device_has_no_signature() {
        let (h, t) = image();
        assert!(find_signatures(&h, &t, 100 * MIB as u64).is_empty());
        // Random-looking data without magic at the checked places is blank too.
        let mut h = vec![0u8; MIB];
        let mut s = 7;
        crate::bench::random::fill_random(&mut h, &mut s);
        for off in (0..MIB).step_by(512) {
            // Scrub accidental md/ZFS words (1 in 2^32 per place) to keep the test exact.
            if h[off..off + 4] == 0xa92b_4efcu32.to_le_bytes() {
                h[off] = 0;
            }
        }
        h[510] = 0;
        assert!(whats(&h, &t).is_empty());
    }

    #[test]
    fn each_signature_is_found_at_its_place() {
        let cases: Vec<(&str, usize, &[u8], bool)> = vec![
            ("MBR", 510, &[0x55, 0xaa], true),
            ("GPT header", 512, b"EFI PART", true),
            ("backup GPT", MIB - 512, b"EFI PART", false),
            ("ext2/3/4", 1080, &[0x53, 0xef], true),
            ("XFS", 0, b"XFSB", true),
            ("LUKS header", 0, b"LUKS\xba\xbe", true),
            ("LVM2", 512, b"LABELONE", true),
            ("md", 4096, &[0xfc, 0x4e, 0x2b, 0xa9], true),
            ("md", MIB - 8192, &[0xfc, 0x4e, 0x2b, 0xa9], false),
            ("ZFS", 128 * 1024, &[0x0c, 0xb1, 0xba, 0, 0, 0, 0, 0], true),
            (
                "ZFS",
                MIB - 256 * 1024 + 1024,
                &[0, 0, 0, 0, 0, 0xba, 0xb1, 0x0c],
                false,
            ),
            ("btrfs", 65600, b"_BHRfS_M", true),
            ("swap", 4086, b"SWAPSPACE2", true),
            ("f2fs", 1024, &[0x10, 0x20, 0xf5, 0xf2], true),
            ("erofs", 1024, &[0xe2, 0xe1, 0xf5, 0xe0], true),
            ("squashfs", 0, b"hsqs", true),
            ("squashfs", 0, b"sqsh", true),
            ("cramfs", 0, &[0x45, 0x3d, 0xcd, 0x28], true),
            ("cramfs", 512, &[0x28, 0xcd, 0x3d, 0x45], true),
            ("minix", 1040, &[0x7f, 0x13], true),
            ("minix", 1040, &[0x24, 0x78], true),
            ("minix v3", 1048, &[0x5a, 0x4d], true),
            ("bfs", 0, &[0xce, 0xfa, 0xad, 0x1b], true),
            ("UFS1", 8192 + 1372, &[0x54, 0x19, 0x01, 0x00], true),
            ("UFS1", 1372, &[0x00, 0x01, 0x19, 0x54], true),
            ("UFS2", 65536 + 1372, &[0x19, 0x01, 0x54, 0x19], true),
            ("UFS2", 262_144 + 1372, &[0x19, 0x54, 0x01, 0x19], true),
            ("BSD disklabel", 512, &[0x57, 0x45, 0x56, 0x82], true),
            ("BSD disklabel", 64, &[0x82, 0x56, 0x45, 0x57], true),
            ("GELI", MIB - 512, b"GEOM::ELI\0", false),
            ("gmirror", MIB - 512, b"GEOM::MIRROR\0", false),
            ("GEOM", MIB - 4096, b"GEOM::RAID3\0", false),
        ];
        for (name, off, magic, in_head) in cases {
            let (mut h, mut t) = image();
            let buf = if in_head { &mut h } else { &mut t };
            buf[off..off + magic.len()].copy_from_slice(magic);
            let found = whats(&h, &t);
            assert_eq!(found.len(), 1, "{name}: {found:?}");
            assert!(
                found[0].contains(name.split(' ').next().unwrap()),
                "{name}: {found:?}"
            );
        }
        // Other GEOM classes are named by their magic.
        let (h, mut t) = image();
        t[MIB - 512..MIB - 500].copy_from_slice(b"GEOM::STRIPE");
        assert_eq!(
            whats(&h, &t),
            vec!["GEOM metadata \"GEOM::STRIPE\" in the last sector".to_string()]
        );
        // The reported offset is absolute on the device.
        let (h, mut t) = image();
        t[MIB - 512..MIB - 504].copy_from_slice(b"EFI PART");
        let s = find_signatures(&h, &t, 10 * MIB as u64);
        assert_eq!(s[0].offset, 10 * MIB as u64 - 512);
        // Truncated windows do not panic.
        assert!(find_signatures(&[0x55], &[], 1).is_empty());
    }

    #[test]
    fn mountinfo_and_occupancy() {
        let mi = "36 35 98:0 /mnt1 /mnt/a rw,noatime master:1 - ext3 /dev/root rw\n\
                  37 35 7:3 / /srv/x rw - ext4 /dev/loop3 rw\ngarbage\n";
        assert_eq!(mounts_of(mi, "7:3"), vec!["/srv/x".to_string()]);
        assert!(mounts_of(mi, "7:4").is_empty());
        let o = Occupancy {
            holders: vec!["dm-0".into()],
            ..Default::default()
        };
        assert_eq!(
            o.reasons(),
            vec!["it is held by dm-0 (dm, md, LVM or similar)".to_string()]
        );
        assert!(Occupancy::default().reasons().is_empty());
        let o = Occupancy {
            siblings_in_use: vec!["loop0p2 mounted on /mnt".into()],
            ..Default::default()
        };
        assert!(o.reasons()[0].contains("loop0p2 mounted on /mnt"), "{o:?}");
        assert!(o.reasons_with(true).is_empty());
        // btrfs: anonymous device number, but the source names the device.
        let mi = "40 22 0:35 / /data rw - btrfs /dev/loop5 rw\n";
        assert_eq!(mounts_of_dev(mi, "7:5", "/dev/loop5"), vec!["/data"]);
        assert!(mounts_of_dev(mi, "7:5", "/dev/loop6").is_empty());
    }

    #[test]
    fn blkid_export_and_geom_conftxt() {
        let out = "DEVNAME=/proc/1/fd/3\nUUID=x\nTYPE=squashfs\nPART_ENTRY_SCHEME=gpt\n";
        assert_eq!(
            blkid_findings(out, Some(0)),
            vec!["blkid -p reports a squashfs signature".to_string()]
        );
        assert!(blkid_findings("PART_ENTRY_SCHEME=gpt\n", Some(0)).is_empty());
        assert!(blkid_findings("", Some(2)).is_empty());
        assert_eq!(blkid_findings("", Some(8)).len(), 1);
        let conf = "0 DISK ada0 21474836480 512 hd 16 sc 63\n\
                    1 PART ada0p1 524288 512 i 1 o 20480 ty freebsd-boot\n\
                    1 PART ada0p2 21473787904 512 i 2 o 544768 ty freebsd-ufs\n\
                    2 LABEL gpt/root 21473787904 512 i 0 o 0\n\
                    0 DISK ada1 21474836480 512 hd 16 sc 63\n";
        assert_eq!(
            geom_children(conf, "ada0"),
            vec!["PART ada0p1", "PART ada0p2", "LABEL gpt/root"]
        );
        assert_eq!(geom_children(conf, "ada0p2"), vec!["LABEL gpt/root"]);
        assert!(geom_children(conf, "ada1").is_empty());
        assert!(geom_children("garbage\n", "ada0").is_empty());
    }

    /// kern.geom.confxml and kern.geom.conftxt from a real FreeBSD 12.1 VMware guest: da0
    /// with an MBR slice da0s1 holding a BSD label (da0s1a UFS mounted on /, da0s1b swap),
    /// cd0 with the install DVD (tests/fixtures/INDEX.md: jc's freebsd12/sysctl-a.out).
    fn fbsd12_graph() -> (String, String) {
        let p = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/fixtures/freebsd/sysctl/a-fbsd12-vmware-full-with-multiline-xml-values.txt"
        );
        let all = std::fs::read_to_string(p).unwrap();
        let xml_at = all.find("kern.geom.confxml: ").unwrap() + "kern.geom.confxml: ".len();
        let xml_end = xml_at + all[xml_at..].find("</mesh>").unwrap() + "</mesh>".len();
        let txt_at = all.find("kern.geom.conftxt: ").unwrap() + "kern.geom.conftxt: ".len();
        let txt_end = txt_at + all[txt_at..].find("\n\n").unwrap();
        (
            all[xml_at..xml_end].to_string(),
            all[txt_at..txt_end].to_string(),
        )
    }

    #[test]
    fn the_in_use_errno_is_the_platforms_own() {
        use diskdoc_core::evidence::Platform;
        assert!(in_use_errno(Platform::Freebsd, libc::EPERM));
        assert!(!in_use_errno(Platform::Freebsd, libc::EBUSY));
        assert!(in_use_errno(Platform::Linux, libc::EBUSY));
        assert!(!in_use_errno(Platform::Linux, libc::EPERM));
        assert!(!in_use_errno(Platform::Linux, libc::EACCES));
    }

    #[test]
    fn freebsd_guard_decisions_on_a_real_geom_graph() {
        let (xml, txt) = fbsd12_graph();
        let occ = |n: &str| freebsd_occupancy(Some(&xml), Some(&txt), n);
        // The mounted root filesystem: VFS holds it exclusively; swap is its busy sibling.
        let o = occ("/dev/da0s1a");
        assert_eq!(o.geom_consumers, vec!["VFS ffs.da0s1a (r1w1e1)"]);
        assert_eq!(
            o.siblings_in_use,
            vec!["da0s1b open r1w1e0 by SWAP swap (r1w1e0)"]
        );
        // Swap has no exclusive count (g_access would let the write open succeed): only
        // the graph refuses it.
        let o = occ("da0s1b");
        assert_eq!(o.geom_consumers, vec!["SWAP swap (r1w1e0)"]);
        assert_eq!(
            o.siblings_in_use,
            vec!["da0s1a open r1w1e1 by VFS ffs.da0s1a (r1w1e1)"]
        );
        assert!(o.reasons()[0].contains("SWAP swap"), "{:?}", o.reasons());
        // The slice carries the BSD label (a PART geom of the same name), the disk the MBR.
        assert_eq!(occ("da0s1").geom_consumers, vec!["PART da0s1 (r2w2e3)"]);
        assert_eq!(occ("da0").geom_consumers, vec!["PART da0 (r2w2e5)"]);
        // cd0 was tasted by LABEL (the ISO's volume label): data, although nobody opened it.
        assert!(
            occ("cd0")
                .geom_consumers
                .iter()
                .any(|c| c == "LABEL cd0 (r0w0e0)"),
            "{:?}",
            occ("cd0")
        );
        // The DVD is a hybrid ISO: PART found its MBR (scheme MBR, state OK) on the label's
        // provider too, so that provider is refused for its partition table.
        assert_eq!(
            occ("iso9660/12_1_RELEASE_AMD64_DVD").geom_consumers,
            vec!["PART iso9660/12_1_RELEASE_AMD64_DVD (r0w0e0)"]
        );
        // A provider the graph does not know: no GEOM reason (the open decides).
        assert_eq!(occ("ada7"), Occupancy::default());
        // Without confxml the real conftxt still names the stacked geoms.
        assert_eq!(
            freebsd_occupancy(None, Some(&txt), "da0").geom_consumers,
            vec!["PART da0s1", "PART da0s1b", "PART da0s1a"]
        );
        assert_eq!(
            freebsd_occupancy(Some("not xml"), Some(&txt), "da0s1").geom_consumers,
            vec!["PART da0s1b", "PART da0s1a"]
        );
        assert_eq!(freebsd_occupancy(None, None, "da0"), Occupancy::default());
    }

    #[test]
    fn confirmation_needs_a_tty_and_the_exact_path_typed() {
        let mut out = Vec::new();
        let ask = |device: &str, tty: bool, t: Typed, out: &mut Vec<u8>| {
            confirm(device, tty, &mut || Ok(t.clone()), out)
        };
        let path = || Typed::Line("/dev/loop7".into());
        let e = ask("/dev/loop7", false, path(), &mut out).unwrap_err();
        assert!(e.contains("not a terminal"), "{e}");
        assert!(ask("/dev/loop7", true, path(), &mut out).is_ok());
        for no in [
            Typed::Line("yes".into()),
            Typed::Line("/dev/loop7 ".into()),
            Typed::Line(String::new()),
            Typed::Interrupted,
            Typed::Closed,
        ] {
            assert!(
                ask("/dev/loop7", true, no.clone(), &mut out).is_err(),
                "{no:?}"
            );
        }
        // The exact path, pasted, is no consent.
        let e = ask("/dev/loop7", true, Typed::Pasted, &mut out).unwrap_err();
        assert!(e.contains("pasted") && e.contains("type it"), "{e}");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

        /// Device bytes, tool output and kernel tables are untrusted: the guards never panic,
        /// whatever they read (short windows, sizes smaller than the windows, garbage text).
        #[test]
        fn guards_never_panic_on_untrusted_input(
            head in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..70_000),
            tail in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..9000),
            size in proptest::prelude::any::<u64>(),
            text in ".{0,400}",
            code in proptest::option::of(proptest::prelude::any::<i32>()),
        ) {
            let _ = find_signatures(&head, &tail, size);
            let _ = blkid_findings(&text, code);
            let _ = geom_children(&text, "ada0");
            let _ = mounts_of_dev(&text, "7:0", "/dev/loop0");
            let _ = freebsd_occupancy(Some(&text), Some(&text), "ada0");
        }

        /// A GEOM magic anywhere but the start of the last sector is not metadata; at the
        /// start of the last 512 bytes it always is, whatever follows.
        #[test]
        fn geom_magic_in_the_last_sector_is_always_found(
            rest in proptest::collection::vec(proptest::prelude::any::<u8>(), 506),
        ) {
            let mut tail = vec![0u8; 4096];
            tail[4096 - 512..4096 - 506].copy_from_slice(b"GEOM::");
            tail[4096 - 506..].copy_from_slice(&rest);
            let found = find_signatures(&[], &tail, 1 << 30);
            proptest::prop_assert!(found.iter().any(|s| s.what.contains("GEOM::")));
        }
    }
}
