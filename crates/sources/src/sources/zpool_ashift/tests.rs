use super::*;

#[test]
fn vdev_props_skip_root_and_header() {
    let r = parse_vdev_props(
        "NAME    PROPERTY  VALUE   SOURCE\nroot-0\tashift\t0\nmirror-0\tashift\t12\nada0p3\tashift\t9\n",
    );
    assert_eq!(r, [("mirror-0".to_string(), 12), ("ada0p3".to_string(), 9)]);
}

#[test]
fn zdb_tops() {
    let t = "\nMOS Configuration:\n        version: 5000\n        name: 'tank'\n        vdev_tree:\n            type: 'root'\n            id: 0\n            children[0]:\n                type: 'mirror'\n                ashift: 12\n                children[0]:\n                    type: 'disk'\n                    path: '/dev/ada0p3'\n                children[1]:\n                    type: 'disk'\n                    path: '/dev/ada1p3'\n            children[1]:\n                type: 'disk'\n                ashift: 9\n                path: '/dev/gpt/slog'\n        features_for_read:\n            com.delphix:hole_birth\n";
    let v = parse_zdb(t);
    assert_eq!(v.len(), 2);
    assert_eq!(v[0].ashift, Some(12));
    assert_eq!(v[0].vdev_type.as_deref(), Some("mirror"));
    assert_eq!(v[0].paths, ["/dev/ada0p3", "/dev/ada1p3"]);
    assert_eq!(v[1].ashift, Some(9));
    assert_eq!(v[1].paths, ["/dev/gpt/slog"]);
}

/// `zdb | grep ashift` as pasted (indentation kept or lost, a markdown backtick after
/// the last value); a whole `zdb -C` dump is parse_zdb's, not this.
#[test]
fn grepped_ashift_lines() {
    assert_eq!(grepped_ashifts(" ashift: 12\n ashift: 9`\n"), [12, 9]);
    assert_eq!(
        grepped_ashifts("            ashift: 12\n            ashift: 12\n"),
        [12, 12]
    );
    assert!(grepped_ashifts("    vdev_tree:\n        ashift: 12\n").is_empty());
    assert!(grepped_ashifts("ashift is 12\nthe ashift: twelve\n").is_empty());
}

#[test]
fn zpool_create_ashift() {
    assert_eq!(
        created_with_ashift("# zpool create -o ashift=12 tank raidz3 /dev/disk/storage/v0d?"),
        Some(("tank".to_string(), 12))
    );
    assert_eq!(
        created_with_ashift(
            "zpool create -f -m /srv -o ashift=13 -O compression=lz4 data mirror sda sdb"
        ),
        Some(("data".to_string(), 13))
    );
    assert_eq!(
        created_with_ashift("# zpool create tank mirror sda sdb"),
        None
    );
    assert_eq!(
        created_with_ashift("# zpool add tank raidz3 /dev/disk/storage/v1d?"),
        None
    );
}
