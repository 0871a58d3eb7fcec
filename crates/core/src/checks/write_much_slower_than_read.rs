//! `write-much-slower-than-read`: sequential writes reach less than half the sequential read
//! rate of the same disk. Usual causes: write cache disabled (each write waits for the
//! media), partitions misaligned to the physical sector (read-modify-write), SMR drives
//! rewriting shingled bands, or QLC SSDs past their SLC cache.

use super::measured_common::{CiteResult, best_seq_read, mbps, pass, per_disk, problem};
use super::{Check, CheckInput, Confidence, Finding, Severity};
use crate::evidence::TestName;
use crate::facts::SystemFacts;

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
                    self.id(),
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
            let mut f = problem(self.id(), dev, sev, format!(
                    "{dev} writes at {}, {:.0}% of its {} read rate",
                    mbps(write.bytes_per_sec),
                    ratio * 100.0,
                    mbps(read.bytes_per_sec)
                ), format!(
                "Sequential 1 MiB writes of incompressible data ran at {} against {} for direct \
                 sequential reads. Likely: {}.",
                mbps(write.bytes_per_sec),
                mbps(read.bytes_per_sec),
                causes.join("; ")
            ))
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
}

#[cfg(test)]
mod tests;
