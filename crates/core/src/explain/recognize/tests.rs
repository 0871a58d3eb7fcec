use super::*;
use crate::explain::segment::prepare;

fn rec(s: &str) -> Recognized {
    let p = prepare(0, "t", s.as_bytes()).expect("text");
    recognize(&p.lines)
}

#[test]
fn commands_at_prompts_and_in_prose() {
    let r = rec(
        "thor# atacontrol cap ad4\nProtocol Serial ATA II\ndevice model HDT722525DLA380\nFeature Support Enable Value Vendor\nwrite cache yes yes\n",
    );
    assert_eq!(r.blocks.len(), 1);
    assert_eq!(
        r.blocks[0].tool,
        Tool::of(&sources::camcontrol_identify::ATACONTROL_SPEC)
    );
    assert_eq!(r.blocks[0].device.as_deref(), Some("ad4"));
    let r = rec(
        "Output of camcontrol identify ada0:\n\npass0: <ST9320423AS 0002SDM1> ATA-8 SATA 2.x device\npass0: 300.000MB/s transfers (SATA 2.x, UDMA6, PIO 8192bytes)\n\nprotocol              ATA/ATAPI-8 SATA 2.x\ndevice model          ST9320423AS\n",
    );
    assert_eq!(
        r.blocks[0].tool,
        Tool::of(&sources::camcontrol_identify::SPEC)
    );
    assert_eq!(r.blocks[0].device.as_deref(), Some("ada0"));
    assert_eq!((r.blocks[0].first, r.blocks[0].last), (3, 7));
}

#[test]
fn gentoo_style_prompts_carry_their_command() {
    for (p, dev) in [
        ("xbian@xbian /media/Seagate/tmp $ ", None),
        ("root@nas ~ # ", None),
        ("me@box /tmp$ ", None),
    ] {
        let r = rec(&format!(
            "{p}dd if=/dev/zero of=test7.bin bs=1M count=1000\n1000+0 records in\n1000+0 records out\n1048576000 bytes (1.0 GB) copied, 22.0757 s, 47.5 MB/s\n"
        ));
        assert_eq!(r.commands.len(), 1, "{p}: {:?}", r.commands);
        assert!(r.commands[0].typed, "{p}");
        assert_eq!(r.commands[0].program, "dd", "{p}");
        assert_eq!(r.commands[0].device.as_deref(), dev, "{p}");
    }
    // An address and a path in prose are no prompt.
    let r = rec("mail me@box /tmp is full, dd said nothing\n");
    assert!(r.commands.iter().all(|c| !c.typed), "{:?}", r.commands);
}

#[test]
fn a_one_line_shell_loop_carries_its_body_command() {
    // bash(1) Compound Commands, as typed on one line with `2>&1 | grep bytes` after it.
    let r = rec(
        "$ for i in {0..10};do echo $i;time dd if=/dev/zero of=$RANDOM$RANDOM count=102 bs=4096;done 2>&1 | grep bytes\n417792 bytes (418 kB, 408 KiB) copied, 0.00114803 s, 364 MB/s\n417792 bytes (418 kB, 408 KiB) copied, 0.00116478 s, 359 MB/s\n",
    );
    assert_eq!(r.commands.len(), 1, "{:?}", r.commands);
    assert_eq!(r.commands[0].program, "dd");
    assert_eq!(
        r.commands[0].text,
        "dd if=/dev/zero of=$RANDOM$RANDOM count=102 bs=4096"
    );
    assert_eq!(
        r.blocks[0].command.as_deref(),
        Some(r.commands[0].text.as_str())
    );
    // A loop whose body runs nothing explain follows is no command, and neither is a
    // sentence that merely says "for ... do".
    let r = rec("$ for f in *.log; do echo $f; done\nfor each disk do a dd run\n");
    assert!(r.commands.iter().all(|c| !c.typed), "{:?}", r.commands);
    // A body run on the loop's variable serves several devices: no one command.
    let r = rec(
        "root@orbit:/# for dev in /dev/sd[a-d]; do smartctl -a $dev | grep Load_Cycle_Count; done;\n193 Load_Cycle_Count 0x0032 120 120 000 Old_age Always - 240530\n",
    );
    assert!(r.commands.iter().all(|c| !c.typed), "{:?}", r.commands);
}

#[test]
fn prose_is_not_a_command() {
    let r = rec(
        "'dd' seems to do a well job, but it runs as 'root'\ndd to raw device\ncp is slow here.\n",
    );
    assert!(r.commands.is_empty(), "{:?}", r.commands);
    assert!(r.blocks.is_empty());
    assert_eq!(r.ignored, vec![(0, 1, 3)]);
}

#[test]
fn loader_conf_setting_in_prose_is_found() {
    let r = rec(
        "The write caching was disabled by putting hw.ata.wc=\"0\" in /boot/loader.conf and rebooting the machine:\n",
    );
    assert_eq!(r.settings.len(), 1);
    assert_eq!(
        (r.settings[0].name.as_str(), r.settings[0].value.as_str()),
        ("hw.ata.wc", "0")
    );
}

#[test]
fn small_detectors_for_outputs_without_fixtures() {
    // pciconf -lv (pciconf(8)), hdparm -t, German GNU dd with its command line.
    let r = rec(
        "atapci0@pci0:0:31:2:\tclass=0x01018f card=0x81ef1043 chip=0x27c08086 rev=0x01 hdr=0x00\n    vendor     = 'Intel Corporation'\n    device     = 'NM10/ICH7 Family SATA Controller [IDE mode]'\n    class      = mass storage\n    subclass   = ATA\n",
    );
    assert_eq!(
        r.blocks.iter().map(|b| b.tool).collect::<Vec<_>>(),
        vec![Tool::of(&sources::pciconf::SPEC)]
    );
    assert_eq!(r.blocks[0].last, 5);
    let r = rec(
        "# hdparm -t /dev/sda\n\n/dev/sda:\n Timing buffered disk reads: 356 MB in  3.01 seconds = 118.27 MB/sec\n",
    );
    assert_eq!(
        r.blocks.iter().map(|b| b.tool).collect::<Vec<_>>(),
        vec![Tool::of(&sources::hdparm::TIMING_SPEC)]
    );
    assert_eq!(r.blocks[0].device.as_deref(), Some("sda"));
    let r = rec(
        "$ dd if=debian.iso of=/dev/sdc bs=4M\n6395+1 Datensätze ein\n6395+1 Datensätze aus\n3353227264 bytes (3,4 GB, 3,1 GiB) copied, 365,951 s, 9,2 MB/s\n",
    );
    assert_eq!(r.commands.len(), 1);
    assert_eq!(r.commands[0].text, "dd if=debian.iso of=/dev/sdc bs=4M");
    assert_eq!(
        r.blocks.iter().map(|b| b.tool).collect::<Vec<_>>(),
        vec![Tool::of(&sources::dd::SPEC)]
    );
    assert_eq!((r.blocks[0].first, r.blocks[0].last), (2, 4));
    // A dmesg controller line behind a label ("Controller: atapci0: ...", seed 000).
    let r = rec("Controller: atapci0: Intel ICH7 UDMA100 controller\n");
    assert_eq!(r.blocks[0].tool, Tool::of(&sources::dmesg::SPEC));
    assert_eq!(r.blocks[0].text, "atapci0: Intel ICH7 UDMA100 controller");
    // Linux dmesg with timestamps; lsblk plain; dmsetup table.
    let r = rec(
        "[    1.98] ata1: SATA link up 6.0 Gbps (SStatus 133 SControl 300)\n[    2.01] sd 0:0:0:0: [sda] Write cache: enabled, read cache: enabled\n\nNAME   MAJ:MIN RM   SIZE RO TYPE MOUNTPOINT\nsda      8:0    0 447.1G  0 disk\n└─sda1   8:1    0   600M  0 part /boot/efi\n\nvg-root: 0 104857600 linear 8:19 360671232\n",
    );
    assert_eq!(
        r.blocks.iter().map(|b| b.tool).collect::<Vec<_>>(),
        vec![
            Tool::of(&sources::kernel_log::LINUX_SPEC),
            Tool::of(&sources::lsblk::SPEC),
            Tool::of(&sources::dmsetup::SPEC)
        ]
    );
}

#[test]
fn programs_come_from_the_registry_once_each() {
    let mut names: Vec<&str> = PROGRAMS.iter().map(|p| p.name).collect();
    let n = names.len();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), n, "a program declared twice: {names:?}");
    // A spec's program, one of explain's own, and both patterns built from the parts.
    assert!(program("zdb").is_some_and(|p| p.names_device));
    assert!(program("cp").is_some_and(|p| !p.names_device));
    assert!(program("rm").is_none());
    let c = PROMPT
        .captures("root@host:~# /sbin/zdb -C tank")
        .expect("prompt");
    assert_eq!(c.get(1).map(|m| m.as_str()), Some("zdb"));
    let m = MENTION
        .captures("the output of camcontrol identify ada0 follows")
        .expect("mention");
    assert_eq!(m.get(3).map(|m| m.as_str()), Some("ada0"));
}

#[test]
fn prose_detector() {
    assert!(looks_like_prose(
        "Sorry for waiting so long, but weekend and a lot of work prevented me"
    ));
    assert!(!looks_like_prose(
        "atkbd: the current kbd controller command byte 0047"
    ));
    assert!(!looks_like_prose("  Features=0x178bfbff<FPU,VME>"));
    assert!(!looks_like_prose("Total time to complete Offline"));
}

/// A script traced with `set -x` prints each command after PS4's "+" (one per nesting
/// level): the command is typed, as at a prompt. A "+" glued to a word, or prose after a
/// "+", is no command.
#[test]
fn shell_trace_lines_carry_their_command() {
    for p in ["+ ", "++ "] {
        let r = rec(&format!(
            "{p}dd if=/dev/zero of=test7.bin bs=1M count=1000\n1000+0 records in\n1000+0 records out\n1048576000 bytes (1.0 GB) copied, 22.0757 s, 47.5 MB/s\n"
        ));
        assert_eq!(r.commands.len(), 1, "{p}: {:?}", r.commands);
        assert!(r.commands[0].typed, "{p}");
        assert_eq!(r.commands[0].program, "dd", "{p}");
    }
    let r = rec("+1 for running dd with bigger blocks\n+dd is fine\n");
    assert!(r.commands.iter().all(|c| !c.typed), "{:?}", r.commands);
}

/// Output-less commands typed before a followed one on the same line (`sync;`, dropping
/// the page cache) still make it a command, which ends the block above; a list whose
/// first command prints output of its own is not read past.
#[test]
fn quiet_commands_before_the_followed_one() {
    for p in [
        "# sync; ",
        "$ sync && ",
        "$ sync; echo 3 > /proc/sys/vm/drop_caches; ",
        "$ sudo sysctl -w vm.drop_caches=3 && sudo ",
    ] {
        let r = rec(&format!(
            "{p}dd if=/dev/zero of=tempfile bs=1M count=1024; sync\n1024+0 records in\n1024+0 records out\n1073741824 bytes (1.1 GB) copied, 0.648344 s, 1.7 GB/s\n"
        ));
        assert_eq!(r.commands.len(), 1, "{p}");
        assert_eq!(r.commands[0].program, "dd", "{p}");
        assert!(r.commands[0].text.starts_with("dd if=/dev/zero"), "{p}");
    }
    let r = rec("$ ls -l; dd if=/dev/zero of=tempfile bs=1M count=1024\n");
    assert!(r.commands.is_empty());
}

/// A command typed without a prompt right after a block of output near the mail wrap
/// width (bnb-chain/bsc#189: `sudo dd if=/dev/md127 ...` after an hdparm -t timing line)
/// ends the block and starts its own: the dd run below it keeps its command. The same
/// after a smartctl and an iostat block; a line that only starts with a program's name
/// (prose) does not end anything.
#[test]
fn a_bare_command_line_ends_the_block_above_it() {
    let dd = "sudo dd if=/dev/md127 of=/tmp/output bs=8k count=10\n\
              10+0 records in\n10+0 records out\n\
              81920 bytes (82 kB, 80 KiB) copied, 0.00115969 s, 70.6 MB/s\n";
    for (above, tool) in [
        (
            "/dev/nvme1n1:\n Timing cached reads:   39220 MB in  1.99 seconds = 19749.69 MB/sec\n \
             Timing buffered disk reads: 4844 MB in  3.00 seconds = 1614.36 MB/sec\n",
            "hdparm-t",
        ),
        (
            "smartctl 7.2 2020-12-30 r5155 [x86_64-linux-5.10.0-8-amd64] (local build)\n\
             Copyright (C) 2002-20, Bruce Allen, Christian Franke, www.smartmontools.org\n",
            "smartctl",
        ),
        (
            "Device:            tps    kB_read/s    kB_wrtn/s    kB_read    kB_wrtn\n\
             sda              13.19        24.85       276.95   25296703  281923596\n",
            "iostat",
        ),
    ] {
        for cmd in [dd.to_string(), dd.replacen("sudo ", "", 1)] {
            let r = rec(&format!("{above}{cmd}"));
            let ids: Vec<&str> = r.blocks.iter().map(|b| b.tool.id()).collect();
            let typed: Vec<&str> = r.commands.iter().map(|c| c.text.as_str()).collect();
            // The block above, then the dd run with its own command.
            assert!(ids.first().is_some_and(|i| i.starts_with(tool)), "{ids:?}");
            assert_eq!(ids.last(), Some(&"dd"), "{tool}");
            assert_eq!(
                typed.last().and_then(|c| c.get(..16)),
                Some("dd if=/dev/md127")
            );
        }
    }
    // Near miss: a wrapped sentence whose next line starts with a program's name but no
    // arguments of it still joins (cp_args: no two operands).
    let p = crate::explain::segment::prepare(
        0,
        "t",
        "I checked the disk with a long test and the array after it, then tried to\n\
         cp is slow on it as well\n"
            .as_bytes(),
    )
    .expect("text");
    assert_eq!(p.lines.len(), 2, "{:?}", p.lines);
}

#[test]
fn a_variable_set_before_the_command() {
    // linux-block 2022 (Ming Lei's thread): `DISK=nvme3n1; dd if=/dev/$DISK ...` runs dd
    // on nvme3n1 with iflag=direct; the assignment prints nothing.
    let t = "root@xxx:~# DISK=nvme3n1; dd if=/dev/$DISK of=/dev/null bs=1048576 iflag=direct count=2048 & iostat -yxm /dev/$DISK 1 1 ; wait";
    assert!(is_command_line(t));
    assert_eq!(
        expand_assignments(
            "root@xxx:~# DISK=nvme3n1; ",
            "dd if=/dev/$DISK of=/dev/null"
        ),
        "dd if=/dev/nvme3n1 of=/dev/null"
    );
    // ${NAME} too; a longer name that only starts with it is left alone.
    assert_eq!(
        expand_assignments("D=sdb; ", "dd if=/dev/${D} of=$DX"),
        "dd if=/dev/sdb of=$DX"
    );
    // Near miss: prose with an equals sign is no command.
    assert!(!is_command_line("x=1; then the dd was slow"));
}
