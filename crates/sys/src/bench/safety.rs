//! Guards for the destructive raw-device write test: refuse any device that holds data
//! (partition table, filesystem, RAID/LVM/LUKS/ZFS/swap signature), is mounted or held, and
//! ask the person to type the exact device path on a terminal.
//!
//! The signature table itself is pure and lives in `diskdoc_core::safety::signatures`;
//! the blank check (`diskdoc_core::safety::blank`) and the loop-device chain
//! (`diskdoc_core::safety::loops`) are decided there too, from what this crate reads.

use super::error::MeasureError;
use crate::os::tty::Typed;

pub use diskdoc_core::safety::signatures::{Signature, find_signatures};

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
    /// Loop devices that share its bytes, or a device under it that is in use (Linux).
    pub loops: Vec<String>,
    /// FreeBSD: the provider is open by someone other than diskdoc (its GEOM access counts,
    /// /dev opens included).
    pub open_by_others: Option<String>,
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
        r.extend(self.loops.iter().cloned());
        if let Some(o) = &self.open_by_others {
            r.push(o.clone());
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

/// FreeBSD: is provider `name` open by anyone but diskdoc? From its access counts in
/// kern.geom.confxml (`<mode>rNwNeN</mode>` of the provider: the sums over all its
/// consumers, sys/geom/geom_dump.c g_conf_provider). Opens through /dev/NAME count there
/// too, as the DEV geom's consumer (sys/geom/geom_dev.c g_dev_open: r and w from FREAD and
/// FWRITE, e never, O_EXCL being "notyet"), so a bhyve guest, a ctld LUN or a running dd
/// shows although no class is attached. `own` is what diskdoc's own open accounts for:
/// r0w0e0 before it opens the device, r1w1e0 while it holds it read-write. A provider the
/// graph does not list, or without counts, gives no reason (the open decides).
pub fn freebsd_open_by_others(
    confxml: &str,
    name: &str,
    own: diskdoc_core::sources::confxml::Access,
) -> Option<String> {
    use diskdoc_core::sources::confxml;
    let name = name.trim_start_matches("/dev/");
    let mesh = confxml::parse(confxml);
    let prov = mesh
        .geoms
        .iter()
        .flat_map(|g| g.providers.iter())
        .find(|p| p.name == name)?;
    let mode = prov.mode?;
    if mode.r <= own.r && mode.w <= own.w && mode.e <= own.e {
        return None;
    }
    let by: Vec<String> = mesh
        .geoms
        .iter()
        .flat_map(|g| {
            g.consumers
                .iter()
                .filter(|c| c.provider == prov.id)
                .filter_map(move |c| {
                    let m = c.mode.filter(|m| !m.idle())?;
                    Some(if g.class == "DEV" {
                        format!("/dev/{} ({m})", g.name)
                    } else {
                        format!("{} {} ({m})", g.class, g.name)
                    })
                })
        })
        .collect();
    let mine = if own.idle() {
        String::new()
    } else {
        format!(", of which diskdoc's own open is {own}")
    };
    let by = if by.is_empty() {
        String::new()
    } else {
        format!(" through {}", by.join(", "))
    };
    Some(format!(
        "another program has it open: GEOM access counts {mode}{mine}{by} (a virtual \
         machine, an iSCSI target, a running dd ...; find it with `fstat /dev/{name}`)"
    ))
}

/// The person must type the device path exactly, after the question; anything else (a
/// paste, a blank line, another path, or no terminal) refuses. `read` gives the answer
/// (crate::os::tty::AnswerReader on the terminal, which recognises a paste; the caller
/// discards what was pending before the question is shown).
pub fn confirm(
    device: &str,
    is_tty: bool,
    read: &mut dyn FnMut() -> std::io::Result<Typed>,
    prompt: &mut dyn std::io::Write,
) -> Result<(), MeasureError> {
    if !is_tty {
        return Err(MeasureError::NoTerminal {
            device: device.to_string(),
        });
    }
    let _ = write!(
        prompt,
        "This ERASES data on {device}: it writes random data over the start of the device.\n\
         Type the device path ({device}) to continue, anything else to cancel: "
    );
    let _ = prompt.flush();
    let typed = read().map_err(MeasureError::Answer)?;
    let _ = writeln!(prompt);
    match typed {
        Typed::Line(line) if line == device => Ok(()),
        Typed::Line(line) => Err(MeasureError::Mistyped {
            device: device.to_string(),
            typed: line.trim_end().to_string(),
        }),
        Typed::Pasted => Err(MeasureError::Pasted {
            device: device.to_string(),
        }),
        Typed::Interrupted | Typed::Closed => Err(MeasureError::NoAnswer),
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

    /// The same real graph with cd0 opened read-only through /dev/cd0 (the DEV geom's
    /// consumer and the provider both at r1w0e0), as `dd if=/dev/cd0` leaves it.
    #[test]
    fn freebsd_opens_through_the_dev_node_are_seen_in_the_access_counts() {
        use diskdoc_core::sources::confxml::Access;
        let (xml, _) = fbsd12_graph();
        let idle = Access::default();
        let ours = Access { r: 1, w: 1, e: 0 };
        // Nobody has cd0 open: not refused, before or while diskdoc holds it.
        assert_eq!(freebsd_open_by_others(&xml, "cd0", idle), None);
        // The mounted root is open r1w1e1 by VFS.
        let r = freebsd_open_by_others(&xml, "/dev/da0s1a", idle).unwrap();
        assert!(r.contains("r1w1e1") && r.contains("VFS ffs.da0s1a"), "{r}");
        // A reader through /dev/cd0: the DEV consumer carries the count.
        let dev_geom = xml.find("<name>cd0</name>\n      <rank>").unwrap();
        let mut opened = xml.clone();
        let cmode = dev_geom + xml[dev_geom..].find("<mode>r0w0e0</mode>").unwrap();
        opened.replace_range(cmode..cmode + 19, "<mode>r1w0e0</mode>");
        let prov = opened
            .find("<geom ref=\"0xfffff80003a14400\"/>\n\t  <mode>")
            .unwrap();
        let pmode = prov + opened[prov..].find("<mode>").unwrap();
        opened.replace_range(pmode..pmode + 19, "<mode>r1w0e0</mode>");
        let r = freebsd_open_by_others(&opened, "cd0", idle).unwrap();
        assert!(r.contains("GEOM access counts r1w0e0"), "{r}");
        assert!(r.contains("through /dev/cd0 (r1w0e0)"), "{r}");
        // Once diskdoc holds it r1w1e0, a reader on top is still someone else.
        let both = opened.replace(
            "<mode>r1w0e0</mode>\n\t  <name>cd0</name>",
            "<mode>r2w1e0</mode>\n\t  <name>cd0</name>",
        );
        let r = freebsd_open_by_others(&both, "cd0", ours).unwrap();
        assert!(
            r.contains("r2w1e0, of which diskdoc's own open is r1w1e0"),
            "{r}"
        );
        // diskdoc alone: exactly its own counts.
        let alone = opened.replace(
            "<mode>r1w0e0</mode>\n\t  <name>cd0</name>",
            "<mode>r1w1e0</mode>\n\t  <name>cd0</name>",
        );
        assert_eq!(freebsd_open_by_others(&alone, "cd0", ours), None);
        // Unknown providers and garbage give no reason.
        assert_eq!(freebsd_open_by_others(&xml, "ada9", idle), None);
        assert_eq!(freebsd_open_by_others("not xml", "cd0", idle), None);
    }

    #[test]
    fn confirmation_needs_a_tty_and_the_exact_path_typed() {
        let mut out = Vec::new();
        let ask = |device: &str, tty: bool, t: Typed, out: &mut Vec<u8>| {
            confirm(device, tty, &mut || Ok(t.clone()), out)
        };
        let path = || Typed::Line("/dev/loop7".into());
        let e = ask("/dev/loop7", false, path(), &mut out)
            .unwrap_err()
            .to_string();
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
        let e = ask("/dev/loop7", true, Typed::Pasted, &mut out)
            .unwrap_err()
            .to_string();
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
            let _ = freebsd_open_by_others(&text, "ada0", Default::default());
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
