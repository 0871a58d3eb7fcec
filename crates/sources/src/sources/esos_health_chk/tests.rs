use super::*;

/// Built from the script's two printf lines: a pass-through drive ESOS mistakes for failed,
/// and one the controller really failed.
#[test]
fn the_controller_state_decides() {
    let t = "** Warning! It appears a PERC physical drive (64:3) has failed on controller # 1!\n\
             ** Physical drive state: JBOD\n\
             ** Warning! It appears a PERC physical drive (64:7) has failed on controller # 1!\n\
             ** Physical drive state: Failed\n";
    let w = warnings(t);
    assert_eq!(w.len(), 2);
    assert_eq!(w[0].1, "JBOD");
    let r = parse(t);
    assert_eq!(r.physical.len(), 1, "{r:?}");
    assert!(r.physical[0].address.contains("64:7"));
    assert!(r.physical[0].failed);
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(RECOGNISER.starts[0].1(&lines), spec::Start::Yes);
}

#[test]
fn healthy_states_and_prose_are_not_failures() {
    for s in ["Online", "JBOD", "Unconfigured Good", "Hot Spare"] {
        let t = format!(
            "** Warning! It appears a PERC physical drive (32:1) has failed on controller # 0!\n\
             ** Physical drive state: {s}\n"
        );
        assert!(parse(&t).is_empty(), "{s}");
    }
    // A warning with no state line is the script's guess alone.
    assert!(
        parse(
            "** Warning! It appears a PERC physical drive (32:1) has failed on controller # 0!\n"
        )
        .is_empty()
    );
    assert!(!is_member(
        "It appears a PERC physical drive has failed, what now?"
    ));
}
