//! `trim-unavailable`: an SSD whose discard (TRIM/UNMAP/Deallocate) path is broken, so the
//! drive never learns which blocks are free: its garbage collection copies stale data and
//! sustained writes slow down as it fills. References: Linux queue/discard_max_bytes
//! (Documentation/ABI/stable/sysfs-block: 0 means the device does not take discards);
//! scsi_disk provisioning_mode (sd.c: unmap, writesame_16, disabled); ATA DATA SET
//! MANAGEMENT/TRIM (IDENTIFY word 169 bit 0); FreeBSD ada(4)/da(4)
//! kern.cam.{ada,da}.N.delete_method (NONE, DSM_TRIM, ATA_TRIM, UNMAP, WS16, ...). Also
//! filesystems never trimmed: the path works but no mount has `discard` and neither
//! util-linux's fstrim.timer nor a cron job runs fstrim(8); and ZFS pools with autotrim off
//! (zpoolprops(7)), trimmed only when `zpool trim` runs, which diskdoc cannot see scheduled.

use crate::checks::common::{self, Media, is_raid_volume, is_usb, is_virtual_bus};
use crate::checks::{Check, Confidence, Finding, Fix, Severity, Verdict};
use crate::evidence::Platform;
use crate::facts::{DiskFacts, FsTrim, LayerKind, SystemFacts};
use crate::sources::zpool;

pub const ID: &str = "trim-unavailable";

pub(crate) struct TrimUnavailable;

impl Check for TrimUnavailable {
    fn id(&self) -> &'static str {
        ID
    }
    fn label(&self) -> &'static str {
        "TRIM / discard"
    }
    fn summary(&self) -> &'static str {
        "SSD whose TRIM/discard path is broken (discard_max_bytes 0, USB bridge or RAID dropping it, FreeBSD delete_method NONE), or whose filesystems are never trimmed (no discard option, no fstrim.timer or cron job; a hint for ZFS pools with autotrim off)"
    }
    fn run(&self, sys: &SystemFacts) -> Vec<Finding> {
        common::disks(sys)
            .filter(|d| {
                (common::media(d) == Some(Media::Ssd) && !is_virtual_bus(d))
                    || refused_here(d)
                    // A discard the device failed (EIO): it takes them, whatever its media.
                    || d.trim.discard_failed.is_known()
                    // The device takes discards and a layer on it drops them: whatever its
                    // media, someone stacked a volume on a disk that can be trimmed.
                    || d.trim.layer_blocks_discard.is_known()
                    // A filesystem on it never sends TRIM (tunefs -p): a device not known
                    // to rotate may be an SSD or thin storage.
                    || fs_flag_off_here(d)
                    // ZFS never trimmed a vdev on it, and its name or model calls it an SSD.
                    || (d.trim.zfs_untrimmed.is_known() && common::named_ssd(d))
            })
            .filter_map(|d| check_disk(sys, d))
            .collect()
    }
}

/// A disk that is not known to rotate, where a discard someone asked for was refused and
/// whose discard limit is 0: someone means it to be trimmed (an SSD behind a RAID
/// volume, a virtual disk on thin storage), whatever its media says. A rotating disk
/// takes no discard by design and stays out.
fn refused_here(d: &DiskFacts) -> bool {
    common::media(d) != Some(Media::Hdd)
        && d.trim.discard_refused.is_known()
        && d.trim.discard_max_bytes.get() == Some(0)
}

fn broken(d: &DiskFacts) -> Option<(bool, String, String)> {
    if let Some(m) = d.trim.discard_max_bytes.get() {
        let src = d
            .trim
            .discard_max_bytes
            .sources()
            .first()
            .cloned()
            .unwrap_or_default();
        // A limit of 0 derived from sg_readcap is the kernel's consequence of LBPME clear:
        // say what was read.
        let value = if src.contains(crate::sources::sg_readcap::SPEC.id) {
            "lbpme=0 (READ CAPACITY (16))".to_string()
        } else {
            format!("discard_max_bytes={m}")
        };
        return Some((m == 0, value, src));
    }
    if let Some(m) = d.trim.delete_method.value() {
        let src = d
            .trim
            .delete_method
            .sources()
            .first()
            .cloned()
            .unwrap_or_default();
        return Some((
            m.eq_ignore_ascii_case("NONE"),
            format!("delete_method={m}"),
            src,
        ));
    }
    None
}

pub(crate) fn check_disk(sys: &SystemFacts, d: &DiskFacts) -> Option<Finding> {
    if let Some(line) = d.trim.discard_failed.value() {
        return Some(discard_fails(sys, d, line));
    }
    let Some((is_broken, value, src)) = broken(d) else {
        // A pasted `fstrim --all` trimmed other filesystems of the disk: it takes
        // discards, whatever its limit, and the layer under the skipped one drops them.
        if let Some(src) = d.trim.layer_blocks_discard.sources().first()
            && let Some(f) = layer_blocks(sys, d, "fstrim trimmed filesystems on it", src)
        {
            return Some(f);
        }
        // A filesystem's own TRIM flag is off (a pasted `tunefs -p`): whatever the path
        // below, nothing is ever sent down it.
        if let Some(f) = fs_flag_off(d) {
            return Some(f);
        }
        // The pool property is worth saying even when the discard path is not known (a
        // paste of zpool status and zpool get autotrim shows no sysfs).
        if let Some(f) = autotrim_off(sys, d, None).or_else(|| zfs_untrimmed(sys, d, None)) {
            return Some(f);
        }
        return Some(common::unknown(
            ID,
            d,
            format!("TRIM path of {} unknown", d.name),
            "Whether discards reach the SSD",
            &format!(
                "{}; {}",
                common::why(&d.trim.discard_max_bytes),
                common::why(&d.trim.delete_method)
            ),
            &match sys.platform {
                Platform::Freebsd => format!(
                    "run `diskdoc scan --tools` so sysctl kern.cam.*.{}.delete_method is read",
                    d.name.trim_start_matches(|c: char| !c.is_ascii_digit())
                ),
                _ => format!(
                    "let diskdoc read /sys/block/{}/queue/discard_max_bytes",
                    d.name
                ),
            },
        ));
    };
    if !is_broken {
        if let Some(f) = layer_blocks(sys, d, &value, &src) {
            return Some(f);
        }
        if let Some(f) = never_trimmed(sys, d, &value, &src) {
            return Some(f);
        }
        if let Some(f) = autotrim_off(sys, d, Some((&value, &src)))
            .or_else(|| zfs_untrimmed(sys, d, Some((&value, &src))))
        {
            return Some(f);
        }
        let mut explain = format!("{value}: the kernel can send TRIM to the drive.");
        if let Some(t) = d.trim.fs_trim.value() {
            explain.push_str(&trim_paths(t));
        }
        if let Some(rows) = d.trim.zfs_autotrim.value() {
            for r in rows {
                match &r.periodic {
                    Some(p) => explain.push_str(&format!(" ZFS pool {}: trimmed by {p}.", r.pool)),
                    None => {
                        explain.push_str(&format!(" ZFS pool {}: autotrim={}.", r.pool, r.value))
                    }
                }
            }
        }
        return Some(
            common::pass(ID, d, "discards reach the SSD")
                .explain(explain)
                .evidence(src, value),
        );
    }
    let drive_says_no = d.trim_supported.get() == Some(false);
    // ZFS said it (zpool status -t, zpool trim): vdev_has_trim is false for the leaf, and
    // an HDD prints the same, so a disk not known to be an SSD gets a notice.
    let zfs_said = d
        .trim
        .discard_refused
        .value()
        .filter(|r| r.contains(zpool::TRIM_UNSUPPORTED) || r.contains(zpool::NO_TRIM_DEVICES));
    let unsure = zfs_said.is_some() && common::media(d).is_none() && !common::named_ssd(d);
    let value = zfs_said.cloned().unwrap_or(value);
    let path = if src.contains(crate::sources::sg_readcap::SPEC.id) {
        "the device's READ CAPACITY (16) answer has LBPME clear and Linux's sd driver turns \
         discards on only when it is set (sd.c sd_read_block_limits); where the drive or its \
         bridge does take UNMAP (sg_vpd -p lbpv: LBPU=1), a udev rule writing `unmap` to the \
         disk's scsi_disk provisioning_mode turns TRIM on"
    } else if is_virtual_bus(d) {
        "the hypervisor's virtual disk does not offer discard to the guest (Xen blkfront \
         without feature-discard, virtio-blk or SCSI without discard/unmap enabled on the host)"
    } else if is_usb(d) {
        "a USB bridge sits in between: usb-storage (BOT) never passes UNMAP, and UAS bridges \
         pass it only when the kernel is told the bridge supports it"
    } else if is_raid_volume(d) {
        "a RAID controller presents the volume and does not pass TRIM to its members"
    } else if drive_says_no {
        "the drive itself reports no TRIM support (ATA IDENTIFY word 169)"
    } else if zfs_said.is_some() {
        "ZFS found no discard support in the block device under the vdev (vdev_has_trim \
         false): an HBA or RAID controller, a USB bridge or a virtual disk in between drops \
         TRIM, or the kernel turned it off for the drive"
    } else {
        "the driver or a layer in between does not pass discards"
    };
    let mut f = Finding::new(
        ID,
        &d.name,
        Verdict::Problem,
        if drive_says_no || unsure {
            Severity::Notice
        } else {
            Severity::Warning
        },
        format!(
            "{}: TRIM does not reach the {}",
            d.name,
            if common::media(d) == Some(Media::Ssd) {
                "SSD"
            } else {
                "device"
            }
        ),
    )
    .explain(format!(
        "{value}: no discard reaches {}, because {path}. Without TRIM the SSD cannot tell \
         free blocks from data: its garbage collection keeps copying deleted data, and \
         sustained writes slow down the fuller the drive has ever been.{}",
        d.name,
        if unsure {
            " Nothing here says it is an SSD: an HDD takes no TRIM by design, and then \
             nothing is wrong."
        } else {
            ""
        }
    ))
    .confidence(if unsure {
        Confidence::Low
    } else {
        Confidence::Medium
    })
    .impact(0.3)
    .evidence(src, value);
    if let Some(r) = d
        .trim
        .discard_refused
        .value()
        .filter(|_| zfs_said.is_none())
    {
        f = common::cite(f, &d.trim.discard_refused, r.clone());
    }
    if d.trim_supported.is_known() {
        f = common::cite(
            f,
            &d.trim_supported,
            format!("trim_supported={}", d.trim_supported.get() == Some(true)),
        );
    }
    Some(f.fix(fix(sys.platform, d)))
}

/// A discard the kernel sent and the device failed with EIO (fstrim.c / blkdiscard.c print
/// the ioctl's errno; block/ioctl.c and the filesystems' FITRIM return EOPNOTSUPP, not EIO,
/// when the device takes no discard at all). The device advertises TRIM and errs on it:
/// firmware that rejects some ranges, a bridge that mangles the command, or a failing
/// drive; the kernel log at the same moment names the device's own status.
fn discard_fails(sys: &SystemFacts, d: &DiskFacts, line: &str) -> Finding {
    let f = Finding::new(
        ID,
        &d.name,
        Verdict::Problem,
        Severity::Warning,
        format!("{}: TRIM commands fail at the device", d.name),
    )
    .explain(format!(
        "\"{line}\": the kernel passed the discard down, and the device (or a bridge or \
         layer in between) answered it with an error, so the free space was not trimmed. \
         A device that takes no discard at all gives \"Operation not supported\" instead; an \
         I/O error (or \"Remote I/O error\", \"critical target error\": the device rejected \
         the UNMAP or WRITE SAME command, an Illegal Request in SCSI terms) means it claims \
         TRIM and fails it: SSD firmware that rejects some ranges \
         (NVMe Dataset Management or ATA DATA SET MANAGEMENT), a USB or RAID bridge that \
         mangles the command, or a drive in trouble. Without working TRIM the SSD's garbage \
         collection keeps copying deleted data and sustained writes slow down."
    ))
    .confidence(Confidence::Medium)
    .impact(0.3);
    let f = common::cite(f, &d.trim.discard_failed, line.to_string());
    let steps = match sys.platform {
        Platform::Freebsd => vec![
            "Look at `dmesg` right after the trim: the disk's own error (CAM status, NVMe \
             status) says which command failed"
                .to_string(),
            "Update the SSD's firmware; until TRIM works, turn it off on the filesystem \
             (`tunefs -t disable`, or `zpool set autotrim=off`) so the errors stop"
                .to_string(),
        ],
        _ => vec![
            "Run the trim again and read `sudo dmesg | tail -50`: the NVMe status (\"DSM\", \
             \"Dataset Management\") or the ATA error of the failed command names the cause"
                .to_string(),
            "Update the SSD's firmware (`fwupdmgr get-updates`, or the vendor's tool); until \
             TRIM works, stop the failing trims (`sudo systemctl disable --now fstrim.timer`, \
             no `discard` mount option)"
                .to_string(),
            "If the drive sits behind a USB bridge or a RAID card, test it on a direct port: \
             the bridge may be what mangles the command"
                .to_string(),
        ],
    };
    f.fix(Fix {
        platform: sys.platform,
        summary: "find why the device fails TRIM, and stop the failing trims until it is fixed"
            .to_string(),
        steps,
        risk: "a firmware update can brick a drive if interrupted; back up first".to_string(),
    })
}

/// The disk takes discards but a layer stacked on it passes none
/// ([`crate::model::TrimFacts::layer_blocks_discard`]): fstrim on the filesystem above the
/// layer fails or does nothing, so the SSD never learns which blocks are free.
fn layer_blocks(sys: &SystemFacts, d: &DiskFacts, value: &str, src: &str) -> Option<Finding> {
    let layer = d.trim.layer_blocks_discard.value()?;
    let name = layer.split_whitespace().next().unwrap_or("the layer");
    let f = Finding::new(
        ID,
        &d.name,
        Verdict::Problem,
        Severity::Warning,
        format!(
            "{}: TRIM stops at {name}, a layer that passes no discard",
            d.name
        ),
    )
    .explain(format!(
        "{value}: {} itself takes discards, but {layer}: the layer stacked on it drops them. \
         dm-crypt does so unless the mapping is opened with discards allowed (a privacy \
         choice: TRIM shows which blocks are free). Without TRIM the SSD's garbage \
         collection keeps copying deleted data and sustained writes slow down.",
        d.name
    ))
    .confidence(Confidence::Medium)
    .impact(0.3)
    .evidence(src, value.to_string());
    let f = common::cite(f, &d.trim.layer_blocks_discard, layer.clone());
    let steps = match sys.platform {
        Platform::Freebsd => vec![
            "GELI: `geli configure -t PROVIDER` (or attach with -T unset) so BIO_DELETE passes"
                .to_string(),
        ],
        _ => vec![
            format!(
                "dm-crypt/LUKS: add `discard` to the options of {name} in /etc/crypttab \
                 (crypttab(5)), and rebuild the initramfs if it unlocks at boot"
            ),
            format!(
                "LUKS2, now and for good: `sudo cryptsetup refresh --allow-discards \
                 --persistent {name}`; plain or LUKS1: open it with `--allow-discards`"
            ),
            format!("Check: `lsblk -D` shows non-zero DISC-GRAN/DISC-MAX on {name}"),
            "Then trim weekly: `sudo systemctl enable --now fstrim.timer`".to_string(),
        ],
    };
    Some(
        f.fix(Fix {
            platform: sys.platform,
            summary: "let the layer pass discards".into(),
            steps,
            risk: "TRIM through encryption reveals which blocks are unused (cryptsetup(8), \
               --allow-discards)"
                .into(),
        }),
    )
}

/// A hint, not a verdict: ZFS pools on the SSD with autotrim off are trimmed only by
/// `zpool trim`, and whether something runs that on a schedule (cron, a systemd
/// zfs-trim-weekly@ timer, FreeBSD's periodic daily_trim_zfs_enable) is not in the
/// evidence. `path` is the discard path's value and source when known.
fn autotrim_off(sys: &SystemFacts, d: &DiskFacts, path: Option<(&str, &str)>) -> Option<Finding> {
    let rows = d.trim.zfs_autotrim.value()?;
    // A pool an enabled zfs-trim timer trims is trimmed: no hint for it.
    let off: Vec<&str> = rows
        .iter()
        .filter(|r| r.value.eq_ignore_ascii_case("off") && r.periodic.is_none())
        .map(|r| r.pool.as_str())
        .collect();
    let pools = off.join(", ");
    let (first, count) = (*off.first()?, off.len());
    let (pool_word, has) = if count == 1 {
        ("pool", "has")
    } else {
        ("pools", "have")
    };
    let mut f = Finding::new(
        ID,
        &d.name,
        Verdict::Problem,
        Severity::Notice,
        format!("{}: ZFS {pool_word} {pools} {has} autotrim off", d.name),
    )
    .explain(format!(
        "autotrim=off (zpool get autotrim): ZFS tells {} which blocks it freed only \
         when `zpool trim` runs. diskdoc saw no periodic `zpool trim` (it looks for \
         OpenZFS's zfs-trim-weekly@/-monthly@ timers on Linux, and reads no crontab or \
         periodic.conf), so one may still exist. If none does, the SSD cannot tell freed \
         blocks from data: as it fills, its garbage collection keeps copying them and \
         sustained writes slow down.",
        d.name
    ))
    .confidence(Confidence::Low)
    .impact(0.05);
    if let Some((value, src)) = path {
        f = f.evidence(src.to_string(), value.to_string());
    }
    if let Some(k) = d.trim.zfs_autotrim.sources().first() {
        f = f.evidence(k.clone(), format!("autotrim=off: {pools}"));
    }
    Some(f.fix(autotrim_fix(sys.platform, first)))
}

/// A hint like [`autotrim_off`] from `zpool status -t` alone: a vdev of the pool on this
/// SSD prints "(untrimmed)" (TrimFacts::zfs_untrimmed), so no `zpool trim` ever ran on it.
/// Said unless the pool's autotrim is known (on: it trims as it frees; off: autotrim_off
/// said it) or a timer trims the pool.
fn zfs_untrimmed(sys: &SystemFacts, d: &DiskFacts, path: Option<(&str, &str)>) -> Option<Finding> {
    let pool = d.trim.zfs_untrimmed.value()?;
    if d.trim
        .zfs_autotrim
        .value()
        .is_some_and(|rows| rows.iter().any(|r| r.pool == *pool))
    {
        return None;
    }
    let mut f = Finding::new(
        ID,
        &d.name,
        Verdict::Problem,
        Severity::Notice,
        format!("{}: ZFS has never trimmed its vdev of {pool}", d.name),
    )
    .explain(format!(
        "`zpool status -t` prints \"(untrimmed)\" for the vdev of {pool} on {}: the device \
         takes TRIM (ZFS prints \"(trim unsupported)\" otherwise), but no `zpool trim` has \
         ever run on it. Unless the pool has autotrim=on (`zpool get autotrim`; autotrim \
         leaves this note as it is), the SSD never learns which blocks ZFS freed: as it \
         fills, its garbage collection keeps copying them and sustained writes slow down.",
        d.name
    ))
    .confidence(Confidence::Low)
    .impact(0.05);
    if let Some((value, src)) = path {
        f = f.evidence(src.to_string(), value.to_string());
    }
    f = common::cite(f, &d.trim.zfs_untrimmed, format!("(untrimmed): {pool}"));
    let name = if pool == zpool::UNNAMED {
        "POOL"
    } else {
        pool.as_str()
    };
    Some(f.fix(autotrim_fix(sys.platform, name)))
}

fn autotrim_fix(platform: Platform, pool: &str) -> Fix {
    let sudo = if platform == Platform::Freebsd {
        ""
    } else {
        "sudo "
    };
    let periodic = match platform {
        // usr.sbin/periodic/etc/daily/801.trim-zfs: `zpool trim` on every healthy pool (or
        // those in daily_trim_zfs_pools) when daily_trim_zfs_enable is YES.
        Platform::Freebsd => "Or trim daily: `sysrc -f /etc/periodic.conf \
             daily_trim_zfs_enable=YES` (where /etc/periodic/daily/801.trim-zfs exists)"
            .to_string(),
        // OpenZFS etc/systemd/system/zfs-trim-weekly@.timer (WantedBy=timers.target).
        _ => format!(
            "Or trim weekly: `sudo systemctl enable --now zfs-trim-weekly@{pool}.timer` \
             (OpenZFS's timer), or a cron job running `zpool trim {pool}`"
        ),
    };
    Fix {
        platform,
        summary: "let ZFS trim the pool".into(),
        steps: vec![
            format!("`{sudo}zpool set autotrim=on {pool}` (trims freed space as it goes)"),
            periodic,
            format!("Check: `zpool status -t {pool}` shows when each vdev was last trimmed"),
        ],
        risk: "autotrim sends many small TRIMs, which slow some SSDs down under load \
               (zpoolprops(7)); a periodic `zpool trim` instead keeps the drive busy for a \
               while once a day or week. Either saves wear and keeps write speed up"
            .into(),
    }
}

/// " Trimmed by: ..." for the pass, naming every trim path found.
fn trim_paths(t: &FsTrim) -> String {
    let mut paths: Vec<String> = t.periodic.iter().map(|j| j.what.clone()).collect();
    if !t.online.is_empty() {
        paths.push(format!("online discard on {}", t.online.join(", ")));
    }
    if paths.is_empty() {
        String::new()
    } else {
        format!(" Trimmed by: {}.", paths.join("; "))
    }
}

/// The discard path works but nothing uses it: trim-capable filesystems mounted without
/// `discard`, and no fstrim.timer or cron job. A notice, not a warning: the drive is fine
/// today; it slows as it fills (no free-block hints for its garbage collection).
fn never_trimmed(sys: &SystemFacts, d: &DiskFacts, value: &str, src: &str) -> Option<Finding> {
    let t = d.trim.fs_trim.value()?;
    if t.without_discard.is_empty() || !t.periodic.is_empty() || !t.online.is_empty() {
        return None;
    }
    let mounts = t.without_discard.join(", ");
    // dm-crypt drops discards unless opened with allow_discards (cryptsetup(8)).
    let crypt = d
        .layers
        .iter()
        .any(|l| matches!(l.kind, Some(LayerKind::Luks | LayerKind::DmCrypt)));
    let mut f = Finding::new(
        ID,
        &d.name,
        Verdict::Problem,
        Severity::Notice,
        format!("{}: filesystems never trimmed ({mounts})", d.name),
    )
    .explain(never_trimmed_why(
        sys.platform,
        value,
        &mounts,
        t.without_discard.len(),
        crypt,
    ))
    .confidence(Confidence::Medium)
    .impact(0.1)
    .evidence(src.to_string(), value.to_string());
    for (k, v) in d.trim.fs_trim.sources().iter().map(|k| {
        let v = if k.contains("mountinfo") {
            format!("no discard option: {mounts}")
        } else if k.contains("cron") {
            "no fstrim cron job".to_string()
        } else if k.contains("tunefs") {
            "trim: (-t) disabled".to_string()
        } else {
            "fstrim.timer not enabled".to_string()
        };
        (k.clone(), v)
    }) {
        f = f.evidence(k, v);
    }
    Some(f.fix(never_trimmed_fix(sys.platform, d, t)))
}

/// UFS filesystems whose superblock TRIM flag is off (tunefs(8) -t, `tunefs -p` "trim: (-t)
/// disabled") on a device whose discard path was not shown: UFS then never issues
/// BIO_DELETE, so neither an SSD nor a thin-provisioned virtual disk (a qcow2 image, thin
/// LVM, a cloud volume) learns which blocks are free. Silent for a disk known to be an HDD.
fn fs_flag_off_here(d: &DiskFacts) -> bool {
    let from_tunefs = d
        .trim
        .fs_trim
        .sources()
        .iter()
        .any(|k| k.contains("tunefs"));
    from_tunefs
        && common::media(d) != Some(Media::Hdd)
        && d.trim.fs_trim.value().is_some_and(|t| {
            !t.without_discard.is_empty() && t.online.is_empty() && t.periodic.is_empty()
        })
}

fn fs_flag_off(d: &DiskFacts) -> Option<Finding> {
    if !fs_flag_off_here(d) {
        return None;
    }
    let t = d.trim.fs_trim.value()?;
    let mounts = t.without_discard.join(", ");
    let mut f = Finding::new(
        ID,
        &d.name,
        Verdict::Problem,
        Severity::Notice,
        format!("{}: UFS with TRIM off ({mounts})", d.name),
    )
    .explain(format!(
        "{mounts}: the UFS superblock's TRIM flag is off (tunefs -p \"trim: (-t) \
         disabled\"), so UFS never tells the device which blocks it freed. On an SSD, \
         garbage collection keeps copying deleted data and writes slow down as it fills; on \
         a thin-provisioned virtual disk (qcow2, thin LVM, a cloud volume) the image only \
         grows. FreeBSD's base system runs no periodic UFS trim, so the flag is the only \
         path."
    ))
    .confidence(Confidence::Medium)
    .impact(0.1);
    f = common::cite(f, &d.trim.fs_trim, "trim: (-t) disabled".to_string());
    let devs: Vec<String> = t
        .without_discard
        .iter()
        .map(|p| {
            if p.contains(' ') {
                // No partition was named: the placeholder the user fills in.
                "`tunefs -t enable /dev/PARTITION` (the partition you ran `tunefs -p` on)"
                    .to_string()
            } else {
                format!("`tunefs -t enable /dev/{}`", p.trim_start_matches("/dev/"))
            }
        })
        .collect();
    Some(f.fix(ufs_trim_fix(
        &devs,
        "Trim what is already free once: `fsck_ffs -E DEV` on the unmounted filesystem",
    )))
}

fn never_trimmed_why(
    platform: Platform,
    value: &str,
    mounts: &str,
    n: usize,
    crypt: bool,
) -> String {
    let are = if n == 1 { "is" } else { "are" };
    let what = match platform {
        // tunefs(8) -t: UFS issues BIO_DELETE for freed blocks only with the flag set; the
        // base system's periodic(8) scripts trim ZFS only (daily_trim_zfs_enable).
        Platform::Freebsd => format!(
            "{mounts} {are} UFS with the TRIM flag off (tunefs -p), and nothing else trims UFS \
             on FreeBSD."
        ),
        _ => format!(
            "{mounts} {are} mounted without the discard option, and neither fstrim.timer nor \
             a cron job runs fstrim."
        ),
    };
    let mut s = format!(
        "{value}: the SSD takes discards, but nothing sends them. {what} The drive cannot \
         tell deleted files from data: as it fills, its garbage collection keeps copying \
         them, writes slow down and every write wears it more (write amplification)."
    );
    if crypt {
        s.push_str(
            " The encryption layer must let discards through too (crypttab `discard`, \
             `cryptsetup refresh --allow-discards`), which reveals which blocks are free.",
        );
    }
    s
}

/// tunefs(8) -t enable on each UFS filesystem (`devs`: the commands), and `extra` as a last
/// step when not empty.
fn ufs_trim_fix(devs: &[String], extra: &str) -> Fix {
    let mut steps = vec![
        format!(
            "{} with the filesystem unmounted or mounted read-only (for /: from single-user \
             mode)",
            devs.join(", ")
        ),
        "Check: `tunefs -p DEV` shows \"trim: (-t) enabled\"".to_string(),
    ];
    if !extra.is_empty() {
        steps.push(extra.to_string());
    }
    Fix {
        platform: Platform::Freebsd,
        summary: "turn on the UFS TRIM flag".into(),
        steps,
        risk: "UFS then sends a TRIM for every freed block as it goes: deletes get a little \
               slower on some drives and the drive stays awake (drawing power) a moment \
               longer; it saves wear and keeps write speed up (and a thin-provisioned image \
               small)"
            .into(),
    }
}

fn never_trimmed_fix(platform: Platform, d: &DiskFacts, t: &FsTrim) -> Fix {
    match platform {
        Platform::Freebsd => {
            let devs: Vec<String> = t
                .without_discard
                .iter()
                .filter_map(|mp| d.mounts.iter().find(|m| &m.mountpoint == mp))
                .map(|m| format!("`tunefs -t enable {}`", m.source))
                .collect();
            ufs_trim_fix(&devs, "")
        }
        _ => Fix {
            platform,
            summary: "trim the filesystems once a week".into(),
            steps: vec![
                "`sudo systemctl enable --now fstrim.timer` (util-linux's timer: `fstrim` on \
                 every mounted filesystem that supports it, weekly)"
                    .into(),
                "Trim now, once: `sudo fstrim -av` (prints what each filesystem released)".into(),
                "Or mount with `-o discard` (ext4, xfs; btrfs: `discard=async`) for continuous \
                 discard"
                    .into(),
            ],
            risk: "a weekly fstrim keeps the drive busy (and awake, drawing power) for seconds \
                   to minutes once a week; `discard` instead sends a TRIM with every delete, \
                   which makes deletes slower on some drives. Either saves wear and keeps write \
                   speed up"
                .into(),
        },
    }
}

fn fix(platform: Platform, d: &DiskFacts) -> Fix {
    let n = &d.name;
    match platform {
        Platform::Freebsd => {
            let unit: String = n.chars().filter(|c| c.is_ascii_digit()).collect();
            let drv = n.trim_end_matches(|c: char| c.is_ascii_digit());
            Fix {
                platform,
                summary: "pick a delete method the path supports".into(),
                steps: vec![
                    format!(
                        "`sysctl kern.cam.{drv}.{unit}.delete_method=ATA_TRIM` (SATA SSD \
                         behind a SAS HBA) or `=UNMAP` (SCSI/UAS)"
                    ),
                    "UFS: `tunefs -t enable`; ZFS: `zpool set autotrim=on POOL`".into(),
                ],
                risk: "some bridges and old firmware misbehave on TRIM; try on a backed-up \
                       drive first"
                    .into(),
            }
        }
        _ => {
            let mut steps = Vec::new();
            if is_usb(d) {
                steps.push(format!(
                    "If the bridge supports UNMAP: `echo unmap | sudo tee \
                     /sys/block/{n}/device/scsi_disk/*/provisioning_mode`, then make it \
                     permanent with a udev rule for the bridge's idVendor/idProduct"
                ));
            } else if is_raid_volume(d) {
                steps.push(
                    "Use the controller in HBA/JBOD mode, or rely on the SSDs' own \
                     over-provisioning"
                        .into(),
                );
            }
            steps.push(format!(
                "Check: `lsblk -D /dev/{n}` shows non-zero DISC-GRAN/DISC-MAX"
            ));
            steps.push("Then trim weekly: `sudo systemctl enable --now fstrim.timer`".into());
            Fix {
                platform,
                summary: "give discards a path to the drive".into(),
                steps,
                risk: "some USB bridges hang or corrupt data on UNMAP; try on a backed-up \
                       drive first"
                    .into(),
            }
        }
    }
}

#[cfg(test)]
mod tests;
