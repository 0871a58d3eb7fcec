//! What a machine's model or architecture string says about the storage ports built into its
//! system-on-chip. Single-board computers and other ARM (and RISC-V) boards wire SATA and
//! PCIe straight from the SoC, and those ports have fixed ceilings that no cable, slot or
//! firmware setting lifts: a link trained at such a port's ceiling is the board's design,
//! not a fault. The string is `SystemFacts::cpu_model`: on a live run /proc/cpuinfo's
//! "model name" ("ARMv7 Processor rev 10 (v7l)") or, on 64-bit ARM kernels, its "Model" line
//! (the board: "Raspberry Pi Compute Module 4 Rev 1.1"); in a paste the kernel's "Machine
//! model:" line, the architecture in smartctl's build string or `uname -a`
//! (facts::pasted::machine).
//!
//! References: Linux arch/arm/kernel/devtree.c and arch/arm64/kernel/setup.c print
//! "Machine model: %s" from the device tree's root `model` (device-tree machines only: a
//! PC's kernel never prints it); smartmontools utility.cpp format_version_info prints
//! "smartctl V DATE rREV [ARCH-linux-RELEASE]" from uname(2)'s machine field.

/// A PCIe root port built into a SoC, as its documentation states it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct SocPciePort {
    /// The SoC and the boards it is on.
    pub soc: &'static str,
    /// The port's highest speed, GT/s per lane.
    pub gts: f64,
    /// The port's lanes.
    pub width: u32,
    /// Where it is stated.
    pub source: &'static str,
}

/// The Broadcom BCM2711 of the Raspberry Pi 4, Pi 400 and Compute Module 4: one PCIe
/// controller, one lane at Gen 2. Raspberry Pi's CM4 datasheet ("PCIe Gen 2 x1"; the Pi 4
/// wires the same lane to its VL805 USB 3 controller), Linux
/// arch/arm/boot/dts/broadcom/bcm2711.dtsi (the one `pcie@7d500000`, compatible
/// "brcm,bcm2711-pcie", `linux,pci-domain = <0>`) and drivers/pci/controller/pcie-brcmstb.c.
pub(crate) const BCM2711_PCIE: SocPciePort = SocPciePort {
    soc: "Broadcom BCM2711 (Raspberry Pi 4 / Compute Module 4)",
    gts: 5.0,
    width: 1,
    source: "Raspberry Pi CM4 datasheet (datasheets.raspberrypi.com/cm4/cm4-datasheet.pdf): \
             PCIe Gen 2 x1; Linux arch/arm/boot/dts/broadcom/bcm2711.dtsi",
};

/// Whether the machine string names an ARM or RISC-V machine: an architecture name
/// (uname's machine field "armv7l", "armv6l", "aarch64", "arm64", "riscv64"; cpuinfo's
/// "ARMv7 Processor"), a device-tree machine (facts::pasted::machine marks the kernel's
/// "Machine model:" board so) or a Raspberry Pi.
pub(crate) fn is_soc_machine(model: &str) -> bool {
    let m = model.to_ascii_lowercase();
    m.contains("armv")
        || m.contains("aarch64")
        || m.contains("arm64")
        || m.contains("riscv")
        || m.contains(DEVICE_TREE)
        || m.contains("raspberry pi")
}

/// Whether the machine string names a Raspberry Pi with no PCIe lane a SATA controller
/// could sit on, so that any SATA drive on it hangs off a USB bridge: the Pi 1, 2, 3 and
/// Zero have no PCIe at all, and the Pi 4 and Pi 400 wire their one lane to the VL805 USB
/// controller (BCM2711_PCIE). A Pi of no stated model counts when it runs a 32-bit kernel
/// (armv6l/armv7l): the Pi 5 boots only 64-bit kernels (kernel_2712.img). Compute
/// Modules expose their PCIe lane and stay out.
pub(crate) fn sata_only_over_usb(model: &str) -> bool {
    let m = model.to_ascii_lowercase();
    let Some(rest) = m.split("raspberry pi").nth(1) else {
        return false;
    };
    let named = [" 1", " 2", " 3", " 4", " 400", " zero", " model"]
        .iter()
        .any(|n| rest.starts_with(n));
    let later = rest.starts_with(" 5") || rest.starts_with(" compute") || m.contains("bcm2712");
    !later && (named || m.contains("armv6") || m.contains("armv7"))
}

/// What facts::pasted::machine appends to a board name that came from the kernel's "Machine
/// model:" line with no architecture beside it (lower case, as [`is_soc_machine`] compares).
pub(crate) const DEVICE_TREE: &str = "device-tree machine";

/// The SoC PCIe port a device at PCI `address` sits on, when the machine string says which
/// SoC it is. A Raspberry Pi 4, Pi 400 or CM4 (or BCM2711 by name) has only the BCM2711's
/// port, in PCI domain 0000; a Raspberry Pi of no stated model with the device in domain
/// 0000 is one too, since the Raspberry Pi 5 registers its external connector and its RP1
/// as domains 0001 and 0002 (arch/arm64/boot/dts/broadcom/bcm2712.dtsi
/// `linux,pci-domain`) and the models before the Pi 4 have no PCIe. A device in another
/// domain, or a Pi 5, gets None.
pub(crate) fn pcie_port(model: &str, address: &str) -> Option<&'static SocPciePort> {
    let m = model.to_ascii_lowercase();
    let domain0 = match address.split(':').collect::<Vec<_>>().as_slice() {
        [_, _] => Some(true),
        [dom, _, _] => Some(dom.chars().all(|c| c == '0')),
        _ => None,
    };
    if domain0 == Some(false) {
        return None;
    }
    let named = m.contains("bcm2711")
        || m.contains("raspberry pi 4")
        || m.contains("raspberry pi 400")
        || m.contains("raspberry pi compute module 4");
    let later = m.contains("raspberry pi 5")
        || m.contains("raspberry pi compute module 5")
        || m.contains("bcm2712");
    let any_pi = m.contains("raspberry pi") && !later;
    (named || (any_pi && domain0 == Some(true))).then_some(&BCM2711_PCIE)
}

#[cfg(test)]
mod tests;
