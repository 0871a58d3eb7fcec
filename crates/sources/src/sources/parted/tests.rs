use super::*;

#[test]
fn verdicts() {
    let t = "(parted) align-check opt 1\n1 not aligned\n(parted) align-check opt 2\n2 aligned\nError: partition length of 7812937728 sectors exceeds the msdos-partition-table-imposed maximum of 4294967295\nWarning: The resulting partition is not properly aligned for best performance: 34s % 2048s != 0s\n";
    let v = parse(t);
    let got: Vec<(PartitionToolVerdict, Option<&str>)> = v
        .iter()
        .map(|m| (m.verdict, m.partition.as_deref()))
        .collect();
    assert_eq!(
        got,
        [
            (PartitionToolVerdict::Misaligned, Some("1")),
            (PartitionToolVerdict::Aligned, Some("2")),
            (PartitionToolVerdict::MbrTooSmall, None),
            (PartitionToolVerdict::Misaligned, None),
        ]
    );
    assert_eq!(
        text_device("GNU Parted 3.2\nUsing /dev/sda\n").as_deref(),
        Some("sda")
    );
    assert_eq!(start(&["4 not aligned"]), spec::Start::Yes);
    // parted 3.5+ says why after the answer.
    let v = parse("  3 not aligned: 30929920s % 2048s != 0s\n1 aligned\n");
    assert_eq!(v.len(), 2);
    assert_eq!(v[0].verdict, PartitionToolVerdict::Misaligned);
    assert_eq!(v[0].partition.as_deref(), Some("3"));
    assert_eq!(v[1].verdict, PartitionToolVerdict::Aligned);
    assert_eq!(start(&["12 not aligned: 63s % 8s != 0s"]), spec::Start::Yes);
    assert_eq!(start(&["we aligned the partitions"]), spec::Start::No);
}

#[test]
fn partman_alignment_warning_wrapped_by_its_dialog() {
    let t = "The partition /dev/sdb2 assigned to / starts at an offset of 3072\nbytes from the minimum alignment for this disk, which may lead to\nvery poor performance.\n";
    let v = parse(t);
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].verdict, PartitionToolVerdict::Misaligned);
    assert_eq!(v[0].partition.as_deref(), Some("sdb2"));
    assert_eq!(v[0].tool, "partman");
    assert!(own(
        "bytes from the minimum alignment for this disk, which may lead to"
    ));
    assert_eq!(
        start(&["The partition /dev/sdb2 assigned to / starts at an offset of 3072"]),
        spec::Start::Yes
    );
}
