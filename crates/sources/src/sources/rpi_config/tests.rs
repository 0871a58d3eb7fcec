use super::*;

#[test]
fn default_gen2_and_gen3_setting() {
    // geerlingguy/raspberry-pi-pcie-devices#664 (Crucial P3 Plus on a Pi 5): the
    // connector enabled, the generation left at its default.
    let c = parse("`dtparam=pciex1`\n").unwrap();
    assert_eq!((c.gen_set, c.gen_explicit, c.nvme_alias), (2, false, false));
    // The documentation's two lines, and the one-line comma form.
    let c = parse("[all]\ndtparam=pciex1\ndtparam=pciex1_gen=3\n").unwrap();
    assert_eq!((c.gen_set, c.gen_explicit), (3, true));
    let c = parse("dtparam=nvme,pciex1_gen=3  # NVMe HAT\n").unwrap();
    assert_eq!((c.gen_set, c.nvme_alias), (3, true));
}

#[test]
fn other_lines_and_disabled_connector_say_nothing() {
    assert_eq!(parse("dtparam=audio=on\ndtoverlay=vc4-kms-v3d\n"), None);
    assert_eq!(parse("dtparam=pciex1=off\n"), None);
    // An unknown generation is not taken for one.
    let c = parse("dtparam=pciex1\ndtparam=pciex1_gen=9\n").unwrap();
    assert_eq!((c.gen_set, c.gen_explicit), (2, false));
    assert!(is_config_line("arm_boost=1") && is_config_line("[pi5]"));
    assert!(!is_config_line("The drive reads at 400 MB/s = fine"));
    assert_eq!(starts(&["[pi5]", "dtparam=pciex1"]), spec::Start::Yes);
    assert_eq!(starts(&["[pi5]", "arm_boost=1"]), spec::Start::No);
}
