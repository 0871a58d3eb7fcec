use super::*;

#[test]
fn kstat_rows_and_sysctl_lines() {
    let k = "6 1 0x01 91 4368 5266997922 97951858082072\nname                            type data\n\
                 c_min                           4    33554432\n\
                 c_max                           4    8367976448\n\
                 size                            4    1603939792\n";
    assert_eq!(
        parse(k),
        Arc {
            size: Some(1603939792),
            c_max: Some(8367976448)
        }
    );
    let s = "vfs.zfs.arc_min: 4294967296\nvfs.zfs.arc_max: 4294967296\n\
                 kstat.zfs.misc.arcstats.size: 46874821736\n";
    assert_eq!(
        parse(s),
        Arc {
            size: Some(46874821736),
            c_max: Some(4294967296)
        }
    );
    // arc_max 0 is "the default", not a ceiling of nothing.
    assert_eq!(parse("vfs.zfs.arc.max: 0\n").c_max, None);
    assert!(parse("garbage\nsize 4 notanumber\n").is_empty());
}

#[test]
fn sysctl_captures_one_by_one() {
    assert_eq!(
        parse_sysctl_value("vfs.zfs.arc_max: 4294967296", "vfs.zfs.arc_max"),
        Some(4294967296)
    );
    assert_eq!(parse_sysctl_value("1000", "x"), Some(1000));
    let a = from_sysctls(&[Some(5), None, Some(0), Some(4096)]);
    assert_eq!(a.c_max, Some(4096));
    assert_eq!(from_sysctls(&[None, Some(7), Some(9), None]).c_max, Some(7));
}

#[test]
fn module_versions() {
    assert_eq!(version("2.1.11-1\n"), Some((2, 1)));
    assert_eq!(version("2.3.0-1"), Some((2, 3)));
    assert_eq!(
        version("vfs.zfs.version.module: 2.1.9-FreeBSD_g92e0d9d18"),
        Some((2, 1))
    );
    assert_eq!(version("v2.2.0"), Some((2, 2)));
    assert_eq!(version("zfs"), None);
}
