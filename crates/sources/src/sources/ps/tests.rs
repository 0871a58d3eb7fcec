use super::parse;

#[test]
fn rows_of_ps_aux_are_read() {
    // ntfs-3g#144: mount.ntfs in uninterruptible sleep (D) during a copy.
    let t = "USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND\n\
             root      151432 19.0  0.0   7580  2256 ?        Ds   21:47   1:58 /sbin/mount.ntfs /dev/sdb1 /media/u/usb -o rw\n\
             myuser   165696  0.0  0.0   7028  2392 pts/10   S+   21:57   0:00 grep --color=auto mount.ntfs\n";
    let rows = parse(t);
    assert_eq!(rows.len(), 2);
    let r = rows.first();
    assert_eq!(r.map(|r| (r.pid, r.stat.as_str())), Some((151432, "Ds")));
    assert!(r.is_some_and(|r| r.command.starts_with("/sbin/mount.ntfs")));
    // FreeBSD's TIME has hundredths.
    assert_eq!(
        parse("root 12 0.0 0.0 0 160 - DL 9:47PM 0:01.52 [g_down]\n").len(),
        1
    );
}

#[test]
fn other_tables_are_not_ps() {
    // Near misses: top's header line, an iostat row.
    assert!(
        parse("  PID USER      PR  NI    VIRT    RES    SHR S  %CPU  %MEM     TIME+ COMMAND\n")
            .is_empty()
    );
    assert!(parse("sda  12.00  3.00  100.0  20.0  0.10  1.5\n").is_empty());
}
