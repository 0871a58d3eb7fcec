use super::*;
use crate::checks::testutil::*;
use crate::facts::Fact;

fn run(sys: &SystemFacts) -> Finding {
    let fs = EncryptionLayer.run(sys);
    assert_eq!(fs.len(), 1);
    fs.into_iter().next().unwrap_or_else(|| unreachable!())
}

fn geli(crypto: Option<&str>) -> Layer {
    Layer {
        kind: Some(LayerKind::Geli),
        name: "ada0p4.eli".to_string(),
        on: vec!["ada0p4".to_string()],
        cipher: Some("AES-XTS".to_string()),
        key_bits: Some(128),
        crypto_impl: crypto.map(str::to_string),
        from: vec![crate::sources::geli::SPEC.key_for("")],
        ..Default::default()
    }
}

/// Seed 002: the HDD (WDC WD4002FYYZ) with a GELI partition under the zstorage pool.
fn seed002(crypto: Option<&str>) -> SystemFacts {
    let mut d = sata_hdd_ahci_freebsd();
    d.model = Fact::known(
        "WDC WD4002FYYZ-01B7CB1".to_string(),
        crate::sources::camcontrol_identify::SPEC.key_for("ada0"),
    );
    d.layers = vec![
        geli(crypto),
        Layer {
            kind: Some(LayerKind::Zfs),
            name: "zstorage".to_string(),
            on: vec!["ada0p4.eli".to_string()],
            ashift: Some(12),
            from: vec![crate::sources::zpool::SPEC.key_for("")],
            ..Default::default()
        },
    ];
    freebsd(d)
}

#[test]
fn seed002_geli_hardware_is_notice() {
    let f = run(&seed002(Some("hardware")));
    assert_vs(&f, Verdict::Problem, Severity::Notice);
    assert_eq!(
        f.title,
        "ada0: encrypted (GELI ada0p4.eli: AES-XTS 128-bit key, crypto hardware)"
    );
    assert!(f.explanation.contains("191 MB/s"));
    assert!(
        f.explanation
            .contains("ada0: ada0p4.eli (GELI) on ada0p4; zstorage (ZFS) on ada0p4.eli")
    );
    assert!(
        f.evidence
            .iter()
            .any(|e| e.source == crate::sources::geli::SPEC.key_for(""))
    );
    assert!(f.fixes.is_empty());
}

#[test]
fn geli_software_with_aesni_cpu_is_warning_with_kldload() {
    let f = run(&seed002(Some("software")));
    assert_vs(&f, Verdict::Problem, Severity::Warning);
    assert!(f.explanation.contains("loading the AES-NI driver"));
    assert!(f.fixes[0].steps[0].contains("kldload aesni"));
}

#[test]
fn luks_without_aesni_cpu_is_warning() {
    let mut d = sata_hdd_ahci();
    d.layers = vec![Layer {
        kind: Some(LayerKind::Luks),
        name: "dm-0".to_string(),
        display_name: Some("/dev/mapper/cryptroot".to_string()),
        cipher: Some("aes-xts-plain64".to_string()),
        key_bits: Some(512),
        from: vec![crate::sources::dmsetup::SPEC.key_for("")],
        ..Default::default()
    }];
    let mut s = linux(d);
    s.aes_ni = Fact::known(false, crate::sources::sysfs::proc("cpuinfo"));
    let f = run(&s);
    assert_vs(&f, Verdict::Problem, Severity::Warning);
    assert!(f.title.contains("aes-xts-plain64 512-bit key"));
    assert!(
        f.evidence
            .iter()
            .any(|e| e.source == crate::sources::sysfs::proc("cpuinfo") && e.value == "aes_ni=no")
    );
    assert!(f.fixes[0].summary.contains("Adiantum"));
}

#[test]
fn luks_with_aesni_driver_is_notice() {
    let mut d = sata_hdd_ahci();
    d.layers = vec![Layer {
        kind: Some(LayerKind::Luks),
        name: "dm-0".to_string(),
        cipher: Some("aes-xts-plain64".to_string()),
        key_bits: Some(512),
        from: vec![crate::sources::dmsetup::SPEC.key_for("")],
        ..Default::default()
    }];
    let mut s = linux(d);
    s.aes_driver = Fact::known(
        "xts-aes-aesni".to_string(),
        crate::sources::proc_crypto::LIVE.key_for(""),
    );
    let f = run(&s);
    assert_vs(&f, Verdict::Problem, Severity::Notice);
    assert!(
        f.evidence
            .iter()
            .any(|e| e.source == crate::sources::proc_crypto::LIVE.key_for(""))
    );
}

#[test]
fn impl_unknown_says_so() {
    let mut s = seed002(None);
    s.aes_ni = Fact::unknown("CPU features not captured");
    let f = run(&s);
    assert_vs(&f, Verdict::Problem, Severity::Notice);
    assert!(f.explanation.contains("CPU features not captured"));
    assert!(f.explanation.contains("geli list"));
}

#[test]
fn no_layers_passes() {
    assert_vs(&run(&linux(sata_hdd_ahci())), Verdict::Pass, Severity::Info);
}

#[test]
fn classify_words() {
    assert_eq!(classify_impl("accelerated software"), Some(true));
    assert_eq!(classify_impl("xts-aes-aesni"), Some(true));
    assert_eq!(classify_impl("xts(ecb(aes-generic))"), Some(false));
    assert_eq!(classify_impl("Software"), Some(false));
    assert_eq!(classify_impl("cryptodev"), None);
}

/// AES implementation unknown, but a read through the mapper device pasted at 1.9 GB/s:
/// the layer costs nothing visible (info); at 150 MB/s it proves nothing (notice stays).
#[test]
fn a_fast_read_through_the_layer_makes_it_info() {
    let mut d = sata_hdd_ahci();
    d.layers = vec![Layer {
        kind: Some(LayerKind::DmCrypt),
        name: "luks-1234".to_string(),
        display_name: Some("/dev/mapper/luks-1234".to_string()),
        from: vec![crate::sources::dmsetup::SPEC.key_for("")],
        ..Default::default()
    }];
    let mut s = linux(d);
    let read = |rate: f64| crate::facts::UserBenchmark {
        tool: "dd".into(),
        command: Some("dd if=/dev/mapper/luks-1234 of=/dev/null bs=1M".into()),
        input: Some("/dev/mapper/luks-1234".into()),
        output: Some("/dev/null".into()),
        bytes_per_sec: Some(rate),
        from: "pasted:dd lines 1-3".into(),
        ..Default::default()
    };
    s.user_benchmarks = vec![read(1.9e9)];
    let f = run(&s);
    assert_vs(&f, Verdict::Problem, Severity::Info);
    assert!(f.explanation.contains("1900 MB/s"), "{}", f.explanation);
    s.user_benchmarks = vec![read(150e6)];
    assert_vs(&run(&s), Verdict::Problem, Severity::Notice);
}
