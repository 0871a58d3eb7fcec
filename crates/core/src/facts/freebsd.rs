//! FreeBSD `derive`: bundle -> SystemFacts, pure. Each fact takes the best source present
//! (ioctl > diskinfo > camcontrol/atacontrol > dmesg > kern.geom.confxml) and keeps the
//! capture keys it came from; a missing source becomes an unknown with the reason.

use crate::evidence::{EvidenceBundle, Platform, SourceKey};
use crate::facts::{
    Controller, ControllerMode, DeviceClass, DiskFacts, Fact, Layer, LayerKind, Partition,
    PartitionTable, SystemFacts, Transport,
};
use crate::plan::{Item, freebsd as plan};
use crate::sources::geom_util::{self as util, split_unit};
use crate::sources::zpool::{self, DeviceNaming, PoolMembers};
use crate::sources::{ask, ask_bare, spec::Ask};
use crate::sources::{
    camcontrol_devlist, camcontrol_identify, camcontrol_modepage, camcontrol_tags, confxml,
    diskinfo, dmesg, geli, gpart_list, gpart_show, mount_p, pciconf, sysctl, zfs_get, zpool_ashift,
};

/// The machine-wide captures, parsed once.
struct Global<'a> {
    b: &'a EvidenceBundle,
    dmesg: Option<dmesg::Dmesg>,
    devlist: Option<camcontrol_devlist::Devlist>,
    /// dev.ahci / dev.ahcich / dev.atapci / dev.ata entries with the key each came from.
    dev_sysctl: Vec<(String, String, String)>,
    pci: Vec<pciconf::PciDevice>,
    gshow: Vec<gpart_show::Block>,
    glist: Vec<gpart_list::Geom>,
    geli: Vec<geli::Geli>,
    pools: Vec<PoolMembers>,
    /// kern.geom.confxml: the GEOM graph (readable without root).
    mesh: Option<confxml::Mesh>,
    /// The capture the disk list came from (kern.disks, devlist or dmesg.boot): the
    /// evidence for facts read off a disk's name alone (nvd -> NVMe, adN -> ata(4)).
    names_from: String,
    /// `mount -p`, `zfs get`, `pciconf -lc` and per-pool ashift captures.
    extra: Extra,
}

/// (pool, vdev -> ashift rows, capture key) of `zpool get ... all-vdevs`.
type VdevAshift = (String, Vec<(String, u32)>, String);

/// The captures of mounts, dataset properties, vdev ashift and PCIe links.
#[derive(Default)]
struct Extra {
    mounts: Vec<mount_p::Mounted>,
    /// `zfs get` rows (the key is rebuilt from `mount -p` with zfs_get::argv).
    zprops: Vec<(String, String, String)>,
    /// `pciconf -lc` devices (link width/speed).
    caps: Vec<pciconf::PciDevice>,
    /// Per pool: vdev -> ashift from `zpool get ... all-vdevs`, with its key.
    vdev_ashift: Vec<VdevAshift>,
    /// Per pool: `zdb -C` top-level vdevs, with its key.
    zdb: Vec<(String, Vec<zpool_ashift::TopVdev>, String)>,
}

impl Extra {
    fn gather(b: &EvidenceBundle, pools: &[PoolMembers]) -> Extra {
        let d = |item: &Item, n: &str| b.data(&item.key(n));
        let mounts = d(&plan::MOUNT_P, "")
            .map(mount_p::parse)
            .unwrap_or_default();
        // The same argv the probe ran (zfs_get::argv over the mounted datasets).
        let zkey = SourceKey::Command(zfs_get::argv(&mount_p::zfs_datasets(&mounts)));
        let zprops = b.data(&zkey).map(zfs_get::parse).unwrap_or_default();
        let mut vdev_ashift = Vec::new();
        let mut zdb = Vec::new();
        for p in pools {
            // A row named after the pool, or ashift 0, is the pool property that an older
            // zpool(8) printed before failing on "all-vdevs": not a vdev value.
            if let Some(t) = d(&plan::ZPOOL_ASHIFT, &p.name) {
                let rows: Vec<(String, u32)> = zpool_ashift::parse_vdev_props(t)
                    .into_iter()
                    .filter(|(n, a)| *n != p.name && *a >= 9)
                    .collect();
                if !rows.is_empty() {
                    vdev_ashift.push((p.name.clone(), rows, key(&plan::ZPOOL_ASHIFT, &p.name)));
                }
            }
            // zdb -C from the cache file, else zdb -e -C from the labels (cachefile=none).
            for item in [plan::ZDB_CONFIG, plan::ZDB_CONFIG_SEARCH] {
                if let Some(t) = d(&item, &p.name) {
                    zdb.push((
                        p.name.clone(),
                        zpool_ashift::parse_zdb(t),
                        key(&item, &p.name),
                    ));
                    break;
                }
            }
        }
        Extra {
            mounts,
            zprops,
            caps: d(&plan::PCICONF_CAPS, "")
                .map(pciconf::parse)
                .unwrap_or_default(),
            vdev_ashift,
            zdb,
        }
    }
}

fn key(item: &Item, disk: &str) -> String {
    item.key_str(disk)
}

impl<'a> Global<'a> {
    fn data(&self, item: &Item, disk: &str) -> Option<&'a str> {
        self.b.data(&item.key(disk))
    }
    fn why(&self, item: &Item, disk: &str) -> String {
        let k = item.key(disk);
        format!("{} {}", describe(&k), self.b.why(&k))
    }
    fn gather(b: &'a EvidenceBundle) -> Global<'a> {
        let d = |item: &Item| b.data(&item.key(""));
        let mut dev_sysctl = Vec::new();
        for item in [
            plan::DEV_AHCI,
            plan::DEV_AHCICH,
            plan::DEV_ATAPCI,
            plan::DEV_ATA,
        ] {
            if let Some(t) = d(&item) {
                for (k, v) in sysctl::parse(t) {
                    dev_sysctl.push((k, v, key(&item, "")));
                }
            }
        }
        let pools: Vec<PoolMembers> = d(&plan::ZPOOL_STATUS)
            .map(|t| zpool::pool_members(t, DeviceNaming::FreeBsd))
            .unwrap_or_default();
        Global {
            b,
            extra: Extra::gather(b, &pools),
            dmesg: d(&plan::DMESG_BOOT).map(dmesg::parse),
            devlist: d(&plan::DEVLIST).map(camcontrol_devlist::parse),
            dev_sysctl,
            pci: d(&plan::PCICONF).map(pciconf::parse).unwrap_or_default(),
            gshow: d(&plan::GPART_SHOW)
                .map(gpart_show::parse)
                .unwrap_or_default(),
            glist: d(&plan::GPART_LIST)
                .map(gpart_list::parse)
                .unwrap_or_default(),
            geli: d(&plan::GELI_LIST).map(geli::parse).unwrap_or_default(),
            pools,
            names_from: if d(&plan::KERN_DISKS).is_some() {
                key(&plan::KERN_DISKS, "")
            } else if d(&plan::DEVLIST).is_some() {
                key(&plan::DEVLIST, "")
            } else {
                key(&plan::DMESG_BOOT, "")
            },
            mesh: d(&plan::GEOM_CONFXML)
                .map(|t| confxml::parse(sysctl::bare_value(t, "kern.geom.confxml"))),
        }
    }
    fn dev_sysctl(&self, name: &str) -> Option<(&str, &str)> {
        self.dev_sysctl
            .iter()
            .rev()
            .find(|(k, _, _)| k == name)
            .map(|(_, v, from)| (v.as_str(), from.as_str()))
    }
    fn dmesg_key(&self) -> String {
        key(&plan::DMESG_BOOT, "")
    }
}

/// "camcontrol identify ada0:" style prefix for unknown reasons.
fn describe(k: &SourceKey) -> String {
    match k {
        SourceKey::Command(argv) => format!("`{}`:", argv.join(" ")),
        SourceKey::Sysctl(n) => format!("sysctl {n}:"),
        SourceKey::File(p) => format!("{p}:"),
        other => format!("{other}:"),
    }
}

pub fn derive(b: &EvidenceBundle) -> SystemFacts {
    let mut sys = SystemFacts::empty(Platform::Freebsd);
    // Pools resilvering or scrubbing (array-rebuilding).
    let zk = plan::ZPOOL_STATUS.key("");
    if let Some(t) = b.data(&zk) {
        sys.arrays = Fact::known(
            crate::facts::arrays::zfs_arrays(t, &zk.to_string()),
            zk.to_string(),
        );
    }
    let g = Global::gather(b);
    let dk = g.dmesg_key();
    let dm = g.dmesg.as_ref();
    // A sysctl value, trimmed, with its key.
    let sc = |item: &Item| -> Option<(String, String)> {
        let v = g.data(item, "")?.trim();
        (!v.is_empty()).then(|| (v.to_string(), key(item, "")))
    };
    let from_dmesg = |v: Option<String>, missing: &str| -> Fact<String> {
        match (v, dm) {
            (Some(v), _) => Fact::known(v, dk.clone()),
            (None, Some(_)) => Fact::unknown(missing),
            (None, None) => Fact::unknown(g.why(&plan::DMESG_BOOT, "")),
        }
    };
    // kern.ostype / kern.osrelease / hw.model / hw.physmem first, the boot messages second.
    sys.os_name = match sc(&plan::OSTYPE) {
        Some((v, k)) => Fact::known(v, k),
        None => from_dmesg(
            dm.and_then(|m| m.banner.as_ref())
                .map(|_| "FreeBSD".to_string()),
            "no FreeBSD banner in dmesg.boot",
        ),
    };
    sys.os_release = match sc(&plan::OSRELEASE) {
        Some((v, k)) => Fact::known(v, k),
        None => from_dmesg(
            dm.and_then(|m| m.release.clone()),
            "no FreeBSD banner in dmesg.boot",
        ),
    };
    sys.cpu_model = match sc(&plan::HW_MODEL) {
        Some((v, k)) => Fact::known(v, k),
        None => from_dmesg(
            dm.and_then(|m| m.cpu_model.clone()),
            "no CPU: line in dmesg.boot",
        ),
    };
    // Features2 AESNI: the CPU implements the AES-NI instructions (aesni(4)).
    sys.aes_ni = match (dm.and_then(|m| m.aesni()), dm) {
        (Some(v), _) => Fact::known(v, dk.clone()),
        (None, Some(_)) => Fact::unknown("no Features2= line in dmesg.boot"),
        (None, None) => Fact::unknown(g.why(&plan::DMESG_BOOT, "")),
    };
    sys.ram_bytes = match (
        sc(&plan::HW_PHYSMEM).and_then(|(v, k)| Some((v.parse::<u64>().ok()?, k))),
        dm.and_then(|m| m.real_memory_bytes),
    ) {
        (Some((v, k)), _) => Fact::known(v, k),
        (None, Some(v)) => Fact::known(v, dk.clone()),
        (None, None) => {
            Fact::unknown("neither hw.physmem nor a \"real memory\" line in dmesg.boot")
        }
    };
    sys.hostname = match sc(&plan::HOSTNAME) {
        Some((v, k)) => Fact::known(v, k),
        None => Fact::unknown(g.why(&plan::HOSTNAME, "")),
    };
    sys.aes_driver = Fact::unknown(
        "kldstat is not captured; `geli list` shows per provider whether crypto is hardware or software",
    );
    sys.is_root = Fact::unknown("not recorded in FreeBSD bundles");
    for name in disk_names(&g) {
        let mut d = derive_disk(&g, &name);
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
        } else if is_channel_name(&name) {
            d.notes.push(format!(
                "{name} is a SATA channel, not a disk: the log shows its command timeouts but \
                 names no disk on it (no attach or CAM line), so its findings stand for the \
                 disk behind it"
            ));
        }
        crate::facts::freebsd_device_state::disk(b, &name, &mut d);
        d.trim.fs_trim = crate::facts::freebsd_device_state::fs_trim(b, &d.mounts);
        let pools: Vec<String> = d
            .layers
            .iter()
            .filter(|l| l.kind == Some(LayerKind::Zfs))
            .map(|l| l.name.clone())
            .collect();
        d.trim.zfs_autotrim = crate::facts::zfs_trim::autotrim(b, &pools);
        controller_pcie(&g, &mut d);
        sys.disks.push(d);
    }
    sys
}

/// kern.disks, else the CAM device list, else the disks dmesg attached.
fn disk_names(g: &Global) -> Vec<String> {
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
        // disk (super::PASTED_DISK) and the GELI checks still run.
        for e in &g.geli {
            let Some(c) = e.consumer.as_deref() else {
                continue;
            };
            if is_label_provider(c) {
                names.push(super::PASTED_DISK.to_string());
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
            }
        }
    }
    let channels = if g.data(&plan::KERN_DISKS, "").is_none() {
        lone_channels(g, &names)
    } else {
        Vec::new()
    };
    names.retain(|n| plan::is_examined_disk(n) || super::is_pasted_disk(n) || channels.contains(n));
    names.extend(channels);
    names.sort();
    names.dedup();
    names
}

/// SATA channels whose command timeouts the log shows ("ahcich2: Timeout on slot 4 port 0",
/// ahci(4), siis(4), mvs(4)) while no line of the log ties a disk to them (a pasted tail of
/// the log without the disk's attach or CAM lines): the channel itself stands for the disk
/// behind it, so the timeouts are reported for it (checks::link_errors).
fn lone_channels(g: &Global, disks: &[String]) -> Vec<String> {
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
            let Some((chan, rest)) = body.split_once(": ") else {
                continue;
            };
            let is_channel = ["ahcich", "siisch", "mvsch"].iter().any(|p| {
                chan.strip_prefix(p)
                    .is_some_and(|u| !u.is_empty() && u.chars().all(|c| c.is_ascii_digit()))
            });
            if !is_channel || !rest.starts_with("Timeout on slot") || out.iter().any(|c| c == chan)
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

/// The umass(4) SIM of a CAM line where the transport failed ("(probe0:umass-sim0:0:0:0):
/// CAM status: CCB request completed with an error" -> "umass-sim0").
fn umass_sim_of_error(body: &str) -> Option<&str> {
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
fn is_channel_name(name: &str) -> bool {
    ["ahcich", "siisch", "mvsch", "umass-sim"]
        .iter()
        .any(|p| name.strip_prefix(p).is_some_and(|u| !u.is_empty()))
}

/// GEOM label providers (glabel(8), gpart labels, disk idents): names of a partition or disk
/// that do not say which disk.
fn is_label_provider(name: &str) -> bool {
    [
        "gpt/", "gptid/", "label/", "diskid/", "ufs/", "ufsid/", "msdosfs/", "iso9660/",
    ]
    .iter()
    .any(|p| name.starts_with(p))
}

/// The disk a partition provider is on: ada1p2 -> ada1, da0s1a -> da0, nda0p5 -> nda0.
fn disk_of_provider(name: &str) -> String {
    let name = name.trim_start_matches("/dev/");
    let digits_end = name
        .char_indices()
        .skip_while(|(_, c)| !c.is_ascii_digit())
        .find(|(_, c)| !c.is_ascii_digit())
        .map(|(i, _)| i)
        .unwrap_or(name.len());
    name.get(..digits_end).unwrap_or(name).to_string()
}

/// Split an inquiry string "ATA TOSHIBA DT01ACA3 ABB0" into (vendor, model, revision).
/// ATA disks (ada) print "<model firmware>"; SCSI disks (da) "<vendor product revision>".
fn split_inquiry(inq: &str, scsi: bool) -> (Option<String>, Option<String>, Option<String>) {
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

/// How to read the SMART data of a drive mfi(4) passes through (an mfisyspd disk), which
/// smartctl cannot reach through /dev/mfisyspdN: that node is a GEOM disk the mfi(4)
/// firmware serves (sys/dev/mfi/mfi_syspd.c), not a CAM device. The mfip module
/// (sys/dev/mfi/mfi_cam.c: DRIVER_MODULE(mfip, mfi, ...), "SCSI Passthrough Bus") puts
/// the controller's physical drives on a CAM bus and answers their INQUIRY as "no device",
/// so only pass(4) attaches to them: a /dev/passN per drive that smartctl reads, with
/// `-d sat` for a SATA drive behind the SAS controller (smartmontools' os_freebsd.cpp
/// says the same for /dev/mfid: "load mfip.ko and use /dev/passX"); smartmontools 7.3 and
/// later also read a drive through the controller node with `-d megaraid,N`.
/// How the facts name the source of a CAM disk's IDENTIFY data ("camcontrol identify").
const IDENTIFY: &str = crate::sources::camcontrol_identify::SPEC.display;

fn mfisyspd_smart() -> String {
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

fn derive_disk(g: &Global, name: &str) -> DiskFacts {
    let mut d = DiskFacts::new(name, &format!("/dev/{name}"));
    // Linux block-layer settings with no FreeBSD counterpart in the capture plan.
    d.scheduler = Fact::unknown("Linux I/O scheduler setting; not applicable on FreeBSD");
    d.nr_requests = Fact::unknown("Linux block-layer setting; not applicable on FreeBSD");
    d.queue_depth = Fact::unknown(format!(
        "`{}` is not in the capture plan",
        crate::sources::camcontrol_tags::SPEC.display
    ));
    d.link_limit_gbps = Fact::unknown(
        "FreeBSD sets SATA speed limits per channel (hint.ahcich.N.sata_rev); not captured",
    );
    let prefix = name.trim_end_matches(|c: char| c.is_ascii_digit());
    d.smart = if prefix == "mfisyspd" {
        Fact::unknown(mfisyspd_smart())
    } else {
        Fact::unknown(g.why(&plan::SMARTCTL, name))
    };
    let dk = g.dmesg_key();

    // --- raw per-disk captures
    let id_item = if prefix == "ad" {
        plan::ATACONTROL_CAP
    } else {
        plan::IDENTIFY
    };
    let id_key = key(&id_item, name);
    let ident = g.data(&id_item, name).map(camcontrol_identify::parse);
    let di_key = key(&plan::DISKINFO, name);
    let di = g.data(&plan::DISKINFO, name).map(diskinfo::parse);
    let ioctl = |item: &Item| -> Option<(u64, String)> {
        let v = g.data(item, name)?.trim().parse().ok()?;
        Some((v, key(item, name)))
    };
    let dm_disk = g.dmesg.as_ref().and_then(|m| m.disks.get(name));
    // The DISK provider in kern.geom.confxml: sizes, stripe, rotation, descr, ident.
    let cx = g.mesh.as_ref().and_then(|m| m.disk(name));
    let cx_key = key(&plan::GEOM_CONFXML, "");
    let cx_conf = |k: &str| -> Option<String> {
        cx.and_then(|p| p.config.get(k))
            .map(|v| v.trim().to_string())
            .filter(|v| !v.is_empty())
    };

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

    // --- controller and transport
    // The drive's own interface: "SATA" in the identify protocol line or the attach line.
    let sata_drive = if ident
        .as_ref()
        .and_then(|i| i.protocol.as_deref())
        .is_some_and(|p| p.contains("SATA"))
    {
        Some(id_key.clone())
    } else if dm_disk.is_some_and(|x| {
        [&x.standard, &x.transfer_detail, &x.ata_mode]
            .iter()
            .any(|f| f.as_deref().is_some_and(|t| t.contains("SATA")))
    }) {
        Some(dk.clone())
    } else {
        None
    };
    let (ctrl, ctrl_from) = controller_for(g, name, prefix, sata_drive.as_deref());
    let mode = ctrl.mode;
    let src = DiskSrc {
        g,
        name,
        prefix,
        ident: ident.as_ref(),
        dm: dm_disk,
        id_key: &id_key,
    };
    d.transport = transport_for(src, mode);
    d.controller = if ctrl.mode.is_some() || ctrl.driver.is_some() {
        Fact::known_from(ctrl, ctrl_from)
    } else {
        Fact::unknown(format!(
            "no attach line for this disk's SIM in dmesg.boot and no `{}` bus line",
            ask_bare(Ask::CamDevlist)
        ))
    };
    d.class = class_for(g, name, prefix, &d, dm_disk);

    // --- SATA link
    let is_sata = d.transport.get() == Some(Transport::Sata);
    d.link_current_gbps = if is_sata {
        link_current(ident.as_ref(), dm_disk, &id_key, &dk, mode)
    } else if d.transport.is_known() {
        Fact::unknown("not a SATA device (no SATA link)")
    } else {
        Fact::unknown(format!(
            "transport unknown ({}), so no SATA link speed is read",
            d.transport.why().unwrap_or("")
        ))
    };
    // The boot log's "ada1: <MODEL FW> ACS-2 ATA SATA 3.x device" is the drive's own
    // IDENTIFY generation (ata_xpt.c prints it from word 222), the maximum the drive
    // supports; ada(4) prints it for disks on every SIM.
    let dm_gen = dm_disk
        .and_then(|x| x.standard.as_deref())
        .filter(|s| s.contains("SATA") && s.ends_with("device"))
        .and_then(crate::sources::geom_util::sata_gen_gbps);
    d.link_drive_max_gbps = match (ident.as_ref().and_then(|i| i.drive_max_gbps()), dm_gen) {
        (Some(v), _) => Fact::known(v, id_key.clone()),
        (None, Some(v)) => Fact::known(v, dk.clone()),
        (None, None) => Fact::unknown(match &ident {
            Some(i) if i.atacontrol_layout => {
                "atacontrol's \"Serial ATA II\" protocol line does not say which speeds the drive supports".to_string()
            }
            Some(_) => format!("{IDENTIFY} printed no SATA generation"),
            None => g.why(&id_item, name),
        }),
    };
    d.link_port_max_gbps = port_max(g, &d);

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

    // --- write cache (word 82 bit 5 supported, word 85 bit 5 enabled), then the OS
    // settings that force it: kern.cam.ada.N.write_cache / kern.cam.ada.write_cache for
    // ada(4), hw.ata.wc for the old ata(4) adN disks.
    write_cache(src, &id_item, &mut d);
    scsi_write_cache(g, name, &mut d);
    queue_depth(g, name, &mut d);
    ada_rotating(g, name, &mut d);

    // --- partitions and layers
    d.partition_table = partition_table(g, name, lsz);
    partition_stripes(g, name, lsz, &mut d);
    d.layers = layers(g, name, &d.partition_table);
    zfs_ashift(g, &mut d);
    d.mounts = mounts_for(g, name, &d);

    // --- SMART and kernel log, parsed by the shared text parsers
    if let Some(out) = g.data(&plan::SMARTCTL, name) {
        crate::sources::smartctl::apply(&mut d, &key(&plan::SMARTCTL, name), out);
    }
    d.kernel_events = kernel_events(g, name);
    d
}

fn pick(cands: &[(Option<String>, &String)]) -> Option<Fact<String>> {
    cands.iter().find_map(|(v, k)| {
        v.as_ref()
            .filter(|s| !s.trim().is_empty())
            .map(|s| Fact::known(s.trim().to_string(), (*k).clone()))
    })
}

fn pick_num(cands: &[(Option<u64>, String)]) -> Option<(u64, String)> {
    cands.iter().find_map(|(v, k)| v.map(|v| (v, k.clone())))
}

/// The SIM a disk hangs off: devlist -v bus line, else the dmesg "daN at SIM" line.
fn sim_for(g: &Global, name: &str) -> Option<(String, String)> {
    if let Some(s) = g.devlist.as_ref().and_then(|l| l.sim_for(name)) {
        return Some((s.to_string(), key(&plan::DEVLIST, "")));
    }
    let dm = g.dmesg.as_ref()?;
    let s = dm.disks.get(name)?.sim.clone()?;
    Some((s, g.dmesg_key()))
}

/// The mfi(4) controller of a pass-through drive from its `dev.mfisyspd.N.%parent`
/// (plan::SYSPD_PARENT), as its SIM would be for a CAM disk.
fn syspd_parent(g: &Global, name: &str, prefix: &str) -> Option<(String, String)> {
    if prefix != "mfisyspd" {
        return None;
    }
    let k = plan::SYSPD_PARENT.key(name);
    let v = g.b.data(&k)?;
    let oid = match &k {
        SourceKey::Sysctl(oid) => oid.as_str(),
        _ => "",
    };
    let parent = sysctl::bare_value(v, oid);
    let parent = parent.split_whitespace().next()?;
    dmesg::is_controller(parent).then(|| (parent.to_string(), k.to_string()))
}

/// Map a SIM name to the controller instance: "umass-sim0" -> "umass0"; channels are
/// walked up through dmesg attach lines or dev.X.N.%parent sysctls.
fn controller_for(
    g: &Global,
    name: &str,
    prefix: &str,
    sata_drive: Option<&str>,
) -> (Controller, Vec<String>) {
    let mut c = Controller::default();
    let mut from: Vec<String> = Vec::new();
    let dk = g.dmesg_key();
    let sim = sim_for(g, name).or_else(|| syspd_parent(g, name, prefix));
    let mut ctrl_name: Option<String> = None;
    let mut sim_name: Option<String> = None;
    if let Some((s, k)) = &sim {
        from.push(k.clone());
        let s = s.replace("umass-sim", "umass");
        sim_name = Some(s.clone());
        // Walk up via dmesg.
        if let Some(a) = g.dmesg.as_ref().and_then(|m| m.controller_of(&s)) {
            ctrl_name = Some(a.name.clone());
            c.description = a.desc.clone();
            push(&mut from, &dk);
        } else if dmesg::is_controller(&s) {
            ctrl_name = Some(s.clone());
        } else if let Some((unit_drv, unit)) = split_unit(&s) {
            // dev.ahcich.2.%parent: ahci0
            if let Some((p, k)) = g.dev_sysctl(&format!("dev.{unit_drv}.{unit}.%parent")) {
                ctrl_name = Some(p.to_string());
                push(&mut from, k);
            }
        }
    }
    // No SIM: a single SATA/ATA controller in the evidence is the one, unless it is a
    // parallel-ATA function and the drive is SATA (seed 000's desktop names only
    // "atapci0: Intel ICH7 UDMA100 controller" for its SATA disk ad4).
    if ctrl_name.is_none()
        && matches!(prefix, "ad" | "ada")
        && let Some(dm) = g.dmesg.as_ref()
    {
        let ctrls: Vec<&dmesg::Attach> = dm
            .controllers
            .values()
            .filter(|a| {
                let p = a.name.trim_end_matches(|ch: char| ch.is_ascii_digit());
                p == "atapci" || p == "ahci"
            })
            .collect();
        if let [only] = ctrls.as_slice() {
            match only.desc.as_deref().and_then(pata_chipset) {
                Some(chipset) if let Some(sata_key) = sata_drive => {
                    // The SATA disk is on another function of the same chipset, one the
                    // log does not show. ata(4) with ATA_STATIC_ID (FreeBSD <= 8,
                    // sys/dev/ata/ata-all.c ata_add_child) numbers adN as channel N/2,
                    // master for even N: ad4 is ata2-master.
                    c.chipset = Some(chipset);
                    push(&mut from, &dk);
                    push(&mut from, sata_key);
                    if prefix == "ad"
                        && let Some(n) = name.get(2..).and_then(|u| u.parse::<u32>().ok())
                    {
                        c.address = Some(format!("ata{}", n / 2));
                    }
                }
                _ => {
                    ctrl_name = Some(only.name.clone());
                    c.description = only.desc.clone();
                    push(&mut from, &dk);
                }
            }
        }
    }
    if let Some(cn) = &ctrl_name {
        c.address = Some(cn.clone());
        let drv = cn.trim_end_matches(|ch: char| ch.is_ascii_digit());
        c.driver = Some(drv.to_string());
        if c.description.is_none()
            && let Some((drv2, unit)) = split_unit(cn)
        {
            if let Some((v, k)) = g.dev_sysctl(&format!("dev.{drv2}.{unit}.%desc")) {
                c.description = Some(v.to_string());
                push(&mut from, k);
            }
            if let Some((v, k)) = g.dev_sysctl(&format!("dev.{drv2}.{unit}.%pnpinfo"))
                && let Some(cls) = v
                    .split_whitespace()
                    .find_map(|t| t.strip_prefix("class="))
                    .and_then(util::hex_u32)
            {
                c.pci_class = Some(cls);
                push(&mut from, k);
            }
        }
        if let Some(p) = g.pci.iter().find(|p| p.name == *cn) {
            c.pci_class = p.class.or(c.pci_class);
            c.pci_id = p.pci_id.clone();
            if c.description.is_none() {
                c.description = p.device.clone();
            }
            push(&mut from, &key(&plan::PCICONF, ""));
        }
        if drv == "umass" {
            c.usb_driver = Some("umass".to_string());
        }
    }
    let sim_is_ata = sim_name
        .as_deref()
        .is_some_and(|s| s.trim_end_matches(|ch: char| ch.is_ascii_digit()) == "ata");
    c.mode = mode_for(
        c.driver.as_deref(),
        c.description.as_deref(),
        c.pci_class,
        sim_is_ata,
        prefix,
    );
    if c.mode.is_some() && from.is_empty() {
        // The disk name alone: only ata(4) (FreeBSD <= 8) names disks adN, only nvd(4)/nda(4)
        // sit on nvme(4).
        from.push(g.names_from.clone());
    }
    if c.driver.is_none() && (sim_is_ata || prefix == "ad") {
        c.driver = Some("ata".to_string());
    }
    (c, from)
}

/// The chipset family of a parallel-ATA function's description, None for anything else.
/// ata-pci.c ata_set_desc() prints "<vendor> <chip> <max DMA mode> controller", and the
/// mode is a UDMA/WDMA/PIO one for parallel functions, SATA150/SATA300 for serial ones
/// (ata_mode2str): "Intel ICH7 UDMA100 controller" -> "Intel ICH7".
fn pata_chipset(desc: &str) -> Option<String> {
    let body = desc.trim().strip_suffix("controller")?.trim_end();
    let (chip, mode) = body.rsplit_once(' ')?;
    let parallel = ["UDMA", "WDMA", "PIO"].iter().any(|m| {
        mode.strip_prefix(m)
            .is_some_and(|n| n.chars().all(|c| c.is_ascii_digit()))
    });
    (parallel && !chip.is_empty()).then(|| chip.to_string())
}

fn push(v: &mut Vec<String>, k: &str) {
    if !v.iter().any(|x| x == k) {
        v.push(k.to_string());
    }
}

/// Controller mode. ahci(4) is native AHCI. atapci(4) drives controllers in legacy or
/// "compatibility" mode (PCI class 0x0101xx); its descriptions read "... UDMA100
/// controller" / "... SATA300 controller", and only an "AHCI" description means the old
/// ata(4) stack found the controller in AHCI mode. A disk on an ata(4) channel SIM
/// ("ada0 at ata0") or named adN is on the legacy driver either way.
fn mode_for(
    driver: Option<&str>,
    desc: Option<&str>,
    class: Option<u32>,
    sim_is_ata: bool,
    prefix: &str,
) -> Option<ControllerMode> {
    if let Some(cls) = class {
        if cls >> 8 == 0x0101 {
            return Some(ControllerMode::LegacyIde);
        }
        if cls == 0x010601 && driver == Some("ahci") {
            return Some(ControllerMode::Ahci);
        }
    }
    match driver {
        Some("ahci") => return Some(ControllerMode::Ahci),
        Some("atapci") => {
            return Some(
                if desc.is_some_and(|d| d.contains("AHCI")) && !sim_is_ata && prefix != "ad" {
                    ControllerMode::Ahci
                } else {
                    ControllerMode::LegacyIde
                },
            );
        }
        Some("mps") | Some("mpr") => return Some(ControllerMode::SasHba),
        Some("umass") => return Some(ControllerMode::Usb),
        Some("nvme") => return Some(ControllerMode::Nvme),
        Some("vtscsi") | Some("virtio_blk") => return Some(ControllerMode::Virtio),
        Some("mfi") | Some("mrsas") | Some("ciss") | Some("aac") => {
            return Some(ControllerMode::Raid);
        }
        Some(_) => return Some(ControllerMode::Other),
        None => {}
    }
    if sim_is_ata || prefix == "ad" {
        return Some(ControllerMode::LegacyIde);
    }
    if matches!(prefix, "nvd" | "nda") {
        return Some(ControllerMode::Nvme);
    }
    None
}

/// What the per-disk derivations below read about one disk: its name and driver prefix,
/// its parsed identify output with the key it came from, and its dmesg.boot lines.
#[derive(Clone, Copy)]
struct DiskSrc<'a> {
    g: &'a Global<'a>,
    name: &'a str,
    prefix: &'a str,
    ident: Option<&'a camcontrol_identify::Identify>,
    dm: Option<&'a dmesg::DiskLines>,
    id_key: &'a str,
}

fn transport_for(src: DiskSrc, mode: Option<ControllerMode>) -> Fact<Transport> {
    let DiskSrc {
        g,
        name,
        prefix,
        ident,
        dm,
        id_key,
    } = src;
    let dk = g.dmesg_key();
    match prefix {
        "nvd" | "nda" => return Fact::known(Transport::Nvme, g.names_from.clone()),
        "vtbd" => return Fact::known(Transport::Virtio, g.names_from.clone()),
        // sdda: SD/eMMC on the CAM MMC stack (sys/cam/mmc/mmc_da.c), mmcsd: on mmc(4).
        "mmcsd" | "sdda" => return Fact::known(Transport::Mmc, g.names_from.clone()),
        "md" => return Fact::known(Transport::None, g.names_from.clone()),
        // A drive mfi(4) passes through: the driver tells nothing of its link
        // (sys/dev/mfi/mfi_syspd.c mfi_syspd_attach prints only its size).
        "mfisyspd" => {
            return Fact::unknown(
                "mfisyspd is a drive the mfi(4) controller passes through: the driver tells \
                 only its size, not whether it is SATA or SAS (`mfiutil show drives` on the \
                 controller does)",
            );
        }
        _ => {}
    }
    if mode == Some(ControllerMode::Usb) {
        return Fact::known(Transport::Usb, dk);
    }
    // ATA-style evidence: the protocol/standard strings name SATA.
    let sata_text = [
        ident.and_then(|i| i.protocol.as_deref()),
        ident.and_then(|i| i.header_standard.as_deref()),
        ident.and_then(|i| i.transfer_detail.as_deref()),
    ];
    if sata_text
        .iter()
        .flatten()
        .any(|t| t.contains("SATA") || t.contains("Serial ATA"))
    {
        return Fact::known(Transport::Sata, id_key.to_string());
    }
    if let Some(x) = dm {
        let texts = [
            x.standard.as_deref(),
            x.transfer_detail.as_deref(),
            x.ata_mode.as_deref(),
        ];
        if texts.iter().flatten().any(|t| t.contains("SATA")) {
            return Fact::known(Transport::Sata, dk);
        }
        if prefix == "da" {
            // da(4) behind a SAS HBA: an "ATA" inquiry vendor is a SATA drive (SAT).
            if x.inquiry.as_deref().is_some_and(|i| i.starts_with("ATA ")) {
                return Fact::known(Transport::Sata, dk);
            }
            if mode == Some(ControllerMode::SasHba) {
                return Fact::known(Transport::Sas, dk);
            }
        }
        if prefix == "ada" || prefix == "ad" {
            // An ATA disk whose strings never mention SATA: parallel ATA (UDMA/WDMA modes).
            if texts
                .iter()
                .flatten()
                .any(|t| t.contains("DMA") || t.contains("ATA"))
            {
                return Fact::known(Transport::Pata, dk);
            }
        }
    }
    if prefix == "da"
        && let Some(dev) = g.devlist.as_ref().and_then(|l| l.device(name))
    {
        if dev.vendor_is_ata() {
            return Fact::known(Transport::Sata, key(&plan::DEVLIST, ""));
        }
        if mode == Some(ControllerMode::SasHba) {
            return Fact::known(Transport::Sas, key(&plan::DEVLIST, ""));
        }
    }
    Fact::unknown(format!(
        "no SATA/PATA/SAS marker in {}, devlist or dmesg output",
        ask_bare(Ask::CamProgram)
    ))
}

fn class_for(
    g: &Global,
    name: &str,
    prefix: &str,
    d: &DiskFacts,
    dm: Option<&dmesg::DiskLines>,
) -> Fact<DeviceClass> {
    let kd = g.names_from.clone();
    match prefix {
        "nvd" | "nda" => return Fact::known(DeviceClass::Nvme, kd),
        "md" => return Fact::known(DeviceClass::Ram, kd),
        "vtbd" | "xbd" => return Fact::known(DeviceClass::Virtual, kd),
        "mmcsd" | "sdda" => return Fact::known(DeviceClass::Mmc, kd),
        "mfid" | "aacd" => return Fact::known(DeviceClass::RaidVolume, kd),
        _ => {}
    }
    if d.transport.get() == Some(Transport::Usb) {
        return Fact::known_from(DeviceClass::Usb, d.transport.sources().to_vec());
    }
    let inquiry = dm
        .and_then(|x| x.inquiry.clone())
        .or_else(|| {
            g.devlist
                .as_ref()
                .and_then(|l| l.device(name))
                .map(|x| x.inquiry.clone())
        })
        .unwrap_or_default();
    let model = d.model.value().cloned().unwrap_or_default();
    for s in [&inquiry, &model] {
        let l = s.to_ascii_lowercase();
        if l.contains("vmware")
            || l.contains("virtual disk")
            || l.contains("qemu")
            || l.contains("virtio")
        {
            return Fact::known_from(DeviceClass::Virtual, d.model.sources().to_vec());
        }
    }
    match d.rotation_rpm.get() {
        Some(0) => Fact::known_from(DeviceClass::Ssd, d.rotation_rpm.sources().to_vec()),
        Some(_) => Fact::known_from(DeviceClass::Hdd, d.rotation_rpm.sources().to_vec()),
        None => Fact::unknown(format!(
            "HDD or SSD: {}",
            d.rotation_rpm.why().unwrap_or("no rotation rate")
        )),
    }
}

/// Negotiated link speed. camcontrol's header gives it for CAM disks; dmesg gives it as
/// "adaN: 300.000MB/s transfers (SATA 2.x, ...)" or, for old ad(4), "at ata2-master
/// SATA300". Behind a SAS HBA, da(4) reports the HBA phy rate, which is the drive's link
/// only when the drive is directly attached (no expander).
fn link_current(
    ident: Option<&camcontrol_identify::Identify>,
    dm: Option<&dmesg::DiskLines>,
    id_key: &str,
    dk: &str,
    mode: Option<ControllerMode>,
) -> Fact<f64> {
    if let Some(v) = ident.and_then(|i| i.link_current_gbps()) {
        return Fact::known(v, id_key.to_string());
    }
    if let Some(x) = dm {
        if let Some(g) = x.transfer_detail.as_deref().and_then(util::sata_gen_gbps) {
            return Fact::known(g, dk.to_string());
        }
        if let Some(g) = x.transfer_mbps.and_then(util::sata_gbps_from_mbps) {
            return Fact::known(g, dk.to_string());
        }
        if let Some(m) = x.ata_mode.as_deref().and_then(|m| m.strip_prefix("SATA"))
            && let Some(g) = m.parse::<f64>().ok().and_then(util::sata_gbps_from_mbps)
        {
            return Fact::known(g, dk.to_string());
        }
        if mode == Some(ControllerMode::SasHba) && x.transfer_mbps.is_some() {
            return Fact::unknown(
                "the SAS HBA reports a phy rate above SATA's 6 Gb/s (an expander link), not the drive's SATA link",
            );
        }
    }
    Fact::unknown(format!(
        "no transfer-rate line from {IDENTIFY} or dmesg for this disk"
    ))
}

/// The port's ceiling: "ahci0: AHCI v1.31 with 6 6Gbps ports" or atapci's "SATA300" /
/// "SATA150" description.
fn port_max(g: &Global, d: &DiskFacts) -> Fact<f64> {
    let Some(c) = d.controller.value() else {
        return Fact::unknown("controller unknown");
    };
    let Some(addr) = c.address.as_deref() else {
        return Fact::unknown("controller unknown");
    };
    let dk = g.dmesg_key();
    if let Some(a) = g.dmesg.as_ref().and_then(|m| m.controllers.get(addr)) {
        if let Some(v) = a.port_gbps {
            return Fact::known(v, dk);
        }
        if let Some(desc) = a.desc.as_deref() {
            for (pat, v) in [("SATA600", 6.0), ("SATA300", 3.0), ("SATA150", 1.5)] {
                if desc.contains(pat) {
                    return Fact::known(v, dk);
                }
            }
        }
    }
    Fact::unknown("the controller's attach lines do not state its port speed")
}

fn ncq_active(src: DiskSrc, mode: Option<ControllerMode>, dk: &str) -> Fact<bool> {
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

fn write_cache(src: DiskSrc, id_item: &Item, d: &mut DiskFacts) {
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

fn partition_table(g: &Global, disk: &str, lsz: u64) -> Fact<PartitionTable> {
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
fn mesh_table(m: &confxml::Mesh, disk: &str, lsz: u64) -> Option<PartitionTable> {
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
    provs.sort_by_key(|p| num(p, "start").unwrap_or(0));
    for p in provs {
        let mut e = part(p, 0);
        if let Some(inner) = m.geom("PART", &p.name) {
            let mut kids: Vec<&confxml::Provider> = inner.providers.iter().collect();
            kids.sort_by_key(|c| num(c, "start").unwrap_or(0));
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
fn partition_stripes(g: &Global, disk: &str, lsz: u64, d: &mut DiskFacts) {
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
fn stripe_misalignment(stripe_size: Option<u64>, stripe_offset: Option<u64>) -> Option<u64> {
    match (stripe_size, stripe_offset) {
        (Some(s), Some(o)) if s > 0 => Some(o % s),
        _ => None,
    }
}

fn mk_partition(e: &gpart_show::Entry, name: &str, base: u64, lsz: u64) -> Partition {
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

/// GELI providers and ZFS pools on this disk, its partitions, or their GPT labels.
fn layers(g: &Global, disk: &str, table: &Fact<PartitionTable>) -> Vec<Layer> {
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
        let on_pasted_disk = super::is_pasted_disk(disk) && is_label_provider(cons);
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

/// ada(4) write-cache setting against the drive's state. sys/cam/ata/ata_da.c (FreeBSD
/// 12-15, e.g. main @ 0040d1fb): the setting (`ADA_WC`, the per-disk
/// kern.cam.ada.N.write_cache when >= 0, else kern.cam.ada.write_cache) is sent to the drive
/// only in state ADA_STATE_WCACHE (adastart(): `ata_28bit_cmd(ataio, ATA_SETFEATURES, ADA_WC
/// ? ATA_SF_ENAB_WCACHE : ATA_SF_DIS_WCACHE, 0, 0)`), entered from adaregister() at probe
/// and from adaasync() on AC_SENT_BDR / AC_BUS_RESET (`else if (ADA_WC >= 0 && softc->flags
/// & ADA_FLAG_CAN_WCACHE) softc->state = ADA_STATE_WCACHE`). Writing the sysctl later
/// changes nothing until then, so IDENTIFY word 85 bit 5 (camcontrol identify "write
/// cache ... enabled") is the drive's current state and wins.
fn ada_write_cache_setting(d: &mut DiskFacts, v: &str, k: &str, identify_knows: bool) {
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

/// A da(4) disk without an IDENTIFY write-cache row (a SAS drive): the WCE bit of the
/// caching mode page (camcontrol modepage daN -m 8) is the current state.
fn scsi_write_cache(g: &Global, name: &str, d: &mut DiskFacts) {
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

/// Queue depth in use from `camcontrol tags -v` (dev_openings + dev_active). More than one
/// opening means CAM queues tagged (NCQ) commands to the drive; exactly one means it does
/// not, which settles "NCQ in use" where no "Command Queueing Enabled" line was printed.
fn queue_depth(g: &Global, name: &str, d: &mut DiskFacts) {
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

/// kern.cam.ada.N.rotating (ata_da.c adaregister(): 0 only when IDENTIFY word 217 is 1,
/// "non-rotating"; 1 also when the drive reports no rate), used when no rotation rate was
/// read: only 0 is conclusive.
fn ada_rotating(g: &Global, name: &str, d: &mut DiskFacts) {
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

/// The PCI-Express link of the storage controller a disk sits behind (AHCI, RAID, SAS
/// HBA: PCI base class 0x01, mass storage), from `pciconf -lc` (usr.sbin/pciconf/cap.c
/// cap_express(): "link xW(xMW) speed S(MS)"). NVMe namespaces get their controller's link
/// in freebsd_device_state. Only the function's own link is printed, so this is hop 0 alone: the
/// port above it is another entry that pciconf does not tie to it.
fn controller_pcie(g: &Global, d: &mut DiskFacts) {
    if d.pcie.is_known() {
        return;
    }
    let Some(c) = d.controller.value() else {
        return;
    };
    let Some(addr) = c.address.clone() else {
        return;
    };
    let Some(p) = g.extra.caps.iter().find(|p| p.name == addr) else {
        // No capture, or the controller is not a PCI function (umass, a SIM).
        let k = plan::PCICONF_CAPS.key("");
        if g.b.data(&k).is_none() {
            d.pcie = Fact::unknown(crate::facts::freebsd_device_state::pciconf_caps_why(g.b));
        }
        return;
    };
    let storage = p.is_storage() || c.pci_class.is_some_and(|cls| cls >> 16 == 0x01);
    d.pcie = match (&p.link, storage) {
        (Some(l), true) => Fact::known(vec![l.clone()], key(&plan::PCICONF_CAPS, "")),
        (_, false) => Fact::unknown(format!(
            "{addr} is not a mass storage function (PCI class {})",
            p.class
                .map_or("unknown".to_string(), |c| format!("0x{c:06x}"))
        )),
        (None, true) => Fact::unknown(format!(
            "pciconf -lc shows no PCI-Express capability for {addr} (conventional PCI or \
             a chipset-integrated function: no link of its own)"
        )),
    };
}

/// The ashift ZFS allocates with on this disk: that of the TOP-LEVEL vdev holding the
/// disk's leaf (zpool get ... all-vdevs on OpenZFS >= 2.2, else zdb -C), never the pool
/// property (only the default for new vdevs). The smallest when the disk holds several.
fn zfs_ashift(g: &Global, d: &mut DiskFacts) {
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
fn zdb_why(b: &EvidenceBundle, pool: &str) -> Option<String> {
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

/// Filesystems mounted from this disk, its partitions, labels, GELI/mirror layers, or a
/// ZFS pool on it (`mount -p`), with the dataset's compression from `zfs get`.
fn mounts_for(g: &Global, disk: &str, d: &DiskFacts) -> Vec<crate::facts::Mount> {
    let mut names: Vec<String> = vec![disk.to_string()];
    if let Some(t) = d.partition_table.value() {
        for p in &t.partitions {
            names.push(p.name.clone());
            names.extend(p.children.iter().map(|c| c.name.clone()));
        }
    }
    for l in &d.layers {
        names.push(l.name.clone());
        names.extend(l.display_name.iter().cloned());
        names.extend(l.on.iter().cloned());
    }
    if let Some(gl) = g.glist.iter().find(|x| x.name == disk) {
        for p in &gl.providers {
            if let Some(l) = &p.label {
                names.push(format!("gpt/{l}"));
            }
        }
    }
    if let Some(m) = g.mesh.as_ref() {
        for lg in m.geoms.iter().filter(|x| x.class == "LABEL") {
            if m.consumed_names(lg).iter().any(|c| names.contains(c)) {
                names.extend(lg.providers.iter().map(|p| p.name.clone()));
            }
        }
    }
    let derived = |n: &str| {
        n.strip_prefix(disk).is_some_and(|rest| {
            let mut ch = rest.chars();
            matches!(ch.next(), Some('p') | Some('s'))
                && ch.next().is_some_and(|c| c.is_ascii_digit())
        })
    };
    let pools: Vec<&str> = d
        .layers
        .iter()
        .filter(|l| l.kind == Some(crate::facts::LayerKind::Zfs))
        .map(|l| l.name.as_str())
        .collect();
    g.extra
        .mounts
        .iter()
        .filter(|m| match m.provider() {
            Some(p) => names.iter().any(|n| n == p) || derived(p),
            None => m.pool().is_some_and(|p| pools.contains(&p)),
        })
        .map(|m| crate::facts::Mount {
            source: m.source.clone(),
            mountpoint: m.mountpoint.clone(),
            fstype: m.fstype.clone(),
            options: m.options.clone(),
            compression: (m.fstype == "zfs")
                .then(|| zfs_get::value(&g.extra.zprops, &m.source, "compression"))
                .flatten()
                .map(str::to_string),
        })
        .collect()
}

/// Kernel events from /var/run/dmesg.boot and from the running message buffer (`dmesg`,
/// only the current boot: the text after the last "---<<BOOT>>---" tag, sys/kern/
/// subr_prf.c BOOT_TAG). The running buffer repeats the boot messages until it wraps, so
/// each boot event consumes one identical running line; the rest happened after boot.
fn kernel_events(g: &Global, name: &str) -> Vec<crate::facts::KernelEvent> {
    use crate::sources::kernel_log::events_for;
    let mut out = g
        .data(&plan::DMESG_BOOT, "")
        .map(|log| events_for(name, log, &g.dmesg_key()))
        .unwrap_or_default();
    let Some(run) = g.data(&plan::DMESG_RUNNING, "") else {
        return out;
    };
    let current = run
        .rfind("---<<BOOT>>---")
        .and_then(|i| run.get(i..))
        .unwrap_or(run);
    let mut running = events_for(name, current, &key(&plan::DMESG_RUNNING, ""));
    for e in &out {
        if let Some(i) = running.iter().position(|r| r.line == e.line) {
            running.remove(i);
        }
    }
    out.extend(running);
    out
}

/// ata(4) (FreeBSD <= 8) with an `atacontrol cap` write-cache row: hw.ata.wc is a boot-time
/// tunable that sys/dev/ata/ata-disk.c ad_init() sends to the drive at attach and after a
/// channel reinit (`if (ata_wc) ... ATA_SF_ENAB_WCACHE else ... ATA_SF_DIS_WCACHE`), so the
/// row is the drive's state and wins; hw.ata.wc=0 is cited when the drive agrees.
fn ad_write_cache_setting(d: &mut DiskFacts, v: &str, k: &str) {
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
