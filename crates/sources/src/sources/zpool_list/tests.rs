use super::*;

/// Built from zpool_main.c's columns (OpenZFS 2.x, `zpool list -v`): a mirror pool
/// whose log mirror lost a member.
const DEGRADED: &str = "NAME                  SIZE  ALLOC   FREE  CKPOINT  EXPANDSZ   FRAG    CAP  DEDUP    HEALTH  ALTROOT\ndata                 3.62T  1.20T  2.42T        -         -     4%    33%  1.00x  DEGRADED  -\n  mirror-0           3.62T  1.20T  2.42T        -         -     4%  33.1%      -    ONLINE\n    sda1             3.64T      -      -        -         -      -      -      -    ONLINE\n    sdb1             3.64T      -      -        -         -      -      -      -    ONLINE\nlogs                     -      -      -        -         -      -      -      -         -\n  mirror-1           15.5G   128K  15.5G        -         -     0%  0.00%      -  DEGRADED\n    nvme0n1p1        16.0G      -      -        -         -      -      -      -    ONLINE\n    1480797522822830      -      -      -        -         -      -      -      -  UNAVAIL\n";

#[test]
fn pools_vdevs_and_states() {
    let p = parse(DEGRADED);
    assert_eq!(p.len(), 1);
    assert_eq!(p[0].name, "data");
    assert_eq!(p[0].health.as_deref(), Some("DEGRADED"));
    let leaves: Vec<&str> = p[0].leaves().iter().map(|v| v.name.as_str()).collect();
    assert_eq!(leaves, ["sda1", "sdb1", "nvme0n1p1", "1480797522822830"]);
    let log = p[0]
        .vdevs
        .iter()
        .find(|v| v.name == "mirror-1")
        .expect("log");
    assert_eq!(
        (log.class.as_deref(), log.health.as_deref()),
        (Some("logs"), Some("DEGRADED"))
    );
    // Old zpool: no state on vdev rows; -p: exact numbers.
    let t = "NAME   SIZE  ALLOC   FREE  EXPANDSZ   FRAG    CAP  DEDUP  HEALTH  ALTROOT\nzroot  14.5G  2.68G  11.8G         -    14%    18%  1.00x  ONLINE  -\n  ada0p3  14.5G  2.68G  11.8G         -    14%    18%\n";
    let p = parse(t);
    assert_eq!(p[0].health.as_deref(), Some("ONLINE"));
    assert_eq!(p[0].vdevs[0].health, None);
    assert!(parse("NAME SIZE\nfoo 1G ONLINE\n").is_empty());
    // Wrapped at 72 columns by a mail client: header and rows cut in two.
    let wrapped = "NAME                  SIZE  ALLOC   FREE  CKPOINT  EXPANDSZ   FRAG\nCAP  DEDUP    HEALTH  ALTROOT\ndata                 3.62T  1.20T  2.42T        -         -     4%\n33%  1.00x  DEGRADED  -\n  mirror-0           3.62T  1.20T  2.42T        -         -     4%\n33.1%      -    ONLINE\n    sda1             3.64T      -      -        -         -      -\n-      -    UNAVAIL\n";
    let p = parse(wrapped);
    assert_eq!(p.len(), 1);
    assert_eq!(p[0].health.as_deref(), Some("DEGRADED"));
    assert_eq!(p[0].vdevs[1].health.as_deref(), Some("UNAVAIL"));
}
