//! What looks like a secret and is not: placeholders people type over a value, common
//! words and names, diskdoc's own files and device names.

use super::*;

/// Placeholders people and tools put where a secret was: not secrets themselves.
pub(super) fn is_placeholder(v: &str) -> bool {
    let l = v.to_ascii_lowercase();
    // What posters type over a value they hide ("Serial Number: REDACTED", "<removed>",
    // "[hidden]"): not a secret, and the word can be part of diskdoc's own output.
    let bare = l.trim_matches(|c: char| "[]<>(){}*_- ".contains(c));
    v.chars().all(|c| "*.-_ xX0#?".contains(c))
        || [
            "redacted",
            "removed",
            "hidden",
            "private",
            "censored",
            "anonymized",
            "anonymised",
            "obfuscated",
            "masked",
            "snip",
            "snipped",
            "deleted",
            "serial",
            "serial number",
            "my serial",
        ]
        .contains(&bare)
        || l.starts_with("...")
        || [
            "none",
            "unknown",
            "not specified",
            "n/a",
            "null",
            "to be filled by o.e.m.",
            "default string",
            "localhost",
            "localhost.localdomain",
            // "root@hostname:~#": the word posters type over their host's name, and a
            // field name of diskdoc's own JSON.
            "hostname",
            // "[root@host]#" (batch 37's smartctl_exporter paste): the same placeholder, and
            // a word of diskdoc's own text ("the host's controller").
            "host",
            "(none)",
            "(null)",
            "nil",
        ]
        .contains(&l.as_str())
        || is_token(v)
}

/// Names too common to be anyone's secret as a label or a user: replacing them everywhere
/// would eat ordinary words of the report (a /mnt/data, an ext4 labelled "root").
pub(super) const COMMON_NAMES: &[&str] = &[
    "root",
    "user",
    "users",
    "admin",
    "shared",
    "guest",
    "test",
    "data",
    "backup",
    "backups",
    "media",
    "storage",
    "disk",
    "disks",
    "mnt",
    "usb",
    "home",
    "tmp",
    "public",
    "boot",
    "efi",
    "esp",
    "swap",
    "system",
    "recovery",
    "var",
    "srv",
    "opt",
    "cdrom",
    "dvd",
    "iso",
    "nas",
    "ssd",
    "hdd",
    "scratch",
    "work",
    "linux",
    "freebsd",
    "windows",
    "bsd",
    "zfs",
    "ufs",
    "ext4",
    "xfs",
    "btrfs",
    "vfat",
    "ntfs",
    "rootfs",
    "nixos",
    "debian",
    "ubuntu",
    "fedora",
    "arch",
    "dos",
    "sun",
    "sgi",
    "primary",
    "logical",
    "extended",
    "lvm",
    "raid",
    "gpt",
    "mbr",
    "none",
    "volume",
    "new",
    "old",
    "archive",
    "video",
    "music",
    "photos",
    "pool",
    "tank",
    "zroot",
    // The pool names installers and appliances give (FreeBSD, Ubuntu's zsys and Proxmox
    // rpool/bpool, TrueNAS boot-pool, FreeNAS freenas-boot).
    "rpool",
    "bpool",
    "boot-pool",
    "freenas-boot",
    "zpool",
    "vm",
    "vms",
    "ext",
    "external",
    "flash",
    "stick",
    "share",
    "shares",
    "nfs",
    "smb",
    "cifs",
    "win",
    "temp",
    "cache",
    "images",
    "img",
    "ram",
    "ramdisk",
    "mirror",
    "removable",
    "floppy",
    // Benchmark directories named after the tool (`--filename=/mnt/fio`, `/opt/fio/bin/fio`
    // in a linux-raid post, batch 23): diskdoc's own answer names the tool, so redacting the
    // word would eat its text, and the final check refused the whole answer.
    "fio",
    "bench",
    "benchmark",
    "iozone",
    "bonnie",
];

pub(super) fn is_common_name(v: &str) -> bool {
    let l = v.to_ascii_lowercase();
    // "data2", "disk-1", "backup_3" are as common as "data".
    let stem = l.trim_end_matches(|c: char| c.is_ascii_digit() || c == '-' || c == '_');
    COMMON_NAMES.contains(&l.as_str())
        || (stem.len() < l.len() && COMMON_NAMES.contains(&stem))
        || l.starts_with("efi ")
        || l.starts_with("microsoft ")
        || l.starts_with("linux ")
        || l == "efi system partition"
        || looks_like_device_name(&l)
        || is_diskdoc_file(&l)
}

/// A file diskdoc names itself (the fio equivalent's `DIR/diskdoc-write.fio`, a report
/// `diskdoc-sda.txt`): no one's name, and redacting it breaks the printed command.
pub(super) fn is_diskdoc_file(l: &str) -> bool {
    l.strip_prefix("diskdoc-")
        .is_some_and(|rest| [".fio", ".txt", ".json"].iter().any(|e| rest.ends_with(e)))
}

/// sda1, nvme0n1p2, loop3, md0, dm-1, ada0s1a, da2: a mount point named after its device.
pub(super) fn looks_like_device_name(l: &str) -> bool {
    [
        "sd", "hd", "vd", "xvd", "nvme", "loop", "md", "dm-", "ada", "da", "mmcblk", "sr",
    ]
    .iter()
    .any(|p| l.starts_with(p))
        && l.chars().any(|c| c.is_ascii_digit())
        && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
}
