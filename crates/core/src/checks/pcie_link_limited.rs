//! `pcie-link-limited`: a storage device's PCIe link runs below what it and its port can do,
//! or its ceiling is far below the drive class (an NVMe SSD on PCIe 1.0/2.0 x1).
//!
//! References: PCIe Base spec 7.5.3.6 (Link Capabilities: Max Link Speed, Maximum Link
//! Width) and 7.5.3.8 (Link Status: Current Link Speed, Negotiated Link Width); a link
//! trains to the highest speed and width both ends support, so the expected link of the
//! device is min(device capability, upstream port capability). Line coding: 2.5 and 5 GT/s
//! use 8b/10b (80 % payload), 8/16/32 GT/s 128b/130b, 64 GT/s FLIT mode 242/256 (PCIe 6.0
//! 4.2.3.4). Linux: Documentation/ABI/testing/sysfs-bus-pci (current_link_speed, ...);
//! lspci(8) LnkCap/LnkSta "(downgraded)"; FreeBSD pciconf(8) -c "link xN(xM) speed A(B)".

use crate::checks::common::{self, is_nvme};
use crate::checks::measured_common::{best_seq_read, by_disk, mbps};
use crate::checks::{Check, Confidence, Finding, Fix, Severity, Verdict};
use crate::evidence::Platform;
use crate::facts::{DiskFacts, PcieLink, SystemFacts};
use crate::sources::rpi_config;
use crate::sources::{ask, ask_bare, spec::Ask};

pub const ID: &str = "pcie-link-limited";

/// Below this ceiling an NVMe SSD is slower than a SATA SSD (600 MB/s link): PCIe 1.0 x1
/// (250 MB/s), 2.0 x1 (500 MB/s), 3.0 x1 (985 MB/s) and 1.0 x2/x4 all fall under it.
const NVME_CLASS_FLOOR_MB_S: f64 = 1000.0;

pub(crate) struct PcieLinkLimited;

impl Check for PcieLinkLimited {
    fn id(&self) -> &'static str {
        ID
    }
    fn label(&self) -> &'static str {
        "PCIe link"
    }
    fn summary(&self) -> &'static str {
        "PCIe link of an NVMe drive or storage controller trained below its and its port's capability, or far below the drive class"
    }
    fn run(&self, sys: &SystemFacts) -> Vec<Finding> {
        common::disks(sys)
            .filter_map(|d| check_disk(sys, d))
            .collect()
    }
}

/// Share of the coded rate ([`lane_mb_s`] x width) a measured sequential read must reach to
/// count as "the measurement hit the link". Line coding is already out of the coded rate;
/// what remains is packet overhead (PCIe Base spec 2.2 TLP, 3.5 DLLP, 4.2 framing). An NVMe
/// read reaches the host as Memory Write TLPs from the drive, each carrying at most
/// Max_Payload_Size bytes plus a 4DW (16 B) header for 64-bit addresses, a 2 B sequence
/// number, a 4 B LCRC and 2 framing symbols (STP/END at 2.5 and 5 GT/s; a 4 B STP token at
/// 8 GT/s and up): with MPS 256 that is 256 / (256 + 24) = 91.4 %, with MPS 128 (many
/// desktop root ports) 128 / 152 = 84.2 %, and Ack and UpdateFC DLLPs (8 B each, a few per
/// dozen TLPs) take another 1-3 %. A saturated PCIe 1.0 x1 link therefore delivers about
/// 205-228 MB/s of its 250 MB/s; 82 % (205 MB/s there) is the low end of that range.
const LINK_HIT_SHARE: f64 = 0.82;

/// Above this share of the coded rate a read cannot have crossed the link as read: the link
/// attributes were sampled while it idled at a lower speed (ASPM and autonomous speed
/// changes, PCIe Base spec 5.4.1 and 7.5.3.7 "Hardware Autonomous Speed Disable"), or a cache
/// answered. 5 % above covers timer granularity and throttling bursts in the measurement.
const LINK_PAST_SHARE: f64 = 1.05;

/// How a measured sequential read compares with the link's coded rate.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Measured {
    /// At least [`LINK_HIT_SHARE`] and at most [`LINK_PAST_SHARE`] of it.
    AtLink,
    /// More than [`LINK_PAST_SHARE`] of it.
    PastLink,
    Below,
}

fn measured(bench_bytes_s: f64, ceiling_mb_s: f64) -> Measured {
    let c = ceiling_mb_s * 1e6;
    if bench_bytes_s > c * LINK_PAST_SHARE {
        Measured::PastLink
    } else if bench_bytes_s >= c * LINK_HIT_SHARE {
        Measured::AtLink
    } else {
        Measured::Below
    }
}

/// Payload MB/s of one lane at `gts` (decimal MB, after line coding).
fn lane_mb_s(gts: f64) -> f64 {
    let eff = if gts <= 5.0 {
        0.8
    } else if gts <= 32.0 {
        128.0 / 130.0
    } else {
        242.0 / 256.0
    };
    gts * 1000.0 / 8.0 * eff
}

/// The PCIe generation people name a speed by.
pub fn generation(gts: f64) -> &'static str {
    match gts {
        g if g <= 2.5 => "PCIe 1.x",
        g if g <= 5.0 => "PCIe 2.0",
        g if g <= 8.0 => "PCIe 3.0",
        g if g <= 16.0 => "PCIe 4.0",
        g if g <= 32.0 => "PCIe 5.0",
        _ => "PCIe 6.0",
    }
}

fn gts_s(g: f64) -> String {
    if g.fract() == 0.0 {
        format!("{g:.0} GT/s")
    } else {
        format!("{g:.1} GT/s")
    }
}

fn ceiling(gts: Option<f64>, width: Option<u32>) -> Option<f64> {
    Some(lane_mb_s(gts?) * f64::from(width?))
}

fn min_opt<T: PartialOrd + Copy>(a: Option<T>, b: Option<T>) -> Option<T> {
    match (a, b) {
        (Some(x), Some(y)) => Some(if y < x { y } else { x }),
        (x, None) => x,
        (None, y) => y,
    }
}

fn describe(l: &PcieLink) -> String {
    let cur = match (l.current_gts, l.current_width) {
        (Some(g), Some(w)) => format!("{} x{w}", gts_s(g)),
        (Some(g), None) => gts_s(g),
        (None, Some(w)) => format!("x{w}"),
        (None, None) => "unknown".into(),
    };
    let max = match (l.max_gts, l.max_width) {
        (Some(g), Some(w)) => format!("{} x{w}", gts_s(g)),
        (Some(g), None) => gts_s(g),
        (None, Some(w)) => format!("x{w}"),
        (None, None) => "unknown".into(),
    };
    format!("{} current {cur}, maximum {max}", l.address)
}

/// The sequential read of a pasted CrystalDiskMark / KDiskMark report (SEQ1M, direct I/O
/// through a test file) or iozone results table (1M sequential read, O_DIRECT), when the paste holds one PCIe-linked disk it can be about: the
/// reports name a drive letter or mount point, not a device.
fn pasted_seq_read(sys: &SystemFacts) -> Option<f64> {
    let linked = sys
        .disks
        .iter()
        .filter(|d| d.pcie.value().is_some_and(|v| !v.is_empty()))
        .count();
    if linked != 1 {
        return None;
    }
    sys.user_benchmarks
        .iter()
        .filter(|u| matches!(u.tool.as_str(), "CrystalDiskMark" | "KDiskMark" | "iozone"))
        // Its sequential read only: the reports' write and random rows are pasted too.
        .filter(|u| super::effect::pasted_pattern(u).is_none_or(|p| p == "read"))
        .filter_map(|u| u.bytes_per_sec)
        .filter(|b| b.is_finite() && *b > 0.0)
        .fold(None, |m: Option<f64>, b| Some(m.map_or(b, |m| m.max(b))))
}

/// None for a disk with no PCIe link of its own or of its controller (SATA on an integrated
/// chipset controller, virtual, USB): nothing to look at, as zfs-ashift-too-small does.
pub(crate) fn check_disk(sys: &SystemFacts, d: &DiskFacts) -> Option<Finding> {
    let nvme = is_nvme(d);
    let links = match &d.pcie {
        crate::facts::Fact::Known { value, .. } if !value.is_empty() => value,
        f => {
            if !nvme {
                return None;
            }
            return Some(common::unknown(
                ID,
                d,
                format!("PCIe link of {} unknown", d.name),
                "The NVMe drive's PCIe link speed and width",
                &common::why(f),
                &format!(
                    "let diskdoc read /sys/block/{}/device/device/current_link_speed (no \
                     root needed), or paste `{}` (FreeBSD: `pciconf -lvc`)",
                    d.name,
                    ask_bare(Ask::PciVerbose)
                ),
            ));
        }
    };
    // One evidence line per PCI function: its current_link_speed key (or the fact's first).
    let cite_all = |mut f: Finding| {
        let srcs = d.pcie.sources();
        for l in links {
            let key = srcs
                .iter()
                .find(|s| s.contains(&format!("{}/current_link_speed", l.address)))
                .or(srcs.first())
                .cloned()
                .unwrap_or_else(|| "facts".to_string());
            f = f.evidence(key, describe(l));
        }
        f
    };
    let dev = links.iter().find(|l| l.hop == 0).or(links.first())?;
    // The port above the device when it was not captured but the machine is named: a SoC's
    // own root port has one documented capability (facts::soc), and the device's link is
    // judged against it as against a captured port's LnkCap.
    // A captured port above the device is the SoC's when its capability is the SoC port's
    // (a switch below the SoC has its own).
    let captured = links.iter().find(|l| l.hop == 1);
    let soc = sys
        .cpu_model
        .value()
        .and_then(|m| crate::facts::soc::pcie_port(m, &dev.address))
        .filter(|s| {
            captured.is_none_or(|p| p.max_gts == Some(s.gts) && p.max_width == Some(s.width))
        });
    let soc_link = soc.filter(|_| captured.is_none()).map(|s| PcieLink {
        address: s.soc.to_string(),
        hop: 1,
        current_gts: dev.current_gts,
        max_gts: Some(s.gts),
        current_width: dev.current_width,
        max_width: Some(s.width),
        marked_downgraded: false,
    });
    let port = captured.or(soc_link.as_ref());
    let what = if nvme {
        "The NVMe drive".to_string()
    } else {
        format!("The controller {} of {}", dev.address, d.name)
    };
    // What the device link should train to: both ends' capabilities.
    let exp_gts = min_opt(dev.max_gts, port.and_then(|p| p.max_gts));
    let exp_w = min_opt(dev.max_width, port.and_then(|p| p.max_width));
    let now = ceiling(dev.current_gts, dev.current_width);
    let expected = ceiling(exp_gts, exp_w);
    let own = ceiling(dev.max_gts, dev.max_width);
    // The end-to-end ceiling: the slowest current link on the way to the root port.
    let path = links
        .iter()
        .filter_map(|l| ceiling(l.current_gts, l.current_width))
        .fold(None, |m: Option<f64>, c| Some(m.map_or(c, |m| m.min(c))));
    // lspci marks an endpoint's LnkSta "(downgraded)" when the status is below the device's
    // own LnkCap (pciutils ls-caps.c link_compare; ports are never marked): with the LnkCap
    // line cut from the paste, the mark alone says the link trained below its capability.
    let marked = dev.marked_downgraded && (dev.max_gts.is_none() || dev.max_width.is_none());
    // One lane at the drive's full speed, the port above not captured: the width of the slot
    // or connector, not a training fault. Single-lane slots are common by design (the
    // Raspberry Pi 5's connector, other single-board computers, x1 slots, adapters), and
    // nothing in the paste says this slot has more lanes; lspci marks the width against the
    // drive's own LnkCap only (pciutils ls-caps.c link_compare), never against the slot.
    let full_speed = matches!((dev.current_gts, dev.max_gts), (Some(c), Some(m)) if c >= m);
    let one_lane_slot = port.is_none()
        && full_speed
        && dev.current_width == Some(1)
        && dev.max_width.map_or(dev.marked_downgraded, |m| m > 1);
    // A port whose own capability is one lane, running at its full speed, under a drive
    // built for more lanes: the drive gets all that port can give, by the board's design
    // (the slot-limits notice says so; the drive-class warning would blame a link nobody
    // can retrain). A drive that itself offers one lane stays under the class rule.
    let one_lane_port = port.is_some_and(|p| {
        p.max_width == Some(1)
            && dev.max_width.is_some_and(|m| m > 1)
            && dev.current_width == Some(1)
            && matches!((dev.current_gts, exp_gts), (Some(c), Some(e)) if c >= e)
    });
    let below_both = !one_lane_slot
        && (matches!((dev.current_gts, exp_gts), (Some(c), Some(e)) if c < e)
            || matches!((dev.current_width, exp_w), (Some(c), Some(e)) if c < e)
            || marked);
    let slot_limits =
        port.is_some() && !below_both && matches!((expected, own), (Some(e), Some(o)) if e < o);
    let upstream_down: Vec<&PcieLink> = links
        .iter()
        .filter(|l| l.hop >= 1)
        .filter(|l| {
            matches!((l.current_gts, l.max_gts), (Some(c), Some(m)) if c < m)
                || matches!((l.current_width, l.max_width), (Some(c), Some(m)) if c < m)
        })
        .filter(|l| {
            // The root port above the device shares the device's link: judged above.
            l.hop >= 2
        })
        .collect();
    let ceil = path.or(now);
    let class_low =
        nvme && ceil.is_some_and(|c| c < NVME_CLASS_FLOOR_MB_S) && !one_lane_slot && !one_lane_port;
    let bench = by_disk(sys)
        .get(&d.name)
        .and_then(|rs| best_seq_read(rs).map(|r| r.bytes_per_sec))
        .or_else(|| pasted_seq_read(sys));
    let vs_link = match (bench, ceil) {
        (Some(b), Some(c)) => Some(measured(b, c)),
        _ => None,
    };
    let at_ceiling = vs_link == Some(Measured::AtLink);
    let link_words = match (dev.current_gts, dev.current_width) {
        (Some(g), Some(w)) => format!("{} x{w}", gts_s(g)),
        _ => "PCIe".to_string(),
    };

    if !(below_both || slot_limits || class_low || !upstream_down.is_empty()) {
        let title = match (dev.current_gts, dev.current_width) {
            // Without the port (FreeBSD pciconf, a one-function lspci paste) only the
            // device's own capability is known.
            (Some(g), Some(w)) => format!(
                "{} x{w} ({} x{w}), {}",
                gts_s(g),
                generation(g),
                if one_lane_slot {
                    "full speed on the slot's one lane"
                } else if port.is_some() {
                    "as fast as it and its port allow"
                } else {
                    "its own maximum (the port above it was not captured)"
                }
            ),
            _ => "PCIe link at its capability".to_string(),
        };
        let mut expl = if one_lane_slot {
            format!(
                "{what} runs at its full speed on one lane ({link_words}); lspci marks only \
                 the width as below the drive's own capability. The slot or connector has one \
                 lane: many are built that way (the Raspberry Pi 5's PCIe connector, other \
                 single-board computers, x1 slots and adapters), and the drive then gets all \
                 the slot can give. Only if the board's manual gives this slot more lanes is \
                 reseating the drive worth a try. "
            )
        } else if port.is_some() {
            format!("{what} links at what both ends support. ")
        } else {
            format!("{what} links at its own maximum; the port above it was not captured. ")
        };
        if let Some(c) = ceil {
            expl.push_str(&format!("Link ceiling about {}. ", mbps(c * 1e6)));
        }
        if let (Some(b), Some(c), Some(m)) = (bench, ceil, vs_link) {
            expl.push_str(&bench_sentence(m, b, c));
        }
        let mut f = cite_all(common::pass(ID, d, title).explain(expl.trim_end().to_string()));
        if let (Some(b), Some(Measured::AtLink | Measured::PastLink)) = (bench, vs_link) {
            f = f.evidence("benchmark:seq-read", mbps(b));
        }
        return Some(f);
    }

    let mut expl = String::new();
    let mut title = String::new();
    let mut severity = Severity::Notice;
    if below_both {
        severity = Severity::Warning;
        let partner = match port {
            Some(p) => format!(
                "its port {} supports {}",
                p.address,
                match (p.max_gts, p.max_width) {
                    (Some(g), Some(w)) => format!("{} x{w}", gts_s(g)),
                    _ => "more".into(),
                }
            ),
            // pciconf -lc prints each function's own link only (cap.c cap_express()), and
            // does not say which bridge a function sits behind.
            None if sys.platform == Platform::Freebsd => "pciconf -lc does not show the port \
                above it, so a slot wired for fewer lanes than it is long is possible too"
                .into(),
            None => format!(
                "the port above it was not captured ({} shows one function)",
                ask_bare(Ask::PciProgram)
            ),
        };
        expl.push_str(&format!(
            "{what} runs its PCIe link at {} but supports {}; {partner}. A link trains to the \
             best speed and width both ends support, so this one trained down: a drive not \
             fully seated, a riser or adapter, an M.2 slot that shares lanes with SATA ports \
             or a second slot, a BIOS setting forcing a lower generation, or a marginal \
             signal. Some devices also drop the link speed while idle to save power; if the \
             reading was taken idle, read it again under load. ",
            match (dev.current_gts, dev.current_width) {
                (Some(g), Some(w)) => format!("{} x{w}", gts_s(g)),
                _ => "a lower setting".into(),
            },
            match (dev.max_gts, dev.max_width) {
                (Some(g), Some(w)) => format!("{} x{w}", gts_s(g)),
                _ => "more".into(),
            }
        ));
        title = format!("{}: PCIe link trained below its capability", d.name);
        if dev.address == rpi_config::CONNECTOR_ADDRESS {
            // The connector's generation is a firmware setting, not a training fault.
            expl = format!(
                "The Raspberry Pi 5's PCIe connector runs at {}, the Gen {} its config.txt \
                 sets (Gen 2 unless dtparam=pciex1_gen=3 is given); the connector can run \
                 Gen 3 (8 GT/s x1), which Raspberry Pi's documentation allows but does not \
                 certify (\"connections to PCIe devices at these speeds may be unstable\"). ",
                link_words,
                match dev.current_gts {
                    Some(g) if g <= 2.5 => "1",
                    Some(g) if g <= 5.0 => "2",
                    _ => "3",
                }
            );
            title = format!(
                "{}: the Raspberry Pi 5's PCIe connector is set below Gen 3",
                d.name
            );
        }
    } else if let (true, Some(s)) = (slot_limits, soc) {
        // The SoC's one port, trained at its ceiling: the board's design, which no reseating,
        // cable or setting lifts; what a faster port would give is worth knowing (info).
        severity = Severity::Info;
        expl.push_str(&format!(
            "{what} runs at {link_words}, the most the port it is on can do: the {} has one \
             PCIe port of {} x{} ({}), so the drive gets all the port can give; only a \
             machine whose port offers the drive's own {} would let it run faster. ",
            s.soc,
            gts_s(s.gts),
            s.width,
            s.source,
            match (dev.max_gts, dev.max_width) {
                (Some(g), Some(w)) => format!("{} x{w}", gts_s(g)),
                _ => "capability".into(),
            },
        ));
        title = format!(
            "{}: at the {} PCIe port's ceiling ({link_words})",
            d.name, s.soc
        );
    } else if slot_limits {
        expl.push_str(&format!(
            "{what} could link at {} but its port offers only {}: the slot, not the drive, \
             sets the ceiling. ",
            own.map(|o| mbps(o * 1e6)).unwrap_or_default(),
            expected.map(|e| mbps(e * 1e6)).unwrap_or_default()
        ));
        title = format!("{}: the PCIe slot limits the drive", d.name);
    }
    if !upstream_down.is_empty() {
        let v: Vec<String> = upstream_down.iter().map(|l| describe(l)).collect();
        expl.push_str(&format!(
            "A link further up runs below its maximum ({}); a bridge's link may also be held \
             down by the port above it. ",
            v.join("; ")
        ));
        if title.is_empty() {
            title = format!(
                "{}: a PCIe bridge above the drive runs below its maximum",
                d.name
            );
        }
    }
    if class_low {
        severity = Severity::Warning;
        expl.push_str(&format!(
            "The whole path carries at most {}: an NVMe SSD is usually built for 2-7 GB/s, so \
             this link makes it slower than a SATA SSD (600 MB/s). ",
            ceil.map(|c| mbps(c * 1e6)).unwrap_or_default()
        ));
        if title.is_empty() {
            title = format!(
                "{}: PCIe link ceiling {} is far below an NVMe drive",
                d.name,
                ceil.map(|c| mbps(c * 1e6)).unwrap_or_default()
            );
        }
    }
    // One lane at Gen 2 or Gen 3 in a PCI domain of its own, the port above not captured:
    // the shape of a single-board computer's M.2 or FPC connector. ARM SoCs register each
    // PCIe controller as a separate domain (the RK3588's five controllers are domains
    // 0000-0004, the Raspberry Pi 5's connector sits in 0001; drivers/pci/controller/
    // dwc/pcie-dw-rockchip.c, pcie-brcmstb.c, linux,pci-domain in their device trees),
    // while a PC's firmware puts its PCIe in domain 0000 (Intel VMD's start at 10000) and
    // many of these connectors are wired x1 Gen 2 (RK3588 pcie2x1l0-2, the Pi 5 by
    // default). Nothing in the paste shows the port's own capability, so the downgrade may
    // be the board's design: a notice, unless a read proves the link is the limit.
    let soc_port = port.is_none()
        && upstream_down.is_empty()
        && !at_ceiling
        && soc_domain(&dev.address).is_some()
        && dev.current_width == Some(1)
        && dev.current_gts.is_some_and(|g| g <= 8.0);
    if soc_port {
        severity = Severity::Notice;
        expl.push_str(&format!(
            "The drive sits in PCI domain {}, a PCIe controller of its own: the layout of ARM \
             single-board computers, whose M.2 or FPC connectors are often one lane at Gen 2 \
             or Gen 3 by design. The port's own capability is not in the paste (`{}` of the \
             bridge above the drive shows it, as does the board's documentation); if the \
             port is one lane at this speed, the drive already gets all it can give. ",
            soc_domain(&dev.address).unwrap_or_default(),
            ask_bare(Ask::PciVerbose)
        ));
    }
    if let (Some(b), Some(c), Some(m)) = (bench, ceil, vs_link) {
        expl.push_str(&bench_sentence(m, b, c));
        if m == Measured::AtLink {
            // The measurement, not the sysfs reading alone, names the bottleneck.
            title = format!(
                "{}: reads stop at {}, the {link_words} link's ceiling ({})",
                d.name,
                mbps(b),
                mbps(c * 1e6)
            );
        }
    }
    let share = match (ceil, own) {
        (Some(c), Some(o)) if o > 0.0 => (1.0 - c / o).clamp(0.0, 1.0),
        _ => 0.5,
    };
    let mut f = Finding::new(ID, &d.name, Verdict::Problem, severity, title)
        .explain(expl)
        .confidence(if at_ceiling {
            Confidence::High
        } else {
            Confidence::Medium
        })
        .impact(share);
    f = cite_all(f);
    if let (Some(b), Some(Measured::AtLink | Measured::PastLink)) = (bench, vs_link) {
        // A pasted CrystalDiskMark/KDiskMark read is cited as its paste; diskdoc's own
        // benchmark as benchmark:seq-read.
        let src = sys
            .user_benchmarks
            .iter()
            .find(|u| u.bytes_per_sec == Some(b))
            .map(|u| u.from.clone())
            .unwrap_or_else(|| "benchmark:seq-read".to_string());
        f = f.evidence(src, mbps(b));
    }
    if let Some(s) = soc {
        // The port's capability is the machine's, not a captured register: cite the line that
        // named the machine.
        let key = sys
            .cpu_model
            .sources()
            .first()
            .cloned()
            .unwrap_or_else(|| "facts".to_string());
        f = f.evidence(
            key,
            format!("port: {} x{}, {}", gts_s(s.gts), s.width, s.soc),
        );
    }
    // Nothing to reseat or set on a SoC's port at its ceiling.
    if !(soc.is_some() && slot_limits) {
        for x in fixes(sys.platform, d, dev) {
            f = f.fix(x);
        }
    }
    Some(f)
}

/// The PCI domain of an "dddd:bb:dd.f" address when it is not 0000 and has four hex
/// digits (a second host controller's segment; Intel VMD's five-digit 10000+ domains are
/// a PC's and are left out).
fn soc_domain(address: &str) -> Option<&str> {
    let (dom, rest) = address.split_once(':')?;
    let bdf = rest.split_once(':').is_some_and(|(b, df)| {
        b.len() == 2 && b.bytes().all(|c| c.is_ascii_hexdigit()) && df.contains('.')
    });
    (bdf && dom.len() == 4 && dom.bytes().all(|c| c.is_ascii_hexdigit()) && dom != "0000")
        .then_some(dom)
}

/// What the measured read says about the link, one or two sentences.
fn bench_sentence(m: Measured, bytes_s: f64, ceiling_mb_s: f64) -> String {
    let (b, c) = (mbps(bytes_s), mbps(ceiling_mb_s * 1e6));
    let share = bytes_s / (ceiling_mb_s * 1e6) * 100.0;
    match m {
        Measured::AtLink => format!(
            "The sequential read test measured {b}, {share:.0} % of the {c} this link carries \
             after line coding: the measurement hit the link, \
             the link is what limits it."
        ),
        Measured::PastLink => format!(
            "The sequential read test measured {b}, more than the {c} this link can carry: \
             the link was read while it idled at a lower speed (power saving lowers speed and \
             width when there is no traffic), or a cache answered. Read the link again while a \
             read test runs."
        ),
        Measured::Below => format!(
            "The sequential read test measured {b} against a link ceiling of {c}: something \
             else limits it first."
        ),
    }
}

fn fixes(platform: Platform, d: &DiskFacts, dev: &PcieLink) -> Vec<Fix> {
    let addr = if dev.address.is_empty() {
        "<address>".to_string()
    } else {
        dev.address.clone()
    };
    let hw = "Power off; reseat the drive (or card) and remove risers/adapters; move an M.2 \
              drive to a CPU-attached slot (the board manual says which slots share lanes \
              with SATA ports or a GPU slot); in the firmware setup set the slot's PCIe speed \
              to Auto and check lane bifurcation"
        .to_string();
    if dev.address == rpi_config::CONNECTOR_ADDRESS {
        // Raspberry Pi documentation, "PCIe Gen 3.0": the setting and its caveat.
        return vec![Fix {
            platform: Platform::Linux,
            summary: "set the Raspberry Pi 5's PCIe connector to Gen 3".into(),
            steps: vec![
                "Add `dtparam=pciex1_gen=3` to /boot/firmware/config.txt (beside \
                 `dtparam=pciex1`) and reboot"
                    .into(),
                "Check the link: `sudo lspci -vv | grep -E 'LnkCap|LnkSta'` shows \
                 \"Speed 8GT/s\" for the drive"
                    .into(),
                "Watch `dmesg` for PCIe AER or NVMe timeout errors; if they appear, go back \
                 to Gen 2"
                    .into(),
            ],
            risk: "Gen 3 is not certified on the Raspberry Pi 5: some drives, HATs and \
                   cables give link errors or fail to boot at 8 GT/s"
                .into(),
        }];
    }
    match platform {
        Platform::Linux => vec![Fix {
            platform,
            summary: "confirm the link, then give the drive a full-speed slot".into(),
            steps: vec![
                format!("`sudo {}` (under load)", ask(Ask::PciLinkLines, &addr)),
                hw,
                format!(
                    "Check again: `cat /sys/bus/pci/devices/{addr}/current_link_speed \
                     /sys/bus/pci/devices/{addr}/current_link_width`"
                ),
            ],
            risk: "hardware changes need the machine off; a BIOS that forces a higher \
                   generation than the slot's wiring allows causes link errors"
                .into(),
        }],
        Platform::Freebsd => vec![Fix {
            platform,
            summary: "confirm the link, then give the drive a full-speed slot".into(),
            steps: vec![
                format!(
                    "`pciconf -lvc {}` shows \"link xN(xM) speed A(B)\": current(maximum)",
                    // The link's address is "driverN@pciD:B:S:F" (facts::freebsd).
                    match dev.address.split_once('@') {
                        Some((drv, _)) if !drv.is_empty() => drv,
                        _ if crate::checks::common::is_nvme(d) => "nvme0",
                        _ => "<driver>N",
                    }
                ),
                hw,
            ],
            risk: "hardware changes need the machine off".into(),
        }],
        Platform::Unknown => Vec::new(),
    }
}

#[cfg(test)]
mod tests;
