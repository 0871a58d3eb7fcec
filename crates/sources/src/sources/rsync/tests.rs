use super::*;

/// blog.timschroeder.net "Schmutzige Bytes" (2018-01-09): two `rsync --info=progress2` runs
/// of a 429 MB image onto an old USB stick, the first into the page cache, the second at
/// the stick's own rate.
const SCHROEDER: &str = "rsync --info=progress2 image.bin /run/media/tim/ECCC-B50C/\n\
    \x20   429,265,824 100%  261.90MB/s    0:00:01 (xfr#1, to-chk=0/1)\n\n\
    rsync --info=progress2 image.bin /run/media/tim/ECCC-B50C/\n\
    \x20   429,265,824 100% 1012.75kB/s    0:06:53 (xfr#1, to-chk=0/1)\n";

#[test]
fn progress2_totals_with_their_command() {
    let v = parse(SCHROEDER);
    assert_eq!(v.len(), 2, "{v:?}");
    let (a, b) = (&v[0], &v[1]);
    assert_eq!(a.bytes, Some(429_265_824));
    assert_eq!(a.seconds, Some(1.0));
    assert_eq!(a.bytes_per_sec, Some(261.90 * 1024.0 * 1024.0));
    assert_eq!(a.output.as_deref(), Some("/run/media/tim/ECCC-B50C/"));
    assert_eq!(a.input.as_deref(), Some("image.bin"));
    assert_eq!(a.flags, vec!["--info=progress2".to_string()]);
    assert_eq!(b.seconds, Some(413.0));
    assert_eq!(b.bytes_per_sec, Some(1012.75 * 1024.0));
    let lines: Vec<&str> = SCHROEDER.lines().collect();
    assert_eq!(start(&lines), spec::Start::Yes);
}

/// rsync before 3.1 (progress.c: "(xfer#%d, to-check=%d/%d)") and -h sizes; an update
/// still in flight (no xfr# tail) is no finished run, and prose is no progress line.
#[test]
fn older_and_human_forms_and_near_misses() {
    let v = parse("  1238099 100%  146.38kB/s    0:00:08 (xfer#5, to-check=169/396)\n");
    assert_eq!(v.first().and_then(|b| b.bytes), Some(1_238_099));
    assert_eq!(v.first().and_then(|b| b.seconds), Some(8.0));
    assert!(
        v.first()
            .is_some_and(|b| b.command.is_none() && b.output.is_none())
    );
    let v = parse("        429.27M 100%  261.90MB/s    0:00:01 (xfr#1, ir-chk=1000/1002)\n");
    assert_eq!(v.first().and_then(|b| b.bytes), Some(429_270_000));
    assert!(parse("     32,768   0%    0.00kB/s    0:00:00\n").is_empty());
    assert!(parse("rsync copied it at 100% 5MB/s in 0:00:01, fine\n").is_empty());
    assert_eq!(
        start(&["I ran rsync -a a b", "it was slow"]),
        spec::Start::No
    );
}
