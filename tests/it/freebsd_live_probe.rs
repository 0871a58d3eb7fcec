//! FreeBSD as a FreeBSD admin would check it (issue 20): what the live probe may run (no
//! zpool/zfs without zfs.ko, no snapshot walk), the running message buffer next to
//! dmesg.boot, IDENTIFY over the ada(4) write-cache sysctl, and the facts newly captured
//! (mounts, vdev ashift, queue depth, SAS WCE, rotating, PCIe link). Bundles are assembled
//! here from the fixtures named in tests/fixtures/INDEX.md and replayed on Linux.

use diskdoc_core::evidence::{Capture, EvidenceBundle, Origin, Platform, SourceKey, Unavailable};
use diskdoc_core::facts::{self, DeviceClass, KernelEventKind, LayerKind, PcieLink};
use diskdoc_core::sources::{camcontrol_modepage, camcontrol_tags, pciconf, zpool_ashift};
use diskdoc_sys::probe::ProbeOptions;
use support::recording::asked_keys;

use crate::support;

fn fx(rel: &str) -> String {
    let p = format!("{}/tests/fixtures/{rel}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p}: {e}"))
}

fn put(b: &mut EvidenceBundle, k: &str, v: &str) {
    b.insert(
        &SourceKey::parse(k).unwrap_or_else(|| panic!("bad key {k}")),
        Capture::ok(v),
    );
}

fn put_cap(b: &mut EvidenceBundle, k: &str, c: Capture) {
    b.insert(&SourceKey::parse(k).unwrap(), c);
}

fn zfs_layer(d: &diskdoc_core::facts::DiskFacts) -> &diskdoc_core::facts::Layer {
    d.layers
        .iter()
        .find(|l| l.kind == Some(LayerKind::Zfs))
        .unwrap_or_else(|| panic!("no ZFS layer on {}", d.name))
}

fn asked(b: &EvidenceBundle) -> Vec<String> {
    asked_keys(b, &ProbeOptions::default())
}

const ZPOOL_ZROOT_ADA0P3: &str = "  pool: zroot\n state: ONLINE\nconfig:\n\n\tNAME        STATE     READ WRITE CKSUM\n\tzroot       ONLINE       0     0     0\n\t  ada0p3    ONLINE       0     0     0\n\nerrors: No known data errors\n";

/// A FreeBSD 14 box: ada0 (ZFS root on ada0p3, EFI on ada0p1) on ahci0, da0 (SAS, UFS on
/// gpt/data) on mpr0. Built from the printf-format fixtures and the mount -p layout.
fn fbsd14_box() -> EvidenceBundle {
    let mut b = EvidenceBundle::new(Platform::Freebsd, Origin::Hand);
    put(&mut b, "sysctl:kern.disks", "da0 ada0");
    put(
        &mut b,
        "cmd:camcontrol devlist -v",
        "scbus0 on ahcich0 bus 0:\n<Samsung SSD 870 EVO 1TB SVT02B6Q>  at scbus0 target 0 lun 0 (pass0,ada0)\nscbus1 on mpr0 bus 0:\n<SEAGATE ST4000NM0025 N003>        at scbus1 target 4 lun 0 (pass1,da0)\n",
    );
    put(
        &mut b,
        "cmd:sysctl dev.ahcich",
        "dev.ahcich.0.%desc: AHCI channel\ndev.ahcich.0.%parent: ahci0\n",
    );
    put(
        &mut b,
        "cmd:pciconf -lv",
        &fx("freebsd-probe/pciconf/printf-fbsd14-lv-vendor-device-header.txt"),
    );
    put(
        &mut b,
        "cmd:pciconf -lc",
        &fx("freebsd-probe/pciconf/printf-fbsd14-lc-mpr-x4-of-x8.txt"),
    );
    put(&mut b, "cmd:kldstat -q -m zfs", "");
    put(&mut b, "cmd:zpool status", ZPOOL_ZROOT_ADA0P3);
    put(
        &mut b,
        "cmd:zpool get -H -o name,property,value ashift zroot all-vdevs",
        "root-0\tashift\t0\nada0p3\tashift\t12\n",
    );
    put(
        &mut b,
        "cmd:gpart show -p",
        "=>        40  1953525088    ada0  GPT  (932G)\n          40      532480  ada0p1  efi  (260M)\n      532520        2008          - free -  (1.0M)\n      534528     4194304  ada0p2  freebsd-swap  (2.0G)\n     4728832  1948794880  ada0p3  freebsd-zfs  (929G)\n  1953523712        1416          - free -  (708K)\n\n=>         40  7814037088    da0  GPT  (3.6T)\n           40  7814037088  da0p1  freebsd-ufs  (3.6T)\n",
    );
    put(
        &mut b,
        "cmd:gpart list",
        "Geom name: da0\nProviders:\n1. Name: da0p1\n   Mediasize: 4000787009536 (3.6T)\n   label: data\n   type: freebsd-ufs\n   index: 1\n   start: 40\n   end: 7814037127\nConsumers:\n1. Name: da0\n",
    );
    put(
        &mut b,
        "cmd:mount -p",
        &fx("freebsd-probe/mount-p/printf-fbsd14-zfs-root-efi-ufs-label.txt"),
    );
    put(
        &mut b,
        "cmd:zfs get -H -t filesystem,volume -o name,property,value compression zroot/ROOT/default zroot/usr/home zroot/var/log",
        "zroot/ROOT/default\tcompression\tlz4\nzroot/usr/home\tcompression\tzstd\nzroot/usr/home\trecordsize\t1M\nzroot/var/log\tcompression\tlz4\n",
    );
    put(
        &mut b,
        "cmd:camcontrol tags ada0 -v",
        &fx("freebsd-probe/camcontrol-tags/printf-ahcich0-ncq-32.txt"),
    );
    put(&mut b, "sysctl:kern.cam.ada.0.rotating", "0");
    put(
        &mut b,
        "cmd:camcontrol modepage da0 -m 8",
        &fx("freebsd-probe/camcontrol-modepage/printf-sas-caching-page-wce1.txt"),
    );
    put(
        &mut b,
        "cmd:camcontrol tags da0 -v",
        "(pass1:mpr0:0:4:0): device openings: 255\n",
    );
    b
}

#[test]
fn no_zpool_or_zfs_without_the_zfs_module() {
    let mut b = fbsd14_box();
    // kldstat -q exits 1 when zfs.ko is not loaded: the runner records a failure.
    put_cap(
        &mut b,
        "cmd:kldstat -q -m zfs",
        Capture::unavailable(Unavailable::Failed, "kldstat exited 1: "),
    );
    let keys = asked(&b);
    assert!(keys.contains(&"cmd:kldstat -q -m zfs".to_string()));
    let zfs_tools: Vec<&String> = keys
        .iter()
        .filter(|k| {
            k.starts_with("cmd:zpool") || k.starts_with("cmd:zfs") || k.starts_with("cmd:zdb")
        })
        .collect();
    assert!(zfs_tools.is_empty(), "{zfs_tools:?}");
    // The old capture of every dataset, snapshot and bookmark is gone for good.
    assert!(!keys.iter().any(|k| k == "cmd:zfs get -H compression"));
}

#[test]
fn zfs_module_loaded_asks_vdev_ashift_and_only_mounted_datasets() {
    let b = fbsd14_box();
    let keys = asked(&b);
    let zfs: Vec<&str> = keys
        .iter()
        .map(String::as_str)
        .filter(|k| {
            k.starts_with("cmd:zpool") || k.starts_with("cmd:zfs") || k.starts_with("cmd:zdb")
        })
        .collect();
    assert_eq!(
        zfs,
        [
            "cmd:zpool status",
            "cmd:zpool get -H -o name,property,value autotrim",
            "cmd:zpool get -H -o name,property,value ashift zroot all-vdevs",
            // Named datasets, no -r: snapshots and bookmarks are never walked.
            "cmd:zfs get -H -t filesystem,volume -o name,property,value compression zroot/ROOT/default zroot/usr/home zroot/var/log",
        ]
    );
    // The new per-disk captures.
    for k in [
        "cmd:dmesg",
        "cmd:mount -p",
        "cmd:pciconf -lc",
        "cmd:camcontrol tags ada0 -v",
        "cmd:camcontrol tags da0 -v",
        "cmd:camcontrol modepage da0 -m 8",
        "sysctl:kern.cam.ada.0.rotating",
    ] {
        assert!(keys.iter().any(|x| x == k), "{k} not asked");
    }
    assert!(
        !keys
            .iter()
            .any(|k| k == "cmd:camcontrol modepage ada0 -m 8")
    );
    assert!(
        !keys
            .iter()
            .any(|k| k == "sysctl:kern.cam.ada.0.write_cache_x")
    );
}

/// OpenZFS 2.1 (FreeBSD 13.x) takes "all-vdevs" for a pool name: it prints the pool row
/// and exits 1.
fn without_vdev_props(b: &mut EvidenceBundle) {
    put_cap(
        b,
        "cmd:zpool get -H -o name,property,value ashift zroot all-vdevs",
        Capture::Ok {
            data: "zroot\tashift\t0\n".into(),
            stderr: "cannot open 'all-vdevs': no such pool\n".into(),
            exit_code: Some(1),
            elapsed_ms: 3,
        },
    );
}

#[test]
fn older_zpool_falls_back_to_zdb() {
    let mut b = fbsd14_box();
    without_vdev_props(&mut b);
    let zdb = fx("freebsd-probe/zdb-C/openzfs14533-mirror-ashift12-head.txt")
        .replace("'tank'", "'zroot'")
        .replace("ashift: 12", "ashift: 9")
        .replace("/dev/mapper/z8.3", "/dev/ada0p3");
    put(&mut b, "cmd:zdb -C zroot", &zdb);
    let keys = asked(&b);
    assert!(keys.contains(&"cmd:zdb -C zroot".to_string()));
    let sys = facts::derive(&b);
    let d = sys.disk("ada0").unwrap();
    let z = zfs_layer(d);
    // The pool row (ashift 0) of the old zpool is not a vdev value; zdb's top-level is.
    assert_eq!(z.ashift, Some(9));
    assert_eq!(z.from, ["cmd:zpool status", "cmd:zdb -C zroot"]);
}

/// A pool imported with cachefile=none is not in zpool.cache, and zdb -C without -e reads
/// only the cache file (cmd/zdb/zdb.c: `fatal("can't open '%s': %s")`). The probe then
/// asks `zdb -e -C POOL`, which reads the configuration from the disks' labels; when that
/// fails too, the ashift is unknown with the reason, and the fix is not "run as root".
#[test]
fn cachefile_none_reads_the_labels_or_says_why() {
    let mut b = fbsd14_box();
    without_vdev_props(&mut b);
    // The runner's record of zdb's fatal() (stdout empty, exit 1).
    put_cap(
        &mut b,
        "cmd:zdb -C zroot",
        Capture::unavailable(
            Unavailable::Failed,
            "zdb exited 1: zdb: can't open 'zroot': No such file or directory",
        ),
    );
    let keys = asked(&b);
    assert!(
        keys.contains(&"cmd:zdb -e -C zroot".to_string()),
        "{keys:?}"
    );
    // The labels answer: the ashift comes from them.
    let mut with_labels = b.clone();
    let zdb = fx("freebsd-probe/zdb-C/openzfs14533-mirror-ashift12-head.txt")
        .replace("'tank'", "'zroot'")
        .replace("/dev/mapper/z8.3", "/dev/ada0p3");
    put(&mut with_labels, "cmd:zdb -e -C zroot", &zdb);
    let sys = facts::derive(&with_labels);
    let z = zfs_layer(sys.disk("ada0").unwrap());
    assert_eq!(z.ashift, Some(12));
    assert_eq!(z.from, ["cmd:zpool status", "cmd:zdb -e -C zroot"]);
    assert_eq!(z.ashift_why, None);
    // They fail too: unknown, saying why, with a fix that is not "run as root".
    put_cap(
        &mut b,
        "cmd:zdb -e -C zroot",
        Capture::unavailable(
            Unavailable::PermissionDenied,
            "zdb exited 1: permission denied",
        ),
    );
    // A 512e disk, so the check has a physical sector to compare with.
    put(&mut b, "ioctl:/dev/ada0:DIOCGSECTORSIZE", "512");
    put(&mut b, "ioctl:/dev/ada0:DIOCGSTRIPESIZE", "4096");
    let sys = facts::derive(&b);
    let z = zfs_layer(sys.disk("ada0").unwrap());
    assert_eq!(z.ashift, None);
    let why = z.ashift_why.clone().unwrap_or_default();
    assert!(
        why.contains("cachefile=none")
            && why.contains("`zdb -e -C zroot` (the disks' labels) failed too"),
        "{why}"
    );
    let fs = diskdoc_core::checks::run_all(&sys);
    let f = fs
        .iter()
        .find(|f| f.check == "zfs-ashift-too-small" && f.device == "ada0")
        .expect("zfs-ashift-too-small on ada0");
    let text = format!("{f:?}");
    assert!(
        text.contains("cachefile=none") && text.contains("zdb -e -C POOL"),
        "{text}"
    );
}

#[test]
fn fbsd14_facts_mounts_ashift_depth_wce_rotating_pcie() {
    let sys = facts::derive(&fbsd14_box());
    let a = sys.disk("ada0").unwrap();
    // Vdev ashift of the top-level vdev (here the leaf itself) from all-vdevs.
    let z = zfs_layer(a);
    assert_eq!(z.ashift, Some(12));
    assert_eq!(
        z.from,
        [
            "cmd:zpool status",
            "cmd:zpool get -H -o name,property,value ashift zroot all-vdevs"
        ]
    );
    // Mounts: the EFI partition and every dataset of the pool on ada0p3.
    let m: Vec<(&str, &str, &str, Option<&str>)> = a
        .mounts
        .iter()
        .map(|m| {
            (
                m.source.as_str(),
                m.mountpoint.as_str(),
                m.fstype.as_str(),
                m.compression.as_deref(),
            )
        })
        .collect();
    assert_eq!(
        m,
        [
            ("zroot/ROOT/default", "/", "zfs", Some("lz4")),
            ("/dev/ada0p1", "/boot/efi", "msdosfs", None),
            ("zroot/usr/home", "/usr/home", "zfs", Some("zstd")),
            ("zroot/var/log", "/var/log", "zfs", Some("lz4")),
        ]
    );
    // camcontrol tags: 30 openings + 2 active = 32; more than one = NCQ in use.
    assert_eq!(a.queue_depth.get(), Some(32));
    assert_eq!(a.queue_depth.sources(), ["cmd:camcontrol tags ada0 -v"]);
    // kern.cam.ada.0.rotating = 0 (IDENTIFY word 217 = 1) with no other rotation source.
    assert_eq!(a.rotational.get(), Some(false));
    assert_eq!(a.class.get(), Some(DeviceClass::Ssd));
    assert_eq!(a.rotational.sources(), ["sysctl:kern.cam.ada.0.rotating"]);
    // FreeBSD 14 pciconf header: vendor=/device= instead of chip=.
    let c = a.controller.value().unwrap();
    assert_eq!(c.pci_id.as_deref(), Some("8086:a352"));
    assert_eq!(c.pci_class, Some(0x010601));

    let s = sys.disk("da0").unwrap();
    // The SAS drive's write cache from the caching mode page (WCE 1).
    assert_eq!(s.write_cache_enabled.get(), Some(true));
    assert_eq!(
        s.write_cache_enabled.sources(),
        ["cmd:camcontrol modepage da0 -m 8"]
    );
    assert_eq!(s.queue_depth.get(), Some(255));
    let m: Vec<(&str, &str)> = s
        .mounts
        .iter()
        .map(|m| (m.source.as_str(), m.mountpoint.as_str()))
        .collect();
    assert_eq!(m, [("/dev/gpt/data", "/data")]);
    // PCIe link of mpr0 (x4 of x8), the typed link fact of the disk behind it.
    assert_eq!(
        s.pcie.value().cloned(),
        Some(vec![PcieLink {
            address: "mpr0@pci0:1:0:0".into(),
            hop: 0,
            current_gts: Some(8.0),
            max_gts: Some(8.0),
            current_width: Some(4),
            max_width: Some(8),
            marked_downgraded: false,
        }])
    );
    assert_eq!(s.pcie.sources(), ["cmd:pciconf -lc"]);
    // pcie-link-limited reads the typed link: mpr0 trained x4 of its x8.
    let fs = diskdoc_core::checks::run_all(&sys);
    let pl: Vec<_> = fs
        .iter()
        .filter(|f| f.check == "pcie-link-limited")
        .map(|f| (f.device.as_str(), f.severity, f.title.as_str()))
        .collect();
    assert_eq!(
        pl,
        [(
            "da0",
            diskdoc_core::checks::Severity::Warning,
            "da0: PCIe link trained below its capability"
        )]
    );
    let f = fs.iter().find(|f| f.check == "pcie-link-limited").unwrap();
    assert_eq!(
        f.evidence
            .iter()
            .map(|e| e.source.as_str())
            .collect::<Vec<_>>(),
        ["cmd:pciconf -lc"]
    );
    assert!(f.explanation.contains("The controller mpr0@pci0:1:0:0 of da0 runs its PCIe link at 8 GT/s x4 but supports 8 GT/s x8"), "{}", f.explanation);
    assert!(
        f.fixes[0].steps[0].starts_with("`pciconf -lvc mpr0`"),
        "{:?}",
        f.fixes
    );
    // ahci0 prints no PCI-Express capability (a chipset function): unknown, with the reason.
    assert!(
        a.pcie
            .why()
            .is_some_and(|w| w.contains("no PCI-Express capability for ahci0")),
        "{:?}",
        a.pcie
    );
}

/// `pciconf -lc` as a user who is not root: usr.sbin/pciconf/pciconf.c list_devs() opens
/// /dev/pci read-write for -c and fails with "pciconf: /dev/pci: Permission denied", exit 1
/// (what the runner records as permission denied). The PCIe link of da0's mpr0 is then
/// unknown with that reason and the fix, never a silent gap; `pciconf -lv` still names it.
#[test]
fn pciconf_caps_as_a_user_says_it_needs_root() {
    let mut b = fbsd14_box();
    put_cap(
        &mut b,
        "cmd:pciconf -lc",
        Capture::unavailable(
            Unavailable::PermissionDenied,
            "pciconf exited 1: pciconf: /dev/pci: Permission denied",
        ),
    );
    let sys = facts::derive(&b);
    let s = sys.disks.iter().find(|d| d.name == "da0").expect("da0");
    let why = s.pcie.why().unwrap_or_default();
    assert!(
        why.contains("pciconf -lc needs root") && why.contains("run diskdoc as root"),
        "{:?}",
        s.pcie
    );
    // The plan says so where it lists the command.
    assert!(
        diskdoc_core::plan::freebsd::PCICONF_CAPS
            .why
            .contains("needs root")
    );
    // Any other failure keeps its own words.
    put_cap(
        &mut b,
        "cmd:pciconf -lc",
        Capture::unavailable(Unavailable::ToolMissing, "pciconf not found"),
    );
    let sys = facts::derive(&b);
    let s = sys.disks.iter().find(|d| d.name == "da0").expect("da0");
    assert!(
        !s.pcie.why().unwrap_or_default().contains("needs root"),
        "{:?}",
        s.pcie
    );
}

/// sdda (an SD card or eMMC on the CAM MMC stack, sys/cam/mmc/mmc_da.c) and mfisyspd (a
/// drive mfi(4) passes through, sys/dev/mfi/mfi_syspd.c) are examined like every disk: the
/// probe asks diskinfo and the DIOC ioctls of both, and the mfi(4) parent of the
/// pass-through drive, whose SMART data is read through mfip's pass(4) device (the unknown
/// says how; no smartctl is run on /dev/mfisyspd0). NOT CAPTURES (no public post of either was found): the dmesg lines
/// are built from mfi_syspd_attach()'s device_printf formats ("%juMB (%ju sectors) SYSPD
/// volume (deviceid: %d)", " SYSPD volume attached") and the newbus attach line "NAME on
/// PARENT"; 1953525168 sectors / 2048 = 953869 MB.
#[test]
fn sdda_and_mfisyspd_disks_are_examined() {
    let mut b = EvidenceBundle::new(Platform::Freebsd, Origin::Hand);
    put(&mut b, "sysctl:kern.disks", "sdda0 mfisyspd0");
    let keys = asked(&b);
    for want in [
        "cmd:diskinfo -v /dev/sdda0",
        "ioctl:/dev/sdda0:DIOCGSECTORSIZE",
        "cmd:diskinfo -v /dev/mfisyspd0",
        "ioctl:/dev/mfisyspd0:DIOCGMEDIASIZE",
        "sysctl:dev.mfisyspd.0.%parent",
    ] {
        assert!(
            keys.contains(&want.to_string()),
            "{want} not asked: {keys:?}"
        );
    }
    // Neither is an ATA or SCSI device CAM can IDENTIFY: no camcontrol identify for them.
    assert!(
        !keys
            .iter()
            .any(|k| k.starts_with("cmd:camcontrol identify")),
        "{keys:?}"
    );
    assert!(!keys.contains(&"sysctl:dev.mfisyspd.0.%parent".replace("mfisyspd", "nvd")));

    put(&mut b, "sysctl:dev.mfisyspd.0.%parent", "mfi0");
    put(&mut b, "ioctl:/dev/sdda0:DIOCGSECTORSIZE", "512");
    put(&mut b, "ioctl:/dev/sdda0:DIOCGMEDIASIZE", "31267487744");
    put(&mut b, "ioctl:/dev/mfisyspd0:DIOCGSECTORSIZE", "512");
    put(
        &mut b,
        "ioctl:/dev/mfisyspd0:DIOCGMEDIASIZE",
        "1000204886016",
    );
    let sys = facts::derive(&b);
    let sd = sys.disk("sdda0").expect("sdda0 examined");
    assert_eq!(sd.class.get(), Some(DeviceClass::Mmc));
    assert_eq!(
        sd.transport.get(),
        Some(diskdoc_core::facts::Transport::Mmc)
    );
    let pd = sys.disk("mfisyspd0").expect("mfisyspd0 examined");
    let c = pd.controller.value().expect("the controller from %parent");
    assert_eq!(c.address.as_deref(), Some("mfi0"));
    assert_eq!(c.mode, Some(diskdoc_core::facts::ControllerMode::Raid));
    assert_eq!(pd.controller.sources(), ["sysctl:dev.mfisyspd.0.%parent"]);
    // SMART: smartctl cannot reach the drive through /dev/mfisyspd0 (not even asked with
    // --tools); the unknown says how: mfip.ko's pass(4) device, or -d megaraid,N.
    let tools = asked_keys(
        &b,
        &ProbeOptions {
            with_tools: true,
            ..ProbeOptions::default()
        },
    );
    assert!(
        tools.contains(&"cmd:smartctl -j -a /dev/sdda0".to_string()),
        "{tools:?}"
    );
    assert!(
        !tools
            .iter()
            .any(|k| k.contains("smartctl") && k.contains("mfisyspd")),
        "{tools:?}"
    );
    let smart = pd.smart.why().unwrap_or_default();
    for how in [
        "kldload mfip",
        "smartctl -a /dev/passN",
        "-d sat",
        "-d megaraid,N",
    ] {
        assert!(smart.contains(how), "{how}: {smart}");
    }
    // The driver does not tell SATA from SAS: unknown, saying where to look.
    assert!(
        pd.transport
            .why()
            .is_some_and(|w| w.contains("mfiutil show drives")),
        "{:?}",
        pd.transport
    );

    // From a pasted dmesg instead of the sysctl.
    let mut d = EvidenceBundle::new(Platform::Freebsd, Origin::Hand);
    put(&mut d, "sysctl:kern.disks", "mfisyspd0");
    put(
        &mut d,
        "file:/var/run/dmesg.boot",
        "mfisyspd0 on mfi0\nmfisyspd0: 953869MB (1953525168 sectors) SYSPD volume (deviceid: 4)\nmfisyspd0:  SYSPD volume attached\n",
    );
    let sys = facts::derive(&d);
    let pd = sys.disk("mfisyspd0").expect("mfisyspd0");
    assert_eq!(
        pd.controller.value().and_then(|c| c.address.as_deref()),
        Some("mfi0"),
        "{:?}",
        pd.controller
    );
}

/// dmesg.boot is the current boot of the GhostBSD 13.0 message buffer fixture (from its
/// "---<<BOOT>>---" line); the running buffer is that whole fixture (the previous boot's
/// ada2/ahcich7 storm, then the current boot) followed by the post-boot errors posted in
/// forums.freebsd.org thread 48012, with its channels renamed to this machine's (ahcich0
/// -> ahcich2 for ada0, ahcich1 -> ahcich5 for ada1, as the boot attached them).
#[test]
fn running_message_buffer_shows_errors_after_boot() {
    let whole =
        fx("freebsd/dmesg/ghostbsd-fbsd13.0-cam-read-fpdma-error-storm-truncated-start.txt");
    let at = whole.find("---<<BOOT>>---").unwrap();
    let boot = &whole[at..];
    let after = fx("freebsd-probe/dmesg-running/forum48012-ada1-crc-ada0-timeout-unc.txt")
        .replace("ahcich0", "ahcich2")
        .replace("ahcich1", "ahcich5");
    let running = format!("{whole}{after}");
    let mut b = EvidenceBundle::new(Platform::Freebsd, Origin::Hand);
    put(&mut b, "sysctl:kern.disks", "ada1 ada0");
    put(&mut b, "file:/var/run/dmesg.boot", boot);
    let only_boot = facts::derive(&b);
    assert!(
        only_boot.disk("ada0").unwrap().kernel_events.is_empty()
            && only_boot.disk("ada1").unwrap().kernel_events.is_empty(),
        "the boot log of this machine is clean"
    );
    put(&mut b, "cmd:dmesg", &running);
    let sys = facts::derive(&b);
    let ev = |n: &str| -> Vec<(KernelEventKind, String, String)> {
        sys.disk(n)
            .unwrap()
            .kernel_events
            .iter()
            .map(|e| (e.kind, e.line.clone(), e.from.clone()))
            .collect()
    };
    let k = "cmd:dmesg".to_string();
    // ahci(4) resets the channel after a slot times out (ahci.c ahci_timeout()): a link
    // reset; the disk's own "Command timeout" stays an I/O timeout.
    assert_eq!(
        ev("ada0"),
        [
            (
                KernelEventKind::LinkReset,
                "ahcich2: Timeout on slot 18 port 0".to_string(),
                k.clone()
            ),
            (
                KernelEventKind::IoTimeout,
                "(ada0:ahcich2:0:0:0): CAM status: Command timeout".to_string(),
                k.clone()
            ),
            (
                KernelEventKind::IoError,
                "(ada0:ahcich2:0:0:0): CAM status: ATA Status Error".to_string(),
                k.clone()
            ),
            (
                KernelEventKind::MediumError,
                "(ada0:ahcich2:0:0:0): ATA status: 41 (DRDY ERR), error: 40 (UNC )".to_string(),
                k.clone()
            ),
        ]
    );
    let crc: Vec<KernelEventKind> = ev("ada1").into_iter().map(|e| e.0).collect();
    assert_eq!(crc, [KernelEventKind::CrcError; 4]);
    // The previous boot's storm (ada2 on ahcich7, before the boot tag) is not this boot's.
    for n in ["ada0", "ada1"] {
        assert!(
            !ev(n)
                .iter()
                .any(|e| e.1.contains("ahcich7") || e.1.contains("ada2"))
        );
    }
}

#[test]
fn ahci_reset_and_timeouts_in_the_running_buffer() {
    let mut b = EvidenceBundle::new(Platform::Freebsd, Origin::Hand);
    put(&mut b, "sysctl:kern.disks", "ada0");
    put(
        &mut b,
        "file:/var/run/dmesg.boot",
        "ada0 at ahcich0 bus 0 scbus0 target 0 lun 0\n",
    );
    let tail =
        fx("freebsd-probe/dmesg-running/freebsd-questions-2012-10-ahcich0-timeout-ahci-reset.txt");
    // The channel is tied to ada0 by a CAM path line, as CAM prints after a timeout.
    put(
        &mut b,
        "cmd:dmesg",
        &format!(
            "ada0 at ahcich0 bus 0 scbus0 target 0 lun 0\n{tail}(ada0:ahcich0:0:0:0): CAM status: Command timeout\n"
        ),
    );
    let sys = facts::derive(&b);
    let kinds: Vec<KernelEventKind> = sys
        .disk("ada0")
        .unwrap()
        .kernel_events
        .iter()
        .map(|e| e.kind)
        .collect();
    assert_eq!(
        kinds,
        [
            KernelEventKind::LinkReset,
            KernelEventKind::LinkReset,
            KernelEventKind::LinkReset,
            KernelEventKind::IoTimeout,
        ]
    );
}

#[test]
fn ada_write_cache_sysctl_without_identify_is_configuration_only() {
    let mut b = EvidenceBundle::new(Platform::Freebsd, Origin::Hand);
    put(&mut b, "sysctl:kern.disks", "ada0");
    put(&mut b, "sysctl:kern.cam.ada.0.write_cache", "0");
    let d = facts::derive(&b).disks.remove(0);
    assert!(!d.write_cache_enabled.is_known());
    assert_eq!(
        d.write_cache_enabled.why(),
        Some(
            "sysctl:kern.cam.ada.0.write_cache = 0 configures ada(4) to turn the write cache \
             off at probe or bus reset, but no IDENTIFY (camcontrol identify) shows the drive's \
             current state"
        )
    );
}

#[test]
fn new_parsers_on_their_fixtures() {
    let t = camcontrol_tags::parse(&fx(
        "freebsd-probe/camcontrol-tags/printf-ahcich0-ncq-32.txt",
    ));
    assert_eq!(
        (
            t.dev_openings,
            t.dev_active,
            t.mintags,
            t.maxtags,
            t.depth()
        ),
        (Some(30), Some(2), Some(2), Some(255), Some(32))
    );
    let c = camcontrol_modepage::parse(&fx(
        "freebsd-probe/camcontrol-modepage/printf-sas-caching-page-wce1.txt",
    ));
    assert_eq!((c.wce, c.rcd), (Some(true), Some(false)));
    let v = zpool_ashift::parse_vdev_props(&fx(
        "freebsd-probe/zpool-get-all-vdevs/openzfs16838-raidz2-leaves-ashift9.txt",
    ));
    assert_eq!(v.len(), 9);
    assert_eq!(v[0], ("raidz2-0".to_string(), 12));
    assert!(v[1..].iter().all(|(_, a)| *a == 9));
    let z = zpool_ashift::parse_zdb(&fx(
        "freebsd-probe/zdb-C/openzfs14533-mirror-ashift12-head.txt",
    ));
    assert_eq!(z.len(), 1);
    assert_eq!(
        (
            z[0].vdev_type.as_deref(),
            z[0].ashift,
            z[0].paths.as_slice()
        ),
        (
            Some("mirror"),
            Some(12),
            &["/dev/mapper/z8.3".to_string()][..]
        )
    );
    let p = pciconf::parse(&fx(
        "freebsd-probe/pciconf/printf-fbsd14-lc-mpr-x4-of-x8.txt",
    ));
    let mpr = p.iter().find(|d| d.name == "mpr0").unwrap();
    let l = mpr.link.clone().unwrap_or_default();
    assert_eq!(
        (
            l.current_width,
            l.max_width,
            l.current_gts,
            mpr.pci_id.as_deref()
        ),
        (Some(4), Some(8), Some(8.0), Some("1000:0097"))
    );
    let ahci = p.iter().find(|d| d.name == "ahci0").unwrap();
    assert_eq!(ahci.link, None, "no PCI-Express capability printed");
}

#[test]
fn stripesize_0_on_a_4kn_disk_means_physical_is_logical() {
    let mut b = EvidenceBundle::new(Platform::Freebsd, Origin::Hand);
    put(&mut b, "sysctl:kern.disks", "nda0 ada0");
    put(&mut b, "ioctl:/dev/nda0:DIOCGSECTORSIZE", "4096");
    put(&mut b, "ioctl:/dev/nda0:DIOCGSTRIPESIZE", "0");
    put(&mut b, "ioctl:/dev/ada0:DIOCGSECTORSIZE", "512");
    put(&mut b, "ioctl:/dev/ada0:DIOCGSTRIPESIZE", "0");
    let sys = facts::derive(&b);
    let n = sys.disk("nda0").unwrap();
    assert_eq!(n.physical_sector_bytes.get(), Some(4096));
    assert_eq!(
        n.physical_sector_bytes.sources(),
        [
            "ioctl:/dev/nda0:DIOCGSTRIPESIZE",
            "ioctl:/dev/nda0:DIOCGSECTORSIZE"
        ]
    );
    // 512-byte logical sectors with no stripe say nothing about the physical sector.
    assert!(!sys.disk("ada0").unwrap().physical_sector_bytes.is_known());
}

#[test]
fn gpart_show_variants_through_the_facts() {
    let mut b = EvidenceBundle::new(Platform::Freebsd, Origin::Hand);
    put(&mut b, "sysctl:kern.disks", "ada0");
    // `gpart show -r` (raw decimal MBR types) and plain EBR rows.
    put(
        &mut b,
        "cmd:gpart show -p",
        "=>       63  312581745  ada0  MBR  (149G)\n         63  104857600     1  7  [active]  (50G)\n  104857663  207724145     4  5  (99G)\n\n=>        0  207724145  ada0s4  EBR  (99G)\n          0  104857600         1  131  (50G)\n  104857600  102866545  51200001  130  (49G)\n",
    );
    let d = facts::derive(&b).disks.remove(0);
    let t = d.partition_table.value().unwrap();
    let top: Vec<(&str, Option<&str>)> = t
        .partitions
        .iter()
        .map(|p| (p.name.as_str(), p.type_name.as_deref()))
        .collect();
    assert_eq!(top, [("ada0s1", Some("7")), ("ada0s4", Some("ebr"))]);
    let logical: Vec<(&str, u64)> = t.partitions[1]
        .children
        .iter()
        .map(|c| (c.name.as_str(), c.start_sector))
        .collect();
    assert_eq!(logical, [("ada0s5", 104857663), ("ada0s6", 209715263)]);
}

#[test]
fn freebsd14_identify_rows_stay_in_one_block() {
    let text = fx("freebsd/camcontrol-identify/printf-fbsd14-acs4-sanitize-tcg-hpa-rows.txt");
    let paste = format!("# camcontrol identify ada0\n{text}\n");
    let ex = diskdoc_core::explain::explain(&[diskdoc_core::explain::Input {
        label: "paste".into(),
        bytes: paste.into_bytes(),
    }])
    .expect("explain");
    let cap = ex
        .bundle
        .captures
        .get("cmd:camcontrol identify ada0")
        .and_then(|c| c.data())
        .unwrap_or_else(|| panic!("{:?}", ex.bundle.captures.keys().collect::<Vec<_>>()));
    // The rows after "Data Set Management (DSM/TRIM)" are part of the same block.
    for row in [
        "Trusted Computing",
        "Sanitize - antifreeze lock",
        "Accessible Max Address Config",
    ] {
        assert!(cap.contains(row), "{row} missing from the block:\n{cap}");
    }
    let id = diskdoc_core::sources::camcontrol_identify::parse(&text);
    assert_eq!(id.trim(), Some(true));
    assert_eq!(id.ncq_depth(), Some(32));
    assert_eq!(
        id.feature("Sanitize").and_then(|f| f.value.as_deref()),
        Some("block, crypto")
    );
    assert_eq!(id.protocol.as_deref(), Some("ACS-4 ATA SATA 3.x"));
    assert_eq!(id.drive_max_gbps(), Some(6.0));
    assert!(!id.atacontrol_layout);
    let wc = id.write_cache().unwrap();
    assert_eq!((wc.supported, wc.enabled), (Some(true), Some(true)));
}

#[test]
fn device_resolution_for_freebsd_names_and_paths() {
    let b = fbsd14_box();
    let per_disk = |dev: &str| -> Vec<String> {
        asked_keys(
            &b,
            &ProbeOptions {
                device: Some(dev.into()),
                with_tools: false,
            },
        )
        .into_iter()
        .filter(|k| k.starts_with("cmd:camcontrol tags"))
        .collect()
    };
    assert_eq!(per_disk("/usr/home/alice"), ["cmd:camcontrol tags ada0 -v"]);
    assert_eq!(per_disk("/dev/gpt/data"), ["cmd:camcontrol tags da0 -v"]);
    assert_eq!(per_disk("/data/x"), ["cmd:camcontrol tags da0 -v"]);
    assert_eq!(per_disk("ada0p3"), ["cmd:camcontrol tags ada0 -v"]);
    assert_eq!(per_disk("zroot/var/log"), ["cmd:camcontrol tags ada0 -v"]);
    assert!(per_disk("/dev/ada7").is_empty());
    use diskdoc_core::facts::freebsd::target::resolve_target;
    assert_eq!(resolve_target(&b, "/boot/efi/EFI"), "ada0");
    assert_eq!(resolve_target(&b, "/dev/da0p1"), "da0");
}

#[test]
fn write_cache_check_tells_of_the_pending_sysctl() {
    let mut b = EvidenceBundle::new(Platform::Freebsd, Origin::Hand);
    put(&mut b, "sysctl:kern.disks", "ada0");
    put(
        &mut b,
        "cmd:camcontrol identify ada0",
        &fx("freebsd/camcontrol-identify/printf-fbsd14-acs4-sanitize-tcg-hpa-rows.txt"),
    );
    put(&mut b, "sysctl:kern.cam.ada.0.write_cache", "0");
    let sys = facts::derive(&b);
    let f = diskdoc_core::checks::run_all(&sys)
        .into_iter()
        .find(|f| f.check == "write-cache-disabled" && f.device == "ada0")
        .unwrap();
    assert_eq!(f.verdict, diskdoc_core::checks::Verdict::Pass);
    assert!(
        f.explanation.contains(
            "Note: sysctl:kern.cam.ada.0.write_cache = 0: ada(4) is configured to turn the write \
             cache off at the next probe or bus reset"
        ),
        "{}",
        f.explanation
    );
}

#[test]
fn replay_resolves_freebsd_device_paths() {
    let dir = std::env::temp_dir().join(format!("diskdoc-fbsd-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("fbsd14.json");
    std::fs::write(&path, fbsd14_box().to_json()).unwrap();
    let run = |dev: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_diskdoc"))
            .args(["replay", path.to_str().unwrap(), "--json", "--device", dev])
            .output()
            .unwrap()
    };
    for (dev, want) in [
        ("/usr/home/alice", "ada0"),
        ("/dev/gpt/data", "da0"),
        ("ada0p1", "ada0"),
    ] {
        let out = run(dev);
        // 0 or 1: the replayed findings decide (the report envelope of `replay --json`).
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{dev}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let disks = v["system"]["disks"].as_array().unwrap();
        let names: Vec<&str> = disks.iter().filter_map(|d| d["name"].as_str()).collect();
        assert_eq!(names, [want], "{dev}");
    }
    let out = run("/dev/ada9");
    assert_eq!(out.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn ada_write_cache_off_in_identify_cites_the_sysctl_that_did_it() {
    let mut b = EvidenceBundle::new(Platform::Freebsd, Origin::Hand);
    put(&mut b, "sysctl:kern.disks", "ada0");
    let id = fx("freebsd/camcontrol-identify/printf-fbsd14-acs4-sanitize-tcg-hpa-rows.txt")
        .replace(
            "write cache                    yes\tyes",
            "write cache                    yes\tno",
        );
    put(&mut b, "cmd:camcontrol identify ada0", &id);
    put(&mut b, "sysctl:kern.cam.ada.0.write_cache", "0");
    let d = facts::derive(&b).disks.remove(0);
    assert_eq!(d.write_cache_enabled.get(), Some(false));
    assert_eq!(
        d.write_cache_enabled.sources(),
        [
            "cmd:camcontrol identify ada0",
            "sysctl:kern.cam.ada.0.write_cache"
        ]
    );
    assert!(d.notes.is_empty(), "{:?}", d.notes);
}

/// Seed 002 as a FreeBSD 14 probe would capture it: the seed's topology (pool zstorage on
/// ada0p1.eli, the dd test written to /home) plus the captures this probe adds.
/// ASSUMED, not in the seed: zstorage/home mounted on /home (the seed's dd target) and
/// ashift 12 (GELI's 4096-byte sectors leave ZFS no smaller choice).
#[test]
fn seed002_on_freebsd14_offers_the_write_test_and_reads_the_vdev_ashift() {
    let p = format!(
        "{}/tests/fixtures/bundles/seed002-zfs-geli-hdd.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut b = EvidenceBundle::load(std::path::Path::new(&p)).unwrap();
    put(
        &mut b,
        "cmd:mount -p",
        "zroot/ROOT/default\t/\tzfs\trw,noatime\t0 0\nzstorage/home\t/home\tzfs\trw,noatime\t0 0\n",
    );
    put(
        &mut b,
        "cmd:zpool get -H -o name,property,value ashift zstorage all-vdevs",
        "root-0\tashift\t0\nada0p1.eli\tashift\t12\n",
    );
    put(
        &mut b,
        "cmd:zfs get -H -t filesystem,volume -o name,property,value compression zroot/ROOT/default zstorage/home",
        "zstorage/home\tcompression\tlz4\nzroot/ROOT/default\tcompression\tlz4\n",
    );
    let sys = facts::derive(&b);
    let d = sys.disk("ada0").unwrap();
    let z = zfs_layer(d);
    assert_eq!((z.name.as_str(), z.ashift), ("zstorage", Some(12)));
    let m: Vec<(&str, Option<&str>)> = d
        .mounts
        .iter()
        .map(|m| (m.mountpoint.as_str(), m.compression.as_deref()))
        .collect();
    // zroot lives on the SSD the seed leaves out: only zstorage's dataset is on ada0.
    assert_eq!(m, [("/home", Some("lz4"))]);
    let groups = diskdoc::wizard::machine::default_groups(
        &sys,
        d,
        true,
        std::path::Path::new("/home/rsmith"),
    );
    let ids: Vec<&str> = groups.iter().map(|g| g.id).collect();
    assert!(ids.contains(&"write"), "{ids:?}");
    let w = groups.iter().find(|g| g.id == "write").unwrap();
    assert_eq!(
        w.scratch_dir.as_deref(),
        Some(std::path::Path::new("/home/rsmith"))
    );
}

/// Seed 000's first capture (cache on) with hw.ata.wc=0 recorded: the drive's row wins.
#[test]
fn old_ata_identify_wins_over_hw_ata_wc() {
    let p = format!(
        "{}/tests/fixtures/bundles/seed000-desktop-ich7-wc-on.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut b = EvidenceBundle::load(std::path::Path::new(&p)).unwrap();
    put(&mut b, "sysctl:hw.ata.wc", "0");
    let d = facts::derive(&b).disks.remove(0);
    assert_eq!(d.name, "ad4");
    assert_eq!(d.write_cache_enabled.get(), Some(true));
    assert_eq!(d.write_cache_enabled.sources(), ["cmd:atacontrol cap ad4"]);
    assert_eq!(
        d.notes,
        [
            "sysctl:hw.ata.wc = 0, but the drive reports its write cache enabled: something turned \
          it on after ata(4) attached it; the next channel reset turns it off again"
        ]
    );
}

/// Every probe-only fixture has its row (source address or "NOT A CAPTURE") in INDEX.md.
#[test]
fn probe_fixtures_are_indexed() {
    let root = format!("{}/tests/fixtures", env!("CARGO_MANIFEST_DIR"));
    let index = fx("INDEX.md");
    let mut n = 0;
    for dir in std::fs::read_dir(format!("{root}/freebsd-probe"))
        .unwrap()
        .flatten()
    {
        for f in std::fs::read_dir(dir.path()).unwrap().flatten() {
            let rel = format!(
                "freebsd-probe/{}/{}",
                dir.file_name().to_string_lossy(),
                f.file_name().to_string_lossy()
            );
            assert!(
                index.contains(&format!("| `{rel}` |")),
                "{rel} has no INDEX.md row"
            );
            n += 1;
        }
    }
    assert_eq!(n, 11);
}

/// Issue 15 item 3 on FreeBSD: with `--device`, the machine-wide captures keep only the
/// lines and blocks about that disk, its partitions, the providers and pools on it and its
/// controller; the other disk's names, inquiry, label and mount are gone, and the facts of
/// the disk asked about are the same as from the whole bundle.
#[test]
fn device_scope_keeps_only_the_disk_asked_about() {
    let whole = fbsd14_box();
    let globals: Vec<String> = diskdoc_core::plan::freebsd::GLOBAL
        .iter()
        .map(|i| i.key_str(""))
        .collect();
    let global_text = |b: &EvidenceBundle| -> String {
        globals
            .iter()
            .filter_map(|k| b.captures.get(k).and_then(Capture::data))
            .collect::<Vec<_>>()
            .join("\n")
    };
    for (dev, other_secrets, ours) in [
        (
            "ada0",
            &[
                "da0p1",
                "(pass1,da0)",
                "SEAGATE",
                "gpt/data",
                "/data",
                "mpr0 bus",
            ][..],
            &["ada0p3", "zroot/usr/home", "Samsung SSD 870", "/boot/efi"][..],
        ),
        (
            "/data",
            &[
                "ada0",
                "pass0",
                "Samsung",
                "zroot",
                "/boot/efi",
                "ahcich0 bus",
            ][..],
            &[
                "da0p1",
                "/dev/gpt/data",
                "SEAGATE ST4000NM0025",
                "label: data",
            ][..],
        ),
    ] {
        let mut b = whole.clone();
        scope(&mut b, dev);
        let t = global_text(&b);
        // Whole words ("da0p1" is inside "ada0p1"), phrases as they are.
        let words: Vec<&str> = t
            .split(|c: char| c.is_whitespace() || "(),<>:=".contains(c))
            .collect();
        for s in other_secrets {
            let found = if s.contains([' ', '(']) {
                t.contains(s)
            } else {
                words
                    .iter()
                    .any(|w| w == s || w.trim_start_matches("/dev/") == *s)
            };
            assert!(!found, "--device {dev}: {s:?} left in\n{t}");
        }
        for s in ours {
            assert!(t.contains(s), "--device {dev}: {s:?} lost\n{t}");
        }
        let disk = if dev == "ada0" { "ada0" } else { "da0" };
        assert_eq!(b.data(&SourceKey::Sysctl("kern.disks".into())), Some(disk));
        // The disk's own facts do not change.
        let scoped = facts::derive(&b);
        let full = facts::derive(&whole);
        assert_eq!(scoped.disks.len(), 1);
        assert_eq!(scoped.disk(disk), full.disk(disk), "--device {dev}");
    }
}

/// The same on a real FreeBSD 13.1 boot log (OPNsense, tests/fixtures/INDEX.md): four
/// SATA disks on mps0, a USB stick and an NVMe namespace; `--device da2` keeps da2's
/// attach lines and the controller, and no line of da0, da1, da3, da4 or nvd0.
#[test]
fn device_scope_on_a_real_boot_log() {
    let log = fx("freebsd/dmesg/opnsense-fbsd13.1-mps-sas2008-sata-hgst-nvd-usb3-multiboot.txt");
    let mut b = EvidenceBundle::new(Platform::Freebsd, Origin::Hand);
    put(&mut b, "sysctl:kern.disks", "nvd0 da4 da3 da2 da1 da0");
    put(&mut b, "file:/var/run/dmesg.boot", &log);
    scope(&mut b, "/dev/da2");
    let t = b
        .data(&SourceKey::File("/var/run/dmesg.boot".into()))
        .unwrap();
    for other in ["da0", "da1", "da3", "da4", "nvd0"] {
        assert!(
            !t.lines().any(|l| l.split([' ', ':']).any(|w| w == other)),
            "{other} left in the log"
        );
    }
    assert!(!t.contains("Corsair Survivor"), "the USB stick's inquiry");
    assert!(!t.contains("Sabrent"), "the NVMe namespace's model");
    assert!(t.contains("da2 at mps0 bus 0 scbus0 target 2 lun 0"));
    assert!(t.contains("mps0: <Avago Technologies (LSI) SAS2008>"));
    // Lines about no disk stay: the CPU, the controllers.
    assert!(t.contains("CPU: AMD Ryzen 5 3400G"));
    assert!(t.contains("ahci0: AHCI v1.31 with 6 6Gbps ports"));
    let sys = facts::derive(&b);
    assert_eq!(
        sys.disks
            .iter()
            .map(|d| d.name.as_str())
            .collect::<Vec<_>>(),
        ["da2"]
    );
    assert_eq!(
        sys.disk("da2")
            .and_then(|d| d.controller.value())
            .and_then(|c| c.address.as_deref()),
        Some("mps0")
    );
}

/// Issue 17's gap: a pool on an SSD with autotrim off. ada0 (rotating 0, zroot on ada0p3)
/// gets the hint with FreeBSD's fixes once `zpool get autotrim` says off; with it on the
/// check passes; and `--device da0` keeps no row of zroot's.
#[test]
fn zroot_on_ssd_with_autotrim_off_gets_the_hint() {
    let with = |value: &str| {
        let mut b = fbsd14_box();
        put(&mut b, "sysctl:kern.cam.ada.0.delete_method", "ATA_TRIM");
        put(
            &mut b,
            "cmd:zpool get -H -o name,property,value autotrim",
            &format!("zroot\tautotrim\t{value}\n"),
        );
        b
    };
    let finding = |b: &EvidenceBundle| {
        diskdoc_core::checks::run_all(&facts::derive(b))
            .into_iter()
            .find(|f| f.check == "trim-unavailable" && f.device == "ada0")
            .expect("a trim-unavailable finding for ada0")
    };
    let f = finding(&with("off"));
    assert_eq!(f.verdict, diskdoc_core::checks::Verdict::Problem);
    assert_eq!(f.severity, diskdoc_core::checks::Severity::Notice);
    assert_eq!(f.title, "ada0: ZFS pool zroot has autotrim off");
    let steps = f.fixes[0].steps.join("\n");
    assert!(steps.contains("`zpool set autotrim=on zroot`"), "{steps}");
    assert!(steps.contains("daily_trim_zfs_enable=YES"), "{steps}");
    assert!(
        f.evidence
            .iter()
            .any(|e| e.source == "cmd:zpool get -H -o name,property,value autotrim")
    );
    let f = finding(&with("on"));
    assert_eq!(f.verdict, diskdoc_core::checks::Verdict::Pass);
    // The machine-wide row names zroot, whose only member is on ada0.
    let mut b = with("off");
    scope(&mut b, "da0");
    assert_eq!(
        b.data(&SourceKey::parse("cmd:zpool get -H -o name,property,value autotrim").unwrap()),
        Some("")
    );
}

/// A mirror across two disks: `--device ada1` keeps the pool and ada1's member row, not
/// ada0's; a pool only on ada0 goes whole.
#[test]
fn device_scope_keeps_only_the_disks_pool_members() {
    let mut b = EvidenceBundle::new(Platform::Freebsd, Origin::Hand);
    put(&mut b, "sysctl:kern.disks", "ada1 ada0");
    put(&mut b, "cmd:kldstat -q -m zfs", "");
    put(
        &mut b,
        "cmd:zpool status",
        "  pool: tank\n state: ONLINE\nconfig:\n\n\tNAME        STATE     READ WRITE CKSUM\n\ttank        ONLINE       0     0     0\n\t  mirror-0  ONLINE       0     0     0\n\t    ada0p3  ONLINE       0     0     0\n\t    ada1p3  ONLINE       0     0     0\n\nerrors: No known data errors\n\n  pool: boot\n state: ONLINE\nconfig:\n\n\tNAME        STATE     READ WRITE CKSUM\n\tboot        ONLINE       0     0     0\n\t  ada0p2    ONLINE       0     0     0\n\nerrors: No known data errors\n",
    );
    scope(&mut b, "ada1");
    let t = b
        .data(&SourceKey::parse("cmd:zpool status").unwrap())
        .unwrap();
    assert_eq!(
        t,
        "  pool: tank\n state: ONLINE\nconfig:\n\n\tNAME        STATE     READ WRITE CKSUM\n\ttank        ONLINE       0     0     0\n\t  mirror-0  ONLINE       0     0     0\n\t    ada1p3  ONLINE       0     0     0\n\nerrors: No known data errors\n\n"
    );
}

/// kern.geom.confxml is cut per <geom> element (sys/geom/geom_dump.c layout; the values
/// are made up for the test): `--device ada0` drops ada1's DISK geom with its ident and
/// its partition geom, keeps the <mesh>/<class> frame, and ada0's facts do not change.
#[test]
fn device_scope_cuts_confxml_per_geom() {
    let disk = |id: &str, name: &str, ident: &str| {
        format!(
            "    <geom id=\"{id}\">\n      <class ref=\"0x1\"/>\n      <name>{name}</name>\n      <rank>1</rank>\n      <config>\n      </config>\n\t<provider id=\"{id}1\">\n\t  <geom ref=\"{id}\"/>\n\t  <mode>r1w1e2</mode>\n\t  <name>{name}</name>\n\t  <mediasize>1000204886016</mediasize>\n\t  <sectorsize>512</sectorsize>\n\t  <stripesize>4096</stripesize>\n\t  <stripeoffset>0</stripeoffset>\n\t  <config>\n\t    <rotationrate>7200</rotationrate>\n\t    <ident>{ident}</ident>\n\t    <descr>WDC WD10EFRX-68FYTN0</descr>\n\t  </config>\n\t</provider>\n    </geom>\n"
        )
    };
    let xml = format!(
        "<mesh>\n  <class id=\"0x1\">\n    <name>DISK</name>\n{}{}  </class>\n</mesh>\n",
        disk("0x10", "ada0", "WD-WCC4J0000001"),
        disk("0x20", "ada1", "WD-WCC4J0000002")
    );
    let mut b = EvidenceBundle::new(Platform::Freebsd, Origin::Hand);
    put(&mut b, "sysctl:kern.disks", "ada1 ada0");
    put(&mut b, "sysctl:kern.geom.confxml", &xml);
    let whole = b.clone();
    scope(&mut b, "ada0");
    let t = b
        .data(&SourceKey::Sysctl("kern.geom.confxml".into()))
        .unwrap();
    assert!(
        !t.contains("WD-WCC4J0000002") && !t.contains("<name>ada1</name>"),
        "{t}"
    );
    assert!(
        t.contains("WD-WCC4J0000001") && t.starts_with("<mesh>\n  <class"),
        "{t}"
    );
    assert!(t.ends_with("  </class>\n</mesh>\n"), "{t}");
    assert_eq!(
        facts::derive(&b).disk("ada0"),
        facts::derive(&whole).disk("ada0")
    );
}

/// `--device DEV` scoping of a bundle, as the live probe applies it (the binary's target).
fn scope(b: &mut EvidenceBundle, dev: &str) {
    diskdoc_sys::probe::scope_to_device(
        b,
        &ProbeOptions {
            device: Some(dev.into()),
            with_tools: false,
        },
    );
}

/// NOT A CAPTURE: `diskinfo -v` of an nvd(4) disk in diskinfo.c's printf layout
/// ("\t%-12s\t# Attachment"); nvd.c copies the controller's device name there.
fn diskinfo_nvd(name: &str, attachment: &str) -> String {
    format!(
        "/dev/{name}\n\t512         \t# sectorsize\n\t500107862016\t# mediasize in bytes (466G)\n\t976773168   \t# mediasize in sectors\n\t0           \t# stripesize\n\t0           \t# stripeoffset\n\tSamsung SSD 970 EVO Plus 500GB\t# Disk descr.\n\tS4EVNX0N000000X\t# Disk ident.\n\t{attachment:<12}\t# Attachment\n\tYes         \t# TRIM/UNMAP support\n\t0           \t# Rotation rate in RPM\n"
    )
}

/// Two controllers, nvd0 on nvme1 and nvd1 on nvme0 (nvd(4) numbers namespaces by attach
/// order, not by controller): the probe asks each disk's own controller, found from
/// dev.nvd.N.%parent or diskinfo's Attachment, and never runs smartctl on /dev/nvdN
/// (smartmontools' os_freebsd.cpp refuses it); the facts read each controller's log back
/// onto its own disk.
#[test]
fn nvd_disks_are_tied_to_their_own_controller_never_by_unit() {
    let mut b = EvidenceBundle::new(Platform::Freebsd, Origin::Hand);
    put(&mut b, "sysctl:kern.disks", "nvd1 nvd0 ada0");
    put(&mut b, "sysctl:dev.nvd.0.%parent", "nvme1");
    put(
        &mut b,
        "cmd:diskinfo -v /dev/nvd1",
        &diskinfo_nvd("nvd1", "nvme0"),
    );
    put(
        &mut b,
        "cmd:nvmecontrol logpage -p 2 nvme1",
        &crate::support::nvmecontrol_health_log("0x04", 2),
    );
    put(
        &mut b,
        "cmd:nvmecontrol logpage -p 2 nvme0",
        &crate::support::nvmecontrol_health_log("0x00", 0),
    );
    let asked = asked_keys(
        &b,
        &ProbeOptions {
            device: None,
            with_tools: true,
        },
    );
    for want in [
        "sysctl:dev.nvd.0.%parent",
        "cmd:nvmecontrol logpage -p 2 nvme1",
        "cmd:nvmecontrol logpage -p 2 nvme0",
        "cmd:smartctl -j -a /dev/nvme1",
        "cmd:smartctl -j -a /dev/nvme0",
        "cmd:smartctl -j -a /dev/ada0",
    ] {
        assert!(asked.iter().any(|k| k == want), "{want}: {asked:#?}");
    }
    for never in [
        "cmd:smartctl -j -a /dev/nvd0",
        "cmd:smartctl -j -a /dev/nvd1",
    ] {
        assert!(!asked.iter().any(|k| k == never), "{never}: {asked:#?}");
    }
    // Each controller is asked once, and only with --tools.
    assert_eq!(
        asked
            .iter()
            .filter(|k| k.starts_with("cmd:nvmecontrol logpage"))
            .count(),
        2
    );
    assert!(
        !asked_keys(&b, &ProbeOptions::default())
            .iter()
            .any(|k| k.contains("nvmecontrol") || k.contains("smartctl"))
    );

    let sys = facts::derive(&b);
    let disk = |n: &str| {
        sys.disks
            .iter()
            .find(|d| d.name == n)
            .unwrap_or_else(|| panic!("no {n}"))
    };
    let h0 = disk("nvd0").nvme_health.value().expect("nvd0 health");
    assert_eq!(h0.critical_warning, Some(4));
    assert_eq!(
        disk("nvd0").nvme_health.sources(),
        ["cmd:nvmecontrol logpage -p 2 nvme1"]
    );
    let h1 = disk("nvd1").nvme_health.value().expect("nvd1 health");
    assert_eq!(h1.critical_warning, Some(0));
    // With two controllers and nothing tying a disk to one, the health is unknown, not
    // guessed from the unit number.
    let mut b2 = b.clone();
    b2.captures.remove("sysctl:dev.nvd.0.%parent");
    put(
        &mut b2,
        "file:/var/run/dmesg.boot",
        "nvme0: <Generic NVMe Device> mem 0xfe600000-0xfe603fff irq 40 at device 0.0 on pci1\nnvme1: <Generic NVMe Device> mem 0xfe500000-0xfe503fff irq 41 at device 0.0 on pci2\n",
    );
    let sys2 = facts::derive(&b2);
    let d0 = sys2.disks.iter().find(|d| d.name == "nvd0").expect("nvd0");
    assert!(!d0.nvme_health.is_known());
    assert!(
        d0.nvme_health
            .why()
            .is_some_and(|w| w.contains("2 nvme(4) controllers")),
        "{:?}",
        d0.nvme_health
    );
}
