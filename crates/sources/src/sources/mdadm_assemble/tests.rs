use super::*;

#[test]
fn started_short_of_its_members() {
    // linux-raid, March 2024 (batch 11 of the reviewed corpus): a RAID1 assembled with
    // one member out of date, started on the other.
    let t = "mdadm: looking for devices for /dev/md0\n\
                 mdadm: /dev/sdc1 is identified as a member of /dev/md0, slot 0.\n\
                 mdadm: /dev/sdd1 is identified as a member of /dev/md0, slot 1.\n\
                 mdadm: added /dev/sdc1 to /dev/md0 as 0 (possibly out of date)\n\
                 mdadm: added /dev/sdd1 to /dev/md0 as 1\n\
                 mdadm: /dev/md0 has been started with 1 drive (out of 2).\n";
    let r = parse(t);
    assert_eq!(r.logical.len(), 1);
    assert_eq!(r.logical[0].name, "md0");
    assert!(r.logical[0].degraded);
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(RECOGNISER.starts[0].1(&lines), spec::Start::Yes);
    // All members there: a clean start.
    let ok = parse("mdadm: /dev/md1 has been started with 2 drives (out of 2).\n");
    assert!(!ok.logical[0].degraded);
    let short = parse("mdadm: /dev/md2 assembled from 1 drive - not enough to start the array.\n");
    assert!(short.logical[0].degraded);
    assert!(parse("mdadm: stopped /dev/md0\n").logical.is_empty());
}
