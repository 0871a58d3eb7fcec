use super::*;

#[test]
fn the_three_drivers_lines() {
    // The formats of md's, gmirror's and ata-raid.c's printf calls (NOT A CAPTURE;
    // tests/it/explain_common_outputs.rs reads real posts).
    let md = "[ 10.1] md/raid1:md0: Disk failure on sdb1, disabling device.\n\
                  [ 10.1] md/raid1:md0: Operation continuing on 1 devices.\n";
    let v = parse(md);
    assert_eq!(v.len(), 1);
    assert!(v[0].degraded && v[0].kind == "md" && v[0].name == "md0");
    let rebuilt = "md: recovery of RAID array md1\nmd: md1: recovery done.\n";
    assert!(parse(rebuilt).is_empty());
    let running = "md: recovery of RAID array md1\n";
    assert_eq!(parse(running)[0].task, Some(Task::Recovery));
    let gm = "Mar  3 05:34:47 host kernel: GEOM_MIRROR: Device gm0: provider ad6 disconnected.\n";
    assert!(parse(gm)[0].degraded);
    let gm_rebuild = "GEOM_MIRROR: Device gm0: rebuilding provider ada0\n";
    assert_eq!(parse(gm_rebuild)[0].task, Some(Task::Recovery));
    let gm_done = "GEOM_MIRROR: Device gm0: rebuilding provider ad6.\n\
                       GEOM_MIRROR: Device gm0: rebuilding provider ad6 finished.\n";
    assert!(parse(gm_done).is_empty());
    let ar = "ar0: WARNING - mirror protection lost. RAID1 array in DEGRADED mode\n";
    assert_eq!(parse(ar)[0].kind, "ataraid");
    assert!(
        parse("md0: detected capacity change\nar0: 238475MB <Intel MatrixRAID RAID1>\n").is_empty()
    );
}

#[test]
fn start_lines_say_how_many_members_run() {
    // raid5.c raid5_run and md.c md_do_sync lines of a RAID 6 that started with 8 of its 10
    // members and whose rebuild was interrupted (linux-raid 2022, LSI 9207).
    let six = "[  715.451780] md/raid:md3: raid level 6 active with 8 out of 10 devices, algorithm 2\n\
               [  715.452035] md: recovery of RAID array md3\n\
               [ 9803.487218] md: md3: recovery interrupted.\n";
    let v = parse(six);
    assert_eq!(v.len(), 1);
    assert!(v[0].degraded && v[0].name == "md3" && v[0].task.is_none());
    assert!(parse("raid1: raid set md0 active with 1 out of 2 mirrors\n")[0].degraded);
    // Near misses: every member running, and a degraded start whose recovery finished.
    assert!(parse("md/raid1:md0: active with 2 out of 2 mirrors\n").is_empty());
    let healed = "md/raid10:md1: active with 3 out of 4 devices\n\
                  md: recovery of RAID array md1\nmd: md1: recovery done.\n";
    assert!(parse(healed).is_empty());
}
