//! The block devices a bundle says the machine has, whether or not each was probed: Linux
//! `dir:/sys/block` (sysfs-block ABI: one entry per block device), FreeBSD `kern.disks`
//! (sysctl(8); cd/pass devices filtered as the FreeBSD plan does). A `--device` scan
//! captures only the named device, but it always lists these, so a mistyped name can be
//! answered with the names that exist. Also the disk a partition or provider name is on
//! ([`whole_disk`]), for `--device` and for the names a paste uses.

use crate::evidence::{EvidenceBundle, Platform, SourceKey};

/// Device names the bundle lists for the machine, sorted; empty when it lists none.
pub fn listed(bundle: &EvidenceBundle) -> Vec<String> {
    let mut names: Vec<String> = match bundle.platform {
        Platform::Linux => crate::facts::linux::sysfs::entries(bundle, "/sys/block"),
        Platform::Freebsd => bundle
            .data(&SourceKey::Sysctl("kern.disks".into()))
            .map(|v| {
                crate::sources::sysctl::disk_names(crate::sources::sysctl::bare_value(
                    v,
                    "kern.disks",
                ))
            })
            .unwrap_or_default()
            .into_iter()
            .filter(|n| crate::plan::freebsd::is_examined_disk(n))
            .collect(),
        Platform::Unknown => Vec::new(),
    };
    // Natural order (loop2 before loop10): name prefix, then the unit number.
    crate::sort::sort_by_key(&mut names, |n| {
        let prefix = n.trim_end_matches(|c: char| c.is_ascii_digit());
        let unit = n.get(prefix.len()..).and_then(|u| u.parse::<u64>().ok());
        (prefix.to_string(), unit, n.clone())
    });
    names.dedup();
    names
}

/// The one-line usage error for a device name that is not on the machine: the problem,
/// the names that exist, and what to do.
pub fn unknown_device_message(asked: &str, listed: &[String]) -> String {
    if listed.is_empty() {
        format!(
            "no block device named {asked:?}, and no block devices could be listed here \
             (nothing under /sys/block or in kern.disks); run `diskdoc scan` without --device \
             to see what diskdoc can read"
        )
    } else {
        format!(
            "no block device named {asked:?}; block devices on this machine: {}. \
             Pass one of these to --device (a /dev path, a partition or a mounted path also works)",
            listed.join(", ")
        )
    }
}

/// Whether `name` is a whole disk of Linux's old IDE driver (drivers/ide, removed in 5.14):
/// ide-probe.c names the devices of its ten interfaces "hd" plus a letter, hda to hdt, for
/// parallel-ATA drives and for SATA drives behind a controller in legacy IDE emulation. Such
/// a device is an ATA disk unless it is an ATAPI one (a CD or DVD drive, usually hdc).
pub(crate) fn ide_driver_disk(name: &str) -> bool {
    let n = name.trim_start_matches("/dev/");
    n.strip_prefix("hd")
        .is_some_and(|l| l.len() == 1 && l.bytes().all(|b| (b'a'..=b't').contains(&b)))
}

/// ada0p2 -> ada0, ad4s1g.eli -> ad4, sda1 -> sda, nvme0n1p2 -> nvme0n1, da0s1a -> da0.
pub fn whole_disk(name: &str) -> String {
    let n = name.trim_end_matches(".eli");
    if let Some(p) = n.find("nvme")
        && p == 0
    {
        return match n.rfind('p') {
            Some(i)
                if i > 4
                    && n[i + 1..].chars().all(|c| c.is_ascii_digit())
                    && !n[i + 1..].is_empty() =>
            {
                n[..i].to_string()
            }
            _ => n.to_string(),
        };
    }
    let letters: String = n.chars().take_while(|c| c.is_ascii_alphabetic()).collect();
    // Xen's blkfront names its disks "xvd" plus letters like sd (xen-blkfront.c
    // xlbd_major_info, XENVBD_MAJOR 202): xvda, xvda1.
    if letters.starts_with("sd")
        || letters.starts_with("hd")
        || letters.starts_with("vd")
        || letters.starts_with("xvd")
    {
        return letters;
    }
    let rest = &n[letters.len()..];
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    if letters.is_empty() || digits.is_empty() {
        return String::new();
    }
    format!("{letters}{digits}")
}

#[cfg(test)]
mod tests;
