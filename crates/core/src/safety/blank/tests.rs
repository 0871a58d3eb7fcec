use super::*;

fn total(p: &[Region]) -> u64 {
    p.iter().map(|r| r.len).sum()
}

#[test]
fn the_plan_covers_start_end_boundaries_and_the_middle() {
    let g = 1u64 << 40;
    let p = sample_plan(g);
    // The head and the 2 MiB boundary touch: one read.
    assert_eq!(
        p[0],
        Region {
            offset: 0,
            len: 2 * MIB + 8 * KIB
        }
    );
    assert_eq!(
        *p.last().unwrap(),
        Region {
            offset: g - MIB,
            len: MIB
        }
    );
    assert!(p.contains(&Region {
        offset: 3 * MIB,
        len: 8 * KIB
    }));
    assert!(p.contains(&Region {
        offset: 63 * MIB,
        len: 8 * KIB
    }));
    // A few MiB in all, sorted and disjoint, inside the device.
    assert!((5 * MIB..6 * MIB).contains(&total(&p)), "{}", total(&p));
    for w in p.windows(2) {
        assert!(w[0].offset + w[0].len < w[1].offset, "{w:?}");
    }
    assert!(p.iter().all(|r| r.offset + r.len <= g));
    // The middle of the device is sampled.
    assert!(p.iter().any(|r| r.offset > g / 3 && r.offset < g * 2 / 3));
    // A small device is read whole; tiny and empty ones do not panic.
    assert_eq!(
        sample_plan(3 * MIB),
        vec![Region {
            offset: 0,
            len: 3 * MIB
        }]
    );
    assert_eq!(
        sample_plan(100),
        vec![Region {
            offset: 0,
            len: 100
        }]
    );
    assert!(sample_plan(0).is_empty());
    let p = sample_plan(u64::MAX);
    assert!(p.iter().all(|r| r.offset.checked_add(r.len).is_some()));
    // 64 MiB (the random-bytes device): everything but the middle is spread.
    let p = sample_plan(64 * MIB);
    assert!(
        total(&p) >= 4 * MIB && total(&p) <= 6 * MIB,
        "{}",
        total(&p)
    );
}

#[test]
fn zeros_and_one_fill_byte_are_blank() {
    let z = vec![0u8; 4096];
    assert_eq!(
        judge(&[(0, &z), (MIB, &z)]),
        Verdict::Blank {
            fill: 0,
            bytes: 8192
        }
    );
    let ff = vec![0xffu8; 4096];
    assert_eq!(
        judge(&[(MIB, &ff), (0, &ff)]),
        Verdict::Blank {
            fill: 0xff,
            bytes: 8192
        }
    );
    assert!(refusal(&judge(&[(0, &z)]), "/dev/x").is_none());
    // Zeros here and 0xff there is not one fill (a bitmap block is 0xff and zeros).
    let v = judge(&[(0, &z), (MIB, &ff)]);
    assert!(
        matches!(v, Verdict::Data { offset, .. } if offset == MIB),
        "{v:?}"
    );
    // Nothing read proves nothing.
    assert!(matches!(judge(&[]), Verdict::Data { .. }));
    assert!(matches!(judge(&[(0, &[])]), Verdict::Data { .. }));
}

#[test]
fn random_bytes_are_refused_as_what_encryption_looks_like() {
    // xorshift64: a stand-in for ciphertext (uniform bytes).
    let mut s = 0x9e37_79b9_7f4a_7c15u64;
    let b: Vec<u8> = (0..65536)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 24) as u8
        })
        .collect();
    let v = judge(&[(0, &b)]);
    let Verdict::Data {
        offset, looks_like, ..
    } = &v
    else {
        panic!("{v:?}")
    };
    assert_eq!(*offset, 0);
    assert!(looks_like.starts_with("random bytes"), "{looks_like}");
    let r = refusal(&v, "/dev/loop3").unwrap();
    assert!(
        r.contains("non-zero bytes at byte 0: looks like random"),
        "{r}"
    );
    assert!(r.contains("blkdiscard /dev/loop3"), "{r}");
    assert!(r.contains("wipefs -a /dev/loop3"), "{r}");
}

#[test]
fn a_filesystem_at_one_mib_without_a_partition_table_is_named() {
    // The head sample of a device whose ext4 starts at 1 MiB: zeros, then the superblock.
    let mut head = vec![0u8; 2 * MIB as usize];
    let sb = MIB as usize + 1024;
    head[sb..sb + 8].copy_from_slice(&[1, 2, 3, 4, 5, 6, 7, 8]);
    head[MIB as usize + 1080..MIB as usize + 1082].copy_from_slice(&[0x53, 0xef]);
    let v = judge(&[(0, &head)]);
    let r = refusal(&v, "/dev/loop4").unwrap();
    assert!(
        r.contains("non-zero bytes at 1 MiB + 1024 bytes (byte 1049600)"),
        "{r}"
    );
    assert!(
        r.contains("ext2/3/4 superblock magic 0xEF53 at byte 1049656"),
        "{r}"
    );
    // The same in a region that starts elsewhere: offsets stay absolute.
    let v = judge(&[(0, &[0u8; 512][..]), (MIB, &head[MIB as usize..])]);
    assert!(
        refusal(&v, "d").unwrap().contains("at byte 1049656"),
        "{v:?}"
    );
}

#[test]
fn text_and_unknown_data_are_named_as_such() {
    let mut b = vec![0xffu8; 8192];
    b[4096..4096 + 40].copy_from_slice(b"a user's notes: do not overwrite these.\n");
    let v = judge(&[(0, &b)]);
    assert!(
        matches!(&v, Verdict::Data { looks_like, offset: 4096, fill: 0xff } if looks_like == "text"),
        "{v:?}"
    );
    let r = refusal(&v, "d").unwrap();
    assert!(
        r.contains("bytes other than the fill byte 0xff at byte 4096"),
        "{r}"
    );
    let mut b = vec![0u8; 8192];
    b[100] = 7;
    let v = judge(&[(0, &b)]);
    assert!(
        matches!(&v, Verdict::Data { looks_like, .. } if looks_like.contains("does not recognise")),
        "{v:?}"
    );
}

#[test]
fn places_read_as_a_person_would_say_them() {
    assert_eq!(place(0), "byte 0");
    assert_eq!(place(MIB), "1 MiB");
    assert_eq!(place(48 * MIB + 512), "48 MiB + 512 bytes");
}
