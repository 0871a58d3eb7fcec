//! Replay of hand-assembled FreeBSD bundles (tests/fixtures/bundles/seed*.json, built from
//! the seed threads; each bundle's `notes` says what is verbatim and what was rebuilt):
//! the FreeBSD probe asks for exactly the keys a bundle holds, and `facts::derive` gives the
//! facts the seeds describe.

use std::collections::BTreeSet;

use diskdoc::evidence::{Capture, EvidenceBundle, Origin, Platform, SourceKey};
use diskdoc::facts::{self, ControllerMode, DeviceClass, LayerKind, SystemFacts, Transport};
use diskdoc::host::{Host, IoctlRequest, ReplayHost};
use diskdoc::probe::ProbeOptions;

fn load(name: &str) -> EvidenceBundle {
    let p = format!(
        "{}/tests/fixtures/bundles/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    EvidenceBundle::load(std::path::Path::new(&p)).unwrap_or_else(|e| panic!("{e}"))
}

/// A ReplayHost that remembers every key it was asked for.
struct Recording<'a> {
    inner: ReplayHost<'a>,
    asked: Vec<String>,
}

impl Host for Recording<'_> {
    fn platform(&self) -> Platform {
        self.inner.platform()
    }
    fn run(&mut self, argv: &[&str]) -> Capture {
        self.asked.push(SourceKey::cmd(argv).to_string());
        self.inner.run(argv)
    }
    fn read_file(&mut self, path: &str) -> Capture {
        self.asked.push(SourceKey::File(path.into()).to_string());
        self.inner.read_file(path)
    }
    fn list_dir(&mut self, path: &str) -> Capture {
        self.asked.push(SourceKey::Dir(path.into()).to_string());
        self.inner.list_dir(path)
    }
    fn real_path(&mut self, path: &str) -> Capture {
        self.asked
            .push(SourceKey::RealPath(path.into()).to_string());
        self.inner.real_path(path)
    }
    fn sysctl(&mut self, name: &str) -> Capture {
        self.asked.push(SourceKey::Sysctl(name.into()).to_string());
        self.inner.sysctl(name)
    }
    fn ioctl(&mut self, device: &str, req: IoctlRequest) -> Capture {
        self.asked.push(
            SourceKey::Ioctl {
                device: device.into(),
                request: req.name().into(),
            }
            .to_string(),
        );
        self.inner.ioctl(device, req)
    }
    fn read_device(&mut self, device: &str, offset: u64, len: u64) -> Capture {
        self.asked.push(
            SourceKey::DeviceRead {
                device: device.into(),
                offset,
                len,
            }
            .to_string(),
        );
        self.inner.read_device(device, offset, len)
    }
}

fn asked_keys(b: &EvidenceBundle, opts: &ProbeOptions) -> Vec<String> {
    let mut host = Recording {
        inner: ReplayHost { bundle: b },
        asked: Vec::new(),
    };
    diskdoc::probe::collect(&mut host, opts);
    host.asked
}

const BUNDLES: &[&str] = &[
    "seed000-desktop-ich7.json",
    "seed000-laptop-ahci.json",
    "seed002-zfs-geli-hdd.json",
    "seed003-mbr.json",
    "seed003-gpt40.json",
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
    assert_eq!(c.mode, Some(ControllerMode::LegacyIde));
    assert_eq!(c.driver.as_deref(), Some("atapci"));
    assert_eq!(c.address.as_deref(), Some("atapci0"));
    assert_eq!(
        c.description.as_deref(),
        Some("Intel ICH7 UDMA100 controller")
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
