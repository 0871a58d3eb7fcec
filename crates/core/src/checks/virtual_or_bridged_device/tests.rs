use super::*;
use crate::checks::testutil::*;
use crate::facts::{Controller, ControllerMode, Fact, Transport};

fn run(sys: &SystemFacts) -> Finding {
    let fs = VirtualOrBridgedDevice.run(sys);
    assert_eq!(fs.len(), 1);
    fs.into_iter().next().unwrap_or_else(|| unreachable!())
}

#[test]
fn a_bridge_chips_own_identity_is_a_notice() {
    for model in [
        "ASMT109x- Fast",
        "ASMT2115",
        "H/W RAID1",
        "JMicron H/W RAID5",
    ] {
        let mut d = DiskFacts::new("ada1", "/dev/ada1");
        d.model = Fact::known(model.to_string(), "pasted:smartctl lines 1-40");
        d.rotation_rpm = Fact::known(7200, "pasted:smartctl lines 1-40");
        let f = run(&linux(d));
        assert_vs(&f, Verdict::Problem, Severity::Notice);
        assert!(f.title.contains(model), "{}", f.title);
        assert!(f.explanation.contains("media-errors"), "{}", f.explanation);
        assert!(
            f.fixes[0].steps[0].contains("/dev/ada1"),
            "{:?}",
            f.fixes[0].steps
        );
    }
    // Drives whose controller's maker is in the name are drives.
    for model in [
        "JMicron 605 SSD",
        "Samsung SSD 860 EVO 500GB",
        "WDC WD40EFRX-68N32N0",
    ] {
        let mut d = sata_hdd_ahci();
        d.model = Fact::known(model.to_string(), "pasted:smartctl lines 1-40");
        let f = run(&linux(d));
        assert_eq!(f.verdict, Verdict::Pass, "{model}: {f:?}");
    }
}

#[test]
fn sata_disk_passes() {
    let f = run(&linux(sata_hdd_ahci()));
    assert_vs(&f, Verdict::Pass, Severity::Info);
    assert_eq!(f.title, "directly attached (Sata): every check applies");
}

#[test]
fn virtio_lists_checks_that_do_not_apply() {
    let mut d = DiskFacts::new("vda", "/dev/vda");
    d.class = Fact::known(DeviceClass::Virtual, "realpath:/sys/block/vda");
    d.transport = Fact::known(Transport::Virtio, "realpath:/sys/block/vda");
    let f = run(&linux(d));
    assert_vs(&f, Verdict::Problem, Severity::Info);
    assert!(f.explanation.contains("sata-link-below-max"));
    assert!(f.explanation.contains("host"));
}

#[test]
fn qemu_model_is_emulated() {
    let mut d = sata_hdd_ahci();
    d.model = Fact::known("QEMU HARDDISK".to_string(), "ioctl:/dev/sda:ATA_IDENTIFY");
    let f = run(&linux(d));
    assert_vs(&f, Verdict::Problem, Severity::Info);
    assert_eq!(f.title, "sda: emulated disk (QEMU HARDDISK)");
    assert_eq!(f.evidence[0].source, "ioctl:/dev/sda:ATA_IDENTIFY");
}

/// A pasted smartctl that found no SMART on an emulated disk: the emulation is why, said at
/// notice with the host as the place to ask; an emulated disk alone stays information.
#[test]
fn smartctl_refused_on_an_emulated_disk_is_a_notice() {
    let mut d = sata_hdd_ahci();
    d.model = Fact::known("Virtual disk".to_string(), "cmd:smartctl -a /dev/sda");
    d.class = Fact::known(DeviceClass::Virtual, "cmd:smartctl -a /dev/sda");
    d.smart = Fact::unknown(
        "cmd:smartctl -a /dev/sda: SMART support is: Unavailable - device lacks SMART capability",
    );
    let f = run(&linux(d.clone()));
    assert_vs(&f, Verdict::Problem, Severity::Notice);
    assert!(
        f.explanation.contains("host's own `smartctl -a`"),
        "{}",
        f.explanation
    );
    // Near miss: SMART unknown because nobody ran smartctl.
    d.smart = Fact::unknown("not probed");
    assert_vs(&run(&linux(d)), Verdict::Problem, Severity::Info);
}

#[test]
fn bhyve_models_are_emulated() {
    // bhyve guests: "ada0: <BHYVE SATA DISK 001> ACS-2 ATA SATA 3.x device" and, on its
    // emulated IDE, "ada0: <BHYVE ATA IDE DISK 1.0> ATA-6 device".
    for m in ["BHYVE SATA DISK", "BHYVE ATA IDE DISK"] {
        let mut d = DiskFacts::new("ada0", "/dev/ada0");
        d.model = Fact::known(m.to_string(), "t");
        assert_eq!(emulated_by_model(&d).as_deref(), Some(m));
    }
    // Near miss: a physical SATA SSD.
    let mut d = DiskFacts::new("ada0", "/dev/ada0");
    d.model = Fact::known("Samsung SSD 860 EVO 500GB".to_string(), "t");
    assert_eq!(emulated_by_model(&d), None);
}

#[test]
fn emulated_nvme_is_not_told_about_sata() {
    let mut d = DiskFacts::new("nvme0n1", "/dev/nvme0n1");
    d.class = Fact::known(DeviceClass::Nvme, "dir:/sys/block");
    d.transport = Fact::known(Transport::Nvme, "realpath:/sys/block/nvme0n1");
    d.model = Fact::known(
        "QEMU NVMe Ctrl".to_string(),
        crate::sources::sysfs::block("nvme0n1", "device/model"),
    );
    let f = run(&linux(d));
    assert_vs(&f, Verdict::Problem, Severity::Info);
    assert!(f.explanation.contains("PCIe link"), "{}", f.explanation);
    for w in ["NCQ", "AHCI", "IDE", "SATA"] {
        assert!(!f.explanation.contains(w), "{w}: {}", f.explanation);
    }
}

#[test]
fn qemu_ide_on_piix_is_the_vms_legacy_controller() {
    // The Linux facts mark "QEMU HARDDISK" as class Virtual; behind the emulated PIIX the
    // legacy mode is the VM's choice: virtual-or-bridged-device reports it at notice and
    // controller-legacy-mode steps aside.
    let mut d = sata_hdd_ahci();
    d.class = Fact::known(DeviceClass::Virtual, "ioctl:/dev/sda:ATA_IDENTIFY");
    d.model = Fact::known("QEMU HARDDISK".to_string(), "ioctl:/dev/sda:ATA_IDENTIFY");
    d.controller = Fact::known(
        Controller {
            driver: Some("ata_piix".to_string()),
            pci_class: Some(0x010180),
            ..Default::default()
        },
        "realpath:/sys/block/sda",
    );
    let s = linux(d.clone());
    let f = run(&s);
    assert_vs(&f, Verdict::Problem, Severity::Notice);
    assert!(f.title.contains("legacy IDE"), "{}", f.title);
    assert!(
        f.explanation.contains("not in a drive"),
        "{}",
        f.explanation
    );
    assert!(
        f.fixes
            .iter()
            .any(|x| x.steps.iter().any(|st| st.contains("virtio")))
    );
    let c = crate::checks::controller_legacy_mode::ControllerLegacyMode.run(&s);
    assert_eq!(c[0].verdict, Verdict::NotApplicable);
    // Another hypervisor's PIIX3 on FreeBSD's ata(4), known by its description only.
    let mut b = d.clone();
    b.name = "ada0".to_string();
    b.model = Fact::known("VBOX HARDDISK".to_string(), "cmd:dmesg");
    b.controller = Fact::known(
        Controller {
            description: Some("Intel PIIX4 UDMA33 controller".to_string()),
            ..Default::default()
        },
        "cmd:dmesg",
    );
    assert_vs(&run(&linux(b)), Verdict::Problem, Severity::Notice);
    // A parallel-ATA channel known from the kernel log only (no controller facts).
    let mut p = d.clone();
    p.controller = Fact::unknown("not probed");
    p.transport = Fact::known(crate::facts::Transport::Pata, "cmd:dmesg");
    assert_vs(&run(&linux(p)), Verdict::Problem, Severity::Notice);
    // The same emulated disk on an emulated AHCI controller: information only.
    let mut a = d;
    a.controller = Fact::known(
        Controller {
            driver: Some("ahci".to_string()),
            pci_class: Some(0x010601),
            ..Default::default()
        },
        "realpath:/sys/block/sda",
    );
    assert_vs(&run(&linux(a)), Verdict::Problem, Severity::Info);
}

#[test]
fn a_grown_virtual_disk_with_its_backup_gpt_short_of_the_end() {
    let msg = |disk: &str| crate::facts::PartitionToolMessage {
        tool: "GEOM".to_string(),
        verdict: crate::facts::PartitionToolVerdict::GptBackupNotAtEnd,
        partition: Some(disk.to_string()),
        disk_bytes: None,
        line: format!("GEOM: {disk}: the secondary GPT header is not in the last LBA."),
        from: "cmd:dmesg".to_string(),
    };
    // A virtio disk (vtbd, vda): notice, the line quoted, a fix for the OS at hand.
    let mut v = DiskFacts::new("vtbd1", "/dev/vtbd1");
    v.tool_messages.push(msg("vtbd1"));
    let mut s = linux(v.clone());
    s.platform = Platform::Freebsd;
    let f = run(&s);
    assert_vs(&f, Verdict::Problem, Severity::Notice);
    assert!(
        f.evidence
            .iter()
            .any(|e| e.value.contains("secondary GPT header")),
        "{:?}",
        f.evidence
    );
    assert!(
        f.fixes[0].steps[0].contains("gpart recover vtbd1"),
        "{:?}",
        f.fixes
    );
    let mut l = DiskFacts::new("vda", "/dev/vda");
    l.tool_messages.push(msg("vda"));
    let f = run(&linux(l));
    assert!(
        f.fixes[0].steps[0].contains("sgdisk -e /dev/vda"),
        "{:?}",
        f.fixes
    );
    // A USB stick with an image written to it, or a real disk: not this finding.
    let mut u = sata_hdd_ahci();
    u.tool_messages.push(msg("sda"));
    assert_ne!(run(&linux(u)).severity, Severity::Notice);
}

#[test]
fn usb_storage_is_warning_uas_notice() {
    let mut d = sata_hdd_ahci();
    d.class = Fact::known(DeviceClass::Usb, "realpath:/sys/block/sda");
    d.controller = Fact::known(
        Controller {
            mode: Some(ControllerMode::Usb),
            usb_driver: Some("usb-storage".to_string()),
            ..Default::default()
        },
        "realpath:/sys/block/sda",
    );
    // The attach alone is a notice, not a fault: sticks, card readers and many enclosures
    // speak only Bulk-Only (askubuntu 1012264's healthy Store'n'Go stick was warned before).
    let f = run(&linux(d.clone()));
    assert_vs(&f, Verdict::Problem, Severity::Notice);
    assert!(f.explanation.contains("Bulk-Only"));
    // A rate of it below what USB 2 carries makes it the warning, with the fix.
    let mut s = linux(d.clone());
    s.user_benchmarks.push(crate::facts::UserBenchmark {
        tool: "hdparm -t".into(),
        input: Some("/dev/sda".into()),
        bytes_per_sec: Some(21.5e6),
        from: "t".into(),
        ..Default::default()
    });
    let f = run(&s);
    assert_vs(&f, Verdict::Problem, Severity::Warning);
    assert!(f.fixes[0].steps[0].contains("lsusb -t"));
    d.controller = Fact::known(
        Controller {
            usb_driver: Some("uas".to_string()),
            ..Default::default()
        },
        "realpath:/sys/block/sda",
    );
    assert_vs(&run(&linux(d)), Verdict::Problem, Severity::Notice);
}

/// A Linux USB disk on `drv` at `mbps` (`lsusb -t`'s "Driver=usb-storage, 480M").
fn linux_usb(drv: &str, mbps: f64) -> DiskFacts {
    let mut d = DiskFacts::new("sda", "/dev/sda");
    d.transport = Fact::known(Transport::Usb, "cmd:lsusb -t");
    d.controller = Fact::known(
        Controller {
            usb_driver: Some(drv.to_string()),
            usb_speed_mbps: Some(mbps),
            ..Default::default()
        },
        "cmd:lsusb -t",
    );
    d
}

/// radxa-overlays PR 320: `lsusb -t` of a flash key, "Class=Mass Storage,
/// Driver=usb-storage, 480M" under a 480M root hub, working: a USB 2 link is said (info),
/// not flagged. A rate at the USB 2 ceiling measured on it, or UAS (a USB 3 bridge) at
/// 480M, makes it a notice; a rate far below the ceiling (slow flash) or above it (a
/// cache) does not.
#[test]
fn a_usb2_link_is_info_unless_something_shows_it_holds_the_disk_back() {
    let f = run(&linux(linux_usb("usb-storage", 480.0)));
    assert_vs(&f, Verdict::Problem, Severity::Info);
    assert!(f.title.contains("USB 2 (480 Mb/s) link"), "{}", f.title);
    assert!(f.fixes.is_empty(), "{:?}", f.fixes);
    let dd = |mbps: f64| crate::facts::UserBenchmark {
        tool: "dd".into(),
        input: Some("/dev/sda".into()),
        output: Some("/dev/null".into()),
        block_size_bytes: Some(1 << 20),
        bytes: Some(1 << 30),
        bytes_per_sec: Some(mbps * 1e6),
        from: "t".into(),
        ..Default::default()
    };
    let mut s = linux(linux_usb("usb-storage", 480.0));
    s.user_benchmarks.push(dd(35.2));
    let f = run(&s);
    assert_vs(&f, Verdict::Problem, Severity::Notice);
    assert!(f.title.contains("measured at 35 MB/s"), "{}", f.title);
    assert!(f.fixes[0].steps[0].contains("USB 3"), "{:?}", f.fixes);
    for slow_or_cached in [4.0, 260.0] {
        let mut s = linux(linux_usb("usb-storage", 480.0));
        s.user_benchmarks.push(dd(slow_or_cached));
        assert_vs(&run(&s), Verdict::Problem, Severity::Info);
    }
    assert_vs(
        &run(&linux(linux_usb("uas", 480.0))),
        Verdict::Problem,
        Severity::Notice,
    );
    // So is a UAS bridge the kernel keeps on usb-storage (LKML 2023-01, an OWC Elite Pro
    // Dual forced to EHCI: "UAS is ignored for this device, using usb-storage instead").
    let mut d = linux_usb("usb-storage", 480.0);
    if let Fact::Known { value, .. } = &mut d.controller {
        value.usb_uas_ignored = Some(true);
    }
    assert_vs(&run(&linux(d)), Verdict::Problem, Severity::Notice);
    // A device naming itself USB 3 at 480M is the notice of a link negotiated down.
    let mut d = linux_usb("usb-storage", 480.0);
    d.model = Fact::known("USB3.0 Flash Drive".to_string(), "cmd:lsusb -t");
    let f = run(&linux(d));
    assert_vs(&f, Verdict::Problem, Severity::Notice);
    assert!(
        f.title.contains("USB 3 device running on a USB 2"),
        "{}",
        f.title
    );
    // Bulk-Only on SuperSpeed, unmeasured: a notice.
    assert_vs(
        &run(&linux(linux_usb("usb-storage", 5000.0))),
        Verdict::Problem,
        Severity::Notice,
    );
    // A Bulk-Only disk whose requests failed (a target gone from the bus) is the warning.
    let mut gone = linux_usb("usb-storage", 5000.0);
    gone.kernel_events.push(crate::facts::KernelEvent {
        kind: KernelEventKind::IoError,
        line: "sd 6:0:0:0: [sda] tag#0 FAILED Result: hostbyte=DID_NO_CONNECT".into(),
        from: "cmd:dmesg".into(),
    });
    assert_vs(&run(&linux(gone)), Verdict::Problem, Severity::Warning);
}

/// openmediavault issue 1619: smartctl 7.3 on a Samsung T7 (USB-NVMe bridge) printed
/// "Read Device Identity failed: scsi error unsupported scsi opcode": the bridge refuses
/// ATA pass-through, a notice with the bridge types that reach the drive.
#[test]
fn a_bridge_refusing_ata_pass_through_is_a_notice() {
    let mut d = DiskFacts::new("sda", "/dev/sda");
    crate::sources::smartctl::apply(
        &mut d,
        "pasted:smartctl lines 1-8",
        "smartctl 7.3 2022-02-28 r5338 [aarch64-linux-6.1.21-v8+] (local build)\n\
         Copyright (C) 2002-22, Bruce Allen, Christian Franke, www.smartmontools.org\n\n\
         Read Device Identity failed: scsi error unsupported scsi opcode\n\n\
         If this is a USB connected device, look at the various --device=TYPE variants\n\
         A mandatory SMART command failed: exiting. To continue, add one or more '-T permissive' options.\n",
    );
    let f = run(&linux(d.clone()));
    assert_vs(&f, Verdict::Problem, Severity::Notice);
    assert!(
        f.title.contains("refuses smartctl's pass-through"),
        "{}",
        f.title
    );
    assert!(
        f.fixes[0].steps[0].contains("-d sntasmedia -a /dev/sda"),
        "{:?}",
        f.fixes
    );
    // The USB side failing stays the warning it is.
    d.kernel_events.push(event(
        crate::facts::KernelEventKind::TransportError,
        "usb 2-1: USB disconnect, device number 3",
    ));
    assert_vs(&run(&linux(d)), Verdict::Problem, Severity::Warning);
}

/// A USB disk `name` behind the bridge `addr` reporting `serial` (FreeBSD umass(4)
/// facts as facts/freebsd.rs derives them from dmesg).
fn umass_disk(name: &str, addr: &str, serial: &str) -> DiskFacts {
    let k = "file:/var/run/dmesg.boot";
    let mut d = DiskFacts::new(name, &format!("/dev/{name}"));
    d.transport = Fact::known(Transport::Usb, k);
    d.serial = Fact::known(serial.to_string(), k);
    d.size_bytes = Fact::known(4_000_787_030_016, k);
    d.controller = Fact::known(
        Controller {
            mode: Some(ControllerMode::Usb),
            driver: Some("umass".to_string()),
            address: Some(addr.to_string()),
            usb_driver: Some("umass".to_string()),
            ..Default::default()
        },
        k,
    );
    d
}

/// A umass disk as FreeBSD's attach lines give it: model, link speed (from the
/// "NN.000MB/s transfers" constant), the umass attach description and the quirks.
fn umass_stick(model: &str, desc: &str, mbps: Option<f64>, no_flush: bool) -> DiskFacts {
    let k = "file:/var/run/dmesg.boot";
    let mut d = umass_disk("da3", "umass2", "50E549C2020CFE31796FEFB1");
    d.model = Fact::known(model.to_string(), k);
    d.controller = Fact::known(
        Controller {
            mode: Some(ControllerMode::Usb),
            driver: Some("umass".to_string()),
            address: Some("umass2".to_string()),
            usb_driver: Some("umass".to_string()),
            description: Some(desc.to_string()),
            usb_speed_mbps: mbps,
            usb_no_flush: no_flush.then_some(true),
            ..Default::default()
        },
        k,
    );
    d
}

#[test]
fn a_usb3_device_held_to_a_usb2_link_is_a_notice() {
    for (model, desc) in [
        (
            "DataTraveler 3.0",
            "Kingston DataTraveler 3.0, class 0/0, rev 2.10/0.01, addr 2",
        ),
        (
            "Flash Disk",
            "Generic USB3.0 Flash Disk, class 0/0, rev 2.10/1.00, addr 5",
        ),
        (
            "Ultra USB 3.0",
            "SanDisk Ultra USB 3.0, class 0/0, rev 2.10/1.00, addr 3",
        ),
    ] {
        let f = run(&freebsd(umass_stick(model, desc, Some(480.0), false)));
        assert_vs(&f, Verdict::Problem, Severity::Notice);
        assert!(
            f.title.contains("USB 3 device running on a USB 2"),
            "{}",
            f.title
        );
        assert!(f.fixes[0].steps[1].contains("usbconfig"));
    }
    // The same stick at SuperSpeed, a USB 2 stick at its own speed, a USB 3 bridge whose
    // strings do not say so (bcdUSB 2.10 alone: a USB 2 device with LPM says the same),
    // and a stick whose speed is unknown: umass(4)'s pass stays.
    for (model, desc, mbps) in [
        (
            "DataTraveler 3.0",
            "Kingston DataTraveler 3.0, class 0/0, rev 3.00/0.01",
            Some(5000.0),
        ),
        (
            "DataTraveler 2.0",
            "Kingston DataTraveler 2.0, class 0/0, rev 2.00/1.00",
            Some(480.0),
        ),
        (
            "Q300 Pro",
            "VLI Manufacture String VLI Product String, class 0/0, rev 2.10/0.00",
            Some(480.0),
        ),
        ("DataTraveler 3.0", "Kingston DataTraveler 3.0", None),
    ] {
        let f = run(&freebsd(umass_stick(model, desc, mbps, false)));
        assert_vs(&f, Verdict::Pass, Severity::Info);
    }
}

/// nvmf(4)'s "nvme0: <Fabrics: nvme-test-target>" namespace is a network disk (notice);
/// a PCIe controller's description is not.
#[test]
fn an_nvme_over_fabrics_namespace_is_a_notice() {
    let disk = |desc: &str| {
        let mut d = DiskFacts::new("nda0", "/dev/nda0");
        d.class = Fact::known(DeviceClass::Nvme, "file:/var/run/dmesg.boot");
        d.controller = Fact::known(
            Controller {
                mode: Some(ControllerMode::Nvme),
                description: Some(desc.to_string()),
                ..Default::default()
            },
            "file:/var/run/dmesg.boot",
        );
        d
    };
    let f = run(&freebsd(disk("Fabrics: nvme-test-target")));
    assert_vs(&f, Verdict::Problem, Severity::Notice);
    assert!(f.title.contains("NVMe over Fabrics"), "{}", f.title);
    let f = run(&freebsd(disk("Samsung SSD 980 PRO 1TB")));
    assert_ne!(f.verdict, Verdict::Problem, "{}", f.title);
}

#[test]
fn a_usb_chip_answering_with_a_placeholder_or_its_own_name_is_a_notice() {
    for serial in [
        "0123456789ABCDEF",
        "0123456789AB",
        "FFFFFFFFFFFF",
        "1111111111111111",
    ] {
        let mut d = umass_stick("Firebird", "String 2", Some(480.0), false);
        d.serial = Fact::known(serial.to_string(), "file:/var/run/dmesg.boot");
        let f = run(&freebsd(d));
        assert_vs(&f, Verdict::Problem, Severity::Notice);
        assert!(f.title.contains("placeholder serial"), "{}", f.title);
        // A value from a device stays out of the words; the public SDK sample is named.
        if !serial.starts_with("0123456789") {
            assert!(!f.title.contains(serial) && !f.explanation.contains(serial));
        }
    }
    for serial in [
        "000000124230",
        "E0D55E62DBDEE810E87601C8",
        "0000",
        "0123456789",
        "00000000000000000000",
    ] {
        assert!(!placeholder_serial(serial), "{serial}");
    }
    // An ASMedia bridge naming itself in the INQUIRY ("da0: <ASMT 2115 0>") on umass.
    let mut d = umass_stick(
        "2115",
        "ASMedia AS2115, class 0/0, rev 2.10/0.01",
        Some(480.0),
        false,
    );
    d.vendor = Fact::known("ASMT".to_string(), "file:/var/run/dmesg.boot");
    let f = run(&freebsd(d));
    assert_vs(&f, Verdict::Problem, Severity::Notice);
    assert!(f.title.contains("bridge chip answers"), "{}", f.title);
}

#[test]
fn a_usb_disk_that_takes_no_flush_is_a_notice() {
    for os in [freebsd, linux] {
        let d = umass_stick(
            "USB DISK",
            "SMI USB DISK, class 0/0, rev 2.00/11.00",
            Some(480.0),
            true,
        );
        let s = os(d);
        let f = run(&s);
        if s.platform == Platform::Freebsd {
            assert_vs(&f, Verdict::Problem, Severity::Notice);
            assert!(f.title.contains("NO_SYNC_CACHE"), "{}", f.title);
            assert!(f.fixes[0].steps[0].contains("camcontrol eject da3"));
        }
    }
    let f = run(&freebsd(umass_stick(
        "USB DISK",
        "SMI USB DISK",
        Some(480.0),
        false,
    )));
    assert_vs(&f, Verdict::Pass, Severity::Info);
}

#[test]
fn disks_sharing_a_bridge_and_a_serial_are_a_notice() {
    let mut s = freebsd(umass_disk("da1", "umass1", "RANDOM1"));
    s.disks.push(umass_disk("da2", "umass1", "RANDOM1"));
    let fs = VirtualOrBridgedDevice.run(&s);
    assert_eq!(fs.len(), 2);
    for (f, other) in fs.iter().zip(["da2", "da1"]) {
        assert_vs(f, Verdict::Problem, Severity::Notice);
        assert!(
            f.title.contains(&format!("same serial number as {other}")),
            "{}",
            f.title
        );
        assert!(f.explanation.contains("/dev/diskid/"));
        assert!(
            !f.explanation.contains("RANDOM1"),
            "the serial stays out of the words"
        );
        assert_eq!(f.fixes[0].summary, SAME_SERIAL_FIX);
        assert!(f.fixes[0].steps[0].contains("gpart modify"));
    }
    // One healthy umass disk, two bridges, or two serials: the pass of umass(4) stays.
    let one = freebsd(umass_disk("da1", "umass1", "RANDOM1"));
    assert_vs(&run(&one), Verdict::Pass, Severity::Info);
    for (addr, serial) in [("umass2", "RANDOM1"), ("umass1", "OTHER")] {
        let mut s = freebsd(umass_disk("da1", "umass1", "RANDOM1"));
        s.disks.push(umass_disk("da2", addr, serial));
        let fs = VirtualOrBridgedDevice.run(&s);
        assert!(fs.iter().all(|f| f.verdict == Verdict::Pass), "{fs:#?}");
    }
    // Two slots of a card reader, one empty (no capacity printed): no pair of disks.
    let mut s = freebsd(umass_disk("da1", "umass1", "RANDOM1"));
    let mut empty = umass_disk("da2", "umass1", "RANDOM1");
    empty.size_bytes = Fact::unknown("no capacity in the log");
    s.disks.push(empty);
    let fs = VirtualOrBridgedDevice.run(&s);
    assert!(fs.iter().all(|f| f.verdict == Verdict::Pass), "{fs:#?}");
    // On Linux the Bulk-Only finding keeps its severity (a notice for an attach alone) and
    // gains the words and the fix.
    let lin = |n: &str| {
        let mut d = umass_disk(n, "usb 2-1.3", "RANDOM1");
        d.size_bytes = Fact::unknown("not probed");
        if let Fact::Known { value, .. } = &mut d.controller {
            value.usb_driver = Some("usb-storage".to_string());
            value.driver = None;
        }
        d
    };
    let mut s = linux(lin("sdc"));
    s.disks.push(lin("sdd"));
    let fs = VirtualOrBridgedDevice.run(&s);
    assert_vs(&fs[0], Verdict::Problem, Severity::Notice);
    assert!(fs[0].explanation.contains("Bulk-Only"));
    assert!(fs[0].explanation.contains("same serial"));
    assert!(
        fs[0]
            .fixes
            .iter()
            .any(|x| x.steps[0].contains("by-partuuid"))
    );
}

#[test]
fn ataraid_volume_is_firmware_raid() {
    let mut d = sata_hdd_ahci_freebsd();
    d.name = "ar0".to_string();
    d.ata_identify = None;
    d.class = Fact::known(DeviceClass::RaidVolume, "file:/var/run/dmesg.boot");
    d.controller = Fact::known(
        crate::facts::Controller {
            driver: Some("ataraid".to_string()),
            mode: Some(crate::facts::ControllerMode::Raid),
            ..Default::default()
        },
        "file:/var/run/dmesg.boot",
    );
    let f = run(&freebsd(d.clone()));
    assert_vs(&f, Verdict::Problem, Severity::Notice);
    assert!(f.title.contains("firmware"), "{}", f.title);
    assert!(!f.explanation.contains("megaraid"));
    // Near miss: an mfi(4) volume keeps the hardware RAID text.
    d.name = "mfid0".to_string();
    d.controller = Fact::known(
        crate::facts::Controller {
            driver: Some("mfi".to_string()),
            mode: Some(crate::facts::ControllerMode::Raid),
            ..Default::default()
        },
        "file:/var/run/dmesg.boot",
    );
    let f = run(&freebsd(d));
    assert!(!f.title.contains("firmware"), "{}", f.title);
}

#[test]
fn raid_volume_notice() {
    let mut d = sata_hdd_ahci();
    d.class = Fact::known(
        DeviceClass::RaidVolume,
        crate::sources::smartctl::EXTENDED.key_for("sda"),
    );
    d.transport = Fact::known(Transport::Scsi, "realpath:/sys/block/sda");
    let f = run(&linux(d));
    assert_vs(&f, Verdict::Problem, Severity::Notice);
    assert!(f.explanation.contains("megaraid,N"));
}

fn event(kind: crate::facts::KernelEventKind, line: &str) -> crate::facts::KernelEvent {
    crate::facts::KernelEvent {
        kind,
        line: line.to_string(),
        from: "cmd:dmesg".to_string(),
    }
}

/// Errors, timeouts or resets on a virtual disk are the virtual layer's: a warning here,
/// while media-errors and link-errors stand aside; without them the disk stays at info.
#[test]
fn errors_on_a_virtual_disk_point_at_the_host() {
    use crate::facts::KernelEventKind as K;
    // Looked up by id: importing those modules here would make a file cycle with them.
    let others: Vec<&dyn Check> = ["media-errors", "link-errors"]
        .iter()
        .filter_map(|id| crate::checks::by_id(id))
        .collect();
    assert_eq!(others.len(), 2);
    let xen = {
        let mut d = DiskFacts::new("xvdb", "/dev/xvdb");
        d.class = Fact::known(DeviceClass::Virtual, "cmd:dmesg");
        d.kernel_events.push(event(
            K::IoError,
            "I/O error, dev xvdb, sector 8 op 0x1:(WRITE)",
        ));
        d
    };
    let hyperv = {
        let mut d = sata_hdd_ahci();
        d.name = "sdc".to_string();
        d.vendor = Fact::known("Msft".to_string(), "cmd:dmesg");
        d.model = Fact::known("Virtual Disk".to_string(), "cmd:dmesg");
        d.kernel_events.push(event(
            K::IoTimeout,
            "sd 2:0:0:2: [sdc] tag#12 timing out command, waited 180s",
        ));
        d
    };
    let qemu_ata = {
        let mut d = sata_hdd_ahci();
        d.model = Fact::known("QEMU HARDDISK".to_string(), "cmd:dmesg");
        d.kernel_events
            .push(event(K::LinkReset, "ata3: hard resetting link"));
        d.kernel_events
            .push(event(K::IoTimeout, "ata3.00: failed command: READ DMA EXT"));
        d
    };
    for (d, sys) in [
        (xen.clone(), linux(xen)),
        (hyperv.clone(), linux(hyperv)),
        (qemu_ata.clone(), freebsd(qemu_ata)),
    ] {
        let f = run(&sys);
        assert_vs(&f, Verdict::Problem, Severity::Warning);
        assert!(f.title.contains("virtual disk"), "{}", f.title);
        assert!(
            f.explanation.contains("host's storage"),
            "{}",
            f.explanation
        );
        assert_eq!(f.fixes[0].summary, HOST_FIX);
        for other in others.iter().map(|c| c.run(&sys)) {
            assert!(
                other.iter().all(|x| x.verdict != Verdict::Problem),
                "{}: {other:#?}",
                d.name
            );
        }
    }
    // A real SATA disk with the same lines keeps them as its own.
    let mut real = sata_hdd_ahci();
    real.kernel_events
        .push(event(K::IoTimeout, "ata3.00: failed command: READ DMA EXT"));
    assert_vs(&run(&linux(real)), Verdict::Pass, Severity::Info);
    // A quiet virtio disk stays informational.
    let mut quiet = DiskFacts::new("vdb", "/dev/vdb");
    quiet.transport = Fact::known(Transport::Virtio, "cmd:dmesg");
    assert_vs(&run(&linux(quiet)), Verdict::Problem, Severity::Info);
}

#[test]
fn nothing_known_is_unknown() {
    let f = run(&linux(DiskFacts::new("sdb", "/dev/sdb")));
    assert_vs(&f, Verdict::Unknown, Severity::Info);
}

#[test]
fn a_cloud_providers_network_volume_is_named_with_its_limits() {
    // nvmecontrol identify of an EBS volume on a FreeBSD EC2 instance ("Model Number:
    // Amazon Elastic Block Store"), geom disk list's "descr: Amazon Elastic Block Store",
    // a GCE persistent disk's INQUIRY, an OCI block volume's.
    for (name, model) in [
        ("nda6", "Amazon Elastic Block Store"),
        ("sda", "Google PersistentDisk"),
        ("da0", "ORACLE BlockVolume"),
    ] {
        let mut d = DiskFacts::new(name, &format!("/dev/{name}"));
        d.model = Fact::known(model.to_string(), "pasted:nvmecontrol lines 1-20");
        let f = run(&freebsd(d));
        assert_vs(&f, Verdict::Problem, Severity::Info);
        assert!(f.title.contains(model), "{}", f.title);
        assert!(f.explanation.contains("volume's type"), "{}", f.explanation);
        assert_eq!(
            f.fixes[0].summary,
            "check the volume's limits on the provider's side"
        );
    }
    // Near misses: a local instance-store NVMe disk and a hypervisor's disk stay
    // informational (emulated), a drive passes.
    for model in [
        "Amazon EC2 NVMe Instance Storage",
        "QEMU HARDDISK",
        "Msft Virtual Disk",
    ] {
        let mut d = DiskFacts::new("nda0", "/dev/nda0");
        d.model = Fact::known(model.to_string(), "t");
        assert_eq!(cloud_volume(&d), None, "{model}");
    }
    let mut d = DiskFacts::new("nda0", "/dev/nda0");
    d.model = Fact::known("QEMU HARDDISK".to_string(), "t");
    assert_vs(&run(&freebsd(d)), Verdict::Problem, Severity::Info);
}

#[test]
fn a_system_running_from_a_usb_key_is_a_notice() {
    // BSDRP's site (a Netgate RCC-VE booting from a USB card reader, no SATA disk): the
    // facts mark the umass disk as the root's.
    let mut d = umass_stick(
        "Generic Ultra HS-COMBO 1.98",
        "Generic Ultra Fast Media",
        Some(480.0),
        false,
    );
    if let Some(mut c) = d.controller.value().cloned() {
        c.usb_root = Some(true);
        d.controller = Fact::known(c, "file:/var/run/dmesg.boot");
    }
    let f = run(&freebsd(d));
    assert_vs(&f, Verdict::Problem, Severity::Notice);
    assert!(f.title.contains("runs from this USB device"), "{}", f.title);
    // Near miss: the same stick where the log also attaches an internal disk stays a pass.
    let d = umass_stick(
        "Generic Ultra HS-COMBO 1.98",
        "Generic Ultra Fast Media",
        Some(480.0),
        false,
    );
    assert_eq!(run(&freebsd(d)).verdict, Verdict::Pass);
}

#[test]
fn a_run_on_a_windows_drive_under_wsl_measures_the_share() {
    assert_eq!(wsl_windows_drive("/mnt/e/test.df"), Some("/mnt/e"));
    assert_eq!(wsl_windows_drive("/mnt/c"), Some("/mnt/c"));
    // Near misses: a named mount point under /mnt, a device, another root.
    assert_eq!(wsl_windows_drive("/mnt/data/test"), None);
    assert_eq!(wsl_windows_drive("/dev/sda"), None);
    assert_eq!(wsl_windows_drive("/media/e/test"), None);
    let mut sys = SystemFacts::empty(Platform::Linux);
    sys.user_benchmarks = crate::sources::dd::parse(
        "dd if=/dev/zero of=/mnt/e/test.f bs=8k count=2000000 conv=fdatasync\n\
         722993152 bytes (723 MB, 690 MiB) copied, 43.3944 s, 16.7 MB/s\n",
    );
    let f = windows_share_runs(&sys);
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(f[0].severity, Severity::Notice);
    sys.user_benchmarks = crate::sources::dd::parse(
        "dd if=/dev/zero of=/mnt/data/test.f bs=8k count=2000000 conv=fdatasync\n\
         722993152 bytes (723 MB, 690 MiB) copied, 43.3944 s, 16.7 MB/s\n",
    );
    assert!(windows_share_runs(&sys).is_empty());
}

/// An NVMe controller the facts know as emulated (its Aborts answered with Internal
/// Error, sources::kernel_log::nvme_aborts_unimplemented): its timeouts are the virtual
/// backend's, named as an emulated NVMe controller; a real one's stay media-errors'.
#[test]
fn timeouts_of_an_emulated_nvme_controller_point_at_the_host() {
    use crate::facts::KernelEventKind as K;
    let disk = |class: DeviceClass| {
        let mut d = DiskFacts::new("nvme1", "/dev/nvme1");
        d.class = Fact::known(class, "cmd:dmesg");
        d.transport = Fact::known(Transport::Nvme, "cmd:dmesg");
        d.kernel_events.push(event(
            K::IoTimeout,
            "nvme nvme1: I/O 775 QID 2 timeout, aborting",
        ));
        d
    };
    let f = run(&linux(disk(DeviceClass::Virtual)));
    assert_vs(&f, Verdict::Problem, Severity::Warning);
    assert!(
        f.explanation.contains("an emulated NVMe controller"),
        "{}",
        f.explanation
    );
    let real = run(&linux(disk(DeviceClass::Nvme)));
    assert_eq!(real.verdict, Verdict::Pass, "{}", real.title);
}

/// A USB disk whose transport is unknown, or on UAS, read through its bridge at 335 MB/s
/// (a Pi 4 with a USB 3 SATA adapter): it works at its SuperSpeed link's rate, so being on
/// USB is said (info); with no such read, or a read at USB 2 pace, it stays a notice.
#[test]
fn a_usb_disk_read_past_usb2_is_info() {
    let mut d = DiskFacts::new("sda", "/dev/sda");
    d.transport = Fact::known(Transport::Usb, "pasted:inxi lines 1-3");
    let hdparm = |mbps: f64| crate::facts::UserBenchmark {
        tool: "hdparm -t --direct".into(),
        input: Some("/dev/sda".into()),
        bytes: Some(1008 << 20),
        bytes_per_sec: Some(mbps * 1e6),
        from: "t".into(),
        ..Default::default()
    };
    assert_vs(&run(&linux(d.clone())), Verdict::Problem, Severity::Notice);
    let mut s = linux(d.clone());
    s.user_benchmarks.push(hdparm(335.75));
    assert_vs(&run(&s), Verdict::Problem, Severity::Info);
    let mut s = linux(d);
    s.user_benchmarks.push(hdparm(38.0));
    assert_vs(&run(&s), Verdict::Problem, Severity::Notice);
}

/// A network block device's failed requests (krbd, nbd, DRBD) name what serves it, not a
/// hypervisor; the same disk without errors gets no warning.
#[test]
fn network_block_device_errors_point_at_what_serves_it() {
    use crate::sources::kernel_log::NetworkBlockDevice;
    let disk = |name: &str, kind: NetworkBlockDevice, errors: bool| {
        let mut d = crate::facts::DiskFacts::new(name, &format!("/dev/{name}"));
        d.class = Fact::known(crate::facts::DeviceClass::Virtual, "cmd:dmesg");
        d.controller = Fact::known(
            Controller {
                description: Some(kind.description().to_string()),
                ..Default::default()
            },
            "cmd:dmesg",
        );
        if errors {
            d.kernel_events = vec![crate::facts::KernelEvent {
                kind: crate::facts::KernelEventKind::IoError,
                line: format!(
                    "I/O error, dev {name}, sector 2048 op 0x1:(WRITE) flags 0x800 phys_seg 1 prio class 0"
                ),
                from: "cmd:dmesg".into(),
            }];
        }
        run(&linux(d))
    };
    for (name, kind, word) in [
        ("rbd5", NetworkBlockDevice::CephRbd, "Ceph cluster"),
        ("nbd1", NetworkBlockDevice::Nbd, "NBD server"),
        ("drbd0", NetworkBlockDevice::Drbd, "replication link"),
    ] {
        let f = disk(name, kind, true);
        assert_vs(&f, Verdict::Problem, Severity::Warning);
        assert!(f.title.contains(word), "{}", f.title);
        assert!(!f.explanation.contains("hypervisor"), "{}", f.explanation);
        let quiet = disk(name, kind, false);
        assert!(quiet.severity < Severity::Notice, "{quiet:?}");
    }
}
