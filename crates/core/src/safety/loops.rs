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
mod tests {
    use super::*;

    fn dev(devno: &str, name: &str, disk: Option<&str>) -> BlockDev {
        BlockDev {
            devno: devno.into(),
            name: name.into(),
            disk: disk.map(str::to_string),
        }
    }

    fn lp(n: u32, backing: Backing, offset: u64, sizelimit: u64) -> LoopDev {
        LoopDev {
            name: format!("loop{n}"),
            devno: format!("7:{n}"),
            backing,
            offset,
            sizelimit,
        }
    }

    fn file(ino: u64) -> Backing {
        Backing::File {
            dev: 0xfe00,
            ino,
            path: format!("/var/tmp/{ino}.img"),
        }
    }

    fn block(d: &str) -> Backing {
        Backing::Block(d.into())
    }

    fn devices() -> Vec<BlockDev> {
        let mut v: Vec<BlockDev> = (0..8)
            .map(|n| dev(&format!("7:{n}"), &format!("loop{n}"), None))
            .collect();
        v.push(dev("8:16", "sdb", None));
        v.push(dev("8:17", "sdb1", Some("8:16")));
        v.push(dev("8:18", "sdb2", Some("8:16")));
        v
    }

    #[test]
    fn a_loop_over_a_plain_file_is_alone() {
        let loops = vec![lp(0, file(11), 0, 0), lp(1, file(12), 0, 0)];
        let c = chain("7:0", &devices(), &loops);
        assert_eq!(c.file.as_deref(), Some("/var/tmp/11.img"));
        assert!(
            c.below.is_empty() && c.aliases.is_empty() && c.unknown.is_empty(),
            "{c:?}"
        );
        assert!(c.unknown_reasons("/dev/loop0").is_empty());
        // Not a loop at all: nothing.
        assert_eq!(chain("8:17", &devices(), &loops), Chain::default());
    }

    /// The shape a): the target is under a mounted offset loop.
    #[test]
    fn a_loop_stacked_on_the_target_at_an_offset_refuses() {
        let loops = vec![lp(0, file(11), 0, 0), lp(1, block("7:0"), 4 << 20, 0)];
        let c = chain("7:0", &devices(), &loops);
        assert_eq!(c.aliases.len(), 1, "{c:?}");
        assert_eq!(
            c.aliases[0].describe(),
            "loop1 is stacked on loop0 at offset 4 MiB"
        );
        // And a loop on that loop, transitively.
        let mut l3 = loops.clone();
        l3.push(lp(2, block("7:1"), 0, 0));
        let c = chain("7:0", &devices(), &l3);
        assert_eq!(
            c.aliases.iter().map(Alias::describe).collect::<Vec<_>>(),
            vec![
                "loop1 is stacked on loop0 at offset 4 MiB",
                "loop2 is stacked on loop1"
            ]
        );
    }

    /// The shape b): the target is a loop inside a mounted device's data area.
    #[test]
    fn the_chain_below_is_followed_down_to_the_file() {
        let loops = vec![
            lp(2, file(20), 0, 0),
            lp(3, block("7:2"), 48 << 20, 8 << 20),
            lp(4, block("7:3"), 0, 0),
        ];
        let c = chain("7:4", &devices(), &loops);
        assert_eq!(
            c.below,
            vec![
                Below {
                    devno: "7:3".into(),
                    name: "loop3".into(),
                    via: "loop4".into(),
                    offset: 0
                },
                Below {
                    devno: "7:2".into(),
                    name: "loop2".into(),
                    via: "loop3".into(),
                    offset: 48 << 20
                },
            ]
        );
        assert_eq!(c.file.as_deref(), Some("/var/tmp/20.img"));
        assert!(c.aliases.is_empty(), "{c:?}");
        // A second loop on the device below (anywhere on it) is an alias.
        let mut l = loops.clone();
        l.push(lp(5, block("7:2"), 0, 1 << 20));
        let c = chain("7:4", &devices(), &l);
        assert_eq!(
            c.aliases[0].describe(),
            "loop5 is stacked on loop2 (size limit 1 MiB)"
        );
        // As is a second loop over the same backing file, and only that file.
        let mut l = loops.clone();
        l.push(lp(6, file(20), 0, 0));
        l.push(lp(7, file(21), 0, 0));
        let c = chain("7:4", &devices(), &l);
        assert_eq!(c.aliases.len(), 1, "{c:?}");
        assert_eq!(
            c.aliases[0].describe(),
            "loop6 is stacked on the same file /var/tmp/20.img"
        );
    }

    #[test]
    fn partitions_and_disks_overlap_but_siblings_do_not() {
        // A loop over the whole disk covers its partition sdb1; one over sdb2 does not.
        let loops = vec![lp(0, block("8:16"), 0, 0), lp(1, block("8:18"), 0, 0)];
        let c = chain("8:17", &devices(), &loops);
        assert_eq!(
            c.aliases
                .iter()
                .map(|a| a.name.as_str())
                .collect::<Vec<_>>(),
            vec!["loop0"]
        );
        // Writing the whole disk: loops over any of its partitions are aliases.
        let c = chain("8:16", &devices(), &loops);
        assert_eq!(c.aliases.len(), 2, "{c:?}");
        // The target is a loop over sdb1: sdb1 is below, the loop over sdb is an alias.
        let loops = vec![lp(2, block("8:17"), 0, 0), lp(0, block("8:16"), 0, 0)];
        let c = chain("7:2", &devices(), &loops);
        assert_eq!(c.below[0].name, "sdb1");
        assert_eq!(c.aliases[0].name, "loop0");
    }

    #[test]
    fn a_partition_of_a_loop_device_follows_the_loops_chain() {
        let mut devs = devices();
        devs.push(dev("259:0", "loop0p1", Some("7:0")));
        devs.push(dev("259:1", "loop0p2", Some("7:0")));
        // loop0 over a plain file: loop0p1 is alone.
        let loops = vec![lp(0, file(11), 0, 0)];
        let c = chain("259:0", &devs, &loops);
        assert_eq!(c.file.as_deref(), Some("/var/tmp/11.img"));
        assert!(c.below.is_empty() && c.aliases.is_empty(), "{c:?}");
        // loop0 over loop2 (over a file): loop0p1's writes land on loop2.
        let loops = vec![lp(0, block("7:2"), 0, 0), lp(2, file(20), 0, 0)];
        let c = chain("259:0", &devs, &loops);
        assert_eq!(
            c.below.iter().map(|b| b.name.as_str()).collect::<Vec<_>>(),
            vec!["loop2"]
        );
        assert!(c.aliases.is_empty(), "{c:?}");
        // A loop over the sibling partition loop0p2 holds other bytes; one over loop0 does not.
        let mut l = loops.clone();
        l.push(lp(3, block("259:1"), 0, 0));
        l.push(lp(4, block("7:0"), 0, 0));
        let c = chain("259:0", &devs, &l);
        assert_eq!(
            c.aliases
                .iter()
                .map(|a| a.name.as_str())
                .collect::<Vec<_>>(),
            vec!["loop4"]
        );
    }

    #[test]
    fn unknown_backings_and_malformed_lists_refuse_without_hanging() {
        let loops = vec![
            lp(0, file(11), 0, 0),
            lp(
                5,
                Backing::Unknown {
                    path: "/gone (deleted)".into(),
                    why: "no such file".into(),
                },
                0,
                0,
            ),
        ];
        let c = chain("7:0", &devices(), &loops);
        assert_eq!(c.unknown, vec!["loop5 (/gone (deleted): no such file)"]);
        assert!(c.unknown_reasons("/dev/loop0")[0].contains("could not be identified"));
        // A cycle (the kernel forbids it; a broken list must not hang).
        let loops = vec![lp(0, block("7:1"), 0, 0), lp(1, block("7:0"), 0, 0)];
        let c = chain("7:0", &devices(), &loops);
        assert_eq!(c.below.len(), 1);
    }
}
