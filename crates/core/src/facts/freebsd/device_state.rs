//! A FreeBSD disk's path and health facts: BIO_DELETE method (ada(4)/da(4) kern.cam.*.N.delete_method),
//! NVMe health (nvmecontrol logpage -p 2 / smartctl -j -a /dev/nvmeN; log page 02h) and
//! the PCI-Express link of the NVMe controller (pciconf -lc, the same link lines as -lvc). Keys from plan::freebsd.

use crate::evidence::EvidenceBundle;
use crate::evidence::SourceKey;
use crate::facts::{BusySample, DiskFacts, Fact};
use crate::plan::Item;
use crate::plan::freebsd as plan;
use crate::sources::{ask_bare, gstat, nvme_smart, pciconf, spec::Ask, sysctl};

/// How the facts name the source of a CAM disk's IDENTIFY data ("camcontrol identify").
const IDENTIFY: &str = crate::sources::camcontrol_identify::SPEC.display;

fn data<'a>(b: &'a EvidenceBundle, item: &Item, name: &str) -> Option<&'a str> {
    b.data(&item.key(name))
}

/// Why `pciconf -lc` gave no PCIe links. usr.sbin/pciconf/pciconf.c list_devs() opens
/// /dev/pci read-write whenever -c (capabilities) is asked (`open(_PATH_DEVPCI, caps ?
/// O_RDWR : O_RDONLY)`, then `err(1, "%s", _PATH_DEVPCI)`), and /dev/pci is writable by
/// root only: as any other user the command prints "pciconf: /dev/pci: Permission denied"
/// and exits 1, while `pciconf -lv` (read-only) still works. Say so, with the fix.
pub(crate) fn pciconf_caps_why(b: &EvidenceBundle) -> String {
    use crate::evidence::{Capture, Unavailable};
    let k = plan::PCICONF_CAPS.key("");
    match b.get(&k) {
        Some(Capture::Unavailable { reason, detail })
            if *reason == Unavailable::PermissionDenied
                || detail.contains("/dev/pci: Permission denied")
                || detail.contains("/dev/pci: Operation not permitted") =>
        {
            "pciconf -lc needs root: it opens /dev/pci read-write (usr.sbin/pciconf/pciconf.c \
             list_devs()) and this run was refused (permission denied); run diskdoc as root \
             to read the controllers' PCIe links"
                .to_string()
        }
        _ => format!("pciconf -lc: {}", b.why(&k)),
    }
}

/// The disk's delete method, NVMe health and PCIe link, power and activity facts, into `m`.
pub fn disk(b: &EvidenceBundle, name: &str, m: &mut DiskFacts) {
    let prefix = name.trim_end_matches(|c: char| c.is_ascii_digit());
    let dm = match prefix {
        "ada" => Some(plan::ADA_DELETE_METHOD),
        "da" => Some(plan::DA_DELETE_METHOD),
        _ => None,
    };
    m.trim.delete_method = match dm {
        Some(item) => match data(b, &item, name) {
            Some(v) => Fact::known(
                sysctl::bare_value(v, "").trim().to_string(),
                item.key_str(name),
            ),
            None => Fact::unknown(b.why(&item.key(name))),
        },
        None => Fact::unknown("no CAM delete_method sysctl for this driver"),
    };
    m.trim.discard_max_bytes = Fact::unknown("Linux sysfs attribute; FreeBSD: delete_method");
    m.busy = busy(b, name);
    m.power.load_cycles = match data(b, &plan::SMARTCTL, name)
        .and_then(|o| crate::sources::smartctl_attr::ata_raw(o, 193))
    {
        Some(v) => Fact::known(v, plan::SMARTCTL.key_str(name)),
        None => Fact::unknown("no SMART attribute 193 (Load_Cycle_Count) in the captures"),
    };
    // The APM level from camcontrol identify's "advanced power management" row (IDENTIFY
    // word 91); `camcontrol apm` only sets it (and with no -l turns APM off), so it is never
    // run to read it.
    m.power.apm_level = match data(b, &plan::IDENTIFY, name)
        .map(crate::sources::camcontrol_identify::parse)
        .map(|i| i.apm_level())
    {
        Some(Some(Some(l))) => Fact::known(l, plan::IDENTIFY.key_str(name)),
        Some(Some(None)) => Fact::unknown(format!("APM is off ({IDENTIFY})")),
        Some(None) => Fact::unknown(format!("the drive has no APM ({IDENTIFY})")),
        None => Fact::unknown(b.why(&plan::IDENTIFY.key(name))),
    };
    m.zoned = Fact::unknown("not captured on FreeBSD");
    // An nvme(4) controller standing for its unnamed namespace (facts::freebsd::names).
    if prefix == "nvme" {
        reset_hangs(b, name, m);
    }
    if prefix == "nvd" || prefix == "nda" {
        let ctrl = match nvme_controller(b, name) {
            Ok((c, _)) => c,
            Err(why) => {
                m.nvme_health = Fact::unknown(why.to_string());
                m.pcie = Fact::unknown(why.to_string());
                return;
            }
        };
        reset_hangs(b, &ctrl, m);
        let mut whys = Vec::new();
        m.nvme_health = Fact::unknown("not captured");
        for item in [plan::SMARTCTL_NVME, plan::NVME_HEALTH] {
            match data(b, &item, &ctrl).and_then(nvme_smart::parse) {
                Some(h) => {
                    m.nvme_health = Fact::known(h, item.key_str(&ctrl));
                    break;
                }
                None => whys.push(format!(
                    "{}: {}",
                    item.key_str(&ctrl),
                    b.why(&item.key(&ctrl))
                )),
            }
        }
        if !m.nvme_health.is_known() {
            m.nvme_health = Fact::unknown(whys.join("; "));
        }
        m.pcie = match data(b, &plan::PCICONF_CAPS, "") {
            Some(t) => match pciconf::links(t).into_iter().find(|(n, _)| *n == ctrl) {
                Some((_, l)) => Fact::known(vec![l], plan::PCICONF_CAPS.key_str("")),
                None => Fact::unknown(format!("pciconf -lc shows no link line for {ctrl}")),
            },
            None => Fact::unknown(pciconf_caps_why(b)),
        };
    } else {
        m.nvme_health = Fact::unknown("not applicable: not an NVMe namespace");
        // Filled from the disk's controller (facts::freebsd::controller_pcie).
        m.pcie = Fact::unknown("the disk's controller has no PCIe link in the captures");
    }
}

/// The boot log's and message buffer's lines of nvme(4) controller `ctrl` not coming back
/// from a reset (sources::power_log::freebsd_nvme_reset_hangs), else reset after a timeout
/// with no media status (freebsd_nvme_timeout_resets), for power-management.
fn reset_hangs(b: &EvidenceBundle, ctrl: &str, m: &mut DiskFacts) {
    for item in [plan::DMESG_BOOT, plan::DMESG_RUNNING] {
        let Some(log) = data(b, &item, "") else {
            continue;
        };
        let mut lines = crate::sources::power_log::freebsd_nvme_reset_hangs(log, ctrl);
        if lines.is_empty() {
            lines = crate::sources::power_log::freebsd_nvme_timeout_resets(log, ctrl);
        }
        if !lines.is_empty() {
            m.power.power_log = Fact::known(lines, item.key_str(""));
            return;
        }
    }
}

/// Why the controller of an NVMe namespace disk is unknown; each says which capture would tell.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ControllerUnknown {
    /// No capture names a controller.
    #[error(
        "which nvme(4) controller {disk} is on is not in the captures (`sysctl \
         dev.nvd.N.%parent`, `diskinfo -v {disk}` Attachment or `{devlist}` say it)",
        devlist = ask_bare(Ask::CamDevlist)
    )]
    NotCaptured { disk: String },
    /// Several controllers, and nothing ties the disk to one.
    #[error(
        "{count} nvme(4) controllers and nothing saying which one {disk} is on (`sysctl \
         dev.nvd.N.%parent`, `diskinfo -v {disk}` Attachment or `{devlist}` say \
         it); nvd(4) unit numbers do not follow the controllers'",
        devlist = ask_bare(Ask::CamDevlist)
    )]
    Ambiguous { disk: String, count: usize },
}

/// Which nvme(4) controller an NVMe namespace disk (nvdN, ndaN) is on, with the capture
/// key that says so, or why that is unknown. Never by unit number: nvd(4) gives a new
/// namespace the lowest free unit across all controllers (sys/dev/nvd/nvd.c
/// nvd_new_disk()), so with two controllers, or two namespaces on one, nvdN is often not
/// on nvmeN. In order:
/// 1. `sysctl dev.nvd.N.%parent`: kern/subr_bus.c gives every newbus device a %parent
///    node, present where nvd(4) attaches as a child of its controller;
/// 2. `diskinfo -v`'s "Attachment": nvd.c copies device_get_nameunit() of the controller
///    into d_attachment, nda(4) the name and unit of its SIM, which is the controller;
/// 3. `camcontrol devlist -v`: nda(4) disks sit on "scbusN on nvmeX bus 0" (nvme_sim.c);
/// 4. the only nvme(4) controller the boot messages or `pciconf -l` show.
pub fn nvme_controller(
    b: &EvidenceBundle,
    disk: &str,
) -> Result<(String, String), ControllerUnknown> {
    let is_ctrl = |c: &str| {
        c.strip_prefix("nvme")
            .is_some_and(|u| !u.is_empty() && u.chars().all(|ch| ch.is_ascii_digit()))
    };
    let prefix = disk.trim_end_matches(|c: char| c.is_ascii_digit());
    if prefix == "nvd" {
        let k = plan::NVD_PARENT.key(disk);
        if let Some(v) = b.data(&k) {
            let name = plan::NVD_PARENT.key_str(disk);
            let c = sysctl::bare_value(v, name.trim_start_matches("sysctl:")).trim();
            if is_ctrl(c) {
                return Ok((c.to_string(), k.to_string()));
            }
        }
    }
    let k = plan::DISKINFO.key(disk);
    if let Some(c) = b
        .data(&k)
        .and_then(|t| crate::sources::diskinfo::parse(t).attachment)
        .filter(|c| is_ctrl(c))
    {
        return Ok((c, k.to_string()));
    }
    let k = plan::DEVLIST.key("");
    if let Some(c) = b
        .data(&k)
        .map(crate::sources::camcontrol_devlist::parse)
        .and_then(|l| l.sim_for(disk).map(str::to_string))
        .filter(|c| is_ctrl(c))
    {
        return Ok((c, k.to_string()));
    }
    let mut seen: Vec<(String, String)> = Vec::new();
    for item in [plan::DMESG_BOOT, plan::PCICONF, plan::PCICONF_CAPS] {
        let k = item.key("");
        let lines = b.data(&k).unwrap_or("").lines();
        for name in lines.filter_map(crate::sources::block_recognisers::nvme_attach_name) {
            if !seen.iter().any(|(c, _)| *c == name) {
                seen.push((name, k.to_string()));
            }
        }
    }
    match seen.len() {
        1 => Ok(seen.remove(0)),
        0 => Err(ControllerUnknown::NotCaptured {
            disk: disk.to_string(),
        }),
        count => Err(ControllerUnknown::Ambiguous {
            disk: disk.to_string(),
            count,
        }),
    }
}

/// gstat's last screen for this disk as a busy sample (%busy is devstat's busy time share;
/// gstat can print more than 100 %, clamped here). The probe's own screen (`gstat -b -I 1s`)
/// and a pasted one (interactive, batch or `-C`) are read alike; the interval is the
/// screen's "dT:" when it printed one.
fn busy(b: &EvidenceBundle, name: &str) -> Fact<BusySample> {
    let k = SourceKey::cmd(plan::GSTAT_BUSY);
    let Some(t) = b.data(&k) else {
        return Fact::unknown("gstat was not run (it runs right before the read/write tests)");
    };
    let Some(r) = gstat::parse(t).into_iter().rev().find(|r| r.name == name) else {
        return Fact::unknown(format!("gstat shows no row for {name}"));
    };
    let Some(util) = r.busy_pct else {
        return Fact::unknown(format!("gstat's row for {name} has no %busy"));
    };
    let ops = r.ops_per_sec.unwrap_or(0.0).max(0.0);
    let kbps = r.read_kbps.unwrap_or(0.0).max(0.0) + r.write_kbps.unwrap_or(0.0).max(0.0);
    Fact::known(
        BusySample {
            interval_ms: r
                .interval_secs
                .filter(|s| s.is_finite() && *s > 0.0)
                .map_or(1000, |s| (s * 1000.0).min(1e9).round() as u64),
            util_pct: util.clamp(0.0, 100.0),
            avg_queue: r.queue_len.unwrap_or(0.0).max(0.0),
            await_ms: r
                .ms_per_read
                .filter(|_| r.reads_per_sec.is_some_and(|x| x > 0.0)),
            ios: ops.min(1e12) as u64,
            bytes: (kbps * 1024.0).min(1e18) as u64,
            top: Vec::new(),
            pasted: b.origin == crate::evidence::Origin::PastedText,
        },
        k.to_string(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::{Capture, Origin, Platform};

    /// The controller of an NVMe namespace from each capture that names it, in the
    /// tools' printf layouts (NOT CAPTURES): sysctl(8) "name: value", diskinfo.c
    /// "\t%-12s\t# Attachment", camcontrol devlist -v "scbusN on nvmeX bus 0:" (nvme_sim.c
    /// names its SIM "nvme" with the controller's unit), the nvme(4) attach line.
    #[test]
    fn nvme_controller_from_each_source_never_from_the_unit() {
        let with = |pairs: &[(&str, &str)]| {
            let mut b = EvidenceBundle::new(Platform::Freebsd, Origin::Hand);
            for (k, v) in pairs {
                b.insert(
                    &SourceKey::parse(k).unwrap_or_else(|| panic!("{k}")),
                    Capture::ok(*v),
                );
            }
            b
        };
        let b = with(&[(
            &crate::sources::sysctl::NVD_PARENT.key_for("nvd0"),
            "dev.nvd.0.%parent: nvme1\n",
        )]);
        assert_eq!(
            nvme_controller(&b, "nvd0"),
            Ok((
                "nvme1".into(),
                crate::sources::sysctl::NVD_PARENT.key_for("nvd0")
            ))
        );
        let b = with(&[(
            &crate::sources::diskinfo::SPEC.key_for("nvd3"),
            "/dev/nvd3\n\t512         \t# sectorsize\n\tnvme0       \t# Attachment\n",
        )]);
        assert_eq!(nvme_controller(&b, "nvd3").map(|x| x.0), Ok("nvme0".into()));
        let b = with(&[(
            &crate::sources::camcontrol_devlist::SPEC.key_for(""),
            "scbus0 on nvme0 bus 0:\n<Samsung SSD 970 EVO Plus 1TB 2B2QEXM7>  at scbus0 target 0 lun 1 (pass0,nda0)\nscbus1 on nvme1 bus 0:\n<WDC WDS500G2B0C-00PXH0 211070WD>  at scbus1 target 0 lun 1 (pass1,nda1)\n",
        )]);
        assert_eq!(nvme_controller(&b, "nda1").map(|x| x.0), Ok("nvme1".into()));
        assert_eq!(nvme_controller(&b, "nda0").map(|x| x.0), Ok("nvme0".into()));
        // One controller in the boot messages: its namespaces are on it, whatever their unit.
        let one = "nvme2: <Generic NVMe Device> mem 0xfe600000-0xfe603fff at device 0.0 on pci1\nnvd0: <Samsung SSD 970 EVO Plus 1TB> NVMe namespace\n";
        let b = with(&[(&crate::sources::dmesg::SPEC.key_for(""), one)]);
        assert_eq!(nvme_controller(&b, "nvd0").map(|x| x.0), Ok("nvme2".into()));
        // Two, and nothing else: unknown, not nvme0 by the unit.
        let two = format!(
            "{one}nvme0: <Generic NVMe Device> mem 0xfe500000-0xfe503fff at device 0.0 on pci2\n"
        );
        let b = with(&[(&crate::sources::dmesg::SPEC.key_for(""), &two)]);
        assert_eq!(
            nvme_controller(&b, "nvd0"),
            Err(ControllerUnknown::Ambiguous {
                disk: "nvd0".into(),
                count: 2
            })
        );
        assert!(nvme_controller(&b, "nvd0").is_err_and(|w| {
            w.to_string()
                .starts_with("2 nvme(4) controllers and nothing saying which one nvd0 is on")
        }));
        // A value that is not a controller name is not taken.
        let b = with(&[(
            &crate::sources::sysctl::NVD_PARENT.key_for("nvd0"),
            "nvme1; rm -rf /",
        )]);
        assert!(nvme_controller(&b, "nvd0").is_err());
    }

    /// A FreeBSD bundle whose gstat capture is the fixture `name` (tests/fixtures/freebsd/gstat).
    fn gstat_bundle(name: &str) -> EvidenceBundle {
        let p = format!(
            "{}/../../tests/fixtures/freebsd/gstat/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        let t = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p}: {e}"));
        let mut b = EvidenceBundle::new(Platform::Freebsd, Origin::Hand);
        b.insert(&SourceKey::cmd(plan::GSTAT_BUSY), Capture::ok(t));
        b
    }

    #[test]
    fn gstat_resilver_fixture_gives_busy_samples() {
        // tests/fixtures/freebsd/gstat: `gstat -I 10s` during a resilver (fixture INDEX).
        let b = gstat_bundle("xigmanas-resilver-ada-busy-over-100pct.txt");
        let s = busy(&b, "ada0").value().cloned().unwrap_or_default();
        assert_eq!(s.util_pct, 100.0);
        assert_eq!(s.avg_queue, 10.0);
        assert_eq!(s.ios, 316);
        let s = busy(&b, "ada1").value().cloned().unwrap_or_default();
        assert!((s.util_pct - 22.6).abs() < 1e-9);
        assert!(busy(&b, "ada99").why().is_some());
    }

    #[test]
    fn gstat_batch_screen_gives_busy_sample_with_its_interval() {
        // The probe's own `gstat -b -I 1s` prints no "|" (gstat.c batch mode).
        let b = gstat_bundle("printf-fbsd14-b-p-batch-ada0-busy.txt");
        let s = busy(&b, "ada0").value().cloned().unwrap_or_default();
        assert!((s.util_pct - 99.6).abs() < 1e-9);
        assert_eq!(s.avg_queue, 12.0);
        assert_eq!(s.interval_ms, 1002);
        assert_eq!(s.await_ms, Some(28.4));
    }
}

/// How the UFS filesystems of a disk get trimmed: the superblock's TRIM flag from
/// `tunefs -p` (online, like Linux's discard); FreeBSD's base system schedules no UFS trim,
/// so `periodic` stays empty. ZFS pools are not judged here (autotrim is not captured).
/// Unknown when no UFS of the disk had its flags captured.
pub fn fs_trim(b: &EvidenceBundle, mounts: &[crate::facts::Mount]) -> Fact<crate::facts::FsTrim> {
    let mut t = crate::facts::FsTrim::default();
    let mut from = Vec::new();
    for m in mounts.iter().filter(|m| m.fstype == "ufs") {
        let Some(argv) = crate::plan::freebsd::tunefs_p_argv(&m.source) else {
            continue;
        };
        let refs: Vec<&str> = argv.iter().map(String::as_str).collect();
        let key = SourceKey::cmd(&refs);
        // tunefs prints with warnx: the flags are on standard error.
        let flag = match b.get(&key) {
            Some(crate::evidence::Capture::Ok { data, stderr, .. }) => {
                crate::sources::tunefs::trim_enabled(stderr)
                    .or_else(|| crate::sources::tunefs::trim_enabled(data))
            }
            _ => None,
        };
        let Some(on) = flag else { continue };
        from.push(key.to_string());
        let list = if on {
            &mut t.online
        } else {
            &mut t.without_discard
        };
        if !list.contains(&m.mountpoint) {
            list.push(m.mountpoint.clone());
        }
    }
    if from.is_empty() {
        return Fact::unknown("no UFS TRIM flag captured (tunefs -p)");
    }
    Fact::Known { value: t, from }
}

#[cfg(test)]
mod fs_trim_tests {
    use super::*;
    use crate::evidence::{Capture, Origin, Platform};

    fn tunefs(stderr: &str) -> Capture {
        Capture::Ok {
            data: String::new(),
            stderr: stderr.to_string(),
            exit_code: Some(0),
            elapsed_ms: 0,
        }
    }

    #[test]
    fn ufs_trim_flag_from_tunefs_stderr() {
        // Lines in tunefs.c's warnx format, NOT A CAPTURE.
        let mut b = EvidenceBundle::new(Platform::Freebsd, Origin::Hand);
        b.insert(
            &SourceKey::cmd(&["tunefs", "-p", "/dev/ada0p2"]),
            tunefs("tunefs: trim: (-t)                                         disabled\n"),
        );
        b.insert(
            &SourceKey::cmd(&["tunefs", "-p", "/dev/ada0p4"]),
            tunefs("tunefs: trim: (-t)                                         enabled\n"),
        );
        let m = |src: &str, mp: &str, fs: &str| crate::facts::Mount {
            source: src.into(),
            mountpoint: mp.into(),
            fstype: fs.into(),
            ..Default::default()
        };
        let mounts = [
            m("/dev/ada0p2", "/", "ufs"),
            m("/dev/ada0p4", "/usr/home", "ufs"),
            m("zroot/var", "/var", "zfs"),
        ];
        let t = fs_trim(&b, &mounts);
        let v = t.value().expect("known");
        assert_eq!(v.without_discard, vec!["/".to_string()]);
        assert_eq!(v.online, vec!["/usr/home".to_string()]);
        assert!(v.periodic.is_empty());
        // No tunefs capture (an older bundle, or tools off): unknown, never "never trimmed".
        assert!(
            !fs_trim(
                &EvidenceBundle::new(Platform::Freebsd, Origin::Hand),
                &mounts
            )
            .is_known()
        );
    }
}
