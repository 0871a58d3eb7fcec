use super::*;

/// Each warning of a paste with the device it names, in order.
fn warnings(t: &str) -> Vec<(String, Warning)> {
    parse(t)
        .into_iter()
        .map(|e| (e.device, e.warning))
        .collect()
}

#[test]
fn warnings_in_smartd_formats() {
    // Built from smartd.cpp's formats: check_pending with a -d type in brackets and
    // the " (changed %+d)" tail, the self-check, a usage attribute, NVMe's byte.
    let t = "Device: /dev/sdb [SAT], 16 Currently unreadable (pending) sectors (changed +8)\n\
                 Device: /dev/ada1, 3 Offline uncorrectable sectors\n\
                 Device: /dev/sdc, 24 Total offline uncorrectable sectors\n\
                 Device: /dev/sdd [SAT], FAILED SMART self-check. BACK UP DATA NOW!\n\
                 Device: /dev/sde, Failed SMART usage Attribute: 184 End-to-End_Error.\n\
                 Device: /dev/nvme0, Critical Warning (0x04): Reliability\n\
                 Device: /dev/sdf, opened\n";
    assert_eq!(
        warnings(t),
        vec![
            ("sdb".into(), Warning::Pending(16)),
            ("ada1".into(), Warning::OfflineUncorrectable(3)),
            ("sdc".into(), Warning::OfflineUncorrectable(24)),
            ("sdd".into(), Warning::HealthFailed),
            (
                "sde".into(),
                Warning::FailedAttribute("184 End-to-End_Error".into())
            ),
            ("nvme0".into(), Warning::CriticalWarning(4)),
        ]
    );
    // Inside the mail's sentence; an informational line is no warning.
    assert_eq!(
            parse("logged by the smartd daemon: Device: /dev/sda, 2 Currently unreadable (pending) sectors")
                .len(),
            1
        );
    assert!(parse("Device: /dev/sda, is SMART capable. Adding to \"monitor\" list.").is_empty());
}

#[test]
fn log_reads_that_failed() {
    // openstreetmap/operations issue 403 and illinois-scicomp/machine-shop-maintenance
    // issue 41 (batch 11 of the reviewed corpus) and
    // smartd.cpp's ATA format: the log named, the drive behind its controller.
    let t = "Device: /dev/bus/7 [megaraid_disk_10], Read SMART Self-Test Log Failed\n\
                 Device: /dev/sg1 [cciss_disk_05] [SCSI], Read SMART Self-Test Log Failed\n\
                 Device: /dev/sdb [SAT], Read SMART Error Log Failed\n";
    assert_eq!(
        warnings(t),
        vec![
            (
                "megaraid_disk_10".into(),
                Warning::LogReadFailed("Self-Test Log".into())
            ),
            (
                "cciss_disk_05".into(),
                Warning::LogReadFailed("Self-Test Log".into())
            ),
            ("sdb".into(), Warning::LogReadFailed("Error Log".into())),
        ]
    );
    assert!(is_log_read_failure(
        "Device: /dev/sdb [SAT], Read SMART Error Log Failed"
    ));
    assert!(!is_log_read_failure(
        "ata1.00: failed command: READ LOG DMA EXT"
    ));
}

#[test]
fn ata_error_log_growth() {
    // smartd.cpp ATACheckDevice's ErrorCount mail line.
    let t = "Device: /dev/sda [SAT], ATA error count increased from 0 to 4\n\
                 Device: /dev/sdb, ATA error count increased from 12 to 13\n\
                 Device: /dev/sdc [SAT], ATA error count increased from x to 4\n";
    assert_eq!(
        warnings(t),
        vec![
            ("sda".into(), Warning::ErrorLogGrew(0, 4)),
            ("sdb".into(), Warning::ErrorLogGrew(12, 13)),
        ]
    );
    assert!(!is_log_read_failure(
        "Device: /dev/sda [SAT], ATA error count increased from 0 to 4"
    ));
}

#[test]
fn scsi_drives_behind_raid_controllers() {
    // smartd mails from SAS drives behind HP cciss and LSI megaraid controllers
    // (openstreetmap-chef mail archive, as in the corpus): two bracket groups, the
    // informational exception and the self-test log count.
    let t = "Device: /dev/sg1 [cciss_disk_06] [SCSI], Self-Test Log error count increased from 3 to 4\n\
                 Device: /dev/sg2 [megaraid_disk_21], SMART Failure: FAILURE PREDICTION THRESHOLD EXCEEDED: ascq=0x5\n\
                 Device: /dev/bus/0 [megaraid_disk_02] [SAT], 8 Currently unreadable (pending) sectors\n";
    assert_eq!(
        warnings(t),
        vec![
            ("cciss_disk_06".into(), Warning::SelfTestErrors(4)),
            (
                "megaraid_disk_21".into(),
                Warning::PredictedFailure("FAILURE PREDICTION THRESHOLD EXCEEDED: ascq=0x5".into())
            ),
            ("megaraid_disk_02".into(), Warning::Pending(8)),
        ]
    );
    assert!(is_line("Device: /dev/sg1 [cciss_disk_06] [SCSI], opened"));
}
