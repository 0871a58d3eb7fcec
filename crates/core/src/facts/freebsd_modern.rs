//! Issue 17's FreeBSD facts: BIO_DELETE method (ada(4)/da(4) kern.cam.*.N.delete_method),
//! NVMe health (nvmecontrol logpage -p 2 / smartctl -j -a /dev/nvmeN; log page 02h) and
//! the PCI-Express link of the NVMe controller (pciconf -lc, the same link lines as -lvc). Keys from plan::freebsd.

use crate::evidence::EvidenceBundle;
use crate::evidence::SourceKey;
use crate::facts::{BusySample, Fact, ModernFacts};
use crate::plan::Item;
use crate::plan::freebsd as plan;
use crate::sources::{gstat, nvme_smart, pciconf, sysctl};

fn data<'a>(b: &'a EvidenceBundle, item: &Item, name: &str) -> Option<&'a str> {
    b.data(&item.key(name))
}

pub fn disk(b: &EvidenceBundle, name: &str) -> ModernFacts {
    let prefix = name.trim_end_matches(|c: char| c.is_ascii_digit());
    let unit = name.get(prefix.len()..).unwrap_or("");
    let mut m = ModernFacts::default();
    let dm = match prefix {
        "ada" => Some(plan::ADA_DELETE_METHOD),
        "da" => Some(plan::DA_DELETE_METHOD),
        _ => None,
    };
    m.delete_method = match dm {
        Some(item) => match data(b, &item, name) {
            Some(v) => Fact::known(
                sysctl::bare_value(v, "").trim().to_string(),
                item.key_str(name),
            ),
            None => Fact::unknown(b.why(&item.key(name))),
        },
        None => Fact::unknown("no CAM delete_method sysctl for this driver"),
    };
    m.discard_max_bytes = Fact::unknown("Linux sysfs attribute; FreeBSD: delete_method");
    m.busy = busy(b, name);
    m.load_cycles = match data(b, &plan::SMARTCTL, name)
        .and_then(|o| crate::sources::smartctl_attr::ata_raw(o, 193))
    {
        Some(v) => Fact::known(v, plan::SMARTCTL.key_str(name)),
        None => Fact::unknown("no SMART attribute 193 (Load_Cycle_Count) in the captures"),
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
    m
}

/// gstat's last screen for this disk as a busy sample (%busy is devstat's busy time share;
/// gstat can print more than 100 %, clamped here).
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
            interval_ms: 1000,
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

    #[test]
    fn gstat_resilver_fixture_gives_busy_samples() {
        // tests/fixtures/freebsd/gstat: `gstat -I 10s` during a resilver (fixture INDEX).
        let p = format!(
            "{}/../../tests/fixtures/freebsd/gstat/xigmanas-resilver-ada-busy-over-100pct.txt",
            env!("CARGO_MANIFEST_DIR")
        );
        let t = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p}: {e}"));
        let mut b = EvidenceBundle::new(Platform::Freebsd, Origin::Hand);
        b.insert(&SourceKey::cmd(plan::GSTAT_BUSY), Capture::ok(t));
        let s = busy(&b, "ada0").value().cloned().unwrap_or_default();
        assert_eq!(s.util_pct, 100.0);
        assert_eq!(s.avg_queue, 10.0);
        assert_eq!(s.ios, 316);
        let s = busy(&b, "ada1").value().cloned().unwrap_or_default();
        assert!((s.util_pct - 22.6).abs() < 1e-9);
        assert!(busy(&b, "ada99").why().is_some());
    }
}
