use super::*;

#[test]
fn f3read_summaries() {
    // AltraMayor/f3#98 (7.1, a USB 2 stick, 1 GiB read back at 977.53 MB/s).
    let t = "F3 read 7.1\nCopyright (C) 2010 Digirati Internet LTDA.\n\
                 This is free software; see the source for copying conditions.\n\n\
                 \x20                 SECTORS      ok/corrupted/changed/overwritten\n\
                 Validating file 10.h2w ... 2097152/        0/      0/      0\n\n\
                 \x20 Data OK: 1.00 GB (2097152 sectors)\n\
                 Data LOST: 0.00 Byte (0 sectors)\n\
                 \x20              Corrupted: 0.00 Byte (0 sectors)\n\
                 Average reading speed: 977.53 MB/s\n";
    let v = parse(t);
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].tool, F3Tool::Read);
    assert_eq!(v[0].version.as_deref(), Some("7.1"));
    assert_eq!(v[0].bytes, Some(1 << 30));
    assert_eq!(v[0].lost_bytes, Some(0));
    let r = v[0].bytes_per_sec.expect("rate");
    assert!((r - 977.53 * 1024.0 * 1024.0).abs() < 1.0, "{r}");
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(start(&lines), spec::Start::Yes);
    let b = v[0].to_benchmark("pasted:f3", Some("f3read /media/stick"));
    assert_eq!(b.tool, "f3read");
    assert_eq!(b.input.as_deref(), Some("/media/stick"));

    // AltraMayor/f3#136 (7.2 on macOS, five files, tab-indented loss rows).
    let t = "F3 read 7.2\n\
                 Validating file 1.h2w ... 2097152/        0/      0/      0\n\
                 Validating file 5.h2w ... 2097152/        0/      0/      0\n\n\
                 \x20 Data OK: 5.00 GB (10485760 sectors)\n\
                 Data LOST: 0.00 Byte (0 sectors)\n\
                 \t       Corrupted: 0.00 Byte (0 sectors)\n\
                 Average reading speed: 100.40 MB/s\n";
    let v = parse(t);
    assert_eq!(v[0].bytes, Some(5 << 30));
    assert!((v[0].bytes_per_sec.unwrap_or(0.0) - 100.40 * 1048576.0).abs() < 1.0);
}

#[test]
fn f3write_and_garbage() {
    // AltraMayor/f3#214 (8.0): a write that failed part-way prints no average.
    let t = "F3 write 8.0\nFree space: 11.44 TB\nCreating file 1.h2w ... OK!\n\
                 Creating file 1479.h2w ... Write failure: Remote I/O error\n";
    assert!(parse(t).is_empty());
    let t = "F3 write 7.2\nCreating file 1.h2w ... OK!\nAverage writing speed: 8.53 MB/s\n";
    let v = parse(t);
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].tool, F3Tool::Write);
    assert!(parse("Average reading speed: fast\nData OK: (x sectors)\n").is_empty());
}

#[test]
fn io_error_lines() {
    // AltraMayor/f3#86 (7.2): a row cut short by EIO and the summary's warning.
    let t = "F3 read 7.2\n\
             Validating file 1.h2w ...  833792/        0/      0/      0 - NOT fully read due to \"Input/output error\"\n\
             Validating file 2.h2w ... 2097152/        0/      0/      0\n\
             \x20 Data OK: 6.54 GB (13724448 sectors)\n\
             WARNING: Not all data was read due to I/O error(s)\n\
             Average reading speed: 14.83 MB/s\n";
    assert_eq!(io_errors(t).len(), 2);
    assert_eq!(parse(t).len(), 1);
    // f3write (#214): "Write failure: Remote I/O error"; f3probe's read(2) errno 121.
    let w = "F3 probe 8.0\nf3probe: read_all(): unexpected error code from read(2) = 121: Remote I/O error\n\
             Creating file 1478.h2w ... OK!\nCreating file 1479.h2w ... Write failure: Remote I/O error  \n";
    assert_eq!(io_errors(w).len(), 2);
    let lines: Vec<&str> = w.lines().collect();
    assert_eq!(start(&lines), spec::Start::Yes);
    // Near misses: every file read back whole, a write that ran out of space.
    let ok = "Validating file 3726.h2w ... 1766424/        0/      0/      0\n\
              Creating file 9.h2w ... No space left.\n\
              Creating file 8.h2w ... OK!\n";
    assert!(io_errors(ok).is_empty());
}
