use super::*;

#[test]
fn answers_of_both_tools() {
    // The formats of sys-utils/fstrim.c and sys-utils/blkdiscard.c, NOT A CAPTURE;
    // tests/it/explain_storage_tools.rs reads real posts.
    assert!(is_answer(
        "fstrim: /mnt/data: the discard operation is not supported"
    ));
    assert!(is_answer(
        "fstrim: /: FITRIM ioctl failed: Operation not supported"
    ));
    assert!(is_answer(
        "/: 39.2 GiB (42088079360 bytes) trimmed on /dev/sda2"
    ));
    assert!(is_answer(
        "blkdiscard: /dev/sdb: BLKDISCARD ioctl failed: Operation not supported"
    ));
    assert!(!is_answer("fstrim is run weekly by a systemd timer"));
    assert_eq!(
        text_device("blkdiscard: /dev/sdb: BLKDISCARD ioctl failed: Operation not supported")
            .as_deref(),
        Some("sdb")
    );
    assert_eq!(
        FSTRIM_NO_DISCARD
            .captures("fstrim: /: FITRIM ioctl failed: Operation not supported")
            .and_then(|c| c.get(1))
            .map(|m| m.as_str()),
        Some("/")
    );
}

/// elementary/installer #674: `sudo fstrim -av` on an encrypted install names /boot/efi
/// and /boot with their devices, not the LUKS root; linuxmint #477's reply trims / too.
#[test]
fn fstrim_all_names_what_it_trimmed() {
    let t = "/boot/efi: 251,7 MiB (263872512 bytes) trimmed on /dev/nvme0n1p1\n\
             /boot: 11,2 MiB (11714560 bytes) trimmed on /dev/nvme0n1p2\n";
    assert_eq!(
        trimmed_all(t),
        vec![
            ("/boot/efi".to_string(), "/dev/nvme0n1p1".to_string()),
            ("/boot".to_string(), "/dev/nvme0n1p2".to_string())
        ]
    );
    let m = trimmed_all("/: 282.3 GiB (303155515392 bytes) trimmed on /dev/sda2\n");
    assert_eq!(m.first().map(|x| x.0.as_str()), Some("/"));
    // fstrim on one mount point (no --all) names no device.
    assert!(trimmed_all("/: 39.2 GiB (42088079360 bytes) trimmed\n").is_empty());
}

/// crypttab(5) lines: elementary/installer #674's "cryptdata UUID=... none luks" opens
/// the volume without discard; with `discard` it passes them; fstab lines and prose are
/// no crypttab lines.
#[test]
fn crypttab_lines_without_discard() {
    use crate::sources::cryptsetup::crypttab_without_discard as c;
    assert_eq!(
        c("cryptdata UUID=51f61b21-5e03-4446-a244-6c399769f909 none luks").as_deref(),
        Some("cryptdata")
    );
    assert_eq!(
        c("sda3_crypt /dev/sda3 none").as_deref(),
        Some("sda3_crypt")
    );
    assert_eq!(c("cryptdata UUID=51f6 none luks,discard"), None);
    assert_eq!(c("UUID=51f6 / ext4 defaults 0 1"), None);
    assert_eq!(c("/dev/sda1 /boot ext4 defaults 0 2"), None);
    assert_eq!(c("the root is on UUID=51f6 here"), None);
}
