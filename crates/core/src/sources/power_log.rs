//! Kernel log lines that say a power-saving state failed (for power-management):
//! drivers/nvme/host/pci.c nvme_warn_reset ("controller is down; will reset: CSTS=...",
//! "Does your device have a faulty power saving mode enabled?", the hint to set
//! nvme_core.default_ps_max_latency_us=0 pcie_aspm=off), drivers/nvme/host/core.c
//! nvme_wait_ready ("Device not ready; aborting reset, CSTS=0x1": the controller did not
//! leave or reach ready within CAP.TO while the driver reset it, the hang of a controller
//! stuck in a power state) and nvme_configure_apst ("failed to set APST feature (-19)": the
//! Set Features of Autonomous Power State Transitions failed, -19 ENODEV once the
//! controller has dropped off the bus), the PCI core's "Unable to change
//! power state from D3cold to D0", and AER reports ("PCIe Bus Error: severity=Corrected,
//! type=Physical Layer") on the PCI functions of a disk's path (drivers/pci/pcie/aer.c).

/// NVMe power-state failures of controller `ctrl` ("nvme0") or its PCI function `addrs`.
pub fn nvme_power_lines(log: &str, ctrl: &str, addrs: &[String]) -> Vec<String> {
    const PATTERNS: &[&str] = &[
        "faulty power saving mode",
        "controller is down; will reset",
        "Device not ready; aborting",
        "failed to set APST feature",
        "default_ps_max_latency_us",
        "Unable to change power state from D3cold",
        "Disabling device after reset failure",
    ];
    let me = format!("nvme {ctrl}:");
    // A controller the driver then gave up ("Removing after probe failure status: -19",
    // pci.c nvme_remove_dead_ctrl) did not come back from the reset at all: a dead drive,
    // and its "Device not ready" says nothing of a power state.
    let removed = log
        .lines()
        .any(|l| l.contains(&me) && l.contains("Removing after probe failure"));
    log.lines()
        .filter(|l| PATTERNS.iter().any(|p| l.contains(p)))
        .filter(|l| !(removed && l.contains("Device not ready; aborting")))
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
        // core.c nvme_wait_ready and nvme_configure_apst, with varied values.
        let apst = "[204263.471182] nvme nvme3: Device not ready; aborting reset, CSTS=0x1\n\
                   [9.1] nvme nvme3: Device not ready; aborting initialisation, CSTS=0x0\n\
                   [9.2] nvme nvme3: failed to set APST feature (-19)\n\
                   [9.3] nvme nvme2: failed to set APST feature (2)\n";
        assert_eq!(super::nvme_power_lines(apst, "nvme3", &[]).len(), 3);
        assert_eq!(super::nvme_power_lines(apst, "nvme2", &[]).len(), 1);
        assert!(super::nvme_power_lines(apst, "nvme0", &[]).is_empty());
        let dead = format!("{apst}[9.4] nvme nvme3: Removing after probe failure status: -19\n");
        assert_eq!(super::nvme_power_lines(&dead, "nvme3", &[]).len(), 1);
        assert_eq!(super::aer_lines(log, &a).len(), 1);
    }
}
