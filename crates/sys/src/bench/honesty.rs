//! What a write test must write to mean something, and what a result really measured:
//! write amounts from the device class (so a drive's write cache is exceeded where space
//! allows), the amount and time stated on every write, and notes for targets that measure
//! RAM instead of a disk (a loop device without direct I/O, tmpfs, ZFS) or a rate above the
//! interface's. Pure where it can be: the readers take their input through [`Host`].

use std::path::Path;

use super::BenchResult;
use super::TestName;
use super::plan::{GIB, MIB};
use crate::host::{Host, HostExt};
use diskdoc_core::model::DeviceClass;
use diskdoc_core::units::bytes_iec1;

/// The volatile write cache a drive of this class may have, in bytes, and what it is. DRAM
/// caches run to ~1 GB per TB on SSDs (and SLC caches to tens of GB, which only the
/// sustained test reaches); hard disks carry 64-256 MiB; a virtual disk sits on the host's
/// page cache, whose size is unknown here.
pub fn typical_write_cache(class: Option<DeviceClass>) -> Option<(u64, &'static str)> {
    use DeviceClass::*;
    match class {
        Some(Hdd) => Some((256 * MIB, "hard disk's DRAM cache")),
        Some(Usb) => Some((256 * MIB, "USB drive's cache")),
        Some(Ssd) => Some((GIB, "SATA SSD's DRAM cache")),
        Some(Nvme) => Some((2 * GIB, "NVMe SSD's DRAM cache")),
        Some(Virtual) => Some((4 * GIB, "virtual disk's host-side cache")),
        Some(Ram) | Some(Loop) => None,
        _ => Some((GIB, "drive's write cache")),
    }
}

/// The most a write test writes: four times the cache (so the cache answers at most a
/// quarter of it), at least 1 GiB. The time budget usually ends the test first.
pub fn write_cap(class: Option<DeviceClass>) -> u64 {
    typical_write_cache(class)
        .map(|(c, _)| 4 * c)
        .unwrap_or(GIB)
        .max(GIB)
}

/// The note every write result carries: how much, in how long, over what region.
pub fn amount_note(r: &BenchResult, region_len: u64) -> String {
    let secs = r.elapsed_ns as f64 / 1e9;
    let passes = if region_len > 0 {
        r.bytes as f64 / region_len as f64
    } else {
        0.0
    };
    format!(
        "wrote {} in {secs:.2} s ({passes:.1} passes over a {} scratch region)",
        bytes_iec1(r.bytes),
        bytes_iec1(region_len)
    )
}

/// Whether the amount written got past the drive's cache.
pub fn cache_note(r: &BenchResult, class: Option<DeviceClass>) -> Option<String> {
    let (cache, what) = typical_write_cache(class)?;
    Some(if r.bytes < cache {
        format!(
            "{} written is less than the ~{} a {what} can hold, so the cache may have \
             answered and the drive's own write speed is lower (a longer --budget writes more)",
            bytes_iec1(r.bytes),
            bytes_iec1(cache)
        )
    } else {
        format!(
            "{} written is more than the ~{} a {what} holds",
            bytes_iec1(r.bytes),
            bytes_iec1(cache)
        )
    })
}

/// A scratch region smaller than the cdm preset's 1 GiB because free space is short.
pub fn small_file_note(file_len: u64, wanted: u64, free: u64) -> Option<String> {
    (file_len < wanted).then(|| {
        format!(
            "the scratch region is {} (not {}): only {} free; results on a small region can \
             come from the drive's cache",
            bytes_iec1(file_len),
            bytes_iec1(wanted),
            bytes_iec1(free)
        )
    })
}

/// The filesystem type holding `dir`: the mount table through `host` on Linux (recorded in
/// the bundle), statfs(2) f_fstypename on FreeBSD (which has no mountinfo).
pub fn fstype(host: &mut dyn Host, dir: &Path) -> Option<String> {
    #[cfg(target_os = "freebsd")]
    {
        let _ = &host;
        nix::sys::statfs::statfs(dir)
            .ok()
            .map(|s| s.filesystem_type_name().to_string())
    }
    #[cfg(not(target_os = "freebsd"))]
    {
        let canon = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
        let mi = host.text("/proc/self/mountinfo")?;
        let mounts = super::scratch::parse_mountinfo(&mi);
        super::scratch::mount_for(&mounts, &canon.to_string_lossy()).map(|m| m.fstype.clone())
    }
}

/// What a write to a file on `fstype` really measures, and whether the final fsync must be
/// inside the timed region for the result to include reaching the disk.
pub fn fstype_note(fstype: &str) -> Option<(String, bool)> {
    match fstype {
        "tmpfs" | "ramfs" => Some((
            format!(
                "the scratch directory is on {fstype}: the writes went to RAM, not to a disk; \
                 choose a --scratch-dir on the disk you want to measure"
            ),
            false,
        )),
        "zfs" => Some((
            "the scratch directory is on ZFS: writes land in the ARC and the ZIL before the \
             pool (O_DIRECT is accepted but not honoured before OpenZFS 2.3 and on FreeBSD), so \
             the final fsync is inside the timed region; reads may come from the ARC"
                .into(),
            true,
        )),
        _ => None,
    }
}

/// The final fsync must be timed on this OS even when O_DIRECT was accepted: FreeBSD's
/// fcntl(2) accepts O_DIRECT on every filesystem, and UFS's direct writes are asynchronous
/// (ffs_write queues them with bawrite), so only fsync(2) proves they reached the disk.
pub fn os_needs_fsync(freebsd: bool) -> bool {
    freebsd
}

/// How a write test to a scratch file on `fstype` is timed: whether its final fsync(2) is
/// inside the timed region, and the notes that say what was measured. `direct`: the open
/// accepted O_DIRECT; `freebsd`: the OS is FreeBSD (whose fcntl accepts O_DIRECT everywhere,
/// [`os_needs_fsync`]). `fstype` is statfs(2) f_fstypename on FreeBSD (what `mount -p` prints
/// in its third column), the mountinfo type on Linux. Pure, so both OSes' decisions are
/// tested on any host.
pub fn write_timing(freebsd: bool, fstype: Option<&str>, direct: bool) -> (bool, Vec<String>) {
    let mut notes = Vec::new();
    let mut fsync = os_needs_fsync(freebsd);
    if let Some((n, f)) = fstype.and_then(fstype_note) {
        notes.push(n);
        fsync |= f;
    }
    if !direct {
        fsync = true;
        notes.push(
            "this filesystem refused O_DIRECT: the writes went through the page cache and the \
             final fsync is inside the timed region"
                .into(),
        );
    } else if fsync {
        notes.push("the final fsync(2) is inside the timed region".into());
    }
    (fsync, notes)
}

/// A loop device with direct I/O off reads through the page cache of its backing file
/// (drivers/block/loop.c: `dio` in /sys/block/loopN/loop). None for other devices.
pub fn loop_note(host: &mut dyn Host, name: &str) -> Option<String> {
    let backing = loop_without_dio(host, name)?;
    Some(format!(
        "{name} has direct I/O off (/sys/block/{name}/loop/dio = 0): its reads are served from \
         the host's page cache of {backing}, so this measures RAM, not the disk under it \
         (`losetup --direct-io=on /dev/{name}` measures the disk)"
    ))
}

/// The backing file of loop device `name` when its direct I/O is off; None otherwise.
fn loop_without_dio(host: &mut dyn Host, name: &str) -> Option<String> {
    if !name.starts_with("loop") {
        return None;
    }
    let dio = host.text(&format!("/sys/block/{name}/loop/dio"))?;
    if dio != "0" {
        return None;
    }
    Some(
        host.text(&format!("/sys/block/{name}/loop/backing_file"))
            .unwrap_or_else(|| "its backing file".into()),
    )
}

/// A scratch directory whose filesystem sits on a loop device with direct I/O off (directly,
/// on one of its partitions, or below dm/md through /sys/block/NAME/slaves): its writes land
/// in the host's page cache of the backing file and reach the disk below only when the host
/// writes them back, so the write speeds are mostly RAM's. Measured here: the cdm preset's
/// SEQ1M Q8T1 on ext4 on such a loop device ran at 5-10 GB/s over a virtio disk. Linux only
/// (the mount's MAJ:MIN from /proc/self/mountinfo, then /sys/dev/block); None elsewhere or
/// when nothing below is such a loop device.
pub fn scratch_loop_note(host: &mut dyn Host, dir: &Path) -> Option<String> {
    if cfg!(target_os = "freebsd") {
        return None;
    }
    let canon = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    let mi = host.text("/proc/self/mountinfo")?;
    let mounts = super::scratch::parse_mountinfo(&mi);
    let m = super::scratch::mount_for(&mounts, &canon.to_string_lossy())?;
    let link = host.read_link(&format!("/sys/dev/block/{}", m.devno));
    let link = link.data()?;
    let mut todo = vec![link.rsplit('/').next()?.to_string()];
    let mut seen = Vec::new();
    while let Some(name) = todo.pop() {
        if seen.contains(&name) || seen.len() > 16 {
            continue;
        }
        seen.push(name.clone());
        // A partition (loop0p1) has no loop/ directory of its own: its disk's says.
        let disk = loop_disk_of(&name);
        if let Some(backing) = loop_without_dio(host, &disk) {
            return Some(format!(
                "the scratch directory's filesystem is on {disk}, which has direct I/O off \
                 (/sys/block/{disk}/loop/dio = 0): its I/O goes through the host's page cache of \
                 {backing}, writes reach the disk under it only when the host writes them back, \
                 and reads can come from RAM, so these speeds are mostly RAM's (`losetup --direct-io=on /dev/{disk}` \
                 measures the disk)"
            ));
        }
        todo.extend(host.entries(&format!("/sys/block/{disk}/slaves")));
    }
    None
}

/// loop0p1 -> loop0; any other name unchanged.
fn loop_disk_of(name: &str) -> String {
    if let Some(rest) = name.strip_prefix("loop")
        && let Some((n, part)) = rest.split_once('p')
        && !n.is_empty()
        && n.bytes().all(|b| b.is_ascii_digit())
        && part.bytes().all(|b| b.is_ascii_digit())
    {
        return format!("loop{n}");
    }
    name.to_string()
}

/// A RAM disk (zram, brd, md(4) malloc) measured as a device: its rates are memory's and
/// the CPU's (zram compresses every page, Documentation/admin-guide/blockdev/zram.rst), so
/// 20-35 GB/s says nothing about a drive.
pub fn ram_note(r: &BenchResult, class: Option<DeviceClass>) -> Option<String> {
    (class == Some(DeviceClass::Ram) && r.bytes > 0).then(|| {
        format!(
            "{} is a RAM disk: these speeds are RAM's and the CPU's (zram compresses each \
             page), not a drive's",
            r.disk
        )
    })
}

/// A rate above what the interface carries cannot be the medium's: say what answered.
pub fn faster_than_interface_note(r: &BenchResult, limit: f64, why: &str) -> Option<String> {
    (r.error.is_none() && r.bytes > 0 && r.bytes_per_sec > limit * 1.05).then(|| {
        format!(
            "{:.0} MB/s is faster than the interface allows ({why}): a cache (page cache, \
             controller or drive) answered, not the medium",
            r.bytes_per_sec / 1e6
        )
    })
}

/// Notes on results after a run, from what the probe and the host say: a loop device
/// without direct I/O (reads), a rate above the interface, the amount written and the
/// filesystem's nature (writes). Each note is added once.
pub fn annotate(
    results: &mut [BenchResult],
    host: &mut dyn Host,
    sys: &diskdoc_core::facts::SystemFacts,
    scratch_dir: Option<&Path>,
) {
    let fs_note = scratch_dir
        .and_then(|d| fstype(host, d))
        .and_then(|t| fstype_note(&t))
        .map(|(n, _)| n);
    let on_loop = scratch_dir.and_then(|d| scratch_loop_note(host, d));
    for r in results.iter_mut() {
        let write = r.test.is_write();
        let d = sys.disk(&r.disk);
        let mut add: Vec<String> = Vec::new();
        if !write && r.target.starts_with("/dev/") {
            add.extend(loop_note(host, &r.disk));
            add.extend(ram_note(r, d.and_then(|d| d.class.get())));
        }
        // A scratch file's reads and writes (the cdm preset reads it too when no device is
        // named) go through the loop device under its filesystem.
        if !r.target.starts_with("/dev/") {
            add.extend(on_loop.clone());
        }
        if let Some(d) = d
            && let Some((limit, why)) = diskdoc_core::checks::measured_common::interface_ceiling(d)
        {
            add.extend(faster_than_interface_note(r, limit, &why));
        }
        if write {
            // A write that wrote nothing (EROFS, EACCES at its start) went nowhere, not to RAM.
            if r.bytes > 0 {
                add.extend(fs_note.clone());
            }
            if r.test == TestName::SeqWrite && r.error.is_none() {
                add.extend(cache_note(r, d.and_then(|d| d.class.get())));
            }
        }
        for n in add {
            if !r.notes.contains(&n) {
                r.notes.push(n);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::LiveHost;

    #[test]
    fn a_ram_disk_says_so_and_only_when_it_was_read() {
        let r = BenchResult {
            disk: "zram3".into(),
            bytes: 4 * GIB,
            ..BenchResult::default()
        };
        let n = ram_note(&r, Some(DeviceClass::Ram)).unwrap();
        assert!(n.starts_with("zram3 is a RAM disk"), "{n}");
        assert_eq!(ram_note(&r, Some(DeviceClass::Ssd)), None);
        let nothing = BenchResult { bytes: 0, ..r };
        assert_eq!(ram_note(&nothing, Some(DeviceClass::Ram)), None);
    }

    #[test]
    fn caps_follow_the_class() {
        assert_eq!(write_cap(Some(DeviceClass::Hdd)), GIB);
        assert_eq!(write_cap(Some(DeviceClass::Nvme)), 8 * GIB);
        assert_eq!(write_cap(Some(DeviceClass::Ram)), GIB);
        assert_eq!(write_cap(None), 4 * GIB);
    }

    #[test]
    fn amount_note_says_when_the_cache_may_have_answered() {
        let r = BenchResult {
            bytes: 39 * MIB,
            elapsed_ns: 18_000_000,
            ..BenchResult::default()
        };
        let n = amount_note(&r, 39 * MIB);
        assert_eq!(
            n,
            "wrote 39.0 MiB in 0.02 s (1.0 passes over a 39.0 MiB scratch region)"
        );
        let c = cache_note(&r, Some(DeviceClass::Ssd)).unwrap();
        assert!(c.contains("cache may have answered"), "{c}");
        let big = BenchResult {
            bytes: 3 * GIB,
            elapsed_ns: 5_000_000_000,
            ..BenchResult::default()
        };
        assert!(amount_note(&big, GIB).contains("3.0 passes"));
        assert!(
            cache_note(&big, Some(DeviceClass::Ssd))
                .unwrap()
                .contains("more than")
        );
        assert!(cache_note(&big, Some(DeviceClass::Ram)).is_none());
        assert!(small_file_note(GIB, GIB, 10 * GIB).is_none());
        assert!(
            small_file_note(64 * MIB, GIB, 256 * MIB)
                .unwrap()
                .contains("only 256.0 MiB free")
        );
    }

    #[test]
    fn ram_and_zfs_targets_are_named() {
        let (n, fsync) = fstype_note("tmpfs").unwrap();
        assert!(n.contains("went to RAM") && !fsync);
        let (n, fsync) = fstype_note("zfs").unwrap();
        assert!(n.contains("ARC") && fsync);
        assert!(fstype_note("ext4").is_none());
        assert!(os_needs_fsync(true) && !os_needs_fsync(false));
    }

    /// The FreeBSD statfs decisions, on the filesystem types of a `mount -p` listing (its
    /// third column is getmntinfo(3)'s f_fstypename, what statfs(2) gives the write test).
    /// The listing is NOT A CAPTURE: built from mount.c's putfsent() layout
    /// (tests/fixtures/INDEX.md).
    #[test]
    fn freebsd_write_timing_follows_the_filesystem_type() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/fixtures/freebsd-probe/mount-p/printf-fbsd14-zfs-root-efi-ufs-label.txt"
        ))
        .unwrap();
        let mounts = diskdoc_core::sources::mount_p::parse(&text);
        let fstype = |mp: &str| {
            mounts
                .iter()
                .find(|m| m.mountpoint == mp)
                .map(|m| m.fstype.clone())
                .unwrap()
        };
        // ZFS home: O_DIRECT is accepted but the writes land in the ARC; fsync is timed and
        // the note says what was measured.
        let (fsync, notes) = write_timing(true, Some(&fstype("/usr/home")), true);
        assert!(fsync);
        assert!(
            notes.iter().any(|n| n.contains("ZFS") && n.contains("ARC")),
            "{notes:?}"
        );
        // UFS: no filesystem note, but FreeBSD's O_DIRECT writes are asynchronous, so the
        // final fsync is timed all the same.
        let (fsync, notes) = write_timing(true, Some(&fstype("/data")), true);
        assert!(fsync);
        assert_eq!(notes, ["the final fsync(2) is inside the timed region"]);
        // The same UFS decision on Linux (O_DIRECT honoured): nothing to add.
        assert_eq!(write_timing(false, Some("ufs"), true), (false, Vec::new()));
        // tmpfs (statfs says "tmpfs" on FreeBSD too): RAM, named; refused O_DIRECT: timed.
        let (fsync, notes) = write_timing(true, Some("tmpfs"), false);
        assert!(fsync);
        assert!(notes[0].contains("went to RAM"), "{notes:?}");
        assert!(notes[1].contains("refused O_DIRECT"), "{notes:?}");
        // statfs failed: FreeBSD still times the fsync.
        assert!(write_timing(true, None, true).0);
    }

    #[test]
    fn loop_without_dio_is_flagged() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().join("sys/block/loop7/loop");
        std::fs::create_dir_all(&base).unwrap();
        std::fs::write(base.join("dio"), "0\n").unwrap();
        std::fs::write(base.join("backing_file"), "/var/tmp/img\n").unwrap();
        let mut h = LiveHost::with_root(dir.path());
        let n = loop_note(&mut h, "loop7").unwrap();
        assert!(n.contains("page cache of /var/tmp/img"), "{n}");
        std::fs::write(base.join("dio"), "1\n").unwrap();
        assert!(loop_note(&mut h, "loop7").is_none());
        assert!(loop_note(&mut h, "sda").is_none());
    }

    #[test]
    fn a_scratch_dir_on_a_loop_without_dio_is_flagged() {
        let root = tempfile::tempdir().unwrap();
        let r = root.path();
        let base = r.join("sys/block/loop3/loop");
        std::fs::create_dir_all(&base).unwrap();
        std::fs::write(base.join("dio"), "0\n").unwrap();
        std::fs::write(base.join("backing_file"), "/var/tmp/w.img\n").unwrap();
        std::fs::create_dir_all(r.join("sys/dev/block")).unwrap();
        std::fs::create_dir_all(r.join("sys/devices/virtual/block/loop3/loop3p1")).unwrap();
        std::os::unix::fs::symlink(
            "../../devices/virtual/block/loop3/loop3p1",
            r.join("sys/dev/block/259:0"),
        )
        .unwrap();
        std::fs::create_dir_all(r.join("proc/self")).unwrap();
        // Two mounts: / and /mnt/w on loop3p1 (mountinfo fields as proc(5) lists them).
        std::fs::write(
            r.join("proc/self/mountinfo"),
            "22 1 254:1 / / rw,relatime shared:1 - ext4 /dev/vda1 rw\n\
             90 22 259:0 / /mnt/w rw,relatime shared:40 - ext4 /dev/loop3p1 rw\n",
        )
        .unwrap();
        let mut h = LiveHost::with_root(r);
        let n = scratch_loop_note(&mut h, Path::new("/mnt/w/sub")).unwrap();
        assert!(n.contains("on loop3, which has direct I/O off"), "{n}");
        assert!(n.contains("page cache of /var/tmp/w.img"), "{n}");
        assert!(scratch_loop_note(&mut h, Path::new("/srv")).is_none());
        std::fs::write(base.join("dio"), "1\n").unwrap();
        assert!(scratch_loop_note(&mut h, Path::new("/mnt/w")).is_none());
        assert_eq!(loop_disk_of("loop12p3"), "loop12");
        assert_eq!(loop_disk_of("loop12"), "loop12");
        assert_eq!(loop_disk_of("loopy"), "loopy");
    }

    #[test]
    fn faster_than_the_link_is_noted() {
        let r = BenchResult {
            bytes: 1,
            bytes_per_sec: 900e6,
            ..BenchResult::default()
        };
        assert!(faster_than_interface_note(&r, 600e6, "SATA 6 Gb/s").is_some());
        assert!(faster_than_interface_note(&r, 1000e6, "x").is_none());
    }
}
