//! Drive-settings, drive-log and controller tools through `diskdoc explain`: every real
//! output under tests/fixtures/{linux/storcli, linux/sdparm, linux/openseachest,
//! linux/nvme-error-log, freebsd/tunefs} (sources in tests/fixtures/INDEX.md, "Storage tools:
//! storcli, sdparm, openSeaChest, nvme error-log, tunefs") answered as the expert would: a
//! degraded or rebuilding virtual drive is array-rebuilding, a failed member media-errors, a
//! drive that spins itself down power-management, SATA Phy events link-errors, an NVMe error
//! log's unrecovered reads media-errors (its refused admin commands nothing), a UFS
//! filesystem with TRIM off trim-unavailable, and a healthy output nothing. Each output is also
//! read quoted ("> ") as a mail reply carries it.

use crate::support::{explain_text as run, manifest, problem_ids, wrong_expert_answers};

/// (fixture under tests/fixtures, the problem ids at notice or above, exactly).
const CASES: &[(&str, &[&str])] = &[
    (
        "linux/storcli/blogzh-storcli-c0-v0-show-raid5-dgrd-rwbd.txt",
        &["array-rebuilding"],
    ),
    (
        "linux/storcli/blogzh-storcli-c0-eall-sall-show-twelve-hus726040-one-failed.txt",
        &["media-errors"],
    ),
    (
        "linux/storcli/noteru-storcli64-c0-show-all-topology-raid1-dgrd-drive-rbld.txt",
        &["array-rebuilding"],
    ),
    (
        "linux/storcli/checklsiraid41-perccli2-c0-vall-show-all-raid10-optl-nr-wb-truncated.txt",
        &[],
    ),
    (
        "linux/sdparm/hdidle138-sas-seagate-st2000nx0463-sdparm-power-condition-standby-z-1-luks-zfs-spinup.txt",
        &["power-management"],
    ),
    (
        "linux/sdparm/blog-sdparm-get-wce-seagate-st4000nm0025-on.txt",
        &[],
    ),
    (
        "linux/sdparm/vagrant-sdparm-vbox-harddisk-common-pages-wce-on.txt",
        &[],
    ),
    (
        "linux/openseachest/tuned676-seagate-exos-st18000nm000j-epc-standby-z-10s-heads-unload-io-stalls.txt",
        &["power-management"],
    ),
    (
        "linux/openseachest/blogzh-seachest-powercontrol-st16000nm000j-epc-standby-z-off.txt",
        &[],
    ),
    (
        "linux/openseachest/openseachest162-exos-x24-st16000nm001g-sata-phy-event-counters-icrc-comreset-sas3008.txt",
        &["link-errors"],
    ),
    (
        "linux/nvme-error-log/nvmecli800-error-log-entry63-status-0xc502-read-error-unrecovered-count-9290042.txt",
        &["media-errors"],
    ),
    (
        "linux/nvme-error-log/nvmecli2540-corsair-p3-plus-new-ssd-error-log-0x2002-invalid-field-in-command-truncated.txt",
        &[],
    ),
    (
        "freebsd/tunefs/freebsdcloudimages8-fbsd14.0-vm-da0p4-tunefs-p-trim-disabled-thin-storage-grows.txt",
        &["trim-unavailable"],
    ),
    (
        "freebsd/tunefs/blog-rescue-tunefs-p-mirror-boot-trim-disabled.txt",
        &["trim-unavailable"],
    ),
    (
        "linux/btrfs-scrub/linuxbtrfs2020may-scrub-status-d-two-devices-running-resumed-time-left-overflow-no-errors.txt",
        &["array-rebuilding"],
    ),
    (
        "linux/mc-top-disk/minio17007-2023apr-mc-support-top-disk-12-drives-util-100pct-1-2MiBps-writes-await-73-567ms.txt",
        &["disk-busy"],
    ),
];

fn read(rel: &str) -> String {
    std::fs::read_to_string(manifest(&format!("tests/fixtures/{rel}")))
        .unwrap_or_else(|e| panic!("{rel}: {e}"))
}

#[test]
fn every_output_gets_the_experts_answer_plain_and_quoted() {
    let wrong = wrong_expert_answers("", CASES);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn spin_down_timer_is_named_with_its_seconds() {
    let ex = run(&read(
        "linux/openseachest/tuned676-seagate-exos-st18000nm000j-epc-standby-z-10s-heads-unload-io-stalls.txt",
    ));
    let f = ex
        .findings
        .iter()
        .find(|f| f.check == "power-management")
        .expect("power-management finding");
    assert!(f.title.contains("10 s"), "{}", f.title);
    assert!(f.title.contains("Standby Z"), "{}", f.title);
    assert_eq!(f.severity, diskdoc_core::checks::Severity::Warning);
    assert!(
        f.fixes
            .iter()
            .any(|x| x.steps.iter().any(|s| s.contains("--standby_z")))
    );
}

#[test]
fn storcli_write_through_volume_is_the_controllers_policy_said_as_information() {
    // The VD LIST row of the Japanese storcli blog (Cache RaAWBD) with the write policy WT:
    // the controller's policy for the volume, said (write-cache-disabled at info, with how to
    // switch it), never a warning about a drive's cache, and no notice that the volume hides
    // its drives when the controller's own tool is what was pasted.
    let text = read("linux/storcli/blogzh-storcli-c0-v0-show-raid5-dgrd-rwbd.txt")
        .replace("RWBD ", "RWTD ")
        .replace("Dgrd  RW", "Optl  RW");
    for t in [
        text.clone(),
        text.lines().map(|l| format!("> {l}\n")).collect(),
    ] {
        let ex = run(&t);
        let ids = problem_ids(&ex);
        assert!(ids.is_empty(), "{ids:?}");
        let f = ex
            .findings
            .iter()
            .find(|f| f.check == "write-cache-disabled")
            .expect("the write policy is said");
        assert_eq!(f.severity, diskdoc_core::checks::Severity::Info);
        assert!(f.title.contains("write-through"), "{}", f.title);
        assert!(f.explanation.contains("battery"), "{}", f.explanation);
    }
}

/// The real batch-16 outputs of tools read since (copied under tests/fixtures, INDEX.md
/// "Paste shapes and readers"): `lsusb -t` trees, a `link_power_management_policy`
/// listing, `blockdev --report`.
const READERS: &[(&str, &[&str])] = &[
    (
        "linux/lsusb-t/linuxusb2022sep-sabrent-ds-sc5b-five-bay-asm1351-lsusb-t-10000M-two-disks-usb-storage-bot-three-uas.txt",
        &["virtual-or-bridged-device"],
    ),
    (
        "linux/lsusb-t/linuxusb2025mar-hp-victus-16-lsusb-t-no-storage-root-hubs-480M-and-10000M-camera-btusb-usb2-companion-buses-normal.txt",
        &[],
    ),
    (
        "linux/lpm-policy/linuxide2026jan-gigabyte-b760-raptor-lake-ahci-link-power-management-policy-four-max-performance-four-med-power-with-dipm-no-errors.txt",
        &[],
    ),
    (
        "linux/blockdev-report/linuxraid2021aug-36-sas-hdd-raid6-host-blockdev-report-ssd-and-14tb-members-partitions-start-2048-all-aligned.txt",
        &[],
    ),
];

#[test]
fn new_readers_answer_as_the_expert_did_plain_and_quoted() {
    let wrong = wrong_expert_answers("", READERS);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // Recognised, not "nothing recognised": each is read as its own tool.
    for (rel, _) in READERS {
        let ex = run(&read(rel));
        let id = rel.split('/').nth(1).unwrap_or("");
        assert!(
            ex.recognised.iter().any(|r| r.tool == id),
            "{rel}: {:?}",
            ex.recognised
        );
    }
}

#[test]
fn a_usb_tree_says_which_disks_run_bulk_only_and_which_uas() {
    let ex = run(&read(
        "linux/lsusb-t/linuxusb2022sep-sabrent-ds-sc5b-five-bay-asm1351-lsusb-t-10000M-two-disks-usb-storage-bot-three-uas.txt",
    ));
    let usb: Vec<_> = ex
        .findings
        .iter()
        .filter(|f| f.check == "virtual-or-bridged-device")
        .collect();
    // Five storage devices, five disks: two on Bulk-Only Transport (warning), three on UAS
    // at 10000M (healthy, said as a pass).
    assert_eq!(usb.len(), 5, "{usb:#?}");
    let bot = usb
        .iter()
        .filter(|f| f.verdict == diskdoc_core::checks::Verdict::Problem)
        .count();
    assert_eq!(bot, 2);
    assert!(usb.iter().any(|f| f.title.contains("Bulk-Only")));
    assert!(usb.iter().any(|f| f.title.contains("UAS at 10000")));
}

#[test]
fn a_usb_tree_is_read_whatever_its_indentation_padding_and_device_numbers() {
    // The same shape as usbutils 017 prints it (three-digit numbers), tab-indented, with a
    // poster's arrow after the line, another bus and a different device: one caddy on
    // usb-storage at 480M, tied to the one disk the paste's hdparm names.
    let text = "\t/:  Bus 007.Port 001: Dev 001, Class=root_hub, Driver=xhci_hcd/2p, 480M\n\
                \t    |__ Port 002: Dev 004, If 0, Class=Mass Storage, Driver=usb-storage, 480M   <--\n\
                \t/:  Bus 008.Port 001: Dev 001, Class=root_hub, Driver=xhci_hcd/2p, 10000M\n\
                \n\
                $ sudo hdparm -t /dev/sdk\n\
                /dev/sdk:\n\
                 Timing buffered disk reads: 104 MB in  3.01 seconds =  34.55 MB/sec\n";
    for t in [
        text.to_string(),
        text.lines().map(|l| format!("> {l}\n")).collect(),
    ] {
        let ex = run(&t);
        let f = ex
            .findings
            .iter()
            .find(|f| f.check == "virtual-or-bridged-device" && f.device == "sdk")
            .unwrap_or_else(|| panic!("no USB finding on sdk: {:#?}", ex.findings));
        // 34.55 MB/s at USB 2's Bulk-Only ceiling: the link holds the disk back (notice).
        assert_eq!(f.severity, diskdoc_core::checks::Severity::Notice);
        assert!(f.explanation.contains("480"), "{}", f.explanation);
        assert!(f.fixes.iter().any(|x| x.summary.contains("SuperSpeed")));
    }
    // Storage on uas at SuperSpeed is healthy: no problem at all.
    let uas = "/:  Bus 02.Port 1: Dev 1, Class=root_hub, Driver=xhci_hcd/4p, 5000M\n\
               |__ Port 3: Dev 2, If 0, Class=Mass Storage, Driver=uas, 5000M\n";
    assert!(problem_ids(&run(uas)).is_empty());
}

#[test]
fn a_uniform_min_power_policy_with_comreset_failures_is_power_management() {
    // The listing as `grep .` prints it, all hosts at min_power, beside the kernel's link
    // resets of one port (libata's messages): the policy is the cause to name.
    let text = "/sys/class/scsi_host/host0/link_power_management_policy:min_power\n\
                /sys/class/scsi_host/host1/link_power_management_policy:min_power\n\
                \n\
                [  812.118123] ata2: COMRESET failed (errno=-16)\n\
                [  812.118130] ata2: hard resetting link\n\
                [  817.480021] ata2: SATA link up 6.0 Gbps (SStatus 133 SControl 300)\n\
                [  817.481002] ata2.00: configured for UDMA/133\n\
                [  830.118123] ata2: COMRESET failed (errno=-16)\n\
                [  830.118130] ata2: hard resetting link\n";
    let ids = problem_ids(&run(text));
    assert!(ids.contains("power-management"), "{ids:?}");
}

#[test]
fn blockdev_report_odd_start_on_a_4k_disk_is_misaligned() {
    // blockdev.c's row format with a partition at sector 63 of a 4096-byte-sector disk
    // (StartSec is in 512-byte units: byte 32256, not a multiple of 4096).
    let text = "RO    RA   SSZ   BSZ   StartSec            Size   Device\n\
                rw   256  4096  4096          0   4000787030016   /dev/sdf\n\
                rw   256  4096  4096         63   4000786997760   /dev/sdf1\n";
    let ids = problem_ids(&run(text));
    assert!(ids.contains("partition-misaligned"), "{ids:?}");
}

#[test]
fn serials_of_the_vendor_tools_are_redacted() {
    for (rel, secret) in [
        (
            "linux/openseachest/tuned676-seagate-exos-st18000nm000j-epc-standby-z-10s-heads-unload-io-stalls.txt",
            "ZR5ER3PJ",
        ),
        (
            "linux/openseachest/openseachest162-exos-x24-st16000nm001g-sata-phy-event-counters-icrc-comreset-sas3008.txt",
            "ZL21LGDW",
        ),
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_diskdoc"))
            .args([
                "explain",
                "--format",
                "json",
                &manifest(&format!("tests/fixtures/{rel}")),
            ])
            .output()
            .expect("run diskdoc");
        let s = String::from_utf8_lossy(&out.stdout);
        assert!(s.contains("\"findings\""), "{rel}: no report");
        assert!(!s.contains(secret), "{rel}: serial {secret} not redacted");
    }
}

/// Inventories, monitors and key-management tools explain once answered with "not
/// recognised" (tests/fixtures/INDEX.md, "Inventories, monitors and key tools"): each is read
/// as its own tool, and a healthy one is answered as healthy, plain and quoted.
const HEALTHY_TOOLS: &[(&str, &str)] = &[
    (
        "linux/tlp-stat/tlp586-nvme-only-laptop-tlp-stat-d-alpm-min-power-no-sata-disk.txt",
        "tlp-stat",
    ),
    (
        "linux/btrfs-device-stats/netdata13561-btrfs-device-stats-sdb3-and-mountpoint-all-zero.txt",
        "btrfs-device-stats",
    ),
    (
        "linux/nvme-get-feature/linuxnvme11-get-feature-0x0c-H-apst-enabled-itps-3-and-4.txt",
        "nvme-get-feature",
    ),
    (
        "linux/nvme-list/munin1386-nvme-list-m2-p80-3te6-1.92tb.txt",
        "nvme-list",
    ),
    (
        "linux/nvme-list/nvmecli814-nvme-list-hpe-vk003840kwwfp-mo001600kwvuu-truncated.txt",
        "nvme-list",
    ),
    (
        "linux/hwinfo/pcenginesapu26-hwinfo-disk-apple-hts545.txt",
        "hwinfo",
    ),
    (
        "linux/ezfio/ezfio62-seagate-firecuda530-parameters-truncated.txt",
        "ezfio",
    ),
    (
        "freebsd/badblocks/diskburnin5-freenas-da0-badblocks-set-o-direct-0-errors.txt",
        "badblocks",
    ),
    (
        "freebsd/geli-ctl/zfsremotemirror6-geli-init-attach-wrong-key-da0.txt",
        "geli-ctl",
    ),
    (
        "freebsd/camcontrol-epc/fbsdscsi2023jun-000252-camcontrol-epc-status-seagate.txt",
        "camcontrol-epc",
    ),
    (
        "linux/dstat/centreon3979-dstat-disk-svctm-wait-truncated.txt",
        "dstat",
    ),
    // hd-idle's log file: the spin-ups of a disk it stops after ten idle minutes.
    (
        "linux/hd-idle/hdidle22-2020jul-sdc-hd-idle-log-running-600-stopped-73892-user-asks-meaning-maintainer-explains-entries-written-on-spinup-healthy.txt",
        "hd-idle",
    ),
    // smartctl's table of the NVMe error information log with refused admin commands only
    // (thomas-krenn/check_smart_attributes PR 134), and a smartctl -j member cut out of its
    // document (prometheus-community/smartctl_exporter issue 272).
    (
        "corpus-reviewed/batch-11/fixtures/linux/smartctl/checksmartattrs134-nvme-error-information-log-feature-not-namespace-specific-plugin-false-critical.txt",
        "nvme-error-log",
    ),
    (
        "corpus-reviewed/batch-11/fixtures/linux/smartctl-json/smartctlexporter272-nvme-smart-health-information-log-json-fragment-18pct-used-327-error-log-entries.txt",
        "smartctl-json",
    ),
    // `nvme smart-log | grep -i temp` under `watch` (openzfs/zfs issue 7543).
    (
        "corpus-reviewed/batch-12/fixtures/linux/nvme-cli/openzfs7543-lmdb-cow-writes-nvme-smart-log-grep-temp-sensor2-90c-warning-time-0.txt",
        "nvme-smart-log",
    ),
];

#[test]
fn healthy_inventories_and_tools_are_read_and_found_healthy() {
    let mut wrong = Vec::new();
    for (rel, tool) in HEALTHY_TOOLS {
        let text = read(rel);
        let quoted: String = text.lines().map(|l| format!("> {l}\n")).collect();
        for (mode, t) in [("plain", text.clone()), ("quoted", quoted)] {
            let ex = run(&t);
            let tools: Vec<&str> = ex.recognised.iter().map(|r| r.tool.as_str()).collect();
            let ids = problem_ids(&ex);
            if !tools.contains(tool) || !ids.is_empty() {
                wrong.push(format!("{rel} ({mode}): tools {tools:?}, problems {ids:?}"));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The same tools in other shapes than the fixtures: other devices, indentation, nvme-cli
/// 2.x's Generic column, tab-indented -H fields, a badblocks pass that found bad blocks.
#[test]
fn the_tools_are_read_by_their_format_not_by_one_paste() {
    let cases: &[(&str, &str)] = &[
        (
            "  Node                  Generic               SN                   Model                                    Namespace  Usage                      Format           FW Rev\n\
             \x20 --------------------- --------------------- -------------------- ---------------------------------------- ---------- -------------------------- ---------------- --------\n\
             \x20 /dev/nvme1n1          /dev/ng1n1            S4EWNX0R123456       Samsung SSD 980 PRO 1TB                  0x1        200.11  GB /   1.00  TB      4 KiB +  0 B   5B2QGXA7\n",
            "nvme-list",
        ),
        (
            "get-feature:0x0c (Autonomous Power State Transition), Current value:0x00000000\n\
             \tAutonomous Power State Transition Enable (APSTE): Disabled\n",
            "nvme-get-feature",
        ),
        (
            "[/dev/mapper/luks-root].write_io_errs    0\n[/dev/mapper/luks-root].read_io_errs     0\n\
             [/dev/mapper/luks-root].flush_io_errs    0\n[/dev/mapper/luks-root].corruption_errs  0\n",
            "btrfs-device-stats",
        ),
        (
            "APM: Supported, Enabled\nEPC: NOT Supported, NOT Enabled\n\
             Low Power Standby NOT Supported\nSet EPC Power Source NOT Supported\n\
             Current power state: PM2:Standby(0x00)\n",
            "camcontrol-epc",
        ),
        (
            "--- TLP 1.6.1 --------------------------------------------\n\n\
             +++ Storage Devices\nDevices = sda\n\n/dev/sda:\n  Type      = ATA\n\
             \x20 Model     = Samsung SSD 860 EVO 500GB\n",
            "tlp-stat",
        ),
        (
            "----total-cpu-usage---- -dsk/total-\nusr sys idl wai stl| read  writ\n\
             \x20 2   1  96   1   0| 120k 2048k\n\x20 3   1  95   1   0|   0  4096k\n",
            "dstat",
        ),
        (
            "31: SCSI 00.0: 10600 Disk\n  [Created at block.256]\n  Model: \"Samsung SSD 860\"\n\
             \x20 Device File: /dev/sdb\n  Capacity: 465 GB (500107862016 bytes)\n",
            "hwinfo",
        ),
        (
            "Metadata backup for provider /dev/ada1p4 can be found in /var/backups/ada1p4.eli\n\
             and can be restored with the following command:\n\n\
             \t# geli restore /var/backups/ada1p4.eli /dev/ada1p4\n",
            "geli-ctl",
        ),
    ];
    for (text, tool) in cases {
        let ex = run(text);
        let tools: Vec<&str> = ex.recognised.iter().map(|r| r.tool.as_str()).collect();
        assert!(tools.contains(tool), "{tool}: {tools:?}\n{text}");
        assert!(
            problem_ids(&ex).is_empty(),
            "{tool}: {:?}",
            problem_ids(&ex)
        );
    }
}

#[test]
fn a_btrfs_scrub_is_read_by_its_counts_in_either_format() {
    // btrfs-progs' two layouts (cmds/scrub.c; NOT CAPTURES, other figures): a finished scrub
    // that could not read blocks is read-errors (not media: the report does not say why the
    // device failed them), one with checksum mismatches media-errors, a clean one nothing.
    let old = "scrub status for 0a1b2c3d-4e5f-4a6b-9c7d-8e9f0a1b2c3d\n\
               \tscrub started at Thu Apr  2 21:05:10 2020 and finished after 01:02:03\n\
               \ttotal bytes scrubbed: 402.11GiB with 5120 errors\n\
               \terror details: read=5120\n\
               \tcorrected errors: 0, uncorrectable errors: 5120, unverified errors: 0\n";
    assert_eq!(
        problem_ids(&run(old)),
        ["read-errors".to_string()].into(),
        "{old}"
    );
    let new = "UUID:             9a0e1c2d-3b4f-4a5b-8c6d-7e8f9a0b1c2d\n\
               Scrub started:    Sun Jan  5 03:10:00 2025\n\
               Status:           finished\n\
               Duration:         0:41:09\n\
               Total to scrub:   812.31GiB\n\
               Rate:             336.80MiB/s\n\
               Error summary:    csum=7\n\
               \x20 Corrected:      3\n\
               \x20 Uncorrectable:  4\n\
               \x20 Unverified:     0\n";
    assert_eq!(
        problem_ids(&run(new)),
        ["media-errors".to_string()].into(),
        "{new}"
    );
    let clean = new.replace("csum=7", "no errors found").replace(
        "  Corrected:      3\n  Uncorrectable:  4\n  Unverified:     0\n",
        "",
    );
    assert!(problem_ids(&run(&clean)).is_empty(), "{clean}");
    let ex = run(&clean);
    assert!(
        ex.recognised.iter().any(|r| r.tool == "btrfs-scrub"),
        "{:?}",
        ex.recognised
    );
}

#[test]
fn quiet_minio_drives_are_read_and_not_busy() {
    // mc support top disk's layout (NOT A CAPTURE): drives under a tenth busy.
    let t = "      DISK             USED     TPS        READ           WRITE          DISCARD         AWAIT           UTIL\n \
             /mnt/drive1          52%     41      3.10 MiB/s      0.40 MiB/s      0.00 MiB/s      2.1 ms          8.5%\n \
             /mnt/drive2          52%     38      2.95 MiB/s      0.38 MiB/s      0.00 MiB/s      1.9 ms          7.9%\n";
    let ex = run(t);
    assert!(problem_ids(&ex).is_empty(), "{:?}", problem_ids(&ex));
    assert!(
        ex.recognised.iter().any(|r| r.tool == "mc-top-disk"),
        "{:?}",
        ex.recognised
    );
}
