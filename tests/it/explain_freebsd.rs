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
