use super::*;

#[test]
fn boundary_warnings_are_fdisk_verdicts_but_not_for_containers() {
    let t = "Device   Boot Start     End Sectors Size Id Type\n/dev/mapper/vg-lv-part1          1 2097152 2097152   1G 82 Linux swap / Solaris\n\nPartition 1 does not start on physical sector boundary.\n";
    let v = parse_boundary(t);
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].partition.as_deref(), Some("1"));
    assert!(v[0].line.starts_with("Partition 1 does not start"));
    let t = "Disk /dev/sdc: 1000.2 GB, 1000204886016 bytes\nSector size (logical/physical): 512 bytes / 4096 bytes\n\n   Device Boot      Start         End      Blocks   Id  System\n/dev/sdc1            2048   409602047   204800000   83  Linux\n/dev/sdc2       409602047  1953523711   771960832+   5  Extended\nPartition 2 does not start on physical sector boundary.\n/dev/sdc5       409602048  1953523711   771960832   83  Linux\n";
    assert!(parse_boundary(t).is_empty());
    let t = "Disk /dev/sdb: 3 TiB, 3000592982016 bytes, 5860533168 sectors\nSector size (logical/physical): 512 bytes / 4096 bytes\nDisklabel type: dos\n\nDevice     Boot Start        End    Sectors Size Id Type\n/dev/sdb1           1 4294967295 4294967295   2T 83 Linux\n\nPartition 1 does not start on physical sector boundary.\n";
    let v = parse_boundary(t);
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].partition.as_deref(), Some("sdb1"));
}

/// The disk a headerless listing is about, from its rows: sdX1 and the "p" names of
/// disks whose name ends in a digit (block/partitions/core.c). NOT A CAPTURE.
#[test]
fn the_disk_of_bare_rows() {
    let dev = |t: &str| {
        FDISK_PART_DEV
            .captures(t)
            .and_then(|c| c.get(1).or_else(|| c.get(2)))
            .map(|m| m.as_str().to_string())
    };
    assert_eq!(
        dev("/dev/sdb1 2048 4095 2048 1M Linux\n").as_deref(),
        Some("/dev/sdb")
    );
    assert_eq!(
        dev("/dev/nvme1n1p3 792969 9 9 1G Linux\n").as_deref(),
        Some("/dev/nvme1n1")
    );
    assert_eq!(
        dev("/dev/mmcblk0p2 532480 9 9 1G Linux\n").as_deref(),
        Some("/dev/mmcblk0")
    );
    assert_eq!(
        dev("/dev/md127p1 2048 9 9 1G Linux\n").as_deref(),
        Some("/dev/md127")
    );
    let gpt = "Device           Start       End   Sectors   Size Type";
    assert!(FDISK_START.is_match(gpt));
    assert!(FDISK_START.is_match("   Device Boot      Start         End      Blocks   Id  System"));
}

#[test]
fn bare_rows() {
    let v = parse("/dev/sdb1 * 2048 799999999 399998976 83 Linux\n/de");
    let p = v
        .first()
        .and_then(|d| d.partitions.first())
        .cloned()
        .unwrap_or_default();
    assert_eq!(
        (p.start, p.boot, p.type_id.as_deref()),
        (Some(2048), true, Some("83"))
    );
    assert_eq!(v.first().map(|d| d.partitions.len()), Some(1));
}

#[test]
fn dos_limit_warnings() {
    let one = "The size of this disk is 4 TiB (4396972769280 bytes). DOS partition table format can not be used on drives for volumes larger than 2199023255040 bytes for 512-byte sectors. Use GUID partition table format (GPT).";
    let v = parse_limit(one);
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].disk_bytes, Some(4_396_972_769_280));
    let old = "WARNING: The size of this disk is 3.0 TB (3000592982016 bytes).\nDOS partition table format can not be used on drives for volumes\nlarger than (2199023255040 bytes) for 512-byte sectors. Use parted(1) and GUID \npartition table format (GPT).\n";
    let v = parse_limit(old);
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].disk_bytes, Some(3_000_592_982_016));
    assert!(parse_limit("DOS partition table format cannot be used on drives for volumes larger than 2199023255040 bytes").len() == 1);
    // BusyBox fdisk on a router's 4 TB disk (RMerl/asuswrt-merlin wiki, get_geometry).
    let bb = parse_limit("fdisk: device has more than 2^32 sectors, can't use all of them\n");
    assert_eq!(bb.len(), 1);
    assert!(limit_line(
        "fdisk: device has more than 2^32 sectors, can't use all of them"
    ));
    assert!(parse_limit("Disk /dev/sda: 2 TiB").is_empty());
}

/// Old fdisk without -u lists Start/End in cylinders and one "Blocks" column (util-linux
/// 2.17-2.19); sfdisk's old listing has "#cyls #blocks". The Id and type follow the one
/// column, so a GPT disk's protective entry (Id ee at cylinder 1) is known as such and its
/// spurious warning dropped. NOT A CAPTURE: rows in the printf layout of fdisk.c's list_table.
#[test]
fn cylinder_units_keep_the_id_column() {
    let t = "Disk /dev/md1: 6001.2 GB, 6001193385984 bytes\n255 heads, 63 sectors/track, 729604 cylinders\nUnits = cylinders of 16065 * 512 = 8225280 bytes\nSector size (logical/physical): 512 bytes / 512 bytes\nI/O size (minimum/optimal): 65536 bytes / 262144 bytes\n\n    Device Boot      Start         End      Blocks   Id  System\n/dev/md1p1               1      267350  2147483647+  ee  GPT\nPartition 1 does not start on physical sector boundary.\n";
    let d = parse(t);
    let p = d
        .first()
        .and_then(|d| d.partitions.first())
        .cloned()
        .unwrap_or_default();
    assert_eq!(
        (
            p.start_cylinder,
            p.type_id.as_deref(),
            p.type_name.as_deref()
        ),
        (Some(1), Some("ee"), Some("GPT"))
    );
    assert_eq!(p.sectors, Some(4_294_967_294));
    assert!(parse_boundary(t).is_empty());
    // A Linux partition in the same units keeps its warning, and an extended one is known.
    let t = "Units = cylinders of 16065 * 512 = 8225280 bytes\n\n   Device Boot      Start         End      Blocks   Id  System\n/dev/sdc1   *           1          13      104391   83  Linux\n/dev/sdc2              14       60801   488279610    5  Extended\nPartition 1 does not start on physical sector boundary.\n";
    let d = parse(t);
    let ids: Vec<Option<&str>> = d
        .first()
        .map(|d| d.partitions.iter().map(|p| p.type_id.as_deref()).collect())
        .unwrap_or_default();
    assert_eq!(ids, vec![Some("83"), Some("5")]);
    assert!(
        d.first()
            .is_some_and(|d| d.partitions.get(1).is_some_and(|p| p.extended))
    );
    assert_eq!(parse_boundary(t).len(), 1);
    // sfdisk's "#cyls #blocks" pair still skips both.
    let t = "Units = cylinders of 8225280 bytes, blocks of 1024 bytes, counting from 0\n\n   Device Boot Start     End   #cyls    #blocks   Id  System\n/dev/sda1   *      0+     12      13-    104391   83  Linux\n";
    let d = parse(t);
    assert_eq!(
        d.first()
            .and_then(|d| d.partitions.first())
            .and_then(|p| p.type_id.clone())
            .as_deref(),
        Some("83")
    );
}
