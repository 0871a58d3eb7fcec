//! A FreeBSD disk's partition table (gpart show, gpart list, kern.geom.confxml) and where
//! each partition starts against the physical sector (diskinfo -v of the partitions).

use super::captures::{Global, key};
use super::names::disk_of_provider;
use crate::facts::{DiskFacts, Fact, Partition, PartitionTable};
use crate::plan::freebsd as plan;
use crate::sources::geom_util as util;
use crate::sources::{confxml, diskinfo, gpart_show};

pub(super) fn partition_table(g: &Global, disk: &str, lsz: u64) -> Fact<PartitionTable> {
    let show_key = key(&plan::GPART_SHOW, "");
    let list_key = key(&plan::GPART_LIST, "");
    if let Some(block) = g.gshow.iter().find(|b| b.geom == disk) {
        let mut t = PartitionTable {
            scheme: block.scheme.to_ascii_lowercase(),
            partitions: Vec::new(),
            notes: Vec::new(),
        };
        // The "=>" line's first number is the first usable sector, not a partition.
        t.notes.push(format!("first usable sector {}", block.first));
        if block.corrupt {
            t.notes.push("[CORRUPT]".to_string());
        }
        for e in block.partitions() {
            let pname = e.provider.clone().unwrap_or_default();
            let mut p = mk_partition(e, &pname, 0, lsz);
            if let Some(inner) = g.gshow.iter().find(|b| b.geom == pname) {
                // A BSD label inside an MBR slice: its rows are relative to the slice;
                // store absolute disk sectors.
                for c in inner.partitions() {
                    let cname = c.provider.clone().unwrap_or_default();
                    p.children.push(mk_partition(c, &cname, e.start, lsz));
                }
            }
            t.partitions.push(p);
        }
        let mut from = vec![show_key];
        if let Some(gl) = g.glist.iter().find(|x| x.name == disk) {
            for p in &mut t.partitions {
                if let Some(lp) = gl.providers.iter().find(|x| x.name == p.name) {
                    p.type_name = p.type_name.clone().or(lp.type_name.clone());
                    p.alignment_offset_bytes =
                        stripe_misalignment(lp.stripe_size, lp.stripe_offset);
                    // gpart show prints the flag in brackets, gpart list as "attrib: active".
                    p.active |= lp.active();
                }
            }
            from.push(list_key);
        }
        return Fact::known_from(t, from);
    }
    if let Some(gl) = g.glist.iter().find(|x| x.name == disk) {
        let sz = u64::from(
            gl.consumer_sector_size
                .unwrap_or(u32::try_from(lsz).unwrap_or(512)),
        );
        let mut t = PartitionTable {
            scheme: gl.scheme.clone().unwrap_or_default().to_ascii_lowercase(),
            partitions: Vec::new(),
            notes: gl
                .first
                .map(|f| vec![format!("first usable sector {f}")])
                .unwrap_or_default(),
        };
        for lp in &gl.providers {
            let start = lp.start.or(lp.offset.map(|o| o / sz.max(1))).unwrap_or(0);
            let size = match (lp.start, lp.end) {
                (Some(s), Some(e)) if e >= s => (e - s).saturating_add(1),
                _ => lp.length.map(|l| l / sz.max(1)).unwrap_or(0),
            };
            let mut p = Partition {
                number: lp.index.unwrap_or(0),
                name: lp.name.clone(),
                start_sector: start,
                size_sectors: size,
                sector_bytes: u32::try_from(sz).unwrap_or(u32::MAX),
                start_bytes: lp.offset.unwrap_or(start.saturating_mul(sz)),
                type_name: lp.type_name.clone(),
                alignment_offset_bytes: stripe_misalignment(lp.stripe_size, lp.stripe_offset),
                // "attrib: active": the MBR boot flag (sources::gpart_list::Provider::active).
                active: lp.active(),
                ..Default::default()
            };
            if let Some(inner) = g.glist.iter().find(|x| x.name == lp.name) {
                for c in &inner.providers {
                    let cs = c.start.unwrap_or(0);
                    p.children.push(Partition {
                        number: c.index.unwrap_or(0),
                        name: c.name.clone(),
                        start_sector: start.saturating_add(cs),
                        size_sectors: c.length.map(|l| l / sz.max(1)).unwrap_or(0),
                        sector_bytes: u32::try_from(sz).unwrap_or(u32::MAX),
                        start_bytes: start.saturating_add(cs).saturating_mul(sz),
                        type_name: c.type_name.clone(),
                        ..Default::default()
                    });
                }
            }
            t.partitions.push(p);
        }
        return Fact::known(t, list_key);
    }
    if let Some(t) = g.mesh.as_ref().and_then(|m| mesh_table(m, disk, lsz)) {
        return Fact::known(t, key(&plan::GEOM_CONFXML, ""));
    }
    let why = match (
        g.b.data(&plan::GPART_SHOW.key("")),
        g.b.data(&plan::GPART_LIST.key("")),
    ) {
        (Some(_), _) | (_, Some(_)) => {
            "gpart lists no partition table on this disk (unpartitioned or used whole)".to_string()
        }
        _ => g.why(&plan::GPART_SHOW, ""),
    };
    Fact::unknown(why)
}

/// The PART geom named after the disk in kern.geom.confxml, with nested tables (a BSD label
/// inside an MBR slice) as children at absolute sectors.
pub(super) fn mesh_table(m: &confxml::Mesh, disk: &str, lsz: u64) -> Option<PartitionTable> {
    let g = m.geom("PART", disk)?;
    let num =
        |p: &confxml::Provider, k: &str| p.config.get(k).and_then(|v| util::leading_digits_u64(v));
    let part = |p: &confxml::Provider, base: u64| -> Partition {
        let sz = u64::from(p.sector_size.unwrap_or(u32::try_from(lsz).unwrap_or(512)));
        let start = base.saturating_add(num(p, "start").unwrap_or(0));
        let end = num(p, "end").unwrap_or(start);
        Partition {
            number: u32::try_from(num(p, "index").unwrap_or(0)).unwrap_or(0),
            name: p.name.clone(),
            start_sector: start,
            size_sectors: end
                .saturating_sub(num(p, "start").unwrap_or(0))
                .saturating_add(1),
            sector_bytes: u32::try_from(sz).unwrap_or(u32::MAX),
            start_bytes: start.saturating_mul(sz),
            type_name: p.config.get("type").cloned(),
            alignment_offset_bytes: stripe_misalignment(p.stripe_size, p.stripe_offset),
            active: p.config.get("attrib").is_some_and(|a| a == "active"),
            ..Default::default()
        }
    };
    let mut t = PartitionTable {
        scheme: g
            .config
            .get("scheme")
            .cloned()
            .unwrap_or_default()
            .to_ascii_lowercase(),
        partitions: Vec::new(),
        notes: g
            .config
            .get("first")
            .map(|f| vec![format!("first usable sector {f}")])
            .unwrap_or_default(),
    };
    let mut provs: Vec<&confxml::Provider> = g.providers.iter().collect();
    crate::sort::sort_by_key(&mut provs, |p| num(p, "start").unwrap_or(0));
    for p in provs {
        let mut e = part(p, 0);
        if let Some(inner) = m.geom("PART", &p.name) {
            let mut kids: Vec<&confxml::Provider> = inner.providers.iter().collect();
            crate::sort::sort_by_key(&mut kids, |c| num(c, "start").unwrap_or(0));
            e.children = kids.into_iter().map(|c| part(c, e.start_sector)).collect();
        }
        t.partitions.push(e);
    }
    Some(t)
}

/// `diskinfo -v` of the disk's partitions (ada0p2, da0s1, da0s1a): GEOM's own alignment
/// verdict. g_part.c g_part_new_provider() gives a partition the disk's stripesize and
/// `(disk stripeoffset + partition offset) % stripesize` as its stripeoffset, so with a
/// stripesize a non-zero stripeoffset means the partition starts that many bytes past a
/// physical-sector boundary. The verdict goes on the partition of the known table (kept
/// when gpart list or confxml already gave one); without a table the partition is recorded
/// with its start unknown (start 0, the verdict in `alignment_offset_bytes`), which
/// checks::partition_misaligned judges by the verdict alone. The stripesize is the disk's
/// physical sector when nothing else gave one.
pub(super) fn partition_stripes(g: &Global, disk: &str, lsz: u64, d: &mut DiskFacts) {
    let prefix = diskinfo::SPEC.key_for(disk);
    let mut found: Vec<(String, diskinfo::DiskInfo, String)> = Vec::new();
    for (k, _) in g.b.captures.iter() {
        let Some(rest) = k.strip_prefix(&prefix) else {
            continue;
        };
        let provider = format!("{disk}{rest}");
        // A GELI or gnop provider (ada0p4.eli) has its own sector size: not a partition.
        if rest.is_empty() || disk_of_provider(&provider) != disk || rest.contains([' ', '.', '/'])
        {
            continue;
        }
        if let Some(t) = g.b.data(&plan::DISKINFO.key(&provider)) {
            found.push((provider, diskinfo::parse(t), k.clone()));
        }
    }
    if found.is_empty() {
        return;
    }
    if !d.physical_sector_bytes.is_known()
        && let Some((s, k)) = found.iter().find_map(|(_, i, k)| {
            let s = u32::try_from(i.stripe_size?).ok().filter(|s| *s > 0)?;
            Some((s, k.clone()))
        })
    {
        d.physical_sector_bytes = Fact::known(s, k);
    }
    match &mut d.partition_table {
        Fact::Known { value, from } => {
            for (provider, info, k) in &found {
                let Some(mis) = stripe_misalignment(info.stripe_size, info.stripe_offset) else {
                    continue;
                };
                let mut set = false;
                for p in value.partitions.iter_mut() {
                    if p.name == *provider {
                        p.alignment_offset_bytes.get_or_insert(mis);
                        set = true;
                    }
                    for c in p.children.iter_mut().filter(|c| c.name == *provider) {
                        c.alignment_offset_bytes.get_or_insert(mis);
                        set = true;
                    }
                }
                if set && !from.contains(k) {
                    from.push(k.clone());
                }
            }
        }
        Fact::Unknown { .. } => {
            let mut t = PartitionTable {
                scheme: String::new(),
                partitions: Vec::new(),
                notes: vec![
                    "only `diskinfo -v` of the partitions is known: GEOM's stripeoffset says \
                     how far each starts past a physical-sector boundary, not at which sector"
                        .to_string(),
                ],
            };
            let mut from = Vec::new();
            for (provider, info, k) in &found {
                let sz = info.sector_size.map_or(lsz, u64::from).max(1);
                let mis = stripe_misalignment(info.stripe_size, info.stripe_offset);
                // Without a stripesize the stripeoffset is the partition's byte offset on
                // the disk (g_part.c adds the offset and takes no remainder).
                let start_bytes = match (mis, info.stripe_offset) {
                    (None, Some(o)) => o,
                    _ => 0,
                };
                t.partitions.push(Partition {
                    number: 0,
                    name: provider.clone(),
                    start_sector: start_bytes / sz,
                    size_sectors: info
                        .media_sectors
                        .or(info.media_bytes.map(|b| b / sz))
                        .unwrap_or(0),
                    sector_bytes: u32::try_from(sz).unwrap_or(512),
                    start_bytes,
                    type_name: None,
                    alignment_offset_bytes: mis,
                    children: Vec::new(),
                    active: false,
                });
                from.push(k.clone());
            }
            d.partition_table = Fact::known_from(t, from);
        }
    }
}

/// A partition's GEOM stripeoffset is its distance past a stripe (physical sector)
/// boundary when the disk reports a stripesize; with stripesize 0 it is only the raw byte
/// offset (see the ada0p4 diskinfo fixture) and says nothing about alignment.
pub(super) fn stripe_misalignment(
    stripe_size: Option<u64>,
    stripe_offset: Option<u64>,
) -> Option<u64> {
    match (stripe_size, stripe_offset) {
        (Some(s), Some(o)) if s > 0 => Some(o % s),
        _ => None,
    }
}

pub(super) fn mk_partition(e: &gpart_show::Entry, name: &str, base: u64, lsz: u64) -> Partition {
    let start = base.saturating_add(e.start);
    Partition {
        number: e.index.unwrap_or(0),
        name: name.to_string(),
        start_sector: start,
        size_sectors: e.size,
        sector_bytes: u32::try_from(lsz).unwrap_or(u32::MAX),
        start_bytes: start.saturating_mul(lsz),
        type_name: e.type_name.clone(),
        alignment_offset_bytes: None,
        children: Vec::new(),
        // geom_part.c gpart_show_geom() prints the entry's "attrib" config in brackets.
        active: e.attrs.iter().any(|a| a == "active"),
    }
}
