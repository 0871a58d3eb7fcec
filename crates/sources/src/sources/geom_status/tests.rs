use super::*;

#[test]
fn degraded_and_synchronising_mirrors() {
    // The FreeBSD Handbook's gmirror example (geom-mirror section), as printed.
    let t = "      Name    Status  Components\n\
                 mirror/gm0  DEGRADED  ada1 (ACTIVE)\n\
                 \x20                     ada0 (SYNCHRONIZING, 64%)\n";
    let r = parse(t);
    assert_eq!(r.logical.len(), 1);
    let m = &r.logical[0];
    assert!(m.degraded);
    assert_eq!(m.task, Some(Task::Recovery));
    assert_eq!(m.percent, Some(64.0));
    assert_eq!(
        start(&["      Name    Status  Components"]),
        spec::Start::Yes
    );
    let ok = parse("mirror/gm0  COMPLETE  ada0 (ACTIVE)\n            ada1 (ACTIVE)\n");
    assert!(!ok.logical[0].degraded && ok.logical[0].task.is_none());
    assert!(parse("the mirror is fine\n").logical.is_empty());
}
