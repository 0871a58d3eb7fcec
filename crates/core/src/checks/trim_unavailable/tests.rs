use super::*;
use crate::checks::testutil::*;
use crate::checks::testutil_nvme::nvme_ssd;
use crate::facts::{DeviceClass, Fact, FsTrim, Transport};

fn ssd() -> DiskFacts {
    let mut d = sata_hdd_ahci();
    d.class = Fact::known(
        DeviceClass::Ssd,
        crate::sources::sysfs::block("sda", "queue/rotational"),
    );
    d.rotation_rpm = Fact::known(0, "ioctl:/dev/sda:ATA_IDENTIFY");
    d.trim_supported = Fact::known(true, "ioctl:/dev/sda:ATA_IDENTIFY");
    d.trim.discard_max_bytes = Fact::known(
        0,
        crate::sources::sysfs::block("sda", "queue/discard_max_bytes"),
    );
    d
}

#[test]
fn zero_discard_fires_and_usb_gets_provisioning_mode() {
    let f = &TrimUnavailable.run(&linux(ssd()))[0];
    assert_vs(f, Verdict::Problem, Severity::Warning);
    assert!(f.evidence[0].value == "discard_max_bytes=0");
    let mut d = ssd();
    d.transport = Fact::known(Transport::Usb, "realpath:/sys/block/sda");
    let f = &TrimUnavailable.run(&linux(d))[0];
    assert!(f.explanation.contains("USB bridge"));
    assert!(f.fixes[0].steps[0].contains("provisioning_mode"));
}

fn trimmed(periodic: &[&str], online: &[&str], without: &[&str]) -> DiskFacts {
    let mut d = ssd();
    d.trim.discard_max_bytes = Fact::known(
        2_147_450_880,
        crate::sources::sysfs::block("sda", "queue/discard_max_bytes"),
    );
    d.trim.fs_trim = Fact::Known {
        value: FsTrim {
            online: online.iter().map(|s| s.to_string()).collect(),
            without_discard: without.iter().map(|s| s.to_string()).collect(),
            periodic: periodic
                .iter()
                .map(|s| crate::facts::TrimJob {
                    what: s.to_string(),
                    from: crate::evidence::SourceKey::cmd(
                        crate::plan::device_state::FSTRIM_TIMER_ENABLED,
                    )
                    .to_string(),
                })
                .collect(),
        },
        from: vec![
            crate::sources::sysfs::proc("self/mountinfo"),
            crate::evidence::SourceKey::cmd(crate::plan::device_state::FSTRIM_TIMER_ENABLED)
                .to_string(),
        ],
    };
    d
}

#[test]
fn never_trimmed_filesystems_get_the_timer() {
    let f = &TrimUnavailable.run(&linux(trimmed(&[], &[], &["/", "/home"])))[0];
    assert_vs(f, Verdict::Problem, Severity::Notice);
    assert_eq!(f.title, "sda: filesystems never trimmed (/, /home)");
    assert!(f.fixes[0].steps[0].contains("systemctl enable --now fstrim.timer"));
    assert!(f.fixes[0].risk.contains("power"), "{}", f.fixes[0].risk);
    assert!(
        f.evidence
            .iter()
            .any(|e| e.source == crate::sources::sysfs::proc("self/mountinfo"))
    );
}

#[test]
fn freebsd_ufs_with_trim_off_gets_tunefs() {
    let mut d = trimmed(&[], &[], &["/"]);
    d.trim.fs_trim = Fact::Known {
        value: FsTrim {
            without_discard: vec!["/".into()],
            ..Default::default()
        },
        from: vec![crate::sources::tunefs::SPEC.key_for("ada0p2")],
    };
    d.mounts.push(crate::facts::Mount {
        source: "/dev/ada0p2".into(),
        mountpoint: "/".into(),
        fstype: "ufs".into(),
        ..Default::default()
    });
    let mut s = linux(d);
    s.platform = Platform::Freebsd;
    let f = &TrimUnavailable.run(&s)[0];
    assert_vs(f, Verdict::Problem, Severity::Notice);
    assert!(
        f.explanation.contains("UFS with the TRIM flag off"),
        "{}",
        f.explanation
    );
    assert!(!f.explanation.contains("fstrim.timer"), "{}", f.explanation);
    let fix = f
        .fixes
        .iter()
        .find(|x| x.platform == Platform::Freebsd)
        .expect("fix");
    assert!(
        fix.steps[0].contains("`tunefs -t enable /dev/ada0p2`"),
        "{:?}",
        fix.steps
    );
    assert!(fix.risk.contains("power"));
    assert!(f.evidence.iter().any(
        |e| e.source == crate::sources::tunefs::SPEC.key_for("ada0p2")
            && e.value == "trim: (-t) disabled"
    ));
}

#[test]
fn any_trim_path_keeps_it_silent() {
    for d in [
        trimmed(
            &["fstrim.timer enabled (systemctl is-enabled)"],
            &[],
            &["/"],
        ),
        trimmed(&["cron job /etc/cron.weekly/fstrim"], &[], &["/"]),
        trimmed(&[], &["/"], &["/boot"]),
        // Nothing mounted from the disk: nothing to trim.
        trimmed(&[], &[], &[]),
    ] {
        let f = &TrimUnavailable.run(&linux(d))[0];
        assert_vs(f, Verdict::Pass, Severity::Info);
    }
    let f = &TrimUnavailable.run(&linux(trimmed(
        &["fstrim.timer enabled (systemctl is-enabled)"],
        &[],
        &["/"],
    )))[0];
    assert!(
        f.explanation.contains("Trimmed by: fstrim.timer enabled"),
        "{}",
        f.explanation
    );
}

fn with_pools(mut d: DiskFacts, rows: &[(&str, &str)]) -> DiskFacts {
    d.trim.zfs_autotrim = Fact::known(
        rows.iter()
            .map(|(p, v)| crate::facts::PoolAutotrim {
                pool: p.to_string(),
                value: v.to_string(),
                periodic: None,
            })
            .collect(),
        crate::sources::zpool_autotrim::LIVE.key_for(""),
    );
    d
}

#[test]
fn zfs_pool_with_autotrim_off_gets_a_hint_per_os() {
    let d = with_pools(trimmed(&[], &[], &[]), &[("tank", "off"), ("fast", "on")]);
    let f = &TrimUnavailable.run(&linux(d.clone()))[0];
    assert_vs(f, Verdict::Problem, Severity::Notice);
    assert_eq!(f.confidence, Confidence::Low);
    assert_eq!(f.title, "sda: ZFS pool tank has autotrim off");
    assert!(
        f.explanation.contains("may still exist"),
        "{}",
        f.explanation
    );
    assert!(
        f.evidence
            .iter()
            .any(|e| e.source.contains("autotrim") && e.value == "autotrim=off: tank")
    );
    let fix = &f.fixes[0];
    assert!(fix.steps[0].contains("`sudo zpool set autotrim=on tank`"));
    assert!(fix.steps[1].contains("zfs-trim-weekly@tank.timer"));
    let mut s = linux(d);
    s.platform = Platform::Freebsd;
    let f = &TrimUnavailable.run(&s)[0];
    let fix = f
        .fixes
        .iter()
        .find(|x| x.platform == Platform::Freebsd)
        .expect("fix");
    assert!(fix.steps[0].starts_with("`zpool set autotrim=on tank`"));
    assert!(fix.steps[1].contains("daily_trim_zfs_enable=YES"));
}

#[test]
fn autotrim_on_or_broken_path_gives_no_hint() {
    let f = &TrimUnavailable.run(&linux(with_pools(
        trimmed(&[], &[], &[]),
        &[("tank", "on")],
    )))[0];
    assert_vs(f, Verdict::Pass, Severity::Info);
    assert!(
        f.explanation.contains("ZFS pool tank: autotrim=on."),
        "{}",
        f.explanation
    );
    // autotrim off, but OpenZFS's weekly timer trims the pool: no hint, and the pass
    // says what trims it.
    let mut d = with_pools(trimmed(&[], &[], &[]), &[("tank", "off")]);
    if let Fact::Known { value, .. } = &mut d.trim.zfs_autotrim {
        value[0].periodic =
            Some("zfs-trim-weekly@tank.timer enabled (timers.target wants it)".into());
    }
    let f = &TrimUnavailable.run(&linux(d))[0];
    assert_vs(f, Verdict::Pass, Severity::Info);
    assert!(
        f.explanation
            .contains("trimmed by zfs-trim-weekly@tank.timer"),
        "{}",
        f.explanation
    );
    // A broken discard path is the problem to report, whatever the pool says.
    let f = &TrimUnavailable.run(&linux(with_pools(ssd(), &[("tank", "off")])))[0];
    assert_vs(f, Verdict::Problem, Severity::Warning);
    assert!(f.title.contains("TRIM does not reach"), "{}", f.title);
    // An unknown discard path with the pool's autotrim off: still the hint.
    let mut d = with_pools(ssd(), &[("tank", "off")]);
    d.trim.discard_max_bytes = Fact::unknown("not captured");
    let f = &TrimUnavailable.run(&linux(d))[0];
    assert_vs(f, Verdict::Problem, Severity::Notice);
    // An HDD pool: not this check's business.
    assert!(
        TrimUnavailable
            .run(&linux(with_pools(sata_hdd_ahci(), &[("tank", "off")])))
            .is_empty()
    );
}

#[test]
fn healthy_nvme_and_hdd() {
    let f = &TrimUnavailable.run(&linux(nvme_ssd()))[0];
    assert_vs(f, Verdict::Pass, Severity::Info);
    assert!(TrimUnavailable.run(&linux(sata_hdd_ahci())).is_empty());
}

#[test]
fn freebsd_delete_method_none() {
    let mut d = ssd();
    d.name = "da0".into();
    d.trim.discard_max_bytes = Fact::unknown("Linux only");
    d.trim.delete_method = Fact::known(
        "NONE".into(),
        crate::sources::sysctl::DA_DELETE_METHOD.key_for("da0"),
    );
    let f = &TrimUnavailable.run(&freebsd(d.clone()))[0];
    assert_vs(f, Verdict::Problem, Severity::Warning);
    assert!(f.fixes[0].steps[0].contains("kern.cam.da.0.delete_method"));
    d.trim.delete_method = Fact::known(
        "ATA_TRIM".into(),
        crate::sources::sysctl::DA_DELETE_METHOD.key_for("da0"),
    );
    assert_eq!(TrimUnavailable.run(&freebsd(d))[0].verdict, Verdict::Pass);
}

mod fixture_tests {
    use super::super::*;
    use crate::checks::testutil::*;
    use crate::checks::testutil_nvme::fixture;
    use crate::facts::Fact;
    use crate::sources::{lsblk, smartctl};

    /// A disk known only from pasted smartctl -i and lsblk -D (the explain path).
    fn pasted(name: &str, smart: &str, lsblk_d: &str) -> DiskFacts {
        let mut d = DiskFacts::new(name, &format!("/dev/{name}"));
        smartctl::apply(&mut d, "pasted:smartctl", &fixture(smart));
        let rows = lsblk::parse(&fixture(lsblk_d));
        assert!(lsblk::apply(&mut d, "pasted:lsblk -D", &rows));
        d
    }

    #[test]
    fn ssd_behind_p410i_fires() {
        let d = pasted(
            "sda",
            "linux/smartctl/i-ssd-crucial-mx300-behind-p410i-hpsahba-3-excerpt.txt",
            "lsblk-D/p410i-hba-crucial-mx300-ssd-all-zero-hpsahba-3.txt",
        );
        let f = &TrimUnavailable.run(&linux(d))[0];
        assert_vs(f, Verdict::Problem, Severity::Warning);
        assert!(f.evidence.iter().any(|e| e.source == "pasted:lsblk -D"));
    }

    #[test]
    fn regenerated_lsblk_with_disc_max_2g_passes() {
        // tests/fixtures INDEX: regenerated from util-linux's real sysfs dump, not a capture.
        let mut d = DiskFacts::new("sda", "/dev/sda");
        d.rotation_rpm = Fact::known(0, "x");
        let rows = lsblk::parse(&fixture(
            "linux/lsblk-J/o-cols-regenerated-sata-ssd-ide-hdd-nvme.txt",
        ));
        assert!(lsblk::apply(&mut d, "pasted:lsblk -J", &rows));
        assert_eq!(d.trim.discard_max_bytes.get(), Some(2 << 30));
        assert_eq!(TrimUnavailable.run(&linux(d))[0].verdict, Verdict::Pass);
    }
}
