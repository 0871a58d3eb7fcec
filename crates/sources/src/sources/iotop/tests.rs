use super::*;

/// Python iotop rows (delay accounting on), a kernel thread in brackets, a truncated jbd2
/// name; then iotop-c's batch header and a row with accounting off.
#[test]
fn rows_and_headers() {
    let t = " 1175 be/4 root        0.00 B/s    0.00 B/s  0.00 % 99.99 % [ext4lazyinit]\n\
             \x20 889 be/4 www-data    2.97 M/s    2.97 M/s  0.00 % 95.77 % php-fpm: pool www\n\
             \x20  93 be/3 root        0.00 B/s    0.00 B/s  0.00 %  4.41 % [jbd2/mmcblk0p2-]\n\
             \x205048 be/4 mysql      10.08 K/s   77.26 K/s  0.00 %  4.02 % mysqld\n";
    let r = parse(t);
    assert_eq!(r.len(), 4, "{r:?}");
    assert_eq!(r[0].command, "ext4lazyinit");
    assert_eq!(r[0].io_wait_pct, Some(99.99));
    assert_eq!(r[1].command, "php-fpm: pool www");
    assert_eq!(r[1].read_bytes_per_sec, 3_114_270);
    assert_eq!(r[3].write_bytes_per_sec, 79_114);
    assert_eq!(thread_device(&r[2].command), Some("mmcblk0p2"));
    assert_eq!(thread_device("jbd2/sda1-8"), Some("sda1"));
    assert_eq!(thread_device("kworker/u8:0"), None);
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!((RECOGNISER.starts[0].1)(&lines), spec::Start::Yes);
    let c = "Total DISK READ:         0.00 B/s | Total DISK WRITE:       125.34 K/s\n\
             Actual DISK READ:        0.00 B/s | Actual DISK WRITE:      250.68 K/s\n\
             \x20   TID  PRIO  USER    DISK READ DISK WRITE>    COMMAND\n\
             12:00:01   412 be/3 root        0.00 B/s  125.34 K/s ?unavailable?  [jbd2/sda2-8]\n";
    for l in c.lines() {
        assert!(HEADER.is_match(l) || ROW.is_match(l), "{l}");
    }
    let r = parse(c);
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!(r[0].io_wait_pct, None);
    assert_eq!(r[0].command, "jbd2/sda2-8");
}

/// Near misses: ps and top rows are not iotop rows.
#[test]
fn other_process_lists() {
    assert!(
        parse("  PID TTY          TIME CMD\n 1175 ?        00:00:01 ext4lazyinit\n").is_empty()
    );
    assert!(
        parse(" 1175 root      20   0       0      0      0 D  99.9  0.0   0:01.00 ext4lazyinit\n")
            .is_empty()
    );
}

/// The USER column is an account name: found as a secret on every task row; a header line
/// names none.
#[test]
fn user_column_is_a_secret() {
    let t = "  TID  PRIO  USER     DISK READ  DISK WRITE  SWAPIN     IO>    COMMAND\n\
             \x20 889 be/4 erin        2.97 M/s    2.97 M/s  0.00 % 95.77 % php-fpm: pool www\n";
    let f = users(t);
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(f[0].kind, spec::SecretKind::User);
    assert_eq!(f[0].value, "erin");
}
