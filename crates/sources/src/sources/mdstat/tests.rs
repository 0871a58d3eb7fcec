use super::*;

#[test]
fn delayed_and_failed() {
    let t = "md1 : active raid1 sdb2[1] sda2[0](F)\n      10476544 blocks [2/1] [_U]\n\
                 \tresync=DELAYED\n";
    let a = parse(t);
    assert_eq!(a.len(), 1);
    assert!(a[0].degraded());
    assert_eq!(a[0].failed_members, vec!["sda2"]);
    assert_eq!(a[0].action.as_deref(), Some("resync"));
    assert_eq!(a[0].waiting.as_deref(), Some("DELAYED"));
    assert!(parse("md : garbage\n[=>] recovery = 999%").is_empty());
}

#[test]
fn a_failed_flag_parted_from_its_member() {
    for t in [
        "md0 : active raid10 sdg[5] sdf[4] sde[3] (F) sdd[2] sdc[1] sdb[0]\n",
        "md0 : active raid10 sdg[5] sdf[4] **sde[3] (F)** sdd[2] sdc[1] sdb[0]\n",
    ] {
        let line = crate::sources::markup::strip_markup(t.trim_end());
        let a = parse(&line);
        assert_eq!(a.len(), 1, "{t}");
        assert_eq!(a[0].failed_members, vec!["sde"], "{t}");
        assert_eq!(a[0].members.len(), 6, "{t}");
    }
    // A flag before any member marks nothing.
    assert!(
        parse("md0 : active raid1 (F) sda1[0]\n")[0]
            .failed_members
            .is_empty()
    );
}

#[test]
fn progress_lines_alone_are_an_unnamed_array() {
    // Lines in status_resync's format (drivers/md/md.c), NOT A CAPTURE: a check, then a
    // quoted reshape, each alone.
    let a = parse(
        "[==>..................]  check = 12.6% (123/976) finish=80.1min speed=198000K/sec\n",
    );
    assert_eq!(a.len(), 1);
    assert_eq!(a[0].name, UNNAMED);
    assert_eq!(a[0].action.as_deref(), Some("check"));
    assert_eq!(a[0].percent, Some(12.6));
    assert_eq!(a[0].speed_kib_s, Some(198000));
    assert_eq!((a[0].progress_lines, a[0].peak_speed_kib_s), (1, None));
    let r = parse(
        "> >      [=>...................]  reshape =  5.0% (5/100) finish=1.0min speed=40000K/sec",
    );
    assert_eq!(r[0].action.as_deref(), Some("reshape"));
    // Successive lines of one resync: the last is the state, the fastest earlier one kept.
    let t = "\t[>....................]  resync =  0.1% (1/9) finish=10.0min speed=90000K/sec\n\
                 \t[>....................]  resync =  0.5% (4/9) finish=50.0min speed=30000K/sec\n\
                 \t[=>...................]  resync =  7.9% (6/9) finish=99.0min speed=8000K/sec\n";
    let a = parse(t);
    assert_eq!(a.len(), 1);
    assert_eq!(a[0].percent, Some(7.9));
    assert_eq!(a[0].speed_kib_s, Some(8000));
    assert_eq!(a[0].finish.as_deref(), Some("99.0min"));
    assert_eq!(
        (a[0].progress_lines, a[0].peak_speed_kib_s),
        (3, Some(90000))
    );
    // A full mdstat keeps its array's name; no bar, or a bar with no action, is no array.
    let full = format!("md0 : active raid1 sdb1[2] sda1[0]\n      976 blocks [2/1] [U_]\n{t}");
    assert_eq!(parse(&full)[0].name, "md0");
    assert!(parse("[>....................] 12% done\n").is_empty());
    assert!(parse("md: recovery of RAID array md0\n").is_empty());
    assert!(!recognize("[=>...] see above\n"));
    assert!(recognize(t));
}
