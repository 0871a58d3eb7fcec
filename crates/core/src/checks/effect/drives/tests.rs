use super::*;

/// Every row names where its figures come from, and its figures make sense: positive,
/// inner zone not above outer, and no SATA drive rated above what a 6 Gb/s link carries.
#[test]
fn every_row_has_a_source_and_sane_figures() {
    for r in DRIVES {
        assert!(
            r.source.starts_with("https://") || r.source.starts_with("http://"),
            "{}",
            r.family
        );
        assert!(!r.model_prefixes.is_empty(), "{}", r.family);
        for (lo, hi) in [r.read_mbps, r.write_mbps] {
            assert!(hi > 0.0, "{}: {hi}", r.family);
            if let Some(lo) = lo {
                assert!(lo > 0.0 && lo <= hi, "{}: {lo} {hi}", r.family);
            }
            // Only an HDD has zones: an SSD's row states its rating at both ends.
            if r.class != DeviceClass::Hdd {
                assert_eq!(lo, Some(hi), "{}", r.family);
            }
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

/// Model strings as real outputs print them (smartctl "Device Model:" / "Model Number:",
/// hdparm -i "Model=", libata "ATA-8: MODEL", FreeBSD "adaN: <MODEL FW>"), one or more per
/// row, from the fixtures the table's rows were chosen by (tests/fixtures, corpus-reviewed),
/// with the family each must match.
const REPORTED: &[(&str, &str)] = &[
    ("HDT722525DLA380", "Hitachi Deskstar T7K250"),
    ("HDS722516VLSA80", "Hitachi Deskstar 7K250"),
    ("HDS725050KLA360", "Hitachi Deskstar 7K500"),
    ("Samsung SSD 870 EVO 1TB", "Samsung 870 EVO"),
    ("Samsung SSD 860 EVO 500GB", "Samsung 860 EVO"),
    ("CT1000MX500SSD1", "Crucial MX500"),
    ("Samsung SSD 980 PRO 1TB", "Samsung 980 PRO (500 GB, 1 TB)"),
    ("Samsung SSD 980 PRO 2TB", "Samsung 980 PRO (2 TB)"),
    (
        "Samsung SSD 970 EVO Plus 1TB",
        "Samsung 970 EVO Plus (1 TB)",
    ),
    (
        "Samsung SSD 970 EVO Plus 500GB",
        "Samsung 970 EVO Plus (500 GB)",
    ),
    ("Samsung SSD 970 PRO 512GB", "Samsung 970 PRO (512 GB)"),
    ("CT1000P3SSD8", "Crucial P3 (1 TB)"),
    ("ST24000NM002H-3KS133", "Seagate Exos X24 (24 TB)"),
    (
        "ST3000DM001-9YN166",
        "Seagate Barracuda 7200.14 (750 GB to 3 TB)",
    ),
    (
        "ST2000DM001-1CH164",
        "Seagate Barracuda 7200.14 (750 GB to 3 TB)",
    ),
    (
        "ST500DM002-1BD142",
        "Seagate Barracuda 7200.14 (250 to 500 GB, one platter)",
    ),
    ("ST4000DM000-1F2168", "Seagate Desktop HDD.15 (4 TB)"),
    ("ST18000NM000J-2TV103", "Seagate Exos X18 (18 TB)"),
    ("Samsung SSD 860 QVO 1TB", "Samsung 860 QVO (1 TB)"),
    ("Samsung SSD 870 QVO 4TB", "Samsung 870 QVO (1, 4 and 8 TB)"),
    ("Samsung SSD 870 QVO 8TB", "Samsung 870 QVO (1, 4 and 8 TB)"),
    ("Samsung SSD 840 EVO 120GB", "Samsung 840 EVO (120 GB)"),
    (
        "Samsung SSD 840 EVO 250GB",
        "Samsung 840 EVO (250 GB to 1 TB)",
    ),
    ("Crucial_CT750MX300SSD1", "Crucial MX300 (750 GB)"),
    ("OCZ-AGILITY3", "OCZ Agility 3"),
    ("Samsung SSD 960 PRO 512GB", "Samsung 960 PRO"),
    ("WD_BLACK SN850X 2000GB", "WD_BLACK SN850X (2 and 4 TB)"),
    ("WD_BLACK SN850X 1000GB", "WD_BLACK SN850X (1 TB)"),
    ("WD_BLACK SN770 2TB", "WD_BLACK SN770 (2 TB)"),
    ("WD_BLACK SN770 1TB", "WD_BLACK SN770 (1 TB)"),
    ("INTEL SSDPEKKW256G7", "Intel SSD 600p (256 GB)"),
    ("WDC WDS100T2B0C-00PXH0", "WD Blue SN550 (1 TB)"),
    ("WD Blue SN570 250GB", "WD Blue SN570 (250 GB)"),
    ("CT2000P5PSSD8", "Crucial P5 Plus (2 TB)"),
    (
        "INTEL SSDSA1MH080G1GN",
        "Intel X18-M / X25-M (first generation, 80 and 160 GB)",
    ),
    ("CT240BX200SSD1", "Crucial BX200"),
    ("Lexar SSD NM790 4TB", "Lexar NM790 (4 TB)"),
];

/// Every row is matched by a model string a drive of its family reports, and each such
/// string finds its own row (no earlier row's prefix takes it); no prefix appears twice.
#[test]
fn every_row_matches_a_reported_model() {
    for (model, family) in REPORTED {
        assert_eq!(rating(model).map(|r| r.family), Some(*family), "{model}");
    }
    for r in DRIVES {
        assert!(
            REPORTED.iter().any(|(_, f)| *f == r.family),
            "no reported model string for {}",
            r.family
        );
    }
    let mut seen = std::collections::BTreeSet::new();
    for r in DRIVES {
        for p in r.model_prefixes {
            assert!(seen.insert(p.to_ascii_uppercase()), "prefix {p} twice");
            // A prefix is written as rating() compares it: no spaces.
            assert!(!p.contains(' '), "{p}");
        }
    }
    // Families are unique, so a family names one row.
    let families: std::collections::BTreeSet<_> = DRIVES.iter().map(|r| r.family).collect();
    assert_eq!(families.len(), DRIVES.len());
}

/// An HDD row whose source states only the maximum has no inner-zone figure, and the
/// sentence says "up to".
#[test]
fn a_maximum_only_hdd_row_says_up_to() {
    let r = rating("ST4000DM000-1F2168").expect("Desktop HDD.15");
    assert_eq!(r.read_mbps, (None, 180.0));
    assert_eq!(zone_words(r.read_mbps), "up to 180.0");
    let t = rating("HDT722525DLA380").expect("T7K250");
    assert_eq!(zone_words(t.read_mbps), "32.9-67.8");
    // Vendor words before the model, as a SCSI layer or hdparm prints them.
    assert_eq!(
        rating("ATA ST4000DM000-1F2168").map(|r| r.family),
        Some("Seagate Desktop HDD.15 (4 TB)")
    );
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
