use super::*;
use crate::checks::measured_common::synth::*;
use crate::facts::{DiskFacts, Fact};

fn sata(gbps: f64, class: DeviceClass) -> DiskFacts {
    let mut d = DiskFacts::new("sda", "/dev/sda");
    d.link_current_gbps = Fact::known(gbps, crate::sources::sysfs::ata_link("link1", "sata_spd"));
    d.class = Fact::known(
        class,
        crate::sources::sysfs::block("sda", "queue/rotational"),
    );
    d
}

#[test]
fn buffered_read_faster_than_the_link_is_the_cache() {
    let mut r = result(TestName::BsSweep, "buffered bs=512", "sda", 2100.0, 512);
    r.direct = false;
    let s = sys(
        vec![sata(3.0, DeviceClass::Ssd)],
        vec![result(TestName::SeqRead, "outer", "sda", 270.0, 1 << 20), r],
    );
    let f = CacheAnswered.run(&s);
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].verdict, Verdict::Problem);
    assert_eq!(
        f[0].title,
        "buffered bs=512 read at 2100.0 MB/s: faster than sda can deliver (300.0 MB/s)"
    );
    assert!(f[0].explanation.contains("page cache"));
}

#[test]
fn hdd_class_limit_and_pass() {
    let s = sys(
        vec![sata(6.0, DeviceClass::Hdd)],
        vec![result(TestName::SeqRead, "outer", "sda", 450.0, 1 << 20)],
    );
    let f = CacheAnswered.run(&s);
    assert!(f[0].title.ends_with("(300.0 MB/s)"), "{}", f[0].title);
    assert!(f[0].explanation.contains("O_DIRECT"));
    let s = sys(
        vec![sata(6.0, DeviceClass::Hdd)],
        vec![result(TestName::SeqRead, "outer", "sda", 190.0, 1 << 20)],
    );
    assert_eq!(CacheAnswered.run(&s)[0].verdict, Verdict::Pass);
    // No facts about the disk: nothing to say.
    assert!(
        CacheAnswered
            .run(&sys(
                vec![],
                vec![result(TestName::SeqRead, "outer", "sda", 9000.0, 1 << 20)]
            ))
            .is_empty()
    );
}

/// A file written by dd and read back (to /dev/null or /dev/zero, both sinks) at several
/// times the write's rate came from the page cache; a read after the size cap, or no
/// faster than the write, is left alone.
#[test]
fn pasted_read_back_of_a_file_just_written() {
    let run = crate::checks::pasted_tests::dd;
    let mut s = SystemFacts::empty(crate::evidence::Platform::Linux);
    s.user_benchmarks = vec![
        run(
            "dd if=/dev/zero of=testspeed bs=5M count=500",
            2621440000,
            730e6,
        ),
        run(
            "dd of=/dev/zero if=testspeed bs=5M count=500",
            2621440000,
            5.2e9,
        ),
    ];
    let f = CacheAnswered.run(&s);
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].verdict, Verdict::Problem);
    assert!(
        f[0].title.starts_with("testspeed read again"),
        "{}",
        f[0].title
    );
    // Near miss: read back at the write's own pace (a drive that reads as fast as it writes).
    s.user_benchmarks[1].bytes_per_sec = Some(900e6);
    assert!(CacheAnswered.run(&s).is_empty());
}

/// phoronix-test-suite#417: pts/iozone's read of a 4 GB file at 11726 MB/s on four HDDs.
/// Near misses: a read at a disk's pace, a file larger than half the RAM, a write.
#[test]
fn a_phoronix_iozone_read_of_a_cached_file() {
    let pts = |rate: f64, bytes: u64, rw: &str| crate::facts::UserBenchmark {
        tool: "pts/iozone".into(),
        bytes: Some(bytes),
        block_size_bytes: Some(64 << 10),
        bytes_per_sec: Some(rate),
        flags: vec![format!("rw={rw}")],
        from: "pasted:iozone-table lines 1-27".into(),
        ..Default::default()
    };
    let mut s = SystemFacts::empty(crate::evidence::Platform::Linux);
    s.user_benchmarks = vec![pts(11725.95e6, 4 << 30, "read")];
    let f = CacheAnswered.run(&s);
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(f[0].verdict, Verdict::Problem);
    for b in [
        pts(480e6, 4 << 30, "read"),
        pts(11725.95e6, 4 << 30, "write"),
    ] {
        s.user_benchmarks = vec![b];
        assert!(CacheAnswered.run(&s).is_empty());
    }
    s.user_benchmarks = vec![pts(11725.95e6, 64 << 30, "read")];
    s.ram_bytes = Fact::known(32u64 << 30, "t");
    assert!(CacheAnswered.run(&s).is_empty());
}
