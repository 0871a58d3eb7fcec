//! Benchmarks on ZFS say what answered them: reads of a scratch file the ARC holds are
//! labelled "ARC (RAM)", the 4 KiB + fsync test on a dataset with sync=disabled "RAM
//! (sync=disabled)", and every result carries the dataset's primarycache, sync, logbias,
//! compression and dedup, its pool's log device and the ARC's size and ceiling. The
//! captures are real outputs (a Linux /proc/spl/kstat/zfs/arcstats, a FreeBSD 11.3 `sysctl
//! -a` excerpt, a FreeBSD 12 `zpool status` with an Optane SLOG: tests/fixtures/INDEX.md);
//! the `zfs get` rows are in the -H layout zfs-get(8) prints. The live capture and the cdm
//! wiring are tested in crates/sys (bench::zfs) on a real directory; here the results go
//! through a report and come back by `diskdoc replay`, text and JSON.

use std::path::Path;

use assert_cmd::Command;
use diskdoc_core::evidence::{Capture, EvidenceBundle, Origin, Platform, SourceKey};
use diskdoc_core::report::{Report, json};
use diskdoc_core::sources::zfs_bench::{self, ANSWERED_BY_ARC, ANSWERED_BY_NO_SYNC, ZfsBench};
use diskdoc_core::sources::{arcstats, zfs_get};
use diskdoc_sys::bench::{BenchResult, StopReason, TestName};

fn fixture(rel: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(rel);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

const PROPS: &str = "iron_bank/vm\tprimarycache\tall\niron_bank/vm\tsync\tdisabled\n\
                     iron_bank/vm\tlogbias\tlatency\niron_bank/vm\tcompression\tlz4\n\
                     iron_bank/vm\tdedup\toff\n";

/// What the benchmark captured on a FreeBSD box whose scratch directory is dataset
/// iron_bank/vm: the sysctls, `zfs get`, `zpool status`, as the live host records them.
fn captured() -> (EvidenceBundle, ZfsBench) {
    let mut b = EvidenceBundle::new(Platform::Freebsd, Origin::Hand);
    b.captured_at_unix = 1_796_024_580;
    let argv = zfs_bench::props_argv("iron_bank/vm").expect("a dataset name");
    b.insert(&SourceKey::Command(argv), Capture::ok(PROPS));
    let status =
        fixture("freebsd/zpool-status/fbsd12-raidz2-sas-nvd0-slog-spares-user-trimmed.txt");
    b.insert(
        &SourceKey::cmd(&["zpool", "status", "iron_bank"]),
        Capture::ok(&status),
    );
    let sysctls = fixture("bench-zfs/arcstats/forum73084-fbsd11.3-sysctl-arc-excerpt.txt");
    let arc = arcstats::parse(&sysctls);
    b.insert(
        &SourceKey::Sysctl("vfs.zfs.arc_max".into()),
        Capture::ok("4294967296"),
    );
    let z = ZfsBench {
        dataset: "iron_bank/vm".into(),
        props: zfs_bench::parse_props(PROPS, "iron_bank/vm"),
        slog: zfs_bench::has_slog(&status, "iron_bank"),
        arc,
        ..Default::default()
    };
    (b, z)
}

fn result(test: TestName, label: &str, bs: u64, z: &ZfsBench) -> BenchResult {
    let v = match test {
        TestName::CdmRead => z.read_verdict(1 << 30),
        _ => z.sync_verdict(),
    };
    let mut notes = vec![v.note];
    notes.push(z.summary());
    notes.extend(z.write_notes());
    BenchResult {
        test,
        target: "/vm (unnamed scratch file)".into(),
        disk: "da0".into(),
        label: label.into(),
        block_size_bytes: bs,
        queue_depth: 1,
        threads: 1,
        direct: true,
        answered_by: v.answered_by.map(str::to_string),
        bytes: 1 << 30,
        ios: (1 << 30) / bs,
        elapsed_ns: 500_000_000,
        bytes_per_sec: 2147483648.0,
        iops: 2147483648.0 / bs as f64,
        stop_reason: StopReason::Budget,
        notes,
        ..Default::default()
    }
}

/// A real `zfs get all` of the dataset a FreeBSD iozone benchmark ran on: the five
/// properties are read from the interactive table as from the -H rows.
#[test]
fn a_real_zfs_get_table_gives_the_five_properties() {
    let t = fixture("bench-zfs/zfs-get/tigerbsd-iozone-zroot-benchmark-zfs-get-all.txt");
    let p = zfs_bench::parse_props(&t, "zroot/benchmark");
    assert_eq!(
        (
            p.primarycache.as_deref(),
            p.sync.as_deref(),
            p.logbias.as_deref(),
            p.compression.as_deref(),
            p.dedup.as_deref()
        ),
        (
            Some("all"),
            Some("standard"),
            Some("latency"),
            Some("lz4"),
            Some("off")
        )
    );
    let z = ZfsBench {
        dataset: "zroot/benchmark".into(),
        props: p,
        ..Default::default()
    };
    // Its reads of a scratch file just written: the ARC's (ceiling unknown here).
    assert_eq!(z.read_verdict(1 << 30).answered_by, Some(ANSWERED_BY_ARC));
    assert!(z.write_notes()[0].contains("compression=lz4"));
}

#[test]
fn the_verdicts_follow_the_captures() {
    let (_, z) = captured();
    // The real FreeBSD SLOG pool, sync=disabled, a 4 GiB ARC ceiling from vfs.zfs.arc_max.
    assert_eq!(z.slog, Some(true));
    assert_eq!(z.arc.c_max, Some(4 << 30));
    let r = z.read_verdict(1 << 30);
    assert_eq!(r.answered_by, Some(ANSWERED_BY_ARC));
    assert!(r.note.contains("4.0 GiB"), "{}", r.note);
    // A scratch region larger than that ceiling is read from the disks.
    assert_eq!(z.read_verdict(8 << 30).answered_by, None);
    let s = z.sync_verdict();
    assert_eq!(s.answered_by, Some(ANSWERED_BY_NO_SYNC));
    // With sync=standard the same pool's fsync waits for the SLOG.
    let standard = ZfsBench {
        props: zfs_bench::parse_props(&PROPS.replace("disabled", "standard"), "iron_bank/vm"),
        ..z.clone()
    };
    let s = standard.sync_verdict();
    assert_eq!(s.answered_by, None);
    assert!(s.note.contains("separate log device (SLOG)"), "{}", s.note);
    // The `zfs get` capture is a registered source whose secrets (the pool) are known.
    assert!(
        zfs_get::property_secrets(PROPS)
            .iter()
            .any(|f| f.value == "iron_bank")
    );
}

#[test]
fn labelled_results_replay_with_their_label_and_reasons() {
    let (mut b, z) = captured();
    b.benchmarks = vec![
        result(TestName::CdmRead, "SEQ1M Q8T1", 1 << 20, &z),
        result(TestName::SyncWrite, "4k fsync", 4096, &z),
    ];
    let sys = diskdoc_core::facts::derive(&b);
    let findings = diskdoc_core::checks::run_all(&sys);
    let r = Report::new(b, sys, findings, vec!["diskdoc".into(), "bench".into()]);
    let dir = tempfile::tempdir().expect("tempdir");
    let p = dir.path().join("zfs-bench.json");
    std::fs::write(&p, json::render(&r.shareable(false))).expect("write");

    let out = Command::cargo_bin("diskdoc")
        .expect("binary")
        .args(["replay", "--no-redact", "--format", "text"])
        .arg(&p)
        .output()
        .expect("run");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("(ARC (RAM))"), "{text}");
    // The table cell wraps at 72 columns: "4k fsync (RAM" / "(sync=disabled))".
    assert!(text.contains("4k fsync (RAM"), "{text}");
    assert!(text.contains("labelled RAM (sync=disabled)"), "{text}");
    assert!(text.contains("labelled ARC (RAM)"), "{text}");
    assert!(
        text.contains("primarycache=all, sync=disabled, logbias=latency, compression=lz4,"),
        "{text}"
    );
    assert!(text.contains("zil_commit"), "{text}");

    let out = Command::cargo_bin("diskdoc")
        .expect("binary")
        .args(["replay", "--no-redact", "--format", "json"])
        .arg(&p)
        .output()
        .expect("run");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let benches = v["benchmarks"].as_array().expect("benchmarks");
    let by = |test: &str| {
        benches
            .iter()
            .find(|x| x["test"] == test)
            .map(|x| x["answered_by"].clone())
            .unwrap_or_else(|| panic!("no {test}: {benches:#?}"))
    };
    assert_eq!(by("cdm-read"), ANSWERED_BY_ARC);
    assert_eq!(by("sync-write"), ANSWERED_BY_NO_SYNC);
    // Redacted by default: the pool name is the owner's, and goes.
    let out = Command::cargo_bin("diskdoc")
        .expect("binary")
        .args(["replay", "--format", "text"])
        .arg(&p)
        .output()
        .expect("run");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains("iron_bank"), "{text}");
    assert!(text.contains("(ARC (RAM))"), "{text}");
}
