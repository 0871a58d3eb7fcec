use super::*;

/// Built from the message formats (not a pasted log): a hot spare rebuilding after another
/// disk's resets, as the web console's table prints them, newest first.
const REBUILDING: &str = "| 2024-06-02T09:14:40+0200 | Disk 3 in Enclosure 1 on Connector 1 of RAID Controller in Slot 2 was reset. |\n\
| 2024-06-02T09:14:02+0200 | Disk 11 in Enclosure 1 on Connector 1 of RAID Controller in Slot 2 rebuild has started. |\n\
| 2024-06-02T09:14:02+0200 | Disk 11 in Enclosure 1 on Connector 1 of RAID Controller in Slot 2 is online. |\n\
| 2024-06-02T09:13:51+0200 | Error occurred on Disk 3 in Enclosure 1 on Connector 1 of RAID Controller in Slot 2 : (Error 2f). |\n";

#[test]
fn a_rebuild_without_its_end_is_running() {
    let a = alerts(REBUILDING);
    assert_eq!(a.len(), 4);
    assert_eq!(a[0].event, Event::Reset);
    assert_eq!(a[3].event, Event::ErrorCode);
    let r = parse(REBUILDING);
    assert_eq!(r.logical.len(), 1, "{r:?}");
    assert_eq!(r.logical[0].task, Some(Task::Recovery));
    assert!(r.logical[0].name.contains("Disk 11 in Enclosure 1"));
    // Resets and error codes name no failure.
    assert!(r.physical.is_empty(), "{r:?}");
    let lines: Vec<&str> = REBUILDING.lines().collect();
    assert_eq!(RECOGNISER.starts[0].1(&lines), spec::Start::Yes);
}

#[test]
fn a_completed_rebuild_and_failed_or_predicted_disks() {
    let t = "Disk 11 in Enclosure 1 on Connector 1 of RAID Controller in Slot 2 rebuild has completed.\n\
             Disk 11 in Enclosure 1 on Connector 1 of RAID Controller in Slot 2 rebuild has started.\n\
             Disk 4 in Backplane 1 of Integrated RAID Controller 1 failed.\n\
             Predictive failure reported for Disk 5 in Backplane 1 of Integrated RAID Controller 1.\n";
    let r = parse(t);
    assert!(r.logical.is_empty(), "{r:?}");
    assert_eq!(r.physical.len(), 2);
    assert!(r.physical[0].failed && !r.physical[0].predictive_failure);
    assert!(r.physical[1].predictive_failure && !r.physical[1].failed);
    // Prose naming no disk place, or a plain healthy line, is not an event.
    assert!(alerts("the rebuild has started on my RAID controller in slot 7").is_empty());
    assert!(
        parse("Disk 2 in Enclosure 0 on Connector 0 of RAID Controller in Slot 1 is online.")
            .is_empty()
    );
}
