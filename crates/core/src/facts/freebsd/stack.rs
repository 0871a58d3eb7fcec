//! What is stacked on a FreeBSD disk: GELI providers and ZFS pools on it, its partitions
//! or their labels, and the ashift ZFS allocates with.

use super::captures::{Global, key};
use super::names::is_label_provider;
use crate::evidence::EvidenceBundle;
use crate::facts::{DiskFacts, Fact, Layer, LayerKind, PartitionTable};
use crate::plan::{Item, freebsd as plan};
use crate::sources::geom_util as util;

/// GELI providers and ZFS pools on this disk, its partitions, or their GPT labels.
pub(super) fn layers(g: &Global, disk: &str, table: &Fact<PartitionTable>) -> Vec<Layer> {
    let mut names: Vec<String> = vec![disk.to_string()];
    // Providers named after the disk (ada0p1, ad4s1g, da0s1a) are on it even when no
    // partition table was captured.
    let derived = |n: &str| {
        n.strip_prefix(disk).is_some_and(|rest| {
            let mut ch = rest.chars();
            matches!(ch.next(), Some('p') | Some('s'))
                && ch.next().is_some_and(|c| c.is_ascii_digit())
        })
    };
    if let Some(t) = table.value() {
        for p in &t.partitions {
            names.push(p.name.clone());
            names.extend(p.children.iter().map(|c| c.name.clone()));
        }
    }
    // GPT labels ("gpt/zfs0") name the same providers.
    if let Some(gl) = g.glist.iter().find(|x| x.name == disk) {
        for p in &gl.providers {
            if let Some(l) = &p.label
                && names.contains(&p.name)
            {
                names.push(format!("gpt/{l}"));
            }
        }
    }
    let mut out = Vec::new();
    // gmirror (MIRROR class) and GEOM labels (LABEL class: gpt/, gptid/, ufs/ names) from
    // kern.geom.confxml, first, so layers above them can be tied to this disk.
    if let Some(m) = g.mesh.as_ref() {
        let mk = key(&plan::GEOM_CONFXML, "");
        for mg in m.geoms.iter().filter(|x| x.class == "MIRROR") {
            let on: Vec<String> = m
                .consumed_names(mg)
                .into_iter()
                .filter(|c| names.contains(c) || derived(c))
                .collect();
            if on.is_empty() {
                continue;
            }
            out.push(Layer {
                kind: Some(LayerKind::Gmirror),
                name: mg.name.clone(),
                display_name: Some(format!("mirror/{}", mg.name)),
                on,
                from: vec![mk.clone()],
                ..Default::default()
            });
            names.push(format!("mirror/{}", mg.name));
            names.extend(mg.providers.iter().map(|p| p.name.clone()));
        }
        // Partitions of a mirror (mirror/gm0p1) or nested tables.
        for pg in m.geoms.iter().filter(|x| x.class == "PART") {
            if pg.name != disk && names.contains(&pg.name) {
                names.extend(pg.providers.iter().map(|p| p.name.clone()));
            }
        }
        for lg in m.geoms.iter().filter(|x| x.class == "LABEL") {
            if m.consumed_names(lg).iter().any(|c| names.contains(c)) {
                names.extend(lg.providers.iter().map(|p| p.name.clone()));
            }
        }
    }
    let geli_key = key(&plan::GELI_LIST, "");
    for e in &g.geli {
        let Some(cons) = &e.consumer else { continue };
        let on_pasted_disk = crate::facts::is_pasted_disk(disk) && is_label_provider(cons);
        if !names.contains(cons) && !derived(cons) && !on_pasted_disk {
            continue;
        }
        out.push(Layer {
            kind: Some(LayerKind::Geli),
            name: e.name.clone(),
            display_name: None,
            on: vec![cons.clone()],
            cipher: e.algorithm.clone(),
            key_bits: e.key_length,
            crypto_impl: e.crypto.clone(),
            level: None,
            sector_bytes: e.sector_size,
            ashift: None,
            ashift_why: None,
            from: vec![geli_key.clone()],
        });
        names.push(e.name.clone());
    }
    // Without `geli list`, the ELI geoms of kern.geom.confxml (their config carries the
    // same EncryptionAlgorithm/KeyLength/Crypto fields).
    if let Some(m) = g.mesh.as_ref() {
        let mk = key(&plan::GEOM_CONFXML, "");
        for eg in m.geoms.iter().filter(|x| x.class == "ELI") {
            if out.iter().any(|l: &Layer| l.name == eg.name) {
                continue;
            }
            let on: Vec<String> = m
                .consumed_names(eg)
                .into_iter()
                .filter(|c| names.contains(c) || derived(c))
                .collect();
            if on.is_empty() {
                continue;
            }
            let prov = eg.providers.first();
            out.push(Layer {
                kind: Some(LayerKind::Geli),
                name: eg.name.clone(),
                on,
                cipher: eg.config.get("EncryptionAlgorithm").cloned(),
                key_bits: eg
                    .config
                    .get("KeyLength")
                    .and_then(|v| util::leading_digits_u64(v))
                    .and_then(|n| u32::try_from(n).ok()),
                crypto_impl: eg.config.get("Crypto").cloned(),
                sector_bytes: prov.and_then(|p| p.sector_size),
                from: vec![mk.clone()],
                ..Default::default()
            });
            names.push(eg.name.clone());
        }
    }
    let zkey = key(&plan::ZPOOL_STATUS, "");
    for pool in &g.pools {
        let on: Vec<String> = pool
            .leaves
            .iter()
            .filter(|l| {
                let l = l.trim_start_matches("/dev/");
                names.iter().any(|n| n == l) || derived(l)
            })
            .cloned()
            .collect();
        if on.is_empty() {
            continue;
        }
        out.push(Layer {
            kind: Some(LayerKind::Zfs),
            name: pool.name.clone(),
            on,
            from: vec![zkey.clone()],
            ..Default::default()
        });
    }
    out
}

/// The ashift ZFS allocates with on this disk: that of the TOP-LEVEL vdev holding the
/// disk's leaf (zpool get ... all-vdevs on OpenZFS >= 2.2, else zdb -C), never the pool
/// property (only the default for new vdevs). The smallest when the disk holds several.
pub(super) fn zfs_ashift(g: &Global, d: &mut DiskFacts) {
    for layer in d.layers.iter_mut() {
        if layer.kind != Some(crate::facts::LayerKind::Zfs) {
            continue;
        }
        let Some(pool) = g.pools.iter().find(|p| p.name == layer.name) else {
            continue;
        };
        let mut found: Vec<(u32, String)> = Vec::new();
        for leaf in &layer.on {
            let leaf = leaf.trim_start_matches("/dev/");
            let top = pool
                .tops
                .iter()
                .find(|(l, _)| l.trim_start_matches("/dev/") == leaf)
                .map(|(_, t)| t.as_str())
                .unwrap_or(leaf);
            if let Some((_, rows, k)) = g.extra.vdev_ashift.iter().find(|(p, _, _)| *p == pool.name)
                && let Some((_, a)) = rows.iter().find(|(n, _)| n == top)
            {
                found.push((*a, k.clone()));
                continue;
            }
            if let Some((_, tops, k)) = g.extra.zdb.iter().find(|(p, _, _)| *p == pool.name)
                && let Some(a) = tops
                    .iter()
                    .find(|t| {
                        t.paths
                            .iter()
                            .any(|p| p.trim_start_matches("/dev/") == leaf)
                    })
                    .and_then(|t| t.ashift)
            {
                found.push((a, k.clone()));
            }
        }
        if let Some((a, k)) = found.into_iter().min_by_key(|(a, _)| *a) {
            layer.ashift = Some(a);
            if !layer.from.contains(&k) {
                layer.from.push(k);
            }
        } else {
            layer.ashift_why = zdb_why(g.b, &pool.name);
        }
    }
}

/// Why zdb gave no ashift for `pool`, from its failed captures. zdb -C without -e reads
/// only pools in the cache file (cmd/zdb/zdb.c: spa_open, then `fatal("can't open '%s':
/// %s")`), so a pool imported with cachefile=none fails with "can't open 'POOL': No such
/// file or directory"; `zdb -e -C POOL` reads the configuration from the disks' labels.
pub(super) fn zdb_why(b: &EvidenceBundle, pool: &str) -> Option<String> {
    use crate::evidence::{Capture, Unavailable};
    // Only a zdb that ran (or could not) says something: a capture the bundle never had
    // (NotFound) or one the platform does not do says nothing about the pool.
    let failed = |item: &Item| match b.get(&item.key(pool)) {
        Some(c @ Capture::Unavailable { reason, .. })
            if !matches!(reason, Unavailable::NotFound | Unavailable::Unsupported) =>
        {
            Some(c.why())
        }
        _ => None,
    };
    let cache = failed(&plan::ZDB_CONFIG)?;
    let search = failed(&plan::ZDB_CONFIG_SEARCH);
    let not_cached = cache.contains("can't open") || cache.contains("No such file");
    let first = if not_cached {
        format!(
            "`zdb -C {pool}` could not open the pool: zdb reads it from the cache file \
             (zpool.cache), and a pool imported with cachefile=none is not in it ({cache})"
        )
    } else {
        format!("`zdb -C {pool}` failed: {cache}")
    };
    Some(match (search, b.get(&plan::ZDB_CONFIG_SEARCH.key(pool))) {
        (Some(w), _) => format!("{first}; `zdb -e -C {pool}` (the disks' labels) failed too: {w}"),
        (None, Some(_)) => first,
        (None, None) => format!("{first}; `zdb -e -C {pool}` reads it from the disks' labels"),
    })
}
