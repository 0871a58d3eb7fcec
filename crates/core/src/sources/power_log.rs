//! Kernel log lines that say a power-saving state failed (for power-management):
//! drivers/nvme/host/pci.c nvme_warn_reset ("controller is down; will reset: CSTS=...",
//! "Does your device have a faulty power saving mode enabled?", the hint to set
//! nvme_core.default_ps_max_latency_us=0 pcie_aspm=off), the PCI core's "Unable to change
//! power state from D3cold to D0", and AER reports ("PCIe Bus Error: severity=Corrected,
//! type=Physical Layer") on the PCI functions of a disk's path (drivers/pci/pcie/aer.c).

/// NVMe power-state failures of controller `ctrl` ("nvme0") or its PCI function `addrs`.
pub fn nvme_power_lines(log: &str, ctrl: &str, addrs: &[String]) -> Vec<String> {
    const PATTERNS: &[&str] = &[
        "faulty power saving mode",
        "controller is down; will reset",
        "default_ps_max_latency_us",
        "Unable to change power state from D3cold",
        "Disabling device after reset failure",
    ];
    let me = format!("nvme {ctrl}:");
    log.lines()
        .filter(|l| PATTERNS.iter().any(|p| l.contains(p)))
        .filter(|l| {
            l.contains(&me)
                || addrs
                    .iter()
                    .any(|a| !a.is_empty() && l.contains(a.as_str()))
        })
        .map(|l| l.trim().to_string())
        .collect()
}

/// AER error reports naming one of `addrs` (the device or a port above it).
pub fn aer_lines(log: &str, addrs: &[String]) -> Vec<String> {
    log.lines()
        // "AER: enabled with IRQ" at boot is not an error; reports say "error received",
        // "Corrected"/"Uncorrected" or "PCIe Bus Error".
        .filter(|l| {
            l.contains("PCIe Bus Error")
                || (l.contains("AER:")
                    && (l.contains("rror received")
                        || l.contains("Corrected")
                        || l.contains("Uncorrected")))
        })
        .filter(|l| {
            addrs
                .iter()
                .any(|a| !a.is_empty() && l.contains(a.as_str()))
        })
        .map(|l| l.trim().to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn picks_only_this_controller() {
        let log = "[1] nvme nvme0: controller is down; will reset: CSTS=0xffffffff\n\
                   [2] nvme nvme1: Does your device have a faulty power saving mode enabled?\n\
                   [3] pcieport 0000:00:1c.0: AER: Corrected error received: 0000:03:00.0\n\
                   [4] pcieport 0000:00:1d.0: AER: Corrected error received: 0000:05:00.0\n\
                   [5] pcieport 0000:00:1c.0: AER: enabled with IRQ 122\n";
        let a = vec!["0000:03:00.0".to_string()];
        assert_eq!(super::nvme_power_lines(log, "nvme0", &a).len(), 1);
        assert_eq!(super::aer_lines(log, &a).len(), 1);
    }
}
