//! The write tests' scratch file: created exclusively (O_CREAT|O_EXCL|O_NOFOLLOW), sized by
//! free space (statvfs(3)), always removed by a drop guard (errors, ENOSPC, Ctrl-C), and the
//! filesystem checked for compression or dedup that would flatter a write result.
//!
//! Mount table format: proc(5) /proc/[pid]/mountinfo; btrfs(5) `compress`, `compress-force`
//! mount options; zfsprops(7) `compression` and `dedup` properties.

use std::path::{Path, PathBuf};

/// Removes the scratch file when dropped, whatever ended the test.
#[derive(Debug)]
pub struct ScratchGuard {
    path: PathBuf,
}

impl ScratchGuard {
    /// Arm the guard for a file this process just created with O_EXCL (never for a path
    /// that existed before: that is the user's file).
    pub fn created(path: PathBuf) -> ScratchGuard {
        ScratchGuard { path }
    }
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for ScratchGuard {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// A scratch file name in `dir` that no one else would pick.
pub fn scratch_path(dir: &Path, tag: &str) -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    dir.join(format!(
        ".diskdoc-scratch-{tag}-{}-{nanos:09}",
        std::process::id()
    ))
}

/// Bytes available to an unprivileged user on the filesystem holding `dir` (f_bavail).
pub fn free_bytes(dir: &Path) -> std::io::Result<u64> {
    let s = nix::sys::statvfs::statvfs(dir).map_err(std::io::Error::from)?;
    Ok((s.blocks_available() as u64).saturating_mul(s.fragment_size() as u64))
}

/// The most a write test may put on a filesystem: 10 % of its free space.
pub fn size_cap(free: u64, block: u64) -> u64 {
    let cap = free / 10;
    cap.checked_div(block).map_or(cap, |n| n * block)
}

/// One line of /proc/self/mountinfo, the fields the write test needs.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MountEntry {
    pub mountpoint: String,
    pub fstype: String,
    pub source: String,
    /// Per-mount options and superblock options, comma-joined.
    pub options: String,
}

/// Undo the octal escapes mountinfo uses for space, tab, newline and backslash.
fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\'
            && i + 3 < b.len()
            && b[i + 1..i + 4].iter().all(|c| (b'0'..=b'7').contains(c))
        {
            let v = (b[i + 1] - b'0') as u32 * 64
                + (b[i + 2] - b'0') as u32 * 8
                + (b[i + 3] - b'0') as u32;
            out.push(char::from_u32(v).unwrap_or('?'));
            i += 4;
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    out
}

/// Parse mountinfo: "36 35 98:0 /root /mnt opts shared:1 - fstype source superopts".
pub fn parse_mountinfo(text: &str) -> Vec<MountEntry> {
    text.lines()
        .filter_map(|l| {
            let (left, right) = l.split_once(" - ")?;
            let lf: Vec<&str> = left.split_whitespace().collect();
            let rf: Vec<&str> = right.split_whitespace().collect();
            Some(MountEntry {
                mountpoint: unescape(lf.get(4)?),
                fstype: rf.first()?.to_string(),
                source: unescape(rf.get(1).copied().unwrap_or("")),
                options: format!(
                    "{},{}",
                    lf.get(5).copied().unwrap_or(""),
                    rf.get(2).copied().unwrap_or("")
                ),
            })
        })
        .collect()
}

/// The mount holding `path` (already canonical): the longest matching mount point, the last
/// one listed when several are stacked on the same point.
pub fn mount_for<'a>(mounts: &'a [MountEntry], path: &str) -> Option<&'a MountEntry> {
    let mut best: Option<&MountEntry> = None;
    for m in mounts {
        let mp = m.mountpoint.trim_end_matches('/');
        let inside = mp.is_empty() || path == mp || path.starts_with(&format!("{mp}/"));
        if inside && best.is_none_or(|b| b.mountpoint.trim_end_matches('/').len() <= mp.len()) {
            best = Some(m);
        }
    }
    best
}

/// Notes about compression or dedup that change what a write result means.
pub fn btrfs_compression_note(m: &MountEntry) -> Option<String> {
    if m.fstype != "btrfs" {
        return None;
    }
    let opt = m.options.split(',').find(|o| {
        o.starts_with("compress=")
            || o.starts_with("compress-force=")
            || *o == "compress"
            || *o == "compress-force"
    })?;
    Some(format!(
        "btrfs on {} is mounted with {opt}: compressible data would be written smaller than it \
         is; diskdoc writes random (incompressible) data, so btrfs stores it uncompressed and \
         the result measures the disk",
        m.mountpoint
    ))
}

/// Parse `zfs get -H -o property,value compression,dedup DATASET`.
pub fn zfs_notes(output: &str, dataset: &str) -> Vec<String> {
    let mut notes = Vec::new();
    for line in output.lines() {
        let f: Vec<&str> = line.split('\t').map(str::trim).collect();
        let (Some(prop), Some(val)) = (f.first(), f.get(1)) else {
            continue;
        };
        match (*prop, *val) {
            ("compression", v) if v != "off" && !v.is_empty() => notes.push(format!(
                "ZFS dataset {dataset} has compression={v}: /dev/zero-style data would be \
                 compressed to almost nothing (the seed-002 \"5.5 GB/s\" effect); diskdoc writes \
                 incompressible random data, so the result measures the disks"
            )),
            ("dedup", v) if v != "off" && !v.is_empty() => notes.push(format!(
                "ZFS dataset {dataset} has dedup={v}: repeated blocks would not be written; \
                 diskdoc makes every 4 KiB block unique"
            )),
            _ => {}
        }
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;

    const MI: &str = "22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw\n\
        40 22 0:35 / /data rw,relatime shared:2 - btrfs /dev/sdb1 rw,compress=zstd:3,space_cache=v2\n\
        41 22 0:36 / /tank rw shared:3 - zfs tank/home rw,xattr\n\
        42 22 0:37 / /mnt/with\\040space rw - tmpfs tmpfs rw\n\
        not a mountinfo line\n";

    #[test]
    fn finds_the_mount_for_a_path() {
        let m = parse_mountinfo(MI);
        assert_eq!(m.len(), 4);
        assert_eq!(mount_for(&m, "/home/u").unwrap().fstype, "ext4");
        assert_eq!(mount_for(&m, "/data/x/y").unwrap().fstype, "btrfs");
        assert_eq!(mount_for(&m, "/data").unwrap().fstype, "btrfs");
        assert_eq!(mount_for(&m, "/database").unwrap().fstype, "ext4");
        assert_eq!(mount_for(&m, "/mnt/with space/f").unwrap().fstype, "tmpfs");
        assert_eq!(mount_for(&m, "/tank").unwrap().source, "tank/home");
    }

    #[test]
    fn compression_notes() {
        let m = parse_mountinfo(MI);
        let note = btrfs_compression_note(&m[1]).unwrap();
        assert!(note.contains("compress=zstd:3"), "{note}");
        assert!(btrfs_compression_note(&m[0]).is_none());
        let z = zfs_notes("compression\tlz4\ndedup\toff\n", "tank/home");
        assert_eq!(z.len(), 1);
        assert!(z[0].contains("compression=lz4"));
        assert_eq!(zfs_notes("compression\toff\ndedup\ton\n", "t").len(), 1);
        assert!(zfs_notes("garbage", "t").is_empty());
    }

    #[test]
    fn size_cap_is_a_tenth_aligned() {
        assert_eq!(size_cap(10 << 30, 1 << 20), 1024 << 20);
        assert_eq!(size_cap(15 << 20, 1 << 20), 1 << 20);
        assert_eq!(size_cap(5 << 20, 1 << 20), 0);
    }

    #[test]
    fn guard_removes_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = scratch_path(dir.path(), "t");
        std::fs::write(&p, b"x").unwrap();
        {
            let g = ScratchGuard::created(p.clone());
            assert_eq!(g.path(), p.as_path());
        }
        assert!(!p.exists());
        assert!(free_bytes(dir.path()).unwrap() > 0);
    }
}
