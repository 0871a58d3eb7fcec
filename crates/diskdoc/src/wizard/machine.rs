//! What the wizard needs from the machine, behind one trait so whole runs can be scripted:
//! probe it, run a test group, save a file. `LiveMachine` does it for real.

use std::path::{Path, PathBuf};

use diskdoc_core::evidence::{EvidenceBundle, Platform};
use diskdoc_core::facts::{DiskFacts, SystemFacts};
use diskdoc_sys::bench::BenchResult;

/// A group of tests the wizard offers, with what it costs and whether it writes.
#[derive(Debug, Clone, PartialEq)]
pub struct TestGroup {
    /// "read", "write", "layers".
    pub id: &'static str,
    pub title: String,
    pub read_only: bool,
    /// Rough duration, seconds.
    pub seconds: u32,
    /// Upper bound of bytes written to a scratch file.
    pub writes_bytes: u64,
    /// Where a scratch file would go.
    pub scratch_dir: Option<PathBuf>,
}

pub trait Machine {
    fn platform(&self) -> Platform;
    fn is_root(&self) -> bool;
    fn cwd(&self) -> PathBuf;
    /// Probe facts (the only read of the machine's configuration).
    fn probe(&mut self, device: Option<&str>) -> EvidenceBundle;
    /// Which test groups make sense for this disk.
    fn test_groups(&self, sys: &SystemFacts, disk: &DiskFacts, quick: bool) -> Vec<TestGroup>;
    /// Run one group; results or a message saying why it could not run.
    fn run_group(
        &mut self,
        sys: &SystemFacts,
        disk: &DiskFacts,
        group: &TestGroup,
        quick: bool,
    ) -> Result<Vec<BenchResult>, String>;
    /// Write a new file (refuses to overwrite).
    fn save(&mut self, path: &Path, contents: &str) -> std::io::Result<()>;
}

/// Create `path` exclusively and write `contents`; never overwrites an existing file.
pub fn save_new(path: &Path, contents: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)?;
    f.write_all(contents.as_bytes())?;
    f.sync_all()
}

/// The real machine.
pub struct LiveMachine;

impl Machine for LiveMachine {
    fn platform(&self) -> Platform {
        diskdoc_sys::host::current_platform()
    }
    fn is_root(&self) -> bool {
        diskdoc_sys::host::running_as_root()
    }
    fn cwd(&self) -> PathBuf {
        std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"))
    }
    fn probe(&mut self, device: Option<&str>) -> EvidenceBundle {
        let opts = diskdoc_sys::probe::ProbeOptions {
            device: device.map(str::to_string),
            with_tools: true,
        };
        diskdoc_sys::probe::live(&opts)
    }
    fn test_groups(&self, sys: &SystemFacts, disk: &DiskFacts, quick: bool) -> Vec<TestGroup> {
        default_groups(sys, disk, quick, &self.cwd())
    }
    fn run_group(
        &mut self,
        sys: &SystemFacts,
        disk: &DiskFacts,
        group: &TestGroup,
        quick: bool,
    ) -> Result<Vec<BenchResult>, String> {
        run_group(sys, disk, group, quick)
    }
    fn save(&mut self, path: &Path, contents: &str) -> std::io::Result<()> {
        save_new(path, contents)
    }
}

/// The groups diskdoc offers for a disk: reads of the raw device; a scratch-file write test
/// when the current directory's filesystem lives on this disk; layer cost when layers exist.
pub fn default_groups(
    _sys: &SystemFacts,
    disk: &DiskFacts,
    quick: bool,
    cwd: &Path,
) -> Vec<TestGroup> {
    let mut groups = vec![TestGroup {
        id: "read",
        title: format!(
            "Read tests on {}: sequential at outer/middle/inner, block sizes, random 4 KiB",
            disk.dev_path
        ),
        read_only: true,
        seconds: if quick { 10 } else { 20 },
        writes_bytes: 0,
        scratch_dir: None,
    }];
    let on_disk = mount_of(disk, cwd).is_some();
    if on_disk {
        let bytes: u64 = if quick { 256 << 20 } else { 1 << 30 };
        groups.push(TestGroup {
            id: "write",
            title: "Write tests: sequential and 4 KiB synchronous writes to a scratch file".into(),
            read_only: false,
            seconds: if quick { 10 } else { 20 },
            writes_bytes: bytes,
            scratch_dir: Some(cwd.to_path_buf()),
        });
    }
    if disk
        .layers
        .iter()
        .any(|l| l.kind != Some(diskdoc_core::facts::LayerKind::Partition))
    {
        groups.push(TestGroup {
            id: "layers",
            title: "Layer cost: read the same range through the disk and each layer above it"
                .into(),
            read_only: true,
            seconds: 10,
            writes_bytes: 0,
            scratch_dir: None,
        });
    }
    groups
}

/// The mount of `disk` (or one of its layers) that holds `path`, longest mountpoint first.
pub fn mount_of<'a>(disk: &'a DiskFacts, path: &Path) -> Option<&'a diskdoc_core::facts::Mount> {
    disk.mounts
        .iter()
        .filter(|m| path.starts_with(&m.mountpoint))
        .max_by_key(|m| m.mountpoint.len())
}

/// Run one of the wizard's test groups with the native engine (diskdoc-sys bench).
pub fn run_group(
    _sys: &SystemFacts,
    disk: &DiskFacts,
    group: &TestGroup,
    quick: bool,
) -> Result<Vec<BenchResult>, String> {
    use std::io::IsTerminal;
    // "read" = zones, block-size sweep, random; layers are their own group here.
    use diskdoc_sys::bench::plan::TestKind;
    let tests: &[TestKind] = match group.id {
        "read" => &[TestKind::Zones, TestKind::Sweep, TestKind::Rand],
        "write" => &[TestKind::Write, TestKind::Sync],
        "layers" => &[TestKind::Layers],
        other => return Err(format!("unknown test group {other}")),
    };
    let req = diskdoc_sys::bench::measure::BenchRequest {
        tests: tests.to_vec(),
        device: (group.id != "write").then(|| disk.dev_path.clone()),
        scratch_dir: group.scratch_dir.clone(),
        quick,
        bars: std::io::stderr().is_terminal(),
        ..Default::default()
    };
    diskdoc_sys::bench::measure::measure(&req)
        .map(|b| b.benchmarks)
        .map_err(|e| e.0)
}
