use super::*;

#[test]
fn state_words_of_the_vendors() {
    assert_eq!(logical_state("Interim Recovery Mode"), (true, None::<Task>));
    assert_eq!(
        logical_state("Recovering, 55.73% complete"),
        (true, Some(Task::Recovery))
    );
    assert_eq!(logical_state("Optimal"), (false, None));
    assert_eq!(logical_state("OK"), (false, None));
    assert_eq!(logical_state("VERIFYING"), (false, Some(Task::Check)));
    assert_eq!(logical_state("Dgrd"), (true, None));
    assert_eq!(physical_state("Failed"), (true, false, false));
    assert_eq!(physical_state("Predictive Failure"), (false, true, false));
    assert_eq!(physical_state("Online, Spun Up"), (false, false, false));
    assert_eq!(physical_state("Rebuild"), (false, false, true));
    assert_eq!(physical_state("Unconfigured(bad)"), (true, false, false));
}

#[test]
fn percentages() {
    assert_eq!(percent("Recovering, 55.73% complete"), Some(55.73));
    assert_eq!(percent("Rebuild: In Progress 36%"), Some(36.0));
    assert_eq!(percent("REBUILDING 98%"), Some(98.0));
    assert_eq!(percent("999%"), None);
    assert_eq!(percent("no figure"), None);
}

#[test]
fn write_policies_and_cache_status() {
    for (p, wt) in [
        ("WriteThrough", Some(true)),
        ("Always WriteBack", Some(false)),
        ("RWTD", Some(true)),
        ("RaAWBD", Some(false)),
        ("NR,WT", Some(true)),
        ("Disabled (write-through)", Some(true)),
        (
            "Enabled (write-back) when protected by battery/ZMM",
            Some(false),
        ),
        ("Disabled", None),
    ] {
        assert_eq!(write_through(p), wt, "{p}");
    }
    assert!(cache_status_off("Temporarily Disabled") && cache_status_off("Permanently Disabled"));
    assert!(!cache_status_off("OK") && !cache_status_off("Not Configured"));
}
