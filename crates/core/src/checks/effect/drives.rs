//! Rated sequential speeds of common drive models, one row per model family with the address
//! of the page that states them (the manufacturer's specification table, as printed in the
//! data sheet or quoted by a review), like smartmontools' drivedb.h keeps a source per entry.
//! A row is matched against the model string the drive reports (ATA IDENTIFY words 27-46,
//! NVMe Identify Controller MN, as smartctl, hdparm -i, camcontrol identify or a FreeBSD
//! attach line print it). The figures are the vendor's maxima: an HDD's sustained rate falls
//! from the outer zone to the inner one (zoned bit recording), so its row keeps both ends; an
//! SSD's row keeps the rated sequential read and write. A rate measured above a row's maximum
//! is not an error in the row: vendors round, and a run can be cache-assisted.

use crate::facts::DeviceClass;

/// One model family's rated sequential speeds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct DriveRating {
    /// Matched case-insensitively against the reported model, ignoring spaces.
    pub model_prefixes: &'static [&'static str],
    /// The family's name as its vendor markets it.
    pub family: &'static str,
    pub class: DeviceClass,
    /// Rated sequential read, MB/s: for an HDD the sustained rate at the inner zone (first)
    /// and the outer zone (second); for an SSD the rated read twice.
    pub read_mbps: (f64, f64),
    /// Rated sequential write, MB/s (an HDD writes at its zone's media rate, as it reads).
    pub write_mbps: (f64, f64),
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
        read_mbps: (32.9, 67.8),
        write_mbps: (32.9, 67.8),
        rand_iops_qd32: None,
        source: "https://techreport.com/review/8362/hitachi-deskstar-t7k250-hard-drive \
                 (Hitachi's specification table: sustained transfer rate 32.9-67.8 MB/s)",
    },
    DriveRating {
        model_prefixes: &["HDS722580", "HDS722512", "HDS722516", "HDS722525"],
        family: "Hitachi Deskstar 7K250",
        class: DeviceClass::Hdd,
        read_mbps: (29.7, 61.4),
        write_mbps: (29.7, 61.4),
        rand_iops_qd32: None,
        source: "https://techreport.com/review/8362/hitachi-deskstar-t7k250-hard-drive \
                 (the same table's 7K250 column: sustained transfer rate 29.7-61.4 MB/s)",
    },
    DriveRating {
        model_prefixes: &["HDS725050", "HDS724040"],
        family: "Hitachi Deskstar 7K500",
        class: DeviceClass::Hdd,
        read_mbps: (31.0, 64.8),
        write_mbps: (31.0, 64.8),
        rand_iops_qd32: None,
        source: "https://techreport.com/review/8752/hitachi-deskstar-7k500-hard-drive \
                 (Hitachi's specification table: sustained transfer rate 31-64.8 MB/s)",
    },
    DriveRating {
        model_prefixes: &["SamsungSSD870EVO"],
        family: "Samsung 870 EVO",
        class: DeviceClass::Ssd,
        read_mbps: (560.0, 560.0),
        write_mbps: (530.0, 530.0),
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
        read_mbps: (550.0, 550.0),
        write_mbps: (520.0, 520.0),
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
        read_mbps: (560.0, 560.0),
        write_mbps: (510.0, 510.0),
        rand_iops_qd32: None,
        source: "https://www.ocinside.de/review/crucial_mx500_1tb_ssd/2/ \
                 (the manufacturer's specification: read up to 560 MB/s, write up to 510 MB/s)",
    },
    DriveRating {
        model_prefixes: &["SamsungSSD980PRO1TB", "SamsungSSD980PRO500GB"],
        family: "Samsung 980 PRO (500 GB, 1 TB)",
        class: DeviceClass::Nvme,
        read_mbps: (7000.0, 7000.0),
        write_mbps: (5000.0, 5000.0),
        rand_iops_qd32: None,
        source: "https://www.pugetsystems.com/parts/Hard-Drive/Samsung-980-Pro-1TB-Gen4-M-2-SSD-13816/ \
                 (sequential read up to 7 GB/s, write up to 5 GB/s, PCIe 4.0 x4)",
    },
    DriveRating {
        model_prefixes: &["SamsungSSD980PRO2TB"],
        family: "Samsung 980 PRO (2 TB)",
        class: DeviceClass::Nvme,
        read_mbps: (7000.0, 7000.0),
        write_mbps: (5100.0, 5100.0),
        rand_iops_qd32: None,
        source: "https://www.pugetsystems.com/parts/Hard-Drive/Samsung-980-Pro-2TB-Gen4-M-2-SSD-13831/ \
                 (sequential read 7,000 MB/s, write 5,100 MB/s)",
    },
    DriveRating {
        model_prefixes: &["SamsungSSD970EVOPlus1TB"],
        family: "Samsung 970 EVO Plus (1 TB)",
        class: DeviceClass::Nvme,
        read_mbps: (3500.0, 3500.0),
        write_mbps: (3300.0, 3300.0),
        rand_iops_qd32: None,
        source: "https://www.pgrid.app/au/ssds/samsung-970-evo-plus-1000gb \
                 (sequential 3,500 MB/s read, 3,300 MB/s write, PCIe 3.0 x4)",
    },
    DriveRating {
        model_prefixes: &["SamsungSSD970EVOPlus500GB"],
        family: "Samsung 970 EVO Plus (500 GB)",
        class: DeviceClass::Nvme,
        read_mbps: (3500.0, 3500.0),
        write_mbps: (3200.0, 3200.0),
        rand_iops_qd32: None,
        source: "https://digit.in/reviews/general/samsung-970-evo-plus-nvme-m-2-ssd-250-gb-review-177943.html/amp \
                 (Samsung's specification table: 500 GB, sequential read 3500 MB/s, write 3200 MB/s)",
    },
    DriveRating {
        model_prefixes: &["SamsungSSD970PRO512GB"],
        family: "Samsung 970 PRO (512 GB)",
        class: DeviceClass::Nvme,
        read_mbps: (3500.0, 3500.0),
        write_mbps: (2300.0, 2300.0),
        rand_iops_qd32: None,
        source: "https://www.pugetsystems.com/parts/Hard-Drive/Samsung-970-Pro-512GB-M-2-SSD-12735/ \
                 (sequential read 3,500 MB/s, write 2,300 MB/s, PCIe 3.0 x4)",
    },
    DriveRating {
        model_prefixes: &["CT1000P3SSD8"],
        family: "Crucial P3 (1 TB)",
        class: DeviceClass::Nvme,
        read_mbps: (3500.0, 3500.0),
        write_mbps: (3000.0, 3000.0),
        rand_iops_qd32: None,
        source: "https://www.pgrid.app/au/ssds/crucial-p3-1000gb \
                 (sequential read 3500 MB/s, write 3000 MB/s, PCIe 3.0 x4)",
    },
    DriveRating {
        model_prefixes: &["ST24000NM002H", "ST24000NM007H", "ST24000NM005H"],
        family: "Seagate Exos X24 (24 TB)",
        class: DeviceClass::Hdd,
        read_mbps: (285.0, 285.0),
        write_mbps: (285.0, 285.0),
        rand_iops_qd32: None,
        source: "https://blocksandfiles.com/2023/10/18/seagate-pips-toshiba-and-wd-with-24tb-drive/ \
                 (maximum sustained data rate 285 MBps, the same as the X20); the inner-zone \
                 rate is not stated, so the row keeps the maximum at both ends",
    },
];

/// The rating of the drive whose reported model is `model`, when a row matches.
pub fn rating(model: &str) -> Option<&'static DriveRating> {
    let squeezed: String = model
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_uppercase();
    // A vendor prefix some tools print before the model ("Hitachi HDT722525DLA380").
    DRIVES.iter().find(|r| {
        r.model_prefixes.iter().any(|p| {
            let p = p.to_ascii_uppercase();
            squeezed.starts_with(&p)
                || squeezed
                    .strip_prefix("HITACHI")
                    .is_some_and(|rest| rest.starts_with(&p))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every row names where its figures come from, and its figures make sense: positive,
    /// inner zone not above outer, and no SATA drive rated above what a 6 Gb/s link carries.
    #[test]
    fn every_row_has_a_source_and_sane_figures() {
        for r in DRIVES {
            assert!(r.source.starts_with("https://"), "{}", r.family);
            assert!(!r.model_prefixes.is_empty(), "{}", r.family);
            for (lo, hi) in [r.read_mbps, r.write_mbps] {
                assert!(lo > 0.0 && lo <= hi, "{}: {lo} {hi}", r.family);
            }
            if r.class != DeviceClass::Nvme {
                assert!(r.read_mbps.1 <= 600.0, "{}", r.family);
            }
            // Random ratings are positive, and a SATA drive's fit in what a 6 Gb/s link
            // carries in 4 KiB transfers (600 MB/s / 4096 bytes: 146,484 a second).
            if let Some((rd, wr)) = r.rand_iops_qd32 {
                assert!(rd > 0.0 && wr > 0.0, "{}", r.family);
                if r.class != DeviceClass::Nvme {
                    assert!(rd.max(wr) <= 600e6 / 4096.0, "{}", r.family);
                }
            }
        }
    }

    #[test]
    fn models_as_drives_report_them_match() {
        let t = rating("HDT722525DLA380").expect("T7K250");
        assert_eq!(t.read_mbps.1, 67.8);
        assert_eq!(
            rating("Hitachi HDT722525DLA380").map(|r| r.family),
            Some("Hitachi Deskstar T7K250")
        );
        assert_eq!(
            rating("Samsung SSD 870 EVO 1TB").map(|r| r.family),
            Some("Samsung 870 EVO")
        );
        assert_eq!(
            rating("CT1000MX500SSD1").map(|r| r.write_mbps.1),
            Some(510.0)
        );
        assert_eq!(
            rating("Samsung SSD 970 EVO Plus 1TB").map(|r| r.write_mbps.1),
            Some(3300.0)
        );
        assert_eq!(
            rating("Samsung SSD 860 EVO 500GB").and_then(|r| r.rand_iops_qd32),
            Some((98_000.0, 90_000.0))
        );
        assert!(rating("SAMSUNG SP2004C").is_none());
        assert!(rating("").is_none());
    }
}
