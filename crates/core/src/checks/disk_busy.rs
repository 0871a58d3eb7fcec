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
/// is worth a note.
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

/// A pasted gstat or iostat screen: what that output shows about the disk when it was
/// made. gstat(8) prints ops/s and %busy per provider over its dT interval (gstat.c);
/// iostat -x prints r/s, w/s and %util per device (sysstat iostat.c). The rates are per
/// second, not counts over the interval.
fn judge_pasted(d: &DiskFacts, s: &BusySample) -> Finding {
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
    let sev = if s.util_pct >= BUSY_PCT {
        Severity::Warning
    } else {
        Severity::Notice
    };
    let expl = format!(
        "The pasted {tool} output shows the disk with I/O in flight {over} ({} requests per \
         second, {:.1} average in flight{}). That is how busy it was when the output was \
         made. A read or write test run while the disk is this busy competes with that I/O, \
         so its numbers are lower than the disk can do. The output does not say which \
         process did the I/O.",
        s.ios,
        s.avg_queue,
        s.await_ms
            .map(|a| format!(", {a:.1} ms per read"))
            .unwrap_or_default()
    );
    Finding::new(
        ID,
        &d.name,
        Verdict::Problem,
        sev,
        format!(
            "{}: {:.0} % busy in the pasted {tool} output",
            d.name, s.util_pct
        ),
    )
    .explain(expl)
    .confidence(Confidence::High)
    .impact((s.util_pct / 100.0).clamp(0.0, 1.0))
}

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
mod tests {
    use super::*;
    use crate::checks::testutil::*;
    use crate::checks::testutil_nvme::fixture;
    use crate::facts::IoProcess;
    use crate::sources::gstat;

    fn busy(util: f64, top: Vec<IoProcess>) -> Fact<BusySample> {
        Fact::known_from(
            BusySample {
                interval_ms: 1000,
                util_pct: util,
                avg_queue: 3.2,
                await_ms: Some(12.5),
                ios: 420,
                bytes: 90 << 20,
                top,
                pasted: false,
            },
            vec![
                crate::sources::sysfs::block("sda", "stat"),
                crate::sources::sysfs::dev_block("8:0", "stat"),
            ],
        )
    }

    #[test]
    fn busy_disk_names_the_process() {
        let mut d = sata_hdd_ahci();
        d.busy = busy(
            97.0,
            vec![
                IoProcess {
                    pid: 1234,
                    comm: "rsync".into(),
                    bytes: 92 << 20,
                },
                IoProcess {
                    pid: 99,
                    comm: "journald".into(),
                    bytes: 8 << 20,
                },
            ],
        );
        let f = &DiskBusy.run(&linux(d))[0];
        assert_vs(f, Verdict::Problem, Severity::Warning);
        assert!(f.title.contains("97 % busy"));
        assert!(
            f.explanation.contains("92 % of the storage I/O"),
            "{}",
            f.explanation
        );
        assert!(f.explanation.contains("rsync (PID 1234"));
        assert!(f.fixes[0].steps[1].contains("ionice -c3 -p 1234"));
        assert!(
            f.evidence
                .iter()
                .any(|e| e.source == crate::sources::sysfs::proc("1234/io"))
        );
    }

    #[test]
    fn idle_passes_unknown_silent() {
        let mut d = sata_hdd_ahci();
        d.busy = busy(3.0, vec![]);
        assert_vs(&DiskBusy.run(&linux(d))[0], Verdict::Pass, Severity::Info);
        assert!(DiskBusy.run(&linux(sata_hdd_ahci())).is_empty());
    }

    /// A pasted gstat screen (gstat.c: ops/s, ms/r, %busy over dT) says how busy the disk
    /// was when it was printed, never "before diskdoc started".
    #[test]
    fn pasted_sample_says_what_the_paste_shows() {
        let mut d = sata_hdd_ahci_freebsd();
        d.busy = Fact::known(
            BusySample {
                interval_ms: 10_000,
                util_pct: 98.0,
                avg_queue: 4.0,
                await_ms: Some(31.5),
                ios: 143,
                pasted: true,
                ..Default::default()
            },
            crate::sources::gstat::SPEC.key_for(""),
        );
        let f = &DiskBusy.run(&freebsd(d.clone()))[0];
        assert_vs(f, Verdict::Problem, Severity::Warning);
        assert_eq!(f.title, "ada0: 98 % busy in the pasted gstat output");
        assert!(
            f.explanation
                .contains("I/O in flight 98 % of its 10 s interval (143 requests per second"),
            "{}",
            f.explanation
        );
        for t in [&f.title, &f.explanation] {
            assert!(!t.contains("before diskdoc"), "{t}");
        }
        assert!(f.fixes[0].steps[0].contains("gstat -p"));
        if let Fact::Known { value, .. } = &mut d.busy {
            value.util_pct = 3.0;
        }
        let f = &DiskBusy.run(&freebsd(d))[0];
        assert_vs(f, Verdict::Pass, Severity::Info);
        assert_eq!(f.title, "idle in the pasted gstat output (3 % busy)");
    }

    /// iostat -x of an NVMe drive read by one thread at queue depth 1 (aqu-sz 1.04, 420
    /// r/s of 128 KiB, %util 99.87): one reader's latency, not a saturated disk. The same
    /// row on a rotating disk, or on the NVMe drive with a deep queue, stays busy.
    #[test]
    fn one_request_at_a_time_on_flash_is_not_busy() {
        let sample = |q: f64| {
            Fact::known(
                BusySample {
                    interval_ms: 1000,
                    util_pct: 99.87,
                    avg_queue: q,
                    await_ms: Some(0.3),
                    ios: 420,
                    pasted: true,
                    ..Default::default()
                },
                crate::sources::iostat::SPEC.key_for(""),
            )
        };
        let mut d = crate::checks::testutil_nvme::nvme_ssd();
        d.busy = sample(1.04);
        assert_vs(
            &DiskBusy.run(&linux(d.clone()))[0],
            Verdict::Pass,
            Severity::Info,
        );
        // Near misses: a deep queue on the same drive, one request at a time on a platter.
        d.busy = sample(6.0);
        assert_vs(
            &DiskBusy.run(&linux(d))[0],
            Verdict::Problem,
            Severity::Warning,
        );
        let mut h = sata_hdd_ahci();
        h.busy = sample(1.04);
        assert_vs(
            &DiskBusy.run(&linux(h))[0],
            Verdict::Problem,
            Severity::Warning,
        );
    }

    #[test]
    fn gstat_resilver_fixture_busy_disks() {
        // FreeBSD gstat -I 10s during a resilver (fixture INDEX): %busy per provider.
        let rows = gstat::parse(&fixture(
            "freebsd/gstat/xigmanas-resilver-ada-busy-over-100pct.txt",
        ));
        let mut fired = 0;
        for r in rows
            .iter()
            .filter(|r| r.is_whole_disk() && r.name.starts_with("ada"))
        {
            let mut d = sata_hdd_ahci_freebsd();
            d.name = r.name.clone();
            d.busy = Fact::known(
                BusySample {
                    interval_ms: 10_000,
                    util_pct: r.busy_pct.unwrap_or(0.0).min(100.0),
                    avg_queue: r.queue_len.unwrap_or(0.0),
                    ..Default::default()
                },
                "pasted:gstat",
            );
            let f = &DiskBusy.run(&freebsd(d))[0];
            if r.busy_pct.unwrap_or(0.0) >= BUSY_PCT {
                assert_vs(f, Verdict::Problem, Severity::Warning);
                assert!(f.explanation.contains("needs root"));
                fired += 1;
            }
        }
        assert!(fired >= 5, "{fired}");
    }
}
