use super::*;

#[test]
fn each_policy_neutralises_escapes() {
    let evil = "WDC\u{1b}[2J \u{9b}31m\u{e9}\tX\n";
    assert_eq!(for_fact(evil), "WDC?[2J ?31m??X?");
    assert_eq!(for_mail(evil), "WDC[2J ?31m? X ");
    assert_eq!(for_terminal(evil, false), "WDC?[2J ?31m\u{e9}?X?");
    assert_eq!(for_terminal(evil, true), "WDC?[2J ?31m??X?");
    assert_eq!(for_paste(evil), "WDC [2J  31m\u{e9} X\n");
    assert_eq!(for_html(evil), "WDC[2J 31m\u{e9}\tX\n");
    for f in [for_fact, for_mail, for_paste, for_html] {
        assert!(!f(evil).contains('\u{1b}') && !f(evil).contains('\u{9b}'));
    }
}

#[test]
fn html_policy_escapes_markup_and_drops_reordering_marks() {
    assert_eq!(
        for_html("<script>alert('x & \"y\"')</script>"),
        "&lt;script&gt;alert(&#39;x &amp; &quot;y&quot;&#39;)&lt;/script&gt;"
    );
    assert_eq!(for_html("a\u{202e}b\u{2066}c\u{0}d"), "abcd");
    // Text that needs nothing stays as it is, non-ASCII included (the page is UTF-8).
    assert_eq!(for_html("Samsung SSD 870 \u{b5}"), "Samsung SSD 870 \u{b5}");
}
