use super::*;
use crate::checks::testutil::*;
use crate::facts::{Fact, Transport};

fn run(sys: &SystemFacts) -> Vec<Finding> {
    ControllerLegacyMode.run(sys)
}

fn on_legacy_atapci(desc: &str) -> DiskFacts {
    let mut d = sata_hdd_ahci_freebsd();
    d.name = "ad4".to_string();
    d.dev_path = "/dev/ad4".to_string();
    d.controller = Fact::known(
        Controller {
            mode: Some(ControllerMode::LegacyIde),
            driver: Some("atapci".to_string()),
            description: Some(desc.to_string()),
            address: Some("atapci1".to_string()),
            ..Default::default()
        },
        crate::sources::dmesg::SPEC.key_for(""),
    );
    d
}

/// `ada0 at ata4 bus 0 scbus2 target 0 lun 0` with no atapci line: ata(4) also drives
/// native non-AHCI SATA chips, so the channel alone is unknown (info), for any channel
/// number and disk; with the atapci line's IDE-mode description it is a problem again.
#[test]
fn ata_channel_alone_is_unknown_not_legacy_mode() {
    for (name, chan) in [("ada0", "ata4"), ("ada3", "ata"), ("ada1", "ata12")] {
        let mut d = sata_hdd_ahci_freebsd();
        d.name = name.to_string();
        d.dev_path = format!("/dev/{name}");
        d.controller = Fact::known(
            Controller {
                mode: Some(ControllerMode::LegacyIde),
                driver: Some(chan.to_string()),
                ..Default::default()
            },
            crate::sources::dmesg::SPEC.key_for(""),
        );
        let f = run(&freebsd(d.clone()));
        assert_eq!(
            f[0].verdict,
            Verdict::Unknown,
            "{name} at {chan}: {}",
            f[0].title
        );
        assert_eq!(f[0].severity, Severity::Info);
        assert!(f[0].title.contains("ata(4) channel"), "{}", f[0].title);
        if let Some(c) = d.controller.value().cloned() {
            d.controller = Fact::known(
                Controller {
                    description: Some("Intel ICH7 UDMA100 controller".to_string()),
                    ..c
                },
                crate::sources::dmesg::SPEC.key_for(""),
            );
        }
        let f = run(&freebsd(d));
        assert_eq!(f[0].verdict, Verdict::Problem, "{name}: {}", f[0].title);
    }
}

/// The batch-25 class: `ada0 at ata2 ...` and `ada0: 150.000MB/s transfers (SATA, UDMA5,
/// PIO 8192bytes)` with no SATA revision: the channel hides its SATA status, so the
/// channel alone is an IDE-emulating SATA function (a problem, not unknown).
#[test]
fn ata_channel_without_sata_status_is_legacy_mode() {
    let mut d = sata_hdd_ahci_freebsd();
    d.name = "ada0".to_string();
    d.dev_path = "/dev/ada0".to_string();
    d.controller = Fact::known(
        Controller {
            mode: Some(ControllerMode::LegacyIde),
            driver: Some("ata".to_string()),
            sata_status_hidden: Some(true),
            ..Default::default()
        },
        crate::sources::dmesg::SPEC.key_for(""),
    );
    let f = run(&freebsd(d));
    assert_eq!(f[0].verdict, Verdict::Problem, "{}", f[0].title);
    assert!(
        f[0].explanation.contains("no SATA status"),
        "{}",
        f[0].explanation
    );
}

/// The reviewed corpus's FreeBSD 8.4 dmesg: `atapci1: <SiS 5513 WDMA2 controller>`,
/// `ad4: 114473MB <OCZ AGILITY3 2.25> at ata2-master WDMA2`. ata-sis.c's fallback row
/// caps the port at WDMA2 whether the drive is called SATA or not.
#[test]
fn wdma2_only_controller_caps_the_disk_with_the_freebsd_fix() {
    let mut d = on_legacy_atapci("SiS 5513 WDMA2 controller");
    d.transport = Fact::known(Transport::Pata, crate::sources::dmesg::SPEC.key_for(""));
    let fs = run(&freebsd(d));
    let f = only(&fs, "ad4");
    assert_vs(f, Verdict::Problem, Severity::Warning);
    assert_eq!(
        f.title,
        "ad4: the controller runs at WDMA2, at most 16.7 MB/s"
    );
    assert!(f.explanation.contains("ata-sis.c"), "{}", f.explanation);
    assert!(!f.explanation.contains("  "), "{}", f.explanation);
    let steps = &f.fixes[0].steps;
    assert!(steps.iter().any(|s| s.contains("ahci_load=\"YES\"")));
    assert!(steps.iter().any(|s| s.contains("set the SATA mode")));
    assert!(steps.iter().any(|s| s.contains("changes from ad4 to ada0")));
    assert_eq!(f.fixes[0].platform, Platform::Freebsd);
    // A UDMA controller keeps its own verdicts; the cap is read from the description.
    assert!(
        dma_cap(&Controller {
            description: Some("Intel ICH7 UDMA100 controller".into()),
            ..Default::default()
        })
        .is_none()
    );
    assert_eq!(
        dma_cap(&Controller {
            description: Some("Generic PIO4 controller".into()),
            ..Default::default()
        }),
        Some(("PIO4".to_string(), 16.7))
    );
}

#[test]
fn controllers_without_ahci_get_no_ahci_advice() {
    // Seed 001: nForce CK804 SATA300 ports; the fbsd13 fixture: MCP51; ICH5.
    for desc in [
        "nVidia nForce CK804 SATA300 controller",
        "nVidia nForce MCP51 SATA300 controller",
        "Intel ICH5 SATA150 controller",
    ] {
        let fs = run(&freebsd(on_legacy_atapci(desc)));
        let f = only(&fs, "ad4");
        assert_vs(f, Verdict::Pass, Severity::Info);
        assert!(f.title.contains("has no AHCI mode"), "{}", f.title);
        assert!(f.fixes.is_empty());
        assert!(f.explanation.contains("ata-nvidia.c") || f.explanation.contains("ICH5"));
    }
    // The table matches words, not substrings: an ICH5-like name in another word fails.
    let c = Controller {
        description: Some("Intel ICH50 controller".to_string()),
        ..Default::default()
    };
    assert!(controller_row(&c).is_none());
}

#[test]
fn plain_ich7_offers_the_firmware_switch_only_conditionally() {
    let fs = run(&freebsd(on_legacy_atapci("Intel ICH7 UDMA100 controller")));
    let f = only(&fs, "ad4");
    assert_vs(f, Verdict::Problem, Severity::Warning);
    let steps = &f.fixes[0].steps;
    assert!(
        steps
            .iter()
            .any(|st| st.starts_with("If the firmware setup offers AHCI (only ICH7R")),
        "{steps:#?}"
    );
    assert!(!steps.iter().any(|st| st.starts_with("Reboot into")));
    // An ICH9 (every variant has AHCI) keeps the plain step.
    let fs = run(&freebsd(on_legacy_atapci("Intel ICH9 SATA300 controller")));
    assert!(
        only(&fs, "ad4").fixes[0]
            .steps
            .iter()
            .any(|st| st.starts_with("Reboot into the firmware setup"))
    );
}

#[test]
fn ahci_passes() {
    let fs = run(&linux(sata_hdd_ahci()));
    let f = only(&fs, "sda");
    assert_vs(f, Verdict::Pass, Severity::Info);
    assert_eq!(f.title, "AHCI, native mode: good");
    assert_eq!(
        f.evidence[0].source,
        crate::sources::sysfs::pci_device("0000:00:17.0", "class")
    );
}

#[test]
fn ata_piix_on_sata_is_warning_with_linux_fix() {
    let mut d = sata_hdd_ahci();
    d.controller = Fact::known(
        Controller {
            mode: None,
            driver: Some("ata_piix".to_string()),
            pci_class: Some(0x010180),
            ..Default::default()
        },
        "realpath:/sys/block/sda",
    );
    let fs = run(&linux(d));
    let f = only(&fs, "sda");
    assert_vs(f, Verdict::Problem, Severity::Warning);
    assert!(f.explanation.contains("ata_piix"));
    assert!(f.explanation.contains("0x010180"));
    assert_eq!(f.fixes.len(), 1);
    assert_eq!(f.fixes[0].platform, Platform::Linux);
    assert!(
        f.fixes[0]
            .steps
            .iter()
            .any(|s| s.contains("update-initramfs"))
    );
    assert!(f.fixes[0].risk.contains("initramfs"));
    assert_eq!(f.evidence[0].source, "realpath:/sys/block/sda");
}

#[test]
fn pata_driver_alone_is_enough() {
    let mut d = sata_hdd_ahci();
    d.controller = Fact::known(
        Controller {
            driver: Some("pata_jmicron".to_string()),
            ..Default::default()
        },
        "realpath:/sys/block/sda",
    );
    assert_eq!(run(&linux(d))[0].verdict, Verdict::Problem);
}

#[test]
fn dma_off_on_the_ide_driver_is_a_problem_with_or_without_a_controller() {
    let mut d = DiskFacts {
        name: "hdc".to_string(),
        dev_path: "/dev/hdc".to_string(),
        ..Default::default()
    };
    d.ide_dma = Fact::known(
        crate::facts::IdeDma {
            on: false,
            set_error: Some("Operation not permitted".to_string()),
        },
        "pasted:hdparm-W hdc",
    );
    let f = check_disk(&linux(d.clone()), &d);
    assert_eq!(f.verdict, Verdict::Problem);
    assert_eq!(f.severity, Severity::Warning);
    assert!(
        f.explanation
            .contains("HDIO_SET_DMA failed: Operation not permitted")
    );
    // Refused: no "hdparm -d1" fix, only the driver change.
    assert_eq!(f.fixes.len(), 1);
    d.ide_dma = Fact::known(
        crate::facts::IdeDma {
            on: false,
            set_error: None,
        },
        "pasted:hdparm-W hdc",
    );
    let f = check_disk(&linux(d.clone()), &d);
    assert_eq!(f.fixes.len(), 2);
    assert!(f.fixes[0].steps[0].contains("hdparm -d1 /dev/hdc"));
    d.ide_dma = Fact::known(
        crate::facts::IdeDma {
            on: true,
            set_error: None,
        },
        "pasted:hdparm-W hdc",
    );
    assert_ne!(check_disk(&linux(d.clone()), &d).verdict, Verdict::Problem);
}

#[test]
fn seed000_ich7_udma100_on_sata_drive() {
    let fs = run(&seed000_desktop());
    let f = only(&fs, "ad4");
    assert_vs(f, Verdict::Problem, Severity::Warning);
    assert!(f.explanation.contains("Intel ICH7 UDMA100 controller"));
    assert!(f.explanation.contains("ad4"));
    assert_eq!(f.fixes[0].platform, Platform::Freebsd);
    assert!(
        f.fixes[0]
            .steps
            .iter()
            .any(|s| s.contains("ahci_load=\"YES\""))
    );
    assert!(
        f.fixes[0]
            .steps
            .iter()
            .any(|s| s.contains("firmware setup"))
    );
    assert!(f.evidence.iter().any(|e| {
        e.source == crate::sources::dmesg::SPEC.key_for("")
            && e.value
                .contains("description=Intel ICH7 UDMA100 controller")
    }));
}

#[test]
fn freebsd8_ata_driver_on_ahci_hardware_needs_no_bios_change() {
    let mut d = sata_hdd_ahci_freebsd();
    d.name = "ad4".to_string();
    d.controller = Fact::known(
        Controller {
            driver: Some("atapci".to_string()),
            description: Some("Intel ICH9 SATA300 controller".to_string()),
            pci_class: Some(0x010601),
            ..Default::default()
        },
        crate::sources::dmesg::SPEC.key_for(""),
    );
    let fs = run(&freebsd(d));
    let f = only(&fs, "ad4");
    assert_vs(f, Verdict::Problem, Severity::Warning);
    assert!(f.title.contains("legacy IDE driver"));
    assert!(
        !f.fixes[0]
            .steps
            .iter()
            .any(|s| s.contains("firmware setup"))
    );
}

#[test]
fn pata_drive_on_ide_is_its_native_mode() {
    let mut d = seed000_desktop().disks.remove(0);
    d.transport = Fact::known(
        Transport::Pata,
        crate::sources::camcontrol_identify::ATACONTROL_SPEC.key_for("ad4"),
    );
    let fs = run(&freebsd(d));
    assert_vs(&fs[0], Verdict::Pass, Severity::Info);
}

#[test]
fn legacy_controller_unknown_drive_interface_is_unknown() {
    let mut d = seed000_desktop().disks.remove(0);
    d.transport = Fact::unknown("atacontrol: permission denied (run as root)");
    // Its WD5001ABYS model number would say SATA (wd_model_is_sata).
    d.model = Fact::unknown("not captured");
    let fs = run(&freebsd(d));
    let f = &fs[0];
    assert_vs(f, Verdict::Unknown, Severity::Info);
    assert!(f.explanation.contains("permission denied (run as root)"));
    assert!(f.explanation.contains("atacontrol cap ad4"));
}

/// WD model numbers end their letters with the interface: B parallel ATA, D/S/X/Z SATA.
#[test]
fn wd_model_numbers_name_the_interface() {
    use crate::checks::common::wd_model_is_sata;
    for (m, want) in [
        ("WDC WD5000AAKX-0", Some(true)),
        ("WDC WD30EFRX-68EUZN0", Some(true)),
        ("WD40EZRZ", Some(true)),
        ("WDC WD800JD-60LSA0", Some(true)),
        ("WDC WD10EZEX-08WN4A0", Some(true)),
        ("WDC WD800JB-00JJC0", Some(false)),
        ("WDC WD1600AAJB-00J3A0", Some(false)),
        ("WD Elements 25A2", None),
        ("WDC WD3001BKHG-02D22V1", None),
        ("ST3500418AS", None),
        ("WD", None),
    ] {
        assert_eq!(wd_model_is_sata(m), want, "{m}");
    }
}

#[test]
fn unknown_controller_says_why_and_how() {
    let mut d = sata_hdd_ahci();
    d.controller = Fact::unknown("/sys/block/sda/device: not present");
    let fs = run(&linux(d));
    assert_vs(&fs[0], Verdict::Unknown, Severity::Info);
    assert!(
        fs[0]
            .explanation
            .contains("/sys/block/sda/device: not present")
    );
    assert!(fs[0].explanation.contains("lspci -nnk"));
}

#[test]
fn nvme_not_applicable() {
    let mut d = sata_hdd_ahci();
    d.name = "nvme0n1".to_string();
    d.transport = Fact::known(Transport::Nvme, "realpath:/sys/block/nvme0n1");
    let fs = run(&linux(d));
    assert_vs(&fs[0], Verdict::NotApplicable, Severity::Info);
    assert!(fs[0].explanation.contains("PCIe"));
}

#[test]
fn sas_hba_passes() {
    let mut d = sata_hdd_ahci();
    d.controller = Fact::known(
        Controller {
            mode: Some(ControllerMode::SasHba),
            driver: Some("mpt3sas".to_string()),
            ..Default::default()
        },
        "realpath:/sys/block/sda",
    );
    assert_eq!(run(&linux(d))[0].verdict, Verdict::Pass);
}

#[test]
fn description_words() {
    assert!(description_is_legacy("Intel ICH7 UDMA100 controller"));
    assert!(description_is_legacy(
        "IDE interface: Intel 82801GB/GR/GH [IDE mode]"
    ));
    assert!(!description_is_legacy("Intel ICH9M AHCI SATA controller"));
    assert!(!description_is_legacy("provides storage"));
    assert!(driver_is_legacy("ata2"));
    assert!(!driver_is_legacy("ahci"));
    assert!(!driver_is_legacy("ata_generic_x"));
}
