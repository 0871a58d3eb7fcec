use super::*;

#[test]
fn access_counts_parse_as_geom_dump_prints_them() {
    assert_eq!(Access::parse("r1w1e0"), Some(Access { r: 1, w: 1, e: 0 }));
    assert_eq!(
        Access::parse(" r2w2e5 ").map(|a| a.to_string()).as_deref(),
        Some("r2w2e5")
    );
    assert!(Access::parse("r0w0e0").is_some_and(|a| a.idle()));
    for bad in [
        "",
        "r1w1",
        "r-1w0e0",
        "r1w1e99999999999",
        "rw1e1",
        "x1w1e1",
        "r1w1e1x",
    ] {
        assert_eq!(Access::parse(bad), None, "{bad}");
    }
    let m = parse(
        "<mesh><class id=\"c\"><name>VFS</name><geom id=\"g\"><class ref=\"c\"/>\
             <name>ffs.ada0p2</name><consumer id=\"k\"><geom ref=\"g\"/>\
             <provider ref=\"0xp\"/><mode>r1w1e1</mode></consumer></geom></class></mesh>",
    );
    assert_eq!(
        m.geoms[0].consumers,
        vec![Consumer {
            provider: "0xp".into(),
            mode: Some(Access { r: 1, w: 1, e: 1 })
        }]
    );
}
