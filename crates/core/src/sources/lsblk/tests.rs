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
