use super::*;

#[test]
fn a_grep_of_nvme_cli_smart_log_starts_the_log_and_smartctl_rows_do_not() {
    let cli = [
        "temperature                         : 50 C",
        "Warning Temperature Time            : 0",
    ];
    assert!(matches!(start(&cli), Some(M::NvmeSmartLog)));
    let tabs = [
        "Temperature Sensor 1\t\t: 41 \u{b0}C (314 K)",
        "Temperature Sensor 2\t\t: 90 \u{b0}C (363 K)",
    ];
    assert!(matches!(start(&tabs), Some(M::NvmeSmartLog)));
    // smartctl -x of an NVMe drive: the same facts, no padding before the colon.
    let smartctl = [
        "Temperature Sensor 1:               35 Celsius",
        "Temperature Sensor 2:               41 Celsius",
    ];
    assert!(start(&smartctl).is_none());
    assert!(
        start(&[
            "Temperature:                        39 Celsius",
            "Available Spare:                    100%"
        ])
        .is_none()
    );
}

#[test]
fn lba_formats_of_both_tools() {
    let f = lba_formats(
        "lbaf  0 : ms:0   lbads:9  rp:0x2 (in use)\nlbaf  1 : ms:0   lbads:12 rp:0x1\nlbaf  2 : ms:0 lbads:99 rp:0\n",
    );
    assert_eq!(f.len(), 2);
    assert_eq!(
        (f[0].data_bytes, f[0].in_use, f[0].rel_perf),
        (512, true, Some(2))
    );
    assert_eq!((f[1].data_bytes, f[1].in_use), (4096, false));
    let f = lba_formats(
        "Current LBA Format:          LBA Format #01\nLBA Format #00: Data Size:   512  Metadata Size:     0  Performance: Good\nLBA Format #01: Data Size:  4096  Metadata Size:     0  Performance: Best\n",
    );
    assert_eq!(f.len(), 2);
    assert!(!f[0].in_use && f[1].in_use);
    assert_eq!(f[1].rel_perf, Some(0));
    // nvme id-ns -H, as pasted in geerlingguy/raspberry-pi-pcie-devices#679.
    let f = lba_formats(
        "LBA Format  0 : Metadata Size: 0   bytes - Data Size: 512 bytes - Relative Performance: 0x2 Good\nLBA Format  1 : Metadata Size: 0   bytes - Data Size: 4096 bytes - Relative Performance: 0x1 Better (in use)\n",
    );
    assert_eq!(f.len(), 2);
    assert_eq!(
        (f[0].data_bytes, f[0].in_use, f[0].rel_perf),
        (512, false, Some(2))
    );
    assert_eq!((f[1].data_bytes, f[1].in_use), (4096, true));
}

#[test]
fn controllers_and_pools_of_commands() {
    assert_eq!(nvme_controller("/dev/nvme1n1").as_deref(), Some("nvme1"));
    assert_eq!(nvme_controller("nvme0ns1").as_deref(), Some("nvme0"));
    assert_eq!(nvme_controller("sda"), None);
    assert_eq!(
        pool_of_command("zpool get ashift tank all-vdevs").as_deref(),
        Some("tank")
    );
    assert_eq!(pool_of_command("zdb -C tank").as_deref(), Some("tank"));
    assert_eq!(
        pool_of_command("zdb -C tank | grep ashift").as_deref(),
        Some("tank")
    );
    assert_eq!(pool_of_command("zdb | grep ashift"), None);
    assert_eq!(pool_of_command("zpool get ashift"), None);
}
