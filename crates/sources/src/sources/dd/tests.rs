use super::*;

#[test]
fn the_device_a_run_failed_on_with_eio() {
    let dev = |t: &str| parse(t).first().and_then(failed_io_device);
    // GNU dd of several releases and locales, FreeBSD dd, prompts and other devices.
    for (text, want) in [
        (
            "# dd if=/dev/zero of=/dev/sdb\ndd: writing to ‘/dev/sdb’: Input/output error\n\
                 1871049+0 records in\n1871048+0 records out\n\
                 957976576 bytes (958 MB) copied, 8600,9 s, 111 kB/s\n",
            Some("sdb"),
        ),
        (
            "$ sudo dd if=/dev/sda1 of=/dev/null bs=1M status=progress\n\
                 dd: error reading '/dev/sda1': Input/output error\n22+0 records in\n\
                 22+0 records out\n23068672 bytes (23 MB, 22 MiB) copied, 13.3 s, 1.7 MB/s\n",
            Some("sda1"),
        ),
        (
            "dd: error writing '/dev/nvme0n1': Input/output error\n5+0 records in\n\
                 4+0 records out\n4194304 bytes (4.2 MB, 4.0 MiB) copied, 0.5 s, 8.4 MB/s\n",
            Some("nvme0n1"),
        ),
        (
            "dd: reading `/dev/hdc': Input/output error\n0+0 records in\n0+0 records out\n",
            Some("hdc"),
        ),
        (
            "# dd if=/dev/ada1 of=/dev/null bs=1m\ndd: /dev/ada1: Input/output error\n\
                 131+0 records in\n131+0 records out\n\
                 137363456 bytes transferred in 12.002071 secs (11445055 bytes/sec)\n",
            Some("ada1"),
        ),
        (
            "dd if=/dev/da0 of=disk.img bs=64k\ndd: Fehler beim Lesen von '/dev/da0': \
                 Eingabe-/Ausgabefehler\n10+0 Datensätze ein\n10+0 Datensätze aus\n",
            Some("da0"),
        ),
        // Not a device: a file on a filesystem, the end of the device, a mapper node.
        (
            "dd if=/dev/zero of=/mnt/big bs=1M\ndd: error writing '/mnt/big': Input/output error\n\
                 9+0 records in\n8+0 records out\n",
            None,
        ),
        (
            "dd if=/dev/zero of=/dev/sdc bs=1M\ndd: error writing '/dev/sdc': No space left on device\n\
                 9+0 records in\n8+0 records out\n",
            None,
        ),
        (
            "dd: error reading '/dev/mapper/vg-root': Input/output error\n1+0 records in\n",
            None,
        ),
    ] {
        assert_eq!(dev(text).as_deref(), want, "{text}");
    }
}

#[test]
fn coreutils_5_summary_spelled_seconds() {
    // GNU coreutils 5.x printed BSD's sentence with "seconds"; the default block size
    // (512 bytes) and the rate come out as for BSD's "secs".
    for (t, bytes, rate) in [
        (
            "# dd if=/dev/zero of=/dev/sdb\n81+0 records in\n80+0 records out\n\
                 40960 bytes transferred in 416.846622 seconds (98 bytes/sec)\n",
            40_960u64,
            98.0,
        ),
        (
            "dd if=/dev/hda of=/dev/null bs=1M count=100\n100+0 records in\n\
                 100+0 records out\n104857600 bytes transferred in 2.500000 seconds \
                 (41943040 bytes/sec)\n",
            104_857_600,
            41_943_040.0,
        ),
    ] {
        let lines: Vec<&str> = t.lines().collect();
        assert!(is_summary(lines[3]), "{t}");
        let v = parse(t);
        assert_eq!(v.len(), 1, "{t}");
        assert_eq!(v[0].bytes, Some(bytes));
        let r = v[0].bytes_per_sec.expect("rate");
        assert!((r - rate).abs() / rate < 0.01, "{r} {rate}");
    }
    assert!(!is_summary("40960 bytes transferred in a while"));
}

#[test]
fn interrupted_run_with_markup_around_the_rate() {
    // openzfs/zfs#4592: ^C before the records line, the rate in Markdown bold with a
    // stray "#". The summary line is dd's by its bytes, "copied" and seconds.
    let t = "# dd if=./a of=/dev/null bs=1k\n^C2071+0 records in\n2070+0 records out\n\
                 2119680 bytes (2.1 MB) copied, 4.55032 s, **# 466 kB/s**\n";
    let lines: Vec<&str> = t.lines().collect();
    assert!(is_summary(lines[3]));
    let v = parse(t);
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].block_size_bytes, Some(1024));
    assert_eq!(v[0].bytes, Some(2_119_680));
    let r = v[0].bytes_per_sec.expect("rate from bytes and seconds");
    assert!((r - 2_119_680.0 / 4.55032).abs() < 1.0, "{r}");
    // Without the seconds a line is not dd's summary.
    assert!(!is_summary("2119680 bytes (2.1 MB) copied, soon"));
}

#[test]
fn busybox_time_dd_pairs() {
    // linuxkit/linuxkit PR 3441 (batch 11 of the reviewed corpus): BusyBox's dd prints
    // no byte count; `time` gives the elapsed time.
    let t = "/ # time dd if=/dev/zero of=output bs=1024 count=1048576\n\
                 1048576+0 records in\n1048576+0 records out\n\
                 real    0m 4.61s\nuser    0m 0.79s\nsys     0m 3.77s\n\
                 / # time dd if=/dev/zero of=output bs=1048576 count=1024\n\
                 1024+0 records in\n1024+0 records out\n\
                 real    0m 1.06s\nuser    0m 0.00s\nsys     0m 1.04s\n";
    let v = parse(t);
    assert_eq!(v.len(), 2);
    assert_eq!(v[0].block_size_bytes, Some(1024));
    assert_eq!(v[0].bytes, Some(1 << 30));
    assert_eq!(v[0].seconds, Some(4.61));
    let r = v[1].bytes_per_sec.expect("rate");
    assert!((r - 1_073_741_824.0 / 1.06).abs() < 1.0, "{r}");
    // bash's format, and a GNU summary that already gave the time is kept.
    let bash =
        "dd if=/dev/zero of=f bs=1M count=10\n10+0 records in\n10+0 records out\nreal\t0m2.000s\n";
    assert_eq!(parse(bash)[0].seconds, Some(2.0));
    let gnu = "dd if=/dev/zero of=f bs=1M count=10\n10+0 records in\n10+0 records out\n10485760 bytes (10 MB, 10 MiB) copied, 0.5 s, 21 MB/s\nreal\t0m2.000s\n";
    assert_eq!(parse(gnu)[0].seconds, Some(0.5));
}

#[test]
fn time_lines_give_wall_and_cpu_seconds() {
    // Batch 24's `time dd` of a file: GNU summary, then bash's real/user/sys.
    let text = "$ time dd if=/path/to/bigfile of=/dev/null bs=8k\n131072+0 records in\n131072+0 records out\n\
                    1073741824 bytes (1.1 GB, 1.0 GiB) copied, 0.278144 s, 3.9 GB/s\n\n\
                    real\t0m0.281s\nuser\t0m0.108s\nsys\t0m0.173s\n";
    let b = parse(text);
    assert_eq!(b.len(), 1);
    assert_eq!(b[0].time_real_s, Some(0.281));
    assert!(b[0].time_cpu_s.is_some_and(|c| (c - 0.281).abs() < 1e-9));
    // Without user and sys (a `time` cut short), no CPU time is claimed.
    let cut = "dd if=f of=/dev/null bs=8k\n131072+0 records in\n131072+0 records out\n\
                   1073741824 bytes (1.1 GB, 1.0 GiB) copied, 0.278144 s, 3.9 GB/s\nreal\t0m0.281s\n";
    let b = parse(cut);
    assert_eq!((b[0].time_real_s, b[0].time_cpu_s), (None, None));
}

#[test]
fn coreutils_6_spelled_seconds_and_time_after_a_blank_line() {
    // coreutils 6.x: "copied, S seconds, R MB/s".
    let old = "$ dd if=/dev/zero of=/var/tmp/x bs=1M count=512\n512+0 records in\n512+0 records out\n536870912 bytes (537 MB) copied, 8.5 seconds, 63.2 MB/s\n";
    let v = parse(old);
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].seconds, Some(8.5));
    assert!(is_summary(
        "536870912 bytes (537 MB) copied, 8.5 seconds, 63.2 MB/s"
    ));
    assert!(is_summary(
        "1048576 bytes (1.0 MB) copied, 1 second, 1.0 MB/s"
    ));
    assert!(!is_summary("1048576 bytes (1.0 MB) copied, 1 secondhand"));
    // `time dd` without a byte count, its real/user/sys after a blank line: one block.
    let text = "# time dd if=/dev/sdb of=/dev/null bs=4k count=262144\n262144+0 records in\n262144+0 records out\n\nreal    0m12.500s\nuser    0m0.100s\nsys     0m2.000s\n";
    let lines: Vec<&str> = text.lines().collect();
    let st = spec::BlockState::default();
    assert!(RECOGNISER.tolerance.0 >= 1);
    assert_eq!(
        (RECOGNISER.member)("real    0m12.500s", &st),
        spec::Member::Yes
    );
    let v = parse(&lines.join("\n"));
    let r = v[0].bytes_per_sec.expect("rate from time");
    assert!((r - 1_073_741_824.0 / 12.5).abs() < 1.0, "{r}");
}

#[test]
fn command_operands() {
    let v = parse("dd if=/dev/zero of=/tmp/foo bs=10M count=1000 conv=fsync oflag=direct");
    let b = v.first().cloned().unwrap_or_default();
    assert_eq!(b.block_size_bytes, Some(10 << 20));
    assert_eq!(b.input.as_deref(), Some("/dev/zero"));
    assert_eq!(b.output.as_deref(), Some("/tmp/foo"));
    assert!(b.flags.contains(&"conv=fsync".to_string()));
    assert!(b.flags.contains(&"oflag=direct".to_string()));
    let v = parse("$ dd if=/dev/ad8 of=/dev/null");
    assert_eq!(v.first().and_then(|b| b.block_size_bytes), Some(512));
}

#[test]
fn garbage() {
    assert!(parse("dd: \n+ records in\n1 bytes (copied").len() <= 2);
    assert!(parse("").is_empty());
}

/// coreutils' translated summaries and error lines (po/*.po): French, Spanish/Portuguese,
/// Russian, with decimal commas; an unknown word is still not a summary.
#[test]
fn translated_summaries_and_errors() {
    let one = |t: &str| parse(t).into_iter().next();
    let fr = "dd if=/dev/sda of=/dev/null bs=64k\n\
              dd: erreur de lecture dans '/dev/sda': Erreur d'entrée/sortie\n\
              169782+1 enregistrements lus\n169782+1 enregistrements écrits\n\
              11126841344 octets (11 GB, 10 GiB) copiés, 164,843 s, 67,5 MB/s\n";
    let b = one(fr).expect("french run");
    assert_eq!(b.bytes, Some(11126841344));
    assert!(b.bytes_per_sec.is_some_and(|r| (r - 67.5e6).abs() < 0.1e6));
    assert_eq!(failed_io_device(&b).as_deref(), Some("sda"));
    let es = "4294967296 bytes (4,3 GB, 4,0 GiB) copiados, 2,28909 s, 1,9 GB/s\n";
    assert!(
        one(es)
            .and_then(|b| b.bytes_per_sec)
            .is_some_and(|r| r > 1.8e9)
    );
    let ru = "dd: ошибка чтения '/dev/sdb': Ошибка ввода/вывода\n\
              10+0 записей получено\n10+0 записей отправлено\n\
              10485760 байт (10 MB, 10 MiB) скопировано, 0,5 s, 21 MB/s\n";
    let b = one(ru).expect("russian run");
    assert_eq!(failed_io_device(&b).as_deref(), Some("sdb"));
    // Near miss: a word no translation uses.
    assert!(
        one("4294967296 bytes (4,3 GB) moved, 2,28909 s, 1,9 GB/s\n")
            .is_none_or(|b| b.bytes_per_sec.is_none())
    );
}

/// Record lines as real runs printed them in Italian, Dutch, Brazilian Portuguese and
/// older Spanish ("de" before the direction), each with its summary.
#[test]
fn record_lines_of_other_translations() {
    let one = |t: &str| parse(t).into_iter().next();
    for (t, rin) in [
        (
            "1024+0 record dentro\n1024+0 record fuori\n\
             1073741824 byte (1,1 GB) copiati, 1,71588 s, 626 MB/s\n",
            "1024+0",
        ),
        (
            "500000+0 records in\n500000+0 records uit\n\
             4096000000 bytes (4,1 GB) gekopieerd, 20,196 seconden, 203 MB/s\n",
            "500000+0",
        ),
        (
            "31744+0 registros de entrada\n31744+0 registros de saída\n\
             16252928 bytes (16 MB, 16 MiB) copiados, 0,116377 s, 140 MB/s\n",
            "31744+0",
        ),
        (
            "10000+0 registros de entrada\n10000+0 registros de salida\n\
             10240000 bytes (10 MB) copiados, 2,24907 s, 4,6 MB/s\n",
            "10000+0",
        ),
    ] {
        let b = one(t).expect(t);
        assert_eq!(b.records_in.as_deref(), Some(rin), "{t}");
        assert_eq!(b.records_out.as_deref(), Some(rin), "{t}");
        assert!(b.bytes_per_sec.is_some(), "{t}");
    }
    // Near miss: "de" before a word that is no direction.
    assert!(
        one("10+0 registros de prueba\n")
            .is_none_or(|b| b.records_in.is_none() && b.records_out.is_none())
    );
}

#[test]
fn freebsd_rate_with_grouped_thousands() {
    let t = "1000+0 records in\n1000+0 records out\n1048576000 bytes transferred in 0.624000 secs (1,680,410,061 bytes/sec)\n";
    assert!(is_summary(
        "1048576000 bytes transferred in 0.624000 secs (1,680,410,061 bytes/sec)"
    ));
    let r = parse(t);
    assert_eq!(r.len(), 1);
    assert_eq!(
        r.first().and_then(|b| b.bytes_per_sec),
        Some(1_680_410_061.0)
    );
    // Near miss: a decimal rate is no BSD dd's (%.0f).
    assert!(!is_summary(
        "1048576000 bytes transferred in 0.6 secs (1,680.41 MB/sec)"
    ));
}

#[test]
fn a_lone_eio_on_a_file_is_left_to_app_file_error() {
    // dd's close or write of a file failing with EIO, no summary after it: no run to read.
    let file = [
        "dd: error writing '/srv/nfs/blob.bin': Input/output error",
        "",
    ];
    assert_eq!(start(&file), spec::Start::No);
    // On a device node, or with another errno, dd keeps the line to itself.
    let node = ["dd: error reading '/dev/sdd': Input/output error", ""];
    assert_eq!(start(&node), spec::Start::Stop);
    let full = [
        "dd: error writing '/srv/nfs/blob.bin': No space left on device",
        "",
    ];
    assert_eq!(start(&full), spec::Start::Stop);
}
