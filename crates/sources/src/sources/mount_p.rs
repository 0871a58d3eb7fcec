//! `mount -p` (mount(8), sbin/mount/mount.c putfsent(), FreeBSD 12-15): the mounted
//! filesystems from getmntinfo(3) in fstab(5) form, one per line:
//! "source mountpoint fstype options freq passno", fields separated by tabs or spaces
//! (putfsent pads with tabs up to 24 columns). The source is a device node
//! (/dev/ada0p2, /dev/gpt/rootfs, /dev/ada0p4.eli, /dev/mirror/gm0p1) or, for ZFS, the
//! dataset name (zroot/ROOT/default).

/// One mounted filesystem.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Mounted {
    pub source: String,
    pub mountpoint: String,
    pub fstype: String,
    pub options: String,
}

impl Mounted {
    /// The GEOM provider name of a device source ("ada0p2" for "/dev/ada0p2").
    pub fn provider(&self) -> Option<&str> {
        self.source.strip_prefix("/dev/").filter(|p| !p.is_empty())
    }
    /// The pool of a ZFS dataset source ("zroot" for "zroot/ROOT/default").
    pub fn pool(&self) -> Option<&str> {
        (self.fstype == "zfs")
            .then(|| self.source.split('/').next())
            .flatten()
            .filter(|p| !p.is_empty())
    }
}

pub fn parse(text: &str) -> Vec<Mounted> {
    text.lines()
        .filter_map(|line| {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                return None;
            }
            let mut f = line.split_whitespace();
            let source = f.next()?.to_string();
            let mountpoint = f.next()?.to_string();
            let fstype = f.next()?.to_string();
            let options = f.next().unwrap_or("").to_string();
            mountpoint.starts_with('/').then_some(Mounted {
                source,
                mountpoint,
                fstype,
                options,
            })
        })
        .collect()
}

/// The most datasets one `zfs get` asks about (a bound on its argv and run time).
const MAX_DATASETS: usize = 64;

/// The mounted ZFS datasets, sorted and deduplicated, at most [`MAX_DATASETS`]; names that
/// could not be a dataset (zfs(8): they start with a letter or digit) are left out.
pub fn zfs_datasets(mounts: &[Mounted]) -> Vec<String> {
    let mut v: Vec<String> = mounts
        .iter()
        .filter(|m| m.fstype == "zfs")
        .map(|m| m.source.clone())
        .filter(|s| {
            s.starts_with(|c: char| c.is_ascii_alphanumeric())
                && !s.contains(['@', '#'])
                && !s.chars().any(char::is_control)
        })
        .collect();
    crate::sort::sort(&mut v);
    v.dedup();
    v.truncate(MAX_DATASETS);
    v
}

/// The mount whose mountpoint is the longest prefix of `path` (the filesystem a path is on).
pub fn mount_for_path<'a>(mounts: &'a [Mounted], path: &str) -> Option<&'a Mounted> {
    mounts
        .iter()
        .filter(|m| {
            let mp = m.mountpoint.trim_end_matches('/');
            mp.is_empty()
                || path == mp
                || path
                    .strip_prefix(mp)
                    .is_some_and(|rest| rest.starts_with('/'))
        })
        .max_by_key(|m| m.mountpoint.len())
}

// ---- the source spec (see sources::spec) ----
use crate::sources::spec;

// A putfsent() line: source, mountpoint, fstype, options, dump, pass.
crate::rx!(ROW, r"^\s*\S+\s+/\S*\s+[a-z0-9]+\s+\S+\s+\d+\s+\d+\s*$");
// Only FreeBSD names these file system types so (Linux's /proc/mounts and fstab say
// devtmpfs, vfat, ext4; its ZFS rows alone start nothing here): a row of one of them starts
// a mount -p output.
crate::rx!(
    FREEBSD_ROW,
    r"^\s*\S+\s+/\S*\s+(ufs|devfs|fdescfs|msdosfs|nullfs)\s+\S+\s+\d+\s+\d+\s*$"
);

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "mount-p",
    starts: &[(120, |l| spec::on_first(l, |t| FREEBSD_ROW.is_match(t)))],
    member: |t, _| spec::Member::from(ROW.is_match(t)),
    tolerance: (0, 0),
    classify: |_, _| "mount-p",
    ..spec::Recogniser::NONE
};

/// mount(8) -p (FreeBSD): the mounted filesystems. A pasted one (or an /etc/fstab, the same
/// fstab(5) lines) gives the disks their mounts, so `/` marks the boot disk.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    fixture_dirs: &["freebsd-probe/mount-p"],
    platform: Some(crate::evidence::Platform::Freebsd),
    live: &[spec::Live::Cmd(&["mount", "-p"])],
    pasted_as: Some(spec::Live::Cmd(&["mount", "-p"])),
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, t| {
        p == "mount" && t.split_whitespace().any(|w| w == "-p")
    })),
    programs: &[spec::Program {
        names_device: false,
        ..spec::Program::new("mount", |a| a.split_whitespace().any(|w| w == "-p"))
    }],
    ..spec::SourceSpec::named("mount-p", "mount -p")
};

#[cfg(test)]
mod tests;
