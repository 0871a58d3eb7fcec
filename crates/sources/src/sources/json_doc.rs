//! The recogniser of a pasted JSON document, shared by the tools that print one
//! (smartctl -j, lsblk -J, fio --output-format=json): a block runs from an opening brace
//! to the bracket that balances it. Which tool's document it is, each JSON spec's
//! `Paste::owns` says from the keys (in registry order); smartctl's when none does.

use crate::sources::spec;

crate::rx!(JSON_START, r#"^\s*(\{|\[)\s*$|^\s*\{\s*""#);

/// Count brackets outside strings; the document is done when they balance.
fn update(t: &str, st: &mut spec::BlockState) {
    st.depth = st.depth.saturating_add(super::util::json_depth_change(t));
    if st.depth <= 0 {
        st.done = true;
    }
}

/// By the keys only: the JSON may be truncated or re-wrapped.
fn classify(text: &str, _: Option<&str>) -> &'static str {
    let head: String = text.chars().take(200_000).collect();
    super::SPECS
        .iter()
        .find(|s| {
            s.paste.as_ref().is_some_and(|p| {
                p.family.name == JSON.name && p.owns.is_some_and(|owns| owns(&head))
            })
        })
        // smartctl's JSON spec id, spelled: naming `smartctl::JSON_SPEC` here would make
        // a file import cycle (smartctl's spec uses this module's recogniser).
        .map_or("smartctl-json", |s| s.id)
}

/// A JSON document.
pub static JSON: spec::Recogniser = spec::Recogniser {
    name: "json",
    // A whole document, or one member of a document cut out of it (a forum post quoting the
    // "nvme_smart_health_information_log" object of smartctl -j), when the next line is a
    // member of it.
    starts: &[(30, |l| {
        let fragment = l
            .first()
            .is_some_and(|t| super::util::is_json_member_start(t))
            && l.get(1).is_some_and(|n| n.trim_start().starts_with('"'));
        spec::Start::from(fragment || l.first().is_some_and(|t| JSON_START.is_match(t)))
    })],
    member: |_, st| spec::Member::from(!st.done),
    update: Some(update),
    tolerance: (1, 0),
    whole: true,
    classify,
    ..spec::Recogniser::NONE
};
