//! `read-errors`: a test hit an I/O error (EIO, device gone). The offset is where the disk
//! failed to return data: the measurement stopped there instead of retrying the area.

use super::measured_common::{CiteResult, per_disk, problem, source};
use super::{Check, CheckInput, Confidence, Finding, Fix, Severity, Verdict};
use crate::evidence::Platform;
use crate::facts::SystemFacts;
use crate::sources::{ask, spec::Ask};

pub(crate) struct ReadErrors;

const DEVICE_ERRORS: &[&str] = &["EIO", "ENODEV", "ENXIO", "ENOMEDIUM", "EBADF"];

impl Check for ReadErrors {
    fn input(&self) -> CheckInput {
        CheckInput::Measured
    }
    fn id(&self) -> &'static str {
        "read-errors"
    }
    fn summary(&self) -> &'static str {
        "A read/write test hit an I/O error (the offset is reported; the test stopped safely)"
    }
    fn run(&self, sys: &SystemFacts) -> Vec<Finding> {
        let mut out = per_disk_results(self, sys);
        out.extend(pool_io_failures(sys));
        out.extend(btrfs_scrub_failures(sys));
        out.extend(counted_failed_io(sys));
        let kernel: Vec<Finding> = kernel_failed_requests(sys)
            .into_iter()
            .filter(|f| !out.iter().any(|o| o.device == f.device && o.is_problem()))
            .collect();
        out.extend(kernel);
        out
    }
}

/// The disks whose only trouble in the kernel log is requests it failed without a cause
/// (media_errors::generic_io_errors_only): a problem of the I/O, said here, because no line
/// names the medium, the link or the drive. The block layer's line is printed for every
/// failed request (blk-core.c blk_print_req_error); the buffer cache's "lost async page
/// write" (fs/buffer.c end_buffer_async_write) means written data never reached the disk.
fn kernel_failed_requests(sys: &SystemFacts) -> Vec<Finding> {
    let mut out = Vec::new();
    // A loop device is out of the drive checks' scope (common::in_scope), but when a pasted
    // log names one its failed requests are its backing file's, said here. Only a loop
    // device known by its name alone (class unknown: a paste's kernel lines): a live run
    // reads the class from sysfs, and there a loop device's old errors in the kernel ring
    // are test images and detached files, no question the user asked. (An optical drive
    // stays out: an empty tray's probes fail the same way, "Buffer I/O error on dev sr0,
    // logical block 0", with nothing wrong.)
    let disks = sys.disks.iter().filter(|d| {
        crate::checks::common::in_scope(d)
            || (d.class.get().is_none() && crate::sources::kernel_log::is_loop_device(&d.name))
    });
    for d in disks {
        let lines = crate::checks::media_errors::generic_io_errors_only(sys, d);
        if lines.is_empty() {
            continue;
        }
        let writes = lines
            .iter()
            .any(|e| e.line.to_ascii_lowercase().contains("write"));
        let mut f = Finding::new(
            "read-errors",
            &d.name,
            Verdict::Problem,
            Severity::Warning,
            format!(
                "{}: the kernel failed {} I/O request line(s) without naming a cause",
                d.name,
                lines.len()
            ),
        )
        .explain(format!(
            "{}: {} kernel line(s) report I/O that failed{}, and none carries what would say \
             why: no sense key (MEDIUM ERROR), no ATA error register (UNC), no NVMe media \
             status, no timeout or link reset. The request failed somewhere between the \
             program and the medium: the drive refusing it, the controller or its DMA mapping \
             (IOMMU), a bridge, or for a guest the passed-through device or the host. It is \
             not evidence of bad sectors: the lines printed just before these in the full log \
             (`dmesg`), and the drive's own counters (`{}`), tell which.",
            d.name,
            lines.len(),
            if writes {
                " (written data among it never reached the disk)"
            } else {
                ""
            },
            ask(Ask::SmartReport, &d.dev_path)
        ))
        .confidence(Confidence::Medium);
        // A loop device's requests are reads and writes of its backing file
        // (sources::kernel_log::is_loop_device): the file and its filesystem failed them.
        if crate::sources::kernel_log::is_loop_device(&d.name) {
            f = f
                .explain(format!(
                    "{}: {} kernel line(s) report requests of the loop device that failed{}. A \
                     loop device's blocks are a file on another filesystem: the loop driver \
                     turns each request into a read or write of that file, so the file's \
                     filesystem failed them (full, remounted read-only, or itself on a disk \
                     that failed), not a medium of {}'s own.",
                    d.name,
                    lines.len(),
                    if writes {
                        " (written data among it never reached the backing file)"
                    } else {
                        ""
                    },
                    d.name
                ))
                .fix(Fix {
                    platform: Platform::Linux,
                    summary: "check the backing file and the filesystem it is on".to_string(),
                    steps: vec![
                        format!("`losetup -l /dev/{}`: the backing file", d.name),
                        "`df -h` and `df -i` of the filesystem holding that file (btrfs: `btrfs \
                         filesystem usage MOUNTPOINT`): a full filesystem fails the loop \
                         device's writes"
                            .to_string(),
                        "`dmesg` around the errors for that filesystem's own disk: its I/O \
                         errors or a read-only remount"
                            .to_string(),
                    ],
                    risk: "none: these only read".to_string(),
                });
        }
        for e in lines.iter().take(5) {
            f = f.evidence(e.from.clone(), e.line.clone());
        }
        out.push(f);
    }
    out
}

/// Per-device counts of failed requests that name no sector, as read-errors:
/// - the member devices btrfs saw fail bios (`btrfs device stats`: write_io_errs,
///   read_io_errs, flush_io_errs, fs/btrfs/volumes.h BTRFS_DEV_STAT_*_ERRS, counted in
///   btrfs_end_bio when the block layer completes a bio with an error): the device or its
///   path did not complete those requests (media-errors keeps devices that also returned
///   corrupted blocks);
/// - ZFS vdevs on which only writes failed ([`VdevErrors::writes_only_failed`]): zpool
///   status's WRITE column counts "I/O errors that occurred while issuing a write request"
///   (zpool-status(8), zpoolconcepts(7)); with no failed read and no checksum error beside
///   it nothing shows a bad sector (a drive remaps one when it is written).
fn counted_failed_io(sys: &SystemFacts) -> Vec<Finding> {
    let mut out = Vec::new();
    for d in crate::checks::common::disks(sys) {
        for v in &d.vdev_errors {
            let n = |x: Option<u64>| x.unwrap_or(0);
            let smart = ask(Ask::SmartReport, &d.dev_path);
            let (title, text) = if v.is_btrfs() && v.io_failed() {
                (
                    format!(
                        "{}: btrfs counted {} failed read(s) and {} failed write(s) or flush(es)",
                        v.vdev,
                        n(v.read_errors),
                        n(v.write_errors)
                    ),
                    format!(
                        "btrfs's counters of {} (since the last `btrfs device stats -z`) count \
                         bios the block layer completed with an error: the device, its cable, \
                         controller or power did not complete them. They name no sector: the \
                         kernel log of the moment (`dmesg`) and the drive's own counters \
                         (`{smart}`) say whether the medium or the path failed.",
                        v.vdev
                    ),
                )
            } else if !v.is_btrfs() && v.writes_only_failed() {
                (
                    format!(
                        "{}: ZFS counted {} failed write(s) and no failed read or checksum \
                         error",
                        v.vdev,
                        n(v.write_errors)
                    ),
                    format!(
                        "ZFS's WRITE count of {} is the writes the device did not complete. A \
                         drive that meets a bad sector on a write remaps it to a spare, so \
                         failed writes with no failed read and no checksum error point at the \
                         device or its path (cable, controller, power, a reset), not at the \
                         medium. The kernel log of the moment (`dmesg`) names the cause; the \
                         drive's own counters (`{smart}`) show whether it logged the errors. \
                         After fixing it, `zpool clear` resets the count and a scrub reads \
                         everything back.",
                        v.vdev
                    ),
                )
            } else {
                continue;
            };
            let f = Finding::new(
                "read-errors",
                &d.name,
                Verdict::Problem,
                Severity::Warning,
                title,
            )
            .explain(text)
            .confidence(Confidence::Medium)
            .evidence(v.from.clone(), v.line.clone());
            out.push(f);
        }
    }
    out
}

/// ZFS pools whose I/O failed with no member to blame (ArrayActivity::io_failure,
/// sources::zpool::unattributed_io_failure): ZFS reports the failed reads and writes at the
/// pool (zpool-status(8), ZFS-8000-HC/-JQ), and what it could not write or read back is in
/// its error log, but no leaf counted an error or left ONLINE, so neither a disk's media
/// nor a named device is shown. File vdevs have no device of their own: the filesystem
/// holding them failed the pool's I/O (it filled up, or its own device failed).
fn pool_io_failures(sys: &SystemFacts) -> Vec<Finding> {
    let mut out = Vec::new();
    for (a, line) in failed_arrays(sys, "zfs") {
        let files = !a.members.is_empty() && a.members.iter().all(|m| m.starts_with('/'));
        let below = if files {
            "Its vdevs are files: the filesystem that holds them failed the pool's reads or \
             writes (it ran out of space, or its own disk or mount failed), or the files were \
             changed under the pool."
        } else {
            "The kernel log of the moment says which device or path failed (a controller \
             reset, a disk that dropped off, a USB or iSCSI link)."
        };
        let mut f = Finding::new(
            "read-errors",
            &a.name,
            Verdict::Problem,
            Severity::Warning,
            format!(
                "{}: the pool's I/O failed (ZFS faulted its devices)",
                a.name
            ),
        )
        .explain(format!(
            "\"{line}\": ZFS could not complete reads or writes of {} and stopped or failed \
             the pool's I/O (its failmode), yet no member device counts an error or left \
             ONLINE, so nothing here points at a disk's media. {below}{}",
            a.name,
            if a.data_errors.is_some() {
                " The blocks in the error log are what those failed I/Os left unwritten or \
                 unread."
            } else {
                ""
            }
        ))
        .confidence(Confidence::Medium)
        .impact(0.5);
        f = a
            .from
            .iter()
            .fold(f, |f, k| f.evidence(k.clone(), line.clone()));
        // A paste whose OS is unknown gets no commands.
        if matches!(sys.platform, Platform::Freebsd | Platform::Linux) {
            f = f.fix(Fix {
                platform: sys.platform,
                summary: "find what failed under the pool, then clear it".to_string(),
                steps: vec![
                    if sys.platform == Platform::Freebsd {
                        "`dmesg | tail -50` and /var/log/messages around the failure".to_string()
                    } else {
                        "`dmesg | tail -50` (or `journalctl -k`) around the failure".to_string()
                    },
                    if files {
                        "`df -h` of the filesystem holding the vdev files: space and health"
                            .to_string()
                    } else {
                        "Check the devices' cables, controller and power".to_string()
                    },
                    format!(
                        "`zpool clear {}` once the cause is fixed, then `zpool scrub {}`",
                        a.name, a.name
                    ),
                ],
                risk: "clearing a pool whose devices still fail suspends it again".to_string(),
            });
        }
        out.push(f);
    }
    out
}

/// btrfs filesystems whose scrub counted blocks a device failed to return (its read and
/// super errors, sources::btrfs_scrub): the block layer failed those reads, and the
/// scrub's report does not say why (a medium error, a link reset, a device that dropped
/// out mid-scrub). `btrfs device stats` names the member; the kernel log of the scrub says
/// which of those it was.
fn btrfs_scrub_failures(sys: &SystemFacts) -> Vec<Finding> {
    let mut out = Vec::new();
    for (a, line) in failed_arrays(sys, "btrfs") {
        let mut f = Finding::new(
            "read-errors",
            &a.name,
            Verdict::Problem,
            Severity::Warning,
            format!("{}: btrfs's scrub could not read blocks", a.name),
        )
        .explain(format!(
            "\"{line}\": the scrub asked a member device for blocks of {} and the device \
             returned an error instead of data. The report does not say whether its medium, \
             its cable or port, or the device dropping out failed the reads; uncorrectable \
             ones had no good copy left on another device.",
            a.name
        ))
        .confidence(Confidence::Medium)
        .impact(0.5);
        f = a
            .from
            .iter()
            .fold(f, |f, k| f.evidence(k.clone(), line.clone()));
        if sys.platform != Platform::Freebsd {
            f = f.fix(Fix {
                platform: Platform::Linux,
                summary: "find the member that failed the reads, and why".to_string(),
                steps: vec![
                    "`btrfs device stats MOUNTPOINT`: read_io_errs, write_io_errs and \
                     flush_io_errs name the member"
                        .to_string(),
                    "`dmesg | grep -iE 'btrfs|ata|sd[a-z]|nvme'` around the scrub: a medium \
                     error, a link reset or a device that went away"
                        .to_string(),
                    format!(
                        "That member's SMART report (`{}`)",
                        crate::sources::ask_bare(Ask::SmartExtended)
                    ),
                ],
                risk: "none: these only read".to_string(),
            });
        }
        out.push(f);
    }
    out
}

/// The arrays of `kind` whose I/O failed (ArrayActivity::io_failure), with that line.
fn failed_arrays<'a>(
    sys: &'a SystemFacts,
    kind: &'a str,
) -> impl Iterator<Item = (&'a crate::facts::ArrayActivity, &'a String)> + 'a {
    sys.arrays
        .value()
        .into_iter()
        .flatten()
        .filter(move |a| a.kind == kind)
        .filter_map(|a| a.io_failure.as_ref().map(|l| (a, l)))
}

/// The tests' own I/O errors, per disk.
fn per_disk_results(check: &ReadErrors, sys: &SystemFacts) -> Vec<Finding> {
    per_disk(sys, |disk, dev, rs| {
        let bad: Vec<_> = rs
            .iter()
            .filter(|r| {
                r.error
                    .as_ref()
                    .is_some_and(|e| DEVICE_ERRORS.contains(&e.kind.as_str()))
            })
            .collect();
        if let Some(r) = bad.first() {
            let e = r.error.as_ref()?;
            let gone = e.kind != "EIO";
            // A scratch-file write's offset is a position in diskdoc's own file, not on
            // the disk (the bench names such targets "DIR (unnamed scratch file)").
            let scratch_dir = r.target.strip_suffix(" (unnamed scratch file)");
            let writing = r.test.is_write();
            let title = match (scratch_dir, gone) {
                (Some(dir), false) => format!(
                    "{dev}: a write to the filesystem on {dir} failed with an I/O error \
                         (at byte {} of diskdoc's scratch file)",
                    e.offset_bytes
                ),
                (Some(dir), true) => format!(
                    "{dev} disappeared during the write test on {dir} ({})",
                    e.kind
                ),
                (None, true) => format!(
                    "{dev} disappeared during the test ({} at byte {})",
                    e.kind, e.offset_bytes
                ),
                (None, false) => format!(
                    "{dev} returned an I/O error at byte {} (sector {} of 512 B)",
                    e.offset_bytes,
                    e.offset_bytes / 512
                ),
            };
            let explanation = if gone {
                format!(
                    "The device stopped answering ({}: {}) while diskdoc was {} it. A disk that drops \
                         off the bus under load points at the cable, the power supply, a USB bridge or a dying \
                         drive; the kernel log shows the reset. diskdoc stopped the test at once.",
                    e.kind,
                    e.message,
                    if writing { "writing to" } else { "reading" }
                )
            } else if let Some(dir) = scratch_dir {
                format!(
                    "Writing diskdoc's scratch file on {dir} failed with EIO: the device under the \
                         filesystem failed the write or went away, or the filesystem shut itself down \
                         after an earlier error (the kernel log says which). diskdoc stopped the write \
                         tests there; the results before it were measured while it still worked."
                )
            } else if writing {
                format!(
                    "Writing {} failed with EIO at byte {}: the device refused the write or went \
                         away. diskdoc stopped writing there; the results before it were measured while \
                         it still worked. Check the kernel log and the SMART attributes.",
                    r.target, e.offset_bytes
                )
            } else {
                format!(
                    "Reading {} failed with EIO at byte {}: the drive could not return that data even \
                         after its internal retries, which are slow (often seconds each) and make the whole \
                         disk feel slow. diskdoc stopped reading this disk there so as not to stress it further. \
                         Back up what matters now, then read the SMART attributes (reallocated and pending \
                         sectors).",
                    r.target, e.offset_bytes
                )
            };
            let mut f = problem(check.id(), dev, Severity::Critical, title, explanation)
                .evidence(
                    source(r),
                    format!(
                        "{} {}: {} at byte {}: {}",
                        r.test, r.label, e.kind, e.offset_bytes, e.message
                    ),
                )
                .impact(1.0);
            for p in [Platform::Linux, Platform::Freebsd] {
                let steps = match p {
                    Platform::Linux => vec![
                        ask(Ask::SmartReport, &format!("/dev/{disk}")),
                        "dmesg | tail -50".to_string(),
                    ],
                    _ => vec![
                        ask(Ask::SmartReport, &format!("/dev/{disk}")),
                        "dmesg | tail -50".to_string(),
                    ],
                };
                f = f.fix(Fix {
                    platform: p,
                    summary:
                        "Back up, then check the drive's SMART error counters and the kernel log"
                            .into(),
                    steps,
                    risk:
                        "Reading a failing drive can make it worse: copy the important data first."
                            .into(),
                });
            }
            Some(f)
        } else if let Some(r) = rs
            .iter()
            .find(|r| r.error.is_some() && r.ios == 0)
            .filter(|_| rs.iter().all(|r| r.ios == 0))
        {
            // Every test failed at its start (EACCES, EPERM, EROFS, EISDIR...): nothing was
            // measured, so "no I/O errors" would read as a clean bill of health.
            let e = r.error.as_ref()?;
            let f = Finding::new(
                check.id(),
                dev,
                Verdict::Unknown,
                Severity::Info,
                format!(
                    "{dev}: no test could run ({}), so nothing was measured",
                    e.kind
                ),
            )
            .explain(format!(
                "Each of the {} test(s) failed before its first I/O; the first said: {}. \
                     This is about access to the device or directory, not about the disk.",
                rs.len(),
                e.message
            ))
            .confidence(Confidence::High)
            .cite(r);
            Some(f)
        } else if rs.iter().any(|r| !r.test.is_write()) {
            let bytes: u64 = rs.iter().map(|r| r.bytes).sum();
            let f = Finding::new(
                check.id(),
                dev,
                Verdict::Pass,
                Severity::Info,
                format!("{dev}: no I/O errors in the tests"),
            )
            .explain(format!(
                "{} tests moved {bytes} bytes without an I/O error.",
                rs.len()
            ))
            .confidence(Confidence::High);
            let f = match rs.first() {
                Some(r) => f.cite(r),
                None => f,
            };
            Some(f)
        } else {
            None
        }
    })
}

#[cfg(test)]
mod tests;
