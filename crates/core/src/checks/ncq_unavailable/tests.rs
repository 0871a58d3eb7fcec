use super::*;
use crate::checks::testutil::*;
use crate::facts::{DeviceClass, Fact};

fn run(sys: &SystemFacts) -> Finding {
    let fs = NcqUnavailable.run(sys);
    assert_eq!(fs.len(), 1);
    fs.into_iter().next().unwrap_or_else(|| unreachable!())
}

#[test]
fn ncq_32_in_use_passes() {
    let f = run(&linux(sata_hdd_ahci()));
    assert_vs(&f, Verdict::Pass, Severity::Info);
    assert_eq!(f.title, "NCQ in use, drive depth 32: good");
}

#[test]
fn seed000_legacy_controller_no_ncq() {
    let f = run(&seed000_desktop());
    assert_vs(&f, Verdict::Problem, Severity::Notice);
    assert!(f.explanation.contains("controller-legacy-mode"));
    assert!(f.evidence.iter().any(|e| e.source
        == crate::sources::camcontrol_identify::ATACONTROL_SPEC.key_for("ad4")
        && e.value == "ncq_active=no"));
    assert!(f.fixes[0].summary.contains("AHCI"));
}

#[test]
fn queue_depth_1_on_ssd_is_warning() {
    let mut d = sata_hdd_ahci();
    d.class = Fact::known(
        DeviceClass::Ssd,
        crate::sources::sysfs::block("sda", "queue/rotational"),
    );
    d.ncq_active = Fact::unknown("not reported on Linux");
    d.queue_depth = Fact::known(1, crate::sources::sysfs::block("sda", "device/queue_depth"));
    let f = run(&linux(d));
    assert_vs(&f, Verdict::Problem, Severity::Warning);
    assert!(f.evidence.iter().any(|e| e.source
        == crate::sources::sysfs::block("sda", "device/queue_depth")
        && e.value == "queue_depth=1"));
    assert!(
        f.fixes[0]
            .steps
            .iter()
            .any(|s| s.contains("echo 32 > /sys/block/sda/device/queue_depth"))
    );
    assert!(f.fixes[0].steps[0].contains("noncq"));
}

#[test]
fn freebsd_tags_fix() {
    let mut d = sata_hdd_ahci_freebsd();
    d.ncq_active = Fact::known(
        false,
        crate::sources::camcontrol_identify::SPEC.key_for("ada0"),
    );
    let f = run(&freebsd(d));
    assert!(f.fixes[0].steps[0].contains("camcontrol tags ada0 -N 32"));
}

#[test]
fn unsupported_is_not_applicable() {
    let mut d = sata_hdd_ahci();
    d.ncq_supported = Fact::known(false, "ioctl:/dev/sda:ATA_IDENTIFY");
    d.queue_depth = Fact::known(1, crate::sources::sysfs::block("sda", "device/queue_depth"));
    assert_eq!(run(&linux(d)).verdict, Verdict::NotApplicable);
}

#[test]
fn unknown_support_unknown_use() {
    let mut d = sata_hdd_ahci();
    d.ncq_supported = Fact::unknown("permission denied (run as root)");
    d.ncq_active = Fact::unknown("not probed");
    d.queue_depth = Fact::unknown("not present");
    let f = run(&linux(d));
    assert_vs(&f, Verdict::Unknown, Severity::Info);
    assert!(f.explanation.contains("permission denied"));
}

#[test]
fn legacy_controller_unknown_support_says_what_is_known() {
    // The seed000 desktop bundle's atacontrol listing is the elided second one ("..."),
    // without the NCQ row.
    let mut s = seed000_desktop();
    s.disks[0].ncq_supported = Fact::unknown("no NCQ row in `atacontrol cap ad4`");
    s.disks[0].ncq_active = Fact::unknown("not probed");
    let f = run(&s);
    assert_vs(&f, Verdict::Unknown, Severity::Info);
    assert_eq!(
        f.title,
        "ad4: commands not queued; drive's NCQ support unknown"
    );
    assert!(f.explanation.contains("no NCQ row"));
    assert!(f.explanation.contains("controller in legacy IDE mode"));
    assert!(
        f.evidence
            .iter()
            .any(|e| e.source == crate::sources::dmesg::SPEC.key_for(""))
    );
}

#[test]
fn supported_but_use_unknown() {
    let mut d = sata_hdd_ahci();
    d.ncq_active = Fact::unknown("not probed");
    d.queue_depth = Fact::unknown("not present");
    let f = run(&linux(d));
    assert_vs(&f, Verdict::Unknown, Severity::Info);
    assert!(f.explanation.contains("queue_depth"));
}

/// A SATA drive (it reports NCQ) on a parallel ATA port through an adapter: the PATA
/// channel keeps it at one command, which is the problem, not "PATA has no NCQ".
#[test]
fn sata_drive_on_pata_port_is_a_problem() {
    let mut d = sata_hdd_ahci();
    d.transport = Fact::known(Transport::Pata, "cmd:dmesg");
    d.controller = Fact::unknown("not shown");
    d.ncq_active = Fact::known(false, "cmd:dmesg");
    let f = run(&linux(d));
    assert_eq!(f.verdict, Verdict::Problem);
    assert!(f.explanation.contains("parallel ATA port"));
}

/// A PATA drive that reports no NCQ support stays not applicable.
#[test]
fn pata_drive_without_ncq_not_applicable() {
    let mut d = sata_hdd_ahci();
    d.transport = Fact::known(Transport::Pata, "cmd:dmesg");
    d.ncq_supported = Fact::unknown("no NCQ in the identity line");
    assert_eq!(run(&linux(d)).verdict, Verdict::NotApplicable);
}
