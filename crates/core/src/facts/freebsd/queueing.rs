//! A FreeBSD disk's command queueing: NCQ support and depth (IDENTIFY words 75-76),
//! whether it is in use (camcontrol identify, the boot log, `camcontrol tags -v`) and the
//! queue depth CAM uses.

use super::captures::{DiskCaptures, DiskSrc, Global, IDENTIFY, key};
use crate::facts::{ControllerMode, DiskFacts, Fact};
use crate::plan::freebsd as plan;
use crate::sources::camcontrol_tags;

pub(super) fn ncq(c: &DiskCaptures, mode: Option<ControllerMode>, d: &mut DiskFacts) {
    let DiskCaptures {
        g, name, id_item, ..
    } = *c;
    let dk = c.dk.clone();
    let id_key = c.id_key.clone();
    let ident = &c.ident;
    let src = c.src();
    // --- NCQ (word 76 bit 8 supported, word 75 depth) and whether it is used
    match ident.as_ref().and_then(|i| i.ncq()) {
        Some(f) => {
            d.ncq_supported = Fact::known(f.supported == Some(true), id_key.clone());
            d.ncq_drive_depth = match ident.as_ref().and_then(|i| i.ncq_depth()) {
                Some(n) => Fact::known(n, id_key.clone()),
                None => Fact::unknown("no NCQ queue depth printed"),
            };
        }
        None => {
            let why = match &ident {
                Some(_) => "the captured identify output has no NCQ row".to_string(),
                None => g.why(&id_item, name),
            };
            d.ncq_supported = Fact::unknown(why.clone());
            d.ncq_drive_depth = Fact::unknown(why);
        }
    }
    d.ncq_active = ncq_active(src, mode, &dk);
}

pub(super) fn ncq_active(src: DiskSrc, mode: Option<ControllerMode>, dk: &str) -> Fact<bool> {
    let DiskSrc {
        g,
        name,
        prefix,
        ident,
        dm,
        id_key,
    } = src;
    if ident.is_some_and(|i| i.command_queueing_enabled) {
        return Fact::known(true, id_key.to_string());
    }
    if dm.is_some_and(|x| x.command_queueing) {
        return Fact::known(true, dk.to_string());
    }
    // ata(4) (adN, or ada on an ata channel SIM) never issues queued commands.
    let legacy = prefix == "ad"
        || mode == Some(ControllerMode::LegacyIde)
        || dm
            .and_then(|x| x.sim.as_deref())
            .is_some_and(|s| s.trim_end_matches(|c: char| c.is_ascii_digit()) == "ata");
    if legacy {
        let mut from = vec![];
        if ident.is_some() {
            from.push(id_key.to_string());
        }
        if g.dmesg.is_some() {
            from.push(dk.to_string());
        }
        if from.is_empty() {
            from.push(g.names_from.clone());
        }
        return Fact::known_from(false, from);
    }
    // No "Command Queueing Enabled" is not proof of the opposite: camcontrol identify
    // prints it only for SCSI-protocol periphs (da behind an HBA), never for ada(4), so
    // seed 002's FreeBSD 13.1 AHCI disk lacks it too. Without a dmesg line, say unknown.
    let _ = (g, name);
    Fact::unknown(format!(
        "neither {IDENTIFY} nor dmesg says whether command queueing is enabled for this disk"
    ))
}

/// Queue depth in use from `camcontrol tags -v` (dev_openings + dev_active). More than one
/// opening means CAM queues tagged (NCQ) commands to the drive; exactly one means it does
/// not, which settles "NCQ in use" where no "Command Queueing Enabled" line was printed.
pub(super) fn queue_depth(g: &Global, name: &str, d: &mut DiskFacts) {
    let Some(text) = g.data(&plan::TAGS, name) else {
        d.queue_depth = Fact::unknown(g.why(&plan::TAGS, name));
        return;
    };
    let k = key(&plan::TAGS, name);
    let Some(depth) = camcontrol_tags::parse(text).depth() else {
        d.queue_depth = Fact::unknown(format!("{k} printed no dev_openings/dev_active"));
        return;
    };
    d.queue_depth = Fact::known(depth, k.clone());
    if !d.ncq_active.is_known() && d.is_ata() {
        if depth > 1 {
            d.ncq_active = Fact::known(true, k);
        } else if d.ncq_supported.get() == Some(true) {
            d.ncq_active = Fact::known(false, k);
        }
    }
}
