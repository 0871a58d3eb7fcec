use super::*;

fn dev(devno: &str, name: &str, disk: Option<&str>) -> BlockDev {
    BlockDev {
        devno: devno.into(),
        name: name.into(),
        disk: disk.map(str::to_string),
    }
}

fn lp(n: u32, backing: Backing, offset: u64, sizelimit: u64) -> LoopDev {
    LoopDev {
        name: format!("loop{n}"),
        devno: format!("7:{n}"),
        backing,
        offset,
        sizelimit,
    }
}

fn file(ino: u64) -> Backing {
    Backing::File {
        dev: 0xfe00,
        ino,
        path: format!("/var/tmp/{ino}.img"),
    }
}

fn block(d: &str) -> Backing {
    Backing::Block(d.into())
}

fn devices() -> Vec<BlockDev> {
    let mut v: Vec<BlockDev> = (0..8)
        .map(|n| dev(&format!("7:{n}"), &format!("loop{n}"), None))
        .collect();
    v.push(dev("8:16", "sdb", None));
    v.push(dev("8:17", "sdb1", Some("8:16")));
    v.push(dev("8:18", "sdb2", Some("8:16")));
    v
}

#[test]
fn a_loop_over_a_plain_file_is_alone() {
    let loops = vec![lp(0, file(11), 0, 0), lp(1, file(12), 0, 0)];
    let c = chain("7:0", &devices(), &loops);
    assert_eq!(c.file.as_deref(), Some("/var/tmp/11.img"));
    assert!(
        c.below.is_empty() && c.aliases.is_empty() && c.unknown.is_empty(),
        "{c:?}"
    );
    assert!(c.unknown_reasons("/dev/loop0").is_empty());
    // Not a loop at all: nothing.
    assert_eq!(chain("8:17", &devices(), &loops), Chain::default());
}

/// The shape a): the target is under a mounted offset loop.
#[test]
fn a_loop_stacked_on_the_target_at_an_offset_refuses() {
    let loops = vec![lp(0, file(11), 0, 0), lp(1, block("7:0"), 4 << 20, 0)];
    let c = chain("7:0", &devices(), &loops);
    assert_eq!(c.aliases.len(), 1, "{c:?}");
    assert_eq!(
        c.aliases[0].describe(),
        "loop1 is stacked on loop0 at offset 4 MiB"
    );
    // And a loop on that loop, transitively.
    let mut l3 = loops.clone();
    l3.push(lp(2, block("7:1"), 0, 0));
    let c = chain("7:0", &devices(), &l3);
    assert_eq!(
        c.aliases.iter().map(Alias::describe).collect::<Vec<_>>(),
        vec![
            "loop1 is stacked on loop0 at offset 4 MiB",
            "loop2 is stacked on loop1"
        ]
    );
}

/// The shape b): the target is a loop inside a mounted device's data area.
#[test]
fn the_chain_below_is_followed_down_to_the_file() {
    let loops = vec![
        lp(2, file(20), 0, 0),
        lp(3, block("7:2"), 48 << 20, 8 << 20),
        lp(4, block("7:3"), 0, 0),
    ];
    let c = chain("7:4", &devices(), &loops);
    assert_eq!(
        c.below,
        vec![
            Below {
                devno: "7:3".into(),
                name: "loop3".into(),
                via: "loop4".into(),
                offset: 0
            },
            Below {
                devno: "7:2".into(),
                name: "loop2".into(),
                via: "loop3".into(),
                offset: 48 << 20
            },
        ]
    );
    assert_eq!(c.file.as_deref(), Some("/var/tmp/20.img"));
    assert!(c.aliases.is_empty(), "{c:?}");
    // A second loop on the device below (anywhere on it) is an alias.
    let mut l = loops.clone();
    l.push(lp(5, block("7:2"), 0, 1 << 20));
    let c = chain("7:4", &devices(), &l);
    assert_eq!(
        c.aliases[0].describe(),
        "loop5 is stacked on loop2 (size limit 1 MiB)"
    );
    // As is a second loop over the same backing file, and only that file.
    let mut l = loops.clone();
    l.push(lp(6, file(20), 0, 0));
    l.push(lp(7, file(21), 0, 0));
    let c = chain("7:4", &devices(), &l);
    assert_eq!(c.aliases.len(), 1, "{c:?}");
    assert_eq!(
        c.aliases[0].describe(),
        "loop6 is stacked on the same file /var/tmp/20.img"
    );
}

#[test]
fn partitions_and_disks_overlap_but_siblings_do_not() {
    // A loop over the whole disk covers its partition sdb1; one over sdb2 does not.
    let loops = vec![lp(0, block("8:16"), 0, 0), lp(1, block("8:18"), 0, 0)];
    let c = chain("8:17", &devices(), &loops);
    assert_eq!(
        c.aliases
            .iter()
            .map(|a| a.name.as_str())
            .collect::<Vec<_>>(),
        vec!["loop0"]
    );
    // Writing the whole disk: loops over any of its partitions are aliases.
    let c = chain("8:16", &devices(), &loops);
    assert_eq!(c.aliases.len(), 2, "{c:?}");
    // The target is a loop over sdb1: sdb1 is below, the loop over sdb is an alias.
    let loops = vec![lp(2, block("8:17"), 0, 0), lp(0, block("8:16"), 0, 0)];
    let c = chain("7:2", &devices(), &loops);
    assert_eq!(c.below[0].name, "sdb1");
    assert_eq!(c.aliases[0].name, "loop0");
}

#[test]
fn a_partition_of_a_loop_device_follows_the_loops_chain() {
    let mut devs = devices();
    devs.push(dev("259:0", "loop0p1", Some("7:0")));
    devs.push(dev("259:1", "loop0p2", Some("7:0")));
    // loop0 over a plain file: loop0p1 is alone.
    let loops = vec![lp(0, file(11), 0, 0)];
    let c = chain("259:0", &devs, &loops);
    assert_eq!(c.file.as_deref(), Some("/var/tmp/11.img"));
    assert!(c.below.is_empty() && c.aliases.is_empty(), "{c:?}");
    // loop0 over loop2 (over a file): loop0p1's writes land on loop2.
    let loops = vec![lp(0, block("7:2"), 0, 0), lp(2, file(20), 0, 0)];
    let c = chain("259:0", &devs, &loops);
    assert_eq!(
        c.below.iter().map(|b| b.name.as_str()).collect::<Vec<_>>(),
        vec!["loop2"]
    );
    assert!(c.aliases.is_empty(), "{c:?}");
    // A loop over the sibling partition loop0p2 holds other bytes; one over loop0 does not.
    let mut l = loops.clone();
    l.push(lp(3, block("259:1"), 0, 0));
    l.push(lp(4, block("7:0"), 0, 0));
    let c = chain("259:0", &devs, &l);
    assert_eq!(
        c.aliases
            .iter()
            .map(|a| a.name.as_str())
            .collect::<Vec<_>>(),
        vec!["loop4"]
    );
}

#[test]
fn unknown_backings_and_malformed_lists_refuse_without_hanging() {
    let loops = vec![
        lp(0, file(11), 0, 0),
        lp(
            5,
            Backing::Unknown {
                path: "/gone (deleted)".into(),
                why: "no such file".into(),
            },
            0,
            0,
        ),
    ];
    let c = chain("7:0", &devices(), &loops);
    assert_eq!(c.unknown, vec!["loop5 (/gone (deleted): no such file)"]);
    assert!(c.unknown_reasons("/dev/loop0")[0].contains("could not be identified"));
    // A cycle (the kernel forbids it; a broken list must not hang).
    let loops = vec![lp(0, block("7:1"), 0, 0), lp(1, block("7:0"), 0, 0)];
    let c = chain("7:0", &devices(), &loops);
    assert_eq!(c.below.len(), 1);
}
