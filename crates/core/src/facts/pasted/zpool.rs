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
