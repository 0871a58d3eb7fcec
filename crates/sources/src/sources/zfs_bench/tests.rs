use super::*;

fn bench(props: &str, slog: Option<bool>, c_max: Option<u64>) -> ZfsBench {
    ZfsBench {
        dataset: "tank/home".into(),
        props: parse_props(props, "tank/home"),
        slog,
        arc: arcstats::Arc {
            size: Some(1 << 30),
            c_max,
        },
        ..Default::default()
    }
}

const ALL: &str = "tank/home\tprimarycache\tall\ntank/home\tsync\tstandard\n\
                       tank/home\tlogbias\tlatency\ntank/home\tcompression\tlz4\n\
                       tank/home\tdedup\toff\n";

#[test]
fn argv_and_names() {
    // `direct` is asked alone (an older zfs get refuses the whole list for it).
    for (argv, props) in [
        (props_argv as fn(&str) -> Option<Vec<String>>, PROPS),
        (direct_argv, DIRECT_PROP),
    ] {
        let argv = argv("tank/home").unwrap().join(" ");
        assert_eq!(
            argv,
            format!("zfs get -H -p -o name,property,value {props} tank/home")
        );
        assert!(SPEC.captures(&format!("cmd:{argv}")), "{argv}");
    }
    assert!(SPEC.captures("cmd:zpool status zroot"));
    for bad in ["-o", "tank@snap", "", "../x", "tank//x"] {
        assert!(props_argv(bad).is_none(), "{bad}");
    }
    assert!(status_argv("tank/home").is_none());
    assert_eq!(pool_of("tank/home/x"), "tank");
}

/// zfsprops(7) `direct`: standard (the default) and always let O_DIRECT reads bypass
/// the ARC, disabled makes the ARC answer them as before 2.3; a dataset that has the
/// property runs 2.3 or later even when the version was not read.
#[test]
fn the_direct_property_decides_whether_o_direct_reads_bypass_the_arc() {
    let with = |direct: &str, version: Option<(u32, u32)>| {
        let rows = format!("{ALL}tank/home\tdirect\t{direct}\n");
        let mut b = bench(&rows, Some(false), Some(8 << 30));
        b.version = version;
        b
    };
    for (direct, version) in [
        ("standard", Some((2, 3))),
        ("always", Some((2, 3))),
        ("standard", None),
    ] {
        let b = with(direct, version);
        assert_eq!(b.props.direct.as_deref(), Some(direct));
        let v = b.read_verdict(1 << 30);
        assert_eq!(v.answered_by, None, "{direct}: {}", v.note);
        assert!(v.note.contains(&format!("direct={direct}")), "{}", v.note);
        assert!(
            b.summary().contains(&format!("direct={direct}")),
            "{}",
            b.summary()
        );
    }
    let off = with("disabled", Some((2, 3)));
    let v = off.read_verdict(1 << 30);
    assert_eq!(v.answered_by, Some(ANSWERED_BY_ARC), "{}", v.note);
    assert!(
        v.note.contains("direct=disabled") && v.note.contains("zfs set direct=standard tank/home"),
        "{}",
        v.note
    );
    // disabled with a region larger than the ARC: the disks, as without the property.
    assert_eq!(off.read_verdict(16 << 30).answered_by, None);
    // The property is read from the table form too.
    let table = "NAME       PROPERTY  VALUE     SOURCE\ntank/home  direct    always    local\n";
    assert_eq!(
        parse_props(table, "tank/home").direct.as_deref(),
        Some("always")
    );
    assert!(direct_argv("-o").is_none());
}

#[test]
fn table_and_tab_forms() {
    let p = parse_props(ALL, "tank/home");
    assert_eq!(p.primarycache.as_deref(), Some("all"));
    assert_eq!(p.compression.as_deref(), Some("lz4"));
    let table = "NAME       PROPERTY      VALUE     SOURCE\n\
                     tank/home  sync          disabled  local\n\
                     tank/home  logbias       throughput  local\n\
                     tank       sync          standard  default\n";
    let p = parse_props(table, "tank/home");
    assert_eq!(p.sync.as_deref(), Some("disabled"));
    assert_eq!(p.logbias.as_deref(), Some("throughput"));
    assert_eq!(p.primarycache, None);
}

#[test]
fn reads_smaller_than_the_arc_are_the_arcs() {
    let b = bench(ALL, Some(false), Some(8 << 30));
    let v = b.read_verdict(1 << 30);
    assert_eq!(v.answered_by, Some(ANSWERED_BY_ARC));
    assert!(
        v.note.contains("8.0 GiB") && v.note.contains("--device"),
        "{}",
        v.note
    );
    // A region past the ceiling: the disks.
    assert_eq!(b.read_verdict(16 << 30).answered_by, None);
    // primarycache=metadata keeps no file data.
    let m = bench(&ALL.replace("\tall", "\tmetadata"), None, Some(8 << 30));
    let v = m.read_verdict(1 << 30);
    assert_eq!(v.answered_by, None);
    assert!(v.note.contains("primarycache=metadata"));
    // OpenZFS 2.3 honours O_DIRECT.
    let mut d = bench(ALL, None, Some(8 << 30));
    d.version = Some((2, 3));
    assert_eq!(d.read_verdict(1 << 30).answered_by, None);
    d.version = Some((2, 2));
    assert_eq!(d.read_verdict(1 << 30).answered_by, Some(ANSWERED_BY_ARC));
    assert!(
        d.summary().contains("direct=none (before OpenZFS 2.3)"),
        "{}",
        d.summary()
    );
    // Unknown ceiling: still the ARC (its default is far above 1 GiB), said so.
    let u = bench(ALL, None, None);
    let v = u.read_verdict(1 << 30);
    assert_eq!(v.answered_by, Some(ANSWERED_BY_ARC));
    assert!(v.note.contains("ceiling is unknown"));
}

#[test]
fn fsync_on_slog_and_sync_disabled() {
    let v = bench(ALL, Some(true), None).sync_verdict();
    assert_eq!(v.answered_by, None);
    assert!(v.note.contains("SLOG"), "{}", v.note);
    let v = bench(&ALL.replace("latency", "throughput"), Some(true), None).sync_verdict();
    assert!(v.note.contains("logbias=throughput"), "{}", v.note);
    let v = bench(ALL, Some(false), None).sync_verdict();
    assert!(v.note.contains("no separate log device"));
    let v = bench(&ALL.replace("standard", "disabled"), Some(true), None).sync_verdict();
    assert_eq!(v.answered_by, Some(ANSWERED_BY_NO_SYNC));
    assert!(v.note.contains("zil_commit"));
    let v = bench(&ALL.replace("standard", "always"), Some(false), None).sync_verdict();
    assert!(v.note.starts_with("sync=always"));
}

#[test]
fn summary_and_write_notes() {
    let b = bench(ALL, Some(true), Some(8 << 30));
    let s = b.summary();
    assert!(
        s.contains("primarycache=all, sync=standard, logbias=latency, compression=lz4, dedup=off")
            && s.contains("SLOG")
            && s.contains("at most 8.0 GiB"),
        "{s}"
    );
    let w = b.write_notes();
    assert_eq!(w.len(), 1);
    assert!(w[0].contains("compression=lz4") && w[0].contains("incompressible"));
    let unknown = ZfsBench {
        dataset: "tank".into(),
        props_why: Some("permission denied".into()),
        ..Default::default()
    };
    assert!(
        unknown
            .summary()
            .contains("properties unknown (permission denied)")
    );
    assert!(unknown.write_notes().is_empty());
}

#[test]
fn slog_from_zpool_status() {
    let t = "  pool: tank\n state: ONLINE\nconfig:\n\n\tNAME        STATE     READ WRITE CKSUM\n\ttank        ONLINE       0     0     0\n\t  ada2p1    ONLINE       0     0     0\n\tlogs\n\t  nvd0p1    ONLINE       0     0     0\n\nerrors: No known data errors\n";
    assert_eq!(has_slog(t, "tank"), Some(true));
    assert_eq!(
        has_slog(
            &t.replace("\tlogs\n\t  nvd0p1    ONLINE       0     0     0\n", ""),
            "tank"
        ),
        Some(false)
    );
    assert_eq!(has_slog(t, "zroot"), None);
}
