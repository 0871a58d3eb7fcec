//! The autotrim property of the ZFS pools on a disk (trim-unavailable), any OS: the rows
//! of `zpool get -H -o name,property,value autotrim` (plan::ZPOOL_GET_AUTOTRIM) for the
//! pools that have a member on the disk. Which pools those are comes from the caller:
//! FreeBSD's ZFS layers (zpool status leaves walked down GEOM), Linux's zpool status
//! leaves named by kernel name ([`linux_pools`]).

use crate::evidence::{EvidenceBundle, SourceKey};
use crate::model::{Fact, PoolAutotrim};
use crate::sources::{zpool, zpool_autotrim};

/// The autotrim rows of `pools` (the pools on one disk). Unknown when the disk holds no
/// pool, when the property was not captured (an older bundle, a Linux scan without
/// `--tools`), or when the capture names none of these pools.
pub fn autotrim(b: &EvidenceBundle, pools: &[String]) -> Fact<Vec<PoolAutotrim>> {
    if pools.is_empty() {
        return Fact::unknown("no ZFS pool on this disk");
    }
    let key = SourceKey::cmd(crate::plan::ZPOOL_GET_AUTOTRIM);
    let Some(text) = b.data(&key) else {
        return Fact::unknown(format!("zpool get autotrim: {}", b.why(&key)));
    };
    let mut from = vec![key.to_string()];
    let rows: Vec<PoolAutotrim> = zpool_autotrim::parse(text)
        .into_iter()
        .filter(|r| pools.contains(&r.pool))
        .map(|mut r| {
            if let Some((what, k)) = trim_timer(b, &r.pool) {
                r.periodic = Some(what);
                from.push(k);
            }
            r
        })
        .collect();
    if rows.is_empty() {
        return Fact::unknown(format!(
            "zpool get autotrim lists none of {}",
            pools.join(", ")
        ));
    }
    Fact::known_from(rows, from)
}

/// An enabled OpenZFS trim timer of the pool (plan::device_state::zfs_trim_timer_wants: the
/// timers.target.wants link that `systemctl enable` creates), with its capture key.
fn trim_timer(b: &EvidenceBundle, pool: &str) -> Option<(String, String)> {
    crate::plan::device_state::zfs_trim_timer_wants(pool)?
        .into_iter()
        .find_map(|p| {
            let k = SourceKey::File(p);
            b.data(&k)?;
            let unit = match &k {
                SourceKey::File(p) => p.rsplit('/').next().unwrap_or("").to_string(),
                _ => String::new(),
            };
            Some((
                format!("{unit} enabled (timers.target wants it)"),
                k.to_string(),
            ))
        })
}

/// The pools of a Linux `zpool status` with a leaf on `disk`: the disk itself ("sdb") or
/// one of its partitions ("sdb1", "nvme0n1p3"). Leaves named by /dev/disk/by-id links are
/// not tied (the probe records no by-id links), so such a pool stays unknown.
pub(crate) fn linux_pools(b: &EvidenceBundle, disk: &str) -> Vec<String> {
    b.data(&SourceKey::cmd(&["zpool", "status"]))
        .map(|t| pools_on_disk(t, zpool::DeviceNaming::Linux, disk))
        .unwrap_or_default()
}

/// The pools of a `zpool status` text with a leaf on `disk` or one of its partitions (a
/// pasted status too: explain ties a pasted `zpool get autotrim` to its disks with it).
pub(crate) fn pools_on_disk(status: &str, naming: zpool::DeviceNaming, disk: &str) -> Vec<String> {
    zpool::pool_members(status, naming)
        .into_iter()
        .filter(|p| p.leaves.iter().any(|l| on_disk(l, disk)))
        .map(|p| p.name)
        .collect()
}

/// Whether a device name is `disk` or a partition of it: sdb1 of sdb, nvme0n1p3 of nvme0n1,
/// ada0p3 of ada0 (a disk name ending in a digit takes "p" before the partition number, as
/// Linux's disk_name() and FreeBSD's GPT provider names do), and a by-id link's partition
/// (udev's 60-persistent-storage.rules add "-partN": ata-X_SERIAL-part1 of ata-X_SERIAL).
fn on_disk(leaf: &str, disk: &str) -> bool {
    let Some(rest) = leaf.strip_prefix(disk) else {
        return false;
    };
    if let Some(n) = rest.strip_prefix("-part") {
        return !n.is_empty() && n.chars().all(|c| c.is_ascii_digit());
    }
    let num = if disk.ends_with(|c: char| c.is_ascii_digit()) {
        match rest.strip_prefix('p') {
            Some(n) => n,
            None => return rest.is_empty(),
        }
    } else {
        rest
    };
    rest.is_empty() || (!num.is_empty() && num.chars().all(|c| c.is_ascii_digit()))
}

#[cfg(test)]
mod tests;
