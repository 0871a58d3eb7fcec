use super::*;

#[test]
fn epc_settings() {
    // Rows in openSeaChest's EPC table layout (redhat-performance/tuned issue 676),
    // values varied.
    let t = "/dev/sg3 - ST16000NM001G-2KK103 - ZL2ABCDE - SN03 - ATA\n\n===EPC Settings===\n\t* = timer is enabled\n\tAll times are in 100 milliseconds\n\nName       Current Timer Default Timer Saved Timer   Recovery Time C S\nIdle A     *1            *1            *1            1             Y Y\nIdle B     *1200         *1200         *1200         4             Y Y\nIdle C      0             6000          6000         20            Y Y\nStandby Z  *3000          9000          9000         110           Y Y\n";
    let r = parse(t);
    assert_eq!(r.device.as_deref(), Some("sg3"));
    assert_eq!(r.serial.as_deref(), Some("ZL2ABCDE"));
    assert_eq!(r.timers.len(), 4);
    let z = &r.timers[3];
    assert!(z.enabled && z.spins_down);
    assert_eq!(z.timer_ms, 300_000);
    assert!(!r.timers[2].enabled);
    assert_eq!(start(&t.lines().collect::<Vec<_>>()), spec::Start::Yes);
}

#[test]
fn phy_counters_and_device_info() {
    let t = " openSeaChest_Info - openSeaChest drive utilities - NVMe Enabled\n\n/dev/sg0 - ST24000NM000C-3WD103 - ZXA00000 - SN02 - ATA\n\tWrite Cache: Disabled\n\tRotation Rate (RPM): 7200\n\tInterface speed:\n\t\tMax Speed (Gb/s): 6.0\n\t\tNegotiated Speed (Gb/s): 3.0\n\tSMART Status: Good\n====SATA Phy Event Counters====\n    ID                Value Description\n    10                    7 H2D FISes sent due to COMRESET\n     1                    2 Command failed with iCRC error\n     4                    1 R_ERR response for H2D data FIS\n";
    let r = parse(t);
    assert_eq!(
        (r.phy_crc, r.phy_r_err, r.phy_comreset),
        (Some(2), Some(1), Some(7))
    );
    assert_eq!(r.write_cache, Some(false));
    assert_eq!(r.rotation_rpm, Some(7200));
    assert_eq!(
        (r.link_max_gbps, r.link_current_gbps),
        (Some(6.0), Some(3.0))
    );
    assert_eq!(r.smart_ok, Some(true));
    assert!(parse("SMART Check Failed!\n").smart_ok == Some(false));
    // A device line without the handle (openSeaChest issue 162's paste).
    let r = parse(" - ST16000NM001G-2KK103 - ZL21LGDW - SN02 - ATA\n");
    assert_eq!((r.device, r.serial.as_deref()), (None, Some("ZL21LGDW")));
}
