use super::*;

#[test]
fn sanitize_strips_escapes_and_non_ascii() {
    assert_eq!(sanitize("ST3\u{1b}[31mX\u{e9}\tY\0"), "ST3[31mX? Y");
}

#[test]
fn wrap_respects_width_and_hangs() {
    let t = "word ".repeat(40);
    let l = wrap(&t, "  Model  ", 9, 30);
    assert!(l.iter().all(|x| x.len() <= 30), "{l:?}");
    assert!(l[0].starts_with("  Model  word"));
    assert!(l[1].starts_with("         word"));
    let long = "x".repeat(100);
    let l = wrap(&long, "- ", 2, 20);
    assert!(l.iter().all(|x| x.len() <= 20), "{l:?}");
    assert_eq!(l.iter().map(|x| x.matches('x').count()).sum::<usize>(), 100);
}

/// The bench results table of a ZFS pool with sync=disabled, at the report's 72
/// columns and at 40: the label "RAM (sync=disabled)" and every figure stay whole on
/// one line (before, the label column shrank and wrapped "RAM" away from
/// "(sync=disabled)", and a figure away from its unit), every value is there once, and
/// no line is wider than the width.
#[test]
fn a_table_too_wide_for_its_width_is_stacked_with_whole_cells() {
    let h: Vec<String> = ["label", "bs", "qd", "MB/s", "IOPS", "p50", "p99", "+-95%"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let rows = vec![
        vec![
            "4 KiB fsync (RAM (sync=disabled))".to_string(),
            "4 KiB".into(),
            "qd1".into(),
            "812.4".into(),
            "198340".into(),
            "4.1 us".into(),
            "9.8 us".into(),
            "1.2% budget".into(),
        ],
        vec![
            "seq 1 MiB".to_string(),
            "1 MiB".into(),
            "qd8".into(),
            "431.0".into(),
            "411".into(),
            "-".into(),
            "-".into(),
            "".into(),
        ],
    ];
    for width in [72, 40] {
        let t = table(&h, &rows, 2, width);
        assert!(t.iter().all(|l| l.len() <= width), "{width}: {t:#?}");
        let all = t.join("\n");
        assert!(
            t.iter()
                .any(|l| l.contains("4 KiB fsync (RAM (sync=disabled))")),
            "{width}: {all}"
        );
        for whole in [
            "bs: 4 KiB",
            "p50: 4.1 us",
            "+-95%: 1.2% budget",
            "MB/s: 431.0",
        ] {
            assert!(
                t.iter().any(|l| l.contains(whole)),
                "{width}: {whole}: {all}"
            );
        }
        assert_eq!(all.matches("198340").count(), 1, "{all}");
        // The empty cell is left out, and each row starts a block at the indent.
        assert!(!all.contains("+-95%: ,") && !all.ends_with(": "), "{all}");
        assert!(t[0].starts_with("  4 KiB") && t.iter().any(|l| l == "  seq 1 MiB"));
    }
    // A table that fits is a table.
    let t = table(&h[..3], &[rows[1][..3].to_vec()], 2, 72);
    assert_eq!(t[0], "  label      bs     qd");
}

#[test]
fn finish_escapes_quote_and_mbox_lines() {
    let s = finish(vec![">x".into(), "From here".into(), "y".repeat(80)]);
    let lines: Vec<&str> = s.lines().collect();
    assert_eq!(lines[0], " >x");
    assert_eq!(lines[1], " From here");
    assert!(lines.iter().all(|l| l.len() <= WIDTH));
}

#[test]
fn table_fits() {
    let h: Vec<String> = ["a", "b"].iter().map(|s| s.to_string()).collect();
    let rows = vec![vec!["x".repeat(50), "y".repeat(50)]];
    let t = table(&h, &rows, 2, 72);
    assert!(t.iter().all(|l| l.len() <= 72), "{t:?}");
    // Cells wrap rather than losing text.
    assert_eq!(t.iter().map(|l| l.matches('y').count()).sum::<usize>(), 50);
    assert_eq!(t.iter().map(|l| l.matches('x').count()).sum::<usize>(), 50);
    // A free-text last column wraps under itself while it keeps 16 columns.
    let rows = vec![vec![
        "dd".to_string(),
        "dd if=/dev/zero of=/mnt/x ".repeat(3),
    ]];
    let t = table(&h, &rows, 2, 40);
    assert!(t.iter().all(|l| l.len() <= 40), "{t:?}");
    assert!(t[2].starts_with("  dd  dd if="), "{t:?}");
    let h: Vec<String> = ["label", "MB/s"].iter().map(|s| s.to_string()).collect();
    let rows = vec![vec![
        "buffered bs=4194304".to_string(),
        "1676.1".to_string(),
    ]];
    let t = table(&h, &rows, 50, 72);
    assert!(t.iter().all(|l| l.len() <= 72), "{t:?}");
    assert!(t.iter().any(|l| l.contains("bs=4194304")), "{t:?}");
}
