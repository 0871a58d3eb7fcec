//! The platform-neutral capture plan: which commands, files, sysctls and ioctls to capture,
//! machine-wide and per disk. Data, not code paths: the FreeBSD probe walks these tables
//! through the Host seam, and the FreeBSD facts look their captures up with the same
//! [`Item::key`], so the two can never disagree about a key's spelling.
//!
//! Templates: `{disk}` is the kernel name (ada0), `{dev}` the node (/dev/ada0), `{unit}` the
//! unit number (0). References: camcontrol(8), atacontrol(8) (FreeBSD <= 8), diskinfo(8),
//! gpart(8), geli(8), pciconf(8), sysctl(8), ada(4) (kern.cam.ada.N.write_cache), ata(4)
//! (hw.ata.wc), zpool(8), zfs(8), sys/disk.h (DIOC* ioctls).

use crate::evidence::IoctlRequest;
use crate::evidence::SourceKey;
use crate::evidence::fill_template as fill;

/// `zpool get -H -o name,property,value autotrim`: every imported pool's autotrim property,
/// one "pool<TAB>autotrim<TAB>on|off" row each (zpool-get(8): no pool operand means all
/// pools; zpoolprops(7) autotrim, off by default since OpenZFS 2.2 on every OS,
/// openzfs/zfs#15079). Read-only: `get` is one of the runner's allowed zpool subcommands,
/// `set` is refused. Captured on FreeBSD (plan::freebsd::ZPOOL_AUTOTRIM) and on Linux
/// with the zfs module loaded (the probe's collect_after).
pub const ZPOOL_GET_AUTOTRIM: &[&str] = &[
    "zpool",
    "get",
    "-H",
    "-o",
    "name,property,value",
    "autotrim",
];

/// How to capture one thing.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Source {
    /// argv template, run through the allowlisted runner.
    Cmd(&'static [&'static str]),
    Sysctl(&'static str),
    File(&'static str),
    Ioctl(IoctlRequest),
}

/// When an item applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum When {
    Always,
    /// Only with `ProbeOptions::with_tools` (smartctl is slow and optional).
    WithTools,
    /// ada(4) disks (CAM ATA).
    Ada,
    /// ada(4) and da(4): `camcontrol identify` also reaches SATA drives behind SAS HBAs.
    CamDisk,
    /// The old ata(4) `adN` disks (FreeBSD <= 8), which only `atacontrol` can query.
    OldAd,
    /// da(4) only: SCSI mode pages (a SAS drive's caching page).
    Da,
    /// Only when the zfs module is already loaded (see [`freebsd::KLDSTAT_ZFS`]): libzfs
    /// kldloads zfs.ko on first use, so a probe must not run zpool/zfs on a box without it.
    ZfsLoaded,
    /// The path and health items ask only with `ProbeOptions::with_tools`, so a default scan asks for
    /// what it always did: ada(4) disks,
    AdaTools,
    /// da(4) disks (SCSI/SAS/USB/RAID volumes),
    DaTools,
    /// With `ProbeOptions::with_tools`: for an NVMe controller (nvmeN) the probe found an
    /// nvd(4)/nda(4) namespace on (facts::freebsd::device_state::nvme_controller), never
    /// by unit number.
    NvmeTools,
    /// nvd(4) disks only.
    Nvd,
    /// mfisyspd disks only (a drive mfi(4) passes through).
    Mfisyspd,
    /// With `ProbeOptions::with_tools`, every disk but an NVMe namespace and an mfi(4)
    /// pass-through drive: smartmontools' os_freebsd.cpp refuses /dev/nvdN ("To monitor
    /// NVMe disks use /dev/nvme* device names"), so the controller node is asked instead
    /// (NvmeTools); an mfisyspd disk is a GEOM disk of the mfi(4) firmware, no CAM device,
    /// so smartctl cannot reach the drive through it (the facts say how it can:
    /// facts::freebsd mfisyspd_smart).
    SmartctlDisk,
}

/// One thing to capture.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Item {
    pub source: Source,
    pub when: When,
    /// Why diskdoc wants it (shown in docs and `--explain` output).
    pub why: &'static str,
}

impl Item {
    /// The capture key for this item (per-disk items need `disk`).
    pub fn key(&self, disk: &str) -> SourceKey {
        match self.source {
            Source::Cmd(argv) => SourceKey::Command(argv.iter().map(|a| fill(a, disk)).collect()),
            Source::Sysctl(n) => SourceKey::Sysctl(fill(n, disk)),
            Source::File(p) => SourceKey::File(fill(p, disk)),
            Source::Ioctl(req) => SourceKey::Ioctl {
                device: format!("/dev/{disk}"),
                request: req.name().to_string(),
            },
        }
    }
    /// The key's string form, as stored in bundles and in `Fact` sources.
    pub fn key_str(&self, disk: &str) -> String {
        self.key(disk).to_string()
    }
    /// Whether the item applies to `disk` (per-disk items) under these options.
    pub fn applies(&self, disk: &str, with_tools: bool) -> bool {
        let prefix = disk.trim_end_matches(|c: char| c.is_ascii_digit());
        match self.when {
            When::Always => true,
            When::WithTools => with_tools,
            When::Ada => prefix == "ada",
            When::CamDisk => prefix == "ada" || prefix == "da",
            When::OldAd => prefix == "ad",
            When::Da => prefix == "da",
            // The probe checks the module itself; the plan only marks the item.
            When::ZfsLoaded => true,
            When::AdaTools => with_tools && prefix == "ada",
            When::DaTools => with_tools && prefix == "da",
            When::NvmeTools => with_tools && prefix == "nvme",
            When::Nvd => prefix == "nvd",
            When::Mfisyspd => prefix == "mfisyspd",
            When::SmartctlDisk => {
                with_tools && prefix != "nvd" && prefix != "nda" && prefix != "mfisyspd"
            }
        }
    }
}

pub mod freebsd {
    use super::{Item, Source, When};
    use crate::evidence::IoctlRequest;

    macro_rules! item {
        ($name:ident, $src:expr, $when:expr, $why:expr) => {
            pub const $name: Item = Item {
                source: $src,
                when: $when,
                why: $why,
            };
        };
    }

    // Machine-wide.
    item!(
        KERN_DISKS,
        Source::Sysctl("kern.disks"),
        When::Always,
        "the disk list"
    );
    item!(
        OSTYPE,
        Source::Sysctl("kern.ostype"),
        When::Always,
        "OS name"
    );
    item!(
        OSRELEASE,
        Source::Sysctl("kern.osrelease"),
        When::Always,
        "OS release (driver behaviour differs across releases)"
    );
    item!(
        HOSTNAME,
        Source::Sysctl("kern.hostname"),
        When::Always,
        "host name (redacted in shared reports)"
    );
    item!(
        HW_MODEL,
        Source::Sysctl("hw.model"),
        When::Always,
        "CPU model"
    );
    item!(
        HW_PHYSMEM,
        Source::Sysctl("hw.physmem"),
        When::Always,
        "RAM in bytes"
    );
    item!(
        GEOM_CONFXML,
        Source::Sysctl("kern.geom.confxml"),
        When::Always,
        "the whole GEOM tree: disks, partitions, GELI and mirror layers with sizes and stripes"
    );
    item!(
        ADA_WRITE_CACHE_DEFAULT,
        Source::Sysctl("kern.cam.ada.write_cache"),
        When::Always,
        "ada(4) global write-cache setting (-1 leave as is, 0 off, 1 on)"
    );
    item!(
        HW_ATA_WC,
        Source::Sysctl("hw.ata.wc"),
        When::Always,
        "old ata(4) write-cache tunable (0 disables the cache on every adN disk)"
    );
    item!(
        DEVLIST,
        Source::Cmd(crate::sources::camcontrol_devlist::ARGV),
        When::Always,
        "which SIM (ahcich, ata, mps, umass) each CAM disk hangs off"
    );
    item!(
        DEV_AHCI,
        Source::Cmd(&["sysctl", "dev.ahci"]),
        When::Always,
        "AHCI controllers: %desc, %parent, %pnpinfo"
    );
    item!(
        DEV_AHCICH,
        Source::Cmd(&["sysctl", "dev.ahcich"]),
        When::Always,
        "AHCI channels and their parent controller"
    );
    item!(
        DEV_ATAPCI,
        Source::Cmd(&["sysctl", "dev.atapci"]),
        When::Always,
        "legacy/compatibility-mode ATA controllers (atapci)"
    );
    item!(
        DEV_ATA,
        Source::Cmd(&["sysctl", "dev.ata"]),
        When::Always,
        "ata(4) channels and the atapci controller each sits on"
    );
    item!(
        PCICONF,
        Source::Cmd(&["pciconf", "-lv"]),
        When::Always,
        "PCI class codes of the storage controllers (0x0101xx IDE vs 0x010601 AHCI)"
    );
    // Neither `gpart show` nor `geli list` loads a module: sbin/geom/core/geom.c
    // load_module() runs only for commands flagged G_FLAG_LOADKLD, and std_commands' "list"
    // and lib/geom/part/geom_part.c's "show" have flags 0 (FreeBSD 12-15).
    item!(
        GPART_SHOW,
        Source::Cmd(&["gpart", "show", "-p"]),
        When::Always,
        "partition tables with provider names and start sectors"
    );
    item!(
        GPART_LIST,
        Source::Cmd(&["gpart", "list"]),
        When::Always,
        "partition byte offsets and inherited stripe size/offset"
    );
    item!(
        GELI_LIST,
        Source::Cmd(&["geli", "list"]),
        When::Always,
        "GELI encryption layers: cipher, key length, hardware or software crypto"
    );
    // OpenZFS lib/libzfs/os/freebsd/libzfs_compat.c, libzfs_load_module(): `if
    // (modfind("zfs") < 0) kldload(ZFS_KMOD)`, run by every zpool/zfs command as root.
    // kldstat(8) -q -m asks the same modfind(2) question and loads nothing: exit 0 when the
    // module is there.
    item!(
        KLDSTAT_ZFS,
        Source::Cmd(&["kldstat", "-q", "-m", "zfs"]),
        When::Always,
        "whether zfs.ko is loaded (zpool/zfs are run only then: libzfs would load it)"
    );
    item!(
        ZPOOL_STATUS,
        Source::Cmd(&["zpool", "status"]),
        When::ZfsLoaded,
        "ZFS pools and the providers they sit on"
    );
    item!(
        ZPOOL_AUTOTRIM,
        Source::Cmd(super::ZPOOL_GET_AUTOTRIM),
        When::ZfsLoaded,
        "whether each pool trims freed space as it goes (autotrim, trim-unavailable)"
    );
    item!(
        DMESG_BOOT,
        Source::File("/var/run/dmesg.boot"),
        When::Always,
        "controller and disk attach lines, OS release, CPU features (AESNI)"
    );
    // sbin/dmesg/dmesg.c prints kern.msgbuf: the running kernel's message buffer, with the
    // CAM/ahci errors logged since boot that /var/run/dmesg.boot (written once by
    // /etc/rc.d/dmesg) never has.
    item!(
        DMESG_RUNNING,
        Source::Cmd(&["dmesg"]),
        When::Always,
        "kernel messages since boot: CAM timeouts, ahci channel resets, retries"
    );
    // sbin/mount/mount.c putfsent(): `mount -p` prints getmntinfo(3) (getfsstat(2)) in fstab
    // form, "source mountpoint fstype options freq passno".
    item!(
        MOUNT_P,
        Source::Cmd(&["mount", "-p"]),
        When::Always,
        "mounted filesystems: which partitions, GELI providers and datasets are in use"
    );
    // usr.sbin/pciconf/cap.c: "cap 10[NN] = PCI-Express 2 endpoint ... link x4(x4) speed
    // 5.0(5.0)": negotiated and maximum PCIe link of each function. Root only:
    // usr.sbin/pciconf/pciconf.c list_devs() opens /dev/pci read-write for -c, and /dev/pci
    // is writable by root alone; as another user it fails with "/dev/pci: Permission
    // denied" and the PCIe facts say so (facts::freebsd::device_state::pciconf_caps_why).
    item!(
        PCICONF_CAPS,
        Source::Cmd(&["pciconf", "-lc"]),
        When::Always,
        "PCIe link width and speed of the storage controllers (negotiated vs capable); needs \
         root: -c opens /dev/pci read-write"
    );

    // Per disk.
    item!(
        IDENTIFY,
        Source::Cmd(crate::sources::camcontrol_identify::ARGV),
        When::CamDisk,
        "ATA IDENTIFY: link speed, NCQ, write cache, sector sizes, rotation rate"
    );
    item!(
        ATACONTROL_CAP,
        Source::Cmd(&["atacontrol", "cap", "{disk}"]),
        When::OldAd,
        "ATA IDENTIFY on FreeBSD <= 8 (ata(4) adN disks)"
    );
    item!(
        DISKINFO,
        Source::Cmd(&["diskinfo", "-v", "{dev}"]),
        When::Always,
        "sector size, media size, stripe size/offset, ident, rotation rate, TRIM"
    );
    item!(
        ADA_WRITE_CACHE,
        Source::Sysctl("kern.cam.ada.{unit}.write_cache"),
        When::Ada,
        "per-disk ada(4) write-cache setting"
    );
    item!(
        MEDIASIZE,
        Source::Ioctl(IoctlRequest::DiocgMediaSize),
        When::Always,
        "media size in bytes"
    );
    item!(
        SECTORSIZE,
        Source::Ioctl(IoctlRequest::DiocgSectorSize),
        When::Always,
        "logical sector size"
    );
    item!(
        STRIPESIZE,
        Source::Ioctl(IoctlRequest::DiocgStripeSize),
        When::Always,
        "stripe size: the physical sector size GEOM reports"
    );
    item!(
        STRIPEOFFSET,
        Source::Ioctl(IoctlRequest::DiocgStripeOffset),
        When::Always,
        "stripe offset: where the first physical sector starts"
    );
    item!(
        SMARTCTL,
        Source::Cmd(crate::sources::smartctl::CAPTURE_ARGV),
        When::SmartctlDisk,
        "SMART health, error counters, drive link speeds"
    );
    // sbin/camcontrol/camcontrol.c tagcontrol(): -v prints the XPT_GDEV_STATS counters;
    // the openings in use are dev_openings + dev_active.
    item!(
        TAGS,
        Source::Cmd(crate::sources::camcontrol_tags::ARGV),
        When::CamDisk,
        "queue depth CAM uses for the disk (dev_openings + dev_active)"
    );
    // sbin/camcontrol/modeedit.c modepage_write() with share/misc/scsi_modes page 0x08
    // "Caching Page": "WCE:  1" is the write cache enable bit (SBC-3 6.5.5).
    item!(
        MODEPAGE_CACHING,
        Source::Cmd(crate::sources::camcontrol_modepage::ARGV),
        When::Da,
        "SCSI caching mode page: the WCE (write cache enable) bit of a SAS drive"
    );
    // sys/cam/ata/ata_da.c adaregister(): rotating = 0 only when IDENTIFY word 217 is 1
    // (non-rotating); it also turns off I/O queue sorting.
    item!(
        ADA_ROTATING,
        Source::Sysctl("kern.cam.ada.{unit}.rotating"),
        When::Ada,
        "whether ada(4) treats the disk as rotating (queue sorting)"
    );

    // Per pool (only with zfs.ko loaded; `{pool}` is the pool name from `zpool status`).
    // OpenZFS >= 2.2 (FreeBSD 14) has vdev properties: the ashift of every vdev.
    item!(
        ZPOOL_ASHIFT,
        Source::Cmd(&[
            "zpool",
            "get",
            "-H",
            "-o",
            "name,property,value",
            "ashift",
            "{pool}",
            "all-vdevs"
        ]),
        When::ZfsLoaded,
        "ashift of each vdev (the pool property is only the default for new vdevs)"
    );
    // Older OpenZFS (FreeBSD 13.x) has no vdev properties: zdb -C reads the cached
    // configuration (zpool.cache), "ashift: N" per top-level vdev. Run only when the
    // `zpool get ... all-vdevs` capture failed.
    item!(
        ZDB_CONFIG,
        Source::Cmd(&["zdb", "-C", "{pool}"]),
        When::ZfsLoaded,
        "cached pool configuration with the ashift of each top-level vdev (OpenZFS < 2.2)"
    );

    // zdb -C without -e reads the pool from the cache file (cmd/zdb/zdb.c: spa_open on the
    // configuration spa_config_path loaded); a pool imported with cachefile=none is not in
    // it, and zdb fails "can't open 'POOL': No such file or directory" (zdb detects the
    // cachefile itself only since OpenZFS 2.2.5, "zdb: detect cachefile automatically
    // otherwise force import"). -e finds the pool's configuration in the labels of the
    // devices under /dev instead (zpool_find_config, can_be_active), read-only. Run only
    // when ZDB_CONFIG failed with that "can't open".
    item!(
        ZDB_CONFIG_SEARCH,
        Source::Cmd(&["zdb", "-e", "-C", "{pool}"]),
        When::ZfsLoaded,
        "the pool configuration from its disks' labels when it is not in the cache file \
         (cachefile=none)"
    );

    // `zfs get compression` over the mounted datasets is built outside the item tables,
    // by sources::zfs_get::argv: its spec's live template and the argv the probe runs and
    // the facts look up are written once there.

    /// `tunefs -p DEV`: the UFS superblock flags (sbin/tunefs/tunefs.c prints them with
    /// warnx, so to standard error, as "tunefs: trim: (-t)   enabled"). -p only prints and
    /// exits (tunefs(8)); run for UFS mounts of /dev nodes only.
    pub fn tunefs_p_argv(dev: &str) -> Option<[String; 3]> {
        let name = dev.strip_prefix("/dev/")?;
        (!name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '/' | '.' | '_' | '-'))
            && !name.contains(".."))
        .then(|| ["tunefs".into(), "-p".into(), dev.to_string()])
    }

    /// Per-pool items, in order (the probe runs ZDB_CONFIG only when ZPOOL_ASHIFT failed,
    /// and ZDB_CONFIG_SEARCH only when zdb could not open the pool from the cache file).
    pub const PER_POOL: &[Item] = &[ZPOOL_ASHIFT, ZDB_CONFIG, ZDB_CONFIG_SEARCH];

    // TRIM path, NVMe health (smartctl must name the controller, not nvd0), PCIe
    // link capabilities (pciconf -c lists the PCI-Express capability's link line).
    item!(
        ADA_DELETE_METHOD,
        Source::Sysctl("kern.cam.ada.{unit}.delete_method"),
        When::AdaTools,
        "ada(4) BIO_DELETE method (NONE: TRIM never reaches the drive)"
    );
    item!(
        DA_DELETE_METHOD,
        Source::Sysctl("kern.cam.da.{unit}.delete_method"),
        When::DaTools,
        "da(4) BIO_DELETE method (NONE, ATA_TRIM, UNMAP, WS16, ...)"
    );
    // Per controller: filled with the controller's name (nvme1), found from the disk's
    // NVD_PARENT, diskinfo Attachment or devlist SIM, never from the disk's unit number.
    item!(
        NVME_HEALTH,
        Source::Cmd(&["nvmecontrol", "logpage", "-p", "2", "{disk}"]),
        When::NvmeTools,
        "NVMe SMART/Health log page 02h (critical warning, spare, wear, temperatures)"
    );
    item!(
        SMARTCTL_NVME,
        Source::Cmd(crate::sources::smartctl::CAPTURE_ARGV),
        When::NvmeTools,
        "NVMe health and temperature thresholds from the controller node"
    );
    // kern/subr_bus.c gives every newbus device a `%parent` sysctl; where nvd(4) attaches
    // as a child of its nvme(4) controller, dev.nvd.N.%parent names that controller.
    item!(
        NVD_PARENT,
        Source::Sysctl("dev.nvd.{unit}.%parent"),
        When::Nvd,
        "the nvme(4) controller an nvd(4) namespace is on"
    );

    // sys/dev/mfi/mfi_syspd.c: DRIVER_MODULE(mfisyspd, mfi, ...): a system PD (a drive the
    // controller passes through, JBOD) is a newbus child of its mfi(4) controller, so its
    // `%parent` (kern/subr_bus.c) names that controller; the disk itself exposes only its
    // size in 512-byte sectors (mfi_syspd_attach: d_sectorsize MFI_SECTOR_LEN, no stripe
    // size, no BIO_DELETE), and it is no CAM device (no camcontrol identify).
    item!(
        SYSPD_PARENT,
        Source::Sysctl("dev.mfisyspd.{unit}.%parent"),
        When::Mfisyspd,
        "the mfi(4) controller a pass-through (JBOD) drive is on"
    );

    /// For disk-busy: one gstat(8) screen after a second, run right before the
    /// read/write tests (not part of a scan): %busy, L(q), ms/r, ms/w per provider.
    pub const GSTAT_BUSY: &[&str] = &["gstat", "-b", "-I", "1s"];

    /// Captured once per machine, in this order (kern.disks first: it names the disks).
    pub const GLOBAL: &[Item] = &[
        KERN_DISKS,
        OSTYPE,
        OSRELEASE,
        HOSTNAME,
        HW_MODEL,
        HW_PHYSMEM,
        DEVLIST,
        GEOM_CONFXML,
        ADA_WRITE_CACHE_DEFAULT,
        HW_ATA_WC,
        DEV_AHCI,
        DEV_AHCICH,
        DEV_ATAPCI,
        DEV_ATA,
        PCICONF,
        GPART_SHOW,
        GPART_LIST,
        GELI_LIST,
        KLDSTAT_ZFS,
        ZPOOL_STATUS,
        ZPOOL_AUTOTRIM,
        DMESG_BOOT,
        DMESG_RUNNING,
        MOUNT_P,
        PCICONF_CAPS,
    ];

    /// Captured for each disk the items apply to.
    pub const PER_DISK: &[Item] = &[
        IDENTIFY,
        ATACONTROL_CAP,
        DISKINFO,
        ADA_WRITE_CACHE,
        MEDIASIZE,
        SECTORSIZE,
        STRIPESIZE,
        STRIPEOFFSET,
        SMARTCTL,
        TAGS,
        MODEPAGE_CACHING,
        ADA_ROTATING,
        ADA_DELETE_METHOD,
        DA_DELETE_METHOD,
        NVD_PARENT,
        SYSPD_PARENT,
    ];

    /// Captured for each NVMe controller an examined nvd/nda disk is on (filled with the
    /// controller's name, nvme1).
    pub const PER_NVME_CONTROLLER: &[Item] = &[NVME_HEALTH, SMARTCTL_NVME];

    /// Kernel disk names diskdoc examines; optical (cd), passthrough and enclosure devices
    /// are skipped. `sdda` is an SD card or eMMC on the CAM MMC stack (sys/cam/mmc/mmc_da.c
    /// sddaregister: d_name "sdda", 512-byte sectors, stripesize 0, BIO_DELETE supported,
    /// d_descr the card's id string), `mmcsd` the same on the older mmc(4) bus;
    /// `mfisyspd` a drive mfi(4) passes through (sys/dev/mfi/mfi_syspd.c), `mfid` an mfi(4)
    /// logical volume.
    pub fn is_examined_disk(name: &str) -> bool {
        let prefix = name.trim_end_matches(|c: char| c.is_ascii_digit());
        prefix.len() < name.len()
            && matches!(
                prefix,
                "ad" | "ada"
                    | "da"
                    | "nvd"
                    | "nda"
                    | "vtbd"
                    | "mmcsd"
                    | "sdda"
                    | "md"
                    | "mfid"
                    | "mfisyspd"
                    | "aacd"
                    | "xbd"
                    // ataraid(4)'s firmware RAID volume (sources::dmesg::is_ataraid_volume).
                    | "ar"
            )
    }
}

#[cfg(test)]
mod tests {
    use super::freebsd::*;

    #[test]
    fn keys_are_filled_from_templates() {
        assert_eq!(
            IDENTIFY.key_str("ada0"),
            crate::sources::camcontrol_identify::SPEC.key_for("ada0")
        );
        assert_eq!(
            DISKINFO.key_str("da0"),
            crate::sources::diskinfo::SPEC.key_for("da0")
        );
        assert_eq!(
            ADA_WRITE_CACHE.key_str("ada12"),
            crate::sources::sysctl::ADA_WRITE_CACHE.key_for("ada12")
        );
        assert_eq!(STRIPESIZE.key_str("da0"), "ioctl:/dev/da0:DIOCGSTRIPESIZE");
        assert!(ATACONTROL_CAP.applies("ad4", false));
        assert!(!ATACONTROL_CAP.applies("ada0", false));
        assert!(IDENTIFY.applies("da3", false));
        assert!(!SMARTCTL.applies("ada0", false));
        assert!(is_examined_disk("nvd0") && !is_examined_disk("cd0") && !is_examined_disk("ada"));
        assert!(is_examined_disk("sdda0") && is_examined_disk("mfisyspd3"));
        assert_eq!(
            SYSPD_PARENT.key_str("mfisyspd3"),
            crate::sources::sysctl::MFISYSPD_PARENT.key_for("mfisyspd3")
        );
        assert!(SYSPD_PARENT.applies("mfisyspd3", false) && !SYSPD_PARENT.applies("mfid0", false));
        assert_eq!(
            ZPOOL_ASHIFT.key_str("zroot"),
            crate::sources::zpool_ashift::ZPOOL_GET_LIVE.key_for("zroot")
        );
        assert_eq!(
            TAGS.key_str("ada1"),
            crate::sources::camcontrol_tags::SPEC.key_for("ada1")
        );
        assert_eq!(
            ZPOOL_AUTOTRIM.key_str(""),
            crate::sources::zpool_autotrim::LIVE.key_for("")
        );
        assert!(GLOBAL.contains(&ZPOOL_AUTOTRIM));
        // Every zpool/zfs/zdb command waits for zfs.ko (libzfs would kldload it).
        for item in GLOBAL.iter().chain(PER_DISK).chain(PER_POOL) {
            if let super::Source::Cmd(argv) = item.source
                && matches!(argv.first(), Some(&"zpool") | Some(&"zfs") | Some(&"zdb"))
            {
                assert_eq!(item.when, super::When::ZfsLoaded, "{argv:?}");
            }
        }
        assert!(MODEPAGE_CACHING.applies("da2", false) && !MODEPAGE_CACHING.applies("ada2", false));
        assert_eq!(
            ADA_ROTATING.key_str("ada3"),
            crate::sources::sysctl::ADA_ROTATING.key_for("ada3")
        );
    }
}

/// The Linux capture keys of a disk's path and health (PCIe links, discard/zoning, ALPM, md sync state, the
/// busy sample, NVMe health). The probe (sys) reads these paths through the Host seam; the
/// derivations (facts/linux/device_state.rs) look them up with the same functions.
pub mod device_state {
    /// Link attributes of every PCI function on the path from a storage device to the root
    /// port (Documentation/ABI/testing/sysfs-bus-pci: current_link_speed, max_link_speed,
    /// current_link_width, max_link_width; absent on conventional PCI and root complexes).
    pub const PCI_LINK_FILES: &[&str] = &[
        "current_link_speed",
        "max_link_speed",
        "current_link_width",
        "max_link_width",
    ];
    /// md's sysfs (Documentation/admin-guide/md.rst, "md/" attributes).
    pub const MD_FILES: &[&str] = &[
        "sync_action",
        "sync_speed",
        "sync_speed_min",
        "sync_speed_max",
        "degraded",
    ];
    pub const MDSTAT: &str = "/proc/mdstat";
    /// Milliseconds between the two I/O-counter samples (the probe sleeps this long; the
    /// counters themselves are in ms, so the error is the few ms the reads take).
    pub const BUSY_INTERVAL_MS: u64 = 1000;
    /// The busy sample looks for the processes doing the I/O only when a disk was at least
    /// this busy (% of the interval) in the first sample, so idle machines pay one second.
    pub const BUSY_PROCESS_THRESHOLD_PCT: f64 = 30.0;
    /// How many processes the facts keep.
    pub(crate) const TOP_PROCESSES: usize = 5;

    /// The SATA host's link power management policy (libata, ahci only).
    pub fn lpm_policy(host: &str) -> String {
        format!("/sys/class/scsi_host/host{host}/link_power_management_policy")
    }
    /// First I/O-counter sample of a disk.
    pub fn stat_first(disk: &str) -> String {
        format!("/sys/block/{disk}/stat")
    }
    /// Second sample: the same attribute through the /sys/dev/block/MAJ:MIN link, so it
    /// gets its own capture key.
    pub fn stat_second(devno: &str) -> String {
        format!("/sys/dev/block/{devno}/stat")
    }
    /// /proc/PID/io, first and second sample (the second through /proc/self/root, the
    /// same file under a second key).
    pub fn proc_io_first(pid: &str) -> String {
        format!("/proc/{pid}/io")
    }
    pub fn proc_io_second(pid: &str) -> String {
        format!("/proc/self/root/proc/{pid}/io")
    }
    pub fn proc_comm(pid: &str) -> String {
        format!("/proc/{pid}/comm")
    }
    /// A drive temperature (hwmon temp1_input, millidegrees Celsius) before the tests, `rel`
    /// relative to the disk's sysfs directory ("device/hwmon0/temp1_input").
    pub fn temp_before(disk: &str, rel: &str) -> String {
        format!("/sys/block/{disk}/{rel}")
    }
    /// The same attribute after the tests, through /sys/dev/block/MAJ:MIN.
    pub fn temp_after(devno: &str, rel: &str) -> String {
        format!("/sys/dev/block/{devno}/{rel}")
    }

    /// The NVMe controller node of a namespace: nvme0n1 -> /dev/nvme0 (nvme-cli and
    /// smartctl read the controller's health log).
    pub fn nvme_controller(disk: &str) -> Option<String> {
        let rest = disk.strip_prefix("nvme")?;
        let (ctrl, ns) = rest.split_once('n')?;
        (!ctrl.is_empty()
            && ctrl.chars().all(|c| c.is_ascii_digit())
            && !ns.is_empty()
            && ns.chars().all(|c| c.is_ascii_digit()))
        .then(|| format!("/dev/nvme{ctrl}"))
    }
    /// The drive's SMART report: the probe runs it for every disk SMART applies to
    /// (with tools) and the facts read it back under this key. The command line is the
    /// SMART source's (sources::smartctl::capture_key).
    pub fn smart_report(disk: &str) -> crate::evidence::SourceKey {
        crate::sources::smartctl::capture_key(disk)
    }
    /// `nvme smart-log /dev/nvmeN` (nvme-cli), when installed.
    pub fn nvme_smart_log(ctrl: &str) -> [String; 3] {
        ["nvme".into(), "smart-log".into(), ctrl.to_string()]
    }

    /// Periodic TRIM by systemd: `systemctl enable fstrim.timer` creates this link, because
    /// util-linux's fstrim.timer says `[Install] WantedBy=timers.target` (systemd.unit(5),
    /// "WantedBy="). Read through the Host, so the bundle says whether it existed.
    pub const FSTRIM_TIMER_WANTS: &str = "/etc/systemd/system/timers.target.wants/fstrim.timer";
    /// The same question asked of systemd, which also knows presets and links elsewhere
    /// (systemctl(1) is-enabled: prints enabled/disabled/masked/static..., exit 0 only when
    /// enabled; it answers from the unit files, no running systemd needed).
    pub const FSTRIM_TIMER_ENABLED: &[&str] = &["systemctl", "is-enabled", "fstrim.timer"];
    /// Periodic `zpool trim` by OpenZFS's own systemd timers (etc/systemd/system/
    /// zfs-trim-weekly@.timer and zfs-trim-monthly@.timer, `[Install]
    /// WantedBy=timers.target`): `systemctl enable zfs-trim-weekly@POOL.timer` creates the
    /// first link, the monthly one the second. None for a name that is no pool name
    /// (zpool(8): a letter first, then alphanumerics and `_ - . :`), so nothing
    /// path-like is ever read.
    pub fn zfs_trim_timer_wants(pool: &str) -> Option<[String; 2]> {
        let ok = pool.starts_with(|c: char| c.is_ascii_alphabetic())
            && pool
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "_-.:".contains(c));
        ok.then(|| {
            ["weekly", "monthly"].map(|every| {
                format!("/etc/systemd/system/timers.target.wants/zfs-trim-{every}@{pool}.timer")
            })
        })
    }

    /// Cron jobs distributions ship for fstrim (Ubuntu 14.04 to 18.04: cron.weekly/fstrim).
    /// User crontabs are not read: they can hold passwords and are nobody's evidence.
    pub const FSTRIM_CRON_FILES: &[&str] = &[
        "/etc/cron.daily/fstrim",
        "/etc/cron.weekly/fstrim",
        "/etc/cron.monthly/fstrim",
        "/etc/cron.d/fstrim",
    ];
    /// `hdparm -B /dev/sdX`: the drive's Advanced Power Management level (ATA8-ACS SET
    /// FEATURES 05h; IDENTIFY word 91), "APM_level = 128" or "APM_level = off".
    pub fn hdparm_apm(dev: &str) -> [String; 3] {
        ["hdparm".into(), "-B".into(), dev.to_string()]
    }

    #[cfg(test)]
    mod tests {
        #[test]
        fn zfs_trim_timers_of_pool_names_only() {
            assert_eq!(
                super::zfs_trim_timer_wants("rpool").map(|p| p[0].clone()),
                Some("/etc/systemd/system/timers.target.wants/zfs-trim-weekly@rpool.timer".into())
            );
            for bad in ["../x", "a/b", "", "-x", "tank pool"] {
                assert!(super::zfs_trim_timer_wants(bad).is_none(), "{bad}");
            }
        }

        #[test]
        fn controller_of_namespace() {
            assert_eq!(
                super::nvme_controller("nvme0n1").as_deref(),
                Some("/dev/nvme0")
            );
            assert_eq!(
                super::nvme_controller("nvme12n3").as_deref(),
                Some("/dev/nvme12")
            );
            assert_eq!(super::nvme_controller("nvme0n1p1"), None);
            assert_eq!(super::nvme_controller("sda"), None);
        }
    }
}
