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

#[test]
fn a_host_typed_over_as_hostname_is_no_secret() {
    let mut r = Redactor::new();
    assert_eq!(r.add_trusted(Kind::Host, "hostname"), None);
    assert!(r.verify("\"hostname\": {").is_ok());
    // Near miss: a real host name is still caught.
    assert!(r.add_trusted(Kind::Host, "minotaur").is_some());
    assert!(r.verify("minotaur# smartctl -x").is_err());
}
