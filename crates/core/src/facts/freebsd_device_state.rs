//! A FreeBSD disk's path and health facts: BIO_DELETE method (ada(4)/da(4) kern.cam.*.N.delete_method),
//! NVMe health (nvmecontrol logpage -p 2 / smartctl -j -a /dev/nvmeN; log page 02h) and
//! the PCI-Express link of the NVMe controller (pciconf -lc, the same link lines as -lvc). Keys from plan::freebsd.

use crate::evidence::EvidenceBundle;
use crate::evidence::SourceKey;
use crate::facts::{BusySample, DiskFacts, Fact};
use crate::plan::Item;
use crate::plan::freebsd as plan;
use crate::sources::{gstat, nvme_smart, pciconf, sysctl};

fn data<'a>(b: &'a EvidenceBundle, item: &Item, name: &str) -> Option<&'a str> {
    b.data(&item.key(name))
}

/// The disk's delete method, NVMe health and PCIe link, power and activity facts, into `m`.
pub fn disk(b: &EvidenceBundle, name: &str, m: &mut DiskFacts) {
    let prefix = name.trim_end_matches(|c: char| c.is_ascii_digit());
    let unit = name.get(prefix.len()..).unwrap_or("");
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
        Some(Some(None)) => Fact::unknown("APM is off (camcontrol identify)"),
        Some(None) => Fact::unknown("the drive has no APM (camcontrol identify)"),
        None => Fact::unknown(b.why(&plan::IDENTIFY.key(name))),
    };
    m.zoned = Fact::unknown("not captured on FreeBSD");
    if prefix == "nvd" || prefix == "nda" {
        let mut whys = Vec::new();
        m.nvme_health = Fact::unknown("not captured");
        for item in [plan::SMARTCTL_NVME, plan::NVME_HEALTH] {
            match data(b, &item, name).and_then(nvme_smart::parse) {
                Some(h) => {
                    m.nvme_health = Fact::known(h, item.key_str(name));
                    break;
                }
                None => whys.push(format!(
                    "{}: {}",
                    item.key_str(name),
                    b.why(&item.key(name))
                )),
            }
        }
        if !m.nvme_health.is_known() {
            m.nvme_health = Fact::unknown(whys.join("; "));
        }
        let ctrl = format!("nvme{unit}");
        m.pcie = match data(b, &plan::PCICONF_CAPS, "") {
            Some(t) => match pciconf::links(t).into_iter().find(|(n, _)| *n == ctrl) {
                Some((_, l)) => Fact::known(vec![l], plan::PCICONF_CAPS.key_str("")),
                None => Fact::unknown(format!("pciconf -lc shows no link line for {ctrl}")),
            },
            None => Fact::unknown(b.why(&plan::PCICONF_CAPS.key(""))),
        };
    } else {
        m.nvme_health = Fact::unknown("not applicable: not an NVMe namespace");
        // Filled from the disk's controller (facts::freebsd::controller_pcie).
        m.pcie = Fact::unknown("the disk's controller has no PCIe link in the captures");
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
        },
        k.to_string(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::{Capture, Origin, Platform};

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
