use super::*;

#[test]
fn smart_refresh_of_a_sleeping_disk_and_failures() {
    let t = "Jan 16 16:38:04 host2 spindown[447]: suspending sdb\n\
                 Jan 16 16:38:09 host2 udisksd[721]: Error updating ATA smart for /org/freedesktop/UDisks2/drives/ST2000DM001_1CH164_Z1E2ABCD: Disk is in sleep mode and the nowakeup option was passed (udisks-error-quark, 13)\n\
                 Dec 24 14:31:06 ser5 udisksd[1402]: Error performing housekeeping for drive /org/freedesktop/UDisks2/drives/WDC_WD80EFPX_68C4ZN0_WD_RD2ABCDE: Error updating SMART data: Error sending ATA command CHECK POWER MODE: Unexpected sense data returned:\n\
                 0000: 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 ................\n\
                 (g-io-error-quark, 0)\n";
    let v = parse(t);
    assert_eq!(v.len(), 2, "{v:?}");
    assert_eq!(v[0], Event::AsleepNotWoken);
    assert!(matches!(&v[1], Event::Failed(m) if m.contains("CHECK POWER MODE")));
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(RECOGNISER.starts[0].1(&lines[1..]), spec::Start::Yes);
    assert_eq!(RECOGNISER.starts[0].1(&lines), spec::Start::No);
    assert!(is_continuation(lines[3]) && is_continuation(lines[4]));
    // The serial part of the drive object's name is a secret.
    let s = (SPEC.secrets.first().map(|s| match s {
        spec::Secret::Scan(f) => f(t),
        _ => Vec::new(),
    }))
    .unwrap_or_default();
    assert!(s.iter().any(|f| f.value == "Z1E2ABCD"), "{s:?}");
}

#[test]
fn other_daemons_and_prose_are_not_udisks() {
    // udisks2's own service start and a sentence naming udisks are not its messages.
    for l in [
        "Jan 16 16:38:04 host2 spindown[447]: suspending sdb",
        "Jan 16 16:38:04 host2 systemd[1]: Starting Disk Manager...",
        "udisks says: Error updating ATA smart, why?",
    ] {
        assert!(!is_line(l), "{l}");
    }
    assert!(parse("Error updating ATA smart for my disk").is_empty());
    // The head of a tagless message wrapped at 72 columns still starts the block.
    assert!(is_line("Error performing housekeeping for drive"));
    assert!(!is_line(
        "Error performing housekeeping, what does it mean?"
    ));
}
