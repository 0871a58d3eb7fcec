//! `write-much-slower-than-read`: sequential writes reach less than half the sequential read
//! rate of the same disk. Usual causes: write cache disabled (each write waits for the
//! media), partitions misaligned to the physical sector (read-modify-write), SMR drives
//! rewriting shingled bands, or QLC SSDs past their SLC cache.

use super::measured_common::{CiteResult, best_seq_read, mbps, pass, per_disk, problem};
use super::{Check, CheckInput, Confidence, Finding, Severity};
use crate::evidence::TestName;
use crate::facts::{DeviceClass, SystemFacts, Transport, UserBenchmark};

pub(crate) struct WriteMuchSlowerThanRead;

impl Check for WriteMuchSlowerThanRead {
    fn input(&self) -> CheckInput {
        CheckInput::Measured
    }
    fn id(&self) -> &'static str {
        "write-much-slower-than-read"
    }
    fn summary(&self) -> &'static str {
        "Sequential writes are far slower than reads (write cache off, misalignment, SMR)"
    }
    fn run(&self, sys: &SystemFacts) -> Vec<Finding> {
        let mut out = measured(self.id(), sys);
        out.extend(pasted(self.id(), sys));
        out.extend(copies(self.id(), sys));
        out
    }
}

/// diskdoc's own write and read tests of each disk.
fn measured(id: &str, sys: &SystemFacts) -> Vec<Finding> {
    per_disk(sys, |disk, dev, rs| {
        let write = rs
            .iter()
            .copied()
            .find(|r| r.test == TestName::SeqWrite && r.error.is_none() && r.bytes > 0)?;
        let read = best_seq_read(rs)?;
        if read.bytes_per_sec <= 0.0 {
            return None;
        }
        let ratio = write.bytes_per_sec / read.bytes_per_sec;
        if ratio >= 0.5 {
            return Some(pass(
                id,
                dev,
                format!(
                    "{dev}: writes {} vs reads {} ({:.0}%)",
                    mbps(write.bytes_per_sec),
                    mbps(read.bytes_per_sec),
                    ratio * 100.0
                ),
                Confidence::High,
                write,
            ));
        }
        let mut causes: Vec<String> = Vec::new();
        let d = sys.disk(disk);
        if let Some(d) = d {
            if d.write_cache_enabled.get() == Some(false) {
                causes.push(
                    "the drive's write cache is disabled, so every write waits for the media"
                        .into(),
                );
            }
            if matches!(d.alignment_offset_bytes.get(), Some(o) if o != 0) {
                causes.push("the device reports a non-zero alignment offset: writes straddle physical sectors and need read-modify-write".into());
            }
            if let Some(t) = d.partition_table.value() {
                let phys = d.physical_sector_bytes.get().unwrap_or(4096) as u64;
                if let Some(p) = t
                    .partitions
                    .iter()
                    .find(|p| phys > 0 && p.start_bytes % phys != 0)
                {
                    causes.push(format!("partition {} starts at byte {}, not a multiple of the {phys}-byte physical sector", p.name, p.start_bytes));
                }
            }
            if d.smart
                .value()
                .and_then(|s| s.model_family.as_deref())
                .is_some_and(|f| f.contains("SMR"))
            {
                causes.push(
                    "the drive is shingled (SMR): sustained writes rewrite whole bands".into(),
                );
            }
        }
        if causes.is_empty() {
            causes.push("no cause is visible in the facts: check the write cache (hdparm -W), partition alignment, and whether the drive is SMR or a QLC SSD past its cache".into());
        }
        let sev = if ratio < 0.25 {
            Severity::Warning
        } else {
            Severity::Notice
        };
        let mut f = problem(
            id,
            dev,
            sev,
            format!(
                "{dev} writes at {}, {:.0}% of its {} read rate",
                mbps(write.bytes_per_sec),
                ratio * 100.0,
                mbps(read.bytes_per_sec)
            ),
            format!(
                "Sequential 1 MiB writes of incompressible data ran at {} against {} for direct \
                 sequential reads. Likely: {}.",
                mbps(write.bytes_per_sec),
                mbps(read.bytes_per_sec),
                causes.join("; ")
            ),
        )
        .cite(write)
        .cite(read)
        .impact(1.0 - ratio);
        if let Some(n) = write
            .notes
            .iter()
            .find(|n| n.contains("compression") || n.contains("dedup"))
        {
            f = f.evidence("benchmark:seq-write:note", n.clone());
        }
        Some(f)
    })
}

/// Below this share of its sequential read, a sequential write is a problem on a hard
/// disk or a SATA/NVMe SSD: a hard disk writes and reads at the same media rate (its
/// datasheet gives one sustained transfer rate), and SSD datasheets list sequential writes
/// at 75-100 % of reads (Samsung 860 EVO 550/520 MB/s, 870 EVO 560/530, Crucial MX500
/// 560/510; a 120 GB 840 EVO 540/410 while its TurboWrite buffer of 3 GB takes the writes),
/// the share diskdoc's own test holds them to.
const DRIVE_SHARE: f64 = 0.5;

/// Below this share a sequential write is a problem whatever the device: flash cards, eMMC
/// and USB sticks write at a fraction of their read by design, and the SD Physical Layer
/// Specification's speed classes promise only a floor for writes (Class 10 / U1: 10 MB/s
/// sequential) on a bus that reads up to 104 MB/s (UHS-I SDR104), so a card that keeps its
/// class writes at about a tenth of its read or more.
const ANY_SHARE: f64 = 0.1;

/// A pasted program's best sequential write against its best sequential read, both with
/// O_DIRECT in records of 1 MiB or more, of one table (iozone's own table with `-I`,
/// sources::iozone): the table names no device, so the paste's disks say what class it
/// measured. When every disk the paste lists is a hard disk or SSD on the computer's own
/// SATA/SAS/NVMe port, the drives' rule holds ([`DRIVE_SHARE`]); when any is a flash card,
/// eMMC, USB device or of no known class, only the rule for any device ([`ANY_SHARE`]).
fn pasted(id: &str, sys: &SystemFacts) -> Vec<Finding> {
    let direct = |u: &&UserBenchmark| {
        u.tool == "iozone"
            && u.flags.iter().any(|f| f == "direct")
            && u.block_size_bytes.is_some_and(|b| b >= 1 << 20)
            && u.bytes_per_sec.is_some_and(|r| r.is_finite() && r > 0.0)
    };
    let drives = !sys.disks.is_empty()
        && sys.disks.iter().all(|d| {
            matches!(
                d.class.get(),
                Some(DeviceClass::Hdd | DeviceClass::Ssd | DeviceClass::Nvme)
            ) && !matches!(d.transport.get(), Some(Transport::Usb | Transport::Mmc))
                && !super::common::is_usb(d)
        });
    let share = if drives { DRIVE_SHARE } else { ANY_SHARE };
    let mut out = Vec::new();
    let runs: Vec<&UserBenchmark> = sys.user_benchmarks.iter().filter(direct).collect();
    for w in runs
        .iter()
        .filter(|u| super::effect::pasted_pattern(u) == Some("write"))
    {
        let Some(r) = runs
            .iter()
            .find(|u| super::effect::pasted_pattern(u) == Some("read") && u.from == w.from)
        else {
            continue;
        };
        let (Some(wr), Some(rr)) = (w.bytes_per_sec, r.bytes_per_sec) else {
            continue;
        };
        let ratio = wr / rr;
        if ratio >= share {
            continue;
        }
        let dev = match sys.disks.as_slice() {
            [d] => d.name.clone(),
            _ => "system".to_string(),
        };
        let sev = if ratio < 0.25 {
            Severity::Warning
        } else {
            Severity::Notice
        };
        let class = if drives {
            "the paste's disks are hard disks or SSDs on their own ports, which write sequentially \
             at about the rate they read"
        } else {
            "no class of device writes this far below its read when healthy: even an SD card of \
             the lowest video speed class writes a tenth of what its bus reads"
        };
        out.push(
            super::Finding::new(
                id,
                &dev,
                super::Verdict::Problem,
                sev,
                format!(
                    "{} writes at {}, {:.0}% of its {} read rate",
                    w.tool,
                    mbps(wr),
                    ratio * 100.0,
                    mbps(rr)
                ),
            )
            .explain(format!(
                "The pasted {} table wrote sequentially at {} and read at {} (O_DIRECT, \
                 records of {} KiB and more): {class}. Likely: the write cache is off, the \
                 partitions are misaligned, the drive is SMR or a QLC SSD past its cache, or \
                 (flash) the medium is worn or a slow model; check hdparm -W and the \
                 partition starts.",
                w.tool,
                mbps(wr),
                mbps(rr),
                w.block_size_bytes.unwrap_or(0) / 1024
            ))
            .confidence(if drives {
                Confidence::Medium
            } else {
                Confidence::Low
            })
            .evidence(w.from.clone(), format!("sequential write {}", mbps(wr)))
            .evidence(r.from.clone(), format!("sequential read {}", mbps(rr)))
            .impact((1.0 - ratio).clamp(0.0, 1.0)),
        );
    }
    out
}

#[cfg(test)]
mod tests;

/// The rates progress(1) showed for programs of direction `dir` (sources::progress).
fn progress_rates<'a>(
    sys: &'a SystemFacts,
    dir: &'a str,
) -> impl Iterator<Item = (&'a UserBenchmark, f64)> + 'a {
    sys.user_benchmarks
        .iter()
        .filter(move |u| u.tool == "progress" && super::effect::pasted_pattern(u) == Some(dir))
        .filter_map(|u| Some((u, u.bytes_per_sec.filter(|r| r.is_finite() && *r > 0.0)?)))
}

/// progress(1)'s rates (sources::progress) of a copy (cp, mv, rsync, dd: the rate is the
/// slower of reading the source and writing the destination) and of a plain read (cat, a
/// checksum program) in one paste: a copy below [`ANY_SHARE`] of the read could not write
/// faster. The page cache makes a buffered copy look faster, never slower, so the write
/// side (the device, or the filesystem driver writing it, such as a FUSE one) held it back.
/// The paste names no device, so the finding is on its only disk, else on the system.
fn copies(id: &str, sys: &SystemFacts) -> Vec<Finding> {
    let Some((w, wr)) = progress_rates(sys, "write").min_by(|a, b| a.1.total_cmp(&b.1)) else {
        return Vec::new();
    };
    let Some((r, rr)) = progress_rates(sys, "read").max_by(|a, b| a.1.total_cmp(&b.1)) else {
        return Vec::new();
    };
    let ratio = wr / rr;
    if ratio >= ANY_SHARE {
        return Vec::new();
    }
    let dev = match sys.disks.as_slice() {
        [d] => d.name.clone(),
        _ => "system".to_string(),
    };
    let said = |u: &UserBenchmark| u.command.clone().unwrap_or_else(|| u.tool.clone());
    vec![
        problem(
            id,
            &dev,
            Severity::Warning,
            format!(
                "a copy ran at {}, {:.0}% of the {} a read reached",
                mbps(wr),
                ratio * 100.0,
                mbps(rr)
            ),
            format!(
                "progress showed `{}` at {} and `{}` at {}. A copy moves data as fast as its \
                 destination takes it, and the page cache only ever makes a copy look faster, \
                 so the writing side is this slow: the device (an SMR disk rewriting bands, a \
                 card or stick past its cache) or the filesystem driver writing it (a FUSE \
                 driver such as ntfs-3g or fatxfs writes in small synchronous pieces). A dd \
                 with oflag=direct to a file of the same filesystem, and one to the raw \
                 device when it is free, tell which.",
                said(w),
                mbps(wr),
                said(r),
                mbps(rr)
            ),
        )
        .evidence(w.from.clone(), said(w))
        .evidence(r.from.clone(), said(r))
        .confidence(Confidence::Medium)
        .impact(1.0 - ratio),
    ]
}
