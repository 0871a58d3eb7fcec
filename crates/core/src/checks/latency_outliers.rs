//! `latency-outliers`: some I/Os took hundreds of milliseconds. A healthy HDD seeks in
//! 8-15 ms and an SSD answers in well under 1 ms; a p99.9 in the hundreds of ms at queue
//! depth 1 means the drive retried weak sectors, an SMR drive cleaned a band, or something
//! else stalled the device.

use super::measured_common::{CiteResult, pass, per_disk, problem};
use super::{Check, CheckInput, Confidence, Finding, Severity};
use crate::evidence::TestName;
use crate::facts::{DeviceClass, SystemFacts};

pub(crate) struct LatencyOutliers;

/// p99.9 at or above this (QD1) is an outlier for any disk class.
pub(crate) const OUTLIER_P999_NS: u64 = 150_000_000;
/// Fewer timed I/Os than this say nothing about the tail.
pub(crate) const MIN_IOS: u64 = 100;
/// A single I/O this long is a stall whatever the percentiles say.
const STALL_MAX_NS: u64 = 1_000_000_000;

impl Check for LatencyOutliers {
    fn input(&self) -> CheckInput {
        CheckInput::Measured
    }
    fn id(&self) -> &'static str {
        "latency-outliers"
    }
    fn summary(&self) -> &'static str {
        "Some I/Os took hundreds of milliseconds (retries on weak sectors, SMR stalls)"
    }
    fn run(&self, sys: &SystemFacts) -> Vec<Finding> {
        per_disk(sys, |disk, dev, rs| {
            let class = sys
                .disks
                .iter()
                .find(|d| d.name == disk)
                .and_then(|d| d.class.value().copied());
            let timed: Vec<_> = rs
                .iter()
                .copied()
                .filter(|r| {
                    // A p99.9 needs samples: with fewer than MIN_IOS it is the max of a few.
                    r.latency.is_some()
                        && r.queue_depth <= 1
                        && r.test != TestName::SyncWrite
                        && r.ios >= MIN_IOS
                })
                .collect();
            if timed.is_empty() {
                return None;
            }
            let worst = timed.iter().copied().max_by_key(|r| {
                r.latency
                    .as_ref()
                    .map(|l| (l.p999_ns, l.max_ns))
                    .unwrap_or_default()
            });
            let w = worst?;
            let l = w.latency.as_ref()?;
            if l.p999_ns >= OUTLIER_P999_NS || l.max_ns >= STALL_MAX_NS {
                let title = format!(
                    "{dev}: slowest I/Os took {:.0} ms (p99.9) and {:.0} ms (max) in {} {}",
                    l.p999_ns as f64 / 1e6,
                    l.max_ns as f64 / 1e6,
                    w.test,
                    w.label
                );
                let head = format!(
                    "Half the requests finished within {:.2} ms, yet one in a thousand took {:.0} ms \
                     or more.",
                    l.p50_ns as f64 / 1e6,
                    l.p999_ns as f64 / 1e6
                );
                // A loop, RAM or virtual device has no drive of its own to retry sectors or
                // clean SMR bands: its stalls come from what it is built on.
                let (severity, why, impact) = match class.and_then(no_drive_of_its_own) {
                    Some(what) => (
                        Severity::Notice,
                        format!(
                            "{head} This is {what}, with no drive of its own: delays this long \
                             come from what it is built on (the filesystem and disk under a \
                             loop device's backing file, the host's storage under a virtual \
                             disk, memory pressure under a RAM disk) or from other I/O queued \
                             there. Test the underlying disk to see whether it is at fault."
                        ),
                        0.1,
                    ),
                    None => (
                        Severity::Warning,
                        format!(
                            "{head} Delays this long come from the drive retrying sectors it can \
                             barely read (check SMART pending/reallocated sectors), from a \
                             shingled (SMR) drive rewriting a band, or from another program's \
                             I/O queued ahead. Such stalls make the whole system hang for \
                             moments even when throughput looks fine."
                        ),
                        0.3,
                    ),
                };
                Some(
                    problem(self.id(), dev, severity, title, why)
                        .cite(w)
                        .impact(impact),
                )
            } else {
                Some(pass(
                    self.id(),
                    dev,
                    format!(
                        "{dev}: worst p99.9 latency {:.1} ms ({} {})",
                        l.p999_ns as f64 / 1e6,
                        w.test,
                        w.label
                    ),
                    Confidence::High,
                    w,
                ))
            }
        })
    }
}

/// What a device without a drive of its own is, for the explanation; None for a drive.
fn no_drive_of_its_own(c: DeviceClass) -> Option<&'static str> {
    match c {
        DeviceClass::Loop => Some("a loop device (a file made to look like a disk)"),
        DeviceClass::Ram => Some("a RAM disk"),
        DeviceClass::Virtual => Some("a virtual disk"),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
