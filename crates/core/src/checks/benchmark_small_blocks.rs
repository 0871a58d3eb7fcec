//! `benchmark-small-blocks`: a pasted run with blocks so small that per-request cost is what it measured (dd's default bs=512). See pasted_common.rs.

use super::pasted_common::*;
use super::{Check, CheckInput, Confidence, Finding, Severity, Verdict};
use crate::facts::SystemFacts;

/// A dd run that moved less than this in all is too short to be a rate: one read-ahead
/// window (128 KiB by default, Documentation/ABI/stable/sysfs-block read_ahead_kb) and a few
/// more, over in about a millisecond on any SSD.
const TINY_RUN_BYTES: u64 = 1 << 20;

/// A problem at notice about run `b`.
fn notice(id: &str, b: &crate::facts::UserBenchmark, title: String) -> Finding {
    base(id, b, Verdict::Problem, Severity::Notice, title)
}

pub(crate) struct SmallBlocks;
impl Check for SmallBlocks {
    fn input(&self) -> CheckInput {
        CheckInput::Pasted
    }
    fn id(&self) -> &'static str {
        "benchmark-small-blocks"
    }
    fn label(&self) -> &'static str {
        "Your test: block size"
    }
    fn summary(&self) -> &'static str {
        "a pasted dd used a tiny block size (default 512 bytes): it measures per-request overhead, not the disk"
    }
    fn run(&self, sys: &SystemFacts) -> Vec<Finding> {
        let mut out = Vec::new();
        for b in &sys.user_benchmarks {
            if b.tool != "dd" {
                continue;
            }
            let Some(bs) = b.block_size_bytes else {
                continue;
            };
            let derived = b.command.as_deref().is_none_or(|c| !c.contains("bs="));
            let how = if b.command.as_deref().is_some_and(|c| !c.contains("bs=")) {
                "no bs= given, so dd used its default of 512 bytes".to_string()
            } else if b.command.is_none() {
                format!(
                    "block size {} derived from {} bytes / {} records",
                    bs,
                    b.bytes.unwrap_or(0),
                    b.records_out
                        .as_deref()
                        .or(b.records_in.as_deref())
                        .unwrap_or("?")
                )
            } else {
                format!("bs={bs} bytes")
            };
            if bs >= 65536 {
                out.push(
                    base(
                        self.id(),
                        b,
                        Verdict::Pass,
                        Severity::Info,
                        format!("block size {} is large enough", human(bs)),
                    )
                    .explain(format!(
                        "{} moves {} per request: per-request overhead is small.",
                        what(b),
                        human(bs)
                    )),
                );
                continue;
            }
            // A write with oflag=dsync or oflag=sync opens the output O_DSYNC / O_SYNC (GNU
            // dd's "use synchronized I/O for data" / "... for data and metadata"; FreeBSD
            // dd(1) oflag=sync is O_SYNC): each write() returns only once its block is
            // durable, so the run times one committed write of bs bytes after another, the
            // workload of a database's log or a consensus store. At a page or sector size
            // (4 KiB and up) that block is the commit being measured, not a throughput test
            // that picked too small a block; 512-byte runs stay below.
            if bs >= 4096 && has_flag(b, &["oflag=dsync", "oflag=sync"]) {
                out.push(
                    base(
                        self.id(),
                        b,
                        Verdict::Pass,
                        Severity::Info,
                        format!("{} synchronous writes are the workload measured", human(bs)),
                    )
                    .explain(format!(
                        "{} writes with oflag=dsync/sync: each {} write returns only once it \
                         is durable, so the figure is the rate of committed writes of that \
                         size (a database log's workload), which a larger block would not \
                         measure.",
                        what(b),
                        human(bs)
                    )),
                );
                continue;
            }
            // The same target (the device read, or the device/filesystem written) with a
            // bigger block elsewhere in the text.
            let better = sys
                .user_benchmarks
                .iter()
                .filter(|o| {
                    o.tool == "dd" && same_target(o, b) && o.block_size_bytes.unwrap_or(0) >= 65536
                })
                .filter_map(|o| Some((o.bytes_per_sec?, o.block_size_bytes?)))
                .max_by(|x, y| x.0.partial_cmp(&y.0).unwrap_or(std::cmp::Ordering::Equal));
            let rate = b.bytes_per_sec;
            let cmp = match (better, rate) {
                (Some((r2, bs2)), Some(r1)) => format!(
                    " The same source with bs={} reached {} against {} here ({:.0}x).",
                    human(bs2),
                    mbs(r2),
                    mbs(r1),
                    r2 / r1.max(1.0)
                ),
                _ => String::new(),
            };
            let ios = rate.map(|r| r / bs as f64).unwrap_or(0.0);
            if let (Some((r2, bs2)), Some(r1)) = (better, rate) {
                if bs < 4096 && r2 < r1 * 1.15 {
                    out.push(
                        base(
                            self.id(),
                            b,
                            Verdict::Problem,
                            Severity::Notice,
                            format!("dd moved {bs} bytes per request: same rate, much more CPU"),
                        )
                        .explain(format!(
                            "{how}. Here the disk is slow enough ({}) that the same target with bs={} was no faster ({}), \
                             but every request still costs a system call and a disk command: on a faster disk or a \
                             busier CPU this block size becomes the limit. Use bs=1m (FreeBSD) or bs=1M (GNU).",
                            mbs(r1),
                            human(bs2),
                            mbs(r2)
                        )),
                    );
                    continue;
                }
                if bs >= 4096 && r2 < r1 * 1.15 {
                    out.push(
                        base(self.id(), b, Verdict::Pass, Severity::Info, format!("block size {} is not the limit here", human(bs)))
                            .explain(format!(
                                "{} moves {} per request at {}; the same target with bs={} reached only {}, so per-request \
                                 overhead does not limit this test.",
                                what(b),
                                human(bs),
                                mbs(r1),
                                human(bs2),
                                mbs(r2)
                            )),
                    );
                    continue;
                }
            }
            // A run of a handful of requests (under [`TINY_RUN_BYTES`] in all) times little
            // more than one round trip: GNU dd takes its start time just before the copy
            // loop and prints bytes over the elapsed time (coreutils dd.c, start_time and
            // print_xfer_stats), so the first request's wait (a read-ahead window to fill,
            // a queue to reach, a device to wake) and the system calls are the figure, not
            // the device's throughput: bnb-chain/bsc#189's `dd if=/dev/md127 bs=8k
            // count=10`, 80 KiB in 1.16 ms, "70.6 MB/s". Another dd of more data, however
            // fast, does not make it a measurement.
            if bs >= 4096
                && b.command.is_some()
                && let (Some(r1), Some(n)) = (rate, b.bytes)
                && n > 0
                && n < TINY_RUN_BYTES
            {
                let reqs = n / bs.max(1);
                let title = format!(
                    "dd moved only {} in {reqs} requests of {}: too little to measure a rate",
                    human(n),
                    human(bs)
                );
                out.push(
                    notice(self.id(), b, title)
                    .explain(format!(
                        "{how}. {} moved {} in {}, so its {} is one or two device round trips and \
                         the system calls around them, not what the device sustains. Measure \
                         with bs=1M and at least a few hundred MiB (count=1000), with \
                         iflag=direct for a read of a device.",
                        what(b),
                        human(n),
                        b.seconds
                            .map(|t| format!("{:.2} ms", t * 1000.0))
                            .unwrap_or_else(|| "a moment".to_string()),
                        mbs(r1)
                    ))
                    .confidence(Confidence::Medium),
                );
                continue;
            }
            // Proof that per-request overhead is not what limits a 4 KiB+ run: it already
            // completes 100k requests a second, or another dd in the text with blocks no
            // larger ran at least twice as fast (then the source or the target is the limit).
            let quicker = sys
                .user_benchmarks
                .iter()
                .filter(|o| o.tool == "dd" && o.block_size_bytes.is_some_and(|x| x <= bs))
                .filter_map(|o| o.bytes_per_sec)
                .fold(0.0_f64, f64::max);
            if bs >= 4096
                && let Some(r1) = rate
                && (ios >= 100_000.0 || quicker >= 2.0 * r1)
            {
                out.push(
                    base(
                        self.id(),
                        b,
                        Verdict::Pass,
                        Severity::Info,
                        format!("block size {} is not the limit here", human(bs)),
                    )
                    .explain(if ios >= 100_000.0 {
                        format!(
                            "{} moves {} per request and still completes {ios:.0} requests a \
                             second ({}): per-request overhead does not limit it.",
                            what(b),
                            human(bs),
                            mbs(r1)
                        )
                    } else {
                        format!(
                            "{} moves {} per request at {}, but another dd in the text with \
                             blocks no larger reached {}: the limit is elsewhere (the source, \
                             the target or a cache), not the block size.",
                            what(b),
                            human(bs),
                            mbs(r1),
                            mbs(quicker)
                        )
                    }),
                );
                continue;
            }
            // A buffered read (command known, no iflag=direct) goes through the page cache,
            // whose readahead sends the disk requests of its own window (Linux
            // mm/readahead.c, 128 KiB by default and growing; FreeBSD cluster_read for UFS):
            // 4 KiB read() calls then cost CPU, not disk throughput.
            let buffered_read = bs >= 4096
                && b.command.is_some()
                && !has_flag(b, &["iflag=direct"])
                && b.output.as_deref().is_some_and(is_pseudo)
                && b.input
                    .as_deref()
                    .is_some_and(|i| !(is_pseudo(i) || is_device(i) && freebsd_raw(sys, i)));
            // A buffered write (command known, none of oflag=direct/dsync/sync) to a file:
            // dd's write() calls only copy into the page cache, and writeback sends the
            // disk large requests of its own (Linux mm/page-writeback.c, FreeBSD's buffer
            // cache clustering); conv=fdatasync/fsync flushes them once, at the end (GNU
            // dd.c, FreeBSD dd(1)). 4 KiB calls then cost CPU, not disk throughput, the
            // same as a buffered read. A block device written this way is
            // benchmark-buffered-device's business, and 512-byte calls stay a problem.
            let buffered_write = bs >= 4096
                && b.command.is_some()
                && !has_flag(b, &["oflag=direct", "oflag=dsync", "oflag=sync"])
                && b.output
                    .as_deref()
                    .is_some_and(|o| !is_pseudo(o) && !o.starts_with("/dev/"));
            // A buffered write of small blocks that the page cache did not absorb
            // (pasted_common::buffered_write_waited_for_disk: a `sync` mount, an O_SYNC
            // output): every call was a synchronous trip to the disk, so the figure is the
            // per-request cost of that block size, with the filesystem's metadata updates.
            if buffered_write
                && bs < 65536
                && buffered_write_waited_for_disk(b)
                && let Some(r1) = rate
            {
                let title = format!(
                    "dd wrote {} per call at {}: each write waited for the disk",
                    human(bs),
                    mbs(r1)
                );
                out.push(
                    notice(self.id(), b, title)
                        .explain(format!(
                            "{how}. Without conv=fsync this write should have gone into the page \
                             cache at memory speed; at {} each {} call instead waited for the \
                             device, as it does on a filesystem mounted with the `sync` option \
                             (check `mount`) or an output opened O_SYNC. Each small synchronous \
                             write then costs a full device round trip plus the filesystem's \
                             metadata updates. Remove the `sync` mount option (or use bs=1M) and \
                             measure with conv=fsync.",
                            mbs(r1),
                            human(bs)
                        ))
                        .confidence(Confidence::Medium),
                );
                continue;
            }
            // The same buffered 4 KiB write set beside `hdparm -t` of a disk, with no
            // large-block dd to compare it with: the post weighs the two figures against
            // each other, but hdparm reads 2 MiB per call (hdparm.c read_big_block,
            // TIMING_BUF_MB) while dd's 4 KiB write() calls each cost a system call and a
            // page-cache copy, which on a small CPU (an SBC) is what the figure measures.
            // The comparison, not the run, is the problem: a notice.
            let hdparm_read = sys
                .user_benchmarks
                .iter()
                .filter(|o| o.tool.starts_with("hdparm -t"))
                .filter_map(|o| o.bytes_per_sec)
                .fold(0.0_f64, f64::max);
            let large_dd = sys
                .user_benchmarks
                .iter()
                .any(|o| o.tool == "dd" && o.block_size_bytes.is_some_and(|x| x >= 65536));
            if buffered_write
                && bs < 65536
                && hdparm_read > 0.0
                && !large_dd
                && let Some(r1) = rate
            {
                let title = format!(
                    "dd wrote {} per call ({}), set against hdparm's 2 MiB reads ({})",
                    human(bs),
                    mbs(r1),
                    mbs(hdparm_read)
                );
                out.push(
                    notice(self.id(), b, title)
                        .explain(format!(
                            "{how}. hdparm -t reads the disk in 2 MiB requests; this dd makes one \
                         system call and one page-cache copy per {}, so its figure includes \
                         per-request overhead (the CPU's, on a small board) that hdparm's does \
                         not: the two numbers do not compare the disk with itself. Repeat the \
                         write with bs=1M (GNU) or bs=1m (FreeBSD) and oflag=direct, or \
                         measure both directions with fio at the same block size.",
                            human(bs)
                        ))
                        .confidence(Confidence::Medium),
                );
                continue;
            }
            if buffered_read || buffered_write {
                let size = human(bs);
                let (what_io, path) = if buffered_read {
                    (
                        "read",
                        format!(
                            "reads {size} per call through the page cache, whose readahead \
                             asks the disk for much larger pieces"
                        ),
                    )
                } else {
                    (
                        "write",
                        format!(
                            "writes {size} per call into the page cache, which writes back to \
                             the disk in much larger pieces"
                        ),
                    )
                };
                out.push(
                    base(
                        self.id(),
                        b,
                        Verdict::Pass,
                        Severity::Info,
                        format!("block size {size} is not the limit of a buffered {what_io}"),
                    )
                    .explain(format!(
                        "{} {path}: the block size costs CPU time here, not disk throughput.",
                        what(b)
                    )),
                );
                continue;
            }
            // Only dd's summary, of page-sized or larger blocks: whether the run wrote
            // through the page cache (which hands the disk large pieces, above), flushed
            // once at the end (conv=fsync/fdatasync, the same), or timed one committed
            // write after another (oflag=dsync, the workload of a sync-write test such as
            // a benchmark script's 4 KiB dd with fsync) is in the command line, and all of
            // these measure something other than a too-small block. Ask for it.
            if bs >= 4096 && b.command.is_none() {
                out.push(
                    base(
                        self.id(),
                        b,
                        Verdict::Unknown,
                        Severity::Info,
                        format!("dd moved {} per request; its command line was not pasted", human(bs)),
                    )
                    .explain(format!(
                        "{how}. Whether {} per request limited this run depends on dd's flags: through the \
                         page cache or with one flush at the end (conv=fsync) the disk still gets large \
                         requests, and with oflag=dsync the run measures synchronous writes on purpose. \
                         Paste the dd command line to have it judged.",
                        human(bs)
                    )),
                );
                continue;
            }
            let sev = if bs < 4096 {
                Severity::Warning
            } else {
                Severity::Notice
            };
            out.push(
                base(
                    self.id(),
                    b,
                    Verdict::Problem,
                    sev,
                    format!(
                        "dd moved {} per request{}",
                        if bs < 1024 { format!("{bs} bytes") } else { human(bs) },
                        rate.map(|r| format!(" ({})", mbs(r))).unwrap_or_default()
                    ),
                )
                .explain(format!(
                    "{how}. Each request costs a system call and a disk command (tens of microseconds), so {} \
                     requests per second cap the rate long before the disk does.{cmp} Use bs=1m (FreeBSD) or bs=1M \
                     (GNU) to measure sequential throughput.",
                    if ios > 0.0 { format!("{ios:.0}") } else { "thousands of".to_string() }
                ))
                .confidence(if derived && b.command.is_none() { Confidence::Medium } else { Confidence::High }),
            );
        }
        out
    }
}
