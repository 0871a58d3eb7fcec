//! `link-ceiling-reached`: sequential reads flatten at the SATA link's payload ceiling while
//! the drive could go faster (a 6 Gb/s drive on a 1.5/3 Gb/s link, or an SSD on 3 Gb/s).

use super::measured_common::{CiteResult, best_seq_read, mbps, pass, per_disk, problem};
use super::{Check, CheckInput, Confidence, Finding, Fix, Severity};
use crate::evidence::Platform;
use crate::facts::{DeviceClass, SystemFacts};

pub(crate) struct LinkCeilingReached;

/// SATA payload ceiling for a link speed: 8b/10b coding leaves 80 % of the line rate.
fn sata_payload(gbps: f64) -> f64 {
    gbps * 1e9 * 0.8 / 8.0
}

impl Check for LinkCeilingReached {
    fn input(&self) -> CheckInput {
        CheckInput::Measured
    }
    fn id(&self) -> &'static str {
        "link-ceiling-reached"
    }
    fn summary(&self) -> &'static str {
        "Sequential reads stop at the SATA link's ceiling while the drive could go faster"
    }
    fn run(&self, sys: &SystemFacts) -> Vec<Finding> {
        per_disk(sys, |disk, dev, rs| {
            let d = sys.disk(disk)?;
            let cur = d.link_current_gbps.get()?;
            let best = best_seq_read(rs)?;
            let ceiling = sata_payload(cur);
            let drive_max = d.link_drive_max_gbps.get();
            let port_max = d.link_port_max_gbps.get();
            let could_be_faster = drive_max.is_some_and(|m| m > cur)
                || (d.class.get() == Some(DeviceClass::Ssd) && cur < 6.0);
            // Within 12 % of the ceiling counts as "at" it (protocol overhead eats ~5-10 %).
            let at_ceiling = best.bytes_per_sec >= ceiling * 0.88;
            if at_ceiling && could_be_faster {
                let mut explanation = format!(
                    "The best sequential read, {}, is at the {cur:.1} Gb/s link's ceiling of {} \
                     (8b/10b coding leaves 80 % of the line rate). ",
                    mbps(best.bytes_per_sec),
                    mbps(ceiling)
                );
                if let Some(m) = drive_max {
                    explanation.push_str(&format!("The drive supports {m:.1} Gb/s. "));
                }
                match port_max {
                    Some(p) if p <= cur => explanation.push_str(&format!(
                        "The port itself tops out at {p:.1} Gb/s: use a faster port or controller."
                    )),
                    _ => explanation.push_str(
                        "A limit set in the kernel (libata.force), a marginal cable or a BIOS setting keeps the link slow.",
                    ),
                }
                Some(
                    problem(
                        self.id(),
                        dev,
                        Severity::Warning,
                        format!(
                            "{dev} reads at {}: the {cur:.1} Gb/s link's ceiling",
                            mbps(best.bytes_per_sec)
                        ),
                        explanation,
                    )
                    .cite(best)
                    .evidence(
                        d.link_current_gbps
                            .sources()
                            .first()
                            .cloned()
                            .unwrap_or_default(),
                        format!("{cur:.1} Gb/s"),
                    )
                    .impact(drive_max.map(|m| 1.0 - cur / m).unwrap_or(0.5))
                    .fix(Fix {
                        platform: Platform::Linux,
                        summary: "Let the link negotiate its full speed".into(),
                        steps: vec![
                            "Remove any libata.force=...:1.5G/3.0G from the kernel command line"
                                .into(),
                            "Replace the SATA cable; try another port on the motherboard".into(),
                        ],
                        risk: "None for the data; reboot needed for kernel parameters.".into(),
                    }),
                )
            } else {
                Some(pass(
                    self.id(),
                    dev,
                    format!(
                        "{dev} reads at {} on a {cur:.1} Gb/s link ({} ceiling)",
                        mbps(best.bytes_per_sec),
                        mbps(ceiling)
                    ),
                    Confidence::High,
                    best,
                ))
            }
        })
    }
}

#[cfg(test)]
mod tests;
