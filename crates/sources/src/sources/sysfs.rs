//! The Linux kernel files the facts read, and the keys they are captured under: sysfs
//! (Documentation/ABI/testing/sysfs-block, sysfs-class-ata, sysfs-bus-pci,
//! sysfs-class-scsi_host) and procfs (proc(5): cpuinfo, cmdline, mountinfo, swaps, mdstat,
//! PID/io). A fact's `from` and a test's evidence name these keys through the functions
//! here, never by spelling "file:/sys/..." again.

use crate::evidence::SourceKey;

/// The key of a file read whole.
fn file(path: String) -> String {
    SourceKey::File(path).to_string()
}

/// `/sys/block/DISK/REL` (sysfs-block): `block("sda", "queue/rotational")`; an empty `rel`
/// is the disk's directory.
pub fn block(disk: &str, rel: &str) -> String {
    if rel.is_empty() {
        file(format!("/sys/block/{disk}"))
    } else {
        file(format!("/sys/block/{disk}/{rel}"))
    }
}

/// `/sys/class/ata_link/LINK/ATTR` (sysfs-class-ata): sata_spd, hw_sata_spd_limit,
/// sata_spd_limit.
pub fn ata_link(link: &str, attr: &str) -> String {
    file(format!("/sys/class/ata_link/{link}/{attr}"))
}

/// `/sys/class/ata_device/DEV/ATTR` (sysfs-class-ata): id (the IDENTIFY words).
pub fn ata_device(dev: &str, attr: &str) -> String {
    file(format!("/sys/class/ata_device/{dev}/{attr}"))
}

/// `/sys/dev/block/MAJ:MIN/ATTR` (sysfs-dev): a block device by its number (stat ...).
#[cfg(any(test, feature = "testutil"))]
pub fn dev_block(devno: &str, attr: &str) -> String {
    file(format!("/sys/dev/block/{devno}/{attr}"))
}

/// `/sys/bus/pci/devices/ADDR/ATTR` (sysfs-bus-pci): class, current_link_speed ...
#[cfg(any(test, feature = "testutil"))]
pub fn pci_device(addr: &str, attr: &str) -> String {
    file(format!("/sys/bus/pci/devices/{addr}/{attr}"))
}

/// `/sys/class/scsi_host/HOST/link_power_management_policy` (ALPM, libata-scsi.c).
pub fn lpm_policy(host: &str) -> String {
    file(format!(
        "/sys/class/scsi_host/{host}/link_power_management_policy"
    ))
}

/// `/proc/NAME` (proc(5)): cpuinfo, cmdline, swaps, mdstat, crypto, self/mountinfo,
/// PID/io ...
pub fn proc(name: &str) -> String {
    file(format!("/proc/{name}"))
}

#[cfg(test)]
mod tests;
