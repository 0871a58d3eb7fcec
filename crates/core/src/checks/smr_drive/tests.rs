use super::*;
use crate::checks::testutil::*;
use crate::checks::testutil_nvme::fixture;
use crate::facts::{Fact, Layer};

fn from_smartctl(rel: &str) -> DiskFacts {
    let mut d = sata_hdd_ahci();
    d.model = Fact::unknown("from smartctl below");
    d.smart = Fact::unknown("from smartctl below");
    crate::sources::smartctl::apply(&mut d, &format!("pasted:{rel}"), &fixture(rel));
    d
}

fn one(sys: &SystemFacts) -> Finding {
    let v = SmrDrive.run(sys);
    assert_eq!(v.len(), 1, "{v:#?}");
    v.into_iter().next().unwrap_or_else(|| unreachable!())
}

#[test]
fn wd_red_efax_fires_from_table_and_family() {
    let f = one(&linux(from_smartctl(
        "linux/smartctl/a-hdd-wd40efax-red-smr-smartctl7.2.txt",
    )));
    assert_vs(&f, Verdict::Problem, Severity::Notice);
    assert!(f.explanation.contains("drivedb.h"), "{}", f.explanation);
    assert!(
        f.evidence
            .iter()
            .any(|e| e.value.contains("Western Digital Red (SMR)"))
    );
}

#[test]
fn barracuda_dm004_in_raidz_is_warning() {
    let mut d =
        from_smartctl("linux/smartctl/a-hdd-seagate-st4000dm004-barracuda-smr-raidz1-member.txt");
    d.name = "sdc".into();
    let mut s = linux(d);
    let t = fixture("linux/zpool-status/raidz1-degraded-too-many-errors-smr-member.txt");
    s.arrays = Fact::known(
        crate::facts::arrays::zfs_arrays(&t, &crate::sources::zpool::SPEC.key_for("")),
        "x",
    );
    let f = one(&s);
    assert_vs(&f, Verdict::Problem, Severity::Warning);
    assert!(f.explanation.contains("resilver"));
    assert!(
        f.fixes[0]
            .steps
            .iter()
            .any(|x| x.contains("one member at a time"))
    );
}

#[test]
fn freebsd_st2000dm008_fires() {
    let d = from_smartctl("freebsd/smartctl/x-hdd-seagate-barracuda-st2000dm008-smr-fbsd14.txt");
    let f = one(&freebsd(d));
    assert_eq!(f.verdict, Verdict::Problem);
}

#[test]
fn a_table_model_of_unknown_media_is_checked_an_unknown_model_is_not() {
    let mut d = sata_hdd_ahci();
    d.class = Fact::unknown("truncated paste");
    d.rotational = Fact::unknown("truncated paste");
    d.rotation_rpm = Fact::unknown("truncated paste");
    d.model = Fact::known("WDC WD60EFAX-68SHWN0".to_string(), "x");
    assert_eq!(one(&linux(d.clone())).verdict, Verdict::Problem);
    d.model = Fact::known("WDC WD60EFRX-68L0BN1".to_string(), "x");
    assert!(SmrDrive.run(&linux(d)).is_empty());
}

#[test]
fn cmr_drives_pass() {
    assert_vs(&one(&linux(sata_hdd_ahci())), Verdict::Pass, Severity::Info);
    let d = from_smartctl("linux/smartctl/a-sata-hdd-7200-ubuntu20.04-sdau.txt");
    assert_eq!(one(&linux(d)).verdict, Verdict::Pass);
    let mut d = sata_hdd_ahci();
    d.layers.push(Layer {
        kind: Some(LayerKind::Zfs),
        ..Default::default()
    });
    assert_eq!(one(&linux(d)).verdict, Verdict::Pass);
}

#[test]
fn host_aware_zoned_fires() {
    let mut d = sata_hdd_ahci();
    d.zoned = Fact::known(
        "host-aware".into(),
        crate::sources::sysfs::block("sda", "queue/zoned"),
    );
    let f = one(&linux(d));
    assert!(f.explanation.contains("host-aware"));
}

#[test]
fn table_is_consistent() {
    for (i, a) in SMR_MODELS.iter().enumerate() {
        assert!(!a.source.is_empty() && a.fragment.len() >= 7, "{a:?}");
        assert_eq!(a.fragment, a.fragment.to_ascii_uppercase());
        for b in SMR_MODELS.iter().skip(i + 1) {
            assert!(!a.fragment.contains(b.fragment) && !b.fragment.contains(a.fragment));
        }
    }
    assert!(lookup("WDC WD40EFRX-68N32N0").is_none());
    assert!(lookup("TOSHIBA HDWD240UZSVA").is_some());
}
