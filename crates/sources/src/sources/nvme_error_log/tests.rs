use super::*;

#[test]
fn smartctl_table_of_the_same_log() {
    // smartmontools 7.3 with the message column (check_smart_attributes#134), quoted.
    let t = "> Error Information (NVMe Log 0x01, max 63 entries)\n\
                 > Num   ErrCount  SQId   CmdId  Status  PELoc          LBA  NSID    VS  Message\n\
                 >   0       9503     0  0xb00b  0x421e  0x004            0     1     -  Feature Not Namespace Specific\n\
                 >   1         12     3  0x0021  0xc502  0x000       123456     1     -\n";
    let v = parse(t);
    assert_eq!(v.len(), 2);
    assert_eq!(v[0].error_count, Some(9503));
    assert_eq!((v[0].sct(), v[0].sc()), (Some(1), Some(0x0f)));
    assert_eq!(v[0].status_text, "Feature Not Namespace Specific");
    assert!(!v[0].is_media_error());
    // 0xc502 raw: SCT 2h SC 81h, an unrecovered read on an I/O queue.
    assert_eq!((v[1].sct(), v[1].sc()), (Some(2), Some(0x81)));
    assert!(v[1].is_media_error());
    assert_eq!(v[1].lba, Some(123_456));
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(start(&lines), spec::Start::Yes);
    let none = [
        "Error Information (NVMe Log 0x01, 16 of 64 entries)",
        "No Errors Logged",
    ];
    assert_eq!(start(&none), spec::Start::Yes);
    assert!(parse(none.join("\n").as_str()).is_empty());
}

#[test]
fn shifted_status_with_phase_tag_row() {
    // nvme-cli 2.x rows (nvme-cli issue 2540's layout).
    let t = "Error Log Entries for device:nvme1 entries:16\n.................\n Entry[ 0]\n.................\nerror_count     : 13\nsqid            : 0\ncmdid           : 0xa005\nstatus_field    : 0x2002(Invalid Field in Command: A reserved coded value or an unsupported value in a defined field)\nphase_tag       : 0x1\nparm_err_loc    : 0x4\nlba             : 0\n.................\n Entry[ 1]\n.................\nerror_count     : 12\nsqid            : 3\nstatus_field    : 0x2281(Unrecovered Read Error: The read data could not be recovered from the media)\nphase_tag       : 0x0\nlba             : 0x1000\n";
    let v = parse(t);
    assert_eq!(v.len(), 2);
    assert_eq!((v[0].sct(), v[0].sc()), (Some(0), Some(2)));
    assert!(!v[0].is_media_error());
    assert_eq!((v[1].sct(), v[1].sc()), (Some(2), Some(0x81)));
    assert!(v[1].is_media_error());
    assert_eq!(v[1].lba, Some(0x1000));
    assert_eq!(text_device(t).as_deref(), Some("nvme1"));
}

#[test]
fn raw_status_with_the_phase_bit() {
    // nvme-cli 1.x (issue 800): no phase_tag row, the value carries the phase in bit 0.
    let t = "Entry[63]\n.................\nerror_count : 9290042\nsqid : 52\ncmdid : 0x221\nstatus_field : 0xc502(READ_ERROR: The read data could not be recovered from the media)\nparm_err_loc : 0\nlba : 0x19408a50\n";
    let v = parse(t);
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].error_count, Some(9_290_042));
    assert_eq!((v[0].sct(), v[0].sc()), (Some(2), Some(0x81)));
    assert!(v[0].is_media_error());
    // The same value without its name is decoded by number alone.
    let bare = "error_count : 5\nsqid : 1\nstatus_field : 0xc502\n";
    assert!(parse(bare)[0].is_media_error());
    // An entry whose heading was cut off still starts at its error_count row.
    assert_eq!(
        parse("error_count : 2\nstatus_field : 0x4004\nerror_count : 1\nstatus_field : 0x4004\n")
            .len(),
        2
    );
}

#[test]
fn starts() {
    assert_eq!(
        start(&["Entry[63]", ".................", "error_count : 9290042"]),
        spec::Start::Yes
    );
    assert_eq!(
        start(&["................", "Entry[63]", "....", "error_count : 1"]),
        spec::Start::Yes
    );
    assert_eq!(start(&["...", "and then it hung"]), spec::Start::No);
}
