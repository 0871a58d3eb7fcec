use super::*;

#[test]
fn bars_scale_to_the_largest_and_fit() {
    let b = [
        Bar {
            label: "outer".into(),
            value: 180.0,
            shown: "180.0".into(),
        },
        Bar {
            label: "inner".into(),
            value: 90.0,
            shown: "90.0".into(),
        },
        Bar {
            label: "dead".into(),
            value: 0.0,
            shown: "0.0".into(),
        },
    ];
    let lines = bars(&b, 4, 72);
    assert!(lines.iter().all(|l| l.len() <= 72), "{lines:?}");
    let hashes: Vec<usize> = lines.iter().map(|l| l.matches('#').count()).collect();
    assert_eq!(hashes[0], 40);
    assert_eq!(hashes[1], 20);
    assert_eq!(hashes[2], 0);
    assert!(lines[0].starts_with("    outer |#"), "{}", lines[0]);
    assert!(lines[1].ends_with(" 90.0"), "{}", lines[1]);
}

#[test]
fn nan_values_draw_nothing() {
    let b = [Bar {
        label: "x".into(),
        value: f64::NAN,
        shown: "n/a".into(),
    }];
    assert_eq!(
        bars(&b, 0, 72),
        vec!["x |".to_string() + &" ".repeat(40) + " n/a"]
    );
}
