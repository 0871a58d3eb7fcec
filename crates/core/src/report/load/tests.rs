use super::*;

#[test]
fn older_outputs_load_or_say_what_they_are() {
    // `bench --json` before schema 2.
    let old_bench = r#"{"interrupted": false, "findings": [], "benchmarks": [
            {"test": "seq-read", "label": "outer", "target": "/dev/loop0", "disk": "loop0",
             "block_size_bytes": 1048576, "queue_depth": 1, "direct": true,
             "offset_bytes": 0, "bytes": 1048576, "ios": 1, "elapsed_ns": 1000,
             "bytes_per_sec": 1.0e9, "iops": 1000.0, "latency": null, "spread_pct": null,
             "stop_reason": "stable", "error": null, "notes": []}]}"#;
    let l = parse("b.json", old_bench).expect("old bench output loads");
    assert_eq!(l.legacy_kind, Some(ReportKind::Bench));
    assert_eq!(l.bundle.benchmarks.len(), 1);
    let r = report_from_loaded(l, Vec::new());
    assert_eq!(r.kind, ReportKind::Bench);
    assert_eq!(r.exit_status, 0, "a result: not a total failure");
    // `check --json` and `replay --json` printed bare findings lists.
    let e = parse("c.json", "[]").unwrap_err().to_string();
    assert!(e.contains("older `diskdoc check --json`"), "{e}");
    // `scan --json` printed the facts.
    let e = parse(
        "s.json",
        r#"{"platform": "linux", "os_name": {}, "disks": []}"#,
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("`diskdoc scan --json`"), "{e}");
    // `explain --json` carried its bundle.
    let ex = r#"{"recognised": [], "bundle": {"schema_version": 1, "platform": "freebsd"}}"#;
    let l = parse("e.json", ex).expect("old explain output loads");
    assert_eq!(l.legacy_kind, Some(ReportKind::Explain));
}

#[test]
fn schema_1_reports_load_as_the_wizard_s() {
    let mut r = Report::from_bundle(
        EvidenceBundle::new(evidence::Platform::Linux, evidence::Origin::Live),
        Vec::new(),
    );
    r.kind = ReportKind::Wizard;
    let mut v = serde_json::to_value(Envelope::from_report(&r)).expect("json");
    let o = v.as_object_mut().expect("object");
    o.insert("schema_version".into(), Value::from(1));
    for k in ["kind", "scope"] {
        o.remove(k);
    }
    let l = parse("v1.json", &v.to_string()).expect("a schema 1 report loads");
    let env = l.envelope.clone().expect("report");
    assert_eq!(env.kind, ReportKind::Wizard);
    assert!(env.scope.is_empty());
    let r = report_from_loaded(l, Vec::new());
    assert_eq!(r.kind, ReportKind::Wizard);
}

/// A schema 3 report (a disk's topic facts in one `modern` object) loads into the
/// schema 4 layout with every value where it was.
#[test]
fn schema_3_modern_object_is_filed_by_topic() {
    use crate::facts::{DiskFacts, Fact};
    let mut r = Report::from_bundle(
        EvidenceBundle::new(evidence::Platform::Linux, evidence::Origin::Live),
        Vec::new(),
    );
    let mut d = DiskFacts::new("sda", "/dev/sda");
    d.zoned = Fact::known(
        "host-aware".to_string(),
        crate::sources::sysfs::block("sda", "queue/zoned"),
    );
    d.trim.discard_max_bytes = Fact::known(
        0,
        crate::sources::sysfs::block("sda", "queue/discard_max_bytes"),
    );
    d.power.apm_level = Fact::known(127, crate::sources::hdparm::APM_LIVE.key_for("sda"));
    d.temp_samples_c = vec![41, 44];
    r.facts.disks.push(d.clone());
    let mut v = serde_json::to_value(Envelope::from_report(&r)).expect("json");
    // Write it back the way schema 3 did.
    let o = v.as_object_mut().expect("object");
    o.insert("schema_version".into(), Value::from(3));
    let disk = o["system"]["disks"][0].as_object_mut().expect("disk");
    let mut modern = serde_json::Map::new();
    for k in ["pcie", "nvme_health", "zoned", "busy", "temp_samples_c"] {
        modern.insert(k.into(), disk.remove(k).expect(k));
    }
    for group in ["trim", "power"] {
        let Some(Value::Object(g)) = disk.remove(group) else {
            panic!("{group} is an object");
        };
        modern.extend(g);
    }
    disk.insert("modern".into(), Value::Object(modern));
    let text = serde_json::to_string(&v).expect("text");
    assert!(text.contains("\"modern\""));
    let l = parse("r3.json", &text).expect("a schema 3 report loads");
    let env = l.envelope.expect("envelope");
    assert_eq!(env.system.disks, vec![d]);
}

#[test]
fn sniffs_versions_from_broken_text() {
    assert_eq!(sniff_version("{\"schema_version\" : 7, \"x"), Some(7));
    assert_eq!(sniff_version("{"), None);
}

#[test]
fn classifies_broken_input() {
    let e = parse("r.json", "{\"schema_version\": 1, \"evidence\": {").unwrap_err();
    assert!(
        matches!(
            e,
            LoadError::Truncated {
                version: Some(1),
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("truncated"), "{e}");
    assert!(e.to_string().contains("schema version 1"), "{e}");
    // Nothing at all is an empty file, not a truncated one.
    for empty in ["", " \n", "\u{feff}"] {
        let e = parse("r.json", empty).unwrap_err();
        assert!(matches!(e, LoadError::Empty { .. }), "{e}");
        assert!(e.to_string().contains("r.json is empty"), "{e}");
    }
    let e = parse("r.json", "hello").unwrap_err();
    assert!(matches!(e, LoadError::Malformed { .. }), "{e}");
    let e = parse("r.json", "[1,2]").unwrap_err();
    assert!(e.to_string().contains("the top level is a list"), "{e}");
    let e = parse(
        "r.json",
        "{\"schema_version\": 9, \"diskdoc_version\": \"3.0.0\", \"evidence\": {}}",
    )
    .unwrap_err();
    let s = e.to_string();
    assert!(
        s.contains("report schema version 9") && s.contains("3.0.0"),
        "{s}"
    );
    let e = parse("b.json", "{\"schema_version\": 4, \"platform\": \"linux\"}").unwrap_err();
    assert!(e.to_string().contains("evidence schema version 4"), "{e}");
    let e = parse("x.json", "{\"a\": 1}").unwrap_err();
    assert!(e.to_string().contains("neither"), "{e}");
}
