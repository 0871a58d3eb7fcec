use super::*;

#[test]
fn parameters_and_rows() {
    let t = "ezFio test parameters:\n\n               Drive: /dev/nvme1n1\n\
                 \x20              Model: Seagate FireCuda 530 ZP1000GM30013\n\
                 \x20             Serial: 7VQ08E4Q\n      TestedCapacity: 9 GiB\n\
                 \x20        FIO Version: fio-3.36\n\n\
                 Test Description        BW(MB/s)      IOPS  Lat(us)\n\
                 Sequential Preconditioning Pass 1     DONE      DONE\n\
                 Sustained Multi-Threaded Sequential Read Tests by Block Size\n\
                 Block Size 512        512.3   1000580    127.8\n";
    let v = parse(t);
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].drive.as_deref(), Some("/dev/nvme1n1"));
    assert_eq!(v[0].serial.as_deref(), Some("7VQ08E4Q"));
    assert_eq!(v[0].fio_version.as_deref(), Some("fio-3.36"));
    assert_eq!(v[0].results.len(), 1);
    assert_eq!(v[0].results[0].2, 1_000_580.0);
    assert!(parse("Drive: /dev/sda\n").is_empty());
}
