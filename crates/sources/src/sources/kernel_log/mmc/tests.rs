use super::*;
use crate::sources::kernel_log::{disks_named, events_for};

#[test]
fn linux_card_and_host_errors_by_errno() {
    use KernelEventKind::*;
    for (line, kind) in [
        // core/block.c mmc_blk_cmd_recovery and mmc_blk_cmd_error.
        (
            "mmcblk0: error -110 sending stop command, original cmd response 0x900, card status 0x900",
            Some(IoTimeout),
        ),
        (
            "mmcblk0: error -84 transferring data, sector 8, nr 8, cmd response 0x900, card status 0xb00",
            Some(CrcError),
        ),
        (
            "mmcblk1: timed out sending r/w cmd command, card status 0x900",
            Some(IoTimeout),
        ),
        (
            "mmcblk0: response CRC error sending r/w cmd command, card status 0x900",
            Some(CrcError),
        ),
        (
            "mmcblk0p2: error -5 transferring data, sector 8, nr 8",
            Some(IoError),
        ),
        // core/mmc_ops.c __mmc_poll_for_busy, core.c, host/sdhci.c.
        (
            "mmc0: Card stuck being busy! __mmc_poll_for_busy",
            Some(IoTimeout),
        ),
        (
            "mmc0: error -110 whilst initialising SD card",
            Some(IoTimeout),
        ),
        ("mmc0: error -110 doing runtime resume", Some(IoTimeout)),
        ("mmc0: cache flush error -110", Some(IoTimeout)),
        (
            "mmc0: Timeout waiting for hardware interrupt.",
            Some(IoTimeout),
        ),
        (
            "mmc0: Timeout waiting for hardware interrupt - cmd12.",
            Some(IoTimeout),
        ),
    ] {
        assert_eq!(classify(line), kind, "{line}");
    }
    // Near misses: a pulled card (ENOMEDIUM), the attach and removal lines, the e.MMC's
    // boot area, a retry note, and an "error -110" of another driver.
    for line in [
        "mmc0: error -123 whilst initialising SD card",
        "mmcblk0: mmc0:aaaa SU08G 7.40 GiB",
        "mmc0: card d555 removed",
        "mmc0: final write to SD card still running",
        "mmcblk0boot0: error -110 sending stop command",
        "mmcblk0: retrying using single block read",
        "brcmfmac: brcmf_sdio_htclk: HT Avail timeout (1000000): clkctl 0x50",
        "usb 1-1: error -110 reading descriptor",
        "mmcblkx: error -110 sending stop command",
    ] {
        assert_eq!(classify(line), None, "{line}");
    }
}

#[test]
fn freebsd_mmcsd_error_codes() {
    use KernelEventKind::*;
    assert_eq!(
        classify("mmcsd0: Error indicated: 1 Timeout"),
        Some(IoTimeout)
    );
    assert_eq!(
        classify("mmcsd0: Error indicated: 2 Bad CRC"),
        Some(CrcError)
    );
    assert_eq!(classify("mmcsd0: Error indicated: 4 Failed"), Some(IoError));
    // Near misses: a request the driver built wrong, and the healthy attach line.
    assert_eq!(classify("mmcsd0: Error indicated: 5 Invalid"), None);
    assert_eq!(
        classify(
            "mmcsd0: 125GB <MMCHC DJNB4R 0.7 SN 1 MFG 06/2016 by 21 0x0000> at mmc0 150.0MHz/8bit/1016-block"
        ),
        None
    );
    assert_eq!(classify("mmc0: Error indicated: 1 Timeout"), None);
}

#[test]
fn host_lines_are_the_card_when_the_log_ties_them() {
    // A syslog excerpt: one host, one card (the RPi's OpenELEC log, issue 841).
    let log = "Jun 21 17:28:01 openelec user.err kernel: [ 1350.909342] mmc0: final write to SD card still running\n\
               Jun 21 17:28:11 openelec user.err kernel: [ 1360.887503] mmc0: Timeout waiting for hardware interrupt - cmd12.\n\
               Jun 21 17:28:11 openelec user.err kernel: [ 1360.887696] mmcblk0: error -110 sending stop command, original cmd response 0x900, card status 0x900\n";
    assert_eq!(host_for("mmcblk0", log).as_deref(), Some("mmc0"));
    assert_eq!(disks_named(log), ["mmcblk0"]);
    assert_eq!(events_for("mmcblk0", log, "k").len(), 2);
    // The attach line ties the host to its card ("mmcblk0: mmc0:d555 ...").
    let attach = "mmc0: Card stuck being busy! __mmc_poll_for_busy\n\
                  mmc0: error -110 doing runtime resume\n\
                  mmcblk0: mmc0:d555 SM02T 1.86 TiB\n";
    assert_eq!(disks_named(attach), ["mmcblk0"]);
    assert_eq!(events_for("mmcblk0", attach, "k").len(), 2);
    // Near miss: the card on mmc0, the errors on mmc1 (an SDIO Wi-Fi's host): not the card's.
    let wifi = "mmcblk0: mmc0:aaaa SU08G 7.40 GiB\n\
                mmc1: Timeout waiting for hardware interrupt.\n";
    assert!(disks_named(wifi).is_empty());
    assert!(events_for("mmcblk0", wifi, "k").is_empty());
    // FreeBSD: the attach line names the bus.
    let bsd = "mmcsd0: 63GB <SDHC ASTC 0.0 SN 000002D9 MFG 09/2022 by 159 TI> at mmc1 50.0MHz/4bit/65535-block\n\
               mmcsd0: Error indicated: 1 Timeout\n";
    assert_eq!(host_for("mmcsd0", bsd).as_deref(), Some("mmc1"));
    assert_eq!(events_for("mmcsd0", bsd, "k").len(), 1);
}

#[test]
fn linux_mmc_lines_are_recognised() {
    assert!(LINUX_MMC.is_match("mmc0: final write to SD card still running"));
    assert!(
        LINUX_MMC.is_match("mmcblk0: error -110 sending stop command, original cmd response 0x900")
    );
    assert!(LINUX_MMC.is_match("mmcblk0: mmc0:d555 SM02T 1.86 TiB"));
    // Any errno line of a host (sd.c sd_read_ext_regs) and any attach (an SDIO card too).
    assert!(LINUX_MMC.is_match("mmc1: error -110 reading general info of SD ext reg"));
    assert!(LINUX_MMC.is_match("mmc1: new high speed SDIO card at address 0001"));
    // FreeBSD's mmc lines are not Linux's.
    assert!(!LINUX_MMC.is_match("mmc0: <MMC/SD bus> on sdhci_bcm1"));
    assert!(!LINUX_MMC.is_match("mmcsd0: Error indicated: 1 Timeout"));
}

#[test]
fn failed_initialisations_before_the_card_attached_are_retries() {
    // raspberrypi/firmware#127: three EILSEQ tries, then the card attached on the same host.
    let log = "[    1.335949] mmc0: problem reading SD Status register.\n\
               [    1.338761] mmc0: error -84 whilst initialising SD card\n\
               [    1.449582] mmc0: error -84 whilst initialising SD card\n\
               [    1.563112] mmc0: error -84 whilst initialising SD card\n\
               [    1.716980] mmc0: new high speed SDHC card at address 59b4\n\
               [    1.717629] mmcblk0: mmc0:59b4 00000 3.67 GiB\n\
               [    1.719247]  mmcblk0: p1 p2\n";
    assert_eq!(settled_hosts(log), ["mmc0"]);
    assert!(events_for("mmcblk0", log, "k").is_empty());
    assert!(cards_with_errors(log).is_empty());
    assert!(unattached_init_failures(log, "k").is_empty());
    // Near miss: the card removed and failing again with no attach after: its errors count.
    let again = format!(
        "{log}[   90.0] mmc0: card 59b4 removed\n\
         [   91.0] mmc0: error -110 whilst initialising SD card\n"
    );
    assert!(settled_hosts(&again).is_empty());
    assert_eq!(events_for("mmcblk0", &again, "k").len(), 4);
}

#[test]
fn a_card_that_never_initialises_is_the_pasted_disks() {
    // Fishwaldo/meta-pine64#24: sd.c sd_read_ext_regs and mmc_attach_sd, four tries, no card.
    let log = "[    1.505609] mmc1: error -110 reading general info of SD ext reg\n\
               [    1.511579] mmc1: error -110 whilst initialising SD card\n\
               [    2.366004] mmc1: error -110 reading general info of SD ext reg\n\
               [    2.366035] mmc1: error -110 whilst initialising SD card\n";
    let ev = unattached_init_failures(log, "k");
    assert_eq!(ev.len(), 4, "{ev:?}");
    assert!(ev.iter().all(|e| e.kind == KernelEventKind::IoTimeout));
    // Near misses: one try (the paste may be cut before the attach), an SDIO Wi-Fi's host,
    // and a host the log ties to a card disk (that disk's own errors).
    assert!(unattached_init_failures(&log[..log.len() / 2], "k").is_empty());
    let sdio = "mmc1: error -110 whilst initialising SDIO card\n\
                mmc1: error -110 whilst initialising SDIO card\n";
    assert!(unattached_init_failures(sdio, "k").is_empty());
    let tied = format!("mmcblk1: mmc1:aaaa SU08G 7.40 GiB\nmmc1: card aaaa removed\n{log}");
    assert!(unattached_init_failures(&tied, "k").is_empty());
}

#[test]
fn runtime_pm_failures_name_their_host() {
    assert_eq!(
        runtime_pm_failure_host("mmc0: error -110 doing runtime resume"),
        Some("mmc0")
    );
    assert_eq!(
        runtime_pm_failure_host("mmc2: error -5 doing aggressive suspend"),
        Some("mmc2")
    );
    for line in [
        "mmc0: error -110 whilst initialising SD card",
        "mmcblk0: error -110 doing runtime resume",
        "mmc0: error - doing runtime resume",
    ] {
        assert_eq!(runtime_pm_failure_host(line), None, "{line}");
    }
}

#[test]
fn command_queue_engine_timeouts_and_recovery() {
    // drivers/mmc/host/cqhci-core.c and core/block.c's CQE recovery, as a ROCK 5B's e.MMC
    // logged them before its file system went read-only.
    for line in [
        "mmc0: running CQE recovery",
        "mmc0: cqhci: Failed to halt",
        "mmc2: cqhci: timeout for tag 3",
    ] {
        assert!(LINUX_MMC.is_match(line), "{line}");
        assert_eq!(classify(line), Some(KernelEventKind::IoTimeout), "{line}");
    }
    // Near misses: the register dump and a spurious completion are no failed request.
    for line in [
        "mmc2: cqhci: ============ CQHCI REGISTER DUMP ===========",
        "mmc0: cqhci: spurious TCN for tag 9",
        "mmc2: cqhci: Caps:      0x00000000 | Version:  0x00000510",
    ] {
        assert_eq!(classify(line), None, "{line}");
    }
}

#[test]
fn host_errors_with_no_card_named_are_the_pasted_disk_s() {
    let log = "2024-09-26T11:32:35.548496+00:00 ubuntu kernel: mmc0: running CQE recovery\n\
               2024-09-26T11:32:36.067121+00:00 ubuntu kernel: mmc0: cqhci: Failed to halt\n\
               2024-09-26T11:32:36.067172+00:00 ubuntu kernel: mmc0: cqhci: spurious TCN for tag 9\n";
    let e = unnamed_host_errors(log, "paste");
    assert_eq!(e.len(), 2, "{e:?}");
    // A log that names the card ties the host to it instead (host_for), and an SDIO host
    // is a Wi-Fi card's.
    let named = format!("{log}[    2.1] mmcblk0: mmc0:0001 BJTD4R 29.1 GiB\n");
    assert!(unnamed_host_errors(&named, "paste").is_empty());
    let wifi = "[    1.0] mmc1: new high speed SDIO card at address 0001\n\
                [    9.0] mmc1: Timeout waiting for hardware interrupt.\n";
    assert!(unnamed_host_errors(wifi, "paste").is_empty());
}

/// MediaTek MSDC's failed retuning tries after a CRC error are link errors of the card's
/// host; a try that passed, or its other debug lines, are not.
#[test]
fn msdc_tune_failures_are_link_errors() {
    let log = "[  930.103801] msdc0 -> TUNE_BWRITE<PASS> DSPL<0> DATWRDLY<-1> MSDC_DAT_RDDLY0<0x10101010> <- msdc_tune_bwrite() : L<1546> PID<mmcqd/0><0x23f>\n\
               [  933.262527] msdc0 -> cmd<13> resp<0xe00> <- msdc_check_busy() : L<1614> PID<mmcqd/0><0x23f>\n\
               [  933.309746] msdc0 -> TUNE_BWRITE<FAIL> DSPL<0> DATWRDLY<-1> MSDC_DAT_RDDLY0<0x10101010> <- msdc_tune_bwrite() : L<1546> PID<mmcqd/0><0x23f>\n";
    let ev = unnamed_host_errors(log, "paste");
    assert_eq!(ev.len(), 1);
    assert_eq!(ev[0].kind, KernelEventKind::CrcError);
    assert!(!msdc_tune_failed("msdc0 -> TUNE_BREAD<PASS> dcrc<0x0>"));
    assert!(!msdc_tune_failed("mmc0 -> TUNE_BREAD<FAIL>"));
    // The driver's lines start a kernel log.
    let first = log.lines().next().unwrap_or_default();
    assert_eq!(
        crate::sources::kernel_log::start_prefixed(&[first]),
        crate::sources::spec::Start::Yes
    );
}

#[test]
fn a_host_that_reads_all_ones_silences_its_card() {
    // GalliumOS on a Bay Trail Chromebook (legacy firmware): the SDHCI controller never
    // finishes its reset and every register reads all ones.
    let dump = "[   31.393210] mmc2: Reset 0x4 never completed.\n\
                [   31.394561] sdhci: =========== REGISTER DUMP (mmc2)===========\n\
                [   31.395947] sdhci: Sys addr: 0xffffffff | Version:  0x0000ffff\n\
                [   31.397347] sdhci: Blk size: 0x0000ffff | Blk cnt:  0x0000ffff\n\
                [   31.398745] sdhci: Argument: 0xffffffff | Trn mode: 0x0000ffff\n\
                [   31.400142] sdhci: Present:  0xffffffff | Host ctl: 0x000000ff\n\
                [   31.415385] mmcblk2: error -5 sending status command, aborting\n\
                [   31.416783] blk_update_request: I/O error, dev mmcblk2, sector 4476928\n";
    assert_eq!(dead_hosts(dump), ["mmc2", "mmcblk2"]);
    assert!(super::super::events_for("mmcblk2", dump, "k").is_empty());
    // Near miss: a controller whose dump reads real values keeps its card's errors.
    let alive = dump
        .replace("Sys addr: 0xffffffff", "Sys addr: 0x00000000")
        .replace("Version:  0x0000ffff", "Version:  0x00001002");
    assert!(dead_hosts(&alive).is_empty());
    assert!(!super::super::events_for("mmcblk2", &alive, "k").is_empty());
}

#[test]
fn a_card_initialised_again_after_its_errors_is_a_link_event() {
    // dw_mmc (dw_mci_setup_bus) on another board and card: the first clock is the card's
    // first initialisation, the drop to 400 kHz after the write errors is the recovery's.
    let log = "[   12.000001] mmc_host mmc0: Bus speed (slot 0) = 400000Hz (slot req 400000Hz, actual 400000HZ div = 0)\n\
               [   12.050002] mmc_host mmc0: Bus speed (slot 0) = 50000000Hz (slot req 50000000Hz, actual 50000000HZ div = 0)\n\
               [  501.100003] blk_update_request: I/O error, dev mmcblk0, sector 2048 op 0x1:(WRITE) flags 0x0 phys_seg 4 prio class 0\n\
               [  501.100004] Buffer I/O error on dev mmcblk0p1, logical block 0, lost async page write\n\
               [  501.120005] mmc_host mmc0: Bus speed (slot 0) = 400000Hz (slot req 400000Hz, actual 400000HZ div = 0)\n\
               [  501.170006] mmc_host mmc0: Bus speed (slot 0) = 50000000Hz (slot req 50000000Hz, actual 50000000HZ div = 0)\n";
    let ev = card_reinits("mmcblk0", log, "k");
    assert_eq!(ev.len(), 1, "{ev:?}");
    assert_eq!(ev[0].kind, KernelEventKind::LinkReset);
    assert!(ev[0].line.contains("= 400000Hz"));
    // The card is the host's, though only the block layer names it.
    assert_eq!(host_for("mmcblk0", log).as_deref(), Some("mmc0"));
    // A healthy boot: the identification clock before any error is no re-initialisation.
    let healthy = "[   12.000001] mmc_host mmc0: Bus speed (slot 0) = 400000Hz (slot req 400000Hz, actual 400000HZ div = 0)\n\
                   [   12.050002] mmc_host mmc0: Bus speed (slot 0) = 50000000Hz (slot req 50000000Hz, actual 50000000HZ div = 0)\n\
                   [   12.060003] mmc0: new high speed SDHC card at address 0007\n\
                   [   12.070004] mmcblk0: mmc0:0007 SD32G 29.1 GiB\n";
    assert!(card_reinits("mmcblk0", healthy, "k").is_empty());
    // An error then a clock change that stays fast is no re-initialisation either.
    let fast = log.replace(
        "= 400000Hz (slot req 400000Hz",
        "= 25000000Hz (slot req 25000000Hz",
    );
    assert!(card_reinits("mmcblk0", &fast, "k").is_empty());
}

#[test]
fn host_timeouts_are_told_from_card_lines() {
    assert!(is_host_timeout("mmc2: running CQE recovery"));
    assert!(is_host_timeout("mmc0: cqhci: timeout for tag 12"));
    assert!(is_host_timeout(
        "mmc1: Timeout waiting for hardware interrupt."
    ));
    // The card's own timeout and a host's CRC error are not host timeouts.
    assert!(!is_host_timeout(
        "mmcblk0: error -110 sending stop command, original cmd response 0x900, card status 0x900"
    ));
    assert!(!is_host_timeout(
        "mmc0: error -84 whilst initialising SD card"
    ));
    // A host whose card only the block layer names gets its CQE lines in events_for.
    let log = "[   88.100001] mmc2: running CQE recovery\n\
               [   88.200002] mmc2: running CQE recovery\n\
               [   88.300003] blk_update_request: I/O error, dev mmcblk2, sector 77 op 0x1:(WRITE) flags 0x0 phys_seg 1 prio class 0\n";
    assert_eq!(disks_named(log), vec!["mmcblk2".to_string()]);
    let ev = events_for("mmcblk2", log, "k");
    assert_eq!(
        ev.iter().filter(|e| is_host_timeout(&e.line)).count(),
        2,
        "{ev:?}"
    );
    assert!(unnamed_host_errors(log, "k").is_empty());
}

#[test]
fn pre_2_6_24_positive_mmc_codes() {
    use KernelEventKind::*;
    // block.c of 2.6.2x printed the core's own MMC_ERR_* codes, not errnos.
    for (line, kind) in [
        ("mmcblk1: error 1 transferring data", Some(IoTimeout)),
        ("mmcblk0: error 2 transferring data", Some(CrcError)),
        ("mmcblk0: error 4 sending read/write command", Some(IoError)),
        // MMC_ERR_INVALID: a request the driver built wrong, no device fault.
        ("mmcblk0: error 5 transferring data", None),
    ] {
        assert_eq!(classify(line), kind, "{line}");
    }
    assert!(LINUX_MMC.is_match("mmcblk1: error 1 transferring data"));
}
