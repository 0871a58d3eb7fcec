//! Replay of hand-assembled FreeBSD bundles (tests/fixtures/bundles/seed*.json, built from
//! the seed threads; each bundle's `notes` says what is verbatim and what was rebuilt):
//! the FreeBSD probe asks for exactly the keys a bundle holds, and `facts::derive` gives the
//! facts the seeds describe.

use std::collections::BTreeSet;

use diskdoc_core::evidence::{Capture, EvidenceBundle, Origin, Platform, SourceKey};
use diskdoc_core::facts::{self, ControllerMode, DeviceClass, LayerKind, SystemFacts, Transport};
use diskdoc_sys::probe::ProbeOptions;
use support::recording::asked_keys;

use crate::support;

fn load(name: &str) -> EvidenceBundle {
    let p = format!(
        "{}/tests/fixtures/bundles/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    EvidenceBundle::load(std::path::Path::new(&p)).unwrap_or_else(|e| panic!("{e}"))
}

const BUNDLES: &[&str] = &[
    "seed000-desktop-ich7.json",
    "seed000-laptop-ahci.json",
    "seed002-zfs-geli-hdd.json",
    "seed003-mbr.json",
    "seed003-gpt40.json",
    // Added with tests/it/seed_findings.rs: seed 000's first (cache on) listing, and the
    // pfSense MBR-at-63 layout on a stripesize-4096 drive.
    "seed000-desktop-ich7-wc-on.json",
    "freebsd-mbr63-stripe4096.json",
    // Issue 20: the seed machines as FreeBSD 13 shows them.
    "seed000-fbsd13-ich7.json",
    "seed003-fbsd13-mps.json",
];

#[test]
fn probe_asks_for_exactly_the_bundle_keys() {
    for name in BUNDLES {
        let b = load(name);
        assert_eq!(b.platform, Platform::Freebsd, "{name}");
        assert_eq!(b.origin, Origin::Hand, "{name}");
        assert!(
            !b.notes.is_empty(),
            "{name}: bundles document themselves in `notes`"
        );
        let asked = asked_keys(&b, &ProbeOptions::default());
        let asked_set: BTreeSet<&String> = asked.iter().collect();
        assert_eq!(
            asked_set.len(),
            asked.len(),
            "{name}: a key was asked twice"
        );
        let have: BTreeSet<&String> = b.captures.keys().collect();
        assert_eq!(asked_set, have, "{name}");
    }
}

#[test]
fn probe_device_filter_and_tools() {
    let b = load("seed003-mbr.json");
    let only_other = asked_keys(
        &b,
        &ProbeOptions {
            device: Some("/dev/ada9".into()),
            with_tools: false,
        },
    );
    assert!(
        !only_other.iter().any(|k| k.contains("/dev/da0")),
        "filtered out"
    );
    let tools = asked_keys(
        &b,
        &ProbeOptions {
            device: Some("da0".into()),
            with_tools: true,
        },
    );
    assert!(tools.contains(&"cmd:smartctl -j -a /dev/da0".to_string()));
    assert!(tools.contains(&"cmd:camcontrol identify da0".to_string()));
}

fn derive(name: &str) -> SystemFacts {
    let b = load(name);
    let sys = facts::derive(&b);
    // Replaying is pure and repeatable.
    assert_eq!(sys, facts::derive(&b));
    sys
}

#[test]
fn seed000_desktop_ich7_legacy_write_cache_off() {
    let sys = derive("seed000-desktop-ich7.json");
    assert_eq!(
        sys.os_release.value().map(String::as_str),
        Some("8.1-RELEASE")
    );
    assert_eq!(
        sys.cpu_model.value().map(String::as_str),
        Some("Intel(R) Core(TM)2 Quad CPU Q9300 @ 2.50GHz")
    );
    assert_eq!(sys.disks.len(), 1);
    let d = sys.disk("ad4").unwrap();
    assert_eq!(
        d.model.value().map(String::as_str),
        Some("WDC WD5001ABYS-01YNA0")
    );
    assert_eq!(
        d.serial.value().map(String::as_str),
        Some("WD-WCAS87154115")
    );
    // The seed's second capture is cut after the serial line ("..."): no firmware, no size.
    assert!(!d.firmware.is_known());
    let c = d.controller.value().unwrap();
    // ad4 is a SATA disk ("SATA revision 2.x"); atapci0 "Intel ICH7 UDMA100" is the
    // chipset's parallel-ATA function, so the disk is not put on it: it sits on channel
    // ata2 (ad4 = ata2-master) of the ICH7's SATA function, which the seed does not show.
    assert_eq!(c.mode, Some(ControllerMode::LegacyIde));
    assert_eq!(c.driver.as_deref(), Some("ata"));
    assert_eq!(c.address.as_deref(), Some("ata2"));
    assert_eq!(c.description, None);
    assert_eq!(c.chipset.as_deref(), Some("Intel ICH7"));
    assert_eq!(
        d.controller.sources(),
        ["file:/var/run/dmesg.boot", "cmd:atacontrol cap ad4"]
    );
    assert_eq!(d.transport.get(), Some(Transport::Sata));
    assert_eq!(d.link_drive_max_gbps.get(), Some(3.0), "SATA revision 2.x");
    assert!(
        !d.link_current_gbps.is_known(),
        "no transfer line in the seed"
    );
    assert_eq!(d.write_cache_supported.get(), Some(true));
    assert_eq!(d.write_cache_enabled.get(), Some(false));
    assert_eq!(
        d.write_cache_enabled.sources(),
        ["cmd:atacontrol cap ad4", "sysctl:hw.ata.wc"]
    );
    assert_eq!(d.ncq_active.get(), Some(false), "ata(4) never queues");
    assert!(!d.ncq_supported.is_known(), "truncated before the NCQ row");
    assert!(!d.size_bytes.is_known());
    let geli = &d.layers[0];
    assert_eq!(geli.kind, Some(LayerKind::Geli));
    assert_eq!(
        (geli.name.as_str(), geli.on.as_slice()),
        ("ad4s1g.eli", &["ad4s1g".to_string()][..])
    );
    assert_eq!(geli.cipher, None, "the seed does not state the cipher");
    assert!(!d.partition_table.is_known());
    assert!(
        d.partition_table
            .why()
            .unwrap()
            .contains("not shown in seed 000")
    );
}

/// Issue 20: seed 000's desktop on FreeBSD 13.2. The disk is attributed to the controller
/// its channel sits on: "ada0 at ata2" and "ata2: <ATA channel> at channel 0 on atapci1"
/// put it on the ICH7 SATA function, not on atapci0, the chipset's parallel-ATA function.
#[test]
fn seed000_fbsd13_ich7_ada0_on_the_sata_function() {
    let sys = derive("seed000-fbsd13-ich7.json");
    assert_eq!(
        sys.os_release.value().map(String::as_str),
        Some("13.2-RELEASE")
    );
    let d = sys.disk("ada0").unwrap();
    let c = d.controller.value().unwrap();
    assert_eq!(c.mode, Some(ControllerMode::LegacyIde));
    assert_eq!(c.driver.as_deref(), Some("atapci"));
    assert_eq!(c.address.as_deref(), Some("atapci1"));
    assert_eq!(
        c.description.as_deref(),
        Some("Intel ICH7 SATA300 controller")
    );
    assert_eq!(c.pci_class, Some(0x01018f));
    assert_eq!(c.pci_id.as_deref(), Some("8086:27c0"));
    assert_eq!(c.chipset, None);
    assert_eq!(
        d.controller.sources(),
        [
            "cmd:camcontrol devlist -v",
            "file:/var/run/dmesg.boot",
            "cmd:pciconf -lv"
        ]
    );
    assert_eq!(d.transport.get(), Some(Transport::Sata));
    assert_eq!(d.link_current_gbps.get(), Some(3.0));
    assert_eq!(d.link_drive_max_gbps.get(), Some(3.0));
    // IDENTIFY word 85 (cache off) and the ada(4) tunable agree.
    assert_eq!(d.write_cache_enabled.get(), Some(false));
    assert_eq!(d.ncq_supported.get(), Some(true));
    assert_eq!(
        d.ncq_active.get(),
        Some(false),
        "ata(4) channels do not queue"
    );
    assert_eq!(d.size_bytes.get(), Some(500_107_862_016));
    assert!(
        d.pcie
            .why()
            .is_some_and(|w| w.contains("no PCI-Express capability for atapci1")),
        "{:?}",
        d.pcie
    );
}

#[test]
fn seed000_laptop_ahci_300() {
    let sys = derive("seed000-laptop-ahci.json");
    let d = sys.disk("ada0").unwrap();
    let c = d.controller.value().unwrap();
    assert_eq!(c.mode, Some(ControllerMode::Ahci));
    assert_eq!(
        c.description.as_deref(),
        Some("Intel ICH9M AHCI SATA controller")
    );
    assert_eq!(d.transport.get(), Some(Transport::Sata));
    assert_eq!(d.link_current_gbps.get(), Some(3.0));
    assert_eq!(
        d.link_current_gbps.sources(),
        ["cmd:camcontrol identify ada0"]
    );
    assert_eq!(d.link_drive_max_gbps.get(), Some(3.0));
    assert_eq!(d.model.value().map(String::as_str), Some("ST9320423AS"));
    assert_eq!(d.wwn.value().map(String::as_str), Some("5000c50017f4f8d9"));
    assert_eq!(d.rotation_rpm.get(), Some(7200));
    assert_eq!(d.class.get(), Some(DeviceClass::Hdd));
    assert_eq!(
        (d.logical_sector_bytes.get(), d.physical_sector_bytes.get()),
        (Some(512), Some(512))
    );
    assert_eq!(d.alignment_offset_bytes.get(), Some(0));
    assert_eq!(d.size_bytes.get(), Some(625142448 * 512));
    assert_eq!(
        (d.write_cache_supported.get(), d.write_cache_enabled.get()),
        (Some(true), Some(true))
    );
    assert_eq!(
        (d.ncq_supported.get(), d.ncq_drive_depth.get()),
        (Some(true), Some(32))
    );
    assert!(
        !d.ncq_active.is_known(),
        "AHCI on 8.1: nothing says whether tags are used"
    );
    assert_eq!(d.trim_supported.get(), Some(false));
    assert_eq!(
        d.layers.first().map(|l| l.name.as_str()),
        Some("ada0s1g.eli")
    );
}

#[test]
fn seed002_hdd_600_geli_zfs() {
    let sys = derive("seed002-zfs-geli-hdd.json");
    assert_eq!(
        sys.os_release.value().map(String::as_str),
        Some("13.1-RELEASE-p2")
    );
    let d = sys.disk("ada0").unwrap();
    assert_eq!(
        d.model.value().map(String::as_str),
        Some("WDC WD4002FYYZ-01B7CB1")
    );
    assert!(!d.serial.is_known(), "starred out in the seed");
    assert_eq!(d.link_current_gbps.get(), Some(6.0));
    assert_eq!(d.link_drive_max_gbps.get(), Some(6.0));
    assert_eq!(d.class.get(), Some(DeviceClass::Hdd));
    assert_eq!(d.size_bytes.get(), Some(7814037168 * 512));
    assert!(
        !d.write_cache_enabled.is_known(),
        "no feature table in the seed"
    );
    assert!(!d.ncq_active.is_known());
    let kinds: Vec<_> = d.layers.iter().map(|l| (l.kind, l.name.as_str())).collect();
    assert_eq!(
        kinds,
        vec![
            (Some(LayerKind::Geli), "ada0p1.eli"),
            (Some(LayerKind::Zfs), "zstorage")
        ]
    );
    assert_eq!(d.layers[1].on, vec!["ada0p1.eli"]);
    assert_eq!(d.layers[0].from, vec!["cmd:geli list"]);
}

#[test]
fn seed003_mbr_slice_at_1008_on_4k_drive() {
    let sys = derive("seed003-mbr.json");
    let d = sys.disk("da0").unwrap();
    let c = d.controller.value().unwrap();
    assert_eq!(c.mode, Some(ControllerMode::SasHba));
    assert_eq!(
        (c.driver.as_deref(), c.description.as_deref()),
        (Some("mps"), Some("LSI SAS2008"))
    );
    assert_eq!(
        d.transport.get(),
        Some(Transport::Sata),
        "ATA inquiry vendor behind mps"
    );
    assert_eq!(d.vendor.value().map(String::as_str), Some("ATA"));
    assert_eq!(
        d.model.value().map(String::as_str),
        Some("TOSHIBA DT01ACA3")
    );
    assert_eq!(d.firmware.value().map(String::as_str), Some("ABB0"));
    assert_eq!(d.serial.value().map(String::as_str), Some("Z2T5TSSAS"));
    assert_eq!(d.link_current_gbps.get(), Some(6.0));
    assert_eq!(d.ncq_active.get(), Some(true));
    assert_eq!(d.size_bytes.get(), Some(3000592982016));
    assert_eq!(d.logical_sector_bytes.get(), Some(512));
    assert_eq!(
        d.physical_sector_bytes.get(),
        Some(4096),
        "diskinfo stripesize"
    );
    assert_eq!(
        d.alignment_offset_bytes.get(),
        Some(0),
        "diskinfo stripeoffset"
    );
    assert_eq!(
        d.physical_sector_bytes.sources(),
        ["cmd:diskinfo -v /dev/da0"]
    );
    let t = d.partition_table.value().unwrap();
    assert_eq!(t.scheme, "mbr");
    assert!(t.notes.contains(&"first usable sector 63".to_string()));
    assert_eq!(t.partitions.len(), 1);
    let s1 = &t.partitions[0];
    assert_eq!((s1.name.as_str(), s1.number), ("da0s1", 1));
    assert_eq!(
        s1.start_sector, 1008,
        "not 63: that is the first usable sector"
    );
    assert_eq!(s1.start_bytes, 1008 * 512);
    assert_eq!(s1.size_sectors, 4294966221);
    assert_eq!(s1.children.len(), 1);
    let a = &s1.children[0];
    assert_eq!(
        (a.name.as_str(), a.type_name.as_deref()),
        ("da0s1a", Some("freebsd-ufs"))
    );
    assert_eq!(
        a.start_sector, 1008,
        "BSD offset 0 inside the slice, absolute 1008"
    );
    assert_eq!(a.start_bytes % 4096, 0);
    assert!(d.layers.is_empty());
}

#[test]
fn seed003_gpt_at_40() {
    let sys = derive("seed003-gpt40.json");
    let d = sys.disk("da0").unwrap();
    let t = d.partition_table.value().unwrap();
    assert_eq!(t.scheme, "gpt");
    assert!(t.notes.contains(&"first usable sector 34".to_string()));
    let starts: Vec<(String, u64, u64)> = t
        .partitions
        .iter()
        .map(|p| (p.name.clone(), p.start_sector, p.size_sectors))
        .collect();
    assert_eq!(starts, vec![("da0p1".to_string(), 40, 5860533088)]);
    assert_eq!(t.partitions[0].start_bytes, 20480);
    assert_eq!(d.physical_sector_bytes.get(), Some(4096));
}

#[test]
fn bundle_without_captures_gives_reasons_not_panics() {
    let mut b = EvidenceBundle::new(Platform::Freebsd, Origin::Hand);
    b.insert(
        &SourceKey::Sysctl("kern.disks".into()),
        Capture::ok("ada0 cd0"),
    );
    let sys = facts::derive(&b);
    assert_eq!(sys.disks.len(), 1, "cd0 is skipped");
    let d = &sys.disks[0];
    assert!(d.model.why().unwrap().contains("camcontrol identify ada0"));
    assert!(d.model.why().unwrap().contains("not captured"));
    assert!(!d.controller.is_known());
    assert!(!d.partition_table.is_known());
}

/// A bundle holding one real dmesg fixture as /var/run/dmesg.boot and nothing else: disks
/// come from the dmesg attach lines (kern.disks not captured).
fn from_dmesg(fixture: &str) -> SystemFacts {
    let p = format!(
        "{}/tests/fixtures/freebsd/dmesg/{fixture}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&p).unwrap();
    let mut b = EvidenceBundle::new(Platform::Freebsd, Origin::Hand);
    b.insert(
        &SourceKey::File("/var/run/dmesg.boot".into()),
        Capture::ok(text),
    );
    facts::derive(&b)
}

#[test]
fn dmesg_only_nforce_legacy_ata() {
    let sys = from_dmesg("fbsd13.0-nforce-mcp51-ata-legacy-wdma2-pata-sata1x-verbose.txt");
    assert_eq!(sys.aes_ni.get(), Some(false));
    assert_eq!(sys.ram_bytes.get(), Some(5368709120));
    assert_eq!(
        sys.cpu_model.value().map(String::as_str),
        Some("AMD Athlon(tm) 64 X2 Dual Core Processor 4600+")
    );
    let names: Vec<&str> = sys.disks.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(names, vec!["ada0", "ada1", "ada2"]);
    let a0 = sys.disk("ada0").unwrap();
    assert_eq!(a0.transport.get(), Some(Transport::Pata), "WDMA2, no SATA");
    let c0 = a0.controller.value().unwrap();
    assert_eq!(
        (c0.mode, c0.address.as_deref()),
        (Some(ControllerMode::LegacyIde), Some("atapci0"))
    );
    assert!(!a0.link_current_gbps.is_known(), "PATA has no SATA link");
    let a1 = sys.disk("ada1").unwrap();
    assert_eq!(a1.transport.get(), Some(Transport::Sata));
    let c1 = a1.controller.value().unwrap();
    assert_eq!(c1.mode, Some(ControllerMode::LegacyIde));
    assert_eq!(
        c1.description.as_deref(),
        Some("nVidia nForce MCP51 SATA300 controller")
    );
    assert_eq!(a1.link_current_gbps.get(), Some(1.5));
    assert_eq!(a1.link_port_max_gbps.get(), Some(3.0), "SATA300 controller");
    assert_eq!(a1.ncq_active.get(), Some(false));
    assert_eq!(a1.model.value().map(String::as_str), Some("ST3200822AS"));
    assert_eq!(a1.firmware.value().map(String::as_str), Some("3.02"));
    assert_eq!(a1.size_bytes.get(), Some(390721968 * 512));
}

#[test]
fn dmesg_only_ghostbsd_ahci() {
    let sys = from_dmesg("ghostbsd-fbsd13.0-cam-read-fpdma-error-storm-truncated-start.txt");
    assert_eq!(sys.aes_ni.get(), Some(true));
    let a0 = sys.disk("ada0").unwrap();
    let c = a0.controller.value().unwrap();
    assert_eq!(c.mode, Some(ControllerMode::Ahci));
    assert_eq!(
        c.address.as_deref(),
        Some("ahci1"),
        "ahcich2 is on ahci1 in the last boot"
    );
    assert_eq!(a0.link_current_gbps.get(), Some(6.0));
    assert_eq!(a0.link_port_max_gbps.get(), Some(6.0));
    assert_eq!(a0.ncq_active.get(), Some(true));
    let a1 = sys.disk("ada1").unwrap();
    assert_eq!(a1.link_current_gbps.get(), Some(3.0));
    assert_eq!(a1.model.value().map(String::as_str), Some("ST31500541AS"));
    let da0 = sys.disk("da0").unwrap();
    assert_eq!(da0.class.get(), Some(DeviceClass::Usb));
    assert_eq!(
        da0.controller.value().and_then(|c| c.mode),
        Some(ControllerMode::Usb)
    );
}

#[test]
fn dmesg_only_opnsense_mps_nvd_usb() {
    let sys = from_dmesg("opnsense-fbsd13.1-mps-sas2008-sata-hgst-nvd-usb3-multiboot.txt");
    assert_eq!(sys.disks.len(), 6);
    let da0 = sys.disk("da0").unwrap();
    assert_eq!(da0.transport.get(), Some(Transport::Sata));
    let c = da0.controller.value().unwrap();
    assert_eq!(
        (c.mode, c.description.as_deref()),
        (
            Some(ControllerMode::SasHba),
            Some("Avago Technologies (LSI) SAS2008")
        )
    );
    assert_eq!(da0.link_current_gbps.get(), Some(6.0));
    assert_eq!(da0.ncq_active.get(), Some(true));
    assert_eq!(
        da0.model.value().map(String::as_str),
        Some("HGST HUS726060AL")
    );
    let nvd = sys.disk("nvd0").unwrap();
    assert_eq!(
        (nvd.class.get(), nvd.transport.get()),
        (Some(DeviceClass::Nvme), Some(Transport::Nvme))
    );
    let usb = sys.disk("da4").unwrap();
    assert_eq!(
        (usb.class.get(), usb.transport.get()),
        (Some(DeviceClass::Usb), Some(Transport::Usb))
    );
    assert!(!usb.link_current_gbps.is_known());
}

#[test]
fn dmesg_only_old_ad_and_sas_4kn() {
    let sys = from_dmesg("fbsd6.4-ich4-udma100-legacy-ad0-pata.txt");
    let ad0 = sys.disk("ad0").unwrap();
    let c = ad0.controller.value().unwrap();
    assert_eq!(
        (c.mode, c.description.as_deref()),
        (
            Some(ControllerMode::LegacyIde),
            Some("Intel ICH4 UDMA100 controller")
        )
    );
    assert_eq!(
        ad0.transport.get(),
        Some(Transport::Pata),
        "UDMA100 on a PATA laptop disk"
    );
    assert_eq!(ad0.ncq_active.get(), Some(false));

    let sys = from_dmesg("fbsd11-current-mpr-sas3008-nvme-4kn-sas-interleaved.txt");
    let sas = sys.disk("da11").unwrap();
    assert_eq!(sas.transport.get(), Some(Transport::Sas));
    assert_eq!(sas.logical_sector_bytes.get(), Some(4096), "4Kn");
    assert!(
        !sas.link_current_gbps.is_known(),
        "12 Gb/s SAS is not a SATA link"
    );
    let ssd = sys.disk("da0").unwrap();
    assert_eq!(
        (ssd.transport.get(), ssd.link_current_gbps.get()),
        (Some(Transport::Sata), Some(6.0))
    );
}

fn fixture(rel: &str) -> String {
    let p = format!("{}/tests/fixtures/{rel}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&p).unwrap()
}

/// Real fixture outputs combined with short hand-written captures in the documented
/// layouts of camcontrol(8) devlist -v, sysctl(8) dev.* and pciconf(8) -lv: exercises the
/// paths the seed bundles cannot (SIM from devlist, controller from sysctl, PCI class,
/// kern.cam.ada.N.write_cache, gpart list without gpart show, GPT label to GELI to ZFS).
#[test]
fn devlist_sysctl_and_pciconf_capture_paths() {
    let mut b = EvidenceBundle::new(Platform::Freebsd, Origin::Hand);
    let put = |b: &mut EvidenceBundle, k: &str, v: &str| {
        b.insert(&SourceKey::parse(k).unwrap(), Capture::ok(v));
    };
    put(&mut b, "sysctl:kern.disks", "ada1 ada0 cd0");
    put(
        &mut b,
        "cmd:camcontrol devlist -v",
        "scbus0 on ata0 bus 0:\n<Corsair Force LE SSD SAFC12.2>   at scbus0 target 0 lun 0 (pass0,ada0)\nscbus1 on ahcich3 bus 0:\n<INTEL SSDSC2BA800G3 5DV10270>    at scbus1 target 0 lun 0 (ada1,pass1)\n",
    );
    put(
        &mut b,
        "cmd:sysctl dev.ata",
        "dev.ata.0.%desc: ATA channel\ndev.ata.0.%parent: atapci0\n",
    );
    put(
        &mut b,
        "cmd:sysctl dev.atapci",
        "dev.atapci.0.%desc: Intel ICH7 SATA300 controller\ndev.atapci.0.%pnpinfo: vendor=0x8086 device=0x27c0 subvendor=0x17aa subdevice=0x2011 class=0x01018f\ndev.atapci.0.%parent: pci0\n",
    );
    put(
        &mut b,
        "cmd:sysctl dev.ahcich",
        "dev.ahcich.3.%desc: AHCI channel\ndev.ahcich.3.%parent: ahci0\n",
    );
    put(
        &mut b,
        "cmd:sysctl dev.ahci",
        "dev.ahci.0.%desc: Intel Lynx Point AHCI SATA controller\ndev.ahci.0.%parent: pci0\n",
    );
    put(
        &mut b,
        "cmd:pciconf -lv",
        "ahci0@pci0:0:31:2:\tclass=0x010601 card=0x220817aa chip=0x8c038086 rev=0x04 hdr=0x00\n    vendor     = 'Intel Corporation'\n    device     = '8 Series/C220 Series Chipset Family 6-port SATA Controller 1 [AHCI mode]'\n",
    );
    put(
        &mut b,
        "cmd:camcontrol identify ada0",
        &fixture("freebsd/camcontrol-identify/ata-legacy-mode-corsair-force-le-ssd-ada0.txt"),
    );
    put(
        &mut b,
        "cmd:camcontrol identify ada1",
        &fixture("freebsd/camcontrol-identify/sata-ssd-intel-dcs3700-behind-mpr-sas3008-da11.txt"),
    );
    put(&mut b, "sysctl:kern.cam.ada.1.write_cache", "0");
    put(&mut b, "sysctl:kern.cam.ada.0.write_cache", "-1");
    put(&mut b, "sysctl:kern.cam.ada.write_cache", "1");
    put(&mut b, "ioctl:/dev/ada1:DIOCGSTRIPESIZE", "4096");
    put(&mut b, "ioctl:/dev/ada1:DIOCGSTRIPEOFFSET", "0");
    put(&mut b, "ioctl:/dev/ada1:DIOCGMEDIASIZE", "800166076416");
    let gl = fixture("freebsd/gpart-list/fbsd13.0-gpt-freebsd-boot-plus-zfs-on-geli-laptop.txt")
        .replace("ada0", "ada1");
    put(&mut b, "cmd:gpart list", &gl);
    put(
        &mut b,
        "cmd:geli list",
        "Geom name: gpt/zfs0.eli\nState: ACTIVE\nEncryptionAlgorithm: AES-XTS\nKeyLength: 256\nCrypto: hardware\nProviders:\n1. Name: gpt/zfs0.eli\n   Sectorsize: 4096\nConsumers:\n1. Name: gpt/zfs0\n",
    );
    put(
        &mut b,
        "cmd:zpool status",
        &fixture("freebsd/zpool-status/nda0p4-features-not-enabled-with-inline-user-comments.txt")
            .replace("nda0p4", "gpt/zfs0.eli"),
    );
    let sys = facts::derive(&b);
    assert_eq!(sys.disks.len(), 2);

    // ada0: Corsair on an ata(4) channel of a compatibility-mode (class 0x01018f) atapci.
    let a0 = sys.disk("ada0").unwrap();
    let c0 = a0.controller.value().unwrap();
    assert_eq!(c0.mode, Some(ControllerMode::LegacyIde));
    assert_eq!(c0.address.as_deref(), Some("atapci0"));
    assert_eq!(c0.pci_class, Some(0x01018f));
    assert_eq!(
        c0.description.as_deref(),
        Some("Intel ICH7 SATA300 controller")
    );
    assert_eq!(
        a0.controller.sources(),
        [
            "cmd:camcontrol devlist -v",
            "cmd:sysctl dev.ata",
            "cmd:sysctl dev.atapci"
        ]
    );
    assert_eq!(a0.ncq_supported.get(), Some(true));
    assert_eq!(
        a0.ncq_active.get(),
        Some(false),
        "legacy channel: NCQ unused"
    );
    assert_eq!(a0.link_current_gbps.get(), Some(6.0));
    assert_eq!(
        a0.write_cache_enabled.get(),
        Some(true),
        "-1 leaves the drive's setting"
    );
    assert_eq!(a0.class.get(), Some(DeviceClass::Ssd));

    // ada1: the DC S3700 on AHCI; kern.cam.ada.1.write_cache=0 is applied only at probe or
    // bus reset (ata_da.c), so IDENTIFY word 85 ("write cache yes yes") is the state now.
    let a1 = sys.disk("ada1").unwrap();
    let c1 = a1.controller.value().unwrap();
    assert_eq!(
        (c1.mode, c1.address.as_deref()),
        (Some(ControllerMode::Ahci), Some("ahci0"))
    );
    assert_eq!(c1.pci_class, Some(0x010601));
    assert_eq!(c1.pci_id.as_deref(), Some("8086:8c03"));
    assert_eq!(
        c1.description.as_deref(),
        Some("Intel Lynx Point AHCI SATA controller")
    );
    assert_eq!(a1.ncq_active.get(), Some(true), "Command Queueing Enabled");
    assert_eq!(a1.write_cache_supported.get(), Some(true));
    assert_eq!(a1.write_cache_enabled.get(), Some(true));
    assert_eq!(
        a1.write_cache_enabled.sources(),
        ["cmd:camcontrol identify ada1"]
    );
    assert_eq!(
        a1.notes,
        [
            "sysctl:kern.cam.ada.1.write_cache = 0: ada(4) is configured to turn the write cache \
          off at the next probe or bus reset (ata_da.c applies it only then); IDENTIFY shows \
          it enabled now"
        ]
    );
    assert_eq!(a1.size_bytes.get(), Some(800166076416));
    assert_eq!(a1.size_bytes.sources(), ["ioctl:/dev/ada1:DIOCGMEDIASIZE"]);
    assert_eq!(a1.physical_sector_bytes.get(), Some(4096));
    let t = a1.partition_table.value().unwrap();
    assert_eq!(t.scheme, "gpt");
    let starts: Vec<(&str, u64, u64)> = t
        .partitions
        .iter()
        .map(|p| (p.name.as_str(), p.start_sector, p.start_bytes))
        .collect();
    assert_eq!(
        starts,
        vec![("ada1p1", 40, 20480), ("ada1p2", 2048, 1048576)]
    );
    let layers: Vec<(Option<LayerKind>, &str, Vec<String>)> = a1
        .layers
        .iter()
        .map(|l| (l.kind, l.name.as_str(), l.on.clone()))
        .collect();
    assert_eq!(
        layers,
        vec![
            (
                Some(LayerKind::Geli),
                "gpt/zfs0.eli",
                vec!["gpt/zfs0".to_string()]
            ),
            (
                Some(LayerKind::Zfs),
                "zroot",
                vec!["gpt/zfs0.eli".to_string()]
            ),
        ]
    );
    let g = &a1.layers[0];
    assert_eq!(
        (g.cipher.as_deref(), g.key_bits, g.crypto_impl.as_deref()),
        (Some("AES-XTS"), Some(256), Some("hardware"))
    );
    assert_eq!(g.sector_bytes, Some(4096));
    assert!(a0.layers.is_empty());
}

/// kern.disks and kern.geom.confxml only (what an unprivileged run still reads): the
/// VMware guest of the FreeBSD 12 `sysctl -a` fixture.
#[test]
fn confxml_only_vmware_guest() {
    let dump = fixture("freebsd/sysctl/a-fbsd12-vmware-full-with-multiline-xml-values.txt");
    let e = diskdoc_core::sources::sysctl::parse(&dump);
    let get = |n: &str| {
        diskdoc_core::sources::sysctl::get(&e, n)
            .unwrap()
            .to_string()
    };
    let mut b = EvidenceBundle::new(Platform::Freebsd, Origin::Hand);
    b.insert(
        &SourceKey::Sysctl("kern.disks".into()),
        Capture::ok(get("kern.disks")),
    );
    b.insert(
        &SourceKey::Sysctl("kern.geom.confxml".into()),
        Capture::ok(get("kern.geom.confxml")),
    );
    let sys = facts::derive(&b);
    assert_eq!(sys.disks.len(), 1, "cd0 skipped");
    let d = sys.disk("da0").unwrap();
    assert_eq!(d.size_bytes.get(), Some(21474836480));
    assert_eq!(d.size_bytes.sources(), ["sysctl:kern.geom.confxml"]);
    assert_eq!(d.logical_sector_bytes.get(), Some(512));
    assert!(!d.physical_sector_bytes.is_known(), "stripesize 0: no hint");
    assert_eq!(
        d.model.value().map(String::as_str),
        Some("VMware, VMware Virtual S")
    );
    assert_eq!(d.class.get(), Some(DeviceClass::Virtual));
    let t = d.partition_table.value().unwrap();
    assert_eq!(t.scheme, "mbr");
    assert!(t.notes.contains(&"first usable sector 63".to_string()));
    assert_eq!(t.partitions.len(), 1);
    assert_eq!(
        (t.partitions[0].name.as_str(), t.partitions[0].start_sector),
        ("da0s1", 64)
    );
    let kids: Vec<(&str, u64)> = t.partitions[0]
        .children
        .iter()
        .map(|c| (c.name.as_str(), c.start_sector))
        .collect();
    assert_eq!(kids, vec![("da0s1a", 64), ("da0s1b", 39845888 + 64)]);
}

/// gmirror of two disks, partitioned, with GELI on a mirror partition, all from a
/// hand-written kern.geom.confxml in the geom(4) XML layout (no geli list / gpart output).
#[test]
fn confxml_gmirror_then_geli() {
    let xml = r#"<mesh>
  <class id="0x1"><name>DISK</name>
    <geom id="0x10"><class ref="0x1"/><name>ada0</name><rank>1</rank><config></config>
      <provider id="0x11"><geom ref="0x10"/><mode>r1w1e2</mode><name>ada0</name><mediasize>1000204886016</mediasize><sectorsize>512</sectorsize><stripesize>4096</stripesize><stripeoffset>0</stripeoffset>
        <config><fwheads>16</fwheads><fwsectors>63</fwsectors><rotationrate>7200</rotationrate><ident>WD-X</ident><descr>WDC WD10EFRX-68FYTN0</descr></config></provider></geom>
    <geom id="0x20"><class ref="0x1"/><name>ada1</name><rank>1</rank><config></config>
      <provider id="0x21"><geom ref="0x20"/><mode>r1w1e2</mode><name>ada1</name><mediasize>1000204886016</mediasize><sectorsize>512</sectorsize><stripesize>4096</stripesize><stripeoffset>0</stripeoffset>
        <config><rotationrate>unknown</rotationrate></config></provider></geom>
  </class>
  <class id="0x2"><name>MIRROR</name>
    <geom id="0x30"><class ref="0x2"/><name>gm0</name><rank>2</rank><config><State>COMPLETE</State></config>
      <consumer id="0x31"><geom ref="0x30"/><provider ref="0x11"/><mode>r1w1e1</mode><config></config></consumer>
      <consumer id="0x32"><geom ref="0x30"/><provider ref="0x21"/><mode>r1w1e1</mode><config></config></consumer>
      <provider id="0x33"><geom ref="0x30"/><mode>r1w1e1</mode><name>mirror/gm0</name><mediasize>1000204885504</mediasize><sectorsize>512</sectorsize><stripesize>4096</stripesize><stripeoffset>0</stripeoffset><config></config></provider></geom>
  </class>
  <class id="0x3"><name>PART</name>
    <geom id="0x40"><class ref="0x3"/><name>mirror/gm0</name><rank>3</rank><config><scheme>GPT</scheme><first>40</first></config>
      <consumer id="0x41"><geom ref="0x40"/><provider ref="0x33"/><mode>r1w1e1</mode><config></config></consumer>
      <provider id="0x42"><geom ref="0x40"/><mode>r1w1e1</mode><name>mirror/gm0p1</name><mediasize>1000204</mediasize><sectorsize>512</sectorsize><stripesize>4096</stripesize><stripeoffset>0</stripeoffset>
        <config><start>2048</start><end>1953525127</end><index>1</index><type>freebsd-zfs</type></config></provider></geom>
  </class>
  <class id="0x4"><name>ELI</name>
    <geom id="0x50"><class ref="0x4"/><name>mirror/gm0p1.eli</name><rank>4</rank>
      <config><KeyLength>256</KeyLength><Crypto>accelerated software</Crypto><EncryptionAlgorithm>AES-XTS</EncryptionAlgorithm></config>
      <consumer id="0x51"><geom ref="0x50"/><provider ref="0x42"/><mode>r1w1e1</mode><config></config></consumer>
      <provider id="0x52"><geom ref="0x50"/><mode>r1w1e1</mode><name>mirror/gm0p1.eli</name><mediasize>1</mediasize><sectorsize>4096</sectorsize><stripesize>0</stripesize><stripeoffset>0</stripeoffset><config></config></provider></geom>
  </class>
</mesh>"#;
    let mut b = EvidenceBundle::new(Platform::Freebsd, Origin::Hand);
    b.insert(
        &SourceKey::Sysctl("kern.disks".into()),
        Capture::ok("ada1 ada0"),
    );
    b.insert(
        &SourceKey::Sysctl("kern.geom.confxml".into()),
        Capture::ok(xml),
    );
    let sys = facts::derive(&b);
    let a0 = sys.disk("ada0").unwrap();
    assert_eq!(a0.rotation_rpm.get(), Some(7200));
    assert_eq!(a0.physical_sector_bytes.get(), Some(4096));
    assert_eq!(a0.serial.value().map(String::as_str), Some("WD-X"));
    let a1 = sys.disk("ada1").unwrap();
    assert!(!a1.rotation_rpm.is_known(), "rotationrate unknown");
    for d in [a0, a1] {
        let layers: Vec<(Option<LayerKind>, &str)> =
            d.layers.iter().map(|l| (l.kind, l.name.as_str())).collect();
        assert_eq!(
            layers,
            vec![
                (Some(LayerKind::Gmirror), "gm0"),
                (Some(LayerKind::Geli), "mirror/gm0p1.eli")
            ],
            "{}",
            d.name
        );
        assert_eq!(d.layers[0].on, vec![d.name.clone()]);
        let eli = &d.layers[1];
        assert_eq!(eli.on, vec!["mirror/gm0p1"]);
        assert_eq!(
            (eli.cipher.as_deref(), eli.key_bits),
            (Some("AES-XTS"), Some(256))
        );
        assert_eq!(eli.crypto_impl.as_deref(), Some("accelerated software"));
        assert_eq!(eli.sector_bytes, Some(4096));
    }
}

#[test]
fn disk_list_falls_back_to_devlist() {
    use diskdoc_core::evidence::Unavailable;
    use diskdoc_sys::probe::freebsd::disk_names;
    let devlist = std::fs::read_to_string(format!(
        "{}/tests/fixtures/freebsd/camcontrol-devlist/fbsd10-sas-seagate-da-plus-ahci-intel-ssd-ses.txt",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let missing = Capture::unavailable(Unavailable::PermissionDenied, "EPERM");
    assert_eq!(
        disk_names(&missing, &Capture::ok(devlist.clone()), None),
        vec!["ada0", "ada1", "da0", "da1", "da2", "da3"]
    );
    assert_eq!(
        disk_names(&missing, &Capture::ok(devlist), Some("/dev/da2")),
        vec!["da2"]
    );
    assert_eq!(
        disk_names(&Capture::ok("ada0 cd0 nvd0 pass0"), &missing, None),
        vec!["ada0", "nvd0"]
    );
}

/// gpart list's per-partition Stripeoffset becomes the partition's misalignment when the
/// disk reports a stripesize (a slice at 63 on a 4K drive: 32256 % 4096 = 3584).
#[test]
fn gpart_list_stripeoffset_is_misalignment_only_with_a_stripesize() {
    let list = "Geom name: ada0\nscheme: MBR\nfirst: 63\nProviders:\n1. Name: ada0s1\n   Mediasize: 1000 (1K)\n   Sectorsize: 512\n   Stripesize: 4096\n   Stripeoffset: 32256\n   type: freebsd\n   index: 1\n   start: 63\n   end: 1000\n   offset: 32256\n2. Name: ada0s2\n   Sectorsize: 512\n   Stripesize: 0\n   Stripeoffset: 1048576\n   index: 2\n   start: 2048\n   end: 4095\n   offset: 1048576\nConsumers:\n1. Name: ada0\n   Sectorsize: 512\n";
    let mut b = EvidenceBundle::new(Platform::Freebsd, Origin::Hand);
    b.insert(&SourceKey::Sysctl("kern.disks".into()), Capture::ok("ada0"));
    b.insert(&SourceKey::cmd(&["gpart", "list"]), Capture::ok(list));
    let sys = facts::derive(&b);
    let t = sys
        .disk("ada0")
        .unwrap()
        .partition_table
        .value()
        .unwrap()
        .clone();
    assert_eq!(t.scheme, "mbr");
    let got: Vec<(&str, u64, u64, Option<u64>)> = t
        .partitions
        .iter()
        .map(|p| {
            (
                p.name.as_str(),
                p.start_sector,
                p.start_bytes,
                p.alignment_offset_bytes,
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            ("ada0s1", 63, 32256, Some(3584)),
            ("ada0s2", 2048, 1048576, None),
        ]
    );
    assert_eq!(t.partitions[0].size_sectors, 938);
}

/// Every known fact names at least one capture key, and each key is one the bundle holds.
fn check_sources(name: &str, b: &EvidenceBundle) {
    let sys = facts::derive(b);
    let mut stack = vec![serde_json::to_value(&sys).unwrap()];
    let mut checked = 0;
    while let Some(x) = stack.pop() {
        match x {
            serde_json::Value::Object(m) => {
                if m.get("state").and_then(|s| s.as_str()) == Some("known") {
                    let from = m["from"].as_array().unwrap();
                    assert!(
                        !from.is_empty(),
                        "{name}: known fact without sources: {m:?}"
                    );
                    for f in from {
                        let f = f.as_str().unwrap();
                        assert!(
                            b.captures.contains_key(f),
                            "{name}: source {f} not in bundle"
                        );
                    }
                    checked += 1;
                }
                stack.extend(m.into_iter().map(|(_, v)| v));
            }
            serde_json::Value::Array(a) => stack.extend(a),
            _ => {}
        }
    }
    assert!(checked >= 5, "{name}: {checked}");
}

#[test]
fn every_known_fact_has_sources_in_the_bundle() {
    for name in BUNDLES {
        check_sources(name, &load(name));
    }
    let dir = format!(
        "{}/tests/fixtures/freebsd/dmesg",
        env!("CARGO_MANIFEST_DIR")
    );
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        let mut b = EvidenceBundle::new(Platform::Freebsd, Origin::Hand);
        b.insert(
            &SourceKey::File("/var/run/dmesg.boot".into()),
            Capture::ok(std::fs::read_to_string(&p).unwrap()),
        );
        check_sources(&p.display().to_string(), &b);
    }
}

/// Issue 15's gap: `replay --device` of a FreeBSD bundle scopes it as the live probe does
/// (facts/freebsd/scope.rs). The bundle is the real OPNsense 13.1 boot log of
/// tests/fixtures/INDEX.md (da0-da3 on mps0, a USB stick da4, nvd0) with kern.disks listing
/// those disks: `--device /dev/da2` gives findings about da2 only, and the report's own
/// evidence keeps no line of another disk.
#[test]
fn replay_device_scopes_a_freebsd_bundle() {
    let log = std::fs::read_to_string(format!(
        "{}/tests/fixtures/freebsd/dmesg/opnsense-fbsd13.1-mps-sas2008-sata-hgst-nvd-usb3-multiboot.txt",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("fixture");
    let mut b = EvidenceBundle::new(Platform::Freebsd, Origin::Hand);
    b.notes
        .push("dmesg.boot VERBATIM (fixture); kern.disks RECONSTRUCTED from it".into());
    b.insert(
        &SourceKey::Sysctl("kern.disks".into()),
        Capture::ok("nvd0 da4 da3 da2 da1 da0"),
    );
    b.insert(
        &SourceKey::File("/var/run/dmesg.boot".into()),
        Capture::ok(log),
    );
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("opnsense.json");
    std::fs::write(&path, b.to_json()).expect("write");
    let replay = |extra: &[&str]| -> serde_json::Value {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_diskdoc"))
            .args(["replay", "--json", "--no-redact"])
            .arg(&path)
            .args(extra)
            .output()
            .expect("replay");
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{extra:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).expect("report JSON")
    };
    let others = ["da0", "da1", "da3", "da4", "nvd0"];
    let names_a_disk = |text: &str, disk: &str| {
        text.lines()
            .any(|l| l.split([' ', ':', '<', '>']).any(|w| w == disk))
    };
    // Without --device the report covers every disk and its evidence names them all.
    let whole = replay(&[]);
    let whole_log = whole["evidence"]["captures"]["file:/var/run/dmesg.boot"]["data"]
        .as_str()
        .expect("dmesg.boot in the evidence");
    assert!(others.iter().all(|d| names_a_disk(whole_log, d)));
    let v = replay(&["--device", "/dev/da2"]);
    let disks: Vec<&str> = v["system"]["disks"]
        .as_array()
        .expect("disks")
        .iter()
        .filter_map(|d| d["name"].as_str())
        .collect();
    assert_eq!(disks, ["da2"]);
    let findings = v["findings"].as_array().expect("findings");
    assert!(!findings.is_empty());
    for f in findings {
        let dev = f["device"].as_str().unwrap_or("");
        assert!(
            dev == "da2" || dev == "system",
            "a finding about {dev}: {f}"
        );
        let text = f.to_string();
        for o in others {
            assert!(
                !names_a_disk(&text.replace("\\n", "\n"), o),
                "{o} in {text}"
            );
        }
    }
    let caps = &v["evidence"]["captures"];
    assert_eq!(caps["sysctl:kern.disks"]["data"], "da2");
    let log = caps["file:/var/run/dmesg.boot"]["data"]
        .as_str()
        .expect("dmesg.boot");
    for o in others {
        assert!(!names_a_disk(log, o), "{o} left in the replayed evidence");
    }
    assert!(log.contains("da2 at mps0 bus 0 scbus0 target 2 lun 0"));
    // The disk's facts are those of the unscoped replay.
    let whole_da2 = whole["system"]["disks"]
        .as_array()
        .and_then(|ds| ds.iter().find(|d| d["name"] == "da2"))
        .expect("da2 in the whole replay");
    assert_eq!(&v["system"]["disks"][0], whole_da2);
    // A disk the bundle does not list is still a usage error, whatever the scoping.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_diskdoc"))
        .args(["replay", "--json"])
        .arg(&path)
        .args(["--device", "da9"])
        .output()
        .expect("replay");
    assert_eq!(out.status.code(), Some(2));
}
