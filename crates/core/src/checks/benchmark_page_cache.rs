//! `benchmark-page-cache`: a pasted dd/cp whose number is the page cache's, not the disk's (no fsync/direct, a file smaller than RAM read back). See pasted_common.rs for references.

use super::pasted_common::*;
use super::{Check, CheckInput, Confidence, Finding, Severity, Verdict};
use crate::facts::SystemFacts;

/// How long a run took, as dd printed it.
fn secs(b: &crate::facts::UserBenchmark) -> String {
    b.seconds
        .map(|s| format!("{s:.2} s"))
        .unwrap_or_else(|| "an unknown time".to_string())
}

/// A fio write whose typed command asks neither direct=1 nor a flush (fio(1): direct
/// defaults to false, so writes land in the page cache and fio stops the clock when its
/// last write() returns, unless fsync/fdatasync/end_fsync/sync ask for the data on disk).
fn buffered_fio(id: &str, b: &crate::facts::UserBenchmark) -> Option<Finding> {
    let cmd = b.command.as_deref()?;
    if !b.flags.iter().any(|f| f == "buffered") || !cmd.contains("write") {
        return None;
    }
    Some(
        base(
            id,
            b,
            Verdict::Problem,
            Severity::Notice,
            format!(
                "{cmd}: buffered writes without direct=1 or a final fsync measure the page cache"
            ),
        )
        .explain(
            "The fio command line sets neither direct=1 nor fsync/fdatasync/end_fsync, so fio \
             wrote into the page cache and counted a write done when it reached RAM; small or \
             short runs then report RAM's speed, not the disk's (tiny completion latencies are \
             the sign). Re-run with --direct=1 (and --ioengine=libaio or io_uring), or add \
             --end_fsync=1 to include the flush.",
        )
        .confidence(Confidence::Medium),
    )
}

/// Below this mean request latency no storage device answered: the fastest, 3D XPoint and
/// Z-NAND SSDs, complete a 4 KiB read in about 5-10 us as fio measures it through the
/// syscall and the block layer (Intel Optane P5800X: "< 5 us" typical read latency at the
/// device alone), and NAND flash in 50-100 us. A copy out of the page cache takes a
/// syscall and a memcpy: hundreds of nanoseconds to a couple of microseconds.
const RAM_LATENCY_US: f64 = 4.0;

/// A fio result whose mean request latency (fio's "lat", slat + clat) is below any
/// device's: the page cache (or another RAM) answered, whatever the options were. fio's
/// text report prints no direct flag, so this judges the figure when the command line was
/// not pasted too; a run known to be direct=1 is left alone (a RAM disk's own figure).
fn ram_fast_fio(id: &str, b: &crate::facts::UserBenchmark) -> Option<Finding> {
    let lat = b.request_latency_us.filter(|l| l.is_finite() && *l > 0.0)?;
    if lat >= RAM_LATENCY_US || b.flags.iter().any(|f| f == "direct=1") {
        return None;
    }
    let what = b.command.as_deref().unwrap_or("fio");
    let lead = if b.flags.iter().any(|f| f == "buffered") {
        "The fio command line does not set direct=1, so fio read and wrote through the page cache"
    } else {
        "fio's report does not say whether the job ran with direct=1 (the command line was not \
         pasted)"
    };
    Some(
        cache_made(
            id,
            b,
            format!("{what}: {lat:.2} us per request is RAM's speed, not a device's"),
            format!(
                "{lead}. A mean request latency of {lat:.2} us (submission plus completion) is \
                 below what any storage device answers in (the fastest SSDs take about 5-10 us \
                 for a 4 KiB read, NAND flash 50-100 us): the data came from memory, the file \
                 fio had just laid out or read still in the page cache. Re-run with --direct=1 \
                 (and --ioengine=libaio or io_uring), or with a file at least twice the RAM."
            ),
        )
        .evidence(b.from.clone(), format!("mean latency {lat:.2} us")),
    )
}

/// Below this an unflushed write cannot have been served mostly by RAM: the page cache
/// takes writes at memory speed (GB/s) until the dirty limit (vm.dirty_ratio, 20 % of
/// available memory, mm/page-writeback.c), and no SATA disk writes faster than 600 MB/s, so
/// a figure under 200 MB/s was held back by the device, the link or throttling.
const SLOW_FOR_RAM: f64 = 2.0e8;

/// Below this an unflushed write already reads as slow, so RAM cannot have hidden a slow
/// disk behind it: USB 2.0's practical ceiling (480 Mbit/s High Speed with Bulk-Only
/// Transport, about 35-40 MB/s; USB 2.0 spec 5.8.4) and under the sequential write of any
/// hard disk of the last twenty years.
const SLOW_FOR_DISK: f64 = 4.0e7;

/// A copy of at least this much is a measurement, not a file's open and close.
const COPY_MIN_BYTES: u64 = 16 << 20;

/// A copy that ran this long was paced by the device: the dirty pages it left behind had
/// long reached vm.dirty_ratio and the writer waited on writeback (mm/page-writeback.c
/// balance_dirty_pages), so its rate is the device's settled rate.
const SETTLED_SECS: f64 = 10.0;

/// An rsync copy (sources::rsync) that finished at least ten times as fast as a later
/// copy of a settled length to the same destination, and small enough for the page cache
/// (at most 2 GiB, or half the RAM when known). rsync writes through the page cache and,
/// without --fsync, stops its clock when the last write() returns: the kernel lets dirty
/// pages reach vm.dirty_ratio of memory before a writer waits (mm/page-writeback.c), so a
/// short copy reports memory's speed and the device writes it back afterwards. One device
/// does not write ten times faster in one copy than in the next; RAM does.
fn copy_outran_device(
    id: &str,
    sys: &SystemFacts,
    i: usize,
    b: &crate::facts::UserBenchmark,
) -> Option<Finding> {
    let (rate, bytes) = (b.bytes_per_sec?, b.bytes?);
    let cap = sys.ram_bytes.get().map_or(2 << 30, |r| r / 2);
    if has_flag(b, &["--fsync"]) || !(COPY_MIN_BYTES..=cap).contains(&bytes) {
        return None;
    }
    let slow = sys
        .user_benchmarks
        .get(i + 1..)?
        .iter()
        .filter(|o| o.tool == "rsync" && o.output == b.output)
        .filter(|o| o.bytes.is_some_and(|n| n >= COPY_MIN_BYTES))
        .filter(|o| o.seconds.is_some_and(|t| t >= SETTLED_SECS))
        .filter(|o| o.bytes_per_sec.is_some_and(|r| r > 0.0))
        .min_by(|x, y| {
            x.bytes_per_sec
                .partial_cmp(&y.bytes_per_sec)
                .unwrap_or(std::cmp::Ordering::Equal)
        })?;
    let settled = slow.bytes_per_sec?;
    if rate < 10.0 * settled {
        return None;
    }
    let to = b.output.as_deref().unwrap_or("the destination");
    Some(
        base(
            id,
            b,
            Verdict::Problem,
            Severity::Notice,
            format!(
                "rsync to {to}: {} in {}, {:.0} times the {} a later copy settled at: the page cache",
                mbs(rate),
                secs(b),
                rate / settled,
                mbs(settled)
            ),
        )
        .explain(format!(
            "{} copied {} at {}, and a later copy to the same place ran at {} for {}. \
             rsync writes through the page cache and stops when its last write returns: a \
             copy that fits under the dirty-page limit (vm.dirty_ratio) finishes at memory \
             speed while the device is still writing it back (a USB stick then takes \
             minutes to unmount). The slower figure is the device's. Measure with rsync \
             --fsync, `sync` inside the timing, or dd oflag=direct; lowering \
             vm.dirty_bytes keeps progress honest.",
            what(b),
            human(bytes),
            mbs(rate),
            mbs(settled),
            secs(slow)
        ))
        .confidence(Confidence::Medium),
    )
}

/// Faster than this no SATA device takes data: 600 MB/s of payload at 6 Gb/s (SATA 3.x,
/// 8b/10b), the most an SD card, USB stick or SATA disk behind the pipe could write.
const SATA_CEILING: f64 = 6.0e8;

/// A pv line (sources::pv) that moved a copy of at least [`COPY_MIN_BYTES`], small enough
/// for the page cache (at most 2 GiB, or half the RAM when known), faster than any SATA
/// device writes. pv times the pipe: the writer after it (dd without oflag=direct, a shell
/// redirection to the device) puts the data into the page cache and returns at once until
/// dirty pages reach vm.dirty_ratio (mm/page-writeback.c balance_dirty_pages), so such a
/// figure is memory's, and the device writes the data back after pv has finished. A pv
/// reading a device into /dev/null measures reads (cache-answered's business).
fn pipe_outran_device(
    id: &str,
    sys: &SystemFacts,
    b: &crate::facts::UserBenchmark,
) -> Option<Finding> {
    let (rate, bytes) = (b.bytes_per_sec?, b.bytes?);
    let cap = sys.ram_bytes.get().map_or(2 << 30, |r| r / 2);
    if rate <= SATA_CEILING
        || !(COPY_MIN_BYTES..=cap).contains(&bytes)
        || b.command
            .as_deref()
            .is_some_and(|c| c.contains("/dev/null") || c.contains("direct"))
    {
        return None;
    }
    Some(cache_made(
        id,
        b,
        format!(
            "pv: {} in {} at {}: faster than a SATA device writes, the page cache took it",
            human(bytes),
            secs(b),
            mbs(rate)
        ),
        "pv shows how fast data went through the pipe, not how fast the device wrote it. \
             The writer after pv (dd without oflag=direct, or a redirection to the device) \
             puts the data into the page cache, which takes it at memory speed until the \
             dirty-page limit (vm.dirty_ratio); the device then writes it back, and a \
             `sync` or unmount waits for that. `grep Dirty /proc/meminfo` right after shows \
             the data still waiting. Use dd oflag=direct (or conv=fsync with status=progress) \
             for the device's rate."
            .to_string(),
    ))
}

/// bonnie++'s block read (sources::bonnie) of the file it wrote just before, through the
/// page cache: RAM answered when the file was smaller than twice the RAM the paste shows
/// (bonnie++'s own rule for -s, bonnie++(8)), or when the read kept the CPU busy for 90 %
/// or more of its time at a rate beyond a SATA link's 600 MB/s: a read that goes to a disk
/// sleeps while the disk fetches the data (time(1), getrusage(2)), and bonnie++'s %CP is
/// its CPU time over its wall time. A slower or mostly waiting read is the disk's.
fn bonnie_read_from_ram(
    id: &str,
    sys: &SystemFacts,
    b: &crate::facts::UserBenchmark,
) -> Option<Finding> {
    let (rate, bytes) = (b.bytes_per_sec?, b.bytes?);
    let ram = sys.ram_bytes.get();
    let small = ram.is_some_and(|r| bytes < r.saturating_mul(2));
    let busy = match (b.time_real_s, b.time_cpu_s) {
        (Some(real), Some(cpu)) => rate > 6.0e8 && real > 0.0 && cpu >= 0.9 * real,
        _ => false,
    };
    if !small && !busy {
        return None;
    }
    let why = if small {
        format!(
            "its {} file is smaller than twice the machine's {} of RAM, so the file it had \
             just written was still in the page cache when it read it back",
            human(bytes),
            human(ram.unwrap_or(0))
        )
    } else {
        format!(
            "its block read kept the CPU busy {:.0} % of the time at {}: a read that waits on \
             a disk leaves the CPU idle while the disk fetches the data, so this one never \
             waited and the file came from RAM (the page cache), not the disk",
            b.time_cpu_s
                .zip(b.time_real_s)
                .map_or(0.0, |(c, r)| c / r * 100.0),
            mbs(rate)
        )
    };
    Some(
        base(
            id,
            b,
            Verdict::Problem,
            Severity::Notice,
            format!(
                "bonnie++ block read at {}: the page cache, not the disk",
                mbs(rate)
            ),
        )
        .explain(format!(
            "bonnie++ reads back the file it wrote through the page cache, and {why}. Its \
             Sequential Input figures are RAM's. Run it with -s at least twice the RAM (and \
             -r set to the real RAM), or measure the device with fio --direct=1."
        ))
        .confidence(Confidence::Medium),
    )
}

/// What a disk could deliver to a dd whose command (and so its flags, and whether it read
/// or wrote) was not pasted: the SATA ceiling (600 MB/s of data at 6 Gb/s) when the paste
/// shows its disks and none is NVMe, else a PCIe 4.0 x4 NVMe drive's (about 7.9 GB/s of
/// link, PCIe Base Spec 4.0: 16 GT/s x 4 lanes, 128b/130b), since an unknown disk may be
/// one and an NVMe drive really writes 1 GiB in a second with oflag=direct. Only a figure
/// above it says the page cache answered whatever the flags were. A run of at most 128 MiB
/// is held to the SATA ceiling whatever the disk: it fits under the dirty memory a writer
/// may fill before the kernel starts writing back (vm.dirty_background_ratio, 10 % of
/// available memory, mm/page-writeback.c) on any machine with a bit over 1 GiB, and lasts
/// too short for a flush to show.
fn commandless_ceiling(sys: &SystemFacts, bytes: u64) -> f64 {
    let mut disks = crate::checks::common::disks(sys).peekable();
    if bytes > 128 << 20
        && (disks.peek().is_none() || crate::checks::common::disks(sys).any(|d| d.is_nvme()))
    {
        7.9e9
    } else {
        6.0e8
    }
}

/// A flush this long is the device writing back, not the call's own cost: `sync` with
/// nothing dirty returns in milliseconds.
const FLUSH_MIN_SECS: f64 = 2.0;

/// A copy (cp, rsync, pv) timed with the shell's `time` and followed by a timed `sync` or
/// `umount` that took at least [`FLUSH_MIN_SECS`] and three times the copy's own time: the
/// copy returned when its data reached the page cache, and the flush waited while the
/// device wrote it (sync(2); umount(2) writes the file system's dirty data before it
/// detaches; mm/page-writeback.c lets dirty pages reach vm.dirty_ratio before a writer
/// waits). The device's time for the copy is the two together.
fn copy_then_long_flush(id: &str, b: &crate::facts::UserBenchmark) -> Option<Finding> {
    let flush = b.flush_real_s?;
    let copy = b.time_real_s.or(b.seconds)?;
    if has_flag(b, &["--fsync"])
        || !(copy.is_finite() && flush.is_finite() && copy >= 0.0)
        || flush < FLUSH_MIN_SECS
        || flush < 3.0 * copy
    {
        return None;
    }
    let what_flush = b.flush_command.as_deref().unwrap_or("sync");
    let total = copy + flush;
    let rate = b
        .bytes
        .filter(|_| total > 0.0)
        .map(|n| {
            format!(
                " The device's rate for it is about {} ({} in {total:.1} s).",
                mbs(n as f64 / total),
                human(n)
            )
        })
        .unwrap_or_default();
    let cmd = b.command.as_deref().unwrap_or(&b.tool);
    let title = format!(
        "{cmd} took {copy:.2} s, the `{what_flush}` after it {flush:.1} s: the copy's time is the page cache's"
    );
    let why = format!(
        "{cmd} returned after {copy:.2} s because its writes went into the page cache; the \
         kernel wrote them to the device afterwards, and `{what_flush}` waited {flush:.1} s for \
         that. The copy really took about {total:.1} s.{rate} Time the copy and the flush \
         together (`time sh -c 'cp FILE DEST && sync'`), or use `dd oflag=direct` or \
         `conv=fsync` for the device's rate."
    );
    Some(
        cache_made(id, b, title, why)
            .evidence(b.from.clone(), format!("`{what_flush}` real {flush:.3} s")),
    )
}

pub(crate) struct PageCache;
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
        for (i, b) in sys.user_benchmarks.iter().enumerate() {
            if b.tool != "dd"
                && let Some(f) = copy_then_long_flush(self.id(), b)
            {
                out.push(f);
                continue;
            }
            if b.tool == "fio" {
                out.extend(buffered_fio(self.id(), b).or_else(|| ram_fast_fio(self.id(), b)));
                continue;
            }
            if b.tool == "pv" {
                out.extend(pipe_outran_device(self.id(), sys, b));
                continue;
            }
            if b.tool == "rsync" {
                out.extend(copy_outran_device(self.id(), sys, i, b));
                continue;
            }
            if b.tool == "bonnie++" {
                out.extend(bonnie_read_from_ram(self.id(), sys, b));
                continue;
            }
            if b.tool != "dd" {
                continue;
            }
            let Some(output) = b.output.as_deref() else {
                let rate = b.bytes_per_sec.unwrap_or(0.0);
                let bytes = b.bytes.unwrap_or(0);
                // Without the command it is unknown whether dd read or wrote, flushed or
                // not. But a run of at most 2 GiB faster than any SATA link carries (600
                // MB/s of data at 6 Gb/s; a SATA SSD or an NVMe drive on a Raspberry Pi's
                // one PCIe lane reads 400-550 MB/s for real) fits in the page cache of any
                // machine that could run it: Linux lets dirty pages reach vm.dirty_ratio
                // (20 % of free memory, mm/page-writeback.c) before a writer waits, and a
                // file read again comes from the cache.
                if b.command.is_none()
                    && bytes > 0
                    && bytes <= 2 << 30
                    && rate > commandless_ceiling(sys, bytes)
                {
                    out.push(
                        base(
                            self.id(),
                            b,
                            Verdict::Problem,
                            Severity::Notice,
                            format!("{} in {} at {}: small and fast enough to be RAM", human(bytes), secs(b), mbs(rate)),
                        )
                        .explain(
                            "Only dd's summary was pasted. A run this small and this fast fits in the page cache: \
                             a write without conv=fdatasync (GNU) or conv=fsync, or without oflag=direct, stops the \
                             clock while the data is still in RAM, and a file read back comes from RAM. Paste the full \
                             dd command line, and measure with iflag=direct / oflag=direct and at least twice the RAM.",
                        )
                        .confidence(Confidence::Low),
                    );
                    continue;
                }
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
            // A read: a re-read the page cache answered is cache-answered's
            // (cache_answered::cached_reread).
            if is_sink(output) {
                continue;
            }
            // A command pasted without its result measured nothing this check could judge.
            if b.bytes_per_sec.is_none() && b.bytes.is_none() {
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
            // hdparm -t in the same paste read the disk itself (O_DIRECT or a flushed
            // buffer cache, hdparm(8)): a write the disk took at over 1.5 times that read
            // did not reach the disk (no drive writes much faster than it reads).
            let disk_read = sys
                .user_benchmarks
                .iter()
                .filter(|o| o.tool.starts_with("hdparm -t"))
                .filter_map(|o| o.bytes_per_sec)
                .filter(|r| *r > 0.0)
                .fold(None, |m: Option<f64>, r| Some(m.map_or(r, |x| x.max(r))));
            let beyond_disk = disk_read.filter(|d| rate > 1.5 * d);
            let impossible = rate > 2.0e9 || beyond_disk.is_some();
            if is_device(output) && freebsd_raw(sys, output) && !impossible {
                out.push(
                    base(self.id(), b, Verdict::Pass, Severity::Info, "write to a raw FreeBSD disk device".into())
                        .explain("FreeBSD disk devices have no buffer cache (block devices were removed in 5.0), so dd's time is the disk's."),
                );
                continue;
            }
            // Far too slow for RAM: every write waited for the disk (a `sync` mount), so
            // the page cache inflated nothing (benchmark-small-blocks says what it cost).
            if buffered_write_waited_for_disk(b) {
                out.push(
                    base(self.id(), b, Verdict::Pass, Severity::Info, "write too slow to be the page cache's".into())
                        .explain(format!(
                            "{} wrote at {}, far below what copying into RAM runs at: the writes waited \
                             for the disk, so the figure is not inflated by the page cache.",
                            what(b),
                            mbs(rate)
                        )),
                );
                continue;
            }
            let bytes = b.bytes.unwrap_or(0);
            let ram = sys.ram_bytes.get();
            let (verdict, sev, conf, why) = if let Some(d) = beyond_disk {
                (
                    Verdict::Problem,
                    Severity::Warning,
                    Confidence::High,
                    format!(
                        "{} is {:.1} times the {} hdparm -t read from the disk in the same text: \
                         the disk cannot take writes that much faster than it reads, so the data \
                         went into RAM (the page cache), not onto the disk.",
                        mbs(rate),
                        rate / d,
                        mbs(d)
                    ),
                )
            } else if let Some(d) = disk_read.filter(|d| rate > 0.0 && rate <= 1.1 * d) {
                // No faster than hdparm -t read the disk: the page cache did not lift the
                // figure above the disk's own rate, so it is close to the disk's.
                (
                    Verdict::Pass,
                    Severity::Info,
                    Confidence::Low,
                    format!(
                        "{} written without a final flush, no faster than the {} hdparm -t read from the \
                         disk in the same text: the disk, not RAM, set the pace.",
                        mbs(rate),
                        mbs(d)
                    ),
                )
            } else if impossible {
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
            // RAM only ever makes an unflushed write look faster, never slower: a figure
            // that is slow anyway is an upper bound of the disk's rate, and the slowness the
            // user reports is real. Leading with "may measure RAM" there misleads; the
            // bound comes first, at notice level, and the RAM caveat after it.
            let slow = !impossible && rate > 0.0 && rate < SLOW_FOR_RAM;
            // Under SLOW_FOR_DISK, or a copy from a file (whose read the write cache does
            // not speed up), the cache cannot have hidden a slow disk: the figure already
            // says slow, or is the source's read. Only a run too short or too small to time
            // the device (dd's open and first allocation dominate) is still no measurement.
            let secs_run = b
                .seconds
                .unwrap_or_else(|| if rate > 0.0 { bytes as f64 / rate } else { 0.0 });
            let copy = b.input.as_deref().is_some_and(|i| !i.starts_with("/dev/"));
            let bound = slow
                && verdict == Verdict::Problem
                && (rate < SLOW_FOR_DISK || copy)
                && bytes >= COPY_MIN_BYTES
                && secs_run >= 1.0;
            let (verdict, sev) = if bound {
                (Verdict::Pass, Severity::Info)
            } else {
                (verdict, sev)
            };
            let (sev, title, lead) = if bound {
                (
                    sev,
                    format!(
                        "the disk writes at most {}: this write had no flush",
                        mbs(rate)
                    ),
                    format!(
                        "Without a flush dd counts data still in RAM as written, which only makes \
                         the figure higher, so the {} (slow already{}) is an upper bound of the \
                         disk's rate. ",
                        mbs(rate),
                        if copy {
                            ", or the source file's read"
                        } else {
                            ""
                        }
                    ),
                )
            } else if verdict == Verdict::Pass {
                (
                    sev,
                    if disk_read.is_some_and(|d| rate <= 1.1 * d) {
                        "write no faster than the disk reads: the disk set its pace".to_string()
                    } else {
                        "write test large enough that caching matters little".to_string()
                    },
                    String::new(),
                )
            } else if slow {
                (
                    Severity::Notice,
                    format!(
                        "the disk writes at most {}: this write had no flush",
                        mbs(rate)
                    ),
                    format!(
                        "The slowness is real: without a flush dd counts data still in RAM as \
                         written, which only makes the figure higher, so the disk itself writes \
                         at most {}. ",
                        mbs(rate)
                    ),
                )
            } else {
                (
                    sev,
                    format!("the {} write may measure RAM, not the disk", mbs(rate)),
                    String::new(),
                )
            };
            out.push(
                base(self.id(), b, verdict, sev, title)
                    .explain(format!(
                        "{lead}{why} Re-run with GNU dd conv=fdatasync (or oflag=direct), or on FreeBSD write to the raw device \
                         or follow dd with sync inside the timing (time sh -c 'dd ... && sync'), with a size at least twice the RAM."
                    ))
                    .confidence(conf),
            );
        }
        out
    }
}
