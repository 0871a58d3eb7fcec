//! The one seam between diskdoc and a machine: run a command, read a file, list a directory,
//! resolve a path, read a sysctl, issue an ioctl, read device bytes.
//!
//! `LiveHost` asks the real machine and records every answer (failures included) into an
//! [`EvidenceBundle`]; `ReplayHost` answers from a bundle. The probes take `&mut dyn Host`, so
//! probing a replayed machine runs exactly the same code path as a live one.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use diskdoc_core::evidence::{
    Capture, EvidenceBundle, FileKind, Origin, Platform, SourceKey, Unavailable,
};

pub use diskdoc_core::evidence::IoctlRequest;

/// Everything diskdoc may ask of a machine.
pub trait Host {
    fn platform(&self) -> Platform;
    /// Run an allowlisted command (argv only, never a shell).
    fn run(&mut self, argv: &[&str]) -> Capture;
    /// Read a small text file (sysfs, procfs, /var/run/dmesg.boot).
    fn read_file(&mut self, path: &str) -> Capture;
    /// List a directory: entry names, sorted, one per line.
    fn list_dir(&mut self, path: &str) -> Capture;
    /// Resolve symlinks (sysfs device paths).
    fn real_path(&mut self, path: &str) -> Capture;
    /// The target of one symbolic link, not resolved further (readlink(2)); for links that
    /// name no path, such as /proc/PID/ns/mnt ("mnt:[4026531841]", namespaces(7)).
    fn read_link(&mut self, path: &str) -> Capture;
    /// What kind of file `path` names (stat(2), symlinks followed): a [`FileKind`] word.
    fn stat(&mut self, path: &str) -> Capture;
    fn sysctl(&mut self, name: &str) -> Capture;
    fn ioctl(&mut self, device: &str, req: IoctlRequest) -> Capture;
    /// Read `len` bytes at `offset` from a device, read-only (partition tables). Hex payload.
    fn read_device(&mut self, device: &str, offset: u64, len: u64) -> Capture;
}

/// Helpers over any host.
pub trait HostExt: Host {
    /// A file's trimmed contents, or None.
    fn text(&mut self, path: &str) -> Option<String> {
        self.read_file(path).data().map(|s| s.trim().to_string())
    }
    /// Directory entries, or empty.
    fn entries(&mut self, path: &str) -> Vec<String> {
        self.list_dir(path)
            .data()
            .map(|d| {
                d.lines()
                    .filter(|l| !l.is_empty())
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default()
    }
}
impl<T: Host + ?Sized> HostExt for T {}

/// The real machine. Every answer is recorded.
pub struct LiveHost {
    /// Prefix for /sys, /proc and /dev paths (tests point it at a fake tree); "/" normally.
    pub root: PathBuf,
    pub bundle: EvidenceBundle,
    pub command_timeout: Duration,
}

impl LiveHost {
    /// This machine, its bundle named by its anonymous host ID ([`crate::host_id`]).
    pub fn new() -> LiveHost {
        let mut h = LiveHost::with_root("/");
        h.bundle.host_id = crate::host_id::this_host();
        h
    }
    pub fn with_root(root: impl Into<PathBuf>) -> LiveHost {
        LiveHost {
            root: root.into(),
            bundle: EvidenceBundle::new(current_platform(), Origin::Live),
            command_timeout: Duration::from_secs(20),
        }
    }
    fn host_path(&self, path: &str) -> PathBuf {
        if self.root == Path::new("/") {
            PathBuf::from(path)
        } else {
            self.root.join(path.trim_start_matches('/'))
        }
    }
    fn record(&mut self, key: SourceKey, cap: Capture) -> Capture {
        self.bundle.insert(&key, cap.clone());
        cap
    }
    pub fn into_bundle(self) -> EvidenceBundle {
        self.bundle
    }
}

impl Default for LiveHost {
    fn default() -> Self {
        LiveHost::new()
    }
}

pub use crate::os::io_unavailable;

fn timed(start: Instant, data: String) -> Capture {
    Capture::Ok {
        data,
        stderr: String::new(),
        exit_code: None,
        elapsed_ms: start.elapsed().as_millis() as u64,
    }
}

/// Files larger than this are cut (dmesg.boot can be big; sysfs files are tiny).
const FILE_CAP: u64 = 4 * 1024 * 1024;

impl Host for LiveHost {
    fn platform(&self) -> Platform {
        self.bundle.platform
    }

    fn run(&mut self, argv: &[&str]) -> Capture {
        let cap = crate::exec::run(argv, self.command_timeout);
        self.record(SourceKey::cmd(argv), cap)
    }

    fn read_file(&mut self, path: &str) -> Capture {
        let start = Instant::now();
        let cap = match std::fs::File::open(self.host_path(path)) {
            Ok(f) => {
                use std::io::Read;
                let mut buf = Vec::new();
                match f.take(FILE_CAP).read_to_end(&mut buf) {
                    Ok(_) => timed(start, String::from_utf8_lossy(&buf).into_owned()),
                    Err(e) => io_unavailable(&e),
                }
            }
            Err(e) => io_unavailable(&e),
        };
        self.record(SourceKey::File(path.to_string()), cap)
    }

    fn list_dir(&mut self, path: &str) -> Capture {
        let start = Instant::now();
        let cap = match std::fs::read_dir(self.host_path(path)) {
            Ok(rd) => {
                let mut names: Vec<String> = rd
                    .filter_map(|e| e.ok())
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .collect();
                names.sort();
                timed(start, names.join("\n"))
            }
            Err(e) => io_unavailable(&e),
        };
        self.record(SourceKey::Dir(path.to_string()), cap)
    }

    fn real_path(&mut self, path: &str) -> Capture {
        let start = Instant::now();
        let cap = match std::fs::canonicalize(self.host_path(path)) {
            Ok(p) => {
                // Report the path as seen inside the (possibly fake) root.
                let shown = match p.strip_prefix(&self.root) {
                    Ok(rel) if self.root != Path::new("/") => {
                        format!("/{}", rel.display())
                    }
                    _ => p.display().to_string(),
                };
                timed(start, shown)
            }
            Err(e) => io_unavailable(&e),
        };
        self.record(SourceKey::RealPath(path.to_string()), cap)
    }

    fn read_link(&mut self, path: &str) -> Capture {
        let start = Instant::now();
        let cap = match std::fs::read_link(self.host_path(path)) {
            Ok(t) => timed(start, t.display().to_string()),
            Err(e) => io_unavailable(&e),
        };
        self.record(SourceKey::Link(path.to_string()), cap)
    }

    fn stat(&mut self, path: &str) -> Capture {
        use std::os::unix::fs::FileTypeExt;
        let start = Instant::now();
        let cap = match std::fs::metadata(self.host_path(path)) {
            Ok(m) => {
                let t = m.file_type();
                let kind = if t.is_block_device() {
                    FileKind::Block
                } else if t.is_char_device() {
                    FileKind::Char
                } else if t.is_dir() {
                    FileKind::Dir
                } else if t.is_file() {
                    FileKind::File
                } else {
                    FileKind::Other
                };
                timed(start, kind.as_str().to_string())
            }
            Err(e) => io_unavailable(&e),
        };
        self.record(SourceKey::Stat(path.to_string()), cap)
    }

    fn sysctl(&mut self, name: &str) -> Capture {
        let cap = crate::os::sysctl(name);
        self.record(SourceKey::Sysctl(name.to_string()), cap)
    }

    fn ioctl(&mut self, device: &str, req: IoctlRequest) -> Capture {
        let cap = crate::os::ioctl(&self.host_path(device), req);
        self.record(
            SourceKey::Ioctl {
                device: device.to_string(),
                request: req.name().to_string(),
            },
            cap,
        )
    }

    /// Only the partition-table bytes are kept (no raw sectors whole): the rest
    /// of what was read (boot code, GUIDs, a filesystem's superblock with its label, UUID
    /// and last mount path) is zeroed before it is recorded or returned.
    fn read_device(&mut self, device: &str, offset: u64, len: u64) -> Capture {
        let cap = match crate::os::read_device(&self.host_path(device), offset, len) {
            Capture::Ok {
                data,
                stderr,
                exit_code,
                elapsed_ms,
            } => Capture::Ok {
                data: diskdoc_core::evidence::hex_decode(&data)
                    .map(|b| keep_table_bytes(&b))
                    .unwrap_or_default(),
                stderr,
                exit_code,
                elapsed_ms,
            },
            failed => failed,
        };
        self.record(
            SourceKey::DeviceRead {
                device: device.to_string(),
                offset,
                len,
            },
            cap,
        )
    }
}

/// The stored form of a device read: the bytes the partition parsers use, sparse hex.
pub fn keep_table_bytes(bytes: &[u8]) -> String {
    use diskdoc_core::evidence::hex_encode_sparse;
    hex_encode_sparse(&diskdoc_core::sources::partition_table::minimize(bytes))
}

/// Answers from a bundle. A source the bundle lacks reads as "not captured".
pub struct ReplayHost<'a> {
    pub bundle: &'a EvidenceBundle,
}

impl ReplayHost<'_> {
    fn answer(&self, key: SourceKey) -> Capture {
        self.bundle.get(&key).cloned().unwrap_or_else(|| {
            Capture::unavailable(Unavailable::NotFound, "not in the evidence bundle")
        })
    }
}

impl Host for ReplayHost<'_> {
    fn platform(&self) -> Platform {
        self.bundle.platform
    }
    fn run(&mut self, argv: &[&str]) -> Capture {
        self.answer(SourceKey::cmd(argv))
    }
    fn read_file(&mut self, path: &str) -> Capture {
        self.answer(SourceKey::File(path.to_string()))
    }
    fn list_dir(&mut self, path: &str) -> Capture {
        self.answer(SourceKey::Dir(path.to_string()))
    }
    fn real_path(&mut self, path: &str) -> Capture {
        self.answer(SourceKey::RealPath(path.to_string()))
    }
    fn read_link(&mut self, path: &str) -> Capture {
        self.answer(SourceKey::Link(path.to_string()))
    }
    fn stat(&mut self, path: &str) -> Capture {
        self.answer(SourceKey::Stat(path.to_string()))
    }
    fn sysctl(&mut self, name: &str) -> Capture {
        self.answer(SourceKey::Sysctl(name.to_string()))
    }
    fn ioctl(&mut self, device: &str, req: IoctlRequest) -> Capture {
        self.answer(SourceKey::Ioctl {
            device: device.to_string(),
            request: req.name().to_string(),
        })
    }
    fn read_device(&mut self, device: &str, offset: u64, len: u64) -> Capture {
        self.answer(SourceKey::DeviceRead {
            device: device.to_string(),
            offset,
            len,
        })
    }
}

/// The platform this binary was built for (the one `cfg(target_os)` decision about which
/// parsers a live bundle needs; diskdoc-core never asks the build target).
pub fn current_platform() -> Platform {
    if cfg!(target_os = "linux") {
        Platform::Linux
    } else if cfg!(target_os = "freebsd") {
        Platform::Freebsd
    } else {
        Platform::Unknown
    }
}

/// Whether this process runs with effective uid 0 (what decides which probes can read the
/// raw devices and SMART data).
pub fn running_as_root() -> bool {
    nix::unistd::geteuid().is_root()
}

/// Whether this process may create a file in `dir`: access(2) with W_OK|X_OK (for the
/// real uid, which is the one the wizard runs as: it is not set-uid). A read-only
/// filesystem answers EROFS, which counts as not writable too.
pub fn may_create_in(dir: &std::path::Path) -> bool {
    use nix::unistd::AccessFlags;
    dir.is_dir() && nix::unistd::access(dir, AccessFlags::W_OK | AccessFlags::X_OK).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn live_host_records_failures_and_replay_returns_them() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("sys/block/sda/queue")).unwrap();
        std::fs::write(dir.path().join("sys/block/sda/queue/rotational"), "1\n").unwrap();
        let mut live = LiveHost::with_root(dir.path());
        assert_eq!(
            live.text("/sys/block/sda/queue/rotational").as_deref(),
            Some("1")
        );
        let missing = live.read_file("/sys/block/sda/queue/nope");
        assert!(matches!(
            missing,
            Capture::Unavailable {
                reason: Unavailable::NotFound,
                ..
            }
        ));
        assert_eq!(live.entries("/sys/block"), vec!["sda".to_string()]);
        let bundle = live.into_bundle();
        let mut replay = ReplayHost { bundle: &bundle };
        assert_eq!(
            replay.text("/sys/block/sda/queue/rotational").as_deref(),
            Some("1")
        );
        assert_eq!(replay.read_file("/sys/block/sda/queue/nope"), missing);
        assert!(replay.read_file("/never/asked").data().is_none());
    }
}
