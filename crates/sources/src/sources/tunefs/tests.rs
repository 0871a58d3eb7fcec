use super::{count, start, trim_enabled};
use crate::sources::spec::Start;

#[test]
fn trim_flag_lines() {
    // Built from tunefs.c's warnx format ("trim: (-t)" padded to column 52), NOT A
    // CAPTURE; tests/it/freebsd_parsers.rs reads the fixtures.
    let on = "tunefs: gjournal: (-J)                                     disabled\n\
                  tunefs: trim: (-t)                                         enabled\n";
    assert_eq!(trim_enabled(on), Some(true));
    assert_eq!(
        trim_enabled("tunefs: trim: (-t)                                         disabled"),
        Some(false)
    );
    assert_eq!(trim_enabled("tunefs: trim: (-t)   maybe"), None);
    assert_eq!(
        trim_enabled("tunefs: gjournal: (-J)   disabled tunefs: trim: (-t)   disabled"),
        Some(false)
    );
    assert_eq!(trim_enabled("tunefs: soft updates: (-n)   enabled"), None);
    assert_eq!(trim_enabled(""), None);
    // Pasted without the prefix, quoted in a mail reply.
    assert_eq!(
        trim_enabled("> trim: (-t)                                         disabled"),
        Some(false)
    );
}

#[test]
fn recognised_by_two_flag_lines() {
    let t = [
        "tunefs: soft update journaling: (-j)                       enabled",
        "tunefs: gjournal: (-J)                                     disabled",
    ];
    assert_eq!(start(&t), Start::Yes);
    assert_eq!(start(&t[..1]), Start::No);
    assert_eq!(
        start(&["see the manual: (-t) enables it", "and more"]),
        Start::No
    );
    assert_eq!(count(&t.join("\n")), 2);
}
