use super::*;

/// btrfs-progs 5.x while a scrub runs (the layout of `_print_scrub_ss` and
/// `print_scrub_summary`, other figures).
const NEW_RUNNING: &str = "\
$ sudo btrfs scrub status /srv/pool
UUID:             3c6a0f55-1d2e-4b7a-9c41-0e2f8a7b6d10
Scrub started:    Tue Mar  4 02:00:01 2025
Status:           running
Duration:         1:12:40
Time left:        2:03:11
ETA:              Tue Mar  4 05:15:52 2025
Total to scrub:   3.52TiB
Bytes scrubbed:   1.29TiB  (36.65%)
Rate:             310.22MiB/s
Error summary:    no errors found
";

/// The same format after a scrub that found bad data and could not repair all of it.
const NEW_ERRORS: &str = "\
UUID:             9a0e1c2d-3b4f-4a5b-8c6d-7e8f9a0b1c2d
Scrub started:    Sun Jan  5 03:10:00 2025
Status:           finished
Duration:         0:41:09
Total to scrub:   812.31GiB
Rate:             336.80MiB/s
Error summary:    read=12 csum=7
  Corrected:      3
  Uncorrectable:  16
  Unverified:     0
";

/// Older btrfs-progs, tab-indented, after `btrfs scrub start -B`.
const OLD_DONE: &str = "scrub done for 5d1f2e3a-4b5c-4d6e-8f70-8192a3b4c5d6
\tscrub started at Sat Feb  1 10:00:02 2020 and finished after 02:14:55
\ttotal bytes scrubbed: 2.10TiB with 0 errors
";

const OLD_RUNNING_READ: &str = "scrub status for 0a1b2c3d-4e5f-4a6b-9c7d-8e9f0a1b2c3d
\tscrub started at Thu Apr  2 21:05:10 2020, running for 01:02:03
\ttotal bytes scrubbed: 402.11GiB with 5120 errors
\terror details: read=5120
\tcorrected errors: 0, uncorrectable errors: 5120, unverified errors: 0
";

#[test]
fn new_format_running_without_errors() {
    let v = parse(NEW_RUNNING);
    assert_eq!(v.len(), 1, "{v:?}");
    let s = &v[0];
    assert_eq!(s.state, State::Running);
    assert_eq!(
        s.uuid.as_deref(),
        Some("3c6a0f55-1d2e-4b7a-9c41-0e2f8a7b6d10")
    );
    assert_eq!(s.errors, Some(0));
    assert_eq!(s.failed_reads(), 0);
}

#[test]
fn new_format_counters_and_repairs() {
    let v = parse(NEW_ERRORS);
    assert_eq!(v.len(), 1, "{v:?}");
    let s = &v[0];
    assert_eq!(s.state, State::Finished);
    assert_eq!((s.read_errors, s.csum_errors), (12, 7));
    assert_eq!((s.corrected, s.uncorrectable), (Some(3), Some(16)));
    assert_eq!(s.errors, Some(19));
    assert_eq!(s.failed_reads(), 12);
    assert_eq!(s.bad_data(), 7);
}

#[test]
fn old_format_finished_clean_and_running_with_read_errors() {
    let v = parse(OLD_DONE);
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(v[0].state, State::Finished);
    assert_eq!(v[0].errors, Some(0));

    let v = parse(OLD_RUNNING_READ);
    assert_eq!(v.len(), 1, "{v:?}");
    let s = &v[0];
    assert_eq!(s.state, State::Running);
    assert_eq!(s.errors, Some(5120));
    assert_eq!(s.failed_reads(), 5120);
    assert_eq!(s.uncorrectable, Some(5120));
    assert_eq!(s.unexplained_errors(), 0);
}

#[test]
fn old_total_without_details_keeps_its_errors_unexplained() {
    let v = parse(
        "\tscrub started at Mon Jun  1 01:00:00 2020 and finished after 00:10:00\n\
         \ttotal bytes scrubbed: 20.00GiB with 4 errors\n",
    );
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(v[0].unexplained_errors(), 4);
}

#[test]
fn an_aborted_scrub_is_not_running() {
    let v = parse(
        "UUID:             11111111-2222-4333-8444-555555555555\n\
         Scrub started:    Fri Aug  1 21:00:15 2025\n\
         Status:           aborted\n\
         Duration:         0:00:00\n\
         Total to scrub:   120.00GiB\n\
         Rate:             0.00B/s\n\
         Error summary:    no errors found\n",
    );
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].state, State::Aborted);
}

#[test]
fn other_tools_uuid_lines_are_not_a_scrub() {
    // blkid/cryptsetup/mdadm print "UUID:" too.
    assert!(
        parse(
            "UUID:          0a1b2c3d-4e5f-4a6b-9c7d-8e9f0a1b2c3d\nCipher:        aes-xts-plain64\n"
        )
        .is_empty()
    );
    let lines = [
        "UUID:  0a1b2c3d-4e5f-4a6b-9c7d-8e9f0a1b2c3d",
        "Cipher:  aes",
    ];
    assert_eq!(start(&lines), spec::Start::No);
    let lines = [
        "UUID:  0a1b2c3d-4e5f-4a6b-9c7d-8e9f0a1b2c3d",
        "Scrub started:    Fri Aug  1 21:00:15 2025",
    ];
    assert_eq!(start(&lines), spec::Start::Yes);
}

#[test]
fn a_mail_wrapped_counts_line_still_counts() {
    // The counts line broken after "uncorrectable errors: N," by a mail client.
    let v = parse(
        "scrub status for 0a1b2c3d-4e5f-4a6b-9c7d-8e9f0a1b2c3d\n\
         \tscrub started at Thu Apr  2 21:05:10 2020, running for 00:20:00\n\
         \ttotal bytes scrubbed: 40.00GiB with 9 errors\n\
         \terror details: csum=9\n\
         \tcorrected errors: 9, uncorrectable errors: 0,\n\
         unverified errors: 0\n",
    );
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!((v[0].corrected, v[0].uncorrectable), (Some(9), Some(0)));
    assert_eq!(v[0].bad_data(), 9);
    assert!(is_member("unverified errors: 0"));
}
