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
    for (l, program, op, file) in cases {
        let f = failure(l).unwrap_or_else(|| panic!("{l}"));
        assert_eq!(
            (f.program, f.op, f.file.as_deref()),
            (program, op, Some(file))
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
