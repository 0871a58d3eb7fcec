//! `--device` on FreeBSD: map what the user typed to the disk (a kern.disks name) it is on,
//! from the bundle's captures only (pure). Accepted: a disk ("ada0", "/dev/ada0"), a
//! partition or slice ("ada0p2", "ada0s1a", "/dev/da0s4"), a GELI provider
//! ("/dev/ada0p3.eli"), a GEOM label (gpt/, gptid/, diskid/, ufs/ names from
//! kern.geom.confxml LABEL geoms, and gpart list labels as "gpt/LABEL"), a mirror
//! ("mirror/gm0"), a path on a mounted UFS or ZFS filesystem (`mount -p`: the longest
//! mountpoint prefix; ZFS datasets through the pool's leaves in `zpool status`), a dataset
//! or pool name. References: glabel(8), gpart(8), geli(8), gmirror(8), mount(8) -p.

use crate::evidence::{EvidenceBundle, SourceKey};
use crate::plan::freebsd as plan;
use crate::sources::{confxml, geli, gpart_list, mount_p, sysctl, zpool};

pub(crate) struct Names {
    disks: Vec<String>,
    mesh: Option<confxml::Mesh>,
    glist: Vec<gpart_list::Geom>,
    geli: Vec<geli::Geli>,
    mounts: Vec<mount_p::Mounted>,
    pools: Vec<zpool::PoolMembers>,
}

impl Names {
    pub(crate) fn gather(b: &EvidenceBundle) -> Names {
        let d = |k: SourceKey| b.data(&k);
        let mut disks: Vec<String> = d(plan::KERN_DISKS.key(""))
            .map(|v| sysctl::disk_names(sysctl::bare_value(v, "kern.disks")))
            .unwrap_or_default();
        disks.retain(|n| plan::is_examined_disk(n));
        Names {
            disks,
            mesh: d(plan::GEOM_CONFXML.key(""))
                .map(|t| confxml::parse(sysctl::bare_value(t, "kern.geom.confxml"))),
            glist: d(plan::GPART_LIST.key(""))
                .map(gpart_list::parse)
                .unwrap_or_default(),
            geli: d(plan::GELI_LIST.key(""))
                .map(geli::parse)
                .unwrap_or_default(),
            mounts: d(plan::MOUNT_P.key(""))
                .map(mount_p::parse)
                .unwrap_or_default(),
            pools: d(plan::ZPOOL_STATUS.key(""))
                .map(|t| zpool::pool_members(t, zpool::DeviceNaming::FreeBsd))
                .unwrap_or_default(),
        }
    }

    /// The disk a GEOM provider name is on, following labels, GELI and mirrors down.
    pub(crate) fn provider_disk(&self, name: &str, depth: u32) -> Option<String> {
        let name = name.trim_start_matches("/dev/");
        if depth > 8 || name.is_empty() {
            return None;
        }
        if self.disks.iter().any(|d| d == name) {
            return Some(name.to_string());
        }
        // A partition, slice or BSD label entry named after its disk: the longest disk name
        // that is a prefix followed by p<digit>, s<digit> or a label letter (ada0s1a).
        let derived = self
            .disks
            .iter()
            .filter(|d| {
                name.strip_prefix(d.as_str()).is_some_and(|rest| {
                    let mut ch = rest.chars();
                    match ch.next() {
                        Some('p') | Some('s') => ch.next().is_some_and(|c| c.is_ascii_digit()),
                        // BSD label entries a..t (bsdlabel(8): up to 20).
                        Some(c) => ('a'..='t').contains(&c) && ch.next().is_none_or(|c| c == '.'),
                        None => false,
                    }
                })
            })
            .max_by_key(|d| d.len());
        if let Some(d) = derived {
            return Some(d.clone());
        }
        if let Some(under) = name.strip_suffix(".eli") {
            return self.provider_disk(under, depth + 1);
        }
        if let Some(g) = self.geli.iter().find(|g| g.name == name)
            && let Some(c) = &g.consumer
        {
            return self.provider_disk(c, depth + 1);
        }
        // gpart list labels name the same provider as gpt/LABEL.
        if let Some(label) = name.strip_prefix("gpt/") {
            for g in &self.glist {
                if let Some(p) = g
                    .providers
                    .iter()
                    .find(|p| p.label.as_deref() == Some(label))
                {
                    return self.provider_disk(&p.name, depth + 1);
                }
            }
        }
        // Any GEOM (LABEL, MIRROR, ELI, PART) whose provider has this name: its consumers.
        if let Some(m) = &self.mesh {
            for g in &m.geoms {
                if g.providers.iter().any(|p| p.name == name) || g.name == name {
                    for c in m.consumed_names(g) {
                        if c != name
                            && let Some(d) = self.provider_disk(&c, depth + 1)
                        {
                            return Some(d);
                        }
                    }
                }
            }
        }
        None
    }

    /// The first disk (sorted) holding a leaf of the pool.
    fn pool_disk(&self, pool: &str, depth: u32) -> Option<String> {
        let p = self.pools.iter().find(|p| p.name == pool)?;
        let mut found: Vec<String> = p
            .leaves
            .iter()
            .filter_map(|l| self.provider_disk(l, depth + 1))
            .collect();
        crate::sort::sort(&mut found);
        found.into_iter().next()
    }
}

/// The disk `spec` is on, or `spec` itself (without /dev/) when nothing in the bundle ties
/// it to one: the caller then reports an unknown device with the names that exist. A pool
/// spread over several disks resolves to the first of them in name order.
pub fn resolve_target(b: &EvidenceBundle, spec: &str) -> String {
    let n = Names::gather(b);
    let bare = spec.strip_prefix("/dev/").unwrap_or(spec);
    if let Some(d) = n.provider_disk(bare, 0) {
        return d;
    }
    if spec.starts_with('/') && !spec.starts_with("/dev/") {
        if let Some(m) = mount_p::mount_for_path(&n.mounts, spec) {
            if let Some(p) = m.provider()
                && let Some(d) = n.provider_disk(p, 0)
            {
                return d;
            }
            if let Some(pool) = m.pool()
                && let Some(d) = n.pool_disk(pool, 0)
            {
                return d;
            }
        }
        return bare.to_string();
    }
    // A dataset ("zroot/usr/home") or pool name.
    let pool = bare.split('/').next().unwrap_or(bare);
    n.pool_disk(pool, 0).unwrap_or_else(|| bare.to_string())
}

#[cfg(test)]
mod tests;
