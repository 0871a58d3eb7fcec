//! Loop devices that share bytes with the device about to be written. The kernel's
//! exclusive open does not see them: a loop device opens its backing file without claiming
//! it (drivers/block/loop.c loop_configure claims only the loop device itself), so a loop
//! stacked on the target, at any offset, and a loop the target sits on, are both invisible
//! to O_EXCL, to holders/ and to the mount table of the target.
//!
//! From a list of every configured loop device (its backing: a block device by its
//! "MAJ:MIN", the kernel's own `lo_rdevice` from LOOP_GET_STATUS64, or a regular file by its
//! st_dev and inode, linux/loop.h struct loop_info64) and the partition-to-disk map, this
//! decides, purely:
//! - `below`: the devices the writes land on, following the chain down (a loop over a loop
//!   over a disk); the caller must find each one unheld (not mounted, no holders, no
//!   exclusive opener, not swap);
//! - `aliases`: every other loop device that reads or writes any of those bytes (stacked on
//!   the target, on a device below it, on a partition or the whole disk of one, on the same
//!   backing file, or stacked on such a loop in turn); each one refuses;
//! - `unknown`: loops whose backing could not be identified, so that nobody can say they do
//!   not sit on the target; each one refuses.
//!
//! A loop over a regular file that no other loop uses is fine: it only writes that file.

use std::collections::BTreeSet;

/// A block device: "MAJ:MIN", kernel name, and for a partition its whole disk's "MAJ:MIN".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockDev {
    pub devno: String,
    pub name: String,
    pub disk: Option<String>,
}

/// What a loop device reads and writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Backing {
    /// A block device, by "MAJ:MIN".
    Block(String),
    /// A regular file: st_dev (encoded as the kernel reports it) and inode, and its path.
    File { dev: u64, ino: u64, path: String },
    /// Neither could be found out.
    Unknown { path: String, why: String },
}

/// One configured loop device (sysfs-block(5) /sys/block/loopN/loop/).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoopDev {
    pub name: String,
    pub devno: String,
    pub backing: Backing,
    pub offset: u64,
    pub sizelimit: u64,
}

/// A device the writes land on: `devno`/`name`, reached through loop `via` at `offset`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Below {
    pub devno: String,
    pub name: String,
    pub via: String,
    pub offset: u64,
}

/// Another loop device over the same bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Alias {
    pub name: String,
    pub devno: String,
    /// What it sits on: a device name or "the file PATH".
    pub on: String,
    pub offset: u64,
    pub sizelimit: u64,
    /// The alias it is stacked on, when it is not on the target's bytes directly.
    pub through: Option<String>,
}

impl Alias {
    /// One phrase: "loop1 is stacked on loop0 at offset 4 MiB".
    pub fn describe(&self) -> String {
        let mut s = format!("{} is stacked on {}", self.name, self.on);
        if self.offset > 0 {
            s.push_str(&format!(
                " at offset {}",
                super::blank::place(self.offset).trim_start_matches("byte ")
            ));
        }
        if self.sizelimit > 0 {
            s.push_str(&format!(
                " (size limit {})",
                super::blank::place(self.sizelimit).trim_start_matches("byte ")
            ));
        }
        if let Some(t) = self.through.as_ref().filter(|t| **t != self.on) {
            s.push_str(&format!(", which shares the bytes through {t}"));
        }
        s
    }
}

/// What [`chain`] found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Chain {
    pub below: Vec<Below>,
    /// The regular file at the bottom of the chain, if there is one.
    pub file: Option<String>,
    pub aliases: Vec<Alias>,
    pub unknown: Vec<String>,
}

impl Chain {
    /// One refusal per loop whose backing could not be identified.
    pub fn unknown_reasons(&self, target: &str) -> Vec<String> {
        self.unknown
            .iter()
            .map(|u| {
                format!(
                    "the backing of loop device {u} could not be identified, so diskdoc \
                     cannot prove it does not sit on {target}"
                )
            })
            .collect()
    }
}

/// The chain through `target` ("MAJ:MIN"). Bounded: a malformed list that loops ends the walk.
pub fn chain(target: &str, devices: &[BlockDev], loops: &[LoopDev]) -> Chain {
    let name_of = |devno: &str| {
        devices
            .iter()
            .find(|d| d.devno == devno)
            .map(|d| d.name.clone())
            .unwrap_or_else(|| format!("the device {devno}"))
    };
    let mut out = Chain::default();
    let mut chain_loops: BTreeSet<&str> = BTreeSet::new();
    let mut seen: BTreeSet<String> = BTreeSet::from([target.to_string()]);
    let mut bottom_file: Option<(u64, u64)> = None;
    // Loop disks reached from one of their partitions: their other partitions hold other bytes.
    let mut loop_disks: BTreeSet<String> = BTreeSet::new();
    let mut cur = target.to_string();
    for _ in 0..64 {
        let Some(l) = loops.iter().find(|l| l.devno == cur) else {
            // A partition of a loop device (loop0p1, partscan): its bytes are the loop's,
            // so the walk goes on from the loop. The loop itself is not "below": it is this
            // device's own disk, which diskdoc's exclusive open of the partition claims.
            let disk = devices
                .iter()
                .find(|d| d.devno == cur)
                .and_then(|d| d.disk.clone())
                .filter(|disk| loops.iter().any(|l| l.devno == *disk));
            match disk {
                Some(disk) if seen.insert(disk.clone()) => {
                    loop_disks.insert(disk.clone());
                    cur = disk;
                    continue;
                }
                _ => break,
            }
        };
        chain_loops.insert(&l.devno);
        match &l.backing {
            Backing::Block(b) => {
                if !seen.insert(b.clone()) {
                    break;
                }
                out.below.push(Below {
                    devno: b.clone(),
                    name: name_of(b),
                    via: l.name.clone(),
                    offset: l.offset,
                });
                cur = b.clone();
            }
            Backing::File { dev, ino, path } => {
                bottom_file = Some((*dev, *ino));
                out.file = Some(path.clone());
                break;
            }
            Backing::Unknown { .. } => break,
        }
    }
    // The bytes the writes touch live on these devices; a device overlaps with its whole
    // disk and with its own partitions, never with a sibling partition.
    let mut overlap: BTreeSet<String> = seen.clone();
    let disk_and_parts = |z: &str, into: &mut BTreeSet<String>| {
        if let Some(d) = devices
            .iter()
            .find(|d| d.devno == z)
            .and_then(|d| d.disk.clone())
        {
            into.insert(d);
        }
        for p in devices.iter().filter(|d| d.disk.as_deref() == Some(z)) {
            into.insert(p.devno.clone());
        }
    };
    for z in seen.iter().filter(|z| !loop_disks.contains(*z)) {
        disk_and_parts(z, &mut overlap);
    }
    // Loops on those bytes, then loops on those loops, until nothing is added.
    let mut through: Vec<(String, Option<String>)> =
        overlap.iter().map(|d| (d.clone(), None)).collect();
    let mut reached: BTreeSet<String> = overlap.clone();
    while let Some((devno, via)) = through.pop() {
        for l in loops {
            if chain_loops.contains(l.devno.as_str())
                || out.aliases.iter().any(|a| a.devno == l.devno)
            {
                continue;
            }
            let on = match &l.backing {
                Backing::Block(b) if *b == devno => name_of(b),
                _ => continue,
            };
            out.aliases.push(Alias {
                name: l.name.clone(),
                devno: l.devno.clone(),
                on,
                offset: l.offset,
                sizelimit: l.sizelimit,
                through: via.clone(),
            });
            let mut next = BTreeSet::from([l.devno.clone()]);
            disk_and_parts(&l.devno, &mut next);
            for n in next {
                if reached.insert(n.clone()) {
                    through.push((n, Some(l.name.clone())));
                }
            }
        }
    }
    if let Some((dev, ino)) = bottom_file {
        for l in loops {
            if let Backing::File {
                dev: d,
                ino: i,
                path,
            } = &l.backing
                && (*d, *i) == (dev, ino)
                && !chain_loops.contains(l.devno.as_str())
                && !out.aliases.iter().any(|a| a.devno == l.devno)
            {
                out.aliases.push(Alias {
                    name: l.name.clone(),
                    devno: l.devno.clone(),
                    on: format!("the same file {path}"),
                    offset: l.offset,
                    sizelimit: l.sizelimit,
                    through: None,
                });
            }
        }
    }
    for l in loops {
        if let Backing::Unknown { path, why } = &l.backing
            && !out.aliases.iter().any(|a| a.devno == l.devno)
        {
            out.unknown.push(format!("{} ({path}: {why})", l.name));
        }
    }
    out
}

#[cfg(test)]
mod tests;
