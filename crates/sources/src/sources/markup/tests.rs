use super::*;

#[test]
fn html_emphasis_around_a_whole_line_goes_and_nothing_else() {
    assert_eq!(
        strip_html_emphasis("<b>ata2: dev 0 configured for UDMA/33</b>"),
        "ata2: dev 0 configured for UDMA/33"
    );
    assert_eq!(strip_html_emphasis("<CODE> sda</code>  "), "sda");
    assert_eq!(strip_html_emphasis("<b></b>"), "");
    // Not closed, closed by another tag, or no tag: the line is kept as it is.
    assert_eq!(strip_html_emphasis("<b>sda"), "<b>sda");
    assert_eq!(strip_html_emphasis("<b>sda</i>"), "<b>sda</i>");
    assert_eq!(strip_html_emphasis("<6>sd 0:0:0:0"), "<6>sd 0:0:0:0");
    assert_eq!(strip_html_emphasis("sda <b>x</b>"), "sda <b>x</b>");
    assert_eq!(strip_html_emphasis("<bx</b>"), "<bx</b>");
}

#[test]
fn forum_markup_around_output_goes() {
    assert_eq!(
        strip_markup("4294967296 bytes (4.3 GB, 4.0 GiB) copied, 20.3 s, <b>21.1 MB/s</b>"),
        "4294967296 bytes (4.3 GB, 4.0 GiB) copied, 20.3 s, 21.1 MB/s"
    );
    assert_eq!(
        strip_markup("<pre>usb 1-1.3: device not accepting address 5, error -110"),
        "usb 1-1.3: device not accepting address 5, error -110"
    );
    assert_eq!(
        strip_markup("_fdisk: can't use all of them_"),
        "fdisk: can't use all of them"
    );
    assert_eq!(strip_markup("  **236 MB/s**"), "  236 MB/s");
    assert_eq!(
        strip_markup(" Timing buffered disk reads:    2 MB in  7.35 seconds = **278.55 kB/sec**"),
        " Timing buffered disk reads:    2 MB in  7.35 seconds = 278.55 kB/sec"
    );
    assert_eq!(
        strip_markup("sda: __12.5 MB/s__, sdb: 80 MB/s"),
        "sda: 12.5 MB/s, sdb: 80 MB/s"
    );
    // A Markdown code span opened on one line and closed lines later; a whole line in
    // one span; backticks that pair up inside the tool's own text stay.
    assert_eq!(
        strip_markup("`(da3:mps0:0:4:0): Capacity data has changed"),
        "(da3:mps0:0:4:0): Capacity data has changed"
    );
    assert_eq!(
        strip_markup("  ata2: SATA link down`"),
        "  ata2: SATA link down"
    );
    assert_eq!(
        strip_markup("`sd 2:0:0:0: [sdc] Write Protect is off`"),
        "sd 2:0:0:0: [sdc] Write Protect is off"
    );
    assert_eq!(
        strip_markup(
            "  Use `gpart commit ada1` to save changes or `gpart undo ada1` to revert them."
        ),
        "  Use `gpart commit ada1` to save changes or `gpart undo ada1` to revert them."
    );
    assert_eq!(strip_markup("```"), "```");
    // Not markup: a dialog's buttons, a printk level, a rule, hdparm's feature stars.
    assert_eq!(strip_markup("<Go Back>   <Yes>"), "<Go Back>   <Yes>");
    // Forum BBCode around a paste, and brackets that are a tool's own text.
    assert_eq!(strip_markup("[B][COLOR=\"sienna\"]/dev/hdc:"), "/dev/hdc:");
    assert_eq!(
        strip_markup(" using_dma    =  0 (off)[/B][/COLOR]"),
        " using_dma    =  0 (off)"
    );
    assert_eq!(strip_markup("[code]  pool: tank[/code]"), "  pool: tank");
    assert_eq!(
        strip_markup("ACPI: PCI Interrupt 0000:00:10.2[B] -> GSI 21"),
        "ACPI: PCI Interrupt 0000:00:10.2[B] -> GSI 21"
    );
    assert_eq!(
        strip_markup("\tRegion 0: Memory at fe600000 (64-bit) [size=16K]"),
        "\tRegion 0: Memory at fe600000 (64-bit) [size=16K]"
    );
    assert_eq!(
        strip_markup("[bfq] mq-deadline none"),
        "[bfq] mq-deadline none"
    );
    assert_eq!(strip_markup("<4>[ 1.0] ata1: x"), "<4>[ 1.0] ata1: x");
    assert_eq!(strip_markup("*****"), "*****");
    assert_eq!(
        strip_markup("   *    SMART feature set"),
        "   *    SMART feature set"
    );
}

#[test]
fn quoted_printable_text_is_told_from_a_programs_own_equals_signs() {
    // Two escaped "=" (RFC 2045 section 6.7 rule 1).
    assert!(is_quoted_printable("status=3D0x51\nerror=3D0x84\n"));
    // An escaped "=" and an escaped trailing space.
    assert!(is_quoted_printable(
        "status=3D0x51 { DriveReady=20\nSeekComplete }\n"
    ));
    // A UTF-8 character as its escapes, twice ("=E2=80=99" is U+2019).
    assert!(is_quoted_printable("it=E2=80=99s\ndon=E2=80=99t\n"));
    // No escaped "=": numbers after a program's "=" are no encoding.
    assert!(!is_quoted_printable("timeout=20\ncount=20\nIOPS=97.2k\n"));
    // One sign only, or signs on lines that cannot be encoded text.
    assert!(!is_quoted_printable("mode=3D\n"));
    assert!(!is_quoted_printable(
        "charset=us-ascii x=3D1\ndd if=/dev/zero x=3D2\n"
    ));
}

#[test]
fn a_quoted_printable_line_decodes_its_escapes_and_soft_break() {
    assert_eq!(
        qp_line("status=3D0x51 { DriveReady=20"),
        ("status=0x51 { DriveReady ".to_string(), false)
    );
    assert_eq!(
        qp_line("a long line cut here=  "),
        ("a long line cut here".to_string(), true)
    );
    assert_eq!(qp_line("caf=C3=A9"), ("café".to_string(), false));
    // Not an encoded line: kept as it is.
    assert_eq!(
        qp_line("charset=us-ascii"),
        ("charset=us-ascii".to_string(), false)
    );
    assert_eq!(qp_line("x=3d"), ("x=3d".to_string(), false));
}

#[test]
fn terminal_colour_codes_are_taken_out() {
    // PiBenchmarks' table header as tput printed it (ricsanfre/pi-storage-benchmark).
    let l = "\u{1b}[1m\u{1b}[4m     Category      Result     \u{1b}(B\u{1b}[m\u{1b}[36m";
    assert_eq!(strip_ansi(l), "     Category      Result     ");
    assert_eq!(strip_ansi("\u{1b}]0;title\u{7}ok"), "ok");
    // Near miss: a bracket without ESC is text and stays.
    assert_eq!(strip_ansi("[1m] x"), "[1m] x");
    assert_eq!(strip_ansi("ends with ESC \u{1b}"), "ends with ESC ");
}

/// A forum archive's HTML escaping: numeric references of printable characters and the
/// four named ones HTML escaping writes are decoded; a control character's reference, an
/// unknown name and a bare ampersand stay. NOT A CAPTURE: lsblk's tree and mdstat's
/// "unused devices" line as a page's source escapes them.
#[test]
fn character_references_of_an_escaped_page_are_decoded() {
    assert_eq!(
        strip_markup("&#9500;&#9472;sda1   0   512B   2G   0"),
        "├─sda1   0   512B   2G   0"
    );
    assert_eq!(
        strip_markup("unused devices: &lt;none&gt;"),
        "unused devices: <none>"
    );
    assert_eq!(strip_markup("&#xFEFF;smartctl 5.41"), "smartctl 5.41");
    assert_eq!(
        strip_markup("a&#160;b &#7; &nbsp; R&D"),
        "a b &#7; &nbsp; R&D"
    );
}
