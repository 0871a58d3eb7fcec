//! Report tests: snapshots of every format over hand-built systems (a healthy disk, a disk
//! with every finding, the seed threads in tests/fixtures/seeds/), the JSON schema pinned by a
//! mirror with unknown fields denied, redaction over fixtures that carry serials, the
//! 72-column rule, load errors, replay and compare through the binary.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use diskdoc_core::checks::{Confidence, Finding, Fix, Severity, Verdict};
use diskdoc_core::evidence::{Capture, EvidenceBundle, Origin, Platform};
use diskdoc_core::facts::*;
use diskdoc_core::report::{self, Report, compare, json, markdown, text};
use diskdoc_core::sources::ata_identify::{encode_string, format_sysfs_id};
use diskdoc_sys::bench::{BenchResult, LatencySummary, StopReason, TestName};
use serde::Deserialize;

// ---------------------------------------------------------------- builders

fn k<T>(v: T, from: &str) -> Fact<T> {
    Fact::known(v, from)
}

fn bundle(platform: Platform, captures: &[(&str, &str)]) -> EvidenceBundle {
    let mut b = EvidenceBundle::new(platform, Origin::Hand);
    b.captured_at_unix = 1_796_024_580; // fixed, for stable snapshots
    for (key, data) in captures {
        b.captures.insert(key.to_string(), Capture::ok(*data));
    }
    b
}

fn bench(
    test: TestName,
    disk: &str,
    label: &str,
    bs: u64,
    qd: u32,
    mbps: f64,
    lat: Option<[u64; 7]>,
) -> BenchResult {
    let bytes_per_sec = mbps * 1e6;
    BenchResult {
        test,
        target: format!("/dev/{disk}"),
        disk: disk.into(),
        label: label.into(),
        block_size_bytes: bs,
        queue_depth: qd,
        threads: 1,
        direct: true,
        answered_by: None,
        offset_bytes: 0,
        bytes: (bytes_per_sec * 5.0) as u64,
        ios: ((bytes_per_sec * 5.0) as u64) / bs.max(1),
        elapsed_ns: 5_000_000_000,
        bytes_per_sec,
        iops: bytes_per_sec / bs.max(1) as f64,
        latency: lat.map(|l| LatencySummary {
            min_ns: l[0],
            mean_ns: l[1],
            p50_ns: l[2],
            p90_ns: l[3],
            p99_ns: l[4],
            p999_ns: l[5],
            max_ns: l[6],
        }),
        spread_pct: Some(3.0),
        ci95_pct: None,
        stop_reason: StopReason::Stable,
        error: None,
        notes: Vec::new(),
    }
}

fn finding(
    check: &str,
    dev: &str,
    verdict: Verdict,
    sev: Severity,
    title: &str,
    explain: &str,
) -> Finding {
    Finding::new(check, dev, verdict, sev, title).explain(explain)
}

fn fix(platform: Platform, summary: &str, steps: &[&str], risk: &str) -> Fix {
    Fix {
        platform,
        summary: summary.into(),
        steps: steps.iter().map(|s| s.to_string()).collect(),
        risk: risk.into(),
    }
}

fn report(
    b: EvidenceBundle,
    mut sys: SystemFacts,
    findings: Vec<Finding>,
    argv: &[&str],
) -> Report {
    sys.benchmarks = b.benchmarks.clone();
    Report::new(
        b,
        sys,
        findings,
        argv.iter().map(|s| s.to_string()).collect(),
    )
}

/// A healthy Linux desktop: SATA SSD on AHCI at 6 Gb/s, cache and NCQ on, aligned GPT, LUKS.
fn healthy() -> Report {
    let smart = "cmd:smartctl -j -a /dev/sda";
    let mut b = bundle(
        Platform::Linux,
        &[
            (
                smart,
                r#"{"serial_number": "S3Z9NB0K123456A", "wwn": {"naa": 5, "oui": 9528, "id": 61924557402}, "model_name": "Samsung SSD 860 EVO 500GB"}"#,
            ),
            ("file:/sys/block/sda/device/serial", "S3Z9NB0K123456A\n"),
            ("file:/sys/block/sda/device/wwid", "naa.5002538e40ab1234\n"),
            ("file:/proc/sys/kernel/hostname", "quartz.example.net\n"),
            ("file:/sys/block/sda/queue/write_cache", "write back\n"),
            (
                "dir:/dev/disk/by-id",
                "ata-Samsung_SSD_860_EVO_500GB_S3Z9NB0K123456A\nata-Samsung_SSD_860_EVO_500GB_S3Z9NB0K123456A-part1\nwwn-0x5002538e40ab1234\n",
            ),
            (
                "cmd:ip -o link",
                "2: enp3s0: <BROADCAST,MULTICAST,UP> link/ether 3c:7c:3f:1e:22:9a brd ff:ff:ff:ff:ff:ff\n",
            ),
        ],
    );
    b.benchmarks = vec![
        bench(TestName::SeqRead, "sda", "outer", 1 << 20, 4, 545.2, None),
        bench(TestName::SeqRead, "sda", "middle", 1 << 20, 4, 544.8, None),
        bench(TestName::SeqRead, "sda", "inner", 1 << 20, 4, 543.9, None),
        bench(TestName::BsSweep, "sda", "bs=4096", 4096, 1, 41.3, None),
        bench(TestName::BsSweep, "sda", "bs=65536", 65536, 1, 301.7, None),
        bench(
            TestName::BsSweep,
            "sda",
            "bs=1048576",
            1 << 20,
            1,
            520.4,
            None,
        ),
        bench(
            TestName::RandRead,
            "sda",
            "qd1",
            4096,
            1,
            38.9,
            Some([61_000, 98_000, 92_000, 121_000, 180_000, 410_000, 2_100_000]),
        ),
        bench(
            TestName::RandRead,
            "sda",
            "qd32",
            4096,
            32,
            389.0,
            Some([
                90_000, 321_000, 305_000, 410_000, 620_000, 1_900_000, 6_400_000,
            ]),
        ),
    ];
    let mut d = DiskFacts::new("sda", "/dev/sda");
    d.class = k(DeviceClass::Ssd, "file:/sys/block/sda/queue/rotational");
    d.model = k("Samsung SSD 860 EVO 500GB".into(), smart);
    d.serial = k("S3Z9NB0K123456A".into(), smart);
    d.firmware = k("RVT04B6Q".into(), smart);
    d.wwn = k(
        "0x5002538e40ab1234".into(),
        "file:/sys/block/sda/device/wwid",
    );
    d.size_bytes = k(500_107_862_016, "ioctl:/dev/sda:BLKGETSIZE64");
    d.logical_sector_bytes = k(512, "ioctl:/dev/sda:BLKSSZGET");
    d.physical_sector_bytes = k(512, "ioctl:/dev/sda:BLKPBSZGET");
    d.alignment_offset_bytes = k(0, "file:/sys/block/sda/alignment_offset");
    d.rotational = k(false, "file:/sys/block/sda/queue/rotational");
    d.rotation_rpm = k(0, smart);
    d.scheduler = k("mq-deadline".into(), "file:/sys/block/sda/queue/scheduler");
    d.nr_requests = k(64, "file:/sys/block/sda/queue/nr_requests");
    d.queue_depth = k(32, "file:/sys/block/sda/device/queue_depth");
    d.transport = k(Transport::Sata, "realpath:/sys/block/sda");
    d.controller = k(
        Controller {
            mode: Some(ControllerMode::Ahci),
            driver: Some("ahci".into()),
            pci_class: Some(0x010601),
            pci_id: Some("8086:a282".into()),
            description: None,
            address: Some("0000:00:17.0".into()),
            usb_driver: None,
            chipset: None,
            usb_speed_mbps: None,
            usb_no_flush: None,
            usb_removable: None,
            usb_root: None,
            usb_passthrough_refused: None,
            usb_uas_ignored: None,
            usb_bridge_unknown: None,
            sata_status_hidden: None,
        },
        "realpath:/sys/block/sda",
    );
    d.link_current_gbps = k(6.0, "file:/sys/class/ata_link/link1/sata_spd");
    d.link_drive_max_gbps = k(6.0, "file:/sys/class/ata_device/dev1.0/id");
    d.link_port_max_gbps = k(6.0, "file:/sys/class/ata_link/link1/hw_sata_spd_limit");
    d.ncq_supported = k(true, "file:/sys/class/ata_device/dev1.0/id");
    d.ncq_drive_depth = k(32, "file:/sys/class/ata_device/dev1.0/id");
    d.write_cache_supported = k(true, smart);
    d.write_cache_enabled = k(true, "file:/sys/block/sda/queue/write_cache");
    d.trim_supported = k(true, smart);
    d.partition_table = k(
        PartitionTable {
            scheme: "gpt".into(),
            partitions: vec![
                Partition {
                    number: 1,
                    name: "sda1".into(),
                    start_sector: 2048,
                    size_sectors: 1_048_576,
                    sector_bytes: 512,
                    start_bytes: 1_048_576,
                    type_name: Some("EFI System".into()),
                    alignment_offset_bytes: Some(0),
                    children: vec![],
                    active: false,
                },
                Partition {
                    number: 2,
                    name: "sda2".into(),
                    start_sector: 1_050_624,
                    size_sectors: 975_720_448,
                    sector_bytes: 512,
                    start_bytes: 537_919_488,
                    type_name: Some("Linux filesystem".into()),
                    alignment_offset_bytes: Some(0),
                    children: vec![],
                    active: false,
                },
            ],
            notes: vec![],
        },
        "read:/dev/sda:0:17408",
    );
    d.layers = vec![Layer {
        kind: Some(LayerKind::Luks),
        name: "dm-0".into(),
        display_name: Some("/dev/mapper/cryptroot".into()),
        on: vec!["sda2".into()],
        cipher: Some("aes-xts-plain64".into()),
        key_bits: Some(512),
        crypto_impl: Some("aesni_intel".into()),
        level: None,
        sector_bytes: Some(4096),
        ashift: None,
        ashift_why: None,
        from: vec!["cmd:dmsetup table".into()],
    }];
    d.mounts = vec![Mount {
        source: "/dev/mapper/cryptroot".into(),
        mountpoint: "/".into(),
        fstype: "ext4".into(),
        options: "rw,relatime".into(),
        compression: None,
    }];
    d.smart = k(
        Smart {
            health_passed: Some(true),
            reallocated_sectors: Some(0),
            pending_sectors: Some(0),
            power_on_hours: Some(11_873),
            ..Default::default()
        },
        smart,
    );
    let mut sys = SystemFacts::empty(Platform::Linux);
    sys.os_name = k(
        "Debian GNU/Linux 12 (bookworm)".into(),
        "file:/etc/os-release",
    );
    sys.os_release = k("6.1.0-18-amd64".into(), "file:/proc/sys/kernel/osrelease");
    sys.hostname = k(
        "quartz.example.net".into(),
        "file:/proc/sys/kernel/hostname",
    );
    sys.cpu_model = k(
        "Intel(R) Core(TM) i5-8400 CPU @ 2.80GHz".into(),
        "file:/proc/cpuinfo",
    );
    sys.aes_ni = k(true, "file:/proc/cpuinfo");
    sys.aes_driver = k("aesni_intel".into(), "file:/proc/crypto");
    sys.ram_bytes = k(16 * (1 << 30), "file:/proc/meminfo");
    sys.is_root = k(true, "cmd:id -u");
    sys.disks = vec![d];
    let findings = vec![
        finding(
            "controller-mode",
            "sda",
            Verdict::Pass,
            Severity::Info,
            "AHCI, native mode",
            "",
        ),
        finding(
            "sata-link-speed",
            "sda",
            Verdict::Pass,
            Severity::Info,
            "SATA link at 6.0 Gb/s, the drive's maximum",
            "",
        ),
        finding(
            "write-cache",
            "sda",
            Verdict::Pass,
            Severity::Info,
            "Write cache on",
            "",
        ),
        finding(
            "ncq",
            "sda",
            Verdict::Pass,
            Severity::Info,
            "NCQ in use, depth 32",
            "",
        ),
        finding(
            "alignment",
            "sda",
            Verdict::Pass,
            Severity::Info,
            "All partitions start on 1 MiB boundaries",
            "",
        ),
        finding(
            "encryption-cost",
            "sda",
            Verdict::Pass,
            Severity::Info,
            "LUKS uses AES-NI (aesni_intel)",
            "",
        ),
    ];
    report(
        b,
        sys,
        findings,
        &[
            "diskdoc",
            "--device",
            "sda",
            "--report",
            "/home/alice/disk.txt",
        ],
    )
}

/// One disk with every problem diskdoc knows, plus an unknown and a non-applicable check.
fn every_finding() -> Report {
    let ident = "cmd:camcontrol identify ada0";
    let mut b = bundle(
        Platform::Freebsd,
        &[
            (
                ident,
                "pass0: <ST2000DM008-2FR102 0001> ACS-3 ATA SATA 3.x device\n\
                 pass0: 150.000MB/s transfers (SATA 1.x, UDMA5, PIO 8192bytes)\n\n\
                 protocol              ACS-3 ATA SATA 3.x\n\
                 device model          ST2000DM008-2FR102\n\
                 firmware revision     0001\n\
                 serial number         ZFL1ABCD\n\
                 WWN                   5000c500c0ffee12\n\
                 sector size           logical 512, physical 4096, offset 0\n\
                 write cache                    yes   no\n",
            ),
            ("sysctl:kern.hostname", "backup01.corp.example"),
            (
                "cmd:dmesg",
                "ada0: Serial Number ZFL1ABCD\n\
                 (ada0:ahcich0:0:0:0): READ_FPDMA_QUEUED. ACB: 60 00 00 00 00 40 00 00 00 00 00 00\n\
                 (ada0:ahcich0:0:0:0): CAM status: ATA Status Error\n\
                 (ada0:ahcich0:0:0:0): ATA status: 41 (DRDY ERR), error: 40 (UNC )\n",
            ),
            (
                "cmd:smartctl -a /dev/ada0",
                "Device Model:     ST2000DM008-2FR102\nSerial Number:    ZFL1ABCD\n\
                 LU WWN Device Id: 5 000c50 0c0ffee12\n\
                 197 Current_Pending_Sector  0x0012   100   100   000    Old_age   Always       -       24\n",
            ),
            (
                "cmd:geli list",
                "Geom name: ada0p3.eli\nCrypto: software\nEncryptionAlgorithm: AES-XTS\nKeyLength: 256\n",
            ),
            ("file:/home/bob/.diskdoc/notes.txt", "ran by bob\n"),
        ],
    );
    b.benchmarks = vec![
        bench(TestName::SeqRead, "ada0", "outer", 1 << 20, 1, 118.4, None),
        bench(TestName::SeqRead, "ada0", "middle", 1 << 20, 1, 117.9, None),
        bench(TestName::SeqRead, "ada0", "inner", 1 << 20, 1, 95.2, None),
        bench(
            TestName::RandRead,
            "ada0",
            "qd1",
            4096,
            1,
            0.46,
            Some([
                4_100_000,
                8_900_000,
                8_100_000,
                14_200_000,
                28_700_000,
                96_000_000,
                411_000_000,
            ]),
        ),
        bench(
            TestName::RandRead,
            "ada0",
            "qd32",
            4096,
            32,
            0.47,
            Some([
                4_300_000,
                273_000_000,
                251_000_000,
                390_000_000,
                640_000_000,
                1_010_000_000,
                1_400_000_000,
            ]),
        ),
        {
            let mut r = bench(
                TestName::SyncWrite,
                "ada0",
                "bs=4096",
                4096,
                1,
                0.06,
                Some([
                    9_000_000,
                    66_000_000,
                    61_000_000,
                    90_000_000,
                    130_000_000,
                    180_000_000,
                    220_000_000,
                ]),
            );
            r.target = "/home/bob/.diskdoc-scratch-4242".into();
            r.notes = vec!["scratch file /home/bob/.diskdoc-scratch-4242 removed".into()];
            r
        },
    ];
    let mut d = DiskFacts::new("ada0", "/dev/ada0");
    d.class = k(DeviceClass::Hdd, ident);
    d.model = k("ST2000DM008-2FR102".into(), ident);
    d.serial = k("ZFL1ABCD".into(), ident);
    d.firmware = k("0001".into(), ident);
    d.wwn = k("5000c500c0ffee12".into(), ident);
    d.size_bytes = k(2_000_398_934_016, "ioctl:/dev/ada0:DIOCGMEDIASIZE");
    d.logical_sector_bytes = k(512, ident);
    d.physical_sector_bytes = k(4096, ident);
    d.alignment_offset_bytes = k(0, ident);
    d.rotation_rpm = k(7200, ident);
    d.queue_depth = Fact::unknown("camcontrol tags ada0 failed: permission denied (run as root)");
    d.transport = k(Transport::Sata, ident);
    d.controller = k(
        Controller {
            mode: Some(ControllerMode::LegacyIde),
            driver: Some("atapci".into()),
            pci_class: Some(0x01018f),
            description: Some("Intel ICH7 UDMA100 controller".into()),
            address: Some("atapci0".into()),
            ..Default::default()
        },
        "sysctl:dev.atapci.0.%desc",
    );
    d.link_current_gbps = k(1.5, ident);
    d.link_drive_max_gbps = k(6.0, ident);
    d.link_port_max_gbps = k(3.0, "sysctl:dev.atapci.0.%desc");
    d.ncq_supported = k(true, ident);
    d.ncq_drive_depth = k(32, ident);
    d.ncq_active = k(false, ident);
    d.write_cache_supported = k(true, ident);
    d.write_cache_enabled = k(false, ident);
    d.partition_table = k(
        PartitionTable {
            scheme: "mbr".into(),
            partitions: vec![Partition {
                number: 1,
                name: "ada0s1".into(),
                start_sector: 63,
                size_sectors: 3_907_029_105,
                sector_bytes: 512,
                start_bytes: 32_256,
                type_name: Some("freebsd".into()),
                alignment_offset_bytes: None,
                children: vec![
                    Partition {
                        number: 1,
                        name: "ada0s1a".into(),
                        start_sector: 63,
                        size_sectors: 4_194_304,
                        sector_bytes: 512,
                        start_bytes: 32_256,
                        type_name: Some("freebsd-ufs".into()),
                        alignment_offset_bytes: None,
                        children: vec![],
                        active: false,
                    },
                    Partition {
                        number: 4,
                        name: "ada0s1d".into(),
                        start_sector: 4_194_367,
                        size_sectors: 3_902_834_801,
                        sector_bytes: 512,
                        start_bytes: 2_147_515_904,
                        type_name: Some("freebsd-ufs".into()),
                        alignment_offset_bytes: None,
                        children: vec![],
                        active: false,
                    },
                ],
                active: false,
            }],
            notes: vec!["MBR with BSD label; slice starts at the old CHS boundary".into()],
        },
        "cmd:gpart show ada0",
    );
    d.layers = vec![Layer {
        kind: Some(LayerKind::Geli),
        name: "ada0s1d.eli".into(),
        display_name: None,
        on: vec!["ada0s1d".into()],
        cipher: Some("AES-XTS".into()),
        key_bits: Some(256),
        crypto_impl: Some("software".into()),
        level: None,
        sector_bytes: Some(512),
        ashift: None,
        ashift_why: None,
        from: vec!["cmd:geli list".into()],
    }];
    d.mounts = vec![Mount {
        source: "/dev/ada0s1d.eli".into(),
        mountpoint: "/usr/home".into(),
        fstype: "ufs".into(),
        options: "rw".into(),
        compression: None,
    }];
    d.smart = k(
        Smart {
            health_passed: Some(true),
            pending_sectors: Some(24),
            reallocated_sectors: Some(0),
            udma_crc_errors: Some(1_093),
            failing_attributes: vec![],
            model_family: Some("Seagate BarraCuda 3.5 (SMR)".into()),
            ..Default::default()
        },
        "cmd:smartctl -a /dev/ada0",
    );
    d.kernel_events = vec![KernelEvent {
        kind: KernelEventKind::MediumError,
        line: "(ada0:ahcich0:0:0:0): ATA status: 41 (DRDY ERR), error: 40 (UNC )".into(),
        from: "cmd:dmesg".into(),
    }];
    let mut sys = SystemFacts::empty(Platform::Freebsd);
    sys.os_name = k("FreeBSD".into(), "sysctl:kern.ostype");
    sys.os_release = k("13.2-RELEASE-p4".into(), "sysctl:kern.osrelease");
    sys.hostname = k("backup01.corp.example".into(), "sysctl:kern.hostname");
    sys.cpu_model = k(
        "Intel(R) Pentium(R) D CPU 3.00GHz".into(),
        "sysctl:hw.model",
    );
    sys.aes_ni = k(false, "cmd:dmesg");
    sys.is_root = k(false, "cmd:id -u");
    sys.disks = vec![d];
    let fb = Platform::Freebsd;
    let findings = vec![
        finding(
            "write-cache-disabled",
            "ada0",
            Verdict::Problem,
            Severity::Warning,
            "Write cache is off",
            "Every write waits for the platter. dd measured 12.9 MB/s with the cache off against 75.8 MB/s with it on (seed thread 000).",
        )
        .evidence(ident, "write cache yes no")
        .fix(fix(fb, "Turn the write cache on at boot", &["echo 'hw.ata.wc=\"1\"' >> /boot/loader.conf", "shutdown -r now"], "Data in the cache is lost on power failure unless the file system flushes (UFS with soft updates journaling does)."))
        .confidence(Confidence::High)
        .impact(0.8),
        finding(
            "controller-legacy-ide",
            "ada0",
            Verdict::Problem,
            Severity::Critical,
            "SATA controller runs in legacy IDE mode",
            "atapci0 (Intel ICH7 UDMA100 controller) drives the disk through the IDE compatibility interface: no NCQ, no hot plug, and the link is limited.\n\nSwitch the BIOS setting \"SATA mode\" from IDE/Compatible to AHCI.",
        )
        .evidence("sysctl:dev.atapci.0.%desc", "Intel ICH7 UDMA100 controller")
        .evidence(ident, "150.000MB/s transfers (SATA 1.x, UDMA5, PIO 8192bytes)")
        .fix(fix(fb, "Set the controller to AHCI in the BIOS and load ahci(4)", &["echo 'ahci_load=\"YES\"' >> /boot/loader.conf", "reboot, enter the BIOS setup, set SATA mode = AHCI"], "Disks are renamed (ad4 -> ada0): check /etc/fstab uses labels or the new names first."))
        .confidence(Confidence::Medium)
        .impact(0.5),
        finding(
            "sata-link-downgraded",
            "ada0",
            Verdict::Problem,
            Severity::Critical,
            "SATA link at 1.5 Gb/s; drive supports 6.0 Gb/s",
            "Sequential reads stop at 118 MB/s, near the 150 MB/s ceiling of a 1.5 Gb/s link.",
        )
        .evidence(ident, "pass0: 150.000MB/s transfers (SATA 1.x, UDMA5, PIO 8192bytes)")
        .evidence("benchmark:seq-read", "118.4 MB/s outer")
        .fix(fix(fb, "Check the cable and the port, then the controller mode", &["camcontrol reset ada0"], "none"))
        .confidence(Confidence::High)
        .impact(0.6),
        finding("ncq-inactive", "ada0", Verdict::Problem, Severity::Warning, "NCQ supported by the drive but not used", "Random reads at qd32 are no faster than at qd1 (0.47 vs 0.46 MB/s).")
            .evidence(ident, "Native Command Queuing (NCQ) yes 32 tags")
            .confidence(Confidence::High),
        finding("partition-misaligned", "ada0", Verdict::Problem, Severity::Warning, "ada0s1 starts at sector 63 on a 4096-byte-sector disk", "Each 4 KiB write straddles two physical sectors: read-modify-write.")
            .evidence("cmd:gpart show ada0", "63  3907029105  ada0s1  freebsd  (1.8T)")
            .fix(fix(fb, "Recreate the partitions aligned to 1 MiB", &["gpart create -s gpt ada0", "gpart add -t freebsd-ufs -a 1m ada0"], "Destroys the data on the disk: back up first.")),
        finding("crypto-no-aesni", "ada0", Verdict::Problem, Severity::Notice, "GELI encrypts in software: CPU has no AES-NI", "The CPU does AES itself.")
            .evidence("cmd:geli list", "Crypto: software"),
        finding("smart-pending-sectors", "ada0", Verdict::Problem, Severity::Critical, "24 sectors pending reallocation", "The drive cannot read 24 sectors; reads there retry for seconds.")
            .evidence("cmd:smartctl -a /dev/ada0", "197 Current_Pending_Sector ... 24"),
        finding("smr-drive", "ada0", Verdict::Problem, Severity::Info, "Drive-managed SMR", "Sustained writes fall off a cliff once the CMR cache fills."),
        finding("queue-depth", "ada0", Verdict::Unknown, Severity::Info, "Queue depth unknown", "camcontrol tags ada0 failed: permission denied (run as root).")
            .fix(fix(fb, "Run diskdoc as root", &["sudo diskdoc"], "")),
        finding("nvme-pcie-link", "ada0", Verdict::NotApplicable, Severity::Info, "Not an NVMe drive", ""),
    ];
    report(b, sys, findings, &["diskdoc", "check", "--device", "ada0"])
}

/// Seed thread 000 (tests/fixtures/seeds/000_*): Roland's FreeBSD 8.1 desktop, ICH7 in
/// legacy IDE mode (atapci0), WDC WD5001ABYS on ad4, dd write test; `wc` is the write cache.
fn seed000_desktop(wc: bool) -> Report {
    let cap = format!(
        "Protocol              SATA revision 2.x\n\
         device model          WDC WD5001ABYS-01YNA0\n\
         serial number         WD-WCAS87154115\n\
         firmware revision     59.01D01\n\
         Feature                      Support  Enable    Value           Vendor\n\
         write cache                    yes      {}\n\
         Native Command Queuing (NCQ)   yes       -      31/0x1F\n",
        if wc { "yes" } else { "no" }
    );
    let key = "cmd:atacontrol cap ad4";
    let mut b = bundle(
        Platform::Freebsd,
        &[
            (key, cap.as_str()),
            ("sysctl:dev.atapci.0.%desc", "Intel ICH7 UDMA100 controller"),
            ("sysctl:kern.hostname", "desktop.rsmith.example"),
        ],
    );
    let mbps = if wc { 75.816229 } else { 12.918632 };
    let mut r = bench(
        TestName::SeqWrite,
        "ad4",
        "dd bs=10M",
        10 << 20,
        1,
        mbps,
        None,
    );
    r.target = "/tmp/foo".into();
    r.direct = false;
    b.benchmarks = vec![r];
    let mut d = DiskFacts::new("ad4", "/dev/ad4");
    d.class = k(DeviceClass::Hdd, key);
    d.model = k("WDC WD5001ABYS-01YNA0".into(), key);
    d.serial = k("WD-WCAS87154115".into(), key);
    d.firmware = k("59.01D01".into(), key);
    d.size_bytes = k(976_773_168 * 512, key);
    d.logical_sector_bytes = k(512, key);
    d.transport = k(Transport::Sata, key);
    d.controller = k(
        Controller {
            mode: Some(ControllerMode::LegacyIde),
            driver: Some("atapci".into()),
            description: Some("Intel ICH7 UDMA100 controller".into()),
            address: Some("atapci0".into()),
            ..Default::default()
        },
        "sysctl:dev.atapci.0.%desc",
    );
    d.link_current_gbps = Fact::unknown("atacontrol does not report the negotiated link speed");
    d.link_drive_max_gbps = k(3.0, key);
    d.ncq_supported = k(true, key);
    d.ncq_drive_depth = k(32, key);
    d.ncq_active = k(false, key);
    d.write_cache_supported = k(true, key);
    d.write_cache_enabled = k(wc, key);
    d.partition_table = Fact::unknown("gpart was not captured (pasted thread)");
    d.layers = vec![Layer {
        kind: Some(LayerKind::Geli),
        name: "ad4s1g.eli".into(),
        on: vec!["ad4s1g".into()],
        from: vec!["pasted:df".into()],
        ..Default::default()
    }];
    let mut sys = SystemFacts::empty(Platform::Freebsd);
    sys.os_name = k("FreeBSD".into(), "pasted:thread");
    sys.os_release = k("8.1-RELEASE amd64".into(), "pasted:thread");
    sys.hostname = k("desktop.rsmith.example".into(), "sysctl:kern.hostname");
    sys.cpu_model = k(
        "Intel(R) Core(TM)2 Quad CPU Q9300 @ 2.50GHz".into(),
        "pasted:thread",
    );
    sys.aes_ni = k(false, "pasted:thread");
    sys.disks = vec![d];
    let mut findings = vec![
        finding(
            "controller-legacy-ide",
            "ad4",
            Verdict::Problem,
            Severity::Critical,
            "SATA controller runs in legacy IDE mode",
            "atapci0: Intel ICH7 UDMA100 controller.",
        )
        .evidence("sysctl:dev.atapci.0.%desc", "Intel ICH7 UDMA100 controller"),
    ];
    if !wc {
        findings.push(
            finding(
                "write-cache-disabled",
                "ad4",
                Verdict::Problem,
                Severity::Warning,
                "Write cache is off",
                "hw.ata.wc=\"0\" in /boot/loader.conf turned it off.",
            )
            .evidence(key, "write cache yes no"),
        );
    }
    report(b, sys, findings, &["diskdoc", "check"])
}

/// Seed thread 003: FreeBSD 9.1, TOSHIBA DT01ACA300 on an LSI SAS2008 (mps0) as da0,
/// 600 MB/s link, command queueing on, 4096-byte stripesize; raw dd writes at 183-186 MB/s.
fn seed003() -> Report {
    let dmesg = "da0 at mps0 bus 0 scbus0 target 4 lun 0\n\
                 da0: <ATA TOSHIBA DT01ACA3 ABB0> Fixed Direct Access SCSI-6 device\n\
                 da0: Serial Number Z2F0RX7AS\n\
                 da0: 600.000MB/s transfers\n\
                 da0: Command Queueing enabled\n\
                 da0: 2861588MB (5860533168 512 byte sectors: 255H 63S/T 364801C)\n";
    let dd = "root@heckler:/home/dan # dd if=/dev/zero of=/dev/da0 bs=32k count=300000\n\
              9830400000 bytes transferred in 53.709288 secs (183029796 bytes/sec)\n";
    let mut b = bundle(
        Platform::Freebsd,
        &[
            ("cmd:dmesg", dmesg),
            ("pasted:dd", dd),
            (
                "cmd:diskinfo -v da0",
                "da0\n\t512\t# sectorsize\n\t3000592982016\t# mediasize in bytes (2.7T)\n\t4096\t# stripesize\n\tZ2F0RX7AS\t# Disk ident.\n",
            ),
        ],
    );
    b.benchmarks = [
        ("bs=32768", 32768u64, 183.029796),
        ("bs=65536", 65536, 185.072887),
        ("bs=131072", 131072, 185.273912),
        ("bs=262144", 262144, 185.694637),
        ("bs=1048576", 1 << 20, 185.499765),
    ]
    .iter()
    .map(|(l, bs, m)| bench(TestName::BsSweep, "da0", l, *bs, 1, *m, None))
    .collect();
    let mut d = DiskFacts::new("da0", "/dev/da0");
    d.class = k(DeviceClass::Hdd, "cmd:dmesg");
    d.model = k("TOSHIBA DT01ACA3".into(), "cmd:dmesg");
    d.vendor = k("ATA".into(), "cmd:dmesg");
    d.serial = k("Z2F0RX7AS".into(), "cmd:diskinfo -v da0");
    d.firmware = k("ABB0".into(), "cmd:dmesg");
    d.size_bytes = k(3_000_592_982_016, "cmd:diskinfo -v da0");
    d.logical_sector_bytes = k(512, "cmd:diskinfo -v da0");
    d.physical_sector_bytes = k(4096, "cmd:diskinfo -v da0");
    d.transport = k(Transport::Sas, "cmd:dmesg");
    d.controller = k(
        Controller {
            mode: Some(ControllerMode::SasHba),
            driver: Some("mps".into()),
            description: Some("LSI SAS2008".into()),
            address: Some("mps0".into()),
            ..Default::default()
        },
        "cmd:dmesg",
    );
    d.link_current_gbps = k(6.0, "cmd:dmesg");
    d.ncq_active = k(true, "cmd:dmesg");
    d.write_cache_enabled = Fact::unknown("camcontrol modepage da0 -m 8 was not captured");
    d.partition_table = k(
        PartitionTable {
            scheme: "none".into(),
            partitions: vec![],
            notes: vec![],
        },
        "cmd:gpart show da0",
    );
    let mut sys = SystemFacts::empty(Platform::Freebsd);
    sys.os_name = k("FreeBSD".into(), "pasted:thread");
    sys.os_release = k("9.1-RELEASE".into(), "pasted:thread");
    sys.cpu_model = k("AMD Opteron(tm) Processor 6128".into(), "pasted:thread");
    sys.aes_ni = k(true, "pasted:thread");
    sys.hostname = Fact::unknown("not in the pasted text");
    sys.disks = vec![d];
    sys.user_benchmarks = vec![UserBenchmark {
        tool: "dd".into(),
        command: Some("dd if=/dev/zero of=/dev/da0 bs=32k count=300000".into()),
        input: Some("/dev/zero".into()),
        output: Some("/dev/da0".into()),
        block_size_bytes: Some(32768),
        bytes: Some(9_830_400_000),
        seconds: Some(53.709288),
        bytes_per_sec: Some(183_029_796.0),
        from: "pasted:dd".into(),
        ..Default::default()
    }];
    let findings = vec![
        finding(
            "sata-link-speed",
            "da0",
            Verdict::Pass,
            Severity::Info,
            "Link at 600 MB/s (SATA 3.x) through the HBA",
            "",
        ),
        finding(
            "write-cache",
            "da0",
            Verdict::Unknown,
            Severity::Info,
            "Write cache state unknown",
            "camcontrol modepage da0 -m 8 was not captured; run `diskdoc` on the machine.",
        ),
    ];
    report(b, sys, findings, &["diskdoc", "explain", "thread.txt"])
}

/// Two disks on one machine, to see that tokens keep them apart.
fn two_disks() -> Report {
    let mut r = healthy();
    let mut d2 = r.facts.disks[0].clone();
    d2.name = "sdb".into();
    d2.dev_path = "/dev/sdb".into();
    d2.serial = k(
        "S3Z9NB0K654321B".into(),
        "file:/sys/block/sdb/device/serial",
    );
    d2.wwn = k(
        "naa.5002538e40ab9999".into(),
        "file:/sys/block/sdb/device/wwid",
    );
    d2.layers.clear();
    d2.mounts.clear();
    r.facts.disks.push(d2);
    r.bundle.captures.insert(
        "file:/sys/block/sdb/device/serial".into(),
        Capture::ok("S3Z9NB0K654321B\n"),
    );
    r
}

fn cases() -> Vec<(&'static str, Report)> {
    vec![
        ("healthy", healthy()),
        ("every_finding", every_finding()),
        ("seed000_desktop", seed000_desktop(true)),
        ("seed000_desktop_wc_off", seed000_desktop(false)),
        ("seed003_toshiba_mps", seed003()),
        ("two_disks", two_disks()),
    ]
}

// ---------------------------------------------------------------- snapshots

#[test]
fn snapshots_of_every_format() {
    for (name, r) in cases() {
        let shared = r.shareable(true);
        insta::assert_snapshot!(format!("{name}.txt"), text::render(&shared));
        insta::assert_snapshot!(format!("{name}.md"), markdown::render(&shared));
        if matches!(name, "healthy" | "every_finding") {
            insta::assert_snapshot!(format!("{name}.json"), json::render(&shared));
        }
    }
}

// ---------------------------------------------------------------- text rules

fn check_text_rules(name: &str, s: &str) {
    for (i, l) in s.lines().enumerate() {
        assert!(
            l.len() <= 72,
            "{name}:{}: {} columns: {l:?}",
            i + 1,
            l.len()
        );
        assert!(
            l.chars().all(|c| c.is_ascii() && !c.is_ascii_control()),
            "{name}:{}: non-ASCII or control: {l:?}",
            i + 1
        );
        assert!(
            !l.starts_with('>') && !l.starts_with("From "),
            "{name}:{}: would read as a quote or an mbox From line: {l:?}",
            i + 1
        );
        // Quoted once more it still fits a 78-column mail line.
        assert!(format!("> {l}").len() <= 78);
    }
}

#[test]
fn text_reports_are_ascii_and_72_columns() {
    for (name, r) in cases() {
        for redact in [true, false] {
            check_text_rules(name, &text::render(&r.shareable(redact)));
        }
    }
    // Hostile firmware strings: escapes, non-ASCII, a very long unbroken model.
    let mut r = healthy();
    r.facts.disks[0].model = Fact::known(
        "\u{1b}[2J\u{1b}[31mEVIL\u{7}  D\u{e9}j\u{e0}\r\nFrom me > you ".to_string()
            + &"X".repeat(150),
        "x",
    );
    r.findings[0].title = "> quoted\nFrom the start".into();
    let s = text::render(&r.shareable(true));
    check_text_rules("hostile", &s);
    assert!(!s.contains('\u{1b}'));
    assert!(
        s.contains("Model     [2J[31mEVIL D?j? From me > you"),
        "{s}"
    );
}

#[test]
fn text_snapshot_files_obey_the_rules() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/snapshots");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).expect("tests/it/snapshots exists") {
        let p = e.expect("dir entry").path();
        let name = p
            .file_name()
            .and_then(|x| x.to_str())
            .unwrap_or("")
            .to_string();
        if !name.ends_with(".txt.snap") {
            continue;
        }
        let s = std::fs::read_to_string(&p).expect("read snapshot");
        // Strip insta's front matter: "---\n...\n---\n".
        let body = s.splitn(3, "---\n").nth(2).unwrap_or("");
        check_text_rules(&name, body);
        n += 1;
    }
    assert!(n >= 6, "expected a text snapshot per case, found {n}");
}

#[test]
fn text_has_every_section_and_ranks_problems_first() {
    let s = text::render(&every_finding().shareable(true));
    let pos = |needle: &str| {
        s.find(needle)
            .unwrap_or_else(|| panic!("missing {needle:?}:\n{s}"))
    };
    let order = [
        "\nSystem\n",
        "AES-NI",
        "\nDisk ada0 (/dev/ada0)\n",
        "\nController and link\n",
        "\nCache / NCQ\n",
        "\nPartitions and alignment\n",
        "\nLayers\n",
        "\nTest results\n",
        "Zone curve",
        "Latency percentiles, rand-read qd32",
        "\nFindings (problems first)\n",
    ];
    let mut last = 0;
    for o in order {
        let p = pos(o);
        assert!(p >= last, "{o:?} out of order");
        last = p;
    }
    // Critical first, then warnings, then notice/info; unknowns after the problems.
    let crit = pos("1. [critical]");
    let warn = pos("[warning] ada0: Write cache is off");
    let unknown = pos("[unknown] ada0: Queue depth unknown");
    assert!(crit < warn && warn < unknown);
    assert!(
        !s.contains("Not an NVMe drive"),
        "n/a findings are only counted"
    );
    assert_eq!(
        text::summary(&every_finding().findings),
        "8 problems (3 critical, 3 warning, 1 notice, 1 info), 0 passed, 1 unknown, \
         1 not applicable"
    );
    assert!(
        s.contains("  ada0s1     63         31.5 KiB  2 TB    NO (+3584 B)"),
        "{s}"
    );
    assert!(s.contains("NO (+3584 B)"), "{s}");
}

// ---------------------------------------------------------------- JSON schema

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct MEnvelope {
    schema_version: u32,
    /// Schema 2: which command wrote it.
    kind: MKind,
    #[serde(default)]
    derived_as: Option<MKind>,
    scope: Vec<String>,
    #[serde(default)]
    symptom: Option<String>,
    #[serde(default)]
    pasted: Vec<MPasted>,
    diskdoc_version: String,
    argv: Vec<String>,
    platform: String,
    messages: Vec<MMessage>,
    exit_status: i32,
    redacted: bool,
    system: MSystem,
    findings: Vec<MFinding>,
    benchmarks: Vec<MBench>,
    evidence: MEvidence,
    #[serde(default)]
    explanation: Option<V>,
    #[serde(default)]
    comparison: Option<V>,
    #[serde(default)]
    before: Option<Box<MEnvelope>>,
}

#[derive(Debug, Deserialize, PartialEq, Eq, Clone, Copy)]
#[serde(rename_all = "snake_case")]
#[allow(dead_code)]
enum MKind {
    Scan,
    Check,
    Bench,
    Wizard,
    Explain,
    Compare,
    Replay,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct MPasted {
    label: String,
    text: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct MMessage {
    severity: String,
    text: String,
}

#[derive(Debug, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case", deny_unknown_fields)]
#[allow(dead_code)]
enum MFact<T> {
    Known { value: T, from: Vec<String> },
    Unknown { why: String },
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct MSystem {
    platform: String,
    os_name: MFact<String>,
    os_release: MFact<String>,
    hostname: MFact<String>,
    cpu_model: MFact<String>,
    aes_ni: MFact<bool>,
    aes_driver: MFact<String>,
    ram_bytes: MFact<u64>,
    is_root: MFact<bool>,
    disks: Vec<MDisk>,
    benchmarks: Vec<serde_json::Value>,
    user_benchmarks: Vec<serde_json::Value>,
    arrays: MFact<Vec<V>>,
}

type V = serde_json::Value;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct MDisk {
    name: String,
    dev_path: String,
    class: MFact<String>,
    model: MFact<String>,
    vendor: MFact<String>,
    serial: MFact<String>,
    firmware: MFact<String>,
    wwn: MFact<String>,
    size_bytes: MFact<u64>,
    logical_sector_bytes: MFact<u32>,
    physical_sector_bytes: MFact<u32>,
    alignment_offset_bytes: MFact<u64>,
    rotational: MFact<bool>,
    rotation_rpm: MFact<u32>,
    scheduler: MFact<String>,
    nr_requests: MFact<u32>,
    queue_depth: MFact<u32>,
    transport: MFact<String>,
    controller: MFact<V>,
    link_current_gbps: MFact<f64>,
    link_drive_max_gbps: MFact<f64>,
    link_port_max_gbps: MFact<f64>,
    link_limit_gbps: MFact<f64>,
    ncq_supported: MFact<bool>,
    ncq_drive_depth: MFact<u32>,
    ncq_active: MFact<bool>,
    write_cache_supported: MFact<bool>,
    write_cache_enabled: MFact<bool>,
    trim_supported: MFact<bool>,
    partition_table: MFact<V>,
    layers: Vec<V>,
    mounts: Vec<V>,
    smart: MFact<V>,
    kernel_events: Vec<V>,
    ata_identify: Option<V>,
    #[serde(default)]
    notes: Vec<String>,
    pcie: MFact<Vec<V>>,
    nvme_health: MFact<V>,
    zoned: MFact<String>,
    trim: MTrim,
    power: MPower,
    busy: MFact<V>,
    temp_samples_c: Vec<i64>,
    #[serde(default)]
    vdev_errors: Vec<V>,
    #[serde(default)]
    controller_drive: Option<V>,
    #[serde(default)]
    surface_scans: Vec<V>,
    #[serde(default)]
    tool_messages: Vec<V>,
}

/// The trim topic of a disk (docs/report-format.md, `trim`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct MTrim {
    discard_max_bytes: MFact<u64>,
    delete_method: MFact<String>,
    fs_trim: MFact<MFsTrim>,
    zfs_autotrim: MFact<Vec<MPoolAutotrim>>,
    discard_refused: MFact<String>,
    layer_blocks_discard: MFact<String>,
}

/// The power topic of a disk (docs/report-format.md, `power`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct MPower {
    lpm_policy: MFact<String>,
    apm_level: MFact<u32>,
    load_cycles: MFact<u64>,
    power_log: MFact<Vec<String>>,
    drive_timers: MFact<Vec<MDriveTimer>>,
}

/// One power-condition timer (docs/report-format.md, `drive_timers`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct MDriveTimer {
    condition: String,
    enabled: bool,
    timer_ms: u64,
    spins_down: bool,
    line: String,
}

/// A ZFS pool's autotrim (docs/report-format.md, `trim.zfs_autotrim`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct MPoolAutotrim {
    pool: String,
    value: String,
    #[serde(default)]
    periodic: Option<String>,
}

/// How a disk's filesystems get trimmed (docs/report-format.md, `trim.fs_trim`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct MFsTrim {
    online: Vec<String>,
    without_discard: Vec<String>,
    periodic: Vec<MTrimJob>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct MTrimJob {
    what: String,
    from: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct MFinding {
    check: String,
    device: String,
    verdict: String,
    severity: String,
    confidence: String,
    title: String,
    explanation: String,
    evidence: Vec<MEvidenceRef>,
    fixes: Vec<MFix>,
    #[serde(default)]
    impact: Option<f64>,
    #[serde(default)]
    expected_effect: Option<MEffect>,
    #[serde(default)]
    expected_effect_unknown: Option<String>,
}

/// What a fix should bring (docs/report-format.md, `expected_effect`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct MEffect {
    metric: String,
    unit: String,
    #[serde(default)]
    from: Option<f64>,
    #[serde(default)]
    low: Option<f64>,
    high: f64,
    basis: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct MEvidenceRef {
    source: String,
    value: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct MFix {
    platform: String,
    summary: String,
    steps: Vec<String>,
    risk: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct MBench {
    test: String,
    label: String,
    target: String,
    disk: String,
    block_size_bytes: u64,
    block_size_string: String,
    queue_depth: u32,
    threads: u32,
    direct: bool,
    #[serde(default)]
    answered_by: Option<String>,
    offset_bytes: u64,
    bytes: u64,
    ios: u64,
    elapsed_ns: u64,
    elapsed_string: String,
    bytes_per_sec: Option<f64>,
    bytes_per_sec_string: String,
    iops: Option<f64>,
    latency: Option<MLatency>,
    spread_pct: Option<f64>,
    stop_reason: String,
    error: Option<MBenchError>,
    notes: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct MLatency {
    min_ns: u64,
    mean_ns: u64,
    p50_ns: u64,
    p90_ns: u64,
    p99_ns: u64,
    p999_ns: u64,
    max_ns: u64,
    min_string: String,
    mean_string: String,
    p50_string: String,
    p90_string: String,
    p99_string: String,
    p999_string: String,
    max_string: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct MBenchError {
    kind: String,
    offset_bytes: u64,
    message: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct MEvidence {
    schema_version: u32,
    diskdoc_version: String,
    platform: String,
    origin: String,
    captured_at_unix: u64,
    captures: BTreeMap<String, MCapture>,
    #[serde(default)]
    benchmarks: Vec<V>,
    #[serde(default)]
    notes: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case", deny_unknown_fields)]
#[allow(dead_code)]
enum MCapture {
    Ok {
        data: String,
        #[serde(default)]
        stderr: String,
        #[serde(default)]
        exit_code: Option<i32>,
        elapsed_ms: u64,
    },
    Unavailable {
        reason: String,
        detail: String,
    },
}

#[test]
fn json_schema_is_pinned() {
    for (name, r) in cases() {
        for redact in [true, false] {
            let s = json::render(&r.shareable(redact));
            let m: MEnvelope = serde_json::from_str(&s)
                .unwrap_or_else(|e| panic!("{name}: report does not match the pinned schema: {e}"));
            assert_eq!(m.schema_version, report::REPORT_SCHEMA_VERSION);
            assert_eq!(m.diskdoc_version, env!("CARGO_PKG_VERSION"));
            assert_eq!(m.redacted, redact);
            assert_eq!(m.benchmarks.len(), r.bundle.benchmarks.len(), "{name}");
            assert!(m.system.benchmarks.is_empty(), "kept once, in benchmarks");
        }
    }
    let s = json::render(&healthy().shareable(true));
    let m: MEnvelope = serde_json::from_str(&s).expect("pinned");
    assert_eq!(m.platform, "linux");
    assert_eq!(m.exit_status, 0);
    assert_eq!(
        m.argv,
        [
            "diskdoc",
            "--device",
            "sda",
            "--report",
            "/home/USER-1/disk.txt"
        ]
    );
    let b = &m.benchmarks[0];
    assert_eq!((b.test.as_str(), b.label.as_str()), ("seq-read", "outer"));
    assert_eq!(b.bytes_per_sec_string, "545.2 MB/s");
    assert_eq!(b.block_size_string, "1 MiB");
    assert_eq!(b.elapsed_string, "5.00 s");
    let l = m.benchmarks[7].latency.as_ref().expect("qd32 latency");
    assert_eq!((l.p99_ns, l.p99_string.as_str()), (620_000, "620 us"));
    // Unit-suffixed keys: every number in a benchmark entry says its unit.
    let v: V = serde_json::from_str(&s).expect("json");
    for b in v["benchmarks"].as_array().expect("array") {
        for (key, val) in b.as_object().expect("object") {
            if val.is_number() {
                assert!(
                    ["_bytes", "_ns", "_per_sec", "_pct"]
                        .iter()
                        .any(|u| key.ends_with(u))
                        || ["queue_depth", "threads", "ios", "iops", "bytes"]
                            .contains(&key.as_str()),
                    "benchmark key {key} has no unit suffix"
                );
            }
        }
    }
}

#[test]
fn report_format_doc_names_every_field() {
    let doc = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/report-format.md"),
    )
    .expect("docs/report-format.md");
    let v: V = serde_json::from_str(&json::render(&every_finding().shareable(true))).expect("json");
    let mut keys: Vec<String> = Vec::new();
    let obj_keys = |x: &V| {
        x.as_object()
            .map(|o| o.keys().cloned().collect::<Vec<_>>())
            .unwrap_or_default()
    };
    keys.extend(obj_keys(&v));
    keys.extend(obj_keys(&v["messages"][0]));
    keys.extend(obj_keys(&v["system"]));
    keys.extend(obj_keys(&v["system"]["disks"][0]));
    keys.extend(obj_keys(&v["system"]["disks"][0]["trim"]));
    keys.extend(obj_keys(&v["system"]["disks"][0]["power"]));
    keys.extend(obj_keys(&v["findings"][0]));
    keys.extend(obj_keys(&v["findings"][0]["fixes"][0]));
    keys.extend(obj_keys(&v["benchmarks"][3]));
    keys.extend(obj_keys(&v["benchmarks"][3]["latency"]));
    keys.extend(obj_keys(&v["evidence"]));
    for key in keys {
        assert!(
            doc.contains(&format!("`{key}`")),
            "docs/report-format.md does not document `{key}`"
        );
    }
}

#[test]
fn json_report_replays_to_the_same_bundle() {
    for (name, r) in cases() {
        let shared = r.shareable(false);
        let s = json::render(&shared);
        let loaded = report::load::parse(name, &s).expect("own output loads");
        assert_eq!(loaded.bundle, r.bundle, "{name}");
        let env = loaded.envelope.expect("a report");
        assert_eq!(env.findings, r.findings, "{name}");
    }
}

// ---------------------------------------------------------------- redaction

/// Secrets planted in the hand-built cases (facts and raw outputs).
const PLANTED: &[&str] = &[
    "S3Z9NB0K123456A",
    "S3Z9NB0K654321B",
    "5002538e40ab1234",
    "5002538e40ab9999",
    "quartz.example.net",
    "quartz",
    "3c:7c:3f:1e:22:9a",
    "alice",
    "ZFL1ABCD",
    "5000c500c0ffee12",
    "5 000c50 0c0ffee12",
    "backup01",
    "/home/bob",
    "WD-WCAS87154115",
    "desktop.rsmith.example",
    "Z2F0RX7AS",
    "heckler",
    "/home/dan",
];

fn outputs(r: &Report) -> Vec<(String, String)> {
    vec![
        ("text".into(), text::render(r)),
        ("markdown".into(), markdown::render(r)),
        ("json".into(), json::render(r)),
    ]
}

fn assert_absent(outs: &[(String, String)], secrets: &[String]) {
    for (fmt, out) in outs {
        let lower = out.to_ascii_lowercase();
        for s in secrets {
            assert!(
                !lower.contains(&s.to_ascii_lowercase()),
                "{fmt} output still contains {s:?}"
            );
        }
    }
}

#[test]
fn redaction_removes_every_planted_secret() {
    let planted: Vec<String> = PLANTED.iter().map(|s| s.to_string()).collect();
    for (name, r) in cases() {
        let shared = r.shareable(true);
        assert!(shared.redacted, "{name}");
        assert_absent(&outputs(&shared), &planted);
    }
    // The smartctl -j WWN is numeric: {"naa": 5, "oui": 9528, "id": 61924557402}.
    let j = json::render(&healthy().shareable(true));
    assert!(!j.contains("61924557402"), "numeric WWN id survived");
}

#[test]
fn tokens_are_consistent_and_keep_disks_apart() {
    let r = two_disks().shareable(true);
    let sda = &r.facts.disks[0];
    let sdb = &r.facts.disks[1];
    assert_eq!(sda.serial.value().map(String::as_str), Some("SERIAL-1"));
    assert_eq!(sdb.serial.value().map(String::as_str), Some("SERIAL-2"));
    assert_eq!(sda.wwn.value().map(String::as_str), Some("0xWWN-1"));
    assert_eq!(sdb.wwn.value().map(String::as_str), Some("naa.WWN-2"));
    assert_eq!(r.facts.hostname.value().map(String::as_str), Some("HOST-1"));
    // The same serial has the same token in the raw outputs, and in capture keys.
    let cap = |k: &str| {
        r.bundle
            .captures
            .get(k)
            .and_then(Capture::data)
            .unwrap_or("")
            .to_string()
    };
    assert_eq!(cap("file:/sys/block/sda/device/serial").trim(), "SERIAL-1");
    assert_eq!(cap("file:/sys/block/sdb/device/serial").trim(), "SERIAL-2");
    assert!(cap("dir:/dev/disk/by-id").contains("ata-Samsung_SSD_860_EVO_500GB_SERIAL-1-part1"));
    assert!(cap("dir:/dev/disk/by-id").contains("wwn-0xWWN-1"));
    assert!(cap("cmd:ip -o link").contains("link/ether MAC-1 brd ff:ff:ff:ff:ff:ff"));
    let t = text::render(&r);
    assert!(
        t.contains("Serial    SERIAL-1") && t.contains("Serial    SERIAL-2"),
        "{t}"
    );
    assert!(t.contains("Host      HOST-1"), "{t}");
    // Redaction keeps what diagnoses need.
    assert!(t.contains("Samsung SSD 860 EVO 500GB"));
}

#[test]
fn no_redact_keeps_secrets() {
    let r = healthy().shareable(false);
    let t = text::render(&r);
    assert!(!r.redacted);
    assert!(
        t.contains("S3Z9NB0K123456A") && t.contains("quartz.example.net"),
        "{t}"
    );
    assert!(t.contains("Not redacted"));
}

fn fixture(rel: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(rel);
    String::from_utf8_lossy(&std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display())))
        .into_owned()
}

fn fixture_files(dirs: &[&str]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for d in dirs {
        let p = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(d);
        let mut names: Vec<PathBuf> = std::fs::read_dir(&p)
            .unwrap_or_else(|e| panic!("{}: {e}", p.display()))
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        names.sort();
        for n in names {
            let rel = format!(
                "{d}/{}",
                n.file_name().and_then(|x| x.to_str()).unwrap_or("")
            );
            out.push((rel.clone(), fixture(&rel)));
        }
    }
    out
}

/// Serials and WWNs present in the real fixtures (read off the files; see INDEX.md).
const FIXTURE_SECRETS: &[&str] = &[
    "BTTV449503TE800JGN",   // freebsd/dmesg, camcontrol-identify (Intel DC S3700)
    "1631801900010416034F", // camcontrol-identify corsair
    "55cd2e404b738727",     // camcontrol-identify WWN
    "Z4D0R2S50000W5186Q26", // freebsd dmesg, da34
    "E0D55EA5359C1750989B07F6",
    "S5DDNE0R801692", // smartctl NVMe "Serial number:"
    "8DG3J2ZD",
    "WS10SM2A",
    "BTTV441500T2200GGN",
    "S7MNNS0Y828393V",
    "5 000c50 0a4847915", // LU WWN Device Id
    "5 5cd2e4 04b6f58ce",
    "5cd2e4 f160260100", // NVMe IEEE EUI-64
    "001b44 8b45ea9cce",
    "2433274A1T13", // smartctl -j serial_number
    "Z4028VRY0000C810BZXB",
    "50026B728203601D",   // lsblk -J "serial"
    "S41PNB0K303632D",    // geom disk list ident:
    "50014ee05688b311",   // geom disk list lunid:
    "CVDA615500SP2403GN", // diskinfo -v "# Disk ident."
    "WD-WCC7K4KPPRL7",
    "42:01:0a:80:00:02", // linux dmesg MAC
    "<debian>",          // systemd "Set hostname to <debian>."
    "WD-WCAS87154115",   // seeds/000: atacontrol cap ad4
    "5VH0322Y",          // seeds/000: camcontrol identify ada0
    "5000c50017f4f8d9",  // seeds/000: WWN
    "5NF25DTG",          // seeds/001: quoted "> serial number 5NF25DTG"
    "root@heckler",      // seeds/003: shell prompt
    "/home/dan",
    "/home/rsmith", // seeds/002
];

#[test]
fn redaction_over_real_fixtures() {
    let files = fixture_files(&[
        "linux/smartctl",
        "linux/smartctl-json",
        "other/smartctl-json",
        "linux/hdparm-I",
        "linux/lsblk-J",
        "linux/dmesg",
        "freebsd/smartctl",
        "freebsd/camcontrol-identify",
        "freebsd/geom-disk-list",
        "freebsd/diskinfo",
        "freebsd/dmesg",
        "seeds",
    ]);
    let all: String = files
        .iter()
        .map(|(_, t)| t.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    for s in FIXTURE_SECRETS {
        assert!(
            all.contains(s),
            "ground truth {s:?} is not in the fixtures any more"
        );
    }
    let mut b = bundle(Platform::Linux, &[]);
    for (rel, t) in &files {
        let tool = rel.split('/').nth(1).unwrap_or(rel);
        let key = if rel.starts_with("seeds") {
            format!("pasted:{rel}")
        } else {
            format!("cmd:{tool} {}", rel.rsplit('/').next().unwrap_or(""))
        };
        b.captures.insert(key, Capture::ok(t.clone()));
    }
    let r = report(b, SystemFacts::empty(Platform::Linux), vec![], &["diskdoc"]);
    let shared = r.shareable(true);
    let mut secrets: Vec<String> = FIXTURE_SECRETS.iter().map(|s| s.to_string()).collect();
    // Independently of the redactor: every "Serial Number"-style value with a digit.
    for l in all.lines() {
        let lower = l.to_ascii_lowercase();
        if let Some(i) = lower.find("serial number") {
            let v = l[i + 13..]
                .trim_start_matches([':', ' ', '\t'])
                .split_whitespace()
                .next()
                .unwrap_or("");
            if v.len() >= 6 && v.chars().any(|c| c.is_ascii_digit()) && !v.contains("...") {
                secrets.push(v.to_string());
            }
        }
    }
    secrets.sort();
    secrets.dedup();
    assert!(secrets.len() >= 40, "found only {} secrets", secrets.len());
    assert_absent(&outputs(&shared), &secrets);
    // Tokens stayed consistent: the DC S3700 serial is in dmesg and camcontrol output.
    let j = json::render(&shared);
    assert!(j.contains("SERIAL-"), "no tokens at all?");
    // The redacted bundle is still a valid bundle.
    report::load::parse("r.json", &j).expect("redacted report loads");
}

#[test]
fn ata_identify_words_lose_the_serial() {
    let key = "file:/sys/class/ata_device/dev1.0/id";
    let mut words = [0u16; 256];
    words[10..20].copy_from_slice(&encode_string(&format!("{:>20}", "WD-WCAS87154115"), 10));
    words[255] = 0x00a5;
    let text = format_sysfs_id(&words);
    let mut r = seed000_desktop(true);
    r.bundle
        .captures
        .insert(key.into(), Capture::ok(text.clone()));
    let shared = r.shareable(true);
    let data = shared
        .bundle
        .captures
        .get(key)
        .and_then(Capture::data)
        .unwrap_or("");
    // "     WD-WCAS87154115" two characters per word: " W" "D-" "WC" "AS" = 2057 442d 5743 4153.
    assert!(
        text.contains("2057 442d 5743 4153") && !data.contains("2057 442d"),
        "{data}"
    );
    // The same token as in the facts: SERIAL-1 right-aligned, "SE" = 5345.
    assert!(data.contains("5345 5249 414c 2d31"), "{data}");
}

// ---------------------------------------------------------------- compare

#[test]
fn compare_seed000_write_cache_off() {
    let c = compare::compare(
        &seed000_desktop(true).shareable(true),
        &seed000_desktop(false).shareable(true),
        "before.json",
        "after.json",
    );
    assert_eq!(c.changes.len(), 1, "{:?}", c.changes);
    let ch = &c.changes[0];
    assert_eq!(
        (
            ch.disk.as_str(),
            ch.what.as_str(),
            ch.before.as_str(),
            ch.after.as_str()
        ),
        ("ad4", "write cache", "on", "off")
    );
    assert_eq!(c.appeared.len(), 1);
    assert_eq!(c.appeared[0].check, "write-cache-disabled");
    assert!(c.resolved.is_empty());
    assert_eq!(c.measured.len(), 1);
    let d = c.measured[0].delta_pct.expect("delta");
    assert!((d - -82.96).abs() < 0.01, "{d}");
    let t = compare::render_text(&c);
    check_text_rules("compare", &t);
    insta::assert_snapshot!("compare_seed000_wc_off.txt", t);
}

#[test]
fn compare_bios_switch_to_ahci_pairs_renamed_disk() {
    // Before: every_finding (legacy IDE, 1.5 Gb/s); after: the same disk as ada1 on AHCI at
    // 6 Gb/s with the cache on and faster reads.
    let before = every_finding();
    let mut after = every_finding();
    let d = &mut after.facts.disks[0];
    d.name = "ada1".into();
    d.controller = Fact::known(
        Controller {
            mode: Some(ControllerMode::Ahci),
            driver: Some("ahci".into()),
            ..Default::default()
        },
        "sysctl:dev.ahci.0.%desc",
    );
    d.link_current_gbps = Fact::known(6.0, "x");
    d.write_cache_enabled = Fact::known(true, "x");
    d.ncq_active = Fact::known(true, "x");
    after.findings.retain(|f| {
        ![
            "controller-legacy-ide",
            "sata-link-downgraded",
            "write-cache-disabled",
            "ncq-inactive",
        ]
        .contains(&f.check.as_str())
    });
    for f in &mut after.findings {
        f.device = "ada1".into();
    }
    for b in after.facts.benchmarks.iter_mut() {
        b.disk = "ada1".into();
        if b.test == TestName::SeqRead {
            b.bytes_per_sec *= 1.6;
        }
    }
    let c = compare::compare(&before, &after, "before.json", "after.json");
    assert_eq!(c.renamed, vec![("ada0".to_string(), "ada1".to_string())]);
    let what: Vec<&str> = c.changes.iter().map(|x| x.what.as_str()).collect();
    assert_eq!(
        what,
        [
            "controller",
            "driver",
            "SATA link",
            "write cache",
            "NCQ in use"
        ]
    );
    let resolved: Vec<&str> = c.resolved.iter().map(|f| f.check.as_str()).collect();
    // In ranked order: critical with high confidence first.
    assert_eq!(
        resolved,
        [
            "sata-link-downgraded",
            "controller-legacy-ide",
            "write-cache-disabled",
            "ncq-inactive"
        ]
    );
    assert!(c.appeared.is_empty(), "{:?}", c.appeared);
    assert_eq!(c.measured.len(), 6);
    assert_eq!(units_pct(c.measured[0].delta_pct), "+60.0%");
    let t = compare::render_text(&c);
    check_text_rules("compare", &t);
    insta::assert_snapshot!("compare_bios_ahci.txt", t);
}

fn units_pct(p: Option<f64>) -> String {
    diskdoc_core::units::pct(p)
}

// ---------------------------------------------------------------- CLI

fn diskdoc() -> Command {
    Command::cargo_bin("diskdoc").expect("binary")
}

fn write_json(dir: &Path, name: &str, r: &Report, redact: bool) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, json::render(&r.shareable(redact))).expect("write");
    p
}

#[test]
fn cli_replay_formats() {
    let dir = tempfile::tempdir().expect("tempdir");
    let p = write_json(dir.path(), "r.json", &every_finding(), false);
    // Default: the text report, exit 1 because problems at warning and above.
    let out = diskdoc().args(["replay"]).arg(&p).output().expect("run");
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let s = String::from_utf8_lossy(&out.stdout);
    // Re-derived from the embedded evidence (camcontrol identify: "write cache yes no"),
    // not copied from the report's own findings.
    assert!(s.contains("(write-cache-disabled)"), "{s}");
    assert!(
        !s.contains("smart-pending-sectors"),
        "hand-written finding copied: {s}"
    );
    // Replaying the report is replaying its evidence.
    let bp = dir.path().join("bundle.json");
    std::fs::write(&bp, every_finding().bundle.to_json()).expect("write");
    let bare = diskdoc().args(["replay"]).arg(&bp).output().expect("run");
    let findings_part = |s: &str| s[s.find("\nFindings").unwrap_or(0)..].to_string();
    assert_eq!(
        findings_part(&String::from_utf8_lossy(&bare.stdout)),
        findings_part(&s)
    );
    assert_eq!(bare.status.code(), out.status.code());
    // Text, redacted by default even though the file was written unredacted.
    let out = diskdoc()
        .args(["replay", "--format", "text"])
        .arg(&p)
        .output()
        .expect("run");
    let s = String::from_utf8_lossy(&out.stdout);
    check_text_rules("replay text", &s);
    assert!(
        s.contains("Serial    SERIAL-1") && !s.contains("ZFL1ABCD"),
        "{s}"
    );
    // --no-redact keeps it.
    let out = diskdoc()
        .args(["replay", "--no-redact", "--format", "text"])
        .arg(&p)
        .output()
        .expect("run");
    assert!(String::from_utf8_lossy(&out.stdout).contains("ZFL1ABCD"));
    // Markdown and JSON.
    let out = diskdoc()
        .args(["replay", "--format", "markdown"])
        .arg(&p)
        .output()
        .expect("run");
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("# diskdoc "));
    let out = diskdoc()
        .args(["replay", "--format", "json"])
        .arg(&p)
        .output()
        .expect("run");
    let _: MEnvelope =
        serde_json::from_slice(&out.stdout).expect("replayed JSON matches the pinned schema");
    // A bare bundle works too.
    let out = diskdoc()
        .args(["replay", "--format", "text"])
        .arg(&bp)
        .output()
        .expect("run");
    assert!(out.status.code() == Some(0) || out.status.code() == Some(1));
    // Unknown format is a usage error.
    let out = diskdoc()
        .args(["replay", "--format", "pdf"])
        .arg(&p)
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("invalid value 'pdf' for '--format <FORMAT>'"),
        "{err}"
    );
    // --json is exactly --format json; with another --format it is a usage error.
    let out = diskdoc()
        .args(["replay", "--json", "--format", "text"])
        .arg(&p)
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--json means --format json"));
    let a = diskdoc()
        .args(["replay", "--json"])
        .arg(&p)
        .output()
        .expect("run");
    let b = diskdoc()
        .args(["replay", "--format", "json"])
        .arg(&p)
        .output()
        .expect("run");
    let strip_argv = |o: &[u8]| {
        let mut v: V = serde_json::from_slice(o).expect("json");
        v["argv"] = V::Null;
        v
    };
    assert_eq!(strip_argv(&a.stdout), strip_argv(&b.stdout));
}

#[test]
fn cli_bad_reports_fail_cleanly() {
    let dir = tempfile::tempdir().expect("tempdir");
    let good = json::render(&healthy().shareable(true));
    let cases: Vec<(&str, String, &str)> = vec![
        (
            "truncated.json",
            good[..good.len() / 2].to_string(),
            "is truncated",
        ),
        ("empty.json", String::new(), "is empty"),
        (
            "garbage.json",
            "Subject: my disk\n\nhello".into(),
            "is not valid JSON",
        ),
        (
            "future.json",
            good.replacen(
                &format!("\"schema_version\": {}", report::REPORT_SCHEMA_VERSION),
                "\"schema_version\": 42",
                1,
            ),
            "report schema version 42",
        ),
        (
            "future-evidence.json",
            {
                let mut v: V = serde_json::from_str(&good).expect("json");
                v["evidence"]["schema_version"] = V::from(7);
                v.to_string()
            },
            "evidence schema version 7",
        ),
        (
            "extra-field.json",
            {
                let mut v: V = serde_json::from_str(&good).expect("json");
                v["surprise"] = V::from(1);
                v.to_string()
            },
            "unknown field `surprise`",
        ),
        ("array.json", "[]".into(), "the top level is a list"),
    ];
    for (name, body, want) in cases {
        let p = dir.path().join(name);
        std::fs::write(&p, body).expect("write");
        for args in [vec!["replay", "--format", "text"], vec!["compare"]] {
            let mut cmd = diskdoc();
            cmd.args(&args).arg(&p);
            if args[0] == "compare" {
                cmd.arg(&p);
            }
            let out = cmd.output().expect("run");
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{name}: {err}");
            assert!(err.contains(want) && err.contains(name), "{name}: {err}");
            assert!(!err.contains("panicked"), "{name}: {err}");
            assert_eq!(err.trim().lines().count(), 1, "{name}: one line: {err}");
        }
    }
    let out = diskdoc()
        .args(["replay", "/nonexistent/r.json"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read /nonexistent/r.json"));
}

#[test]
fn cli_compare_two_reports() {
    let dir = tempfile::tempdir().expect("tempdir");
    let a = write_json(dir.path(), "before.json", &seed000_desktop(true), false);
    let b = write_json(dir.path(), "after.json", &seed000_desktop(false), false);
    let out = diskdoc()
        .arg("compare")
        .arg(&a)
        .arg(&b)
        .output()
        .expect("run");
    let s = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    check_text_rules("compare", &s);
    assert!(s.contains("  ad4   write cache  on      off"), "{s}");
    assert!(
        s.contains("seq-write  dd bs=10M  75.8    12.9   -83.0%"),
        "{s}"
    );
    assert!(
        s.contains("appeared: [warning] ad4: write cache disabled (write-cache-disabled)"),
        "{s}"
    );
    assert!(!s.contains("WD-WCAS87154115"));
    let out = diskdoc()
        .args(["compare", "--json"])
        .arg(&a)
        .arg(&b)
        .output()
        .expect("run");
    let v: V = serde_json::from_slice(&out.stdout).expect("compare JSON");
    assert_eq!(v["kind"], "compare");
    assert_eq!(v["comparison"]["changes"][0]["what"], "write cache");
    let _: MEnvelope = serde_json::from_value(v).expect("the pinned envelope");
}

#[test]
fn write_reports_writes_text_and_json() {
    let dir = tempfile::tempdir().expect("tempdir");
    let p = dir.path().join("disk-report.txt");
    let w = report::write_reports(&p, &healthy(), true).expect("written");
    assert_eq!(w.text, p);
    assert_eq!(w.json, dir.path().join("disk-report.json"));
    let t = std::fs::read_to_string(&w.text).expect("text");
    check_text_rules("written", &t);
    assert!(!t.contains("S3Z9NB0K123456A"));
    let loaded = report::load(&w.json).expect("json loads back");
    assert_eq!(loaded.captures.len(), healthy().bundle.captures.len());
    // Never over a device node or a directory.
    let e = report::write_reports(Path::new("/dev/null"), &healthy(), true).unwrap_err();
    assert!(e.to_string().contains("not a regular file"), "{e}");
    let e = report::write_reports(dir.path(), &healthy(), true).unwrap_err();
    assert!(e.to_string().contains("not a regular file"), "{e}");
}

/// Two real `diskdoc scan --evidence-out` runs with a loop device attached, then compare.
/// Needs root and losetup; skipped with a reason otherwise.
#[test]
fn compare_two_scans_of_a_loop_device() {
    let root = nix::unistd::geteuid().is_root();
    let ci = std::env::var("CI").as_deref() == Ok("true");
    if !root {
        if ci {
            panic!("CI=true but not root: cannot attach a loop device");
        }
        eprintln!("skipping: attaching a loop device needs root");
        return;
    }
    let Ok(losetup) = which_losetup() else {
        eprintln!("skipping: losetup is not installed");
        return;
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let img = dir.path().join("disk.img");
    let f = std::fs::File::create(&img).expect("image");
    f.set_len(64 << 20).expect("size");
    drop(f);
    let out = std::process::Command::new(&losetup)
        .args(["-f", "--show"])
        .arg(&img)
        .output()
        .expect("losetup");
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        if ci {
            panic!("losetup failed: {err}");
        }
        eprintln!("skipping: losetup failed (no loop support in this container?): {err}");
        return;
    }
    let dev = String::from_utf8_lossy(&out.stdout).trim().to_string();
    struct Detach(PathBuf, String);
    impl Drop for Detach {
        fn drop(&mut self) {
            let _ = std::process::Command::new(&self.0)
                .args(["-d", &self.1])
                .status();
        }
    }
    let _guard = Detach(losetup.clone(), dev.clone());
    let a = dir.path().join("a.json");
    let b = dir.path().join("b.json");
    let loop_name = dev.trim_start_matches("/dev/").to_string();
    let scan = |p: &Path| {
        let out = diskdoc()
            .args(["scan", "--device", &loop_name, "--evidence-out"])
            .arg(p)
            .output()
            .expect("scan");
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    // Two scans with nothing changed in between: nothing to report.
    scan(&a);
    scan(&b);
    let out = diskdoc()
        .arg("compare")
        .arg(&a)
        .arg(&b)
        .output()
        .expect("compare");
    let s = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    check_text_rules("loop compare", &s);
    assert!(
        s.contains("No change in controller, link, cache, NCQ or alignment."),
        "{s}"
    );
    assert!(s.contains("No finding appeared or was resolved."), "{s}");
    // Then partition our own loop device (over the temporary image) at the old DOS
    // default, sector 63, and scan again: compare names the misaligned partition.
    let mut sf = std::process::Command::new("/usr/sbin/sfdisk");
    sf.args(["--no-reread", "--no-tell-kernel", "-q", &dev])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    let Ok(mut child) = sf.spawn() else {
        eprintln!("skipping the partitioned half: sfdisk is not installed");
        return;
    };
    if let Some(mut stdin) = child.stdin.take() {
        use std::io::Write;
        stdin
            .write_all(b"start=63, size=20000, type=83\n")
            .expect("sfdisk input");
    }
    assert!(
        child.wait().expect("sfdisk").success(),
        "sfdisk failed on {dev}"
    );
    scan(&b);
    let out = diskdoc()
        .arg("compare")
        .arg(&a)
        .arg(&b)
        .output()
        .expect("compare");
    let s = String::from_utf8_lossy(&out.stdout);
    check_text_rules("loop compare 2", &s);
    assert!(s.contains(&format!("{loop_name}  alignment")), "{s}");
    assert!(s.contains("all aligned"), "{s}");
    assert!(s.contains(&format!("misaligned: {loop_name}p1")), "{s}");
    let replay = diskdoc()
        .args(["replay", "--format", "text"])
        .arg(&b)
        .output()
        .expect("replay");
    let t = String::from_utf8_lossy(&replay.stdout);
    check_text_rules("loop replay", &t);
    assert!(t.contains(&format!("Disk {loop_name} ({dev})")), "{t}");
    assert!(
        t.contains(&format!("{loop_name}p1  63")) && t.contains("NO (+3584 B)"),
        "{t}"
    );
}

fn which_losetup() -> Result<PathBuf, ()> {
    ["/usr/sbin/losetup", "/sbin/losetup", "/usr/bin/losetup"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
        .ok_or(())
}

// ---------------------------------------------------------------- real seed bundles

/// Every bundle in tests/fixtures/bundles/ (seed threads assembled by the FreeBSD engineer),
/// replayed through facts and checks: text and Markdown snapshots, the text rules, and no
/// serial, WWN or host name of the input left in any format.
#[test]
fn seed_bundles_replay_into_clean_redacted_reports() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/bundles");
    let mut paths: Vec<PathBuf> = match std::fs::read_dir(&dir) {
        Ok(rd) => rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect(),
        Err(e) => {
            eprintln!(
                "skipping: {} not present on this branch: {e}",
                dir.display()
            );
            return;
        }
    };
    paths.sort();
    assert!(
        paths.len() >= 5,
        "expected the five seed bundles, found {}",
        paths.len()
    );
    let mut seen_serials = Vec::new();
    for p in &paths {
        let name = p
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("bundle")
            .to_string();
        let bundle = report::load(p).unwrap_or_else(|e| panic!("{name}: {e}"));
        let raw = Report::from_bundle(bundle, vec!["diskdoc".into(), "replay".into()]);
        // The secrets of the input, from the unredacted facts.
        let mut secrets: Vec<String> = Vec::new();
        for d in &raw.facts.disks {
            secrets.extend(d.serial.value().cloned());
            secrets.extend(d.wwn.value().cloned());
        }
        secrets.extend(raw.facts.hostname.value().cloned());
        secrets.retain(|s| s.len() >= 4 && !s.chars().all(|c| c == '*'));
        seen_serials.extend(secrets.clone());
        let shared = raw.shareable(true);
        let t = text::render(&shared);
        check_text_rules(&name, &t);
        assert_absent(&outputs(&shared), &secrets);
        insta::assert_snapshot!(format!("bundle_{name}.txt"), t);
        insta::assert_snapshot!(format!("bundle_{name}.md"), markdown::render(&shared));
        // Raw IDENTIFY words (sysfs .../id): the serial in words 10-19 is the token now.
        for (key, cap) in &shared.bundle.captures {
            let Some(data) = cap.data() else { continue };
            let words: Vec<u16> = data
                .split_whitespace()
                .filter_map(|w| u16::from_str_radix(w, 16).ok())
                .collect();
            if key.ends_with("/id") && words.len() == 256 {
                let serial: String = words[10..20]
                    .iter()
                    .flat_map(|w| [(w >> 8) as u8 as char, (w & 0xff) as u8 as char])
                    .collect();
                assert!(
                    serial.trim().starts_with("SERIAL-"),
                    "{name} {key}: {serial:?}"
                );
            }
        }
        // The redacted JSON report replays to the same findings as the unredacted one.
        let back = report::load::parse(&name, &json::render(&shared)).expect("loads");
        let replayed = Report::from_bundle(back.bundle, Vec::new());
        let ids = |r: &Report| -> Vec<(String, String)> {
            r.findings
                .iter()
                .map(|f| (f.check.clone(), format!("{:?}", f.verdict)))
                .collect()
        };
        assert_eq!(
            ids(&replayed),
            ids(&raw),
            "{name}: redaction changed the diagnosis"
        );
    }
    // Ground truth from seed thread 000 (tests/fixtures/seeds/000_*).
    for s in ["WD-WCAS87154115", "5VH0322Y"] {
        assert!(
            seen_serials.iter().any(|x| x == s),
            "{s} not derived from the bundles"
        );
    }
}

#[test]
fn render_pair_gives_loadable_redacted_reports() {
    let r = every_finding();
    let (t, j) = report::render_pair(&r.bundle, &r.facts, &r.findings, true).unwrap();
    check_text_rules("render_pair", &t);
    assert!(!t.contains("ZFL1ABCD") && !j.contains("ZFL1ABCD"));
    let loaded = report::load::parse("pair.json", &j).expect("loads");
    let env = loaded.envelope.expect("a report, not a bare bundle");
    assert_eq!(env.findings.len(), r.findings.len());
    assert_eq!(env.benchmarks.len(), 6);
    let (t, _) = report::render_pair(&r.bundle, &r.facts, &r.findings, false).unwrap();
    assert!(t.contains("ZFL1ABCD"));
}

/// `diskdoc check --evidence-out` on this machine, then `diskdoc replay` of that bundle and of
/// the JSON report made from it: the same findings, with no I/O the second time.
#[test]
fn replay_gives_the_same_findings_as_the_live_run() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bundle = dir.path().join("live.json");
    let live = diskdoc()
        .args(["check", "--json", "--no-redact", "--evidence-out"])
        .arg(&bundle)
        .output()
        .expect("check");
    let code = live.status.code();
    assert!(
        code == Some(0) || code == Some(1),
        "{}",
        String::from_utf8_lossy(&live.stderr)
    );
    let findings = |out: &[u8]| -> (V, V) {
        let v: V = serde_json::from_slice(out).expect("report JSON");
        (v["findings"].clone(), v["exit_status"].clone())
    };
    let (live_findings, live_status) = findings(&live.stdout);
    assert!(live_findings.is_array(), "{live_findings}");
    assert_eq!(live_status, V::from(code.unwrap_or(-1)));
    // The bundle, the check report itself: the same findings and exit status.
    let check_report = dir.path().join("check.json");
    std::fs::write(&check_report, &live.stdout).expect("write");
    for file in [&bundle, &check_report] {
        let replay = diskdoc()
            .args(["replay", "--json", "--no-redact"])
            .arg(file)
            .output()
            .expect("replay");
        assert_eq!(replay.status.code(), code, "{}", file.display());
        assert_eq!(
            findings(&replay.stdout),
            (live_findings.clone(), live_status.clone())
        );
    }
    // Through a redacted JSON report: same check ids and verdicts.
    let rep = diskdoc()
        .args(["replay", "--format", "json"])
        .arg(&bundle)
        .output()
        .expect("json");
    let report_path = dir.path().join("report.json");
    std::fs::write(&report_path, &rep.stdout).expect("write");
    let a = diskdoc()
        .args(["replay", "--json"])
        .arg(&bundle)
        .output()
        .expect("a");
    let b = diskdoc()
        .args(["replay", "--json"])
        .arg(&report_path)
        .output()
        .expect("b");
    let ids = |out: &[u8]| -> Vec<(String, String)> {
        let v: V = serde_json::from_slice(out).expect("report JSON");
        v["findings"]
            .as_array()
            .expect("findings array")
            .iter()
            .map(|f| (f["check"].to_string(), f["verdict"].to_string()))
            .collect()
    };
    assert!(!ids(&a.stdout).is_empty());
    assert_eq!(ids(&a.stdout), ids(&b.stdout));
    check_text_rules(
        "live text",
        &String::from_utf8_lossy(
            &diskdoc()
                .args(["replay", "--format", "text"])
                .arg(&report_path)
                .output()
                .expect("text")
                .stdout,
        ),
    );
}

/// Host names that are also enum values in the JSON ("nvme", "linux", "warning"): the host
/// name goes, the types still read back, nothing falls back to the unredacted copy.
#[test]
fn host_names_that_look_like_enum_values() {
    for host in ["nvme", "linux", "warning", "known"] {
        let mut r = healthy();
        r.facts.hostname = Fact::known(host.to_string(), "file:/proc/sys/kernel/hostname");
        r.facts.disks[0].class = Fact::known(DeviceClass::Nvme, "x");
        r.bundle.captures.insert(
            "file:/proc/sys/kernel/hostname".into(),
            Capture::ok(format!("{host}\n")),
        );
        let shared = r.shareable(true);
        assert_eq!(
            shared.facts.hostname.value().map(String::as_str),
            Some("HOST-1"),
            "{host}"
        );
        assert_eq!(shared.facts.disks.len(), 1, "{host}: facts kept");
        assert_eq!(shared.findings.len(), r.findings.len(), "{host}");
        let j = json::render(&shared);
        let _: MEnvelope = serde_json::from_str(&j).expect("still the pinned schema");
        assert!(
            !j.contains(&format!("\"{host}\\n\"")),
            "{host} left in a capture"
        );
    }
}

mod prop {
    use super::*;
    use proptest::prelude::*;

    fn good_report() -> String {
        json::render(&every_finding().shareable(false))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Cut anywhere: an error naming the file, never a panic.
        #[test]
        fn truncated_reports_never_panic(cut in 0usize..20_000) {
            let s = good_report();
            let cut = cut.min(s.len());
            let head = String::from_utf8_lossy(&s.as_bytes()[..cut]).into_owned();
            if let Err(e) = report::load::parse("t.json", &head) {
                prop_assert!(e.to_string().contains("t.json"));
            }
        }

        /// Bytes flipped anywhere: load, and if it loads, derive and render all formats.
        #[test]
        fn mangled_reports_never_panic(pos in 0usize..20_000, byte in any::<u8>()) {
            let mut b = good_report().into_bytes();
            let n = b.len();
            b[pos % n] = byte;
            let s = String::from_utf8_lossy(&b).into_owned();
            if let Ok(l) = report::load::parse("m.json", &s) {
                let r = diskdoc_core::report::report_from_loaded(l, vec![]);
                let shared = r.shareable(true);
                check_text_rules("mangled", &text::render(&shared));
                let _ = markdown::render(&shared);
                let _ = json::render(&shared);
            }
        }

        /// Any text through the redactor: no panic, and tokens never contain the input's
        /// planted serial.
        #[test]
        fn redactor_survives_any_text(prefix in ".{0,40}", junk in "[ -~\\t\\n\u{e9}\u{1b}]{0,200}") {
            let mut red = diskdoc_core::report::redact::Redactor::new();
            let text = format!("{prefix}\nSerial Number:    WD-WCAS87154115\n{junk}\naa:bb:cc:dd:ee:ff /home/x");
            red.collect_text(&text);
            let out = red.apply(&text);
            prop_assert!(!out.contains("WD-WCAS87154115"));
        }
    }
}

#[test]
fn compare_summary_line() {
    let c = compare::compare(&seed000_desktop(true), &seed000_desktop(false), "a", "b");
    assert_eq!(
        compare::summary(&c),
        "Summary: 1 configuration change, 0 findings resolved, 1 appeared, 1 test compared \
         (median change -83.0%)."
    );
}

/// A report whose evidence this diskdoc derives no disk from: replay shows the report's own
/// facts and findings, and says so.
#[test]
fn replay_falls_back_to_the_stored_facts() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut r = every_finding();
    r.bundle.captures.clear();
    r.bundle.benchmarks.clear();
    r.facts.benchmarks.clear();
    let p = write_json(dir.path(), "old.json", &r, false);
    let out = diskdoc()
        .args(["replay", "--format", "text"])
        .arg(&p)
        .output()
        .expect("run");
    let s = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{s}");
    assert!(s.contains("derives no disk from the embedded"), "{s}");
    assert!(s.contains("(smart-pending-sectors)"), "{s}");
    check_text_rules("fallback", &s);
}

/// The two real seed 000 bundles (write cache on, then hw.ata.wc=0), one as a JSON report
/// and one bare: compare names the change and the finding it brought.
#[test]
fn cli_compare_seed000_bundles() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bundles = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/bundles");
    let on = bundles.join("seed000-desktop-ich7-wc-on.json");
    let off = bundles.join("seed000-desktop-ich7.json");
    if !on.exists() || !off.exists() {
        eprintln!("skipping: the seed 000 bundles are not on this branch");
        return;
    }
    let rep = diskdoc()
        .args(["replay", "--format", "json"])
        .arg(&on)
        .output()
        .expect("replay");
    let before = dir.path().join("before.json");
    std::fs::write(&before, &rep.stdout).expect("write");
    let out = diskdoc()
        .arg("compare")
        .arg(&before)
        .arg(&off)
        .output()
        .expect("compare");
    let s = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    check_text_rules("seed000 compare", &s);
    assert!(s.contains("  ad4   write cache  on      off"), "{s}");
    assert!(
        s.contains("appeared: [warning] ad4: write cache disabled (write-cache-disabled)"),
        "{s}"
    );
    assert!(!s.contains("WD-WCAS87154115"), "{s}");
}

/// compare warns loudly about different disks and machines, and marks deltas within the
/// runs' measured spread as noise.
#[test]
fn compare_warns_about_other_disks_and_marks_noise() {
    // Two different machines (host names), no disk in common.
    let before = healthy();
    let mut after = healthy();
    after.facts.hostname = Fact::known("other-box".to_string(), "file:/proc/sys/kernel/hostname");
    after.facts.disks[0].name = "sdb".into();
    after.facts.disks[0].serial = Fact::known("OTHER123".to_string(), "x");
    after.facts.disks.push(healthy().facts.disks[0].clone());
    after.facts.disks[1].name = "sdc".into();
    let c = compare::compare(&before, &after, "before.json", "after.json");
    let w = c.warnings.join("\n");
    assert!(w.contains("different machines"), "{w}");
    assert!(w.contains("no disk is in both reports"), "{w}");
    let t = compare::render_text(&c);
    assert!(
        t.contains("WARNING: the reports come from different machines"),
        "{t}"
    );
    check_text_rules("compare warnings", &t);
    // One renamed disk with another serial: different disks, said so.
    let mut after = healthy();
    after.facts.disks[0].name = "sdb".into();
    after.facts.disks[0].serial = Fact::known("OTHER123".to_string(), "x");
    let c = compare::compare(&before, &after, "b", "a");
    assert!(
        c.warnings
            .iter()
            .any(|w| w.contains("are different disks (serial")),
        "{:?}",
        c.warnings
    );
    // The same disk renamed (same serial): no warning.
    let mut after = healthy();
    after.facts.disks[0].name = "sdb".into();
    let c = compare::compare(&before, &after, "b", "a");
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
    // Noise: +5% with 10% + 10% spread is noise; +60% is not.
    let mut b2 = healthy();
    let mut a2 = healthy();
    for r in b2.facts.benchmarks.iter_mut() {
        r.spread_pct = Some(10.0);
    }
    for (i, r) in a2.facts.benchmarks.iter_mut().enumerate() {
        r.spread_pct = Some(10.0);
        r.bytes_per_sec *= if i == 0 { 1.60 } else { 1.05 };
    }
    let c = compare::compare(&b2, &a2, "b", "a");
    assert_eq!(
        c.measured[0].within_noise,
        Some(false),
        "{:?}",
        c.measured[0]
    );
    assert_eq!(
        c.measured[1].within_noise,
        Some(true),
        "{:?}",
        c.measured[1]
    );
    assert_eq!(c.measured[1].noise_pct, Some(20.0));
    let t = compare::render_text(&c);
    assert!(t.contains("+5.0% ~"), "{t}");
    assert!(t.contains("within noise"), "{t}");
}

/// Issue 13's gap: a rate that was not a finite number used to be written as `null`, and
/// such a report did not load back ("expected f64"). Replaying one now works: the rate
/// reads as 0 with a note saying why, and nothing is written as null again.
#[test]
fn replay_of_a_report_with_null_rates_loads_and_says_why() {
    let dir = tempfile::tempdir().expect("tempdir");
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/bench-link/nvme-slow-link-reads-at-ceiling.json");
    let first = diskdoc()
        .args(["replay", "--json", "--no-redact"])
        .arg(&fixture)
        .output()
        .expect("replay");
    let mut v: V = serde_json::from_slice(&first.stdout).expect("report JSON");
    // Null every rate of the first result wherever the report carries it, as an older
    // diskdoc wrote a NaN.
    let mut nulled = 0;
    for ptr in [
        "/evidence/benchmarks/0",
        "/system/benchmarks/0",
        "/benchmarks/0",
    ] {
        if let Some(r) = v.pointer_mut(ptr) {
            r["bytes_per_sec"] = V::Null;
            r["iops"] = V::Null;
            nulled += 1;
        }
    }
    assert!(nulled >= 2, "the report holds its results: {v}");
    let path = dir.path().join("nulled.json");
    std::fs::write(&path, v.to_string()).expect("write");
    let out = diskdoc()
        .args(["replay", "--json", "--no-redact"])
        .arg(&path)
        .output()
        .expect("replay");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        matches!(out.status.code(), Some(0 | 1)) && !stderr.contains("panicked"),
        "{:?}: {stderr}",
        out.status
    );
    let back: V = serde_json::from_slice(&out.stdout).expect("replayed JSON");
    let r = &back["evidence"]["benchmarks"][0];
    assert_eq!(r["bytes_per_sec"], V::from(0.0), "{r}");
    let notes = r["notes"].to_string();
    assert!(
        notes.contains("bytes_per_sec was not a finite number"),
        "{notes}"
    );
    assert!(notes.contains("iops was not a finite number"), "{notes}");
    // No rate anywhere in the replayed report is null any more.
    for list in [
        &back["evidence"]["benchmarks"],
        &back["system"]["benchmarks"],
    ] {
        for r in list.as_array().expect("results") {
            assert!(
                r["bytes_per_sec"].is_number() && r["iops"].is_number(),
                "{r}"
            );
        }
    }
}
