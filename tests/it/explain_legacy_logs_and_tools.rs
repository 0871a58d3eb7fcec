//! `diskdoc explain` on output classes first met in the reviewed corpus (batch 14): libata's
//! pre-EH "translated ATA stat/err" reports, a PATA disk configured for UDMA/33 below drive
//! and host, an interrupted `dd` whose rate is wrapped in Markdown, f3read's summary and the
//! kernel's USB device list. Each test takes a second real output of the
//! class where one was found, with its address.

use diskdoc_core::checks::{Finding, Severity, Verdict};
use diskdoc_core::explain::{Explanation, Input, explain};

fn run(text: &str) -> Explanation {
    explain(&[Input {
        label: "paste".into(),
        bytes: text.as_bytes().to_vec(),
    }])
    .expect("explain answers")
}

fn problem<'a>(ex: &'a Explanation, check: &str) -> Option<&'a Finding> {
    ex.findings
        .iter()
        .find(|f| f.check == check && f.verdict == Verdict::Problem)
}

/// https://lore.kernel.org/lkml/43B23DE0.5080201@dbservice.com/ (Shuttle XPC, SATA BadCRC
/// under load, 2.6.15-rc6): a Linux log, read as one, with its CRC errors.
#[test]
fn translated_stat_err_lines_are_linux_link_errors() {
    let ex = run(include_str!(
        "../fixtures/corpus-reviewed/batch-14/fixtures/linux/dmesg/lkml2005dec-shuttle-xpc-two-seagate-120gb-sata-md-raid-ata1-translated-stat-err-0x51-84-badcrc-under-load.txt"
    ));
    let f = problem(&ex, "link-errors").expect("a link-errors finding");
    assert!(f.severity >= Severity::Notice, "{}", f.title);
    // geekswithblogs.net/alexandre/archive/2006/09/03.aspx (Ubuntu 6.06, ICH5 combined
    // mode): error 0x20 names no fault of disk or cable.
    let ex = run("ata1: translated ATA stat/err 0x51/20 to SCSI SK/ASC/ASCQ 0x3/11/04\n");
    assert!(problem(&ex, "link-errors").is_none());
    assert!(problem(&ex, "media-errors").is_none());
}

/// https://lore.kernel.org/lkml/20060803163002.M27080@liquid-nexus.net/ (Promise TX4000,
/// three WD1600JB 'max UDMA/100' each 'configured for UDMA/33', <b> tags of the webmail).
#[test]
fn pata_configured_below_drive_and_host_is_the_cable_cap() {
    let text = include_str!(
        "../fixtures/corpus-reviewed/batch-14/fixtures/linux/dmesg/lkml2006aug-promise-fasttrak-tx4000-sata-promise-pata-wd1600jb-max-udma100-configured-for-udma33-cable-misdetect-html-bold-tags.txt"
    );
    let ex = run(text);
    let n = ex
        .findings
        .iter()
        .filter(|f| f.check == "sata-link-below-max" && f.verdict == Verdict::Problem)
        .count();
    assert_eq!(n, 3, "one per PATA disk at UDMA/33");
    // The thread's fix (2.6.18-rc3): "configured for UDMA/100", nothing to report.
    let fixed = run(&text.replace("UDMA/33", "UDMA/100"));
    assert!(problem(&fixed, "sata-link-below-max").is_none());
}

/// https://github.com/openzfs/zfs/issues/4592: `dd bs=1k` interrupted, the rate in bold.
#[test]
fn interrupted_small_block_dd_with_markup_is_measured() {
    let ex = run(include_str!(
        "../fixtures/corpus-reviewed/batch-14/fixtures/linux/dd/openzfs4592-centos7-virtualbox-zfs-stripe-two-vbox-disks-dd-bs-1k-466kBps-interrupted-markdown-bold.txt"
    ));
    let f = problem(&ex, "benchmark-small-blocks").expect("a small-block finding");
    assert!(f.title.contains("1.0 KiB"), "{}", f.title);
}

/// https://github.com/AltraMayor/f3/issues/98 (1 GiB at 977.53 MB/s from a USB 2 stick) and
/// https://github.com/AltraMayor/f3/issues/153 (2 GiB at 1004.91 MB/s read back from the
/// ZFS pool f3write had just filled): the cache answered. AltraMayor/f3#136 (5 GiB at
/// 100.40 MB/s on macOS): a drive's own speed, no finding.
#[test]
fn f3read_faster_than_the_links_of_flash_media_is_the_cache() {
    let ex = run(include_str!(
        "../fixtures/corpus-reviewed/batch-14/fixtures/linux/f3/f3-98-f3read-7.1-usb2-flash-drive-1GB-file-average-reading-speed-977.53MBps-cache.txt"
    ));
    assert!(problem(&ex, "cache-answered").is_some());
    let zfs = "[manjaro@manjaro f3-master]$ sudo ./f3read -s 1 -e 2 /tank/\n\
               F3 read 8.0\n\
               Copyright (C) 2010 Digirati Internet LTDA.\n\
               This is free software; see the source for copying conditions.\n\n\
               \x20                 SECTORS      ok/corrupted/changed/overwritten\n\
               Validating file 1.h2w ... 2097152/        0/      0/      0\n\
               Validating file 2.h2w ... 2097152/        0/      0/      0\n\n\
               \x20 Data OK: 2.00 GB (4194304 sectors)\n\
               Data LOST: 0.00 Byte (0 sectors)\n\
               \x20              Corrupted: 0.00 Byte (0 sectors)\n\
               \x20       Slightly changed: 0.00 Byte (0 sectors)\n\
               \x20            Overwritten: 0.00 Byte (0 sectors)\n\
               Average reading speed: 1004.91 MB/s\n";
    assert!(problem(&run(zfs), "cache-answered").is_some());
    let mac = "F3 read 7.2\n\
               Copyright (C) 2010 Digirati Internet LTDA.\n\
               This is free software; see the source for copying conditions.\n\n\
               \x20                 SECTORS      ok/corrupted/changed/overwritten\n\
               Validating file 1.h2w ... 2097152/        0/      0/      0\n\
               Validating file 2.h2w ... 2097152/        0/      0/      0\n\
               Validating file 3.h2w ... 2097152/        0/      0/      0\n\
               Validating file 4.h2w ... 2097152/        0/      0/      0\n\
               Validating file 5.h2w ... 2097152/        0/      0/      0\n\n\
               \x20 Data OK: 5.00 GB (10485760 sectors)\n\
               Data LOST: 0.00 Byte (0 sectors)\n\
               \t       Corrupted: 0.00 Byte (0 sectors)\n\
               \tSlightly changed: 0.00 Byte (0 sectors)\n\
               \t     Overwritten: 0.00 Byte (0 sectors)\n\
               Average reading speed: 100.40 MB/s\n";
    let ex = run(mac);
    assert!(problem(&ex, "cache-answered").is_none());
    assert_eq!(ex.benchmarks.len(), 1, "the f3read run is a benchmark");
}

/// https://lore.kernel.org/lkml/20050224190548.GA7978@mail.muni.cz/ (an MP3 player sold as
/// USB 2.0 on a 12 Mb/s link, Greg KH: 'only reporting that it can go at 12Mbit'); the same
/// list from a UAS SSD at 5000 Mb/s (gregkh/usbutils PR 103's device) is no speed problem.
#[test]
fn usb_device_list_gives_the_storage_link_speed() {
    let ex = run(include_str!(
        "../fixtures/corpus-reviewed/batch-14/fixtures/linux/proc-bus-usb/lkml2005feb-msi-mega-player-5511-usb-storage-ver-1.10-spd-12-full-speed-on-uhci-proc-bus-usb-devices.txt"
    ));
    let f = problem(&ex, "virtual-or-bridged-device").expect("a USB finding");
    assert_eq!(f.severity, Severity::Warning);
    assert!(f.title.contains("full speed"), "{}", f.title);
    let fast = "T:  Bus=02 Lev=01 Prnt=01 Port=00 Cnt=01 Dev#=  4 Spd=5000 MxCh= 0\n\
                D:  Ver= 3.10 Cls=00(>ifc ) Sub=00 Prot=00 MxPS= 9 #Cfgs=  1\n\
                P:  Vendor=0781 ProdID=558c Rev=10.12\n\
                S:  Manufacturer=SanDisk\n\
                S:  Product=Extreme SSD\n\
                C:  #Ifs= 1 Cfg#= 1 Atr=80 MxPwr=896mA\n\
                I:  If#=0x0 Alt= 1 #EPs= 4 Cls=08(stor.) Sub=06 Prot=62 Driver=uas\n";
    // UAS on a SuperSpeed link is how a USB disk should run: said, not a problem.
    let ex = run(fast);
    assert!(problem(&ex, "virtual-or-bridged-device").is_none());
    let f = ex
        .findings
        .iter()
        .find(|f| f.check == "virtual-or-bridged-device")
        .expect("the USB drive is still described");
    assert!(f.title.contains("UAS"), "{}", f.title);
    assert!(f.title.contains("5000 Mb/s"), "{}", f.title);
}
