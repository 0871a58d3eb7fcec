//! `small-block-overhead`: the block-size sweep shows small requests far slower than large
//! ones: each I/O pays a fixed cost (system call, command overhead, for HDDs a missed
//! revolution), so `dd bs=512` measures that cost, not the disk (seeds 001/004: 3.6 MB/s at
//! bs=512 vs 57 MB/s at 128k).

use super::measured_common::{CiteResult, mbps, pass, per_disk, problem};
use super::{Check, CheckInput, Confidence, Finding, Severity};
use crate::evidence::{BenchResult, TestName};
use crate::facts::SystemFacts;

pub(crate) struct SmallBlockOverhead;

fn sweep<'a>(rs: &[&'a BenchResult], direct: bool) -> Vec<&'a BenchResult> {
    let mut v: Vec<&BenchResult> = rs
        .iter()
        .copied()
        .filter(|r| {
            r.test == TestName::BsSweep && r.direct == direct && r.error.is_none() && r.bytes > 0
        })
        .collect();
    crate::sort::sort_by_key(&mut v, |r| r.block_size_bytes);
    v
}

impl Check for SmallBlockOverhead {
    fn input(&self) -> CheckInput {
        CheckInput::Measured
    }
    fn id(&self) -> &'static str {
        "small-block-overhead"
    }
    fn summary(&self) -> &'static str {
        "Small requests are far slower than large ones: a dd with bs=512 measures per-I/O overhead"
    }
    fn run(&self, sys: &SystemFacts) -> Vec<Finding> {
        per_disk(sys, |_, dev, rs| {
            let direct = sweep(rs, true);
            let (Some(small), Some(large)) = (
                direct.first().copied(),
                direct
                    .iter()
                    .copied()
                    .find(|r| r.block_size_bytes >= 1 << 20)
                    .or(direct.last().copied()),
            ) else {
                return None;
            };
            if small.block_size_bytes >= large.block_size_bytes || large.bytes_per_sec <= 0.0 {
                return None;
            }
            let ratio = small.bytes_per_sec / large.bytes_per_sec;
            // Where is the knee: the smallest block size reaching 90 % of the large-block rate.
            let knee = direct
                .iter()
                .find(|r| r.bytes_per_sec >= 0.9 * large.bytes_per_sec)
                .map(|r| r.block_size_bytes);
            let buffered_small = sweep(rs, false).first().copied();
            if ratio < 0.25 {
                let mut explanation = format!(
                    "Direct reads of {} B reach {} while {} B reach {} ({:.0}x less): each request pays a \
                     fixed cost, so small blocks measure that cost rather than the disk. ",
                    small.block_size_bytes,
                    mbps(small.bytes_per_sec),
                    large.block_size_bytes,
                    mbps(large.bytes_per_sec),
                    1.0 / ratio.max(1e-9)
                );
                if let Some(k) = knee {
                    explanation.push_str(&format!(
                        "Requests of {k} B and up get 90 % of the large-block rate. "
                    ));
                }
                if let Some(b) = buffered_small {
                    explanation.push_str(&format!(
                        "Through the page cache, {} B reads reach {} because the kernel reads ahead in large chunks. ",
                        b.block_size_bytes,
                        mbps(b.bytes_per_sec)
                    ));
                }
                explanation.push_str("To measure a disk with dd, use bs=1M (and iflag=direct).");
                Some(
                    problem(
                        self.id(),
                        dev,
                        Severity::Notice,
                        format!(
                            "{dev}: {} B requests run at {} of the 1 MiB rate",
                            small.block_size_bytes,
                            share_of(ratio)
                        ),
                        explanation,
                    )
                    .cite(small)
                    .cite(large),
                )
            } else {
                Some(pass(
                    self.id(),
                    dev,
                    format!(
                        "{dev}: {} B requests still reach {:.0}% of the large-block rate",
                        small.block_size_bytes,
                        ratio * 100.0
                    ),
                    Confidence::High,
                    small,
                ))
            }
        })
    }
}

/// A share of the large-block rate as a title shows it: whole percents, one decimal below
/// 10 %, and "under 0.1%" rather than a "0%" that reads as "nothing got through".
fn share_of(ratio: f64) -> String {
    let pct = ratio * 100.0;
    if pct < 0.1 {
        "under 0.1%".into()
    } else if pct < 9.95 {
        format!("{pct:.1}%")
    } else {
        format!("{pct:.0}%")
    }
}

#[cfg(test)]
mod tests;
