use super::*;

#[test]
fn storage_and_alpm_sections() {
    let t = "+++ Storage Devices\nDevices = nvme0n1 sda\n\n/dev/nvme0n1:\n  Type      = NVMe\n\
                 \x20 Model     = Micron_2210_MTFDHBA1T0QFD   \n  Firmware  = P6MA000 \n\
                 \x20 Scheduler = [none] mq-deadline kyber bfq (multi queue)\n\n\
                 /dev/sda: not present.\n\n+++ AHCI Link Power Management (ALPM)\n\
                 /sys/class/scsi_host/host0/link_power_management_policy  = min_power\n";
    let r = parse(t);
    assert_eq!(r.disks.len(), 2);
    assert_eq!(r.disks[0].name, "nvme0n1");
    assert!(r.disks[0].present);
    assert_eq!(r.disks[0].kind.as_deref(), Some("NVMe"));
    assert_eq!(
        r.disks[0].model.as_deref(),
        Some("Micron_2210_MTFDHBA1T0QFD")
    );
    assert_eq!(r.disks[0].scheduler.as_deref(), Some("none"));
    assert!(!r.disks[1].present);
    assert_eq!(r.alpm, vec![("host0".to_string(), "min_power".to_string())]);
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(start(&lines), spec::Start::Yes);
    assert_eq!(parse("+++ x\n/dev/: y\n"), TlpStat::default());
}
