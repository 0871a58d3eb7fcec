//! Facts a pasted `zpool status` proves about its member disks: OpenZFS prints
//! "block size: 512B configured, 4096B native" beside a vdev whose ashift is below the
//! device's physical sector (zpool_main.c print_status_config), which gives both the
//! vdev's ashift and the disk's physical sector size, so zfs-ashift-too-small can run on a
//! paste that holds nothing else.

use super::whole_disk;
use crate::model::{Fact, Layer, LayerKind, SystemFacts};
use crate::pasted::Pasted;
use crate::sources;
use crate::sources::zpool;

/// Record the ZFS layer (with its ashift) and the physical sector size of every vdev with
/// a block-size note.
pub(super) fn block_sizes(sys: &mut SystemFacts, p: &Pasted) {
    for b in p.blocks.iter().filter(|b| b.tool.is(&sources::zpool::SPEC)) {
        let key = b.key.clone();
        for pool in zpool::parse(&b.text) {
            for v in &pool.vdevs {
                let Some((conf, native)) = v.note.as_deref().and_then(zpool::block_size_note)
                else {
                    continue;
                };
                let name = v.name.trim_end_matches(".nop");
                let disk = match whole_disk(name) {
                    w if w.is_empty() => name.to_string(),
                    w => w,
                };
                if disk.is_empty() {
                    continue;
                }
                let note = format!("known only from the pasted zpool status ({key})");
                let Some(d) = super::pasted_disk(sys, &disk, &note) else {
                    continue;
                };
                let ashift = conf.trailing_zeros();
                if !d.physical_sector_bytes.is_known() {
                    d.physical_sector_bytes =
                        Fact::known(u32::try_from(native).unwrap_or(u32::MAX), key.clone());
                }
                let pool_name = if pool.pool.is_empty() {
                    "the pasted pool".to_string()
                } else {
                    pool.pool.clone()
                };
                match d
                    .layers
                    .iter_mut()
                    .find(|l| l.kind == Some(LayerKind::Zfs) && l.name == pool_name)
                {
                    Some(l) => {
                        l.ashift.get_or_insert(ashift);
                        if !l.from.contains(&key) {
                            l.from.push(key.clone());
                        }
                    }
                    None => d.layers.push(Layer {
                        kind: Some(LayerKind::Zfs),
                        name: pool_name,
                        on: vec![v.name.clone()],
                        ashift: Some(ashift),
                        from: vec![key.clone()],
                        ..Default::default()
                    }),
                }
            }
        }
    }
}

/// The disk a leaf vdev name stands for in a paste: the whole disk of a kernel name
/// ("sdb1" -> "sdb", "ada0p3" -> "ada0"), the by-id link without its partition suffix
/// (its kernel name is not in the paste), or a vdev_id.conf alias as it is ("z2"). A
/// FreeBSD GEOM label ("gpt/zfs0") names a partition whose disk the paste does not say:
/// the label stands for that disk, as in [`block_sizes`]. The GEOM classes a vdev may sit
/// on ("ada0p3.eli" geli(8), "gpt/disk0.nop" gnop(8)) pass I/O errors of the disk under
/// them through, so their suffix is dropped. None for rows that are no device (the GUID
/// of a missing vdev).
fn vdev_disk(name: &str) -> Option<String> {
    let n = zpool::DeviceNaming::Linux.device_name(name)?;
    let n = n
        .trim_end_matches(".eli")
        .trim_end_matches(".nop")
        .to_string();
    if n.starts_with("gpt/") || n.starts_with("gptid/") || n.starts_with("label/") {
        return Some(n);
    }
    if sources::spec::DEV_ARG.is_match(&n) && !n.contains('_') {
        let w = whole_disk(&n);
        if !w.is_empty() {
            return Some(w);
        }
    }
    if sources::by_id::looks_like(&n) {
        let base = match n.rfind("-part") {
            Some(i) if n[i + 5..].chars().all(|c| c.is_ascii_digit()) && i + 5 < n.len() => &n[..i],
            _ => n.as_str(),
        };
        return Some(base.to_string());
    }
    Some(n)
}

/// What the leaf vdev rows of a pasted `zpool status` prove about their disks: the model
/// a by-id name spells, and the READ/WRITE/CKSUM errors ZFS counted on the vdev (with its
/// state and note) when it saw I/O fail or blocks fail their checksum, for media-errors.
pub(super) fn vdev_rows(sys: &mut SystemFacts, p: &Pasted) {
    for b in p.blocks.iter().filter(|b| b.tool.is(&sources::zpool::SPEC)) {
        let key = b.key.clone();
        let lines: Vec<&str> = b.text.lines().collect();
        for pool in zpool::parse(&b.text) {
            let leaves = pool.leaves();
            // Checksum errors and no failed I/O on every member of one mirror or raidz:
            // each disk sent back wrong data at once, which one cause shared by all of
            // them does (the machine's memory, the controller), not a failing drive
            // (zpool-status(8), ZFS-8000-9P: "determine if the device needs to be
            // replaced"). Such rows tell nothing of their disks.
            let shared_cause = |v: &zpool::ZpoolVdev| {
                let group: Vec<_> = leaves
                    .iter()
                    .filter(|s| s.parent.is_some() && s.parent == v.parent)
                    .collect();
                group.len() > 1
                    && group.iter().all(|s| {
                        s.cksum_errors.is_some_and(|n| n > 0)
                            && s.read_errors.unwrap_or(0) == 0
                            && s.write_errors.unwrap_or(0) == 0
                    })
            };
            for &v in &leaves {
                if v.section == "spares" {
                    continue;
                }
                let Some(disk) = vdev_disk(&v.name) else {
                    continue;
                };
                let model = sources::by_id::model(&v.name);
                let errors = crate::model::VdevErrors {
                    pool: pool.pool.clone(),
                    vdev: v.name.clone(),
                    state: v.state.clone(),
                    read_errors: v.read_errors,
                    write_errors: v.write_errors,
                    checksum_errors: v.cksum_errors,
                    note: v.note.clone(),
                    line: lines
                        .iter()
                        .find(|l| l.split_whitespace().next() == Some(v.name.as_str()))
                        .map(|l| l.trim().to_string())
                        .unwrap_or_else(|| v.name.clone()),
                    from: key.clone(),
                };
                let counted = errors.io_failed() || (errors.checksum_only() && !shared_cause(v));
                if model.is_none() && !counted {
                    continue;
                }
                let note = format!("known only from the pasted zpool status ({key})");
                let Some(d) = super::pasted_disk(sys, &disk, &note) else {
                    continue;
                };
                if let (false, Some(m)) = (d.model.is_known(), model) {
                    d.model = Fact::known(m, key.clone());
                }
                if counted && !d.vdev_errors.iter().any(|e| e.line == errors.line) {
                    d.vdev_errors.push(errors);
                }
            }
        }
    }
}

/// What a pasted `zpool status -t` or `zpool trim` says of the TRIM path of its leaves
/// (sources::zpool::trim_note, NO_TRIM_DEVICES): a leaf printed "(trim unsupported)" sits on
/// a block device that takes no discard (discard_max_bytes 0 as ZFS saw it), and `zpool trim
/// POOL` refusing with "no devices in pool support trim operations" says so of every leaf
/// of the pool. Both are recorded as a refused discard (someone asked ZFS to trim). An HDD
/// takes no discard by design and prints the same note, so a leaf whose name says it is
/// one ("fast0-7200", "hdd3") is left out; the check leaves rotating disks out too.
pub(super) fn trim_support(sys: &mut SystemFacts, p: &Pasted) {
    // The pool `zpool trim` refused, and the line: the pool the nearest `zpool trim` command
    // above names, else the only pool of the paste.
    let refused: Vec<(Option<String>, usize, String)> = p
        .lines
        .iter()
        .filter(|l| l.text.contains(zpool::NO_TRIM_DEVICES))
        .map(|l| {
            let pool = p
                .commands
                .iter()
                .rfind(|c| c.line <= l.first && c.text.starts_with("zpool trim"))
                .and_then(|c| c.text.split_whitespace().last().map(str::to_string))
                .filter(|w| !w.starts_with('-') && w != "trim");
            (pool, l.first, l.text.trim().to_string())
        })
        .collect();
    for b in p.blocks.iter().filter(|b| b.tool.is(&sources::zpool::SPEC)) {
        let pools = zpool::parse(&b.text);
        let lines: Vec<&str> = b.text.lines().collect();
        for pool in &pools {
            // A table pasted without its "pool:" line names the pool in its first row.
            let pool_row = pool.vdevs.first().filter(|v| v.depth == 0);
            let refusal = refused.iter().find(|(name, _, _)| match name {
                Some(n) => *n == pool.pool || pool_row.is_some_and(|v| v.name == *n),
                None => pools.len() == 1,
            });
            for v in pool.leaves() {
                if v.note.as_deref().map(str::trim) == Some("(untrimmed)") {
                    let name = match pool_row {
                        Some(r) if pool.pool.is_empty() => r.name.clone(),
                        _ if pool.pool.is_empty() => zpool::UNNAMED.to_string(),
                        _ => pool.pool.clone(),
                    };
                    untrimmed(sys, &b.key, &name, &v.name);
                    continue;
                }
                let row = lines
                    .iter()
                    .find(|l| l.split_whitespace().next() == Some(v.name.as_str()))
                    .map(|l| l.trim().to_string())
                    .unwrap_or_else(|| v.name.clone());
                let (said, from) = match (v.note.as_deref().and_then(zpool::trim_note), refusal) {
                    (Some(false), _) => (row, b.key.clone()),
                    (None, Some((_, n, text))) => (text.clone(), format!("pasted:line {n}")),
                    _ => continue,
                };
                if names_hdd(&v.name) {
                    continue;
                }
                let Some(disk) = vdev_disk(&v.name) else {
                    continue;
                };
                let note = format!("known only from the pasted zpool status ({})", b.key);
                let Some(d) = super::pasted_disk(sys, &disk, &note) else {
                    continue;
                };
                super::set_if_unknown(&mut d.trim.discard_max_bytes, Some(0), &from);
                super::set_if_unknown(&mut d.trim.discard_refused, Some(said), &from);
            }
        }
    }
}

/// A leaf `zpool status -t` prints "(untrimmed)" for: the block device takes discards
/// (vdev_has_trim, else "(trim unsupported)") and no `zpool trim` has run on it
/// (zpool_main.c print_status_trim: vs_trim_state VDEV_TRIM_NONE; autotrim does not set
/// that state, vdev_trim.c). Recorded on its disk (TrimFacts::zfs_untrimmed) when the name
/// says the disk is flash: an NVMe namespace (udev's `nvme-` by-id link, Linux nvmeXnY,
/// FreeBSD nvdN/ndaN, marked NVMe) or "SSD" in its name or by-id model; a disk the paste
/// already knows is left to its media facts. A thin virtual disk prints the same note.
fn untrimmed(sys: &mut SystemFacts, key: &str, pool: &str, leaf: &str) {
    let Some(disk) = vdev_disk(leaf) else { return };
    let model = sources::by_id::model(leaf);
    let nvme = disk.starts_with("nvme-")
        || ["nvme", "nvd", "nda"].iter().any(|p| {
            disk.strip_prefix(p)
                .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()))
        });
    let ssd = [Some(leaf), model.as_deref()]
        .into_iter()
        .flatten()
        .any(|s| {
            s.split(|c: char| !c.is_ascii_alphanumeric())
                .any(|w| w.eq_ignore_ascii_case("ssd"))
        });
    if !(nvme || ssd || sys.disks.iter().any(|d| d.name == disk)) || names_hdd(leaf) {
        return;
    }
    let note = format!("known only from the pasted zpool status ({key})");
    let Some(d) = super::pasted_disk(sys, &disk, &note) else {
        return;
    };
    if nvme {
        super::set_if_unknown(&mut d.class, Some(crate::model::DeviceClass::Nvme), key);
    }
    super::set_if_unknown(&mut d.model, model, key);
    super::set_if_unknown(&mut d.trim.zfs_untrimmed, Some(pool.to_string()), key);
}

/// Whether a vdev's name (a vdev_id.conf alias, a by-id link) says the disk rotates: a
/// word "hdd", or a spindle speed as a word ("7200", "5400", "5900", "10k", "15k", "7k2").
fn names_hdd(name: &str) -> bool {
    name.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| {
        let w = w.to_ascii_lowercase();
        w == "hdd"
            || matches!(w.as_str(), "5400" | "5900" | "7200" | "10000" | "15000")
            || matches!(w.as_str(), "7k2" | "10k" | "15k" | "5k4")
            || w.ends_with("rpm")
    })
}
