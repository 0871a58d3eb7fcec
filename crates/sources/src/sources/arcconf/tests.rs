use super::*;
use crate::sources::raid_controller::Task;

#[test]
fn degraded_with_rebuilding_member_and_task() {
    // The layout of glensc/nagios-plugin-check_raid t/data/arcconf/issue47 (getconfig2,
    // getstatus2), values varied.
    let t = "Controllers found: 1\n----------------------------------------------------------------------\nLogical device information\n----------------------------------------------------------------------\nLogical device number 0\n   Logical device name                      : data\n   RAID level                               : 5\n   Status of logical device                 : Degraded\n----------------------------------------------------------------------\nPhysical Device information\n----------------------------------------------------------------------\n      Device #0\n         Device is a Hard drive\n         State                              : Online\n         Reported Location                  : Enclosure 0, Slot 0\n         S.M.A.R.T. warnings                : 0\n      Device #3\n         State                              : Rebuilding\n         Reported Location                  : Enclosure 0, Slot 3\n      Device #4\n         State                              : Failed\n         S.M.A.R.T. warnings                : 2\nLogical device Task:\n   Logical device                 : 0\n   Current operation              : Rebuild\n   Status                         : In Progress\n   Percentage complete            : 36\n";
    let r = parse(t);
    assert_eq!(r.logical.len(), 1);
    let d = &r.logical[0];
    assert_eq!(d.name, "logical device 0 (data)");
    assert!(d.degraded);
    assert_eq!((d.task, d.percent), (Some(Task::Recovery), Some(36.0)));
    assert_eq!(r.physical.len(), 3);
    assert_eq!(r.physical[1].address, "device #3 (Enclosure 0, Slot 3)");
    assert!(r.physical[1].rebuilding && !r.physical[1].failed);
    assert!(r.physical[2].failed && r.physical[2].predictive_failure);
    assert!(!r.physical[0].has_problem());
}

#[test]
fn arcconf_3_names() {
    let t = "Logical Device number 1\n   Logical Device name                        : RAID6-160T DATA\n   Status of Logical Device                   : Optimal\n";
    let r = parse(t);
    assert_eq!(r.logical[0].name, "logical device 1 (RAID6-160T DATA)");
    assert!(!r.logical[0].degraded);
    assert_eq!(start(&["Logical Device number 1"]), spec::Start::Yes);
}

#[test]
fn write_cache_setting_and_status() {
    // arcconf's logical device keys (check_raid issue 47's getconfig): the setting on with the
    // status off is the controller's fallback; both off is the owner's; the member drives'
    // "Write Cache : Disabled (write-through)" is not the controller's cache.
    let t = "Logical device number 0\n   Logical device name                      : data\n   Status of logical device                 : Optimal\n   Write-cache setting                      : Enabled (write-back) when protected by battery/ZMM\n   Write-cache status                       : Off\n      Device #0\n         State                              : Online\n         Write Cache                        : Disabled (write-through)\n";
    let r = parse(t);
    assert_eq!(r.cache_off.len(), 1);
    assert_eq!(r.cache_off[0].name, "logical device 0 (data)");
    assert!(r.cache_off[0].fallback);
    assert!(
        !r.cache_off[0].whole_controller,
        "a logical device's own setting"
    );
    let chosen = parse(&t.replace(
        ": Enabled (write-back) when protected by battery/ZMM",
        ": Disabled",
    ));
    assert!(!chosen.cache_off[0].fallback);
    assert!(parse(&t.replace(": Off", ": On")).cache_off.is_empty());
    let c = parse(
        "Controller information\n   Controller Model                           : Adaptec SmartRAID 3154-8i\n   Cache Status                               : Temporarily Disabled\n",
    );
    assert_eq!(c.cache_off[0].name, "Adaptec SmartRAID 3154-8i");
    assert!(
        parse("Controller information\n   Cache Status                               : Ok\n")
            .cache_off
            .is_empty()
    );
}
