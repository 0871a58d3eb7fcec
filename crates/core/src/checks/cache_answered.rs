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
mod tests {
    use super::*;
    use crate::checks::measured_common::synth::*;
    use crate::facts::{DiskFacts, Fact};

    fn sata(gbps: f64, class: DeviceClass) -> DiskFacts {
        let mut d = DiskFacts::new("sda", "/dev/sda");
        d.link_current_gbps =
            Fact::known(gbps, crate::sources::sysfs::ata_link("link1", "sata_spd"));
        d.class = Fact::known(
            class,
            crate::sources::sysfs::block("sda", "queue/rotational"),
        );
        d
    }

    #[test]
    fn buffered_read_faster_than_the_link_is_the_cache() {
        let mut r = result(TestName::BsSweep, "buffered bs=512", "sda", 2100.0, 512);
        r.direct = false;
        let s = sys(
            vec![sata(3.0, DeviceClass::Ssd)],
            vec![result(TestName::SeqRead, "outer", "sda", 270.0, 1 << 20), r],
        );
        let f = CacheAnswered.run(&s);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].verdict, Verdict::Problem);
        assert_eq!(
            f[0].title,
            "buffered bs=512 read at 2100.0 MB/s: faster than sda can deliver (300.0 MB/s)"
        );
        assert!(f[0].explanation.contains("page cache"));
    }

    #[test]
    fn hdd_class_limit_and_pass() {
        let s = sys(
            vec![sata(6.0, DeviceClass::Hdd)],
            vec![result(TestName::SeqRead, "outer", "sda", 450.0, 1 << 20)],
        );
        let f = CacheAnswered.run(&s);
        assert!(f[0].title.ends_with("(300.0 MB/s)"), "{}", f[0].title);
        assert!(f[0].explanation.contains("O_DIRECT"));
        let s = sys(
            vec![sata(6.0, DeviceClass::Hdd)],
            vec![result(TestName::SeqRead, "outer", "sda", 190.0, 1 << 20)],
        );
        assert_eq!(CacheAnswered.run(&s)[0].verdict, Verdict::Pass);
        // No facts about the disk: nothing to say.
        assert!(
            CacheAnswered
                .run(&sys(
                    vec![],
                    vec![result(TestName::SeqRead, "outer", "sda", 9000.0, 1 << 20)]
                ))
                .is_empty()
        );
    }
}
