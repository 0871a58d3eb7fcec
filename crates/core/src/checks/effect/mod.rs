//! What a fix should bring: the range a measurable rate should reach once a problem
//! finding's fix is applied, with the rule and the data it rests on. Attached to the finding
//! after every check has run ([`annotate`]); a finding whose fix changes no rate, or whose
//! range nothing here supports, gets none, and the reason is said instead of a guess.
//!
//! The models:
//! - SATA link arithmetic: a link of 1.5, 3 or 6 Gb/s carries 8b/10b-coded symbols, so at
//!   most 150, 300 or 600 MB/s of frame data (SATA 3.x, section 6.2); FIS headers, CRC and
//!   flow control leave 87-96 % of that to payload (measured sequential reads of SSDs on a
//!   6 Gb/s link top out at 520-570 MB/s). An SSD on a fixed link reaches the lower of that
//!   ceiling and what SATA SSDs sustain (450-560 MB/s read: the rated sequential read of
//!   current SATA SSDs is 500-560 MB/s, and measured runs land slightly below).
//! - PCIe link arithmetic: GT/s per lane times the lanes, times the line code (8b/10b up to
//!   5 GT/s, 128b/130b from 8 GT/s: PCIe Base 3.0, section 4.2.2), of which TLP and DLLP
//!   overhead with a 256-byte payload leave 86-93 % to data. The drive's own limit is not
//!   known from the link, so only the ceiling ("up to") is given.
//! - Write cache on an HDD: with the cache off every write waits for the platter; with it on,
//!   sequential writes run at the drive's media rate, which the same drive's sequential read
//!   shows (80-105 % of it). Without a read figure, the cache-off figure of large sequential
//!   writes is scaled by the measured ratio of the in-repo before/after cases
//!   (tests/fixtures/effects: 5.0x for a SCSI disk's WCE bit, 5.9x for seed 000's WD5001ABYS),
//!   4.5-6.5x, capped at what the fastest HDDs are rated for (270-290 MB/s, Seagate Exos X20/X24
//!   data sheets). A drive losing about one revolution per request with the cache off explains
//!   the size of that ratio: 128 KiB requests at 7200 rpm take 1.8 ms to write and wait up to
//!   8.3 ms for the platter. Small or synchronous writes get no range: there the cache can even
//!   make them slower (the in-repo Ultrastar 7K6000 fio case: 0.36x).
//! - A buffered block device (old BSD /dev/wdN next to the raw /dev/rwdN): the buffer cache
//!   copies cost CPU time, not disk time, so when the disk limits the run the raw device
//!   moves data at about the same rate (0.9-1.2x; the in-repo 1998 Fireball case measured
//!   1.00x with a 57x smaller system time). Only an old BSD block device has such a twin: a
//!   Linux dd through the page cache measures the cache as much as the disk, and gets a
//!   reason instead of a range.
//!
//! - A link that bound the measured rate: when the figure measured now is at least 80 % of
//!   the current link's payload ceiling (SATA or PCIe, arithmetic above), the link, not the
//!   drive, set it, so the drive delivers at least that figure on a faster link; the range is
//!   then that figure up to the faster link's ceiling.
//!
//! - A drive's own rating ([`drives`]: a table of model families with the page stating their
//!   rated sequential speeds): it caps a link model's range (a drive never reads faster than
//!   its rating on any link), and it is the range after a fix that removes a cost outside the
//!   drive. A dd run in blocks under 64 KiB measures per-request cost; with blocks of 1 MiB
//!   the same read runs at the drive's media rate, which for an HDD read from its first block
//!   is the outer zone's rate (zoned bit recording: the rating's upper end). The range is
//!   85-105 % of that rating: the 15 % below it is an allowance for host and controller
//!   overhead set before any case was scored; the 5 % above it (a rounded rating, or one in
//!   binary megabytes) was added after seed 001's T7K250 read 4 % over its rating, so that
//!   case is marked circular.
//! - dd's per-request cost: dd issues one request at a time, so its block over its rate is the
//!   time each request takes now, an upper bound on the fixed cost (system call, driver, disk
//!   command) every request pays. With 1 MiB blocks that cost is paid once per MiB: the low
//!   end is the media rate's low end with the whole time per request now added to every 1 MiB
//!   block. Without a rated model, a run of the same disk in blocks of 128 KiB or more in the
//!   same paste gives the media rate instead: 1 MiB blocks match or beat it (less 10 % for a
//!   rerun), and with the small run's time per request taken out of every 128 KiB block it
//!   bounds the media rate from above.
//! - DMA on for a parallel-ATA hard disk in PIO: the disk then reads at its media rate, and a
//!   read from its first sectors (hdparm -t, dd without skip=) runs in the outer zone: 85-105 %
//!   of a rated model's outer-zone rate, capped by the burst rate of the Ultra DMA mode drive
//!   and host both support (ATA/ATAPI-7).
//! - A PCIe port whose capability is known while the device's is not (a Raspberry Pi 5's
//!   connector from config.txt): a read now that fills the current link is the low end, the
//!   same share of the port's full link the high end (`port_link`).
//! - USB transfer arithmetic ([`usb`]): the bulk-transfer ceiling of a USB 2 or USB 3 link and
//!   what Bulk-Only Transport leaves of it, for the reasons a bridged disk gets or lacks a range.
//!
//! A problem finding with a fix that gets no range says why ([`why_none`], kept on the finding
//! as `expected_effect_unknown` so that text, Markdown, HTML and JSON carry it): the fact the
//! model needs is missing from the run, or no model with a source covers the fix yet.
//!
//! [`FITTED_ON`] names the in-repo before/after cases (tests/fixtures/effects) each measured
//! ratio was taken from: a prediction on one of those cases is circular, and the scorer says so.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub(crate) mod drives;
pub mod silent;
pub(crate) mod usb;

use super::{Finding, Verdict};
use crate::evidence::TestName;
use crate::facts::{DeviceClass, DiskFacts, SystemFacts, UserBenchmark};

/// The rate a prediction is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum EffectMetric {
    /// Sequential reads of large blocks, MB/s.
    SeqReadMbps,
    /// Sequential writes of large blocks, MB/s.
    SeqWriteMbps,
    /// Random 4 KiB reads at the queue depth the effect names (`queue_depth`), I/O
    /// operations per second.
    RandReadIops,
    /// Random 4 KiB writes at the queue depth the effect names, I/O operations per second.
    RandWriteIops,
}

impl EffectMetric {
    pub fn words(self) -> &'static str {
        match self {
            EffectMetric::SeqReadMbps => "sequential reads",
            EffectMetric::SeqWriteMbps => "sequential writes",
            EffectMetric::RandReadIops => "4 KiB random reads",
            EffectMetric::RandWriteIops => "4 KiB random writes",
        }
    }
    pub fn unit(self) -> &'static str {
        match self {
            EffectMetric::SeqReadMbps | EffectMetric::SeqWriteMbps => "MB/s",
            EffectMetric::RandReadIops | EffectMetric::RandWriteIops => "IOPS",
        }
    }
    /// Whether the figures are I/O operations per second (else MB/s).
    pub(crate) fn is_iops(self) -> bool {
        self.unit() == "IOPS"
    }
}

/// The expected effect of a finding's fix.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ExpectedEffect {
    pub metric: EffectMetric,
    /// "MB/s" or "IOPS" (the metric's unit).
    pub unit: String,
    /// The queue depth a random-I/O figure is at (absent for sequential rates).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub queue_depth: Option<u32>,
    /// The figure measured or pasted now, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<f64>,
    /// The range after the fix; `low` is absent when only a ceiling is known ("up to").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub low: Option<f64>,
    pub high: f64,
    /// The rule and the data it used.
    pub basis: String,
}

impl ExpectedEffect {
    /// One line for text and Markdown answers.
    pub fn sentence(&self) -> String {
        format!(
            "Expected after the fix: {}, because {}",
            self.range_words(),
            self.basis
        )
    }

    /// The metric and its range, with the figure now: "sequential writes 58-84 MB/s, from
    /// 12.9 now".
    pub fn range_words(&self) -> String {
        let range = match self.low {
            Some(l) if (self.high - l).abs() >= 1.0 => {
                format!("{:.0}-{:.0} {}", l, self.high, self.unit)
            }
            Some(l) => format!("about {:.0} {}", l, self.unit),
            None => format!("up to {:.0} {}", self.high, self.unit),
        };
        let from = self
            .from
            .map(|f| {
                if self.metric.is_iops() {
                    format!(", from {f:.0} now")
                } else {
                    format!(", from {} now", fmt_rate(f))
                }
            })
            .unwrap_or_default();
        let qd = self
            .queue_depth
            .map(|q| format!(" at queue depth {q}"))
            .unwrap_or_default();
        format!("{}{qd} {range}{from}", self.metric.words())
    }
}

fn fmt_rate(mbps: f64) -> String {
    if mbps < 100.0 {
        format!("{mbps:.1}")
    } else {
        format!("{mbps:.0}")
    }
}

/// Payload share of a SATA link's frame data rate: FIS framing, CRC and flow control.
const SATA_EFFICIENCY: (f64, f64) = (0.87, 0.96);
/// Sequential read of a SATA SSD once the link does not limit it, MB/s.
const SATA_SSD_READ: (f64, f64) = (450.0, 560.0);
/// Payload share of a PCIe link's data rate (TLP/DLLP overhead, 256-byte payloads).
const PCIE_EFFICIENCY: (f64, f64) = (0.86, 0.93);
/// An HDD's cached sequential writes against its sequential reads.
const HDD_WRITE_OF_READ: (f64, f64) = (0.80, 1.05);
/// Large sequential writes of an HDD with the cache on against the same writes with it off
/// (the in-repo cases: 5.0x wisefaq SCSI WCE, 5.9x seed 000).
const HDD_WRITE_CACHE_RATIO: (f64, f64) = (4.5, 6.5);
/// The fastest HDDs' rated sustained transfer rate, MB/s (Seagate Exos X20: 272, X24: 285).
const HDD_CEILING_MBPS: f64 = 290.0;
/// The raw device's rate against the buffered block device's when the disk limits the run.
const RAW_OF_BUFFERED: (f64, f64) = (0.9, 1.2);
/// The in-repo before/after cases (tests/fixtures/effects, file names) each measured ratio of
/// this module was taken from, by model: a prediction scored on one of them is circular.
pub const FITTED_ON: &[(&str, &[&str])] = &[
    (
        "HDD write cache, cache-off write x ratio",
        &[
            "write-cache-enable--ctos-scsi-wce-bit.txt",
            "write-cache-enable--wd5001abys-freebsd81-dd.txt",
        ],
    ),
    (
        "drive rating, upper allowance above the rated maximum",
        &["dd-block-size--hitachi-hdt722525-ad4-bs512-to-128k-iostat.txt"],
    ),
    (
        "buffered block device vs its raw twin",
        &["buffered-vs-raw--fireball-st64-wd2-vs-rwd2-1998.txt"],
    ),
];

/// One measured before/after ratio of a fix that has no arithmetic (scheduler, TRIM,
/// realignment, APM, encryption): what was measured and where it was published.
pub(crate) struct MeasuredRatio {
    /// The checks whose fix it is.
    pub checks: Vec<&'static str>,
    /// After over before, in rate terms (before over after for elapsed times).
    pub ratio: f64,
    pub what: &'static str,
    pub source: &'static str,
}

/// Measured ratios per fix without arithmetic, a source per row (measured_ratios.tsv: the
/// in-repo before/after cases, tests/fixtures/effects). They are quoted in a finding's reason
/// and never scaled into a range: each row is one system and one workload, and the rows of one
/// fix spread too far (1.8x to 3.1x for one scheduler change on one server) for a range to
/// carry over. A row that does not parse is left out.
pub(crate) fn measured_ratios() -> Vec<MeasuredRatio> {
    include_str!("measured_ratios.tsv")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let mut f = l.split('\t');
            let checks = f.next()?.split(',').collect();
            let ratio = f.next()?.parse().ok().filter(|r: &f64| r.is_finite())?;
            Some(MeasuredRatio {
                checks,
                ratio,
                what: f.next()?,
                source: f.next()?,
            })
        })
        .collect()
}

/// The measured ratios of `check`'s fix as a clause: "measured elsewhere: 1.8x (what,
/// source), 3.1x (...)"; empty when the table has none.
fn measured_ratios_words(check: &str) -> String {
    let rows: Vec<String> = measured_ratios()
        .iter()
        .filter(|r| r.checks.contains(&check))
        .map(|r| format!("{:.2}x ({}; {})", r.ratio, r.what, r.source))
        .collect();
    if rows.is_empty() {
        String::new()
    } else {
        format!("; measured elsewhere: {}", rows.join(", "))
    }
}

/// Whether the ratio of some model was taken from the in-repo case `file`.
pub fn fitted_on(file: &str) -> bool {
    FITTED_ON.iter().any(|(_, files)| files.contains(&file))
}

/// A measured figure at least this share of the current link's payload ceiling was set by
/// the link, not by the drive.
const LINK_BOUND_SHARE: f64 = 0.80;
/// A link-bound read scaled to the faster link keeps at least this share of the scaled figure:
/// the allowance for a drive or host that stops short (set before any case was scored).
const LINK_SCALE_LOW: f64 = 0.85;
/// A large-block run reaches at least this share of the drive's rated maximum: the rating is a
/// maximum, and the rest is an allowance for host and controller overhead (set before any case
/// was scored).
const RATED_SHARE_LOW: f64 = 0.85;
/// A run can exceed a drive's rating by this factor: ratings are rounded, and some are stated
/// in binary megabytes (1 MiB = 1.049 MB). Set after seed 001's Deskstar T7K250 read 70.5 MB/s
/// against its 67.8 MB/s rating (the model's first non-circular prediction, a miss by 4 %), so
/// that case is circular ([`FITTED_ON`]).
const RATED_SHARE_HIGH: f64 = 1.05;
/// Requests at least this large measure the disk's media rate, not per-request cost.
const LARGE_BLOCK_BYTES: u64 = 128 * 1024;
/// Writes at least this long are not absorbed by a drive's or the host's cache.
const LARGE_WRITE_BYTES: u64 = 1 << 30;

/// The frame data rate of a SATA link, MB/s (8b/10b: 10 line bits per byte).
fn sata_link_mbps(gbps: f64) -> f64 {
    gbps * 1000.0 / 10.0
}

/// The data rate of a PCIe link, MB/s: per lane GT/s times the line code's payload share.
pub fn pcie_link_mbps(gts: f64, width: u32) -> f64 {
    let code = if gts < 8.0 { 8.0 / 10.0 } else { 128.0 / 130.0 };
    gts * code * 1000.0 / 8.0 * f64::from(width)
}

/// Which way a figure goes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Op {
    Read,
    Write,
}

/// The best large-block sequential figure of `disk` for `op`: diskdoc's own direct results
/// first, then what the user pasted for that disk.
fn figure(sys: &SystemFacts, disk: &str, op: Op) -> Option<f64> {
    let own = sys
        .benchmarks
        .iter()
        .filter(|r| {
            r.disk == disk
                && r.error.is_none()
                && r.bytes > 0
                && r.block_size_bytes >= 128 * 1024
                && r.queue_depth <= 1
                && r.bytes_per_sec.is_finite()
                && match op {
                    Op::Read => matches!(r.test, TestName::SeqRead | TestName::BsSweep),
                    Op::Write => r.test == TestName::SeqWrite,
                }
        })
        .map(|r| r.bytes_per_sec / 1e6)
        .fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.max(v))));
    own.or_else(|| pasted_figure(sys, disk, op))
}

/// The figure of `metric` on `disk` in a run's facts (diskdoc's own large-block result, else a
/// pasted one), MB/s: what `compare` checks a prediction against.
pub fn measured(sys: &SystemFacts, disk: &str, metric: EffectMetric) -> Option<f64> {
    measured_at(sys, disk, metric, None)
}

/// The figure a prediction is checked against in a run's facts: its metric, and for random
/// I/O its queue depth (MB/s or IOPS, the effect's unit).
pub(crate) fn measured_for(sys: &SystemFacts, disk: &str, e: &ExpectedEffect) -> Option<f64> {
    measured_at(sys, disk, e.metric, e.queue_depth)
}

fn measured_at(
    sys: &SystemFacts,
    disk: &str,
    metric: EffectMetric,
    queue_depth: Option<u32>,
) -> Option<f64> {
    match metric {
        EffectMetric::SeqReadMbps => figure(sys, disk, Op::Read),
        EffectMetric::SeqWriteMbps => figure(sys, disk, Op::Write),
        EffectMetric::RandReadIops => own_iops(sys, disk, Op::Read, queue_depth)
            .or_else(|| pasted_iops(sys, disk, Op::Read, queue_depth)),
        EffectMetric::RandWriteIops => own_iops(sys, disk, Op::Write, queue_depth)
            .or_else(|| pasted_iops(sys, disk, Op::Write, queue_depth)),
    }
}

/// The access pattern a pasted benchmark's flags state (fio's words: "rw=read", "rw=write",
/// "rw=randread", "rw=randwrite"), as the benchmark sources set it (sources::diskmark,
/// sources::pibenchmarks, sources::agnostics); None for a run that does not say.
pub(crate) fn pasted_pattern(u: &UserBenchmark) -> Option<&str> {
    u.flags.iter().find_map(|f| f.strip_prefix("rw="))
}

/// A flag's number ("iodepth=32" -> 32).
fn flag_number(u: &UserBenchmark, name: &str) -> Option<u32> {
    u.flags
        .iter()
        .find_map(|f| f.strip_prefix(name)?.strip_prefix('=')?.parse().ok())
}

/// The benchmark programs that run on a test file of a mounted volume and print no device:
/// their figures count for the only disk of the paste, as a CrystalDiskMark file does.
fn file_benchmark(tool: &str) -> bool {
    matches!(
        tool,
        "CrystalDiskMark" | "KDiskMark" | "PiBenchmarks" | "Raspberry Pi Diagnostics"
    )
}

/// A pasted 4 KiB random figure of `disk` at `queue_depth` (any when `None`) with one thread,
/// as I/O operations per second: a benchmark program's random row (CrystalDiskMark RND4K
/// Q32T1, PiBenchmarks' fio at iodepth 64, the Raspberry Pi SD card test at 4), which the
/// program ran on a file of the only disk there is. The rate is the row's bytes over 4096.
fn pasted_iops(sys: &SystemFacts, disk: &str, op: Op, queue_depth: Option<u32>) -> Option<f64> {
    if sys.disks.len() != 1 || sys.disks.first().is_none_or(|d| d.name != disk) {
        return None;
    }
    let want = match op {
        Op::Read => "randread",
        Op::Write => "randwrite",
    };
    sys.user_benchmarks
        .iter()
        .filter(|u| {
            u.error.is_none()
                && file_benchmark(&u.tool)
                && u.block_size_bytes == Some(4096)
                && pasted_pattern(u) == Some(want)
                && flag_number(u, "numjobs").is_none_or(|t| t == 1)
                && queue_depth.is_none_or(|q| flag_number(u, "iodepth") == Some(q))
        })
        .filter_map(|u| u.bytes_per_sec.filter(|v| v.is_finite() && *v > 0.0))
        .map(|v| v / 4096.0)
        .fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.max(v))))
}

/// diskdoc's own 4 KiB random result of `disk` at `queue_depth` (any depth when `None`), as
/// I/O operations per second: the random-read test, or the CrystalDiskMark-style preset's 4
/// KiB tests (random by the preset's definition, like CrystalDiskMark's RND4K rows).
fn own_iops(sys: &SystemFacts, disk: &str, op: Op, queue_depth: Option<u32>) -> Option<f64> {
    sys.benchmarks
        .iter()
        .filter(|r| {
            r.disk == disk
                && r.error.is_none()
                && r.block_size_bytes == 4096
                && queue_depth.is_none_or(|q| r.queue_depth == q)
                && r.ios > 0
                && r.elapsed_ns > 0
                && match op {
                    Op::Read => matches!(r.test, TestName::RandRead | TestName::CdmRead),
                    Op::Write => r.test == TestName::CdmWrite,
                }
        })
        // ios and nanoseconds are counts: the ratio of two f64 conversions cannot overflow.
        .map(|r| r.ios as f64 / (r.elapsed_ns as f64 / 1e9))
        .filter(|v| v.is_finite() && *v > 0.0)
        .fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.max(v))))
}

/// A pasted figure of `disk` (dd, hdparm -t, fio): read when it reads the disk (`if=`), write
/// when it writes it (`of=`); `hdparm -t` and `diskinfo -t` read whatever disk they name, and
/// with no name count for the only disk there is. A bare dd summary says neither way: left
/// out. Blocks under 128 KiB measure per-request cost, not the disk's rate: left out too.
fn pasted_figure(sys: &SystemFacts, disk: &str, op: Op) -> Option<f64> {
    let names_disk = |p: &Option<String>| {
        p.as_deref()
            .and_then(|p| p.strip_prefix("/dev/"))
            .is_some_and(|n| {
                let n = n
                    .strip_prefix('r')
                    .filter(|r| r.starts_with(disk))
                    .unwrap_or(n);
                n == disk || n.starts_with(disk)
            })
    };
    let only = sys.disks.len() == 1;
    // iozone's table row read is its 1M sequential read with O_DIRECT (sources::iozone).
    // `hdparm -t --direct` times O_DIRECT reads of the device (hdparm(8)), which no cache
    // answers. A CrystalDiskMark or KDiskMark text report's SEQ1M read is unbuffered 1 MiB reads of a
    // test file (CrystalDiskMark: DiskSpd -Sh; KDiskMark: fio --direct=1), the disk's
    // sequential rate as far as a file on it shows it (explain::nvme_diskmark).
    let reader = |t: &str| {
        matches!(
            t,
            "hdparm -t"
                | "hdparm -t --direct"
                | "diskinfo -t"
                | "iozone"
                | "CrystalDiskMark"
                | "KDiskMark"
                | "PiBenchmarks"
        )
    };
    // A benchmark program's sequential write of its test file (rw=write, blocks of 128 KiB
    // and more, unbuffered: CrystalDiskMark's SEQ1M write, the Raspberry Pi SD card test's
    // 512 KiB O_DIRECT job) counts for the only disk there is, as its read does.
    let program_write = |u: &UserBenchmark| {
        only && file_benchmark(&u.tool)
            && pasted_pattern(u) == Some("write")
            && u.flags.iter().any(|f| f.starts_with("direct"))
    };
    // A large dd write to a file counts for the only disk there is: 1 GiB and more in blocks
    // of 128 KiB and more is past what a drive's or the host's cache absorbs before dd's
    // clock stops (seed 000: 10 GB in 10 MiB blocks to /tmp/foo).
    let file_write = |u: &UserBenchmark| {
        only && u.tool == "dd"
            && u.output.as_deref().is_some_and(|o| !o.starts_with("/dev/"))
            && u.block_size_bytes.is_some_and(|b| b >= LARGE_BLOCK_BYTES)
            && u.bytes.is_some_and(|b| b >= LARGE_WRITE_BYTES)
    };
    // A fio job of sequential reads (writes) with O_DIRECT in blocks of 128 KiB and more
    // (fio(1): rw=read / rw=write, direct=1): with no filename it ran on a file in the
    // current directory, which counts for the only disk there is, as a CrystalDiskMark file
    // does; with one it counts for the disk it names.
    let fio_seq = |u: &UserBenchmark, rw: &str| {
        u.tool == "fio"
            && u.flags.iter().any(|f| f == "direct=1")
            && u.block_size_bytes.is_some_and(|b| b >= LARGE_BLOCK_BYTES)
            && u.command
                .as_deref()
                .is_some_and(|c| c.split_whitespace().any(|w| w == format!("rw={rw}")))
            && (names_disk(&u.input) || (only && u.input.is_none()))
    };
    sys.user_benchmarks
        .iter()
        .filter(|u| u.error.is_none() && u.block_size_bytes.is_none_or(|b| b >= LARGE_BLOCK_BYTES))
        .filter(|u| match op {
            Op::Read => {
                names_disk(&u.input)
                    || (only
                        && reader(&u.tool)
                        && u.input.is_none()
                        && pasted_pattern(u).is_none_or(|p| p == "read"))
                    || fio_seq(u, "read")
            }
            Op::Write => {
                names_disk(&u.output) || file_write(u) || fio_seq(u, "write") || program_write(u)
            }
        })
        .filter_map(|u| u.bytes_per_sec.filter(|v| v.is_finite() && *v > 0.0))
        .map(|v| v / 1e6)
        .fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.max(v))))
}

fn annotate_one(sys: &SystemFacts, f: &Finding) -> Option<ExpectedEffect> {
    if f.check == "benchmark-buffered-device" {
        return buffered_device(sys, f);
    }
    if f.check == "benchmark-small-blocks" {
        return small_blocks(sys, f);
    }
    let d: &DiskFacts = sys.disks.iter().find(|d| d.name == f.device)?;
    match f.check.as_str() {
        // A read flattened at the link's ceiling is the link-bound case of the same model:
        // the figure measured now is the low end on the faster link.
        // A parallel-ATA disk held at a slower Ultra DMA mode has no SATA link: the fix
        // raises the mode, and the disk then reads at its media rate.
        "sata-link-below-max" if d.pata_mode.value().is_some() => pata_mode_up(sys, d),
        "sata-link-below-max" | "link-ceiling-reached" => sata_link(sys, d),
        "pcie-link-limited" => pcie_link(sys, d),
        "write-cache-disabled" => write_cache(sys, d),
        // Legacy IDE emulation (no NCQ) or NCQ off: queued random I/O. A PATA disk without
        // DMA is the other legacy-mode case, whose fix changes the transfer mode instead.
        "controller-legacy-mode" if d.ide_dma.value().is_some_and(|x| !x.on) => dma_on(sys, d),
        "controller-legacy-mode" | "ncq-unavailable" => queued_random(sys, d),
        "virtual-or-bridged-device" if f.fixes.iter().any(|x| x.summary == UAS_FIX) => {
            bot_to_uas(sys, d)
        }
        _ => None,
    }
}

/// The fix of virtual-or-bridged-device that moves a Bulk-Only disk to UAS.
const UAS_FIX: &str = crate::checks::virtual_or_bridged_device::fixes::UAS_FIX;

/// The USB facts of a disk: its driver and link speed, Mbit/s.
fn usb_path(d: &DiskFacts) -> (Option<&str>, Option<f64>) {
    d.controller
        .value()
        .map(|c| (c.usb_driver.as_deref(), c.usb_speed_mbps))
        .unwrap_or((None, None))
}

/// A disk on Bulk-Only Transport (Linux usb-storage) on a USB 3 Gen 1 link whose large-block
/// read now is at least [`usb::BOT_BOUND_SHARE`] of BOT's estimated limit: BOT holds it, and
/// UAS on the same link lifts it by at most [`usb::UAS_READ_GAIN_MAX`] (the measured gain,
/// usb.rs), never above UAS's estimated limit nor above the drive's rating when the table
/// has it. The low end is the read now: UAS adds no step that could make a read slower.
fn bot_to_uas(sys: &SystemFacts, d: &DiskFacts) -> Option<ExpectedEffect> {
    let (driver, speed) = usb_path(d);
    if driver != Some("usb-storage") || !speed.is_some_and(usb::is_gen1) {
        return None;
    }
    let now = figure(sys, &d.name, Op::Read)?;
    if now < usb::USB3_BOT_LIMIT_MBPS * usb::BOT_BOUND_SHARE {
        return None;
    }
    let rated_high = rated(d).map(|r| r.read_mbps.1 * RATED_SHARE_HIGH);
    let high = (now * usb::UAS_READ_GAIN_MAX)
        .min(usb::USB3_UAS_LIMIT_MBPS)
        .min(rated_high.unwrap_or(f64::INFINITY))
        .max(now);
    Some(ExpectedEffect {
        metric: EffectMetric::SeqReadMbps,
        unit: "MB/s".into(),
        queue_depth: None,
        from: Some(now),
        low: Some(now),
        high,
        basis: format!(
            "Bulk-Only Transport is estimated to leave about {:.0} MB/s of a USB 3 Gen 1 link and UAS about {:.0} MB/s (the UASP standard's estimates), and the read now ({now:.0} MB/s) is at that limit; in the measurement that source reports, UAS on the same bridge and SSD read up to {:.0} % faster than Bulk-Only{}",
            usb::USB3_BOT_LIMIT_MBPS,
            usb::USB3_UAS_LIMIT_MBPS,
            (usb::UAS_READ_GAIN_MAX - 1.0) * 100.0,
            rated(d)
                .map(|r| format!(
                    ", and no faster than the drive ({}) is rated for ({})",
                    r.family, r.source
                ))
                .unwrap_or_default()
        ),
    })
}

/// Why a Bulk-Only disk behind a USB bridge gets no range from [`bot_to_uas`].
fn bot_to_uas_missing(sys: &SystemFacts, d: Option<&DiskFacts>) -> String {
    let (driver, speed) = d.map(usb_path).unwrap_or((None, None));
    let now = d.and_then(|d| figure(sys, &d.name, Op::Read));
    let gain = "the gain from UAS over Bulk-Only depends on the drive and the queue depth";
    match (driver, speed, now) {
        (Some(v), _, _) if v != "usb-storage" => format!(
            "{}; the disk is on {v}, and {gain}",
            usb::arithmetic_words()
        ),
        (_, None, _) => format!(
            "{}; the run does not give the USB link's speed as a fact (480M or 5000M, as \
             lsusb -t shows it), and {gain}",
            usb::arithmetic_words()
        ),
        (_, Some(s), _) if !usb::is_gen1(s) => format!(
            "{}; the link runs at {s} Mb/s, and the estimates of what Bulk-Only and UAS leave \
             of a link are for USB 3 Gen 1 (5000M) only",
            usb::arithmetic_words()
        ),
        (_, Some(_), None) => "no large-block sequential read of the disk was measured or \
             pasted, which would show whether Bulk-Only's limit (about 250 MB/s on USB 3 Gen \
             1, the UASP standard's estimate) is what holds it"
            .into(),
        (_, Some(_), Some(n)) => format!(
            "the read now ({n:.0} MB/s) is below {:.0} % of Bulk-Only's estimated {:.0} MB/s \
             on USB 3 Gen 1, so the drive or the host may hold it rather than the protocol, \
             and no source gives UAS's gain there",
            usb::BOT_BOUND_SHARE * 100.0,
            usb::USB3_BOT_LIMIT_MBPS
        ),
    }
}

/// The queue depth the rated random figures of a SATA SSD are stated at (the drive table's
/// `rand_iops_qd32`), and the most commands NCQ keeps outstanding (Serial ATA 3.x, Native
/// Command Queuing: 32 tags, 0-31).
const NCQ_DEPTH: u32 = 32;

/// Queued 4 KiB random reads once NCQ works. Without it (the controller emulating legacy
/// IDE, which has no command queue: the task-file interface of ATA/ATAPI-7 takes one command
/// until it completes, or NCQ switched off) the host issues one command at a time (Serial
/// ATA AHCI 1.3.1: the command list and NCQ exist only in AHCI mode), so a workload keeping 32 reads in flight
/// runs at the drive's queue-depth-1 rate. With NCQ the drive works on up to 32 at once
/// across its flash channels and reaches its rated queue-depth-32 random read; the rating
/// comes from the drive table (with its source), and a run reaches the same 85-105 % of a
/// rating as for sequential rates. The SATA link caps it: a 4 KiB read moves 4096 bytes of
/// payload. An HDD gets no range: its queued gain comes from reordering seeks, and no source
/// in the table states its queued random rate.
fn queued_random(sys: &SystemFacts, d: &DiskFacts) -> Option<ExpectedEffect> {
    let r = rated(d)?;
    if r.class != DeviceClass::Ssd {
        return None;
    }
    let (rated_iops, _) = r.rand_iops_qd32?;
    let mut low = rated_iops * RATED_SHARE_LOW;
    let mut high = rated_iops * RATED_SHARE_HIGH;
    let link = d
        .link_current_gbps
        .get()
        .map(|g| sata_link_mbps(g) * SATA_EFFICIENCY.1 * 1e6 / 4096.0);
    if let Some(c) = link.filter(|c| *c < high) {
        high = c;
        low = low.min(c);
    }
    Some(ExpectedEffect {
        metric: EffectMetric::RandReadIops,
        unit: "IOPS".into(),
        queue_depth: Some(NCQ_DEPTH),
        from: measured_at(sys, &d.name, EffectMetric::RandReadIops, Some(NCQ_DEPTH)),
        low: Some(low),
        high,
        basis: format!(
            "without NCQ (legacy IDE mode, or NCQ off) the host sends one command at a time, \
             so {NCQ_DEPTH} queued reads run as one; with it the drive works on up to \
             {NCQ_DEPTH} at once and reaches its rated random read: the drive ({}) is rated \
             for {rated_iops:.0} IOPS at queue depth {NCQ_DEPTH} ({}), and a run reaches \
             {:.0}-{:.0} % of a rating{}",
            r.family,
            r.source,
            RATED_SHARE_LOW * 100.0,
            RATED_SHARE_HIGH * 100.0,
            if link.is_some_and(|c| c < rated_iops * RATED_SHARE_HIGH) {
                ", up to what the current SATA link carries in 4 KiB reads"
            } else {
                ""
            }
        ),
    })
}

/// Why a problem finding carries no expected effect: the fact its model needs that the run
/// lacks, or that no model with a source covers the fix. `None` when it carries one (or is
/// not a problem).
pub fn why_none(sys: &SystemFacts, f: &Finding) -> Option<String> {
    if f.verdict != Verdict::Problem || f.expected_effect.is_some() {
        return None;
    }
    let disk = sys.disks.iter().find(|d| d.name == f.device);
    let why = match (f.check.as_str(), disk) {
        ("benchmark-buffered-device", _) if super::pasted_common::old_bsd_block(&f.device) => {
            "no rate of the buffered run was given, and the raw device's is a ratio of it".into()
        }
        ("benchmark-buffered-device", _) => "a dd through the page cache measures the cache as \
             much as the disk (a write returns once the data is in RAM, a re-read can come from \
             RAM), so the rate with O_DIRECT is no ratio of it: it is the disk's own rate at the \
             run's block size, which the run does not show"
            .into(),
        (
            "sata-link-below-max"
            | "link-ceiling-reached"
            | "pcie-link-limited"
            | "write-cache-disabled",
            None,
        ) => {
            format!("nothing is known about {} but the finding", f.device)
        }
        ("sata-link-below-max", Some(d)) if d.pata_mode.value().is_some() => {
            let m = d.pata_mode.value();
            format!(
                "a parallel ATA disk has no SATA link: in the faster Ultra DMA mode{} it reads \
                 at its own media rate, and that rate is not in the run: {}",
                m.and_then(pata_top_udma)
                    .map(|t| format!(" (bursts of up to {:.1} MB/s)", udma_mbps(t)))
                    .unwrap_or_default(),
                media_rate_gap(d)
            )
        }
        ("sata-link-below-max" | "link-ceiling-reached", Some(d)) => {
            let now = d.link_current_gbps.get();
            let best = match (d.link_drive_max_gbps.get(), d.link_port_max_gbps.get()) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            if now.is_none() {
                "the negotiated link speed is not known".into()
            } else if best.is_some_and(|b| now.is_some_and(|n| b <= n)) {
                "the port (or the drive) tops out at the link's current speed, so the fix is \
                 another port or controller, whose speed the run does not know"
                    .into()
            } else {
                "neither the drive's nor the port's highest link speed is known, so the \
                 fixed link's ceiling is not either"
                    .into()
            }
        }
        ("pcie-link-limited", Some(_)) => {
            "the device's own link capability (LnkCap speed and width) is not known, and no \
             large-block read measured now fills the current link (which would show that the \
             link, not the drive, set it)"
                .into()
        }
        ("write-cache-disabled", Some(d)) => match d.class.get() {
            Some(DeviceClass::Ssd | DeviceClass::Nvme) => {
                "an SSD's write cache changes small-write latency far more than throughput, \
                 and no source gives a ratio for it"
                    .into()
            }
            _ => match synced_small_write(sys, &d.name) {
                Some(u) => synced_small_write_words(u),
                None => "no large sequential write of this disk was measured or pasted (dd of \
                         1 GiB and more in blocks of 128 KiB and more), nor a sequential read; \
                         small or synchronous writes can even get slower with the cache on"
                    .into(),
            },
        },
        ("controller-legacy-mode", Some(d)) if d.ide_dma.value().is_some_and(|x| !x.on) => {
            format!(
                "with DMA on, the disk moves data at its own media rate instead of PIO's (at \
                 most 16.7 MB/s), and that rate is not in the run: {}",
                media_rate_gap(d)
            )
        }
        ("controller-legacy-mode", Some(d)) if super::common::is_rst_hidden(d) => {
            "the NVMe drive is not usable at all now; after the fix it runs at its own speed, \
             which nothing here shows"
                .into()
        }
        ("controller-legacy-mode", d) => format!(
            "the gain from AHCI depends on the queue depth the workload keeps (NCQ): 1.7x for \
             sequential reads and 10.6x for 4 KiB reads at queue depth 32 in the in-repo \
             CrystalDiskMark case; {}",
            queued_random_missing(d)
        ),
        ("ncq-unavailable", d) => format!(
            "NCQ helps random I/O at queue depths above 1 and does little for sequential I/O \
             (the in-repo cases range from 0.96x to 1.19x); {}",
            queued_random_missing(d)
        ),
        ("benchmark-small-blocks", None) => "the run does not say which disk dd read or \
             wrote, so neither the drive's rated speed nor a large-block figure of it can say \
             what bigger blocks reach"
            .into(),
        ("benchmark-small-blocks", Some(d)) => {
            let model = match (rated(d), d.model.value()) {
                (Some(r), _) => format!(
                    "the drive ({}) is in diskdoc's table of rated speeds, but the small-block \
                     dd does not name it as its input or output",
                    r.family
                ),
                (None, Some(m)) => format!(
                    "the model {m} is not in diskdoc's table of rated drive speeds \
                     (checks/effect/drives.rs)"
                ),
                (None, None) => {
                    "the drive's model is not known from the paste (to look its rated speed up)"
                        .into()
                }
            };
            format!(
                "bigger blocks lift the run to the disk's media rate, and {model}; nor does the \
                 paste hold a run of the same disk in blocks of 128 KiB or more next to the \
                 small run's rate, which would bound that media rate"
            )
        }
        ("virtual-or-bridged-device", _)
            if f.fixes.iter().all(|x| {
                x.summary == crate::checks::virtual_or_bridged_device::fixes::SAME_SERIAL_FIX
            }) =>
        {
            "its fix gives disks that share a serial number names that tell them apart; it \
             changes no rate"
                .into()
        }
        ("virtual-or-bridged-device", _)
            if f.fixes.iter().any(|x| {
                x.summary == crate::checks::virtual_or_bridged_device::fixes::GROWN_DISK_FIX
            }) =>
        {
            "its fix moves the partition table to the grown disk's end: it gains capacity, \
             not speed"
                .into()
        }
        ("virtual-or-bridged-device", _)
            if f.fixes.iter().any(|x| {
                x.summary == crate::checks::virtual_or_bridged_device::fixes::HOST_FIX
            }) =>
        {
            "its fix finds why the host fails the virtual disk's requests; a rate follows \
             only from what the host shows"
                .into()
        }
        // A disk the hypervisor or a cloud provides, not a USB one: what it can do is set on
        // the host or by the provider, which no pasted fact of the guest gives.
        ("virtual-or-bridged-device", Some(d))
            if crate::checks::common::is_virtual_disk(d) && !crate::checks::common::is_usb(d) =>
        {
            "a virtual disk's rate is set on the host or by the provider (the drives or \
             volume behind it, its type and limits, the cache mode and other guests), which \
             the paste does not show"
                .into()
        }
        ("virtual-or-bridged-device", d) => bot_to_uas_missing(sys, d),
        (id @ ("encryption-bound" | "encryption-layer"), _) => format!(
            "the cipher's own rate on this CPU (cryptsetup benchmark, geli's reported AES-NI \
             use) is not in the run, and no source gives the share of it a disk behind \
             dm-crypt or GELI reaches{}",
            measured_ratios_words(id)
        ),
        (id @ ("partition-misaligned" | "zfs-ashift-too-small"), _) => format!(
            "no source gives a range for this: the cost of misalignment depends on the share \
             of writes smaller than the physical sector (each one a read-modify-write of it), \
             which the run does not show{}",
            measured_ratios_words(id)
        ),
        ("io-scheduler", _) => format!(
            "no source gives a range for this: the gain from another scheduler depends on the \
             workload's queue depth and read/write mix, which the run does not show{}",
            measured_ratios_words("io-scheduler")
        ),
        ("trim-unavailable", _) => format!(
            "no source gives a range for this: how much a drive without TRIM slows down \
             depends on how full its flash is and on its garbage collection, which no output \
             shows{}",
            measured_ratios_words("trim-unavailable")
        ),
        ("smr-drive", _) => "an SMR drive's sustained writes depend on how full its CMR cache \
             zone is and on the write pattern; no before/after case with both figures was found"
            .into(),
        ("array-rebuilding", _) => "no before/after case with the same array measured during \
             and after a rebuild was found to fit a ratio on"
            .into(),
        ("power-management", _) => format!(
            "no source gives a range for this: the gain depends on how often the drive enters \
             the saving state under the workload{}",
            measured_ratios_words("power-management")
        ),
        ("partition-table-limit", _) => "its fix gains capacity, not speed".into(),
        ("link-errors", _) => "retries, resets and speed step-downs cost a share of the \
             run's time that no output gives, and the rate once the cable, port or controller \
             is fixed is the drive's own, for which the run has no figure; the one in-repo case \
             (a controller swap, 6.5x) is one board's figure, not a ratio to carry over"
            .into(),
        ("disk-busy", _) => "the rate once the other I/O stops is the disk's own, which a \
             run taken while the disk was busy does not show: pause that I/O and measure again"
            .into(),
        ("thermal-throttling", _) => "how much a hot NVMe drive slows depends on its \
             firmware's throttle states and on how long the load keeps it hot, which no output \
             gives, and no before/after case with both figures was found"
            .into(),
        (
            "cache-answered"
            | "below-expected-for-class"
            | "small-block-overhead"
            | "write-much-slower-than-read"
            | "latency-outliers",
            _,
        ) => "it reports what a measurement showed; the range belongs to the cause's own \
              finding (write cache, link, alignment, block size), which carries it or says why \
              not"
        .into(),
        ("media-errors" | "read-errors" | "nvme-health", _) => "its fix protects the data; \
             the rate after it is the replacement drive's, which the run does not know"
            .into(),
        ("benchmark-page-cache" | "benchmark-zero-source" | "benchmark-random-source", _) => {
            "its fix changes the measurement, not the disk: a figure the cache or the data \
             source decided says nothing of the rate the corrected run will measure"
                .into()
        }
        (id, _) => format!("no model with a source predicts the rate after the {id} fix yet"),
    };
    Some(why)
}

/// Why a parallel-ATA disk's media rate is not known: what the drive table lacks for it, and
/// why the class range of its generation ([`pata_desktop_class`]) does not apply either.
fn media_rate_gap(d: &DiskFacts) -> String {
    let class = if rated(d).is_some() {
        String::new()
    } else if notebook_ata(d) {
        "; it is a 2.5-inch notebook drive, which reads slower than the desktop drives whose \
         published rates give the class range of its generation"
            .into()
    } else {
        match d.udma_drive_max.get() {
            Some(m) if m < 5 => format!(
                "; the drive supports Ultra DMA up to mode {m}, a generation before ATA/100, \
                 for whose media rates no source is in diskdoc"
            ),
            Some(_) => String::new(),
            None => "; nor are its Ultra DMA modes (hdparm -i lists them), which would date \
                     its generation for a class range: parallel-ATA disks span from a few MB/s \
                     to about 70 MB/s, too wide for one"
                .into(),
        }
    };
    let base = match (rated(d), d.model.value()) {
        (Some(r), _) => format!(
            "the drive ({}) is rated as {}, and only a hard disk's rating gives the rate of a \
             read from its first sectors",
            r.family,
            class_words(r.class)
        ),
        (None, Some(m)) => format!(
            "the model {m} is not in diskdoc's table of rated drive speeds \
             (checks/effect/drives.rs)"
        ),
        (None, None) => {
            "the drive's model is not known from the paste (to look its rated speed up)".into()
        }
    };
    format!("{base}{class}")
}

fn class_words(c: DeviceClass) -> &'static str {
    match c {
        DeviceClass::Hdd => "a hard disk",
        DeviceClass::Ssd => "a SATA SSD",
        DeviceClass::Nvme => "an NVMe drive",
        _ => "another kind of device",
    }
}

/// Ultra DMA's burst rates, MB/s, by the mode's name as the kernel and hdparm print it
/// (ATA/ATAPI-7 volume 1, table of Ultra DMA data burst timing: modes 2, 4, 5 and 6 move
/// 33.3, 66.7, 100 and 133 MB/s).
fn udma_mbps(named: u32) -> f64 {
    match named {
        33 => 33.3,
        66 => 66.7,
        100 => 100.0,
        133 => 133.3,
        x => f64::from(x),
    }
}

/// A parallel-ATA hard disk moving data by PIO (DMA off): with DMA on it reads at its media
/// rate. `hdparm -t` and a dd without `skip=` read from the first sectors, which lie in the
/// outer zone (zoned bit recording), so the range is 85-105 % of the rating's outer-zone rate,
/// the same share of a rating as every rated model here. The Ultra DMA mode that drive and
/// host both support caps it (its burst rate, from the ATA/ATAPI-7 timing table). Without a
/// rated hard disk no range is given (`why_none`).
fn dma_on(sys: &SystemFacts, d: &DiskFacts) -> Option<ExpectedEffect> {
    pata_outer_zone(
        sys,
        d,
        "with DMA the disk reads at its media rate instead of PIO's".into(),
    )
}

/// A parallel-ATA disk held at a slower Ultra DMA mode than drive and host both support (a
/// 40-wire cable allows UDMA/33 at most, ATA/ATAPI-5 section 9.13; or the driver's choice):
/// in the faster mode a burst no longer waits for the slower bus, and the disk reads at its
/// media rate, as with DMA turned on ([`dma_on`]: the same outer-zone share of a rated hard
/// disk, capped by the faster mode's burst rate). Without a rated hard disk no range is given:
/// an unrated disk's media rate could lie anywhere up to the faster burst rate (`why_none`).
fn pata_mode_up(sys: &SystemFacts, d: &DiskFacts) -> Option<ExpectedEffect> {
    let m = d.pata_mode.value()?;
    let cur = m.current_udma_mb_s?;
    let top = pata_top_udma(m)?;
    if top <= cur {
        return None;
    }
    pata_outer_zone(
        sys,
        d,
        format!(
            "in UDMA/{top} instead of UDMA/{cur} (bursts of {:.1} MB/s) the disk reads at its \
             media rate",
            udma_mbps(cur)
        ),
    )
}

/// The fastest Ultra DMA mode both the drive and the host support, by its MB/s name.
fn pata_top_udma(m: &crate::model::PataMode) -> Option<u32> {
    match (m.drive_max_udma_mb_s, m.host_max_udma_mb_s) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// A rated hard disk on parallel ATA once the transfer mode no longer holds it: `why` says
/// what the fix changes.
fn pata_outer_zone(sys: &SystemFacts, d: &DiskFacts, why: String) -> Option<ExpectedEffect> {
    let Some(r) = rated(d).filter(|r| r.class == DeviceClass::Hdd) else {
        return pata_desktop_class(sys, d, why);
    };
    let rating = format!(
        "the drive ({}) is rated for {} MB/s sustained ({})",
        r.family,
        drives::zone_words(r.read_mbps),
        r.source
    );
    Some(first_sectors_read(
        sys,
        d,
        r.read_mbps.1,
        r.read_mbps.1,
        None,
        format!(
            "{why}, and a read from its first sectors (hdparm -t, dd without skip=) runs in \
             its outer zone: {rating}"
        ),
    ))
}

/// The read of a parallel-ATA disk's first sectors once its transfer mode no longer holds it:
/// 85-105 % of the outer-zone rate `lo`..`hi` (one rating twice, or a class's span), capped
/// by the burst rate of the fastest Ultra DMA mode both ends support (`pata_mode`, else the
/// drive's own top mode `drive_mode`). `basis` says where the rate comes from.
fn first_sectors_read(
    sys: &SystemFacts,
    d: &DiskFacts,
    lo: f64,
    hi: f64,
    drive_mode: Option<u32>,
    basis: String,
) -> ExpectedEffect {
    let mut low = lo * RATED_SHARE_LOW;
    let mut high = hi * RATED_SHARE_HIGH;
    let burst = d
        .pata_mode
        .value()
        .and_then(pata_top_udma)
        .map(udma_mbps)
        .or_else(|| drive_mode.and_then(udma_mode_mbps));
    let capped = burst.filter(|c| *c < high);
    if let Some(c) = capped {
        high = c;
        low = low.min(c);
    }
    ExpectedEffect {
        metric: EffectMetric::SeqReadMbps,
        unit: "MB/s".into(),
        queue_depth: None,
        from: figure(sys, &d.name, Op::Read),
        low: Some(low),
        high,
        basis: format!(
            "{basis}, and a run reaches {:.0}-{:.0} % of a rating{}",
            RATED_SHARE_LOW * 100.0,
            RATED_SHARE_HIGH * 100.0,
            capped
                .map(|c| format!(
                    ", up to the {c:.1} MB/s burst rate of the Ultra DMA mode both ends support"
                ))
                .unwrap_or_default()
        ),
    }
}

/// Ultra DMA's burst rates by mode number 0-6, MB/s (ATA/ATAPI-7 volume 1, the Ultra DMA data
/// burst timing table: 16.7, 25.0, 33.3, 44.4, 66.7, 100 and 133.3).
fn udma_mode_mbps(mode: u32) -> Option<f64> {
    [16.7, 25.0, 33.3, 44.4, 66.7, 100.0, 133.3]
        .get(usize::try_from(mode).ok()?)
        .copied()
}

/// The sequential read of a 3.5-inch parallel-ATA desktop hard disk of the Ultra DMA mode 5
/// and 6 generation (ATA/100 and ATA/133, the drives of about 2000 to 2008) from its first
/// sectors, MB/s: the slowest and the fastest such drive whose maker's specification diskdoc
/// has. Low: IBM Deskstar 40GV (DTLA-305xxx, 5400 rpm, Ultra ATA/100, 2000), whose
/// specification ("Deskstar 40GV & 75GXP hard disk drive specifications", 4.4.6.1 Simple
/// sequential access; manualshive.com/ru/manual/ibm/dtla-305040-deskstar-41-1-gb-hard-drive/
/// 3758033?page=28) reads 16,777,216 bytes of zone 0 in 0.57 s typical, 29.4 MB/s, with the
/// seek and latency of 128 commands included. High: Hitachi Deskstar T7K250 (its PATA models
/// HDT7225xxDLAT80), 67.8 MB/s sustained in the outer zone (the drive table's row). The
/// Deskstar 7K500 (64.8 MB/s, "Buffer - host (max) 133 (PATA)", its specification's table 10)
/// lies between.
const PATA_DESKTOP_UDMA100_READ: (f64, f64) = (29.4, 67.8);

/// Model-number prefixes of 2.5-inch (notebook) ATA drives, which read slower than the
/// desktop drives of their generation and which [`PATA_DESKTOP_UDMA100_READ`] does not cover:
/// Seagate's model numbers give the form factor after "ST" (9: 2.5-inch, as ST9xxx Momentus,
/// 3: 3.5-inch), Hitachi's and IBM's Travelstar models begin HTS/HTC/HTE and IC25/DJSA/DARA,
/// Fujitsu's notebook drives MHT/MHV/MHW, Toshiba's MK and Samsung's SpinPoint M HM.
const NOTEBOOK_ATA_PREFIXES: &[&str] = &[
    "ST9", "HTS", "HTC", "HTE", "IC25", "DJSA", "DARA", "MHT", "MHV", "MHW", "MK", "HM",
];

/// Whether the drive's model names a 2.5-inch notebook drive ([`NOTEBOOK_ATA_PREFIXES`]).
fn notebook_ata(d: &DiskFacts) -> bool {
    d.model.value().is_some_and(|m| {
        let m: String = m
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .to_ascii_uppercase();
        NOTEBOOK_ATA_PREFIXES.iter().any(|p| m.starts_with(p))
    })
}

/// A parallel-ATA hard disk the drive table does not rate, once PIO or a slower Ultra DMA mode
/// no longer holds it: the drive's own IDENTIFY data (`hdparm -i`'s "UDMA modes:") dates it.
/// A drive that supports Ultra DMA mode 5 or 6 is of the ATA/100-133 generation, and a
/// 3.5-inch desktop drive of it reads its first sectors at the published rates of that class
/// ([`PATA_DESKTOP_UDMA100_READ`]); the range is 85-105 % of them, the share of a rating every
/// model here uses, capped by the burst rate of the fastest mode drive and host support. The
/// class is wide (2.3x) because the drive's model is not rated, and the basis says so. No range
/// for an SSD or flash card, a notebook drive (slower, not covered by the class), a drive of an
/// earlier generation (Ultra DMA mode 4 or lower: no source here gives its media rates) or a
/// drive whose modes the run does not show (`why_none` says which).
fn pata_desktop_class(sys: &SystemFacts, d: &DiskFacts, why: String) -> Option<ExpectedEffect> {
    if rated(d).is_some()
        || matches!(d.class.get(), Some(DeviceClass::Ssd | DeviceClass::Nvme))
        || d.rotational.get() == Some(false)
        || notebook_ata(d)
    {
        return None;
    }
    let mode = d.udma_drive_max.get().filter(|m| *m >= 5)?;
    let (lo, hi) = PATA_DESKTOP_UDMA100_READ;
    let model = d
        .model
        .value()
        .map(|m| format!("the model {m} is not in diskdoc's table of rated drive speeds, so "))
        .unwrap_or_default();
    let bursts = udma_mode_mbps(mode)
        .map(|r| format!(" (bursts of {r:.1} MB/s)"))
        .unwrap_or_default();
    Some(first_sectors_read(
        sys,
        d,
        lo,
        hi,
        Some(mode),
        format!(
            "{why}, and a read from its first sectors (hdparm -t, dd without skip=) runs in \
             its outer zone; {model}the range is a class range, and a 2.5-inch notebook drive \
             would read slower: the drive supports Ultra DMA mode {mode}{bursts}, the \
             ATA/100-133 generation, whose 3.5-inch desktop drives read their first sectors at \
             {lo:.1}-{hi:.1} MB/s by their makers' specifications (IBM Deskstar 40GV, Hitachi \
             Deskstar T7K250)"
        ),
    ))
}

/// What the queued-random model ([`queued_random`]) lacks for `d`.
fn queued_random_missing(d: Option<&DiskFacts>) -> String {
    let Some(d) = d else {
        return "nothing is known about the disk but the finding".into();
    };
    if d.class.get() == Some(DeviceClass::Hdd) {
        return "the disk is a hard disk, whose queued gain comes from reordering seeks, and \
                no source in diskdoc's table of rated drive speeds states a hard disk's queued \
                random rate"
            .into();
    }
    match (rated(d), d.model.value()) {
        (Some(r), _) if r.class != DeviceClass::Ssd => format!(
            "the drive ({}) is a hard disk, whose queued gain comes from reordering seeks, and \
             no source in diskdoc's table states its queued random rate",
            r.family
        ),
        (Some(r), _) => format!(
            "diskdoc's table of rated drive speeds (checks/effect/drives.rs) has no rated 4 KiB \
             random read at queue depth 32 for the drive ({}), which is what NCQ lets it reach",
            r.family
        ),
        (None, Some(m)) => format!(
            "the model {m} is not in diskdoc's table of rated drive speeds \
             (checks/effect/drives.rs), whose rated 4 KiB random read at queue depth 32 is what \
             NCQ lets a drive reach"
        ),
        (None, None) => "the disk's model (to look its rated 4 KiB random read at queue depth \
                         32 up, what NCQ lets it reach) is not known"
            .into(),
    }
}

/// A buffered BSD block device read or written: the raw device moves data at about the same
/// rate when the disk, not the CPU, limits the run.
fn buffered_device(sys: &SystemFacts, f: &Finding) -> Option<ExpectedEffect> {
    // Only an old BSD block device has a raw twin whose rate is a ratio of the buffered one;
    // the same check on Linux is about the page cache, whose figure says nothing of the
    // disk's (`why_none`).
    if !super::pasted_common::old_bsd_block(&f.device) {
        return None;
    }
    let path = format!("/dev/{}", f.device);
    let (b, read) = sys.user_benchmarks.iter().find_map(|u| {
        let rate = u.bytes_per_sec.filter(|v| v.is_finite() && *v > 0.0)?;
        if u.input.as_deref() == Some(path.as_str()) {
            Some((rate, true))
        } else if u.output.as_deref() == Some(path.as_str()) {
            Some((rate, false))
        } else {
            None
        }
    })?;
    let from = b / 1e6;
    let (lo, hi) = RAW_OF_BUFFERED;
    let raw = format!("/dev/r{}", f.device);
    Some(ExpectedEffect {
        metric: if read {
            EffectMetric::SeqReadMbps
        } else {
            EffectMetric::SeqWriteMbps
        },
        unit: "MB/s".into(),
        queue_depth: None,
        from: Some(from),
        low: Some(from * lo),
        high: from * hi,
        basis: format!(
            "the buffer cache's copies cost CPU time, not disk time: when the disk limits the \
             run, {raw} moves data at {:.0}-{:.0} % of the buffered rate with a fraction of the \
             system time (a 1998 Fireball read measured the same rate on both); the raw device \
             is faster than that only when the CPU was the limit",
            lo * 100.0,
            hi * 100.0
        ),
    })
}

/// The rated speeds of `d`'s model, when the table has a row for it.
fn rated(d: &DiskFacts) -> Option<&'static drives::DriveRating> {
    d.model.value().and_then(|m| drives::rating(m))
}

/// The block size the small-blocks fix tells dd to use (bs=1M / bs=1m).
const FIX_BLOCK_BYTES: f64 = 1_048_576.0;
/// A second large-block run of the same disk keeps at least this share of the first one's
/// rate: an allowance for run-to-run variation and other work on the host, set before any
/// case was scored (no in-repo or held-out case pastes a small- and a large-block run of one
/// disk together).
const RERUN_SHARE_LOW: f64 = 0.90;

/// The rate of a dd in [`FIX_BLOCK_BYTES`] blocks, MB/s, when each request costs at most
/// `per_request_s` seconds besides moving its data at `media_mbps`: dd issues one request at
/// a time, so a request takes its fixed cost plus its bytes over the media rate.
fn rate_at_fix_block(media_mbps: f64, per_request_s: Option<f64>) -> f64 {
    match per_request_s.filter(|t| t.is_finite() && *t >= 0.0) {
        Some(t) if media_mbps > 0.0 => {
            FIX_BLOCK_BYTES / (t + FIX_BLOCK_BYTES / (media_mbps * 1e6)) / 1e6
        }
        _ => media_mbps,
    }
}

/// A dd in blocks too small to measure the disk. Each of its requests costs a fixed amount
/// (the system call, the driver, the disk command) besides moving its bytes, and dd issues
/// one at a time, so the time per request now, its block over its rate, bounds that fixed
/// cost from above. With blocks of 1 MiB the same cost is spread over 2048 times more data
/// (for bs=512), and the run goes at nearly the disk's media rate:
///   rate(1 MiB) = 1 MiB / (fixed cost + 1 MiB / media rate),
/// at least that with the whole time per request now taken as fixed cost, at most the media
/// rate. The media rate comes from the drive table for the disk's model (an HDD read or
/// written from its first block runs in the outer zone, the rating's upper end; with
/// `skip=`/`seek=` the zone is unknown and the range spans the rating), else from a run of the
/// same disk in blocks of 128 KiB or more in the same paste: 1 MiB blocks go at least as fast
/// as those (less fixed cost per byte), less a run-to-run allowance, and at most that run's
/// rate with its own fixed cost taken out. A link in the way caps the range.
fn small_blocks(sys: &SystemFacts, f: &Finding) -> Option<ExpectedEffect> {
    let d = sys.disks.iter().find(|d| d.name == f.device)?;
    let on_disk = |p: &Option<String>| {
        p.as_deref()
            .and_then(|p| p.strip_prefix("/dev/"))
            .is_some_and(|n| {
                n.strip_prefix('r')
                    .filter(|x| x.starts_with(&d.name))
                    .unwrap_or(n)
                    .starts_with(&d.name)
            })
    };
    let (u, read) = sys.user_benchmarks.iter().find_map(|u| {
        let small = u.tool == "dd" && u.block_size_bytes.is_some_and(|b| b < 65536);
        if !small || u.error.is_some() {
            return None;
        }
        // Reading the disk into a file written with oflag=dsync or oflag=sync: every block
        // waits for the written copy to be stable, so the write side set the rate.
        let synced_output = u
            .flags
            .iter()
            .any(|x| x == "oflag=dsync" || x == "oflag=sync");
        if on_disk(&u.input) && !synced_output {
            Some((u, true))
        } else if on_disk(&u.output) {
            Some((u, false))
        } else {
            None
        }
    })?;
    let from = u
        .bytes_per_sec
        .filter(|v| v.is_finite() && *v > 0.0)
        .map(|v| v / 1e6);
    // Seconds per request now: the block over the rate (both counts from dd's own lines).
    let per_request = match (u.block_size_bytes, from) {
        (Some(b), Some(r)) => Some(b as f64 / (r * 1e6)),
        _ => None,
    };
    let metric = if read {
        EffectMetric::SeqReadMbps
    } else {
        EffectMetric::SeqWriteMbps
    };
    let per_request_words = per_request
        .map(|t| {
            format!(
                "; each request costs {:.1} µs now (its block over its rate), and with that much \
                 fixed cost per 1 MiB block the run still reaches the range's low end",
                t * 1e6
            )
        })
        .unwrap_or_default();
    let Some(r) = rated(d) else {
        return small_blocks_measured(sys, d, read, from, per_request, metric);
    };
    let (inner, outer) = if read { r.read_mbps } else { r.write_mbps };
    let offset = u.command.as_deref().is_some_and(|c| {
        c.contains("skip=") || c.contains("seek=") || c.contains("iseek=") || c.contains("oseek=")
    });
    let top = outer * RATED_SHARE_HIGH;
    // An HDD row with only a maximum (its source states no inner-zone rate) cannot bound a
    // run that skipped into an unknown zone from below: the range is then "up to".
    let (media_low, zone) = if r.class == DeviceClass::Hdd && offset {
        (
            inner,
            "somewhere between its inner and outer zone (dd was told to skip)",
        )
    } else if r.class == DeviceClass::Hdd {
        (
            Some(outer * RATED_SHARE_LOW),
            "in its outer zone, where dd starts",
        )
    } else {
        (
            Some(outer * RATED_SHARE_LOW),
            "at its rated sequential rate",
        )
    };
    let mut low = media_low.map(|m| rate_at_fix_block(m, per_request));
    let mut high = top;
    // A SATA link now in the way caps what the larger blocks can reach.
    let link = d
        .link_current_gbps
        .get()
        .map(|g| sata_link_mbps(g) * SATA_EFFICIENCY.1);
    if let Some(c) = link.filter(|c| *c < high) {
        high = c;
        low = low.map(|l| l.min(c));
    }
    Some(ExpectedEffect {
        metric,
        unit: "MB/s".into(),
        queue_depth: None,
        from,
        low,
        high,
        basis: format!(
            "blocks of 1 MiB spread each request's fixed cost over more data, so the run goes \
             at nearly the drive's media rate {zone}: the drive ({}) is rated for {} MB/s \
             sustained ({}), and a run reaches {:.0}-{:.0} % of a \
             rating{per_request_words}{}",
            r.family,
            drives::zone_words(if read { r.read_mbps } else { r.write_mbps }),
            r.source,
            RATED_SHARE_LOW * 100.0,
            RATED_SHARE_HIGH * 100.0,
            if link.is_some_and(|c| c <= top) {
                ", up to what the current link carries"
            } else {
                ""
            }
        ),
    })
}

/// The small-blocks range from a large-block run of the same disk in the same paste (the
/// disk's model not rated): see [`small_blocks`].
fn small_blocks_measured(
    sys: &SystemFacts,
    d: &DiskFacts,
    read: bool,
    from: Option<f64>,
    per_request: Option<f64>,
    metric: EffectMetric,
) -> Option<ExpectedEffect> {
    let big = figure(sys, &d.name, if read { Op::Read } else { Op::Write })?;
    // That run's blocks were at least 128 KiB, and its fixed cost per request at most the
    // small run's time per request: taking it out bounds the media rate from above.
    let block = LARGE_BLOCK_BYTES as f64;
    let high = match per_request {
        Some(t) if block / (big * 1e6) > t => block / (block / (big * 1e6) - t) / 1e6,
        _ => return None,
    };
    Some(ExpectedEffect {
        metric,
        unit: "MB/s".into(),
        queue_depth: None,
        from,
        low: Some(big * RERUN_SHARE_LOW),
        high,
        basis: format!(
            "blocks of 1 MiB spread each request's fixed cost over more data: the same disk \
             ran at {big:.1} MB/s in blocks of 128 KiB or more in the same paste, which 1 MiB \
             blocks match or beat (the range keeps {:.0} % of it for run-to-run variation), and \
             with at most the {:.1} µs each small request costs now taken out of every one of \
             those blocks, the disk's media rate is at most {high:.1} MB/s",
            RERUN_SHARE_LOW * 100.0,
            per_request.unwrap_or(0.0) * 1e6
        ),
    })
}

fn sata_link(sys: &SystemFacts, d: &DiskFacts) -> Option<ExpectedEffect> {
    let now = d.link_current_gbps.get()?;
    let drive = d.link_drive_max_gbps.get();
    let port = d.link_port_max_gbps.get();
    let best = match (drive, port) {
        (Some(a), Some(b)) => a.min(b),
        (Some(a), None) | (None, Some(a)) => a,
        (None, None) => return None,
    };
    if best <= now {
        return None;
    }
    let ceil = sata_link_mbps(best);
    let (lo_eff, hi_eff) = SATA_EFFICIENCY;
    let from = figure(sys, &d.name, Op::Read);
    let class = d.class.get();
    let rated = rated(d);
    let basis_link = format!(
        "a {best} Gb/s link carries at most {:.0} MB/s of data (8b/10b), of which {:.0}-{:.0} % \
         is payload",
        ceil,
        lo_eff * 100.0,
        hi_eff * 100.0
    );
    match class {
        Some(DeviceClass::Ssd) => {
            // The drive's own rating when the table has it, else what SATA SSDs sustain.
            let (ssd, words) = match rated {
                Some(r) => (
                    (r.read_mbps.1 * RATED_SHARE_LOW, r.read_mbps.1),
                    format!(
                        "the drive ({}) is rated for {:.0} MB/s sequential reads ({}), and a \
                         run reaches {:.0}-100 % of a rating",
                        r.family,
                        r.read_mbps.1,
                        r.source,
                        RATED_SHARE_LOW * 100.0
                    ),
                ),
                None => (
                    SATA_SSD_READ,
                    "a SATA SSD reads 450-560 MB/s sequentially when its link does not limit it"
                        .to_string(),
                ),
            };
            let low = ssd.0.min(ceil * lo_eff);
            let high = ssd.1.min(ceil * hi_eff);
            Some(ExpectedEffect {
                metric: EffectMetric::SeqReadMbps,
                unit: "MB/s".into(),
                queue_depth: None,
                from,
                low: Some(low.min(high)),
                high,
                basis: format!("{basis_link}, and {words}"),
            })
        }
        _ => Some(on_faster_link(
            from,
            Some(sata_link_mbps(now) * hi_eff),
            &format!("the {now} Gb/s link"),
            ceil * hi_eff,
            rated,
            basis_link,
        )),
    }
}

fn pcie_link(sys: &SystemFacts, d: &DiskFacts) -> Option<ExpectedEffect> {
    let links = d.pcie.value()?;
    // The device's own capability (hop 0): the fix moves it to a slot or setting where the
    // path no longer narrows it, so the ports above it do not bound the prediction.
    let own = links
        .iter()
        .find(|l| l.hop == 0)
        .and_then(|l| Some((l.max_gts?, l.max_width?)));
    let Some((gts, width)) = own else {
        return port_link(sys, d, links);
    };
    let ceil = pcie_link_mbps(gts, width);
    let (_, hi_eff) = PCIE_EFFICIENCY;
    let from = figure(sys, &d.name, Op::Read);
    // The narrowest link on the path now: the lowest current rate of any hop.
    let now_ceil = links
        .iter()
        .filter_map(|l| Some(pcie_link_mbps(l.current_gts?, l.current_width?) * hi_eff))
        .fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.min(v))));
    Some(on_faster_link(
        from,
        now_ceil,
        "the link",
        ceil * hi_eff,
        rated(d),
        format!(
            "the device supports {gts} GT/s x{width}, {:.0} MB/s of data after line coding, of \
             which at most {:.0} % carries payload",
            ceil,
            hi_eff * 100.0
        ),
    ))
}

/// The device's own link capability unknown (no LnkCap of it: a Raspberry Pi 5 config.txt
/// gives only the connector's), the port above it known. When the read measured now fills
/// the current link (at least [`LINK_BOUND_SHARE`] of its payload ceiling), the link set it,
/// and the drive is not slower on a faster link: the figure now is the low end. The high end
/// is the same share of the port's full link (framing and packet overhead are a fixed share
/// of a link's rate), capped by the drive's rating when the table has it: a drive that tops
/// out earlier lands in between. Without a link-bound figure nothing says where the drive
/// stops, and no range is given.
fn port_link(
    sys: &SystemFacts,
    d: &DiskFacts,
    links: &[crate::facts::PcieLink],
) -> Option<ExpectedEffect> {
    let port = links.iter().find(|l| l.hop == 1)?;
    let (gts, width) = (port.max_gts?, port.max_width?);
    let (_, hi_eff) = PCIE_EFFICIENCY;
    let full = pcie_link_mbps(gts, width) * hi_eff;
    let now_ceil = links
        .iter()
        .filter_map(|l| Some(pcie_link_mbps(l.current_gts?, l.current_width?) * hi_eff))
        .fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.min(v))))?;
    if full <= now_ceil {
        return None;
    }
    let from = link_bound(figure(sys, &d.name, Op::Read), now_ceil)?;
    let rated = rated(d);
    let cap = rated.map_or(f64::INFINITY, |r| r.read_mbps.1);
    let high = (from * full / now_ceil).min(full).min(cap).max(from);
    let rated_words = rated
        .filter(|r| r.read_mbps.1 < from * full / now_ceil)
        .map(|r| {
            format!(
                "; the drive ({}) is rated for {:.0} MB/s sequential reads ({})",
                r.family, r.read_mbps.1, r.source
            )
        })
        .unwrap_or_default();
    Some(ExpectedEffect {
        metric: EffectMetric::SeqReadMbps,
        unit: "MB/s".into(),
        queue_depth: None,
        from: Some(from),
        low: Some(from),
        high,
        basis: format!(
            "the port supports {gts} GT/s x{width}, {:.0} MB/s of data after line coding, of \
             which at most {:.0} % carries payload; the device's own link capability is not \
             known, but the read measured now fills {:.0} % of the current link's {now_ceil:.0} \
             MB/s, so the link set it: on the full link the drive reads at least that and at \
             most the same share of the faster link{rated_words}",
            pcie_link_mbps(gts, width),
            hi_eff * 100.0,
            from / now_ceil * 100.0
        ),
    })
}

/// A read range on a faster link up to its payload ceiling `high`. When the current link
/// (`link`, payload ceiling `now_ceil`) bound the figure measured now, the read was a share of
/// that link's payload (framing and protocol overhead are a fixed share of a link's rate, so
/// the share does not change with the line rate): on the faster link the same share gives
/// `from` times the ratio of the two ceilings, and the range is 85-100 % of that (the 15 %
/// below is the allowance for a drive or host that stops short of the faster link, set before
/// any case was scored). Without a link-bound figure only the ceiling is given. The drive's
/// own rating (`rated`, from [`drives`]) caps both.
fn on_faster_link(
    from: Option<f64>,
    now_ceil: Option<f64>,
    link: &str,
    high: f64,
    rated: Option<&drives::DriveRating>,
    basis: String,
) -> ExpectedEffect {
    let cap = rated.map_or(f64::INFINITY, |r| r.read_mbps.1);
    let capped = |v: f64| v.min(cap);
    let rated_words = rated
        .filter(|r| r.read_mbps.1 < high)
        .map(|r| {
            format!(
                "; the drive ({}) is rated for {:.0} MB/s sequential reads ({})",
                r.family, r.read_mbps.1, r.source
            )
        })
        .unwrap_or_default();
    let bound = now_ceil.and_then(|c| link_bound(from, c).map(|l| (l, c)));
    let (low, top, how) = match bound {
        Some((l, c)) => {
            let scaled = capped((l * high / c).min(high));
            let low = (scaled * LINK_SCALE_LOW).max(l).min(scaled);
            (
                Some(low),
                scaled,
                format!(
                    "; {link} set the figure measured now (it is at least {:.0} % of that \
                     link's {c:.0} MB/s), and the same share of the faster link is {:.0} MB/s, \
                     of which the range keeps {:.0}-100 %",
                    LINK_BOUND_SHARE * 100.0,
                    l * high / c,
                    LINK_SCALE_LOW * 100.0
                ),
            )
        }
        None => (
            None,
            capped(high),
            "; the drive's own rate decides where below that ceiling it lands".to_string(),
        ),
    };
    ExpectedEffect {
        metric: EffectMetric::SeqReadMbps,
        unit: "MB/s".into(),
        queue_depth: None,
        from,
        low,
        high: top,
        basis: format!("{basis}{how}{rated_words}"),
    }
}

/// The low end of a range on a faster link: the figure measured now, when the current link's
/// payload ceiling `now_ceil` (MB/s) bound it.
fn link_bound(from: Option<f64>, now_ceil: f64) -> Option<f64> {
    from.filter(|f| now_ceil > 0.0 && *f >= now_ceil * LINK_BOUND_SHARE)
}

fn write_cache(sys: &SystemFacts, d: &DiskFacts) -> Option<ExpectedEffect> {
    match d.class.get() {
        Some(DeviceClass::Hdd) => {}
        // No class given (an atacontrol table without "media RPM"): a drive whose write
        // cache the ata driver switches and whose rotation nobody denied is taken as an HDD,
        // and the basis says so.
        None if d.rotational.get() != Some(false) && d.rotation_rpm.get() != Some(0) => {}
        _ => return None,
    }
    let assumed = if d.class.get().is_none() {
        " (its class was not given: taken as an HDD)"
    } else {
        ""
    };
    let Some(read) = figure(sys, &d.name, Op::Read) else {
        return write_cache_ratio(sys, d, assumed).or_else(|| write_cache_rated(d, assumed));
    };
    let (lo, hi) = HDD_WRITE_OF_READ;
    Some(ExpectedEffect {
        metric: EffectMetric::SeqWriteMbps,
        unit: "MB/s".into(),
        queue_depth: None,
        from: figure(sys, &d.name, Op::Write),
        low: Some(read * lo),
        high: read * hi,
        basis: format!(
            "with its cache on an HDD{assumed} writes sequentially at its media rate, which its \
             sequential read of {read:.0} MB/s shows (writes land at {:.0}-{:.0} % of it)",
            lo * 100.0,
            hi * 100.0
        ),
    })
}

/// The cache-off figure of large sequential writes, scaled by the measured ratio.
fn write_cache_ratio(sys: &SystemFacts, d: &DiskFacts, assumed: &str) -> Option<ExpectedEffect> {
    let from = figure(sys, &d.name, Op::Write)?;
    let (lo, hi) = HDD_WRITE_CACHE_RATIO;
    let high = (from * hi).min(HDD_CEILING_MBPS);
    let low = (from * lo).min(high);
    Some(ExpectedEffect {
        metric: EffectMetric::SeqWriteMbps,
        unit: "MB/s".into(),
        queue_depth: None,
        from: Some(from),
        low: Some(low),
        high,
        basis: format!(
            "with its cache off an HDD{assumed} loses about a revolution per large write \
             (128 KiB take 1.8 ms to write at 7200 rpm and wait up to 8.3 ms for the platter), \
             and turning the cache back on made large sequential writes {lo}-{hi} times faster \
             in the before/after cases measured (5.0x for a SCSI disk's WCE bit, 5.9x for a \
             WD5001ABYS on FreeBSD), up to the {HDD_CEILING_MBPS:.0} MB/s the fastest HDDs are \
             rated for"
        ),
    })
}

/// No figure at all, but the drive's model is in the table: with its cache on an HDD writes
/// sequentially at its media rate, somewhere between its inner- and outer-zone ratings.
fn write_cache_rated(d: &DiskFacts, assumed: &str) -> Option<ExpectedEffect> {
    let r = rated(d).filter(|r| r.class == DeviceClass::Hdd)?;
    let (inner, outer) = r.write_mbps;
    Some(ExpectedEffect {
        metric: EffectMetric::SeqWriteMbps,
        unit: "MB/s".into(),
        queue_depth: None,
        from: None,
        low: inner,
        high: outer,
        basis: format!(
            "with its cache on an HDD{assumed} writes sequentially at its media rate, and the \
             drive ({}) is rated for {} MB/s sustained {} ({}); no figure of this run says \
             which zone the writes land in",
            r.family,
            drives::zone_words(r.write_mbps),
            if inner.is_some() {
                "from its inner to its outer zone"
            } else {
                "at most (its source states no inner-zone rate, so the range has no low end)"
            },
            r.source,
        ),
    })
}

/// A pasted write of `disk` in blocks under 128 KiB, each made durable before the next one
/// is sent: dd's oflag=sync/dsync (O_SYNC/O_DSYNC, dd(1)), or fio's sync=1 or a flush
/// after every write (fsync=1, fdatasync=1), which explain files under the same two flags.
/// The run must name the disk, or the disk must be the only one there is.
fn synced_small_write<'a>(sys: &'a SystemFacts, disk: &str) -> Option<&'a UserBenchmark> {
    let names = |p: &Option<String>| {
        p.as_deref()
            .and_then(|p| p.strip_prefix("/dev/"))
            .is_some_and(|n| n == disk)
    };
    let only = sys.disks.len() == 1;
    sys.user_benchmarks.iter().find(|u| {
        u.error.is_none()
            && u.bytes_per_sec.is_some_and(|v| v.is_finite() && v > 0.0)
            && u.block_size_bytes.is_some_and(|b| b < LARGE_BLOCK_BYTES)
            && u.flags.iter().any(|f| f == "oflag=sync" || f == "oflag=dsync")
            // A write: dd's of= is not a pseudo device; fio's row is its write direction.
            && match u.tool.as_str() {
                "dd" => u
                    .output
                    .as_deref()
                    .is_some_and(|o| !crate::checks::pasted_common::is_pseudo(o)),
                "fio" => u.command.as_deref().is_some_and(|c| c.ends_with("(write)")),
                _ => false,
            }
            && (names(&u.output) || names(&u.input) || only)
    })
}

/// Why the cache does not speed up small synchronous writes. Linux sends an O_SYNC/O_DSYNC
/// write as a FUA write (block/fops.c dio_bio_write_op; a buffered one ends in
/// blkdev_fsync's flush), and a disk without FUA gets it as the write plus a FLUSH CACHE
/// (block/blk-flush.c; libata leaves FUA off unless libata.fua=1, drivers/ata/libata-core.c).
/// With the cache off the kernel sends no flush at all (blk_queue_write_cache): the write
/// itself waits for the platter. Either way each write waits for the media; the cache only
/// adds a command per write.
fn synced_small_write_words(u: &UserBenchmark) -> String {
    let bs = u.block_size_bytes.unwrap_or(0);
    let size = if bs >= 1024 && bs.is_multiple_of(1024) {
        format!("{} KiB", bs / 1024)
    } else {
        format!("{bs}-byte")
    };
    format!(
        "the pasted benchmark ({}, {:.2} MB/s, {}) writes {size} blocks synchronously, each \
         on the media before the next is sent: with the cache on, every such write is followed \
         by a cache flush (on Linux a FUA write, which libata carries out as the write plus \
         FLUSH CACHE), so each still waits for the platter, and these writes will not get \
         faster (they can get slower, one more command per write); what the cache brings \
         shows in large sequential writes (a dd of 1 GiB in 1 MiB blocks with oflag=direct), \
         none of which is pasted",
        u.command.as_deref().unwrap_or(&u.tool),
        u.bytes_per_sec.unwrap_or(0.0) / 1e6,
        u.from,
    )
}

/// The expected-effect line of a finding for text, Markdown and HTML: the predicted range,
/// or why there is none.
pub(crate) fn effect_line(f: &Finding) -> Option<String> {
    match (&f.expected_effect, &f.expected_effect_unknown) {
        (Some(e), _) => Some(e.sentence()),
        (None, Some(why)) => Some(format!(
            "Expected after the fix: no range is given, because {why}."
        )),
        (None, None) => None,
    }
}

/// Attach an expected effect to every problem finding whose fix changes a rate this module
/// can predict.
pub fn annotate(sys: &SystemFacts, findings: &mut [Finding]) {
    for f in findings.iter_mut() {
        if f.verdict == Verdict::Problem && f.expected_effect.is_none() {
            f.expected_effect = annotate_one(sys, f);
        }
        // Every problem finding with a fix either predicts or says why it cannot.
        if f.expected_effect.is_none() && !f.fixes.is_empty() {
            f.expected_effect_unknown = why_none(sys, f);
        }
    }
}

#[cfg(test)]
pub(crate) mod tests;
