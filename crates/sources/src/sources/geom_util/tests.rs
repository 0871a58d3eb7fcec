use super::*;

#[test]
fn helpers() {
    assert_eq!(unquote(">> > write cache yes"), "write cache yes");
    assert_eq!(leading_digits_u64(" 4096 # x"), Some(4096));
    assert_eq!(hex_u32("0x010601"), Some(0x010601));
    assert_eq!(split_unit("ada12"), Some(("ada", 12)));
    assert_eq!(split_unit("ada"), None);
    assert_eq!(sata_gbps_from_mbps(300.0), Some(3.0));
    assert_eq!(sata_gen_gbps("SATA revision 2.x"), Some(3.0));
    assert_eq!(sata_gen_gbps("ACS-2 ATA SATA 3.x"), Some(6.0));
    assert_eq!(sata_gen_gbps("Serial ATA II"), None);
}

#[test]
fn geom_list_collapsed_and_multiline_agree() {
    let multi = "Geom name: a.eli\nState: ACTIVE\nProviders:\n1. Name: a.eli\n   Mediasize: 10 (10B)\n   Mode: r1w1e1\nConsumers:\n1. Name: a\n   Stripeoffset: 512\n";
    let one = multi.replace('\n', "");
    for t in [multi, one.as_str()] {
        let r = parse_geom_list(t, &["State", "Mediasize", "Mode", "Stripeoffset"]);
        assert_eq!(r.len(), 1, "{t}");
        assert_eq!(r[0].get("State"), Some("ACTIVE"));
        assert_eq!(r[0].providers[0].name, "a.eli");
        assert_eq!(r[0].providers[0].u64("Mediasize"), Some(10));
        assert_eq!(r[0].consumers[0].name, "a");
        assert_eq!(r[0].consumers[0].u64("Stripeoffset"), Some(512));
    }
}
