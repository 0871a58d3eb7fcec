use crate::checks::Severity;
use crate::explain::{Input, explain};

fn ids(text: &str) -> Vec<String> {
    let ex = explain(&[Input {
        label: "t".into(),
        bytes: text.as_bytes().to_vec(),
    }])
    .expect("recognised");
    ex.findings
        .iter()
        .filter(|f| f.is_problem() && f.severity >= Severity::Notice)
        .map(|f| f.check.clone())
        .collect()
}

#[test]
fn f3_io_errors_are_read_errors() {
    // AltraMayor/f3#163: rows cut short by EIO, no summary pasted.
    let t = "Validating file 460.h2w ...  312321/        0/      0/      0 - NOT fully read due to \"Input/output error\"\n\
             Validating file 461.h2w ... 2097152/        0/      0/      0\n";
    assert_eq!(ids(t), vec!["read-errors"]);
    // f3write's "Write failure" (EREMOTEIO through a USB bridge, #214).
    let w = "$ sudo f3write /mnt/usb\nF3 write 8.0\nFree space: 11.44 TB\n\
             Creating file 1.h2w ... OK!\nCreating file 2.h2w ... Write failure: Remote I/O error\n";
    assert_eq!(ids(w), vec!["read-errors"]);
    // Near miss: every file read whole (#188).
    let ok = "Validating file 3725.h2w ... 2097152/        0/      0/      0\n\
              Validating file 3726.h2w ... 1766424/        0/      0/      0\n\n\
              \x20 Data OK: 3.64 TB (7813657624 sectors)\nData LOST: 0.00 Byte (0 sectors)\n\
              Average reading speed: 143.34 MB/s\n";
    assert!(ids(ok).is_empty(), "{:?}", ids(ok));
}

const FIO_BUFFERED: &str = concat!(
    "[root@vm ~]# fio -name=mytest -filename=/dev/vdb -rw=read -iodepth=2 -size=10G\n",
    "mytest: (g=0): rw=read, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=psync, iodepth=2\n",
    "fio-3.12\nStarting 1 process\n",
    "mytest: (groupid=0, jobs=1): err= 0: pid=4136: Tue Apr 12 11:17:09 2022\n",
    "  read: IOPS=201k, BW=785MiB/s (823MB/s)(10.0GiB/13050msec)\n",
    "    clat (nsec): min=1590, max=24010k, avg=2378.22, stdev=23618.31\n",
    "     lat (usec): min=2, max=24010, avg= 3.01, stdev=23.62\n",
);

#[test]
fn fio_buffered_read_at_memory_latency() {
    // fio#1388: a buffered psync 4 KiB read of a virtio disk, 2.4 us per read.
    let got = ids(FIO_BUFFERED);
    assert!(
        got.contains(&"benchmark-buffered-device".to_string()),
        "{got:?}"
    );
    // Near misses: the same run with direct=1, and a buffered read at a device's latency.
    let direct = FIO_BUFFERED.replace("-size=10G", "-size=10G -direct=1");
    assert!(!ids(&direct).contains(&"benchmark-buffered-device".to_string()));
    let slow = FIO_BUFFERED.replace("avg=2378.22", "avg=95378.22");
    assert!(!ids(&slow).contains(&"benchmark-buffered-device".to_string()));
}

#[test]
fn diskscan_read_errors_are_read_errors_and_uncorrectable_ones_media_errors() {
    // baruch/diskscan#33: the scan stopped at a fatal read error.
    let fatal = "E: Error when reading at offset 123456789 size 65536 read 65536: Success\n\
                 E: Details: error=fatal data=full 00/00/00\n\
                 E: Fatal error occurred, bailing out.\n";
    assert_eq!(ids(fatal), vec!["read-errors"]);
    // #62: --fix could not zero an uncorrectable region: the drive's medium error too.
    let unc = "E: Error while attempting to overwrite uncorrectable data! ret=4096 errno=0: Success\n\
               E: Error when reading at offset 3222756864 size 65536 read 65536, errno=0: Success\n";
    let got = ids(unc);
    assert!(got.contains(&"read-errors".to_string()), "{got:?}");
    assert!(got.contains(&"media-errors".to_string()), "{got:?}");
    // Near miss: a clean scan's log.
    let ok = "I: Scanning disk /dev/sda in 65536 byte steps\nI: Scan took 10233 second\n";
    assert!(
        explain(&[Input {
            label: "t".into(),
            bytes: ok.as_bytes().to_vec()
        }])
        .map(|e| e
            .findings
            .iter()
            .all(|f| !f.is_problem() || f.severity < Severity::Notice))
        .unwrap_or(true)
    );
}

#[test]
fn a_fio_io_u_error_is_the_tests_io_error() {
    // axboe/fio#640: fio's io_u.c line alone.
    let t = "fio: io_u error on file /dev/sdc: Input/output error: write offset=1677721600, buflen=4194304\n";
    assert_eq!(ids(t), vec!["read-errors"]);
    // Near miss: a full filesystem ends the run with ENOSPC, no device error.
    let full = "fio: io_u error on file /mnt/t/job.0.0: No space left on device: write offset=0, buflen=4096\n";
    assert!(!ids(full).contains(&"read-errors".to_string()));
}

#[test]
fn application_eio_on_a_file_is_read_errors() {
    // rsync through a failing USB disk, and a PostgreSQL server log with a block read EIO.
    let r =
        "rsync: [sender] read errors mapping \"/media/backup/home.img\": Input/output error (5)\n";
    assert_eq!(ids(r), vec!["read-errors"]);
    let pg = "2024-02-11 03:00:01.115 UTC [3301] ERROR:  could not read block 5521 in file \"base/16401/24680\": Input/output error\n\
              2024-02-11 03:00:01.115 UTC [3301] STATEMENT:  SELECT * FROM measurements;\n";
    assert_eq!(ids(pg), vec!["read-errors"]);
    // Near misses: another errno on the same messages, and a healthy log.
    let enoent = "cp: error reading '/mnt/a/b.iso': No such file or directory\n";
    assert!(ids(enoent).is_empty(), "{:?}", ids(enoent));
    // A log without a failure is not this source's at all.
    let ok = "2024-02-11 03:00:01.115 UTC [3301] LOG:  checkpoint complete: wrote 12 buffers\n";
    let unread = explain(&[Input {
        label: "t".into(),
        bytes: ok.as_bytes().to_vec(),
    }]);
    assert!(unread.is_err());
}

#[test]
fn postgresql_flush_without_sync_file_range_is_an_emulated_kernel() {
    let t = "2020-06-01 10:22:13.201 UTC [311] LOG:  database system was not properly shut down; automatic recovery in progress\n\
             2020-06-01 10:22:13.240 UTC [311] PANIC:  could not flush dirty data: Function not implemented\n";
    assert_eq!(ids(t), vec!["virtual-or-bridged-device"]);
    // The same flush failing with EIO is the disk's.
    let eio = "2020-06-01 10:22:13.240 UTC [311] PANIC:  could not flush dirty data: Input/output error\n";
    assert_eq!(ids(eio), vec!["read-errors"]);
}

#[test]
fn dd_and_any_programs_eio_on_a_file_is_read_errors() {
    // A checksum tool's error(3) line.
    let md5 =
        "$ md5sum /srv/iso/debian-12.iso\nmd5sum: /srv/iso/debian-12.iso: Input/output error\n";
    assert_eq!(ids(md5), vec!["read-errors"]);
    // dd's write to a file on a failing filesystem, between runs that worked, and the same
    // message inside a run's block (a summary after it).
    let dd = "dd if=/dev/zero of=/mnt/nfs/a.bin bs=1M count=4\n\
              dd: closing output file '/mnt/nfs/a.bin': Input/output error\n\
              dd if=/dev/zero of=/mnt/nfs/b.bin bs=1M count=4\n\
              4+0 records in\n\
              4+0 records out\n\
              4194304 bytes (4.2 MB, 4.0 MiB) copied, 0.0193 s, 217 MB/s\n";
    assert!(
        ids(dd).contains(&"read-errors".to_string()),
        "{:?}",
        ids(dd)
    );
    let inside = "dd: error writing '/mnt/usb/fill.bin': Input/output error\n\
                  7+0 records in\n\
                  6+0 records out\n\
                  6291456 bytes (6.3 MB, 6.0 MiB) copied, 0.52 s, 12.1 MB/s\n";
    assert!(
        ids(inside).contains(&"read-errors".to_string()),
        "{:?}",
        ids(inside)
    );
    // The same lines with ENOSPC or ENOENT say nothing about a disk.
    let full = inside.replace("Input/output error", "No space left on device");
    assert!(!ids(&full).contains(&"read-errors".to_string()));
    let gone = "md5sum: /srv/iso/debian-12.iso: No such file or directory\n";
    assert!(
        explain(&[Input {
            label: "t".into(),
            bytes: gone.as_bytes().to_vec(),
        }])
        .map_or(true, |ex| ex.findings.iter().all(|f| !f.is_problem()))
    );
}

#[test]
fn bpf_traces_with_second_long_ios_are_latency_outliers() {
    let hist = |top: u32| {
        format!(
            "Tracing block device I/O... Hit Ctrl-C to end.\n\
             ^C\n\
             \x20    msecs               : count     distribution\n\
             \x20        0 -> 1          : 120      |****************************************|\n\
             \x20        2 -> 3          : 14       |****                                    |\n\
             \x20     1024 -> 2047       : {top}        |                                        |\n"
        )
    };
    assert_eq!(ids(&hist(4)), vec!["latency-outliers"]);
    // The same histogram with that bucket empty is a healthy disk's.
    assert!(ids(&hist(0)).is_empty(), "{:?}", ids(&hist(0)));
    let snoop = |lat: &str| {
        format!(
            "TIME(s)     COMM           PID     DISK      T SECTOR     BYTES  LAT(ms)\n\
             0.000000    mysqld         1201    sdd       W 2048       16384     7.10\n\
             0.812330    mysqld         1201    sdd       W 4096       16384  {lat}\n"
        )
    };
    assert_eq!(ids(&snoop("1843.20")), vec!["latency-outliers"]);
    assert!(ids(&snoop("9.77")).is_empty());
}

/// fio's figures through a paravirtual disk (the "Disk stats" device, or the job's /dev
/// target: virtio's vdX, Xen's xvdX, FreeBSD's vtbdX) measure the host's storage: notice.
/// The same run on a SATA or NVMe disk says nothing of the kind. Written from fio's text
/// output format (stat.c show_run_stats, diskutil.c print_disk_util), NOT A CAPTURE.
#[test]
fn fio_figures_of_a_paravirtual_disk_are_the_hosts() {
    let run_of = |disk: &str| {
        format!(
            "Run status group 0 (all jobs):\n\
             \x20  READ: bw=41.2MiB/s (43.2MB/s), 10.1MiB/s-10.5MiB/s (10.6MB/s-11.0MB/s), io=2472MiB (2592MB), run=60001-60003msec\n\
             \x20 WRITE: bw=41.3MiB/s (43.3MB/s), 10.2MiB/s-10.4MiB/s (10.7MB/s-10.9MB/s), io=2478MiB (2598MB), run=60001-60003msec\n\
             \n\
             Disk stats (read/write):\n\
             \x20 {disk}: ios=632100/633410, merge=0/12, ticks=98311/170220, in_queue=268531, util=99.71%\n"
        )
    };
    for disk in ["vdc", "xvdb", "vtbd1"] {
        assert_eq!(ids(&run_of(disk)), ["virtual-or-bridged-device"], "{disk}");
    }
    for disk in ["sdb", "nvme2n1", "ada1"] {
        assert!(
            ids(&run_of(disk)).is_empty(),
            "{disk}: {:?}",
            ids(&run_of(disk))
        );
    }
    // A one-job run on the device node itself, no Disk stats.
    let node = "# fio --name=r --filename=/dev/vdd --rw=randread --bs=4k --direct=1 --iodepth=32\n\
                r: (g=0): rw=randread, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=psync, iodepth=32\n\
                fio-3.28\nStarting 1 process\n\
                r: (groupid=0, jobs=1): err= 0: pid=811: Mon Mar  4 10:02:11 2024\n\
                \x20 read: IOPS=2210, BW=8840KiB/s (9052kB/s)(518MiB/60001msec)\n";
    assert_eq!(ids(node), ["virtual-or-bridged-device"]);
    assert!(ids(&node.replace("vdd", "sdd")).is_empty());
}
