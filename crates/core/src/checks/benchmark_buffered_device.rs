//! `benchmark-buffered-device`: reads of a buffered block device (old BSD /dev/adN, Linux without iflag=direct) that measure the cache. See pasted_common.rs.

use super::pasted_common::*;
use super::{Check, CheckInput, Confidence, Finding, Severity, Verdict};
use crate::evidence::Platform;
use crate::facts::SystemFacts;

pub(crate) struct BufferedDevice;

/// A transfer the page cache cannot have shaped: at least 64 GiB, and at least twice the
/// RAM when the RAM is known. A read that large cannot be re-read from memory, and a write
/// that large is throttled to the disk's pace once the dirty-page limit is reached
/// (vm.dirty_ratio, 20 % of available memory by default, Documentation/admin-guide/sysctl/
/// vm.rst), so the rate dd prints is the disk's within a few percent: a whole-disk dd of a
/// new drive is a fair measurement.
fn beyond_page_cache(sys: &SystemFacts, b: &crate::facts::UserBenchmark) -> bool {
    const FLOOR: u64 = 64 << 30;
    let Some(n) = b.bytes else { return false };
    let ram = sys.ram_bytes.get().unwrap_or(0);
    n >= FLOOR && n / 2 >= ram
}
/// Whether another dd in the text reads the same device: a repeated read may come from the
/// page cache, and a read next to an iflag=direct read of the same device sets the buffered
/// path against the direct one. A single buffered sequential read of a Linux block device
/// measures the device: nothing of it is cached yet, and read-ahead (the bdev's ra_pages,
/// Documentation/ABI/stable/sysfs-block read_ahead_kb, 128 KiB by default) only turns dd's
/// reads into larger ones the disk streams at its own pace (mm/readahead.c). A rate above
/// the link's is cache-answered's and benchmark-page-cache's to call.
fn read_again(sys: &SystemFacts, path: &str) -> bool {
    sys.user_benchmarks
        .iter()
        .filter(|o| o.tool == "dd" && o.input.as_deref() == Some(path))
        .take(2)
        .count()
        > 1
}
impl Check for BufferedDevice {
    fn input(&self) -> CheckInput {
        CheckInput::Pasted
    }
    fn id(&self) -> &'static str {
        "benchmark-buffered-device"
    }
    fn label(&self) -> &'static str {
        "Your test: raw device"
    }
    fn summary(&self) -> &'static str {
        "a pasted test went through a buffered block device instead of the raw one (or without O_DIRECT)"
    }
    fn run(&self, sys: &SystemFacts) -> Vec<Finding> {
        let mut out = Vec::new();
        for b in &sys.user_benchmarks {
            if b.tool != "dd" {
                continue;
            }
            for (path, is_read) in [(b.input.as_deref(), true), (b.output.as_deref(), false)] {
                let Some(path) = path else { continue };
                if !is_device(path) {
                    continue;
                }
                let name = path.trim_start_matches("/dev/");
                if old_bsd_block(name) {
                    let raw = format!("/dev/r{name}");
                    let twin = sys.user_benchmarks.iter().find(|o| {
                        o.input.as_deref() == Some(raw.as_str())
                            || o.output.as_deref() == Some(raw.as_str())
                    });
                    let mut cmp = twin
                        .and_then(|t| {
                            Some(format!(
                                " The raw {raw} in the same text: {}.",
                                mbs(t.bytes_per_sec?)
                            ))
                        })
                        .unwrap_or_default();
                    // Report what the text says: a comment calling this device raw
                    // contradicts the device name (seed 004's "# raw, pessimized").
                    if b.command
                        .as_deref()
                        .and_then(|c| c.split_once('#'))
                        .is_some_and(|(_, c)| c.contains("raw"))
                    {
                        cmp.push_str(&format!(
                            " (The poster's comment calls this run raw, but the command names {path}, not {raw}: check which one ran.)"
                        ));
                    }
                    out.push(
                        base(
                            self.id(),
                            b,
                            Verdict::Problem,
                            Severity::Warning,
                            format!("{path} is the buffered block device; {raw} is the raw disk"),
                        )
                        .explain(format!(
                            "{} {} {path}, which goes through the buffer cache in small blocks (2 KiB here) and costs a \
                             lot of CPU time; the rate can be close to the raw device's while the system time is many \
                             times higher, or it can be cache hits.{cmp} Measure the disk with {raw}.",
                            what(b),
                            if is_read { "reads" } else { "writes" }
                        ))
                        .confidence(Confidence::High),
                    );
                } else if !freebsd_raw(sys, path)
                    && (sys.platform == Platform::Linux
                        || name.starts_with("sd")
                        || name.starts_with("mapper/")
                        || name.starts_with("nvme"))
                {
                    let direct = if is_read {
                        "iflag=direct"
                    } else {
                        "oflag=direct"
                    };
                    if has_flag(b, &[direct]) {
                        continue;
                    }
                    if beyond_page_cache(sys, b) {
                        continue;
                    }
                    if is_read && !read_again(sys, path) {
                        continue;
                    }
                    out.push(
                        base(
                            self.id(),
                            b,
                            Verdict::Problem,
                            if is_read { Severity::Notice } else { Severity::Warning },
                            format!("{path} was {} through the page cache", if is_read { "read" } else { "written" }),
                        )
                        .explain(format!(
                            "On Linux a block device such as {path} is buffered by the page cache unless dd is given \
                             {direct}: {} Add {direct} (and a bs that is a multiple of the sector size).",
                            if is_read {
                                "a re-read can be served from RAM, and read-ahead changes the request size."
                            } else {
                                "dd returns when the data is in RAM, not on the disk."
                            }
                        )),
                    );
                }
            }
        }
        out
    }
}
