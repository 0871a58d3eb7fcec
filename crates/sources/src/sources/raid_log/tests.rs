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
