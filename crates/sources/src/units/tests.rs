#[test]
fn wrap_words_is_first_fit_at_spaces_with_a_hanging_indent() {
    let w = wrap_words(
        "the write-cache-disabled check   reads hdparm -W output",
        "[warning] ",
        4,
        30,
        true,
    );
    assert_eq!(
        w,
        vec![
            "[warning] the",
            "    write-cache-disabled check",
            "    reads hdparm -W output",
        ]
    );
    // A word longer than a line: broken hard, or kept whole.
    let long = "x".repeat(25);
    let hard = wrap_words(&long, "", 2, 10, true);
    assert!(hard.iter().all(|l| l.chars().count() <= 10), "{hard:?}");
    assert_eq!(hard.concat().replace(' ', ""), long);
    assert_eq!(wrap_words(&long, "", 0, 10, false), vec![long.clone()]);
    // No words: the prefix alone, or nothing.
    assert_eq!(wrap_words("  ", "  Model ", 2, 72, true), vec!["  Model"]);
    assert!(wrap_words("", "", 0, 72, true).is_empty());
}
use super::*;

/// The wizard's "up to 232 MB/s" broke between the number and its unit; a figure keeps
/// its unit at every width, and a no-break space joins what it joins.
#[test]
fn a_number_and_its_unit_stay_on_one_line() {
    let text = "Expected after the fix: reads up to 232 MB/s (about 10 % faster), 38 MiB.";
    for width in 8..=80 {
        let lines = wrap_words(text, "", 0, width, false);
        for pair in lines.windows(2) {
            let (end, next) = (pair[0].as_str(), pair[1].as_str());
            let last = end.rsplit(' ').next().unwrap_or("");
            let first = next.split(' ').next().unwrap_or("");
            assert!(
                !(is_number_word(last) && is_unit_word(first)),
                "{width}: {lines:?}"
            );
        }
        assert_eq!(lines.join(" "), text, "{width}");
    }
    let at = wrap_words("reads up to 232 MB/s", "", 0, 16, true);
    assert_eq!(at, vec!["reads up to", "232 MB/s"]);
    // Not figures: a word before a word, or a unit after a word.
    assert_eq!(wrap_words("x MB/s", "", 0, 2, false), vec!["x", "MB/s"]);
    let joined = format!("MB/s:{NO_BREAK}12.9, IOPS:{NO_BREAK}300");
    assert_eq!(
        wrap_words(&joined, "", 0, 11, false),
        vec!["MB/s: 12.9,", "IOPS: 300"]
    );
    assert!(is_number_word("(232") && is_number_word("1,024") && !is_number_word("sda"));
    assert!(is_unit_word("MB/s),") && is_unit_word("%") && !is_unit_word("of"));
}

#[test]
fn units_read_naturally() {
    assert_eq!(mb_per_sec(183_029_796.0), "183.0 MB/s");
    assert_eq!(mb_per_sec(75_816_229.0), "75.82 MB/s");
    assert_eq!(mb_per_sec(f64::NAN), "n/a");
    assert_eq!(bytes_si(500_107_862_016), "500.1 GB");
    assert_eq!(bytes_iec(4096), "4 KiB");
    assert_eq!(bytes_iec(512), "512 B");
    assert_eq!(duration_ns(85_000), "85 us");
    assert_eq!(duration_ns(4_210_000), "4.21 ms");
    assert_eq!(link(3.0), "3.0 Gb/s (SATA 2.x, 300 MB/s)");
    assert_eq!(pct(delta_pct(100.0, 250.0)), "+150.0%");
    assert_eq!(pct(delta_pct(0.0, 250.0)), "n/a");
}
