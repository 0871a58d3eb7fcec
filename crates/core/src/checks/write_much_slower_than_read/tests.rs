use super::*;
use crate::checks::Verdict;
use crate::checks::measured_common::synth::*;
use crate::facts::{DeviceClass, DiskFacts, Fact, Transport};

#[test]
fn write_cache_off_is_named() {
    let mut d = DiskFacts::new("sda", "/dev/sda");
    d.write_cache_enabled = Fact::known(
        false,
        crate::sources::hdparm::WRITE_CACHE_LIVE.key_for("sda"),
    );
    let s = sys(
        vec![d],
        vec![
            result(TestName::SeqRead, "outer", "sda", 180.0, 1 << 20),
            result(TestName::SeqWrite, "1 MiB", "sda", 30.0, 1 << 20),
        ],
    );
    let f = WriteMuchSlowerThanRead.run(&s);
    assert_eq!(f[0].verdict, Verdict::Problem);
    assert_eq!(f[0].severity, Severity::Warning);
    assert_eq!(
        f[0].title,
        "sda writes at 30.0 MB/s, 17% of its 180.0 MB/s read rate"
    );
    assert!(f[0].explanation.contains("write cache is disabled"));
}

#[test]
fn comparable_writes_pass() {
    let s = sys(
        vec![],
        vec![
            result(TestName::SeqRead, "outer", "sda", 180.0, 1 << 20),
            result(TestName::SeqWrite, "1 MiB", "sda", 170.0, 1 << 20),
        ],
    );
    assert_eq!(WriteMuchSlowerThanRead.run(&s)[0].verdict, Verdict::Pass);
    let s = sys(
        vec![],
        vec![result(TestName::SeqWrite, "1 MiB", "sda", 170.0, 1 << 20)],
    );
    assert!(WriteMuchSlowerThanRead.run(&s).is_empty());
}

/// An iozone table's sequential write and read (O_DIRECT, 16 MiB records), as
/// explain gives them (sources::iozone::native_benchmarks).
fn iozone(write_mb_s: f64, read_mb_s: f64) -> Vec<crate::facts::UserBenchmark> {
    let run = |rw: &str, mb_s: f64| crate::facts::UserBenchmark {
        tool: "iozone".into(),
        block_size_bytes: Some(16 << 20),
        bytes_per_sec: Some(mb_s * 1e6),
        flags: vec!["direct".into(), format!("rw={rw}")],
        from: "pasted:iozone-table lines 8-10".into(),
        ..Default::default()
    };
    vec![run("read", read_mb_s), run("write", write_mb_s)]
}

fn disk(name: &str, class: crate::facts::DeviceClass, transport: Transport) -> DiskFacts {
    let mut d = DiskFacts::new(name, &format!("/dev/{name}"));
    d.class = Fact::known(class, "pasted:sbc-bench lines 2-4");
    d.transport = Fact::known(transport, "pasted:sbc-bench lines 2-4");
    d
}

/// ThomasKaiser/Knowledge, ROCK 5 ITX: an md RAID-0 of three SATA SSDs writes 394 MB/s
/// and reads 1042: SSDs on their own SATA ports write near what they read.
#[test]
fn pasted_iozone_on_sata_ssds() {
    let mut s = sys(
        ["sda", "sdb", "sdc"]
            .iter()
            .map(|n| disk(n, DeviceClass::Ssd, Transport::Sata))
            .collect(),
        vec![],
    );
    s.user_benchmarks = iozone(403.2, 1067.0);
    let f = WriteMuchSlowerThanRead.run(&s);
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(
        (f[0].verdict, f[0].severity),
        (Verdict::Problem, Severity::Notice)
    );
    // Near miss: the same share on an SD card and eMMC (or on USB, or on disks of no known
    // class) is what flash writes.
    let mut s = sys(
        vec![disk("mmcblk1", DeviceClass::Mmc, Transport::Mmc)],
        vec![],
    );
    s.user_benchmarks = iozone(403.2, 1067.0);
    assert!(WriteMuchSlowerThanRead.run(&s).is_empty());
    s.disks.clear();
    assert!(WriteMuchSlowerThanRead.run(&s).is_empty());
}

/// ROCK 5B eMMC modules: 10.9 MB/s writes against 136 MB/s reads (8 %) is below what any
/// device writes; 146 against 277 (53 %) and an SD card's 67/90 are healthy flash.
#[test]
fn pasted_iozone_of_unknown_class() {
    let mut s = sys(vec![], vec![]);
    s.user_benchmarks = iozone(10.9, 136.0);
    let f = WriteMuchSlowerThanRead.run(&s);
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].severity, Severity::Warning);
    for (w, r) in [(146.0, 277.0), (67.0, 90.4), (14.5, 136.0)] {
        s.user_benchmarks = iozone(w, r);
        assert!(WriteMuchSlowerThanRead.run(&s).is_empty(), "{w}/{r}");
    }
}

/// progress(1)'s rates of a copy and a read (sources::progress).
fn progress(copy_mib_s: f64, read_mib_s: f64) -> Vec<crate::facts::UserBenchmark> {
    [
        ("mv a.cci", "rw=write", copy_mib_s),
        ("cat /mnt/x/b.cci", "rw=read", read_mib_s),
    ]
    .iter()
    .map(|(c, f, r)| crate::facts::UserBenchmark {
        tool: "progress".into(),
        command: Some(c.to_string()),
        bytes_per_sec: Some(r * 1048576.0),
        flags: vec![f.to_string()],
        from: "pasted:progress lines 1-5".into(),
        ..Default::default()
    })
    .collect()
}

/// mborgerson/fatx#63: mv onto a FATX partition at 4.1 MiB/s, cat from it at 127.9 MiB/s
/// (3 %). Near misses: a copy at a fifth of the read, a read alone.
#[test]
fn a_pasted_copy_far_below_a_read() {
    let mut s = sys(vec![], vec![]);
    s.user_benchmarks = progress(4.1, 127.9);
    let f = WriteMuchSlowerThanRead.run(&s);
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(f[0].severity, Severity::Warning);
    s.user_benchmarks = progress(25.0, 127.9);
    assert!(WriteMuchSlowerThanRead.run(&s).is_empty());
    s.user_benchmarks = progress(4.1, 127.9).split_off(1);
    assert!(WriteMuchSlowerThanRead.run(&s).is_empty());
}
