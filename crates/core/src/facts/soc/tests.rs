use super::*;

#[test]
fn arm_and_device_tree_machines_are_soc_machines() {
    assert!(is_soc_machine("armv7l"));
    assert!(is_soc_machine("ARMv7 Processor rev 10 (v7l)"));
    assert!(is_soc_machine("aarch64"));
    assert!(is_soc_machine("Raspberry Pi Compute Module 4 Rev 1.1"));
    assert!(is_soc_machine("Kosagi Novena (device-tree machine)"));
    // Near misses: a PC's CPU.
    assert!(!is_soc_machine("Intel(R) Core(TM) i7-8700 CPU @ 3.20GHz"));
    assert!(!is_soc_machine("x86_64"));
    assert!(!is_soc_machine("AMD Ryzen 9 5950X 16-Core Processor"));
}

#[test]
fn bcm2711_port_by_model_or_by_domain_zero_on_a_pi() {
    let cm4 = "Raspberry Pi Compute Module 4 Rev 1.0";
    assert_eq!(pcie_port(cm4, "01:00.0"), Some(&BCM2711_PCIE));
    assert_eq!(pcie_port(cm4, ""), Some(&BCM2711_PCIE));
    // A Raspberry Pi of no stated model: only in domain 0000.
    let pi = "Raspberry Pi (the benchmark script's banner)";
    assert_eq!(pcie_port(pi, "0000:01:00.0"), Some(&BCM2711_PCIE));
    assert_eq!(pcie_port(pi, "01:00.0"), Some(&BCM2711_PCIE));
    assert_eq!(pcie_port(pi, ""), None);
    // Near misses: a Pi 5's connector (domain 0001), a Pi 5 by name, another board.
    assert_eq!(pcie_port(pi, "0001:01:00.0"), None);
    assert_eq!(pcie_port("Raspberry Pi 5 Model B Rev 1.0", "01:00.0"), None);
    assert_eq!(pcie_port("aarch64", "01:00.0"), None);
    assert_eq!(
        pcie_port("Radxa ROCK 5B (device-tree machine)", "01:00.0"),
        None
    );
}

#[test]
fn raspberry_pis_that_reach_sata_only_over_usb() {
    assert!(sata_only_over_usb("Raspberry Pi 3 Model B Plus Rev 1.3"));
    assert!(sata_only_over_usb("Raspberry Pi 4 Model B Rev 1.4"));
    assert!(sata_only_over_usb(
        "Raspberry Pi (kernel 5.10.103-v7l+) (armv7l)"
    ));
    // Near misses: a Pi 5 or a Compute Module (PCIe for a SATA card), a 64-bit Pi of
    // no stated model, another board.
    assert!(!sata_only_over_usb("Raspberry Pi 5 Model B Rev 1.0"));
    assert!(!sata_only_over_usb("Raspberry Pi Compute Module 4 Rev 1.1"));
    assert!(!sata_only_over_usb(
        "Raspberry Pi (kernel 6.6.51+rpt-rpi-2712) (aarch64)"
    ));
    assert!(!sata_only_over_usb("armv7l"));
}
