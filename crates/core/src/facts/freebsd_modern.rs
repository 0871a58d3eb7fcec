//! Issue 17's FreeBSD facts: BIO_DELETE method (ada(4)/da(4) kern.cam.*.N.delete_method),
//! NVMe health (nvmecontrol logpage -p 2 / smartctl -j -a /dev/nvmeN; log page 02h) and
//! the PCI-Express link of the NVMe controller (pciconf -lvc). Keys from plan::freebsd.

use crate::evidence::EvidenceBundle;
use crate::facts::{Fact, ModernFacts};
use crate::plan::Item;
use crate::plan::freebsd as plan;
use crate::sources::{nvme_smart, pciconf_caps, sysctl};

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
            Some(t) => match pciconf_caps::parse(t).into_iter().find(|(n, _)| *n == ctrl) {
                Some((_, l)) => Fact::known(vec![l], plan::PCICONF_CAPS.key_str("")),
                None => Fact::unknown(format!("pciconf -lvc shows no link line for {ctrl}")),
            },
            None => Fact::unknown(b.why(&plan::PCICONF_CAPS.key(""))),
        };
    } else {
        m.nvme_health = Fact::unknown("not applicable: not an NVMe namespace");
        m.pcie = Fact::unknown("the controller's PCIe link is not tied to this disk on FreeBSD");
    }
    m
}
