//! The one `--device` resolver every command uses (scan, check, bench, the wizard).
//!
//! A disk name (sda, ada0), a /dev path, a partition, a by-id/by-path or /dev/mapper link, or
//! any path on a mounted filesystem resolve the same way: the disk to diagnose is the disk
//! under it (facts::linux::resolve_target follows partitions, holders and mounts). Anything
//! that names no disk is an error that says what it is: a missing path, a character device
//! such as /dev/null on Linux (FreeBSD's disks are character devices), a size-0 device, an
//! unknown name with the list of known ones. Errors are exit status 2 ([`DeviceError`]).

use std::path::Path;

use diskdoc_core::evidence::{EvidenceBundle, Platform};
use diskdoc_core::facts::{self, SystemFacts};

pub use crate::error::DeviceError;

/// The disk a `--device` value names, and why (for "Inspecting /dev/sda (...)").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    pub disk: String,
    pub why: String,
}

/// What the path itself is, before any probe: an error for a path that does not exist or
/// is a character device on Linux. Bare names (sda) pass: the facts decide.
pub fn check_path(spec: &str, platform: Platform) -> Result<PathKind, DeviceError> {
    if !spec.contains('/') {
        return Ok(PathKind::Name);
    }
    let meta = std::fs::metadata(spec).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => DeviceError::Missing(spec.to_string()),
        _ => DeviceError::Unreadable {
            spec: spec.to_string(),
            reason: e.to_string(),
        },
    })?;
    use std::os::unix::fs::FileTypeExt;
    let ft = meta.file_type();
    Ok(if ft.is_block_device() {
        PathKind::BlockDevice
    } else if ft.is_char_device() {
        if platform == Platform::Linux {
            return Err(DeviceError::CharacterDevice(spec.to_string()));
        }
        PathKind::BlockDevice
    } else if ft.is_dir() {
        PathKind::Directory
    } else if ft.is_file() {
        PathKind::File
    } else {
        return Err(DeviceError::NotADiskOrFile(spec.to_string()));
    })
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

/// Resolve `spec` against a probe: the disk under it, or an error naming what it is.
pub fn resolve_in(
    bundle: &EvidenceBundle,
    sys: &SystemFacts,
    spec: &str,
) -> Result<Resolved, DeviceError> {
    let bare = spec.strip_prefix("/dev/").unwrap_or(spec);
    if sys.disk(bare).is_some() {
        return Ok(Resolved {
            disk: bare.to_string(),
            why: "named with --device".into(),
        });
    }
    // Not a disk of the probe by name: what is the path itself?
    let kind = check_path(spec, bundle.platform)?;
    let disk = match bundle.platform {
        Platform::Linux => facts::linux::resolve_target(bundle, spec),
        // Partitions, slices, .eli, gpt/ and diskid/ labels, mirrors, UFS/ZFS paths and
        // dataset names, from the bundle's GEOM and mount captures.
        Platform::Freebsd => facts::freebsd_target::resolve_target(bundle, spec),
        Platform::Unknown => bare.to_string(),
    };
    // A path on a filesystem: the disk whose mounts hold it (longest mountpoint).
    let disk = match kind {
        PathKind::Directory | PathKind::File if sys.disk(&disk).is_none() => {
            let abs = std::fs::canonicalize(spec).unwrap_or_else(|_| Path::new(spec).into());
            disk_holding(sys, &abs).unwrap_or(disk)
        }
        _ => disk,
    };
    if sys.disk(&disk).is_some() {
        let why = match kind {
            PathKind::Directory | PathKind::File => format!("{spec} is on a filesystem of {disk}"),
            _ => format!("{spec} is a partition or layer on {disk}"),
        };
        return Ok(Resolved { disk, why });
    }
    Err(DeviceError::Unknown {
        spec: spec.to_string(),
        known: facts::device_names::listed(bundle),
    })
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

/// For `bench`: the device to measure. A block device is measured as named (a partition is
/// read as the partition); a directory or file measures the disk under it, read-only, and a
/// directory is also where the write tests' scratch file goes. Returns (device, scratch
/// directory, a line saying what was chosen).
pub fn for_bench(
    spec: &str,
) -> Result<(String, Option<std::path::PathBuf>, Option<String>), DeviceError> {
    let platform = diskdoc_sys::host::current_platform();
    match check_path(spec, platform)? {
        PathKind::Name | PathKind::BlockDevice => Ok((spec.to_string(), None, None)),
        kind @ (PathKind::Directory | PathKind::File) => {
            let bundle = diskdoc_sys::probe::live(&diskdoc_sys::probe::ProbeOptions {
                device: Some(spec.to_string()),
                with_tools: false,
            });
            let sys = facts::derive(&bundle);
            let r = resolve_in(&bundle, &sys, spec)?;
            let dev = sys
                .disk(&r.disk)
                .map(|d| d.dev_path.clone())
                .unwrap_or_else(|| format!("/dev/{}", r.disk));
            let scratch = (kind == PathKind::Directory).then(|| Path::new(spec).to_path_buf());
            let note = format!(
                "{spec} is a {} on {}: measuring {dev} (read-only){}",
                if kind == PathKind::Directory {
                    "directory"
                } else {
                    "file"
                },
                r.disk,
                if scratch.is_some() {
                    "; write tests use a scratch file there"
                } else {
                    ""
                }
            );
            Ok((dev, scratch, Some(note)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dev_null_and_missing_paths_are_named() {
        let e = check_path("/dev/null", Platform::Linux).unwrap_err();
        assert_eq!(e, DeviceError::CharacterDevice("/dev/null".into()));
        let e = check_path("/dev/diskdoc-no-such", Platform::Linux)
            .unwrap_err()
            .to_string();
        assert!(e.contains("no such file or device"), "{e}");
        assert_eq!(check_path("sda", Platform::Linux), Ok(PathKind::Name));
        assert_eq!(check_path("/", Platform::Linux), Ok(PathKind::Directory));
        // FreeBSD disks are character devices.
        assert_eq!(
            check_path("/dev/null", Platform::Freebsd),
            Ok(PathKind::BlockDevice)
        );
    }
}
