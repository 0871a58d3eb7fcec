use super::parse;

#[test]
fn read_errors_and_uncorrectable_data_are_read() {
    // diskscan#62: --fix could not zero an uncorrectable region.
    let run = parse(
        "E: Error while attempting to overwrite uncorrectable data! ret=4096 errno=0: Success\n\
         E: Error when reading at offset 3222756864 size 65536 read 65536, errno=0: Success\n",
    );
    let run = run.as_ref();
    assert_eq!(run.map(|r| r.read_errors.len()), Some(1));
    assert!(run.is_some_and(|r| r.uncorrectable && !r.fatal));
    assert!(
        run.and_then(|r| r.scan("k"))
            .is_some_and(|s| s.read_errors == Some(1))
    );
    // diskscan#33: a fatal error stops the scan; the drive called nothing uncorrectable.
    let run = parse(
        "I: Opened disk /dev/sdb sector size 512 num bytes 2000398934016\n\
         E: Error when reading at offset 123456789 size 65536 read 65536: Success\n\
         E: Details: error=fatal data=full 00/00/00\n\
         E: Fatal error occurred, bailing out.\n",
    );
    let run = run.as_ref();
    assert!(run.is_some_and(|r| r.fatal && !r.uncorrectable));
    assert_eq!(run.and_then(|r| r.device.as_deref()), Some("/dev/sdb"));
    assert!(run.and_then(|r| r.scan("k")).is_none());
    // "error=uncorrected" is the drive's medium error.
    let run = parse("E: Details: error=uncorrected data=none 03/11/00\n");
    assert!(run.is_some_and(|r| r.uncorrectable));
}

#[test]
fn a_clean_scan_and_other_tools_lines_are_no_errors() {
    let run = parse("I: Scanning disk /dev/sda in 65536 byte steps\nI: Scan took 10233 second\n");
    assert!(run.is_some_and(|r| r.read_errors.is_empty() && !r.fatal && !r.uncorrectable));
    // Near miss: the same words without diskscan's level prefix are prose.
    assert_eq!(parse("Error when reading at offset 0, I think\n"), None);
}
