#[test]
fn freebsd_nvme_reset_that_does_not_finish() {
    let log = "nvme0: Resetting controller due to a timeout.\n\
                   nvme0: resetting controller\n\
                   nvme0: Waiting for reset to complete\n\
                   nvme0: Waiting for reset to complete\n\
                   nvme1: controller ready did not become 1 within 30000 ms\n";
    assert_eq!(super::freebsd_nvme_reset_hangs(log, "nvme0").len(), 2);
    assert_eq!(super::freebsd_nvme_reset_hangs(log, "nvme1").len(), 1);
    // One wait, or another controller's lines, is no hang.
    let once = "nvme0: resetting controller\nnvme0: Waiting for reset to complete\n";
    assert!(super::freebsd_nvme_reset_hangs(once, "nvme0").is_empty());
    assert!(super::freebsd_nvme_reset_hangs(log, "nvme2").is_empty());
}

#[test]
fn freebsd_nvme_reset_after_a_timeout() {
    // nvme_qpair.c: the reset line, then the host's aborts of the outstanding I/O.
    let log = "May 11 09:30:55 c10 kernel: nvme0: Resetting controller due to a timeout.\n\
                   May 11 09:30:55 c10 kernel: nvme0: aborting outstanding i/o\n\
                   May 11 09:30:55 c10 kernel: nvme0: ABORTED - BY REQUEST (00/07) sqid:6 cid:94 cdw0:0\n";
    let v = super::freebsd_nvme_timeout_resets(log, "nvme0");
    assert_eq!(v.len(), 1, "{v:?}");
    assert!(super::is_timeout_reset(&v[0]));
    // Near misses: another controller, and a media status beside the reset.
    assert!(super::freebsd_nvme_timeout_resets(log, "nvme1").is_empty());
    let media = format!("{log}nvme0: UNRECOVERED READ ERROR (02/81) sqid:1 cid:5 cdw0:0\n");
    assert!(super::freebsd_nvme_timeout_resets(&media, "nvme0").is_empty());
}

#[test]
fn picks_only_this_controller() {
    let log = "[1] nvme nvme0: controller is down; will reset: CSTS=0xffffffff\n\
                   [2] nvme nvme1: Does your device have a faulty power saving mode enabled?\n\
                   [3] pcieport 0000:00:1c.0: AER: Corrected error received: 0000:03:00.0\n\
                   [4] pcieport 0000:00:1d.0: AER: Corrected error received: 0000:05:00.0\n\
                   [5] pcieport 0000:00:1c.0: AER: enabled with IRQ 122\n";
    let a = vec!["0000:03:00.0".to_string()];
    assert_eq!(super::nvme_power_lines(log, "nvme0", &a).len(), 1);
    // core.c nvme_wait_ready and nvme_configure_apst, with varied values.
    let apst = "[204263.471182] nvme nvme3: Device not ready; aborting reset, CSTS=0x1\n\
                   [9.1] nvme nvme3: Device not ready; aborting initialisation, CSTS=0x0\n\
                   [9.2] nvme nvme3: failed to set APST feature (-19)\n\
                   [9.3] nvme nvme2: failed to set APST feature (2)\n";
    assert_eq!(super::nvme_power_lines(apst, "nvme3", &[]).len(), 3);
    // A positive value is the controller's own status refusing the table: no fault.
    assert!(super::nvme_power_lines(apst, "nvme2", &[]).is_empty());
    assert!(super::nvme_power_lines(apst, "nvme0", &[]).is_empty());
    let dead = format!("{apst}[9.4] nvme nvme3: Removing after probe failure status: -19\n");
    assert_eq!(super::nvme_power_lines(&dead, "nvme3", &[]).len(), 1);
    assert_eq!(super::aer_lines(log, &a).len(), 1);
}

#[test]
fn nvme_timeouts_while_the_system_sleeps_or_wakes() {
    // pci.c nvme_timeout / abort_endio lines between suspend.c's entry and exit (and the
    // ACPI and EC lines of a paste that starts inside the transition), other numbers.
    let log = "[  50.0] PM: suspend entry (deep)\n\
                   [  50.1] nvme nvme1: I/O 77 QID 5 timeout, aborting\n\
                   [  50.2] nvme nvme1: Abort status: 0x0\n\
                   [  50.3] nvme nvme0: I/O 3 QID 1 timeout, reset controller\n\
                   [  51.0] PM: suspend exit\n\
                   [  90.0] nvme nvme1: I/O 12 QID 3 timeout, aborting\n\
                   Jun 1 10:00:00 host kernel: ACPI: EC: interrupt blocked\n\
                   Jun 1 10:00:01 host kernel: nvme nvme1: I/O 22 QID 0 timeout, completion polled\n\
                   Jun 1 10:00:02 host kernel: PM: hibernation exit\n";
    let one = super::nvme_sleep_transition_lines(log, "nvme1");
    assert_eq!(one.len(), 3, "{one:?}");
    assert!(one.iter().all(|l| !l.contains("QID 3")), "{one:?}");
    assert_eq!(super::nvme_sleep_transition_lines(log, "nvme0").len(), 1);
    // The same lines without any sleep transition around them: nothing.
    let plain = "nvme nvme1: I/O 77 QID 5 timeout, aborting\nnvme nvme1: Abort status: 0x0\n";
    assert!(super::nvme_sleep_transition_lines(plain, "nvme1").is_empty());
    assert!(super::nvme_power_lines(plain, "nvme1", &[]).is_empty());
    // nvme_power_lines carries them for power-management.
    assert_eq!(super::nvme_power_lines(log, "nvme1", &[]).len(), 3);
}

#[test]
fn nvme_timeouts_before_a_failed_resume_callback() {
    // pci.c nvme_timeout lines, then the PM core's pm_dev_err for the NVMe function.
    let log = "[ 83.556118] nvme nvme1: I/O 161 QID 2 timeout, aborting\n\
                   [ 95.332114] nvme nvme1: I/O 25 QID 0 timeout, reset controller\n\
                   [ 95.332843] nvme nvme1: Abort status: 0x371\n\
                   [ 95.332936] nvme 0000:04:00.0: PM: failed to resume async: error -16\n";
    assert_eq!(super::nvme_sleep_transition_lines(log, "nvme1").len(), 3);
    // Near miss: another device's resume failure is no NVMe sleep transition.
    let other = log.replace("nvme 0000:04:00.0: PM", "xhci_hcd 0000:05:00.3: PM");
    assert!(super::nvme_sleep_transition_lines(&other, "nvme1").is_empty());
}

#[test]
fn nvme_timeouts_that_end_in_a_reset_without_a_media_status() {
    // pci.c nvme_timeout in its 6.x form, then core.c nvme_log_error's path status.
    let log = "kernel: nvme nvme0: I/O tag 717 (c2cd) opcode 0x1 (Write) QID 1 timeout, aborting req_op:WRITE(1) size:4096\n\
                   kernel: nvme nvme0: I/O tag 717 (c2cd) opcode 0x1 (Write) QID 1 timeout, reset controller\n\
                   kernel: nvme0n1: Read(0x2) @ LBA 55523248, 16 blocks, Host Aborted Command (sct 0x3 / sc 0x71)\n\
                   kernel: I/O error, dev nvme0n1, sector 55523248 op 0x0:(READ) flags 0x80700\n";
    let lines = super::nvme_power_lines(log, "nvme0", &[]);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(super::is_timeout_reset(&lines[0]));
    // Near misses: aborts that never escalated to a reset, a media status on the
    // namespace, another controller.
    let aborts = "nvme nvme0: I/O 12 QID 3 timeout, aborting\nnvme nvme0: Abort status: 0x0\n";
    assert!(super::nvme_power_lines(aborts, "nvme0", &[]).is_empty());
    let media = format!(
        "{log}nvme0n1: Read(0x2) @ LBA 8, 8 blocks, Unrecovered Read Error (sct 0x2 / sc 0x81)\n"
    );
    assert!(super::nvme_power_lines(&media, "nvme0", &[]).is_empty());
    assert!(super::nvme_power_lines(log, "nvme1", &[]).is_empty());
}

#[test]
fn sata_lpm_setup_failures_of_one_port() {
    // libata-eh.c ata_eh_set_lpm and libahci.c ahci_set_aggressive_devslp, with other
    // ports, Emask values and prefixes (timestamps, syslog, a quote).
    let log = "[    2.548242] ata2.00: failed to enable DEVSLP\n\
                   [    2.548249] ata2.00: failed to enable DIPM, Emask 0x40\n\
                   Jan 3 10:00:01 host kernel: ata11.01: failed to disable DIPM, Emask 0x4\n\
                   > [22.642447] ata11.00: disabling LPM on the link\n\
                   [22.7] ata7: disabling LPM on the link\n\
                   [22.8] ata1: SATA link up 6.0 Gbps (SStatus 133 SControl 300)\n\
                   [22.9] ata1.00: Features: Dev-Sleep NCQ-sndrcv\n";
    let two = super::sata_lpm_failures(log, 2);
    assert_eq!(two.len(), 2, "{two:?}");
    assert_eq!(two[1], "ata2.00: failed to enable DIPM, Emask 0x40");
    assert_eq!(super::sata_lpm_failures(log, 11).len(), 2);
    assert_eq!(super::sata_lpm_failures(log, 7).len(), 1);
    // A port that only advertises the feature, and ata1 against ata11: nothing.
    assert!(super::sata_lpm_failures(log, 1).is_empty());
}

/// 6.x words the root port's report "Correctable error message received from ADDR".
#[test]
fn aer_lines_newer_wording() {
    let log = "pcieport 0000:80:02.0: AER: Correctable error message received from 0000:81:00.0\n\
               pcieport 0000:00:1c.0: AER: enabled with IRQ 122\n";
    let v = crate::sources::power_log::aer_lines(log, &["0000:81:00.0".to_string()]);
    assert_eq!(v.len(), 1);
}

/// hd-idle's debug log, then the card reader's capacity dropping to 0.
#[test]
fn medium_lost_after_a_spin_down() {
    let log = "sdc spindown\n\
               disk=sdc command=scsi spunDown=true reads=812 writes=3 idleTime=600\n\
               [ 1204.118812] sdc: detected capacity change from 62333952 to 0\n\
               [ 1250.004417] I/O error, dev sdc, sector 2048 op 0x0:(READ) flags 0x80700\n";
    let v = crate::sources::power_log::medium_lost_after_stop(log, "sdc");
    assert_eq!(v.len(), 2);
    assert!(crate::sources::power_log::is_medium_lost(&v[1]));
    // Near misses: another disk spun down; a capacity change to a new size.
    assert!(crate::sources::power_log::medium_lost_after_stop(log, "sdb").is_empty());
    let grown = "sdc spindown\nsdc: detected capacity change from 0 to 62333952\n";
    assert!(crate::sources::power_log::medium_lost_after_stop(grown, "sdc").is_empty());
}

#[test]
fn apst_refused_by_the_controller_is_no_power_fault() {
    // core.c nvme_configure_apst: a positive NVMe status (the controller answered and
    // refused the table) against a negative errno (the command never completed).
    let log = "[    3.104220] nvme nvme1: pci function 0000:04:00.0\n\
               [    3.511904] nvme nvme1: failed to set APST feature (6)\n\
               [  812.004113] nvme nvme4: failed to set APST feature (-110)\n";
    assert!(super::is_apst_refused_by_drive(
        "nvme nvme1: failed to set APST feature (6)"
    ));
    assert!(!super::is_apst_refused_by_drive(
        "nvme nvme4: failed to set APST feature (-110)"
    ));
    assert!(super::nvme_power_lines(log, "nvme1", &[]).is_empty());
    assert_eq!(super::nvme_power_lines(log, "nvme4", &[]).len(), 1);
}
