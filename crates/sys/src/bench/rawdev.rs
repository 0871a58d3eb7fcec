//! The raw-device write test's device handle: the path is resolved once (canonicalize(3),
//! refusing anything that is not a block device under /dev), the device is opened once and
//! exclusively (Linux O_EXCL: EBUSY while mounted in any mount namespace or claimed; FreeBSD:
//! GEOM's write-access refusal, g_access(9)), fstat(2) on that descriptor must show the same
//! block device, and every check (occupancy by the descriptor's dev_t, signatures, `blkid -p`)
//! reads through that descriptor, which stays open through the typed confirmation and is the
//! one the writes go through. Nothing is re-opened by path.
//!
//! References: open(2) ("O_EXCL ... on Linux 2.6 and later, O_EXCL can be used without O_CREAT
//! if pathname refers to a block device. If the block device is in use by the system (e.g.,
//! mounted), open() fails with the error EBUSY"); sysfs-dev(5) /sys/dev/block/MAJ:MIN;
//! sysfs-block(5) `partition`, `holders/`; proc(5) /proc/PID/mountinfo, /proc/swaps,
//! /proc/PID/ns/mnt; blkid(8) -p low-level probing, exit codes 0/2/8.

use std::fs::File;
use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::fs::{FileExt, FileTypeExt, MetadataExt};
use std::path::{Path, PathBuf};

use super::plan::{self, Geometry};
use super::safety::{self, Occupancy};
use super::suite::describe_open_error;
use crate::host::{Host, LiveHost};
use diskdoc_core::evidence::Capture;

const NEEDS: &str = "--destructive needs a block device under /dev";

/// Resolve what the person named, once: relative names are under /dev ("sdb"), every
/// symlink and `..` is resolved, and the result must be a block device under /dev. Returns
/// the canonical path and its lstat(2).
pub fn resolve(dev: &str) -> Result<(PathBuf, std::fs::Metadata), String> {
    let given = dev.trim();
    if given.is_empty() || given.contains('\0') {
        return Err(format!("refusing {dev:?}: {NEEDS}"));
    }
    let p = if given.starts_with('/') {
        PathBuf::from(given)
    } else {
        Path::new("/dev").join(given)
    };
    let canon = std::fs::canonicalize(&p)
        .map_err(|e| format!("{}; {NEEDS}", describe_open_error(&p, &e, true)))?;
    if !canon.starts_with("/dev") || canon.starts_with("/dev/shm") {
        return Err(format!(
            "refusing {dev:?}: it resolves to {}, which is not a device node under /dev; {NEEDS}",
            canon.display()
        ));
    }
    let meta = std::fs::symlink_metadata(&canon)
        .map_err(|e| format!("{}; {NEEDS}", describe_open_error(&canon, &e, true)))?;
    let ft = meta.file_type();
    if !ft.is_block_device() {
        let kind = if ft.is_file() {
            "a regular file"
        } else if ft.is_char_device() {
            "a character device"
        } else if ft.is_dir() {
            "a directory"
        } else if ft.is_symlink() {
            "a symbolic link that changed while diskdoc resolved it"
        } else {
            "not a block device"
        };
        return Err(format!(
            "refusing {dev:?} ({}): it is {kind}; {NEEDS}",
            canon.display()
        ));
    }
    Ok((canon, meta))
}

/// The errno with which the exclusive open says "in use" (Linux EBUSY; FreeBSD GEOM EPERM).
fn exclusive_refusal(e: &io::Error) -> bool {
    #[cfg(target_os = "freebsd")]
    let busy = libc::EPERM;
    #[cfg(not(target_os = "freebsd"))]
    let busy = libc::EBUSY;
    e.raw_os_error() == Some(busy)
}

/// A block device opened once for the destructive test.
#[derive(Debug)]
pub struct RawDevice {
    file: File,
    /// The canonical path (what the person types back).
    pub path: String,
    /// The kernel name (the path's last component).
    pub name: String,
    rdev: u64,
}

/// Why the device was refused: the reasons, or a plain error (not found, no permission).
#[derive(Debug)]
pub enum OpenRefusal {
    /// The canonical path and why it is in use.
    InUse(String, Box<Occupancy>),
    Error(String),
}

impl RawDevice {
    /// Resolve `dev` once and open it once, exclusively; on "in use" the occupancy found by
    /// its device number says why.
    pub fn open(host: &mut LiveHost, dev: &str) -> Result<RawDevice, OpenRefusal> {
        let (canon, meta) = resolve(dev).map_err(OpenRefusal::Error)?;
        let path = canon.display().to_string();
        let name = canon
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let file = match crate::os::open_raw_exclusive(&canon) {
            Ok(f) => f,
            Err(e) if exclusive_refusal(&e) => {
                let mut occ = occupancy(host, &path, meta.rdev());
                occ.exclusive_refused = Some(e.to_string());
                return Err(OpenRefusal::InUse(path, Box::new(occ)));
            }
            Err(e) => {
                return Err(OpenRefusal::Error(describe_open_error(&canon, &e, true)));
            }
        };
        // fstat(2) the descriptor: the node must still be that block device (a rename or
        // mknod between resolve and open would show here).
        let fmeta = file
            .metadata()
            .map_err(|e| OpenRefusal::Error(format!("cannot fstat {path}: {e}")))?;
        if !fmeta.file_type().is_block_device() || fmeta.rdev() != meta.rdev() {
            return Err(OpenRefusal::Error(format!(
                "refusing {path}: what was opened is not the block device that was checked \
                 (it changed between the check and the open)"
            )));
        }
        Ok(RawDevice {
            file,
            path,
            name,
            rdev: fmeta.rdev(),
        })
    }

    /// The open descriptor (the writes go through dups of it).
    pub fn file(&self) -> &File {
        &self.file
    }

    /// Size (lseek(SEEK_END) on the descriptor) and sector sizes (this OS's ioctls on the
    /// descriptor, decided by bench::geometry: on FreeBSD DIOCGSECTORSIZE, and
    /// DIOCGSTRIPESIZE only when it is a physical sector rather than a RAID stripe).
    pub fn geometry(&self) -> Result<Geometry, String> {
        use std::io::{Seek, SeekFrom};
        let mut f = &self.file;
        let size = f
            .seek(SeekFrom::End(0))
            .map_err(|e| format!("cannot size {}: {e}", self.path))?;
        if size == 0 {
            return Err(format!(
                "{} has size 0 (no medium, an unconfigured loop device?)",
                self.path
            ));
        }
        let num = |req| {
            crate::os::ioctl_file(&self.file, req)
                .data()
                .and_then(|d| d.trim().parse::<u64>().ok())
        };
        let platform = crate::host::current_platform();
        let (_, logical_req, physical_req) = super::geometry::requests(platform);
        Ok(super::geometry::from_answers(
            platform,
            size,
            num(logical_req),
            num(physical_req),
        ))
    }

    /// Who uses the device, by its device number.
    pub fn occupancy(&self, host: &mut LiveHost) -> Occupancy {
        occupancy(host, &self.path, self.rdev)
    }

    /// Signatures read through the descriptor (the first and last MiB), then `blkid -p` on
    /// the same open file as a second opinion. Any one finding refuses. Also returns notes
    /// (blkid could not give an opinion).
    pub fn signatures(
        &self,
        host: &mut LiveHost,
        size: u64,
    ) -> Result<(Vec<String>, Vec<String>), String> {
        let win = plan::MIB.min(size);
        let head = read_window(&self.file, &self.path, 0, win)?;
        let tail = read_window(&self.file, &self.path, size - win, win)?;
        let mut reasons: Vec<String> = safety::find_signatures(&head, &tail, size)
            .into_iter()
            .map(|s| format!("it holds data: {} at byte {}", s.what, s.offset))
            .collect();
        let mut notes = Vec::new();
        match blkid_opinion(host, &self.file) {
            Ok(found) => reasons.extend(found.into_iter().map(|f| format!("it holds data: {f}"))),
            Err(why) => notes.push(format!(
                "blkid -p gave no opinion ({why}); diskdoc's own signature table was used alone"
            )),
        }
        Ok((reasons, notes))
    }
}

/// pread(2) `len` bytes at `offset` through the open descriptor.
fn read_window(f: &File, path: &str, offset: u64, len: u64) -> Result<Vec<u8>, String> {
    let mut buf = vec![0u8; len as usize];
    let mut got = 0usize;
    while got < buf.len() {
        match f.read_at(&mut buf[got..], offset + got as u64) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => {
                return Err(format!(
                    "cannot read {path} at byte {}: {e}",
                    offset + got as u64
                ));
            }
        }
    }
    buf.truncate(got);
    Ok(buf)
}

/// `blkid -p -o export` on the open descriptor: /proc/<our pid>/fd/<fd> names the inode this
/// process opened (proc(5) /proc/PID/fd), so blkid reads the device that was checked, not
/// whatever the name points to now. blkid opens read-only and not exclusively, which the
/// kernel allows next to our O_EXCL open.
fn blkid_opinion(host: &mut LiveHost, f: &File) -> Result<Vec<String>, String> {
    if !cfg!(target_os = "linux") {
        return Err("blkid is a Linux tool".into());
    }
    let fd_path = format!("/proc/{}/fd/{}", std::process::id(), f.as_raw_fd());
    match host.run(&["blkid", "-p", "-o", "export", &fd_path]) {
        Capture::Ok {
            data, exit_code, ..
        } => Ok(safety::blkid_findings(&data, exit_code)),
        Capture::Unavailable { detail, .. } => {
            // exec::run reports a failed tool with empty output as "blkid exited N: stderr".
            let code = detail
                .strip_prefix("blkid exited ")
                .and_then(|r| r.split(':').next())
                .and_then(|c| c.trim().parse::<i32>().ok());
            match code {
                Some(2) => Ok(Vec::new()),
                Some(8) => Ok(safety::blkid_findings("", Some(8))),
                _ => Err(detail),
            }
        }
    }
}

/// Occupancy of the block device `rdev` from sysfs (by MAJ:MIN, not by name), the mount
/// tables of every mount namespace, and /proc/swaps; for a partition also its siblings.
#[cfg(target_os = "linux")]
pub fn occupancy(host: &mut LiveHost, path: &str, rdev: u64) -> Occupancy {
    use crate::host::HostExt;
    use nix::sys::stat::{major, minor};
    let mm = format!("{}:{}", major(rdev), minor(rdev));
    let mut o = Occupancy::default();
    let swaps = swap_devices();
    let Some(dir) = host
        .real_path(&format!("/sys/dev/block/{mm}"))
        .data()
        .map(|d| d.trim().to_string())
    else {
        o.mounts = mounts_everywhere(host, &mm, path);
        return o;
    };
    let name = dir.rsplit('/').next().unwrap_or_default().to_string();
    for e in host.entries(&dir) {
        if e.starts_with(&name) && host.text(&format!("{dir}/{e}/partition")).is_some() {
            o.partitions.push(e);
        }
    }
    o.holders = host.entries(&format!("{dir}/holders"));
    o.mounts = mounts_everywhere(host, &mm, path);
    if swaps.contains(&mm) {
        o.swaps.push(path.to_string());
    }
    // A partition's disk is its parent directory in sysfs (sysfs-block(5)).
    if host.text(&format!("{dir}/partition")).is_some()
        && let Some((parent, disk)) = dir.rsplit_once('/').and_then(|(p, _)| {
            p.rsplit_once('/')
                .map(|(_, d)| (p.to_string(), d.to_string()))
        })
    {
        let mut members: Vec<String> = host
            .entries(&parent)
            .into_iter()
            .filter(|e| *e != name && e.starts_with(&disk))
            .filter(|e| host.text(&format!("{parent}/{e}/partition")).is_some())
            .collect();
        members.insert(0, disk.clone());
        for m in members {
            let base = if m == disk {
                parent.clone()
            } else {
                format!("{parent}/{m}")
            };
            let Some(mmm) = host.text(&format!("{base}/dev")) else {
                continue;
            };
            let mut why = Vec::new();
            let holders = host.entries(&format!("{base}/holders"));
            if !holders.is_empty() {
                why.push(format!("held by {}", holders.join(", ")));
            }
            let mounts = mounts_everywhere(host, &mmm, &format!("/dev/{m}"));
            if !mounts.is_empty() {
                why.push(format!("mounted on {}", mounts.join(", ")));
            }
            if swaps.contains(&mmm) {
                why.push("in use as swap".into());
            }
            if !why.is_empty() {
                let who = if m == disk {
                    format!("the disk {m}")
                } else {
                    m.clone()
                };
                o.siblings_in_use.push(format!("{who} {}", why.join(", ")));
            }
        }
    }
    o
}

/// FreeBSD: the geoms stacked on the provider (kern.geom.conftxt). A mounted filesystem or a
/// GEOM class holding it exclusively already made the write open fail (g_access(9)).
#[cfg(target_os = "freebsd")]
pub fn occupancy(host: &mut LiveHost, path: &str, _rdev: u64) -> Occupancy {
    let name = path.trim_start_matches("/dev/");
    let conf = host.sysctl("kern.geom.conftxt");
    Occupancy {
        geom_consumers: conf
            .data()
            .map(|c| safety::geom_children(c, name))
            .unwrap_or_default(),
        ..Occupancy::default()
    }
}

#[cfg(not(any(target_os = "linux", target_os = "freebsd")))]
pub fn occupancy(_host: &mut LiveHost, _path: &str, _rdev: u64) -> Occupancy {
    Occupancy::default()
}

/// MAJ:MIN of every block device /proc/swaps lists (stat(2) of each listed name: the name is
/// what swapon was given, so compare device numbers, not strings).
#[cfg(target_os = "linux")]
fn swap_devices() -> Vec<String> {
    use nix::sys::stat::{major, minor};
    let Ok(text) = std::fs::read_to_string("/proc/swaps") else {
        return Vec::new();
    };
    text.lines()
        .skip(1)
        .filter_map(|l| l.split_whitespace().next())
        .filter_map(|p| std::fs::metadata(p).ok())
        .filter(|m| m.file_type().is_block_device())
        .map(|m| format!("{}:{}", major(m.rdev()), minor(m.rdev())))
        .collect()
}

/// Mount points of `mm` (or of source `path`) in this mount namespace (recorded) and in every
/// other one a process lives in (/proc/PID/mountinfo, one process per namespace).
#[cfg(target_os = "linux")]
fn mounts_everywhere(host: &mut LiveHost, mm: &str, path: &str) -> Vec<String> {
    use crate::host::HostExt;
    let mut out = host
        .text("/proc/self/mountinfo")
        .map(|mi| safety::mounts_of_dev(&mi, mm, path))
        .unwrap_or_default();
    let mut seen = std::collections::BTreeSet::new();
    if let Ok(own) = std::fs::read_link("/proc/self/ns/mnt") {
        seen.insert(own);
    }
    let Ok(rd) = std::fs::read_dir("/proc") else {
        return out;
    };
    for e in rd.flatten() {
        let pid = e.file_name().to_string_lossy().into_owned();
        if !pid.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let Ok(ns) = std::fs::read_link(format!("/proc/{pid}/ns/mnt")) else {
            continue;
        };
        if !seen.insert(ns) {
            continue;
        }
        let Ok(mi) = std::fs::read_to_string(format!("/proc/{pid}/mountinfo")) else {
            continue;
        };
        for mp in safety::mounts_of_dev(&mi, mm, path) {
            out.push(format!("{mp} (in the mount namespace of pid {pid})"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolve_refuses_what_is_not_a_block_device_under_dev() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("img");
        std::fs::write(&f, b"x").unwrap();
        let e = resolve(f.to_str().unwrap()).unwrap_err();
        assert!(e.contains("not a device node under /dev"), "{e}");
        let e = resolve("/dev/../tmp").unwrap_err();
        assert!(e.contains("resolves to /tmp"), "{e}");
        let e = resolve("../etc/passwd").unwrap_err();
        assert!(e.contains("resolves to /etc/passwd"), "{e}");
        let e = resolve("/dev/null").unwrap_err();
        assert!(e.contains("a character device"), "{e}");
        let e = resolve("/dev/diskdoc-no-such").unwrap_err();
        assert!(e.contains("does not exist"), "{e}");
        let e = resolve("").unwrap_err();
        assert!(e.contains(NEEDS), "{e}");
    }
}
