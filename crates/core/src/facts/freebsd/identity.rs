//! A FreeBSD disk's identity: model, vendor, serial, firmware and WWN, from IDENTIFY
//! (camcontrol identify / atacontrol cap), diskinfo -v, the inquiry string of the boot log
//! or `camcontrol devlist`, and the GEOM DISK provider.

use super::captures::{DiskCaptures, IDENTIFY, key, pick};
use crate::facts::{DiskFacts, Fact};
use crate::plan::freebsd as plan;

pub(super) fn fill(c: &DiskCaptures, d: &mut DiskFacts) {
    let DiskCaptures {
        g,
        name,
        prefix,
        id_item,
        dm_disk,
        ..
    } = *c;
    let dk = c.dk.clone();
    let id_key = c.id_key.clone();
    let di_key = c.di_key.clone();
    let cx_key = c.cx_key.clone();
    let ident = &c.ident;
    let di = &c.di;
    let cx_conf = |k: &str| c.cx_conf(k);
    // --- identity
    let scsi = prefix == "da";
    let (inq_vendor, inq_model, inq_rev) = dm_disk
        .and_then(|x| x.inquiry.as_deref())
        .or_else(|| {
            g.devlist
                .as_ref()
                .and_then(|l| l.device(name))
                .map(|x| x.inquiry.as_str())
        })
        .map(|i| split_inquiry(i, scsi))
        .unwrap_or((None, None, None));
    let inq_from = if dm_disk.and_then(|x| x.inquiry.as_ref()).is_some() {
        dk.clone()
    } else {
        key(&plan::DEVLIST, "")
    };
    d.model = pick(&[
        (ident.as_ref().and_then(|i| i.model.clone()), &id_key),
        (di.as_ref().and_then(|i| i.descr.clone()), &di_key),
        (inq_model, &inq_from),
        (cx_conf("descr"), &cx_key),
    ])
    .unwrap_or_else(|| Fact::unknown(g.why(&id_item, name)));
    d.vendor = match inq_vendor {
        Some(v) => Fact::known(v, inq_from.clone()),
        None => Fact::unknown("ATA drives report no separate vendor field"),
    };
    d.serial = pick(&[
        (
            ident
                .as_ref()
                .and_then(|i| i.serial.clone())
                .filter(|s| !s.chars().all(|c| c == '*')),
            &id_key,
        ),
        (di.as_ref().and_then(|i| i.ident.clone()), &di_key),
        (dm_disk.and_then(|x| x.serial.clone()), &dk),
        (cx_conf("ident"), &cx_key),
    ])
    .unwrap_or_else(|| Fact::unknown("no serial number in the captured output"));
    d.firmware = pick(&[
        (ident.as_ref().and_then(|i| i.firmware.clone()), &id_key),
        (inq_rev, &inq_from),
    ])
    .unwrap_or_else(|| Fact::unknown(g.why(&id_item, name)));
    d.wwn = pick(&[(
        ident
            .as_ref()
            .and_then(|i| i.wwn.clone())
            .filter(|s| !s.chars().all(|c| c == '*')),
        &id_key,
    )])
    .unwrap_or_else(|| Fact::unknown(format!("no WWN in {IDENTIFY}")));
}

/// Split an inquiry string "ATA TOSHIBA DT01ACA3 ABB0" into (vendor, model, revision).
/// ATA disks (ada) print "<model firmware>"; SCSI disks (da) "<vendor product revision>".
pub(super) fn split_inquiry(
    inq: &str,
    scsi: bool,
) -> (Option<String>, Option<String>, Option<String>) {
    let toks: Vec<&str> = inq.split_whitespace().collect();
    if toks.len() < 2 {
        return (None, toks.first().map(|s| s.to_string()), None);
    }
    let rev = toks.last().map(|s| s.to_string());
    let body = toks.get(..toks.len() - 1).unwrap_or(&[]);
    if scsi && body.len() >= 2 {
        let vendor = body.first().map(|s| s.to_string());
        (vendor, Some(body.get(1..).unwrap_or(&[]).join(" ")), rev)
    } else {
        (None, Some(body.join(" ")), rev)
    }
}
