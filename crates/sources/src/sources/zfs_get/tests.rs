#[test]
fn tab_rows() {
    let r = super::parse(
        "zroot/usr/home\tcompression\tlz4\nzroot/usr/home\trecordsize\t128K\nbad line\n",
    );
    assert_eq!(r.len(), 2);
    assert_eq!(
        super::value(&r, "zroot/usr/home", "recordsize"),
        Some("128K")
    );
    assert_eq!(super::value(&r, "zroot", "compression"), None);
}

#[test]
fn argv_names_the_datasets_and_matches_the_template() {
    let argv = super::argv(&["zroot/home".to_string()]);
    assert_eq!(
        argv.join(" "),
        "zfs get -H -t filesystem,volume -o name,property,value \
             compression zroot/home"
    );
    assert!(
        super::SPEC
            .live
            .iter()
            .any(|l| l.matches(&format!("cmd:{}", argv.join(" "))))
    );
}
