use super::*;
use crate::checks::Verdict;
use crate::checks::measured_common::synth::*;
use crate::facts::{DiskFacts, Fact};

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
