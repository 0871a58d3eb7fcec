use super::*;

#[test]
fn vmkernel_lines_of_every_era() {
    for l in [
        // ESXi 6.0 (vmware-samples/nvme#8), with and without an opID.
        "2016-05-22T10:07:33.017Z cpu0:35374)nvme:nvmeCoreLogError:333:command failed: 0x4302fea0d040.",
        "2016-05-22T10:38:56.275Z cpu1:34322 opID=6d0c3e71)ScsiDevice: 1741: Device t10.NVMe has been turned off administratively.",
        // ESXi 7 with level and tag; ESX 4 through syslog.
        "2021-03-05T10:06:31.123Z In(182) vmkernel: cpu5:2097585)ScsiDeviceIO: 4161: Cmd(0x45b9) 0x28",
        "Mar 9 23:53:24 esx405 vmkernel: 2:14:39:54.069 cpu3:4300)ScsiDeviceIO: 1688: Command 0x28",
        // As explain's segmenter hands them on, stamp and syslog header taken off.
        "cpu0:35374)nvme:nvmeCoreLogError:333:command failed: 0x4302fea0d040.",
        "2:14:39:54.069 cpu3:4300)ScsiDeviceIO: 1688: Command 0x28",
    ] {
        assert!(is_line(l), "{l}");
    }
    // Near misses: a Linux kernel line and an ISO-stamped syslog line of another program.
    assert!(!is_line("[ 12.3] nvme nvme0: I/O 5 QID 2 timeout"));
    assert!(!is_line("2016-05-22T10:07:33.017Z hostd[1234]: cpu0 busy"));
    assert!(!is_line("cpu0: Intel(R) Xeon(R) CPU E5-2620 @ 2.00GHz"));
}

#[test]
fn only_a_medium_error_sense_key_is_the_medium() {
    let log = "2011-04-04T21:07:30.257Z cpu2:2050)ScsiDeviceIO: 2315: Cmd(0x4124003edb00) 0x28, CmdSN 0x51 to dev \"naa.600508e0\" failed H:0x0 D:0x2 P:0x0 Valid sense data: 0x3 0x11 0x0.\n\
               2011-04-04T21:07:30.257Z cpu2:2050)ScsiDeviceIO: 2315: Cmd(0x4124003edb00) 0x12, CmdSN 0x51 to dev \"naa.600508e0\" failed H:0x0 D:0x2 P:0x0 Valid sense data: 0x5 0x24 0x0.\n\
               2016-05-22T10:07:33.017Z cpu0:35374)nvme:nvmeCoreLogError:333:command failed: 0x4302fea0d040.\n";
    let m = medium_error_lines(log);
    assert_eq!(m.len(), 1);
    assert!(m[0].contains("0x3 0x11"));
    // Near miss: a host-side failure with "Possible sense data" is no medium's.
    assert!(medium_error_lines("2011-04-04T21:07:30.257Z cpu2:2050)NMP: nmp_CompleteCommandForPath: Command 0x28 failed H:0x8 D:0x0 P:0x0 Possible sense data: 0x3 0x0 0x0.").is_empty());
}

#[test]
fn device_ids_are_secrets_with_their_prefix_kept() {
    // cunnie/docs esxi.md (ESXi 6.5 on a Crucial MX300), and a NAA LUN id.
    let log = "2017-02-25T17:34:15.505Z cpu0:65560)ScsiDeviceIO: 2927: Cmd(0x439500a7f200) 0x2a, CmdSN 0xaa9 from world 65693 to dev \"t10.ATA_____Crucial_CT1050MX300SSD4_________________________163713E82C00\" failed H:0x2 D:0x0 P:0x0 Invalid sense data: 0x75 0x70 0x64.\n\
               2016-03-10T11:20:01.124Z cpu1:33291)NMP: nmp_ThrottleLogForDevice:3298: Cmd 0x28 (0x439d80c6c4c0, 0) to dev \"naa.600508b1001c3d4e5f6a7b8c9d0e1f20\" on path \"vmhba2:C0:T1:L0\" Failed\n\
               2016-05-22T10:38:56.275Z cpu1:34322 opID=6d0c3e71)ScsiDevice: 1741: Device t10.NVMe has been turned off administratively.\n";
    let v: Vec<(SecretKind, String)> = secrets(log)
        .into_iter()
        .map(|f| (f.kind, f.value))
        .collect();
    assert_eq!(
        v,
        vec![
            (
                SecretKind::Serial,
                "ATA_____Crucial_CT1050MX300SSD4_________________________163713E82C00".to_string()
            ),
            (
                SecretKind::Wwn,
                "600508b1001c3d4e5f6a7b8c9d0e1f20".to_string()
            ),
        ]
    );
    // Near misses: a masked id, a path, a short hex word.
    assert!(secrets("to dev \"naa.600508XXXXXXXXXXXXX\" on path \"vmhba2:C0:T1:L0\" mpx.vmhba32:C0:T0:L0 naa.6005").is_empty());
}
