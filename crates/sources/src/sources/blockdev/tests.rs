use super::*;

#[test]
fn rows_of_the_report() {
    // blockdev.c's header and row format, NOT A CAPTURE; tests/it reads a real post.
    let t = "RO    RA   SSZ   BSZ   StartSec            Size   Device\n\
                 rw   256  4096  4096          0   4000787030016   /dev/sdb\n\
                 rw   256  4096  4096         63   4000786997760   /dev/sdb1\n";
    let v = parse(t);
    assert_eq!(v.len(), 2);
    assert_eq!(v[1].name, "sdb1");
    assert_eq!((v[1].start_512, v[1].logical_sector_bytes), (63, 4096));
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!((RECOGNISER.starts[0].1)(&lines), spec::Start::Yes);
    // A header with nothing after it is no report; garbage rows are skipped.
    assert_eq!((RECOGNISER.starts[0].1)(&lines[..1]), spec::Start::No);
    assert!(parse("rw 99999999999999999999 512 512 0 1 /dev/sda\n").is_empty());
}
