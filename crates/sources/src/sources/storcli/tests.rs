use super::*;

#[test]
fn vd_list_topology_and_pd_list() {
    // Rows in storcli's table layouts (a degraded RAID 5 with one failed member), values
    // varied from the published outputs.
    let t = "DG Arr Row EID:Slot DID Type  State  BT      Size PDC  PI SED DS3  FSpace TR\n---------------------------------------------------------------\n 0 -   -   -        -   RAID5 Dgrd   N  21.830 TB dflt N  N   dflt N      N\n 0 0   0   8:0      2   DRIVE Onln   N   3.637 TB dflt N  N   dflt -      N\n 0 0   1   8:1      9   DRIVE Failed N   3.637 TB dflt N  N   dflt -      N\n 0 0   2   8:2      4   DRIVE Rbld   Y   3.637 TB dflt N  N   dflt -      N\nDG/VD TYPE  State Access Consist Cache Cac sCC      Size Name\n---------------------------------------------------------------\n0/0   RAID5 Dgrd  RW     Yes     NRWTD -   ON  21.830 TB data\n1/1   RAID1 Optl  RW     Yes     RWBD  -   ON  893.750 GB os\nEID:Slt DID State DG     Size Intf Med SED PI SeSz Model               Sp Type\n8:1       9 Failed  0 3.637 TB SATA HDD N   N  512B HUS726040ALA610     U  -\n8:3      11 UBad    - 3.637 TB SATA HDD N   N  512B HUS726040ALA610     U  -\n";
    let s = parse(t);
    let names: Vec<&str> = s.report.logical.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(names, ["DG 0", "VD 0/0", "VD 1/1"]);
    assert!(s.report.logical[1].degraded && !s.report.logical[2].degraded);
    assert_eq!(s.report.cache_off.len(), 1);
    assert_eq!(s.report.cache_off[0].name, "VD 0/0");
    let failed: Vec<&str> = s
        .report
        .physical
        .iter()
        .filter(|p| p.failed)
        .map(|p| p.address.as_str())
        .collect();
    assert_eq!(failed, ["8:1", "8:3"]);
    assert!(
        s.report
            .physical
            .iter()
            .any(|p| p.address == "8:2" && p.rebuilding)
    );
}

#[test]
fn drive_detail_counters_and_rebuild() {
    let t = "Drive /c0/e8/s6 State :\n=====================\nShield Counter = 0\nMedia Error Count = 14\nOther Error Count = 0\nPredictive Failure Count = 0\nS.M.A.R.T alert flagged by drive = No\n";
    let s = parse(t);
    assert_eq!(s.report.physical.len(), 1);
    assert_eq!(s.report.physical[0].address, "8:6");
    assert_eq!(s.report.physical[0].media_errors, Some(14));
    assert!(s.report.physical[0].has_problem());
    let r = parse(
        "Drive-ID   Progress% Status      Estimated Time Left\n/c0/e32/s4        37 In progress 2 Hours 5 Minutes\n",
    );
    assert_eq!(r.report.logical[0].percent, Some(37.0));
    assert_eq!(write_through("RaAWBD"), Some(false));
    assert_eq!(write_through("NR,WT"), Some(true));
}

#[test]
fn starts() {
    assert_eq!(
        start(&["DG/VD TYPE  State Access Consist Cache Cac sCC      Size Name"]),
        spec::Start::Yes
    );
    assert_eq!(
        start(&[
            "CLI Version = 007.2807.0000.0000 Dec 22, 2023",
            "Operating system = Linux",
            "Controller = 0",
            "Status = Success",
            "Description = None",
            "",
            "Product Name = HBA 9400-16i"
        ]),
        spec::Start::Yes
    );
    assert_eq!(start(&["Controller = 0", "nothing else"]), spec::Start::No);
}

#[test]
fn write_through_under_a_write_back_initial_setting() {
    // `storcli /c0/v0 show all`: the VD row's WT under "Write Cache(initial setting) =
    // WriteBack" is the controller's fallback; a WriteThrough initial setting is the owner's.
    let t = "/c0/v0 :\n======\nDG/VD TYPE  State Access Consist Cache Cac sCC       Size Name\n0/0   RAID1 Optl  RW     Yes     RWTD  -   ON  278.875 GB os\n\nVD0 Properties :\n==============\nStrip Size = 64 KB\nWrite Cache(initial setting) = WriteBack\n";
    let s = parse(t);
    assert_eq!(s.report.cache_off.len(), 1);
    assert!(s.report.cache_off[0].fallback);
    assert!(
        !parse(&t.replace("= WriteBack", "= WriteThrough"))
            .report
            .cache_off[0]
            .fallback
    );
    assert!(
        !parse(&t.replace("VD0 Properties", "VD1 Properties"))
            .report
            .cache_off[0]
            .fallback
    );
}
