//! Test-only fact builders for the checks: a healthy SATA HDD on AHCI (Linux and FreeBSD
//! flavours) with a capture key on every fact, and the seed systems expressed as facts.
//! Source keys follow docs/evidence-format.md so evidence references look like real ones.

use crate::checks::{Finding, Severity, Verdict};
use crate::evidence::Platform;
use crate::facts::{
    Controller, ControllerMode, DeviceClass, DiskFacts, Fact, Partition, PartitionTable, Smart,
    SystemFacts, Transport,
};

/// A partition at `start` (512-byte sectors) of `size` sectors.
pub fn part(number: u32, name: &str, start: u64, size: u64) -> Partition {
    Partition {
        number,
        name: name.to_string(),
        start_sector: start,
        size_sectors: size,
        sector_bytes: 512,
        start_bytes: start * 512,
        ..Default::default()
    }
}

pub fn table(scheme: &str, partitions: Vec<Partition>) -> PartitionTable {
    PartitionTable {
        scheme: scheme.to_string(),
        partitions,
        ..Default::default()
    }
}

/// A healthy 4 TB 512e SATA HDD on an AHCI port, Linux view: 6 Gb/s drive and port, write
/// cache on, NCQ depth 32 in use, GPT with one partition at 2048, SMART clean, no layers.
pub(crate) fn sata_hdd_ahci() -> DiskFacts {
    let sys = crate::sources::sysfs::block("sda", "");
    let id = "ioctl:/dev/sda:ATA_IDENTIFY";
    let mut d = DiskFacts::new("sda", "/dev/sda");
    d.class = Fact::known(DeviceClass::Hdd, format!("{sys}/queue/rotational"));
    d.model = Fact::known("WDC WD40EFRX-68N32N0".to_string(), id);
    d.size_bytes = Fact::known(4_000_787_030_016, "ioctl:/dev/sda:BLKGETSIZE64");
    d.logical_sector_bytes = Fact::known(512, "ioctl:/dev/sda:BLKSSZGET");
    d.physical_sector_bytes = Fact::known(4096, "ioctl:/dev/sda:BLKPBSZGET");
    d.alignment_offset_bytes = Fact::known(0, format!("{sys}/alignment_offset"));
    d.rotational = Fact::known(true, format!("{sys}/queue/rotational"));
    d.rotation_rpm = Fact::known(5400, id);
    d.scheduler = Fact::known("mq-deadline".to_string(), format!("{sys}/queue/scheduler"));
    d.queue_depth = Fact::known(32, format!("{sys}/device/queue_depth"));
    d.transport = Fact::known(Transport::Sata, "realpath:/sys/block/sda");
    d.controller = Fact::known(
        Controller {
            mode: Some(ControllerMode::Ahci),
            driver: Some("ahci".to_string()),
            pci_class: Some(0x010601),
            pci_id: Some("8086:a102".to_string()),
            description: Some("SATA controller: Intel Corporation Q170/Q150/B150/H170/H110/Z170/CM236 Chipset SATA Controller [AHCI Mode]".to_string()),
            address: Some("0000:00:17.0".to_string()),
            ..Default::default()
        },
        crate::sources::sysfs::pci_device("0000:00:17.0", "class"),
    );
    d.link_current_gbps = Fact::known(6.0, crate::sources::sysfs::ata_link("link1", "sata_spd"));
    d.link_drive_max_gbps = Fact::known(6.0, id);
    d.link_port_max_gbps = Fact::known(
        6.0,
        crate::sources::sysfs::ata_link("link1", "hw_sata_spd_limit"),
    );
    d.ncq_supported = Fact::known(true, id);
    d.ncq_drive_depth = Fact::known(32, id);
    d.ncq_active = Fact::known(true, format!("{sys}/device/queue_depth"));
    d.write_cache_supported = Fact::known(true, id);
    d.write_cache_enabled = Fact::known(true, id);
    d.trim_supported = Fact::known(false, id);
    d.partition_table = Fact::known(
        table("gpt", vec![part(1, "sda1", 2048, 7_814_033_408)]),
        "read:/dev/sda:0:17408",
    );
    d.smart = Fact::known(
        Smart {
            health_passed: Some(true),
            reallocated_sectors: Some(0),
            pending_sectors: Some(0),
            offline_uncorrectable: Some(0),
            reported_uncorrect: Some(0),
            udma_crc_errors: Some(0),
            power_on_hours: Some(1730),
            error_log_count: Some(0),
            // Later fields (media_errors, model_family, ...) stay at their defaults, so new
            // SMART fields do not break the builder.
            ..Default::default()
        },
        crate::sources::smartctl::SPEC.key_for("sda"),
    );
    d
}

/// The same healthy configuration as FreeBSD sees it (ada0 on ahcich0).
pub(crate) fn sata_hdd_ahci_freebsd() -> DiskFacts {
    let mut d = sata_hdd_ahci();
    d.name = "ada0".to_string();
    d.dev_path = "/dev/ada0".to_string();
    let ident = crate::sources::camcontrol_identify::SPEC.key_for("ada0");
    d.controller = Fact::known(
        Controller {
            mode: Some(ControllerMode::Ahci),
            driver: Some("ahci".to_string()),
            pci_class: Some(0x010601),
            description: Some("Intel ICH9M AHCI SATA controller".to_string()),
            address: Some("ahcich0".to_string()),
            ..Default::default()
        },
        crate::sources::dmesg::SPEC.key_for(""),
    );
    d.link_current_gbps = Fact::known(
        6.0,
        crate::sources::camcontrol_identify::SPEC.key_for("ada0"),
    );
    d.link_drive_max_gbps = Fact::known(6.0, ident);
    d.write_cache_enabled = Fact::known(
        true,
        crate::sources::sysctl::ADA_WRITE_CACHE.key_for("ada0"),
    );
    d.partition_table = Fact::known(
        table("gpt", vec![part(1, "ada0p1", 2048, 7_814_033_408)]),
        "read:/dev/ada0:0:17408",
    );
    d
}

pub fn system(platform: Platform, disks: Vec<DiskFacts>) -> SystemFacts {
    let mut s = SystemFacts::empty(platform);
    s.aes_ni = Fact::known(true, crate::sources::sysfs::proc("cpuinfo"));
    s.is_root = Fact::known(true, "cmd:id -u");
    s.disks = disks;
    s
}

pub fn linux(d: DiskFacts) -> SystemFacts {
    system(Platform::Linux, vec![d])
}

pub fn freebsd(d: DiskFacts) -> SystemFacts {
    let mut s = system(Platform::Freebsd, vec![d]);
    s.aes_ni = Fact::known(true, crate::sources::dmesg::SPEC.key_for(""));
    s
}

/// Seed 000's desktop: FreeBSD 8.1, ICH7 in legacy mode (atapci0 "Intel ICH7 UDMA100
/// controller"), ad4 = WDC WD5001ABYS (SATA revision 2.x, NCQ supported but not used),
/// write cache disabled with hw.ata.wc="0" in loader.conf.
pub fn seed000_desktop() -> SystemFacts {
    let cap = crate::sources::camcontrol_identify::ATACONTROL_SPEC.key_for("ad4");
    let mut d = DiskFacts::new("ad4", "/dev/ad4");
    d.class = Fact::known(DeviceClass::Hdd, &cap);
    d.model = Fact::known("WDC WD5001ABYS-01YNA0".to_string(), &cap);
    d.size_bytes = Fact::known(976_773_168 * 512, &cap);
    d.logical_sector_bytes = Fact::known(512, &cap);
    d.physical_sector_bytes = Fact::known(512, &cap);
    d.transport = Fact::known(Transport::Sata, &cap);
    d.controller = Fact::known(
        Controller {
            mode: Some(ControllerMode::LegacyIde),
            driver: Some("atapci".to_string()),
            description: Some("Intel ICH7 UDMA100 controller".to_string()),
            address: Some("atapci0".to_string()),
            ..Default::default()
        },
        crate::sources::dmesg::SPEC.key_for(""),
    );
    d.ncq_supported = Fact::known(true, &cap);
    d.ncq_drive_depth = Fact::known(32, &cap);
    d.ncq_active = Fact::known(false, &cap);
    d.write_cache_supported = Fact::known(true, &cap);
    d.write_cache_enabled = Fact::known_from(
        false,
        vec![
            cap.to_string(),
            crate::sources::sysctl::HW_ATA_WC.key_for(""),
        ],
    );
    let mut s1 = part(1, "ad4s1", 63, 976_768_002);
    let mut a = part(1, "ad4s1a", 0, 1_000_000);
    a.start_bytes = 63 * 512;
    s1.children = vec![a];
    d.partition_table = Fact::known(table("mbr", vec![s1]), "read:/dev/ad4:0:17408");
    let mut s = freebsd(d);
    s.aes_ni = Fact::unknown("CPU features not captured");
    s
}

/// Seed 003: FreeBSD 9.1, TOSHIBA DT01ACA300 (da0 behind an LSI SAS2008, 600 MB/s link,
/// command queueing enabled), 512-byte logical sectors, stripesize 4096, stripeoffset 0,
/// 5860533168 sectors; `table` is the partition table to test.
pub fn seed003(table_: PartitionTable) -> SystemFacts {
    let di = crate::sources::diskinfo::SPEC.key_for("da0");
    let mut d = DiskFacts::new("da0", "/dev/da0");
    d.class = Fact::known(
        DeviceClass::Hdd,
        crate::sources::camcontrol_identify::SPEC.key_for("da0"),
    );
    d.model = Fact::known(
        "TOSHIBA DT01ACA300".to_string(),
        crate::sources::dmesg::SPEC.key_for(""),
    );
    d.size_bytes = Fact::known(3_000_592_982_016, &di);
    d.logical_sector_bytes = Fact::known(512, &di);
    d.physical_sector_bytes = Fact::known(4096, &di);
    d.alignment_offset_bytes = Fact::known(0, di);
    d.transport = Fact::known(Transport::Sas, crate::sources::dmesg::SPEC.key_for(""));
    d.link_current_gbps = Fact::known(6.0, crate::sources::dmesg::SPEC.key_for(""));
    d.partition_table = Fact::known(table_, "read:/dev/da0:0:17408");
    freebsd(d)
}

/// Seed 003's first layout: `=> 63 ... da0 MBR`, slice 1 at 1008 (2 TiB), BSD label inside
/// with `a` at 0 of the slice.
pub(crate) fn seed003_mbr_1008() -> PartitionTable {
    let mut s1 = part(1, "da0s1", 1008, 4_294_966_221);
    s1.type_name = Some("freebsd".to_string());
    let mut a = part(1, "da0s1a", 0, 4_294_966_216);
    a.start_bytes = 1008 * 512;
    a.type_name = Some("freebsd-ufs".to_string());
    s1.children = vec![a];
    table("mbr", vec![s1])
}

/// Findings of `check` that are problems.
pub fn problems<'a>(fs: &'a [Finding], check: &str) -> Vec<&'a Finding> {
    fs.iter()
        .filter(|f| f.check == check && f.verdict == Verdict::Problem)
        .collect()
}

/// The one finding for `device`; panics in tests when there is not exactly one.
pub fn only<'a>(fs: &'a [Finding], device: &str) -> &'a Finding {
    let v: Vec<&Finding> = fs.iter().filter(|f| f.device == device).collect();
    assert_eq!(v.len(), 1, "expected one finding for {device}, got {fs:#?}");
    v[0]
}

/// Assert a finding's verdict and severity, printing it on failure.
pub(crate) fn assert_vs(f: &Finding, verdict: Verdict, severity: Severity) {
    assert_eq!(
        (f.verdict, f.severity),
        (verdict, severity),
        "unexpected finding: {f:#?}"
    );
}

/// A btrfs member's counters as facts::pasted::drive_tools stores them (write_errors holds
/// write_io_errs + flush_io_errs).
pub(crate) fn btrfs_counters(dev: &str, read: u64, write: u64) -> crate::model::VdevErrors {
    crate::model::VdevErrors {
        pool: String::new(),
        vdev: dev.into(),
        state: None,
        read_errors: Some(read),
        write_errors: Some(write),
        checksum_errors: Some(0),
        note: None,
        line: format!("[{dev}] write_io_errs {write} read_io_errs {read}"),
        from: "pasted:btrfs-device-stats lines 1-5".into(),
    }
}
