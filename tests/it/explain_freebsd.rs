//! FreeBSD outputs pasted into `diskdoc explain` give the findings a FreeBSD admin expects
//! from them: gstat (screen, batch and CSV) -> disk-busy, `camcontrol tags -v` as its own
//! source -> the queue depth, ahci(4) channel timeouts -> link-errors for the channel. The
//! fixtures are real posts or built from the tools' printf formats (tests/fixtures/INDEX.md).

use std::path::Path;

use diskdoc_core::checks::{Finding, Severity, Verdict};
use diskdoc_core::explain::{Explanation, Input, explain};

fn fixture(rel: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(rel);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn run(text: &str) -> Explanation {
    explain(&[Input {
        label: "thread".into(),
        bytes: text.as_bytes().to_vec(),
    }])
    .unwrap_or_else(|e| panic!("{e:?}"))
}

fn problems<'a>(e: &'a Explanation, check: &str) -> Vec<&'a Finding> {
    e.findings
        .iter()
        .filter(|f| f.check == check && f.verdict == Verdict::Problem)
        .collect()
}

fn quoted(t: &str) -> String {
    t.lines().map(|l| format!(">   {l}\n")).collect()
}

#[test]
fn pasted_gstat_in_every_form_gives_disk_busy() {
    for (rel, disk) in [
        (
            "freebsd/gstat/xigmanas-resilver-ada-busy-over-100pct.txt",
            "ada0",
        ),
        (
            "freebsd/gstat/printf-fbsd14-b-p-batch-ada0-busy.txt",
            "ada0",
        ),
        ("freebsd/gstat/printf-fbsd14-C-csv-ada0-busy.txt", "ada0"),
    ] {
        let t = fixture(rel);
        for text in [format!("# gstat -b -p\n{t}"), quoted(&t)] {
            let e = run(&text);
            let busy = problems(&e, "disk-busy");
            let f = busy
                .iter()
                .find(|f| f.device == disk)
                .unwrap_or_else(|| panic!("{rel}: no disk-busy for {disk}: {:#?}", e.findings));
            assert_eq!(f.severity, Severity::Warning, "{rel}");
            // What the paste shows, not the live probe's "before diskdoc started".
            assert!(
                f.title.ends_with("busy in the pasted gstat output"),
                "{rel}: {}",
                f.title
            );
            assert!(!f.explanation.contains("before diskdoc"), "{rel}");
            assert!(
                f.evidence.iter().any(|r| r.source == "cmd:gstat -b -I 1s"),
                "{rel}: {:#?}",
                f.evidence
            );
            // Idle providers (nda0, md0, cd0) make no disk of their own.
            assert!(
                e.facts
                    .disks
                    .iter()
                    .all(|d| d.name != "nda0" && d.name != "cd0"),
                "{rel}"
            );
        }
    }
}

#[test]
fn pasted_camcontrol_tags_is_its_own_source_and_gives_the_queue_depth() {
    let t = fixture("freebsd-probe/camcontrol-tags/printf-ahcich1-ncq-off-openings-1.txt");
    let e = run(&format!("root@nas:~ # camcontrol tags ada1 -v\n{t}"));
    assert!(
        !e.recognised.is_empty() && e.recognised.iter().all(|b| b.tool == "camcontrol-tags"),
        "{:#?}",
        e.recognised
    );
    assert_eq!(e.recognised[0].key, "cmd:camcontrol tags ada1 -v");
    let d = e
        .facts
        .disks
        .iter()
        .find(|d| d.name == "ada1")
        .unwrap_or_else(|| panic!("no ada1: {:#?}", e.facts.disks));
    assert_eq!(d.queue_depth.get(), Some(1));
    assert!(d.kernel_events.is_empty(), "{:#?}", d.kernel_events);
    // Openings 1: nothing is queued; the drive's NCQ support is not in this output.
    let f = e
        .findings
        .iter()
        .find(|f| f.check == "ncq-unavailable" && f.device == "ada1")
        .unwrap_or_else(|| panic!("{:#?}", e.findings));
    assert!(f.title.contains("not queued"), "{}", f.title);

    // The real Hyper-V output: 255 openings, tagged queueing in use.
    let t =
        fixture("freebsd-probe/camcontrol-tags/qiita-fbsd13.0-hyperv-storvsc-da0-openings-255.txt");
    let e = run(&format!("# camcontrol tags da0 -v\n{t}"));
    let d = e.facts.disks.iter().find(|d| d.name == "da0");
    assert_eq!(d.and_then(|d| d.queue_depth.get()), Some(255));
}

#[test]
fn ahci_channel_timeouts_without_a_disk_line_are_link_errors_of_the_channel() {
    // An indented blog excerpt: only channel lines, no adaN line.
    let t = "      ahcich2: Timeout on slot 10 port 0\n      ahcich2: is 00000000 cs 00000400 ss 00000000 rs 00000400 tfd 50 serr 00000000 cmd 10008917\n";
    // Behind a syslog prefix and behind a console logger's stamp, the same.
    let syslog = "Mar  3 10:00:00 host kernel: ahcich2: Timeout on slot 4 port 0\nMar  3 10:00:00 host kernel: ahcich2: is 00000000 cs 00000010 ss 00000000 rs 00000010 tfd c0 serr 00000000 cmd 0000c417\n";
    let stamped = "[2021-12-10 20:56:10] ahcich2: Timeout on slot 5 port 0\n[2021-12-10 20:56:10] ahcich2: is 00000000 cs 00000020 ss 00000000 rs 00000020 tfd c0 serr 00000000 cmd 0000c517\n";
    for text in [t, syslog, stamped] {
        let e = run(text);
        let f = problems(&e, "link-errors");
        assert!(
            f.iter().any(|f| f.device == "ahcich2"),
            "{text}: {:#?}",
            e.findings
        );
        assert!(problems(&e, "media-errors").is_empty(), "{text}");
    }
    // With the disk's attach line the timeouts are the disk's.
    let e = run(&format!(
        "ada2 at ahcich2 bus 0 scbus2 target 0 lun 0\nada2: <WDC WD40EFRX-68N32N0 82.00A82> ACS-3 ATA SATA 3.x device\n{syslog}"
    ));
    let f = problems(&e, "link-errors");
    assert!(f.iter().any(|f| f.device == "ada2"), "{:#?}", e.findings);
    assert!(f.iter().all(|f| f.device != "ahcich2"));
}

#[test]
fn cam_error_lines_behind_a_syslog_prefix_name_their_disk() {
    let t = "Mar  3 10:00:00 host kernel: (ada0:ahcich0:0:0:0): READ_FPDMA_QUEUED. ACB: 60 00 10 e4 6d 40 00 00 00 00 00 00\nMar  3 10:00:00 host kernel: (ada0:ahcich0:0:0:0): CAM status: ATA Status Error\nMar  3 10:00:00 host kernel: (ada0:ahcich0:0:0:0): ATA status: 41 (DRDY ERR), error: 40 (UNC )\n";
    let e = run(t);
    let f = problems(&e, "media-errors");
    assert!(f.iter().any(|f| f.device == "ada0"), "{:#?}", e.findings);
}

#[test]
fn cam_report_lines_whose_path_the_poster_elided_stay_with_their_disk() {
    // cam_periph_error's report with the repeated "(adaN:...): " replaced by dots, as typed
    // into a mail: an interface CRC error (ICRC) is the cable's, an UNC the medium's.
    for (disk, chan, dots, err, check) in [
        ("ada0", "ata0", ".....", "84 (ICRC ABRT )", "link-errors"),
        ("ada2", "ahcich2", "...", "40 (UNC )", "media-errors"),
    ] {
        let t = format!(
            "{disk} at {chan} bus 0 scbus0 target 0 lun 0\n\
             {disk}: 100.000MB/s transfers (UDMA5, PIO 512bytes)\n\
             \n\
             Then I see these errors\n\
             \n\
             ({disk}:{chan}:0:0:0): READ_DMA. ACB: c8 00 80 11 22 40 00 00 00 00 08 00\n\
             {dots}CAM status: ATA status error\n\
             {dots}ATA status: 51 (DRDY SERV ERR), error: {err}\n\
             {dots}RES: 51 84 80 11 22 40 00 00 00 08 00\n"
        );
        for text in [t.clone(), quoted(&t)] {
            let e = run(&text);
            let f = problems(&e, check);
            assert!(
                f.iter()
                    .any(|f| f.device == disk && f.severity >= Severity::Notice),
                "{text}: {:#?}",
                e.findings
            );
        }
    }
}

#[test]
fn a_siis_timeout_register_dump_alone_is_the_channels_link_reset() {
    // siis.c siis_timeout's second line, as a syslog excerpt quoted twice and wrapped.
    let t = "> >Mar  4 08:56:15 host kernel: siisch3: siis_timeout is 00040000 ss\n> >04000000 rs 04000000 es 00000000 sts 801e2000 serr 00000000\n";
    let e = run(t);
    let f = problems(&e, "link-errors");
    assert!(f.iter().any(|f| f.device == "siisch3"), "{:#?}", e.findings);
}

#[test]
fn pasted_diskinfo_of_a_partition_gives_geoms_alignment_verdict() {
    // stripesize 4096, stripeoffset 3584: GEOM says the slice starts 3584 bytes past a
    // physical-sector boundary (g_part.c), with no start sector in the output.
    let t = fixture("freebsd/diskinfo/printf-ada0s1-mbr-slice-at-63-512e-stripeoffset-3584.txt");
    for text in [format!("# diskinfo -v ada0s1\n{t}"), quoted(&t)] {
        let e = run(&text);
        let f = problems(&e, "partition-misaligned");
        let f = f
            .iter()
            .find(|f| f.device == "ada0")
            .unwrap_or_else(|| panic!("{text}: {:#?}", e.findings));
        assert!(
            f.explanation.contains("ada0s1 (3584 bytes past"),
            "{}",
            f.explanation
        );
        assert!(
            f.evidence
                .iter()
                .any(|r| r.source == "cmd:diskinfo -v /dev/ada0s1"),
            "{:#?}",
            f.evidence
        );
    }
    // A partition GEOM reports aligned (stripeoffset 0 under stripesize 4096) is no problem.
    let t = fixture("freebsd/diskinfo/v-ada1p1-gpt-4k-aligned-partition.txt");
    let e = run(&format!("$ diskinfo -v /dev/ada1p1\n{t}"));
    assert!(
        problems(&e, "partition-misaligned").is_empty(),
        "{:#?}",
        e.findings
    );
    assert!(
        e.facts.disks.iter().any(|d| d.name == "ada1"),
        "{:#?}",
        e.facts.disks
    );
}

/// `nvmecontrol logpage -p 2` and `pciconf -lvc` name only the controller: the findings are
/// about nvme0, never the placeholder disk, and explain asks for the health log of nvme0
/// when it is missing. Both outputs are NOT CAPTURES, built from sbin/nvmecontrol/logpage.c
/// print_log_health() and usr.sbin/pciconf/cap.c cap_express() (as in explain_health.rs).
#[test]
fn nvme_outputs_naming_only_the_controller_are_about_that_controller() {
    let caps = "nvme0@pci0:1:0:0:\tclass=0x010802 rev=0x00 hdr=0x00 vendor=0x1987 device=0x5012 subvendor=0x1987 subdevice=0x5012\n    cap 01[80] = powerspec 3  supports D0 D3  current D0\n    cap 10[70] = PCI-Express 2 endpoint max data 256(256) FLR RO NS\n                 max read 512\n                 link x1(x4) speed 5.0(8.0) ASPM L1(L1)\n";
    let logpage = "SMART/Health Information Log\n============================\nCritical Warning State:         0x04\n Available spare:               0\n Temperature:                   0\n Device reliability:            1\n Read only:                     0\n Volatile memory backup:        0\nTemperature:                    318 K, 44.85 C, 112.73 F\nAvailable spare:                100\nAvailable spare threshold:      10\nPercentage used:                3\nMedia errors:                   2\n";
    let e = run(&format!(
        "root@fw:~ # nvmecontrol logpage -p 2 nvme0\n{logpage}\nroot@fw:~ # pciconf -lvc nvme0\n{caps}"
    ));
    for check in ["nvme-health", "pcie-link-limited"] {
        let f = problems(&e, check);
        assert!(
            f.iter().any(|f| f.device == "nvme0"),
            "{check}: {:#?}",
            e.findings
        );
    }
    assert!(
        e.findings
            .iter()
            .all(|f| !f.device.starts_with("pasted-disk")),
        "{:#?}",
        e.findings
    );
    // Only the link: the health log of that controller is asked for, and no disk command
    // runs on the controller node.
    let e = run(&format!("root@fw:~ # pciconf -lvc nvme0\n{caps}"));
    assert!(
        problems(&e, "pcie-link-limited")
            .iter()
            .any(|f| f.device == "nvme0")
    );
    let cmds = e.next_commands.join("\n");
    assert!(cmds.contains("nvmecontrol logpage -p 2 nvme0"), "{cmds}");
    assert!(
        !cmds.contains("diskinfo -v nvme0") && !cmds.contains("if=/dev/nvme0"),
        "{cmds}"
    );
}

/// Two NVMe controllers, nvd0 on nvme1: the boot messages alone cannot tie a namespace to a
/// controller (nvd(4) numbers namespaces in attach order), a pasted `sysctl dev.nvd` or
/// `camcontrol devlist -v` can. The failing log of nvme1 belongs to nvd0, never to nvd1 by
/// unit number. The boot lines follow nvme(4)/nvd.c's printfs, the sysctl lines sysctl(8)'s
/// "name: value"; NOT CAPTURES.
#[test]
fn nvd_is_tied_to_its_controller_by_sysctl_or_devlist_never_by_unit() {
    let boot = "nvme0: <Generic NVMe Device> mem 0xfe600000-0xfe603fff irq 40 at device 0.0 on pci1\nnvme1: <Generic NVMe Device> mem 0xfe500000-0xfe503fff irq 41 at device 0.0 on pci2\nnvd0: <WDC WDS500G2B0C-00PXH0> NVMe namespace\nnvd0: 476940MB (976773168 512 byte sectors)\nnvd1: <Samsung SSD 970 EVO Plus 1TB> NVMe namespace\nnvd1: 953869MB (1953525168 512 byte sectors)\n";
    let sysctl = "dev.nvd.1.%parent: nvme0\ndev.nvd.1.%driver: nvd\ndev.nvd.1.%desc: Samsung SSD 970 EVO Plus 1TB\ndev.nvd.0.%parent: nvme1\ndev.nvd.0.%driver: nvd\ndev.nvd.0.%desc: WDC WDS500G2B0C-00PXH0\n";
    let bad = crate::support::nvmecontrol_health_log("0x04", 2);
    let health = |e: &Explanation, disk: &str| {
        e.findings
            .iter()
            .find(|f| f.check == "nvme-health" && f.device == disk)
            .map(|f| f.verdict)
    };
    let with_sysctl = format!(
        "root@fw:~ # dmesg | grep nv\n{boot}\nroot@fw:~ # sysctl dev.nvd\n{sysctl}\nroot@fw:~ # nvmecontrol logpage -p 2 nvme1\n{bad}"
    );
    let e = run(&with_sysctl);
    assert_eq!(
        health(&e, "nvd0"),
        Some(Verdict::Problem),
        "{:#?}",
        e.findings
    );
    assert_ne!(
        health(&e, "nvd1"),
        Some(Verdict::Problem),
        "{:#?}",
        e.findings
    );
    // Without the sysctl lines two controllers leave nvd0's controller unknown: no
    // verdict on nvd0 or nvd1 from nvme1's log.
    let e = run(&format!(
        "root@fw:~ # dmesg | grep nv\n{boot}\nroot@fw:~ # nvmecontrol logpage -p 2 nvme1\n{bad}"
    ));
    for d in ["nvd0", "nvd1"] {
        assert_ne!(
            health(&e, d),
            Some(Verdict::Problem),
            "{d}: {:#?}",
            e.findings
        );
    }
}

/// `gpart show` of an MBR disk, its BSD label and `diskinfo -v` in the layouts of
/// lib/geom/part/geom_part.c and usr.sbin/diskinfo/diskinfo.c (NOT CAPTURES); the label's
/// rows are relative to the slice (the pfSense fixture shows the same shape).
const MBR_BSD: &str = "=>        63  1953525105  ada0  MBR  (932G)\n          63  1953525105     1  freebsd  [active]  (932G)\n\n=>         0  1953525105  ada0s1  BSD  (932G)\n           0     8388608       1  freebsd-ufs  (4.0G)\n     8388608     8388608       2  freebsd-swap  (4.0G)\n    16777216  1936747889       4  freebsd-ufs  (924G)\n";
const DISKINFO_512E: &str = "ada0\n\t512         \t# sectorsize\n\t1000204886016\t# mediasize in bytes (932G)\n\t1953525168  \t# mediasize in sectors\n\t4096        \t# stripesize\n\t0           \t# stripeoffset\n\tWDC WD10EZEX-08WN4A0\t# Disk descr.\n\tahcich0     \t# Attachment\n\t7200        \t# Rotation rate in RPM\n";

fn misaligned<'a>(e: &'a Explanation, disk: &str) -> &'a Finding {
    e.findings
        .iter()
        .find(|f| f.check == "partition-misaligned" && f.device == disk)
        .unwrap_or_else(|| panic!("no partition-misaligned on {disk}: {:#?}", e.findings))
}

fn all_steps(f: &Finding) -> Vec<String> {
    f.fixes.iter().flat_map(|x| x.steps.clone()).collect()
}

/// The boot-ness of a misaligned disk picks the realignment that keeps it booting: `/` in
/// a pasted `mount -p` (putfsent()'s tab layout, sbin/mount/mount.c) or, without it, an
/// `[active]` slice holding a BSD label with an `a` partition (boot0 starts the active
/// slice, its boot2 loads /boot/loader from `a`). Both give gpart(8)'s MBR bootstrapping
/// (boot0 into the MBR, /boot/boot into the label); a disk with neither keeps the plain fix.
#[test]
fn boot_disk_realignment_from_mount_p_or_the_active_slice() {
    let mount_p = "/dev/ada0s1a\t\t/\t\t\tufs\trw\t\t1 1\ndevfs\t\t\t/dev\t\t\tdevfs\trw\t\t0 0\n/dev/ada0s1d\t\t/usr\t\t\tufs\trw\t\t2 2\n";
    let with_mount = format!(
        "root@box:~ # gpart show\n{MBR_BSD}\nroot@box:~ # mount -p\n{mount_p}root@box:~ # diskinfo -v ada0\n{DISKINFO_512E}"
    );
    let e = run(&with_mount);
    assert!(
        e.recognised.iter().any(|b| b.tool == "mount-p"),
        "{:#?}",
        e.recognised
    );
    let d = e
        .facts
        .disks
        .iter()
        .find(|d| d.name == "ada0")
        .expect("ada0");
    assert!(
        d.mounts
            .iter()
            .any(|m| m.mountpoint == "/" && m.source == "/dev/ada0s1a"),
        "{:#?}",
        d.mounts
    );
    let f = misaligned(&e, "ada0");
    assert_eq!(f.verdict, Verdict::Problem);
    // The label's partitions at their absolute starts: slice start 63 + label start.
    assert!(
        f.explanation.contains("ada0s1b at sector 8388671"),
        "{}",
        f.explanation
    );
    let steps = all_steps(f);
    assert!(
        steps[0].contains("`/` is mounted from /dev/ada0s1a"),
        "{}",
        steps[0]
    );
    for want in [
        "`gpart bootcode -b /boot/boot0 ada0`",
        "`gpart set -a active -i 1 ada0`",
        "`gpart bootcode -b /boot/boot ada0s1`",
    ] {
        assert!(steps.iter().any(|s| s == want), "{want}: {steps:#?}");
    }
    for t in steps.iter().chain(f.fixes.iter().map(|x| &x.summary)) {
        assert!(!t.contains("  "), "a run of spaces: {t}");
    }

    // No mount list: the active slice with its `a` partition says the same.
    let e = run(&format!(
        "# gpart show\n{MBR_BSD}\n# diskinfo -v ada0\n{DISKINFO_512E}"
    ));
    let steps = all_steps(misaligned(&e, "ada0"));
    assert!(
        steps[0].contains("its active slice ada0s1 holds a BSD label"),
        "{steps:#?}"
    );
    assert!(
        steps
            .iter()
            .any(|s| s == "`gpart bootcode -b /boot/boot0 ada0`")
    );

    // Neither: a data disk, re-created without boot code.
    let data = MBR_BSD.replace("  [active]", "");
    let e = run(&format!(
        "# gpart show\n{data}\n# diskinfo -v ada0\n{DISKINFO_512E}"
    ));
    let steps = all_steps(misaligned(&e, "ada0"));
    assert!(!steps.iter().any(|s| s.contains("bootcode")), "{steps:#?}");
}

/// A BSD label pasted without its slice's row: its starts are relative to a slice whose
/// start is not shown, so the disk's alignment is unknown (never "aligned at sector 0").
#[test]
fn bsd_label_without_its_slice_is_not_judged_from_sector_0() {
    let label = "=>         0  1953525105  ada0s1  BSD  (932G)\n           0     8388608       1  freebsd-ufs  (4.0G)\n     8388608     8388608       2  freebsd-swap  (4.0G)\n";
    let e = run(&format!(
        "# gpart show ada0s1\n{label}\n# diskinfo -v ada0\n{DISKINFO_512E}"
    ));
    let f = misaligned(&e, "ada0");
    assert_eq!(f.verdict, Verdict::Unknown, "{f:#?}");
    assert!(!f.title.contains("aligned:"), "{}", f.title);
}

/// The reviewed corpus's handbook case: a 1 TB disk's only MBR slice at sector 63, no
/// sector size shown. A 1 TB disk is a 4K drive nearly always: a notice that says how to
/// be sure. (The 20 GB NetScaler VM of batch 4, the same layout, stays without a finding:
/// its label is a healthy control.)
#[test]
fn mbr_slice_at_63_of_a_large_disk_is_likely_misaligned() {
    let t = fixture(
        "corpus-reviewed/fixtures/freebsd/gpart-show/handbook-mbr-1tb-slice-at-63-full-disk.txt",
    );
    for text in [t.clone(), quoted(&t)] {
        let e = run(&text);
        let f = problems(&e, "partition-misaligned");
        let f = f
            .iter()
            .find(|f| f.device == "ada0")
            .unwrap_or_else(|| panic!("{:#?}", e.findings));
        assert_eq!(f.severity, Severity::Notice);
        assert!(
            f.explanation.contains("ada0s1 at sector 63"),
            "{}",
            f.explanation
        );
    }
    let vm = fixture(
        "corpus-reviewed/batch-4/fixtures/freebsd/gpart-show/netscaler2-citrix-adc-vm-gpart-show-da0-mbr-start-63-bsd-label-pre-tags.txt",
    );
    assert!(problems(&run(&vm), "partition-misaligned").is_empty());
}

/// The reviewed corpus's FreeBSD 8.4 boot: `atapci1: <SiS 5513 WDMA2 controller>` and
/// `ad4: 114473MB <OCZ AGILITY3 2.25> at ata2-master WDMA2`. ata-sis.c's fallback row caps
/// the port at WDMA2 (16.7 MB/s): controller-legacy-mode with the FreeBSD fix (AHCI in the
/// firmware, ahci_load on 8.x, fstab off the ad4 name).
#[test]
fn sis_wdma2_controller_gives_the_legacy_mode_finding_with_the_freebsd_fix() {
    let t = fixture(
        "corpus-reviewed/fixtures/freebsd/dmesg/fbsd8.4-sis-generic-wdma2-ad4-ssd-stuck-wdma2.txt",
    );
    for text in [t.clone(), quoted(&t)] {
        let e = run(&text);
        let f = problems(&e, "controller-legacy-mode");
        let f = f
            .iter()
            .find(|f| f.device == "ad4")
            .unwrap_or_else(|| panic!("{:#?}", e.findings));
        assert_eq!(f.severity, Severity::Warning);
        assert!(f.title.contains("WDMA2"), "{}", f.title);
        assert!(f.explanation.contains("SiS 5513"), "{}", f.explanation);
        let fix = &f.fixes[0];
        assert_eq!(fix.platform, diskdoc_core::evidence::Platform::Freebsd);
        let steps = fix.steps.join("\n");
        for want in [
            "ahci_load=\"YES\"",
            "set the SATA mode",
            "changes from ad4 to ada0",
        ] {
            assert!(steps.contains(want), "{want}: {steps}");
        }
    }
}

/// `gpart list`'s `attrib: active` (sys/geom/part/g_part_mbr.c g_part_mbr_dumpconf prints
/// it into the provider's config when the MBR entry's dp_flag has 0x80) is the slice's
/// boot flag, as gpart show's `[active]` is: a real MBR USB stick from the SmartOS docs,
/// pasted as is, mail-quoted and forum-indented.
#[test]
fn gpart_list_attrib_active_is_the_slice_boot_flag() {
    let t = fixture("freebsd/gpart-list/smartos-docs-mbr-da0-active-fat32.txt");
    // As pasted, after its command, quoted in a mail reply ("> ", at any depth), and
    // indented as a forum's code block (four spaces, a tab, a quote and an indent).
    let each_line = |lead: &str| -> String { t.lines().map(|l| format!("{lead}{l}\n")).collect() };
    for text in [
        format!("# gpart list\n{t}"),
        t.clone(),
        each_line("> "),
        format!("> # gpart list\n{}", each_line("> ")),
        each_line(">> "),
        each_line("    "),
        each_line("\t"),
        format!("    # gpart list\n{}", each_line("    ")),
        each_line(">     "),
    ] {
        let e = run(&text);
        let d = e
            .facts
            .disks
            .iter()
            .find(|d| d.name == "da0")
            .unwrap_or_else(|| panic!("no da0 in {text:?}: {:#?}", e.recognised));
        let table = d.partition_table.value().expect("da0's table");
        assert_eq!(table.scheme, "mbr");
        let s1 = table
            .partitions
            .iter()
            .find(|p| p.name == "da0s1")
            .expect("da0s1");
        assert!(s1.active, "{s1:#?}");
        assert_eq!(s1.start_sector, 600);
    }
    // The same output without the line: not active.
    let e = run(&format!(
        "# gpart list\n{}",
        t.replace("   attrib: active\n", "")
    ));
    let d = e.facts.disks.iter().find(|d| d.name == "da0").expect("da0");
    let table = d.partition_table.value().expect("table");
    assert!(table.partitions.iter().all(|p| !p.active));
}

/// A drive the mfi(4) controller passes through (mfisyspd0), known from the boot log: the
/// poster is asked for its SMART data the way that reaches it, mfip's pass(4) device
/// (sys/dev/mfi/mfi_cam.c) with `smartctl -d sat` for a SATA drive, never for a smartctl
/// on /dev/mfisyspd0. NOT A CAPTURE (no public post has one): the lines are built from
/// mfi_syspd_attach()'s device_printf formats and the newbus attach line.
#[test]
fn an_mfisyspd_disk_is_asked_for_smart_through_mfip() {
    let e = run("mfisyspd0 on mfi0\n\
                 mfisyspd0: 953869MB (1953525168 sectors) SYSPD volume (deviceid: 4)\n\
                 mfisyspd0:  SYSPD volume attached\n");
    let d = e
        .facts
        .disks
        .iter()
        .find(|d| d.name == "mfisyspd0")
        .unwrap_or_else(|| panic!("no mfisyspd0: {:#?}", e.recognised));
    assert!(
        d.smart.why().is_some_and(|w| w.contains("kldload mfip")),
        "{:?}",
        d.smart
    );
    let cmds = e.next_commands.join("\n");
    for want in [
        "kldload mfip",
        "smartctl -a /dev/passN",
        "smartctl -d sat",
        "mfiutil show drives",
    ] {
        assert!(cmds.contains(want), "{want}: {cmds}");
    }
    assert!(!cmds.contains("smartctl -a /dev/mfisyspd0"), "{cmds}");
}

/// A da(4) disk's attach lines as CAM prints them (cam_xpt.c xpt_announce_periph, scsi_da.c
/// dadone): "daN at SIM bus B scbusN target T lun L", the INQUIRY, the serial, the transfer
/// rate and, when a medium is present, the capacity.
fn da_attach(unit: u32, sim: &str, lun: u32, serial: &str, medium: bool) -> String {
    let mut t = format!(
        "da{unit} at {sim} bus 1 scbus8 target 0 lun {lun}\n\
         da{unit}: <WDC WD40 EZRZ-00GXCB0 0003> Fixed Direct Access SPC-4 SCSI device\n\
         da{unit}: Serial Number {serial}\n\
         da{unit}: 400.000MB/s transfers\n"
    );
    if medium {
        t.push_str(&format!(
            "da{unit}: 3815447MB (7814037168 512 byte sectors)\n"
        ));
    } else {
        t.push_str(&format!(
            "da{unit}: Attempt to query device size failed: NOT READY, Medium not present\n"
        ));
    }
    t
}

#[test]
fn two_disks_behind_one_umass_bridge_with_one_serial_are_a_notice() {
    let umass = "umass1: <MSC Bulk-Only Transfer> on usbus1\n\
                 umass1:  SCSI over Bulk-Only; quirks = 0x8000\n";
    let same = format!(
        "{umass}{}{}",
        da_attach(1, "umass-sim1", 0, "ABCDEF0123456789", true),
        da_attach(2, "umass-sim1", 1, "ABCDEF0123456789", true)
    );
    for q in ["", "> ", "> > "] {
        let t: String = same.lines().map(|l| format!("{q}    {l}\n")).collect();
        let e = run(&t);
        let f = problems(&e, "virtual-or-bridged-device");
        assert_eq!(f.len(), 2, "{t}\n{:#?}", e.findings);
        for x in &f {
            assert_eq!(x.severity, Severity::Notice);
            assert!(x.title.contains("same serial number as da"), "{}", x.title);
            assert!(
                x.fixes
                    .iter()
                    .any(|fx| fx.steps.iter().any(|s| s.contains("gpart modify")))
            );
        }
    }
    // Different serials, different bridges, one disk, or a second slot without a medium (a
    // card reader's): umass(4) stays a pass.
    for t in [
        format!(
            "{umass}{}{}",
            da_attach(1, "umass-sim1", 0, "ABCDEF0123456789", true),
            da_attach(2, "umass-sim1", 1, "ZYXWVU9876543210", true)
        ),
        format!(
            "{umass}{}{}",
            da_attach(1, "umass-sim1", 0, "ABCDEF0123456789", true),
            da_attach(2, "umass-sim2", 0, "ABCDEF0123456789", true)
        ),
        format!(
            "{umass}{}",
            da_attach(1, "umass-sim1", 0, "ABCDEF0123456789", true)
        ),
        format!(
            "{umass}{}{}",
            da_attach(1, "umass-sim1", 0, "ABCDEF0123456789", true),
            da_attach(2, "umass-sim1", 1, "ABCDEF0123456789", false)
        ),
    ] {
        let e = run(&t);
        assert!(
            problems(&e, "virtual-or-bridged-device").is_empty(),
            "{t}\n{:#?}",
            e.findings
        );
    }
}
