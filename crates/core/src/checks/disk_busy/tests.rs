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
    let sample = |q: f64, a: f64| {
        Fact::known(
            BusySample {
                interval_ms: 1000,
                util_pct: 99.87,
                avg_queue: q,
                await_ms: Some(a),
                ios: 420,
                pasted: true,
                ..Default::default()
            },
            crate::sources::iostat::SPEC.key_for(""),
        )
    };
    let mut d = crate::checks::testutil_nvme::nvme_ssd();
    d.busy = sample(1.04, 0.3);
    assert_vs(
        &DiskBusy.run(&linux(d.clone()))[0],
        Verdict::Pass,
        Severity::Info,
    );
    // Near misses: a deep queue on the same drive whose requests wait, one request at a
    // time on a platter.
    d.busy = sample(6.0, 8.0);
    assert_vs(
        &DiskBusy.run(&linux(d))[0],
        Verdict::Problem,
        Severity::Warning,
    );
    let mut h = sata_hdd_ahci();
    h.busy = sample(1.04, 6.0);
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

/// A pasted iostat row as the pasted-iostat fact builds it (facts/pasted/device_state.rs).
fn pasted_row(util: f64, queue: f64, await_ms: f64, ios: u64) -> Fact<BusySample> {
    Fact::known(
        BusySample {
            interval_ms: 1000,
            util_pct: util,
            avg_queue: queue,
            await_ms: Some(await_ms),
            ios,
            pasted: true,
            ..Default::default()
        },
        crate::sources::iostat::SPEC.key_for(""),
    )
}

/// A pasted disk at a fifth to under a half of its time busy is not busy: cockroachdb
/// #28552's `iostat -x 5` row "sdb ... 1272.74 ... 0.30 0.24 ... 22.24" (avgqu-sz 0.30,
/// await 0.24 ms, %util 22.24) and influxdb #17055's nvme0n1 at 26.49 %. The near miss: the
/// same row at over half the time busy with requests waiting 45 ms stays a warning.
#[test]
fn pasted_disk_under_half_busy_is_not_busy() {
    let mut d = sata_hdd_ahci();
    d.name = "sdb".into();
    d.busy = pasted_row(22.24, 0.30, 0.24, 1273);
    let f = &DiskBusy.run(&linux(d.clone()))[0];
    assert_vs(f, Verdict::Pass, Severity::Info);
    assert!(
        f.title.starts_with("not busy in the pasted") && f.title.ends_with("(22 % busy)"),
        "{}",
        f.title
    );
    d.busy = pasted_row(62.77, 5.51, 45.0, 1327);
    assert_vs(
        &DiskBusy.run(&linux(d))[0],
        Verdict::Problem,
        Severity::Warning,
    );
}

/// Busy but keeping up: scylladb #1751's row "sdb ... 56791.50 ... 23.31 0.41 0.41 0.00
/// 0.02 100.05" (await 0.41 ms under a queue of 23) is the application's I/O on a device
/// that serves it in parallel: a notice. Vega #7775's "sda 1632.00 ... r_await 1.09 ...
/// w_await 1.19 ... %util 100.00" waits longer than flash needs: a warning.
#[test]
fn sub_millisecond_requests_keep_a_busy_disk_at_notice() {
    let mut d = sata_hdd_ahci();
    d.name = "sdb".into();
    d.busy = pasted_row(100.0, 23.31, 0.41, 56791);
    let f = &DiskBusy.run(&linux(d.clone()))[0];
    assert_vs(f, Verdict::Problem, Severity::Notice);
    assert!(
        f.explanation.contains("under a millisecond"),
        "{}",
        f.explanation
    );
    d.busy = pasted_row(100.0, 0.08, 1.14, 1695);
    assert_vs(
        &DiskBusy.run(&linux(d))[0],
        Verdict::Problem,
        Severity::Warning,
    );
}

/// openzfs/zfs #9375: raidz2 members writing 120 MB/s each, "sdd ... 1326.40 ... 5.51 ...
/// 62.77" with the weighted await 4.2 ms: idle a third of the time and no request waited
/// longer than a rotating disk takes for one, so not busy. Near misses: a saturated disk
/// (97 %) whatever its await, and scylladb #7341's NVMe namespaces at 87 % with writes
/// taking 4.4 ms (flash needs under 1 ms).
#[test]
fn partly_busy_disk_whose_requests_did_not_wait_is_not_busy() {
    let mut hdd = sata_hdd_ahci();
    hdd.busy = pasted_row(62.77, 5.51, 4.19, 1327);
    let f = &DiskBusy.run(&linux(hdd.clone()))[0];
    assert_vs(f, Verdict::Pass, Severity::Info);
    assert!(f.explanation.contains("idle the rest"), "{}", f.explanation);
    let mut near = hdd.clone();
    hdd.busy = pasted_row(97.0, 5.51, 4.19, 1327);
    // influxdb #6050: `sar -d` of a rotating disk at 91 % with 8 ms per request: each
    // request took the disk's own time and together they fill the interval: at its
    // request-rate ceiling, busy. The same share answered at flash speed (0.6 ms) passes.
    near.busy = pasted_row(91.0, 0.9, 8.0, 113);
    assert_vs(
        &DiskBusy.run(&linux(near.clone()))[0],
        Verdict::Problem,
        Severity::Warning,
    );
    near.busy = pasted_row(90.0, 0.9, 0.59, 2453);
    assert_vs(
        &DiskBusy.run(&linux(near))[0],
        Verdict::Pass,
        Severity::Info,
    );
    let mut nvme = crate::checks::testutil_nvme::nvme_ssd();
    nvme.busy = pasted_row(87.2, 1.77, 4.43, 236);
    for d in [hdd, nvme] {
        assert_vs(
            &DiskBusy.run(&linux(d))[0],
            Verdict::Problem,
            Severity::Warning,
        );
    }
}
