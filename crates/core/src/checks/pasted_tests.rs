//! Tests of the five pasted-benchmark checks (benchmark_*.rs), kept together because they
//! share their fixtures and often assert which of the five fires on one paste.

use super::benchmark_buffered_device::BufferedDevice;
use super::benchmark_page_cache::PageCache;
use super::benchmark_random_source::RandomSource;
use super::benchmark_small_blocks::SmallBlocks;
use super::benchmark_zero_source::ZeroSource;
use super::{Severity, Verdict};

use crate::checks::Check;
use crate::evidence::Platform;
use crate::facts::{SystemFacts, UserBenchmark};

fn sys(platform: Platform, b: Vec<UserBenchmark>) -> SystemFacts {
    let mut s = SystemFacts::empty(platform);
    s.user_benchmarks = b;
    s
}

/// A pasted dd run of `cmd` (its if=, of=, bs= and flags read from it).
pub(crate) fn dd(cmd: &str, bytes: u64, rate: f64) -> UserBenchmark {
    let mut b = UserBenchmark {
        tool: "dd".into(),
        command: Some(cmd.to_string()),
        bytes: Some(bytes),
        bytes_per_sec: Some(rate),
        from: "pasted:dd lines 1-3".into(),
        ..Default::default()
    };
    for w in cmd.split_whitespace() {
        match w.split_once('=') {
            Some(("if", v)) => b.input = Some(v.into()),
            Some(("of", v)) => b.output = Some(v.into()),
            Some(("bs", v)) => b.block_size_bytes = crate::sources::util::parse_size(v),
            Some((k @ ("conv" | "oflag" | "iflag"), v)) => b.flags.push(format!("{k}={v}")),
            _ => {}
        }
    }
    b
}

fn verdicts(c: &dyn Check, s: &SystemFacts) -> Vec<(Verdict, Severity)> {
    c.run(s).iter().map(|f| (f.verdict, f.severity)).collect()
}

#[test]
fn page_cache_flags_unflushed_writes_and_passes_honest_ones() {
    let s = sys(
        Platform::Linux,
        vec![
            dd("dd if=img of=/dev/sdn bs=1M", 2_000_683_008, 305e6),
            dd(
                "dd if=/dev/zero of=t bs=1M count=100 conv=fdatasync",
                100_000_000,
                9e6,
            ),
            dd(
                "dd if=/dev/zero of=/tmp/foo bs=10M count=1000",
                10_485_760_000,
                5_523_418_767.0,
            ),
        ],
    );
    assert_eq!(
        verdicts(&PageCache, &s),
        vec![
            (Verdict::Problem, Severity::Notice),
            (Verdict::Pass, Severity::Info),
            (Verdict::Problem, Severity::Warning),
        ]
    );
    // FreeBSD disks are raw: a write to /dev/da0 is the disk's own speed.
    let s = sys(
        Platform::Freebsd,
        vec![dd(
            "dd if=/dev/zero of=/dev/da0 bs=1m",
            9_830_400_000,
            183e6,
        )],
    );
    assert_eq!(
        verdicts(&PageCache, &s),
        vec![(Verdict::Pass, Severity::Info)]
    );
}

#[test]
fn small_blocks_by_size_and_by_comparison() {
    let s = sys(
        Platform::Freebsd,
        vec![
            dd("dd if=/dev/ad8 of=/dev/null bs=512", 0, 3.65 * 1048576.0),
            dd("dd if=/dev/ad8 of=/dev/null bs=128k", 0, 57.07 * 1048576.0),
        ],
    );
    let f = SmallBlocks.run(&s);
    assert_eq!(
        (f[0].verdict, f[0].severity),
        (Verdict::Problem, Severity::Warning)
    );
    assert!(f[0].explanation.contains("(16x)"), "{}", f[0].explanation);
    assert_eq!(f[1].verdict, Verdict::Pass);
}

#[test]
fn four_k_blocks_are_not_blamed_when_the_text_proves_overhead_is_not_the_limit() {
    // EttusResearch/uhd#829: the same 8 KiB blocks reached 1.6 GB/s from /dev/zero and
    // 287 MB/s from /dev/random: the source limits the second, not the block size.
    let s = sys(
        Platform::Linux,
        vec![
            dd(
                "dd if=/dev/zero of=test.dat bs=8k count=10k",
                83886080,
                1.6365e9,
            ),
            dd(
                "dd if=/dev/random of=test.dat bs=8k count=10k",
                83886080,
                2.865e8,
            ),
        ],
    );
    let f = SmallBlocks.run(&s);
    assert_eq!(f.len(), 2);
    assert!(f.iter().all(|x| x.verdict == Verdict::Pass), "{f:#?}");
    assert!(f[0].explanation.contains("requests a second"));
    assert!(f[1].explanation.contains("another dd"));
    // Alone and slow, 8 KiB direct reads are still a notice; the same reads through the page
    // cache are merged by readahead and pass.
    let s = sys(
        Platform::Linux,
        vec![dd(
            "dd if=/dev/sda of=/dev/null bs=8k iflag=direct",
            0,
            60e6,
        )],
    );
    let f = SmallBlocks.run(&s);
    assert_eq!(
        (f[0].verdict, f[0].severity),
        (Verdict::Problem, Severity::Notice)
    );
    for cmd in [
        "dd if=/dev/sda of=/dev/null bs=8k",
        "dd if=./largefile of=/dev/null bs=4k",
    ] {
        let f = SmallBlocks.run(&sys(Platform::Linux, vec![dd(cmd, 0, 60e6)]));
        assert_eq!(f[0].verdict, Verdict::Pass, "{cmd}: {f:#?}");
        assert!(f[0].title.contains("buffered read"), "{}", f[0].title);
    }
    // FreeBSD disk devices are raw: no readahead, the notice stays.
    let f = SmallBlocks.run(&sys(
        Platform::Freebsd,
        vec![dd("dd if=/dev/ada0 of=/dev/null bs=8k", 0, 60e6)],
    ));
    assert_eq!(f[0].verdict, Verdict::Problem);
}

#[test]
fn four_k_buffered_write_set_against_hdparm_reads_is_a_notice() {
    // `hdparm -Tt --direct /dev/sda` (439 MB/s) and `dd ... bs=4k conv=fsync` (334 MB/s) of
    // the same SSD in one post, no large-block dd: the 4 KiB figure carries per-call cost.
    let hdparm = UserBenchmark {
        tool: "hdparm -t --direct".into(),
        input: Some("/dev/sda".into()),
        bytes_per_sec: Some(439e6),
        from: "pasted:hdparm-t sda lines 3-5".into(),
        ..Default::default()
    };
    let small = dd(
        "dd if=/dev/zero of=test bs=4k count=130k conv=fsync",
        545_259_520,
        334e6,
    );
    let f = SmallBlocks.run(&sys(Platform::Linux, vec![hdparm.clone(), small.clone()]));
    assert_eq!(
        verdicts(
            &SmallBlocks,
            &sys(Platform::Linux, vec![hdparm.clone(), small.clone()])
        ),
        vec![(Verdict::Problem, Severity::Notice)],
        "{f:#?}"
    );
    assert!(f[0].title.contains("hdparm"), "{}", f[0].title);
    // Near misses: a large-block dd beside it (the right comparison is there), or a
    // 1 MiB dd itself, or no hdparm figure: not blamed.
    let big = dd(
        "dd if=/dev/zero of=big bs=1M count=500 conv=fsync",
        524_288_000,
        340e6,
    );
    let f = SmallBlocks.run(&sys(
        Platform::Linux,
        vec![hdparm.clone(), small.clone(), big.clone()],
    ));
    assert!(f.iter().all(|x| x.verdict == Verdict::Pass), "{f:#?}");
    let f = SmallBlocks.run(&sys(Platform::Linux, vec![hdparm, big]));
    assert!(f.iter().all(|x| x.verdict == Verdict::Pass), "{f:#?}");
    let f = SmallBlocks.run(&sys(Platform::Linux, vec![small]));
    assert!(f.iter().all(|x| x.verdict == Verdict::Pass), "{f:#?}");
}

#[test]
fn four_k_buffered_writes_to_a_file_are_not_blamed() {
    // A "small write" run beside a 1 MiB one (a blog's NFS volume: 115 MB/s with bs=1M,
    // 62.8 MB/s with bs=4k, both conv=fdatasync): the page cache takes the 4 KiB calls and
    // writeback sends large requests. Any file, any flush flag, either OS.
    for (platform, big, small) in [
        (
            Platform::Linux,
            "dd if=/dev/zero of=/root/test_write.img bs=1M count=2000 conv=fdatasync",
            "dd if=/dev/zero of=/root/test_iops.img bs=4k count=5000 conv=fdatasync",
        ),
        (
            Platform::Linux,
            "dd if=/dev/zero of=big bs=4M count=100 conv=fsync",
            "dd if=/dev/zero of=small bs=8k count=5000 conv=fsync",
        ),
        (
            Platform::Freebsd,
            "dd if=/dev/zero of=/usr/home/x/big bs=1m count=1000",
            "dd if=/dev/zero of=/usr/home/x/small bs=16k count=1000",
        ),
    ] {
        let s = sys(
            platform,
            vec![dd(big, 2_097_152_000, 115e6), dd(small, 20_480_000, 62.8e6)],
        );
        let f = SmallBlocks.run(&s);
        assert_eq!(f.len(), 2, "{small}");
        assert_eq!(f[1].verdict, Verdict::Pass, "{small}: {f:#?}");
        assert!(f[1].title.contains("buffered write"), "{}", f[1].title);
    }
    // Each 4 KiB write waited for the disk (oflag=direct): the block size is the limit; so
    // is dd's default 512 bytes, buffered or not; a block device written buffered is left to
    // benchmark-buffered-device. (A 4 KiB oflag=dsync write is the committed-write workload
    // itself: a pass, tested in benchmark_small_blocks.)
    for cmd in [
        "dd if=/dev/zero of=/root/t bs=4k count=5000 oflag=direct",
        "dd if=/dev/zero of=/root/t bs=512 count=5000 conv=fdatasync",
        "dd if=/dev/zero of=/dev/sdb bs=4k count=5000 oflag=direct",
    ] {
        let f = SmallBlocks.run(&sys(Platform::Linux, vec![dd(cmd, 20_480_000, 2e6)]));
        assert_eq!(f[0].verdict, Verdict::Problem, "{cmd}: {f:#?}");
    }
}

#[test]
fn a_long_write_at_disk_speed_is_not_ram() {
    // openzfs/zfs#9690: 4.4 GB copied onto ZFS in 69 s at 63.8 MB/s, no fsync.
    let s = sys(
        Platform::Linux,
        vec![dd(
            "dd if=x.tar of=/mnt/zfs/y.tar bs=4M",
            4430673920,
            63.8e6,
        )],
    );
    let f = PageCache.run(&s);
    assert_eq!(f[0].verdict, Verdict::Pass, "{f:#?}");
    // The same size in 3 s is RAM.
    let s = sys(
        Platform::Linux,
        vec![dd("dd if=/dev/zero of=t bs=1M", 4430673920, 1.4e9)],
    );
    assert_eq!(PageCache.run(&s)[0].verdict, Verdict::Problem);
}

#[test]
fn zero_source_depends_on_the_filesystem() {
    let mut zfs = dd("dd if=/dev/zero of=/tmp/foo bs=10M", 10_485_760_000, 191e6);
    zfs.filesystem = Some("zfs".into());
    let mut ufs = zfs.clone();
    ufs.filesystem = Some("ufs".into());
    let mut unknown = zfs.clone();
    unknown.filesystem = None;
    let raw = dd("dd if=/dev/zero of=/dev/da0 bs=1m", 1 << 30, 180e6);
    let s = sys(Platform::Freebsd, vec![zfs, ufs, unknown, raw]);
    let v: Vec<Verdict> = ZeroSource.run(&s).iter().map(|f| f.verdict).collect();
    assert_eq!(
        v,
        vec![
            Verdict::Problem,
            Verdict::Pass,
            Verdict::Unknown,
            Verdict::Pass
        ]
    );
}

#[test]
fn buffered_devices_old_bsd_and_linux() {
    let s = sys(
        Platform::Freebsd,
        vec![
            dd(
                "dd if=/dev/wd2 of=/dev/null bs=1m",
                1_342_177_280,
                9_859_716.0,
            ),
            dd(
                "dd if=/dev/rwd2 of=/dev/null bs=1m",
                1_342_177_280,
                9_827_465.0,
            ),
            dd("dd if=/dev/ada0 of=/dev/null bs=1m", 1 << 30, 500e6),
        ],
    );
    let f = BufferedDevice.run(&s);
    assert_eq!(f.len(), 1);
    assert_eq!(
        (f[0].device.as_str(), f[0].severity),
        ("wd2", Severity::Warning)
    );
    assert!(
        f[0].explanation.contains("9.8 MB/s"),
        "{}",
        f[0].explanation
    );
    let s = sys(
        Platform::Linux,
        vec![
            dd("dd if=/dev/sda of=/dev/null bs=1M", 1 << 30, 200e6),
            dd(
                "dd if=/dev/sda of=/dev/null bs=1M iflag=direct",
                1 << 30,
                190e6,
            ),
        ],
    );
    assert_eq!(
        verdicts(&BufferedDevice, &s),
        vec![(Verdict::Problem, Severity::Notice)]
    );
}

#[test]
fn random_source_is_cpu_bound() {
    let s = sys(
        Platform::Linux,
        vec![dd("dd if=/dev/urandom of=/tmp/x bs=1M", 1 << 30, 250e6)],
    );
    assert_eq!(
        verdicts(&RandomSource, &s),
        vec![(Verdict::Problem, Severity::Warning)]
    );
    assert!(
        RandomSource
            .run(&sys(Platform::Linux, Vec::new()))
            .is_empty()
    );
}

#[test]
fn synchronous_page_sized_writes_are_the_workload_not_a_small_block() {
    // A 4 KiB O_DIRECT|O_DSYNC write into a file (a database log's commit, linux-xfs
    // 2020-12), slow on fresh extents and fast on overwrite: no small-block finding.
    let mut slow = dd(
        "dd if=/dev/zero of=test_file bs=4096 conv=notrunc oflag=dsync",
        1_073_741_824,
        9.1e6,
    );
    slow.flags.push("oflag=direct".into());
    let mut fast = slow.clone();
    fast.bytes_per_sec = Some(291e6);
    let f = SmallBlocks.run(&sys(Platform::Linux, vec![slow, fast]));
    assert!(
        f.iter().all(|x| x.verdict == Verdict::Pass),
        "{:?}",
        f.iter().map(|x| &x.title).collect::<Vec<_>>()
    );
    // Near miss: the same 4 KiB direct write without dsync is still a small block.
    let plain = dd(
        "dd if=/dev/zero of=/dev/sdb bs=4096 count=100000 oflag=direct",
        409_600_000,
        40e6,
    );
    let f = SmallBlocks.run(&sys(Platform::Linux, vec![plain]));
    assert!(f.iter().any(|x| x.verdict == Verdict::Problem));
    // And a 512-byte dsync run stays a problem (the per-request cost dominates).
    let tiny = dd(
        "dd if=/dev/zero of=t bs=512 count=1000 oflag=dsync",
        512_000,
        0.9e6,
    );
    let f = SmallBlocks.run(&sys(Platform::Linux, vec![tiny]));
    assert!(f.iter().any(|x| x.verdict == Verdict::Problem));
}

#[test]
fn one_cold_buffered_read_per_device_measures_the_device() {
    // Two devices read once each through the page cache (an SD card and a USB SSD): each
    // read is the device's own pace, so nothing to say.
    let reads = |runs: &[(&str, f64)]| {
        let cmd = |dev: &str| format!("dd if=/dev/{dev} of=/dev/null bs=1M count=1000");
        let b = runs
            .iter()
            .map(|(dev, rate)| dd(&cmd(dev), 1_048_576_000, *rate));
        sys(Platform::Linux, b.collect())
    };
    let s = reads(&[("mmcblk0", 42.2e6), ("sda", 308e6)]);
    assert!(BufferedDevice.run(&s).is_empty());
    // Near miss: the same device read twice, the second may come from RAM.
    let s = reads(&[("sda", 308e6), ("sda", 2.1e9)]);
    assert_eq!(
        verdicts(&BufferedDevice, &s),
        vec![
            (Verdict::Problem, Severity::Notice),
            (Verdict::Problem, Severity::Notice)
        ]
    );
    // A buffered write to a device is still a warning.
    let write = dd("dd if=/dev/zero of=/dev/sdb bs=1M", 1 << 30, 900e6);
    let f = BufferedDevice.run(&sys(Platform::Linux, vec![write]));
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].severity, Severity::Warning);
}

/// An unflushed dd write faster than hdparm -t read the disk in the same paste is RAM's
/// (warning); the same write with no hdparm beside it stays a notice.
#[test]
fn unflushed_write_beyond_the_disk_s_own_read() {
    let w = dd(
        "dd if=/dev/zero of=tempfile bs=1M count=1024",
        1 << 30,
        1.7e9,
    );
    let h = hdparm_t(261.9e6);
    let s = sys(Platform::Linux, vec![h, w.clone()]);
    assert_eq!(
        verdicts(&PageCache, &s),
        [(Verdict::Problem, Severity::Warning)]
    );
    let s = sys(Platform::Linux, vec![w]);
    assert_eq!(
        verdicts(&PageCache, &s),
        [(Verdict::Problem, Severity::Notice)]
    );
}

/// dd's summary alone with 4 KiB blocks: the flags that decide it are not known (info);
/// 512-byte blocks stay a problem.
#[test]
fn page_sized_blocks_without_the_command_are_not_judged() {
    let mut b = dd("dd", 335544320, 94.1e6);
    b.command = None;
    b.block_size_bytes = Some(4096);
    let s = sys(Platform::Linux, vec![b.clone()]);
    assert_eq!(
        verdicts(&SmallBlocks, &s),
        [(Verdict::Unknown, Severity::Info)]
    );
    b.block_size_bytes = Some(512);
    let s = sys(Platform::Linux, vec![b]);
    assert_eq!(
        verdicts(&SmallBlocks, &s),
        [(Verdict::Problem, Severity::Warning)]
    );
}

/// An unflushed write no faster than hdparm -t read the same paste's disk (an EBS volume:
/// 77 MB/s read, 74 MB/s written) was paced by the disk: info, not a notice.
#[test]
fn unflushed_write_at_the_disk_s_read_rate_is_the_disk_s() {
    let w = dd(
        "dd if=/dev/zero of=/store/testspeed bs=1M count=1024",
        1 << 30,
        74.4e6,
    );
    let h = hdparm_t(77.2e6);
    let s = sys(Platform::Linux, vec![h, w.clone()]);
    assert_eq!(verdicts(&PageCache, &s), [(Verdict::Pass, Severity::Info)]);
    let s = sys(Platform::Linux, vec![w]);
    assert_eq!(
        verdicts(&PageCache, &s),
        [(Verdict::Problem, Severity::Notice)]
    );
}

/// A pasted `hdparm -t` read at `rate` bytes/s.
fn hdparm_t(rate: f64) -> UserBenchmark {
    UserBenchmark {
        tool: "hdparm -t".into(),
        bytes_per_sec: Some(rate),
        from: "pasted:hdparm-t lines 1-3".into(),
        ..Default::default()
    }
}

/// bnb-chain/bsc#189: `dd if=/dev/md127 of=/tmp/output bs=8k count=10` moved 80 KiB in
/// 1.16 ms ("70.6 MB/s") beside an 80 MiB dd of the member NVMe at 961 MB/s: the tiny run
/// is a notice whatever the other run did; the 80 MiB run of the same block size is not.
#[test]
fn a_run_of_a_handful_of_requests_is_no_rate() {
    let big = dd(
        "dd if=/dev/nvme1n1 of=/tmp/output bs=8k count=10k",
        83_886_080,
        961e6,
    );
    let mut tiny = dd(
        "dd if=/dev/md127 of=/tmp/output bs=8k count=10",
        81_920,
        70.6e6,
    );
    tiny.seconds = Some(0.001_159_69);
    let s = sys(Platform::Linux, vec![big.clone(), tiny.clone()]);
    let f = SmallBlocks.run(&s);
    assert_eq!(f.len(), 2);
    assert_eq!(
        (f[0].verdict, f[0].severity),
        (Verdict::Pass, Severity::Info)
    );
    assert_eq!(
        (f[1].verdict, f[1].severity),
        (Verdict::Problem, Severity::Notice),
        "{}",
        f[1].title
    );
    assert!(f[1].title.contains("10 requests"), "{}", f[1].title);
    // Near miss: the summary alone (no command: it may be an oflag=dsync latency test).
    tiny.command = None;
    let s = sys(Platform::Linux, vec![big, tiny]);
    assert!(
        !SmallBlocks
            .run(&s)
            .iter()
            .any(|f| f.verdict == Verdict::Problem && f.title.contains("requests of")),
    );
}

#[test]
fn a_slow_unflushed_write_is_an_upper_bound_not_a_cache_problem() {
    // openzfs/zfs#3453: 256 MiB written in 82 s (3.3 MB/s), and a copy of a file at 90 MB/s.
    let s = sys(
        Platform::Linux,
        vec![
            dd("dd if=/256M of=/test/256M-2 bs=1M", 268_435_456, 3.3e6),
            dd("dd if=/test/256M of=/256M bs=1M", 268_435_456, 90.1e6),
        ],
    );
    assert_eq!(
        verdicts(&PageCache, &s),
        vec![
            (Verdict::Pass, Severity::Info),
            (Verdict::Pass, Severity::Info)
        ]
    );
    // Near miss: zeros at 107 MB/s in 10 s (a 2007 laptop disk writes half that) could
    // pass for a healthy disk only thanks to the cache; and a tiny slow run times nothing.
    let s = sys(
        Platform::Linux,
        vec![
            dd(
                "dd if=/dev/zero of=/tmp/1GB bs=1M count=1024",
                1_073_741_824,
                107e6,
            ),
            dd("dd if=/dev/zero of=t bs=1M count=4", 4_194_304, 20e6),
        ],
    );
    assert_eq!(
        verdicts(&PageCache, &s),
        vec![
            (Verdict::Problem, Severity::Notice),
            (Verdict::Problem, Severity::Notice)
        ]
    );
}

/// A pv line (sources::pv) of `bytes` at `rate`, with the command typed before it if any.
fn pv(cmd: Option<&str>, bytes: u64, rate: f64) -> UserBenchmark {
    UserBenchmark {
        tool: "pv".into(),
        command: cmd.map(str::to_string),
        bytes: Some(bytes),
        seconds: Some(0.0),
        bytes_per_sec: Some(rate),
        from: "pasted:pv line 2".into(),
        ..Default::default()
    }
}

#[test]
fn a_pv_copy_faster_than_sata_went_into_the_page_cache() {
    // hypriot/flash#190: 1.27 GiB to an SD card "at 2.28 GiB/s".
    let fast = pv(None, 1_363_652_116, 2.448e9);
    let f = PageCache.run(&sys(Platform::Linux, vec![fast]));
    assert!(
        f.iter()
            .any(|f| f.verdict == Verdict::Problem && f.severity == Severity::Notice),
        "{f:?}"
    );
    // Near misses: the device's settled 12.3 MiB/s; a disk read into /dev/null; a copy
    // too big for the page cache.
    let slow = pv(None, 159_383_552, 12.9e6);
    let read = pv(Some("pv /dev/nvme0n1 > /dev/null"), 1 << 30, 2.9e9);
    let big = pv(None, 64 << 30, 1.9e9);
    for b in [slow, read, big] {
        let f = PageCache.run(&sys(Platform::Linux, vec![b]));
        assert!(f.iter().all(|f| f.verdict != Verdict::Problem), "{f:?}");
    }
}

/// dd's summary without its command: its flags are unknown, so only a figure above what the
/// disk could do says the page cache answered. 512 MiB at 1.9 GB/s is an NVMe drive's with
/// oflag=direct when no disk is shown (info); beside a SATA disk it is RAM (notice); 1 GiB at
/// 11 GB/s is RAM whatever the disk.
#[test]
fn commandless_dd_is_judged_against_what_the_disk_could_do() {
    let mut b = dd("dd", 536_870_912, 1.9e9);
    b.command = None;
    let s = sys(Platform::Linux, vec![b.clone()]);
    assert_eq!(
        verdicts(&PageCache, &s),
        [(Verdict::Unknown, Severity::Info)]
    );
    let mut s = sys(Platform::Linux, vec![b.clone()]);
    s.disks.push(crate::checks::testutil::sata_hdd_ahci());
    assert_eq!(
        verdicts(&PageCache, &s),
        [(Verdict::Problem, Severity::Notice)]
    );
    // 100 MB at 1 GB/s fits under any machine's dirty-memory allowance: RAM.
    let mut small = b.clone();
    small.bytes = Some(100_000_000);
    small.bytes_per_sec = Some(1.0e9);
    let s = sys(Platform::Linux, vec![small]);
    assert_eq!(
        verdicts(&PageCache, &s),
        [(Verdict::Problem, Severity::Notice)]
    );
    let mut fast = b;
    fast.bytes = Some(1 << 30);
    fast.bytes_per_sec = Some(11e9);
    let s = sys(Platform::Linux, vec![fast]);
    assert_eq!(
        verdicts(&PageCache, &s),
        [(Verdict::Problem, Severity::Notice)]
    );
}

/// bonnie++'s block read (sources::bonnie): at 3 GB/s with the CPU busy 97 % of the time it
/// never waited on a disk (RAM); the same rate at 30 % CPU is a fast disk's, and a 16 GiB
/// file on 4 GiB of RAM read at 500 MB/s is silent, while on 16 GiB of RAM it is RAM's.
#[test]
fn bonnie_block_reads_from_ram() {
    let bonnie = |rate: f64, cpu_pct: f64, bytes: u64| UserBenchmark {
        tool: "bonnie++".into(),
        bytes: Some(bytes),
        bytes_per_sec: Some(rate),
        time_real_s: Some(bytes as f64 / rate),
        time_cpu_s: Some(bytes as f64 / rate * cpu_pct / 100.0),
        from: "pasted:bonnie lines 1-5".into(),
        ..Default::default()
    };
    let s = sys(Platform::Linux, vec![bonnie(3.0e9, 97.0, 16 << 30)]);
    assert_eq!(
        verdicts(&PageCache, &s),
        [(Verdict::Problem, Severity::Notice)]
    );
    let s = sys(Platform::Linux, vec![bonnie(3.0e9, 30.0, 16 << 30)]);
    assert!(verdicts(&PageCache, &s).is_empty());
    let mut s = sys(Platform::Linux, vec![bonnie(5.0e8, 20.0, 16 << 30)]);
    s.ram_bytes = crate::facts::Fact::known(4 << 30, "pasted:free");
    assert!(verdicts(&PageCache, &s).is_empty());
    s.ram_bytes = crate::facts::Fact::known(16 << 30, "pasted:free");
    assert_eq!(
        verdicts(&PageCache, &s),
        [(Verdict::Problem, Severity::Notice)]
    );
}

/// A pasted fio result as the critic builds it: its command (when typed), flags and mean
/// request latency (slat + clat).
fn fio(cmd: Option<&str>, flags: &[&str], lat_us: f64) -> UserBenchmark {
    UserBenchmark {
        tool: "fio".into(),
        command: cmd.map(str::to_string),
        bytes_per_sec: Some(2.1e9),
        flags: flags.iter().map(|f| f.to_string()).collect(),
        request_latency_us: Some(lat_us),
        from: "pasted:fio lines 1-12".into(),
        ..Default::default()
    }
}

#[test]
fn a_fio_read_faster_than_any_device_came_from_ram() {
    // A buffered sequential read at 1.1 us a request (a 16k psync read of a file fio had
    // just laid out), with and without its command line: RAM answered.
    for b in [
        fio(Some("fio job rw=read bs=16k (read)"), &["buffered"], 1.1),
        fio(None, &[], 1.1),
    ] {
        let f = PageCache.run(&sys(Platform::Linux, vec![b]));
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(
            (f[0].verdict, f[0].severity),
            (Verdict::Problem, Severity::Notice)
        );
        assert!(f[0].title.contains("RAM"), "{}", f[0].title);
    }
    // A device's latencies (an NVMe drive's 80 us, an Optane's 9 us) and a direct run of a
    // RAM disk are left alone.
    for b in [
        fio(None, &[], 80.0),
        fio(Some("fio job rw=randread bs=4k (read)"), &["buffered"], 9.0),
        fio(None, &["direct=1"], 1.1),
    ] {
        assert!(PageCache.run(&sys(Platform::Linux, vec![b])).is_empty());
    }
}
