use super::*;

#[test]
fn the_device_is_the_last_disk_like_argument() {
    assert_eq!(device_in_args("-a /dev/sda").as_deref(), Some("sda"));
    // of=/dev/null names no disk; bs=1m is an option.
    assert_eq!(
        device_in_args("if=/dev/ada0 of=/dev/null bs=1m").as_deref(),
        Some("ada0")
    );
    assert_eq!(device_in_args("identify ada1 -v").as_deref(), Some("ada1"));
    assert_eq!(device_in_args("status tank"), None);
    assert_eq!(device_in_args("-l 5"), None);
}

#[test]
fn every_tool_is_its_spec() {
    for t in Tool::all() {
        assert_eq!(Tool::from_id(t.id()), Some(t), "{}", t.id());
    }
    // The live-only specs are no tools: nothing pastes kern.geom.confxml.
    assert_eq!(Tool::from_id(sources::confxml::SPEC.id), None);
    assert!(Tool::all().any(|t| t.is(&sources::smartctl::SPEC)));
}

#[test]
fn tools_compare_by_spec_and_sort_in_registry_order() {
    let smart = Tool::of(&sources::smartctl::SPEC);
    let json = Tool::of(&sources::smartctl::JSON_SPEC);
    assert_eq!(
        smart,
        Tool::from_id("smartctl").expect("smartctl is a tool")
    );
    assert_ne!(smart, json);
    assert!(smart.is_any(&[&sources::smartctl::JSON_SPEC, &sources::smartctl::SPEC]));
    assert!(!smart.is_any(&[&sources::smartctl::JSON_SPEC]));
    let mut v: Vec<Tool> = Tool::all().collect();
    v.reverse();
    v.sort();
    assert_eq!(v, Tool::all().collect::<Vec<_>>());
    // The registry's first spec sorts first.
    assert!(Tool::of(&sources::camcontrol_identify::SPEC) < smart);
}

#[test]
fn tools_serialise_as_their_ids_and_the_schema_lists_them() {
    let t = Tool::of(&sources::fdisk::SPEC);
    assert_eq!(
        serde_json::to_string(&t).expect("a string"),
        format!("\"{}\"", sources::fdisk::SPEC.id)
    );
    let schema = serde_json::to_value(schemars::schema_for!(Tool)).expect("json");
    let ids: Vec<&str> = schema["enum"]
        .as_array()
        .expect("an enum of ids")
        .iter()
        .filter_map(|v| v.as_str())
        .collect();
    assert_eq!(ids, Tool::all().map(Tool::id).collect::<Vec<_>>());
    assert!(ids.contains(&"fdisk-l"), "{ids:?}");
}

#[test]
fn utf16_with_and_without_a_bom_decodes_and_utf8_does_not() {
    let text = "smartctl 7.3\r\n=== START ===\r\n";
    let le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
    let be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
    let with_bom = [&[0xff, 0xfe][..], &le].concat();
    assert_eq!(
        decode_utf16(&with_bom),
        Some((text.to_string(), "UTF-16LE"))
    );
    assert_eq!(decode_utf16(&le), Some((text.to_string(), "UTF-16LE")));
    assert_eq!(decode_utf16(&be), Some((text.to_string(), "UTF-16BE")));
    assert_eq!(decode_utf16(text.as_bytes()), None);
    assert_eq!(decode_utf16(b""), None);
    // Binary with scattered NULs is not UTF-16.
    let bin: Vec<u8> = (0..4096u32).map(|i| (i % 7) as u8).collect();
    assert_eq!(decode_utf16(&bin), None);
    // An odd trailing byte is dropped, not a panic.
    let mut odd = with_bom.clone();
    odd.push(b'x');
    assert_eq!(decode_utf16(&odd).map(|d| d.1), Some("UTF-16LE"));
}
