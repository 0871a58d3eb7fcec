//! The write tests' scratch file, made so that it cannot outlive diskdoc: on Linux it is
//! created with O_TMPFILE (it never has a name, so not even SIGKILL or a lazy unmount can
//! leave it behind); where the filesystem does not support that, it is created
//! O_CREAT|O_EXCL|O_NOFOLLOW, mode 0600, and unlinked at once through the same directory
//! descriptor, after checking that the name still is that inode. Nothing is ever removed by a
//! path resolved later. The size is bounded by free space (statvfs(3)), and the filesystem is
//! checked for compression or dedup that would flatter a write result.
//!
//! References: open(2) O_TMPFILE ("EOPNOTSUPP: the filesystem containing pathname does not
//! support O_TMPFILE"; "EISDIR: ... O_TMPFILE and ... the kernel does not support it"),
//! openat(2), unlinkat(2), fstatat(2); proc(5) /proc/[pid]/mountinfo; btrfs(5) `compress`,
//! `compress-force` mount options; zfsprops(7) `compression` and `dedup` properties.

use std::fs::File;
use std::io;
use std::path::Path;

/// How the scratch file was made nameless.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScratchHow {
    /// O_TMPFILE: it never had a name.
    Unnamed,
    /// Created exclusively, then unlinked right after the open.
    UnlinkedAfterCreate,
}

/// An open scratch file without a name: its blocks are freed when the last descriptor
/// closes, whatever ends the process.
#[derive(Debug)]
pub struct Scratch {
    pub file: File,
    pub how: ScratchHow,
}

impl Scratch {
    /// How many names the file still has (st_nlink): 0 means nothing can be left behind.
    pub fn links(&self) -> io::Result<u64> {
        use std::os::unix::fs::MetadataExt;
        self.file.metadata().map(|m| m.nlink())
    }

    /// The note for the result: what happened to the file, honestly.
    pub fn note(&self) -> String {
        match (self.how, self.links()) {
            (_, Ok(n)) if n > 0 => format!(
                "WARNING: the scratch file still has {n} name(s) in the scratch directory; \
                 diskdoc could not confirm its cleanup"
            ),
            (_, Err(e)) => format!("WARNING: could not check the scratch file's names ({e})"),
            (ScratchHow::Unnamed, _) => "scratch file removed: it never had a name (O_TMPFILE), \
                 so nothing is left even if diskdoc is killed"
                .into(),
            (ScratchHow::UnlinkedAfterCreate, _) => "scratch file removed: unlinked right after \
                 it was created; its space is freed when diskdoc closes it, even if diskdoc is \
                 killed"
                .into(),
        }
    }
}

/// A scratch file in `dir` that nobody can see and nothing can leave behind.
pub fn create(dir: &Path, tag: &str) -> io::Result<Scratch> {
    create_with(dir, tag, true)
}

/// [`create`], with O_TMPFILE optional (tests exercise the fallback on any filesystem).
pub(crate) fn create_with(dir: &Path, tag: &str, try_tmpfile: bool) -> io::Result<Scratch> {
    use nix::fcntl::{OFlag, openat};
    use nix::sys::stat::{Mode, fstat, fstatat};
    use nix::unistd::{UnlinkatFlags, unlinkat};
    // The directory, resolved once: every later step is relative to this descriptor.
    let d = File::open(dir)?;
    if !d.metadata()?.is_dir() {
        return Err(io::Error::from_raw_os_error(libc::ENOTDIR));
    }
    let mode = Mode::S_IRUSR | Mode::S_IWUSR;
    #[cfg(target_os = "linux")]
    if try_tmpfile {
        use nix::errno::Errno;
        // O_EXCL with O_TMPFILE: the file can never be linked into the filesystem (open(2)).
        let how = OFlag::O_TMPFILE | OFlag::O_RDWR | OFlag::O_EXCL | OFlag::O_CLOEXEC;
        match openat(&d, ".", how, mode) {
            Ok(fd) => {
                return Ok(Scratch {
                    file: File::from(fd),
                    how: ScratchHow::Unnamed,
                });
            }
            Err(Errno::EOPNOTSUPP | Errno::EISDIR | Errno::EINVAL) => {}
            Err(e) => return Err(e.into()),
        }
    }
    let _ = try_tmpfile;
    let name = scratch_name(tag);
    let how = OFlag::O_CREAT | OFlag::O_EXCL | OFlag::O_NOFOLLOW | OFlag::O_RDWR | OFlag::O_CLOEXEC;
    let file = File::from(openat(&d, name.as_str(), how, mode)?);
    let mine = fstat(&file)?;
    match fstatat(&d, name.as_str(), nix::fcntl::AtFlags::AT_SYMLINK_NOFOLLOW) {
        Ok(now) if now.st_dev == mine.st_dev && now.st_ino == mine.st_ino => {
            unlinkat(&d, name.as_str(), UnlinkatFlags::NoRemoveDir)?;
        }
        _ => {
            return Err(io::Error::other(format!(
                "the scratch file's name {name} was replaced before diskdoc could unlink it; \
                 nothing was removed"
            )));
        }
    }
    Ok(Scratch {
        file,
        how: ScratchHow::UnlinkedAfterCreate,
    })
}

/// A scratch file name that no one else would pick (used only for the instant between the
/// exclusive create and the unlink).
fn scratch_name(tag: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    format!(".diskdoc-scratch-{tag}-{}-{nanos:09}", std::process::id())
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

/// The mount table: core's one mountinfo parser (proc(5)), shared with the facts.
pub use diskdoc_core::sources::mountinfo::{MountEntry, parse_mountinfo};

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
    // compress= is a superblock option (the field after the source), per-mount options
    // before the separator; look in both.
    let opt = m
        .options
        .split(',')
        .chain(m.super_options.split(','))
        .find(|o| {
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
    }

    #[test]
    fn size_cap_is_a_tenth_aligned() {
        assert_eq!(size_cap(10 << 30, 1 << 20), 1024 << 20);
        assert_eq!(size_cap(15 << 20, 1 << 20), 1 << 20);
        assert_eq!(size_cap(5 << 20, 1 << 20), 0);
    }

    #[test]
    fn scratch_files_have_no_name_either_way() {
        for tmpfile in [true, false] {
            let dir = tempfile::tempdir().unwrap();
            let s = create_with(dir.path(), "t", tmpfile).unwrap();
            assert_eq!(s.links().unwrap(), 0, "tmpfile={tmpfile}");
            assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
            if !tmpfile {
                assert_eq!(s.how, ScratchHow::UnlinkedAfterCreate);
            }
            assert!(s.note().starts_with("scratch file removed"), "{}", s.note());
            use std::os::unix::fs::FileExt;
            s.file.write_all_at(b"data", 0).unwrap();
            drop(s);
            assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        }
        assert!(free_bytes(Path::new("/")).unwrap() > 0);
    }

    #[test]
    fn a_repointed_scratch_dir_link_changes_nothing() {
        // The directory is opened once: re-pointing the link afterwards neither moves the
        // file nor makes diskdoc remove anything in the new target.
        let a = tempfile::tempdir().unwrap();
        let b = tempfile::tempdir().unwrap();
        let user = b.path().join("user.txt");
        std::fs::write(&user, b"keep me").unwrap();
        let links = tempfile::tempdir().unwrap();
        let link = links.path().join("scratch");
        std::os::unix::fs::symlink(a.path(), &link).unwrap();
        for tmpfile in [true, false] {
            let s = create_with(&link, "t", tmpfile).unwrap();
            std::fs::remove_file(&link).unwrap();
            std::os::unix::fs::symlink(b.path(), &link).unwrap();
            drop(s);
            assert_eq!(std::fs::read(&user).unwrap(), b"keep me");
            assert_eq!(std::fs::read_dir(b.path()).unwrap().count(), 1);
            std::fs::remove_file(&link).unwrap();
            std::os::unix::fs::symlink(a.path(), &link).unwrap();
        }
        assert_eq!(std::fs::read_dir(a.path()).unwrap().count(), 0);
        let e = create(&user, "t").unwrap_err();
        assert_eq!(e.raw_os_error(), Some(libc::ENOTDIR), "{e}");
    }
}
