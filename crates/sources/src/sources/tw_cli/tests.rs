use super::*;

#[test]
fn units_and_ports() {
    // The layouts of glensc/nagios-plugin-check_raid t/data/tw_cli (lumpy, 2, bootc).
    let t = "Unit  UnitType  Status         %RCmpl  %V/I/M  Stripe  Size(GB)  Cache  AVrfy\n------------------------------------------------------------------------------\nu0    RAID-1    REBUILDING     98%     -       -       465.651   OFF    OFF    \nu1    RAID-5    VERIFYING      -       16%     256K    5587.9    RiW    ON\nu2    SPARE     OK             -       -       -       2794.51   -      ON\n\nPort   Status           Unit   Size        Blocks        Serial\n---------------------------------------------------------------\np0     DEGRADED         u0     465.76 GB   976773168     9QM1XXXX            \np1     OK               u0     465.76 GB   976773168     9QM1YYYY            \n";
    let r = parse(t);
    assert_eq!(r.logical.len(), 3);
    assert_eq!(
        (
            r.logical[0].degraded,
            r.logical[0].task,
            r.logical[0].percent
        ),
        (true, Some(Task::Recovery), Some(98.0))
    );
    assert_eq!(
        (
            r.logical[1].degraded,
            r.logical[1].task,
            r.logical[1].percent
        ),
        (false, Some(Task::Check), Some(16.0))
    );
    assert!(!r.logical[2].degraded);
    assert_eq!(r.physical.len(), 2);
    assert!(r.physical[0].failed && !r.physical[1].failed);
    assert_eq!(start(&[t.lines().next().unwrap_or("")]), spec::Start::Yes);
}
