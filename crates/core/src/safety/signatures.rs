//! Data signatures at the start and end of a block device: the table the destructive
//! raw-device write test refuses by, and that the blank check uses to say what a non-blank
//! region looks like. Pure; every decision is tested on synthetic images.
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
//! More, each from the format's own header or libblkid's probe table (util-linux
//! libblkid/src/superblocks/*.c, whose `kboff`/`sboff` give the same places):
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
