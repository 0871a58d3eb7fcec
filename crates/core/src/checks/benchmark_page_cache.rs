//! `benchmark-page-cache`: a pasted dd/cp whose number is the page cache's, not the disk's (no fsync/direct, a file smaller than RAM read back). See pasted_common.rs for references.

use super::pasted_common::*;
use super::{Check, CheckInput, Confidence, Finding, Severity, Verdict};
use crate::facts::SystemFacts;

pub struct PageCache;
impl Check for PageCache {
    fn input(&self) -> CheckInput {
        CheckInput::Pasted
    }
    fn id(&self) -> &'static str {
        "benchmark-page-cache"
    }
    fn label(&self) -> &'static str {
        "Your test: page cache"
    }
    fn summary(&self) -> &'static str {
        "a pasted write test stopped the clock while data was still in RAM (no fsync/direct I/O, or impossibly fast)"
    }
    fn run(&self, sys: &SystemFacts) -> Vec<Finding> {
        let mut out = Vec::new();
        for b in &sys.user_benchmarks {
            if b.tool != "dd" {
                continue;
            }
            let Some(output) = b.output.as_deref() else {
                if b.bytes_per_sec.is_some() && b.command.is_none() {
                    out.push(
                        base(self.id(), b, Verdict::Unknown, Severity::Info, "dd result without its command line".into()).explain(
                            "Only dd's summary was pasted. Whether the page cache inflated it depends on the command: \
                             a write without conv=fdatasync (GNU) or conv=fsync, or without oflag=direct, stops the clock \
                             while the data may still be in RAM. Paste the full dd command line.",
                        ),
                    );
                }
                continue;
            };
            if output == "/dev/null" {
                continue;
            }
            let rate = b.bytes_per_sec.unwrap_or(0.0);
            if has_flag(b, SYNC_FLAGS) {
                out.push(
                    base(
                        self.id(),
                        b,
                        Verdict::Pass,
                        Severity::Info,
                        "write test flushed to the disk".into(),
                    )
                    .explain(format!(
                        "{} uses {}, so dd's time includes getting the data onto the disk.",
                        what(b),
                        b.flags.join(",")
                    )),
                );
                continue;
            }
            let impossible = rate > 2.0e9;
            if is_device(output) && freebsd_raw(sys, output) && !impossible {
                out.push(
                    base(self.id(), b, Verdict::Pass, Severity::Info, "write to a raw FreeBSD disk device".into())
                        .explain("FreeBSD disk devices have no buffer cache (block devices were removed in 5.0), so dd's time is the disk's."),
                );
                continue;
            }
            let bytes = b.bytes.unwrap_or(0);
            let ram = sys.ram_bytes.get();
            let (verdict, sev, conf, why) = if impossible {
                (
                    Verdict::Problem,
                    Severity::Warning,
                    Confidence::High,
                    format!(
                        "{} is faster than any single SATA/SAS disk can write (600 MB/s link) and than most NVMe drives: \
                         the data went into RAM (page cache, ZFS ARC/dirty data) or was compressed away, not onto the disk.",
                        mbs(rate)
                    ),
                )
            } else if ram.is_some_and(|r| bytes > 0 && bytes <= r.saturating_mul(2)) {
                (
                    Verdict::Problem,
                    Severity::Warning,
                    Confidence::Medium,
                    format!(
                        "{} written on a machine with {} of RAM: most of it can sit in the page cache when dd stops the clock.",
                        human(bytes),
                        human(ram.unwrap_or(0))
                    ),
                )
            } else if bytes > 0 && rate > 0.0 && rate < 1.0e9 && bytes as f64 / rate >= 30.0 {
                // Linux throttles a writer once dirty pages reach vm.dirty_ratio (20 % of
                // available memory by default; mm/page-writeback.c balance_dirty_pages), and
                // ZFS throttles at its dirty-data limit: a write that ran half a minute at
                // disk-like speed has been waiting on the disk for most of that time.
                (
                    Verdict::Pass,
                    Severity::Info,
                    Confidence::Low,
                    format!(
                        "{} written over {:.0} s at {}: long enough that writeback throttling made dd wait \
                         for the disk, so the figure is close to the disk's (a little high).",
                        human(bytes),
                        bytes as f64 / rate,
                        mbs(rate)
                    ),
                )
            } else if bytes >= 8 << 30 {
                (
                    Verdict::Pass,
                    Severity::Info,
                    Confidence::Low,
                    format!(
                        "{} written without a final flush: only the last few GiB can still be in RAM, so the figure is \
                         close to the disk's (a little high).",
                        human(bytes)
                    ),
                )
            } else {
                (
                    Verdict::Problem,
                    Severity::Notice,
                    Confidence::Medium,
                    format!(
                        "{} written without a final flush; up to the machine's free RAM of it may still be in the page cache \
                         when dd reports.",
                        if bytes > 0 {
                            human(bytes)
                        } else {
                            "data".to_string()
                        }
                    ),
                )
            };
            let title = if verdict == Verdict::Pass {
                "write test large enough that caching matters little".to_string()
            } else {
                format!("the {} write may measure RAM, not the disk", mbs(rate))
            };
            out.push(
                base(self.id(), b, verdict, sev, title)
                    .explain(format!(
                        "{why} Re-run with GNU dd conv=fdatasync (or oflag=direct), or on FreeBSD write to the raw device \
                         or follow dd with sync inside the timing (time sh -c 'dd ... && sync'), with a size at least twice the RAM."
                    ))
                    .confidence(conf),
            );
        }
        out
    }
}
