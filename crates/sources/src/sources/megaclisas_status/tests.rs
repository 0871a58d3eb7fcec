use super::*;

const DEGRADED: &str = "-- Array information --\n-- ID | Type   |    Size |  Strpsz | Flags | DskCache |   Status |  OS Path | CacheCade |InProgress   \nc0u0  | RAID-5 |   7854G |   64 KB | RA,WB |  Enabled | Degraded | /dev/sda | None      |None         \n\n-- Disk information --\n-- ID   | Type | Drive Model                               | Size     | Status          | Speed    | Temp | Slot ID  | LSI ID  \nc0u0p0  | SSD  | PHDV7293005A960FGNSSDSC2BB960G7R N201DL43 | 893. Gb  | Online, Spun Up | 6.0Gb/s  | 25C  | [32:0]   | 0       \nc0u0p9  | HDD  | SEAGATE ST900MM0026 0003 S0N1ABCD | 838.3 Gb | Failed | 6.0Gb/s  | 31C  | [32:9]   | 9       \n";

#[test]
fn arrays_and_disks_by_header() {
    let r = parse(DEGRADED);
    assert_eq!(r.logical.len(), 1);
    assert!(r.logical[0].degraded);
    assert_eq!(r.logical[0].task, None);
    assert_eq!(r.logical[0].level.as_deref(), Some("RAID-5"));
    assert_eq!(r.physical.len(), 2);
    assert_eq!(r.physical[1].address, "c0u0p9 [32:9]");
    assert!(r.physical[1].failed && !r.physical[0].failed);
    let s: Vec<String> = inquiry_serials(DEGRADED)
        .into_iter()
        .map(|f| f.value)
        .collect();
    assert_eq!(s, ["PHDV7293005A960FGNSSDSC2BB960G7R", "S0N1ABCD"]);
}

#[test]
fn rebuild_in_progress_column() {
    let t =
        "-- ID | Type | Size | Status | InProgress\nc0u0 | RAID1 | 931G | Degraded | Rebuild 45%\n";
    let r = parse(t);
    assert_eq!(r.logical[0].task, Some(Task::Recovery));
    assert_eq!(r.logical[0].percent, Some(45.0));
    assert_eq!(
        start(&["-- Array information --", "-- ID | Type | Size | Status"]),
        spec::Start::Yes
    );
    assert_eq!(start(&["-- nothing --"]), spec::Start::No);
}
