//! Every FreeBSD fixture (tests/fixtures/freebsd) and the FreeBSD text embedded in the seed
//! threads (tests/fixtures/seeds) through its parser, with exact asserts on the values
//! tests/fixtures/INDEX.md labels each file with.

use diskdoc_core::sources::{
    camcontrol_devlist, camcontrol_identify, diskinfo, dmesg, geli, geom_disk, gpart_list,
    gpart_show, pciconf, sysctl, zpool,
};

fn fx(rel: &str) -> String {
    let p = format!("{}/tests/fixtures/{rel}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p}: {e}"))
}

/// The text between the line containing `start` (exclusive) and the next line containing
/// `end` (exclusive), from the `nth` occurrence of `start`.
fn section(text: &str, start: &str, nth: usize, end: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let begin = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.contains(start))
        .nth(nth)
        .map(|(i, _)| i + 1)
        .unwrap_or_else(|| panic!("marker {start:?} #{nth} not found"));
    let stop = lines
        .iter()
        .enumerate()
        .skip(begin)
        .find(|(_, l)| l.contains(end))
        .map(|(i, _)| i)
        .unwrap_or(lines.len());
    lines[begin..stop].join("\n")
}

fn seed(n: &str) -> String {
    let dir = format!("{}/tests/fixtures/seeds", env!("CARGO_MANIFEST_DIR"));
    let name = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .find(|f| f.starts_with(n))
        .unwrap();
    fx(&format!("seeds/{name}"))
}

// ---------------------------------------------------------------- camcontrol identify

#[test]
fn identify_corsair_legacy_ata_channel() {
    let id = camcontrol_identify::parse(&fx(
        "freebsd/camcontrol-identify/ata-legacy-mode-corsair-force-le-ssd-ada0.txt",
    ));
    assert!(!id.atacontrol_layout);
    assert_eq!(id.periph.as_deref(), Some("pass0"));
    assert_eq!(id.inquiry.as_deref(), Some("Corsair Force LE SSD SAFC12.2"));
    assert_eq!(id.header_standard.as_deref(), Some("ACS-2 ATA SATA 3.x"));
    assert_eq!(id.transfer_mbps, Some(600.0));
    assert_eq!(
        id.transfer_detail.as_deref(),
        Some("SATA 3.x, UDMA5, PIO 8192bytes")
    );
    // No "Command Queueing Enabled": NCQ not in use on the legacy channel.
    assert!(!id.command_queueing_enabled);
    assert_eq!(id.protocol.as_deref(), Some("ATA/ATAPI-9 SATA 3.x"));
    assert_eq!(id.model.as_deref(), Some("Corsair Force LE SSD"));
    assert_eq!(id.firmware.as_deref(), Some("SAFC12.2"));
    assert_eq!(id.serial.as_deref(), Some("1631801900010416034F"));
    assert_eq!(id.wwn, None, "fixture has no WWN line");
    assert_eq!(id.logical_sector_bytes, Some(512));
    assert_eq!(id.physical_sector_bytes, Some(512));
    assert_eq!(id.lba48_sectors, Some(468862128));
    assert_eq!(id.rotation_rpm, Some(0), "non-rotating");
    assert_eq!(id.drive_max_gbps(), Some(6.0));
    assert_eq!(id.link_current_gbps(), Some(6.0));
    let wc = id.write_cache().unwrap();
    assert_eq!((wc.supported, wc.enabled), (Some(true), Some(true)));
    let ra = id.feature("read ahead").unwrap();
    assert_eq!((ra.supported, ra.enabled), (Some(true), Some(true)));
    let ncq = id.ncq().unwrap();
    assert_eq!(ncq.supported, Some(true));
    assert_eq!(ncq.enabled, None, "tab-separated empty Enabled column");
    assert_eq!(id.ncq_depth(), Some(32));
    let apm = id.feature("advanced power management").unwrap();
    assert_eq!(apm.value.as_deref(), Some("254/0xFE"));
    assert_eq!(id.trim(), Some(true));
    assert_eq!(
        id.feature("DSM - max 512byte blocks")
            .unwrap()
            .value
            .as_deref(),
        Some("8")
    );
    assert_eq!(
        id.feature("DSM - deterministic read")
            .unwrap()
            .value
            .as_deref(),
        Some("zeroed")
    );
    let hpa = id.feature("Host Protected Area").unwrap();
    assert_eq!((hpa.supported, hpa.enabled), (Some(true), Some(false)));
    assert_eq!(hpa.value.as_deref(), Some("468862128/468862128"));
}

#[test]
fn identify_intel_dcs3700_behind_mpr_tabs_expanded() {
    let id = camcontrol_identify::parse(&fx(
        "freebsd/camcontrol-identify/sata-ssd-intel-dcs3700-behind-mpr-sas3008-da11.txt",
    ));
    assert_eq!(id.periph.as_deref(), Some("pass11"));
    assert_eq!(id.transfer_mbps, Some(600.0));
    assert_eq!(
        id.transfer_detail, None,
        "no SATA-gen detail behind a SAS HBA"
    );
    assert!(id.command_queueing_enabled);
    assert_eq!(id.model.as_deref(), Some("INTEL SSDSC2BA800G3"));
    assert_eq!(id.firmware.as_deref(), Some("5DV10270"));
    assert_eq!(id.wwn.as_deref(), Some("55cd2e404b738727"));
    assert_eq!(id.logical_sector_bytes, Some(512));
    assert_eq!(id.physical_sector_bytes, Some(4096), "512e");
    assert_eq!(id.sector_offset_bytes, Some(0));
    assert_eq!(id.lba48_sectors, Some(1562824368));
    assert_eq!(id.rotation_rpm, Some(0));
    assert_eq!(id.drive_max_gbps(), Some(6.0));
    let wc = id.write_cache().unwrap();
    assert_eq!((wc.supported, wc.enabled), (Some(true), Some(true)));
    let ncq = id.ncq().unwrap();
    assert_eq!((ncq.supported, ncq.enabled), (Some(true), None));
    assert_eq!(id.ncq_depth(), Some(32));
    let tcq = id.feature("Tagged Command Queuing").unwrap();
    assert_eq!((tcq.supported, tcq.enabled), (Some(false), Some(false)));
    assert_eq!(
        id.feature("advanced power management").unwrap().supported,
        Some(false)
    );
    assert_eq!(id.trim(), Some(true));
    assert_eq!(
        id.feature("DSM - max 512byte blocks")
            .unwrap()
            .value
            .as_deref(),
        Some("6")
    );
    // The trailing shell prompt line must not become a feature.
    assert!(id.features.iter().all(|f| !f.name.contains("root@")));
}

#[test]
fn identify_seed000_laptop_st9320423as() {
    let s = seed("000");
    let text = section(&s, "Output of camcontrol identify ada0:", 0, "results:");
    let id = camcontrol_identify::parse(&text);
    assert_eq!(id.inquiry.as_deref(), Some("ST9320423AS 0002SDM1"));
    assert_eq!(id.header_standard.as_deref(), Some("ATA-8 SATA 2.x"));
    assert_eq!(id.transfer_mbps, Some(300.0));
    assert_eq!(id.link_current_gbps(), Some(3.0));
    assert!(!id.command_queueing_enabled);
    assert_eq!(id.protocol.as_deref(), Some("ATA/ATAPI-8 SATA 2.x"));
    assert_eq!(id.drive_max_gbps(), Some(3.0));
    assert_eq!(id.model.as_deref(), Some("ST9320423AS"));
    assert_eq!(id.serial.as_deref(), Some("5VH0322Y"));
    assert_eq!(id.wwn.as_deref(), Some("5000c50017f4f8d9"));
    assert_eq!(id.lba48_sectors, Some(625142448));
    assert_eq!(id.rotation_rpm, Some(7200));
    let wc = id.write_cache().unwrap();
    assert_eq!((wc.supported, wc.enabled), (Some(true), Some(true)));
    assert_eq!(id.ncq_depth(), Some(32));
    let aam = id.feature("automatic acoustic management").unwrap();
    assert_eq!(aam.value.as_deref(), Some("208/0xD0"));
    assert_eq!(aam.vendor.as_deref(), Some("208/0xD0"));
    assert_eq!(id.trim(), Some(false));
}

#[test]
fn identify_seed002_wd4002fyyz_header_and_keys_only() {
    let s = seed("002");
    let text = section(
        &s,
        "According to camcontrol identify ada0:",
        0,
        "The test on the HDD:",
    );
    let id = camcontrol_identify::parse(&text);
    assert_eq!(
        id.inquiry.as_deref(),
        Some("WDC WD4002FYYZ-01B7CB1 01.01M03")
    );
    assert_eq!(id.transfer_mbps, Some(600.0));
    assert_eq!(id.link_current_gbps(), Some(6.0));
    assert_eq!(id.drive_max_gbps(), Some(6.0));
    assert_eq!(id.model.as_deref(), Some("WDC WD4002FYYZ-01B7CB1"));
    assert_eq!(
        id.serial.as_deref(),
        Some("********"),
        "redacted in the seed"
    );
    assert_eq!(id.lba48_sectors, Some(7814037168));
    assert_eq!(id.rotation_rpm, Some(7200));
    assert!(id.features.is_empty(), "the seed shows no feature table");
}

#[test]
fn atacontrol_cap_seed000_both_captures() {
    let s = seed("000");
    let on =
        camcontrol_identify::parse(&section(&s, "Output of atacontrol cap ad4:", 0, "results:"));
    assert!(on.atacontrol_layout);
    assert_eq!(on.protocol.as_deref(), Some("SATA revision 2.x"));
    assert_eq!(on.drive_max_gbps(), Some(3.0));
    assert_eq!(on.model.as_deref(), Some("WDC WD5001ABYS-01YNA0"));
    assert_eq!(on.serial.as_deref(), Some("WD-WCAS87154115"));
    assert_eq!(on.firmware.as_deref(), Some("59.01D01"));
    assert_eq!(on.lba48_sectors, Some(976773168));
    let wc = on.write_cache().unwrap();
    assert_eq!((wc.supported, wc.enabled), (Some(true), Some(true)));
    let ncq = on.ncq().unwrap();
    assert_eq!(
        (ncq.supported, ncq.enabled),
        (Some(true), None),
        "'-' Enable column"
    );
    assert_eq!(ncq.value.as_deref(), Some("31/0x1F"));
    assert_eq!(on.ncq_depth(), Some(32), "word 75 holds depth - 1");
    let aam = on.feature("automatic acoustic management").unwrap();
    assert_eq!(
        (aam.value.as_deref(), aam.vendor.as_deref()),
        (Some("254/0xFE"), Some("128/0x80"))
    );

    // After hw.ata.wc="0": a truncated capture ("...") that still shows the cache row.
    let off = camcontrol_identify::parse(&section(
        &s,
        "The write caching was disabled",
        0,
        "results:",
    ));
    assert!(off.atacontrol_layout);
    assert_eq!(off.model.as_deref(), Some("WDC WD5001ABYS-01YNA0"));
    let wc = off.write_cache().unwrap();
    assert_eq!((wc.supported, wc.enabled), (Some(true), Some(false)));
    assert!(off.ncq().is_none(), "truncated before the NCQ row");
}

#[test]
fn atacontrol_cap_seed001_quoted_and_collapsed() {
    let s = seed("001");
    // Quoted ("> ") with single spaces: ST3400833NS on ICH5.
    let q = camcontrol_identify::parse(&section(&s, "[ns4]# atacontrol cap ad4", 0, "[ns4]#"));
    assert!(q.atacontrol_layout);
    assert_eq!(q.protocol.as_deref(), Some("Serial ATA II"));
    assert_eq!(q.drive_max_gbps(), None, "\"Serial ATA II\" names no speed");
    assert_eq!(q.model.as_deref(), Some("ST3400833NS"));
    assert_eq!(q.serial.as_deref(), Some("5NF25DTG"));
    assert_eq!(q.firmware.as_deref(), Some("3.AEH"));
    assert_eq!(q.lba48_sectors, Some(781422768));
    let wc = q.write_cache().unwrap();
    assert_eq!((wc.supported, wc.enabled), (Some(true), Some(true)));
    assert_eq!(q.ncq_depth(), Some(32));
    let apm = q.feature("advanced power management").unwrap();
    assert_eq!((apm.supported, apm.enabled), (Some(false), Some(false)));
    assert_eq!(apm.value.as_deref(), Some("65278/0xFEFE"));

    // Box A, three disks; ad8 is the SAMSUNG SP2004C.
    let ad8 = camcontrol_identify::parse(&section(
        &s,
        "thor# atacontrol cap ad8",
        0,
        "The dmesg portion",
    ));
    assert_eq!(ad8.model.as_deref(), Some("SAMSUNG SP2004C"));
    assert_eq!(ad8.lba48_sectors, Some(390721968));
    assert_eq!(ad8.ncq().unwrap().supported, Some(true));
    let aam = ad8.feature("automatic acoustic management").unwrap();
    assert_eq!((aam.supported, aam.enabled), (Some(true), Some(false)));
    assert_eq!(
        (aam.value.as_deref(), aam.vendor.as_deref()),
        (Some("0/0x00"), Some("254/0xFE"))
    );

    // The FreeBSD 6.2 lab box: Hitachi HDT725025VLA380.
    let lab =
        camcontrol_identify::parse(&section(&s, "atacontrol cap ad4", 2, "atacontrol cap ad6"));
    assert_eq!(lab.model.as_deref(), Some("Hitachi HDT725025VLA380"));
    assert_eq!(lab.serial.as_deref(), Some("VFA100R1CD9VBA"));
    assert_eq!(lab.write_cache().unwrap().enabled, Some(true));
}

// ---------------------------------------------------------------- camcontrol devlist

#[test]
fn devlist_fixtures() {
    let d = camcontrol_devlist::parse(&fx(
        "freebsd/camcontrol-devlist/fbsd10-sas-seagate-da-plus-ahci-intel-ssd-ses.txt",
    ));
    assert_eq!(d.devices.len(), 7);
    let da0 = d.device("da0").unwrap();
    assert_eq!(da0.inquiry, "SEAGATE ST2000NM0023 0004");
    assert_eq!((da0.scbus, da0.target), (Some(0), Some(2)));
    assert_eq!(da0.periphs, vec!["pass0", "da0"]);
    let ada1 = d.device("ada1").unwrap();
    assert_eq!(ada1.scbus, Some(2));
    assert_eq!(ada1.periphs, vec!["ada1", "pass5"], "periph order varies");
    assert_eq!(ada1.disk(), Some("ada1"));
    let ses = d.device("ses0").unwrap();
    assert_eq!(
        (ses.inquiry.as_str(), ses.scbus, ses.disk()),
        ("AHCI SGPIO Enclosure 1.00 0001", Some(7), None)
    );
    let disks: Vec<&str> = d.devices.iter().filter_map(|x| x.disk()).collect();
    assert_eq!(disks, vec!["da0", "da1", "da2", "da3", "ada0", "ada1"]);

    let l = camcontrol_devlist::parse(&fx(
        "freebsd/camcontrol-devlist/laptop-single-samsung-860evo-msata.txt",
    ));
    assert_eq!(l.devices.len(), 1);
    assert_eq!(
        l.devices[0].inquiry,
        "Samsung SSD 860 EVO mSATA 1TB RVT41B6Q"
    );
    assert_eq!(
        (l.devices[0].scbus, l.devices[0].target),
        (Some(1), Some(0))
    );
    assert_eq!(l.devices[0].disk(), Some("ada0"));

    let m = camcontrol_devlist::parse(&fx(
        "freebsd/camcontrol-devlist/mpr-90-sata-toshiba-ses-sorted-angle-brackets-mangled-to-parens.txt",
    ));
    let toshiba = m
        .devices
        .iter()
        .filter(|x| x.inquiry == "ATA TOSHIBA MG07ACA1 0101")
        .count();
    let intel: Vec<&str> = m
        .devices
        .iter()
        .filter(|x| x.inquiry == "ATA INTEL SSDSC2KB24 0100")
        .filter_map(|x| x.disk())
        .collect();
    let tyan = m
        .devices
        .iter()
        .filter(|x| x.inquiry == "Tyan B7118 0500")
        .count();
    assert_eq!((toshiba, tyan), (90, 3));
    assert_eq!(intel, vec!["da11", "da91"]);
    assert!(m.device("da0").unwrap().vendor_is_ata());
    assert_eq!(m.device("da43").unwrap().periphs, vec!["da43", "pass45"]);
    assert_eq!(
        m.device("ses0").unwrap().inquiry,
        "AHCI SGPIO Enclosure 1.00 0001"
    );
    assert_eq!(m.device("da64").unwrap().scbus, Some(4));

    let u = camcontrol_devlist::parse(&fx(
        "freebsd/camcontrol-devlist/pfsense2.3-usb-card-reader-only.txt",
    ));
    assert_eq!(u.devices.len(), 1);
    assert_eq!(
        u.devices[0].inquiry, "Multiple Card  Reader 1.00",
        "double space kept"
    );
    assert_eq!(
        (u.devices[0].scbus, u.devices[0].disk()),
        (Some(6), Some("da0"))
    );
}

#[test]
fn devlist_verbose_bus_lines_name_the_sim() {
    // `camcontrol devlist -v` layout (camcontrol(8)): a "scbusN on SIM bus M:" line before
    // each bus's devices.
    let t = "scbus0 on ahcich0 bus 0:\n<ST9320423AS 0002SDM1>             at scbus0 target 0 lun 0 (ada0,pass0)\n<>                                 at scbus0 target -1 lun ffffffff ()\nscbus1 on ata2 bus 0:\n<WDC WD5001ABYS-01YNA0 59.01D01>   at scbus1 target 0 lun 0 (pass1,ada1)\nscbus2 on mps0 bus 0:\n<ATA TOSHIBA DT01ACA3 ABB0>        at scbus2 target 4 lun 0 (pass2,da0)\nscbus3 on umass-sim0 bus 0:\n<Multiple Card  Reader 1.00>       at scbus3 target 0 lun 0 (pass3,da1)\nscbus-1 on xpt0 bus 0:\n<>                                 at scbus-1 target -1 lun ffffffff (xpt0)\n";
    let d = camcontrol_devlist::parse(t);
    assert_eq!(d.buses.len(), 5);
    assert_eq!(d.sim_for("ada0"), Some("ahcich0"));
    assert_eq!(d.sim_for("ada1"), Some("ata2"));
    assert_eq!(d.sim_for("da0"), Some("mps0"));
    assert_eq!(d.sim_for("da1"), Some("umass-sim0"));
    assert_eq!(d.buses.last().map(|b| b.scbus), Some(-1));
}

// ---------------------------------------------------------------- diskinfo

#[test]
fn diskinfo_ctv_hgst_sas() {
    let d = diskinfo::parse(&fx(
        "freebsd/diskinfo/ctv-fbsd12-sas-hgst-he12-12tb-da1-enclosure-physpath.txt",
    ));
    assert_eq!(d.device.as_deref(), Some("/dev/da1"));
    assert_eq!(d.sector_size, Some(512));
    assert_eq!(d.media_bytes, Some(12000138625024));
    assert_eq!(d.media_sectors, Some(23437770752));
    assert_eq!((d.stripe_size, d.stripe_offset), (Some(4096), Some(0)));
    assert_eq!(d.descr.as_deref(), Some("HGST HUH721212AL5200"));
    assert_eq!(d.ident.as_deref(), Some("8HKX1R0H"));
    assert!(
        d.physical_path
            .as_deref()
            .unwrap()
            .contains("elmdesc@SLOT_01")
    );
    assert_eq!(d.trim, Some(false));
    assert_eq!(d.rotation_rpm, Some(7200));
    assert_eq!(d.zone_mode.as_deref(), Some("Not_Zoned"));
    assert_eq!(d.command_overhead_ms, Some(0.058));
    let seeks: Vec<f64> = d.seeks_ms.iter().map(|x| x.1).collect();
    assert_eq!(seeks[..5], [18.365, 13.708, 11.185, 4.443, 5.071]);
    let xfer: Vec<f64> = d.transfers_kbps.iter().map(|x| x.1).collect();
    assert_eq!(xfer, vec![233191.0, 197291.0, 124918.0]);
}

#[test]
fn diskinfo_t_pfsense_usb_sdcard_slice() {
    let d = diskinfo::parse(&fx(
        "freebsd/diskinfo/t-pfsense2.3-usb-sdcard-da0s1a-34MBps.txt",
    ));
    assert_eq!(d.device.as_deref(), Some("/dev/da0s1a"));
    assert_eq!(d.sector_size, Some(512));
    assert_eq!(d.media_bytes, Some(11842991616));
    assert_eq!(d.media_sectors, Some(23130843));
    assert_eq!(d.stripe_size, Some(0));
    // 40448 bytes = 79 sectors = slice at 63 + label offset 16: not 4K aligned.
    assert_eq!(d.stripe_offset, Some(40448));
    assert_eq!(d.stripe_offset.unwrap() / 512, 79);
    assert_eq!(d.ident.as_deref(), Some("058F63666485"));
    assert_eq!(d.zone_mode, None);
    assert!(
        d.seeks_ms.iter().all(|(_, ms)| *ms < 1.0),
        "flash: no mechanical seek"
    );
    let xfer: Vec<f64> = d.transfers_kbps.iter().map(|x| x.1).collect();
    assert_eq!(xfer, vec![34729.0, 33734.0, 33947.0]);
}

#[test]
fn diskinfo_t_wd40efrx_spaces_not_tabs() {
    let d = diskinfo::parse(&fx(
        "freebsd/diskinfo/t-wd40efrx-5400-via-enclosure-devname-placeholder-adaX.txt",
    ));
    assert_eq!(d.device.as_deref(), Some("/dev/adaX"));
    assert_eq!(
        (d.sector_size, d.stripe_size, d.stripe_offset),
        (Some(512), Some(4096), Some(0))
    );
    assert_eq!(d.media_bytes, Some(4000787030016));
    assert_eq!(d.descr.as_deref(), Some("WDC WD40EFRX-68N32N0"));
    assert_eq!(d.ident.as_deref(), Some("WD-WCC7K4KPPRL7"));
    assert_eq!(d.trim, Some(false));
    assert_eq!(d.rotation_rpm, Some(5400));
    assert_eq!(
        d.seeks_ms.first(),
        Some(&("Full stroke".to_string(), 69.404))
    );
    assert_eq!(
        d.seeks_ms.get(3),
        Some(&("Short forward".to_string(), 25.189))
    );
    let xfer: Vec<f64> = d.transfers_kbps.iter().map(|x| x.1).collect();
    assert_eq!(xfer, vec![53785.0, 56529.0, 38255.0]);
}

#[test]
fn diskinfo_v_variants() {
    let eli = diskinfo::parse(&fx("freebsd/diskinfo/v-ada0p4-eli-geli-4k-sector.txt"));
    assert_eq!(eli.device, None, "device line absent");
    assert_eq!(eli.sector_size, Some(4096));
    assert_eq!(eli.media_bytes, Some(229318324224));
    assert_eq!(eli.media_sectors, Some(55985919));
    assert_eq!((eli.stripe_size, eli.stripe_offset), (Some(0), Some(0)));

    let p4 = diskinfo::parse(&fx(
        "freebsd/diskinfo/v-ada0p4-partition-no-header-line.txt",
    ));
    assert_eq!(p4.device, None);
    assert_eq!(p4.media_bytes, Some(229318328320));
    assert_eq!(p4.media_sectors, Some(447887360));
    assert_eq!(p4.stripe_offset, Some(2148532224));
    assert_eq!(p4.stripe_offset.unwrap() / 512, 4196352, "partition LBA");
    assert_eq!(p4.ident.as_deref(), Some("1631801900010416034F"));

    let m1 = diskinfo::parse(&fx(
        "freebsd/diskinfo/v-ada1p1-gpt-1m-aligned-partition.txt",
    ));
    assert_eq!(m1.device.as_deref(), Some("/dev/ada1p1"));
    assert_eq!((m1.stripe_size, m1.stripe_offset), (Some(4096), Some(0)));
    assert_eq!(m1.media_bytes, Some(240055746560));
    assert_eq!(m1.media_sectors, Some(468858880));

    let k4 = diskinfo::parse(&fx(
        "freebsd/diskinfo/v-ada1p1-gpt-4k-aligned-partition.txt",
    ));
    assert_eq!(
        (k4.sector_size, k4.stripe_size, k4.stripe_offset),
        (Some(512), Some(4096), Some(0))
    );
    assert_eq!(k4.media_bytes, Some(240057364480));
    assert_eq!(k4.media_sectors, Some(468862040));

    let c = diskinfo::parse(&fx("freebsd/diskinfo/v-corsair-ssd-ada0-whole-disk.txt"));
    assert_eq!(c.device.as_deref(), Some("/dev/ada0"));
    assert_eq!(c.media_bytes, Some(240057409536));
    assert_eq!(c.media_sectors, Some(468862128));
    assert_eq!((c.stripe_size, c.stripe_offset), (Some(0), Some(0)));
    assert_eq!(
        (c.fw_cylinders, c.fw_heads, c.fw_sectors),
        (Some(465141), Some(16), Some(63))
    );
    assert_eq!(c.ident.as_deref(), Some("1631801900010416034F"));
    assert_eq!(c.zone_mode.as_deref(), Some("Not_Zoned"));
    assert_eq!(
        (c.descr.clone(), c.rotation_rpm, c.trim),
        (None, None, None)
    );

    let i = diskinfo::parse(&fx(
        "freebsd/diskinfo/v-intel-ssd-ada1-stripesize-4096-quirk.txt",
    ));
    assert_eq!(i.device.as_deref(), Some("/dev/ada1"));
    assert_eq!(i.ident.as_deref(), Some("CVDA615500SP2403GN"));
    assert_eq!(
        (i.sector_size, i.stripe_size, i.stripe_offset),
        (Some(512), Some(4096), Some(0))
    );
    assert_eq!(i.media_bytes, Some(240057409536));
}

#[test]
fn diskinfo_seed003_collapsed_into_one_line() {
    let s = seed("003");
    let line = s
        .lines()
        .find(|l| l.contains("# diskinfo -tv /dev/da0"))
        .unwrap();
    let d = diskinfo::parse(line);
    assert_eq!(d.device.as_deref(), Some("/dev/da0"));
    assert_eq!(d.sector_size, Some(512));
    assert_eq!(d.media_bytes, Some(3000592982016));
    assert_eq!(d.media_sectors, Some(5860533168));
    assert_eq!((d.stripe_size, d.stripe_offset), (Some(4096), Some(0)));
    assert_eq!(
        (d.fw_cylinders, d.fw_heads, d.fw_sectors),
        (Some(364801), Some(255), Some(63))
    );
    assert_eq!(d.ident.as_deref(), Some("Z2T5TSSAS"));
    let seeks: Vec<f64> = d.seeks_ms.iter().map(|x| x.1).collect();
    assert_eq!(
        seeks,
        vec![25.209, 17.582, 14.482, 4.998, 5.847, 0.080, 0.084]
    );
    let xfer: Vec<f64> = d.transfers_kbps.iter().map(|x| x.1).collect();
    assert_eq!(xfer, vec![176414.0, 156931.0, 93218.0]);
}

// ---------------------------------------------------------------- gpart show

fn starts(b: &gpart_show::Block) -> Vec<u64> {
    b.partitions().map(|e| e.start).collect()
}

#[test]
fn gpart_show_fixtures() {
    let t = gpart_show::parse(&fx(
        "freebsd/gpart-show/12tb-gpt-partition-with-1g-tail-free.txt",
    ));
    assert_eq!(t.len(), 1);
    assert_eq!(
        (t[0].geom.as_str(), t[0].scheme.as_str(), t[0].first),
        ("da64", "GPT", 40)
    );
    assert_eq!(starts(&t[0]), vec![40]);
    assert_eq!(t[0].entries[0].size, 23435673600);
    assert_eq!(t[0].entries[0].type_name.as_deref(), Some("freebsd-zfs"));
    assert!(t[0].entries[1].free && t[0].entries[1].size == 2097072);

    let c = gpart_show::parse(&fx(
        "freebsd/gpart-show/fbsd9-mbr-ntfs-whitespace-collapsed-by-blog.txt",
    ));
    assert_eq!((c[0].scheme.as_str(), c[0].first), ("MBR", 63));
    assert!(c[0].entries[0].free && c[0].entries[0].start == 63 && c[0].entries[0].size == 1985);
    assert_eq!(starts(&c[0]), vec![2048]);
    let p = c[0].partitions().next().unwrap();
    assert_eq!(
        (p.size, p.type_name.as_deref(), p.provider.as_deref()),
        (15631360, Some("ntfs"), Some("da0s1"))
    );

    let h = gpart_show::parse(&fx(
        "freebsd/gpart-show/handbook-gpt-corrupt-after-disk-grow-ufs-at-162.txt",
    ));
    assert!(h[0].corrupt);
    assert_eq!(h[0].first, 34);
    assert_eq!(starts(&h[0]), vec![34, 162, 79691810]);
    let types: Vec<&str> = h[0]
        .partitions()
        .filter_map(|e| e.type_name.as_deref())
        .collect();
    assert_eq!(types, vec!["freebsd-boot", "freebsd-ufs", "freebsd-swap"]);
    assert_eq!(
        h[0].entries.last().map(|e| (e.free, e.size)),
        Some((true, 1))
    );

    let n = gpart_show::parse(&fx(
        "freebsd/gpart-show/nda0-zfs-with-10g-free-before-resize.txt",
    ));
    assert_eq!(n[0].geom, "nda0");
    assert_eq!(starts(&n[0]), vec![40, 532520, 534528, 4728832]);
    assert_eq!(
        n[0].entries.last().map(|e| (e.free, e.size)),
        Some((true, 20971520))
    );

    let d = gpart_show::parse(&fx(
        "freebsd/gpart-show/p-mmcsd0-plus-nvme-windows-dualboot-start-34.txt",
    ));
    assert_eq!(d.len(), 2);
    assert_eq!(
        (d[0].geom.as_str(), starts(&d[0])),
        ("mmcsd0", vec![40, 534528])
    );
    assert_eq!(d[1].first, 34, "Windows-created GPT: first usable LBA 34");
    assert!(d[1].entries[0].free && d[1].entries[0].start == 34 && d[1].entries[0].size == 6);
    assert_eq!(
        starts(&d[1]),
        vec![40, 567296, 420003360, 730595496, 908222464, 975323136]
    );
    assert!(starts(&d[1]).iter().all(|s| s % 8 == 0), "all 4K aligned");
    assert_eq!(
        d[1].partitions().nth(5).and_then(|e| e.provider.as_deref()),
        Some("nda0p6")
    );
    assert_eq!(d[1].partitions().nth(5).and_then(|e| e.index), Some(6));

    let r = gpart_show::parse(&fx("freebsd/gpart-show/rp-raw-gpt-type-guids.txt"));
    assert_eq!(starts(&r[1]), starts(&d[1]));
    assert_eq!(
        r[0].partitions()
            .next()
            .and_then(|e| e.type_name.as_deref()),
        Some("c12a7328-f81f-11d2-ba4b-00a0c93ec93b")
    );
    assert_eq!(
        r[1].partitions()
            .nth(5)
            .and_then(|e| e.type_name.as_deref()),
        Some("de94bba4-06d1-4d40-a16a-bfd50179d6ac")
    );
}

#[test]
fn gpart_show_pfsense_nested_mbr_bsd() {
    let b = gpart_show::parse(&fx(
        "freebsd/gpart-show/pfsense2.3-mbr-slice-at-63-bsd-label-p-flag.txt",
    ));
    assert_eq!(b.len(), 2);
    assert_eq!(
        (b[0].geom.as_str(), b[0].scheme.as_str(), b[0].first),
        ("da0", "MBR", 63)
    );
    let s1 = b[0].partitions().next().unwrap();
    assert_eq!((s1.start, s1.provider.as_deref()), (63, Some("da0s1")));
    assert_eq!(s1.attrs, vec!["active"]);
    assert_eq!(s1.type_name.as_deref(), Some("freebsd"));
    assert_eq!(
        (b[1].geom.as_str(), b[1].scheme.as_str(), b[1].first),
        ("da0s1", "BSD", 0)
    );
    let labels: Vec<(u64, Option<&str>)> = b[1]
        .partitions()
        .map(|e| (e.start, e.provider.as_deref()))
        .collect();
    assert_eq!(
        labels,
        vec![(16, Some("da0s1a")), (23130859, Some("da0s1b"))]
    );
    // Absolute LBA of da0s1a = 63 + 16 = 79: misaligned.
    assert_eq!(s1.start + 16, 79);
}

#[test]
fn gpart_show_seed003_both_layouts() {
    let s = seed("003");
    // MBR: "=> 63 ..." is the first usable sector; the slice starts at 1008.
    let mbr = gpart_show::parse(&section(
        &s,
        "# gpart show da0 da0s1",
        0,
        "this is a 2TB slice",
    ));
    assert_eq!(mbr.len(), 2);
    assert_eq!((mbr[0].scheme.as_str(), mbr[0].first), ("MBR", 63));
    assert!(
        mbr[0].entries[0].free && mbr[0].entries[0].start == 63 && mbr[0].entries[0].size == 945
    );
    assert_eq!(starts(&mbr[0]), vec![1008]);
    assert_eq!(
        mbr[0]
            .partitions()
            .next()
            .and_then(|e| e.provider.as_deref()),
        Some("da0s1")
    );
    assert_eq!(1008 * 512 % 4096, 0, "the slice is 4 KiB aligned");
    assert_eq!(
        (mbr[1].geom.as_str(), mbr[1].scheme.as_str()),
        ("da0s1", "BSD")
    );
    let a = mbr[1].partitions().next().unwrap();
    assert_eq!(
        (a.start, a.size, a.provider.as_deref()),
        (0, 4294966216, Some("da0s1a"))
    );
    assert_eq!(a.type_name.as_deref(), Some("freebsd-ufs"));

    let gpt = gpart_show::parse(&section(
        &s,
        "The disk looks like this:",
        0,
        "Now for the first",
    ));
    assert_eq!(gpt.len(), 1);
    assert_eq!((gpt[0].scheme.as_str(), gpt[0].first), ("GPT", 34));
    assert_eq!(starts(&gpt[0]), vec![40]);
    assert_eq!(gpt[0].partitions().next().map(|e| e.size), Some(5860533088));
    assert_eq!(
        gpt[0]
            .partitions()
            .next()
            .and_then(|e| e.provider.as_deref()),
        Some("da0p1")
    );
}

// ---------------------------------------------------------------- gpart list / geom disk

#[test]
fn gpart_list_laptop_gpt() {
    let g = gpart_list::parse(&fx(
        "freebsd/gpart-list/fbsd13.0-gpt-freebsd-boot-plus-zfs-on-geli-laptop.txt",
    ));
    assert_eq!(g.len(), 1);
    let a = &g[0];
    assert_eq!(a.name, "ada0");
    assert_eq!(a.scheme.as_deref(), Some("GPT"));
    assert_eq!(
        (a.first, a.last, a.entries),
        (Some(40), Some(488397127), Some(128))
    );
    assert_eq!(a.providers.len(), 2);
    let p1 = &a.providers[0];
    assert_eq!(p1.name, "ada0p1");
    assert_eq!(
        (p1.start, p1.end, p1.offset),
        (Some(40), Some(1063), Some(20480))
    );
    assert_eq!((p1.stripe_size, p1.stripe_offset), (Some(0), Some(20480)));
    assert_eq!(p1.type_name.as_deref(), Some("freebsd-boot"));
    assert_eq!(p1.label.as_deref(), Some("gptboot0"));
    assert_eq!(p1.length, Some(524288));
    let p2 = &a.providers[1];
    assert_eq!(
        (p2.start, p2.offset),
        (Some(2048), Some(1048576)),
        "1 MiB aligned"
    );
    assert_eq!(p2.type_name.as_deref(), Some("freebsd-zfs"));
    assert_eq!(p2.label.as_deref(), Some("zfs0"));
    assert_eq!(
        p2.rawtype.as_deref(),
        Some("516e7cba-6ecf-11d6-8ff8-00022d09712b")
    );
    assert_eq!(a.consumer.as_deref(), Some("ada0"));
    assert_eq!(
        (a.consumer_media_bytes, a.consumer_sector_size),
        (Some(250059350016), Some(512))
    );
}

#[test]
fn geom_disk_list_fixtures() {
    let w = geom_disk::parse(&fx(
        "freebsd/geom-disk-list/fbsd14.4-two-wd-hdd-rotationrate-unknown-vs-7200.txt",
    ));
    assert_eq!(w.len(), 2);
    assert_eq!(w[0].name, "ada0");
    assert_eq!(w[0].descr.as_deref(), Some("WDC WD1002FAEX-00Z3A0"));
    assert_eq!((w[0].rotation_rpm, w[0].rotation_unknown), (None, true));
    assert_eq!(w[1].descr.as_deref(), Some("WDC WD1001FALS-00E8B0"));
    assert_eq!(
        (w[1].rotation_rpm, w[1].rotation_unknown),
        (Some(7200), false)
    );
    assert!(
        w.iter()
            .all(|d| d.sector_size == Some(512) && d.media_bytes == Some(1000204886016))
    );
    let s = geom_disk::parse(&fx(
        "freebsd/geom-disk-list/samsung-860evo-msata-rotationrate-0.txt",
    ));
    assert_eq!(s.len(), 1);
    assert_eq!(s[0].descr.as_deref(), Some("Samsung SSD 860 EVO mSATA 1TB"));
    assert_eq!(s[0].lunid.as_deref(), Some("5002538e402b4ddd"));
    assert_eq!(s[0].rotation_rpm, Some(0));
    assert_eq!(
        (s[0].stripe_size, s[0].stripe_offset),
        (None, None),
        "no Stripe lines"
    );
}

// ---------------------------------------------------------------- geli list

#[test]
fn geli_list_fixtures() {
    let d = geli::parse(&fx(
        "freebsd/geli-list/digitalocean-volume-gpt-crypto-hardware-stripeoffset-17408.txt",
    ));
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].name, "gpt/volume-nyc1-01.eli");
    assert_eq!(
        (d[0].algorithm.as_deref(), d[0].key_length),
        (Some("AES-XTS"), Some(256))
    );
    assert_eq!(d[0].crypto.as_deref(), Some("hardware"));
    assert!(d[0].flags.is_empty(), "Flags: NONE");
    assert_eq!(d[0].sector_size, Some(512));
    assert_eq!(d[0].consumer.as_deref(), Some("gpt/volume-nyc1-01"));
    assert_eq!(
        (d[0].consumer_stripe_size, d[0].consumer_stripe_offset),
        (Some(0), Some(17408))
    );
    assert_eq!(17408 / 512, 34, "partition at LBA 34");

    let c = geli::parse(&fx(
        "freebsd/geli-list/newlines-stripped-auth-hmac-sha256-collapsed-into-one-line.txt",
    ));
    assert_eq!(c.len(), 1);
    assert_eq!(c[0].name, "nda0p5.eli");
    assert_eq!(c[0].state.as_deref(), Some("ACTIVE"));
    assert_eq!(
        (c[0].algorithm.as_deref(), c[0].key_length),
        (Some("AES-XTS"), Some(256))
    );
    assert_eq!(c[0].auth.as_deref(), Some("HMAC/SHA256"));
    assert_eq!(c[0].crypto.as_deref(), Some("accelerated software"));
    assert_eq!(c[0].flags, vec!["BOOT", "AUTH", "NODELETE", "AUTORESIZE"]);
    assert_eq!(c[0].sector_size, Some(4096));
    assert_eq!(c[0].media_bytes, Some(314963316736));
    assert_eq!(c[0].consumer.as_deref(), Some("nda0p5"));

    let o = geli::parse(&fx(
        "freebsd/geli-list/onetime-swap-ada1p2-accelerated-software-4k.txt",
    ));
    assert_eq!(o[0].name, "ada1p2.eli");
    assert_eq!(
        (o[0].algorithm.as_deref(), o[0].key_length),
        (Some("AES-XTS"), Some(128))
    );
    assert_eq!(o[0].crypto.as_deref(), Some("accelerated software"));
    assert_eq!(
        o[0].flags,
        vec!["ONETIME", "W-DETACH", "W-OPEN", "AUTORESIZE"]
    );
    assert_eq!(o[0].sector_size, Some(4096));
    assert_eq!(o[0].consumer.as_deref(), Some("ada1p2"));
    assert_eq!(o[0].consumer_stripe_offset, Some(1048576));

    let z = geli::parse(&fx(
        "freebsd/geli-list/zvol-backed-accelerated-software-stripesize-16384.txt",
    ));
    assert_eq!(z[0].name, "zvol/zroot/test.eli");
    assert_eq!((z[0].key_length, z[0].sector_size), (Some(128), Some(512)));
    assert_eq!(z[0].flags, vec!["AUTORESIZE"]);
    assert_eq!(z[0].consumer.as_deref(), Some("zvol/zroot/test"));
    assert_eq!(
        (z[0].consumer_stripe_size, z[0].consumer_stripe_offset),
        (Some(16384), Some(0))
    );
}

// ---------------------------------------------------------------- sysctl

#[test]
fn sysctl_full_dump_with_multiline_xml() {
    let t = fx("freebsd/sysctl/a-fbsd12-vmware-full-with-multiline-xml-values.txt");
    let e = sysctl::parse(&t);
    assert_eq!(sysctl::get(&e, "kern.disks"), Some("da0 cd0"));
    assert_eq!(sysctl::get(&e, "hw.ata.ata_dma_check_80pin"), Some("1"));
    assert_eq!(
        sysctl::get(&e, "dev.atapci.0.%desc"),
        Some("Intel PIIX4 UDMA33 controller")
    );
    assert_eq!(
        sysctl::get(&e, "dev.mpt.0.%desc"),
        Some("LSILogic 1030 Ultra4 Adapter")
    );
    assert_eq!(sysctl::get(&e, "kern.cam.da.0.rotating"), Some("0"));
    assert_eq!(
        sysctl::get(&e, "kern.geom.disk.da0.led"),
        Some(""),
        "empty value"
    );
    let xml = sysctl::get(&e, "kern.geom.confxml").unwrap();
    assert!(
        xml.starts_with("<mesh>") && xml.trim_end().ends_with("</mesh>"),
        "whole XML kept"
    );
    let dot = sysctl::get(&e, "kern.geom.confdot").unwrap();
    assert!(dot.starts_with("digraph geom {"));
    // Every real entry is found: the lines starting with a top-level OID and ": ".
    let expected = t
        .lines()
        .filter(|l| {
            let top = l.split('.').next().unwrap_or("");
            [
                "kern", "vm", "vfs", "net", "debug", "hw", "machdep", "user", "p1003_1b",
                "security", "dev", "compat", "hptmv",
            ]
            .contains(&top)
                && l.split_once(':')
                    .is_some_and(|(n, v)| !n.contains(' ') && (v.is_empty() || v.starts_with(' ')))
        })
        .count();
    assert_eq!(e.len(), expected);
}

#[test]
fn sysctl_extracted_blocks() {
    let d = sysctl::parse(&fx("freebsd/sysctl/dev.mpt-ata-atapci-fbsd12-vmware.txt"));
    assert_eq!(d.len(), 31);
    assert_eq!(
        sysctl::get(&d, "dev.atapci.0.%desc"),
        Some("Intel PIIX4 UDMA33 controller")
    );
    assert_eq!(sysctl::get(&d, "dev.ata.0.%parent"), Some("atapci0"));
    assert!(
        sysctl::get(&d, "dev.atapci.0.%pnpinfo")
            .unwrap()
            .contains("class=0x01018a")
    );
    assert!(
        !d.iter().any(|(k, _)| k.starts_with("dev.ahci")),
        "no dev.ahci tree"
    );

    let c = sysctl::parse(&fx(
        "freebsd/sysctl/kern.cam-fbsd12-vmware-mpt-da0-nonrotating.txt",
    ));
    assert_eq!(c.len(), 47);
    assert_eq!(sysctl::get(&c, "kern.cam.da.0.rotating"), Some("0"));
    assert_eq!(sysctl::get(&c, "kern.cam.da.0.delete_method"), Some("NONE"));
    assert_eq!(
        sysctl::get(&c, "kern.cam.da.0.zone_mode"),
        Some("Not Zoned")
    );
    assert_eq!(sysctl::get(&c, "kern.cam.ada.write_cache"), Some("1"));
    assert_eq!(sysctl::get(&c, "kern.cam.ada.read_ahead"), Some("1"));

    let k = sysctl::parse(&fx("freebsd/sysctl/kern.disks-fbsd12-vmware.txt"));
    assert_eq!(
        sysctl::disk_names(sysctl::get(&k, "kern.disks").unwrap()),
        vec!["da0", "cd0"]
    );
    assert_eq!(
        sysctl::bare_value("kern.disks: ada0 cd0", "kern.disks"),
        "ada0 cd0"
    );
    assert_eq!(sysctl::bare_value("0\n", "hw.ata.wc"), "0");
}

// ---------------------------------------------------------------- pciconf

#[test]
fn pciconf_lv_layout() {
    // pciconf(8) -lv layout: selector line with class/chip, then quoted vendor/device lines.
    let t = "atapci0@pci0:0:31:1:\tclass=0x01018a card=0x82771043 chip=0x27df8086 rev=0x01 hdr=0x00\n    vendor     = 'Intel Corporation'\n    device     = '82801G (ICH7 Family) IDE Controller'\n    class      = mass storage\n    subclass   = ATA\nahci0@pci0:0:31:2:\tclass=0x010601 card=0x20f817aa chip=0x29298086 rev=0x03 hdr=0x00\n    vendor     = 'Intel Corporation'\n    device     = '82801IBM/IEM (ICH9M/ICH9M-E) 4 port SATA Controller [AHCI mode]'\n    class      = mass storage\n    subclass   = SATA\nmps0@pci0:1:0:0:\tclass=0x010700 card=0x30201000 chip=0x00721000 rev=0x03 hdr=0x00\nnvme0@pci0:2:0:0:\tclass=0x010802 card=0x370815b7 chip=0x501715b7 rev=0x01 hdr=0x00\nem0@pci0:0:25:0:\tclass=0x020000 card=0x20e417aa chip=0x10f58086 rev=0x03 hdr=0x00\n";
    let p = pciconf::parse(t);
    assert_eq!(p.len(), 5);
    assert_eq!(
        (p[0].name.as_str(), p[0].selector.as_str()),
        ("atapci0", "pci0:0:31:1")
    );
    assert_eq!(p[0].class, Some(0x01018a));
    assert_eq!(p[0].pci_id.as_deref(), Some("8086:27df"));
    assert_eq!(
        p[0].device.as_deref(),
        Some("82801G (ICH7 Family) IDE Controller")
    );
    assert_eq!(p[1].class, Some(0x010601));
    assert_eq!(p[1].subclass.as_deref(), Some("SATA"));
    assert_eq!((p[2].name.as_str(), p[2].class), ("mps0", Some(0x010700)));
    assert_eq!((p[3].name.as_str(), p[3].class), ("nvme0", Some(0x010802)));
    assert!(p[0].is_storage() && !p[4].is_storage());
}

// ---------------------------------------------------------------- dmesg

#[test]
fn dmesg_virtio_blk_devices_are_vtbd_disks() {
    // virtio_blk(4) prints its lines as vtblkN, its disk is vtbdN (virtio_blk.c
    // VTBLK_DISK_NAME); any unit, with a syslog-free boot log or a pasted excerpt.
    for unit in ["0", "1", "12"] {
        let text = format!(
            "virtio_pci3: <VirtIO PCI Block adapter> port 0xc040-0xc07f mem 0xfebd4000-0xfebd4fff irq 10 at device 6.0 on pci0\n\
             vtblk{unit}: <VirtIO Block Adapter> on virtio_pci3\n\
             vtblk{unit}: 40960MB (83886080 512 byte sectors)\n\
             GEOM: vtbd{unit}: the secondary GPT header is not in the last LBA.\n"
        );
        let d = dmesg::parse(&text);
        let v = &d.disks[&format!("vtbd{unit}")];
        assert_eq!(v.inquiry.as_deref(), Some("VirtIO Block Adapter"));
        assert_eq!(
            (v.size_mb, v.sectors, v.sector_size),
            (Some(40960), Some(83886080), Some(512))
        );
        assert!(
            !d.disks.keys().any(|k| k.starts_with("vtblk")),
            "{:?}",
            d.disks.keys()
        );
    }
    // vtblk with no unit, or vtblkfoo, is no device.
    let d = dmesg::parse(
        "vtblk: <VirtIO Block Adapter> on virtio_pci3\nvtblkx0: 1MB (2 512 byte sectors)\n",
    );
    assert!(d.disks.is_empty());
}

#[test]
fn dmesg_nforce_legacy_ata() {
    let d = dmesg::parse(&fx(
        "freebsd/dmesg/fbsd13.0-nforce-mcp51-ata-legacy-wdma2-pata-sata1x-verbose.txt",
    ));
    assert_eq!(d.release.as_deref(), Some("13.0-RELEASE-p5"));
    assert_eq!(d.aesni(), Some(false));
    assert_eq!(
        d.controllers.get("atapci0").and_then(|a| a.desc.as_deref()),
        Some("nVidia nForce MCP51 UDMA133 controller")
    );
    assert_eq!(
        d.controllers.get("atapci1").and_then(|a| a.desc.as_deref()),
        Some("nVidia nForce MCP51 SATA300 controller")
    );
    assert!(
        !d.controllers.keys().any(|k| k.starts_with("ahci")),
        "no AHCI"
    );
    let a0 = &d.disks["ada0"];
    assert_eq!(
        (a0.sim.as_deref(), a0.inquiry.as_deref()),
        (Some("ata0"), Some("WDC AC31600H 21.15T21"))
    );
    assert_eq!(a0.transfer_mbps, Some(16.7));
    assert_eq!(a0.transfer_detail.as_deref(), Some("WDMA2, PIO 8192bytes"));
    assert_eq!(a0.serial, None, "anonymised \"Serial Number...\"");
    let a1 = &d.disks["ada1"];
    assert_eq!(a1.sim.as_deref(), Some("ata2"));
    assert_eq!(a1.inquiry.as_deref(), Some("ST3200822AS 3.02"));
    assert_eq!(a1.standard.as_deref(), Some("ATA-6 SATA 1.x device"));
    assert_eq!(a1.transfer_mbps, Some(150.0));
    assert_eq!(
        a1.transfer_detail.as_deref(),
        Some("SATA 1.x, UDMA5, PIO 8192bytes")
    );
    let a2 = &d.disks["ada2"];
    assert_eq!(
        (a2.inquiry.as_deref(), a2.sim.as_deref()),
        (Some("ST3160815AS 3.AAC"), Some("ata3"))
    );
    assert_eq!(a2.transfer_mbps, Some(150.0));
    assert!(
        d.disks.values().all(|x| !x.command_queueing),
        "no NCQ on legacy ata"
    );
    assert_eq!(
        d.controller_of("ata2").map(|a| a.name.as_str()),
        Some("atapci1")
    );
    assert_eq!(d.disks.len(), 3);
}

#[test]
fn dmesg_fbsd64_ich4_old_ad() {
    let d = dmesg::parse(&fx(
        "freebsd/dmesg/fbsd6.4-ich4-udma100-legacy-ad0-pata.txt",
    ));
    assert_eq!(d.release.as_deref(), Some("6.4-RELEASE"));
    assert_eq!(
        d.cpu_model.as_deref(),
        Some("Intel(R) Pentium(R) M processor 1.60GHz")
    );
    assert_eq!(
        d.controllers.get("atapci0").and_then(|a| a.desc.as_deref()),
        Some("Intel ICH4 UDMA100 controller")
    );
    let ad0 = &d.disks["ad0"];
    assert_eq!(ad0.size_mb, Some(57231));
    assert_eq!(ad0.inquiry.as_deref(), Some("HTS721060G9AT00 MC3IA51A"));
    assert_eq!(
        (ad0.sim.as_deref(), ad0.ata_mode.as_deref()),
        (Some("ata0"), Some("UDMA100"))
    );
    assert_eq!(
        d.controller_of("ata0").map(|a| a.name.as_str()),
        Some("atapci0")
    );
    assert!(!d.disks.contains_key("acd0") && !d.disks.contains_key("cd0"));
}

#[test]
fn dmesg_mpr_interleaved_lines() {
    let d = dmesg::parse(&fx(
        "freebsd/dmesg/fbsd11-current-mpr-sas3008-nvme-4kn-sas-interleaved.txt",
    ));
    assert_eq!(d.release.as_deref(), Some("11.0-CURRENT"));
    assert_eq!(
        d.controllers.get("mpr0").and_then(|a| a.desc.as_deref()),
        Some("LSI SAS3008")
    );
    let da: Vec<&String> = d.disks.keys().filter(|k| k.starts_with("da")).collect();
    let nvd = d.disks.keys().filter(|k| k.starts_with("nvd")).count();
    assert_eq!((da.len(), nvd), (35, 8));
    let intel = d
        .disks
        .values()
        .filter(|x| x.sectors == Some(1562824368) && x.sector_size == Some(512))
        .count();
    let seagate = d
        .disks
        .values()
        .filter(|x| x.sectors == Some(1465130646) && x.sector_size == Some(4096))
        .count();
    assert_eq!((intel, seagate), (11, 24), "4Kn SAS disks");
    // "da2: 600.000MB/s transfersda3: 600.000MB/s transfersda4: ..." is split.
    for n in ["da2", "da3", "da4"] {
        assert_eq!(d.disks[n].transfer_mbps, Some(600.0), "{n}");
        assert!(d.disks[n].command_queueing, "{n}");
    }
    assert_eq!(d.disks["da11"].transfer_mbps, Some(1200.0));
    assert_eq!(
        d.disks["da0"].inquiry.as_deref(),
        Some("ATA INTEL SSDSC2BA80 0270")
    );
    assert_eq!(
        d.disks["da11"].inquiry.as_deref(),
        Some("SEAGATE ST6000NM0014 K001")
    );
    assert_eq!(
        d.disks["nvd0"].inquiry.as_deref(),
        Some("INTEL SSDPEDMD020T4")
    );
    assert_eq!(d.disks["nvd0"].size_mb, Some(1907729));
    assert!(
        d.disks
            .values()
            .filter(|x| x.name.starts_with("da"))
            .all(|x| x.sim.as_deref().is_some_and(|s| s.starts_with("mpr")))
    );
}

#[test]
fn dmesg_usb_and_sas_excerpts() {
    let s = dmesg::parse(&fx(
        "freebsd/dmesg/fbsd9-tail-umass-sandisk-usb2-40mbps.txt",
    ));
    let da0 = &s.disks["da0"];
    assert_eq!(
        (da0.sim.as_deref(), da0.inquiry.as_deref()),
        (Some("umass-sim0"), Some("SanDisk 1.26"))
    );
    assert_eq!(da0.transfer_mbps, Some(40.0));
    assert_eq!(
        (da0.size_mb, da0.sectors, da0.sector_size),
        (Some(7633), Some(15633408), Some(512))
    );

    let g = dmesg::parse(&fx(
        "freebsd/dmesg/grep-da64-mpr-1200MBps-sata-behind-expander-model-lost.txt",
    ));
    let da64 = &g.disks["da64"];
    assert_eq!(da64.sim.as_deref(), Some("mpr1"));
    assert_eq!(da64.transfer_mbps, Some(1200.0));
    assert!(da64.command_queueing);
    assert_eq!(
        (da64.size_mb, da64.sectors),
        (Some(11444224), Some(23437770752))
    );
    assert_eq!(da64.inquiry, None, "model string lost");

    let p = dmesg::parse(&fx(
        "freebsd/dmesg/pfsense2.3-grep-da0-umass-card-reader-40mbps.txt",
    ));
    let da0 = &p.disks["da0"];
    assert_eq!(da0.inquiry.as_deref(), Some("Multiple Card  Reader 1.00"));
    assert_eq!(da0.serial.as_deref(), Some("058F63666485"));
    assert_eq!((da0.transfer_mbps, da0.size_mb), (Some(40.0), None));

    let k = dmesg::parse(&fx(
        "freebsd/dmesg/usb3-kingston-datatraveler-400MBps-benign-report-luns-error.txt",
    ));
    let da0 = &k.disks["da0"];
    assert_eq!(
        da0.inquiry.as_deref(),
        Some("Kingston DataTraveler 3.0 0000")
    );
    assert_eq!(da0.transfer_mbps, Some(400.0));
    assert_eq!((da0.size_mb, da0.sectors), (Some(59120), Some(121077761)));
    assert_eq!(da0.quirks.as_deref(), Some("0x2<NO_6_BYTE>"));
}

#[test]
fn dmesg_ghostbsd_ahci_ncq_truncated_start() {
    let d = dmesg::parse(&fx(
        "freebsd/dmesg/ghostbsd-fbsd13.0-cam-read-fpdma-error-storm-truncated-start.txt",
    ));
    assert_eq!(d.release.as_deref(), Some("13.0-STABLE"));
    assert_eq!(d.aesni(), Some(true));
    assert_eq!(
        d.controllers["ahci0"].desc.as_deref(),
        Some("ASMedia ASM1062 AHCI SATA controller")
    );
    assert_eq!(
        d.controllers["ahci1"].desc.as_deref(),
        Some("Intel ICH8+ (RAID) AHCI SATA controller")
    );
    assert_eq!(
        (
            d.controllers["ahci0"].port_gbps,
            d.controllers["ahci1"].port_gbps
        ),
        (Some(6.0), Some(6.0))
    );
    let a0 = &d.disks["ada0"];
    assert_eq!(
        a0.inquiry.as_deref(),
        Some("Samsung SSD 840 PRO Series DXM03B0Q")
    );
    assert_eq!(
        (a0.sim.as_deref(), a0.transfer_mbps, a0.command_queueing),
        (Some("ahcich2"), Some(600.0), true)
    );
    assert_eq!(a0.quirks.as_deref(), Some("0x3<4K,NCQ_TRIM_BROKEN>"));
    let a1 = &d.disks["ada1"];
    assert_eq!(a1.inquiry.as_deref(), Some("ST31500541AS CC34"));
    assert_eq!((a1.transfer_mbps, a1.command_queueing), (Some(300.0), true));
    // The failing disk never attached: only its CAM path tags, "(ada2:ahcich7:0:0:0): ...",
    // name it and its SIM (cam_xpt.c xpt_print_path); nothing of an attach line is invented.
    let a2 = d.disks.get("ada2").expect("ada2 from its path tags");
    assert_eq!(a2.sim.as_deref(), Some("ahcich7"));
    assert_eq!(
        (a2.inquiry.as_deref(), a2.transfer_mbps),
        (None, None),
        "the failing disk never attached"
    );
}

#[test]
fn dmesg_opnsense_two_boots_not_double_counted() {
    let d = dmesg::parse(&fx(
        "freebsd/dmesg/opnsense-fbsd13.1-mps-sas2008-sata-hgst-nvd-usb3-multiboot.txt",
    ));
    assert_eq!(d.boots, 2);
    assert_eq!(d.release.as_deref(), Some("13.1-RELEASE-p2"));
    assert_eq!(d.disks.len(), 6, "da0-da4 and nvd0, once each");
    for n in ["da0", "da1", "da2", "da3"] {
        let x = &d.disks[n];
        assert_eq!(
            x.inquiry.as_deref(),
            Some("ATA HGST HUS726060AL KP35"),
            "{n}"
        );
        assert_eq!(
            (x.sim.as_deref(), x.transfer_mbps, x.command_queueing),
            (Some("mps0"), Some(600.0), true)
        );
        assert_eq!(x.sectors, Some(11721045168));
    }
    assert_eq!(
        d.disks["da4"].inquiry.as_deref(),
        Some("Corsair Survivor 3.0 000D")
    );
    assert_eq!(d.disks["da4"].transfer_mbps, Some(400.0));
    assert_eq!(d.disks["nvd0"].size_mb, Some(1953514));
    assert_eq!(
        d.controllers["mps0"].desc.as_deref(),
        Some("Avago Technologies (LSI) SAS2008")
    );
    assert_eq!(d.controllers["ahci0"].port_gbps, Some(6.0));
}

#[test]
fn dmesg_seed_excerpts() {
    // Seed 001: FreeBSD 7.0 nForce CK804 box and the 6.2 ICH5 lab box (old ad(4) lines).
    let s = seed("001");
    let box_a = dmesg::parse(&section(
        &s,
        "Relevant harware:",
        0,
        "thor# atacontrol cap ad4",
    ));
    assert_eq!(box_a.release.as_deref(), Some("7.0-CURRENT"));
    assert_eq!(
        box_a.controllers["atapci0"].desc.as_deref(),
        Some("nVidia nForce CK804 UDMA133 controller")
    );
    assert_eq!(
        box_a.controllers["atapci1"].desc.as_deref(),
        Some("nVidia nForce CK804 SATA300 controller")
    );
    let drives = dmesg::parse(&section(
        &s,
        "The dmesg portion",
        0,
        "Below some test results",
    ));
    let ad4 = &drives.disks["ad4"];
    assert_eq!(
        (ad4.size_mb, ad4.inquiry.as_deref()),
        (Some(238475), Some("HDT722525DLA380 V44OA96A"))
    );
    assert_eq!(
        (ad4.sim.as_deref(), ad4.ata_mode.as_deref()),
        (Some("ata2"), Some("SATA300"))
    );
    assert_eq!(
        drives.disks["ad8"].inquiry.as_deref(),
        Some("SAMSUNG SP2004C VM100-31")
    );
    // ataraid(4)'s volume (ata-raid.c ata_raid_attach: "ar0: 476950MB <nVidia MediaShield
    // RAID0 (stripe 64 KB)> status: READY") is a disk of its own, the firmware RAID volume the
    // poster's /dev/null and home live on; its members ad4/ad6 stay disks too.
    let ar0 = drives
        .disks
        .get("ar0")
        .expect("the ataraid volume is a disk");
    assert_eq!(ar0.size_mb, Some(476950));
    assert!(drives.disks.contains_key("ad6"));
    let lab = dmesg::parse(&section(
        &s,
        "Portions of interest taken from dmesg:",
        0,
        "atacontrol cap ad4",
    ));
    assert_eq!(lab.release.as_deref(), Some("6.2-STABLE"));
    assert_eq!(
        lab.controllers["atapci1"].desc.as_deref(),
        Some("Intel ICH5 SATA150 controller")
    );
    assert_eq!(lab.disks["ad4"].ata_mode.as_deref(), Some("SATA150"));
    assert_eq!(
        lab.disks["ad6"].inquiry.as_deref(),
        Some("SAMSUNG HD401LJ ZZ100-15")
    );

    // Seed 003: the mps0/da0 lines glued into one line, with a '<' for the closing '>'.
    let s3 = seed("003");
    let d3 = dmesg::parse(&section(&s3, "The LSI card:", 0, "dd to raw device"));
    assert_eq!(d3.controllers["mps0"].desc.as_deref(), Some("LSI SAS2008"));
    let da0 = &d3.disks["da0"];
    assert_eq!(da0.sim.as_deref(), Some("mps0"));
    assert_eq!(da0.inquiry.as_deref(), Some("ATA TOSHIBA DT01ACA3 ABB0"));
    assert_eq!(
        (da0.transfer_mbps, da0.command_queueing),
        (Some(600.0), true)
    );
    assert_eq!(
        (da0.sectors, da0.sector_size),
        (Some(5860533168), Some(512))
    );
}

// ---------------------------------------------------------------- zpool (leaves only)

/// The one zpool parser's pool-to-device view with FreeBSD (GEOM) device names.
fn members(t: &str) -> Vec<zpool::PoolMembers> {
    zpool::pool_members(t, zpool::DeviceNaming::FreeBsd)
}

#[test]
fn zpool_leaves() {
    let n = members(&fx(
        "freebsd/zpool-status/nda0p4-features-not-enabled-with-inline-user-comments.txt",
    ));
    assert_eq!(
        (n[0].name.as_str(), n[0].leaves.clone()),
        ("zroot", vec!["nda0p4".to_string()])
    );
    let t = members(&fx(
        "freebsd/zpool-status/fbsd12-raidz2-sas-nvd0-slog-spares-user-trimmed.txt",
    ));
    assert!(t[0].leaves.contains(&"nvd0".to_string()));
    assert!(
        !t[0].leaves.iter().any(|l| l.starts_with('~')),
        "user's trim marker skipped"
    );
    let big = members(&fx(
        "freebsd/zpool-status/7x-raidz2-12wide-90disks-6-spares.txt",
    ));
    assert_eq!(big[0].leaves.len(), 7 * 12 + 6);
    let m = members(&fx(
        "freebsd/zpool-status/mirror-gpt-labels-online-scrub-ok.txt",
    ));
    assert_eq!(m[0].leaves, vec!["gpt/ndisk2", "gpt/ndisk1"]);
}

// ---------------------------------------------------------------- robustness

#[test]
fn parsers_survive_garbage_and_truncation() {
    let samples = [
        fx("freebsd/camcontrol-identify/ata-legacy-mode-corsair-force-le-ssd-ada0.txt"),
        fx("freebsd/gpart-show/pfsense2.3-mbr-slice-at-63-bsd-label-p-flag.txt"),
        fx("freebsd/geli-list/newlines-stripped-auth-hmac-sha256-collapsed-into-one-line.txt"),
        fx("freebsd/diskinfo/ctv-fbsd12-sas-hgst-he12-12tb-da1-enclosure-physpath.txt"),
        "\u{0}\u{ffff}<<<>>> : : # # => => - free - ( ) [ ]".to_string(),
    ];
    for s in &samples {
        // Every prefix, cut at char boundaries: no panics.
        for cut in (0..s.len()).step_by(7) {
            if !s.is_char_boundary(cut) {
                continue;
            }
            let t = &s[..cut];
            let _ = camcontrol_identify::parse(t);
            let _ = camcontrol_devlist::parse(t);
            let _ = diskinfo::parse(t);
            let _ = gpart_show::parse(t);
            let _ = gpart_list::parse(t);
            let _ = geli::parse(t);
            let _ = geom_disk::parse(t);
            let _ = sysctl::parse(t);
            let _ = pciconf::parse(t);
            let _ = dmesg::parse(t);
            let _ = zpool::pool_members(t, zpool::DeviceNaming::FreeBsd);
        }
    }
    // A truncated gpart block keeps the rows it has.
    let t = "=>      63  31520705    da0  MBR  (15G)\n        63  31519467  da0s1  freebsd  [active]  (15G)\n  3151";
    let b = gpart_show::parse(t);
    assert_eq!(b[0].partitions().count(), 1);
}

// ---------------------------------------------------------------- kern.geom.confxml

#[test]
fn confxml_from_the_vmware_sysctl_dump() {
    let e = sysctl::parse(&fx(
        "freebsd/sysctl/a-fbsd12-vmware-full-with-multiline-xml-values.txt",
    ));
    let m = diskdoc_core::sources::confxml::parse(sysctl::get(&e, "kern.geom.confxml").unwrap());
    let da0 = m.disk("da0").unwrap();
    assert_eq!(da0.media_bytes, Some(21474836480));
    assert_eq!(
        (da0.sector_size, da0.stripe_size, da0.stripe_offset),
        (Some(512), Some(0), Some(0))
    );
    assert_eq!(
        da0.config.get("descr").map(String::as_str),
        Some("VMware, VMware Virtual S")
    );
    assert_eq!(
        da0.config.get("rotationrate").map(String::as_str),
        Some("0")
    );
    let cd0 = m.disk("cd0").unwrap();
    assert_eq!(cd0.sector_size, Some(2048));
    let mbr = m.geom("PART", "da0").unwrap();
    assert_eq!(mbr.config.get("scheme").map(String::as_str), Some("MBR"));
    assert_eq!(mbr.config.get("first").map(String::as_str), Some("63"));
    assert_eq!(m.consumed_names(mbr), vec!["da0"]);
    let s1 = &mbr.providers[0];
    assert_eq!(
        (s1.name.as_str(), s1.config.get("start").map(String::as_str)),
        ("da0s1", Some("64"))
    );
    assert_eq!(s1.stripe_offset, Some(32768));
    let bsd = m.geom("PART", "da0s1").unwrap();
    assert_eq!(bsd.config.get("scheme").map(String::as_str), Some("BSD"));
    let names: Vec<&str> = bsd.providers.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, vec!["da0s1b", "da0s1a"]);
    assert_eq!(m.consumed_names(bsd), vec!["da0s1"]);
    assert!(
        m.geoms
            .iter()
            .any(|g| g.class == "VFS" && g.name == "ffs.da0s1a")
    );
    assert!(m.geom("LABEL", "cd0").is_some());
}

mod prop {
    use super::*;
    use proptest::prelude::*;

    fn all(t: &str) {
        let _ = camcontrol_identify::parse(t);
        let _ = camcontrol_devlist::parse(t);
        let _ = diskinfo::parse(t);
        let _ = gpart_show::parse(t);
        let _ = gpart_list::parse(t);
        let _ = geli::parse(t);
        let _ = geom_disk::parse(t);
        let _ = sysctl::parse(t);
        let _ = pciconf::parse(t);
        let _ = dmesg::parse(t);
        let _ = zpool::pool_members(t, zpool::DeviceNaming::FreeBsd);
        let _ = diskdoc_core::sources::confxml::parse(t);
        // issue 20: the probe-only sources.
        use diskdoc_core::sources::{
            camcontrol_modepage, camcontrol_tags, mount_p, zfs_get, zpool_ashift,
        };
        let _ = camcontrol_tags::parse(t).depth();
        let _ = camcontrol_modepage::parse(t);
        let _ = mount_p::zfs_datasets(&mount_p::parse(t));
        let _ = zfs_get::parse(t);
        let _ = zpool_ashift::parse_vdev_props(t);
        let _ = zpool_ashift::parse_zdb(t);
        let _ = gpart_show::ebr_name(t, usize::MAX);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]
        /// Arbitrary text, and text built from the tokens these parsers key on.
        #[test]
        fn no_parser_panics(
            s in ".{0,400}",
            toks in proptest::collection::vec(
                prop_oneof![
                    Just("=>"), Just("#"), Just(":"), Just("<"), Just(">"), Just("("), Just(")"),
                    Just("- free -"), Just("yes"), Just("no"), Just("Name:"), Just("Geom name:"),
                    Just("MB/s transfers"), Just("ada0"), Just(" at "), Just("\n"), Just("\t"),
                    Just("sectorsize"), Just("stripeoffset"), Just("0x"), Just("</config>"),
                    Just("<provider ref=\"x\"/>"), Just("1."), Just("999999999999999999999"),
                    Just("é"), Just(" "),
                ],
                0..80,
            ),
        ) {
            all(&s);
            all(&toks.concat());
        }

        /// derive() over a bundle whose captures hold arbitrary text never panics.
        #[test]
        fn derive_never_panics(data in proptest::collection::vec(".{0,200}", 14)) {
            use diskdoc_core::evidence::{Capture, EvidenceBundle, Origin, Platform, SourceKey};
            let mut b = EvidenceBundle::new(Platform::Freebsd, Origin::Hand);
            let keys = [
                "sysctl:kern.disks", "cmd:camcontrol identify ada0", "cmd:diskinfo -v /dev/ada0",
                "cmd:gpart show -p", "file:/var/run/dmesg.boot", "sysctl:kern.geom.confxml",
                "cmd:dmesg", "cmd:mount -p", "cmd:kldstat -q -m zfs", "cmd:zpool status",
                "cmd:camcontrol tags ada0 -v", "cmd:pciconf -lc",
                "sysctl:kern.cam.ada.0.rotating", "cmd:gpart list",
            ];
            for (k, v) in keys.iter().zip(data.iter()) {
                let v = if *k == "sysctl:kern.disks" { format!("ada0 {v}") } else { v.clone() };
                b.insert(&SourceKey::parse(k).unwrap(), Capture::ok(v));
            }
            let _ = diskdoc_core::facts::derive(&b);
        }
    }
}

/// Issue 17: the APM level from camcontrol identify's "advanced power management" row
/// (IDENTIFY word 91; its low byte is the level), on the real captures of tests/fixtures/INDEX.md.
#[test]
fn camcontrol_identify_apm_row() {
    use diskdoc_core::sources::camcontrol_identify::parse;
    // "advanced power management      yes	yes	254/0xFE"
    let corsair = parse(&fx(
        "freebsd/camcontrol-identify/ata-legacy-mode-corsair-force-le-ssd-ada0.txt",
    ));
    assert_eq!(corsair.apm_level(), Some(Some(254)));
    // "advanced power management      no   no": no APM at all.
    let dcs = parse(&fx(
        "freebsd/camcontrol-identify/sata-ssd-intel-dcs3700-behind-mpr-sas3008-da11.txt",
    ));
    assert_eq!(dcs.apm_level(), None);
    // The seed 000 laptop's ST9320423AS prints word 91 whole: "yes yes 32896/0x8080", level
    // 0x80 = 128 (bit 15 is not part of the level).
    let row = "Feature                      Support  Enable    Value           Vendor\n\
               advanced power management      yes      yes     32896/0x8080\n";
    assert_eq!(parse(row).apm_level(), Some(Some(128)));
    let off = "Feature                      Support  Enable    Value           Vendor\n\
               advanced power management      yes      no      0/0x00\n";
    assert_eq!(parse(off).apm_level(), Some(None));
}
