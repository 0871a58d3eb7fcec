//! What a FreeBSD disk's medium is: its rotation rate (IDENTIFY word 217, diskinfo,
//! GEOM's rotationrate, kern.cam.ada.N.rotating) and whether it supports TRIM.

use super::captures::{DiskCaptures, Global, IDENTIFY, key, pick_num};
use crate::facts::{DeviceClass, DiskFacts, Fact};
use crate::plan::freebsd as plan;
use crate::sources::sysctl;

pub(super) fn fill(c: &DiskCaptures, d: &mut DiskFacts) {
    let id_key = c.id_key.clone();
    let di_key = c.di_key.clone();
    let cx_key = c.cx_key.clone();
    let ident = &c.ident;
    let di = &c.di;
    let cx_conf = |k: &str| c.cx_conf(k);
    // --- rotation
    let rpm = pick_num(&[
        (
            ident.as_ref().and_then(|x| x.rotation_rpm).map(u64::from),
            id_key.clone(),
        ),
        (
            di.as_ref().and_then(|x| x.rotation_rpm).map(u64::from),
            di_key.clone(),
        ),
        // GEOM DISK's rotationrate as `geom disk list` shows it: "unknown", 0 for
        // non-rotating media, else the nominal rpm (IDENTIFY word 217 range 0401h-FFFEh).
        (
            cx_conf("rotationrate")
                .and_then(|v| v.parse::<u64>().ok())
                .and_then(|v| match v {
                    0 => Some(0),
                    0x401..=0xfffe => Some(v),
                    _ => None,
                }),
            cx_key.clone(),
        ),
    ]);
    match &rpm {
        Some((v, k)) => {
            d.rotation_rpm = Fact::known(u32::try_from(*v).unwrap_or(u32::MAX), k.clone());
            d.rotational = Fact::known(*v != 0, k.clone());
        }
        None => {
            let why = format!(
                "neither {IDENTIFY} (media RPM) nor diskinfo (Rotation rate) reported a rotation rate"
            );
            d.rotation_rpm = Fact::unknown(why.clone());
            d.rotational = Fact::unknown(why);
        }
    }
    d.trim_supported = match (
        ident.as_ref().and_then(|i| i.trim()),
        di.as_ref().and_then(|x| x.trim),
    ) {
        (Some(t), _) => Fact::known(t, id_key.clone()),
        (None, Some(t)) => Fact::known(t, di_key.clone()),
        _ => Fact::unknown(format!("no TRIM line in {IDENTIFY} or diskinfo")),
    };
}

/// kern.cam.ada.N.rotating (ata_da.c adaregister(): 0 only when IDENTIFY word 217 is 1,
/// "non-rotating"; 1 also when the drive reports no rate), used when no rotation rate was
/// read: only 0 is conclusive.
pub(super) fn ada_rotating(g: &Global, name: &str, d: &mut DiskFacts) {
    let Some(v) = g.data(&plan::ADA_ROTATING, name) else {
        return;
    };
    let k = key(&plan::ADA_ROTATING, name);
    if d.rotational.is_known() {
        return;
    }
    match sysctl::bare_value(v, "") {
        "0" => {
            d.rotational = Fact::known(false, k.clone());
            d.rotation_rpm = Fact::known(0, k.clone());
            if !d.class.is_known() {
                d.class = Fact::known(DeviceClass::Ssd, k);
            }
        }
        "1" => {
            d.rotational = Fact::unknown(format!(
                "{k} = 1, which ada(4) also sets when the drive reports no rotation rate"
            ));
        }
        _ => {}
    }
}
