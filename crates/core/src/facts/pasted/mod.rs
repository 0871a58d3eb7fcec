//! Facts from pasted text (`diskdoc explain`): what the recognised outputs, command lines
//! and sentences of a paste prove beyond the bundle keys `facts::derive` reads, with each
//! fact's source the pasted block or line. The live path's facts come from sysfs, GEOM
//! and the FreeBSD tools' captures; a paste often has only a smartctl report or a kernel
//! log, so these derivations read the same source parsers (crate::sources) into the same
//! fact fields. Split by topic: linux_text (smartctl, hdparm, lsblk, fdisk, cryptsetup,
//! kernel logs), prose (sentences and typed sysfs reads), zpool (block-size notes),
//! device_state (PCIe links, NVMe logs, md arrays, busy, APM).

mod device_state;
mod linux_text;
mod prose;
mod zpool;

pub use device_state::LINK_FILES;

use super::device_names::whole_disk;
use crate::evidence::Platform;
use crate::model::{DiskFacts, Fact, Layer, LayerKind, Mount, SystemFacts};
use crate::pasted::Pasted;
use crate::sources;

/// Add what the paste proves to `sys` (the facts `facts::derive` made of the bundle the
/// paste was assembled into), each fact's source the pasted block (`Block::key`) or line.
/// The order matters: a fact set by an earlier step is kept by the later ones.
pub fn derive(sys: &mut SystemFacts, p: &Pasted) {
    prose::geli_in_prose(sys, p);
    zpool::block_sizes(sys, p);
    zpool::vdev_rows(sys, p);
    prose::usb_bridge_lines(sys, p.lines);
    prose::sysfs_answers(sys, p);
    // The text parsers of smartctl, hdparm, fdisk, lsblk and kernel logs also serve a
    // paste whose OS is unknown (a bare smartctl report says nothing of it).
    if sys.platform != Platform::Freebsd {
        linux_text::derive(sys, p);
    }
    device_state::derive(sys, p);
    df_listing(sys, p);
    discard_refusals(sys, p);
    if sys.platform == Platform::Unknown && sys.disks.is_empty() {
        sys.os_name = Fact::unknown("the pasted text does not say which OS it came from");
    }
}

// The kernel's and util-linux's words for a discard that cannot reach the device: ext4
// (fs/ext4/super.c, "mounting with \"discard\" option, but the device does not support
// discard"), fstrim(8) ("%s: the discard operation is not supported", FITRIM returned
// EOPNOTSUPP) and blkdiscard(8) ("%s: BLKDISCARD ioctl failed: Operation not supported").
crate::rx!(
    EXT4_NO_DISCARD,
    r#"EXT4-fs \(([\w.-]+)\): mounting with "discard" option, but the device does not support discard"#
);
crate::rx!(
    FSTRIM_NO_DISCARD,
    r"fstrim: (\S+): the discard operation is not supported"
);
crate::rx!(
    BLKDISCARD_NO_DISCARD,
    r"blkdiscard: (/dev/\S+): BLKDISCARD ioctl failed: Operation not supported"
);

/// Discards the paste shows refused ([`crate::model::TrimFacts::discard_refused`]): on the
/// disk a line names, else (fstrim names a mount point) on the disk mounted there, else on
/// every disk of the paste whose discard limit is known to be 0 (`lsblk -D`).
fn discard_refusals(sys: &mut SystemFacts, p: &Pasted) {
    for l in p.lines {
        let t = l.text.as_str();
        if !t.contains("discard") && !t.contains("DISCARD") {
            continue;
        }
        let from = format!("pasted:line {}", l.first);
        let line = t.trim().to_string();
        let dev = EXT4_NO_DISCARD
            .captures(t)
            .or_else(|| BLKDISCARD_NO_DISCARD.captures(t))
            .and_then(|c| c.get(1))
            .map(|m| m.as_str().trim_start_matches("/dev/").to_string());
        let mountpoint = FSTRIM_NO_DISCARD
            .captures(t)
            .and_then(|c| c.get(1))
            .map(|m| m.as_str().to_string());
        let targets: Vec<String> = if let Some(dev) = dev {
            let w = whole_disk(&dev);
            vec![if w.is_empty() { dev } else { w }]
        } else if let Some(mp) = mountpoint {
            let mounted: Vec<String> = sys
                .disks
                .iter()
                .filter(|d| d.mounts.iter().any(|m| m.mountpoint == mp))
                .map(|d| d.name.clone())
                .collect();
            if mounted.is_empty() {
                sys.disks
                    .iter()
                    .filter(|d| d.trim.discard_max_bytes.get() == Some(0))
                    .map(|d| d.name.clone())
                    .collect()
            } else {
                mounted
            }
        } else {
            continue;
        };
        for name in targets {
            let note = format!("known only from a pasted line ({from})");
            if let Some(d) = pasted_disk(sys, &name, &note)
                && !d.trim.discard_refused.is_known()
            {
                d.trim.discard_refused = Fact::known(line.clone(), from.clone());
            }
        }
    }
}

/// GELI providers and mounts in a pasted `df` listing (seed 000's /dev/ad4s1g.eli).
fn df_listing(sys: &mut SystemFacts, p: &Pasted) {
    for b in p.blocks.iter().filter(|b| b.tool.is(&sources::df::SPEC)) {
        let key = b.key.clone();
        for l in b.text.lines() {
            let w: Vec<&str> = l.split_whitespace().collect();
            let (Some(dev), Some(mp)) = (w.first(), w.last()) else {
                continue;
            };
            let Some(name) = dev.strip_prefix("/dev/") else {
                continue;
            };
            let disk = whole_disk(name);
            if disk.is_empty() {
                continue;
            }
            let note = format!("known only from the pasted df listing ({key})");
            let Some(d) = pasted_disk(sys, &disk, &note) else {
                continue;
            };
            if let Some(base) = name.strip_suffix(".eli")
                && !d.layers.iter().any(|l| l.name == name)
            {
                d.layers.push(Layer {
                    kind: Some(LayerKind::Geli),
                    name: name.to_string(),
                    on: vec![base.to_string()],
                    from: vec![key.clone()],
                    ..Default::default()
                });
            }
            if !d.mounts.iter().any(|m| m.mountpoint == *mp) {
                d.mounts.push(Mount {
                    source: dev.to_string(),
                    mountpoint: mp.to_string(),
                    fstype: String::new(),
                    options: String::new(),
                    compression: None,
                });
            }
        }
    }
}

/// The disk named `disk`, made (with `note`) when the facts have none yet.
fn pasted_disk<'a>(sys: &'a mut SystemFacts, disk: &str, note: &str) -> Option<&'a mut DiskFacts> {
    if !sys.disks.iter().any(|d| d.name == disk) {
        let mut d = DiskFacts::new(disk, &format!("/dev/{disk}"));
        d.notes.push(note.to_string());
        sys.disks.push(d);
    }
    sys.disks.iter_mut().find(|d| d.name == disk)
}

/// The disk a device name (partition, provider, node) is on, made when the facts have
/// none yet.
fn disk_mut<'a>(sys: &'a mut SystemFacts, name: &str) -> Option<&'a mut DiskFacts> {
    let name = name.trim_start_matches("/dev/");
    let disk = match whole_disk(name) {
        w if w.is_empty() => name.to_string(),
        w => w,
    };
    pasted_disk(sys, &disk, "known only from pasted text")
}

/// Fill `f` with `v` unless a source already gave it.
fn set_if_unknown<T>(f: &mut Fact<T>, v: Option<T>, from: &str) {
    if let (false, Some(v)) = (f.is_known(), v) {
        *f = Fact::known(v, from);
    }
}
