use super::*;

#[test]
fn bare_values_and_paths() {
    // The value names of drivers/ata/libata-sata.c, NOT A CAPTURE; tests/it reads a
    // real post.
    let t = "max_performance\nmed_power_with_dipm\n";
    let v = parse(t);
    assert_eq!(v.len(), 2);
    assert_eq!(uniform(&v), None);
    let g = "/sys/class/scsi_host/host0/link_power_management_policy:min_power\n\
                 /sys/class/scsi_host/host1/link_power_management_policy:min_power\n";
    let v = parse(g);
    assert_eq!(v[1].host.as_deref(), Some("host1"));
    assert_eq!(uniform(&v), Some("min_power"));
    let lines: Vec<&str> = g.lines().collect();
    assert_eq!(start(&lines), spec::Start::Yes);
    // One word alone is no listing; other words are none at all.
    assert_eq!(start(&["min_power"]), spec::Start::No);
    assert!(parse("performance\npowersave\nfoo:min_power\n").is_empty());
}
