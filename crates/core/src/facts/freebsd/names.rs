//! Which disks a FreeBSD bundle is about: kern.disks, else the CAM device list, else the
//! disks the boot log attached, plus (in a pasted bundle) the disks per-disk captures name
//! and the SATA channels or USB SIMs that stand for a disk the log does not name.

use super::captures::Global;
use crate::evidence::SourceKey;
use crate::facts::{Controller, ControllerMode, DiskFacts, Fact};
use crate::plan::freebsd as plan;
use crate::sources::sysctl;

/// kern.disks, else the CAM device list, else the disks dmesg attached.
pub(super) fn disk_names(g: &Global) -> Vec<String> {
    let mut names: Vec<String> = if let Some(v) = g.data(&plan::KERN_DISKS, "") {
        sysctl::disk_names(sysctl::bare_value(v, "kern.disks"))
    } else if let Some(dl) = &g.devlist {
        dl.devices
            .iter()
            .filter_map(|d| d.disk().map(str::to_string))
            .collect()
    } else if let Some(dm) = &g.dmesg {
        dm.disks.keys().cloned().collect()
    } else {
        Vec::new()
    };
    // Without kern.disks (a pasted or hand-written bundle), also the disks that per-disk
    // captures name: `camcontrol identify ada0`, `camcontrol tags ada0 -v`, `atacontrol cap
    // ad4`, `diskinfo -v /dev/da0`.
    if g.data(&plan::KERN_DISKS, "").is_none() {
        for k in g.b.captures.keys() {
            let disk = [
                &crate::sources::camcontrol_tags::SPEC,
                &crate::sources::camcontrol_identify::SPEC,
                &crate::sources::camcontrol_identify::ATACONTROL_SPEC,
                &crate::sources::diskinfo::SPEC,
                &crate::sources::smartctl::SPEC,
            ]
            .iter()
            .find_map(|s| s.live.first().and_then(|l| l.device_in(k)));
            // `diskinfo -v /dev/ada0s1` of a partition is about its disk.
            if let Some(d) = disk {
                names.push(disk_of_provider(d));
            }
        }
        // and the disks gpart shows or lists tables of (slices such as da0s1 are filtered
        // below),
        names.extend(g.gshow.iter().map(|b| b.geom.clone()));
        names.extend(g.glist.iter().map(|x| x.name.clone()));
        // and the disks `geli list` consumers sit on (ada1p2 -> ada1); a consumer that is a
        // label (gpt/..., label/..., diskid/...) names no disk, so it stands for the pasted
        // disk (crate::facts::PASTED_DISK) and the GELI checks still run.
        for e in &g.geli {
            let Some(c) = e.consumer.as_deref() else {
                continue;
            };
            if is_label_provider(c) {
                names.push(crate::facts::PASTED_DISK.to_string());
            } else {
                names.push(disk_of_provider(c));
            }
        }
        // and the busy whole disks of a pasted gstat screen (an idle row names a disk the
        // paste says nothing else about; gstat also lists md, cd and pass devices).
        if let Some(t) = g.b.data(&SourceKey::cmd(plan::GSTAT_BUSY)) {
            names.extend(
                crate::sources::gstat::parse(t)
                    .into_iter()
                    .filter(|r| {
                        r.is_whole_disk()
                            && r.busy_pct
                                .is_some_and(|b| b >= crate::facts::BUSY_NOTICE_PCT)
                    })
                    .map(|r| r.name),
            );
        }
        // and the disks a boot log names only in CAM error lines ("(ada2:ahcich7:0:0:0):
        // READ_FPDMA_QUEUED ..."): a pasted tail of the log lacks their attach lines.
        if let Some(log) = g.data(&plan::DMESG_BOOT, "") {
            for l in log.lines() {
                if let Some((name, _)) = crate::sources::kernel_log::strip_prefixes(l)
                    .strip_prefix('(')
                    .and_then(|r| r.split_once(':'))
                    && plan::is_examined_disk(name)
                {
                    names.push(name.to_string());
                }
                // and the disks a log names only in their driver's error reports ("ad0s1g:
                // hard error reading fsbn ...": a slice or partition of ad0).
                if let Some(p) = crate::sources::kernel_log::disk_error_provider(
                    crate::sources::kernel_log::strip_prefixes(l),
                ) {
                    let d = disk_of_provider(p);
                    if plan::is_examined_disk(&d) {
                        names.push(d);
                    }
                }
                // and the mmcsd(4) cards a log names only in their error lines ("mmcsd0:
                // Error indicated: 1 Timeout", sources::kernel_log::classify).
                let body = crate::sources::kernel_log::strip_prefixes(l);
                if let Some((name, _)) = body.split_once(": ")
                    && name.starts_with("mmcsd")
                    && plan::is_examined_disk(name)
                    && crate::sources::kernel_log::classify(body).is_some()
                {
                    names.push(name.to_string());
                }
            }
        }
    }
    let channels = if g.data(&plan::KERN_DISKS, "").is_none() {
        lone_channels(g, &names)
    } else {
        Vec::new()
    };
    names.retain(|n| {
        plan::is_examined_disk(n) || crate::facts::is_pasted_disk(n) || channels.contains(n)
    });
    names.extend(channels);
    crate::sort::sort(&mut names);
    names.dedup();
    names
}

/// SATA channels whose command timeouts the log shows ("ahcich2: Timeout on slot 4 port 0",
/// ahci(4), siis(4), mvs(4); siis(4)'s "siisch1: siis_timeout is ..." register dump) while
/// no line of the log ties a disk to them (a pasted tail of the log without the disk's
/// attach or CAM lines): the channel itself stands for the disk behind it, so the timeouts
/// are reported for it (checks::link_errors).
pub(super) fn lone_channels(g: &Global, disks: &[String]) -> Vec<String> {
    use crate::sources::kernel_log::{cam_channel_for, strip_prefixes};
    let mut out: Vec<String> = Vec::new();
    for item in [plan::DMESG_BOOT, plan::DMESG_RUNNING] {
        let Some(log) = g.data(&item, "") else {
            continue;
        };
        for l in log.lines() {
            let body = strip_prefixes(l);
            // A USB mass-storage device whose probe failed never attaches as daN: CAM's
            // "(probe0:umass-sim0:0:0:0): CAM status: CCB request completed with an error"
            // (cam_periph.c, scsi_xpt.c probedone) names only its SIM, which then stands for
            // the device.
            if let Some(sim) = umass_sim_of_error(body)
                && !out.iter().any(|c| c == sim)
                && !disks
                    .iter()
                    .any(|d| cam_channel_for(d, log).as_deref() == Some(sim))
            {
                out.push(sim.to_string());
                continue;
            }
            // nvme(4)'s recovery lines ("nvme0: Resetting controller due to a timeout.",
            // sources::kernel_log::classify) with no nvd(4)/nda(4) namespace in the log (an
            // excerpt around the hang, or a controller that never came back to attach one):
            // the controller stands for its namespace, as Linux's "nvme nvme2: ..." does.
            if let Some(ctrl) = lone_nvme_controller(body)
                && !out.iter().any(|c| c == ctrl)
                && !disks
                    .iter()
                    .any(|d| d.starts_with("nvd") || d.starts_with("nda"))
            {
                out.push(ctrl.to_string());
                continue;
            }
            // mfi(4)'s command timeouts with no mfid volume in the log: the controller
            // stands for the volume it serves.
            // mpt(4)'s with an integrated-RAID volume in the log and no disk on the
            // controller: the same (a plain mpt HBA's timeouts belong to its daN disks).
            if let Some(ctrl) = crate::sources::kernel_log::raid_controller_timeout(body)
                && !out.iter().any(|c| c == ctrl)
                && if ctrl.starts_with("mfi") {
                    !disks.iter().any(|d| d.starts_with("mfid"))
                } else {
                    crate::sources::kernel_log::mpt_has_volume(log, ctrl)
                        && !disks
                            .iter()
                            .any(|d| cam_channel_for(d, log).as_deref() == Some(ctrl))
                }
            {
                out.push(ctrl.to_string());
                continue;
            }
            let Some((chan, rest)) = body.split_once(": ") else {
                continue;
            };
            let is_channel = ["ahcich", "siisch", "mvsch"].iter().any(|p| {
                chan.strip_prefix(p)
                    .is_some_and(|u| !u.is_empty() && u.chars().all(|c| c.is_ascii_digit()))
            });
            if !is_channel
                || !crate::sources::kernel_log::is_channel_timeout(rest)
                || out.iter().any(|c| c == chan)
            {
                continue;
            }
            let owned = disks
                .iter()
                .any(|d| cam_channel_for(d, log).as_deref() == Some(chan));
            if !owned {
                out.push(chan.to_string());
            }
        }
    }
    out
}

/// The nvme(4) controller of a recovery line ("nvme0: Resetting controller due to a
/// timeout." -> "nvme0"), None for any other line.
fn lone_nvme_controller(body: &str) -> Option<&str> {
    let (ctrl, _) = body.trim_start().split_once(": ")?;
    let unit = ctrl.strip_prefix("nvme")?;
    let is_ctrl = !unit.is_empty() && unit.chars().all(|c| c.is_ascii_digit());
    (is_ctrl && crate::sources::kernel_log::classify(body).is_some()).then_some(ctrl)
}

/// The umass(4) SIM of a CAM line where the transport failed ("(probe0:umass-sim0:0:0:0):
/// CAM status: CCB request completed with an error" -> "umass-sim0").
pub(super) fn umass_sim_of_error(body: &str) -> Option<&str> {
    let path = body.strip_prefix('(')?;
    let sim = path.split(':').nth(1)?;
    // Only the transport failing counts: a probe command the device refuses ("SCSI sense:
    // ILLEGAL REQUEST" to REPORT LUNS, which many sticks do not implement) is harmless.
    (sim.starts_with("umass-sim")
        && crate::sources::kernel_log::classify(body)
            == Some(crate::facts::KernelEventKind::TransportError))
    .then_some(sim)
}

/// Whether `name` is a SATA channel or a USB mass-storage SIM standing for its unnamed disk
/// ([`lone_channels`]).
pub(super) fn is_channel_name(name: &str) -> bool {
    ["ahcich", "siisch", "mvsch", "umass-sim"]
        .iter()
        .any(|p| name.strip_prefix(p).is_some_and(|u| !u.is_empty()))
}

/// An nvme(4) controller's name ("nvme0"), which stands for its namespace when the log
/// names none ([`lone_channels`]).
fn is_nvme_controller(name: &str) -> bool {
    name.strip_prefix("nvme")
        .is_some_and(|u| !u.is_empty() && u.chars().all(|c| c.is_ascii_digit()))
}

/// GEOM label providers (glabel(8), gpart labels, disk idents): names of a partition or disk
/// that do not say which disk.
pub(super) fn is_label_provider(name: &str) -> bool {
    [
        "gpt/", "gptid/", "label/", "diskid/", "ufs/", "ufsid/", "msdosfs/", "iso9660/",
    ]
    .iter()
    .any(|p| name.starts_with(p))
}

/// The disk a partition provider is on: ada1p2 -> ada1, da0s1a -> da0, nda0p5 -> nda0.
pub(super) fn disk_of_provider(name: &str) -> String {
    let name = name.trim_start_matches("/dev/");
    let digits_end = name
        .char_indices()
        .skip_while(|(_, c)| !c.is_ascii_digit())
        .find(|(_, c)| !c.is_ascii_digit())
        .map(|(i, _)| i)
        .unwrap_or(name.len());
    name.get(..digits_end).unwrap_or(name).to_string()
}

/// A SATA channel or USB mass-storage SIM standing for the disk behind it
/// ([`lone_channels`]): say so, and for a umass SIM what its bus is.
pub(super) fn stand_in(g: &Global, name: &str, d: &mut DiskFacts) {
    if name.starts_with("umass-sim") {
        // umass(4) is the USB mass-storage driver: the device behind it is on USB.
        d.notes.push(format!(
            "{name} is the USB mass-storage SIM of a device that did not attach as a disk: \
                 the log shows its failed probe commands, so its findings stand for that device"
        ));
        let k = g.dmesg_key();
        d.transport = Fact::known(crate::facts::Transport::Usb, k.clone());
        d.controller = Fact::known(
            Controller {
                driver: Some("umass".to_string()),
                usb_driver: Some("umass".to_string()),
                mode: Some(ControllerMode::Usb),
                ..Default::default()
            },
            k,
        );
    } else if is_nvme_controller(name) {
        // nvme(4) attaches the controller; nvd(4)/nda(4) its namespaces, the disks.
        d.notes.push(format!(
            "{name} is an NVMe controller (nvme(4)): the log shows it timing out and being \
             reset but names none of its namespaces (nvdN/ndaN), so its findings stand for \
             the drive"
        ));
        let k = g.dmesg_key();
        d.class = Fact::known(crate::facts::DeviceClass::Nvme, k.clone());
        d.transport = Fact::known(crate::facts::Transport::Nvme, k.clone());
        d.controller = Fact::known(
            Controller {
                driver: Some("nvme".to_string()),
                mode: Some(ControllerMode::Nvme),
                address: Some(name.to_string()),
                ..Default::default()
            },
            k,
        );
    } else if name
        .strip_prefix("mfi")
        .is_some_and(|u| !u.is_empty() && u.chars().all(|c| c.is_ascii_digit()))
    {
        // mfi(4) drives LSI/Dell MegaRAID controllers (PERC): what the OS sees behind it
        // is the controller's volume (mfid), not a drive.
        d.notes.push(format!(
            "{name} is a MegaRAID controller (mfi(4)), not a disk: the log shows commands it \
             left unanswered but no volume of it, so its findings stand for its volume"
        ));
        let k = g.dmesg_key();
        d.class = Fact::known(crate::facts::DeviceClass::RaidVolume, k.clone());
        d.controller = Fact::known(
            Controller {
                driver: Some("mfi".to_string()),
                mode: Some(ControllerMode::Raid),
                ..Default::default()
            },
            k,
        );
    } else if name
        .strip_prefix("mpt")
        .is_some_and(|u| !u.is_empty() && u.chars().all(|c| c.is_ascii_digit()))
    {
        // mpt(4) with an integrated-RAID volume (lone_channels): LSI Fusion-MPT firmware
        // (SAS1064/1068, 53c1030 IM/IS) presents the volume as one SCSI target.
        d.notes.push(format!(
            "{name} is an LSI Fusion-MPT controller (mpt(4)) with a RAID volume, not a disk: \
             the log shows requests it left unanswered but no disk of it, so its findings \
             stand for its volume"
        ));
        let k = g.dmesg_key();
        d.class = Fact::known(crate::facts::DeviceClass::RaidVolume, k.clone());
        d.controller = Fact::known(
            Controller {
                driver: Some("mpt".to_string()),
                mode: Some(ControllerMode::Raid),
                ..Default::default()
            },
            k,
        );
    } else if is_channel_name(name) {
        d.notes.push(format!(
            "{name} is a SATA channel, not a disk: the log shows its command timeouts but \
                 names no disk on it (no attach or CAM line), so its findings stand for the \
                 disk behind it"
        ));
    }
}
