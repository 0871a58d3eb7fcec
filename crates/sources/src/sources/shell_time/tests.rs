use super::*;

#[test]
fn bash_report_of_a_copy_and_of_the_umount_after_it() {
    // unix.stackexchange.com question 76975: the copy returns at once, the umount waits.
    let t = "real    0m0.179s\nuser    0m0.000s\nsys 0m0.104s\n# time umount /media \n\n\
             real    0m18.185s\nuser    0m0.004s\nsys 0m0.032s\n";
    let r = parse(t);
    assert_eq!(r.len(), 2);
    assert!((r[0].real_s - 0.179).abs() < 1e-9);
    assert!((r[0].cpu_s().unwrap() - 0.104).abs() < 1e-9);
    assert!((r[1].real_s - 18.185).abs() < 1e-9);
}

#[test]
fn locale_comma_minutes_busybox_and_posix_forms() {
    let r = parse("real\t2m3,500s\nuser\t0m0,010s\nsys\t0m1,000s");
    assert!((r[0].real_s - 123.5).abs() < 1e-9);
    assert!((r[0].cpu_s().unwrap() - 1.01).abs() < 1e-9);
    let r = parse("real\t0m 4.61s\nuser\t0m 0.00s\nsys\t0m 0.12s");
    assert!((r[0].real_s - 4.61).abs() < 1e-9);
    let r = parse("real 12.03\nuser 0.00\nsys 0.88");
    assert!((r[0].real_s - 12.03).abs() < 1e-9);
}

#[test]
fn bsd_csh_and_gnu_one_line_reports() {
    let r = parse("        0.18 real         0.00 user         0.10 sys");
    assert!((r[0].real_s - 0.18).abs() < 1e-9);
    let r = parse("0.000u 0.104s 1:02.17 58.8% 10+176k 0+0io 0pf+0w");
    assert!((r[0].real_s - 62.17).abs() < 1e-9);
    assert_eq!(r[0].sys_s, Some(0.104));
    let r =
        parse("0.00user 0.10system 1:00:00.50elapsed 58%CPU (0avgtext+0avgdata 2048maxresident)k");
    assert!((r[0].real_s - 3600.5).abs() < 1e-9);
}

#[test]
fn prose_and_other_tools_lines_are_no_report() {
    // Near misses: a sentence starting with "real", a dd summary, a user line alone.
    assert!(parse("real life is slower than this\nuser error").is_empty());
    assert!(parse("1048576 bytes (1.0 MB) copied, 0.01 s, 100 MB/s").is_empty());
    assert!(parse("user 0m0.001s\nsys 0m0.002s").is_empty());
    assert_eq!(start(&["real 2", "and more"]), spec::Start::No);
    assert_eq!(
        start(&["real\t0m1.000s", "user\t0m0.000s"]),
        spec::Start::Yes
    );
}

#[test]
fn flush_commands() {
    assert!(is_flush_command("sync"));
    assert!(is_flush_command("umount /media"));
    assert!(!is_flush_command("cp a b"));
    assert!(!is_flush_command("dd if=/dev/zero of=f conv=fsync"));
}

#[test]
fn flush_operands_as_typed_not_another_tools_fields() {
    assert!(flush_args("", false));
    assert!(flush_args("-f /mnt/usb", false));
    assert!(flush_args("/media", true));
    assert!(!flush_args("", true));
    // fio's fdatasync latency line starts with "sync".
    assert!(!flush_args(
        "(usec): min=310, max=51488, avg=346.60, stdev=682.52",
        false
    ));
    assert!(!flush_args("percentiles (usec):", false));
}
