use super::*;

#[test]
fn rows_are_cut_at_the_header_columns() {
    let t = "DEVNAME  MAJ:MIN  SIZE        TYPE      SCHED        ROT  MODEL                    QDEPTH  NR_RQ  WCACHE\n\
             nvme1n1  259:0    1863.0 GiB  NVMeDisk  none         0    Samsung SSD 990 PRO 2TB  -       1023   write back\n\
             sda      8:0      3726.0 GiB  Disk      mq-deadline  1    P9233                    30      60     write through\n";
    let r = parse(t);
    assert_eq!(r.len(), 2);
    assert_eq!(r[0].get("DEVNAME"), Some("nvme1n1"));
    assert_eq!(r[0].get("SIZE"), Some("1863.0 GiB"));
    assert_eq!(r[0].get("MODEL"), Some("Samsung SSD 990 PRO 2TB"));
    assert_eq!(r[0].get("WCACHE"), Some("write back"));
    assert_eq!(r[1].get("SCHED"), Some("mq-deadline"));
    assert_eq!(r[1].get("WCACHE"), Some("write through"));
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(start(&lines), spec::Start::Yes);
}

#[test]
fn near_misses_are_not_lsds() {
    // lsblk's header (NAME, not DEVNAME), and lsds' header with prose under it.
    let lsblk = "NAME   MAJ:MIN RM   SIZE RO TYPE MOUNTPOINT\nsda      8:0    0 465.8G  0 disk";
    let lines: Vec<&str> = lsblk.lines().collect();
    assert_eq!(start(&lines), spec::Start::No);
    assert!(parse(lsblk).is_empty());
    assert_eq!(
        start(&["DEVNAME  MAJ:MIN  SIZE  SCHED", "is what lsds prints"]),
        spec::Start::No
    );
}
