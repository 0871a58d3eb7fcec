//! `cache-answered`: a read went faster than the disk's interface can carry, or faster than
//! any drive of its class can read media, so a cache (page cache, controller or drive
//! cache) answered, not the disk. Typical of `dd` without `iflag=direct` and of `hdparm -T`.

use super::measured_common::{CiteResult, by_rate, interface_ceiling, mbps, per_disk, problem};
use super::{Check, CheckInput, Confidence, Finding, Severity, Verdict};
use crate::facts::{DeviceClass, SystemFacts};

pub(crate) struct CacheAnswered;

/// Fastest media rate of any shipping HDD, bytes/s: the fastest 3.5" drives in vendor
/// datasheets (e.g. Seagate Exos X20: up to 285 MB/s) stay below 300 MB/s.
const HDD_MEDIA_MAX: f64 = 300e6;

impl Check for CacheAnswered {
    fn input(&self) -> CheckInput {
        CheckInput::Measured
    }
    fn id(&self) -> &'static str {
        "cache-answered"
    }
    fn summary(&self) -> &'static str {
        "A read was faster than the interface or the drive class allows: a cache answered, not the disk"
    }
    fn run(&self, sys: &SystemFacts) -> Vec<Finding> {
        per_disk(sys, |disk, dev, rs| {
            let d = sys.disk(disk)?;
            let mut limits: Vec<(f64, String)> = Vec::new();
            if let Some(c) = interface_ceiling(d) {
                limits.push(c);
            }
            if d.class.get() == Some(DeviceClass::Hdd) {
                limits.push((
                    HDD_MEDIA_MAX,
                    "no hard disk reads its platters faster than about 300 MB/s".into(),
                ));
            }
            let (limit, why) = limits
                .into_iter()
                .min_by(|a, b| a.0.partial_cmp(&b.0).unwrap_or(std::cmp::Ordering::Equal))?;
            let reads: Vec<_> = rs
                .iter()
                .filter(|r| r.error.is_none() && r.bytes > 0 && !r.test.is_write())
                .collect();
            if reads.is_empty() {
                return None;
            }
            // 5 % slack for clock and rounding differences.
            let fast: Vec<_> = reads
                .iter()
                .filter(|r| r.bytes_per_sec > limit * 1.05)
                .collect();
            if let Some(r) = fast.iter().max_by(|a, b| by_rate(a, b)) {
                let via = if r.direct {
                    "even with O_DIRECT, so a cache below the OS (RAID controller, USB bridge or drive) answered"
                } else {
                    "through the page cache: the data came from RAM, not the disk"
                };
                Some(
                    problem(self.id(), dev, Severity::Notice, format!("{} read at {}: faster than {dev} can deliver ({})", r.label, mbps(r.bytes_per_sec), mbps(limit)), format!(
                            "{why}, yet {} {} ran at {} {via}. Such a number says nothing about the disk; \
                             compare direct reads (dd iflag=direct, fio --direct=1) instead.",
                            r.test, r.label, mbps(r.bytes_per_sec)
                        ))
                        .cite(r),
                )
            } else {
                Some(
                    Finding::new(
                        self.id(),
                        dev,
                        Verdict::Pass,
                        Severity::Info,
                        format!("{dev}: reads stayed below the {} ceiling", mbps(limit)),
                    )
                    .explain(why)
                    .confidence(Confidence::High),
                )
            }
        })
    }
}

#[cfg(test)]
mod tests;
