use super::*;

// The layout of `omreport storage vdisk` (a PERC 5/i RAID-5 volume, nslug 2013), values
// varied.
const VDISK: &str = "List of Virtual Disks in the System\n\nController PERC 5/i Integrated (Embedded)\nID                        : 0\nStatus                    : Ok\nName                      : Virtual Disk 0\nState                     : Ready\nLayout                    : RAID-5\nSize                      : 836.63 GB (898319253504 bytes)\nDevice Name               : /dev/sda\nBus Protocol              : SAS\nWrite Policy              : Write Through\nCache Policy              : Not Applicable\nDisk Cache Policy         : Disabled\n\nID                        : 1\nStatus                    : Ok\nName                      : Virtual Disk 1\nState                     : Ready\nLayout                    : RAID-1\nDevice Name               : /dev/sdb\nWrite Policy              : Write Back\n";

#[test]
fn write_through_vdisk_with_its_device() {
    let o = parse(VDISK);
    assert_eq!(o.write_through.len(), 1);
    assert_eq!(o.write_through[0].name, "Virtual Disk 0");
    assert_eq!(o.write_through[0].device.as_deref(), Some("sda"));
    assert!(o.write_through[0].line.contains("Write Through"));
    assert_eq!(o.report.logical.len(), 2);
    assert!(o.report.logical.iter().all(|l| !l.degraded));
    let lines: Vec<&str> = VDISK.lines().collect();
    assert!(matches!(start(&lines), spec::Start::Yes));
}

#[test]
fn write_back_and_degraded_and_failed_pdisk() {
    // Near miss: "Force Write Back" keeps the cache; a degraded volume and a failed
    // member are read as the other RAID tools' are.
    let t = "List of Virtual Disks in the System\n\nController PERC H710 Mini (Embedded)\nID : 0\nName : data\nState : Degraded\nLayout : RAID-5\nWrite Policy : Force Write Back\n\nList of Physical Disks on Controller PERC H710 Mini (Embedded)\n\nController PERC H710 Mini (Embedded)\nID : 0:1:2\nStatus : Critical\nState : Failed\nFailure Predicted : No\nVendor ID : DELL(tm)\n";
    let o = parse(t);
    assert!(o.write_through.is_empty());
    assert_eq!(o.report.logical.len(), 1);
    assert!(o.report.logical[0].degraded);
    assert_eq!(o.report.physical.len(), 1);
    assert!(o.report.physical[0].failed);
    // Key/value text of another tool is no omreport heading.
    assert!(matches!(
        start(&["Write Policy : Write Through"]),
        spec::Start::No
    ));
}
