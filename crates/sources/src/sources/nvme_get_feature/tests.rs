use super::*;

#[test]
fn apst_enabled_with_its_table() {
    let t = "get-feature:0xc (Autonomous Power State Transition), Current value:0x000001\n\
                 \tAutonomous Power State Transition Enable (APSTE): Enabled\n\
                 \tAuto PST Entries\t.................\n\tEntry[ 0]   \n\t.................\n\
                 \tIdle Time Prior to Transition (ITPT): 275 ms\n\
                 \tIdle Transition Power State   (ITPS): 3\n\t.................\n\
                 \tEntry[ 3]   \n\t.................\n\
                 \tIdle Time Prior to Transition (ITPT): 1200 ms\n\
                 \tIdle Transition Power State   (ITPS): 4\n\
                 \tEntry[ 4]   \n\tIdle Time Prior to Transition (ITPT): 0 ms\n\
                 \tIdle Transition Power State   (ITPS): 0\n";
    let v = parse(t);
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].fid, 0x0c);
    assert_eq!(v[0].kind, "Current");
    assert_eq!(v[0].value, 1);
    assert_eq!(v[0].apst_enabled, Some(true));
    assert_eq!(
        v[0].apst_entries,
        vec![
            ApstEntry {
                index: 0,
                idle_ms: 275,
                power_state: 3
            },
            ApstEntry {
                index: 3,
                idle_ms: 1200,
                power_state: 4
            }
        ]
    );
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(start_of(&lines), spec::Start::Yes);
    // A feature without -H, and garbage.
    let v = parse("get-feature:0x02 (Power Management), Saved value:0x00000000\n");
    assert_eq!((v[0].fid, v[0].apst_enabled), (2, None));
    assert!(parse("get-feature:zz (x), Current value:0x1\nget-feature:\n").is_empty());
}

fn start_of(lines: &[&str]) -> spec::Start {
    (RECOGNISER.starts[0].1)(lines)
}
