use super::*;

#[test]
fn bad_sector_box_in_dd_mode() {
    let t = "Partclone v0.3.13 http://partclone.org\n\
             Starting to clone/restore (/dev/sda3) to (-) with dd mode\n\
             File system:  raw\n\
             *************************************************************************\n\
             * WARNING: The disk has bad sectors. This means physical damage on the  *\n\
             *******************************************************************read and write different\n";
    let v = parse(t);
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].device.as_deref(), Some("sda3"));
    assert_eq!(v[0].read_failures, 1);
    assert!(v[0].fs_check.is_none());
    assert!(t.lines().all(is_line));
    // The box without its "* " (a Markdown bullet to the page it was pasted in).
    assert!(is_line(
        "disk surface caused by deterioration, manufacturing faults, or        *"
    ));
    assert!(is_line(
        "disk surface caused by deterioration, or        * another reason.     * data!   \
         ******************read and write different"
    ));
    assert!(is_line(
        "disk surface caused by deterioration, manufacturing faults, or"
    ));
    assert!(!is_line("I think the disk is bad *"));
}

#[test]
fn rescue_sectors_and_restore() {
    let t = "Starting to clone device (/dev/sdb2) to image (/home/partimag/x)\n\
             WARNING: Can't read sector at 1234, lost data.\n\
             WARNING: Can't read sector at 1235, lost data.\n";
    let v = parse(t);
    assert_eq!(
        (v[0].device.as_deref(), v[0].read_failures),
        (Some("sdb2"), 2)
    );
    let t = "Starting to restore image (-) to device (/dev/sda1)\nsource read ERROR Input/output error\n";
    let v = parse(t);
    assert!(v[0].restore);
    assert_eq!(v[0].device, None);
}

#[test]
fn fsck_refusal_is_no_read_failure() {
    let t = "/dev/sda1 mit Dateisystem ext4 sichernNot yet interpreting partclone output: Partclone v0.3.13 http://partclone.org\n\
             Not yet interpreting partclone output: Starting to clone device (/dev/sda1) to image (-)\n\
             Not yet interpreting partclone output: extfsclone.c: FS has been mounted 1 times without being checked\n\
             Not yet interpreting partclone output: Partclone fail, please check /var/log/partclone.log !\n";
    let v = parse(t);
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].read_failures, 0);
    assert!(
        v[0].fs_check
            .as_deref()
            .is_some_and(|f| f.contains("without being checked"))
    );
    // A read error of the image (not EIO of the source) counts nothing either.
    let v = parse("Partclone v0.2.89 http://partclone.org\nread ERROR:Success\n");
    assert_eq!(v[0].read_failures, 0);
}
