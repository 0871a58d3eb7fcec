//! `zfs-ashift-too-small`: a ZFS vdev whose block size (2^ashift) is smaller than the
//! drive's physical sector. References: zpoolprops(7) (`ashift`), OpenZFS's
//! vfs.zfs.min_auto_ashift (FreeBSD) and zpool create -o ashift (Linux).

use crate::checks::common::{self, Source, cite, cite_keys, how_to_know};
use crate::checks::{Check, Confidence, Finding, Fix, Severity, Verdict};
use crate::evidence::Platform;
use crate::facts::{DiskFacts, Layer, LayerKind, SystemFacts};

pub const ID: &str = "zfs-ashift-too-small";

pub(crate) struct ZfsAshiftTooSmall;

impl Check for ZfsAshiftTooSmall {
    fn id(&self) -> &'static str {
        ID
    }
    fn label(&self) -> &'static str {
        "ZFS ashift"
    }
    fn summary(&self) -> &'static str {
        "ZFS vdev ashift below the drive's physical sector (ashift=9 on a 4K drive)"
    }
    fn run(&self, sys: &SystemFacts) -> Vec<Finding> {
        // Only disks that carry ZFS are relevant.
        common::disks(sys)
            .filter(|d| d.layers.iter().any(|l| l.kind == Some(LayerKind::Zfs)))
            .map(|d| check_disk(sys, d))
            .collect()
    }
}

/// OpenZFS's largest ashift (include/sys/fs/zfs.h ASHIFT_MAX; zpoolprops(7): 9 to 16).
const ASHIFT_MAX: u32 = 16;

pub(crate) fn check_disk(sys: &SystemFacts, d: &DiskFacts) -> Finding {
    let pools: Vec<&Layer> = d
        .layers
        .iter()
        .filter(|l| l.kind == Some(LayerKind::Zfs))
        .collect();
    let Some(phys) = d.physical_sector_bytes.get().filter(|&p| p > 0) else {
        return common::unknown(
            ID,
            d,
            format!("physical sector size of {} unknown", d.name),
            "The drive's physical sector size (to compare with the pool's ashift)",
            &common::why(&d.physical_sector_bytes),
            &how_to_know(sys.platform, Source::SectorSize, d),
        );
    };
    let unknown: Vec<&&Layer> = pools.iter().filter(|l| l.ashift.is_none()).collect();
    let small: Vec<(&&Layer, u32)> = pools
        .iter()
        .filter_map(|l| l.ashift.map(|a| (l, a)))
        .filter(|(_, a)| *a < 32 && (1u64 << a) < u64::from(phys))
        .collect();
    let phys_s = format!("physical_sector_bytes={phys}");
    let Some(&(l, a)) = small.first() else {
        if !unknown.is_empty() {
            return common::unknown(
                ID,
                d,
                format!("ashift of the ZFS pool on {} unknown", d.name),
                &format!(
                    "The ashift of pool {}",
                    unknown
                        .iter()
                        .map(|l| l.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                unknown
                    .iter()
                    .find_map(|l| l.ashift_why.as_deref())
                    .unwrap_or("it was not in the captured zpool/zdb output"),
                match sys.platform {
                    // zdb could not open a pool missing from the cache file: root does not
                    // help, reading the labels does (facts::freebsd::zdb_why).
                    _ if unknown.iter().any(|l| {
                        l.ashift_why
                            .as_deref()
                            .is_some_and(|w| w.contains("cachefile=none"))
                    }) =>
                    {
                        "run `zdb -e -C POOL` as root (it reads the pool's configuration from \
                         its disks' labels) or, on OpenZFS 2.2 and later, `zpool get ashift \
                         POOL all-vdevs`"
                    }
                    Platform::Freebsd | Platform::Linux => {
                        "run diskdoc as root so `zdb -C` (or `zpool get ashift`) can be read"
                    }
                    Platform::Unknown => "run diskdoc on the machine as root",
                },
            );
        }
        let mut f = common::pass(ID, d, "ZFS ashift matches the physical sector: good").explain(
            format!("The pool's block size is at least the drive's {phys}-byte physical sector."),
        );
        for l in &pools {
            f = cite_keys(
                f,
                &l.from,
                &format!("{} ashift={}", l.name, l.ashift.unwrap_or(0)),
            );
        }
        return cite(f, &d.physical_sector_bytes, phys_s);
    };
    let mut f = Finding::new(
        ID,
        &d.name,
        Verdict::Problem,
        Severity::Warning,
        format!(
            "{}: ZFS pool {} has ashift={a} ({}-byte blocks) on {phys}-byte physical sectors",
            d.name,
            l.name,
            1u64 << a
        ),
    )
    .explain(format!(
        "ZFS writes in units of 2^ashift bytes, fixed per vdev when the pool is created. With \
         ashift={a} it writes {}-byte pieces onto a drive whose physical sector is {phys} \
         bytes, so the drive has to read-modify-write many of them, like a misaligned \
         partition (seed 003's drive: 4 KiB writes 11.3 MB/s aligned versus 5.0 MB/s \
         misaligned). ashift cannot be changed on an existing vdev: the pool has to be \
         recreated (or the data sent to a new one) with ashift={}.",
        1u64 << a,
        phys.trailing_zeros().min(ASHIFT_MAX)
    ))
    .confidence(Confidence::Medium)
    .impact(0.3);
    f = cite_keys(f, &l.from, &format!("{} ashift={a}", l.name));
    f = cite(f, &d.physical_sector_bytes, phys_s);
    // OpenZFS's ASHIFT_MAX is 16 (include/sys/fs/zfs.h): a larger unit cannot be matched.
    let want = phys.trailing_zeros().min(ASHIFT_MAX);
    if a >= ASHIFT_MAX {
        // Replaces the "recreate with a larger ashift" advice, which cannot be followed.
        f.explanation = format!(
            "ZFS writes in units of 2^ashift bytes, fixed per vdev. ZFS's largest ashift is {ASHIFT_MAX} ({} bytes) and the pool already uses it: no \
             pool layout matches this drive's {phys}-byte unit, so writes smaller than it cost \
             a read-modify-write inside the drive whatever is done on the host.",
            1u64 << ASHIFT_MAX
        );
        return f;
    }
    let risk = "recreating a pool destroys it: send the data elsewhere (zfs send -R) and \
                check it before destroying"
        .to_string();
    match sys.platform {
        Platform::Freebsd => {
            f = f.fix(Fix {
                platform: Platform::Freebsd,
                summary: format!("recreate the pool with ashift={want}"),
                steps: vec![
                    format!("`zfs snapshot -r {p}@move && zfs send -R {p}@move > /backup/{p}.zfs` (or to another pool)", p = l.name),
                    format!("`sysctl vfs.zfs.min_auto_ashift={want}` (and in /etc/sysctl.conf)"),
                    format!("`zpool destroy {}`, `zpool create ...` with the same vdevs, then `zfs receive`", l.name),
                    format!("Check: `zdb -C {} | grep ashift` shows {want}", l.name),
                ],
                risk,
            });
        }
        Platform::Linux => {
            f = f.fix(Fix {
                platform: Platform::Linux,
                summary: format!("recreate the pool with ashift={want}"),
                steps: vec![
                    format!("`zfs snapshot -r {p}@move && zfs send -R {p}@move > /backup/{p}.zfs` (or to another pool)", p = l.name),
                    format!("`zpool destroy {}` then `zpool create -o ashift={want} {} ...` with the same vdevs, then `zfs receive`", l.name, l.name),
                    format!("Check: `zpool get ashift {}` or `zdb -C {} | grep ashift`", l.name, l.name),
                ],
                risk,
            });
        }
        Platform::Unknown => {}
    }
    f
}

#[cfg(test)]
mod tests;
