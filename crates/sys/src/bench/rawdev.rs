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

use super::error::MeasureError;
use super::plan::{self, Geometry};
use super::safety::{self, Occupancy};
use super::suite::describe_open_error;
use crate::host::{Host, LiveHost};
use diskdoc_core::evidence::Capture;
use diskdoc_core::safety::blank;
#[cfg(target_os = "linux")]
use diskdoc_core::safety::loops;

/// Resolve what the person named, once: relative names are under /dev ("sdb"), every
/// symlink and `..` is resolved, and the result must be a block device under /dev. Returns
/// the canonical path and its lstat(2).
pub fn resolve(dev: &str) -> Result<(PathBuf, std::fs::Metadata), MeasureError> {
    let given = dev.trim();
    if given.is_empty() || given.contains('\0') {
        return Err(MeasureError::NotAPath {
            given: dev.to_string(),
        });
    }
    let p = if given.starts_with('/') {
        PathBuf::from(given)
    } else {
        Path::new("/dev").join(given)
    };
    let canon = std::fs::canonicalize(&p).map_err(|e| MeasureError::Unresolvable {
        advice: describe_open_error(&p, &e, true),
    })?;
    if !canon.starts_with("/dev") || canon.starts_with("/dev/shm") {
        return Err(MeasureError::OutsideDev {
            given: dev.to_string(),
            canonical: canon,
        });
    }
    let meta = std::fs::symlink_metadata(&canon).map_err(|e| MeasureError::Unresolvable {
        advice: describe_open_error(&canon, &e, true),
    })?;
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
        return Err(MeasureError::NotABlockDevice {
            given: dev.to_string(),
            canonical: canon,
            kind,
        });
    }
    Ok((canon, meta))
}

/// Whether the exclusive open's error says "in use" on this platform.
fn exclusive_refusal(e: &io::Error) -> bool {
    e.raw_os_error()
        .is_some_and(|n| safety::in_use_errno(crate::host::current_platform(), n))
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
    Error(MeasureError),
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
        // FreeBSD: the GEOM access counts before diskdoc's own open. The write open below
        // only fails while someone holds an exclusive count; a reader or writer through
        // /dev (which never takes one) shows only here.
        #[cfg(target_os = "freebsd")]
        {
            let occ = occupancy(host, &path, meta.rdev(), false);
            if occ.open_by_others.is_some() {
                return Err(OpenRefusal::InUse(path, Box::new(occ)));
            }
        }
        let file = match crate::os::open_raw_exclusive(&canon) {
            Ok(f) => f,
            Err(e) if exclusive_refusal(&e) => {
                let mut occ = occupancy(host, &path, meta.rdev(), false);
                occ.exclusive_refused = Some(e.to_string());
                return Err(OpenRefusal::InUse(path, Box::new(occ)));
            }
            Err(e) => {
                return Err(OpenRefusal::Error(MeasureError::Open {
                    advice: describe_open_error(&canon, &e, true),
                    path: canon,
                }));
            }
        };
        // fstat(2) the descriptor: the node must still be that block device (a rename or
        // mknod between resolve and open would show here).
        let fmeta = file.metadata().map_err(|e| {
            OpenRefusal::Error(MeasureError::Fstat {
                path: path.clone(),
                source: e,
            })
        })?;
        if !fmeta.file_type().is_block_device() || fmeta.rdev() != meta.rdev() {
            return Err(OpenRefusal::Error(MeasureError::Changed { path }));
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
    pub fn geometry(&self) -> Result<Geometry, MeasureError> {
        use std::io::{Seek, SeekFrom};
        let mut f = &self.file;
        let size = f.seek(SeekFrom::End(0)).map_err(|e| MeasureError::Size {
            path: self.path.clone(),
            source: e,
        })?;
        if size == 0 {
            return Err(MeasureError::Empty {
                path: self.path.clone(),
                hint: "no medium, an unconfigured loop device?",
            });
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
    pub fn occupancy(&self, host: &mut dyn Host) -> Occupancy {
        occupancy(host, &self.path, self.rdev, true)
    }

    /// Signatures read through the descriptor (the first and last MiB), then `blkid -p` on
    /// the same open file as a second opinion. Any one finding refuses. Also returns notes
    /// (blkid could not give an opinion).
    pub fn signatures(
        &self,
        host: &mut LiveHost,
        size: u64,
    ) -> Result<(Vec<String>, Vec<String>), MeasureError> {
        let win = plan::MIB.min(size);
        let head = read_window(&self.file, &self.path, 0, win)?;
        let tail = read_window(&self.file, &self.path, size - win, win)?;
        let mut reasons: Vec<String> = safety::find_signatures(&head, &tail, size)
            .into_iter()
            .map(|s| format!("it holds data: {} at byte {}", s.what, s.offset))
            .collect();
        if let Some(r) = self.blank_refusal(size)? {
            reasons.push(r);
        }
        let mut notes = Vec::new();
        match blkid_opinion(host, &self.file) {
            Blkid::Found(found) => {
                reasons.extend(found.into_iter().map(|f| format!("it holds data: {f}")))
            }
            Blkid::Silent(why) => notes.push(format!(
                "blkid -p gave no opinion ({why}); diskdoc's own signature table was used alone"
            )),
        }
        Ok((reasons, notes))
    }
}

impl RawDevice {
    /// The blank check ([`blank::judge`]) on the sample [`blank::sample_plan`] names, read
    /// through this descriptor: None when every sampled byte is one fill byte, else the
    /// refusal naming what was found, where, and how to make the device blank.
    pub fn blank_refusal(&self, size: u64) -> Result<Option<String>, MeasureError> {
        // Drop the device's cached pages first, so the sample is what the medium holds and
        // not what an earlier reader left in the page cache (posix_fadvise(2)
        // POSIX_FADV_DONTNEED on a block device invalidates its clean pages). Best effort:
        // a failure only leaves the cache as it was.
        #[cfg(any(target_os = "linux", target_os = "freebsd"))]
        let _ = nix::fcntl::posix_fadvise(
            &self.file,
            0,
            0,
            nix::fcntl::PosixFadviseAdvice::POSIX_FADV_DONTNEED,
        );
        let mut sample = Vec::new();
        for r in blank::sample_plan(size) {
            sample.push((
                r.offset,
                read_window(&self.file, &self.path, r.offset, r.len)?,
            ));
        }
        let view: Vec<(u64, &[u8])> = sample.iter().map(|(o, b)| (*o, b.as_slice())).collect();
        Ok(blank::refusal(&blank::judge(&view), &self.path))
    }
}

/// pread(2) `len` bytes at `offset` through the open descriptor.
fn read_window(f: &File, path: &str, offset: u64, len: u64) -> Result<Vec<u8>, MeasureError> {
    let mut buf = vec![0u8; len as usize];
    let mut got = 0usize;
    while got < buf.len() {
        match f.read_at(&mut buf[got..], offset + got as u64) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => {
                return Err(MeasureError::Read {
                    path: path.to_string(),
                    offset: offset + got as u64,
                    source: e,
                });
            }
        }
    }
    buf.truncate(got);
    Ok(buf)
}

/// What `blkid -p` said about the device.
enum Blkid {
    /// The signatures it found (none: it found nothing).
    Found(Vec<String>),
    /// It gave no opinion, and why (not on this OS, it failed).
    Silent(String),
}

/// `blkid -p -o export` on the open descriptor: /proc/<our pid>/fd/<fd> names the inode this
/// process opened (proc(5) /proc/PID/fd), so blkid reads the device that was checked, not
/// whatever the name points to now. blkid opens read-only and not exclusively, which the
/// kernel allows next to our O_EXCL open.
fn blkid_opinion(host: &mut LiveHost, f: &File) -> Blkid {
    if !cfg!(target_os = "linux") {
        return Blkid::Silent("blkid is a Linux tool".into());
    }
    let fd_path = format!("/proc/{}/fd/{}", std::process::id(), f.as_raw_fd());
    match host.run(&["blkid", "-p", "-o", "export", &fd_path]) {
        Capture::Ok {
            data, exit_code, ..
        } => Blkid::Found(safety::blkid_findings(&data, exit_code)),
        Capture::Unavailable { detail, .. } => {
            // exec::run reports a failed tool with empty output as "blkid exited N: stderr".
            let code = detail
                .strip_prefix("blkid exited ")
                .and_then(|r| r.split(':').next())
                .and_then(|c| c.trim().parse::<i32>().ok());
            match code {
                Some(2) => Blkid::Found(Vec::new()),
                Some(8) => Blkid::Found(safety::blkid_findings("", Some(8))),
                _ => Blkid::Silent(detail),
            }
        }
    }
}

/// Occupancy of the block device `rdev` from sysfs (by MAJ:MIN, not by name), the mount
/// tables of every mount namespace, and /proc/swaps; for a partition also its siblings.
/// Every read goes through the `Host`, so a refusal's evidence lands in the
/// bundle and a fake tree (`LiveHost::with_root`) drives it in tests; only the device
/// itself is read through the exclusive descriptor.
/// On Linux also every loop device that shares its bytes, and every device below it in a
/// loop chain that is in use ([`loop_chain_reasons`]).
#[cfg(target_os = "linux")]
pub fn occupancy(host: &mut dyn Host, path: &str, rdev: u64, _held_by_us: bool) -> Occupancy {
    let mm = maj_min(rdev);
    let mut o = linux_occupancy(host, path, &mm);
    o.loops = loop_chain_reasons(host, path, &mm);
    o
}

/// sysfs-dev(5) spelling of a device number: "MAJ:MIN".
#[cfg(target_os = "linux")]
fn maj_min(rdev: u64) -> String {
    use nix::sys::stat::{major, minor};
    format!("{}:{}", major(rdev), minor(rdev))
}

/// Every block device the kernel knows (sysfs-block(5) /sys/class/block/NAME: `dev`; a
/// partition has a `partition` file and its whole disk is its parent directory).
#[cfg(target_os = "linux")]
fn block_devices(host: &mut dyn Host) -> Vec<loops::BlockDev> {
    use crate::host::HostExt;
    let mut out = Vec::new();
    for name in host.entries("/sys/class/block") {
        let base = format!("/sys/class/block/{name}");
        let Some(devno) = host.text(&format!("{base}/dev")) else {
            continue;
        };
        let mut disk = None;
        if host.text(&format!("{base}/partition")).is_some() {
            let real = host.real_path(&base).data().map(|p| p.trim().to_string());
            if let Some((parent, _)) = real.as_deref().and_then(|p| p.rsplit_once('/')) {
                disk = host.text(&format!("{parent}/dev"));
            }
        }
        out.push(loops::BlockDev { devno, name, disk });
    }
    out
}

/// Every configured loop device (its /sys/block/loopN/loop/ directory exists only while it
/// has a backing file, sysfs-block(5)) with what backs it.
#[cfg(target_os = "linux")]
fn loop_devices(host: &mut dyn Host, devices: &[loops::BlockDev]) -> Vec<loops::LoopDev> {
    use crate::host::HostExt;
    let mut out = Vec::new();
    for d in devices
        .iter()
        .filter(|d| d.disk.is_none() && d.name.starts_with("loop"))
    {
        let base = format!("/sys/block/{}/loop", d.name);
        let Some(path) = host.text(&format!("{base}/backing_file")) else {
            continue;
        };
        let mut num = |f: &str| {
            host.text(&format!("{base}/{f}"))
                .and_then(|t| t.parse::<u64>().ok())
                .unwrap_or(0)
        };
        let (offset, sizelimit) = (num("offset"), num("sizelimit"));
        out.push(loops::LoopDev {
            name: d.name.clone(),
            devno: d.devno.clone(),
            backing: loop_backing(&d.name, &d.devno, &path),
            offset,
            sizelimit,
        });
    }
    out
}

/// What backs loop device `name`: the kernel's own answer (LOOP_GET_STATUS64 on /dev/NAME,
/// checked to be that device), which holds whatever the backing file's name is now and in
/// whichever mount namespace it was opened; else the path sysfs shows (backing_file, with
/// " (deleted)" when the file was unlinked), stat(2)ed in this namespace.
#[cfg(target_os = "linux")]
fn loop_backing(name: &str, devno: &str, path: &str) -> loops::Backing {
    use std::os::unix::fs::OpenOptionsExt;
    let node = Path::new("/dev").join(name);
    let opened = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW)
        .open(&node);
    let why = match opened {
        Ok(f) => match f.metadata() {
            Ok(m) if m.file_type().is_block_device() && maj_min(m.rdev()) == devno => {
                match crate::os::loop_status(&f) {
                    Ok(st) if st.rdev != 0 => return loops::Backing::Block(maj_min(st.rdev)),
                    Ok(st) => {
                        return loops::Backing::File {
                            dev: st.dev,
                            ino: st.ino,
                            path: path.to_string(),
                        };
                    }
                    Err(e) => format!("LOOP_GET_STATUS64 on {}: {e}", node.display()),
                }
            }
            Ok(_) => format!("{} is not the loop device {devno}", node.display()),
            Err(e) => format!("cannot fstat {}: {e}", node.display()),
        },
        Err(e) => format!("cannot open {}: {e}", node.display()),
    };
    match std::fs::metadata(path) {
        Ok(m) if m.file_type().is_block_device() => loops::Backing::Block(maj_min(m.rdev())),
        Ok(m) if m.file_type().is_file() => loops::Backing::File {
            dev: m.dev(),
            ino: m.ino(),
            path: path.to_string(),
        },
        Ok(_) => loops::Backing::Unknown {
            path: path.to_string(),
            why: format!("{why}; the path is neither a block device nor a regular file"),
        },
        Err(e) => loops::Backing::Unknown {
            path: path.to_string(),
            why: format!("{why}; and the path: {e}"),
        },
    }
}

/// The loop chain through the device `mm` at `path` ([`loops::chain`]), as refusals:
/// - each device below it (the writes land there) must be unused: not mounted in any mount
///   namespace, without holders, not swap, and the kernel must let it be opened
///   exclusively right now ([`crate::os::probe_exclusive`]); its other partitions do not
///   matter (they hold other bytes);
/// - every other loop device on the same bytes refuses, with what uses it;
/// - a loop whose backing could not be identified refuses.
#[cfg(target_os = "linux")]
pub fn loop_chain_reasons(host: &mut dyn Host, path: &str, mm: &str) -> Vec<String> {
    let devices = block_devices(host);
    let loop_list = loop_devices(host, &devices);
    let chain = loops::chain(mm, &devices, &loop_list);
    let mut out = Vec::new();
    for b in &chain.below {
        let mut why = in_use(host, &b.name, &b.devno);
        if why.is_empty() {
            continue;
        }
        let at = if b.offset > 0 {
            format!(" at offset {}", blank::place(b.offset))
        } else {
            String::new()
        };
        why.sort();
        why.dedup();
        out.push(format!(
            "its writes land on {}{at} (through loop device {}), which is in use: {}",
            b.name,
            b.via,
            why.join("; ")
        ));
    }
    for a in &chain.aliases {
        let why = in_use(host, &a.name, &a.devno);
        let used = if why.is_empty() {
            String::new()
        } else {
            format!(", and {} is in use: {}", a.name, why.join("; "))
        };
        out.push(format!(
            "another loop device uses its bytes: {}{used} (writing {path} would change what {} \
             holds; `losetup -d /dev/{}` detaches it if nothing needs it)",
            a.describe(),
            a.name,
            a.name
        ));
    }
    out.extend(chain.unknown_reasons(path));
    out
}

/// Why device `name` ("MAJ:MIN" `mm`) is in use: mounted, held, swap, partitions, or the
/// kernel refusing an exclusive open; nothing about its sibling partitions.
#[cfg(target_os = "linux")]
fn in_use(host: &mut dyn Host, name: &str, mm: &str) -> Vec<String> {
    let dev = format!("/dev/{name}");
    let mut o = linux_occupancy(host, &dev, mm);
    o.siblings_in_use.clear();
    let rdev = mm
        .split_once(':')
        .and_then(|(a, b)| Some(nix::sys::stat::makedev(a.parse().ok()?, b.parse().ok()?)));
    match rdev.map(|r| crate::os::probe_exclusive(Path::new(&dev), r)) {
        Some(Ok(())) => {}
        Some(Err(e)) if exclusive_refusal(&e) => o.exclusive_refused = Some(e.to_string()),
        Some(Err(e)) => o.exclusive_refused = Some(format!("diskdoc could not check: {e}")),
        None => o.exclusive_refused = Some(format!("{mm} is not a device number")),
    }
    o.reasons_with(true)
}

/// Linux [`occupancy`] by the device's "MAJ:MIN" (sysfs-dev(5) spelling), from sysfs and procfs.
pub fn linux_occupancy(host: &mut dyn Host, path: &str, mm: &str) -> Occupancy {
    use crate::host::HostExt;
    let mut o = Occupancy::default();
    let swaps = swap_devices(host);
    let Some(dir) = host
        .real_path(&format!("/sys/dev/block/{mm}"))
        .data()
        .map(|d| d.trim().to_string())
    else {
        o.mounts = mounts_everywhere(host, mm, path);
        return o;
    };
    let name = dir.rsplit('/').next().unwrap_or_default().to_string();
    for e in host.entries(&dir) {
        if e.starts_with(&name) && host.text(&format!("{dir}/{e}/partition")).is_some() {
            o.partitions.push(e);
        }
    }
    o.holders = host.entries(&format!("{dir}/holders"));
    o.mounts = mounts_everywhere(host, mm, path);
    if swaps.iter().any(|s| s == mm) {
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

/// FreeBSD: the GEOM graph's consumers of the provider and its busy siblings
/// ([`safety::freebsd_occupancy`], read from kern.geom.confxml, else kern.geom.conftxt). A
/// mounted filesystem or a class holding it exclusively already made the write open fail
/// (g_access(9)); swap and idle tasters did not, which is why the graph is read too.
#[cfg(target_os = "freebsd")]
pub fn occupancy(host: &mut dyn Host, path: &str, _rdev: u64, held_by_us: bool) -> Occupancy {
    use diskdoc_core::sources::confxml::Access;
    let xml = host.sysctl("kern.geom.confxml");
    let txt = host.sysctl("kern.geom.conftxt");
    let mut o = safety::freebsd_occupancy(xml.data(), txt.data(), path);
    let own = if held_by_us {
        Access { r: 1, w: 1, e: 0 }
    } else {
        Access::default()
    };
    o.open_by_others = xml
        .data()
        .and_then(|x| safety::freebsd_open_by_others(x, path, own));
    o
}

#[cfg(not(any(target_os = "linux", target_os = "freebsd")))]
pub fn occupancy(_host: &mut dyn Host, _path: &str, _rdev: u64, _held_by_us: bool) -> Occupancy {
    Occupancy::default()
}

/// MAJ:MIN of every block device /proc/swaps lists. The listed name is what swapon was
/// given (a /dev/mapper symlink, say), so it is resolved and its kernel name's sysfs `dev`
/// compared, not the string (proc(5) /proc/swaps; sysfs-block(5) /sys/class/block/NAME/dev).
/// Swap files (not under /dev) have no device number to compare and are skipped: they
/// live on a mounted filesystem, which the mount tables already report.
fn swap_devices(host: &mut dyn Host) -> Vec<String> {
    use crate::host::HostExt;
    let Some(text) = host.read_file("/proc/swaps").data().map(str::to_string) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for p in text
        .lines()
        .skip(1)
        .filter_map(|l| l.split_whitespace().next())
    {
        if !p.starts_with("/dev/") {
            continue;
        }
        let Some(real) = host.real_path(p).data().map(|r| r.trim().to_string()) else {
            continue;
        };
        let Some(name) = real.strip_prefix("/dev/").filter(|n| !n.contains('/')) else {
            continue;
        };
        if let Some(mm) = host.text(&format!("/sys/class/block/{name}/dev")) {
            out.push(mm);
        }
    }
    out
}

/// Mount points of `mm` (or of source `path`) in this mount namespace and in every other one
/// a process lives in (/proc/PID/mountinfo, one process per namespace; the namespace is the
/// readlink(2) of /proc/PID/ns/mnt, namespaces(7)). Only one mountinfo per namespace is read,
/// so the bundle holds one table per namespace, not one per process.
fn mounts_everywhere(host: &mut dyn Host, mm: &str, path: &str) -> Vec<String> {
    use crate::host::HostExt;
    let mut out = host
        .read_file("/proc/self/mountinfo")
        .data()
        .map(|mi| safety::mounts_of_dev(mi, mm, path))
        .unwrap_or_default();
    let mut seen = std::collections::BTreeSet::new();
    if let Some(own) = host.read_link("/proc/self/ns/mnt").data() {
        seen.insert(own.to_string());
    }
    for pid in host.entries("/proc") {
        if pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let Some(ns) = host
            .read_link(&format!("/proc/{pid}/ns/mnt"))
            .data()
            .map(str::to_string)
        else {
            continue;
        };
        if !seen.insert(ns) {
            continue;
        }
        let Some(mi) = host
            .read_file(&format!("/proc/{pid}/mountinfo"))
            .data()
            .map(str::to_string)
        else {
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

    /// A fake machine root: sysfs for a loop device with two partitions, /proc with our own
    /// mount namespace and one other process in another namespace that mounts loop9p2.
    fn fake_root() -> tempfile::TempDir {
        use std::os::unix::fs::symlink;
        let d = tempfile::tempdir().unwrap();
        let w = |p: &str, t: &str| {
            let p = d.path().join(p);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, t).unwrap();
        };
        let disk = "sys/devices/virtual/block/loop9";
        w(&format!("{disk}/dev"), "7:9\n");
        w(&format!("{disk}/loop9p1/dev"), "259:0\n");
        w(&format!("{disk}/loop9p1/partition"), "1\n");
        w(&format!("{disk}/loop9p2/dev"), "259:1\n");
        w(&format!("{disk}/loop9p2/partition"), "2\n");
        std::fs::create_dir_all(d.path().join(format!("{disk}/holders"))).unwrap();
        std::fs::create_dir_all(d.path().join(format!("{disk}/loop9p1/holders"))).unwrap();
        std::fs::create_dir_all(d.path().join(format!("{disk}/loop9p2/holders"))).unwrap();
        std::fs::create_dir_all(d.path().join("sys/dev/block")).unwrap();
        for (mm, to) in [
            ("7:9", disk.to_string()),
            ("259:0", format!("{disk}/loop9p1")),
            ("259:1", format!("{disk}/loop9p2")),
        ] {
            symlink(
                d.path().join(to),
                d.path().join(format!("sys/dev/block/{mm}")),
            )
            .unwrap();
        }
        // proc(5) formats: mountinfo fields, /proc/swaps header; ns links name no path.
        w(
            "proc/self/mountinfo",
            "22 1 254:1 / / rw - ext4 /dev/vda1 rw\n",
        );
        std::fs::create_dir_all(d.path().join("proc/self/ns")).unwrap();
        symlink("mnt:[4026531841]", d.path().join("proc/self/ns/mnt")).unwrap();
        for (pid, ns, mi) in [
            (
                "1",
                "mnt:[4026531841]",
                "22 1 254:1 / / rw - ext4 /dev/vda1 rw\n",
            ),
            (
                "4242",
                "mnt:[4026532500]",
                "90 80 259:1 / /secret rw - ext4 /dev/loop9p2 rw\n",
            ),
        ] {
            w(&format!("proc/{pid}/mountinfo"), mi);
            std::fs::create_dir_all(d.path().join(format!("proc/{pid}/ns"))).unwrap();
            symlink(ns, d.path().join(format!("proc/{pid}/ns/mnt"))).unwrap();
        }
        w(
            "proc/swaps",
            "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n\
             /dev/loop9p1                            partition\t1020\t\t0\t\t-2\n\
             /swapfile                               file\t\t1020\t\t0\t\t-3\n",
        );
        std::fs::create_dir_all(d.path().join("dev")).unwrap();
        std::fs::write(d.path().join("dev/loop9p1"), "").unwrap();
        w("sys/class/block/loop9p1/dev", "259:0\n");
        d
    }

    #[test]
    fn occupancy_reads_go_through_the_host_and_are_recorded() {
        let root = fake_root();
        let mut host = LiveHost::with_root(root.path());
        // The whole disk: partitions, and both partitions busy (swap here, a mount in
        // another namespace there).
        let o = linux_occupancy(&mut host, "/dev/loop9", "7:9");
        assert_eq!(o.partitions, vec!["loop9p1", "loop9p2"]);
        assert!(o.mounts.is_empty(), "{o:?}");
        // A partition: the other one is mounted in pid 4242's namespace.
        let o = linux_occupancy(&mut host, "/dev/loop9p1", "259:0");
        assert_eq!(o.swaps, vec!["/dev/loop9p1"]);
        assert_eq!(
            o.siblings_in_use,
            vec!["loop9p2 mounted on /secret (in the mount namespace of pid 4242)"]
        );
        let o = linux_occupancy(&mut host, "/dev/loop9p2", "259:1");
        assert_eq!(
            o.mounts,
            vec!["/secret (in the mount namespace of pid 4242)".to_string()]
        );
        assert_eq!(o.siblings_in_use, vec!["loop9p1 in use as swap"]);
        // Every system file the decision used is evidence now; pid 1 shares our namespace,
        // so its table is not read at all.
        let keys: Vec<&String> = host.bundle.captures.keys().collect();
        for k in [
            diskdoc_core::sources::sysfs::proc("swaps"),
            diskdoc_core::sources::sysfs::proc("self/mountinfo"),
            "link:/proc/self/ns/mnt".to_string(),
            "dir:/proc".to_string(),
            "link:/proc/4242/ns/mnt".to_string(),
            diskdoc_core::sources::sysfs::proc("4242/mountinfo"),
            "realpath:/dev/loop9p1".to_string(),
            "file:/sys/class/block/loop9p1/dev".to_string(),
            "realpath:/sys/dev/block/259:0".to_string(),
        ] {
            assert!(keys.iter().any(|x| x.as_str() == k), "{k} not in {keys:?}");
        }
        assert!(
            !keys
                .iter()
                .any(|x| x.as_str() == diskdoc_core::sources::sysfs::proc("1/mountinfo"))
        );
        assert_eq!(
            host.bundle.captures["link:/proc/4242/ns/mnt"].data(),
            Some("mnt:[4026532500]")
        );
    }

    #[test]
    fn resolve_refuses_what_is_not_a_block_device_under_dev() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("img");
        std::fs::write(&f, b"x").unwrap();
        let e = resolve(f.to_str().unwrap()).unwrap_err().to_string();
        assert!(e.contains("not a device node under /dev"), "{e}");
        let e = resolve("/dev/../tmp").unwrap_err().to_string();
        assert!(e.contains("resolves to /tmp"), "{e}");
        let e = resolve("../etc/passwd").unwrap_err().to_string();
        assert!(e.contains("resolves to /etc/passwd"), "{e}");
        let e = resolve("/dev/null").unwrap_err().to_string();
        assert!(e.contains("a character device"), "{e}");
        let e = resolve("/dev/diskdoc-no-such").unwrap_err().to_string();
        assert!(e.contains("does not exist"), "{e}");
        let e = resolve("").unwrap_err().to_string();
        assert!(
            e.contains("--destructive needs a block device under /dev"),
            "{e}"
        );
    }
}
