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
