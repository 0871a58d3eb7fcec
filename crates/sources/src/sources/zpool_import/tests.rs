use super::*;

/// openzfs/zfs#8972 (ZoL 0.7.9 importing a FreeBSD pool), libzfs_pool.c's lines.
const UNSUP: &str = "This pool uses the following feature(s) not supported by this system:\n\tcom.delphix:spacemap_v2 (Space maps representing large segments are more efficient.)\n\torg.zfsonlinux:project_quota (space/object accounting based on project ID.)\nAll unsupported features are only required for writing to the pool.\nThe pool can be imported using '-o readonly=on'.\ncannot import 'tank2': unsupported version or feature\n";

#[test]
fn the_refusal_its_features_and_its_pool() {
    let lines: Vec<&str> = UNSUP.lines().collect();
    assert!(START.is_match(lines[0]));
    assert!(lines.iter().all(|l| MEMBER.is_match(l)), "{UNSUP}");
    let rows = parse(UNSUP);
    assert_eq!(rows.len(), 6);
    assert_eq!(rows[5].0, "tank2");
    let s = secrets(UNSUP);
    assert_eq!(s.len(), 1);
    assert!(
        START.is_match("cannot import 'tank': pool was previously in use from another system.")
    );
    assert!(START.is_match("no pools available to import"));
}

#[test]
fn prose_about_importing_is_not_the_output() {
    for l in [
        "I cannot import the pool on Ubuntu",
        "cannot import tank: no such pool",
        "This pool uses a lot of memory",
        "  pool: tank",
    ] {
        assert!(!START.is_match(l), "{l}");
    }
    // A plain indented line is no feature line.
    assert!(!MEMBER.is_match("\tsome words here"));
}
