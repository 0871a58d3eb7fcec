use super::*;

#[test]
fn cat_with_the_value_on_the_next_line() {
    let t = "# cat\n/sys/devices/pci0000:00/0000:00:14.0/usb1/1-3/1-3:1.0/host8/target8:0:0/8:0:0:0/scsi_disk/8:0:0:0/provisioning_mode\nfull\n";
    let v = parse(t);
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].mode.as_deref(), Some("full"));
    assert_eq!(v[0].hctl.as_deref(), Some("8:0:0:0"));
    assert!(v[0].no_discard());
}

#[test]
fn grep_form_names_the_disk() {
    let t = "/sys/block/sdb/device/scsi_disk/2:0:0:0/provisioning_mode:unmap\n";
    let v = parse(t);
    assert_eq!(v[0].disk.as_deref(), Some("sdb"));
    assert_eq!(v[0].mode.as_deref(), Some("unmap"));
    assert!(!v[0].no_discard());
}

#[test]
fn a_refused_write_on_the_path_line_or_the_shells_next_line() {
    let t = "ssd_trim: ERROR: Could not write 'unmap' -> /sys/block/sda/device/scsi_disk/0:0:0:0/provisioning_mode\n";
    let v = parse(t);
    assert_eq!(v[0].disk.as_deref(), Some("sda"));
    assert!(v[0].write_failed.is_some());
    let t = "# echo unmap > /sys/block/sdc/device/scsi_disk/6:0:0:0/provisioning_mode\n-bash: echo: write error: Invalid argument\n";
    let v = parse(t);
    assert_eq!(v[0].disk.as_deref(), Some("sdc"));
    assert!(v[0].write_failed.is_some());
}

#[test]
fn a_write_that_worked_and_prose_say_nothing() {
    // Near misses: the write with no error after it, and a mode word without a path.
    let t = "# echo unmap > /sys/block/sdc/device/scsi_disk/6:0:0:0/provisioning_mode\n# fstrim -v /mnt\n";
    assert!(parse(t).is_empty());
    assert!(parse("full\nunmap\n").is_empty());
    assert!(parse("the provisioning_mode file was full of junk").is_empty());
}
