use super::*;

#[test]
fn what_a_poster_typed_over_a_serial_is_no_secret() {
    let mut r = Redactor::new();
    for typed in ["REDACTED", "<removed>", "[hidden]", "xxxxxxxx", "**SNIP**"] {
        assert_eq!(r.add_trusted(Kind::Serial, typed), None, "{typed}");
    }
    // diskdoc's own word must then pass the final check.
    assert!(r.verify("\"redacted\": true").is_ok());
    // A real serial is still collected and still caught.
    let tok = r.add_trusted(Kind::Serial, "WD-WCC4N1234567");
    assert!(tok.is_some());
    assert!(r.verify("serial WD-WCC4N1234567").is_err());
}
