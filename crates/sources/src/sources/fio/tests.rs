#[test]
fn a_job_file_is_an_operand_not_an_option_value() {
    use super::command_job_file;
    assert!(command_job_file("fio randread.fio"));
    assert!(command_job_file("fio --output=x.json job.ini"));
    // Near miss: the test file named by --filename is not a job file.
    assert!(!command_job_file(
        "fio --name=test --filename=write.fio --bs=4k --size=4G --readwrite=write"
    ));
}

#[test]
fn a_job_status_line_gives_its_error() {
    use super::job_error;
    // stat.c: "err=%2d (%s)" with td_verror()'s "file:F:L, func=F, error=TEXT".
    // What follows "NAME: (groupid=" on the job's status line.
    let e = job_error(
        "0, jobs=32): err= 5 (file:io_u.c:1876, func=io_u error, error=Input/output error): pid=7344: Thu Sep",
    );
    assert_eq!(e.as_ref().map(|e| e.errno), Some(5));
    assert_eq!(
        e.as_ref().and_then(|e| e.text.as_deref()),
        Some("Input/output error")
    );
    assert!(e.is_some_and(|e| e.is_eio()));
    let e = job_error(
        "0, jobs=1): err=28 (file:filesetup.c:240, func=write, error=No space left on device): pid=9",
    );
    assert_eq!(e.as_ref().map(|e| e.errno), Some(28));
    assert!(!e.is_some_and(|e| e.is_eio()));
    assert_eq!(
        job_error("0, jobs=1): err= 0: pid=811: Mon Mar  4 10:00:00 2024"),
        None
    );
    // Through the parser, with the job's results kept.
    let rep = super::parse(
        "randwrite: (groupid=0, jobs=32): err= 5 (file:io_u.c:1876, func=io_u error, error=Input/output error): pid=7344: Thu Sep\n\
             \x20 write: IOPS=194k, BW=758MiB/s (795MB/s)(3976MiB/5244msec); 0 zone resets\n",
    );
    let job = rep.as_ref().and_then(|r| r.jobs.first());
    assert_eq!(job.and_then(|j| j.error.as_ref()).map(|e| e.errno), Some(5));
    assert_eq!(job.map(|j| j.results.len()), Some(1));
}

use super::*;

#[test]
fn command_options_in_every_getopt_long_only_form() {
    for cmd in [
        "fio --name=t --filename=/dev/md0 --rw=read --bs=256k --direct=1",
        "fio -name test -filename /dev/md0 -rw read -bs 256k -ioengine libaio -direct 1",
        "fio --name t --rw read --bs=256K --direct",
        "fio -rw=read -bs=256k -direct=1 -name=t",
    ] {
        assert_eq!(command_option(cmd, "rw"), Some("read"), "{cmd}");
        assert_eq!(command_block_size(cmd), Some(256 * 1024), "{cmd}");
        assert!(command_flag(cmd, "direct"), "{cmd}");
        assert!(!command_flag(cmd, "fsync"), "{cmd}");
    }
    assert!(!command_flag(
        "fio --rw=write --direct=0 --name=t",
        "direct"
    ));
    assert!(!command_flag(
        "fio -rw write -direct false -name t",
        "direct"
    ));
    // A longer option of the same stem is another option.
    assert_eq!(command_option("fio --rwmixread=70 --name=t", "rw"), None);
    assert!(!command_flag("fio --end_fsync=1 --name=t", "fsync"));
    assert!(command_flag("fio --end_fsync=1 --name=t", "end_fsync"));
}

#[test]
fn an_io_u_error_line_is_a_failed_request_of_its_file() {
    // io_u.c __io_u_log_error: "fio: io_u error on file %s: %s: %s offset=%llu, buflen=%llu".
    let rep = super::parse(
        "fio: io_u error on file /dev/sdc: Input/output error: write offset=1677721600, buflen=4194304\n",
    );
    let job = rep.as_ref().and_then(|r| r.jobs.first());
    assert_eq!(job.and_then(|j| j.filename.as_deref()), Some("/dev/sdc"));
    assert!(
        job.and_then(|j| j.error.as_ref())
            .is_some_and(|e| e.is_eio())
    );
    let e = rep.as_ref().and_then(|r| r.io_errors.first());
    assert_eq!(
        e.map(|e| (e.dir.as_str(), e.offset_bytes)),
        Some(("write", Some(1677721600)))
    );
    // backend.c's pid line alone: the error, no file.
    let rep = super::parse(
        "fio: pid=4211, err=5/file:io_u.c:1747, func=io_u error, error=Input/output error\n",
    );
    let job = rep.as_ref().and_then(|r| r.jobs.first());
    assert!(
        job.and_then(|j| j.error.as_ref())
            .is_some_and(|e| e.is_eio())
    );
    // Near misses: a full disk is no EIO; prose naming io_u is no fio line.
    let rep = super::parse(
        "fio: io_u error on file /mnt/t/f: No space left on device: write offset=0, buflen=4096\n",
    );
    let job = rep.as_ref().and_then(|r| r.jobs.first());
    assert!(
        job.and_then(|j| j.error.as_ref())
            .is_some_and(|e| !e.is_eio())
    );
    assert_eq!(
        super::parse("I saw an io_u error on file sdc yesterday\n"),
        None
    );
}

#[test]
fn result_lines_pasted_on_their_own() {
    use super::{FIO_START, parse};
    // stat.c show_ddir_status's lines alone (fio 3.x), a mixed job's two directions and a
    // later read-only run: NOT A CAPTURE, other figures.
    let t = "  read: IOPS=12.3k, BW=48.1MiB/s (50.4MB/s)(2886MiB/60002msec)\n\
             \x20 write: IOPS=4110, BW=16.1MiB/s (16.8MB/s)(963MiB/60002msec); 0 zone resets\n";
    assert!(t.lines().all(|l| FIO_START.is_match(l)), "{t}");
    let r = parse(t).expect("a report");
    assert_eq!(r.jobs.len(), 1, "{r:?}");
    let j = &r.jobs[0];
    assert_eq!(j.results.len(), 2);
    assert_eq!(j.direction("read").and_then(|d| d.iops), Some(12300.0));
    assert_eq!(j.direction("write").and_then(|d| d.runtime_ms), Some(60002));
    // Prose quoting a figure is no result line.
    assert!(!FIO_START.is_match("read: IOPS=12k is what I get, is it slow?"));
    assert!(parse("read: IOPS=12k is what I get, is it slow?").is_none());
}
