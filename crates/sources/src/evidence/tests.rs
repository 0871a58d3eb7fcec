use super::*;

#[test]
fn bench_results_record_threads_and_old_reports_read_as_one_thread() {
    // A result as reports wrote it before `threads` existed (no such key).
    let old = r#"{"test":"cdm-read","target":"/dev/sdb","disk":"sdb","label":"SEQ1M Q8T1",
            "block_size_bytes":1048576,"queue_depth":8,"direct":true,"offset_bytes":0,
            "bytes":1,"ios":1,"elapsed_ns":1,"bytes_per_sec":1.0,"iops":1.0,"latency":null,
            "spread_pct":null,"stop_reason":"budget","error":null}"#;
    let r: BenchResult = serde_json::from_str(old).unwrap();
    assert_eq!(r.threads, 1);
    let t4 = BenchResult { threads: 4, ..r };
    let json = serde_json::to_string(&t4).unwrap();
    assert!(json.contains(r#""threads":4"#), "{json}");
    let back: BenchResult = serde_json::from_str(&json).unwrap();
    assert_eq!(back.threads, 4);
}

fn measured(bytes_per_sec: f64, iops: f64, spread: Option<f64>) -> BenchResult {
    BenchResult {
        test: TestName::SeqRead,
        target: "/dev/sdb".into(),
        disk: "sdb".into(),
        label: "outer".into(),
        bytes: 0,
        ios: 0,
        elapsed_ns: 0,
        bytes_per_sec,
        iops,
        spread_pct: spread,
        stop_reason: StopReason::Budget,
        ..Default::default()
    }
}

#[test]
fn non_finite_rates_become_zero_with_a_note() {
    let r = measured(f64::NAN, f64::INFINITY, Some(f64::NAN)).finite();
    assert_eq!((r.bytes_per_sec, r.iops, r.spread_pct), (0.0, 0.0, None));
    assert_eq!(r.notes.len(), 3, "{:?}", r.notes);
    assert!(
        r.notes[0].starts_with("bytes_per_sec was not a finite number (NaN")
            && r.notes[0].contains("0 bytes, 0 I/Os in 0 ns"),
        "{}",
        r.notes[0]
    );
    assert!(r.notes[1].contains("iops") && r.notes[1].contains("infinite"));
    assert!(r.notes[2].starts_with("spread_pct"));
    // Finite numbers pass untouched, without a note.
    let ok = measured(1.5e8, 36.0, Some(2.0));
    assert_eq!(ok.clone().finite(), ok);
    let neg = measured(f64::NEG_INFINITY, 1.0, None).finite();
    assert!(neg.notes[0].contains("minus infinite"), "{:?}", neg.notes);
}

#[test]
fn a_bundle_never_writes_null_rates_and_reads_old_nulls() {
    let mut b = EvidenceBundle::new(Platform::Linux, Origin::Live);
    b.benchmarks.push(measured(f64::NAN, f64::NAN, None));
    let json = b.to_json();
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let r = &v["benchmarks"][0];
    assert_eq!(r["bytes_per_sec"], serde_json::json!(0.0), "{json}");
    assert_eq!(r["iops"], serde_json::json!(0.0));
    assert!(r["notes"][0].as_str().unwrap().contains("bytes_per_sec"));
    let back = EvidenceBundle::from_json("t", &json).unwrap();
    assert_eq!(back.benchmarks[0].bytes_per_sec, 0.0);
    // Reading it again adds no second note.
    assert_eq!(back.benchmarks[0].notes.len(), 2);
    // What serde_json wrote for a NaN before this change: null. It loads, as 0 with
    // the note, instead of failing ("invalid type: null, expected f64").
    let mut v: serde_json::Value = serde_json::from_str(&json).unwrap();
    v["benchmarks"][0]["bytes_per_sec"] = serde_json::Value::Null;
    v["benchmarks"][0]["notes"] = serde_json::json!([]);
    let b = EvidenceBundle::from_json("t", &v.to_string()).unwrap();
    let r = &b.benchmarks[0];
    assert_eq!(r.bytes_per_sec, 0.0);
    assert_eq!(r.notes.len(), 1);
    assert!(r.notes[0].contains("null in the file"), "{:?}", r.notes);
}

#[test]
fn source_keys_round_trip_through_strings() {
    let keys = [
        SourceKey::cmd(&["camcontrol", "identify", "ada0"]),
        SourceKey::file("/sys/block/sda/size"),
        SourceKey::Dir("/sys/block".into()),
        SourceKey::RealPath("/sys/block/sda".into()),
        SourceKey::Link("/proc/self/ns/mnt".into()),
        SourceKey::Stat("/srv/data".into()),
        SourceKey::Sysctl("kern.disks".into()),
        SourceKey::Ioctl {
            device: "/dev/sda".into(),
            request: "BLKGETSIZE64".into(),
        },
        SourceKey::DeviceRead {
            device: "/dev/sda".into(),
            offset: 0,
            len: 17408,
        },
    ];
    for k in keys {
        assert_eq!(SourceKey::parse(&k.to_string()), Some(k.clone()), "{k}");
    }
    assert_eq!(SourceKey::parse("bogus:x"), None);
}

#[test]
fn sparse_hex_round_trips_and_plain_hex_still_decodes() {
    let mut b = vec![0u8; 5000];
    b[446] = 0x80;
    b[510] = 0x55;
    b[511] = 0xaa;
    b[4999] = 1;
    let s = hex_encode_sparse(&b);
    assert_eq!(s, "z446;80z63;55aaz4487;01");
    assert_eq!(hex_decode(&s), Some(b.clone()));
    assert_eq!(hex_decode(&hex_encode(&b)), Some(b));
    assert_eq!(hex_decode("00ff"), Some(vec![0, 255]));
    assert_eq!(hex_encode_sparse(&[0; 15]), "0".repeat(30));
    for bad in ["0", "zz;", "z12", "z99999999;", "0g"] {
        assert_eq!(hex_decode(bad), None, "{bad}");
    }
}

#[test]
fn vocabularies_are_the_same_strings_and_keep_unknown_ones() {
    for t in TestName::KNOWN {
        let json = serde_json::to_string(t).unwrap();
        assert_eq!(json, format!("\"{}\"", t.as_str()));
        assert_eq!(&serde_json::from_str::<TestName>(&json).unwrap(), t);
        assert!(
            !matches!(TestName::parse(t.as_str()), TestName::Other(_)),
            "{t}"
        );
    }
    for r in StopReason::KNOWN {
        assert_eq!(StopReason::parse(r.as_str()), *r);
    }
    assert_eq!(TestName::SeqRead.as_str(), "seq-read");
    assert_eq!(StopReason::Stable.as_str(), "stable");
    // A name from another version loads and is written back unchanged.
    let future: TestName = serde_json::from_str("\"zoned-append\"").unwrap();
    assert_eq!(future, TestName::Other("zoned-append".into()));
    assert_eq!(serde_json::to_string(&future).unwrap(), "\"zoned-append\"");
    assert!(TestName::Other("append-write".into()).is_write());
    assert!(TestName::SyncWrite.is_write() && !TestName::BsSweep.is_write());
    // The one-thread fallback keeps the string every version wrote.
    let r = StopReason::Budget.with_fallback("1 thread: no second engine");
    assert_eq!(r.as_str(), "budget (1 thread: no second engine)");
    assert_eq!(StopReason::parse(r.as_str()), r);
    // A whole result round-trips byte for byte.
    let text = r#"{"test":"cdm-read","target":"t","disk":"d","label":"l","block_size_bytes":1,"queue_depth":1,"threads":1,"direct":true,"offset_bytes":0,"bytes":1,"ios":1,"elapsed_ns":1,"bytes_per_sec":1.0,"iops":1.0,"latency":null,"spread_pct":null,"stop_reason":"size","error":null}"#;
    let b: BenchResult = serde_json::from_str(text).unwrap();
    assert_eq!(
        (b.test.clone(), b.stop_reason.clone()),
        (TestName::CdmRead, StopReason::Size)
    );
    assert_eq!(serde_json::to_string(&b).unwrap(), text);
}

#[test]
fn future_version_is_named() {
    let e = EvidenceBundle::from_json("b.json", r#"{"schema_version": 99, "platform":"linux"}"#)
        .unwrap_err();
    assert!(e.to_string().contains("version 99"), "{e}");
}

#[test]
fn failures_round_trip() {
    let mut b = EvidenceBundle::new(Platform::Linux, Origin::Hand);
    b.insert(
        &SourceKey::file("/dev/vda"),
        Capture::unavailable(Unavailable::PermissionDenied, "EACCES"),
    );
    let back = EvidenceBundle::from_json("t", &b.to_json()).unwrap();
    assert_eq!(back, b);
    assert!(back.why(&SourceKey::file("/dev/vda")).contains("root"));
}
