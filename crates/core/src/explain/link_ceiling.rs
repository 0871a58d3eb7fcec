//! Observation: a pasted sequential read of a disk sits at the payload ceiling of a slow
//! SATA link that the same paste's kernel log brings up, while another port of the log
//! links faster. libata-core.c sata_print_link_status prints each port's speed ("ata3:
//! SATA link up 3.0 Gbps (SStatus 123 SControl 300)"); SATA's 8b/10b coding leaves 80 % of
//! the line rate for data (SATA 3.x 6.5: 1.5/3.0/6.0 Gb/s carry 150/300/600 MB/s), as in
//! checks::link_ceiling_reached. A read within 12 % under a slow link's ceiling and above
//! the ceilings of all slower links is what that link lets through: the expert's reading
//! of "hdparm -t sdc: 270 MB/s" beside "ata2: SATA link up 3.0 Gbps" and "ata1: ... 6.0
//! Gbps" (the SSD sits on a 3 Gb/s port). When the facts tie the disk to its port, only
//! that port's speed is used.

use super::recognize::Recognized;
use crate::checks::measured_common::mbps;
use crate::checks::{Confidence, Finding, Severity, Verdict};
use crate::facts::SystemFacts;
use crate::sources;

/// SATA payload ceiling (bytes/s) of a link of `gbps`: 8b/10b leaves 80 % of the line rate.
fn payload(gbps: f64) -> f64 {
    gbps * 1e9 * 0.8 / 8.0
}

/// Within this share under the ceiling a read is "at" it (protocol overhead eats ~5-10 %),
/// as checks::link_ceiling_reached counts it.
const AT_CEILING: f64 = 0.88;

/// (port, Gb/s) of every "ataN: SATA link up X Gbps" line of the pasted kernel logs, each
/// port's last one (after a reset that lowered the speed, the last line is the link now).
pub(crate) fn pasted_links(text: &str) -> Vec<(u32, f64)> {
    let mut links: Vec<(u32, f64)> = Vec::new();
    for raw in text.lines() {
        let b = sources::log_prefix::strip_prefixes(raw).trim();
        let Some(port) = sources::kernel_log::port_of(b) else {
            continue;
        };
        let Some(rest) = b.split_once(": ").map(|x| x.1) else {
            continue;
        };
        let Some(g) = rest
            .strip_prefix("SATA link up ")
            .and_then(|v| v.split_once(" Gbps"))
            .and_then(|(n, _)| n.trim().parse::<f64>().ok())
            .filter(|g| g.is_finite() && *g > 0.0)
        else {
            continue;
        };
        links.retain(|(p, _)| *p != port);
        links.push((port, g));
    }
    links
}

pub(crate) fn link_ceiling_observations(
    rec: &Recognized,
    sys: &SystemFacts,
    already: &[Finding],
) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut links: Vec<(u32, f64)> = Vec::new();
    for b in rec.blocks.iter().filter(|b| {
        b.tool
            .is_any(&[&sources::dmesg::SPEC, &sources::kernel_log::LINUX_SPEC])
    }) {
        for (p, g) in pasted_links(&b.text) {
            links.retain(|(q, _)| *q != p);
            links.push((p, g));
        }
    }
    let fastest = links.iter().map(|(_, g)| *g).fold(0.0_f64, f64::max);
    if links.is_empty() {
        return out;
    }
    let reads = crate::checks::below_expected_for_class::best_pasted_reads(sys, |d| {
        crate::facts::device_names::whole_disk(d) == d
    });
    for (dev, rate, bench) in reads {
        if already
            .iter()
            .any(|f| f.check == "link-ceiling-reached" && f.device == dev)
        {
            continue;
        }
        // The disk's own link when the facts tie it to its port; else every speed shown.
        let own = sys.disk(dev).and_then(|d| d.link_current_gbps.get());
        let mut speeds: Vec<f64> = match own {
            Some(g) => vec![g],
            None => links.iter().map(|(_, g)| *g).collect(),
        };
        speeds.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
        speeds.dedup();
        // The slowest link whose ceiling the read fits under: a read above a link's ceiling
        // cannot have crossed it.
        let Some(g) = speeds
            .iter()
            .copied()
            .find(|g| rate <= payload(*g))
            .filter(|g| *g < fastest && rate >= payload(*g) * AT_CEILING)
        else {
            continue;
        };
        let ports: Vec<String> = links
            .iter()
            .filter(|(_, s)| (*s - g).abs() < 0.01)
            .map(|(p, _)| format!("ata{p}"))
            .collect();
        out.push(
            Finding::new(
                "link-ceiling-reached",
                dev,
                Verdict::Problem,
                Severity::Notice,
                format!(
                    "{dev} reads at {}: the ceiling of a {g:.1} Gb/s SATA link, while another port \
                     links at {fastest:.1} Gb/s",
                    mbps(rate)
                ),
            )
            .explain(format!(
                "A {g:.1} Gb/s SATA link carries at most {} of data (8b/10b coding leaves 80 % of \
                 the line rate), and {dev}'s best sequential read, {}, sits just under it and \
                 above what any slower link would let through. The kernel log brings up {} at \
                 {g:.1} Gb/s and another port at {fastest:.1} Gb/s: the disk is most likely on a \
                 slower port (or behind a cable or a libata.force limit that holds its link down), \
                 and the link, not the drive, sets the figure. Move the drive to a {fastest:.1} \
                 Gb/s port (on many boards only the first ports are 6 Gb/s) and check `ls -l \
                 /sys/block/{dev}` for the ataN it sits on.",
                mbps(payload(g)),
                mbps(rate),
                ports.join(", ")
            ))
            .evidence(
                bench.from.clone(),
                format!("{} = {}", bench.tool, mbps(rate)),
            )
            .confidence(if own.is_some() {
                Confidence::Medium
            } else {
                Confidence::Low
            }),
        );
    }
    out
}

#[cfg(test)]
mod tests;
