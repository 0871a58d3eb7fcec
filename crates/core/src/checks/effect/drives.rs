//! Rated sequential speeds of common drive models, one row per model family with the address
//! of the page that states them (the manufacturer's specification table, as printed in the
//! data sheet or quoted by a review), like smartmontools' drivedb.h keeps a source per entry.
//! A row is matched against the model string the drive reports (ATA IDENTIFY words 27-46,
//! NVMe Identify Controller MN, as smartctl, hdparm -i, camcontrol identify or a FreeBSD
//! attach line print it). The figures are the vendor's maxima: an HDD's sustained rate falls
//! from the outer zone to the inner one (zoned bit recording), so its row keeps both ends when
//! the source states both; most data sheets since about 2010 state only the maximum ("max
//! sustained transfer rate, OD"), and such a row leaves the inner end empty rather than guess
//! it: a model that needs the low end (a run that skipped into an unknown zone, writes with
//! no figure saying which zone) then gives an "up to" range. An SSD's row keeps the rated
//! sequential read and write. A rate measured above a row's maximum is not an error in the
//! row: vendors round, and a run can be cache-assisted.
//!
//! The rows were chosen by how often a family's model strings appear in the fixtures
//! (tests/fixtures and tests/fixtures/corpus-reviewed), not by the before/after cases; the
//! counts are in tests/fixtures/effects/README.md ("Drive table (rated speeds)").

use crate::facts::DeviceClass;

/// One model family's rated sequential speeds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct DriveRating {
    /// Matched case-insensitively against the reported model, ignoring spaces.
    pub model_prefixes: &'static [&'static str],
    /// The family's name as its vendor markets it.
    pub family: &'static str,
    pub class: DeviceClass,
    /// Rated sequential read, MB/s: for an HDD the sustained rate at the inner zone (first,
    /// `None` when the source states only the maximum, as most data sheets since about 2010
    /// do) and the outer zone (second, the maximum); for an SSD the rated read twice.
    pub read_mbps: (Option<f64>, f64),
    /// Rated sequential write, MB/s (an HDD writes at its zone's media rate, as it reads).
    pub write_mbps: (Option<f64>, f64),
    /// Rated 4 KiB random read and write at queue depth 32, I/O operations per second, when
    /// the source states them (a SATA SSD reaches them only with NCQ: without it a queue of 32
    /// runs one command at a time).
    pub rand_iops_qd32: Option<(f64, f64)>,
    /// Where the figures are stated.
    pub source: &'static str,
}

/// The table. Add a row only with a page that states the figures.
pub(crate) const DRIVES: &[DriveRating] = &[
    DriveRating {
        model_prefixes: &["HDT722516", "HDT722525"],
        family: "Hitachi Deskstar T7K250",
        class: DeviceClass::Hdd,
        read_mbps: (Some(32.9), 67.8),
        write_mbps: (Some(32.9), 67.8),
        rand_iops_qd32: None,
        source: "https://techreport.com/review/8362/hitachi-deskstar-t7k250-hard-drive \
                 (Hitachi's specification table: sustained transfer rate 32.9-67.8 MB/s)",
    },
    DriveRating {
        model_prefixes: &["HDS722580", "HDS722512", "HDS722516", "HDS722525"],
        family: "Hitachi Deskstar 7K250",
        class: DeviceClass::Hdd,
        read_mbps: (Some(29.7), 61.4),
        write_mbps: (Some(29.7), 61.4),
        rand_iops_qd32: None,
        source: "https://techreport.com/review/8362/hitachi-deskstar-t7k250-hard-drive \
                 (the same table's 7K250 column: sustained transfer rate 29.7-61.4 MB/s)",
    },
    DriveRating {
        model_prefixes: &["HDS725050", "HDS724040"],
        family: "Hitachi Deskstar 7K500",
        class: DeviceClass::Hdd,
        read_mbps: (Some(31.0), 64.8),
        write_mbps: (Some(31.0), 64.8),
        rand_iops_qd32: None,
        source: "https://techreport.com/review/8752/hitachi-deskstar-7k500-hard-drive \
                 (Hitachi's specification table: sustained transfer rate 31-64.8 MB/s)",
    },
    DriveRating {
        model_prefixes: &["SamsungSSD870EVO"],
        family: "Samsung 870 EVO",
        class: DeviceClass::Ssd,
        read_mbps: (Some(560.0), 560.0),
        write_mbps: (Some(530.0), 530.0),
        rand_iops_qd32: Some((98_000.0, 88_000.0)),
        source: "https://www.tomshardware.com/uk/news/samsung-announces-870-evo \
                 (Samsung's table: 560 / 530 MB/s sequential read / write and 98,000 / 88,000 \
                 random read / write IOPS at every capacity; the same figures at QD32 in \
                 https://www.kitguru.net/components/ssd-drives/simon-crisp/samsung-ssd-870-evo-1tb-review/all/1/)",
    },
    DriveRating {
        model_prefixes: &["SamsungSSD860EVO"],
        family: "Samsung 860 EVO",
        class: DeviceClass::Ssd,
        read_mbps: (Some(550.0), 550.0),
        write_mbps: (Some(520.0), 520.0),
        rand_iops_qd32: Some((98_000.0, 90_000.0)),
        source: "https://techplayboy.com/48896/samsung-ssd-860-evo-solid-state-drive-review/ \
                 (Samsung's figures for the 500GB model: up to 550 MB/s reads at 98,000 IOPS \
                 and 520 MB/s writes at 90,000 IOPS; 550 / 520 MB/s for the series in \
                 https://basic-tutorials.de/forum/threads/samsung-ssd-860-pro-evo-1-tb-review.668/)",
    },
    DriveRating {
        model_prefixes: &["CT250MX500", "CT500MX500", "CT1000MX500", "CT2000MX500"],
        family: "Crucial MX500",
        class: DeviceClass::Ssd,
        read_mbps: (Some(560.0), 560.0),
        write_mbps: (Some(510.0), 510.0),
        rand_iops_qd32: None,
        source: "https://www.ocinside.de/review/crucial_mx500_1tb_ssd/2/ \
                 (the manufacturer's specification: read up to 560 MB/s, write up to 510 MB/s)",
    },
    DriveRating {
        model_prefixes: &["SamsungSSD980PRO1TB", "SamsungSSD980PRO500GB"],
        family: "Samsung 980 PRO (500 GB, 1 TB)",
        class: DeviceClass::Nvme,
        read_mbps: (Some(7000.0), 7000.0),
        write_mbps: (Some(5000.0), 5000.0),
        rand_iops_qd32: None,
        source: "https://www.pugetsystems.com/parts/Hard-Drive/Samsung-980-Pro-1TB-Gen4-M-2-SSD-13816/ \
                 (sequential read up to 7 GB/s, write up to 5 GB/s, PCIe 4.0 x4)",
    },
    DriveRating {
        model_prefixes: &["SamsungSSD980PRO2TB"],
        family: "Samsung 980 PRO (2 TB)",
        class: DeviceClass::Nvme,
        read_mbps: (Some(7000.0), 7000.0),
        write_mbps: (Some(5100.0), 5100.0),
        rand_iops_qd32: None,
        source: "https://www.pugetsystems.com/parts/Hard-Drive/Samsung-980-Pro-2TB-Gen4-M-2-SSD-13831/ \
                 (sequential read 7,000 MB/s, write 5,100 MB/s)",
    },
    DriveRating {
        model_prefixes: &["SamsungSSD970EVOPlus1TB"],
        family: "Samsung 970 EVO Plus (1 TB)",
        class: DeviceClass::Nvme,
        read_mbps: (Some(3500.0), 3500.0),
        write_mbps: (Some(3300.0), 3300.0),
        rand_iops_qd32: None,
        source: "https://www.pgrid.app/au/ssds/samsung-970-evo-plus-1000gb \
                 (sequential 3,500 MB/s read, 3,300 MB/s write, PCIe 3.0 x4)",
    },
    DriveRating {
        model_prefixes: &["SamsungSSD970EVOPlus500GB"],
        family: "Samsung 970 EVO Plus (500 GB)",
        class: DeviceClass::Nvme,
        read_mbps: (Some(3500.0), 3500.0),
        write_mbps: (Some(3200.0), 3200.0),
        rand_iops_qd32: None,
        source: "https://digit.in/reviews/general/samsung-970-evo-plus-nvme-m-2-ssd-250-gb-review-177943.html/amp \
                 (Samsung's specification table: 500 GB, sequential read 3500 MB/s, write 3200 MB/s)",
    },
    DriveRating {
        model_prefixes: &["SamsungSSD970PRO512GB"],
        family: "Samsung 970 PRO (512 GB)",
        class: DeviceClass::Nvme,
        read_mbps: (Some(3500.0), 3500.0),
        write_mbps: (Some(2300.0), 2300.0),
        rand_iops_qd32: None,
        source: "https://www.pugetsystems.com/parts/Hard-Drive/Samsung-970-Pro-512GB-M-2-SSD-12735/ \
                 (sequential read 3,500 MB/s, write 2,300 MB/s, PCIe 3.0 x4)",
    },
    DriveRating {
        model_prefixes: &["CT1000P3SSD8"],
        family: "Crucial P3 (1 TB)",
        class: DeviceClass::Nvme,
        read_mbps: (Some(3500.0), 3500.0),
        write_mbps: (Some(3000.0), 3000.0),
        rand_iops_qd32: None,
        source: "https://www.pgrid.app/au/ssds/crucial-p3-1000gb \
                 (sequential read 3500 MB/s, write 3000 MB/s, PCIe 3.0 x4)",
    },
    DriveRating {
        model_prefixes: &["ST24000NM002H", "ST24000NM007H", "ST24000NM005H"],
        family: "Seagate Exos X24 (24 TB)",
        class: DeviceClass::Hdd,
        read_mbps: (None, 285.0),
        write_mbps: (None, 285.0),
        rand_iops_qd32: None,
        source: "https://blocksandfiles.com/2023/10/18/seagate-pips-toshiba-and-wd-with-24tb-drive/ \
                 (maximum sustained data rate 285 MBps, the same as the X20); the inner-zone \
                 rate is not stated",
    },
    DriveRating {
        model_prefixes: &[
            "ST3000DM001",
            "ST2000DM001",
            "ST1500DM003",
            "ST1000DM003",
            "ST750DM003",
        ],
        family: "Seagate Barracuda 7200.14 (750 GB to 3 TB)",
        class: DeviceClass::Hdd,
        read_mbps: (None, 210.0),
        write_mbps: (None, 210.0),
        rand_iops_qd32: None,
        source: "http://www.behardware.com/news/imprimer/11920/ (Seagate's announcement: \
                 \"The 750 GB, 1 TB, 1.5 TB, 2 TB and 3 TB versions ... average speeds of 156 \
                 MB/s and a max of 210 MB/s\"); no inner-zone rate is stated",
    },
    DriveRating {
        model_prefixes: &["ST500DM002", "ST320DM000", "ST250DM000"],
        family: "Seagate Barracuda 7200.14 (250 to 500 GB, one platter)",
        class: DeviceClass::Hdd,
        read_mbps: (None, 144.0),
        write_mbps: (None, 144.0),
        rand_iops_qd32: None,
        source: "http://www.behardware.com/news/imprimer/11920/ (\"The 250, 320 and 500 GB \
                 models ... an average speed of 125 MB/s and a max of 144 MB/s\"); no \
                 inner-zone rate is stated",
    },
    DriveRating {
        model_prefixes: &["ST4000DM000"],
        family: "Seagate Desktop HDD.15 (4 TB)",
        class: DeviceClass::Hdd,
        read_mbps: (None, 180.0),
        write_mbps: (None, 180.0),
        rand_iops_qd32: None,
        source: "https://www.tomshardware.com/reviews/desktop-hdd.15-st4000dm000-4tb,3494.html \
                 (\"the Desktop HDD.15 maxes out at 180 MB/s\", from Seagate's technical \
                 specifications); no inner-zone rate is stated",
    },
    DriveRating {
        model_prefixes: &[
            "ST18000NM000J",
            "ST18000NM004J",
            "ST18000NM005J",
            "ST18000NM007J",
        ],
        family: "Seagate Exos X18 (18 TB)",
        class: DeviceClass::Hdd,
        read_mbps: (None, 270.0),
        write_mbps: (None, 270.0),
        rand_iops_qd32: None,
        source: "https://computerbase.de/2022-11/seagate-exos-2x18-erste-hdd-mit-550-mb-s-dank-dual-aktor-mach-2-enthuellt \
                 (\"das ... Maximum einer Exos X18, die mit 270 MB/s spezifiziert ist\"); the \
                 18 TB model is the X18's largest; no inner-zone rate is stated",
    },
    DriveRating {
        model_prefixes: &["SamsungSSD860QVO1TB"],
        family: "Samsung 860 QVO (1 TB)",
        class: DeviceClass::Ssd,
        read_mbps: (Some(550.0), 550.0),
        write_mbps: (Some(520.0), 520.0),
        rand_iops_qd32: Some((96_000.0, 89_000.0)),
        source: "https://www.mmorpg.com/hardware-reviews/samsung-qvo-860-1tb-ssd-big-and-cheap-ssd-storage-2000108351 \
                 (the 1 TB model's specifications: sequential read up to 550, write up to 520; \
                 random read (4KB, QD32) up to 96,000 IOPS, random write (4KB, QD32) up to \
                 89,000 IOPS)",
    },
    DriveRating {
        model_prefixes: &[
            "SamsungSSD870QVO1TB",
            "SamsungSSD870QVO4TB",
            "SamsungSSD870QVO8TB",
        ],
        family: "Samsung 870 QVO (1, 4 and 8 TB)",
        class: DeviceClass::Ssd,
        read_mbps: (Some(560.0), 560.0),
        write_mbps: (Some(530.0), 530.0),
        rand_iops_qd32: None,
        source: "https://www.pugetsystems.com/parts/Hard-Drive/Samsung-870-QVO-8TB-SATA3-2-5inch-SSD-13731/ \
                 (8 TB: writes \"up to 530MB/s\", reads \"up to 560MB/s\"); \
                 http://www.cdrlabs.com/reviews/samsung-870-qvo-1tb-solid-state-drive/print.html \
                 (1 TB: \"up to 560 MB/s sequential read and 530 MB/s sequential write\"); \
                 https://kitguru.net/components/ssd-drives/simon-crisp/samsung-ssd-870-qvo-4tb-review/12 \
                 (4 TB: \"official Sequential write ... up to 530MB/s\"); the write is the \
                 TurboWrite buffer's rate",
    },
    DriveRating {
        model_prefixes: &["SamsungSSD840EVO120"],
        family: "Samsung 840 EVO (120 GB)",
        class: DeviceClass::Ssd,
        read_mbps: (Some(540.0), 540.0),
        write_mbps: (Some(410.0), 410.0),
        rand_iops_qd32: None,
        source: "https://ocaholic.ch/modules/smartsection/item.php?itemid=1127&page=0 \
                 (Samsung's table, 840 Evo 120 Gigabyte: 540 MB/s sequential read, 410 MB/s \
                 sequential write; its random figures state no queue depth)",
    },
    DriveRating {
        model_prefixes: &[
            "SamsungSSD840EVO250",
            "SamsungSSD840EVO500",
            "SamsungSSD840EVO750",
            "SamsungSSD840EVO1T",
        ],
        family: "Samsung 840 EVO (250 GB to 1 TB)",
        class: DeviceClass::Ssd,
        read_mbps: (Some(540.0), 540.0),
        write_mbps: (Some(520.0), 520.0),
        rand_iops_qd32: None,
        source: "https://ocaholic.ch/modules/smartsection/item.php?itemid=1127&page=0 \
                 (Samsung's table, 840 Evo 250, 500, 750 and 1000 Gigabyte: 540 MB/s \
                 sequential read, 520 MB/s sequential write)",
    },
    DriveRating {
        model_prefixes: &["CT750MX300"],
        family: "Crucial MX300 (750 GB)",
        class: DeviceClass::Ssd,
        read_mbps: (Some(530.0), 530.0),
        write_mbps: (Some(510.0), 510.0),
        rand_iops_qd32: None,
        source: "https://www.vortez.net/articles_pages/crucial_mx300_review,2.html (750GB: \
                 \"Sequential read:- Up to 530MB / Sec, Sequential write:- Up to 510MB / Sec\"; \
                 its 92,000 / 83,000 random IOPS state no queue depth)",
    },
    DriveRating {
        model_prefixes: &["OCZ-AGILITY3"],
        family: "OCZ Agility 3",
        class: DeviceClass::Ssd,
        read_mbps: (Some(525.0), 525.0),
        write_mbps: (Some(500.0), 500.0),
        rand_iops_qd32: None,
        source: "http://www.anandtech.com/Show/Index/4346?cPage=2&all=False&sort=0&page=1&slug=ocz-agility-3-240gb-review \
                 (OCZ's SF-2200 table: Agility 3 120GB and 240GB max read up to 525 MB/s, max \
                 write up to 500 MB/s; the 60GB model writes up to 475 MB/s, and the model \
                 string names no capacity)",
    },
    DriveRating {
        model_prefixes: &["SamsungSSD960PRO"],
        family: "Samsung 960 PRO",
        class: DeviceClass::Nvme,
        read_mbps: (Some(3500.0), 3500.0),
        write_mbps: (Some(2100.0), 2100.0),
        rand_iops_qd32: None,
        source: "https://www.ubergizmo.com/reviews/samsung-nvme-ssd-960-pro-review/ (Samsung's \
                 table for 512GB, 1TB and 2TB: sequential read 3,500MB/s, sequential write \
                 2,100MB/s)",
    },
    DriveRating {
        model_prefixes: &["WD_BLACKSN850X2000", "WD_BLACKSN850X4000"],
        family: "WD_BLACK SN850X (2 and 4 TB)",
        class: DeviceClass::Nvme,
        read_mbps: (Some(7300.0), 7300.0),
        write_mbps: (Some(6600.0), 6600.0),
        rand_iops_qd32: None,
        source: "https://www.tomshardware.com/news/wd-black-sn850x-pcie-40-ps5-ssd-hits-retail-4tb-for-dollar820 \
                 (\"sequential read speeds up to 7,300 MBps ... Only the 2TB and 4TB can hit \
                 6,600 MBps\")",
    },
    DriveRating {
        model_prefixes: &["WD_BLACKSN850X1000"],
        family: "WD_BLACK SN850X (1 TB)",
        class: DeviceClass::Nvme,
        read_mbps: (Some(7300.0), 7300.0),
        write_mbps: (Some(6300.0), 6300.0),
        rand_iops_qd32: None,
        source: "https://www.tomshardware.com/news/wd-black-sn850x-pcie-40-ps5-ssd-hits-retail-4tb-for-dollar820 \
                 (\"sequential read speeds up to 7,300 MBps ... the 1TB drive maxes out at \
                 6,300 MBps\")",
    },
    DriveRating {
        model_prefixes: &["WD_BLACKSN7702TB"],
        family: "WD_BLACK SN770 (2 TB)",
        class: DeviceClass::Nvme,
        read_mbps: (Some(5150.0), 5150.0),
        write_mbps: (Some(4850.0), 4850.0),
        rand_iops_qd32: None,
        source: "https://www.pgrid.app/us/ssds/western-digital-wd-black-sn770-2000gb \
                 (Sequential Read/Write: 5,150 MB/s / 4,850 MB/s)",
    },
    DriveRating {
        model_prefixes: &["WD_BLACKSN7701TB"],
        family: "WD_BLACK SN770 (1 TB)",
        class: DeviceClass::Nvme,
        read_mbps: (Some(5150.0), 5150.0),
        write_mbps: (Some(4900.0), 4900.0),
        rand_iops_qd32: None,
        source: "https://www.pgrid.app/au/ssds/western-digital-wd-black-sn770-1000gb \
                 (Seq Read 5150 MB/s, Seq Write 4900 MB/s)",
    },
    DriveRating {
        model_prefixes: &["SSDPEKKW256G7"],
        family: "Intel SSD 600p (256 GB)",
        class: DeviceClass::Nvme,
        read_mbps: (Some(1570.0), 1570.0),
        write_mbps: (Some(540.0), 540.0),
        rand_iops_qd32: Some((71_000.0, 112_000.0)),
        source: "https://www.anandtech.com/show/10850/the-intel-ssd-600p-512gb-review \
                 (Intel's specification table, 256GB column: sequential read 1570 MB/s, \
                 sequential write (SLC cache) 540 MB/s, 4KB random read (QD32) 71k IOPS, \
                 4KB random write (QD32) 112k IOPS)",
    },
    DriveRating {
        model_prefixes: &["WDS100T2B0C"],
        family: "WD Blue SN550 (1 TB)",
        class: DeviceClass::Nvme,
        read_mbps: (Some(2400.0), 2400.0),
        write_mbps: (Some(1950.0), 1950.0),
        rand_iops_qd32: None,
        source: "https://kitguru.net/?p=430847 (\"WD quote Sequential read/write performance \
                 (QD32 T1) for the range as up to 2,400MB/s ... with the 1TB drive rated at up \
                 to 1,950MB/s\"); the same 1TB figures in \
                 https://pcper.com/2020/12/wd-blue-sn550-nvme-ssd-review/ (Product Number \
                 WDS100T2B0C: 2400MB/s read, 1950MB/s write)",
    },
    DriveRating {
        model_prefixes: &["WDBlueSN570250G"],
        family: "WD Blue SN570 (250 GB)",
        class: DeviceClass::Nvme,
        read_mbps: (Some(3300.0), 3300.0),
        write_mbps: (Some(1200.0), 1200.0),
        rand_iops_qd32: None,
        source: "https://www.ssdwiki.com/m-2-pci-express/wd-blue-sn570 (the specification \
                 table, 250GB / WDS250G3B0C column: sequential read 3,300 MB/s, sequential \
                 write 1,200 MB/s)",
    },
    DriveRating {
        model_prefixes: &["CT2000P5PSSD8"],
        family: "Crucial P5 Plus (2 TB)",
        class: DeviceClass::Nvme,
        read_mbps: (Some(6600.0), 6600.0),
        write_mbps: (Some(5000.0), 5000.0),
        rand_iops_qd32: None,
        source: "https://e-catalog.com/cmp/90161/ct2000p5pssd8-vs-mz-v7s2t0bw/ (the \
                 CT2000P5PSSD8's specifications: read speed 6600 MB/s, write speed 5000 MB/s)",
    },
    DriveRating {
        model_prefixes: &[
            "SSDSA1MH080G1",
            "SSDSA1MH160G1",
            "SSDSA2MH080G1",
            "SSDSA2MH160G1",
        ],
        family: "Intel X18-M / X25-M (first generation, 80 and 160 GB)",
        class: DeviceClass::Ssd,
        read_mbps: (Some(250.0), 250.0),
        write_mbps: (Some(70.0), 70.0),
        rand_iops_qd32: None,
        source: "https://www.trustedreviews.com/reviews/intel-x25-m-ssd (\"The (M)ainstream \
                 range ... 80GB and 160GB capacities, with drive size of 1.8inch (X18) and \
                 2.5inch (X25), but will 'only' have read speeds of 250MB/s and write speeds of \
                 70MB/s\")",
    },
    DriveRating {
        model_prefixes: &["CT240BX200SSD1", "CT480BX200SSD1", "CT960BX200SSD1"],
        family: "Crucial BX200",
        class: DeviceClass::Ssd,
        read_mbps: (Some(540.0), 540.0),
        write_mbps: (Some(490.0), 490.0),
        rand_iops_qd32: None,
        source: "http://www.legitreviews.com/print?post_id=174794 (Crucial's BX200 table, \
                 240GB CT240BX200SSD1, 480GB and 960GB: sequential read up to 540 MB/s, \
                 sequential write up to 490 MB/s; its random figures are at QD32 Thread4, not \
                 one queue of 32)",
    },
    DriveRating {
        model_prefixes: &["LexarSSDNM7904TB"],
        family: "Lexar NM790 (4 TB)",
        class: DeviceClass::Nvme,
        read_mbps: (Some(7400.0), 7400.0),
        write_mbps: (Some(6500.0), 6500.0),
        rand_iops_qd32: None,
        source: "https://www.review-rating.com/en/product/lexar-4tb-nm790-ssd-with-64854 \
                 (\"the NM790 4TB posts sequential reads up to 7,400 MB/s and writes up to \
                 6,500 MB/s\")",
    },
];

/// Vendor words some tools print before the model ("Hitachi HDT722525DLA380", "WDC
/// WD40EFRX-68N32N0", "Crucial_CT750MX300SSD1"): a row's prefix matches the model with or
/// without one of them, and without the "ATA" a SCSI layer puts first ("ATA ST4000DM000").
const VENDOR_WORDS: &[&str] = &[
    "HITACHI", "HGST", "WDC", "SEAGATE", "TOSHIBA", "SAMSUNG", "MAXTOR", "FUJITSU", "CRUCIAL_",
    "INTEL", "KINGSTON",
];

/// The rating of the drive whose reported model is `model`, when a row matches.
pub fn rating(model: &str) -> Option<&'static DriveRating> {
    let squeezed: String = model
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_uppercase();
    let scsi_vendor = model
        .trim_start()
        .strip_prefix("ATA")
        .is_some_and(|rest| rest.starts_with(char::is_whitespace));
    let squeezed = if scsi_vendor {
        &squeezed[3..]
    } else {
        &squeezed[..]
    };
    let bare = VENDOR_WORDS
        .iter()
        .find_map(|v| squeezed.strip_prefix(v))
        .unwrap_or(squeezed);
    DRIVES.iter().find(|r| {
        r.model_prefixes.iter().any(|p| {
            let p = p.to_ascii_uppercase();
            squeezed.starts_with(&p) || bare.starts_with(&p)
        })
    })
}

/// A row's sustained range for a sentence: "32.9-67.8" (inner to outer zone, or an SSD's
/// rating twice), or "up to 285.0" when the source states only the maximum.
pub(crate) fn zone_words((inner, outer): (Option<f64>, f64)) -> String {
    match inner {
        Some(i) => format!("{i:.1}-{outer:.1}"),
        None => format!("up to {outer:.1}"),
    }
}

#[cfg(test)]
mod tests;
