use super::*;

const UNIT: &str = "-- Logs begin at Fri 2019-03-22 22:15:57 EDT, end at Sun 2019-03-24 21:33:39 EDT. --
Mar 22 22:16:03 lepotato systemd[1]: Starting Armbian hardware optimization...
Mar 22 22:16:03 lepotato systemd[1]: Started Armbian hardware optimization.
Mar 22 22:16:03 lepotato armbian-hardware-optimization[1662]: /usr/lib/armbian/armbian-hardware-optimization: line 31: echo: write error: Invalid argument
Mar 22 22:16:03 lepotato armbian-hardware-optimization[1662]: [ ok ] Setting noop I/O scheduler for mmcblk0
";

#[test]
fn a_units_journal_with_its_header_is_read() {
    assert_eq!(parse(UNIT), 5);
    // As explain hands it over: the entries without their syslog header.
    let stripped = "-- Logs begin at Fri 2019-03-22 22:15:57 EDT, end at Sun 2019-03-24 21:33:39 EDT. --\n\
                    Starting Armbian hardware optimization...\n\
                    [ ok ] Setting noop I/O scheduler for mmcblk0\n";
    assert_eq!(parse(stripped), 3);
    let hosts: Vec<String> = secrets(UNIT).into_iter().map(|f| f.value).collect();
    assert_eq!(hosts, vec!["lepotato".to_string()]);
    // systemd 246's wording and an ISO stamp.
    let t = "-- Journal begins at Mon 2021-01-04 10:00:00 CET, ends at Mon 2021-01-04 11:00:00 CET. --\n\
             2021-01-04T10:00:01+0100 nas tuned[812]: applying profile\n";
    assert_eq!(parse(t), 2);
}

#[test]
fn syslog_lines_without_a_header_and_kernel_lines_are_not_claimed() {
    // Near miss: the same entries without journalctl's header are any syslog's.
    let body: String = UNIT.lines().skip(1).map(|l| format!("{l}\n")).collect();
    assert_eq!(parse(&body), 0);
    assert!(secrets(&body).is_empty());
    // The kernel's lines are kernel_log's.
    assert!(is_kernel_entry(
        "Mar 22 22:16:03 lepotato kernel: ata1: SATA link up 6.0 Gbps"
    ));
    assert!(!is_kernel_entry(UNIT.lines().nth(1).unwrap_or("")));
    assert!(!is_header("-- Logs begin at whenever"));
}
