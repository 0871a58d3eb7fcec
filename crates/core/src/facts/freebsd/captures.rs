//! The FreeBSD captures, parsed once: the machine-wide ones ([`Global`]) and one disk's own
//! ([`DiskCaptures`]), with the helpers that read a capture or say why it is missing.

use crate::evidence::{EvidenceBundle, SourceKey};
use crate::facts::Fact;
use crate::plan::{Item, freebsd as plan};
use crate::sources::zpool::{self, DeviceNaming, PoolMembers};
use crate::sources::{
    camcontrol_devlist, camcontrol_identify, confxml, diskinfo, dmesg, geli, gpart_list,
    gpart_show, mount_p, pciconf, sysctl, zfs_get, zpool_ashift,
};

/// The machine-wide captures, parsed once.
pub(super) struct Global<'a> {
    pub(super) b: &'a EvidenceBundle,
    pub(super) dmesg: Option<dmesg::Dmesg>,
    pub(super) devlist: Option<camcontrol_devlist::Devlist>,
    /// dev.ahci / dev.ahcich / dev.atapci / dev.ata entries with the key each came from.
    pub(super) dev_sysctl: Vec<(String, String, String)>,
    pub(super) pci: Vec<pciconf::PciDevice>,
    pub(super) gshow: Vec<gpart_show::Block>,
    pub(super) glist: Vec<gpart_list::Geom>,
    pub(super) geli: Vec<geli::Geli>,
    pub(super) pools: Vec<PoolMembers>,
    /// kern.geom.confxml: the GEOM graph (readable without root).
    pub(super) mesh: Option<confxml::Mesh>,
    /// The capture the disk list came from (kern.disks, devlist or dmesg.boot): the
    /// evidence for facts read off a disk's name alone (nvd -> NVMe, adN -> ata(4)).
    pub(super) names_from: String,
    /// `mount -p`, `zfs get`, `pciconf -lc` and per-pool ashift captures.
    pub(super) extra: Extra,
}

/// (pool, vdev -> ashift rows, capture key) of `zpool get ... all-vdevs`.
pub(super) type VdevAshift = (String, Vec<(String, u32)>, String);

/// The captures of mounts, dataset properties, vdev ashift and PCIe links.
#[derive(Default)]
pub(super) struct Extra {
    pub(super) mounts: Vec<mount_p::Mounted>,
    /// `zfs get` rows (the key is rebuilt from `mount -p` with zfs_get::argv).
    pub(super) zprops: Vec<(String, String, String)>,
    /// `pciconf -lc` devices (link width/speed).
    pub(super) caps: Vec<pciconf::PciDevice>,
    /// Per pool: vdev -> ashift from `zpool get ... all-vdevs`, with its key.
    pub(super) vdev_ashift: Vec<VdevAshift>,
    /// Per pool: `zdb -C` top-level vdevs, with its key.
    pub(super) zdb: Vec<(String, Vec<zpool_ashift::TopVdev>, String)>,
}

impl Extra {
    pub(super) fn gather(b: &EvidenceBundle, pools: &[PoolMembers]) -> Extra {
        let d = |item: &Item, n: &str| b.data(&item.key(n));
        let mounts = d(&plan::MOUNT_P, "")
            .map(mount_p::parse)
            .unwrap_or_default();
        // The same argv the probe ran (zfs_get::argv over the mounted datasets).
        let zkey = SourceKey::Command(zfs_get::argv(&mount_p::zfs_datasets(&mounts)));
        let zprops = b.data(&zkey).map(zfs_get::parse).unwrap_or_default();
        let mut vdev_ashift = Vec::new();
        let mut zdb = Vec::new();
        for p in pools {
            // A row named after the pool, or ashift 0, is the pool property that an older
            // zpool(8) printed before failing on "all-vdevs": not a vdev value.
            if let Some(t) = d(&plan::ZPOOL_ASHIFT, &p.name) {
                let rows: Vec<(String, u32)> = zpool_ashift::parse_vdev_props(t)
                    .into_iter()
                    .filter(|(n, a)| *n != p.name && *a >= 9)
                    .collect();
                if !rows.is_empty() {
                    vdev_ashift.push((p.name.clone(), rows, key(&plan::ZPOOL_ASHIFT, &p.name)));
                }
            }
            // zdb -C from the cache file, else zdb -e -C from the labels (cachefile=none).
            for item in [plan::ZDB_CONFIG, plan::ZDB_CONFIG_SEARCH] {
                if let Some(t) = d(&item, &p.name) {
                    zdb.push((
                        p.name.clone(),
                        zpool_ashift::parse_zdb(t),
                        key(&item, &p.name),
                    ));
                    break;
                }
            }
        }
        Extra {
            mounts,
            zprops,
            caps: d(&plan::PCICONF_CAPS, "")
                .map(pciconf::parse)
                .unwrap_or_default(),
            vdev_ashift,
            zdb,
        }
    }
}

pub(super) fn key(item: &Item, disk: &str) -> String {
    item.key_str(disk)
}

impl<'a> Global<'a> {
    pub(super) fn data(&self, item: &Item, disk: &str) -> Option<&'a str> {
        self.b.data(&item.key(disk))
    }
    pub(super) fn why(&self, item: &Item, disk: &str) -> String {
        let k = item.key(disk);
        format!("{} {}", describe(&k), self.b.why(&k))
    }
    pub(super) fn gather(b: &'a EvidenceBundle) -> Global<'a> {
        let d = |item: &Item| b.data(&item.key(""));
        let mut dev_sysctl = Vec::new();
        for item in [
            plan::DEV_AHCI,
            plan::DEV_AHCICH,
            plan::DEV_ATAPCI,
            plan::DEV_ATA,
        ] {
            if let Some(t) = d(&item) {
                for (k, v) in sysctl::parse(t) {
                    dev_sysctl.push((k, v, key(&item, "")));
                }
            }
        }
        let pools: Vec<PoolMembers> = d(&plan::ZPOOL_STATUS)
            .map(|t| zpool::pool_members(t, DeviceNaming::FreeBsd))
            .unwrap_or_default();
        Global {
            b,
            extra: Extra::gather(b, &pools),
            dmesg: d(&plan::DMESG_BOOT).map(dmesg::parse),
            devlist: d(&plan::DEVLIST).map(camcontrol_devlist::parse),
            dev_sysctl,
            pci: d(&plan::PCICONF).map(pciconf::parse).unwrap_or_default(),
            gshow: d(&plan::GPART_SHOW)
                .map(gpart_show::parse)
                .unwrap_or_default(),
            glist: d(&plan::GPART_LIST)
                .map(gpart_list::parse)
                .unwrap_or_default(),
            geli: d(&plan::GELI_LIST).map(geli::parse).unwrap_or_default(),
            pools,
            names_from: if d(&plan::KERN_DISKS).is_some() {
                key(&plan::KERN_DISKS, "")
            } else if d(&plan::DEVLIST).is_some() {
                key(&plan::DEVLIST, "")
            } else {
                key(&plan::DMESG_BOOT, "")
            },
            mesh: d(&plan::GEOM_CONFXML)
                .map(|t| confxml::parse(sysctl::bare_value(t, "kern.geom.confxml"))),
        }
    }
    pub(super) fn dev_sysctl(&self, name: &str) -> Option<(&str, &str)> {
        self.dev_sysctl
            .iter()
            .rev()
            .find(|(k, _, _)| k == name)
            .map(|(_, v, from)| (v.as_str(), from.as_str()))
    }
    pub(super) fn dmesg_key(&self) -> String {
        key(&plan::DMESG_BOOT, "")
    }
}

/// "camcontrol identify ada0:" style prefix for unknown reasons.
pub(super) fn describe(k: &SourceKey) -> String {
    match k {
        SourceKey::Command(argv) => format!("`{}`:", argv.join(" ")),
        SourceKey::Sysctl(n) => format!("sysctl {n}:"),
        SourceKey::File(p) => format!("{p}:"),
        other => format!("{other}:"),
    }
}

pub(super) fn pick(cands: &[(Option<String>, &String)]) -> Option<Fact<String>> {
    cands.iter().find_map(|(v, k)| {
        v.as_ref()
            .filter(|s| !s.trim().is_empty())
            .map(|s| Fact::known(s.trim().to_string(), (*k).clone()))
    })
}

pub(super) fn pick_num(cands: &[(Option<u64>, String)]) -> Option<(u64, String)> {
    cands.iter().find_map(|(v, k)| v.map(|v| (v, k.clone())))
}

pub(super) fn push(v: &mut Vec<String>, k: &str) {
    if !v.iter().any(|x| x == k) {
        v.push(k.to_string());
    }
}

/// How the facts name the source of a CAM disk's IDENTIFY data ("camcontrol identify").
pub(super) const IDENTIFY: &str = crate::sources::camcontrol_identify::SPEC.display;

/// What the transport, queueing and write-cache families read about one disk: its name and
/// driver prefix, its parsed identify output with the key it came from, and its dmesg.boot
/// lines.
#[derive(Clone, Copy)]
pub(super) struct DiskSrc<'a> {
    pub(super) g: &'a Global<'a>,
    pub(super) name: &'a str,
    pub(super) prefix: &'a str,
    pub(super) ident: Option<&'a camcontrol_identify::Identify>,
    pub(super) dm: Option<&'a dmesg::DiskLines>,
    pub(super) id_key: &'a str,
}

/// One disk's own captures, parsed once: what the per-disk fact families read.
pub(super) struct DiskCaptures<'a> {
    pub(super) g: &'a Global<'a>,
    pub(super) name: &'a str,
    /// The driver's name without the unit: ada, da, nvd, mfisyspd, ...
    pub(super) prefix: &'a str,
    /// The boot log's key.
    pub(super) dk: String,
    /// ata(4)'s adN disks answer `atacontrol cap`, CAM disks `camcontrol identify`.
    pub(super) id_item: Item,
    pub(super) id_key: String,
    pub(super) ident: Option<camcontrol_identify::Identify>,
    pub(super) di_key: String,
    pub(super) di: Option<diskinfo::DiskInfo>,
    pub(super) dm_disk: Option<&'a dmesg::DiskLines>,
    /// The DISK provider in kern.geom.confxml: sizes, stripe, rotation, descr, ident.
    pub(super) cx: Option<&'a confxml::Provider>,
    pub(super) cx_key: String,
}

impl<'a> DiskCaptures<'a> {
    pub(super) fn gather(g: &'a Global<'a>, name: &'a str) -> DiskCaptures<'a> {
        let prefix = name.trim_end_matches(|c: char| c.is_ascii_digit());
        let id_item = if prefix == "ad" {
            plan::ATACONTROL_CAP
        } else {
            plan::IDENTIFY
        };
        DiskCaptures {
            g,
            name,
            prefix,
            dk: g.dmesg_key(),
            id_item,
            id_key: key(&id_item, name),
            ident: g.data(&id_item, name).map(camcontrol_identify::parse),
            di_key: key(&plan::DISKINFO, name),
            di: g.data(&plan::DISKINFO, name).map(diskinfo::parse),
            dm_disk: g.dmesg.as_ref().and_then(|m| m.disks.get(name)),
            cx: g.mesh.as_ref().and_then(|m| m.disk(name)),
            cx_key: key(&plan::GEOM_CONFXML, ""),
        }
    }

    /// A per-disk ioctl answer (DIOCGMEDIASIZE, ...) as a number, with its key.
    pub(super) fn ioctl(&self, item: &Item) -> Option<(u64, String)> {
        let v = self.g.data(item, self.name)?.trim().parse().ok()?;
        Some((v, key(item, self.name)))
    }

    /// A non-empty config value of the disk's GEOM DISK provider.
    pub(super) fn cx_conf(&self, k: &str) -> Option<String> {
        self.cx
            .and_then(|p| p.config.get(k))
            .map(|v| v.trim().to_string())
            .filter(|v| !v.is_empty())
    }

    pub(super) fn src(&self) -> DiskSrc<'_> {
        DiskSrc {
            g: self.g,
            name: self.name,
            prefix: self.prefix,
            ident: self.ident.as_ref(),
            dm: self.dm_disk,
            id_key: &self.id_key,
        }
    }
}
