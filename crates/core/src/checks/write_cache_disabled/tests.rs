use super::*;
use crate::checks::testutil::*;
use crate::facts::pasted::WHOLE_CONTROLLER_NOTE;
use crate::facts::{DeviceClass, Fact};

fn run(sys: &SystemFacts) -> Finding {
    let fs = WriteCacheDisabled.run(sys);
    assert_eq!(fs.len(), 1);
    fs.into_iter().next().unwrap_or_else(|| unreachable!())
}

#[test]
fn software_scsi_target_is_exempt() {
    // `scsi 2:0:0:1: Direct-Access LIO-ORG TCMU device 0002` with WCE=0: by design.
    let mut d = sata_hdd_ahci();
    d.write_cache_enabled = Fact::known(false, "test");
    d.vendor = Fact::known("LIO-ORG".to_string(), "test");
    assert_eq!(run(&linux(d.clone())).verdict, Verdict::NotApplicable);
    // Near miss: a real drive vendor keeps the warning.
    d.vendor = Fact::known("ATA".to_string(), "test");
    assert_vs(&run(&linux(d)), Verdict::Problem, Severity::Warning);
}

#[test]
fn a_usb_bridges_caching_page_is_not_the_drives_cache() {
    // An RTL9210 NVMe enclosure on usb-storage: "sd 8:0:0:0: [sde] Write cache:
    // disabled, read cache: enabled, doesn't support DPO or FUA".
    let log = "[ 179.8] sd 8:0:0:0: [sde] Write cache: disabled, read cache: enabled, \
                   doesn't support DPO or FUA\n";
    let from = crate::sources::kernel_log::LINUX_SPEC.key_for("");
    let mut d = sata_hdd_ahci();
    d.name = "sde".into();
    d.transport = Fact::known(Transport::Usb, from.clone());
    d.write_cache_enabled = Fact::known(
        crate::sources::kernel_log::write_cache_of("sde", log).unwrap_or(true),
        from,
    );
    let f = run(&linux(d.clone()));
    assert_eq!(f.verdict, Verdict::NotApplicable, "{f:?}");
    // Near misses: the same state read through ATA pass-through is the drive's own, and
    // the same kernel line of a disk on a SATA port stays a warning.
    let mut sat = d.clone();
    sat.write_cache_enabled = Fact::known(false, crate::sources::smartctl::SPEC.key_for("sde"));
    assert_vs(&run(&linux(sat)), Verdict::Problem, Severity::Warning);
    let mut sata = d;
    sata.transport = Fact::known(Transport::Sata, "test");
    assert_vs(&run(&linux(sata)), Verdict::Problem, Severity::Warning);
}

#[test]
fn cache_on_passes() {
    assert_vs(&run(&linux(sata_hdd_ahci())), Verdict::Pass, Severity::Info);
}

#[test]
fn seed000_hw_ata_wc_0() {
    let f = run(&seed000_desktop());
    assert_vs(&f, Verdict::Problem, Severity::Warning);
    assert!(f.explanation.contains("75 MB/s"));
    assert!(f.explanation.contains("13 MB/s"));
    assert!(f.evidence.iter().any(
        |e| e.source == crate::sources::sysctl::HW_ATA_WC.key_for("")
            && e.value == "write_cache_enabled=no"
    ));
    assert!(
        f.evidence.iter().any(
            |e| e.source == crate::sources::camcontrol_identify::ATACONTROL_SPEC.key_for("ad4")
        )
    );
    assert_eq!(f.fixes.len(), 1);
    assert!(f.fixes[0].steps[0].contains("hw.ata.wc"));
    assert!(f.fixes[0].risk.contains("power loss"));
    assert!(f.fixes.iter().all(|x| x.platform == Platform::Freebsd));
}

#[test]
fn ada_uses_kern_cam_ada_sysctl() {
    let mut d = sata_hdd_ahci_freebsd();
    d.write_cache_enabled = Fact::known(
        false,
        crate::sources::sysctl::ADA_WRITE_CACHE.key_for("ada0"),
    );
    let f = run(&freebsd(d));
    assert!(f.fixes[0].steps[0].contains("kern.cam.ada.0.write_cache=\"1\""));
}

#[test]
fn linux_sata_gets_hdparm_udev_and_sysfs() {
    let mut d = sata_hdd_ahci();
    d.write_cache_enabled = Fact::known(
        false,
        crate::sources::sysfs::block("sda", "device/scsi_disk/0:0:0:0/cache_type"),
    );
    let f = run(&linux(d));
    assert_vs(&f, Verdict::Problem, Severity::Warning);
    let all: Vec<&String> = f.fixes.iter().flat_map(|x| &x.steps).collect();
    assert!(all.iter().any(|s| s.contains("hdparm -W1 /dev/sda")));
    assert!(all.iter().any(|s| s.contains("udev/rules.d")));
    assert!(all.iter().any(|s| s.contains("write back")));
    assert!(f.explanation.contains("power-loss"));
}

#[test]
fn linux_sas_gets_sdparm() {
    let mut d = sata_hdd_ahci();
    d.transport = Fact::known(Transport::Sas, "realpath:/sys/block/sda");
    d.write_cache_enabled = Fact::known(
        false,
        crate::sources::sysfs::block("sda", "device/scsi_disk/0:0:0:0/cache_type"),
    );
    let f = run(&linux(d));
    assert!(f.fixes[0].steps[0].contains("sdparm --set WCE=1"));
}

#[test]
fn raid_volume_write_through() {
    let mut d = sata_hdd_ahci();
    d.class = Fact::known(
        DeviceClass::RaidVolume,
        crate::sources::smartctl::EXTENDED.key_for("sda"),
    );
    d.transport = Fact::known(Transport::Scsi, "realpath:/sys/block/sda");
    d.write_cache_supported = Fact::unknown("not reported");
    d.write_cache_enabled = Fact::known(false, crate::sources::smartctl::EXTENDED.key_for("sda"));
    let f = run(&linux(d));
    assert!(f.title.contains("write-through"));
    // Seen only from the OS (smartctl's WCE=0 on the LUN): nothing says it was chosen.
    assert_vs(&f, Verdict::Problem, Severity::Warning);
    assert!(f.fixes[0].risk.contains("battery"));
    assert!(f.explanation.contains("not reported"));
}

#[test]
fn unsupported_cache_not_applicable() {
    let mut d = sata_hdd_ahci();
    d.write_cache_supported = Fact::known(false, "ioctl:/dev/sda:ATA_IDENTIFY");
    d.write_cache_enabled = Fact::known(false, "ioctl:/dev/sda:ATA_IDENTIFY");
    assert_eq!(run(&linux(d)).verdict, Verdict::NotApplicable);
}

#[test]
fn unknown_says_how() {
    let mut d = sata_hdd_ahci();
    d.write_cache_enabled = Fact::unknown("permission denied (run as root)");
    let f = run(&linux(d));
    assert_vs(&f, Verdict::Unknown, Severity::Info);
    assert!(f.explanation.contains("permission denied (run as root)"));
    assert!(f.explanation.contains("hdparm -I /dev/sda"));
}

#[test]
fn controller_fallback_is_a_warning_its_listed_policy_information() {
    // A volume from a controller's own listing (facts::pasted::raid_tools): write-through it
    // was set to is information; write-through the controller fell back to (MegaCli current
    // policy under a WriteBack default, HPE "Cache Status: Temporarily Disabled") a warning.
    let mut d = DiskFacts::new("virtual drive 0 of adapter 0", "");
    d.class = Fact::known(DeviceClass::RaidVolume, "pasted:block 1");
    d.write_cache_enabled = Fact::known(false, "pasted:block 1");
    d.notes.push(
        "megacli write policy: Current Cache Policy: WriteThrough, ReadAheadNone".to_string(),
    );
    assert_vs(&run(&linux(d.clone())), Verdict::Problem, Severity::Info);
    d.notes.push(
        "the controller turned this write cache off itself, against the policy it was set to"
            .to_string(),
    );
    let f = run(&linux(d));
    assert_vs(&f, Verdict::Problem, Severity::Warning);
    assert!(f.explanation.contains("turned its write cache off itself"));
    assert!(
        f.fixes[0].summary.contains("backup power"),
        "{}",
        f.fixes[0].summary
    );
}

#[test]
fn a_controller_wide_cache_is_titled_as_the_controller_not_a_volume() {
    // HPE's "Cache Status: Temporarily Disabled" is a property of the controller (one cache
    // module for all its logical drives): the title names the controller and says so.
    let mut d = DiskFacts::new("Smart Array P441 in Slot 1", "");
    d.class = Fact::known(DeviceClass::RaidVolume, "pasted:block 1");
    d.write_cache_enabled = Fact::known(false, "pasted:block 1");
    d.notes
        .push("ssacli write policy: Cache Status: Temporarily Disabled".to_string());
    d.notes.push(WHOLE_CONTROLLER_NOTE.to_string());
    let f = run(&linux(d.clone()));
    assert!(
        f.title
            .contains("controller write cache off (every volume on it"),
        "{}",
        f.title
    );
    assert!(!f.title.contains("RAID volume"), "{}", f.title);
    d.notes.pop();
    let f = run(&linux(d));
    assert!(
        f.title.contains("RAID volume in write-through"),
        "{}",
        f.title
    );
}
