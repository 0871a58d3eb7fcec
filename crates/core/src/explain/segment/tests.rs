use super::*;

fn lines(s: &str) -> Vec<String> {
    prepare(0, "t", s.as_bytes())
        .map(|p| p.lines.into_iter().map(|l| l.text).collect())
        .unwrap_or_default()
}

#[test]
fn nvme_list_and_smart_log_run_together_are_cut_back_into_lines() {
    // sources::nvme_list FLAT and sources::nvme_smart FLAT: nvme-cli 1.x's `nvme list`
    // and `nvme smart-log` as a web page ran them into one line each.
    let list = "# nvme list Node SN Model Namespace Usage Format FW Rev ---------------- \
                    -------------------- ---------------------------------------- --------- \
                    -------------------------- ---------------- -------- /dev/nvme0n1 \
                    S3X9NX0K123456 Samsung SSD 970 EVO 1TB 1 3.98 GB / 1.00 TB 512 B + 0 B \
                    2B2QEXE7 /dev/nvme1n1 S4EWNX0R654321 Samsung SSD 980 PRO 1TB 1 200.11 GB \
                    / 1.00 TB 512 B + 0 B 5B2QGXA7";
    let parts = unflatten(list);
    assert_eq!(parts.first().map(String::as_str), Some("# nvme list"));
    assert!(
        parts
            .iter()
            .any(|p| p == "Node SN Model Namespace Usage Format FW Rev"),
        "{parts:?}"
    );
    assert!(
        parts
            .iter()
            .any(|p| p.starts_with("/dev/nvme1n1 S4EWNX0R654321")),
        "{parts:?}"
    );
    let log = "# nvme smart-log /dev/nvme1 Smart Log for NVME device:nvme1 \
                   namespace-id:ffffffff critical_warning : 0 temperature : 36 C \
                   available_spare : 100% available_spare_threshold : 10% percentage_used : 3% \
                   data_units_read : 24,617,317 power_cycles : 204";
    let parts = unflatten(log);
    assert_eq!(
        parts.first().map(String::as_str),
        Some("# nvme smart-log /dev/nvme1"),
        "{parts:?}"
    );
    assert!(parts.iter().any(|p| p == "available_spare_threshold : 10%"));
    assert!(parts.iter().any(|p| p == "percentage_used : 3%"));
    let text = format!("{list}\n{log}\n");
    let got = lines(&text);
    assert!(got.iter().any(|l| l == "temperature : 36 C"), "{got:?}");
    // Near miss: the same fields in prose without nvme-cli's header stay one line.
    let prose = "my drive shows critical_warning : 0 and temperature : 36 C and \
                     available_spare : 100% and percentage_used : 3% and power_cycles : 204 \
                     which looks fine to me";
    assert_eq!(unflatten(prose), vec![prose.to_string()]);
}

#[test]
fn hdparm_settings_run_together_are_cut_back_into_read_backs() {
    // sources::hdparm FLAT_SETTINGS: plain `hdparm /dev/hda` with the newlines lost.
    let line = "/dev/hda: multcount = 16 (on) I/O support = 1 (32-bit) unmaskirq = 1 (on) \
                    using_dma = 0 (off) keepsettings = 0 (off) readonly = 0 (off) readahead = 8 \
                    (on) geometry = 4865/255/63, sectors = 78165360, start = 0";
    let parts = unflatten(line);
    assert_eq!(
        parts.first().map(String::as_str),
        Some("/dev/hda:"),
        "{parts:?}"
    );
    assert!(
        parts.iter().any(|p| p == "using_dma = 0 (off)"),
        "{parts:?}"
    );
    assert!(
        parts.iter().any(|p| p == "I/O support = 1 (32-bit)"),
        "{parts:?}"
    );
    // Without the DMA read-back the line is left alone (the shape needs it).
    let other = line.replace("using_dma = 0 (off) ", "");
    assert_eq!(unflatten(&other), vec![other.clone()]);
}

#[test]
fn a_paste_indented_as_a_whole_loses_the_shared_indent() {
    // goodcommand.net 2019: `smartctl -a` in a reStructuredText literal block.
    let t = "   ubuntu@ubuntu:~$ sudo smartctl -a /dev/sdb\n   smartctl 6.6 2016-05-31 r4324 [x86_64-linux-4.15.0-46-generic] (local build)\n\n   === START OF INFORMATION SECTION ===\n   Vendor:               AVAGO\n";
    let l = lines(t);
    assert!(l.iter().any(|x| x.starts_with("smartctl 6.6 ")), "{l:?}");
    assert!(
        l.iter().any(|x| x == "Vendor:               AVAGO"),
        "{l:?}"
    );
    // Near miss: an output's own indentation under a line at column 0 stays, and so
    // does a single indented line.
    let z = "  pool: tank\n state: ONLINE\nconfig:\n\n        NAME        STATE\n";
    assert!(lines(z).iter().any(|x| x == "  pool: tank"));
    assert_eq!(
        lines("    193 Load_Cycle_Count"),
        vec!["    193 Load_Cycle_Count"]
    );
}

#[test]
fn diff_marks_before_a_printk_stamp_go() {
    assert_eq!(
        strip_diff_marker("+[65060.950040] nvme nvme0: failed to set APST feature (-19)"),
        "[65060.950040] nvme nvme0: failed to set APST feature (-19)"
    );
    assert_eq!(strip_diff_marker("-[    1.5] ata1: x"), "[    1.5] ata1: x");
    // Not a stamp after the mark: a tool's own text stays whole.
    assert_eq!(strip_diff_marker("- free - (1.0G)"), "- free - (1.0G)");
    assert_eq!(strip_diff_marker("+12 bytes"), "+12 bytes");
}

#[test]
fn quotes_are_stripped_at_any_depth() {
    assert_eq!(strip_quote("> > foo"), (2, "foo"));
    assert_eq!(strip_quote(">> foo"), (2, "foo"));
    assert_eq!(strip_quote(">"), (1, ""));
    assert_eq!(strip_quote("=> 63 945"), (0, "=> 63 945"));
    // A reply quoting lines that were quoted with a leading space (" > > text").
    assert_eq!(strip_quote(">  > > kernel: ad4: x"), (3, "kernel: ad4: x"));
    // Spaces inside a quoted line that lead to no quote mark are the text's.
    assert_eq!(strip_quote(">   a > b"), (1, "  a > b"));
    assert_eq!(
        lines("> [ns4]# atacontrol cap ad4\n>\n"),
        vec!["[ns4]# atacontrol cap ad4", "", ""]
    );
}

#[test]
fn markup_inside_a_quote_goes_as_without_one() {
    // A Markdown code span opened on a quoted line, emphasis around a quoted line: the
    // same text as the unquoted paste; the tool's own paired backticks stay.
    let t = "`(da0:storvsc0:0:0:0): Capacity data has changed\n\
                 **GEOM_PART: da0 was automatically resized.**\n\
                 \x20 Use `gpart commit da0` to save changes or `gpart undo da0` to revert them.\n";
    let quoted: String = t.lines().map(|l| format!("> {l}\n")).collect();
    assert_eq!(lines(t), lines(&quoted));
    assert_eq!(
        lines(&quoted)[0],
        "(da0:storvsc0:0:0:0): Capacity data has changed"
    );
    assert!(lines(&quoted)[2].contains("`gpart commit da0`"));
}

#[test]
fn a_short_line_wraps_alike_plain_and_quoted() {
    // A 54-column line followed by a long word: no mail client wrapped it at 72 (the
    // word would have fitted), with or without the reply's "> " that makes it 56 wide.
    let t = "thunderbolt 0-1: new device found, vendor=0x8086 dev=1\n\
                 Intel_Corporation_JHL6540_Thunderbolt_3\n";
    let quoted: String = t.lines().map(|l| format!("> {l}\n")).collect();
    assert_eq!(lines(t).len(), 3, "{:?}", lines(t));
    assert_eq!(lines(t), lines(&quoted));
}

#[test]
fn a_dmesg_ctime_stamp_starts_a_line_of_its_own() {
    // `dmesg -T` (util-linux) prints "[Sun Jun 26 20:30:22 2022] "; a line near the wrap
    // width before it is a whole kernel message, not a wrapped one.
    let t = "[Sun Jun 26 20:30:22 2022] md/raid1:md0: active with 2 out of 2 mirrors\n\
                 [Sun Jun 26 20:30:22 2022] md0: detected capacity change from 0 to 2144337920\n";
    assert_eq!(lines(t).len(), 3, "{:?}", lines(t));
    // Without the stamp the same break is a re-wrap.
    let w = "md/raid1:md0: active with 2 out of 2 mirrors and some more words here\n\
                 continued\n";
    assert_eq!(lines(w).len(), 2, "{:?}", lines(w));
}

#[test]
fn a_dev_printk_line_starts_a_line_of_its_own_at_any_quote_depth() {
    // Kernel lines in dev_printk's "driver device: message" form (drivers/base/core.c),
    // NOT A CAPTURE: one near the wrap width is followed by the next message, not by its
    // own tail; each quote level ("> > ") widens the line by two columns.
    let t = "usb 2-1.3: New USB device found, idVendor=1e91, idProduct=a3a8, bcdDevice=2.07\n\
                 usb 2-1.3: New USB device strings: Mfr=1, Product=2, SerialNumber=5\n\
                 usb-storage 2-1.3:1.0: Quirks match for vid 1e91 pid a3a8: 800000\n\
                 scsi host5: usb-storage 2-1.3:1.0\n\
                 sd 5:0:0:0: [sdc] Very big device. Trying to use READ CAPACITY(16).\n\
                 sd 5:0:0:0: [sdc] 7814037168 512-byte logical blocks: (4.00 TB/3.64 TiB)\n\
                 nvme nvme0: I/O 12 QID 3 timeout, aborting and some more words here\n\
                 ahci 0000:00:1f.2: AHCI 0001.0300 32 slots 6 ports 6 Gbps 0x3f impl SATA\n";
    for depth in 0..4 {
        let q = "> ".repeat(depth);
        let quoted: String = t.lines().map(|l| format!("{q}{l}\n")).collect();
        let got = lines(&quoted);
        assert_eq!(got.len(), 9, "depth {depth}: {got:?}");
        assert_eq!(
            got[4],
            "sd 5:0:0:0: [sdc] Very big device. Trying to use READ CAPACITY(16)."
        );
    }
    // A wrapped kernel line's tail still joins it: the tail is no "driver device: ".
    let w = "> > sd 5:0:0:0: [sdc] tag#0 FAILED Result: hostbyte=DID_OK driverbyte=\n\
                 > > DRIVER_SENSE cmd_age=0s\n";
    assert_eq!(lines(w).len(), 2, "{:?}", lines(w));
}

#[test]
fn an_mdstat_line_after_a_long_personalities_line_is_not_its_tail() {
    let t = "Personalities : [linear] [raid0] [raid1] [raid6] [raid5] [raid4] [raid10]\n\
                 md0 : active raid10 sdg[5] sdf[4] sde[3](F) sdd[2] sdc[1] sdb[0]\n";
    // (lines() keeps the empty line after the last newline.)
    assert_eq!(lines(t).len(), 3, "{:?}", lines(t));
    // Prose a client wrapped still joins.
    let p = "I have replaced the failed disk in the array and started the rebuild, then\n\
                 waited two days for it to finish\n";
    assert_eq!(lines(p).len(), 2, "{:?}", lines(p));
}

#[test]
fn an_inxi_section_header_after_a_long_line_is_not_its_tail() {
    // inxi -Fxz: a 73-column Network line, then the Drives section (wide layout), and
    // the narrow layout's header alone on its line.
    let t = "           IF: eno1 state: up speed: 1000 Mbps duplex: full mac: <filter>\n\
                 Drives:    Local Storage: total: 908.66 GiB used: 31.68 GiB (3.5%)\n";
    assert_eq!(lines(t).len(), 3, "{:?}", lines(t));
    let n = "  IF: enp3s0 state: down mac: <filter> speed: 1000 Mbps duplex: full\n\
                 Drives:\n  Local Storage: total: 9.21 TiB used: 3.35 TiB (36.4%)\n";
    assert_eq!(lines(n).len(), 4, "{:?}", lines(n));
    // A sentence that starts with the same word still joins.
    let p = "I have replaced the failed disk in the array and started the rebuild, then\n\
                 Drives: both were new\n";
    assert_eq!(lines(p).len(), 2, "{:?}", lines(p));
}

#[test]
fn a_prometheus_sample_after_a_long_sample_is_not_its_tail() {
    // etcd's /metrics: each sample 55-80 columns, the next name too long to have fitted.
    let t = "etcd_wal_fsync_durations_seconds_bucket{le=\"0.016\"} 529\n\
             etcd_wal_fsync_durations_seconds_bucket{le=\"0.064\"} 2.7211701e+07\n\
             etcd_disk_wal_fsync_duration_seconds_sum 1050.985334558008\n";
    assert_eq!(lines(t).len(), 4, "{:?}", lines(t));
    // Near miss: prose whose next line is a word and a number still joins.
    let p = "I have replaced the failed disk in the array and started the rebuild, then\n\
             waited 3\n";
    assert_eq!(lines(p).len(), 2, "{:?}", lines(p));
}

#[test]
fn rewrapped_lines_are_joined_but_tables_are_not() {
    let wrapped = "atapci0: <nVidia nForce CK804 UDMA133 controller> port 0x1f0-0x1f7,0x3f6,\n0x170-0x177,0x376,0xffa0-0xffaf at device 15.0 on pci0\n";
    let l = lines(wrapped);
    assert_eq!(
        l[0],
        "atapci0: <nVidia nForce CK804 UDMA133 controller> port 0x1f0-0x1f7,0x3f6, 0x170-0x177,0x376,0xffa0-0xffaf at device 15.0 on pci0"
    );
    let table = "0 78 0.00 0 0.00 0.00 0 0.00 0.50 7474 3.65 0 0 30 4 65\n287 78 0.00 0 0.00\n";
    assert_eq!(lines(table).len(), 3);
    // parted's align-check answer after its command (parted 3.5+ adds the reason) is
    // the output, not the command's tail, however long the prompt line is.
    let parted = "pi@raspberry-2ccf67b77b36:~$ sudo parted /dev/mmcblk0 align-check optimal 4\n\
                      4 not aligned: 30929920s % 2048s != 0s\n";
    assert_eq!(lines(parted).len(), 3, "{:?}", lines(parted));
    // A CAM error report after a register dump cut at 80 columns: each line of the
    // report starts with the device path, never a wrapped tail.
    let cam = "> ahcich8: is 00000002 cs 00000000 ss 00000000 rs 00000020 tfd 50 serr 00000000 c7\n\
                   > (aprobe0:ahcich8:0:0:0): ATA_IDENTIFY. ACB: ec 00 00 00 00 40 00 00 00 00 00 00\n\
                   > (aprobe0:ahcich8:0:0:0): CAM status: Command timeout\n";
    assert_eq!(lines(cam).len(), 4, "{:?}", lines(cam));
    // A parenthesised word after a wrapped line is still its tail.
    let prose = "> the disk kept timing out whenever the controller tried to reset the port\n\
                     > (twice a day) until replaced\n";
    assert_eq!(lines(prose).len(), 2, "{:?}", lines(prose));
    // hd-idle's log records, 73 columns each, are records, not a wrapped sentence.
    let hd_idle = "date: 2020-07-28, time: 08:00:25, disk: sdc, running: 600, stopped: 73892\n\
                   date: 2020-07-28, time: 10:32:22, disk: sdc, running: 601, stopped: 8516\n";
    assert_eq!(lines(hd_idle).len(), 3, "{:?}", lines(hd_idle));
}

/// A typed command near the wrap width is followed by its output, not by its tail,
/// whatever the prompt and the output (quoted replies add two columns): smartctl's
/// banner, a grep's match, a number. A command a client wrapped still joins when the
/// next line is more of its words.
#[test]
fn output_after_a_typed_command_is_not_its_tail() {
    for (cmd, out) in [
        (
            "> root:/smartmontools-7.0 # ./smartctl -a /dev/da0 -T permissive",
            "> smartctl 7.0 2018-12-30 r4883 [FreeBSD 9.3-RELEASE amd64] (local build)",
        ),
        (
            "> root@anode1:~/temp# smartctl /dev/sdc -a | grep 'grown defect'",
            "> Elements in grown defect list: 30",
        ),
        (
            "[admin@storage01 ~]$ sudo smartctl -x /dev/sdb | grep -i 'defect list'",
            "Elements in grown defect list: 12",
        ),
        (
            "# smartctl -a -j /dev/nvme0n1 | jq .nvme_smart_health_information_log.media",
            "0",
        ),
    ] {
        let t = format!("{cmd}\n{out}\n");
        assert_eq!(lines(&t).len(), 3, "{:?}", lines(&t));
    }
    for (cmd, tail) in [
        (
            "> root@host:~# dd if=/dev/zero of=/dev/sdb bs=1M count=1000 oflag=direct",
            "> status=progress",
        ),
        (
            "root@nas:/root # dd if=/dev/ada0 bs=1m count=4096 conv=sync,noerror",
            "of=/dev/null",
        ),
        (
            "$ sudo fio --name=seqwrite --rw=write --bs=1M --size=4G --filename=/dev/sdc",
            "| tee fio.log",
        ),
    ] {
        let t = format!("{cmd}\n{tail}\n");
        assert_eq!(lines(&t).len(), 2, "{:?}", lines(&t));
    }
}

#[test]
fn collapsed_dd_runs_are_split() {
    let l = unflatten(
        "root@heckler:/home/dan # dd if=/dev/zero of=/dev/da0 bs=32k count=300000 300000+0 records in 300000+0 records out 9830400000 bytes transferred in 53.709288 secs (183029796 bytes/sec) root@heckler:/home/dan # dd if=/dev/zero of=/dev/da0 bs=64k count=300000",
    );
    assert_eq!(
        l[0],
        "root@heckler:/home/dan # dd if=/dev/zero of=/dev/da0 bs=32k count=300000"
    );
    assert_eq!(l[1], "300000+0 records in");
    assert_eq!(l[2], "300000+0 records out");
    assert_eq!(
        l[3],
        "9830400000 bytes transferred in 53.709288 secs (183029796 bytes/sec)"
    );
    assert!(
        l[4].ends_with("dd if=/dev/zero of=/dev/da0 bs=64k count=300000"),
        "{l:?}"
    );
}

#[test]
fn log_headers_go_and_kernel_lines_stay_whole() {
    // A bare stamp before each line of a command's output: the stamp and one space go,
    // the output's own indentation and tabs stay (zpool status).
    assert_eq!(
        lines(
            "Jun  2 03:04:05   pool: tank\nJun  2 03:04:05  state: ONLINE\nJun  2 03:04:05 \tNAME  STATE\n"
        ),
        vec!["  pool: tank", " state: ONLINE", "\tNAME  STATE", ""]
    );
    // RFC 3164 with host and a tag with a PID, a SONiC-style year, fraction and
    // severity, RFC 3339 (journalctl -o short-iso) and RFC 5424 headers of other
    // programs: the program's text is what remains.
    for (l, want) in [
        (
            "Oct  9 22:15:01 nas smartd[812]: Device: /dev/sdb [SAT], 16 Currently unreadable (pending) sectors",
            "Device: /dev/sdb [SAT], 16 Currently unreadable (pending) sectors",
        ),
        (
            "2025 Feb 11 08:00:00.123456 sw1 NOTICE admin: Model Number:    ACME NVMe 1TB",
            "Model Number:    ACME NVMe 1TB",
        ),
        (
            "2024-05-06T07:08:09+0200 box logger[77]: === START OF INFORMATION SECTION ===",
            "=== START OF INFORMATION SECTION ===",
        ),
        (
            "<30>1 2024-05-06T07:08:09.1Z box zed 991 - - eid=5 class=statechange",
            "eid=5 class=statechange",
        ),
        (
            "  Nov 30 11:12:13 pc root: SMART support is: Enabled",
            "SMART support is: Enabled",
        ),
        (
            "<6>ata3: SATA link up 3.0 Gbps",
            "ata3: SATA link up 3.0 Gbps",
        ),
    ] {
        assert_eq!(strip_log_header(l), want, "{l}");
    }
    // The kernel's lines keep their header, with or without a host; so do lines whose
    // words after a stamp are no header ("status: ...", "Device Model: ...").
    for l in [
        "Nov 30 11:12:13 pc kernel: ata1.00: failed command: READ DMA",
        "Nov 30 11:12:13 kernel: ata1.00: failed command: READ DMA",
        "2024-05-06T07:08:09+0200 pc kernel: nvme nvme0: I/O 9 QID 3 timeout, aborting",
        "<3>1 2024-05-06T07:08:09Z pc kernel - - - blk_update_request: I/O error",
        // A field more between host and tag: the year again, a facility.level.
        "Jun 12 15:23:30 2011 barracuda 2011 kernel: [ 376.184695] end_request: I/O error, dev sdb, sector 793283772",
        "Jun 12 15:23:30 <kern.crit> barracuda kernel: ata1.00: failed command: READ DMA",
        // FreeBSD 4's syslogd tag of the kernel it booted, /kernel.
        "Feb 21 22:11:22 tuatara /kernel: da0 at umass-sim0 bus 0 target 0 lun 0",
    ] {
        assert_eq!(strip_log_header(l), l);
    }
    // Near miss: another program's path tag is no kernel line and loses its stamp.
    let l = "Feb 21 22:11:22 tuatara /usr/sbin/cron: da0 at umass-sim0";
    assert_ne!(strip_log_header(l), l);
    // Another program's tag after two fields is still stripped with the header.
    assert_eq!(
        strip_log_header(
            "Jun 12 15:23:30 barracuda smartd[612]: Device: /dev/sda, 8 Currently unreadable"
        ),
        "Device: /dev/sda, 8 Currently unreadable"
    );
    assert_eq!(
        strip_log_header("Nov 30 11:12:13 status: One or more devices is resilvering."),
        "status: One or more devices is resilvering."
    );
    assert_eq!(
        strip_log_header("Nov 30 11:12:13 Device Model:     ST4000DM004"),
        "Device Model:     ST4000DM004"
    );
    assert_eq!(strip_log_header("=> 63 945"), "=> 63 945");
    // A script's logger: basic-format stamp, a severity word, tabs; the output's own
    // indentation after the word's one separator stays.
    assert_eq!(
        lines(
            "20181103_110000\tERROR\t  pool: tank\n20181103_110000\tERROR\t\tNAME  STATE\n20181103T110000 INFO scan: none requested\n"
        ),
        vec!["  pool: tank", "\tNAME  STATE", "scan: none requested", ""]
    );
    // A number that is no stamp, and a stamp without a level word, keep their text.
    assert_eq!(
        strip_log_header("20181103_110000\tpool: tank"),
        "pool: tank"
    );
    assert_eq!(strip_log_header("2018110 ERROR x"), "2018110 ERROR x");
    // Stamped kernel lines are never re-joined as a mail client's wrapped line.
    let l = lines(
        "Nov 30 11:12:13 pc kernel: ata1.00: status: { DRDY ERR }, and a little more\nNov 30 11:12:13 pc kernel: ata1.00: error: { ABRT }\n",
    );
    assert_eq!(l.len(), 3, "{l:?}");
    // Nor is a Markdown code fence after a line of mail width.
    let l = lines("the output of the second run, with the write cache switched off again:\n```\n");
    assert_eq!(l[1], "```", "{l:?}");
}

#[test]
fn empty_and_binary_inputs_are_named() {
    assert_eq!(prepare(0, "t", b"").unwrap_err(), InputProblem::Empty);
    assert_eq!(
        prepare(0, "t", b" \n\t\n").unwrap_err(),
        InputProblem::Empty
    );
    let bin: Vec<u8> = (0..4096u32).map(|i| (i * 7 % 256) as u8).collect();
    assert!(matches!(
        prepare(0, "t", &bin),
        Err(InputProblem::Binary { .. })
    ));
}

#[test]
fn a_log_run_together_on_one_line_is_cut_at_its_stamps() {
    use crate::model::KernelEventKind;
    use crate::sources::kernel_log::all_events;
    // An index excerpt of a libata bus-error report with its newlines dropped, a shell
    // prompt before it.
    let flat = "root@box ~ #df -h Filesystem Size Used /dev/root 468.3M 443.1M [ 14.374593] \
                    ata1.00: exception Emask 0x12 SAct 0x7f00001f SErr 0x800500 action 0x6 frozen \
                    [ 14.384533] ata1.00: irq_stat 0x08000000, interface fatal error [ 14.394483] \
                    ata1: SError: { UnrecovData Proto LinkSeq } [ 14.399952] ata1.00: failed \
                    command: READ FPDMA QUEUED";
    let parts = unflatten(flat);
    assert_eq!(parts.len(), 5, "{parts:?}");
    assert_eq!(
        parts[3],
        "[ 14.394483] ata1: SError: { UnrecovData Proto LinkSeq }"
    );
    let kinds: Vec<_> = all_events(&parts.join("\n"), "k")
        .into_iter()
        .map(|(_, e)| e.kind)
        .collect();
    assert!(kinds.contains(&KernelEventKind::CrcError), "{kinds:?}");
    // Without stamps: cut at each libata port prefix.
    let bare = "ata3.00: exception Emask 0x0 SAct 0x0 SErr 0x0 action 0x0 ata3.00: failed \
                    command: READ DMA EXT ata3.00: status: { DRDY ERR } ata3.00: error: { UNC }";
    assert_eq!(unflatten(bare).len(), 4, "{:?}", unflatten(bare));
    // One long stamped line is one line, and two stamps are not yet a flattened log.
    let one = "[    2.512345] ata1.00: ATA-9: ST2000DM001-1CH164, CC43, max UDMA/133, \
                   3907029168 sectors: 2000 GB, NCQ (depth 31/32), AA";
    assert_eq!(unflatten(one).len(), 1);
    let two = "[    2.512345] ata1.00: configured for UDMA/133 [    2.512399] ata1.00: \
                   supports DRM functions and may not be fully accessible";
    assert_eq!(unflatten(two).len(), 1);
}

#[test]
fn a_quoted_printable_mail_is_decoded_before_it_is_read() {
    // A list archive that kept the message's encoding (RFC 2045 section 6.7), quoted twice.
    let mail = "> > Dec 15 13:55:17 kernel: hdd: dma_intr: status=3D0x51 { DriveReady=20\n\
                > > SeekComplete Error }\n\
                > > Dec 15 13:55:17 kernel: hdd: dma_intr: error=3D0x84 { DriveStatusError=20\n\
                > > BadCRC }\n";
    let p = prepare(0, "t", mail.as_bytes()).expect("text");
    let got: Vec<&str> = p.lines.iter().map(|l| l.text.as_str()).collect();
    assert_eq!(
        got,
        vec![
            "Dec 15 13:55:17 kernel: hdd: dma_intr: status=0x51 { DriveReady SeekComplete Error }",
            "Dec 15 13:55:17 kernel: hdd: dma_intr: error=0x84 { DriveStatusError BadCRC }",
            "",
        ]
    );
    assert!(p.notes.iter().any(|n| n.contains("quoted-printable")));
    // A soft line break joins the two halves with nothing between them.
    let soft = "hda: status=3D0x51 { DriveReady SeekComp=\nlete Error }\nhda: error=3D0x40\n";
    assert_eq!(
        lines(soft)[..2],
        [
            "hda: status=0x51 { DriveReady SeekComplete Error }",
            "hda: error=0x40"
        ]
    );
    // A program's own "=": no decoding (one lone "=20" and fio's "IOPS=97.2k").
    let plain = "dd if=/dev/zero of=/tmp/x bs=1M count=20\ntimeout=20\n  read: IOPS=97.2k, BW=380MiB/s (398MB/s)\n";
    assert_eq!(
        lines(plain),
        vec![
            "dd if=/dev/zero of=/tmp/x bs=1M count=20",
            "timeout=20",
            "  read: IOPS=97.2k, BW=380MiB/s (398MB/s)",
            "",
        ]
    );
}

/// `grep -H`/`grep -r` put the file name before each log line: it goes with the header; a
/// device name before a colon (hddtemp's "/dev/sda: ...") is no file name.
#[test]
fn grep_file_names_before_log_lines_go() {
    let k = "Sep  7 06:25:20 store3 kernel: [14413531.517195] blk_update_request: critical target error, dev sdf, sector 2277";
    assert_eq!(strip_log_header(&format!("/var/log/syslog.1:{k}")), k);
    assert_eq!(strip_log_header(&format!("kern.log.2.gz-{k}")), k);
    assert_eq!(
        strip_log_header(
            "/var/log/messages:2024-05-06T07:08:09+0200 pc smartd[612]: Device: /dev/sda, opened"
        ),
        "Device: /dev/sda, opened"
    );
    for l in [
        "/dev/sda: WDC WD3200BEKT-75PVMT1: 32°C",
        "/dev/sda:Sector size 512",
    ] {
        assert_eq!(strip_log_header(l), l);
    }
}

#[test]
fn vagrant_machine_prefixes_go() {
    // lib/vagrant/ui.rb Prefixed#format_message: "==> " and the machine's name.
    assert_eq!(
        strip_frontend_prefix("==> web01: 2048+0 records in"),
        "2048+0 records in"
    );
    assert_eq!(strip_frontend_prefix("==> db: dd: "), "dd: ");
    // Near misses: an arrow of a tool's own output, no machine name.
    assert_eq!(
        strip_frontend_prefix("==> /var/log/syslog <=="),
        "==> /var/log/syslog <=="
    );
    assert_eq!(strip_frontend_prefix("=> default: x"), "=> default: x");
    // smartctl's drive-database warning.
    assert_eq!(
        strip_frontend_prefix("==> WARNING: Using smartmontools or hdparm with this"),
        "==> WARNING: Using smartmontools or hdparm with this"
    );
}

#[test]
fn a_heading_after_a_table_row_is_not_its_wrapped_tail() {
    // pg_test_fsync rows near the wrap width, then the next section's title without the
    // blank line between them.
    let t = b"        open_datasync                    1204.117 ops/sec     830 usecs/op\n\
              Compare file sync methods using two 8kB writes:\n";
    let l = lines(std::str::from_utf8(t).unwrap_or_default());
    assert_eq!(
        l.get(1).map(String::as_str),
        Some("Compare file sync methods using two 8kB writes:"),
        "{l:?}"
    );
}

#[test]
fn a_journal_stamp_in_another_locale_is_a_log_header() {
    // journalctl's "%b" is the locale's month: it_IT "mag", de_DE "Okt", fr_FR "févr.".
    for (line, msg) in [
        (
            "mag 21 10:02:11 nas smartd[812]: Device: /dev/sdb [SAT], opened",
            "Device: /dev/sdb [SAT], opened",
        ),
        (
            "Okt 03 22:14:09 pc smartd[77]: Device: /dev/sda, is SMART capable.",
            "Device: /dev/sda, is SMART capable.",
        ),
        (
            "févr. 11 08:00:00 srv udisksd[900]: Mounted /dev/sdc1",
            "Mounted /dev/sdc1",
        ),
    ] {
        assert_eq!(strip_log_header(line), msg, "{line}");
    }
    // A word that is no month keeps its line.
    let prose = "Luca 21 10:02:11 nas smartd[812]: Device: /dev/sdb, opened";
    assert_eq!(strip_log_header(prose), prose);
}

/// A syslog copied without newlines or stamps: each SCSI midlayer or USB core line starts at
/// its device prefix ("sd H:C:T:L: ", "scsi H:C:T:L: ", "usb B-P: "); one such line alone,
/// or a prefix after a syslog tag, is not cut.
#[test]
fn unstamped_scsi_and_usb_lines_run_together_are_cut() {
    let flat = "scsi 7:0:0:0: Direct-Access WD Elements 25A2 1021 PQ: 0 ANSI: 6 sd 7:0:0:0: \
                Attached scsi generic sg3 type 0 sd 7:0:0:0: [sdc] Spinning up disk... \
                usb 2-3: USB disconnect, device number 5 sd 7:0:0:0: [sdc] READ CAPACITY(16) failed";
    let parts = unflatten(flat);
    assert!(
        parts
            .iter()
            .any(|p| p == "sd 7:0:0:0: [sdc] READ CAPACITY(16) failed"),
        "{parts:?}"
    );
    assert!(
        parts
            .iter()
            .any(|p| p == "usb 2-3: USB disconnect, device number 5"),
        "{parts:?}"
    );
    let one = "Mar  3 10:00:00 host kernel: sd 7:0:0:0: [sdc] 1953525168 512-byte logical blocks: (1.00 TB/932 GiB)";
    assert_eq!(unflatten(one), vec![one.to_string()]);
}

/// A one-word heading after a line near the wrap width opens a section of a program's
/// output (hdparm -I's "Commands/features:" after its "Cycle time" line), never a wrapped
/// tail; a wrapped sentence's tail of several words still joins.
#[test]
fn a_one_word_heading_is_not_a_wrapped_tail() {
    let t =
        "\t     Cycle time: no flow control=120ns  IORDY flow control=120ns\nCommands/features:\n";
    let l = lines(t);
    assert!(l.iter().any(|x| x.trim() == "Commands/features:"), "{l:?}");
    let prose = "I ran the read test on the new disk and it came back a lot slower than\nwhat the vendor says it should do\n";
    assert!(
        lines(prose)[0].ends_with("slower than what the vendor says it should do"),
        "{:?}",
        lines(prose)
    );
}
