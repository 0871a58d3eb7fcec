//! `write-cache-disabled`: the drive has a volatile write cache but it is off. References:
//! ATA/ACS-3 IDENTIFY words 82 bit 5 / 85 bit 5 and SET FEATURES 02h/82h, SBC-3 caching mode
//! page 08h (WCE bit), NVMe 1.4 Volatile Write Cache feature (06h), FreeBSD ata(4)
//! `hw.ata.wc` and ada(4) `kern.cam.ada.X.write_cache`, Linux sd `cache_type` (sysfs-scsi).

use crate::checks::common::{self, Source, cite, how_to_know, is_freebsd_legacy_ad, is_nvme};
use crate::checks::{Check, Confidence, Finding, Fix, Severity, Verdict};
use crate::evidence::Platform;
use crate::facts::pasted::WHOLE_CONTROLLER_NOTE;
use crate::facts::{DiskFacts, SystemFacts, Transport};
use crate::sources::{ask, spec::Ask};

pub const ID: &str = "write-cache-disabled";

pub(crate) struct WriteCacheDisabled;

impl Check for WriteCacheDisabled {
    fn id(&self) -> &'static str {
        ID
    }
    fn label(&self) -> &'static str {
        "Write cache"
    }
    fn summary(&self) -> &'static str {
        "drive write cache supported but disabled (a WD5001ABYS HDD wrote 75 MB/s with it on, 13 MB/s off)"
    }
    fn run(&self, sys: &SystemFacts) -> Vec<Finding> {
        common::disks(sys).map(|d| check_disk(sys, d)).collect()
    }
}

const RISK: &str = "enabling the write cache risks losing the last seconds of writes on power \
                    loss without a UPS; filesystems and databases stay consistent as long as \
                    the drive honours cache-flush commands, which current drives do";

fn is_software_target(d: &DiskFacts) -> bool {
    d.vendor
        .value()
        .is_some_and(|v| crate::sources::kernel_log::iscsi::is_software_target_vendor(v))
}

/// Whether the write cache state of `d` was read only at the SCSI layer, from the caching
/// mode page (08h, SBC-3 6.5.5 WCE) its device answered: the sd driver's "Write cache:
/// disabled, read cache: enabled" line (drivers/scsi/sd.c sd_read_cache_type) or sysfs
/// `cache_type`/`queue/write_cache`, which hold the same bit. Behind a USB bridge that page
/// is the bridge's: usb-storage and uas relay the bridge's SCSI answers, and bridges emulate
/// the page with WCE=0 whatever the drive behind them does (a SATA drive's cache is set by
/// ATA SET FEATURES, which SAT-4 10.4.8 leaves to the bridge to translate, and an NVMe
/// drive's Volatile Write Cache feature 06h is not mapped at all by NVMe-to-USB bridges
/// such as the Realtek RTL9210, which report "Write cache: disabled" for an SN850X).
/// A state read through ATA pass-through (smartctl -d sat, hdparm -W) is the drive's own.
fn read_from_bridge_page(d: &DiskFacts) -> bool {
    let from = d.write_cache_enabled.sources();
    !from.is_empty()
        && from.iter().all(|k| {
            crate::sources::kernel_log::LINUX_SPEC.captures(k)
                || k.ends_with("/cache_type")
                || k.ends_with("/queue/write_cache")
        })
}

pub(crate) fn check_disk(sys: &SystemFacts, d: &DiskFacts) -> Finding {
    // An emulated disk (class Virtual: QEMU HARDDISK, Msft Virtual Disk) reports the cache
    // bit of its emulation, which the hypervisor's disk cache mode sets, like a paravirtual
    // one.
    if common::is_virtual_bus(d) || d.class.get() == Some(crate::facts::DeviceClass::Virtual) {
        return common::not_applicable(
            ID,
            d,
            "a paravirtual disk: the host's cache mode (QEMU cache=, the hypervisor's disk \
             settings) and the real drive's cache decide, not this guest",
        );
    }
    // A software SCSI target (Linux LIO "LIO-ORG", IET "IET", SCST "SCST_FIO"/"SCST_BIO")
    // exports a LUN backed by a file or block device: it reports WCE=0 in caching mode
    // page 08h when the backstore has no volatile cache to expose (LIO target_core_spc.c
    // spc_modesense_caching follows the backstore's emulate_write_cache), by design.
    if is_software_target(d) {
        return common::not_applicable(
            ID,
            d,
            "a software SCSI target (iSCSI/LIO/IET/SCST): the LUN has no volatile cache of its \
             own by design; the backing store on the target host decides",
        );
    }
    let Some(enabled) = d.write_cache_enabled.get() else {
        return common::unknown(
            ID,
            d,
            format!("write cache state of {} unknown", d.name),
            "Whether the drive's write cache is on",
            &common::why(&d.write_cache_enabled),
            &how_to_know(sys.platform, Source::Identify, d),
        );
    };
    let en_s = format!("write_cache_enabled={}", if enabled { "yes" } else { "no" });
    if !enabled && common::is_usb(d) && read_from_bridge_page(d) {
        return cite(
            common::not_applicable(
                ID,
                d,
                "a USB bridge answered the SCSI caching mode page: its WCE=0 is the bridge's \
                 report, not the drive's cache (read the drive's own state through the bridge \
                 with `smartctl -d sat -g wcache` where it passes ATA commands through)",
            ),
            &d.write_cache_enabled,
            en_s,
        );
    }
    if d.write_cache_supported.get() == Some(false) {
        return cite(
            common::not_applicable(ID, d, "the drive reports no volatile write cache"),
            &d.write_cache_supported,
            "write_cache_supported=no",
        );
    }
    if enabled {
        // FreeBSD ada(4): a kern.cam.ada.N.write_cache setting that disagrees with the drive
        // takes effect only at the next probe or bus reset (facts/freebsd.rs, ata_da.c).
        let pending: Vec<&String> = d
            .notes
            .iter()
            .filter(|n| n.contains("write_cache = 0: ada(4) is configured"))
            .collect();
        let mut text = "The drive's write cache is on: it acknowledges writes once they are in \
                        its RAM and writes them to the media in an efficient order."
            .to_string();
        for n in pending {
            text.push_str(&format!(
                " Note: {n}; after that reset the cache will be off and writes slower."
            ));
        }
        return cite(
            common::pass(ID, d, "write cache enabled: good").explain(&text),
            &d.write_cache_enabled,
            en_s,
        );
    }
    let raid = common::is_raid_volume(d);
    let mut expl = String::new();
    if raid {
        expl.push_str(
            "The RAID controller runs this volume write-through: every write waits until the \
             member drives have it on the media. ",
        );
    } else {
        expl.push_str(
            "The drive's write cache is off, so every write waits until it is on the media: an \
             HDD then waits for the platter to come round for each request instead of \
             collecting writes in its RAM and writing them in one sweep. ",
        );
    }
    expl.push_str(
        "Seed 000 measured this on a WD5001ABYS under FreeBSD: sustained writes of 75 MB/s \
         with the cache on and 13 MB/s with hw.ata.wc=0, about 6 times slower. Reads are not \
         affected. ",
    );
    if d.write_cache_supported.get().is_none() {
        expl.push_str(&format!(
            "Whether the drive can turn it on is unknown ({}); most drives can. ",
            common::why(&d.write_cache_supported)
        ));
    }
    expl.push_str(
        "Workload matters: for bulk writes, turn it on. For many small synchronous writes \
         (databases, mail queues, NFS, VMs using fsync) on a drive without power-loss \
         protection and without a UPS, some admins keep it off on purpose, because a power cut \
         loses what the drive had only in RAM; the faster, safe setup there is a UPS, or an \
         SSD with power-loss protection, with the cache on.",
    );
    // A RAID volume's write policy is the controller's (write-through or write-back per
    // volume, StorCLI reference "WT"/"WB"), not a drive cache left off: many admins choose
    // write-through for a volume without cache protection, and the members' own caches are
    // the controller's to set. When the controller's own listing shows the policy and no
    // cache protection in trouble, it is information, with what it costs and how to change
    // it. Seen only from the OS (a LUN whose SCSI caching page says WCE=0), or with a failed
    // or charging BBU/CacheVault (the usual fallback from write-back), nothing says it was
    // chosen, and it stays a warning. A controller that shows it turned the cache off against
    // the policy it was set to (MegaCli's current policy WriteThrough under a WriteBack
    // default, HPE "Cache Status: Temporarily Disabled") proves it was not chosen.
    let policy_listed = d.notes.iter().any(|n| n.contains(" write policy: "));
    let fell_back = d
        .notes
        .iter()
        .any(|n| n.contains("turned this write cache off itself"));
    let protection_trouble = d.notes.iter().any(|n| {
        n.contains("cache protection (BBU/CacheVault) reports")
            && ["fail", "charg", "degrad", "missing", "bad", "absent"]
                .iter()
                .any(|w| n.to_ascii_lowercase().contains(w))
    });
    let chosen = raid && policy_listed && !protection_trouble && !fell_back;
    let severity = if chosen {
        Severity::Info
    } else {
        Severity::Warning
    };
    // The controller tool's own words (facts::pasted::raid_tools): the line, why, the backup.
    for n in d.notes.iter().filter(|n| {
        n.contains(" write policy: ") || n.contains("cache protection (BBU/CacheVault) reports")
    }) {
        expl.push_str(&format!(" From the pasted output: {n}."));
    }
    if raid && fell_back {
        expl.push_str(
            " The controller turned its write cache off itself: its battery or flash backup \
             is failed, charging, in a learn cycle or not accepted (or the cache module \
             failed), and it writes through until that is healthy again.",
        );
    } else if raid {
        expl.push_str(
            " On a RAID volume this is the controller's write policy for the volume, which \
             its owner may have chosen; switch to write-back only with a healthy cache \
             battery or flash module.",
        );
    }
    let mut f = Finding::new(
        ID,
        &d.name,
        Verdict::Problem,
        severity,
        if raid && d.notes.iter().any(|n| n == WHOLE_CONTROLLER_NOTE) {
            // HPE's and Adaptec's "Cache Status" belong to the controller, not one volume.
            format!(
                "{}: controller write cache off (every volume on it writes through)",
                d.name
            )
        } else if raid {
            format!(
                "{}: RAID volume in write-through mode (controller write cache off)",
                d.name
            )
        } else {
            format!("{}: write cache disabled", d.name)
        },
    )
    .explain(expl)
    .confidence(Confidence::Medium)
    .impact(0.8);
    f = cite(f, &d.write_cache_enabled, en_s);
    if d.write_cache_supported.get() == Some(true) {
        f = cite(f, &d.write_cache_supported, "write_cache_supported=yes");
    }
    for fix in fixes(sys.platform, d, raid, fell_back) {
        f = f.fix(fix);
    }
    f
}

fn fixes(platform: Platform, d: &DiskFacts, raid: bool, fell_back: bool) -> Vec<Fix> {
    let name = &d.name;
    let dev = if d.dev_path.is_empty() {
        format!("/dev/{name}")
    } else {
        d.dev_path.clone()
    };
    if raid && fell_back && platform != Platform::Unknown {
        return vec![Fix {
            platform,
            summary: "restore the cache's backup power; the controller then writes back again"
                .to_string(),
            steps: vec![
                "See why: `ssacli ctrl all show status` (Cache Status Details, \
                 Battery/Capacitor Status), `MegaCli64 -AdpBbuCmd -aALL`, `storcli /c0/bbu \
                 show all` or `storcli /c0/cv show all`, `arcconf getconfig 1 ad`"
                    .to_string(),
                "Replace a failed or incompatible battery, capacitor or cache module; one \
                 that is charging or in a learn cycle recovers by itself"
                    .to_string(),
            ],
            risk: "forcing write-back without backup power (Always WriteBack, No-Battery \
                   Write Cache) loses the controller's cached writes on power loss"
                .to_string(),
        }];
    }
    if raid {
        return match platform {
            Platform::Unknown => Vec::new(),
            _ => vec![Fix {
                platform,
                summary: "switch the volume to write-back, only with a healthy cache battery"
                    .to_string(),
                steps: vec![
                    "Check the controller's battery/flash backup: `storcli /c0/bbu show` or \
                     `storcli /c0/cv show` (MegaRAID; mfiutil show battery on FreeBSD mfi)"
                        .to_string(),
                    "If present and healthy: `storcli /c0/v0 set wrcache=wb` (the volume \
                     number from `storcli /c0/vall show`)"
                        .to_string(),
                ],
                risk: "without a working battery or flash backup, write-back loses the \
                       controller's cached writes on power loss and can corrupt the array"
                    .to_string(),
            }],
        };
    }
    match platform {
        Platform::Linux => {
            let nvme = is_nvme(d);
            if nvme {
                return vec![Fix {
                    platform,
                    summary: "enable the NVMe volatile write cache (feature 06h)".to_string(),
                    steps: vec![
                        format!("`nvme get-feature {dev} -f 6` (nvme-cli) shows the state"),
                        format!("`nvme set-feature {dev} -f 6 -v 1` enables it"),
                    ],
                    risk: RISK.to_string(),
                }];
            }
            let ata = d.is_ata() || d.transport.get() == Some(Transport::Sata);
            let mut v = Vec::new();
            if ata {
                v.push(Fix {
                    platform,
                    summary: "turn the cache on now with hdparm".to_string(),
                    steps: vec![
                        format!("`hdparm -W1 {dev}`"),
                        format!("Check: `hdparm -W {dev}` prints \"write-caching = 1 (on)\""),
                    ],
                    risk: RISK.to_string(),
                });
                v.push(Fix {
                    platform,
                    summary: "keep it on across reboots with a udev rule".to_string(),
                    steps: vec![
                        format!(
                            "Find the drive's serial: `udevadm info --query=property \
                             --name={dev} | grep ^ID_SERIAL=`"
                        ),
                        "Create /etc/udev/rules.d/69-write-cache.rules with: \
                         ACTION==\"add|change\", SUBSYSTEM==\"block\", \
                         ENV{ID_SERIAL}==\"<that serial>\", RUN+=\"/usr/sbin/hdparm -W1 \
                         /dev/%k\""
                            .to_string(),
                        "`udevadm control --reload` (Debian's hdparm package can do the same \
                         with `write_cache = on` in /etc/hdparm.conf)"
                            .to_string(),
                    ],
                    risk: RISK.to_string(),
                });
            } else {
                v.push(Fix {
                    platform,
                    summary: "set the SCSI caching mode page's WCE bit".to_string(),
                    steps: vec![
                        format!("`sdparm --set WCE=1 --save {dev}`"),
                        format!("Check: `sdparm --get WCE {dev}`"),
                    ],
                    risk: RISK.to_string(),
                });
            }
            v.push(Fix {
                platform,
                summary: "or through sysfs (lost at reboot)".to_string(),
                steps: vec![format!(
                    "`for f in /sys/block/{name}/device/scsi_disk/*/cache_type; do echo \"write \
                     back\" > \"$f\"; done`"
                )],
                risk: RISK.to_string(),
            });
            v
        }
        Platform::Freebsd => {
            if is_freebsd_legacy_ad(name) {
                vec![Fix {
                    platform,
                    summary: "re-enable the write cache of the ata(4) driver".to_string(),
                    steps: vec![
                        "In /boot/loader.conf remove `hw.ata.wc=\"0\"` or set `hw.ata.wc=\"1\"`"
                            .to_string(),
                        "Reboot (hw.ata.wc is read when the disk attaches)".to_string(),
                        format!("Check: `atacontrol cap {name}` shows write cache yes yes"),
                    ],
                    risk: RISK.to_string(),
                }]
            } else if name.starts_with("da") {
                vec![Fix {
                    platform,
                    summary: "set WCE in the caching mode page".to_string(),
                    steps: vec![
                        format!(
                            "`{}`, set WCE to 1, save",
                            ask(Ask::CamEditCachingPage, name)
                        ),
                        format!("Check: `{}` shows WCE: 1", ask(Ask::CamCachingPage, name)),
                    ],
                    risk: RISK.to_string(),
                }]
            } else {
                let unit: String = name.chars().filter(|c| c.is_ascii_digit()).collect();
                let unit = if unit.is_empty() {
                    "N".to_string()
                } else {
                    unit
                };
                vec![Fix {
                    platform,
                    summary: "enable the write cache through ada(4)".to_string(),
                    steps: vec![
                        format!(
                            "Add `kern.cam.ada.{unit}.write_cache=\"1\"` to /boot/loader.conf \
                             (or `kern.cam.ada.write_cache=\"1\"` for all disks) and remove any \
                             `=\"0\"` line"
                        ),
                        "Reboot: the setting is applied when the disk is probed or reset"
                            .to_string(),
                        format!(
                            "Check: `{}` shows \"write cache  yes  yes\"",
                            ask(Ask::CamIdentify, name)
                        ),
                    ],
                    risk: RISK.to_string(),
                }]
            }
        }
        Platform::Unknown => Vec::new(),
    }
}

#[cfg(test)]
mod tests;
