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
