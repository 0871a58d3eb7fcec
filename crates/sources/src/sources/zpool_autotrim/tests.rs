use super::*;

#[test]
fn both_shapes() {
    let h = parse("zroot\tautotrim\toff\ntank\tautotrim\ton\n");
    assert_eq!(
        h.iter()
            .map(|r| (r.pool.as_str(), r.value.as_str()))
            .collect::<Vec<_>>(),
        [("zroot", "off"), ("tank", "on")]
    );
    // helloSystem/ISO#412 (FreeBSD).
    let t = parse("NAME   PROPERTY  VALUE     SOURCE\nzroot  autotrim  off       default\n");
    assert_eq!(t.len(), 1);
    assert_eq!((t[0].pool.as_str(), t[0].value.as_str()), ("zroot", "off"));
    // Other properties, an error line and a bare header are no rows.
    assert!(
            parse("zroot  ashift  12  local\nbad property list: invalid property 'autotrim'\nNAME PROPERTY VALUE SOURCE\n")
                .is_empty()
        );
}

#[test]
fn starts_on_header_with_row_or_on_a_row() {
    let l = [
        "NAME   PROPERTY  VALUE     SOURCE",
        "zroot  autotrim  on  local",
    ];
    assert_eq!(starts(&l), Start::Yes);
    assert_eq!(
        starts(&[
            "NAME    PROPERTY  VALUE   SOURCE",
            "root-0  ashift    0       -"
        ]),
        Start::No
    );
    assert_eq!(starts(&["tank\tautotrim\toff"]), Start::Yes);
    assert_eq!(starts(&["autotrim is off on my pool"]), Start::No);
}
