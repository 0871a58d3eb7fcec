//! The shapes in which people paste tool outputs, through `diskdoc explain`: outputs a web
//! page ran together on one line (smartctl -A/-a, hdparm -i and -t, zpool status -v,
//! /proc/mdstat), headerless fragments (zpool vdev rows, a zpool tree whose indentation was
//! lost, smartctl -x brief rows, fio's group summary, fio job names with blanks), and tools
//! with their own readers (/proc/crypto, `nvme get-log -i 2 -vv`, a `hdparm -I | grep`
//! loop, `udevadm info`, `lsblk -D` with a dm-crypt child, a SAS grown defect list,
//! diskdoc's own text report). Every input is built here from the tool's print format
//! (smartmontools ataprint.cpp/scsiprint.cpp, hdparm.c, OpenZFS zpool_main.c, md.c,
//! fio stat.c, nvme-print.c, crypto/proc.c, udevadm-info.c, lsblk), with values varied
//! from any post; a healthy twin of each stays silent.

use diskdoc_core::checks::{Severity, Verdict};
use diskdoc_core::explain::Explanation;

use crate::support::{explain_text as run, problem_ids};

fn tools(ex: &Explanation) -> Vec<String> {
    ex.recognised.iter().map(|r| r.tool.clone()).collect()
}

fn has_tool(ex: &Explanation, id: &str) {
    assert!(tools(ex).iter().any(|t| t == id), "{id}: {:?}", tools(ex));
}

fn has_problem(ex: &Explanation, id: &str) {
    assert!(problem_ids(ex).contains(id), "{id}: {:?}", ex.findings);
}

/// Join lines with single blanks, as a web page that lost its newlines shows them.
fn flatten(lines: &[String]) -> String {
    lines
        .iter()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join(" ")
}

/// smartctl's long attribute row (ataprint.cpp: "%3d %-24s0x%04x   %03d   %03d   %03d
/// %-10s%-9s%-12s%s").
fn attr(id: u32, name: &str, flag: u32, v: u32, raw: u64, pre: bool) -> String {
    format!(
        "{id:>3} {name:<24}0x{flag:04x}   {v:03}   {v:03}   000    {:<10}Always       -       {raw}",
        if pre { "Pre-fail" } else { "Old_age" }
    )
}

fn smartctl_a(realloc: u64, pending: u64) -> Vec<String> {
    vec![
        "smartctl 7.2 2020-12-30 r5155 [x86_64-linux-5.10.0-21-amd64] (local build)".into(),
        "Copyright (C) 2002-20, Bruce Allen, Christian Franke, www.smartmontools.org".into(),
        String::new(),
        "=== START OF READ SMART DATA SECTION ===".into(),
        "SMART Attributes Data Structure revision number: 16".into(),
        "Vendor Specific SMART Attributes with Thresholds:".into(),
        "ID# ATTRIBUTE_NAME          FLAG     VALUE WORST THRESH TYPE      UPDATED  WHEN_FAILED RAW_VALUE".into(),
        attr(1, "Raw_Read_Error_Rate", 0x2f, 200, 0, true),
        attr(5, "Reallocated_Sector_Ct", 0x33, 180, realloc, true),
        attr(9, "Power_On_Hours", 0x32, 71, 21377, false),
        attr(197, "Current_Pending_Sector", 0x32, 200, pending, false),
        attr(198, "Offline_Uncorrectable", 0x30, 200, 0, false),
        attr(199, "UDMA_CRC_Error_Count", 0x32, 200, 0, false),
    ]
}

#[test]
fn smartctl_attributes_run_together_are_read_back() {
    let sick = format!(
        "[root@box ~]# smartctl -A /dev/sdc {}",
        flatten(&smartctl_a(112, 16))
    );
    assert_eq!(sick.lines().count(), 1);
    let ex = run(&sick);
    has_tool(&ex, "smartctl");
    has_problem(&ex, "media-errors");
    let healthy = format!(
        "[root@box ~]# smartctl -A /dev/sdc {}",
        flatten(&smartctl_a(0, 0))
    );
    let ex = run(&healthy);
    assert!(tools(&ex).contains(&"smartctl".to_string()));
    assert!(problem_ids(&ex).is_empty(), "{:?}", problem_ids(&ex));
}

#[test]
fn smartctl_x_brief_rows_without_a_header_count() {
    // ataprint.cpp brief form: flags as letters, FAIL column "-".
    let ex = run(
        "197 Current_Pending_Sector  -O--CK   100   100   000    -    24\n\
         198 Offline_Uncorrectable   ----CK   100   100   000    -    24\n",
    );
    has_problem(&ex, "media-errors");
    let ex = run(
        "197 Current_Pending_Sector  -O--CK   100   100   000    -    0\n\
         198 Offline_Uncorrectable   ----CK   100   100   000    -    0\n",
    );
    assert!(problem_ids(&ex).is_empty(), "{:?}", problem_ids(&ex));
}

#[test]
fn zpool_status_run_together_keeps_its_scan_and_rows() {
    let lines: Vec<String> = [
        "  pool: vault",
        " state: ONLINE",
        "status: One or more devices has experienced an unrecoverable error.  An",
        "        attempt was made to correct the error.  Applications are unaffected.",
        "  scan: scrub in progress since Tue Feb  7 02:00:01 2023",
        "        2.11T scanned at 801M/s, 1.30T issued at 310M/s, 5.62T total",
        "        0B repaired, 23.17% done, 04:03:11 to go",
        "config:",
        "",
        "        NAME        STATE     READ WRITE CKSUM",
        "        vault       ONLINE       0     0     0",
        "          mirror-0  ONLINE       0     0     0",
        "            ada1    ONLINE       0     0     7  (repairing)",
        "            ada2    ONLINE       0     0     0",
        "        cache",
        "          nvd0p4    ONLINE       0     0     0",
        "",
        "errors: No known data errors",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let one = format!("$ zpool status -v vault {}", flatten(&lines));
    let ex = run(&one);
    has_tool(&ex, "zpool-status");
    has_problem(&ex, "array-rebuilding");
    let arrays = ex.facts.arrays.value().cloned().unwrap_or_default();
    let a = arrays
        .iter()
        .find(|a| a.name == "vault")
        .expect("pool vault");
    assert_eq!(a.percent_done, Some(23.17));
    assert!(a.members.contains(&"ada1".to_string()), "{:?}", a.members);
}

#[test]
fn bare_vdev_rows_and_a_tree_without_indentation() {
    // Two rows cut out of a raidz1 tree, no header.
    let ex = run("            sdf     UNAVAIL    188     2     0\n\
         \x20           sdg     FAULTED    241     5     0  too many errors\n");
    has_tool(&ex, "zpool-status");
    has_problem(&ex, "media-errors");
    let ex = run(
        "            sdf     ONLINE       0     0     0\n            sdg     ONLINE       0     0     0\n",
    );
    assert!(problem_ids(&ex).is_empty(), "{:?}", problem_ids(&ex));
    // A tree whose blanks a page removed: the pool row first, the group, its disks.
    let flat = "pool: data\nstate: DEGRADED\nconfig:\nNAME STATE READ WRITE CKSUM\n\
                data DEGRADED 0 0 0\nraidz1-0 DEGRADED 0 0 0\nada3 ONLINE 0 0 0\n\
                ada4 FAULTED 97 0 0 too many errors\nada5 ONLINE 0 0 0\nerrors: No known data errors\n";
    let ex = run(flat);
    let arrays = ex.facts.arrays.value().cloned().unwrap_or_default();
    let a = arrays.iter().find(|a| a.name == "data").expect("pool data");
    assert!(a.degraded);
    let mut m = a.members.clone();
    m.sort();
    assert_eq!(m, vec!["ada3", "ada4", "ada5"]);
}

#[test]
fn old_mdstat_run_together_and_resync_on_the_md_line() {
    let ex = run(
        "Personalities : [raid1] read_ahead 1024 sectors md1 : active raid1 sdb3[2] sda3[0] \
         487315392 blocks [2/1] [U_] [====>................] recovery = 21.4% \
         (104287104/487315392) finish=97.2min speed=65603K/sec unused devices: <none>\n",
    );
    let arrays = ex.facts.arrays.value().cloned().unwrap_or_default();
    let a = arrays.iter().find(|a| a.name == "md1").expect("md1");
    assert!(a.degraded);
    assert_eq!(a.action, "recovery");
    assert_eq!(a.percent_done, Some(21.4));
    assert!(problem_ids(&ex).contains("array-rebuilding"));
    // 2.4's one-line status with the sync progress on the md line.
    let ex = run(
        "Personalities : [raid1]\nmd2: active raid1 hdc1[1] hda1[0] 40064 blocks [2/2] [UU] resync=37% finish=4.1min\nunused devices: <none>\n",
    );
    let arrays = ex.facts.arrays.value().cloned().unwrap_or_default();
    let a = arrays.iter().find(|a| a.name == "md2").expect("md2");
    assert_eq!(a.action, "resync");
    assert_eq!(a.percent_done, Some(37.0));
    let ex = run(
        "Personalities : [raid1] md2 : active raid1 hdc1[1] hda1[0] 40064 blocks [2/2] [UU] unused devices: <none>\n",
    );
    assert!(problem_ids(&ex).is_empty(), "{:?}", problem_ids(&ex));
}

#[test]
fn hdparm_i_and_t_run_together_are_recognised() {
    let i = " Model=ST9500325AS, FwRev=0001SDM1, SerialNo=5VE1ABCD Config={ HardSect NotMFM HdSw>15uSec Fixed DTR>10Mbs RotSpdTol>.5% } RawCHS=16383/16/63, TrkSize=0, SectSize=0, ECCbytes=4 BuffType=unknown, BuffSize=8192kB, MaxMultSect=16, MultSect=16 CurCHS=16383/16/63, CurSects=16514064, LBA=yes, LBAsects=976773168 IORDY=on/off, tPIO={min:120,w/IORDY:120}, tDMA={min:120,rec:120} PIO modes: pio0 pio1 pio2 pio3 pio4 DMA modes: mdma0 mdma1 mdma2 UDMA modes: udma0 udma1 udma2 udma3 udma4 udma5 *udma6 AdvancedPM=yes: unknown setting WriteCache=enabled Drive conforms to: Unspecified: ATA/ATAPI-4,5,6,7\n";
    let ex = run(i);
    assert_eq!(tools(&ex), vec!["hdparm-I".to_string()]);
    assert!(problem_ids(&ex).is_empty(), "{:?}", problem_ids(&ex));
    let t = "sdb 8:16 0 465.8G 0 disk # hdparm -t /dev/sdb /dev/sdb: Timing buffered disk reads: 320 MB in 3.01 seconds = 106.31 MB/sec\n";
    let ex = run(t);
    has_tool(&ex, "hdparm-t");
    assert!(
        ex.commands.iter().any(|c| c.text == "hdparm -t /dev/sdb"),
        "{:?}",
        ex.commands
    );
}

#[test]
fn fio_group_summary_alone_and_job_names_with_blanks() {
    let ex = run(
        "Run status group 0 (all jobs):\n   READ: bw=212MiB/s (222MB/s), 212MiB/s-212MiB/s (222MB/s-222MB/s), io=6360MiB (6669MB), run=30004-30004msec\n",
    );
    assert_eq!(tools(&ex), vec!["fio".to_string()]);
    assert!(problem_ids(&ex).is_empty(), "{:?}", problem_ids(&ex));
    let b = ex.benchmarks.first().expect("a benchmark");
    let rate = b.bytes_per_sec.unwrap_or(0.0);
    assert!((rate - 212.0 * 1048576.0).abs() < 1.0, "{rate}");
    let ex = run(
        "seq read test: (g=0): rw=read, bs=(R) 1024KiB-1024KiB, (W) 1024KiB-1024KiB, (T) 1024KiB-1024KiB, ioengine=libaio, iodepth=8\n\
         fio-3.33\nStarting 1 process\n\
         seq read test: (groupid=0, jobs=1): err= 0: pid=4242: Mon Jan  9 10:00:00 2023\n\
         \x20 read: IOPS=402, BW=402MiB/s (422MB/s)(11.8GiB/30001msec)\n",
    );
    assert_eq!(tools(&ex), vec!["fio".to_string()]);
    let b = ex.benchmarks.first().expect("a benchmark");
    assert!(
        b.command.as_deref().is_some_and(|c| c.contains("rw=read")),
        "{:?}",
        b.command
    );
}

#[test]
fn proc_crypto_without_aes_instructions_is_software_bound() {
    let block = |driver: &str, module: &str, prio: u32| {
        format!(
            "name         : xts(aes)\ndriver       : {driver}\nmodule       : {module}\npriority     : {prio}\n\
             refcnt       : 2\nselftest     : passed\ninternal     : no\ntype         : skcipher\n\
             async        : no\nblocksize    : 16\nmin keysize  : 32\nmax keysize  : 64\n"
        )
    };
    let ex = run(&format!(
        "# cat /proc/crypto\n{}",
        block("xts(ecb(aes-generic))", "kernel", 100)
    ));
    has_tool(&ex, "proc-crypto");
    has_problem(&ex, "encryption-bound");
    let ex = run(&format!(
        "{}\n{}",
        block("xts(ecb(aes-generic))", "kernel", 100),
        block("xts-aes-aesni", "aesni_intel", 401)
    ));
    assert!(problem_ids(&ex).is_empty(), "{:?}", problem_ids(&ex));
}

/// nvme-print.c d(): the raw log as rows of 16 bytes.
fn hex_dump(page: &[u8]) -> String {
    let mut s = String::from(
        "Device:nvme0 log-id:2 namespace-id:0xffffffff\n       0  1  2  3  4  5  6  7  8  9  a  b  c  d  e  f\n",
    );
    for (i, row) in page.chunks(16).enumerate() {
        let hex: Vec<String> = row.iter().map(|b| format!("{b:02x}")).collect();
        s.push_str(&format!(
            "{:04x}: {} \"................\"\n",
            i * 16,
            hex.join(" ")
        ));
    }
    s
}

#[test]
fn nvme_get_log_hex_dump_is_the_health_log() {
    let mut page = [0u8; 512];
    page[0] = 0x04; // reliability degraded
    page[1] = 0x3f; // 319 K
    page[2] = 0x01;
    page[3] = 100;
    page[4] = 10;
    page[5] = 3;
    page[160] = 57; // media and data integrity errors
    let ex = run(&format!(
        "$ sudo nvme get-log -i 0x2 -l 0x200 -vv /dev/nvme0\n{}",
        hex_dump(&page)
    ));
    has_tool(&ex, "nvme-get-log");
    let ids = problem_ids(&ex);
    assert!(ids.contains("nvme-health"), "{ids:?}");
    page[0] = 0;
    page[160] = 0;
    let ex = run(&hex_dump(&page));
    assert!(problem_ids(&ex).is_empty(), "{:?}", problem_ids(&ex));
}

#[test]
fn udevadm_usb_bus_is_a_bridge_and_hdparm_grep_loop_is_read() {
    let usb = "P: /devices/pci0000:00/0000:00:14.0/usb3/3-2/3-2:1.0/host7/target7:0:0/7:0:0:0/block/sdd\n\
               N: sdd\nL: 0\nS: disk/by-id/usb-JMicron_Generic_DISK00_0123456789ABCDEF-0:0\n\
               E: DEVNAME=/dev/sdd\nE: DEVTYPE=disk\nE: ID_VENDOR=JMicron\nE: ID_MODEL=Generic_DISK00\n\
               E: ID_BUS=usb\nE: ID_USB_DRIVER=uas\n";
    let ex = run(usb);
    has_tool(&ex, "udevadm-info");
    has_problem(&ex, "virtual-or-bridged-device");
    let ata = "P: /devices/pci0000:00/0000:00:17.0/ata3/host2/target2:0:0/2:0:0:0/block/sdb\n\
               N: sdb\nE: DEVNAME=/dev/sdb\nE: DEVTYPE=disk\nE: ID_BUS=ata\nE: ID_MODEL=WDC_WD40EFRX-68N32N0\n";
    let ex = run(ata);
    assert!(tools(&ex).contains(&"udevadm-info".to_string()));
    assert!(!problem_ids(&ex).contains("virtual-or-bridged-device"));
    let ex = run(
        "/dev/sda:          *    Data Set Management TRIM supported (limit 10 blocks)\n\
         /dev/sdb:          *    Data Set Management TRIM supported (limit 10 blocks)\n",
    );
    assert_eq!(tools(&ex), vec!["hdparm-I-grep".to_string()]);
    assert!(problem_ids(&ex).is_empty(), "{:?}", problem_ids(&ex));
}

#[test]
fn lsblk_d_crypt_child_at_zero_is_trim_stopping_at_the_layer() {
    let tree = |child: &str| {
        format!(
            "NAME            DISC-ALN DISC-GRAN DISC-MAX DISC-ZERO\n\
             nvme0n1                0      512B       2T         0\n\
             ├─nvme0n1p1            0      512B       2T         0\n\
             └─nvme0n1p2            0      512B       2T         0\n\
             \x20 └─cryptroot          0 {child:>9} {child:>8}         0\n"
        )
    };
    let ex = run(&tree("0B"));
    let f = ex
        .findings
        .iter()
        .find(|f| f.check == "trim-unavailable" && f.verdict == Verdict::Problem)
        .unwrap_or_else(|| panic!("{:?}", ex.findings));
    assert!(f.title.contains("cryptroot"), "{}", f.title);
    assert!(
        f.fixes
            .iter()
            .any(|x| x.steps.iter().any(|s| s.contains("allow-discards"))),
        "{:?}",
        f.fixes
    );
    let ex = run(&tree("512B"));
    assert!(
        !problem_ids(&ex).contains("trim-unavailable"),
        "{:?}",
        problem_ids(&ex)
    );
}

#[test]
fn sas_grown_defect_list_alone() {
    // scsiprint.cpp: "Elements in grown defect list: %d".
    let ex =
        run("# smartctl -a /dev/sdd | grep 'grown defect'\nElements in grown defect list: 412\n");
    has_problem(&ex, "media-errors");
    let ex =
        run("# smartctl -a /dev/sdd | grep 'grown defect'\nElements in grown defect list: 0\n");
    assert!(problem_ids(&ex).is_empty(), "{:?}", problem_ids(&ex));
}

#[test]
fn diskdoc_own_report_is_replayed_as_stated() {
    let report = "diskdoc 0.1.0 report, Linux\n===========================\n\
                  Findings: 1 problem (1 warning), 9 passed, 0 unknown, 0 not applicable\n\n\
                  Findings (problems first)\n=========================\n\n\
                  1. [warning] sdb: 14 CRC errors on the SATA link (UDMA_CRC_Error_Count)\n\
                  \x20   (link-errors)\n    sdb: 14 CRC errors ...\n";
    let ex = run(&format!(
        "Hi, here is what diskdoc said:\n\n{report}\nThanks!\n"
    ));
    has_tool(&ex, "diskdoc-report");
    let f = ex
        .findings
        .iter()
        .find(|f| f.check == "link-errors")
        .unwrap_or_else(|| panic!("{:?}", ex.findings));
    assert_eq!(f.device, "sdb");
    assert_eq!(f.severity, Severity::Warning);
    assert!(
        f.fixes
            .iter()
            .any(|x| x.steps.iter().any(|s| s.contains("diskdoc replay"))),
        "{:?}",
        f.fixes
    );
    let healthy = "diskdoc 0.1.0 report, Linux\n===========================\n\
                   Findings: 0 problems, 10 passed, 0 unknown, 0 not applicable\n";
    let ex = run(healthy);
    assert!(tools(&ex).contains(&"diskdoc-report".to_string()));
    assert!(problem_ids(&ex).is_empty(), "{:?}", problem_ids(&ex));
}
