use super::*;

#[test]
fn smart_info_get_records() {
    let t = "Name: Critical Warning\nId: 1\nCurrent: 0\nRaw: 0\nStatus: OK\n\
                 ---------------------\n\
                 Name: Temperature\nId: 2\nCurrent: 4294967023 C       <-------\n\
                 Raw: 4294967023 C\nStatus: OK\n---------------------\n\
                 Name: Available Spare\nId: 3\nCurrent: 0%\nRaw: 0%\nStatus: Failed   <----\n";
    let v = parse(t);
    assert_eq!(v.len(), 3, "{v:?}");
    assert_eq!(v[2].name, "Available Spare");
    assert_eq!(v[2].status.as_deref(), Some("Failed"));
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(start(&lines), spec::Start::Yes);
    // Near miss: a "Name:" line of another listing without an "Id:" after it.
    let other = ["Name: eth0", "Status: up"];
    assert_eq!(start(&other), spec::Start::No);
    assert!(parse("Name: eth0\nStatus: up\n").is_empty());
}

#[test]
fn dsm_daemon_lines() {
    let t = "DISKSTATION synowebapi_SYNO.Storage.CGI.Smart_1_get_health_info[21402]: smartctl/smartctl_nvme_smart_info_get.c:232 Failed to load attribute DB of disk /dev/nvme0n1\n\
                 2024-08-01T02:00:01+10:00 NAS syno_disk_data_collector[19829]: smartctl/smartctl_nvme_smart_info_get.c:232 Failed to load attribute DB of disk /dev/nvme0n1\n";
    let v = parse_log(t);
    assert_eq!(v.len(), 2);
    assert_eq!(v[1].program, "syno_disk_data_collector");
    assert!(v[0].message.starts_with("Failed to load attribute DB"));
    // Near misses: a kernel line and a non-DSM daemon with a file:line.
    assert!(!is_dsm_line(
        "Aug  1 02:00:01 NAS kernel: [ 12.3] ata1: SATA link up"
    ));
    assert!(!is_dsm_line(
        "Aug  1 02:00:01 NAS smbd[123]: source3/smbd/server.c:1000 x"
    ));
}
