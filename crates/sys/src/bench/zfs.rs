//! The ZFS side of a scratch-file benchmark: which dataset holds the scratch directory, and
//! that dataset's properties, its pool's log devices, the ARC and the module version,
//! captured through the Host so they are in the evidence bundle and a replay sees what the
//! notes were made from. What each value means for the figures is pure and lives in
//! diskdoc_core::sources::zfs_bench; the argv and paths in its spec and in sources::arcstats.

use std::path::Path;

use crate::host::Host;
use diskdoc_core::evidence::Platform;
use diskdoc_core::sources::zfs_bench::{self, ZfsBench};
use diskdoc_core::sources::{arcstats, mount_p};

/// The ZFS dataset the filesystem holding `dir` is, if it is one: /proc/self/mountinfo on
/// Linux, `mount -p` on FreeBSD (which has no mountinfo; sbin/mount/mount.c putfsent()
/// prints the dataset as the source), both through `host`.
pub fn dataset_of(host: &mut dyn Host, dir: &Path) -> Option<String> {
    let canon = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    let path = canon.to_string_lossy();
    if host.platform() == Platform::Freebsd {
        let cap = host.run(&["mount", "-p"]);
        let mounts = mount_p::parse(cap.data()?);
        let m = mount_p::mount_for_path(&mounts, &path)?;
        return (m.fstype == "zfs").then(|| m.source.clone());
    }
    let mi = host.read_file("/proc/self/mountinfo");
    let mounts = super::scratch::parse_mountinfo(mi.data()?);
    let m = super::scratch::mount_for(&mounts, &path)?;
    (m.fstype == "zfs").then(|| m.source.clone())
}

/// Capture what the benchmark needs to know about `dataset` (never fails: what could not be
/// read says why).
pub fn capture(host: &mut dyn Host, dataset: &str) -> ZfsBench {
    let mut z = ZfsBench {
        dataset: dataset.to_string(),
        ..Default::default()
    };
    match zfs_bench::props_argv(dataset) {
        Some(argv) => {
            let refs: Vec<&str> = argv.iter().map(String::as_str).collect();
            let cap = host.run(&refs);
            match cap.data() {
                Some(t) => {
                    z.props = zfs_bench::parse_props(t, dataset);
                    if z.props == Default::default() {
                        z.props_why = Some(format!("zfs get printed none of them for {dataset}"));
                    }
                }
                None => z.props_why = Some(format!("zfs get: {}", cap.why())),
            }
        }
        None => z.props_why = Some(format!("{dataset:?} is not a dataset name")),
    }
    // Asked alone: before OpenZFS 2.3 zfs get does not know `direct` and fails.
    if let Some(argv) = zfs_bench::direct_argv(dataset) {
        let refs: Vec<&str> = argv.iter().map(String::as_str).collect();
        let cap = host.run(&refs);
        match cap.data() {
            Some(t) => z.props.direct = zfs_bench::parse_props(t, dataset).direct,
            None => z.direct_why = Some(format!("zfs get direct: {}", cap.why())),
        }
    }
    let pool = zfs_bench::pool_of(dataset).to_string();
    if let Some(argv) = zfs_bench::status_argv(&pool) {
        let refs: Vec<&str> = argv.iter().map(String::as_str).collect();
        let cap = host.run(&refs);
        match cap.data() {
            Some(t) => {
                z.slog = zfs_bench::has_slog(t, &pool);
                if z.slog.is_none() {
                    z.slog_why = Some(format!("zpool status did not list pool {pool}"));
                }
            }
            None => z.slog_why = Some(format!("zpool status: {}", cap.why())),
        }
    }
    if host.platform() == Platform::Freebsd {
        let values = arcstats::FREEBSD_SYSCTLS.map(|name| {
            host.sysctl(name)
                .data()
                .and_then(|t| arcstats::parse_sysctl_value(t, name))
        });
        z.arc = arcstats::from_sysctls(&values);
        if z.arc.is_empty() {
            z.arc_why = Some(format!("{}: {}", arcstats::FREEBSD_SYSCTLS[0], {
                host.sysctl(arcstats::FREEBSD_SYSCTLS[0]).why()
            }));
        }
        z.version = host
            .sysctl(arcstats::FREEBSD_VERSION)
            .data()
            .and_then(arcstats::version);
    } else {
        let cap = host.read_file(arcstats::LINUX_ARCSTATS);
        match cap.data() {
            Some(t) => z.arc = arcstats::parse(t),
            None => z.arc_why = Some(format!("{}: {}", arcstats::LINUX_ARCSTATS, cap.why())),
        }
        z.version = host
            .read_file(arcstats::LINUX_VERSION)
            .data()
            .and_then(arcstats::version);
    }
    z
}

/// [`capture`] for the dataset holding `dir`; None when `dir` is not on ZFS.
pub fn for_dir(host: &mut dyn Host, dir: &Path) -> Option<ZfsBench> {
    let dataset = dataset_of(host, dir)?;
    Some(capture(host, &dataset))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::ReplayHost;
    use diskdoc_core::evidence::{Capture, EvidenceBundle, Origin, SourceKey};
    use diskdoc_core::sources::zfs_bench::{ANSWERED_BY_ARC, ANSWERED_BY_NO_SYNC};

    pub(super) fn fixture(rel: &str) -> String {
        let p = format!("{}/../../tests/fixtures/{rel}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p}: {e}"))
    }

    pub(super) fn cmd(b: &mut EvidenceBundle, argv: &[&str], text: &str) {
        b.insert(&SourceKey::cmd(argv), Capture::ok(text));
    }

    /// `zfs get` of `dataset` answered with `rows` (the argv the capture runs).
    pub(super) fn props(b: &mut EvidenceBundle, dataset: &str, rows: &str) {
        let argv = zfs_bench::props_argv(dataset).expect("a dataset name");
        b.insert(&SourceKey::Command(argv), Capture::ok(rows));
    }

    /// A Linux machine whose scratch directory /tank/home is dataset tank/home: the
    /// captures as the live host records them, the ARC from a real arcstats file.
    #[test]
    fn linux_scratch_on_zfs_is_read_from_the_bundle() {
        let mut b = EvidenceBundle::new(Platform::Linux, Origin::Live);
        b.insert(
            &SourceKey::File("/proc/self/mountinfo".into()),
            Capture::ok(
                "22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw\n\
                 41 22 0:36 / /tank/home rw shared:3 - zfs tank/home rw,xattr\n",
            ),
        );
        props(
            &mut b,
            "tank/home",
            "tank/home\tprimarycache\tall\ntank/home\tsync\tdisabled\ntank/home\tlogbias\tlatency\n\
             tank/home\tcompression\tlz4\ntank/home\tdedup\toff\n",
        );
        cmd(
            &mut b,
            &["zpool", "status", "tank"],
            &fixture("linux/zpool-status/4x-mirror-spare-scan-snipped.txt"),
        );
        b.insert(
            &SourceKey::File(arcstats::LINUX_ARCSTATS.into()),
            Capture::ok(fixture("bench-zfs/arcstats/node-exporter-arcstats.txt")),
        );
        b.insert(
            &SourceKey::File(arcstats::LINUX_VERSION.into()),
            Capture::ok("2.1.11-1\n"),
        );
        let mut host = ReplayHost { bundle: &b };
        let z = for_dir(&mut host, Path::new("/tank/home")).expect("on ZFS");
        assert_eq!(z.dataset, "tank/home");
        assert_eq!(z.props.sync.as_deref(), Some("disabled"));
        assert_eq!(z.arc.c_max, Some(8367976448));
        assert_eq!(z.arc.size, Some(1603939792));
        assert_eq!(z.version, Some((2, 1)));
        assert_eq!(z.slog, Some(false), "{:?}", z.slog_why);
        // 1 GiB written just before, ARC ceiling 7.8 GiB: the ARC answered.
        assert_eq!(z.read_verdict(1 << 30).answered_by, Some(ANSWERED_BY_ARC));
        assert_eq!(z.sync_verdict().answered_by, Some(ANSWERED_BY_NO_SYNC));
        assert!(z.summary().contains("sync=disabled"), "{}", z.summary());
        // The root filesystem is ext4: no ZFS context.
        assert!(for_dir(&mut host, Path::new("/")).is_none());
    }

    /// OpenZFS 2.3 on Linux with the dataset's `direct` property captured on its own:
    /// direct=disabled makes the ARC answer O_DIRECT reads again (zfsprops(7)), and a
    /// `zfs get direct` an older module refuses leaves the five other properties read.
    #[test]
    fn the_direct_property_is_captured_on_its_own() {
        let mut b = EvidenceBundle::new(Platform::Linux, Origin::Live);
        b.insert(
            &SourceKey::File("/proc/self/mountinfo".into()),
            Capture::ok("41 22 0:36 / /tank/home rw shared:3 - zfs tank/home rw,xattr\n"),
        );
        props(
            &mut b,
            "tank/home",
            "tank/home\tprimarycache\tall\ntank/home\tsync\tstandard\n",
        );
        let direct = zfs_bench::direct_argv("tank/home").expect("a dataset name");
        b.insert(
            &SourceKey::Command(direct.clone()),
            Capture::ok("tank/home\tdirect\tdisabled\n"),
        );
        b.insert(
            &SourceKey::File(arcstats::LINUX_ARCSTATS.into()),
            Capture::ok(fixture("bench-zfs/arcstats/node-exporter-arcstats.txt")),
        );
        b.insert(
            &SourceKey::File(arcstats::LINUX_VERSION.into()),
            Capture::ok("2.3.1-1\n"),
        );
        let mut host = ReplayHost { bundle: &b };
        let z = for_dir(&mut host, Path::new("/tank/home")).expect("on ZFS");
        assert_eq!(z.props.direct.as_deref(), Some("disabled"));
        assert_eq!(z.props.sync.as_deref(), Some("standard"));
        assert_eq!(z.read_verdict(1 << 30).answered_by, Some(ANSWERED_BY_ARC));
        // direct=standard on the same 2.3 module: the disks.
        b.insert(
            &SourceKey::Command(direct.clone()),
            Capture::ok("tank/home\tdirect\tstandard\n"),
        );
        let mut host = ReplayHost { bundle: &b };
        let z = for_dir(&mut host, Path::new("/tank/home")).expect("on ZFS");
        assert_eq!(z.read_verdict(1 << 30).answered_by, None);
        // A 2.2 module refuses the property: it is unknown and says why; the rest stands.
        b.insert(
            &SourceKey::Command(direct),
            Capture::unavailable(
                diskdoc_core::evidence::Unavailable::Failed,
                "bad property list: invalid property 'direct'",
            ),
        );
        b.insert(
            &SourceKey::File(arcstats::LINUX_VERSION.into()),
            Capture::ok("2.2.7-1\n"),
        );
        let mut host = ReplayHost { bundle: &b };
        let z = for_dir(&mut host, Path::new("/tank/home")).expect("on ZFS");
        assert_eq!(z.props.direct, None);
        assert!(
            z.direct_why
                .as_deref()
                .is_some_and(|w| w.contains("direct"))
        );
        assert_eq!(z.props.primarycache.as_deref(), Some("all"));
        assert_eq!(z.read_verdict(1 << 30).answered_by, Some(ANSWERED_BY_ARC));
        assert!(
            z.summary().contains("direct=none (before OpenZFS 2.3)"),
            "{}",
            z.summary()
        );
    }

    /// FreeBSD: the dataset from `mount -p`, the ARC from sysctls (vfs.zfs.arc_max from a
    /// real FreeBSD 11.3 `sysctl -a`), no module version before OpenZFS, a pool with a SLOG.
    #[test]
    fn freebsd_scratch_on_zfs_is_read_from_the_bundle() {
        let mut b = EvidenceBundle::new(Platform::Freebsd, Origin::Live);
        cmd(
            &mut b,
            &["mount", "-p"],
            &fixture("freebsd-probe/mount-p/printf-fbsd14-zfs-root-efi-ufs-label.txt"),
        );
        // The mount table names zroot; the pool with the Optane SLOG is a real FreeBSD 12
        // zpool status, renamed zroot here so one machine holds both.
        props(
            &mut b,
            "zroot/usr/home",
            "zroot/usr/home\tprimarycache\tmetadata\nzroot/usr/home\tsync\tstandard\n\
             zroot/usr/home\tlogbias\tlatency\nzroot/usr/home\tcompression\tlz4\n\
             zroot/usr/home\tdedup\toff\n",
        );
        let status =
            fixture("freebsd/zpool-status/fbsd12-raidz2-sas-nvd0-slog-spares-user-trimmed.txt")
                .replace("iron_bank", "zroot");
        cmd(&mut b, &["zpool", "status", "zroot"], &status);
        let sysctls = fixture("bench-zfs/arcstats/forum73084-fbsd11.3-sysctl-arc-excerpt.txt");
        for name in arcstats::FREEBSD_SYSCTLS {
            if let Some(line) = sysctls.lines().find(|l| l.starts_with(&format!("{name}:"))) {
                b.insert(&SourceKey::Sysctl(name.into()), Capture::ok(line));
            }
        }
        let mut host = ReplayHost { bundle: &b };
        let z = for_dir(&mut host, Path::new("/usr/home/someone")).expect("on ZFS");
        assert_eq!(z.dataset, "zroot/usr/home");
        assert_eq!(z.arc.c_max, Some(4294967296));
        assert_eq!(z.version, None);
        assert_eq!(z.slog, Some(true), "{:?}", z.slog_why);
        // primarycache=metadata: the reads are the disks'.
        let v = z.read_verdict(1 << 30);
        assert_eq!(v.answered_by, None);
        assert!(v.note.contains("primarycache=metadata"));
        assert!(
            z.sync_verdict().note.contains("SLOG"),
            "{}",
            z.sync_verdict().note
        );
        // /boot/efi is msdosfs: not ZFS.
        assert!(for_dir(&mut host, Path::new("/boot/efi")).is_none());
    }

    /// Nothing captured (zfs not installed, no permission): every part says why.
    #[test]
    fn missing_captures_say_why() {
        let b = EvidenceBundle::new(Platform::Linux, Origin::Live);
        let mut host = ReplayHost { bundle: &b };
        let z = capture(&mut host, "tank");
        assert!(
            z.props_why
                .as_deref()
                .is_some_and(|w| w.contains("zfs get"))
        );
        assert!(z.slog_why.is_some() && z.arc_why.is_some());
        let s = z.summary();
        assert!(
            s.contains("properties unknown") && s.contains("ARC size unknown"),
            "{s}"
        );
        assert!(z.sync_verdict().note.contains("unknown"));
    }
}

/// A machine whose scratch directory is a ZFS dataset, for the cdm and write tests'
/// wiring (bench::cdm, bench::suite): the captures as the live host records them.
#[cfg(test)]
pub(crate) mod testing {
    use super::tests::{cmd, fixture, props};
    use diskdoc_core::evidence::{Capture, EvidenceBundle, Origin, Platform, SourceKey};
    use diskdoc_core::sources::arcstats;
    use std::path::Path;

    /// A fresh engine doing real direct I/O, for the tests on a real directory.
    pub(crate) fn direct_engine() -> Box<dyn crate::bench::engine::Engine> {
        Box::new(crate::bench::engine::DirectEngine::new())
    }

    /// The bundle of a Linux machine whose `dir` is ZFS dataset tank/bench with
    /// `sync=SYNC`, lz4, no SLOG, and the ARC of the real arcstats file (7.8 GiB ceiling).
    pub(crate) fn zfs_machine(dir: &Path, sync: &str) -> EvidenceBundle {
        let canon = std::fs::canonicalize(dir).unwrap();
        let mut b = EvidenceBundle::new(Platform::Linux, Origin::Live);
        b.insert(
            &SourceKey::File("/proc/self/mountinfo".into()),
            Capture::ok(format!(
                "22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw\n\
                 41 22 0:36 / {} rw shared:3 - zfs tank/bench rw,xattr\n",
                canon.display()
            )),
        );
        props(
            &mut b,
            "tank/bench",
            &format!(
                "tank/bench\tprimarycache\tall\ntank/bench\tsync\t{sync}\n\
                 tank/bench\tlogbias\tlatency\ntank/bench\tcompression\tlz4\n\
                 tank/bench\tdedup\toff\n"
            ),
        );
        cmd(
            &mut b,
            &["zpool", "status", "tank"],
            &fixture("linux/zpool-status/4x-mirror-spare-scan-snipped.txt"),
        );
        b.insert(
            &SourceKey::File(arcstats::LINUX_ARCSTATS.into()),
            Capture::ok(fixture("bench-zfs/arcstats/node-exporter-arcstats.txt")),
        );
        b
    }
}
