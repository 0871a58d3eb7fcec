use super::*;

#[test]
fn one_drive_detail_alone() {
    // openstreetmap/operations issue 1231 (batch 11 of the reviewed corpus): `ssacli ... pd
    // show detail` of a spare SAS SSD the controller failed, without the controller
    // heading.
    let t = "      physicaldrive 1I:1:3\n         Port: 1I\n         Box: 1\n         Bay: 3\n         Status: Failed\n         Last Failure Reason: Not ready bad sense\n         Drive Type: Spare Drive\n";
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(start(&lines), spec::Start::Yes);
    let r = parse(t);
    assert_eq!(r.physical.len(), 1);
    assert!(r.physical[0].failed);
    assert_eq!(r.physical[0].address, "1I:1:3");
    // A heading with no status below it is not this tool's detail.
    assert_eq!(
        start(&["physicaldrive 1I:1:3", "", "something else"]),
        spec::Start::No
    );
}

#[test]
fn summary_forms() {
    // glensc/nagios-plugin-check_raid issue 212 (ssacli 5.x, P816i-a) and the
    // t/data/hpacucli files: levels, sizes and states vary.
    let t = "HPE Smart Array P816i-a SR Gen10 in Slot 0 (Embedded)\n\n   Array A\n\n      logicaldrive 1 (447.10 GB, RAID 1, OK)\n\n   Array B\n\n      logicaldrive 2 (16.00 TB, RAID 6, Recovering, 55.73% complete)\n      logicaldrive 3 (16.00 TB, RAID 6, Ready for Rebuild)\n   array A\n      logicaldrive 1 (136.7 GB, RAID 5, Interim Recovery Mode)\n      physicaldrive 2I:1:7 (port 2I:box 1:bay 7, SAS HDD, 300 GB, Failed)\n      physicaldrive 1I:1:4 (port 1I:box 1:bay 4, SAS, 900.1 GB, OK, spare)\n   physicaldrive 1I:1:1 (port 1I:box 1:bay 1, 0 GB): Failed\n   physicaldrive 1I:1:2 (port 1I:box 1:bay 2, 960 GB): Predictive Failure\n";
    let r = parse(t);
    assert_eq!(r.logical.len(), 4);
    assert!(!r.logical[0].degraded);
    assert_eq!(r.logical[0].level.as_deref(), Some("RAID 1"));
    assert_eq!(
        (r.logical[1].task, r.logical[1].percent),
        (
            Some(crate::sources::raid_controller::Task::Recovery),
            Some(55.73)
        )
    );
    assert!(r.logical[2].degraded && r.logical[2].task.is_none());
    assert_eq!(r.logical[3].state, "Interim Recovery Mode");
    assert!(r.logical[3].degraded);
    let bad: Vec<&str> = r
        .physical
        .iter()
        .filter(|p| p.has_problem())
        .map(|p| p.address.as_str())
        .collect();
    assert_eq!(bad, ["2I:1:7", "1I:1:1", "1I:1:2"]);
    assert!(r.physical[3].predictive_failure && !r.physical[3].failed);
    assert_eq!(r.physical[1].state, "OK");
}

#[test]
fn detail_form() {
    let t = "   Array: A\n      Logical Drive: 1\n         Size: 1.6 TB\n         Fault Tolerance: 6\n         Status: Interim Recovery Mode\n      physicaldrive 2I:1:7\n         Port: 2I\n         Status: Failed\n         Serial Number: 6SL1XXXX\n      physicaldrive 2I:1:8\n         Status: OK\n";
    let r = parse(t);
    assert_eq!(r.logical.len(), 1);
    assert!(r.logical[0].degraded);
    assert_eq!(r.physical.len(), 2);
    assert!(r.physical[0].failed && !r.physical[1].failed);
}

#[test]
fn unrecoverable_media_errors_of_a_logical_drive() {
    // A Proxmox host's `ssacli ctrl all show config detail` (batch 28): a RAID 6 logical
    // drive recovering with "Unrecoverable Media Errors: Detected"; another says None,
    // and a physical drive's field of the same name would not be the logical drive's.
    let t = "      Logical Drive: 1\n         Status: OK\n         Unrecoverable Media Errors: None\n      physicaldrive 2I:0:1\n         Status: OK\n         Unrecoverable Media Errors: Detected\n      Logical Drive: 2\n         Size: 21.83 TB\n         Status: Recovering, 52.29% complete\n         Unrecoverable Media Errors: Detected\n";
    let r = parse(t);
    assert_eq!(r.logical.len(), 2);
    assert_eq!(r.logical[0].media_line, None);
    assert_eq!(
        r.logical[1].media_line.as_deref(),
        Some("Unrecoverable Media Errors: Detected")
    );
}

#[test]
fn starts() {
    assert_eq!(
        start(&["      logicaldrive 1 (1.64 TB, RAID 6, OK)"]),
        spec::Start::Yes
    );
    assert_eq!(
        start(&[
            "Smart Array P410i in Slot 0 (Embedded)",
            "",
            "   array A",
            "",
            "      logicaldrive 1 (894.2 GB, RAID 5, OK)"
        ]),
        spec::Start::Yes
    );
    assert_eq!(start(&["array A is fine"]), spec::Start::No);
    assert_eq!(start(&["the logicaldrive failed"]), spec::Start::No);
}

#[test]
fn controller_cache_disabled() {
    // lausser/check_hpasm issue 19 (ssacli, P441) and check_raid issue 166 (hpacucli `ctrl
    // all show status`, P410i).
    let t = "Smart Array P441 in Slot 1\n   Bus Interface: PCI\n   Controller Status: OK\n   Cache Board Present: True\n   Cache Status: Temporarily Disabled\n   Cache Status Details: Cache disabled; battery/capacitor charge is low.\n   Cache Ratio: 10% Read / 90% Write\n   Drive Write Cache: Disabled\n";
    let r = parse(t);
    assert_eq!(r.cache_off.len(), 1);
    let c = &r.cache_off[0];
    assert_eq!(c.name, "Smart Array P441 in Slot 1");
    assert!(c.fallback);
    assert!(c.whole_controller, "Cache Status is the controller's");
    assert_eq!(
        c.why.as_deref(),
        Some("Cache disabled; battery/capacitor charge is low.")
    );
    let s = "Smart Array P410i in Slot 0 (Embedded)\n   Controller Status: OK\n   Cache Status: Permanently Disabled\n   Battery/Capacitor Status: OK\n";
    assert_eq!(start(&s.lines().collect::<Vec<_>>()), spec::Start::Yes);
    let r = parse(s);
    assert_eq!(
        r.cache_off[0].name,
        "Smart Array P410i in Slot 0 (Embedded)"
    );
    assert_eq!(r.cache_protection.as_deref(), Some("OK"));
    // Near misses (check_raid issue 174): failed batteries, the cache OK, the drives' own
    // caches and the no-battery write cache off by default; a cache not configured.
    let n = "Smart Array P800 in Slot 1\n   Cache Status: OK\n   Drive Write Cache: Disabled\n   No-Battery Write Cache: Disabled\n   Battery/Capacitor Status: Failed (Replace Batteries)\n";
    let r = parse(n);
    assert!(r.cache_off.is_empty());
    assert_eq!(
        r.cache_protection.as_deref(),
        Some("Failed (Replace Batteries)")
    );
    assert!(
        parse(&n.replace("Status: OK", "Status: Not Configured"))
            .cache_off
            .is_empty()
    );
}

#[test]
fn arm_advisory_before_its_logical_drive() {
    // check_raid issue 211 (`ssacli ctrl all show config`): the advisory precedes the logical
    // drive it concerns; the controller-level one names them.
    let w = "Warning: Unrecoverable Media Errors Detected on Drives during previous Rebuild \nor Background Surface Analysis (ARM) scan. Errors will be fixed automatically\nwhen the sector(s) are overwritten. Backup and Restore are recommended.\n";
    let t = format!(
        "   Array B (SAS, Unused Space: 0  MB)\n\n      logicaldrive 3 (16.00 TB, RAID 6, OK)\n\n\n{w}\n      logicaldrive 4 (16.00 TB, RAID 6, OK)\n      logicaldrive 5 (16.00 TB, RAID 6, OK)\n"
    );
    assert_eq!(media(&t), ["logicaldrive 4"]);
    let top = format!(
        "Smart Array P840 in Slot 3\n\n{}The\nfollowing logical drives are affected: 2\n\n      logicaldrive 1 (1 TB, RAID 1, OK)\n      logicaldrive 2 (21.83 TB, RAID 6, OK)\n",
        w.trim_end_matches('\n')
    );
    assert_eq!(media(&top), ["logicaldrive 2"]);
    assert!(media("      logicaldrive 1 (1 TB, RAID 1, OK)\n").is_empty());
}

/// The logical drives the text's advisories fall on.
fn media(t: &str) -> Vec<String> {
    let r = parse(t);
    r.logical
        .into_iter()
        .filter(|d| d.media_line.is_some())
        .map(|d| d.name)
        .collect()
}
