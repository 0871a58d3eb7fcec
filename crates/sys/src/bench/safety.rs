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

use std::io::BufRead;

/// One signature found, with where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signature {
    pub what: &'static str,
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
    let mut add = |what: &'static str, offset: u64| {
        if !out.iter().any(|s: &Signature| s.what == what) {
            out.push(Signature { what, offset });
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

/// Why a device may not be written, from what sysfs and the mount table say.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Occupancy {
    pub partitions: Vec<String>,
    pub holders: Vec<String>,
    pub mounts: Vec<String>,
    pub swaps: Vec<String>,
}

impl Occupancy {
    pub fn reasons(&self) -> Vec<String> {
        let mut r = Vec::new();
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
        r
    }
}

/// Mount points in /proc/self/mountinfo whose device is `maj:min` (proc(5): field 3).
pub fn mounts_of(mountinfo: &str, maj_min: &str) -> Vec<String> {
    mountinfo
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            match (f.get(2), f.get(4)) {
                (Some(mm), Some(mp)) if *mm == maj_min => Some(mp.to_string()),
                _ => None,
            }
        })
        .collect()
}

/// The person must type the device path exactly; anything else (or no terminal) refuses.
pub fn confirm(
    device: &str,
    is_tty: bool,
    input: &mut dyn BufRead,
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
    let mut line = String::new();
    input
        .read_line(&mut line)
        .map_err(|e| format!("could not read your answer: {e}"))?;
    if line.trim_end_matches(['\n', '\r']) == device {
        Ok(())
    } else {
        Err(format!(
            "cancelled: you typed {:?}, not {device:?}",
            line.trim_end()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIB: usize = 1 << 20;

    fn image() -> (Vec<u8>, Vec<u8>) {
        (vec![0u8; MIB], vec![0u8; MIB])
    }

    fn whats(h: &[u8], t: &[u8]) -> Vec<&'static str> {
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
    }

    #[test]
    fn confirmation_needs_a_tty_and_the_exact_path() {
        let mut out = Vec::new();
        let e = confirm("/dev/loop7", false, &mut &b"/dev/loop7\n"[..], &mut out).unwrap_err();
        assert!(e.contains("not a terminal"), "{e}");
        assert!(confirm("/dev/loop7", true, &mut &b"/dev/loop7\n"[..], &mut out).is_ok());
        assert!(confirm("/dev/loop7", true, &mut &b"yes\n"[..], &mut out).is_err());
        assert!(confirm("/dev/loop7", true, &mut &b"/dev/loop7 \n"[..], &mut out).is_err());
        assert!(confirm("/dev/loop7", true, &mut &b""[..], &mut out).is_err());
    }
}
