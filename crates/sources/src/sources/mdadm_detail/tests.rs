use super::*;

/// Built from Detail.c's printf formats (mdadm 4.x: keys right-aligned to 18 columns):
/// a RAID5 with one slot removed and a spare rebuilding into it.
const RECOVERING: &str = "/dev/md3:\n           Version : 1.2\n     Creation Time : Tue Mar  3 10:00:00 2026\n        Raid Level : raid5\n        Array Size : 1953260544 (1862.77 GiB 2000.14 GB)\n      Raid Devices : 3\n     Total Devices : 3\n       Persistence : Superblock is persistent\n\n       Update Time : Tue Mar  3 11:00:00 2026\n             State : clean, degraded, recovering \n    Active Devices : 2\n   Working Devices : 3\n    Failed Devices : 0\n     Spare Devices : 1\n\n            Layout : left-symmetric\n        Chunk Size : 512K\n\nConsistency Policy : bitmap\n\n    Rebuild Status : 37% complete\n\n              Name : nas:3  (local to host nas)\n              UUID : 0a1b2c3d:4e5f6a7b:8c9d0e1f:2a3b4c5d\n            Events : 1234\n\n    Number   Major   Minor   RaidDevice State\n       0       8        1        0      active sync   /dev/sda1\n       1       8       17        1      active sync   /dev/sdb1\n       3       8       33        2      spare rebuilding   /dev/sdc1\n";

#[test]
fn recovering_raid5() {
    let a = parse(RECOVERING);
    assert_eq!(a.len(), 1);
    let a = &a[0];
    assert_eq!(a.device.as_deref(), Some("md3"));
    assert_eq!(a.level.as_deref(), Some("raid5"));
    assert_eq!((a.raid_devices, a.active_devices), (Some(3), Some(2)));
    assert_eq!(a.action().as_deref(), Some("recovery"));
    assert_eq!(a.percent, Some(37.0));
    assert!(a.degraded());
    assert_eq!(a.member_devices(), ["sda1", "sdb1", "sdc1"]);
    assert_eq!(a.members[2].state, ["spare", "rebuilding"]);
}

#[test]
fn removed_and_faulty_slots_without_header_or_indentation() {
    // A flattened paste (indentation lost) without the "/dev/mdX:" header: a RAID1
    // whose second slot is removed and whose old member is faulty.
    let t = "Raid Level : raid1\nRaid Devices : 2\nState : active, degraded\nActive Devices : 1\nFailed Devices : 1\nNumber Major Minor RaidDevice State\n0 8 2 0 active sync /dev/sda2\n- 0 0 1 removed\n2 8 18 - faulty /dev/sdb2\n";
    let a = &parse(t)[0];
    assert_eq!(a.device, None);
    assert!(a.degraded());
    assert_eq!(a.action(), None);
    assert_eq!(a.failed_members(), ["sdb2"]);
    assert_eq!(a.member_devices(), ["sda2", "sdb2"]);
    assert_eq!(a.members[1].raid_device, Some(1));
}

#[test]
fn healthy_and_delayed_arrays() {
    let t = "/dev/md0:\n        Raid Level : raid1\n      Raid Devices : 2\n             State : clean \n    Active Devices : 2\n    Failed Devices : 0\n\n    Number   Major   Minor   RaidDevice State\n       0       8        1        0      active sync   /dev/sda1\n       1       8       17        1      active sync   /dev/sdb1\n/dev/md1:\n        Raid Level : raid1\n      Raid Devices : 2\n             State : clean, resyncing (DELAYED) \n    Active Devices : 2\n";
    let a = parse(t);
    assert_eq!(a.len(), 2);
    assert!(!a[0].degraded());
    assert_eq!(a[0].action(), None);
    assert_eq!(a[1].device.as_deref(), Some("md1"));
    assert_eq!(a[1].action().as_deref(), Some("resync"));
    assert_eq!(a[1].waiting().as_deref(), Some("DELAYED"));
    // Old mdadm: "Rebuild Status" for a resync; the State word names the action.
    let t = "State : clean, resyncing\nActive Devices : 2\n Rebuild Status : 3% complete\n";
    let a = &parse(t)[0];
    assert_eq!(
        (a.action().as_deref(), a.percent),
        (Some("resync"), Some(3.0))
    );
    assert!(parse("Name : x\nState : y\n").iter().all(|a| !a.degraded()));
    assert!(
        parse("Rebuild Status : 999% complete")
            .iter()
            .all(|a| a.percent.is_none())
    );
}

#[test]
fn examine_array_state_with_a_missing_slot_is_degraded() {
    // super1.c examine_super1's layout, another member and slot than any fixture.
    let t = "/dev/sdb1:\n          Magic : a92b4efc\n        Version : 1.2\n    Feature Map : 0x0\n     Array UUID : 11111111:22222222:33333333:44444444\n     Raid Level : raid5\n   Raid Devices : 3\n\n          State : clean\n    Device UUID : 55555555:66666666:77777777:88888888\n    Update Time : Mon Jan  1 00:00:00 2024\n         Events : 42\n\n   Device Role : Active device 2\n   Array State : .AA ('A' == active, '.' == missing, 'R' == replacing)\n";
    let v = parse(t);
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(v[0].array_state.as_deref(), Some(".AA"));
    assert!(v[0].degraded());
    assert_eq!(
        start(&["        Version : 1.2", "    Feature Map : 0x0"]),
        spec::Start::Yes
    );
    let whole = t.replace(".AA", "AAA");
    assert!(parse(&whole).iter().all(|a| !a.degraded()));
}

#[test]
fn starts_only_with_own_keys() {
    assert_eq!(
        start(&["/dev/md0:", "           Version : 1.2"]),
        spec::Start::Yes
    );
    assert_eq!(
        start(&["           Version : 1.2", "     Creation Time : x"]),
        spec::Start::Yes
    );
    assert_eq!(start(&["Name : foo", "State : bar"]), spec::Start::No);
    assert_eq!(
        start(&["/dev/sda:", " Timing cached reads"]),
        spec::Start::No
    );
}

#[test]
fn secrets_are_uuid_host_and_name() {
    let f = secrets(RECOVERING);
    let v: Vec<&str> = f.iter().map(|x| x.value.as_str()).collect();
    assert!(v.contains(&"0a1b2c3d:4e5f6a7b:8c9d0e1f:2a3b4c5d"));
    assert!(v.contains(&"nas"));
    assert!(secrets("Name : x:1\nUUID : 1:2:3:4\n").is_empty());
}

#[test]
fn header_and_table_with_the_keys_cut() {
    // linux-raid 2022 (JMB363, RAID 1): the poster kept the header and the device table.
    let t = "/dev/md90:\n....\n\n    Number   Major   Minor   RaidDevice State\n       0       8       33        0      active sync   /dev/sdc1\n       -       0        0        1      removed\n\n       2       8       49        -      faulty   /dev/sdd1\n";
    assert!(parse(t).iter().all(MdDetail::degraded) && parse(t).len() == 1);
    assert_eq!(start(&t.lines().collect::<Vec<_>>()), spec::Start::Yes);
    // Near miss: a header and an elision followed by something else.
    assert_eq!(
        start(&["/dev/md90:", "....", "", "mdadm: stopped /dev/md90"]),
        spec::Start::No
    );
}

/// Detail.c's ", Not Started" (an array assembled but not run: its size is 0): members
/// missing at assembly show as "removed" and the State says FAILED, yet nothing rebuilds and
/// no disk is known bad. A running array with the same slots removed stays degraded.
#[test]
fn not_started_array_is_not_degraded() {
    let t = "/dev/md127:\n           Version : 1.2\n        Raid Level : raid6\n      Raid Devices : 4\n     Total Devices : 2\n             State : active, FAILED, Not Started \n    Active Devices : 2\n   Working Devices : 2\n    Failed Devices : 0\n     Spare Devices : 0\n\n    Number   Major   Minor   RaidDevice State\n       -       0        0        0      removed\n       -       0        0        1      removed\n       -       8       16        -        spare   /dev/sdb\n";
    let a = &parse(t)[0];
    assert!(a.not_started());
    assert!(!a.degraded());
    assert_eq!(a.action(), None);
    let running = t.replace(", Not Started", "");
    let a = &parse(&running)[0];
    assert!(!a.not_started());
    assert!(a.degraded());
}
