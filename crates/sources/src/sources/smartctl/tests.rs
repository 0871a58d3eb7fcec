use super::*;

/// A self-test log pasted from its column header (ATA and NVMe forms of smartctl's
/// table) starts a smartctl block; the header with no test row under it does not.
#[test]
fn self_test_log_from_its_column_header() {
    let ata = [
        "Num  Test_Description    Status                  Remaining  LifeTime(hours)  LBA_of_first_error",
        "# 1  Extended offline    Completed without error       00%      4879         -",
    ];
    let nvme = [
        "Num  Test_Description  Status                       Power_on_Hours  Failing_LBA  NSID Seg SCT Code",
        " 0   Extended          Completed without error                2708            -     -   -   -    -",
    ];
    assert_eq!(self_test_log_excerpt(&ata), spec::Start::Yes);
    assert_eq!(self_test_log_excerpt(&nvme), spec::Start::Yes);
    assert_eq!(
        self_test_log_excerpt(&[ata[0], "the long test finished fine on all disks"]),
        spec::Start::No
    );
    assert_eq!(
        self_test_log_excerpt(&["Num  Status", ata[1]]),
        spec::Start::No
    );
}

/// smartctl's refusal of a drive behind a USB bridge it does not know starts a block;
/// the same words without the device-type request, or another open error, do not.
#[test]
fn unknown_usb_bridge_refusal() {
    let err = [
        "/dev/sda: Unknown USB bridge [0x059f:0x1010 (0xc683)]",
        "Please specify device type with the -d option.",
    ];
    assert_eq!(usb_bridge_error(&err), spec::Start::Yes);
    let uns = [
        "/dev/sdc: Unsupported USB bridge [0x152d:0x0578]",
        "",
        "Use smartctl -h to get a usage summary",
    ];
    assert_eq!(usb_bridge_error(&uns), spec::Start::Yes);
    assert_eq!(
        usb_bridge_error(&[err[0], "the disk is a LaCie, what now?"]),
        spec::Start::No
    );
    assert_eq!(
        usb_bridge_error(&["/dev/sda: Unable to detect device type", err[1]]),
        spec::Start::No
    );
}

#[test]
fn attributes_quoted_by_name_outside_the_table() {
    assert_eq!(
        named_attribute("Current_Pending_Sector   val=100 worst=100 thresh=000  raw=16"),
        Some((197, 16))
    );
    assert_eq!(named_attribute("Reallocated_Sector_Ct: 40"), Some((5, 40)));
    assert_eq!(named_attribute("Offline_Uncorrectable = 3"), Some((198, 3)));
    // A table row starts with its id; prose that names an attribute has no value.
    assert_eq!(
        named_attribute("Reallocated_Sector_Ct went up yesterday"),
        None
    );
    let r = parse_text(
        "SMART overall-health self-assessment test result: PASSED\n\n\
             Reallocated_Sector_Ct    val=097 worst=097 thresh=036  raw=312\n\
             Current_Pending_Sector   val=100 worst=100 thresh=000  raw=16\n",
    )
    .expect("report");
    assert_eq!(r.smart.reallocated_sectors, Some(312));
    assert_eq!(r.smart.pending_sectors, Some(16));
}

#[test]
fn sata_line_variants() {
    let r = parse_text("smartctl 7.4\nSATA Version is:  SATA 3.1, 3.0 Gb/s (current: 6.0 Gb/s)\n")
        .unwrap_or_default();
    assert_eq!(r.link_max_gbps, Some(3.0));
    assert_eq!(r.link_current_gbps, Some(6.0));
    let r = parse_text("smartctl 7.4\nSATA Version is: SATA 2.6, 3.0 Gb/s\n").unwrap_or_default();
    assert_eq!(r.link_current_gbps, None);
    assert_eq!(r.sata_version.as_deref(), Some("SATA 2.6"));
}

#[test]
fn smr_family() {
    assert!(family_is_smr("Seagate BarraCuda 3.5 (SMR)"));
    assert!(!family_is_smr("Seagate Barracuda Green (AF)"));
    assert!(family_is_smr("Seagate Archive HDD"));
    assert!(!family_is_smr("Seagate Archive HDD v2 spare parts"));
}

#[test]
fn the_capture_key_is_the_probes_argv_with_the_node() {
    let want = "cmd:smartctl -j -a /dev/sda";
    assert_eq!(capture_key("sda").to_string(), want);
    assert_eq!(capture_key("/dev/sda").to_string(), want);
    assert_eq!(SPEC.key_for("sda"), want);
    assert!(SPEC.captures(&capture_key("nvme0").to_string()));
}

#[test]
fn garbage_is_none() {
    assert!(parse("hello world\n\u{0}\u{1}").is_none());
    assert!(parse("{").is_none());
    let mut d = DiskFacts::new("sda", "/dev/sda");
    apply(&mut d, "cmd:x", "");
    assert!(d.smart.why().is_some());
}

/// The ATA error log's write-command entries name error-register bit 6 "WP" where a read's
/// names it "UNC" (ataprint.cpp format_st_er_desc): both are a failed medium access at the
/// LBA. Another bit ("ICRC, ABRT") or the word inside prose is not one.
#[test]
fn error_log_write_entries_count_like_unc() {
    // check_smart beside `smartctl -l error` (batch 28, checksmart16): ER 0x40 on a write.
    let t = "Error 1 occurred at disk power-on lifetime: 4281 hours (178 days + 9 hours)\n\
             \x20 When the command that caused the error occurred, the device was active or idle.\n\
             \x20 40 51 10 f8 9e 19 00  Error: WP at LBA = 0x00199ef8 = 1679096\n";
    let r = parse(t).unwrap_or_else(|| panic!("not recognised"));
    assert_eq!(r.smart.error_log_unc, Some(1));
    assert_eq!(r.smart.error_log_unc_last_hours, Some(4281));
    let near = "Error 2 occurred at disk power-on lifetime: 10 hours (0 days + 10 hours)\n\
                \x20 84 51 00 00 00 00 a0  Error: ICRC, ABRT at LBA = 0x00000000 = 0\n\
                \x20 Error: WPA supplicant failed\n";
    let r = parse(near).unwrap_or_else(|| panic!("not recognised"));
    assert_eq!(r.smart.error_log_unc, None);
}

/// smartctl -j's self-test log rows pasted without the log's counts (a FreeNAS report's
/// excerpt of `ata_smart_self_test_log`): each row object with "passed": false is a failed
/// test; a row that passed, or an object with a "status" but no row shape, is not counted.
#[test]
fn json_self_test_rows_without_the_counts() {
    let row = r#"{
          "type": { "value": 1, "string": "Short offline" },
          "status": { "value": 121, "string": "Completed: read failure",
                      "remaining_percent": 90, "passed": false },
          "lifetime_hours": 57058,
          "lba": 4200736
        },"#;
    let r = parse(row).unwrap_or_else(|| panic!("not recognised"));
    assert_eq!(r.smart.self_test_errors, Some(1));
    let table = r#"{"ata_smart_self_test_log": {"standard": {"table": [
        {"type": {"value": 1, "string": "Short offline"},
         "status": {"value": 0, "string": "Completed without error", "passed": true},
         "lifetime_hours": 100},
        {"type": {"value": 2, "string": "Extended offline"},
         "status": {"value": 121, "string": "Completed: read failure", "passed": false},
         "lifetime_hours": 90, "lba": 12}]}}}"#;
    let r = parse(table).unwrap_or_else(|| panic!("not recognised"));
    assert_eq!(r.smart.self_test_errors, Some(1));
    // Near misses: a passed row, and a "status" object of some other document.
    let ok = row.replace("\"passed\": false", "\"passed\": true");
    let r = parse(&ok).unwrap_or_else(|| panic!("not recognised"));
    assert_eq!(r.smart.self_test_errors, Some(0));
    assert!(parse(r#"{"status": {"string": "failed", "passed": false}}"#).is_none());
}

/// A Synology DSM USB disk node (usbN) whose SAT answers lack the ATA output registers is
/// a USB drive; the same message on an sdX node (a SAS HBA or RAID controller's SAT, the
/// isci and cciss controls of the reviewed corpus) or a usbN node without it is not.
#[test]
fn sat_registers_missing_on_a_dsm_usb_node() {
    use crate::model::{DiskFacts, Transport};
    let t = "smartctl 6.5 (build date Sep 26 2022) [x86_64-linux-4.4.302+] (local build)\n\
             === START OF READ SMART DATA SECTION ===\n\
             SMART Status not supported: Incomplete response, ATA output registers missing\n\
             SMART overall-health self-assessment test result: PASSED\n";
    let mut d = DiskFacts::new("usb1", "/dev/usb1");
    apply(&mut d, "cmd:smartctl -a /dev/usb1", t);
    assert_eq!(d.transport.get(), Some(Transport::Usb));
    let mut d = DiskFacts::new("sda", "/dev/sda");
    apply(&mut d, "cmd:smartctl -a /dev/sda", t);
    assert!(!d.transport.is_known());
    let ok = t.replace("Incomplete response, ATA output registers missing", "x");
    let mut d = DiskFacts::new("usb1", "/dev/usb1");
    apply(&mut d, "cmd:smartctl -a /dev/usb1", &ok);
    assert!(!d.transport.is_known());
    assert!(dsm_usb_node("usb12") && !dsm_usb_node("usb") && !dsm_usb_node("usbus1"));
}

/// openmediavault issue 1619 (Samsung T7 on a Raspberry Pi 4, smartctl 7.3): the SAT layer's
/// ATA PASS-THROUGH refused as an unknown opcode is a USB bridge that passes no ATA command.
#[test]
fn a_refused_ata_pass_through_is_a_usb_bridge() {
    let text = "smartctl 7.3 2022-02-28 r5338 [aarch64-linux-6.1.21-v8+] (local build)\n\
                Copyright (C) 2002-22, Bruce Allen, Christian Franke, www.smartmontools.org\n\n\
                Read Device Identity failed: scsi error unsupported scsi opcode\n\n\
                If this is a USB connected device, look at the various --device=TYPE variants\n";
    let r = parse(text).expect("smartctl");
    assert!(r.sat_refused);
    let mut d = DiskFacts::new("sda", "/dev/sda");
    apply(&mut d, "pasted:smartctl", text);
    assert_eq!(d.transport.get(), Some(Transport::Usb));
    assert_eq!(
        d.controller.value().and_then(|c| c.usb_passthrough_refused),
        Some(true)
    );
    // The same refusal in smartctl -j's messages, and the ASC 24h form.
    let json = r#"{"smartctl": {"exit_status": 2, "messages": [{"string": "Read Device Identity failed: scsi error unsupported field in scsi command", "severity": "error"}]}, "device": {"name": "/dev/sdg", "type": "sat", "protocol": "ATA"}}"#;
    assert!(parse(json).is_some_and(|r| r.sat_refused));
    // Near misses: a drive that aborted IDENTIFY or answered nothing says nothing of a bridge.
    for other in [
        "Read Device Identity failed: scsi error aborted command",
        "Read Device Identity failed: empty IDENTIFY data",
        "Read Device Identity failed: Input/output error",
    ] {
        assert!(!is_sat_refusal(other), "{other}");
    }
}

#[test]
fn scsi_error_counter_log_and_non_medium_count() {
    // smartctl 6.5 -a of a SAS SSD (scsiprint.cpp): the counter log's gigabytes column
    // and the non-medium count after it.
    let t = "Transport protocol:   SAS (SPL-3)\n\
SMART Health Status: OK\n\
Elements in grown defect list: 0\n\
\n\
Error counter log:\n\
           Errors Corrected by           Total   Correction     Gigabytes    Total\n\
               ECC          rereads/    errors   algorithm      processed    uncorrected\n\
           fast | delayed   rewrites  corrected  invocations   [10^9 bytes]  errors\n\
read:          0        0         0         0          0        399.596           0\n\
write:         0        0         0         0          0         13.949           0\n\
verify:        0        0         0         0          0       2800.619           0\n\
\n\
Non-medium error count:     4210\n";
    let r = parse(t).unwrap_or_else(|| unreachable!());
    assert_eq!(r.smart.scsi_non_medium_errors, Some(4210));
    let gb = r.smart.scsi_transferred_gb.unwrap_or(0.0);
    assert!((gb - 413.545).abs() < 0.01, "{gb}");
    assert_eq!(r.smart.reported_uncorrect, Some(0));
    // Near miss: an ATA report has neither.
    let a = parse("SMART overall-health self-assessment test result: PASSED\n")
        .unwrap_or_else(|| unreachable!());
    assert_eq!(a.smart.scsi_non_medium_errors, None);
    assert_eq!(a.smart.scsi_transferred_gb, None);
}

/// The Raspberry Pi kernels' release strings, in smartctl's build line and bare; other ARM
/// boards' and distributions' kernels are not Raspberry Pis.
#[test]
fn raspberry_pi_kernels_by_their_release() {
    for p in [
        "armv7l-linux-5.4.74-v7l+",
        "aarch64-linux-6.1.21-v8+",
        "armv7l-linux-4.19.97-v7+",
        "aarch64-linux-6.6.31-v8-16k+",
        "aarch64-linux-6.1.0-rpi7-rpi-v8",
        "aarch64-linux-6.6.51+rpt-rpi-2712",
        "6.12.25+rpt-rpi-v8",
        "armv7l-linux-6.6.20-1-rpi-ARCH",
        "aarch64-linux-5.15.0-1034-raspi",
    ] {
        assert!(raspberry_pi_kernel(p), "{p}");
    }
    for p in [
        "x86_64-linux-6.6.21-gentoo-dist",
        "armv7l-linux-5.10.60-sunxi",
        "aarch64-linux-6.1.0-13-arm64",
        "armv6l-linux-4.19.66+",
        "x86_64-linux-5.15.0-v8",
        "x86_64-linux-6.7.4-arch1-1",
        "",
    ] {
        assert!(!raspberry_pi_kernel(p), "{p}");
    }
}

/// "Incomplete response, ATA output registers missing" is a USB bridge's partial SAT on a
/// Raspberry Pi (no SATA or SAS port of its own), and says nothing of the path elsewhere
/// (a SAS HBA's or RAID controller's translation drops the registers too).
#[test]
fn registers_missing_on_a_raspberry_pi_is_a_usb_bridge() {
    let body = "\n=== START OF INFORMATION SECTION ===\n\
                Device Model:     CT500MX500SSD1\n\
                Rotation Rate:    Solid State Device\n\n\
                === START OF READ SMART DATA SECTION ===\n\
                SMART Status not supported: Incomplete response, ATA output registers missing\n\
                SMART overall-health self-assessment test result: PASSED\n\
                Warning: This result is based on an Attribute check.\n";
    let pi =
        format!("smartctl 7.3 2022-02-28 r5338 [aarch64-linux-6.1.21-v8+] (local build)\n{body}");
    let mut d = DiskFacts::new("sda", "/dev/sda");
    apply(&mut d, "pasted:smartctl", &pi);
    assert_eq!(d.transport.get(), Some(Transport::Usb));
    let pc =
        format!("smartctl 7.3 2022-02-28 r5338 [x86_64-linux-6.6.51-1-lts] (local build)\n{body}");
    let mut d = DiskFacts::new("sda", "/dev/sda");
    apply(&mut d, "pasted:smartctl", &pc);
    assert_ne!(d.transport.get(), Some(Transport::Usb));
    // A Pi whose SAT answers carry the registers is no evidence either way.
    let mut d = DiskFacts::new("sda", "/dev/sda");
    apply(
        &mut d,
        "pasted:smartctl",
        &pi.replace(
            "SMART Status not supported: Incomplete response, ATA output registers missing\n",
            "",
        ),
    );
    assert_ne!(d.transport.get(), Some(Transport::Usb));
    // JSON: the platform string of smartctl -j.
    let json = r#"{"smartctl": {"platform_info": "armv7l-linux-5.4.74-v7l+", "exit_status": 0}, "device": {"name": "/dev/sda", "type": "sat", "protocol": "ATA"}}"#;
    assert!(parse(json).is_some_and(|r| r.raspberry_pi));
}

/// A USB-NVMe bridge refusing the vendor command of its smartctl type (lib/scsinvme.cpp
/// tunnels NVMe through SCSI): "Read NVMe Identify Controller failed: scsi error ...". A
/// native NVMe drive's failure carries an NVMe status instead.
#[test]
fn a_usb_nvme_bridge_refusing_its_tunnel_is_a_refusal() {
    let text = "smartctl 7.4 2023-08-01 r5530 [x86_64-linux-6.8.0-31-generic] (local build)\n\
                Copyright (C) 2002-23, Bruce Allen, Christian Franke, www.smartmontools.org\n\n\
                Read NVMe Identify Controller failed: scsi error unsupported scsi opcode\n";
    let mut d = DiskFacts::new("sdb", "/dev/sdb");
    apply(&mut d, "pasted:smartctl", text);
    assert_eq!(d.transport.get(), Some(Transport::Usb));
    assert_eq!(
        d.controller.value().and_then(|c| c.usb_passthrough_refused),
        Some(true)
    );
    for other in [
        "Read NVMe Identify Controller failed: NVMe Status 0x4002",
        "Read NVMe Identify Controller failed: scsi error aborted command",
        "Read NVMe Identify Controller failed: Input/output error",
    ] {
        assert!(!is_sat_refusal(other), "{other}");
    }
}

/// smartctl's SCSI view of an 8 TB 5400 rpm disk in a USB enclosure, spoken to without
/// `-d sat`: the translator reports the platters' rotation rate but no SMART.
#[test]
fn a_scsi_view_with_a_rotation_rate_and_no_smart_is_a_bridged_disk() {
    use crate::model::{DiskFacts, Transport};
    let t = "=== START OF INFORMATION SECTION ===\n\
             Vendor:               WD\n\
             Product:              Elements 25A3\n\
             Revision:             1030\n\
             Compliance:           SPC-4\n\
             User Capacity:        8,001,529,315,328 bytes [8.00 TB]\n\
             Logical block size:   512 bytes\n\
             Rotation Rate:        5400 rpm\n\
             Device type:          disk\n\
             SMART support is:     Unavailable - device lacks SMART capability.\n";
    let mut d = DiskFacts::new("sda", "/dev/sda");
    apply(&mut d, "pasted:smartctl", t);
    assert_eq!(d.transport.get(), Some(Transport::Usb));
    // Near misses: a SAS disk with SMART, libata's own translation ("ATA"), a RAID volume,
    // and a device that reports no rotation rate (a virtual or network LUN).
    for other in [
        t.replace(
            "Unavailable - device lacks SMART capability.",
            "Available - device has SMART capability.",
        ),
        t.replace("Vendor:               WD", "Vendor:               ATA"),
        t.replace("Vendor:               WD", "Vendor:               IBM")
            .replace("Elements 25A3", "ServeRAID M5015"),
        t.replace("Rotation Rate:        5400 rpm\n", ""),
    ] {
        let mut d = DiskFacts::new("sda", "/dev/sda");
        apply(&mut d, "pasted:smartctl", &other);
        assert!(!d.transport.is_known(), "{other}");
    }
}

/// smartctl's closing line of an ATA self-test log names the failures a newer passed
/// extended test outdated: they do not count, even when the row that passed was cut off.
#[test]
fn outdated_self_test_failures_do_not_count() {
    let t = "=== START OF READ SMART DATA SECTION ===\n\
             SMART overall-health self-assessment test result: PASSED\n\
             # 2  Extended offline    Completed: read failure       90%      5940         9321057\n\
             1 of 1 failed self-tests are outdated by newer successful extended offline self-test # 1\n";
    let r = parse(t).unwrap_or_else(|| panic!("not recognised"));
    assert_eq!(r.smart.self_test_errors, Some(0));
    // Near miss: one of three outdated leaves two standing.
    let t = "# 2  Extended offline    Completed: read failure       90%      5940         9321057\n\
             1 of 3 failed self-tests are outdated by newer successful extended offline self-test # 1\n";
    let r = parse(t).unwrap_or_else(|| panic!("not recognised"));
    assert_eq!(r.smart.self_test_errors, Some(2));
    assert_eq!(
        outdated_failures("3 of 2 failed self-tests are outdated by newer successful"),
        None
    );
    assert_eq!(outdated_failures("1 of 1 failed attempts"), None);
}
