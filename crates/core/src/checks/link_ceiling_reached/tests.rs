use super::*;
use crate::checks::Verdict;
use crate::checks::measured_common::synth::*;
use crate::facts::{DiskFacts, Fact};

fn disk(cur: f64, max: f64, class: DeviceClass) -> DiskFacts {
    let mut d = DiskFacts::new("sda", "/dev/sda");
    d.link_current_gbps = Fact::known(cur, crate::sources::sysfs::ata_link("link1", "sata_spd"));
    d.link_drive_max_gbps = Fact::known(max, "read:/dev/sda:identify");
    d.class = Fact::known(
        class,
        crate::sources::sysfs::block("sda", "queue/rotational"),
    );
    d
}

#[test]
fn ssd_on_a_1_5_gbps_link() {
    let s = sys(
        vec![disk(1.5, 6.0, DeviceClass::Ssd)],
        vec![
            result(TestName::SeqRead, "outer", "sda", 141.0, 1 << 20),
            result(TestName::SeqRead, "inner", "sda", 139.0, 1 << 20),
        ],
    );
    let f = LinkCeilingReached.run(&s);
    assert_eq!(f[0].verdict, Verdict::Problem);
    assert_eq!(
        f[0].title,
        "sda reads at 141.0 MB/s: the 1.5 Gb/s link's ceiling"
    );
    assert_eq!(f[0].impact, Some(0.75));
}

#[test]
fn hdd_below_the_ceiling_passes() {
    let s = sys(
        vec![disk(3.0, 6.0, DeviceClass::Hdd)],
        vec![result(TestName::SeqRead, "outer", "sda", 180.0, 1 << 20)],
    );
    assert_eq!(LinkCeilingReached.run(&s)[0].verdict, Verdict::Pass);
    // A drive that cannot go faster is not held back even at the ceiling.
    let s = sys(
        vec![disk(3.0, 3.0, DeviceClass::Hdd)],
        vec![result(TestName::SeqRead, "outer", "sda", 280.0, 1 << 20)],
    );
    assert_eq!(LinkCeilingReached.run(&s)[0].verdict, Verdict::Pass);
}
