//! `cache-answered`: a read went faster than the disk's interface can carry, or faster than
//! any drive of its class can read media, so a cache (page cache, controller or drive
//! cache) answered, not the disk. Typical of `dd` without `iflag=direct` and of `hdparm -T`.

use super::measured_common::{CiteResult, by_rate, interface_ceiling, mbps, per_disk, problem};
use super::pasted_common::{base, cache_made, has_flag, human, is_device, is_pseudo, mbs, what};
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
        // Pasted dd runs (explain, the wizard): a file read back from the page cache.
        let pasted = sys
            .user_benchmarks
            .iter()
            .enumerate()
            .filter(|(_, b)| b.tool == "dd")
            .filter_map(|(i, b)| cached_reread(self.id(), sys, i, b));
        let mut out: Vec<Finding> = pasted.collect();
        out.extend(
            sys.user_benchmarks
                .iter()
                .filter_map(|b| buffered_iozone_read(self.id(), sys, b)),
        );
        out.extend(per_disk(sys, |disk, dev, rs| {
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
        }));
        out
    }
}

/// Whether a read of `bytes` at `rate` is one the page cache answers ([`cached_reread`]'s
/// limits): faster than a SATA link carries, of a file half the RAM holds, else at most 2
/// GiB, or 4 GiB beyond 2 GB/s.
fn cacheable(sys: &SystemFacts, rate: f64, bytes: u64) -> bool {
    let unknown_ram_cap: u64 = if rate > 2.0e9 { 4 << 30 } else { 2 << 30 };
    let cap = sys.ram_bytes.get().map_or(unknown_ram_cap, |r| r / 2);
    rate > 6.0e8 && bytes > 0 && bytes <= cap
}

/// The Phoronix Test Suite's IOzone read (sources::iozone::pts_benchmarks) of a file the
/// page cache holds, faster than a SATA link carries, with the size limits of
/// [`cached_reread`]: pts/iozone runs iozone without -I (no O_DIRECT), and iozone's read
/// test (-i 1) reads the file its write test (-i 0) has just written, so the pages are
/// still in RAM and the figure is memory's.
fn buffered_iozone_read(
    id: &str,
    sys: &SystemFacts,
    b: &crate::facts::UserBenchmark,
) -> Option<Finding> {
    if b.tool != "pts/iozone" || !b.flags.iter().any(|f| f == "rw=read") {
        return None;
    }
    let (rate, bytes) = (b.bytes_per_sec?, b.bytes?);
    if !cacheable(sys, rate, bytes) {
        return None;
    }
    Some(cache_made(
        id,
        b,
        format!(
            "IOzone read of a {} file at {}: the page cache answered",
            human(bytes),
            mbs(rate)
        ),
        format!(
            "The Phoronix Test Suite runs IOzone without O_DIRECT, and IOzone's read test \
             reads the {} file its write test has just written: the file's pages are still \
             in memory, so the reads came from RAM ({}), not from the disks. Use a file of \
             at least twice the RAM, or fio with --direct=1, to measure the disks.",
            human(bytes),
            mbs(rate)
        ),
    ))
}

/// A buffered dd read of a file (no iflag=direct) that an earlier run of the same paste
/// wrote or read, at least twice as fast as that run and faster than a SATA link carries
/// (600 MB/s of data at 6 Gb/s), of a size the page cache holds: half the RAM when known,
/// else at most 2 GiB, or 4 GiB for a read beyond 2 GB/s (more than a SATA or SAS link or a
/// PCIe 3.0 x2 drive delivers: only a x4 NVMe drive could, and not at twice its own earlier
/// run on the same file). A file's pages stay in the page cache after dd wrote or read them (even
/// conv=fdatasync only writes them back; only `echo 3 > /proc/sys/vm/drop_caches`, vm.rst,
/// or iflag=direct keeps a re-read off them), so the re-read measured RAM. GNU dd's
/// iflag=nocache only drops the cache after the data was read (dd(1)), so it does not count.
fn cached_reread(
    id: &str,
    sys: &SystemFacts,
    i: usize,
    b: &crate::facts::UserBenchmark,
) -> Option<Finding> {
    let input = b.input.as_deref()?;
    if is_device(input) || is_pseudo(input) || has_flag(b, &["iflag=direct"]) {
        return None;
    }
    let rate = b.bytes_per_sec?;
    let bytes = b.bytes?;
    if !cacheable(sys, rate, bytes) {
        return None;
    }
    let before = sys
        .user_benchmarks
        .get(..i)?
        .iter()
        .filter(|o| {
            o.tool == "dd"
                && (o.output.as_deref() == Some(input) || o.input.as_deref() == Some(input))
        })
        .filter_map(|o| o.bytes_per_sec.filter(|r| *r > 0.0))
        .fold(None, |m: Option<f64>, r| Some(m.map_or(r, |x| x.min(r))))?;
    if rate < 2.0 * before {
        return None;
    }
    Some(
        base(
            id,
            b,
            Verdict::Problem,
            Severity::Notice,
            format!(
                "{input} read again at {}, {:.0} times the {} of the earlier run on it: the page cache answered",
                mbs(rate),
                rate / before,
                mbs(before)
            ),
        )
        .explain(format!(
            "{} reads {input}, which an earlier dd of the same text already wrote or read. \
             Its {} fit in the page cache, which keeps a file's pages after they are written \
             or read, and the read ran at {}, faster than a SATA link carries and {:.0} times \
             the earlier run: it came from RAM, not the disk. Drop the caches first (`sync; \
             echo 3 > /proc/sys/vm/drop_caches`) or read with iflag=direct.",
            what(b),
            human(bytes),
            mbs(rate),
            rate / before
        ))
        .confidence(Confidence::High),
    )
}

#[cfg(test)]
mod tests;
