use super::*;
use crate::checks::Severity;

fn run(text: &str) -> Explanation {
    explain(&[Input {
        label: "t".into(),
        bytes: text.as_bytes().to_vec(),
    }])
    .expect("recognised")
}

/// A smartctl table without its banner or command names no disk and no OS.
const UNNAMED_SMART: &str = "SMART overall-health self-assessment test result: PASSED\n\nID# ATTRIBUTE_NAME          FLAG     VALUE WORST THRESH TYPE      UPDATED  WHEN_FAILED RAW_VALUE\n  5 Reallocated_Sector_Ct   0x0033   090   090   010    Pre-fail  Always       -       2872\n197 Current_Pending_Sector  0x0012   100   100   000    Old_age   Always       -       624\n198 Offline_Uncorrectable   0x0010   100   100   000    Old_age   Offline      -       624\n";

fn problems(ex: &Explanation) -> Vec<(&str, Severity)> {
    ex.findings
        .iter()
        .filter(|f| f.is_problem() && f.severity >= Severity::Notice)
        .map(|f| (f.check.as_str(), f.severity))
        .collect()
}

/// A FreeBSD guest's disk on a hypervisor's SIM (storvsc(4), pvscsi(4)) that grew under
/// its table: CAM's "Capacity data has changed" and GEOM_PART's automatic resize, with a
/// stray Markdown backtick kept, are the grown virtual disk; the same lines on an AHCI
/// disk say nothing of a hypervisor.
#[test]
fn a_grown_disk_on_a_hypervisor_sim() {
    for (text, virt) in [
        (
            "`(da0:storvsc0:0:0:0): Capacity data has changed\nGEOM_PART: da0 was automatically resized.\n  Use `gpart commit da0` to save changes or `gpart undo da0` to revert them.\n",
            true,
        ),
        (
            "(da1:pvscsi0:0:1:0): Capacity data has changed\nGEOM_PART: da1 was automatically resized.\n  Use `gpart commit da1` to save changes or `gpart undo da1` to revert them.`\n",
            true,
        ),
        (
            "(ada2:ahcich2:0:0:0): Capacity data has changed\nGEOM_PART: ada2 was automatically resized.\n  Use `gpart commit ada2` to save changes or `gpart undo ada2` to revert them.\n",
            false,
        ),
    ] {
        let ex = run(text);
        let got = problems(&ex)
            .iter()
            .any(|(c, s)| *c == "virtual-or-bridged-device" && *s == Severity::Notice);
        assert_eq!(got, virt, "{text}\n{:?}", problems(&ex));
        // Its fix writes the table at the new end: capacity, not a rate (no USB words).
        if let Some(f) = ex
            .findings
            .iter()
            .find(|f| f.check == "virtual-or-bridged-device" && f.is_problem())
        {
            let why = f.expected_effect_unknown.as_deref().unwrap_or_default();
            assert!(why.contains("capacity") && !why.contains("USB"), "{why}");
        }
    }
}

/// The sd line "Write cache: disabled" of a drive (LUN 0) is a drive cache left off; the
/// same line of a unit at another LUN (batch 24's Longhorn iSCSI volume, 2:0:0:1) or of a
/// software target the scan line of the same address names (LIO-ORG) is the target's
/// design, not a finding.
#[test]
fn write_cache_off_of_a_target_lun_is_not_a_drive_cache() {
    let lun0 = "[ 5.1] sd 1:0:171:0: [sdfg] Write cache: disabled, read cache: enabled, supports DPO and FUA\n";
    let lun1 = "[ 2732.426024] sd 2:0:0:1: [sda] Write cache: disabled, read cache: enabled, supports DPO and FUA\n";
    let lio = "[ 3.0] scsi 3:0:0:0: Direct-Access     LIO-ORG  disk01           4.0  PQ: 0 ANSI: 5\n\
                   [ 3.1] sd 3:0:0:0: [sdb] Write cache: disabled, read cache: enabled, supports DPO and FUA\n";
    for (text, flagged) in [(lun0, true), (lun1, false), (lio, false)] {
        let ex = run(text);
        let p = problems(&ex);
        assert_eq!(
            p.iter().any(|(c, _)| *c == "write-cache-disabled"),
            flagged,
            "{text}\n{p:?}"
        );
    }
}

/// `time dd` of a file: real time filled with user + sys time never waited on a disk
/// (batch 24's 3.9 GB/s read); a run that slept on the device is left alone.
#[test]
fn a_dd_read_that_never_waited_is_the_page_cache() {
    let run_of = |real: &str, user: &str, sys: &str| {
        format!(
            "$ time dd if=/data/bigfile of=/dev/null bs=8k\n131072+0 records in\n131072+0 records out\n\
                 1073741824 bytes (1.1 GB, 1.0 GiB) copied, 0.278144 s, 3.9 GB/s\n\n\
                 real\t{real}\nuser\t{user}\nsys\t{sys}\n"
        )
    };
    for (text, cached) in [
        (run_of("0m0.281s", "0m0.108s", "0m0.173s"), true),
        // Near miss: 0.28 s of 1.2 s on the CPU, the rest waiting on the device.
        (run_of("0m1.200s", "0m0.108s", "0m0.173s"), false),
    ] {
        let ex = run(&text);
        let p = problems(&ex);
        assert_eq!(
            p.iter().any(|(c, _)| *c == "cache-answered"),
            cached,
            "{text}\n{p:?}"
        );
    }
}

/// A guest's kernel that crashed completing I/O of its virtual disk: the virtual disk's
/// symptom (a kernel or hypervisor bug), at warning; a healthy virtual disk stays
/// information, and a crash outside the storage path says nothing of the disk.
#[test]
fn a_crash_completing_a_virtual_disks_io() {
    let disk = "[    0.72] scsi host0: Virtio SCSI HBA\n\
                    [    0.73] scsi 0:0:1:0: Direct-Access     Google   PersistentDisk   1    PQ: 0 ANSI: 6\n\
                    [    0.74] sd 0:0:1:0: [sda] 20971520 512-byte logical blocks: (10.7 GB/10.0 GiB)\n\
                    [    0.75] sd 0:0:1:0: [sda] Write cache: enabled, read cache: enabled, doesn't support DPO or FUA\n";
    let storage = "[    0.79] BUG: kernel NULL pointer dereference, address: 0000000000000010\n\
                       [    0.79] Oops: 0000 [#1] SMP PTI\n\
                       [    0.80] Call Trace:\n\
                       [    0.80]  <IRQ>\n\
                       [    0.80]  scsi_io_completion+0x3c/0x750\n\
                       [    0.80]  blk_complete_reqs+0x38/0x50\n";
    let other = storage
        .replace("scsi_io_completion", "tcp_v4_rcv")
        .replace("blk_complete_reqs", "ip_local_deliver");
    for (text, warned) in [
        (format!("{disk}{storage}"), true),
        (disk.to_string(), false),
        (format!("{disk}{other}"), false),
    ] {
        let ex = run(&text);
        let p = problems(&ex);
        let got = p
            .iter()
            .any(|(c, s)| *c == "virtual-or-bridged-device" && *s == Severity::Warning);
        assert_eq!(got, warned, "{text}\n{p:?}");
        assert!(!p.iter().any(|(c, _)| *c == "media-errors"), "{p:?}");
    }
}

/// `lspci | grep -i sata` alone: one SATA controller in IDE mode is the pasted disk's
/// controller in legacy mode; AHCI mode, an IDE-class function the ahci driver runs, a
/// PATA-only IDE controller and two storage controllers say nothing.
#[test]
fn an_lspci_line_of_a_sata_controller_in_ide_mode() {
    for (text, legacy) in [
        (
            "00:1f.2 IDE interface: Intel Corporation 82801GBM/GHM (ICH7-M Family) SATA Controller [IDE mode] (rev 01)\n",
            true,
        ),
        (
            "$ lspci | grep -i sata\n00:1f.2 IDE interface [0101]: Intel Corporation 82801GB/GR/GH (ICH7 Family) SATA IDE Controller [8086:27c0] (rev 01)\n",
            true,
        ),
        (
            "00:11.0 SATA controller: Advanced Micro Devices, Inc. [AMD/ATI] SB7x0/SB8x0/SB9x0 SATA Controller [AHCI mode] (rev 40)\n",
            false,
        ),
        (
            "00:11.0 IDE interface: ATI Technologies Inc SB600 Non-Raid-5 SATA\n\tKernel driver in use: ahci\n",
            false,
        ),
        (
            "00:1f.1 IDE interface: Intel Corporation 82801G (ICH7 Family) IDE Controller (rev 01)\n",
            false,
        ),
        (
            "00:1f.2 IDE interface: Intel Corporation 82801GBM/GHM (ICH7-M Family) SATA Controller [IDE mode] (rev 01)\n\
                 03:00.0 SATA controller: Marvell Technology Group Ltd. 88SE9123 PCIe SATA 6.0 Gb/s controller (rev 11)\n",
            false,
        ),
    ] {
        let ex = run(text);
        let got = problems(&ex)
            .iter()
            .any(|(c, _)| *c == "controller-legacy-mode");
        assert_eq!(got, legacy, "{text}\n{:?}", problems(&ex));
    }
}

/// A dd that moved under 64 KiB is no speed test when it took milliseconds (a key file,
/// a boot sector), but it is one when it took seconds: the device set that pace.
#[test]
fn a_tiny_dd_is_judged_only_when_the_device_took_its_time() {
    for (text, judged) in [
        (
            "# dd if=/dev/zero of=/dev/sdb\n81+0 records in\n80+0 records out\n\
                 40960 bytes transferred in 416.846622 seconds (98 bytes/sec)\n",
            true,
        ),
        (
            "$ dd if=/dev/zero of=/dev/sdc\n^C121+0 records in\n120+0 records out\n\
                 61440 bytes (61 kB, 60 KiB) copied, 12.5 s, 4.9 kB/s\n",
            true,
        ),
        (
            "# dd if=/dev/urandom of=/root/keyfile bs=512 count=4\n4+0 records in\n\
                 4+0 records out\n2048 bytes (2.0 kB, 2.0 KiB) copied, 0.000215 s, 9.5 MB/s\n",
            false,
        ),
    ] {
        let ex = run(text);
        let small = ex
            .findings
            .iter()
            .any(|f| f.check == "benchmark-small-blocks" && f.is_problem());
        assert_eq!(small, judged, "{text}\n{:?}", problems(&ex));
    }
}

/// A buffered dd write of a few MiB in small blocks that ran at disk-round-trip speed (the
/// page cache never took it: a `sync` mount) is the small blocks' cost, not the page
/// cache's; the same write at memory speed stays the page cache's.
#[test]
fn a_buffered_small_block_write_slower_than_ram_waited_for_the_disk() {
    let ids = |tail: &str| -> Vec<String> {
        let text = format!(
            "pi@pi:/mnt/usb $ dd if=/dev/zero of=t.bin bs=4k count=512\n512+0 records in\n\
             512+0 records out\n2097152 bytes (2.1 MB) copied, {tail}\n"
        );
        problems(&run(&text))
            .iter()
            .map(|(c, _)| c.to_string())
            .collect()
    };
    let slow = ids("14.02 s, 150 kB/s");
    assert!(
        slow.iter().any(|c| c == "benchmark-small-blocks"),
        "{slow:?}"
    );
    assert!(
        !slow.iter().any(|c| c == "benchmark-page-cache"),
        "{slow:?}"
    );
    let fast = ids("0.0102 s, 206 MB/s");
    assert!(
        !fast.iter().any(|c| c == "benchmark-small-blocks"),
        "{fast:?}"
    );
}

/// A paravirtual disk's I/O errors in a pasted kernel log are the virtual layer's: one
/// virtual-or-bridged-device warning, no media or link finding; its attach line alone
/// is silent.
#[test]
fn io_errors_on_a_virtio_or_xen_disk_point_at_the_host() {
    for (attach, err) in [
        (
            "[    1.20] virtio_blk virtio2: [vdb] 41943040 512-byte logical blocks (21.5 GB/20.0 GiB)",
            "[   88.01] blk_update_request: I/O error, dev vdb, sector 2048 op 0x1:(WRITE) flags 0x800 phys_seg 1 prio class 0\n\
                 [   88.02] Buffer I/O error on dev vdb1, logical block 0, lost async page write",
        ),
        (
            "[    0.90] blkfront: xvda: barrier or flush: disabled; persistent grants: enabled;",
            "[  301.50] print_req_error: I/O error, dev xvda, sector 123456\n\
                 [  301.51] print_req_error: I/O error, dev xvda, sector 123464",
        ),
    ] {
        let ex = run(&format!("{attach}\n{err}\n"));
        assert_eq!(
            problems(&ex),
            [("virtual-or-bridged-device", Severity::Warning)],
            "{attach}"
        );
        let quiet = run(&format!(
            "{attach}\n[    1.30] EXT4-fs (vdb1): mounted filesystem\n"
        ));
        assert!(problems(&quiet).is_empty(), "{:?}", problems(&quiet));
    }
}

/// Two NVMe drives behind Intel VMD (PCI domain 10000) at their own maximum, under root
/// ports that could go faster: nothing is limited.
#[test]
fn nvme_behind_vmd_at_its_own_maximum_is_not_limited() {
    let nvme = |addr: &str, gts: &str| {
        format!(
            "{addr} Non-Volatile memory controller: Vendor Device (prog-if 02 [NVM Express])\n\
                 \t\tLnkCap:\tPort #0, Speed {gts}, Width x4, ASPM L1, Exit Latency L1 <64us\n\
                 \t\tLnkSta:\tSpeed {gts}, Width x4\n"
        )
    };
    let port = |addr: &str, cap: &str, sta: &str, w: &str| {
        format!(
            "{addr} PCI bridge: Intel Corporation Device 462d (rev 02) (prog-if 00 [Normal decode])\n\
                 \t\tLnkCap:\tPort #4, Speed {cap}, Width x{w}, ASPM L1\n\
                 \t\tLnkSta:\tSpeed {sta}, Width x4\n"
        )
    };
    let gpu_port = port("0000:00:01.0", "32GT/s", "16GT/s", "8");
    let two = format!(
        "{gpu_port}{}{}{}{}",
        port("10000:e0:01.1", "32GT/s", "16GT/s", "8"),
        port("10000:e0:06.0", "16GT/s", "8GT/s", "4"),
        nvme("10000:e1:00.0", "16GT/s"),
        nvme("10000:e2:00.0", "8GT/s"),
    );
    assert!(
        problems(&run(&two)).is_empty(),
        "{:?}",
        problems(&run(&two))
    );
    let one = format!("{gpu_port}{}", nvme("10001:01:00.0", "8GT/s"));
    assert!(
        problems(&run(&one)).is_empty(),
        "{:?}",
        problems(&run(&one))
    );
    // The same drive trained below its own capability is limited.
    let slow = format!(
        "{gpu_port}10001:01:00.0 Non-Volatile memory controller: V D\n\
             \t\tLnkCap:\tPort #0, Speed 16GT/s, Width x4\n\
             \t\tLnkSta:\tSpeed 16GT/s, Width x2 (downgraded)\n"
    );
    assert_eq!(
        problems(&run(&slow)),
        [("pcie-link-limited", Severity::Warning)]
    );
}

/// Command timeouts of an adaN whose CAM path names an ata(4) channel SIM are the
/// legacy-mode channel's (controller-legacy-mode), not a medium's; the same lines on an
/// ahci(4) channel are not about the controller mode.
#[test]
fn timeouts_on_an_ata_channel_sim_are_the_legacy_controllers() {
    let lines = |disk: &str, sim: &str| {
        format!(
            "({disk}:{sim}:0:0:0): WRITE_DMA48. ACB: 35 00 10 a2 1c 40 02 00 00 00 08 00\n\
                 ({disk}:{sim}:0:0:0): CAM status: Command timeout\n\
                 ({disk}:{sim}:0:0:0): Retrying command\n"
        )
    };
    for (disk, sim) in [("ada1", "ata0"), ("ada5", "ata3")] {
        let ex = run(&lines(disk, sim));
        assert_eq!(
            problems(&ex),
            [("controller-legacy-mode", Severity::Notice)],
            "{disk} on {sim}"
        );
    }
    let ahci = run(&lines("ada1", "ahcich4"));
    assert!(
        problems(&ahci)
            .iter()
            .all(|(c, _)| *c != "controller-legacy-mode"),
        "{:?}",
        problems(&ahci)
    );
}

#[test]
fn an_unknown_os_gets_both_lists_and_no_disk_name_is_made_up() {
    let ex = run(UNNAMED_SMART);
    assert_eq!(ex.platform, Platform::Unknown);
    let cmds = ex.next_commands.join("\n");
    assert!(cmds.starts_with("uname -sr"), "{cmds}");
    for want in [
        "smartctl -x /dev/DISK    # Linux",
        "camcontrol identify DISK    # FreeBSD",
        "# Linux",
        "# FreeBSD",
    ] {
        assert!(cmds.contains(want), "{want} missing:\n{cmds}");
    }
    for never in ["pasted-disk", "ada0", "sda", "dmesg.boot    # Linux"] {
        assert!(!cmds.contains(never), "{never} in:\n{cmds}");
    }
}

#[test]
fn the_placeholder_disk_is_never_in_a_command_or_an_evidence_key() {
    let ex = run(UNNAMED_SMART);
    let media = ex
        .findings
        .iter()
        .find(|f| f.check == "media-errors" && f.is_problem())
        .expect("media-errors from the reallocated and pending sectors");
    for f in &ex.findings {
        for e in &f.evidence {
            assert!(!e.source.contains("pasted-disk"), "{e:?}");
        }
        for x in &f.fixes {
            for s in &x.steps {
                assert!(!s.contains("pasted-disk"), "{s}");
            }
        }
        assert!(!f.title.contains("pasted-disk"), "{}", f.title);
        assert!(!f.explanation.contains("pasted-disk"), "{}", f.explanation);
    }
    assert!(
        media
            .evidence
            .iter()
            .any(|e| e.source.starts_with("pasted:smartctl lines ")),
        "{:?}",
        media.evidence
    );
    let text = render::render_text(&ex);
    assert!(
        !text.contains("pasted-disk ") && !text.contains("/dev/pasted-disk"),
        "{text}"
    );
}

#[test]
fn a_named_os_keeps_its_own_list() {
    // A Linux pool by its by-id names: Linux commands only, unmarked.
    let ex = run(
        "  pool: tank\n state: ONLINE\nconfig:\n\n\tNAME        STATE     READ WRITE CKSUM\n\ttank        ONLINE       0     0     0\n\t  mirror-0  ONLINE       0     0     0\n\t    ata-WDC_WD30EFRX-68AX9N0_WD-WCC1T1489518  ONLINE       0     0     0\n\t    ata-WDC_WD30EFRX-68AX9N0_WD-WCC1T1489979  ONLINE       0     0     0\n\nerrors: No known data errors\n",
    );
    assert_eq!(ex.platform, Platform::Linux);
    let cmds = ex.next_commands.join("\n");
    assert!(
        !cmds.contains("camcontrol") && !cmds.contains("# FreeBSD"),
        "{cmds}"
    );
    assert!(cmds.contains("lsblk"), "{cmds}");
}

/// cryptsetup status in the 1.0.x form ("is active:", no type line) and the current
/// one, on an md array and on a disk: an encryption layer either way. Written from
/// cryptsetup's printf formats, NOT A CAPTURE.
#[test]
fn cryptsetup_status_in_every_form_is_an_encryption_layer() {
    for text in [
        "/dev/mapper/vault is active:\n  cipher:  aes-cbc-essiv:sha256\n  keysize: 256 bits\n  device:  /dev/md0\n  offset:  2056 sectors\n  size:    1953519616 sectors\n  mode:    read/write\n",
        "/dev/mapper/data is active and is in use.\n  type:    LUKS1\n  cipher:  aes-xts-plain64\n  keysize: 512 bits\n  device:  /dev/sdc1\n  offset:  4096 sectors\n  size:    976769024 sectors\n  mode:    read/write\n",
        "/dev/mapper/home is active.\n  type:    LUKS2\n  cipher:  aes-xts-plain64\n  keysize: 512 bits\n  key location: keyring\n  device:  /dev/md127\n  sector size:  4096\n  offset:  32768 sectors\n  size:    3906994176 sectors\n  mode:    read/write\n",
    ] {
        let ex = run(text);
        assert!(
            problems(&ex).iter().any(|(c, _)| *c == "encryption-layer"),
            "{text}: {:?}",
            problems(&ex)
        );
    }
}

/// A pasted self-test log (ATA and NVMe tables under their column headers, the
/// poster's device lists between them) whose tests all completed without error: read
/// as smartctl, and nothing is wrong. NOT A CAPTURE.
#[test]
fn passed_self_test_logs_are_healthy_smartctl() {
    let t = "sda, sdb:\nNum  Test_Description    Status                  Remaining  LifeTime(hours)  LBA_of_first_error\n# 1  Extended offline    Completed without error       00%      4879         -\n# 1  Extended offline    Completed without error       00%      4878         -\n\nnvme0:\nNum  Test_Description  Status                       Power_on_Hours  Failing_LBA  NSID Seg SCT Code\n 0   Extended          Completed without error                2708            -     -   -   -    -\n";
    let ex = run(t);
    assert!(problems(&ex).is_empty(), "{:?}", problems(&ex));
    let failed = "Num  Test_Description    Status                  Remaining  LifeTime(hours)  LBA_of_first_error\n# 1  Extended offline    Completed: read failure       90%      4879         3457756336\n";
    assert!(
        problems(&run(failed))
            .iter()
            .any(|(c, _)| *c == "media-errors"),
        "{:?}",
        problems(&run(failed))
    );
}

/// A KDiskMark report whose random 4 KiB reads at queue depth 1 run at 750 MB/s (5 us a
/// read): RAM answered. The same report at a flash drive's 60 MB/s raises nothing.
/// KDiskMark's layout, NOT A CAPTURE.
#[test]
fn diskmark_q1_random_reads_faster_than_any_drive_are_the_cache() {
    let report = |q1: &str| {
        format!(
            "                        KDiskMark (3.1.3): https://github.com/JonMagon/KDiskMark\n\
                 --------------------------------------------------------------------------------\n\
                 * MB/s = 1,000,000 bytes/s [SATA/600 = 600,000,000 bytes/s]\n\n[Read]\n\
                 Sequential   1 MiB (Q=  8, T= 1):  3400.000 MB/s [   3320.3 IOPS] <  2400.00 us>\n\
                 \x20   Random   4 KiB (Q=  1, T= 1):  {q1} MB/s [  18000.0 IOPS] <    55.00 us>\n\n[Write]\n\
                 \x20   Random   4 KiB (Q=  1, T= 1):   900.000 MB/s [ 220000.0 IOPS] <     4.00 us>\n"
        )
    };
    let hit = |q1: &str| {
        problems(&run(&report(q1)))
            .iter()
            .any(|(c, _)| *c == "cache-answered")
    };
    assert!(hit("753.670"));
    // A fast NVMe drive's 60 MB/s; the write row's 900 MB/s is the drive's cache, not
    // a read, and is not judged here.
    assert!(!hit(" 60.000"));
}

/// dd writes a file, reads it after dropping the caches, and reads it again without:
/// the third read at 6.6 GB/s is the page cache (cache-answered); the first two runs raise nothing of
/// the kind. GNU dd's summary format, NOT A CAPTURE.
#[test]
fn dd_reread_of_the_same_file_is_the_page_cache() {
    let write = "$ dd if=/dev/zero of=tempfile bs=1M count=1024 conv=fdatasync,notrunc\n1024+0 records in\n1024+0 records out\n1073741824 bytes (1.1 GB) copied, 3.7178 s, 289 MB/s\n\n";
    let read1 = "$ echo 3 > /proc/sys/vm/drop_caches\n$ dd if=tempfile of=/dev/null bs=1M count=1024\n1024+0 records in\n1024+0 records out\n1073741824 bytes (1.1 GB) copied, 2.09799 s, 512 MB/s\n\n";
    let read2 = "$ dd if=tempfile of=/dev/null bs=1M count=1024\n1024+0 records in\n1024+0 records out\n1073741824 bytes (1.1 GB) copied, 0.162662 s, 6.6 GB/s\n";
    let cache = |t: &str| {
        problems(&run(t))
            .iter()
            .any(|(c, _)| *c == "cache-answered")
    };
    assert!(cache(&format!("{write}{read1}{read2}")));
    assert!(!cache(&format!("{write}{read1}")));
    // A fast read of a file nothing in the paste touched before is not judged so.
    assert!(!cache(read2));
}

/// A pasted lsblk tree without its header line (the default columns): a crypt row under
/// an NVMe partition is an encryption layer on that drive; the same tree on sdX disks
/// whose class the listing does not give raises nothing (a hard disk is far slower than
/// the cipher). Written from lsblk's default layout, NOT A CAPTURE.
#[test]
fn lsblk_crypt_row_is_a_layer_on_flash_only() {
    let nvme = "nvme0n1          259:0    0  1.8T  0 disk  \n\
                    └─nvme0n1p3      259:3    0  1.8T  0 part  \n  \
                    └─nvme0n1p3_crypt 254:1  0  1.8T  0 crypt \n    \
                    └─vg-root        254:3    0   32G  0 lvm   /\n";
    let ex = run(nvme);
    assert!(
        problems(&ex).iter().any(|(c, _)| *c == "encryption-layer"),
        "{:?}",
        problems(&ex)
    );
    let hdd = "sde       8:64   0   3,6T  0 disk  \n\
                   ├─sde1    8:65   0   3,6T  0 part  \n\
                   │ └─vol1 254:8    0   3,6T  0 crypt \n\
                   └─sde9    8:73   0     8M  0 part  \n";
    let ex = run(hdd);
    assert!(
        !problems(&ex).iter().any(|(c, _)| *c == "encryption-layer"),
        "{:?}",
        problems(&ex)
    );
}

/// fdisk -l partition rows under the GPT column header, with no disk header: the disk is
/// named by the rows ("p" names too), and an NVMe drive with starts off the 4 KiB grid is
/// misaligned; the same rows at 2048-multiples are not. NOT A CAPTURE.
#[test]
fn fdisk_rows_without_a_disk_header_are_judged_on_nvme() {
    let bad = "Device             Start        End    Sectors   Size Type\n/dev/nvme1n1p1        63     409662     409600   200M EFI System\n/dev/nvme1n1p2    409663  976773134  976363472 465.6G Linux filesystem\n";
    assert!(
        problems(&run(bad))
            .iter()
            .any(|(c, _)| *c == "partition-misaligned"),
        "{:?}",
        problems(&run(bad))
    );
    let good = "Device           Start       End   Sectors   Size Type\n/dev/nvme0n1p1    2048   1050623   1048576   512M EFI System\n/dev/nvme0n1p2 1050624 500117503 499066880   238G Linux filesystem\n";
    assert!(
        problems(&run(good)).is_empty(),
        "{:?}",
        problems(&run(good))
    );
}

/// fio at any depth whose slowest completion is hundreds of ms while the median is about
/// a millisecond: latency outliers at notice. A run slow on every I/O (large blocks) and
/// a buffered run are not. Written from fio's normal output format, NOT A CAPTURE.
#[test]
fn fio_stalls_among_fast_completions_are_outliers() {
    let run_of = |direct: &str, unit: &str, max: &str, p50: &str| {
        format!(
            "fio --name=t --filename=/srv/t.img --rw=randwrite --bs=4k --iodepth=8 --direct={direct} --size=2G\n\
                 t: (g=0): rw=randwrite, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=libaio, iodepth=8\n\
                 fio-3.28\n\
                 Starting 1 process\n\
                 t: (groupid=0, jobs=1): err= 0: pid=811: Mon Mar  4 10:00:00 2024\n\
                 \x20 write: IOPS=2100, BW=8400KiB/s (8602kB/s)(2048MiB/249660msec)\n\
                 \x20   clat ({unit}): min=180, max={max}, avg=3801.10, stdev=2964.20\n\
                 \x20    lat ({unit}): min=190, max={max}, avg=3808.30, stdev=2964.50\n\
                 \x20   clat percentiles ({unit}):\n\
                 \x20    |  1.00th=[  400],  5.00th=[  900], 10.00th=[ 1200], 20.00th=[ 2000],\n\
                 \x20    | 30.00th=[ 2500], 40.00th=[ 3000], 50.00th=[{p50}], 60.00th=[ 4000],\n\
                 \x20    | 99.00th=[12000], 99.50th=[14000], 99.90th=[20000], 99.95th=[25000],\n\
                 \x20    | 99.99th=[40000]\n\
                 \n\
                 Run status group 0 (all jobs):\n\
                 \x20 WRITE: bw=8400KiB/s (8602kB/s), 8400KiB/s-8400KiB/s (8602kB/s-8602kB/s), io=2048MiB (2147MB), run=249660-249660msec\n\
                 \n\
                 Disk stats (read/write):\n\
                 \x20 vdb: ios=0/524288, merge=0/0, ticks=0/1990000, in_queue=1990000, util=99.90%\n"
        )
    };
    let lat = |ex: &Explanation| {
        problems(ex)
            .into_iter()
            .filter(|(c, _)| *c == "latency-outliers")
            .count()
    };
    assert_eq!(lat(&run(&run_of("1", "usec", "612345", " 3500"))), 1);
    assert_eq!(lat(&run(&run_of("1", "usec", "1.2M", " 3500"))), 1);
    assert_eq!(lat(&run(&run_of("1", "usec", "90210", " 3500"))), 0);
    assert_eq!(lat(&run(&run_of("1", "usec", "612345", "450000"))), 0);
    assert_eq!(lat(&run(&run_of("0", "usec", "612345", " 3500"))), 0);
}

/// A dd read that stopped with EIO on an md array (indented as a poster quotes a shell
/// session): the array failed it, read-errors on the array; on a drive's partition the
/// same EIO is media-errors' and draws no read-errors. Written from GNU dd's output
/// format, NOT A CAPTURE.
#[test]
fn dd_that_stopped_with_eio_on_a_stacked_device() {
    let dd = |dev: &str| {
        format!(
            "  % sudo dd if=/dev/{dev} of=/dev/null bs=1M count=32768\n\
                 \x20 dd: error reading '/dev/{dev}': Input/output error\n\
                 \x20 251+0 records in\n\
                 \x20 251+0 records out\n\
                 \x20 263192576 bytes (263 MB, 251 MiB) copied, 0.447983 s, 588 MB/s\n"
        )
    };
    let on = |ex: &Explanation, check: &str| -> Vec<String> {
        ex.findings
            .iter()
            .filter(|f| f.is_problem() && f.check == check)
            .map(|f| f.device.clone())
            .collect()
    };
    let md = run(&dd("md0"));
    assert_eq!(on(&md, "read-errors"), ["md0"]);
    let dm = run(&dd("dm-2"));
    assert_eq!(on(&dm, "read-errors"), ["dm-2"]);
    let part = run(&dd("sdb1"));
    assert!(on(&part, "read-errors").is_empty());
    assert_eq!(on(&part, "media-errors"), ["sdb"]);
    // A run on the array that ended without an error is no read error.
    let fine = dd("md0").replace("  dd: error reading '/dev/md0': Input/output error\n", "");
    assert!(on(&run(&fine), "read-errors").is_empty());
}

/// A fio job that stopped with EIO (stat.c's "err= 5 (file:..., func=io_u error,
/// error=Input/output error)"): on a virtio disk the host's fault (virtual-or-bridged-
/// device), on a real device the test's I/O error (read-errors); err= 0 is silent.
/// Written from fio's normal output format, NOT A CAPTURE.
#[test]
fn fio_jobs_that_stopped_with_eio() {
    let run_of = |err: &str, disk: &str, target: &str| {
        format!(
            "job1: (g=0): rw=randread, bs=(R) 16.0KiB-16.0KiB, (W) 16.0KiB-16.0KiB, (T) 16.0KiB-16.0KiB, ioengine=libaio, iodepth=16\n\
                 fio-3.33\n\
                 Starting 4 processes\n\
                 job1: (groupid=0, jobs=4): err={err}: pid=2210: Tue Jan  7 09:12:44 2025\n\
                 \x20 read: IOPS=5120, BW=80.0MiB/s (83.9MB/s)(2400MiB/30001msec)\n\
                 \n\
                 Run status group 0 (all jobs):\n\
                 \x20  READ: bw=80.0MiB/s (83.9MB/s), 80.0MiB/s-80.0MiB/s (83.9MB/s-83.9MB/s), io=2400MiB (2517MB), run=30001-30001msec\n\
                 \n\
                 Disk stats (read/write):\n\
                 \x20 {disk}: ios=153600/0, merge=0/0, ticks=480000/0, in_queue=480000, util=99.10%\n{target}"
        )
    };
    let eio = " 5 (file:io_u.c:1889, func=io_u error, error=Input/output error)";
    let ids = |ex: &Explanation| {
        problems(ex)
            .into_iter()
            .filter(|(c, _)| *c == "virtual-or-bridged-device" || *c == "read-errors")
            .map(|(c, _)| c.to_string())
            .collect::<Vec<_>>()
    };
    for disk in ["vdb", "xvda"] {
        assert_eq!(
            ids(&run(&run_of(eio, disk, ""))),
            ["virtual-or-bridged-device"],
            "{disk}"
        );
    }
    for disk in ["sdc", "nvme1n1"] {
        assert_eq!(ids(&run(&run_of(eio, disk, ""))), ["read-errors"], "{disk}");
    }
    // A run without errors on a virtio disk: its figures are the host storage's (notice,
    // tool_readings::fio_virtual_disk_observations), never an error finding.
    let fine = run(&run_of(" 0", "vdb", ""));
    assert_eq!(ids(&fine), ["virtual-or-bridged-device"]);
    assert!(
        problems(&fine).iter().all(|(_, s)| *s == Severity::Notice),
        "{:?}",
        problems(&fine)
    );
    assert!(ids(&run(&run_of(" 0", "sdc", ""))).is_empty());
    // errno 28 (ENOSPC) is the file filling its filesystem, not the device failing.
    let nospc = " 28 (file:io_u.c:1889, func=io_u error, error=No space left on device)";
    assert!(ids(&run(&run_of(nospc, "sdc", ""))).is_empty());
}

/// Disk attributes printed with their sysfs paths (grep ., a script's "current value of
/// PATH is N"): queue depth 1 on SCSI-named disks is unqueued commands; 31 is fine.
/// NOT A CAPTURE.
#[test]
fn sysfs_listings_give_the_queue_depth() {
    let ncq = |ex: &Explanation| {
        problems(ex)
            .into_iter()
            .filter(|(c, _)| *c == "ncq-unavailable")
            .count()
    };
    let one = "current value of /sys/block/sdb/device/queue_depth is 1\ncurrent value of /sys/block/sdc/device/queue_depth is 1\n";
    assert_eq!(ncq(&run(one)), 2);
    let grep = "/sys/block/sda/device/queue_depth:1\n/sys/block/sdb/device/queue_depth:31\n";
    assert_eq!(ncq(&run(grep)), 1);
    let fine = "/sys/block/sda/device/queue_depth:31\n/sys/block/sdb/device/queue_depth:32\n";
    assert_eq!(ncq(&run(fine)), 0);
}

/// hdparm's " setting standby to N (...)" in a settings run: the drive's own standby
/// timer, a power-management finding when it is short. NOT A CAPTURE.
#[test]
fn an_hdparm_standby_timer_is_power_management() {
    let pm = |ex: &Explanation| {
        problems(ex)
            .into_iter()
            .filter(|(c, _)| *c == "power-management")
            .count()
    };
    let short = "/dev/sdb:\n setting drive write-caching to 1 (on)\n setting standby to 12 (1 minutes)\n write-caching =  1 (on)\n";
    assert_eq!(pm(&run(short)), 1);
    let off = "/dev/sdb:\n setting drive write-caching to 1 (on)\n setting standby to 0 (off)\n write-caching =  1 (on)\n";
    assert_eq!(pm(&run(off)), 0);
}

#[test]
fn geom_disk_list_of_ebs_volumes_names_the_cloud_volume() {
    // dbi-services 2024 (FreeBSD on EC2): geom(8) disk list's descr is the NVMe model.
    let text = "Geom name: nda1\nProviders:\n1. Name: nda1\n   Mediasize: 21474836480 (20G)\n   \
                Sectorsize: 512\n   Stripesize: 4096\n   Stripeoffset: 0\n   Mode: r0w0e0\n   \
                descr: Amazon Elastic Block Store\n   ident: vol0a6dcd2a6a1a1b898\n   \
                rotationrate: 0\n   fwsectors: 0\n   fwheads: 0\n";
    let ex = run(text);
    assert!(
        ex.findings
            .iter()
            .any(|f| f.check == "virtual-or-bridged-device"
                && f.title.contains("network block volume")),
        "{:?}",
        ex.findings.iter().map(|f| &f.title).collect::<Vec<_>>()
    );
    // Near miss: the same list of a SATA drive says nothing about a device type.
    let sata = text.replace("Amazon Elastic Block Store", "WDC WD40EFRX-68N32N0");
    let ex = run(&sata);
    assert!(
        !problems(&ex)
            .iter()
            .any(|(c, s)| *c == "virtual-or-bridged-device" && *s >= Severity::Notice),
        "{:?}",
        problems(&ex)
    );
}

#[test]
fn fdisk_optimal_io_of_0xffff_blocks_is_a_usb_bridges() {
    // ubuntuforums 2017 (a Seagate Expansion portable drive): the bridge's Block Limits
    // page fills OPTIMAL TRANSFER LENGTH with 0xFFFF blocks.
    let text = "Disk /dev/sdc: 3.7 TiB, 4000787029504 bytes, 7814037167 sectors\n\
                Units: sectors of 1 * 512 = 512 bytes\n\
                Sector size (logical/physical): 512 bytes / 4096 bytes\n\
                I/O size (minimum/optimal): 4096 bytes / 33553920 bytes\n\
                Disklabel type: gpt\n\
                Disk identifier: E1A03E15-039D-40ED-B727-06844636DDC4\n\n\
                Device     Start        End    Sectors  Size Type\n\
                /dev/sdc1   2048 7814035455 7814033408  3.7T Microsoft basic data\n";
    let ex = run(text);
    assert!(
        problems(&ex).contains(&("virtual-or-bridged-device", Severity::Notice)),
        "{:?}",
        problems(&ex)
    );
    // Near miss: the same disk with an optimal I/O size of one physical sector.
    let ex = run(&text.replace("33553920 bytes", "4096 bytes"));
    assert!(
        !problems(&ex)
            .iter()
            .any(|(c, _)| *c == "virtual-or-bridged-device"),
        "{:?}",
        problems(&ex)
    );
}

/// The tails the first-sight corpus showed (tests/fixtures/corpus-reviewed, batches 20 and
/// 27): an HDD read at iodepth=128 whose median (142 ms) is the queue's cost and whose
/// p99.9 (575 ms) waited far beyond it (martins3's notes, 2023), and a SATA SSD behind
/// bcache written at depth 1 whose median is 0.2 ms and whose p99.9 is 90 ms
/// (linux-bcache, Feb 2021, discard off), its "Disk stats" naming dm-6 first. Near misses:
/// the same deep queue with a p99.9 just over its median, and the same SSD run with its
/// slow completions too rare to reach the p99.9.
#[test]
fn fio_tails_beyond_the_queue_and_flash_stalls_are_outliers() {
    let hdd = include_str!(
        "../../../../tests/fixtures/corpus-reviewed/batch-20/fixtures/linux/fio/martins3-2023feb-hdd-sda-fio-seq-read-256k-libaio-qd128-214MiBps-clat-avg-149ms-max-587ms-1.1pct-over-500ms-emoji-prompt-kept.txt"
    );
    let ssd = include_str!(
        "../../../../tests/fixtures/corpus-reviewed/batch-27/fixtures/linux/fio/linuxbcache2021feb-dell-r510-bcache-on-120gb-sata-ssd-discard-off-fio-randwrite-4k-qd1-710-iops-max-110ms-recovered-after-blkdiscard.txt"
    );
    let lat = |text: &str| -> Vec<String> {
        run(text)
            .findings
            .iter()
            .filter(|f| f.is_problem() && f.check == "latency-outliers")
            .map(|f| f.device.clone())
            .collect()
    };
    assert_eq!(lat(hdd), ["sda"]);
    let hdd_near = hdd.replace("99.90th=[  575]", "99.90th=[  153]");
    assert_ne!(hdd_near, hdd);
    assert!(lat(&hdd_near).is_empty());
    assert_eq!(lat(ssd), ["dm-6"]);
    let ssd_near = ssd.replace("99.90th=[ 89654]", "99.90th=[  9000]");
    assert_ne!(ssd_near, ssd);
    assert!(lat(&ssd_near).is_empty());
    // Typed without direct=1 the run was buffered (fio's default): sub-millisecond writes
    // and 100 ms waits are the page cache's and its dirty limit's; with it, the device's.
    let typed = |direct: &str| {
        format!(
            "# fio --name=randwrite --rw=randwrite --bs=4k --ioengine=psync --filename=/dev/dm-6{direct}\n{ssd}"
        )
    };
    assert!(lat(&typed("")).is_empty());
    assert_eq!(lat(&typed(" --direct=1")), ["dm-6"]);
}

/// A CompactFlash card on the old IDE driver whose DMA times out, after which the driver
/// turns DMA off (hdparm's using_dma = 0): the transfer path's errors, not bad sectors and
/// not a DMA setting to switch on. The same hdparm output without the DMA failures is the
/// setting (controller-legacy-mode).
#[test]
fn ide_dma_timeouts_then_dma_disabled_are_link_errors() {
    let hdparm = "# hdparm /dev/hdc\n\n/dev/hdc:\n multcount     =  0 (off)\n IO_support    =  1 (32-bit)\n unmaskirq     =  1 (on)\n using_dma     =  0 (off)\n keepsettings  =  0 (off)\n readonly      =  0 (off)\n readahead     = 256 (on)\n geometry      = 7964/16/63, sectors = 8027712, start = 0\n";
    let log = "\n[   34.952000] hdc: dma_timer_expiry: dma status == 0x21\n[   44.952000] hdc: DMA timeout error\n[   44.952000] ide: failed opcode was: unknown\n[   44.952000] hdc: DMA disabled\n[   45.000000] ide1: reset: success\n[   65.000000] hdc: dma_timer_expiry: dma status == 0x21\n[   75.000000] hdc: DMA timeout error\n[   75.000000] hdc: DMA disabled\n[   75.048000] ide1: reset: success\n";
    let ex = run(&format!("{hdparm}{log}"));
    let p = problems(&ex);
    assert!(p.iter().any(|(c, _)| *c == "link-errors"), "{p:?}");
    assert!(
        !p.iter()
            .any(|(c, _)| *c == "media-errors" || *c == "controller-legacy-mode"),
        "{p:?}"
    );
    let ex = run(hdparm);
    let p = problems(&ex);
    assert!(
        p.iter().any(|(c, _)| *c == "controller-legacy-mode"),
        "{p:?}"
    );
    assert!(!p.iter().any(|(c, _)| *c == "link-errors"), "{p:?}");
}

/// A physical block size no drive has, read with cat from sysfs, is a controller's
/// answer (an Areca in JBOD mode reporting 131072); 4096 is a drive's own.
#[test]
fn a_physical_block_no_drive_has_is_a_layers() {
    let text = |n: u32| format!("# cat /sys/block/sdd/queue/physical_block_size\n{n}\n");
    let ex = run(&text(131_072));
    let p = problems(&ex);
    assert_eq!(p, vec![("virtual-or-bridged-device", Severity::Notice)]);
    let ex = run(&text(4096));
    let p = problems(&ex);
    assert!(p.is_empty(), "{p:?}");
}

/// Two CompactFlash cards behind SATA-CF bridges on ata_piix in IDE mode: no NCQ for AHCI
/// to give, so no legacy-mode finding.
#[test]
fn bridged_compactflash_on_an_ide_mode_port_is_no_legacy_mode_problem() {
    let log = "[    0.359934] scsi0 : ata_piix\n[    0.360091] scsi1 : ata_piix\n[    0.360716] ata1: SATA max UDMA/133 cmd 0xd000 ctl 0xd400 bmdma 0xe000 irq 19\n[    0.360719] ata2: SATA max UDMA/133 cmd 0xd800 ctl 0xdc00 bmdma 0xe008 irq 19\n[    0.560110] ata2.00: ATA-0: ELITE PRO CF CARD 16GB, Ver2.22K, max UDMA/100\n[    0.560120] ata2.00: applying bridge limits\n[    0.580113] ata2.00: configured for UDMA/100\n";
    let ex = run(log);
    let p = problems(&ex);
    assert!(p.is_empty(), "{p:?}");
    let sata = log
        .replace(
            "ATA-0: ELITE PRO CF CARD 16GB, Ver2.22K",
            "ATA-8: ST3500418AS, CC38",
        )
        .replace("[    0.560120] ata2.00: applying bridge limits\n", "");
    let ex = run(&sata);
    let p = problems(&ex);
    assert!(
        p.iter().any(|(c, _)| *c == "controller-legacy-mode"),
        "{p:?}"
    );
}

/// A LUKS header dump (cryptsetup luksDump) shows an encryption layer on the device it
/// read; NonRAID's nmdctl status shows a parity check running.
#[test]
fn luks_dump_and_nmdctl_status() {
    let luks = "# cryptsetup luksDump /dev/sda2\nLUKS header information\nVersion:       \t2\nEpoch:         \t3\n\nData segments:\n  0: crypt\n\toffset: 16777216 [bytes]\n\tlength: (whole device)\n\tcipher: aes-xts-plain64\n\tsector: 512 [bytes]\n";
    let ex = run(luks);
    assert!(
        problems(&ex).iter().any(|(c, _)| *c == "encryption-layer"),
        "{:?}",
        problems(&ex)
    );
    let nmd = "=== NonRAID Array Status ===\n\nArray State   : STARTED\nArray Health  : HEALTHY\n\nOperation     : Parity-Check P (check only)\nProgress      : 12% (0.43 TB / 3.6 TB)\nSpeed         : 180.00 MB/s\n";
    let ex = run(nmd);
    assert!(
        problems(&ex).iter().any(|(c, _)| *c == "array-rebuilding"),
        "{:?}",
        problems(&ex)
    );
    let idle = nmd.replace("Operation     : Parity-Check P (check only)\nProgress      : 12% (0.43 TB / 3.6 TB)\nSpeed         : 180.00 MB/s\n", "");
    assert!(
        problems(&run(&idle)).is_empty(),
        "{:?}",
        problems(&run(&idle))
    );
}

/// sg_inq names an SSD and sg_readcap shows LBPME clear: Linux sends it no discard (sd.c).
/// The same READ CAPACITY answer of a disk nothing calls an SSD, or with LBPME set, is silent.
#[test]
fn sg_readcap_lbpme_clear_on_an_ssd() {
    let inq = "$ sudo sg_inq /dev/sda\nstandard INQUIRY:\n  PQual=0  Device_type=0  RMB=0  LU_CONG=0  version=0x06  [SPC-4]\n  [RelAdr=0]  WBus16=0  Sync=0  [Linked=0]  [TranDis=0]  CmdQue=1\n Vendor identification: Samsung\n Product identification: Portable SSD T5\n Product revision level: 0\n\n";
    let cap = "$ sudo sg_readcap -l /dev/sda\nRead Capacity results:\n   Protection: prot_en=0, p_type=0, p_i_exponent=0\n   Logical block provisioning: lbpme=0, lbprz=0\n   Last LBA=976773167 (0x3a38602f), Number of logical blocks=976773168\n   Logical block length=512 bytes\n   Logical blocks per physical block exponent=0\n   Lowest aligned LBA=0\nHence:\n   Device size: 500107862016 bytes, 476940.0 MiB, 500.11 GB\n";
    let ex = run(&format!("{inq}{cap}"));
    let p = problems(&ex);
    assert!(p.iter().any(|(c, _)| *c == "trim-unavailable"), "{p:?}");
    assert!(problems(&run(cap)).is_empty(), "{:?}", problems(&run(cap)));
    let set = format!("{inq}{}", cap.replace("lbpme=0", "lbpme=1"));
    assert!(
        problems(&run(&set)).is_empty(),
        "{:?}",
        problems(&run(&set))
    );
}

/// A copy timed with the shell's `time`, then a `sync` or `umount` timed after it that waited
/// far longer: the copy's time is the page cache's (unix.stackexchange.com question 76975, a
/// CompactFlash card: cp 0.179 s, umount 18.185 s). bash's and csh's reports; near misses: a
/// flush no longer than the copy, a copy timed alone, a flush after no copy.
#[test]
fn a_copy_timed_before_a_long_flush_measured_the_page_cache() {
    let page_cache = |text: &str| {
        problems(&run(text))
            .iter()
            .any(|(c, _)| *c == "benchmark-page-cache")
    };
    assert!(page_cache(
        "# mount | grep sdb\n/dev/sdb1 on /media type vfat (rw)\n# time cp image.bin /media/\n\n\
         real    0m0.179s\nuser    0m0.000s\nsys 0m0.104s\n# time umount /media \n\n\
         real    0m18.185s\nuser    0m0.004s\nsys 0m0.032s\n"
    ));
    assert!(page_cache(
        "root@nas:~ # time cp /tmp/big.iso /mnt/usb/\n0.000u 0.412s 0:00.51 80.3%\t10+176k 0+9001io 0pf+0w\n\
         root@nas:~ # time sync\n0.000u 0.001s 0:41.22 0.0%\t0+0k 0+0io 0pf+0w\n"
    ));
    // The flush took less than three times the copy: the copy already waited for the device.
    assert!(!page_cache(
        "$ time cp big.iso /mnt/usb/\n\nreal\t1m40.100s\nuser\t0m0.010s\nsys\t0m2.000s\n$ time sync\n\n\
         real\t0m2.500s\nuser\t0m0.000s\nsys\t0m0.000s\n"
    ));
    // A copy timed alone says nothing of what it left behind.
    assert!(!page_cache(
        "$ time cp big.iso /mnt/usb/\n\nreal\t0m0.400s\nuser\t0m0.010s\nsys\t0m0.300s\n"
    ));
    // A flush after no copy (the hdparm run above it is no copy) judges nothing.
    assert!(!page_cache(
        "# hdparm -t /dev/sdb\n\n/dev/sdb:\n Timing buffered disk reads: 100 MB in  3.01 seconds =  33.22 MB/sec\n# time sync\n\n\
         real\t0m9.000s\nuser\t0m0.000s\nsys\t0m0.000s\n"
    ));
}

/// iostat -x of a virtual disk holding requests and completing none (a KVM guest whose
/// host stopped serving its virtio disk): the host's fault, not a busy disk. Near misses: the
/// same busy virtual disk completing requests is disk-busy; a real disk's stall stays
/// disk-busy's (its kernel log says more).
#[test]
fn a_virtual_disk_that_completes_nothing_has_stalled_on_its_host() {
    let iostat = |dev: &str, rs: &str, rkb: &str| {
        format!(
            "avg-cpu:  %user   %nice %system %iowait  %steal   %idle\n           0.00    0.00    1.00   99.00    0.00    0.00\n\n\
             Device:         rrqm/s   wrqm/s     r/s     w/s    rkB/s    wkB/s avgrq-sz avgqu-sz   await r_await w_await  svctm  %util\n\
             {dev}               0.00     0.00 {rs}    0.00 {rkb}     0.00     0.00    64.00    0.00    0.00    0.00   0.00 100.00\n"
        )
    };
    let ex = run(&iostat("vdb", "   0.00", "    0.00"));
    let stalled = problems(&ex);
    assert!(
        stalled
            .iter()
            .any(|(c, s)| *c == "virtual-or-bridged-device" && *s == Severity::Warning),
        "{stalled:?}"
    );
    assert!(
        !stalled.iter().any(|(c, _)| *c == "disk-busy"),
        "{stalled:?}"
    );
    let ex = run(&iostat("vdb", " 950.00", "3800.00"));
    let busy = problems(&ex);
    assert!(busy.iter().any(|(c, _)| *c == "disk-busy"), "{busy:?}");
    let ex = run(&iostat("sdb", "   0.00", "    0.00"));
    let real = problems(&ex);
    assert!(
        !real.iter().any(|(c, _)| *c == "virtual-or-bridged-device"),
        "{real:?}"
    );
}

/// The same read of a device hashed twice with different results: the device returns
/// unstable data (media-errors), GNU and BSD digest tools; near misses: the same sums, two
/// different ranges, a random source.
#[test]
fn the_same_read_hashing_differently_is_unstable_data() {
    let unstable = |text: &str| {
        problems(&run(text))
            .iter()
            .any(|(c, s)| *c == "media-errors" && *s == Severity::Warning)
    };
    let linux = "pi@raspberrypi:~ $ sudo dd if=/dev/sda1 bs=4M count=16 skip=64 | sha256sum\n\
                 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08  -\n\
                 16+0 records in\n16+0 records out\n67108864 bytes (67 MB, 64 MiB) copied, 2.1 s, 32.0 MB/s\n\
                 pi@raspberrypi:~ $ sudo dd if=/dev/sda1 bs=4M count=16 skip=64 | sha256sum\n\
                 60303ae22b998861bce3b28f33eec1be758a213c86c93c076dbe9f558c11c752  -\n\
                 16+0 records in\n16+0 records out\n67108864 bytes (67 MB, 64 MiB) copied, 2.0 s, 33.5 MB/s\n";
    assert!(unstable(linux));
    let same = linux.replace(
        "60303ae22b998861bce3b28f33eec1be758a213c86c93c076dbe9f558c11c752",
        "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    );
    assert!(!unstable(&same));
    assert!(!unstable(&linux.replacen("skip=64", "skip=128", 1)));
    let freebsd = "root@nas:~ # md5 /dev/da1\nMD5 (/dev/da1) = d41d8cd98f00b204e9800998ecf8427e\n\
                   root@nas:~ # md5 /dev/da1\nMD5 (/dev/da1) = 0cc175b9c0f1b6a831c399e269772661\n\
                   da1: <SanDisk Cruzer Blade 1.00> Removable Direct Access SPC-4 SCSI device\n";
    assert!(unstable(freebsd));
    // A board whose host name was never set prompts as `root@(none):/# ` (the kernel's
    // default nodename): still a typed command, so the digest under it stays its own line.
    assert!(unstable(
        &linux.replace("pi@raspberrypi:~ $ sudo ", "root@(none):/# ")
    ));
}

/// `hdparm -d0` then `hdparm -t` of an IDE-driver disk, the read-back pasted without its
/// "/dev/X:" header, then `hdparm -d1` and the timing again: the disk ran in PIO for the
/// first figure, controller-legacy-mode whatever the later read-back says. Only "on"
/// read-backs are silent.
#[test]
fn a_dma_off_read_back_is_pio_even_when_switched_on_later() {
    let off = "$ sudo hdparm -d0 /dev/hdb\n setting using_dma to 0 (off)\n using_dma    =  0 (off)\n\n\
               $ sudo hdparm -t /dev/hdb\n Timing buffered disk reads:   10 MB in  3.12 seconds =   3.21 MB/sec\n";
    let on = "$ sudo hdparm -d1 /dev/hdb\n setting using_dma to 1 (on)\n using_dma    =  1 (on)\n\n\
              $ sudo hdparm -t /dev/hdb\n Timing buffered disk reads:  160 MB in  3.02 seconds =  52.98 MB/sec\n";
    let legacy = |t: &str| {
        problems(&run(t))
            .iter()
            .any(|(c, _)| *c == "controller-legacy-mode")
    };
    assert!(legacy(off));
    assert!(legacy(&format!("{off}\n{on}")));
    assert!(!legacy(on));
}
