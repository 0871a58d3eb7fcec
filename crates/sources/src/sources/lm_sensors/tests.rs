use super::*;

#[test]
fn nvme_chip_and_unreadable_subfeatures() {
    let t = "nvme-pci-0100\nAdapter: PCI adapter\n\
                 Composite:    +55.9°C  (low  =  -0.1°C, high = +74.8°C)\n\
                 \x20                      (crit = +79.8°C)\n\n\
                 k10temp-pci-00c3\nAdapter: PCI adapter\nTctl:         +58.2°C  \n";
    let r = parse(t);
    assert_eq!(r.chips.len(), 2);
    assert_eq!(r.chips[0].name, "nvme-pci-0100");
    assert_eq!(r.chips[0].temps, vec![("Composite".to_string(), 55.9)]);
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(start(&lines), spec::Start::Yes);
    let e = "  ERROR: Can't get value of subfeature temp2_min: I/O error\n\
                 \x20 ERROR: Can't get value of subfeature temp2_max: I/O error\n";
    let r = parse(e);
    assert_eq!(r.unreadable, vec!["temp2_min", "temp2_max"]);
    let lines: Vec<&str> = e.lines().collect();
    assert_eq!(start(&lines), spec::Start::Yes);
    // Near misses: a chip-like word with no Adapter line, one error line alone.
    assert_eq!(start(&["nvme-pci-0100", "is what I see"]), spec::Start::No);
    assert_eq!(start(&[lines[0], "and then nothing"]), spec::Start::No);
}
