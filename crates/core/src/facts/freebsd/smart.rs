//! A FreeBSD disk's SMART data: smartctl's report when it was captured, else why not (for
//! a drive behind mfi(4), how to reach it).

use super::captures::{DiskCaptures, key};
use crate::facts::{DiskFacts, Fact};
use crate::plan::freebsd as plan;
use crate::sources::{ask, ask_bare, spec::Ask};

pub(super) fn fill(c: &DiskCaptures, d: &mut DiskFacts) {
    let DiskCaptures {
        g, name, prefix, ..
    } = *c;
    d.smart = if prefix == "mfisyspd" {
        Fact::unknown(mfisyspd_smart())
    } else {
        Fact::unknown(g.why(&plan::SMARTCTL, name))
    };
    if let Some(out) = g.data(&plan::SMARTCTL, name) {
        crate::sources::smartctl::apply(d, &key(&plan::SMARTCTL, name), out);
    }
}

/// How to read the SMART data of a drive mfi(4) passes through (an mfisyspd disk), which
/// smartctl cannot reach through /dev/mfisyspdN: that node is a GEOM disk the mfi(4)
/// firmware serves (sys/dev/mfi/mfi_syspd.c), not a CAM device. The mfip module
/// (sys/dev/mfi/mfi_cam.c: DRIVER_MODULE(mfip, mfi, ...), "SCSI Passthrough Bus") puts
/// the controller's physical drives on a CAM bus and answers their INQUIRY as "no device",
/// so only pass(4) attaches to them: a /dev/passN per drive that smartctl reads, with
/// `-d sat` for a SATA drive behind the SAS controller (smartmontools' os_freebsd.cpp
/// says the same for /dev/mfid: "load mfip.ko and use /dev/passX"); smartmontools 7.3 and
/// later also read a drive through the controller node with `-d megaraid,N`.
pub(super) fn mfisyspd_smart() -> String {
    format!(
        "an mfisyspd disk is a drive the mfi(4) controller passes through, and {smart} cannot \
         reach the drive through /dev/mfisyspdN: load the mfip module (`kldload mfip`, or \
         mfip_load=\"YES\" in /boot/loader.conf), find the drive's passN on the mfi bus in \
         `{devlist}`, then run `{report}` (a SATA drive: `{sat}`); or, with smartmontools 7.3 \
         or later, `{megaraid} -a /dev/mfi0` with the drive's device id N (`mfiutil show \
         drives`)",
        smart = ask_bare(Ask::SmartProgram),
        devlist = ask_bare(Ask::CamDevlist),
        report = ask(Ask::SmartReport, "/dev/passN"),
        sat = ask(Ask::SmartSatReport, "/dev/passN"),
        megaraid = ask_bare(Ask::SmartMegaraidOption),
    )
}
