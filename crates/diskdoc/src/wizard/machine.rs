//! What the wizard needs from the machine, behind one trait so whole runs can be scripted:
//! probe it, run a test group, save a file. `LiveMachine` does it for real.

use std::path::{Path, PathBuf};

use diskdoc_core::evidence::{EvidenceBundle, Platform};
use diskdoc_core::facts::{DiskFacts, SystemFacts};
use diskdoc_sys::bench::BenchResult;
use diskdoc_sys::bench::measure::MeasureError;

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
    /// Bytes free there (statvfs f_bavail) when `writes_bytes` was cut to fit them.
    pub scratch_free: Option<u64>,
}

impl TestGroup {
    /// The write tests: a scratch file of at most `bytes` in `dir` (`free`: the free space
    /// there, when it cut `bytes` down).
    pub fn write(dir: &Path, bytes: u64, quick: bool, free: Option<u64>) -> TestGroup {
        TestGroup {
            id: "write",
            title: "Write tests: sequential and 4 KiB synchronous writes to a scratch file".into(),
            read_only: false,
            seconds: if quick { 10 } else { 20 },
            writes_bytes: bytes,
            scratch_dir: Some(dir.to_path_buf()),
            scratch_free: free,
        }
    }
}

/// What the wizard offers for a disk, and each group it leaves out with why (a sentence
/// naming the way to get it), so no test is offered that cannot run and none is left out
/// without a word.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Offer {
    pub groups: Vec<TestGroup>,
    pub withheld: Vec<String>,
}

/// What the machine lets the tests do, found before they are offered.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Access {
    /// Why the disk's device cannot be opened for reading (None: it can).
    pub read_refused: Option<String>,
    /// Bytes free for the scratch file where it would go (statvfs(3) f_bavail), if known.
    pub scratch_free: Option<u64>,
}

/// Where the write tests' scratch file goes: `--scratch-dir` when given, else the current
/// directory.
#[derive(Debug, Clone, PartialEq)]
pub struct ScratchPlace {
    pub dir: PathBuf,
    /// Named with `--scratch-dir` (so the advice names that flag's value, not the cwd).
    pub named: bool,
}

pub trait Machine {
    fn platform(&self) -> Platform;
    fn is_root(&self) -> bool;
    fn cwd(&self) -> PathBuf;
    /// Probe facts (the only read of the machine's configuration).
    fn probe(&mut self, device: Option<&str>) -> EvidenceBundle;
    /// Which test groups make sense for this disk, and why the others are left out.
    fn test_groups(
        &self,
        sys: &SystemFacts,
        disk: &DiskFacts,
        quick: bool,
        place: &ScratchPlace,
    ) -> Offer;
    /// Run one group; results or a message saying why it could not run.
    fn run_group(
        &mut self,
        sys: &SystemFacts,
        disk: &DiskFacts,
        group: &TestGroup,
        quick: bool,
    ) -> Result<Vec<BenchResult>, MeasureError>;
    /// Write a new file (refuses to overwrite).
    fn save(&mut self, path: &Path, contents: &str) -> std::io::Result<()>;
    /// Whether the user the wizard runs as may create a file in `dir` (where a report is
    /// offered).
    fn may_create_in(&self, dir: &Path) -> bool;
    /// The user's home directory ($HOME), if set.
    fn home(&self) -> Option<PathBuf>;
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
#[derive(Debug, Clone, Copy, Default)]
pub struct LiveMachine {
    /// `--full-sweep`: the read group sweeps every block size (plan::sweep_steps).
    pub full_sweep: bool,
}

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
        crate::target::probe_recorded(device, true)
    }
    fn test_groups(
        &self,
        sys: &SystemFacts,
        disk: &DiskFacts,
        quick: bool,
        place: &ScratchPlace,
    ) -> Offer {
        let access = Access {
            read_refused: diskdoc_sys::bench::suite::read_refusal(Path::new(&disk.dev_path)),
            scratch_free: diskdoc_sys::bench::scratch::free_bytes(&place.dir).ok(),
        };
        let mut o = offer(sys, disk, quick, place, &access);
        for g in o.groups.iter_mut().filter(|g| g.id == "read") {
            g.seconds = read_seconds(quick, self.full_sweep);
        }
        o
    }
    fn run_group(
        &mut self,
        sys: &SystemFacts,
        disk: &DiskFacts,
        group: &TestGroup,
        quick: bool,
    ) -> Result<Vec<BenchResult>, MeasureError> {
        run_group(sys, disk, group, quick, self.full_sweep)
    }
    fn save(&mut self, path: &Path, contents: &str) -> std::io::Result<()> {
        save_new(path, contents)
    }
    fn may_create_in(&self, dir: &Path) -> bool {
        diskdoc_sys::host::may_create_in(dir)
    }
    fn home(&self) -> Option<PathBuf> {
        std::env::var_os("HOME")
            .filter(|h| !h.is_empty())
            .map(PathBuf::from)
    }
}

/// The groups diskdoc offers for a disk when everything is allowed (the current directory
/// `cwd` as the scratch place, the device readable, free space unknown).
pub fn default_groups(
    sys: &SystemFacts,
    disk: &DiskFacts,
    quick: bool,
    cwd: &Path,
) -> Vec<TestGroup> {
    let place = ScratchPlace {
        dir: cwd.to_path_buf(),
        named: false,
    };
    offer(sys, disk, quick, &place, &Access::default()).groups
}

/// The groups diskdoc offers for a disk: reads of the raw device when it can be opened; a
/// scratch-file write test when the scratch place's filesystem lives on this disk, sized to
/// what fits there (10 % of the free space, as the write test itself caps it); layer cost
/// when layers exist. Each group left out gets a sentence saying why and how to get it.
pub fn offer(
    sys: &SystemFacts,
    disk: &DiskFacts,
    quick: bool,
    place: &ScratchPlace,
    access: &Access,
) -> Offer {
    let mut o = Offer::default();
    match &access.read_refused {
        None => o.groups.push(TestGroup {
            id: "read",
            title: format!(
                "Read tests on {}: sequential at outer/middle/inner, block sizes, random 4 KiB",
                disk.dev_path
            ),
            read_only: true,
            seconds: read_seconds(quick, false),
            writes_bytes: 0,
            scratch_dir: None,
            scratch_free: None,
        }),
        Some(why) => o.withheld.push(format!(
            "The read tests are not offered: they read {} itself, and {why}.",
            disk.dev_path
        )),
    }
    let dir = place.dir.display();
    let whose = if place.named {
        format!("--scratch-dir {dir}")
    } else {
        format!("the current directory {dir}")
    };
    if mount_of(disk, &place.dir).is_some() {
        let planned: u64 = if quick { 256 << 20 } else { 1 << 30 };
        // The write test never uses more than 10 % of the free space (scratch::size_cap):
        // promise that, not the plan's size, when less fits.
        let fits = access
            .scratch_free
            .map(|f| diskdoc_sys::bench::scratch::size_cap(f, 1 << 20));
        match fits {
            Some(cap) if cap < 1 << 20 => o.withheld.push(format!(
                "The write tests are not offered: {whose} has {} free, and the write test \
                 uses at most 10 % of the free space (at least 1 MiB); free some space or \
                 name another directory on {} with --scratch-dir.",
                diskdoc_core::units::bytes_iec1(access.scratch_free.unwrap_or(0)),
                disk.name
            )),
            _ => o.groups.push(TestGroup::write(
                &place.dir,
                fits.map_or(planned, |c| c.min(planned)),
                quick,
                access
                    .scratch_free
                    .filter(|_| fits.is_some_and(|c| c < planned)),
            )),
        }
    } else {
        let elsewhere = crate::target::disk_holding(sys, &place.dir)
            .filter(|d| *d != disk.name)
            .map(|d| format!(" (it is on {d})"))
            .unwrap_or_default();
        let on_disk: Vec<&str> = disk.mounts.iter().map(|m| m.mountpoint.as_str()).collect();
        let how = if on_disk.is_empty() {
            format!(
                "{} has no mounted filesystem to hold one (the wizard never writes to the \
                 device itself; `diskdoc bench --destructive` does, after you type its path)",
                disk.name
            )
        } else {
            format!(
                "name a directory on {} ({}) with --scratch-dir",
                disk.name,
                on_disk.join(", ")
            )
        };
        o.withheld.push(format!(
            "The write tests are not offered: they write a scratch file on a filesystem of \
             {}, and {whose} is not on one{elsewhere}; {how}.",
            disk.name
        ));
    }
    let layered = disk
        .layers
        .iter()
        .any(|l| l.kind != Some(diskdoc_core::facts::LayerKind::Partition));
    if layered && access.read_refused.is_none() {
        o.groups.push(TestGroup {
            id: "layers",
            title: "Layer cost: read the same range through the disk and each layer above it"
                .into(),
            read_only: true,
            seconds: 10,
            writes_bytes: 0,
            scratch_dir: None,
            scratch_free: None,
        });
    }
    o
}

/// The mount of `disk` (or one of its layers) that holds `path`, longest mountpoint first.
pub fn mount_of<'a>(disk: &'a DiskFacts, path: &Path) -> Option<&'a diskdoc_core::facts::Mount> {
    disk.mounts
        .iter()
        .filter(|m| path.starts_with(&m.mountpoint))
        .max_by_key(|m| m.mountpoint.len())
}

/// The longest the read group takes (every job running to its budget), whole seconds:
/// what the wizard promises before it asks.
fn read_seconds(quick: bool, full_sweep: bool) -> u32 {
    use diskdoc_sys::bench::plan;
    let ns = if full_sweep {
        plan::READ_RUN_LIMIT_NS
    } else {
        plan::DEFAULT_READ_RUN_LIMIT_NS
    };
    let s = ns / 1_000_000_000 / if quick { 2 } else { 1 };
    u32::try_from(s).unwrap_or(u32::MAX)
}

/// Run one of the wizard's test groups with the native engine (diskdoc-sys bench).
pub fn run_group(
    sys: &SystemFacts,
    disk: &DiskFacts,
    group: &TestGroup,
    quick: bool,
    full_sweep: bool,
) -> Result<Vec<BenchResult>, MeasureError> {
    use std::io::IsTerminal;
    // "read" = zones, block-size sweep, random; layers are their own group here.
    use diskdoc_sys::bench::plan::TestKind;
    let tests: &[TestKind] = match group.id {
        "read" => &[TestKind::Zones, TestKind::Sweep, TestKind::Rand],
        "write" => &[TestKind::Write, TestKind::Sync],
        "layers" => &[TestKind::Layers],
        other => return Err(MeasureError::UnknownGroup(other.to_string())),
    };
    let req = diskdoc_sys::bench::measure::BenchRequest {
        tests: tests.to_vec(),
        device: (group.id != "write").then(|| disk.dev_path.clone()),
        scratch_dir: group.scratch_dir.clone(),
        quick,
        full_sweep,
        bars: std::io::stderr().is_terminal(),
        ..Default::default()
    };
    // The wizard's own probe and facts serve the tests (no second probe): only the results
    // are kept, so the bundle they are measured into starts empty.
    let bundle = diskdoc_sys::bench::measure::unprobed();
    // The scratch-file tests name no device (they write through the filesystem): their
    // results belong to the disk under it, which the wizard knows.
    let mut results =
        diskdoc_sys::bench::measure::measure(&req, bundle, sys).map(|b| b.benchmarks)?;
    for r in results.iter_mut().filter(|r| r.disk.is_empty()) {
        r.disk = disk.name.clone();
    }
    Ok(results)
}

#[cfg(test)]
mod tests {
    use super::*;
    use diskdoc_core::evidence::Platform;
    use diskdoc_core::facts::Mount;

    /// loop7 with ext4 mounted at /mnt/a, and vda holding /.
    fn two_disks() -> (SystemFacts, DiskFacts) {
        let mount = |src: &str, at: &str| Mount {
            source: src.into(),
            mountpoint: at.into(),
            fstype: "ext4".into(),
            options: "rw".into(),
            compression: None,
        };
        let mut lo = DiskFacts::new("loop7", "/dev/loop7");
        lo.mounts.push(mount("/dev/loop7", "/mnt/a"));
        let mut vda = DiskFacts::new("vda", "/dev/vda");
        vda.mounts.push(mount("/dev/vda1", "/"));
        let mut sys = SystemFacts::empty(Platform::Linux);
        sys.disks = vec![lo.clone(), vda];
        (sys, lo)
    }

    fn place(dir: &str, named: bool) -> ScratchPlace {
        ScratchPlace {
            dir: PathBuf::from(dir),
            named,
        }
    }

    #[test]
    fn read_tests_that_would_be_refused_are_not_offered_and_the_user_is_told() {
        let (sys, lo) = two_disks();
        let access = Access {
            read_refused: Some(
                "permission denied opening /dev/loop7: reading a raw device needs root (try sudo)"
                    .into(),
            ),
            scratch_free: None,
        };
        let o = offer(&sys, &lo, true, &place("/mnt/a", false), &access);
        let ids: Vec<&str> = o.groups.iter().map(|g| g.id).collect();
        assert_eq!(ids, ["write"]);
        assert_eq!(
            o.withheld,
            [
                "The read tests are not offered: they read /dev/loop7 itself, and permission \
              denied opening /dev/loop7: reading a raw device needs root (try sudo)."
            ]
        );
    }

    #[test]
    fn writes_from_another_disk_are_not_offered_and_the_way_is_named() {
        let (sys, lo) = two_disks();
        let o = offer(&sys, &lo, true, &place("/root", false), &Access::default());
        let ids: Vec<&str> = o.groups.iter().map(|g| g.id).collect();
        assert_eq!(ids, ["read"]);
        assert_eq!(o.withheld.len(), 1, "{:?}", o.withheld);
        let w = &o.withheld[0];
        assert!(
            w.contains("the current directory /root is not on one (it is on vda)")
                && w.contains("name a directory on loop7 (/mnt/a) with --scratch-dir"),
            "{w}"
        );
        // Named with --scratch-dir, the flag is what the note names.
        let o = offer(&sys, &lo, true, &place("/srv", true), &Access::default());
        assert!(
            o.withheld[0].contains("--scratch-dir /srv is not on one"),
            "{o:?}"
        );
        // A disk with no filesystem: the wizard never writes to the device itself.
        let bare = DiskFacts::new("loop9", "/dev/loop9");
        let o = offer(
            &sys,
            &bare,
            true,
            &place("/mnt/a", false),
            &Access::default(),
        );
        assert!(
            o.withheld[0].contains("loop9 has no mounted filesystem"),
            "{o:?}"
        );
    }

    #[test]
    fn the_write_size_offered_is_what_fits() {
        let (sys, lo) = two_disks();
        // The newcomer's filesystem: 399 MB free; the test keeps to 10 % of it.
        let free = 399_000_000;
        let access = Access {
            read_refused: None,
            scratch_free: Some(free),
        };
        let o = offer(&sys, &lo, false, &place("/mnt/a/x", false), &access);
        let w = o.groups.iter().find(|g| g.id == "write").expect("write");
        assert_eq!(w.writes_bytes, 38 << 20);
        assert_eq!(w.scratch_free, Some(free));
        // What the prompt makes of it: render::tests::the_write_prompt_promises_what_fits.
        // Plenty of room: the plan's size, no remark.
        let roomy = Access {
            read_refused: None,
            scratch_free: Some(100 << 30),
        };
        let o = offer(&sys, &lo, true, &place("/mnt/a", false), &roomy);
        let w = o.groups.iter().find(|g| g.id == "write").expect("write");
        assert_eq!((w.writes_bytes, w.scratch_free), (256 << 20, None));
        // Under 10 MiB free nothing fits: said, not offered.
        let full = Access {
            read_refused: None,
            scratch_free: Some(5 << 20),
        };
        let o = offer(&sys, &lo, true, &place("/mnt/a", false), &full);
        assert!(o.groups.iter().all(|g| g.id != "write"));
        assert!(o.withheld[0].contains("5.0 MiB free"), "{o:?}");
    }
}
