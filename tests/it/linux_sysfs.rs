//! Fake sysfs trees (tests/fixtures/sysfs/*.tree, format in its README.md) driven through
//! LiveHost::with_root -> probe::linux::collect -> facts::linux::derive, with exact asserts;
//! then the recorded bundle replayed through the same probe code gives the same facts.

use crate::support;

use diskdoc_core::evidence::EvidenceBundle;
use diskdoc_core::facts::{ControllerMode, DeviceClass, Fact, SystemFacts, Transport};
use diskdoc_sys::host::{LiveHost, ReplayHost};
use diskdoc_sys::probe::{self, ProbeOptions};
use support::{build_tree, manifest};

fn scan_tree(file: &str) -> (EvidenceBundle, SystemFacts) {
    let tree = std::fs::read_to_string(manifest(&format!("tests/fixtures/sysfs/{file}"))).unwrap();
    let dir = tempfile::tempdir().unwrap();
    build_tree(&tree, dir.path());
    let mut host = LiveHost::with_root(dir.path());
    probe::linux::collect(&mut host, &ProbeOptions::default());
    let bundle = host.into_bundle();
    let sys = diskdoc_core::facts::linux::derive(&bundle);
    (bundle, sys)
}

fn v<T: Clone>(f: &Fact<T>) -> T {
    match f {
        Fact::Known { value, .. } => value.clone(),
        Fact::Unknown { why } => panic!("unknown: {why}"),
    }
}

#[test]
fn ahci_sata_ssd_tree() {
    let (bundle, sys) = scan_tree("ahci-sata-ssd.tree");
    assert_eq!(sys.disks.len(), 1);
    let d = &sys.disks[0];
    assert_eq!(d.name, "sda");
    assert_eq!(v(&d.class), DeviceClass::Ssd);
    assert_eq!(v(&d.transport), Transport::Sata);
    let c = v(&d.controller);
    assert_eq!(c.mode, Some(ControllerMode::Ahci));
    assert_eq!(c.driver.as_deref(), Some("ahci"));
    assert_eq!(c.pci_class, Some(0x010601));
    assert_eq!(c.pci_id.as_deref(), Some("8086:2922"));
    assert_eq!(c.address.as_deref(), Some("0000:00:1f.2"));
    assert!(
        d.controller
            .sources()
            .iter()
            .any(|s| s == "file:/sys/devices/pci0000:00/0000:00:1f.2/class")
    );
    assert_eq!(v(&d.model), "Samsung SSD 860 EVO 500GB");
    assert_eq!(v(&d.serial), "S3Z9NB0K123456A");
    assert_eq!(v(&d.firmware), "RVT04B6Q");
    assert!(d.vendor.why().unwrap().contains("ATA"));
    // No /dev node in the fake root: ioctls fail, sizes come from sysfs.
    assert_eq!(v(&d.size_bytes), 976773168 * 512);
    assert_eq!(d.size_bytes.sources(), ["file:/sys/block/sda/size"]);
    assert_eq!(v(&d.logical_sector_bytes), 512);
    assert_eq!(v(&d.physical_sector_bytes), 512);
    assert_eq!(v(&d.alignment_offset_bytes), 0);
    assert!(!v(&d.rotational));
    assert_eq!(v(&d.rotation_rpm), 0);
    assert_eq!(v(&d.scheduler), "mq-deadline");
    assert_eq!(v(&d.nr_requests), 64);
    assert_eq!(v(&d.queue_depth), 32);
    assert_eq!(v(&d.link_current_gbps), 6.0);
    assert_eq!(
        d.link_current_gbps.sources(),
        ["file:/sys/class/ata_link/link1/sata_spd"]
    );
    assert_eq!(v(&d.link_drive_max_gbps), 6.0);
    assert_eq!(v(&d.link_port_max_gbps), 6.0);
    assert!(d.link_limit_gbps.why().unwrap().contains("no limit"));
    assert!(v(&d.ncq_supported));
    assert_eq!(v(&d.ncq_drive_depth), 32);
    assert!(v(&d.ncq_active));
    assert!(v(&d.write_cache_supported));
    assert!(v(&d.write_cache_enabled));
    assert_eq!(
        d.write_cache_enabled.sources(),
        ["file:/sys/class/ata_device/dev1.0/id"]
    );
    assert!(v(&d.trim_supported));
    let t = v(&d.partition_table);
    assert_eq!(t.scheme, "unknown");
    assert_eq!(t.partitions.len(), 1);
    assert_eq!(t.partitions[0].name, "sda1");
    assert_eq!(t.partitions[0].start_sector, 2048);
    assert_eq!(t.partitions[0].size_sectors, 976771072);
    assert_eq!(t.partitions[0].alignment_offset_bytes, Some(0));
    assert_eq!(d.layers.len(), 1);
    assert_eq!(d.layers[0].name, "sda1");
    assert_eq!(d.mounts.len(), 1);
    assert_eq!(d.mounts[0].mountpoint, "/data");
    assert_eq!(d.mounts[0].fstype, "ext4");
    assert_eq!(
        d.ata_identify.as_ref().unwrap().transport.as_deref(),
        Some("SATA 3.2")
    );
    assert!(!v(&sys.is_root));
    assert_eq!(v(&sys.os_release), "6.1.0-18-amd64");
    assert_eq!(v(&sys.os_name), "Debian GNU/Linux 12 (bookworm)");
    assert!(sys.cpu_model.why().unwrap().contains("not present"));
    // Replaying the recorded bundle through the same probe code re-reads the same answers.
    let mut replay = ReplayHost { bundle: &bundle };
    probe::linux::collect(&mut replay, &ProbeOptions::default());
    assert_eq!(diskdoc_core::facts::linux::derive(&bundle), sys);
    assert_eq!(diskdoc_core::facts::derive(&bundle).disks, sys.disks);
}

#[test]
fn piix_ide_sata_hdd_tree() {
    let (_bundle, sys) = scan_tree("piix-ide-sata-hdd.tree");
    let d = sys.disk("sda").unwrap();
    assert_eq!(v(&d.class), DeviceClass::Hdd);
    assert_eq!(v(&d.transport), Transport::Sata);
    let c = v(&d.controller);
    assert_eq!(c.mode, Some(ControllerMode::LegacyIde));
    assert_eq!(c.driver.as_deref(), Some("ata_piix"));
    assert_eq!(c.pci_class, Some(0x01018a));
    assert_eq!(v(&d.model), "WDC WD5000AAKS-00V1A0");
    assert_eq!(v(&d.firmware), "05.01D05");
    assert_eq!(v(&d.rotation_rpm), 7200);
    assert!(v(&d.rotational));
    assert_eq!(v(&d.queue_depth), 1);
    assert!(v(&d.ncq_supported));
    assert_eq!(v(&d.ncq_drive_depth), 32);
    assert!(!v(&d.ncq_active), "ata_piix cannot queue");
    assert!(d.link_current_gbps.why().unwrap().contains("<unknown>"));
    assert!(d.link_port_max_gbps.why().unwrap().contains("<unknown>"));
    assert_eq!(v(&d.link_drive_max_gbps), 3.0);
    assert!(v(&d.write_cache_supported));
    assert!(!v(&d.write_cache_enabled));
    assert!(!v(&d.trim_supported));
    let t = v(&d.partition_table);
    assert_eq!(t.partitions[0].start_sector, 63);
    assert_eq!(t.partitions[0].start_bytes, 63 * 512);
    assert!(
        t.notes[0].contains("partitions from sysfs only"),
        "{:?}",
        t.notes
    );
    assert!(d.mounts.is_empty());
    assert!(d.smart.why().unwrap().contains("not run"));
}

#[test]
fn device_option_limits_the_scan_and_unknown_devices_capture_nothing() {
    let tree =
        std::fs::read_to_string(manifest("tests/fixtures/sysfs/ahci-sata-ssd.tree")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    build_tree(&tree, dir.path());
    for (spec, n) in [("/dev/sda", 1), ("sda1", 1), ("nosuch", 0)] {
        let mut host = LiveHost::with_root(dir.path());
        let opts = ProbeOptions {
            device: Some(spec.into()),
            with_tools: false,
        };
        probe::linux::collect(&mut host, &opts);
        let sys = diskdoc_core::facts::linux::derive(&host.into_bundle());
        assert_eq!(sys.disks.len(), n, "{spec}");
    }
}

#[test]
fn nvme_luks_lvm_stack_tree() {
    let (mut bundle, _) = scan_tree("nvme-luks-lvm-stack.tree");
    // What `dmsetup table` prints for this stack (key in the kernel keyring).
    bundle.insert(
        &diskdoc_core::evidence::SourceKey::cmd(&["dmsetup", "table"]),
        diskdoc_core::evidence::Capture::ok(
            "cryptroot: 0 1952441743 crypt aes-xts-plain64 :64:logon:cryptsetup:6f1e-d0 0 259:2 32768 1 allow_discards\n\
             vg0-root: 0 1048576000 linear 253:0 2048\n",
        ),
    );
    let sys = diskdoc_core::facts::linux::derive(&bundle);
    let names: Vec<&str> = sys.disks.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(names, ["dm-0", "dm-1", "nvme0n1"]);
    let d = sys.disk("nvme0n1").unwrap();
    assert_eq!(v(&d.class), DeviceClass::Nvme);
    assert_eq!(v(&d.transport), Transport::Nvme);
    let c = v(&d.controller);
    assert_eq!(c.mode, Some(ControllerMode::Nvme));
    assert_eq!(c.driver.as_deref(), Some("nvme"));
    assert_eq!(c.pci_class, Some(0x010802));
    assert_eq!(v(&d.model), "Samsung SSD 970 EVO Plus 1TB");
    assert_eq!(v(&d.serial), "S4EWNX0N123456");
    assert_eq!(v(&d.firmware), "2B2QEXM7");
    assert_eq!(v(&d.wwn), "eui.0025385b91234567");
    assert!(d.ncq_supported.why().unwrap().contains("NVMe"));
    assert!(
        d.link_current_gbps
            .why()
            .unwrap()
            .contains("not applicable to nvme")
    );
    assert!(v(&d.trim_supported));
    use diskdoc_core::facts::LayerKind;
    let kinds: Vec<(&str, Option<LayerKind>)> =
        d.layers.iter().map(|l| (l.name.as_str(), l.kind)).collect();
    assert_eq!(
        kinds,
        [
            ("nvme0n1p1", Some(LayerKind::Partition)),
            ("nvme0n1p2", Some(LayerKind::Partition)),
            ("dm-0", Some(LayerKind::Luks)),
            ("dm-1", Some(LayerKind::Lvm)),
        ]
    );
    let crypt = &d.layers[2];
    assert_eq!(crypt.display_name.as_deref(), Some("/dev/mapper/cryptroot"));
    assert_eq!(crypt.on, ["nvme0n1p2"]);
    assert_eq!(crypt.cipher.as_deref(), Some("aes-xts-plain64"));
    assert_eq!(crypt.key_bits, Some(512));
    assert_eq!(crypt.crypto_impl.as_deref(), Some("xts-aes-aesni"));
    assert_eq!(crypt.level.as_deref(), Some("crypt"));
    assert!(crypt.from.iter().any(|f| f == "cmd:dmsetup table"));
    assert_eq!(d.layers[3].on, ["dm-0"]);
    assert_eq!(d.layers[3].level.as_deref(), Some("linear"));
    let mounts: Vec<(&str, &str)> = d
        .mounts
        .iter()
        .map(|m| (m.mountpoint.as_str(), m.fstype.as_str()))
        .collect();
    assert_eq!(mounts, [("/", "ext4"), ("/boot/efi", "vfat")]);
    let t = v(&d.partition_table);
    assert_eq!(t.partitions.len(), 2);
    assert_eq!(t.partitions[1].name, "nvme0n1p2");
    assert_eq!(t.partitions[1].start_sector, 1050624);
    // The dm devices are listed in their own right, with what sits above them.
    let dm0 = sys.disk("dm-0").unwrap();
    assert_eq!(v(&dm0.class), DeviceClass::DeviceMapper);
    assert_eq!(v(&dm0.transport), Transport::None);
    assert_eq!(v(&dm0.physical_sector_bytes), 4096);
    assert_eq!(dm0.layers.len(), 1);
    assert_eq!(dm0.mounts.len(), 1);
    assert_eq!(v(&sys.aes_driver), "xts-aes-aesni");
    assert!(v(&sys.aes_ni));
    assert!(v(&sys.is_root));
    assert_eq!(v(&sys.ram_bytes), 32780012 * 1024);
    assert_eq!(v(&sys.cpu_model), "AMD Ryzen 7 5800X 8-Core Processor");
    // The human table names the stack.
    let text = diskdoc::commands::scan::render_facts(&sys);
    // The table wraps at 72 columns (issue 13): compare with the runs of blanks of the
    // continuation lines collapsed.
    let joined = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        joined.contains(
            "layer dm-0 luks on nvme0n1p2 (/dev/mapper/cryptroot, crypt, \
             aes-xts-plain64 512-bit key, driver xts-aes-aesni)"
        ),
        "{text}"
    );
    assert!(
        text.contains("mount          /dev/nvme0n1p1 on /boot/efi (vfat)"),
        "{text}"
    );
}

#[test]
fn derive_survives_garbage_in_every_capture() {
    let mut bundles = Vec::new();
    for f in [
        "ahci-sata-ssd.tree",
        "piix-ide-sata-hdd.tree",
        "nvme-luks-lvm-stack.tree",
    ] {
        bundles.push(scan_tree(f).0);
    }
    let words = "zzzz ".repeat(256);
    let garbage = [
        "",
        "-1",
        "99999999999999999999999",
        "\u{0}\u{1b}[31m",
        "0x",
        "[",
        "a:b:c: - -",
        words.as_str(),
    ];
    for b in &bundles {
        let keys: Vec<String> = b.captures.keys().cloned().collect();
        for k in &keys {
            for g in garbage {
                let mut m = b.clone();
                m.captures
                    .insert(k.clone(), diskdoc_core::evidence::Capture::ok(g));
                let _ = diskdoc_core::facts::linux::derive(&m);
                let _ = diskdoc_core::facts::linux::resolve_target(&m, "/x/y");
            }
            let mut m = b.clone();
            m.captures.remove(k);
            let sys = diskdoc_core::facts::linux::derive(&m);
            // Whatever is missing, every unknown fact says why.
            for d in &sys.disks {
                let j = serde_json::to_value(d).unwrap();
                for (field, f) in j.as_object().unwrap() {
                    if f.get("state") == Some(&serde_json::Value::from("unknown")) {
                        assert!(
                            !f["why"].as_str().unwrap().is_empty(),
                            "{k} removed: {field}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn usb_uas_disk_with_md_raid1_tree() {
    let (_b, sys) = scan_tree("usb-uas-md-raid1.tree");
    let d = sys.disk("sdb").unwrap();
    assert_eq!(v(&d.class), DeviceClass::Usb);
    assert_eq!(v(&d.transport), Transport::Usb);
    let c = v(&d.controller);
    assert_eq!(c.mode, Some(ControllerMode::Usb));
    assert_eq!(c.usb_driver.as_deref(), Some("uas"));
    assert_eq!(c.driver.as_deref(), Some("xhci_hcd"));
    assert_eq!(c.pci_class, Some(0x0c0330));
    assert_eq!(v(&d.model), "Portable SSD T5");
    assert_eq!(v(&d.vendor), "Samsung");
    assert_eq!(v(&d.queue_depth), 30);
    assert!(v(&d.write_cache_enabled));
    assert_eq!(
        d.write_cache_enabled.sources(),
        ["file:/sys/block/sdb/device/scsi_disk/4:0:0:0/cache_type"]
    );
    assert!(
        d.link_current_gbps
            .why()
            .unwrap()
            .contains("not applicable to usb")
    );
    assert!(
        d.notes
            .iter()
            .any(|n| n.starts_with("USB bus speed 5000 Mb/s")),
        "{:?}",
        d.notes
    );
    use diskdoc_core::facts::LayerKind;
    let md: Vec<_> = d
        .layers
        .iter()
        .filter(|l| l.kind == Some(LayerKind::Md))
        .collect();
    assert_eq!(md.len(), 1, "md0 once, though both partitions hold it");
    assert_eq!(md[0].level.as_deref(), Some("raid1"));
    assert_eq!(md[0].on, ["sdb1", "sdb2"]);
    assert_eq!(d.mounts.len(), 1);
    assert_eq!(d.mounts[0].mountpoint, "/srv");
    let m = sys.disk("md0").unwrap();
    assert_eq!(v(&m.class), DeviceClass::Raid);
    assert_eq!(v(&m.size_bytes), 488251392 * 512);
    assert!(m.controller.why().unwrap().contains("not applicable"));
    // Asking for the array by /dev path, or for one of its members, scans the whole stack.
    let dir = tempfile::tempdir().unwrap();
    let tree =
        std::fs::read_to_string(manifest("tests/fixtures/sysfs/usb-uas-md-raid1.tree")).unwrap();
    build_tree(&tree, dir.path());
    let mut host = LiveHost::with_root(dir.path());
    let opts = ProbeOptions {
        device: Some("/dev/md0".into()),
        with_tools: false,
    };
    probe::linux::collect(&mut host, &opts);
    let sys = diskdoc_core::facts::linux::derive(&host.into_bundle());
    let names: Vec<&str> = sys.disks.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(names, ["md0", "sdb"]);
}
