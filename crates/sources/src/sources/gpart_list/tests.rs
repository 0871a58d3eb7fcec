/// A real `gpart list` of an MBR USB stick (tests/fixtures/INDEX.md): its one slice
/// carries `attrib: active`.
#[test]
fn the_active_attribute_is_read() {
    let t = include_str!(
        "../../../../../tests/fixtures/freebsd/gpart-list/smartos-docs-mbr-da0-active-fat32.txt"
    );
    let g = super::parse(t);
    assert_eq!(g.len(), 1);
    let p = &g[0].providers[0];
    assert_eq!(p.name, "da0s1");
    assert_eq!(p.attribs, vec!["active".to_string()]);
    assert!(p.active());
    assert_eq!(p.start, Some(600));
    let other = include_str!(
        "../../../../../tests/fixtures/freebsd/gpart-list/fbsd13.0-gpt-freebsd-boot-plus-zfs-on-geli-laptop.txt"
    );
    assert!(
        super::parse(other)
            .iter()
            .flat_map(|g| &g.providers)
            .all(|p| !p.active())
    );
}
