//! `ncq-unavailable`: the drive supports Native Command Queuing but the OS sends one command
//! at a time. References: ATA/ACS-3 IDENTIFY words 75 (queue depth) and 76 bit 8 (NCQ
//! supported), SATA 3.x section 13.6 (First-party DMA queued commands), Linux
//! Documentation/ABI sysfs-bus-scsi queue_depth and libata.force=noncq, FreeBSD ada(4) and
//! camcontrol(8) `tags`.

use crate::checks::common::{self, Media, Source, cite, how_to_know, media};
use crate::checks::controller_legacy_mode;
use crate::checks::{Check, Confidence, Finding, Fix, Severity, Verdict};
use crate::evidence::Platform;
use crate::facts::{DiskFacts, SystemFacts, Transport};
use crate::model::NcqOffCause;
use crate::sources::{ask, spec::Ask};

pub const ID: &str = "ncq-unavailable";

pub(crate) struct NcqUnavailable;

impl Check for NcqUnavailable {
    fn id(&self) -> &'static str {
        ID
    }
    fn label(&self) -> &'static str {
        "Command queueing (NCQ)"
    }
    fn summary(&self) -> &'static str {
        "drive supports NCQ but commands are not queued (legacy driver, queue_depth 1, noncq)"
    }
    fn run(&self, sys: &SystemFacts) -> Vec<Finding> {
        common::disks(sys).map(|d| check_disk(sys, d)).collect()
    }
}

/// Whether the OS queues commands, and the fact that says so.
enum Active {
    Yes(String),
    No(String),
    Unknown,
}

fn active(d: &DiskFacts) -> (Active, Option<&'static str>) {
    if let Some(a) = d.ncq_active.get() {
        let s = format!("ncq_active={}", if a { "yes" } else { "no" });
        return (
            if a { Active::Yes(s) } else { Active::No(s) },
            Some("ncq_active"),
        );
    }
    if let Some(q) = d.queue_depth.get() {
        let s = format!("queue_depth={q}");
        return (
            if q > 1 { Active::Yes(s) } else { Active::No(s) },
            Some("queue_depth"),
        );
    }
    if controller_legacy_mode::is_legacy(d) {
        // A controller in IDE mode has no command queue to put NCQ commands in (AHCI 1.3.1
        // section 1: NCQ needs the AHCI command list).
        return (
            Active::No("controller in legacy IDE mode".to_string()),
            Some("controller"),
        );
    }
    (Active::Unknown, None)
}

pub(crate) fn check_disk(sys: &SystemFacts, d: &DiskFacts) -> Finding {
    if let Some(reason) = common::sata_not_applicable(d) {
        return common::not_applicable(ID, d, &reason);
    }
    // A parallel ATA drive has no NCQ; but a drive that reports NCQ support (IDENTIFY word
    // 76 bit 8, defined for Serial ATA devices only: ACS-3 7.12.6.34) on a PATA port is a
    // SATA drive behind a SATA-to-PATA adapter, and the PATA channel is what keeps it at
    // one command ("ata2: PATA max UDMA/100 ..." with "NCQ (depth 0/32)").
    if d.transport.get() == Some(Transport::Pata) && d.ncq_supported.get() != Some(true) {
        return common::not_applicable(ID, d, "parallel ATA drives have no NCQ");
    }
    let (act, which) = active(d);
    let cite_active = |f: Finding, s: &str| match which {
        Some("ncq_active") => cite(f, &d.ncq_active, s),
        Some("queue_depth") => cite(f, &d.queue_depth, s),
        Some(_) => cite(f, &d.controller, s),
        None => f,
    };
    match d.ncq_supported.get() {
        None => {
            if let Active::Yes(s) = act {
                return cite_active(
                    common::pass(ID, d, "commands are queued: good")
                        .explain(format!("The OS keeps several commands in flight ({s}).")),
                    &s,
                );
            }
            let mut f = common::unknown(
                ID,
                d,
                format!("NCQ support of {} unknown", d.name),
                "Whether the drive supports NCQ (IDENTIFY word 76 bit 8)",
                &common::why(&d.ncq_supported),
                &how_to_know(sys.platform, Source::Identify, d),
            );
            // A SCSI disk node (sdX) whose device/queue_depth the OS holds at 1: libata sets
            // it to 1 exactly when it does not queue (drivers/ata/libata-scsi.c
            // ata_change_queue_depth; ata_piix, noncq, a drive or controller without NCQ),
            // and a SAS HBA's disk at 1 is throttled too. A SATA drive made since about 2006
            // supports NCQ (SATA II), so a depth of 1 is the unused-NCQ case unless the drive
            // is known to lack it; USB, virtual and NVMe disks are out above.
            if let Active::No(s) = &act
                && which == Some("queue_depth")
                && d.queue_depth.get() == Some(1)
                && d.named_like(&["sd"])
            {
                let f = Finding::new(
                    ID,
                    &d.name,
                    Verdict::Problem,
                    Severity::Notice,
                    format!("{}: commands not queued (queue depth 1)", d.name),
                )
                .explain(format!(
                    "The OS sends one command at a time to {} ({s}). A SATA drive made since \
                     about 2006 supports NCQ, which lets it reorder up to 32 queued commands; at \
                     depth 1 it goes unused, and random and mixed I/O lose most of what the \
                     drive could do. The drive's own NCQ support is not in what was shown.",
                    d.name
                ))
                .confidence(Confidence::Low)
                .impact(0.1);
                return cite_active(f, s);
            }
            if let Active::No(s) = act {
                // Half the answer is known: nothing is queued. Say so, and cite it.
                f.title = format!(
                    "{}: commands not queued; drive's NCQ support unknown",
                    d.name
                );
                f.explanation.push_str(&format!(
                    " What is known: the OS sends one command at a time ({s}), so if the drive \
                     supports NCQ (most SATA drives since about 2006 do) it goes unused."
                ));
                f = cite_active(f, &s);
            }
            return f;
        }
        Some(false) => {
            return cite(
                common::not_applicable(ID, d, "the drive does not support NCQ"),
                &d.ncq_supported,
                "ncq_supported=no",
            );
        }
        Some(true) => {}
    }
    let depth = d.ncq_drive_depth.get();
    let depth_s = depth
        .map(|n| format!(", drive depth {n}"))
        .unwrap_or_default();
    match act {
        Active::Yes(s) => cite_active(
            common::pass(ID, d, format!("NCQ in use{depth_s}: good")).explain(format!(
                "The drive supports NCQ and the OS queues commands ({s})."
            )),
            &s,
        ),
        Active::Unknown => common::unknown(
            ID,
            d,
            format!("{}: NCQ supported, whether it is used unknown", d.name),
            "Whether the OS queues commands to the drive (queue depth)",
            &common::why(&d.queue_depth),
            &match sys.platform {
                Platform::Linux => format!(
                    "let diskdoc read /sys/block/{}/device/queue_depth (no root needed)",
                    d.name
                ),
                Platform::Freebsd => format!(
                    "let diskdoc run `{}` (root) or read its dmesg line \
                     \"Command Queueing enabled\"",
                    ask(Ask::CamTags, &d.name)
                ),
                Platform::Unknown => how_to_know(sys.platform, Source::Identify, d),
            },
        ),
        Active::No(s) => match d.ncq_off_cause.value() {
            Some(cause) => kernel_decided(d, cause, &s, cite_active),
            None => problem(sys, d, &s, cite_active),
        },
    }
}

/// NCQ off for a reason of the hardware the kernel knows (sources::kernel_log::ncq_off_cause):
/// the kernel's quirk list for a drive whose NCQ is broken, or a host chip without NCQ.
/// Nothing the user should switch back on, so it is said at info, with the reason.
fn kernel_decided(
    d: &DiskFacts,
    (cause, detail): &(NcqOffCause, String),
    active_s: &str,
    cite_active: impl Fn(Finding, &str) -> Finding,
) -> Finding {
    let (title, why) = match cause {
        NcqOffCause::KernelQuirk => (
            format!(
                "{}: NCQ off by the kernel's quirk list for this drive (not a setting to change)",
                d.name
            ),
            format!(
                "The drive supports NCQ, but the OS sends one command at a time ({active_s}) \
                 because libata's quirk list (drivers/ata/libata-core.c, the NONCQ entries) \
                 turns NCQ off for this model and firmware: its queued commands are known to \
                 fail or to run slower. {}. Turning it back on (libata.force=ncq) brings the \
                 drive's NCQ bugs back; sequential transfers lose nothing without it.",
                controller_legacy_mode::capitalise(detail)
            ),
        ),
        NcqOffCause::HostWithoutNcq => (
            format!(
                "{}: NCQ unused because the SATA controller has none (not a setting to change)",
                d.name
            ),
            format!(
                "The drive supports NCQ, but the OS sends one command at a time ({active_s}) \
                 because {}. No setting turns it on; a controller with NCQ (any AHCI one) \
                 would. Sequential transfers lose nothing without it; random I/O with many \
                 requests waiting loses the drive's reordering.",
                detail
            ),
        ),
    };
    let mut f = Finding::new(ID, &d.name, Verdict::Problem, Severity::Info, title)
        .explain(why)
        .confidence(Confidence::Medium)
        .impact(0.0);
    f = cite(f, &d.ncq_supported, "ncq_supported=yes");
    f = cite_active(f, active_s);
    cite(
        f,
        &d.ncq_off_cause,
        format!(
            "ncq_off_cause={}",
            match cause {
                NcqOffCause::KernelQuirk => "kernel-quirk",
                NcqOffCause::HostWithoutNcq => "host-without-ncq",
            }
        ),
    )
}

fn problem(
    sys: &SystemFacts,
    d: &DiskFacts,
    active_s: &str,
    cite_active: impl Fn(Finding, &str) -> Finding,
) -> Finding {
    let legacy = controller_legacy_mode::is_legacy(d);
    let m = media(d);
    let (severity, impact) = match m {
        Some(Media::Ssd) => (Severity::Warning, 0.5),
        _ => (Severity::Notice, 0.15),
    };
    let depth = d.ncq_drive_depth.get().unwrap_or(32);
    let mut expl = format!(
        "The drive can take up to {depth} commands at once and reorder them (Native Command \
         Queuing), but the OS sends one at a time ({active_s}). "
    );
    if legacy {
        expl.push_str(
            "The cause is the controller's legacy IDE mode or driver, which has no command \
             queue (see controller-legacy-mode). ",
        );
    } else if d.transport.get() == Some(Transport::Pata) {
        expl.push_str(
            "The drive is a SATA drive (it reports NCQ, which only SATA drives do) on a \
             parallel ATA port, through a SATA-to-PATA adapter: a PATA channel carries one \
             command at a time, so only a SATA (AHCI) port would queue. ",
        );
    }
    expl.push_str(match m {
        Some(Media::Ssd) => {
            "For an SSD this is most of its random-I/O speed: a typical SATA SSD reaches \
             ~90k random 4 KiB reads per second with 32 commands in flight and roughly 10-20k \
             with one. Sequential transfers change little."
        }
        Some(Media::Hdd) => {
            "For an HDD, sequential transfers change little, but with several requests \
             waiting (a busy server, a parallel copy, ZFS) the drive cannot shorten its seeks \
             by reordering: typically 20-50% fewer random I/Os per second at queue depth 32."
        }
        None => {
            "Sequential transfers change little; random I/O with many requests waiting loses \
             the drive's reordering (HDD: typically 20-50% fewer random I/Os per second at \
             queue depth 32; SSD: several times fewer)."
        }
    });
    let mut f = Finding::new(
        ID,
        &d.name,
        Verdict::Problem,
        severity,
        format!("{}: drive supports NCQ but commands are not queued", d.name),
    )
    .explain(expl)
    .confidence(Confidence::Medium)
    .impact(impact);
    f = cite(f, &d.ncq_supported, "ncq_supported=yes");
    if let Some(n) = d.ncq_drive_depth.get() {
        f = cite(f, &d.ncq_drive_depth, format!("ncq_drive_depth={n}"));
    }
    f = cite_active(f, active_s);
    for fix in fixes(sys.platform, d, legacy, depth) {
        f = f.fix(fix);
    }
    f
}

fn fixes(platform: Platform, d: &DiskFacts, legacy: bool, depth: u32) -> Vec<Fix> {
    let name = &d.name;
    let mut v = Vec::new();
    let no_ahci = d
        .controller
        .value()
        .and_then(controller_legacy_mode::controller_row)
        .filter(|r| r.ahci == controller_legacy_mode::AhciMode::None);
    if let (true, Some(r)) = (legacy && platform != Platform::Unknown, no_ahci) {
        v.push(Fix {
            platform,
            summary: format!(
                "NCQ needs an AHCI controller; the {} has no AHCI mode",
                r.family
            ),
            steps: vec![
                "Connect the drive to an AHCI controller: a PCIe SATA card (for example one \
                 with an ASMedia ASM1061 or JMicron JMB58x) or a newer board's ports"
                    .to_string(),
            ],
            risk: "none for the data; the disk's name changes (ad4 -> ada0 on FreeBSD, a new \
                   sdX on Linux), so mount by label or UUID first"
                .to_string(),
        });
        return v;
    }
    if legacy && platform != Platform::Unknown {
        v.push(Fix {
            platform,
            summary: "switch the controller to AHCI (see controller-legacy-mode's steps)"
                .to_string(),
            steps: vec!["Follow the controller-legacy-mode fix; NCQ comes with AHCI".to_string()],
            risk: "may stop the OS booting until the AHCI driver is in the initramfs / loader"
                .to_string(),
        });
        return v;
    }
    match platform {
        Platform::Linux => v.push(Fix {
            platform,
            summary: "raise the queue depth and drop a noncq setting".to_string(),
            steps: vec![
                "`cat /proc/cmdline`: if it has libata.force=noncq (or N.M:noncq), remove it from \
                 GRUB_CMDLINE_LINUX in /etc/default/grub, run `update-grub` and reboot"
                    .to_string(),
                format!(
                    "Or now: `echo {} > /sys/block/{name}/device/queue_depth`",
                    depth.min(32)
                ),
                format!("Check: `cat /sys/block/{name}/device/queue_depth`"),
            ],
            risk: "noncq is sometimes set on purpose for a drive or controller with broken NCQ \
                   firmware: watch `dmesg` for timeouts afterwards"
                .to_string(),
        }),
        Platform::Freebsd => v.push(Fix {
            platform,
            summary: "let CAM queue commands to the drive".to_string(),
            steps: vec![
                format!("`{} {}`", ask(Ask::CamSetTags, name), depth.min(32)),
                format!(
                    "Check: `{}` shows dev_openings above 1",
                    ask(Ask::CamTags, name)
                ),
            ],
            risk: "a drive or controller with broken NCQ firmware may time out: watch `dmesg`"
                .to_string(),
        }),
        Platform::Unknown => {}
    }
    v
}

#[cfg(test)]
mod tests;
