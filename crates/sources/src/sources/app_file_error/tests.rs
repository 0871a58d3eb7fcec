use super::*;

#[test]
fn eio_on_reads_of_each_program() {
    let cases = [
        (
            "2023-05-02 09:14:07.112 UTC [4121] ERROR:  could not read block 88231 in file \"base/24576/30911.2\": Input/output error",
            "postgresql",
            Op::Read,
            "base/24576/30911.2",
        ),
        (
            "ERROR:  could not read blocks 10..13 in file \"base/5/16400\": Input/output error",
            "postgresql",
            Op::Read,
            "base/5/16400",
        ),
        (
            "cp: error reading '/mnt/usb/photos/2019.tar': Input/output error",
            "cp",
            Op::Read,
            "/mnt/usb/photos/2019.tar",
        ),
        (
            "rsync: [sender] read errors mapping \"/srv/share/vm.qcow2\": Input/output error (5)",
            "rsync",
            Op::Read,
            "/srv/share/vm.qcow2",
        ),
        (
            "tar: home/u/mail.mbox: Read error at byte 1048576, while reading 10240 bytes: Input/output error",
            "tar",
            Op::Read,
            "home/u/mail.mbox",
        ),
    ];
    assert_eio_failures(&cases);
}

/// Each line is an EIO failure of that program, op and file, and opens a block.
fn assert_eio_failures(cases: &[(&str, &str, Op, &str)]) {
    for (l, program, op, file) in cases {
        let f = failure(l).unwrap_or_else(|| panic!("{l}"));
        assert_eq!(
            (f.program.as_str(), f.op, f.file.as_deref()),
            (*program, *op, Some(*file)),
            "{l}"
        );
        assert!(f.is_eio(), "{l}");
        assert_eq!(start(&[l]), spec::Start::Yes, "{l}");
    }
}

#[test]
fn other_errnos_are_parsed_but_not_eio() {
    let f = failure("cp: error reading 'a.iso': No such file or directory");
    assert!(f.is_some_and(|f| !f.is_eio() && !f.is_enosys()));
    let f = failure(
        "2021-01-01 10:00:00 CET [9] WARNING:  could not flush dirty data: Function not implemented",
    );
    assert!(f.is_some_and(|f| f.op == Op::Sync && f.is_enosys()));
    // A sentence about such an error is not one.
    assert!(failure("I keep getting input/output errors when I cp files").is_none());
    assert!(failure("cp: cannot stat 'x': No such file or directory").is_none());
}

#[test]
fn a_log_block_opens_before_its_failure_and_not_without_one() {
    let log = "2022-11-03 21:04:11.020 UTC [77] LOG:  server process (PID 80) was terminated by signal 6\n\
               2022-11-03 21:04:11.021 UTC [77] LOG:  terminating any other active server processes\n\
               2022-11-03 21:04:11.400 UTC [81] PANIC:  could not fsync file \"pg_wal/000000010000000000000003\": Input/output error\n";
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(start(&lines), spec::Start::Yes);
    assert_eq!(parse(log).len(), 1);
    let healthy = "2022-11-03 21:04:11.020 UTC [77] LOG:  database system is ready to accept connections\n\
                   2022-11-03 21:04:12.020 UTC [77] LOG:  checkpoint starting: time\n";
    let lines: Vec<&str> = healthy.lines().collect();
    assert_eq!(start(&lines), spec::Start::No);
    // pg_dump relaying the server's message: its own lines belong to the block.
    let dump = "pg_dump: error: Dumping the contents of table \"events\" failed: PQgetResult() failed.\n\
                pg_dump: error: Error message from server: ERROR:  could not read block 7 in file \"base/1/2\": Input/output error\n";
    let lines: Vec<&str> = dump.lines().collect();
    assert_eq!(start(&lines), spec::Start::Yes);
    assert!(lines.iter().all(|l| is_member(l)));
}

#[test]
fn a_home_directory_owner_is_a_secret() {
    let found = home_users("cp: error reading '/home/alice/photos.tar': Input/output error\n");
    assert_eq!(found.first().map(|f| f.value.as_str()), Some("alice"));
    assert!(home_users("cp: error reading '/srv/a.tar': Input/output error\n").is_empty());
}

#[test]
fn any_programs_error_3_line_with_eio_is_a_failure() {
    let cases = [
        (
            "md5sum: /srv/backup/2021/march.tar.gz: Input/output error",
            "md5sum",
            Op::Read,
            "/srv/backup/2021/march.tar.gz",
        ),
        (
            "sha512sum: /var/cache/pacman/pkg/glibc-2.38-7.pkg.tar.zst: Input/output error",
            "sha512sum",
            Op::Read,
            "/var/cache/pacman/pkg/glibc-2.38-7.pkg.tar.zst",
        ),
        (
            "ls: cannot access '/mnt/data/photos': Input/output error",
            "ls",
            Op::Read,
            "/mnt/data/photos",
        ),
        (
            "du: cannot read directory \u{2018}/home/bob/.cache\u{2019}: Input/output error",
            "du",
            Op::Read,
            "/home/bob/.cache",
        ),
        (
            "dd: closing output file '/mnt/nfs/out.bin': Input/output error",
            "dd",
            Op::Write,
            "/mnt/nfs/out.bin",
        ),
        (
            "dd: error writing '/data/zero.img': Input/output error",
            "dd",
            Op::Write,
            "/data/zero.img",
        ),
        (
            "dd: fsync failed for '/data/zero.img': Input/output error",
            "dd",
            Op::Sync,
            "/data/zero.img",
        ),
        (
            "[WARN] vim-9.0.1_1: failed to check hash for `./usr/bin/vim': Input/output error",
            "vim-9.0.1_1",
            Op::Read,
            "./usr/bin/vim",
        ),
        (
            "cat: /boot/initrd.img: Input/output error",
            "cat",
            Op::Read,
            "/boot/initrd.img",
        ),
    ];
    assert_eio_failures(&cases);
    assert!(
        cases
            .iter()
            .filter_map(|c| failure(c.0))
            .all(|f| !names_device_node(&f))
    );
    let node = failure("dd: error reading '/dev/sdc': Input/output error");
    assert!(node.is_some_and(|f| names_device_node(&f)));
}

#[test]
fn the_generic_form_takes_only_eio() {
    for l in [
        "sha256sum: /tmp/x.iso: No such file or directory",
        "ls: cannot access '/mnt/x': Permission denied",
        "dd: error writing '/mnt/usb/big.img': No space left on device",
        "cat: /proc/foo: Operation not permitted",
        // A sentence mentioning the error is not the program's line.
        "When I run sha256sum on it: Input/output error",
    ] {
        assert!(failure(l).is_none(), "{l}");
        assert_eq!(start(&[l]), spec::Start::No, "{l}");
    }
}
