//! A FreeBSD disk's geometry: logical and physical sector sizes, media size and where the
//! first physical sector starts, from the DIOCG* ioctls, diskinfo -v, IDENTIFY, the boot
//! log and the GEOM DISK provider.

use super::captures::{DiskCaptures, key, pick_num};
use crate::facts::{DiskFacts, Fact};
use crate::plan::{Item, freebsd as plan};

/// Fills the sizes; returns the logical sector size the partition families count in (512
/// when none was read).
pub(super) fn fill(c: &DiskCaptures, d: &mut DiskFacts) -> u64 {
    let DiskCaptures {
        g,
        name,
        dm_disk,
        cx,
        ..
    } = *c;
    let dk = c.dk.clone();
    let id_key = c.id_key.clone();
    let di_key = c.di_key.clone();
    let cx_key = c.cx_key.clone();
    let ident = &c.ident;
    let di = &c.di;
    let ioctl = |item: &Item| c.ioctl(item);
    // --- sizes. GEOM's stripesize is the physical sector size the kernel (with its ada(4)
    // quirks) wants writes aligned to; stripeoffset is where the first one starts.
    let logical = pick_num(&[
        (
            ioctl(&plan::SECTORSIZE).map(|x| x.0),
            key(&plan::SECTORSIZE, name),
        ),
        (
            di.as_ref().and_then(|x| x.sector_size).map(u64::from),
            di_key.clone(),
        ),
        (
            ident
                .as_ref()
                .and_then(|x| x.logical_sector_bytes)
                .map(u64::from),
            id_key.clone(),
        ),
        (
            dm_disk.and_then(|x| x.sector_size).map(u64::from),
            dk.clone(),
        ),
        (
            cx.and_then(|p| p.sector_size).map(u64::from),
            cx_key.clone(),
        ),
        // Last: a pasted `gpart show` alone, whose header's sector count and media size
        // tell a 4Kn disk from a 512-byte one.
        (
            g.gshow
                .iter()
                .find(|b| b.geom == name)
                .and_then(|b| b.sector_size_from_header())
                .map(u64::from),
            key(&plan::GPART_SHOW, ""),
        ),
    ]);
    // A sector size that does not fit 32 bits is not a sector size (crafted or garbled
    // input): treated as not given.
    let logical = logical.filter(|(v, _)| u32::try_from(*v).is_ok());
    d.logical_sector_bytes = match &logical {
        Some((v, k)) => Fact::known(u32::try_from(*v).unwrap_or(512), k.clone()),
        None => Fact::unknown(g.why(&plan::DISKINFO, name)),
    };
    let lsz = logical.as_ref().map(|x| x.0).unwrap_or(512);
    d.size_bytes = match pick_num(&[
        (
            ioctl(&plan::MEDIASIZE).map(|x| x.0),
            key(&plan::MEDIASIZE, name),
        ),
        (di.as_ref().and_then(|x| x.media_bytes), di_key.clone()),
        (
            dm_disk.and_then(|x| x.sectors?.checked_mul(u64::from(x.sector_size?))),
            dk.clone(),
        ),
        (
            ident.as_ref().and_then(|x| {
                let n = x.lba48_sectors.filter(|n| *n > 0).or(x.lba_sectors)?;
                n.checked_mul(u64::from(x.logical_sector_bytes.unwrap_or(512)))
            }),
            id_key.clone(),
        ),
        (cx.and_then(|p| p.media_bytes), cx_key.clone()),
    ]) {
        Some((v, k)) => Fact::known(v, k),
        None => Fact::unknown(g.why(&plan::DISKINFO, name)),
    };
    let stripe = pick_num(&[
        (
            ioctl(&plan::STRIPESIZE).map(|x| x.0),
            key(&plan::STRIPESIZE, name),
        ),
        (di.as_ref().and_then(|x| x.stripe_size), di_key.clone()),
        (cx.and_then(|p| p.stripe_size), cx_key.clone()),
    ]);
    let stripe_off = pick_num(&[
        (
            ioctl(&plan::STRIPEOFFSET).map(|x| x.0),
            key(&plan::STRIPEOFFSET, name),
        ),
        (di.as_ref().and_then(|x| x.stripe_offset), di_key.clone()),
        (cx.and_then(|p| p.stripe_offset), cx_key.clone()),
    ]);
    d.physical_sector_bytes = match (
        &stripe,
        ident.as_ref().and_then(|i| i.physical_sector_bytes),
    ) {
        (Some((s, k)), _) if *s > 0 && u32::try_from(*s).is_ok() => {
            Fact::known(u32::try_from(*s).unwrap_or(0), k.clone())
        }
        (_, Some(p)) => Fact::known(p, id_key.clone()),
        // A stripe is reported only when something larger than the logical sector exists:
        // ada(4)/da(4) set it from the IDENTIFY / READ CAPACITY(16) physical exponent when
        // physical > logical; nvd(4)/nda(4) pass nvme_ns_get_stripesize() (NPWA/NPWG when
        // the namespace reports them, else the NOIOB boundary, else 0; sys/dev/nvme/
        // nvme_ns.c). Stripesize 0 with 4096-byte (or larger) logical sectors, a 4Kn drive
        // such as a 4K-formatted NVMe namespace, means the physical sector is the logical one.
        (Some((0, k)), None) if lsz >= 4096 && u32::try_from(lsz).is_ok() => {
            let v = u32::try_from(lsz).unwrap_or(4096);
            match &logical {
                Some((_, lk)) if lk != k => Fact::known_from(v, vec![k.clone(), lk.clone()]),
                _ => Fact::known(v, k.clone()),
            }
        }
        (Some((0, k)), None) => Fact::unknown(format!(
            "{k} reports stripesize 0 (no physical-sector hint) and no IDENTIFY sector-size line was captured"
        )),
        _ => Fact::unknown(g.why(&plan::DISKINFO, name)),
    };
    d.alignment_offset_bytes = match (&stripe, &stripe_off, ident.as_ref()) {
        (Some((s, _)), Some((o, k)), _) if *s > 0 => Fact::known(*o, k.clone()),
        (_, _, Some(i)) if i.sector_offset_bytes.is_some() => Fact::known(
            u64::from(i.sector_offset_bytes.unwrap_or(0)),
            id_key.clone(),
        ),
        _ => Fact::unknown("no stripe size/offset or IDENTIFY sector offset captured"),
    };
    lsz
}
