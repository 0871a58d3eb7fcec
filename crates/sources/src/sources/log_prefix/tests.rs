use super::*;

#[test]
fn iso_and_metalog_stamps_are_prefixes() {
    assert_eq!(
        strip_prefixes("2026-02-05 14:51:03 kernel: sd 3:0:0:0: [sdg] Attached SCSI disk"),
        "sd 3:0:0:0: [sdg] Attached SCSI disk"
    );
    assert_eq!(
        strip_prefixes("Aug 28 18:47:09 [kernel] usb 4-5: Product: External USB 3.0"),
        "usb 4-5: Product: External USB 3.0"
    );
}

#[test]
fn the_caller_or_cpu_field_after_the_stamp_is_a_prefix() {
    // printk.c print_caller ("[ T1234]", "[   C3]") and a vendor kernel's bare CPU number.
    assert_eq!(
        strip_prefixes("[  592.518442][ 2] sd 8:0:0:0: [sda] tag#17 uas_eh_abort_handler"),
        "sd 8:0:0:0: [sda] tag#17 uas_eh_abort_handler"
    );
    assert_eq!(
        strip_prefixes("[   12.5][  T431] usb 2-1: USB disconnect, device number 3"),
        "usb 2-1: USB disconnect, device number 3"
    );
    assert_eq!(
        strip_prefixes("[   12.5][    C1] nvme nvme0: I/O 3 QID 1 timeout"),
        "nvme nvme0: I/O 3 QID 1 timeout"
    );
    // Near misses: a device name in brackets, or a bracket after a space, stays.
    assert_eq!(
        strip_prefixes("[   12.5][sda] Attached SCSI disk"),
        "[sda] Attached SCSI disk"
    );
    assert_eq!(strip_prefixes("[   12.5] [2] x"), "[2] x");
}

#[test]
fn a_stamp_without_its_opening_bracket_is_a_prefix() {
    // An excerpt cut inside the first line's "[ 1982.874590]", other ports and widths.
    assert_eq!(
        strip_prefixes("1982.874590] ata5.00: exception Emask 0x0 SAct 0x0"),
        "ata5.00: exception Emask 0x0 SAct 0x0"
    );
    assert_eq!(
        strip_prefixes("> 3.1] sd 0:0:0:0: [sda] Attached SCSI disk"),
        "sd 0:0:0:0: [sda] Attached SCSI disk"
    );
    assert_eq!(
        strip_prefixes("  874590] ata12: hard resetting link"),
        "  874590] ata12: hard resetting link".trim_start()
    );
    // Text that only looks like one is kept: no dot, or words before the bracket.
    assert_eq!(strip_prefixes("12] x"), "12] x");
    assert_eq!(strip_prefixes("v1.2] x"), "v1.2] x");
    // The whole stamp still goes.
    assert_eq!(strip_prefixes("[ 1982.874590] ata5: x"), "ata5: x");
}

#[test]
fn an_elided_prefix_is_dropped() {
    assert_eq!(
        strip_prefixes("> .....CAM status: ATA status error"),
        "CAM status: ATA status error"
    );
    assert_eq!(
        strip_prefixes("...  ATA status: 51 (DRDY SERV ERR), error: 84 (ICRC ABRT )"),
        "ATA status: 51 (DRDY SERV ERR), error: 84 (ICRC ABRT )"
    );
    assert_eq!(strip_prefixes("\u{2026}RES: 51 00"), "RES: 51 00");
    // One or two dots are text.
    assert_eq!(strip_prefixes("..x"), "..x");
    assert_eq!(strip_prefixes("...."), "");
}

#[test]
fn html_emphasis_around_a_line_is_markup() {
    assert_eq!(
        strip_prefixes("<b>ata2: dev 0 configured for UDMA/33</b>"),
        "ata2: dev 0 configured for UDMA/33"
    );
    assert_eq!(
        strip_prefixes("<STRONG>[   3.1] sd 0:0:0:0: [sda] 2048 blocks</STRONG> "),
        "sd 0:0:0:0: [sda] 2048 blocks"
    );
    // An unpaired tag, or one that is not emphasis, is left as it is.
    assert_eq!(strip_prefixes("<b>ata2: dev 0"), "<b>ata2: dev 0");
    assert_eq!(strip_prefixes("<p>ata2: x</p>"), "<p>ata2: x</p>");
    // A printk level is still one.
    assert_eq!(strip_prefixes("<4>ata1: link up"), "ata1: link up");
}

#[test]
fn several_stamps_decode_prefix_and_a_spaced_caller_field_are_prefixes() {
    // dmesg -x --reltime -T with CONFIG_PRINTK_CALLER (util-linux dmesg.c print_record).
    assert_eq!(
        strip_prefixes(
            "kern  :info  : [Jan13 04:31] [Tue Jan 13 04:31:07 2026] [T10489]  connection7:0: detected conn error (1021)"
        ),
        "connection7:0: detected conn error (1021)"
    );
    assert_eq!(
        strip_prefixes(
            "kern  :info  : [  +0.000042] [Tue Jan 13 04:33:10 2026] [T88870] sd 2:0:0:1: Device offlined - not ready after error recovery"
        ),
        "sd 2:0:0:1: Device offlined - not ready after error recovery"
    );
    assert_eq!(
        strip_prefixes("[2277096.910173] [ T1514] sd 0:0:2:0: task abort: SUCCESS scmd(0x0)"),
        "sd 0:0:2:0: task abort: SUCCESS scmd(0x0)"
    );
    // Near misses: a bracketed device or count after the stamp stays; a word before a colon
    // that is not a syslog facility is no decode prefix.
    assert_eq!(
        strip_prefixes("[   12.5] [sda] 1953525168 512-byte logical blocks"),
        "[sda] 1953525168 512-byte logical blocks"
    );
    assert_eq!(strip_prefixes("[   12.5] [ 2] of 3"), "[ 2] of 3");
    assert_eq!(
        strip_prefixes("ata1: info: SATA link up"),
        "ata1: info: SATA link up"
    );
}

#[test]
fn ctime_stamps_with_dotted_abbreviations_are_stripped() {
    // dmesg -T under fr_FR (glibc's %a and %b end in a dot) and es_ES.
    assert_eq!(
        strip_prefixes("[lun. janv. 14 08:02:11 2019] EXT4-fs (sda1): re-mounted."),
        "EXT4-fs (sda1): re-mounted."
    );
    assert_eq!(
        strip_prefixes("[mié. mar.  6 10:00:00 2024] usb 1-1: new high-speed USB device"),
        "usb 1-1: new high-speed USB device"
    );
    // A bracketed phrase with dots is no stamp.
    let prose = "[see. also. 14 the docs 2019] text";
    assert_eq!(strip_prefixes(prose), prose);
}

#[test]
fn localised_month_abbreviations() {
    for m in ["Sep", "giu", "Mär", "févr.", "okt", "мая", "DEZ", "ago"] {
        assert!(is_month_abbreviation(m), "{m}");
    }
    for w in ["Device", "smartd", "Tue", "07", "", "kernel"] {
        assert!(!is_month_abbreviation(w), "{w}");
    }
    let re = regex::Regex::new(&format!(r"^{}\s+\d", month_pattern()));
    assert!(re.is_ok_and(|r| r.is_match("lug 12 09:00:01") && !r.is_match("luca 12")));
}

#[test]
fn a_bare_iso_stamp_is_a_prefix() {
    // util-linux dmesg --time-format=iso: comma fraction and a "+hh:mm" zone.
    assert_eq!(
        strip_prefixes("2023-04-11T21:03:17,402113+02:00 ata2.00: configured for UDMA/133"),
        "ata2.00: configured for UDMA/133"
    );
    // A logger's "+hhmm" zone with a colon after it, and a "Z" zone.
    assert_eq!(
        strip_prefixes("2019-01-02T03:04:05+0100: usb 2-1: reset SuperSpeed USB device"),
        "usb 2-1: reset SuperSpeed USB device"
    );
    assert_eq!(
        strip_prefixes("2020-12-31T23:59:59.5Z nvme nvme0: I/O 12 QID 3 timeout, aborting"),
        "nvme nvme0: I/O 12 QID 3 timeout, aborting"
    );
    // Near misses: a date with no time, or a stamp glued to the text, stays.
    assert_eq!(
        strip_prefixes("2020-12-31 scrub repaired 0B"),
        "2020-12-31 scrub repaired 0B"
    );
    assert_eq!(
        strip_prefixes("2020-12-31T23:59:59Zsd 0:0:0:0"),
        "2020-12-31T23:59:59Zsd 0:0:0:0"
    );
}
