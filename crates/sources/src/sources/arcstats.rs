//! The ZFS ARC's size and ceiling, and the OpenZFS module version, for judging what a
//! benchmark on a ZFS dataset read from. Linux: the SPL kstat file
//! /proc/spl/kstat/zfs/arcstats (a "name type data" table after a kstat header line, the
//! rows of module/zfs/arc.c `arc_stats`: `size` is the ARC's size now, `c_max` the most it
//! may grow to) and /sys/module/zfs/version. FreeBSD: the same kstat as sysctls
//! (kstat.zfs.misc.arcstats.size, .c_max) and the tunable vfs.zfs.arc.max (OpenZFS,
//! FreeBSD 13 and later; module/os/freebsd/zfs/sysctl_os.c param_set_arc_max) or
//! vfs.zfs.arc_max (FreeBSD 12's ZFS and OpenZFS's legacy name), 0 meaning "the default",
//! and vfs.zfs.version.module.

/// The ARC's size now and its ceiling, in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Arc {
    /// arcstats `size`: bytes the ARC holds now.
    pub size: Option<u64>,
    /// arcstats `c_max`, else a non-zero arc.max/arc_max tunable: the most the ARC may hold.
    pub c_max: Option<u64>,
}

impl Arc {
    pub fn is_empty(&self) -> bool {
        self.size.is_none() && self.c_max.is_none()
    }
}

/// The Linux kstat file.
pub const LINUX_ARCSTATS: &str = "/proc/spl/kstat/zfs/arcstats";
/// The Linux module version ("2.1.11-1", "2.3.0-1").
pub const LINUX_VERSION: &str = "/sys/module/zfs/version";
/// FreeBSD's sysctls, in the order they are asked.
pub const FREEBSD_SYSCTLS: [&str; 4] = [
    "kstat.zfs.misc.arcstats.size",
    "kstat.zfs.misc.arcstats.c_max",
    "vfs.zfs.arc.max",
    "vfs.zfs.arc_max",
];
/// FreeBSD's OpenZFS module version ("2.1.9-FreeBSD_g92e0d9d18"); absent before OpenZFS.
pub const FREEBSD_VERSION: &str = "vfs.zfs.version.module";

/// Read either form: kstat rows ("size  4  1603939792") or sysctl lines
/// ("kstat.zfs.misc.arcstats.size: 46874821736", "vfs.zfs.arc_max: 4294967296"). A bare
/// number (one sysctl's value alone) is read by [`parse_sysctl_value`] instead.
pub fn parse(text: &str) -> Arc {
    let mut size = None;
    let mut c_max = None;
    let mut tunable = None;
    for line in text.lines() {
        let line = line.trim();
        if let Some((name, value)) = line.split_once(':') {
            let v = value.trim().parse::<u64>().ok();
            match name.trim() {
                "kstat.zfs.misc.arcstats.size" => size = v.or(size),
                "kstat.zfs.misc.arcstats.c_max" => c_max = v.or(c_max),
                // 0: no limit set, the module's default applies (zfs(4) zfs_arc_max).
                "vfs.zfs.arc.max" | "vfs.zfs.arc_max" => tunable = v.filter(|n| *n > 0).or(tunable),
                _ => {}
            }
            continue;
        }
        // A kstat row: name, type (4 = KSTAT_DATA_UINT64), value.
        let f: Vec<&str> = line.split_whitespace().collect();
        if let [name, "4", value] = f.as_slice() {
            let v = value.parse::<u64>().ok();
            match *name {
                "size" => size = v.or(size),
                "c_max" => c_max = v.or(c_max),
                _ => {}
            }
        }
    }
    Arc {
        size,
        c_max: c_max.or(tunable),
    }
}

/// One sysctl capture's number: "4294967296" or "vfs.zfs.arc_max: 4294967296".
pub fn parse_sysctl_value(text: &str, name: &str) -> Option<u64> {
    crate::sources::sysctl::bare_value(text, name)
        .parse::<u64>()
        .ok()
}

/// The ARC from FreeBSD's separate sysctl captures ([`FREEBSD_SYSCTLS`], in that order):
/// `c_max` from the kstat, else a non-zero tunable.
pub fn from_sysctls(values: &[Option<u64>; 4]) -> Arc {
    let [size, c_max, arc_max, legacy] = *values;
    Arc {
        size,
        c_max: c_max
            .or(arc_max.filter(|n| *n > 0))
            .or(legacy.filter(|n| *n > 0)),
    }
}

/// The module version's (major, minor): "2.1.11-1" -> (2, 1), "v2.2.0" -> (2, 2).
pub fn version(text: &str) -> Option<(u32, u32)> {
    let t = text.trim();
    let t = t.rsplit(':').next().unwrap_or(t).trim();
    let t = t.strip_prefix(['v', 'V']).unwrap_or(t);
    let mut parts = t.split(['.', '-']);
    let major = parts.next()?.parse().ok()?;
    let minor = parts.next()?.parse().ok()?;
    Some((major, minor))
}

// ---- the source spec (see sources::spec) ----
use crate::sources::spec;

/// Captured live by the benchmark when its scratch file is on ZFS (crates/sys
/// bench::zfs), never recognised in a paste.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    fixture_dirs: &["bench-zfs/arcstats"],
    live: &[
        spec::Live::File(LINUX_ARCSTATS),
        spec::Live::File(LINUX_VERSION),
        spec::Live::Sysctl(FREEBSD_SYSCTLS[0]),
        spec::Live::Sysctl(FREEBSD_SYSCTLS[1]),
        spec::Live::Sysctl(FREEBSD_SYSCTLS[2]),
        spec::Live::Sysctl(FREEBSD_SYSCTLS[3]),
        spec::Live::Sysctl(FREEBSD_VERSION),
    ],
    parse: Some(|t| {
        let a = parse(t);
        usize::from(a.size.is_some()) + usize::from(a.c_max.is_some())
    }),
    ..spec::SourceSpec::named("arcstats", "ZFS ARC size and ceiling")
};

#[cfg(test)]
mod tests;
