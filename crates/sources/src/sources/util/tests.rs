use super::*;

#[test]
fn a_member_cut_out_of_a_document_is_read_as_its_object() {
    let t = "> \"nvme_smart_health_information_log\": {\n>   \"critical_warning\": 0,\n\
                 >   \"temperature_sensors\": [\n>     39\n>   ]\n> },\n> \"other\": 1\n";
    let v = find_json(t).expect("object");
    assert_eq!(
        v["nvme_smart_health_information_log"]["temperature_sensors"][0],
        39
    );
    assert!(v.get("other").is_none());
    assert!(is_json_member_start("  \"blockdevices\": ["));
    assert!(!is_json_member_start("\"a b\": {"));
    assert!(!is_json_member_start("\"key\": 1,"));
    assert!(find_json("\"x\": {\n  broken\n").is_none());
}

#[test]
fn numbers_with_locale_grouping() {
    assert_eq!(
        leading_u64("1,000,204,886,016 bytes"),
        Some(1_000_204_886_016)
    );
    assert_eq!(
        leading_u64("12\u{202f}000\u{202f}138\u{202f}625\u{202f}024 bytes"),
        Some(12_000_138_625_024)
    );
    assert_eq!(
        leading_u64("7 681 501 126 656 bytes"),
        Some(7_681_501_126_656)
    );
    assert_eq!(leading_u64("35 (Min/Max 17/50)"), Some(35));
    assert_eq!(leading_u64("6813h+55m+51.637s"), Some(6813));
    assert_eq!(leading_u64("0 0 0"), Some(0));
    assert_eq!(leading_u64("x"), None);
    assert_eq!(leading_f64("9,2 MB/s"), Some(9.2));
    assert_eq!(leading_f64("365,951 s"), Some(365.951));
    assert_eq!(leading_f64("1,234.5"), Some(1234.5));
    assert_eq!(leading_f64("6.0 Gb/s"), Some(6.0));
}

#[test]
fn sizes() {
    assert_eq!(parse_size("10M"), Some(10 << 20));
    assert_eq!(parse_size("1m"), Some(1 << 20));
    assert_eq!(parse_size("128k"), Some(131072));
    assert_eq!(parse_size("1MB"), Some(1_000_000));
    assert_eq!(parse_size("2x512"), Some(1024));
    assert_eq!(parse_size("zz"), None);
    assert_eq!(parse_human_size("447.1G"), Some(480_069_969_510));
    assert_eq!(parse_human_size("600M"), Some(629_145_600));
}

#[test]
fn json_in_noise() {
    let v = find_json("# smartctl -j -a /dev/sda\n> {\n>   \"a\": 1\n> }\n> $ ");
    assert_eq!(v.and_then(|v| v.get("a").and_then(|a| a.as_u64())), Some(1));
    assert!(find_json("{ truncated").is_none());
}

#[test]
fn quotes() {
    assert_eq!(clean_line(">> > dd if=x\t"), "dd if=x");
    assert_eq!(clean_line(">   indented"), "  indented");
    assert_eq!(clean_line("a\u{a0}b"), "a b");
}

#[test]
fn raid_volume_products() {
    let volumes = [
        "LOGICAL VOLUME  ",
        "Logical Volume",
        "PERC H730P Mini",
        "ServeRAID M5015",
    ];
    // Near misses: a drive, other words that begin alike.
    let others = ["ST4000NM0033-9ZM", "LOGICAL VOLUME MANAGER", "PERCEPTION"];
    let got: Vec<bool> = volumes
        .iter()
        .chain(&others)
        .map(|p| raid_volume_product(p))
        .collect();
    assert_eq!(got, [true, true, true, true, false, false, false]);
}
