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
mod tests;
