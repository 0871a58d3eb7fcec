use super::*;

#[test]
fn ascii_tree() {
    let t = "NAME   MAJ:MIN RM  SIZE RO TYPE MOUNTPOINT\nsda      8:0    0   20G  0 disk \n|-sda1   8:1    0    1G  0 part /boot\n`-sda2   8:2    0   19G  0 part \n  `-vg-root 253:0 0 17G 0 lvm  /\n";
    let v = parse(t);
    let names: Vec<(&str, usize)> = v.iter().map(|d| (d.name.as_str(), d.depth)).collect();
    assert_eq!(
        names,
        vec![("sda", 0), ("sda1", 1), ("sda2", 1), ("vg-root", 2)]
    );
    assert_eq!(
        v.get(1).map(|d| d.mountpoints.clone()),
        Some(vec!["/boot".to_string()])
    );
    assert_eq!(
        v.get(3).and_then(|d| d.parent.clone()).as_deref(),
        Some("sda2")
    );
}

/// The default table pasted without its NAME header (LUKS on LVM under an NVMe
/// partition, trailing spaces as lsblk pads them): the rows are read and the crypt row
/// is the dm-crypt layer, on the partition it is drawn under.
#[test]
fn headerless_default_table_with_crypt_row() {
    let t = "nvme0n1                 259:0    0  1.8T  0 disk  \n\
                 ├─nvme0n1p1             259:1    0  512M  0 part  /boot/efi\n\
                 └─nvme0n1p3             259:3    0  1.8T  0 part  \n  \
                 └─nvme0n1p3_crypt     254:1    0  1.8T  0 crypt  \n    \
                 ├─vg-root             254:3    0   32G  0 lvm   /\n    \
                 └─vg-swap             254:6    0   32G  0 lvm   [SWAP]\n";
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(start_headerless(&lines), spec::Start::Yes);
    let v = parse(t);
    assert_eq!(v.len(), 6);
    assert_eq!(v.get(3).map(|d| d.depth), Some(2));
    assert_eq!(
        v.get(4).map(|d| d.mountpoints.clone()),
        Some(vec!["/".to_string()])
    );
    let l = crypt_layers(&v, "nvme0n1", "pasted:lsblk");
    assert_eq!(l.len(), 1);
    assert_eq!(l.first().map(|x| x.kind), Some(Some(LayerKind::DmCrypt)));
    assert_eq!(
        l.first().map(|x| x.on.clone()),
        Some(vec!["nvme0n1p3".to_string()])
    );
    // Another disk's crypt row is not this disk's layer.
    assert!(crypt_layers(&v, "sda", "pasted:lsblk").is_empty());
}

/// Near misses: LVM without crypt gives no layer; a lone row, /proc/partitions rows
/// ("major minor #blocks name") and a df line do not start an lsblk block.
#[test]
fn headerless_near_misses() {
    let t = "sda      8:0    0 465.8G  0 disk \n└─sda2   8:2    0 465.3G  0 part \n  └─vg-root 253:0 0 465G 0 lvm /\n";
    assert!(crypt_layers(&parse(t), "sda", "k").is_empty());
    assert_eq!(
        start_headerless(&["sda      8:0    0 465.8G  0 disk"]),
        spec::Start::No
    );
    assert_eq!(
        start_headerless(&[
            "   8        0  488386584 sda",
            "   8        1     524288 sda1"
        ]),
        spec::Start::No
    );
    assert_eq!(
        start_headerless(&[
            "/dev/sda1  480588496 12345 443833288   1% /",
            "tmpfs 8000 0 8000 0% /dev/shm"
        ]),
        spec::Start::No
    );
}

#[test]
fn pairs_rows_in_a_log_and_the_shell_variable_names() {
    // ceph-volume's log of the lsblk it ran (rook issue 7731): the row behind the log's
    // header, and MODEL the SCSI product of an HPE Smart Array volume.
    let t = "[2021-04-22 12:49:27,446][ceph_volume.process][INFO  ] Running command: /usr/bin/lsblk --nodeps -P -o NAME,KNAME,MODEL,SIZE,PHY-SEC,LOG-SEC,ROTA,SCHED,TYPE,PKNAME /dev/sdc\n\
[2021-04-22 12:49:27,457][ceph_volume.process][INFO  ] stdout NAME=\"sdc\" KNAME=\"sdc\" MAJ:MIN=\"8:32\" MODEL=\"LOGICAL VOLUME  \" SIZE=\"203.8T\" PHY-SEC=\"4096\" LOG-SEC=\"512\" ROTA=\"1\" SCHED=\"none\" TYPE=\"disk\" PKNAME=\"\"\n";
    let v = parse(t);
    assert_eq!(v.len(), 1);
    let d = &v[0];
    assert_eq!(d.name, "sdc");
    assert_eq!(d.depth, 0);
    assert_eq!(d.model.as_deref(), Some("LOGICAL VOLUME"));
    assert_eq!(d.physical_sector_bytes, Some(4096));
    assert_eq!(d.rotational, Some(true));
    let mut disk = DiskFacts {
        name: "sdc".into(),
        ..Default::default()
    };
    assert!(apply(&mut disk, "cmd:lsblk", &v));
    assert_eq!(disk.class.get(), Some(DeviceClass::RaidVolume));
    // util-linux 2.37+: MAJ_MIN, PHY_SEC; a partition drawn under its PKNAME.
    let t = "NAME=\"nvme0n1\" MAJ_MIN=\"259:0\" PHY_SEC=\"512\" TYPE=\"disk\" PKNAME=\"\"\nNAME=\"nvme0n1p1\" MAJ_MIN=\"259:1\" PHY_SEC=\"512\" TYPE=\"part\" PKNAME=\"nvme0n1\"\n";
    let v = parse(t);
    let drawn: Vec<String> = v
        .iter()
        .map(|d| {
            format!(
                "{}@{} under {:?}, {:?}",
                d.name, d.depth, d.parent, d.physical_sector_bytes
            )
        })
        .collect();
    assert_eq!(
        drawn.join("; "),
        "nvme0n1@0 under None, Some(512); nvme0n1p1@1 under Some(\"nvme0n1\"), Some(512)"
    );
}

#[test]
fn pairs_near_misses() {
    // A drive's own model is no volume; a lone KEY="value" (blkid's, udev's) is no lsblk row.
    let v = parse("NAME=\"sda\" MODEL=\"Samsung SSD 860\" TYPE=\"disk\"\n");
    let mut disk = DiskFacts {
        name: "sda".into(),
        ..Default::default()
    };
    assert!(apply(&mut disk, "cmd:lsblk", &v));
    assert!(!disk.class.is_known());
    assert!(!LSBLK_PAIRS.is_match("/dev/sdc: PTUUID=\"c56e3ca8\" PTTYPE=\"gpt\""));
    assert!(!LSBLK_PAIRS.is_match("NAME=\"sdc\""));
}
