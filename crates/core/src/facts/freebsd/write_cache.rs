//! A FreeBSD disk's write cache: supported and enabled (IDENTIFY word 82/85 bit 5, the
//! SCSI caching mode page's WCE bit), and the OS settings that force it at attach.

use super::captures::{DiskCaptures, DiskSrc, Global, IDENTIFY, key, push};
use crate::facts::{DiskFacts, Fact};
use crate::plan::{Item, freebsd as plan};
use crate::sources::{camcontrol_modepage, sysctl};

pub(super) fn fill(c: &DiskCaptures, d: &mut DiskFacts) {
    let DiskCaptures {
        g, name, id_item, ..
    } = *c;
    let src = c.src();
    // --- write cache (word 82 bit 5 supported, word 85 bit 5 enabled), then the OS
    // settings that force it: kern.cam.ada.N.write_cache / kern.cam.ada.write_cache for
    // ada(4), hw.ata.wc for the old ata(4) adN disks.
    write_cache(src, &id_item, d);
    scsi_write_cache(g, name, d);
}

pub(super) fn write_cache(src: DiskSrc, id_item: &Item, d: &mut DiskFacts) {
    let DiskSrc {
        g,
        name,
        prefix,
        ident,
        id_key,
        ..
    } = src;
    let row = ident.and_then(|i| i.write_cache());
    d.write_cache_supported = match row.and_then(|r| r.supported) {
        Some(s) => Fact::known(s, id_key.to_string()),
        None => Fact::unknown(match ident {
            Some(_) => "the captured identify output has no write cache row".to_string(),
            None => g.why(id_item, name),
        }),
    };
    d.write_cache_enabled = match row.and_then(|r| r.enabled) {
        Some(e) => Fact::known(e, id_key.to_string()),
        None => Fact::unknown(match ident {
            Some(_) => "the captured identify output has no write cache row".to_string(),
            None => g.why(id_item, name),
        }),
    };
    // OS-side overrides, applied at attach: 0 turns the cache off.
    let setting: Option<(String, String)> = if prefix == "ada" {
        let per = g
            .data(&plan::ADA_WRITE_CACHE, name)
            .map(|v| {
                (
                    sysctl::bare_value(v, "").to_string(),
                    key(&plan::ADA_WRITE_CACHE, name),
                )
            })
            .filter(|(v, _)| v != "-1");
        per.or_else(|| {
            g.data(&plan::ADA_WRITE_CACHE_DEFAULT, "").map(|v| {
                (
                    sysctl::bare_value(v, "kern.cam.ada.write_cache").to_string(),
                    key(&plan::ADA_WRITE_CACHE_DEFAULT, ""),
                )
            })
        })
    } else if prefix == "ad" {
        g.data(&plan::HW_ATA_WC, "").map(|v| {
            (
                sysctl::bare_value(v, "hw.ata.wc").to_string(),
                key(&plan::HW_ATA_WC, ""),
            )
        })
    } else {
        None
    };
    if prefix == "ada"
        && let Some((v, k)) = &setting
    {
        ada_write_cache_setting(d, v, k, row.and_then(|r| r.enabled).is_some());
        return;
    }
    if prefix == "ad"
        && row.and_then(|r| r.enabled).is_some()
        && let Some((v, k)) = &setting
    {
        ad_write_cache_setting(d, v, k);
        return;
    }
    if let Some((v, k)) = setting {
        let mut from = d.write_cache_enabled.sources().to_vec();
        push(&mut from, &k);
        match v.as_str() {
            "0" => d.write_cache_enabled = Fact::known_from(false, from),
            "1" if d.write_cache_supported.get() == Some(true)
                && !d.write_cache_enabled.is_known() =>
            {
                d.write_cache_enabled = Fact::known_from(true, from)
            }
            _ => {}
        }
    }
}

/// ada(4) write-cache setting against the drive's state. sys/cam/ata/ata_da.c (FreeBSD
/// 12-15, e.g. main @ 0040d1fb): the setting (`ADA_WC`, the per-disk
/// kern.cam.ada.N.write_cache when >= 0, else kern.cam.ada.write_cache) is sent to the drive
/// only in state ADA_STATE_WCACHE (adastart(): `ata_28bit_cmd(ataio, ATA_SETFEATURES, ADA_WC
/// ? ATA_SF_ENAB_WCACHE : ATA_SF_DIS_WCACHE, 0, 0)`), entered from adaregister() at probe
/// and from adaasync() on AC_SENT_BDR / AC_BUS_RESET (`else if (ADA_WC >= 0 && softc->flags
/// & ADA_FLAG_CAN_WCACHE) softc->state = ADA_STATE_WCACHE`). Writing the sysctl later
/// changes nothing until then, so IDENTIFY word 85 bit 5 (camcontrol identify "write
/// cache ... enabled") is the drive's current state and wins.
pub(super) fn ada_write_cache_setting(d: &mut DiskFacts, v: &str, k: &str, identify_knows: bool) {
    let off = v == "0";
    let on = v == "1";
    if identify_knows {
        let now = d.write_cache_enabled.get();
        if off && now == Some(true) {
            d.notes.push(format!(
                "{k} = 0: ada(4) is configured to turn the write cache off at the next probe or \
                 bus reset (ata_da.c applies it only then); IDENTIFY shows it enabled now"
            ));
        } else if off && now == Some(false) {
            // The drive agrees with the setting: the sysctl is why the cache is off.
            let mut from = d.write_cache_enabled.sources().to_vec();
            push(&mut from, k);
            d.write_cache_enabled = Fact::known_from(false, from);
        } else if on && now == Some(false) {
            d.notes.push(format!(
                "{k} = 1: ada(4) is configured to turn the write cache on at the next probe or \
                 bus reset; IDENTIFY shows it disabled now"
            ));
        }
        return;
    }
    if off {
        d.write_cache_enabled = Fact::unknown(format!(
            "{k} = 0 configures ada(4) to turn the write cache off at probe or bus reset, \
             but no IDENTIFY ({IDENTIFY}) shows the drive's current state"
        ));
    } else if on && d.write_cache_supported.get() == Some(true) {
        d.write_cache_enabled = Fact::unknown(format!(
            "{k} = 1 configures ada(4) to turn the write cache on at probe or bus reset, \
             but no IDENTIFY ({IDENTIFY}) shows the drive's current state"
        ));
    }
}

/// ata(4) (FreeBSD <= 8) with an `atacontrol cap` write-cache row: hw.ata.wc is a boot-time
/// tunable that sys/dev/ata/ata-disk.c ad_init() sends to the drive at attach and after a
/// channel reinit (`if (ata_wc) ... ATA_SF_ENAB_WCACHE else ... ATA_SF_DIS_WCACHE`), so the
/// row is the drive's state and wins; hw.ata.wc=0 is cited when the drive agrees.
pub(super) fn ad_write_cache_setting(d: &mut DiskFacts, v: &str, k: &str) {
    match (v, d.write_cache_enabled.get()) {
        ("0", Some(false)) => {
            let mut from = d.write_cache_enabled.sources().to_vec();
            push(&mut from, k);
            d.write_cache_enabled = Fact::known_from(false, from);
        }
        ("0", Some(true)) => d.notes.push(format!(
            "{k} = 0, but the drive reports its write cache enabled: something turned it on \
             after ata(4) attached it; the next channel reset turns it off again"
        )),
        _ => {}
    }
}

/// A da(4) disk without an IDENTIFY write-cache row (a SAS drive): the WCE bit of the
/// caching mode page (camcontrol modepage daN -m 8) is the current state.
pub(super) fn scsi_write_cache(g: &Global, name: &str, d: &mut DiskFacts) {
    if d.write_cache_enabled.is_known() {
        return;
    }
    let Some(text) = g.data(&plan::MODEPAGE_CACHING, name) else {
        return;
    };
    let k = key(&plan::MODEPAGE_CACHING, name);
    if let Some(wce) = camcontrol_modepage::parse(text).wce {
        d.write_cache_enabled = Fact::known(wce, k.clone());
        if !d.write_cache_supported.is_known() {
            // The drive has a caching page with a WCE bit.
            d.write_cache_supported = Fact::known(true, k);
        }
    }
}
