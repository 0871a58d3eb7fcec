use super::*;
use crate::checks::testutil::*;
use crate::facts::Fact;

fn zpool(ashift: Option<u32>) -> Layer {
    Layer {
        kind: Some(LayerKind::Zfs),
        name: "tank".to_string(),
        ashift,
        from: vec![crate::sources::zpool_ashift::ZDB_LIVE.key_for("tank")],
        ..Default::default()
    }
}

#[test]
fn ashift9_on_4k_is_warning() {
    let mut d = sata_hdd_ahci_freebsd();
    d.layers = vec![zpool(Some(9))];
    let fs = ZfsAshiftTooSmall.run(&freebsd(d));
    let f = only(&fs, "ada0");
    assert_vs(f, Verdict::Problem, Severity::Warning);
    assert!(f.explanation.contains("ashift=12"));
    assert!(
        f.fixes[0]
            .steps
            .iter()
            .any(|s| s.contains("vfs.zfs.min_auto_ashift=12"))
    );
    assert_eq!(
        f.evidence[0].source,
        crate::sources::zpool_ashift::ZDB_LIVE.key_for("tank")
    );
}

#[test]
fn ashift12_passes_no_zfs_skipped() {
    let mut d = sata_hdd_ahci();
    d.layers = vec![zpool(Some(12))];
    let fs = ZfsAshiftTooSmall.run(&linux(d));
    assert_vs(only(&fs, "sda"), Verdict::Pass, Severity::Info);
    assert!(ZfsAshiftTooSmall.run(&linux(sata_hdd_ahci())).is_empty());
}

#[test]
fn ashift_unknown() {
    let mut d = sata_hdd_ahci();
    d.layers = vec![zpool(None)];
    let fs = ZfsAshiftTooSmall.run(&linux(d));
    assert_vs(only(&fs, "sda"), Verdict::Unknown, Severity::Info);
}

#[test]
fn the_fix_never_asks_for_an_ashift_above_16() {
    // openzfs issue 13917's NVMe mirror: "65536B configured, 262144B native".
    let mut d = crate::checks::testutil_nvme::nvme_ssd();
    d.physical_sector_bytes = Fact::known(262144, "test");
    d.layers = vec![zpool(Some(16))];
    let fs = ZfsAshiftTooSmall.run(&freebsd(d.clone()));
    let f = only(&fs, &d.name);
    assert_vs(f, Verdict::Problem, Severity::Warning);
    assert!(f.fixes.is_empty(), "{:?}", f.fixes);
    assert!(f.explanation.contains("largest ashift is 16"));
    d.layers = vec![zpool(Some(12))];
    let fs = ZfsAshiftTooSmall.run(&freebsd(d.clone()));
    let f = only(&fs, &d.name);
    assert!(f.explanation.contains("ashift=16"), "{}", f.explanation);
}
