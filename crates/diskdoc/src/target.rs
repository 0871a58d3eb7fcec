//! The one [`Target`] every command diagnoses or measures (scan, check, bench, the wizard,
//! replay --device), resolved once, from what the one probe recorded through `Host`.
//!
//! A disk name (sda, ada0), a /dev path, a partition, a by-id/by-path or /dev/mapper link, or
//! any path on a mounted filesystem resolve the same way: the disk to diagnose is the disk
//! under it (facts::linux::resolve_target follows partitions, holders and mounts). Anything
//! that names no disk is an error that says what it is: a missing path, a character device
//! such as /dev/null on Linux (FreeBSD's disks are character devices), a size-0 device, an
//! unknown name with the list of known ones. Errors are exit status 2 ([`DeviceError`]).
//!
//! What the path is (stat(2)) and where it leads (realpath(3)) are asked of the `Host`, so
//! they are recorded in the bundle with the probe: a replay of that bundle resolves the
//! same `--device` to the same disk without touching the machine it runs on.

use std::path::{Path, PathBuf};

use diskdoc_core::evidence::{Capture, EvidenceBundle, FileKind, Platform, SourceKey, Unavailable};
use diskdoc_core::facts::{self, SystemFacts};
use diskdoc_sys::host::{Host, LiveHost};
use diskdoc_sys::probe::{self, ProbeOptions};

pub use crate::error::DeviceError;

/// The disk a `--device` value names, where its tests read and write, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// The disk the facts describe and the report is about (sda, ada0).
    pub disk: String,
    /// The device the read tests read: a block device or name as given (a partition is
    /// read as the partition), else the disk under the directory or file.
    pub dev_path: String,
    /// Where the write tests' scratch file goes: the directory `--device` named, if it
    /// named one.
    pub scratch: Option<PathBuf>,
    /// Why this disk (for "Inspecting /dev/sda (...)" and "diagnosing sda").
    pub why: String,
    /// What the `--device` path itself is.
    pub kind: PathKind,
}

/// What a `--device` path is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathKind {
    /// A bare name such as `sda`.
    Name,
    BlockDevice,
    Directory,
    File,
}

/// The one probe of a command: its bundle and the facts derived from it, once.
pub struct Probed {
    pub bundle: EvidenceBundle,
    pub facts: SystemFacts,
}

impl Probed {
    /// Facts of `bundle`, derived here and nowhere else in the command.
    pub fn of(bundle: EvidenceBundle) -> Probed {
        let facts = derive(&bundle);
        Probed { bundle, facts }
    }
}

/// `facts::derive`, counted in tests: a command derives the facts of its probe once.
pub fn derive(bundle: &EvidenceBundle) -> SystemFacts {
    #[cfg(test)]
    DERIVATIONS.with(|n| n.set(n.get() + 1));
    facts::derive(bundle)
}

#[cfg(test)]
thread_local! {
    static DERIVATIONS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Ask `host` what `spec` is and, for a directory or file, where it really is. A path that
/// cannot name a disk (missing, a character device on Linux, a FIFO) is an error here,
/// before any probe runs. None without a spec.
pub fn check(host: &mut dyn Host, spec: Option<&str>) -> Result<Option<PathKind>, DeviceError> {
    let Some(d) = spec else { return Ok(None) };
    if !d.contains('/') {
        return Ok(Some(PathKind::Name));
    }
    let platform = host.platform();
    let kind = kind_of(d, &host.stat(d), platform)?;
    // Where a directory or file really is (links resolved), for the mount that holds it;
    // the Linux probe asks the same key for paths that are no disk name.
    if matches!(kind, PathKind::Directory | PathKind::File) {
        host.real_path(d);
    }
    Ok(Some(kind))
}

/// Probe through `host`: only the named device when given.
pub fn collect(host: &mut dyn Host, spec: Option<&str>, with_tools: bool) {
    probe::collect(host, &options(spec, with_tools));
}

fn options(spec: Option<&str>, with_tools: bool) -> ProbeOptions {
    ProbeOptions {
        device: spec.map(str::to_string),
        with_tools,
    }
}

/// A `--device` checked on this machine and not probed yet: its host holds the answers
/// so far, and the probe records into the same bundle.
pub struct Checked {
    host: LiveHost,
    spec: Option<String>,
    /// What the path is; None without `--device`.
    pub kind: Option<PathKind>,
}

impl Checked {
    /// Probe (with the slower tools when asked) and derive the facts, once.
    pub fn probe(self, with_tools: bool) -> Probed {
        Probed::of(self.bundle(with_tools))
    }
    /// Probe into the same bundle as the check's answers.
    fn bundle(mut self, with_tools: bool) -> EvidenceBundle {
        let spec = self.spec.as_deref();
        collect(&mut self.host, spec, with_tools);
        let mut bundle = self.host.into_bundle();
        probe::scope_to_device(&mut bundle, &options(spec, with_tools));
        bundle
    }
}

/// The wizard's probe: the check's answers are recorded even when the path names no disk
/// (the wizard resolves its target from the bundle, [`resolve_in`], and says what the path
/// is there).
pub fn probe_recorded(spec: Option<&str>, with_tools: bool) -> EvidenceBundle {
    let mut host = LiveHost::new();
    let kind = check(&mut host, spec).ok().flatten();
    Checked {
        host,
        spec: spec.map(str::to_string),
        kind,
    }
    .bundle(with_tools)
}

/// Check `spec` on this machine ([`check`]) through the host the probe will use.
pub fn check_live(spec: Option<&str>) -> Result<Checked, DeviceError> {
    let mut host = LiveHost::new();
    let kind = check(&mut host, spec)?;
    Ok(Checked {
        host,
        spec: spec.map(str::to_string),
        kind,
    })
}

/// Check and probe this machine for `spec` (all disks without one) through one
/// [`LiveHost`], and derive the facts once.
pub fn probe_live(spec: Option<&str>, with_tools: bool) -> Result<Probed, DeviceError> {
    Ok(check_live(spec)?.probe(with_tools))
}

/// What a `stat:` answer says `spec` is: an error for a path that does not exist or is a
/// character device on Linux.
fn kind_of(spec: &str, stat: &Capture, platform: Platform) -> Result<PathKind, DeviceError> {
    let kind = match stat {
        Capture::Ok { data, .. } => FileKind::parse(data),
        Capture::Unavailable {
            reason: Unavailable::NotFound,
            ..
        } => return Err(DeviceError::Missing(spec.to_string())),
        Capture::Unavailable { detail, .. } => {
            return Err(DeviceError::Unreadable {
                spec: spec.to_string(),
                reason: detail.clone(),
            });
        }
    };
    Ok(match kind {
        Some(FileKind::Block) => PathKind::BlockDevice,
        Some(FileKind::Char) if platform == Platform::Linux => {
            return Err(DeviceError::CharacterDevice(spec.to_string()));
        }
        Some(FileKind::Char) => PathKind::BlockDevice,
        Some(FileKind::Dir) => PathKind::Directory,
        Some(FileKind::File) => PathKind::File,
        Some(FileKind::Other) | None => return Err(DeviceError::NotADiskOrFile(spec.to_string())),
    })
}

/// What the path `spec` is, from the bundle's `stat:` capture. Bare names pass (the facts
/// decide), and so does a path the bundle never stat'ed (a bundle from before diskdoc
/// recorded it, a test fixture): then only the facts decide, as for a name.
pub fn path_kind(bundle: &EvidenceBundle, spec: &str) -> Result<PathKind, DeviceError> {
    if !spec.contains('/') {
        return Ok(PathKind::Name);
    }
    match bundle.get(&SourceKey::Stat(spec.to_string())) {
        Some(stat) => kind_of(spec, stat, bundle.platform),
        None => Ok(PathKind::Name),
    }
}

/// The disk `spec` names in `bundle` by the platform's rules: a partition, a /dev/mapper or
/// by-id link, a path on a mounted filesystem (Linux); partitions, GELI, GEOM labels,
/// UFS/ZFS paths and dataset names (FreeBSD, from the GEOM and mount captures). Pure: it
/// reads the captures only (replay uses it on a loaded report).
pub fn disk_named(bundle: &EvidenceBundle, spec: &str) -> String {
    match bundle.platform {
        Platform::Linux => facts::linux::resolve_target(bundle, spec),
        Platform::Freebsd => facts::freebsd::target::resolve_target(bundle, spec),
        Platform::Unknown => spec.to_string(),
    }
}

/// Resolve `spec` against a probe: the disk under it, or an error naming what it is.
pub fn resolve_in(
    bundle: &EvidenceBundle,
    sys: &SystemFacts,
    spec: &str,
) -> Result<Target, DeviceError> {
    let bare = spec.strip_prefix("/dev/").unwrap_or(spec);
    if sys.disk(bare).is_some() {
        return Ok(Target {
            disk: bare.to_string(),
            dev_path: dev_path_of(sys, bare),
            scratch: None,
            why: "named with --device".into(),
            // Named by the probe's disks: what the path is cannot change that.
            kind: path_kind(bundle, spec).unwrap_or(PathKind::Name),
        });
    }
    // Not a disk of the probe by name: what is the path itself?
    let kind = path_kind(bundle, spec)?;
    let disk = match bundle.platform {
        Platform::Unknown => bare.to_string(),
        _ => disk_named(bundle, spec),
    };
    // A path on a filesystem: the disk whose mounts hold it (longest mountpoint), by the
    // path with its links resolved as the probe recorded it.
    let disk = match kind {
        PathKind::Directory | PathKind::File if sys.disk(&disk).is_none() => {
            let real = bundle
                .data(&SourceKey::RealPath(spec.to_string()))
                .map(|r| PathBuf::from(r.trim()))
                .unwrap_or_else(|| Path::new(spec).into());
            disk_holding(sys, &real).unwrap_or(disk)
        }
        _ => disk,
    };
    if sys.disk(&disk).is_some() {
        let why = match kind {
            PathKind::Directory | PathKind::File => format!("{spec} is on a filesystem of {disk}"),
            _ => format!("{spec} is a partition or layer on {disk}"),
        };
        return Ok(Target {
            dev_path: dev_path_of(sys, &disk),
            scratch: (kind == PathKind::Directory).then(|| PathBuf::from(spec)),
            disk,
            why,
            kind,
        });
    }
    Err(DeviceError::Unknown {
        spec: spec.to_string(),
        known: facts::device_names::listed(bundle),
    })
}

/// The device path of a disk of the facts (/dev/NAME when they do not say).
fn dev_path_of(sys: &SystemFacts, disk: &str) -> String {
    sys.disk(disk)
        .map(|d| d.dev_path.clone())
        .unwrap_or_else(|| format!("/dev/{disk}"))
}

/// The disk whose mounts (directly or through layers) hold `path`, by the longest
/// mountpoint.
pub fn disk_holding(sys: &SystemFacts, path: &Path) -> Option<String> {
    sys.disks
        .iter()
        .flat_map(|d| d.mounts.iter().map(move |m| (d, m)))
        .filter(|(_, m)| path.starts_with(&m.mountpoint))
        .max_by_key(|(_, m)| m.mountpoint.len())
        .map(|(d, _)| d.name.clone())
}

/// For `bench`: what to measure. A block device or name is measured as named (a partition
/// is read as the partition; an image file too); a directory or file measures the disk
/// under it, read-only, and a directory is also where the write tests' scratch file goes.
/// Returns the target and, for a directory or file, a line saying what was chosen.
pub fn for_bench(p: &Probed, spec: &str) -> Result<(Target, Option<String>), DeviceError> {
    let kind = path_kind(&p.bundle, spec)?;
    if matches!(kind, PathKind::Name | PathKind::BlockDevice) {
        let as_named = Target {
            disk: spec.strip_prefix("/dev/").unwrap_or(spec).to_string(),
            dev_path: spec.to_string(),
            scratch: None,
            why: "named with --device".into(),
            kind,
        };
        return Ok((as_named, None));
    }
    let t = resolve_in(&p.bundle, &p.facts, spec)?;
    let note = format!(
        "{spec} is a {} on {}: measuring {} (read-only){}",
        if kind == PathKind::Directory {
            "directory"
        } else {
            "file"
        },
        t.disk,
        t.dev_path,
        if t.scratch.is_some() {
            "; write tests use a scratch file there"
        } else {
            ""
        }
    );
    Ok((t, Some(note)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use diskdoc_core::evidence::IoctlRequest;
    use diskdoc_sys::host::ReplayHost;

    fn stat_of(path: &str, platform: Platform) -> Result<PathKind, DeviceError> {
        let mut host = LiveHost::new();
        kind_of(path, &host.stat(path), platform)
    }

    #[test]
    fn dev_null_and_missing_paths_are_named() {
        let e = stat_of("/dev/null", Platform::Linux).unwrap_err();
        assert_eq!(e, DeviceError::CharacterDevice("/dev/null".into()));
        let e = stat_of("/dev/diskdoc-no-such", Platform::Linux)
            .unwrap_err()
            .to_string();
        assert!(e.contains("no such file or device"), "{e}");
        assert_eq!(stat_of("/", Platform::Linux), Ok(PathKind::Directory));
        // FreeBSD disks are character devices.
        assert_eq!(
            stat_of("/dev/null", Platform::Freebsd),
            Ok(PathKind::BlockDevice)
        );
    }

    /// A replay host that counts what it is asked: how many probes a command runs.
    struct Counting<'a> {
        inner: ReplayHost<'a>,
        listed_sys_block: usize,
        asked: usize,
    }
    impl Host for Counting<'_> {
        fn platform(&self) -> Platform {
            self.inner.platform()
        }
        fn run(&mut self, argv: &[&str]) -> Capture {
            self.asked += 1;
            self.inner.run(argv)
        }
        fn read_file(&mut self, path: &str) -> Capture {
            self.asked += 1;
            self.inner.read_file(path)
        }
        fn list_dir(&mut self, path: &str) -> Capture {
            self.asked += 1;
            // Every Linux probe starts by listing the disks (probe::linux::collect).
            if path == "/sys/block" {
                self.listed_sys_block += 1;
            }
            self.inner.list_dir(path)
        }
        fn real_path(&mut self, path: &str) -> Capture {
            self.asked += 1;
            self.inner.real_path(path)
        }
        fn read_link(&mut self, path: &str) -> Capture {
            self.asked += 1;
            self.inner.read_link(path)
        }
        fn stat(&mut self, path: &str) -> Capture {
            self.asked += 1;
            self.inner.stat(path)
        }
        fn sysctl(&mut self, name: &str) -> Capture {
            self.asked += 1;
            self.inner.sysctl(name)
        }
        fn ioctl(&mut self, device: &str, req: IoctlRequest) -> Capture {
            self.asked += 1;
            self.inner.ioctl(device, req)
        }
        fn read_device(&mut self, device: &str, offset: u64, len: u64) -> Capture {
            self.asked += 1;
            self.inner.read_device(device, offset, len)
        }
    }

    /// A Linux bundle with ext4 on sda1 mounted at /data (tests/fixtures/bundles), with the
    /// stat and realpath answers a live `--device /data` records.
    fn bundle_with_dir(dir: &str) -> EvidenceBundle {
        let p = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/bundles/linux-ahci-sata-ssd.json"
        );
        let mut b = EvidenceBundle::load(Path::new(p)).unwrap();
        assert_eq!(b.platform, Platform::Linux);
        b.insert(&SourceKey::Stat(dir.into()), Capture::ok("dir"));
        b.insert(&SourceKey::RealPath(dir.into()), Capture::ok(dir));
        b
    }

    /// `bench --device DIR` probes once and derives the probe's facts once: the directory's
    /// stat and realpath and the probe go through one host, and the target, the measurement
    /// and the report's scope all use that one bundle and its facts.
    #[test]
    fn a_directory_target_is_probed_once_and_derived_once() {
        let b = bundle_with_dir("/data");
        let mut host = Counting {
            inner: ReplayHost { bundle: &b },
            listed_sys_block: 0,
            asked: 0,
        };
        let kind = check(&mut host, Some("/data")).unwrap();
        assert_eq!(kind, Some(PathKind::Directory));
        collect(&mut host, Some("/data"), true);
        assert_eq!(host.listed_sys_block, 1, "one probe");
        assert!(host.asked > 10, "the probe ran: {} answers", host.asked);
        let before = DERIVATIONS.with(|n| n.get());
        let p = Probed::of(b.clone());
        let (t, note) = for_bench(&p, "/data").unwrap();
        assert_eq!(DERIVATIONS.with(|n| n.get()) - before, 1, "one derivation");
        assert_eq!(t.kind, PathKind::Directory);
        assert_eq!(t.scratch.as_deref(), Some(Path::new("/data")));
        assert_eq!(t.disk, "sda", "{t:?}");
        assert_eq!(t.dev_path, p.facts.disk(&t.disk).unwrap().dev_path);
        let note = note.unwrap();
        assert!(
            note.starts_with("/data is a directory on sda: measuring ")
                && note.contains("scratch file there"),
            "{note}"
        );
    }

    /// The path's kind comes from the bundle, not from the machine the resolution runs on:
    /// a recorded character device is refused on Linux wherever it is replayed, a recorded
    /// missing path is missing, and a bundle that never stat'ed the path leaves it to the
    /// facts.
    #[test]
    fn the_path_kind_is_read_from_the_bundle() {
        let mut b = EvidenceBundle::new(Platform::Linux, diskdoc_core::evidence::Origin::Live);
        b.insert(&SourceKey::Stat("/dev/ttyS0".into()), Capture::ok("char"));
        b.insert(
            &SourceKey::Stat("/srv/gone".into()),
            Capture::unavailable(
                Unavailable::NotFound,
                "No such file or directory (os error 2)",
            ),
        );
        b.insert(&SourceKey::Stat("/run/fifo".into()), Capture::ok("other"));
        assert_eq!(
            path_kind(&b, "/dev/ttyS0"),
            Err(DeviceError::CharacterDevice("/dev/ttyS0".into()))
        );
        assert_eq!(
            path_kind(&b, "/srv/gone"),
            Err(DeviceError::Missing("/srv/gone".into()))
        );
        assert_eq!(
            path_kind(&b, "/run/fifo"),
            Err(DeviceError::NotADiskOrFile("/run/fifo".into()))
        );
        assert_eq!(path_kind(&b, "/never/asked"), Ok(PathKind::Name));
        assert_eq!(path_kind(&b, "sda"), Ok(PathKind::Name));
        b.platform = Platform::Freebsd;
        assert_eq!(path_kind(&b, "/dev/ttyS0"), Ok(PathKind::BlockDevice));
    }
}
