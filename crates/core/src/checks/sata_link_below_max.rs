//! `sata-link-below-max`: the negotiated SATA link is slower than both the drive and the
//! port support. References: ATA/ACS-3 IDENTIFY words 76 (supported generations) and 77
//! (current speed), AHCI 1.3.1 PxSSTS.SPD / PxSCTL.SPD, Linux sysfs ata_link sata_spd and
//! hw_sata_spd_limit, FreeBSD ahci(4) `hint.ahcich.X.sata_rev`.

use crate::checks::common::{
    self, Media, Source, cite, gbps, how_to_know, link_ceiling_mb_s, media,
};
use crate::checks::{Check, Confidence, Finding, Fix, Severity, Verdict};
use crate::evidence::Platform;
use crate::facts::{DiskFacts, KernelEventKind, SystemFacts, Transport};
use crate::sources::{ask, spec::Ask};

pub const ID: &str = "sata-link-below-max";

pub(crate) struct SataLinkBelowMax;

impl Check for SataLinkBelowMax {
    fn id(&self) -> &'static str {
        ID
    }
    fn label(&self) -> &'static str {
        "SATA link"
    }
    fn summary(&self) -> &'static str {
        "SATA link negotiated below what both drive and port support (cable, port, limit)"
    }
    fn run(&self, sys: &SystemFacts) -> Vec<Finding> {
        common::disks(sys).map(|d| check_disk(sys, d)).collect()
    }
}

/// The fastest SATA generation (SATA 3.x, 6 Gb/s).
const SATA_MAX_GBPS: f64 = 6.0;

/// Whether the link is slower than the hardware allows: `Some(max)` when it is.
/// Used by `link-errors` to tie the two findings together.
pub(crate) fn below_max(d: &DiskFacts) -> Option<f64> {
    let cur = d.link_current_gbps.get()?;
    let drive = d.link_drive_max_gbps.get()?;
    let max = match d.link_port_max_gbps.get() {
        Some(p) => drive.min(p),
        None => drive,
    };
    // Require a whole generation's difference so rounding never triggers it.
    (cur + 0.5 < max && d.link_port_max_gbps.is_known()).then_some(max)
}

/// Typical best sequential rate of the device class, MB/s, for "can it exceed the ceiling".
/// Figures: 7200 rpm 3.5" HDDs of the 2010s-2020s reach ~200-280 MB/s on the outer tracks
/// (seed 002's WD4002FYYZ wrote 191 MB/s through GELI, seed 003's DT01ACA300 read 176 MB/s
/// outside with diskinfo -t); 5400 rpm ~150-200 MB/s; SATA SSDs ~500-560 MB/s.
fn class_peak_mb_s(d: &DiskFacts) -> Option<(u32, &'static str)> {
    match media(d)? {
        Media::Ssd => Some((550, "A SATA SSD reads about 500-560 MB/s")),
        Media::Hdd => match d.rotation_rpm.get() {
            Some(rpm) if rpm > 1 && rpm < 7000 => {
                Some((200, "A 5400-5900 rpm HDD reads at most about 150-200 MB/s"))
            }
            _ => Some((
                280,
                "A 7200 rpm HDD reads at most about 200-280 MB/s on its outer tracks",
            )),
        },
    }
}

pub(crate) fn check_disk(sys: &SystemFacts, d: &DiskFacts) -> Finding {
    // Behind a USB bridge the SATA link is the one between the drive and the bridge's SATA
    // port: when the drive's IDENTIFY came through the bridge (smartctl -d sat/usbjmicron
    // prints "SATA Version is: ..., 6.0 Gb/s (current: 1.5 Gb/s)"), that link is known and
    // caps the drive like any port's.
    let usb_link = common::is_usb(d) && d.link_current_gbps.is_known();
    if let Some(reason) = common::sata_not_applicable(d)
        && !usb_link
    {
        return common::not_applicable(ID, d, &reason);
    }
    if let Some(m) = d.pata_mode.value() {
        return pata_limited(d, m, &ports_alike(sys, d, m));
    }
    if d.transport.get() == Some(Transport::Pata) {
        return common::not_applicable(ID, d, "a parallel ATA drive has no SATA link");
    }
    let Some(cur) = d.link_current_gbps.get() else {
        return common::unknown(
            ID,
            d,
            format!("SATA link speed of {} unknown", d.name),
            "The negotiated SATA link speed",
            &common::why(&d.link_current_gbps),
            &how_to_know(sys.platform, Source::Identify, d),
        );
    };
    let cur_s = format!("link_current={} Gb/s", gbps(cur));
    let drive = d.link_drive_max_gbps.get();
    let port = d.link_port_max_gbps.get();

    let Some(drive) = drive else {
        if cur + 0.01 >= SATA_MAX_GBPS {
            return cite(
                common::pass(
                    ID,
                    d,
                    format!("{} Gb/s link, the fastest SATA generation: good", gbps(cur)),
                )
                .explain(format!(
                    "The link runs at {} Gb/s (up to {} MB/s), the fastest SATA generation.",
                    gbps(cur),
                    link_ceiling_mb_s(cur)
                )),
                &d.link_current_gbps,
                cur_s,
            );
        }
        // Only a maximum the kernel log proves with another port's link (a drive that
        // reports no generation, as QEMU's emulated ones do, stays unknown beside a port
        // maximum read from sysfs or the adapter).
        // (FreeBSD reads a port maximum from the adapter's attach line in the same log.)
        if let Some(port) = port.filter(|p| {
            cur + 0.5 < *p
                && sys.platform != Platform::Freebsd
                && d.link_port_max_gbps
                    .sources()
                    .iter()
                    .any(|k| crate::sources::kernel_log::LINUX_SPEC.captures(k))
        }) {
            return below_proven_port(sys, d, cur, port);
        }
        let f = common::unknown(
            ID,
            d,
            format!(
                "{}: link at {} Gb/s, drive's maximum unknown",
                d.name,
                gbps(cur)
            ),
            &format!(
                "The link runs at {} Gb/s (up to {} MB/s), but the fastest speed the drive \
                 supports (IDENTIFY word 76)",
                gbps(cur),
                link_ceiling_mb_s(cur)
            ),
            &format!(
                "{} (emulated drives such as QEMU's report no SATA generation at all)",
                common::why(&d.link_drive_max_gbps)
            ),
            &how_to_know(sys.platform, Source::Identify, d),
        );
        return cite(f, &d.link_current_gbps, cur_s);
    };

    let drive_s = format!("link_drive_max={} Gb/s", gbps(drive));
    if cur + 0.5 >= drive {
        return cite(
            cite(
                common::pass(
                    ID,
                    d,
                    format!("{} Gb/s link, the most the drive supports: good", gbps(cur)),
                )
                .explain(if cur > drive + 0.5 {
                    format!(
                        "The link runs at {} Gb/s (up to {} MB/s), above the {} Gb/s the drive \
                         lists as its maximum: its IDENTIFY words disagree (a firmware quirk), \
                         but the link is not slow.",
                        gbps(cur),
                        link_ceiling_mb_s(cur),
                        gbps(drive)
                    )
                } else {
                    format!(
                        "The link runs at {} Gb/s (up to {} MB/s), the drive's fastest speed.",
                        gbps(cur),
                        link_ceiling_mb_s(cur)
                    )
                }),
                &d.link_current_gbps,
                cur_s,
            ),
            &d.link_drive_max_gbps,
            drive_s,
        );
    }
    let Some(port) = port else {
        // The drive's own words prove the link is below what it supports; only the port's
        // maximum is missing (smartctl never prints it). Say what is known, at notice
        // severity and low confidence, and what would settle it.
        let board = sys
            .cpu_model
            .value()
            .filter(|m| crate::facts::soc::sata_only_over_usb(m));
        let settle = match sys.platform {
            _ if usb_link || board.is_some() => {
                "the port here is the USB bridge's SATA side: the bridge chip's \
                              SATA generation (its data sheet), or the same drive in another \
                              enclosure, would show whether it allows more"
                    .to_string()
            }
            Platform::Freebsd => "the ahciN line of /var/run/dmesg.boot (it lists the ports' \
                                  Gbps) or `sysctl dev.ahci` would show whether the port \
                                  allows more"
                .to_string(),
            Platform::Linux => format!(
                "`cat /sys/class/ata_link/*/hw_sata_spd_limit` (or the `ahci ... Gbps` line of \
                 dmesg) would show whether the port of {} allows more",
                d.name
            ),
            Platform::Unknown => "the controller's line in the boot log (FreeBSD `ahciN: ... \
                                  Gbps`, Linux `ahci ... N Gbps`) would show whether the port \
                                  allows more"
                .to_string(),
        };
        let ceiling = link_ceiling_mb_s(cur);
        let hdd = hdd_below_ceiling(d, ceiling);
        let usb = hdd
            .is_none()
            .then(|| usb_side(d, board.map(String::as_str), ceiling, usb_link))
            .flatten();
        let unproven = if hdd.is_none() && usb.is_none() {
            class_unknown_at_sata2(d, cur)
        } else {
            None
        };
        let soc = if hdd.is_none() && unproven.is_none() && usb.is_none() && !usb_link {
            soc_port_at_sata2(sys, d, cur)
        } else {
            None
        };
        let unproven = usb.or(unproven).or(soc);
        let f = Finding::new(
            ID,
            &d.name,
            Verdict::Problem,
            if hdd.is_some() || unproven.is_some() {
                Severity::Info
            } else {
                Severity::Notice
            },
            format!(
                "{}: SATA link at {} Gb/s, below the {} Gb/s the drive supports (the port's \
                 maximum is unknown)",
                d.name,
                gbps(cur),
                gbps(drive)
            ),
        )
        .explain(format!(
            "The link between the port and {} negotiated {} Gb/s, which carries at most {} \
             MB/s, although the drive supports {} Gb/s. Either the port (controller) is of the \
             older generation, and the drive is as fast as that port allows, or cable, \
             connector or link power management hold it down. Whether the port allows more is \
             unknown: {}.{}",
            d.name,
            gbps(cur),
            ceiling,
            gbps(drive),
            settle,
            hdd.or(unproven)
                .map(|w| format!(" {w}"))
                .unwrap_or_default()
        ))
        .confidence(Confidence::Low)
        .impact(0.2);
        return cite(
            cite(f, &d.link_current_gbps, cur_s),
            &d.link_drive_max_gbps,
            drive_s,
        );
    };
    let port_s = format!("link_port_max={} Gb/s", gbps(port));
    let max = drive.min(port);
    if cur + 0.5 >= max {
        let mut f = common::pass(
            ID,
            d,
            format!(
                "{} Gb/s link, the most drive and port both support: good",
                gbps(cur)
            ),
        )
        .explain(if port + 0.5 < drive {
            format!(
                "The link runs at {} Gb/s (up to {} MB/s), the port's fastest speed; the drive \
                 could do {} Gb/s on a faster port.",
                gbps(cur),
                link_ceiling_mb_s(cur),
                gbps(drive)
            )
        } else {
            format!(
                "The link runs at {} Gb/s (up to {} MB/s), the fastest drive and port support.",
                gbps(cur),
                link_ceiling_mb_s(cur)
            )
        });
        f = cite(f, &d.link_current_gbps, cur_s);
        f = cite(f, &d.link_drive_max_gbps, drive_s);
        return cite(f, &d.link_port_max_gbps, port_s);
    }
    problem(sys, d, cur, drive, port, max)
}

/// The SATA link of a drive behind a USB bridge (known USB, or a board whose only way to a
/// SATA drive is USB: facts::soc::sata_only_over_usb), said as information when the USB
/// side may be the slower one: a USB 2.0 link (480 Mbit/s, about 35-40 MB/s of data after
/// Bulk-Only overhead) is slower than any SATA generation, so the SATA speed costs nothing
/// there; a Raspberry Pi of unstated USB speed is a Pi 1-3 (USB 2.0 only) or a Pi 4 (USB
/// 3.0, where the bridge's SATA side can cap reads).
fn usb_side(d: &DiskFacts, board: Option<&str>, ceiling: u32, usb_link: bool) -> Option<String> {
    let speed = d.controller.value().and_then(|c| c.usb_speed_mbps);
    match (speed, board) {
        (Some(u), _) if u <= 480.0 && (usb_link || board.is_some()) => Some(format!(
            "The drive hangs off a USB bridge on a {u} Mbit/s link, which carries at most \
             about 40 MB/s: slower than this SATA link's {ceiling} MB/s, so the SATA speed \
             costs nothing here."
        )),
        (None, Some(m)) => Some(format!(
            "The machine ({m}) is a Raspberry Pi with no SATA port and no PCIe lane for one, \
             so the drive hangs off a USB bridge and this link is the bridge's SATA side. \
             Behind the USB 2.0 ports of a Pi 1, 2 or 3 (about 35-40 MB/s) it costs nothing; \
             behind a Pi 4's USB 3.0 port it caps reads at {ceiling} MB/s."
        )),
        _ => None,
    }
}

/// A link at 3 Gb/s on an ARM (or RISC-V) machine whose port maximum is unknown: such
/// machines mostly run their disks from the SoC's own AHCI port, and most of those are SATA II
/// (3 Gb/s) ports: NXP i.MX6 (i.MX 6Dual/6Quad reference manual, SATA "3.0 Gbps", Linux
/// drivers/ata/ahci_imx.c), Allwinner A10/A20 (drivers/ata/ahci_sunxi.c), Marvell Kirkwood
/// and Armada 370/XP (drivers/ata/sata_mv.c, ahci_mvebu.c), NVIDIA Tegra K1
/// (drivers/ata/ahci_tegra.c, "3 Gbps" in its AHCI line). A drive linked at 3 Gb/s there is
/// most likely at the port's ceiling, so this is said as information; the kernel's AHCI
/// line ("ahci-imx 2200000.sata: AHCI 0001.0300 32 slots 1 ports 3 Gbps ...") settles it.
/// Not when the link shows errors: then the slow link may be a bad cable's.
fn soc_port_at_sata2(sys: &SystemFacts, d: &DiskFacts, cur: f64) -> Option<String> {
    let m = sys.cpu_model.value()?;
    let soc = crate::facts::soc::is_soc_machine(m) && (cur - 3.0).abs() < 0.01;
    (soc && !link_trouble(d)).then(|| {
        format!(
            "The machine is an ARM or similar board ({m}), whose SATA port is usually the \
             SoC's own, and many of those (i.MX6, Allwinner A10/A20, Marvell Kirkwood and \
             Armada 370/XP, Tegra K1) are SATA II ports of 3 Gb/s: the link is then at the \
             port's ceiling, and a faster port would give up to about 550 MB/s to an SSD. \
             The kernel's AHCI line (`dmesg | grep -i ahci`, \"... N Gbps ...\") names the \
             port's maximum."
        )
    })
}

/// Whether the kernel said why the mode is UDMA/33: libata's "limited to UDMA/33 due to
/// 40-wire cable" (ata_dev_xfermask, 2.6.19 on) or the old IDE driver's cable line. A bare
/// "configured for UDMA/33" (libata of 2.6.17 printed no reason) leaves the cause open.
fn cause_printed(m: &crate::model::PataMode) -> bool {
    m.line.contains("40-wire") || m.line.contains("80-wire") || m.line.contains("cable")
}

/// The other disks of the same log (the same capture) held at the same UDMA mode below what
/// drive and host support, with no cable reason printed for any of them. Each parallel-ATA
/// port has its own cable, so one port at UDMA/33 may well have an old 40-wire cable, but
/// every disk port of a host held there at once points at the host: its cable detection or
/// the driver's mode choice (lkml 2006-08 "sata_promise / libata defaulting to UDMA/33": a
/// libata bug Alan Cox called "cable confusion", fixed in 2.6.18). Returns their names.
fn ports_alike(sys: &SystemFacts, d: &DiskFacts, m: &crate::model::PataMode) -> Vec<String> {
    let held = |x: &crate::model::PataMode| {
        x.faster_elsewhere.is_none()
            && !cause_printed(x)
            && x.current_udma_mb_s.is_some()
            && x.current_udma_mb_s == m.current_udma_mb_s
            && x.drive_max_udma_mb_s
                .zip(x.current_udma_mb_s)
                .is_some_and(|(a, c)| a > c)
            && x.host_max_udma_mb_s
                .zip(x.current_udma_mb_s)
                .is_some_and(|(a, c)| a > c)
    };
    if !held(m) {
        return Vec::new();
    }
    let src = d.pata_mode.sources().first().cloned();
    sys.disks
        .iter()
        .filter(|o| o.name != d.name)
        .filter(|o| o.pata_mode.sources().first().cloned() == src)
        .filter(|o| o.pata_mode.value().is_some_and(held))
        .map(|o| o.name.clone())
        .collect()
}

/// A parallel-ATA disk whose Ultra DMA mode is held below what both drive and host support:
/// the same fault class as a slow SATA link (cable, port, limit), on the older bus. The
/// 80-conductor cable is what UDMA/44 and faster need (ATA/ATAPI-5 section 9.13; libata
/// checks it in ata_dev_xfermask and prints "limited to UDMA/33 due to 40-wire cable").
/// Information when the cable may really be a 40-wire one: the kernel's detection is
/// usually right, the cap is then the machine's known configuration, and what it costs
/// depends on whether the disk reads faster than 33 MB/s, which no line here measures
/// (old threads quoting the line for other troubles never raise it). A warning when the
/// same drive ran a faster mode under another driver in the same paste: the detection is
/// wrong and one boot option gives the speed back. A notice when every disk port of the
/// host is held the same way with no reason printed (`alike`, [`ports_alike`]).
fn pata_limited(d: &DiskFacts, m: &crate::model::PataMode, alike: &[String]) -> Finding {
    let Some(cur) = m.current_udma_mb_s else {
        return common::not_applicable(ID, d, "a parallel ATA drive has no SATA link");
    };
    let max = match (m.drive_max_udma_mb_s, m.host_max_udma_mb_s) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    if max.is_some_and(|x| x <= cur) {
        return common::pass(
            ID,
            d,
            format!("parallel ATA at UDMA/{cur}, the most drive and host support: good"),
        );
    }
    let who = m
        .model
        .as_deref()
        .map(|x| format!(" ({x})"))
        .unwrap_or_default();
    let maxima = match (m.drive_max_udma_mb_s, m.host_max_udma_mb_s) {
        (Some(a), Some(b)) => format!("the drive supports UDMA/{a} and the host UDMA/{b}"),
        (Some(a), None) => format!("the drive supports UDMA/{a}"),
        (None, Some(b)) => format!("the host supports UDMA/{b}"),
        (None, None) => "drive and host support faster modes".to_string(),
    };
    let (severity, confidence, cause, steps) = match &m.faster_elsewhere {
        None if !alike.is_empty() => (
            Severity::Notice,
            Confidence::Medium,
            format!(
                "The kernel printed no reason for the mode, and {} of the same host {} held \
                 at UDMA/{cur} too although {} drive{} support{} more. Each port has its own \
                 cable, so every disk port at UDMA/{cur} at once points at the host's cable \
                 detection or the driver's mode choice rather than at {} old cable{} (a \
                 libata of 2.6.17 did this to whole Promise cards, fixed in 2.6.18).",
                alike.join(", "),
                if alike.len() == 1 { "is" } else { "are" },
                if alike.len() == 1 { "its" } else { "their" },
                if alike.len() == 1 { "" } else { "s" },
                if alike.len() == 1 { "s" } else { "" },
                alike.len() + 1,
                "s"
            ),
            vec![
                "Boot a newer kernel (libata's cable detection was fixed for these hosts in \
                 2.6.18) and check dmesg says \"configured for UDMA/100\" or faster"
                    .to_string(),
                "If the cables are 80-conductor ones (blue connector at the board) and the \
                 mode stays low: boot with libata.force=PORT:80c (kernel-parameters.txt)"
                    .to_string(),
            ],
        ),
        // A channel whose cable was detected as 80-conductor: the cable allows UDMA/66 and
        // up, so the drive's own top mode or the driver's choice holds it (or the driver
        // misreads which channel has which cable). Whether the drive can go faster is not
        // known here, so information, as a 40-wire cap is.
        None if !m.cable_40_wire => (
            Severity::Info,
            Confidence::Low,
            "The channel reports an 80-conductor cable, which allows UDMA/66 and faster, so \
             the cable does not explain the mode: either the drive's own top mode is this one \
             (`hdparm -i` lists its UDMA modes, the active one starred), or the driver chose \
             a lower mode or misreads the channel's cable."
                .to_string(),
            vec![
                "Read the drive's supported modes with `hdparm -i` (the UDMA list)".to_string(),
                "If it supports a faster mode, set it with `hdparm -X udma5` or boot with \
                 libata.force=PORT:udma100 (kernel-parameters.txt) and watch dmesg for CRC \
                 errors"
                    .to_string(),
            ],
        ),
        Some(line) => (
            Severity::Warning,
            Confidence::High,
            format!(
                "The same drive ran faster under the other driver in this paste (\"{line}\"), so \
                 the cable carries more: the 40-wire detection is wrong (a host's cable-detect \
                 pin or BIOS flag misread, as on some AMD and embedded boards)."
            ),
            vec![
                format!(
                    "Tell libata the cable is 80-wire: boot with libata.force={}:80c \
                     (Documentation/admin-guide/kernel-parameters.txt, libata.force)",
                    d.name.strip_prefix("ata").unwrap_or("PORT")
                ),
                "Check the new mode in dmesg (\"configured for UDMA/100\") and with `hdparm -i`"
                    .to_string(),
            ],
        ),
        None => (
            Severity::Info,
            Confidence::Medium,
            "A 40-wire cable (or a host that detects one) allows UDMA/33 at most; UDMA/44 and \
             faster need the 80-conductor cable (ATA/ATAPI-5 section 9.13). If the cable is an \
             80-wire one with the blue connector on the board, the detection is wrong."
                .to_string(),
            vec![
                "Fit an 80-conductor (UDMA/66+) IDE cable, blue connector at the board, and \
                 reboot"
                    .to_string(),
                "If it already is one: boot with libata.force=PORT:80c (kernel-parameters.txt)"
                    .to_string(),
            ],
        ),
    };
    let f = Finding::new(
        ID,
        &d.name,
        Verdict::Problem,
        severity,
        if !alike.is_empty() {
            format!(
                "{}{who}: parallel ATA at UDMA/{cur} like the host's other disk ports, {maxima}",
                d.name
            )
        } else if m.cable_40_wire || m.faster_elsewhere.is_some() {
            format!(
                "{}{who}: parallel ATA held at UDMA/{cur} by a 40-wire cable, {maxima}",
                d.name
            )
        } else {
            format!(
                "{}{who}: parallel ATA at UDMA/{cur} on an 80-wire channel, {maxima}",
                d.name
            )
        },
    )
    .explain(format!(
        "The kernel reports \"{}\": the disk's transfers are capped at {cur} MB/s although \
         {maxima}. {cause} A disk reading more than {cur} MB/s from its media loses the \
         difference on every sequential read and write (`hdparm -t` shows whether it does).",
        m.line
    ))
    .confidence(confidence)
    .impact(0.3)
    .fix(Fix {
        platform: Platform::Linux,
        summary: if !alike.is_empty() {
            "let the host's disks run their fastest UDMA modes".to_string()
        } else if m.cable_40_wire || m.faster_elsewhere.is_some() {
            "give the disk its 80-wire mode".to_string()
        } else {
            "let the disk run its fastest UDMA mode".to_string()
        },
        steps,
        risk: "a forced 80c on a real 40-wire cable gives UDMA CRC errors and resets; undo \
               it if dmesg shows them"
            .to_string(),
    });
    cite(f, &d.pata_mode, m.line.clone())
}

/// Kernel link events or UDMA CRC errors on this disk: evidence that the link itself, not
/// the port's generation, may hold the speed down.
fn link_trouble(d: &DiskFacts) -> bool {
    d.kernel_events
        .iter()
        .any(|e| crate::checks::common::is_link_event(e.kind))
        || d.smart
            .value()
            .and_then(|s| s.udma_crc_errors)
            .is_some_and(|n| n > 0)
}

/// A SATA 2 link (3 Gb/s, 300 MB/s) on a drive of unknown class behind a port of unknown
/// generation, with no link errors: the words prove only that the drive supports more. The
/// commonest reason is a 3 Gb/s port (the ICH7-ICH10 and SB7x0 chipsets, the Atom/Celeron
/// J1900-class SoCs, the four SATA 2 ports next to two SATA 3 ones on Intel 6/7-series
/// boards), which is the link working as built; a rotating disk does not fill 300 MB/s, and
/// whether this one is an SSD that would is unknown. Information, then, with what would
/// settle it; 1.5 Gb/s (150 MB/s) stays a notice, since ports of that generation are rare
/// and it caps any disk made since about 2008.
fn class_unknown_at_sata2(d: &DiskFacts, cur: f64) -> Option<String> {
    if media(d).is_some() || link_trouble(d) || cur + 0.5 < 3.0 {
        return None;
    }
    Some(
        "Nothing here says whether the disk is rotating (no rotation rate was read) and no link \
         error is recorded: a 3 Gb/s port is the commonest reason for this speed, and a \
         rotating disk does not fill the 300 MB/s it carries; an SSD would be capped, so if \
         this is one, move it to a 6 Gb/s port."
            .to_string(),
    )
}

/// A rotating disk whose media rate is below the link's ceiling: the slower link costs it
/// nothing it could use (a 7200 rpm disk reads at most ~280 MB/s, SATA 2 carries 300 MB/s),
/// so the finding is information, not a problem to act on. The sentence that says why.
/// Not when the link shows errors (kernel link events, UDMA CRC counts): then the slow link
/// is a symptom of a bad cable or port, and worth acting on whatever the disk's speed.
fn hdd_below_ceiling(d: &DiskFacts, ceiling: u32) -> Option<String> {
    if link_trouble(d) {
        return None;
    }
    match (media(d)?, class_peak_mb_s(d)?) {
        (Media::Hdd, (peak, words)) if peak <= ceiling => Some(format!(
            "{words}, below the {ceiling} MB/s this link carries: the slower link does not \
             limit this rotating disk's reads and writes."
        )),
        _ => None,
    }
}

/// A link below a port whose maximum is proven (a pasted boot log where another port of the
/// same AHCI adapter linked at the adapter's top speed, kernel_log::ahci_port_links) while
/// the drive's own maximum is not in the paste (libata's "ataN.00: ATA-8: MODEL, FW, max
/// UDMA/133" line does not give the SATA generation). Either the drive is of the older
/// generation, or cable, connector or link power management hold the link down: the
/// step-down an expert reads from one port slower than its neighbours. A notice at low
/// confidence; information for a rotating disk the slower link does not limit.
fn below_proven_port(sys: &SystemFacts, d: &DiskFacts, cur: f64, port: f64) -> Finding {
    let ceiling = link_ceiling_mb_s(cur);
    let hdd = hdd_below_ceiling(d, ceiling);
    let f = Finding::new(
        ID,
        &d.name,
        Verdict::Problem,
        if hdd.is_some() {
            Severity::Info
        } else {
            Severity::Notice
        },
        format!(
            "{}: SATA link at {} Gb/s ({ceiling} MB/s) on a port that runs at {} Gb/s",
            d.name,
            gbps(cur),
            gbps(port)
        ),
    )
    .explain(format!(
        "The link between the port and {} negotiated {} Gb/s, which carries at most {ceiling} \
         MB/s, while a port of the same controller linked at {} Gb/s, so the controller \
         and the board allow it. The drive's own maximum is not in what was pasted: either \
         it is a drive of the older SATA generation, or the cable, the connector or link \
         power management hold the link down. `smartctl -i` on the drive (\"SATA Version \
         is: ..., 6.0 Gb/s (current: 3.0 Gb/s)\") settles which.{}",
        d.name,
        gbps(cur),
        gbps(port),
        hdd.map(|w| format!(" {w}")).unwrap_or_default()
    ))
    .confidence(Confidence::Low)
    .impact(0.2);
    let f = [
        (
            &d.link_current_gbps,
            format!("link_current={} Gb/s", gbps(cur)),
        ),
        (
            &d.link_port_max_gbps,
            format!("link_port_max={} Gb/s", gbps(port)),
        ),
    ]
    .into_iter()
    .fold(f, |f, (fact, v)| cite(f, fact, v));
    fixes(sys.platform, d, false)
        .into_iter()
        .fold(f, Finding::fix)
}

fn problem(sys: &SystemFacts, d: &DiskFacts, cur: f64, drive: f64, port: f64, max: f64) -> Finding {
    let ceiling = link_ceiling_mb_s(cur);
    let hdd = hdd_below_ceiling(d, ceiling).is_some();
    let (severity, impact, class_sentence) = match class_peak_mb_s(d) {
        Some((peak, words)) if peak <= ceiling => (
            if hdd {
                Severity::Info
            } else {
                Severity::Notice
            },
            0.0,
            format!(
                "{words}, so it barely notices a {ceiling} MB/s ceiling: only bursts from \
                 its cache are capped."
            ),
        ),
        Some((peak, words)) => (
            Severity::Warning,
            1.0 - f64::from(ceiling) / f64::from(peak),
            format!(
                "{words}, so a {ceiling} MB/s ceiling costs it up to about {}% of its \
                 sequential speed.",
                100 - (100 * ceiling / peak)
            ),
        ),
        None => (
            Severity::Notice,
            0.0,
            "Whether this device can exceed the ceiling depends on its class (an HDD at ~200 \
             MB/s barely notices 300 MB/s; an SSD at ~550 MB/s loses half), and the class is \
             unknown."
                .to_string(),
        ),
    };
    let limited_by_config = d
        .link_limit_gbps
        .get()
        .is_some_and(|l| l + 0.5 < max && (l - cur).abs() < 0.5);
    let kernel_limited: Vec<_> = d
        .kernel_events
        .iter()
        .filter(|e| e.kind == KernelEventKind::LinkSpeedLimited)
        .collect();
    let mut expl = format!(
        "The SATA link between the port and {} negotiated {} Gb/s, which carries at most {} \
         MB/s, although the drive supports {} Gb/s and the port {} Gb/s ({} MB/s). {} ",
        d.name,
        gbps(cur),
        ceiling,
        gbps(drive),
        gbps(port),
        link_ceiling_mb_s(max),
        class_sentence
    );
    if limited_by_config {
        expl.push_str(&format!(
            "A configured limit of {} Gb/s explains it (a libata.force= or sata_spd_limit \
             setting on Linux, a hint.ahcich.N.sata_rev hint on FreeBSD). ",
            gbps(d.link_limit_gbps.get().unwrap_or(cur))
        ));
    } else if !kernel_limited.is_empty() {
        expl.push_str(
            "The kernel lowered the speed itself after link errors, which points at the cable, \
             the connector or power (see link-errors). ",
        );
    } else {
        expl.push_str(
            "Usual causes: a poor or old cable, a loose connector, a port or backplane that \
             cannot keep the faster signal clean, a firmware-setup limit, aggressive link power \
             management (some controllers bring the link back from a sleep state at a lower \
             speed), or the kernel stepping down after errors. ",
        );
    }
    let mut f = Finding::new(
        ID,
        &d.name,
        Verdict::Problem,
        severity,
        format!(
            "{}: SATA link at {} Gb/s ({} MB/s) although drive and port support {} Gb/s",
            d.name,
            gbps(cur),
            ceiling,
            gbps(max)
        ),
    )
    .explain(expl.trim_end().to_string())
    .confidence(Confidence::Medium)
    .impact(impact);
    f = cite(
        f,
        &d.link_current_gbps,
        format!("link_current={} Gb/s", gbps(cur)),
    );
    f = cite(
        f,
        &d.link_drive_max_gbps,
        format!("link_drive_max={} Gb/s", gbps(drive)),
    );
    f = cite(
        f,
        &d.link_port_max_gbps,
        format!("link_port_max={} Gb/s", gbps(port)),
    );
    if limited_by_config {
        f = cite(
            f,
            &d.link_limit_gbps,
            format!(
                "link_limit={} Gb/s",
                gbps(d.link_limit_gbps.get().unwrap_or(cur))
            ),
        );
    }
    for e in kernel_limited {
        f = f.evidence(e.from.clone(), e.line.clone());
    }
    for fix in fixes(sys.platform, d, limited_by_config) {
        f = f.fix(fix);
    }
    f
}

fn fixes(platform: Platform, d: &DiskFacts, configured: bool) -> Vec<Fix> {
    let name = &d.name;
    let cable_risk = "power the machine off before touching cables; none otherwise".to_string();
    match platform {
        Platform::Linux => {
            let mut v = Vec::new();
            if configured {
                v.push(Fix {
                    platform,
                    summary: "remove the configured link-speed limit".to_string(),
                    steps: vec![
                        "`cat /proc/cmdline`: look for libata.force=...1.5Gbps or ...3.0Gbps"
                            .to_string(),
                        "Remove it from GRUB_CMDLINE_LINUX in /etc/default/grub, then \
                         `update-grub` (Debian/Ubuntu) or `grub2-mkconfig -o /boot/grub2/grub.cfg`"
                            .to_string(),
                        format!(
                            "Reboot and check `cat /sys/class/ata_link/*/sata_spd` and `{}`",
                            ask(Ask::SmartSataLine, &format!("/dev/{name}"))
                        ),
                    ],
                    risk: "the limit may have been set on purpose to stop link errors on a bad \
                           cable: watch `dmesg` for link resets after removing it"
                        .to_string(),
                });
            }
            v.push(Fix {
                platform,
                summary: "replace the cable or move the drive to another port".to_string(),
                steps: vec![
                    "Power off; reseat both ends of the SATA data cable or use a new latching \
                     SATA cable (short, not bent sharply); check the power connector too"
                        .to_string(),
                    "Try a port the controller lists as 6 Gb/s (chipset ports, not an extra \
                     onboard controller), and check the firmware setup for a per-port speed \
                     setting"
                        .to_string(),
                    format!(
                        "Check after booting: `{}` shows \"current: 6.0 Gb/s\"",
                        ask(Ask::SmartSataLine, &format!("/dev/{name}"))
                    ),
                ],
                risk: cable_risk,
            });
            v
        }
        Platform::Freebsd => {
            let mut v = Vec::new();
            if configured {
                v.push(Fix {
                    platform,
                    summary: "remove the configured SATA revision limit".to_string(),
                    steps: vec![
                        "`grep sata_rev /boot/loader.conf /boot/device.hints`".to_string(),
                        "Delete the hint.ahcich.N.sata_rev line for this port and reboot"
                            .to_string(),
                        format!(
                            "Check: `{}` shows 600.000MB/s",
                            ask(Ask::CamIdentifyLink, name)
                        ),
                    ],
                    risk: "the limit may have been set on purpose to stop link errors on a bad \
                           cable: watch `dmesg` for CAM errors after removing it"
                        .to_string(),
                });
            }
            v.push(Fix {
                platform,
                summary: "replace the cable or move the drive to another port".to_string(),
                steps: vec![
                    "Power off; reseat both ends of the SATA data cable or use a new latching \
                     SATA cable; check the power connector too"
                        .to_string(),
                    "Try another port (one the ahciN line in /var/run/dmesg.boot lists at \
                     6Gbps) and check the firmware setup for a port speed setting"
                        .to_string(),
                    format!(
                        "Check after booting: `{}` shows \"600.000MB/s transfers\"",
                        ask(Ask::CamIdentifyLink, name)
                    ),
                ],
                risk: cable_risk,
            });
            v
        }
        Platform::Unknown => Vec::new(),
    }
}

#[cfg(test)]
mod tests;
