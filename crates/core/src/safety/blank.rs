//! Is a block device provably blank? The destructive write test only writes a device whose
//! sample is all one byte value: zero (never written, discarded, zero-filled) or one fill
//! byte (erased flash reads 0xff). Signatures alone miss data without a known magic: plain
//! dm-crypt, VeraCrypt and LUKS with a detached header are random bytes from the first
//! sector on (cryptsetup(8) "plain" mode and --header), and a filesystem whose partition
//! table was lost sits at 1 MiB with nothing at byte 0.
//!
//! Where to look: the first 2 MiB (partitioning tools align the first partition to 1 MiB,
//! older ones to sector 63, so a filesystem left from a lost table has its superblock there),
//! the last MiB (backup GPT, md 0.90/1.0, ZFS labels 2 and 3, GEOM metadata), 8 KiB at every
//! MiB boundary of the first 64 MiB (where the next partitions usually start) and evenly
//! spaced 64 KiB regions over the whole device. Pure: the reads are the caller's.

use super::signatures::find_signatures;

const KIB: u64 = 1 << 10;
const MIB: u64 = 1 << 20;

/// One region to read: byte offset and length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Region {
    pub offset: u64,
    pub len: u64,
}

/// How many evenly spaced regions, and how long each is.
const SPREAD: u64 = 32;
const SPREAD_LEN: u64 = 64 * KIB;
/// The first MiB boundaries probed one by one, and how much at each.
const BOUNDARIES_UP_TO: u64 = 64 * MIB;
const BOUNDARY_LEN: u64 = 8 * KIB;

/// The regions to sample on a device of `size` bytes, sorted, not overlapping, inside the
/// device; about 5.5 MiB in all on a large device, the whole device when it is smaller.
pub fn sample_plan(size: u64) -> Vec<Region> {
    let mut want: Vec<(u64, u64)> = vec![(0, 2 * MIB), (size.saturating_sub(MIB), MIB)];
    let mut b = 2 * MIB;
    while b < BOUNDARIES_UP_TO.min(size) {
        want.push((b, BOUNDARY_LEN));
        b += MIB;
    }
    for i in 1..=SPREAD {
        // size * i / (SPREAD + 1) without overflow: size / (SPREAD + 1) * i plus the rest's share.
        let step = size / (SPREAD + 1);
        let at = step
            .saturating_mul(i)
            .saturating_add(size % (SPREAD + 1) * i / (SPREAD + 1));
        want.push((at - at % (4 * KIB), SPREAD_LEN));
    }
    let mut clipped: Vec<(u64, u64)> = want
        .into_iter()
        .filter_map(|(o, l)| {
            let end = o.saturating_add(l).min(size);
            (o < end).then_some((o, end))
        })
        .collect();
    clipped.sort_unstable();
    let mut out: Vec<Region> = Vec::new();
    for (start, end) in clipped {
        match out.last_mut() {
            Some(last) if start <= last.offset + last.len => {
                let last_end = (last.offset + last.len).max(end);
                last.len = last_end - last.offset;
            }
            _ => out.push(Region {
                offset: start,
                len: end - start,
            }),
        }
    }
    out
}

/// What the sample says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Every sampled byte is `fill`.
    Blank { fill: u8, bytes: u64 },
    /// A byte other than the fill, at `offset` on the device, in data that looks like `looks_like`.
    Data {
        fill: u8,
        offset: u64,
        looks_like: String,
    },
}

/// Judge a sample: `(offset on the device, bytes read there)` in any order; the first byte
/// that differs from the fill is named.
/// An empty sample is not proof of anything and is judged as data.
pub fn judge(sample: &[(u64, &[u8])]) -> Verdict {
    let mut regions: Vec<&(u64, &[u8])> = sample.iter().filter(|(_, b)| !b.is_empty()).collect();
    regions.sort_by_key(|(o, _)| *o);
    // The fill is the first byte when the first sector is all that byte; otherwise zero
    // (data from byte 0 on, such as ciphertext, is then reported from where it starts).
    let fill = regions.first().and_then(|(_, b)| {
        let first = *b.first()?;
        Some(if b.iter().take(512).all(|x| *x == first) {
            first
        } else {
            0
        })
    });
    let Some(fill) = fill else {
        return Verdict::Data {
            fill: 0,
            offset: 0,
            looks_like: "nothing could be read".into(),
        };
    };
    let mut bytes = 0u64;
    for (offset, b) in &regions {
        if let Some(i) = b.iter().position(|x| *x != fill) {
            let at = offset.saturating_add(i as u64);
            return Verdict::Data {
                fill,
                offset: at,
                looks_like: looks_like(*offset, b, i, fill),
            };
        }
        bytes = bytes.saturating_add(b.len() as u64);
    }
    Verdict::Blank { fill, bytes }
}

/// What a region holding data looks like: a known signature (the device's own table, read
/// as if the region were the start of a device, since a filesystem without its partition
/// table starts at the region's aligned start), random bytes (encryption or compression:
/// near 8 bits of entropy per byte), text, or "data".
fn looks_like(region_at: u64, b: &[u8], first: usize, fill: u8) -> String {
    // The aligned start the data probably begins at: the MiB (or 4 KiB) boundary at or before
    // the first differing byte, but inside the region.
    let abs = region_at.saturating_add(first as u64);
    let start = [MIB, 64 * KIB, 4 * KIB]
        .iter()
        .map(|a| abs - abs % a)
        .find(|s| *s >= region_at)
        .unwrap_or(region_at);
    let rel = usize::try_from(start - region_at).unwrap_or(0).min(b.len());
    // Random bytes first: a magic number matches by chance in ciphertext (0x55AA at 510
    // once in 65536 devices) but a real superblock's region is mostly zeros.
    let window = &b[first..b.len().min(first.saturating_add(64 * KIB as usize))];
    if window.len() >= 4096 && entropy_bits(window) >= 7.5 {
        return "random bytes, as encrypted data looks (plain dm-crypt, VeraCrypt, a LUKS \
                volume whose header is kept elsewhere) or compressed data"
            .into();
    }
    if let Some(s) = find_signatures(&b[rel..], &[], 0).into_iter().next() {
        return format!("{} at byte {}", s.what, start.saturating_add(s.offset));
    }
    let differing: Vec<u8> = window.iter().copied().filter(|x| *x != fill).collect();
    let text = differing
        .iter()
        .filter(|c| c.is_ascii_graphic() || c.is_ascii_whitespace())
        .count();
    if differing.len() >= 16 && text * 10 >= differing.len() * 9 {
        return "text".into();
    }
    "data of a kind diskdoc does not recognise".into()
}

/// Shannon entropy in bits per byte.
fn entropy_bits(b: &[u8]) -> f64 {
    let mut counts = [0u64; 256];
    for x in b {
        counts[*x as usize] += 1;
    }
    let n = b.len() as f64;
    counts
        .iter()
        .filter(|c| **c > 0)
        .map(|c| {
            let p = *c as f64 / n;
            -p * p.log2()
        })
        .sum()
}

/// "1 MiB", "1 MiB + 1024 bytes", "512 bytes": an offset a person can place.
pub fn place(offset: u64) -> String {
    let (m, rest) = (offset / MIB, offset % MIB);
    match (m, rest) {
        (0, r) => format!("byte {r}"),
        (m, 0) => format!("{m} MiB"),
        (m, r) => format!("{m} MiB + {r} bytes"),
    }
}

/// The refusal for a non-blank sample, naming what and where, and how to make `dev` blank
/// if nothing on it is needed.
pub fn refusal(verdict: &Verdict, dev: &str) -> Option<String> {
    let Verdict::Data {
        fill,
        offset,
        looks_like,
    } = verdict
    else {
        return None;
    };
    let what = if *fill == 0 {
        "non-zero bytes".to_string()
    } else {
        format!("bytes other than the fill byte {fill:#04x}")
    };
    let at = if *offset < MIB {
        place(*offset)
    } else {
        format!("{} (byte {offset})", place(*offset))
    };
    Some(format!(
        "it is not blank: {what} at {at}: looks like {looks_like}. If nothing on \
         {dev} is needed, make it blank first: `blkdiscard {dev}` (or `blkdiscard -z {dev}` \
         where discarded blocks do not read back as zeros), or `wipefs -a {dev}` then \
         `dd if=/dev/zero of={dev} bs=1M oflag=direct`"
    ))
}

#[cfg(test)]
mod tests {
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
}
