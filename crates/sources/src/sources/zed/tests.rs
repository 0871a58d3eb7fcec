use super::*;

const DEGRADED: &str = "The number of checksum errors associated with a ZFS device\n\
exceeded acceptable levels. ZFS has marked the device as\n\
degraded.\n\
\n\
 impact: Fault tolerance of the pool may be compromised.\n\
    eid: 18658\n\
  class: statechange\n\
  state: DEGRADED\n";

#[test]
fn statechange_mail() {
    let v = parse(DEGRADED);
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].state.as_deref(), Some("DEGRADED"));
    assert_eq!(v[0].class.as_deref(), Some("statechange"));
    assert!(v[0].headline.ends_with("degraded."));
    assert!(v[0].faulted_for_errors());
    let t = "The number of I/O errors associated with a ZFS device exceeded\n\
             acceptable levels. ZFS has marked the device as faulted.\n\n\
             \x20impact: Fault tolerance of the pool may be compromised.\n\
             \x20   eid: 54\n  class: statechange\n  state: FAULTED\n   host: nas\n\
             \x20 vtype: disk\n  vpath: /dev/sdc1\n   pool: 0x1E2D3C4B5A697887\n";
    let v = parse(t);
    assert_eq!(v[0].vpath.as_deref(), Some("/dev/sdc1"));
    assert_eq!(v[0].pool.as_deref(), Some("0x1E2D3C4B5A697887"));
    assert!(v[0].faulted_for_errors());
}

#[test]
fn error_counts_and_syslog() {
    let t = "ZFS has detected a checksum error:\n\n   eid: 7\n class: checksum\n  host: h\n\
             \x20vpath: /dev/sdb1\n cksum: 12\n  read: 0\n write: 0\n  pool: tank\n";
    let v = parse(t);
    assert_eq!(
        (v[0].cksum, v[0].read, v[0].write),
        (Some(12), Some(0), Some(0))
    );
    assert!(!v[0].faulted_for_errors());
    let l = "Sep 13 10:00:01 host zed[2211]: eid=54 class=statechange pool='tank' vdev=sdc1 vdev_state=FAULTED";
    let v = parse(l);
    assert_eq!(v[0].vpath.as_deref(), Some("sdc1"));
    assert_eq!(v[0].state.as_deref(), Some("FAULTED"));
    assert!(v[0].faulted_for_errors());
}

#[test]
fn near_misses() {
    // A finished resilver and a removed device are no errors of a disk.
    let t = "ZFS has finished a resilver:\n\n   eid: 9\n class: resilver_finish\n  host: h\n";
    assert!(!parse(t).iter().any(Event::faulted_for_errors));
    let t = "ZFS has detected that a device was removed.\n\n  state: REMOVED\n";
    assert!(!parse(t).iter().any(Event::faulted_for_errors));
    assert!(parse("state: DEGRADED\n").is_empty());
}
