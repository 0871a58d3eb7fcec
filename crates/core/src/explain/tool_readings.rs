//! Observations on what a pasted test tool says of its own run: f3 reporting that the device
//! failed reads or writes (sources::f3::io_errors), an application's own message that a file
//! read failed with EIO or that the kernel lacks a file call (sources::app_file_error), and
//! a buffered fio read whose completion latency is a memory copy. References: f3read.c / f3write.c / libdevs.c (AltraMayor/f3),
//! fio(1) "direct", "iodepth", "ioengine".

use super::critic::{fio_device, fio_reports, typed_buffered};
use super::recognize::Recognized;
use crate::checks::{Confidence, Finding, Severity, Verdict};
use crate::sources;

/// Observation: f3 said the device failed a read or a write of its test files ("NOT fully
/// read due to "Input/output error"", "Write failure: Remote I/O error", f3probe's
/// unexpected read(2) errno): the test's I/O errors (read-errors), on the device f3probe
/// named, else on the system (f3read and f3write name a directory, not a device). One
/// finding per device.
pub(crate) fn f3_error_observations(rec: &Recognized) -> Vec<Finding> {
    let mut out: Vec<Finding> = Vec::new();
    let f3 = || rec.blocks.iter().filter(|b| b.tool.is(&sources::f3::SPEC));
    // The device an f3probe of the same paste named: f3write and f3read ran on its
    // filesystem (they name a directory).
    let probed = f3().find_map(|b| b.device.clone());
    for b in f3() {
        let errors = sources::f3::io_errors(&b.text);
        let Some(first) = errors.first() else {
            continue;
        };
        let dev = b
            .device
            .clone()
            .or_else(|| probed.clone())
            .unwrap_or_else(|| "system".to_string());
        if out.iter().any(|f| f.device == dev) {
            continue;
        }
        out.push(
            Finding::new(
                "read-errors",
                &dev,
                Verdict::Problem,
                Severity::Warning,
                "the pasted f3 run hit I/O errors: the device failed reads or writes of its test files"
                    .to_string(),
            )
            .explain(format!(
                "f3 reported {} I/O failure(s): the device (or the link or card reader to it) \
                 returned an error instead of data, which is not what a fake-capacity card \
                 does (it returns wrong data, counted as corrupted or overwritten sectors). \
                 The kernel log of the moment (`dmesg`) names the device and says whether a \
                 sector, the link or the drive failed; a card that fails only after minutes \
                 of writing may be overheating (f3write --max-write-rate).",
                errors.len()
            ))
            .evidence(
                format!("{} lines {}-{}", b.tool.display(), b.first, b.last),
                first.clone(),
            )
            .confidence(Confidence::Medium),
        );
    }
    out
}

/// Observation: diskscan (sources::diskscan) logged reads that failed or came back short
/// ("E: Error when reading at offset N ...", or the scan "bailing out" at a fatal error):
/// the scan's I/O errors (read-errors), on the disk its log or command names, else on the
/// system. Whether the drive called them uncorrectable is media-errors' (a surface scan of
/// the disk, facts::pasted::drive_tools).
pub(crate) fn diskscan_error_observations(rec: &Recognized) -> Vec<Finding> {
    let mut out: Vec<Finding> = Vec::new();
    for b in rec
        .blocks
        .iter()
        .filter(|b| b.tool.is(&sources::diskscan::SPEC))
    {
        let Some(run) = sources::diskscan::parse(&b.text) else {
            continue;
        };
        let Some(first) = run.read_errors.first().cloned().or_else(|| {
            run.fatal
                .then(|| "Fatal error occurred, bailing out.".to_string())
        }) else {
            continue;
        };
        let dev = match (run.device.as_deref(), b.device.as_deref()) {
            (Some(d), _) => d.trim_start_matches("/dev/").to_string(),
            (None, Some(d)) => d.to_string(),
            (None, None) => "system".to_string(),
        };
        let stopped = if run.fatal {
            " and stopped the scan there (\"bailing out\")"
        } else {
            ""
        };
        let f = Finding::new(
            "read-errors",
            &dev,
            Verdict::Problem,
            Severity::Warning,
            format!("the pasted diskscan run hit read errors{stopped}"),
        );
        if out.iter().any(|o| o.device == dev) {
            continue;
        }
        out.push(
            f.explain(format!(
                "diskscan logged {} read(s) that failed or came back incomplete{stopped}: the \
                 disk could not return data at those offsets. The kernel log of the moment \
                 (`dmesg`) says whether the drive reported an unreadable sector (UNC, Medium \
                 Error) or the link failed; the SMART pending and reallocated sector counts \
                 say how many more there are. Copy what matters off the disk first.",
                run.read_errors.len().max(1)
            ))
            .evidence(
                format!("{} lines {}-{}", b.tool.display(), b.first, b.last),
                first,
            )
            .confidence(Confidence::Medium),
        );
    }
    out
}

/// Observation: an application said a read or write of a file failed with EIO
/// (sources::app_file_error: PostgreSQL's "could not read block N in file ...", cp's "error
/// reading", rsync's "read errors mapping", tar's "Read error at byte", any program's
/// error(3) line "PROG: FILE: Input/output error", dd's about a file): the device under the
/// filesystem failed the request (read-errors, on the system: the message names a file, not
/// a disk). PostgreSQL's data flush failing with ENOSYS is the kernel interface missing
/// sync_file_range(2), which only an emulated kernel (WSL1's translation layer) lacks:
/// virtual-or-bridged-device. One finding per kind.
pub(crate) fn app_file_error_observations(rec: &Recognized) -> Vec<Finding> {
    let mut out: Vec<Finding> = Vec::new();
    // dd's own messages about a file ("dd: closing output file 'F': Input/output error")
    // sit inside its run's block; those about a device node are sources::dd's
    // (failed_io_device: media-errors on that disk).
    let blocks = rec
        .blocks
        .iter()
        .filter(|b| b.tool.is(&sources::app_file_error::SPEC) || b.tool.is(&sources::dd::SPEC));
    for b in blocks {
        let at = format!("{} lines {}-{}", b.tool.display(), b.first, b.last);
        let in_dd = b.tool.is(&sources::dd::SPEC);
        for e in sources::app_file_error::parse(&b.text) {
            if in_dd && (e.program != "dd" || sources::app_file_error::names_device_node(&e)) {
                continue;
            }
            let id = if e.is_eio() {
                "read-errors"
            } else if e.is_enosys() && e.program == "postgresql" {
                "virtual-or-bridged-device"
            } else {
                continue;
            };
            if out.iter().any(|f| f.check == id) {
                continue;
            }
            let file = e.file.as_deref().unwrap_or("a file");
            let f = if e.is_eio() {
                let what = match e.op {
                    sources::app_file_error::Op::Read => "reading",
                    sources::app_file_error::Op::Write => "writing",
                    sources::app_file_error::Op::Sync => "flushing",
                };
                Finding::new(
                    id,
                    "system",
                    Verdict::Problem,
                    Severity::Warning,
                    format!("{} got an I/O error (EIO) {what} {file}", e.program),
                )
                .explain(
                    "EIO on a file is the kernel passing on the device's failure: the disk (or the link or bridge to it) could not return or store that data even after its retries. The kernel log of the moment (`dmesg`) names the device and the sector; the SMART pending and reallocated sector counts say how many more there are. Copy what matters off the disk first (for a database, from a backup or a replica rather than by reading the failing files again)."
                        .to_string(),
                )
            } else {
                Finding::new(
                    id,
                    "system",
                    Verdict::Problem,
                    Severity::Warning,
                    "PostgreSQL's data flush failed with ENOSYS: the kernel layer lacks \
                     sync_file_range"
                        .to_string(),
                )
                .explain(
                    "\"Function not implemented\" (ENOSYS) is not a disk's answer: the call never \
                     reached one. PostgreSQL flushes written data with sync_file_range(2), which \
                     every Linux kernel since 2.6.17 has; WSL1's translation layer does not, so \
                     the server runs on an emulated kernel whose storage is the Windows host's \
                     filesystem. Run PostgreSQL under WSL2 (a real Linux kernel) or natively; later \
                     PostgreSQL minor releases also stop calling it after its first ENOSYS."
                        .to_string(),
                )
            };
            out.push(
                f.evidence(at.clone(), e.line.clone())
                    .confidence(Confidence::Medium),
            );
        }
    }
    out
}

/// A block I/O that took this long stalled, whatever the device (checks/latency_outliers.rs
/// STALL_MAX_NS for diskdoc's own runs).
const BPF_STALL_NS: u64 = 1_000_000_000;

/// Observation: a BPF block trace shows I/Os that took a second or more
/// (sources::biolatency: counts in histogram buckets starting at 1 s or later;
/// sources::biosnoop: rows with LAT(ms) of 1000 or more). These are the block layer's issue
/// to completion times of real I/O, the same stalls latency-outliers reads in diskdoc's own
/// runs. A Notice, not more: the trace says how long, not why (a drive's retries, an SMR
/// band rewrite, a queue behind other I/O), and some old kernels' timestamps put bogus
/// I/Os in the top buckets. A histogram or trace without such I/Os says nothing.
pub(crate) fn bpf_block_latency_observations(rec: &Recognized) -> Vec<Finding> {
    let mut out: Vec<Finding> = Vec::new();
    for b in &rec.blocks {
        let at = format!("{} lines {}-{}", b.tool.display(), b.first, b.last);
        // (device, I/Os of a second or more, the slowest in ms, the line to cite)
        let mut slow: Vec<(String, u64, f64, String)> = Vec::new();
        if b.tool.is(&sources::biolatency::SPEC) {
            for h in sources::biolatency::parse(&b.text) {
                let n = h.count_from(BPF_STALL_NS);
                if n == 0 {
                    continue;
                }
                let dev = h.disk.clone().unwrap_or_else(|| "system".to_string());
                let ms = h.slowest_ns().unwrap_or(0) as f64 / 1e6;
                slow.push((
                    dev,
                    n,
                    ms,
                    format!("{n} I/O(s) in buckets of {ms:.0} ms or more"),
                ));
            }
        } else if b.tool.is(&sources::biosnoop::SPEC) {
            let ios = sources::biosnoop::parse(&b.text);
            let stall_ms = BPF_STALL_NS as f64 / 1e6;
            for io in ios.iter().filter(|io| io.latency_ms >= stall_ms) {
                let n = ios
                    .iter()
                    .filter(|x| x.disk == io.disk && x.latency_ms >= stall_ms)
                    .count() as u64;
                if slow.iter().all(|s| s.0 != io.disk) {
                    let worst = ios
                        .iter()
                        .filter(|x| x.disk == io.disk)
                        .map(|x| x.latency_ms)
                        .fold(0.0, f64::max);
                    slow.push((io.disk.clone(), n, worst, io.line.clone()));
                }
            }
        } else {
            continue;
        }
        for (dev, n, ms, line) in slow {
            if out.iter().any(|f| f.device == dev) {
                continue;
            }
            out.push(
                Finding::new(
                    "latency-outliers",
                    &dev,
                    Verdict::Problem,
                    Severity::Notice,
                    format!("{dev}: {n} block I/O(s) took a second or more (up to {ms:.0} ms)"),
                )
                .explain(
                    "The BPF trace timed each I/O from its issue to the device to its \
                     completion: some took over a second, where a hard disk seeks in 8-15 ms and \
                     an SSD answers in well under one. Delays this long come from the drive \
                     retrying sectors it can barely read (check SMART pending and reallocated \
                     sectors), from a shingled (SMR) drive rewriting a band, from a device or \
                     controller that stopped answering for a while (the kernel log of the \
                     moment shows resets and timeouts), or from a long queue of other I/O ahead."
                        .to_string(),
                )
                .evidence(at.clone(), line)
                .confidence(Confidence::Medium),
            );
        }
    }
    out
}

/// A mean completion latency below this is a memory copy: no storage device answers a read
/// this fast on average (a direct 4 KiB read costs tens of microseconds on NAND, about ten
/// on the fastest low-latency flash), so the page cache served the reads.
const RAM_CLAT_US: f64 = 10.0;

/// Observation: a fio read that ran buffered (no direct=1: the JSON options say direct=0,
/// or the typed command line sets none, fio(1) "direct=bool ... Default: false") with a
/// mean completion latency of a few microseconds: the page cache answered, filled by the
/// kernel's read-ahead (mm/readahead.c), so the IOPS and bandwidth are the cache's and
/// read-ahead's, not the device's at the block size asked. On a block device that is
/// benchmark-buffered-device's, on a file cache-answered's. A synchronous engine (sync,
/// psync, vsync, pvsync) also ignores iodepth (fio(1): "increasing iodepth beyond 1 will
/// not affect synchronous ioengines").
pub(crate) fn fio_buffered_read_observations(rec: &Recognized) -> Vec<Finding> {
    let mut out = Vec::new();
    for (b, rep) in fio_reports(rec) {
        let typed = b.command.as_deref().filter(|c| c.contains("fio"));
        let by_command = typed_buffered(typed, rep.jobs.len() == 1);
        for job in &rep.jobs {
            if !(job.direct == Some(false) || (job.direct.is_none() && by_command)) {
                continue;
            }
            let Some(d) = job.results.iter().find(|d| {
                d.dir == "read" && d.clat_mean_us.is_some_and(|m| m > 0.0 && m < RAM_CLAT_US)
            }) else {
                continue;
            };
            let mean = d.clat_mean_us.unwrap_or(0.0);
            let target = fio_device(&rep, job, typed).unwrap_or_default();
            let on_device = job
                .filename
                .as_deref()
                .or_else(|| typed.and_then(|c| sources::fio::command_option(c, "filename")))
                .is_some_and(|f| f.starts_with("/dev/"));
            let (id, dev) = if on_device {
                ("benchmark-buffered-device", target.as_str())
            } else {
                ("cache-answered", "system")
            };
            let sync_engine = job
                .ioengine
                .as_deref()
                .is_some_and(|e| matches!(e, "sync" | "psync" | "vsync" | "pvsync"));
            let depth = match job.iodepth {
                Some(n) if n > 1 && sync_engine => format!(
                    " Its iodepth={n} did nothing either: the {} engine issues one request \
                     at a time.",
                    job.ioengine.as_deref().unwrap_or("sync")
                ),
                _ => String::new(),
            };
            out.push(
                Finding::new(
                    id,
                    if dev.is_empty() { "system" } else { dev },
                    Verdict::Problem,
                    Severity::Notice,
                    format!(
                        "fio job {} read through the page cache: {mean:.1} us per read is RAM's",
                        job.name
                    ),
                )
                .explain(format!(
                    "The job ran without direct=1, so its reads went through the page cache, \
                     and they completed in {mean:.1} us on average, faster than any device \
                     answers: the kernel's read-ahead fetched the data in large requests and \
                     fio copied it from memory. The figures are read-ahead's and RAM's, not the \
                     device's at the block size asked.{depth} Re-run with --direct=1 and an \
                     asynchronous engine (--ioengine=libaio or io_uring) for the device's own \
                     numbers."
                ))
                .evidence(
                    format!("{} lines {}-{}", b.tool.display(), b.first, b.last),
                    format!("{} clat mean {mean:.2} us, no direct=1", d.dir),
                )
                .confidence(Confidence::Medium),
            );
        }
    }
    out
}

/// Observation: a pasted fio run whose figures went through a paravirtual disk (fio's
/// "Disk stats" lists the devices the jobs' I/O reached, diskutil.c init_disk_util; or the
/// job's target is the device node): virtio-blk's vdX, Xen's xvdX, FreeBSD's vtbdX
/// (checks::common::is_virtual_bus). No drive of the guest answers such a disk: virtio 1.1
/// section 5.2 hands each request to the host's device model, so the rate and latency
/// measured are those of the host's storage under the disk image (its drives, cache mode,
/// image format, throttling, a network volume under it), not of a drive. Notice: it changes
/// how the figure is read, and the fixes are on the host. The per-disk check says the same
/// at information level when a disk listing names the device without a figure.
pub(crate) fn fio_virtual_disk_observations(rec: &Recognized) -> Vec<Finding> {
    let mut out: Vec<Finding> = Vec::new();
    for (b, rep) in fio_reports(rec) {
        let typed = b.command.as_deref().filter(|c| c.contains("fio"));
        let rates: Vec<f64> = rep
            .jobs
            .iter()
            .flat_map(|j| j.results.iter())
            .filter_map(|d| d.bytes_per_sec)
            .filter(|r| r.is_finite() && *r > 0.0)
            .collect();
        let Some(best) = rates.iter().copied().reduce(f64::max) else {
            continue;
        };
        let targets = rep
            .jobs
            .iter()
            .filter(|j| j.error.is_none())
            .filter_map(|j| fio_device(&rep, j, typed))
            .filter(|t| !t.contains('/'));
        let mut devices: Vec<String> = rep.disk_stats.iter().map(|s| s.name.clone()).collect();
        devices.extend(targets);
        for dev in devices {
            let node = crate::facts::DiskFacts::new(&dev, &format!("/dev/{dev}"));
            if !crate::checks::common::is_virtual_bus(&node) || out.iter().any(|f| f.device == dev)
            {
                continue;
            }
            out.push(
                Finding::new(
                    crate::checks::virtual_or_bridged_device::ID,
                    &dev,
                    Verdict::Problem,
                    Severity::Notice,
                    format!(
                        "{dev}: the pasted fio figures are a paravirtual disk's: they measure \
                         the host's storage"
                    ),
                )
                .explain(format!(
                    "fio's I/O went to {dev}, a paravirtual disk (virtio or similar): the \
                     hypervisor hands every request to its own model of the device, which \
                     reads and writes a disk image, a volume or a network store on the host. \
                     The {:.1} MB/s and the latencies measured are therefore those of the \
                     host's storage and of the path to it (its drives, the disk's cache and \
                     aio modes, the image format, throttling limits, other guests, or the \
                     network under a Ceph, iSCSI or cloud volume), not of a drive in this \
                     machine. Controller, link, NCQ and SMART checks do not apply inside \
                     the guest; compare with the same test on the host or on another volume \
                     type.",
                    best / 1e6
                ))
                .evidence(
                    format!("{} lines {}-{}", b.tool.display(), b.first, b.last),
                    format!("fio I/O on {dev}, best {:.1} MB/s", best / 1e6),
                )
                .confidence(Confidence::Medium),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests;

/// Observation: the same read of a device, typed the same way twice or more, whose
/// checksums differ (sources::checksum::unstable_reads): the device did not return the same
/// bytes for the same blocks. Nothing wrote them in between (the command reads), so the data
/// changed on its way out: the medium (flash cells past what the controller's ECC corrects,
/// returned without an error), the device's controller, its link or bridge, or the host's
/// RAM. media-errors, a warning, on the disk read; one finding per device.
pub(crate) fn checksum_observations(
    lines: &[crate::pasted::Line],
    platform: crate::evidence::Platform,
) -> Vec<Finding> {
    let mut out: Vec<Finding> = Vec::new();
    let mut srcs: Vec<usize> = lines.iter().map(|l| l.src).collect();
    srcs.dedup();
    for src in srcs {
        let own: Vec<&crate::pasted::Line> = lines.iter().filter(|l| l.src == src).collect();
        let texts: Vec<&str> = own.iter().map(|l| l.text.as_str()).collect();
        for u in sources::checksum::unstable_reads(&texts) {
            let node = u.device.trim_start_matches("/dev/");
            let whole = crate::facts::device_names::whole_disk(node);
            let disk = if whole.is_empty() {
                node.to_string()
            } else {
                whole
            };
            if out.iter().any(|f| f.device == disk) {
                continue;
            }
            let mut f = Finding::new(
                "media-errors",
                &disk,
                Verdict::Problem,
                Severity::Warning,
                format!(
                    "{}: the same read gave {} different checksums: the device returns unstable data",
                    u.device,
                    u.digests.len()
                ),
            )
            .explain(format!(
                "`{}` was run {} times and printed {} different checksums. Reading a device \
                 changes nothing on it, so the same blocks must hash the same every time; here \
                 the data changed on its way out, with no I/O error reported. The usual cause \
                 is the medium itself: flash cells (an SD card, an e.MMC, a USB stick, an SSD) \
                 that no longer hold their charge well enough for the controller's error \
                 correction, which then returns wrong data instead of an error. A failing \
                 controller or bridge, a bad cable, or the host's RAM can do the same; the same \
                 test on another device of the same machine tells them apart. Treat the data on \
                 it as suspect.",
                u.command,
                u.lines.len(),
                u.digests.len()
            ))
            .confidence(Confidence::Medium);
            for i in u.lines.iter().take(4) {
                if let Some(l) = own.get(*i) {
                    f = f.evidence(
                        format!("pasted:checksum line {}", l.first),
                        l.text.trim().to_string(),
                    );
                }
            }
            if platform != crate::evidence::Platform::Unknown {
                f = f.fix(crate::checks::Fix {
                    platform,
                    summary: "copy off what matters, then replace the device".into(),
                    steps: vec![
                        "Copy the data you need off it now and verify the copy against a \
                         second read (or a backup)"
                            .into(),
                        format!(
                            "Repeat the same checksum on another disk of this machine: stable \
                             sums there point at {}, changing sums everywhere at the host (test \
                             its RAM)",
                            u.device
                        ),
                        "Replace the card, stick or drive; a flash device that returns wrong \
                         data without errors is worn out"
                            .into(),
                    ],
                    risk: "none".into(),
                });
            }
            out.push(f);
        }
    }
    out
}
