//! `disk-busy`: the disk was already busy before diskdoc measured anything, so everything
//! measured competes with someone else's I/O. Linux: two /proc/diskstats readings a second
//! apart (Documentation/admin-guide/iostats.rst: field 10 io_ticks = ms with I/O in flight,
//! field 11 weighted ms) and the processes' /proc/PID/io read_bytes/write_bytes over the
//! same kind of interval (Documentation/filesystems/proc.rst). FreeBSD gstat(8) %busy is
//! the same measure (devstat(9) busy time).

use crate::checks::common;
use crate::checks::measured_common::by_disk;
use crate::checks::{Check, CheckInput, Confidence, Finding, Fix, Severity, Verdict};
use crate::evidence::Platform;
use crate::facts::{BusySample, DiskFacts, Fact, SystemFacts};
use crate::units;

pub const ID: &str = "disk-busy";

/// Above this share of the second the disk counts as busy (Warning); above NOTICE_PCT it
/// is worth a note. Below it a pasted disk is not busy: a device serving one request at a
/// time is a single-server queue, where at utilisation u a request waits on average
/// u/(1-u) service times for the ones ahead of it (M/M/1), so below one half less than its
/// own service time; a device serving requests in parallel (SSD, NVMe, RAID) waits even
/// less at the same %util (iostat(1): %util "does not reflect their performance limits").
const BUSY_PCT: f64 = 50.0;
const NOTICE_PCT: f64 = crate::facts::BUSY_NOTICE_PCT;

pub(crate) struct DiskBusy;

impl Check for DiskBusy {
    fn id(&self) -> &'static str {
        ID
    }
    fn label(&self) -> &'static str {
        "Other I/O on the disk"
    }
    /// The busy sample is taken right before the tests (bench::measure), so it is shown
    /// with the measurements.
    fn input(&self) -> CheckInput {
        CheckInput::Measured
    }
    fn summary(&self) -> &'static str {
        "the disk was busy before diskdoc started (utilisation, queue, await; which processes did the I/O)"
    }
    fn run(&self, sys: &SystemFacts) -> Vec<Finding> {
        common::disks(sys)
            .filter_map(|d| match &d.busy {
                Fact::Known { value, .. } => Some(judge(sys, d, value)),
                Fact::Unknown { .. } => None,
            })
            .collect()
    }
}

fn who(s: &BusySample) -> Option<String> {
    let total: u64 = s
        .top
        .iter()
        .map(|p| p.bytes)
        .fold(0u64, u64::saturating_add);
    let p = s.top.first()?;
    if total == 0 {
        return None;
    }
    let share = (p.bytes as f64) * 100.0 / (total as f64);
    Some(format!(
        "{share:.0} % of the storage I/O of the processes in that second came from {} (PID {}, \
         {})",
        p.comm,
        p.pid,
        units::bytes_iec_one_decimal(p.bytes, "bytes")
    ))
}

pub(crate) fn judge(sys: &SystemFacts, d: &DiskFacts, s: &BusySample) -> Finding {
    let value = format!(
        "util={:.0}% avg_queue={:.1} await_ms={} ios={} bytes={}",
        s.util_pct,
        s.avg_queue,
        s.await_ms.map(|a| format!("{a:.1}")).unwrap_or("-".into()),
        s.ios,
        s.bytes
    );
    let cite = |f: Finding| common::cite(f, &d.busy, value.clone());
    if s.pasted {
        return cite(judge_pasted(d, s)).fix(fix(sys.platform, s));
    }
    let benched = by_disk(sys).get(&d.name).is_some_and(|r| !r.is_empty());
    if s.util_pct < NOTICE_PCT {
        return cite(
            common::pass(
                ID,
                d,
                format!("idle before the tests ({:.0} % busy)", s.util_pct),
            )
            .explain(format!(
                "In the {} ms before diskdoc started the disk had I/O in flight {:.0} % of \
                     the time: measurements are not disturbed by other work.",
                s.interval_ms, s.util_pct
            )),
        );
    }
    let sev = if s.util_pct >= BUSY_PCT {
        Severity::Warning
    } else {
        Severity::Notice
    };
    let mut expl = format!(
        "The disk was {:.0} % busy before diskdoc started ({} requests in {} ms, {} average \
         in flight{}). ",
        s.util_pct,
        s.ios,
        s.interval_ms,
        format_args!("{:.1}", s.avg_queue),
        s.await_ms
            .map(|a| format!(", {a:.1} ms per request"))
            .unwrap_or_default()
    );
    match who(s) {
        Some(w) => expl.push_str(&format!("{w}. ")),
        None => {
            expl.push_str("Which process did it is unknown (needs root: /proc/PID/io is private). ")
        }
    }
    expl.push_str(if benched {
        "The read and write tests ran while it was busy: their numbers are lower than the \
         disk can do. "
    } else {
        "Anything measured now competes with that I/O. "
    });
    let mut f = Finding::new(
        ID,
        &d.name,
        Verdict::Problem,
        sev,
        format!(
            "{}: {:.0} % busy before diskdoc started",
            d.name, s.util_pct
        ),
    )
    .explain(expl)
    .confidence(Confidence::High)
    .impact((s.util_pct / 100.0).clamp(0.0, 1.0));
    f = cite(f);
    for p in &s.top {
        f = f.evidence(
            format!("file:/proc/{}/io", p.pid),
            format!("{} {} bytes", p.comm, p.bytes),
        );
    }
    f.fix(fix(sys.platform, s))
}

/// A sample's interval as a person reads it: "10 s", "0.1 s".
fn seconds(ms: u64) -> String {
    if ms.is_multiple_of(1000) {
        format!("{} s", ms / 1000)
    } else {
        format!("{:.1} s", ms as f64 / 1000.0)
    }
}

/// The program whose pasted output the sample came from ("gstat" for the key
/// `cmd:gstat -b -I 1s`, "iostat" for `cmd:iostat -x`).
fn pasted_tool(d: &DiskFacts) -> String {
    d.busy
        .sources()
        .first()
        .and_then(|k| k.strip_prefix("cmd:"))
        .and_then(|c| c.split_whitespace().next())
        .map_or("tool".to_string(), str::to_string)
}

/// A pasted sample of a device that completed nothing while requests waited: iostat -x's
/// r/s and w/s at zero with a queue (avgqu-sz, aqu-sz: the time-weighted count of requests
/// in flight, /proc/diskstats field 11) of at least one and %util near 100 (field 10: time
/// with requests in flight). A busy device completes requests; one that holds them without
/// completing any has stopped answering (the kernel's 30 s SCSI timeout, virtio's none).
pub(crate) fn stalled(s: &BusySample) -> bool {
    s.pasted && s.ios == 0 && s.bytes == 0 && s.avg_queue >= 1.0 && s.util_pct >= BUSY_PCT
}

/// A pasted gstat or iostat screen: what that output shows about the disk when it was
/// made. gstat(8) prints ops/s and %busy per provider over its dT interval (gstat.c);
/// iostat -x prints r/s, w/s and %util per device (sysstat iostat.c). The rates are per
/// second, not counts over the interval.
fn judge_pasted(d: &DiskFacts, s: &BusySample) -> Finding {
    if from_iotop(d) {
        return judge_iotop(d, s);
    }
    // Requests waiting and none completing is no load that keeps the disk busy: the device
    // stopped answering. A virtual disk's host stopped serving it (virtual-or-bridged-device
    // says so); a real disk's stall shows in its kernel log (timeouts, resets).
    if stalled(s) && common::is_virtual_disk(d) {
        return common::not_applicable(
            ID,
            d,
            "no request completed while requests waited: the virtual disk stalled \
             (virtual-or-bridged-device reports it), no other I/O kept it busy",
        );
    }
    let tool = pasted_tool(d);
    let over = format!(
        "{:.0} % of its {} interval",
        s.util_pct,
        seconds(s.interval_ms)
    );
    if s.util_pct < NOTICE_PCT {
        return common::pass(
            ID,
            d,
            format!(
                "idle in the pasted {tool} output ({:.0} % busy)",
                s.util_pct
            ),
        )
        .explain(format!(
            "The pasted {tool} output shows the disk with I/O in flight {over}: nothing else \
             loaded it while that output was made."
        ));
    }
    if s.util_pct < BUSY_PCT {
        return common::pass(
            ID,
            d,
            format!(
                "not busy in the pasted {tool} output ({:.0} % busy)",
                s.util_pct
            ),
        )
        .explain(format!(
            "The pasted {tool} output shows the disk with I/O in flight {over}: idle more \
             than half the time, so its requests rarely waited for one another and the \
             disk kept up with the load it was given."
        ));
    }
    if one_request_on_a_parallel_device(d, s) {
        return common::pass(
            ID,
            d,
            format!(
                "{:.0} % busy in the pasted {tool} output, one request at a time on a \
                 device that serves many in parallel",
                s.util_pct
            ),
        )
        .explain(format!(
            "The pasted {tool} output shows the disk with I/O in flight {over}, but with \
             {:.1} requests in flight on average: one reader waiting for each request before \
             sending the next. %util counts the time with at least one request in flight, \
             which for a device serving requests in parallel (an NVMe or SATA SSD) says \
             nothing of its limits (iostat(1), %util): the device was not saturated and \
             nothing else competed with that reader.",
            s.avg_queue
        ));
    }
    if s.util_pct < SATURATED_PCT
        && let Some(a) = s.await_ms.filter(|&a| a <= own_request_ms(d))
        && (s.util_pct < NEAR_SATURATED_PCT || a <= KEPT_UP_AWAIT_MS)
    {
        return common::pass(
            ID,
            d,
            format!(
                "{:.0} % busy in the pasted {tool} output, idle the rest and no request waited",
                s.util_pct
            ),
        )
        .explain(format!(
            "The pasted {tool} output shows the disk with I/O in flight {over}, idle the rest \
             of it, and its requests took {a:.2} ms on average: no longer than the device \
             takes for one request on its own, so none waited behind others. The disk kept \
             up with the load it was given (a write stream, a copy) and had time to spare: \
             that is the load's rate, not a disk others keep busy."
        ));
    }
    let kept_up = s.await_ms.is_some_and(|a| a > 0.0 && a < KEPT_UP_AWAIT_MS);
    let sev = if kept_up {
        Severity::Notice
    } else {
        Severity::Warning
    };
    let mut expl = format!(
        "The pasted {tool} output shows the disk with I/O in flight {over} ({} requests per \
         second, {:.1} average in flight{}). That is how busy it was when the output was \
         made. A read or write test run while the disk is this busy competes with that I/O, \
         so its numbers are lower than the disk can do. The output does not say which \
         process did the I/O.",
        s.ios,
        s.avg_queue,
        s.await_ms
            .map(|a| format!(", {a:.2} ms per request"))
            .unwrap_or_default()
    );
    if kept_up {
        expl.push_str(
            " Each request still completed in under a millisecond on average: the device \
             serves requests in parallel and kept up, so %util says it was in use, not that \
             it was the limit (iostat(1), %util).",
        );
    }
    pasted_problem(
        d,
        s,
        sev,
        format!(
            "{}: {:.0} % busy in the pasted {tool} output",
            d.name, s.util_pct
        ),
        expl,
    )
}

/// A busy disk seen in a pasted output, its impact the share of the time it was busy.
fn pasted_problem(
    d: &DiskFacts,
    s: &BusySample,
    sev: Severity,
    title: String,
    expl: String,
) -> Finding {
    Finding::new(ID, &d.name, Verdict::Problem, sev, title)
        .explain(expl)
        .confidence(Confidence::High)
        .impact((s.util_pct / 100.0).clamp(0.0, 1.0))
}

/// Whether the busy sample came from a pasted iotop (facts/pasted/device_state.rs
/// iotop_busy): its figure is how long tasks waited for I/O, not the disk's %util.
fn from_iotop(d: &DiskFacts) -> bool {
    d.busy
        .sources()
        .iter()
        .any(|k| k.starts_with("pasted:iotop"))
}

/// What a kernel thread waiting for I/O is doing, for the threads whose I/O is not an
/// application's.
fn kernel_thread_note(comm: &str) -> Option<String> {
    if comm == "ext4lazyinit" {
        // fs/ext4/super.c ext4_lazyinit_thread; mke2fs(8) -E lazy_itable_init, ext4(5)
        // init_itable.
        return Some(
            "ext4lazyinit zeroes the inode tables of a freshly made ext4 filesystem in the background (mke2fs(8) lazy_itable_init, the init_itable mount option): on a new large filesystem it keeps the disk busy for hours after mkfs, then stops by itself; `mkfs.ext4 -E lazy_itable_init=0,lazy_journal_init=0` does that work at mkfs time instead"
                .to_string(),
        );
    }
    if let Some(dev) = crate::sources::iotop::thread_device(comm) {
        // fs/jbd2/journal.c: one "jbd2/DEV-INO" thread commits each ext4 journal.
        return Some(format!(
            "{comm} is the ext4 journal thread of {dev}: its waits are the journal commits and cache flushes that the applications' writes and fsync calls need"
        ));
    }
    comm.starts_with("kworker").then(|| {
        format!("{comm} is a kernel worker, which writes the page cache's dirty data back")
    })
}

/// A pasted iotop: tasks that waited for block I/O most of the interval (its IO column,
/// delay accounting: Documentation/accounting/delay-accounting.rst). A task waits that long
/// when its requests queue behind others on a disk serving all it can.
fn judge_iotop(d: &DiskFacts, s: &BusySample) -> Finding {
    let tasks: Vec<String> = s
        .top
        .iter()
        .map(|p| format!("{} (TID {})", p.comm, p.pid))
        .collect();
    if s.util_pct < BUSY_PCT {
        return common::pass(
            ID,
            d,
            format!(
                "no task waited for I/O most of the time in the pasted iotop output ({:.0} % at most)",
                s.util_pct
            ),
        )
        .explain(format!(
            "The pasted iotop output shows tasks waiting for block I/O at most {:.0} % of the interval: the disk kept up with what they asked.",
            s.util_pct
        ));
    }
    let mut expl = format!(
        "The pasted iotop output shows tasks waiting for block I/O up to {:.0} % of the interval (its IO column: the share of the time a task waited for its reads and writes, delay accounting): {}. Tasks that wait for I/O nearly all the time have their requests queued behind others on a disk that is serving all it can, so everything else on it waits too.",
        s.util_pct,
        tasks.join(", ")
    );
    for n in s.top.iter().filter_map(|p| kernel_thread_note(&p.comm)) {
        expl.push(' ');
        expl.push_str(&n);
        expl.push('.');
    }
    pasted_problem(
        d,
        s,
        Severity::Warning,
        format!(
            "{}: tasks waited for I/O {:.0} % of the time in the pasted iotop output",
            d.name, s.util_pct
        ),
        expl,
    )
}

/// Below this average time per request (await, gstat ms/r) a busy pasted disk kept up: a
/// rotating disk's own service time is at least half a revolution (4.2 ms at 7,200 rpm)
/// plus a seek, so sub-millisecond requests were served by flash or a cache, and none
/// waited long behind the others. The disk is still in use (notice), not the limit.
const KEPT_UP_AWAIT_MS: f64 = 1.0;

/// From this share of the interval a pasted disk was saturated: %util counts the time with
/// at least one request in flight (Documentation/admin-guide/iostats.rst field 10,
/// io_ticks; devstat(9) busy time for gstat), so near 100 % the device never idled and
/// every new request found it working. The few percent below allow for how io_ticks is
/// kept (by jiffy, at request start and completion: block/blk-core.c update_io_ticks).
/// Below it the device was idle part of every second, and it is busy only if its requests
/// waited (`own_request_ms`).
const SATURATED_PCT: f64 = 95.0;

/// What one request takes on its own, at most, so that a longer average wait (await, gstat
/// ms/r) means requests queued behind one another: under a millisecond on flash
/// (KEPT_UP_AWAIT_MS), and on a rotating disk an average seek (8-12 ms) plus half a
/// revolution (4.2 ms at 7,200 rpm, 5.6 ms at 5,400 rpm), under 20 ms; a disk of unknown
/// kind is given the rotating disk's time.
fn own_request_ms(d: &DiskFacts) -> f64 {
    if d.is_nvme() || d.rotational.get() == Some(false) {
        KEPT_UP_AWAIT_MS
    } else {
        ROTATING_REQUEST_MS
    }
}

/// See `own_request_ms`.
const ROTATING_REQUEST_MS: f64 = 20.0;

/// From this share of the interval a disk whose requests each took a rotating disk's own
/// service time (a seek and half a revolution, milliseconds) is at its request-rate
/// ceiling: requests per second times that time fill the interval (iostat(1): %util is
/// the time with a request in flight), so the load already uses nearly all the disk can
/// do and any burst queues. Requests answered at flash speed (under KEPT_UP_AWAIT_MS)
/// leave the device room to spare and keep the `SATURATED_PCT` bar.
const NEAR_SATURATED_PCT: f64 = 85.0;

/// Most requests in flight at once, on average, for a flash device's full %util to be one
/// request at a time: a single reader (a dd, a btree check at queue depth 1) keeps one
/// request outstanding, so the average sits at about 1 while %util reads 100 %.
const ONE_AT_A_TIME_QUEUE: f64 = 1.5;

/// Whether a busy pasted sample is one request at a time on a flash device: iostat(1) says
/// of %util that "for devices serving requests in parallel, such as RAID arrays and modern
/// SSDs, this number does not reflect their performance limits"; with an average queue of
/// about one request (aqu-sz, /proc/diskstats field 11 over field 10) the device had room
/// for many more, so the figure shows one reader's latency, not a disk others keep busy.
/// A rotating disk serves one request at a time, so its 100 % stays busy.
fn one_request_on_a_parallel_device(d: &DiskFacts, s: &BusySample) -> bool {
    let flash = d.is_nvme() || d.rotational.get() == Some(false);
    flash && s.avg_queue > 0.0 && s.avg_queue <= ONE_AT_A_TIME_QUEUE
}

fn fix(platform: Platform, s: &BusySample) -> Fix {
    let pid = s
        .top
        .first()
        .map(|p| p.pid.to_string())
        .unwrap_or("PID".into());
    match platform {
        Platform::Freebsd => Fix {
            platform,
            summary: "find the I/O, pause it, measure again".into(),
            steps: vec![
                "`gstat -p` shows the busy disks; `top -m io -o total` the processes".into(),
                "Pause or reschedule the job (scrub, backup, indexer), then run diskdoc again"
                    .into(),
            ],
            risk: "stopping a backup or resilver leaves it to finish later".into(),
        },
        _ => Fix {
            platform,
            summary: "find the I/O, pause it, measure again".into(),
            steps: vec![
                "`sudo iotop -o` or `pidstat -d 1` shows who does I/O".into(),
                format!(
                    "Lower its priority: `sudo ionice -c3 -p {pid}`, or pause it: `kill -STOP {pid}` (`kill -CONT {pid}` resumes)"
                ),
                "Run diskdoc again when the disk is idle".into(),
            ],
            risk: "a paused process holds its locks and open files until resumed".into(),
        },
    }
}

#[cfg(test)]
mod tests;
