//! Pure helpers over Linux device names and sysfs paths, shared by the probe (to decide
//! what to read next) and the facts (to read it back). Naming rules: block/partitions.c
//! (disk names ending in a digit get a "p" before the partition number), sysfs device
//! path layout per Documentation/ABI/testing/sysfs-devices and drivers/ata/libata-transport.c.

use crate::sources::mountinfo as mounts;

/// A device name safe to put in a path or a command argument: letters, digits and
/// `._-:+@` only, not "." or "..". Kernel block names and dm names normally fit.
pub fn valid_name(n: &str) -> bool {
    !n.is_empty()
        && n != "."
        && n != ".."
        && n.len() <= 128
        && n.chars()
            .all(|c| c.is_ascii_alphanumeric() || "._-:+@".contains(c))
}

/// Whether `p` is the kernel name of a partition of `disk` (sda1 of sda, nvme0n1p2 of
/// nvme0n1, loop0p1 of loop0).
pub fn is_partition_of(p: &str, disk: &str) -> bool {
    let Some(rest) = p.strip_prefix(disk) else {
        return false;
    };
    let digits = if disk.ends_with(|c: char| c.is_ascii_digit()) {
        match rest.strip_prefix('p') {
            Some(d) => d,
            None => return false,
        }
    } else {
        rest
    };
    !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit())
}

/// The whole disk (an entry of /sys/block) that `name` is or is a partition of.
pub fn owning_disk(name: &str, all: &[String]) -> Option<String> {
    if all.iter().any(|n| n == name) {
        return Some(name.to_string());
    }
    all.iter()
        .filter(|d| is_partition_of(name, d))
        .max_by_key(|d| d.len())
        .cloned()
}

/// Whether SMART applies: SCSI/SATA (sd), old IDE (hd) and NVMe namespaces only.
pub fn smart_applies(n: &str) -> bool {
    (n.starts_with("sd") || n.starts_with("hd") || n.starts_with("nvme")) && valid_name(n)
}

/// One component of a resolved sysfs device path, classified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SysPathPart {
    /// A PCI function, e.g. 0000:00:1f.2.
    Pci(String),
    /// hostN: a SCSI host (its number).
    ScsiHost(String),
    /// ataN: a libata port (print id N, as in /sys/class/ata_link/linkN).
    AtaPort(String),
    /// H:C:I:L: a SCSI device.
    ScsiDevice {
        host: String,
        channel: String,
        target: String,
        lun: String,
    },
    /// A USB interface, e.g. 2-1:1.0 (its driver is uas or usb-storage).
    UsbInterface(String),
    /// A USB device, e.g. 2-1 (its `speed` is the bus speed in Mb/s).
    UsbDevice(String),
    /// virtioN: a virtio device (driver virtio_blk or virtio_scsi).
    Virtio(String),
    Other(String),
}

fn all_hex(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_hexdigit())
}
fn all_digits(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_digit())
}

/// Classify one path component.
fn classify_component(c: &str) -> SysPathPart {
    // PCI: DDDD:BB:DD.F (domain:bus:device.function).
    let pci = {
        let p: Vec<&str> = c.split(':').collect();
        p.len() == 3
            && p[0].len() == 4
            && all_hex(p[0])
            && p[1].len() == 2
            && all_hex(p[1])
            && p[2]
                .split_once('.')
                .is_some_and(|(d, f)| d.len() == 2 && all_hex(d) && f.len() == 1 && all_hex(f))
    };
    if pci {
        return SysPathPart::Pci(c.to_string());
    }
    if let Some(n) = c.strip_prefix("host").filter(|n| all_digits(n)) {
        return SysPathPart::ScsiHost(n.to_string());
    }
    if let Some(n) = c.strip_prefix("ata").filter(|n| all_digits(n)) {
        return SysPathPart::AtaPort(n.to_string());
    }
    if let Some(n) = c.strip_prefix("virtio").filter(|n| all_digits(n)) {
        return SysPathPart::Virtio(n.to_string());
    }
    let hctl: Vec<&str> = c.split(':').collect();
    if hctl.len() == 4 && hctl.iter().all(|x| all_digits(x)) {
        return SysPathPart::ScsiDevice {
            host: hctl[0].to_string(),
            channel: hctl[1].to_string(),
            target: hctl[2].to_string(),
            lun: hctl[3].to_string(),
        };
    }
    // USB: BUS-PORT[.PORT...] for a device, plus :CONFIG.INTERFACE for an interface.
    let usb_dev = |s: &str| {
        s.split_once('-').is_some_and(|(bus, ports)| {
            all_digits(bus) && !ports.is_empty() && ports.split('.').all(all_digits)
        })
    };
    if let Some((dev, iface)) = c.split_once(':') {
        if usb_dev(dev)
            && iface
                .split_once('.')
                .is_some_and(|(a, b)| all_digits(a) && all_digits(b))
        {
            return SysPathPart::UsbInterface(c.to_string());
        }
    } else if usb_dev(c) {
        return SysPathPart::UsbDevice(c.to_string());
    }
    SysPathPart::Other(c.to_string())
}

/// Split a resolved path like /sys/devices/pci0000:00/0000:00:1f.2/ata1/host0/... into
/// (directory, classified component) pairs, outermost first.
pub fn split_sys_path(real: &str) -> Vec<(String, SysPathPart)> {
    let mut out = Vec::new();
    let mut dir = String::new();
    for c in real.split('/').filter(|c| !c.is_empty()) {
        dir.push('/');
        dir.push_str(c);
        out.push((dir.clone(), classify_component(c)));
    }
    out
}

/// The `MAJ:MIN` of the filesystem holding `path` (already canonical): the mount with the
/// longest mountpoint that is a path prefix of it.
pub fn mount_devno_for_path(mountinfo: &str, path: &str) -> Option<String> {
    mounts::parse_mountinfo(mountinfo)
        .into_iter()
        .filter(|m| {
            let mp = m.mountpoint.trim_end_matches('/');
            path == m.mountpoint
                || mp.is_empty()
                || path
                    .strip_prefix(mp)
                    .is_some_and(|rest| rest.starts_with('/'))
        })
        .max_by_key(|m| m.mountpoint.len())
        .map(|m| m.devno)
}

#[cfg(test)]
mod tests;
