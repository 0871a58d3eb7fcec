use super::*;

const STATUS: &str = "=== NonRAID Array Status ===\n\nArray State   : STARTED\nSuperblock    : /boot/config/system/nonraid.dat\nDisks Present : 8\nArray Health  : DEGRADED (Sync Errors: 506801005, I/O Errors: 108)\nArray Checked : in progress\nArray Size    : 21.8 TB (6 data disk(s))\nParity        : Dual Parity (P: 3.6 TB , Q: 3.6 TB)\n\nOperation     : Parity-Check P Q (check only)\nProgress      : 51% (1.88 TB / 3.6 TB)\nSpeed         : 156.74 MB/s\nElapsed Time  : 2 hours, 02 minutes\nETA           : 3 hours, 15 minutes\n\n=== Disk Status ===\n\nSlot  Status        Device  Size    FS       Mountpoint                 Usage  Reads   Writes\n----  ------------  ------  ------  -------  -------------------------  -----  ------  --------\nP     OK            sdb     3.6 TB  P        -                          -      5.6 TB  110.1 GB\n1     OK (18 errs)  sdi1    3.6 TB  unknown  /var/mergerfs/Array/disk1  82%    5.5 TB  5.8 MB\n";

#[test]
fn nmdctl_parity_check_in_progress() {
    // qvr/nonraid#100: a parity check at 51 %, DEGRADED by sync errors alone.
    let r = parse(STATUS);
    assert_eq!(r.logical.len(), 1);
    let l = &r.logical[0];
    assert_eq!(l.task, Some(Task::Check));
    assert_eq!(l.percent, Some(51.0));
    assert!(!l.degraded, "sync errors alone are no missing disk");
    let lines: Vec<&str> = STATUS.lines().collect();
    assert_eq!(start(&lines), spec::Start::Yes);
    assert!(
        STATUS
            .lines()
            .filter(|l| !l.trim().is_empty())
            .all(|l| NMD_MEMBER.is_match(l.trim())),
        "every line a member"
    );
    // Near misses: paused, or no operation at all.
    let paused = STATUS.replace("(check only)", "(check only) (PAUSED)");
    assert_eq!(parse(&paused).logical[0].task, None);
    let idle: String = STATUS
        .lines()
        .filter(|l| !l.starts_with("Operation") && !l.starts_with("Progress"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(parse(&idle).logical[0].task, None);
}

#[test]
fn nmdstat_keys() {
    // docs/nmdstat.5 "Parity Check in Progress" and "Array with Failing Drive".
    let t = "mdState=STARTED\nmdNumDisks=5\nmdNumInvalid=1\nmdResyncAction=recon D3\nmdResyncSize=2000000\nmdResync=2000000\nmdResyncPos=500000\n";
    let l = &parse(t).logical[0];
    assert_eq!(l.task, Some(Task::Recovery));
    assert_eq!(l.percent, Some(25.0));
    assert!(l.degraded);
    let idle = t.replace("mdResync=2000000", "mdResync=0");
    assert_eq!(parse(&idle).logical[0].task, None);
}
