//! The filesystems mounted from a FreeBSD disk (`mount -p`), with a ZFS dataset's
//! compression (`zfs get`).

use super::captures::Global;
use crate::facts::DiskFacts;
use crate::sources::zfs_get;

/// Filesystems mounted from this disk, its partitions, labels, GELI/mirror layers, or a
/// ZFS pool on it (`mount -p`), with the dataset's compression from `zfs get`.
pub(super) fn mounts_for(g: &Global, disk: &str, d: &DiskFacts) -> Vec<crate::facts::Mount> {
    let mut names: Vec<String> = vec![disk.to_string()];
    if let Some(t) = d.partition_table.value() {
        for p in &t.partitions {
            names.push(p.name.clone());
            names.extend(p.children.iter().map(|c| c.name.clone()));
        }
    }
    for l in &d.layers {
        names.push(l.name.clone());
        names.extend(l.display_name.iter().cloned());
        names.extend(l.on.iter().cloned());
    }
    if let Some(gl) = g.glist.iter().find(|x| x.name == disk) {
        for p in &gl.providers {
            if let Some(l) = &p.label {
                names.push(format!("gpt/{l}"));
            }
        }
    }
    if let Some(m) = g.mesh.as_ref() {
        for lg in m.geoms.iter().filter(|x| x.class == "LABEL") {
            if m.consumed_names(lg).iter().any(|c| names.contains(c)) {
                names.extend(lg.providers.iter().map(|p| p.name.clone()));
            }
        }
    }
    let derived = |n: &str| {
        n.strip_prefix(disk).is_some_and(|rest| {
            let mut ch = rest.chars();
            matches!(ch.next(), Some('p') | Some('s'))
                && ch.next().is_some_and(|c| c.is_ascii_digit())
        })
    };
    let pools: Vec<&str> = d
        .layers
        .iter()
        .filter(|l| l.kind == Some(crate::facts::LayerKind::Zfs))
        .map(|l| l.name.as_str())
        .collect();
    g.extra
        .mounts
        .iter()
        .filter(|m| match m.provider() {
            Some(p) => names.iter().any(|n| n == p) || derived(p),
            None => m.pool().is_some_and(|p| pools.contains(&p)),
        })
        .map(|m| crate::facts::Mount {
            source: m.source.clone(),
            mountpoint: m.mountpoint.clone(),
            fstype: m.fstype.clone(),
            options: m.options.clone(),
            compression: (m.fstype == "zfs")
                .then(|| zfs_get::value(&g.extra.zprops, &m.source, "compression"))
                .flatten()
                .map(str::to_string),
        })
        .collect()
}
