//! `below-expected-for-class`: the best direct sequential read is below what any healthy
//! device of its class reaches. The floors are deliberately low (about half of the slowest
//! typical figure) so that a finding means "something is wrong", not "an older model".
//! Every entry names where its figures come from; a unit test insists on it.

use super::measured_common::{CiteResult, best_seq_read, mbps, pass, per_disk};
use super::{Check, CheckInput, Confidence, Finding, Severity, Verdict};
use crate::facts::{DeviceClass, DiskFacts, SystemFacts, Transport};

/// One device class and what it should read sequentially.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct ClassEntry {
    pub id: &'static str,
    pub name: &'static str,
    /// Typical sequential read range, MB/s (decimal).
    pub typical_mb_s: (f64, f64),
    /// Below this the device is slower than its class explains.
    pub floor_mb_s: f64,
    pub source: &'static str,
}

pub(crate) const CLASSES: &[ClassEntry] = &[
    ClassEntry {
        id: "hdd-5400",
        name: "5400 rpm hard disk",
        typical_mb_s: (100.0, 180.0),
        floor_mb_s: 50.0,
        source: "Vendor datasheets of 5400-rpm class drives (WD Blue/Red, Seagate BarraCuda 2.5\"): \
                 sustained transfer rates of roughly 100-180 MB/s on the outer zone",
    },
    ClassEntry {
        id: "hdd-7200",
        name: "7200 rpm hard disk",
        typical_mb_s: (150.0, 280.0),
        floor_mb_s: 80.0,
        source: "Vendor datasheets of 7200-rpm drives (Seagate BarraCuda 3.5\" ST2000DM008: 220 MB/s; \
                 enterprise 7200-rpm drives up to ~285 MB/s)",
    },
    ClassEntry {
        id: "hdd-10k",
        name: "10000 rpm hard disk",
        typical_mb_s: (150.0, 250.0),
        floor_mb_s: 90.0,
        source: "Vendor datasheets of 10k-rpm SAS/SATA drives (WD VelociRaptor, Seagate Enterprise \
                 Performance 10K): roughly 150-250 MB/s sustained",
    },
    ClassEntry {
        id: "hdd-15k",
        name: "15000 rpm hard disk",
        typical_mb_s: (190.0, 300.0),
        floor_mb_s: 100.0,
        source: "Vendor datasheets of 15k-rpm SAS drives (Seagate Enterprise Performance 15K): \
                 roughly 190-300 MB/s sustained",
    },
    ClassEntry {
        id: "hdd",
        name: "hard disk (rotation rate unknown)",
        typical_mb_s: (100.0, 280.0),
        floor_mb_s: 50.0,
        source: "The slowest of the hard-disk entries above (5400 rpm)",
    },
    ClassEntry {
        id: "hdd-pata",
        name: "parallel ATA (IDE) hard disk",
        typical_mb_s: (20.0, 70.0),
        floor_mb_s: 10.0,
        source: "IDE disks of the Ultra DMA era (ATA/ATAPI-4 to -7, 1998-2007) sustain about \
                 20 MB/s (2.5-inch 4200 rpm) to 70 MB/s (3.5-inch 7200 rpm) on the outer zone, \
                 well under their UDMA/33-133 bus; PIO mode 4, what the IDE driver falls back \
                 to when DMA is off, moves at most 16.7 MB/s (ATA/ATAPI-7 table \
                 \"PIO data transfer timing\")",
    },
    ClassEntry {
        id: "hdd-small",
        name: "hard disk of 320 GB or less (an older, lower-density model)",
        typical_mb_s: (20.0, 110.0),
        floor_mb_s: 10.0,
        source: "Sequential rate grows with linear bit density, and a drive's capacity gives its \
                 era: drives of 320 GB or less were built 1998-2010 with at most 320 GB per \
                 platter. Their datasheets give about 20 MB/s (2.5-inch 4200 rpm, 20-40 GB) to \
                 about 110 MB/s (3.5-inch 7200 rpm, 250-320 GB single platter) on the outer \
                 zone; Seagate's Barracuda ATA IV (ST340016A, 40 GB per platter, 2002) states \
                 up to 44 MB/s. Floor as for IDE disks of that era",
    },
    ClassEntry {
        id: "sata-ssd",
        name: "SATA SSD on a 6 Gb/s link",
        typical_mb_s: (450.0, 560.0),
        floor_mb_s: 250.0,
        source: "SATA 3.x physical layer: 6 Gb/s with 8b/10b coding = 600 MB/s payload; SATA SSD \
                 datasheets (Samsung 860/870 EVO, Crucial MX500) list 550-560 MB/s sequential read",
    },
    ClassEntry {
        id: "nvme-gen3-x2",
        name: "NVMe SSD, PCIe 3.0 x2",
        typical_mb_s: (1000.0, 1800.0),
        floor_mb_s: 500.0,
        source: "PCI Express Base 3.0: 8 GT/s per lane with 128b/130b coding = 985 MB/s per lane, \
                 1.97 GB/s for x2",
    },
    ClassEntry {
        id: "nvme-gen3-x4",
        name: "NVMe SSD, PCIe 3.0 x4",
        typical_mb_s: (1500.0, 3500.0),
        floor_mb_s: 800.0,
        source: "PCI Express Base 3.0: 985 MB/s per lane, 3.94 GB/s for x4; Gen3 NVMe datasheets \
                 (Samsung 970 EVO Plus: 3500 MB/s) sit just below",
    },
    ClassEntry {
        id: "nvme-gen4-x4",
        name: "NVMe SSD, PCIe 4.0 x4",
        typical_mb_s: (3000.0, 7400.0),
        floor_mb_s: 1500.0,
        source: "PCI Express Base 4.0: 16 GT/s, 1.97 GB/s per lane, 7.88 GB/s for x4; Gen4 NVMe \
                 datasheets (Samsung 980 PRO: 7000 MB/s)",
    },
    ClassEntry {
        id: "nvme-gen5-x4",
        name: "NVMe SSD, PCIe 5.0 x4",
        typical_mb_s: (6000.0, 14500.0),
        floor_mb_s: 3000.0,
        source: "PCI Express Base 5.0: 32 GT/s, 3.94 GB/s per lane, 15.75 GB/s for x4",
    },
    ClassEntry {
        id: "nvme",
        name: "NVMe SSD (PCIe link unknown)",
        typical_mb_s: (1000.0, 7400.0),
        floor_mb_s: 500.0,
        source: "The slowest of the NVMe entries above (PCIe 3.0 x2)",
    },
    ClassEntry {
        id: "usb2-bot",
        name: "USB 2.0 mass storage (Bulk-Only Transport)",
        typical_mb_s: (30.0, 42.0),
        floor_mb_s: 15.0,
        source: "USB 2.0 specification: 480 Mb/s high speed; Bulk-Only Transport's per-command \
                 handshakes leave about 30-42 MB/s in practice",
    },
    ClassEntry {
        id: "usb3-bot",
        name: "USB 3.x mass storage (Bulk-Only Transport)",
        typical_mb_s: (100.0, 400.0),
        floor_mb_s: 60.0,
        source: "USB 3.0 specification: 5 Gb/s SuperSpeed with 8b/10b = 500 MB/s; BOT allows one \
                 command at a time; a hard disk behind the bridge limits it to the disk's rate",
    },
    ClassEntry {
        id: "usb3-uas",
        name: "USB 3.x mass storage (USB Attached SCSI)",
        typical_mb_s: (100.0, 450.0),
        floor_mb_s: 60.0,
        source: "USB Attached SCSI (T10 UAS, USB-IF UASP): queued commands over 5 Gb/s SuperSpeed \
                 (500 MB/s); a hard disk behind the bridge limits it to the disk's rate",
    },
    ClassEntry {
        id: "any",
        name: "disk of any kind (its class is unknown)",
        typical_mb_s: (15.0, 14500.0),
        floor_mb_s: 1.0,
        source: "The slowest floor above is USB 2.0's 15 MB/s; below every class, USB 1.1 full \
                 speed (12 Mb/s, about 1 MB/s of payload) is the slowest bus a disk is still \
                 found on, so a disk reading under 1 MB/s is held back whatever it is",
    },
];

pub fn entry(id: &str) -> Option<&'static ClassEntry> {
    CLASSES.iter().find(|c| c.id == id)
}

/// The class entry for a disk, from its facts; None for devices without a class figure
/// (virtual disks, loop, RAM, dm, RAID volumes).
pub(crate) fn class_of(d: &DiskFacts) -> Option<&'static ClassEntry> {
    // A disk on a parallel-ATA bus, or one the old IDE driver names (the SATA disks it drives
    // sit behind a controller emulating IDE): judged as an IDE disk of its era.
    let ide = d.transport.get() == Some(Transport::Pata)
        || crate::facts::device_names::ide_driver_disk(&d.name);
    let Some(class) = d.class.get() else {
        if ide {
            return entry("hdd-pata");
        }
        // Linux names NVMe namespaces nvmeXnY (drivers/nvme/host/core.c nvme_alloc_ns), so
        // the name alone gives the class.
        return crate::sources::kernel_log::nvme_controller_of(&d.name)
            .is_some_and(|c| c != d.name)
            .then(|| entry("nvme"))
            .flatten();
    };
    // A hard disk of 320 GB or less is an older, lower-density model whatever its bus: judged
    // against what drives of its era read (a 40 GB IDE disk reads 40 MB/s when healthy).
    // 10k and 15k rpm drives of that size still read over 70 MB/s, so they keep their class.
    let small = d
        .size_bytes
        .get()
        .is_some_and(|b| b > 0 && b <= 320_000_000_000)
        && d.rotation_rpm.get().is_none_or(|r| r < 9000);
    match class {
        DeviceClass::Hdd if small && !ide => entry("hdd-small"),
        DeviceClass::Hdd => entry(match d.rotation_rpm.get() {
            Some(r) if (5000..6000).contains(&r) => "hdd-5400",
            Some(r) if (7000..7500).contains(&r) => "hdd-7200",
            Some(r) if (9000..11000).contains(&r) => "hdd-10k",
            Some(r) if r >= 14000 => "hdd-15k",
            _ if ide => "hdd-pata",
            _ => "hdd",
        }),
        DeviceClass::Ssd if matches!(d.transport.get(), Some(Transport::Sata) | None) => {
            entry("sata-ssd")
        }
        DeviceClass::Nvme => entry("nvme"),
        DeviceClass::Usb => {
            let uas = d.controller.value().and_then(|c| c.usb_driver.as_deref()) == Some("uas");
            // Without UAS the bus speed is not in the facts: assume USB 2.0, the lower floor.
            entry(if uas { "usb3-uas" } else { "usb2-bot" })
        }
        _ => None,
    }
}

pub(crate) struct BelowExpectedForClass;

impl Check for BelowExpectedForClass {
    fn input(&self) -> CheckInput {
        CheckInput::Measured
    }
    fn id(&self) -> &'static str {
        "below-expected-for-class"
    }
    fn summary(&self) -> &'static str {
        "Sequential reads are below what any healthy device of this class reaches"
    }
    fn run(&self, sys: &SystemFacts) -> Vec<Finding> {
        let mut out = per_disk(sys, |disk, dev, rs| {
            let d = sys.disk(disk)?;
            let best = best_seq_read(rs)?;
            let (class, floor, link_note) = floor_of(d, None)?;
            let (lo, hi) = class.typical_mb_s;
            if best.bytes_per_sec < floor {
                Some(below(self.id(), dev, class, best.bytes_per_sec, floor, &link_note).cite(best))
            } else {
                Some(pass(
                    self.id(),
                    dev,
                    format!(
                        "{dev} reads at {}, as expected for a {} ({lo:.0}-{hi:.0} MB/s)",
                        mbps(best.bytes_per_sec),
                        class.name
                    ),
                    Confidence::Medium,
                    best,
                ))
            }
        });
        out.extend(pasted_reads(self.id(), sys));
        out
    }
}

/// The class of `d` (`fallback` when it has none), its floor in bytes/s and a note when
/// the link lowered it.
fn floor_of(
    d: &DiskFacts,
    fallback: Option<&'static ClassEntry>,
) -> Option<(&'static ClassEntry, f64, String)> {
    let class = class_of(d).or(fallback)?;
    let mut floor = class.floor_mb_s * 1e6;
    let mut link_note = String::new();
    if class.id == "sata-ssd"
        && let Some(g) = d.link_current_gbps.get().filter(|g| *g > 0.0 && *g < 6.0)
    {
        // A slow link is link-ceiling-reached's business: judge against the link.
        floor = floor.min(g * 1e9 * 0.8 / 8.0 * 0.6);
        link_note = format!(" (lowered for the {g:.1} Gb/s link)");
    }
    Some((class, floor, link_note))
}

/// The finding for a sequential read of `rate` bytes/s under the class floor.
fn below(
    id: &str,
    dev: &str,
    class: &ClassEntry,
    rate: f64,
    floor: f64,
    link_note: &str,
) -> Finding {
    let (lo, hi) = class.typical_mb_s;
    Finding::new(
        id,
        dev,
        Verdict::Problem,
        Severity::Warning,
        format!(
            "{dev} reads at {}, below the {} floor of {}{link_note}",
            mbps(rate),
            class.name,
            mbps(floor)
        ),
    )
    .explain(format!(
        "A {} typically reads {lo:.0}-{hi:.0} MB/s sequentially ({}). The best sequential \
         read measured here was {}. Something between the program and the media is holding \
         it back: a legacy IDE controller mode, a slow link, a failing drive retrying reads, \
         or another program using the disk (see the other findings).{}",
        class.name,
        class.source,
        mbps(rate),
        if class.id == "hdd-pata" {
            // hdparm(8) -d: "using_dma = 0 (off)" and a refused HDIO_SET_DMA leave the
            // drive in PIO, the CPU copying every word.
            " On the IDE driver, check that DMA is on (hdparm -d /dev/hdX says \
             using_dma = 1): without it the disk runs in PIO at a few MB/s."
        } else {
            ""
        }
    ))
    .confidence(Confidence::Medium)
    .evidence(
        format!("table:device-class:{}", class.id),
        format!("floor {}", mbps(floor)),
    )
    .impact((1.0 - rate / (lo * 1e6)).clamp(0.0, 1.0))
}

/// Pasted sequential reads of a whole device that diskdoc did not measure itself: `hdparm
/// -t` (hdparm(8): reads through the buffer cache with read-ahead, so the disk is at most
/// as fast as it says), its O_DIRECT form (`--direct`, "Timing O_DIRECT disk reads") and a
/// dd from the device into /dev/null in blocks of 128 KiB or more. Each device is judged
/// by the best of its pasted reads, as diskdoc's own runs are ([`best_seq_read`]): a
/// buffered `hdparm -t` under the floor next to an O_DIRECT read of the same disk at its
/// rating (hdparm -tT then --direct -tT) says the page cache, not the disk, was slow.
/// Under the floor only: a buffered or partial run above it proves nothing about the class.
fn pasted_reads(id: &str, sys: &SystemFacts) -> Vec<Finding> {
    let mut out: Vec<Finding> = Vec::new();
    for (dev, rate, b) in best_pasted_reads(sys, |_| true) {
        if sys.benchmarks.iter().any(|r| r.disk == dev) {
            continue;
        }
        let fresh = DiskFacts::new(dev, &format!("/dev/{dev}"));
        let d = sys.disk(dev).unwrap_or(&fresh);
        // A pasted disk of unknown class is judged against the floor below every class.
        let Some((class, floor, note)) = floor_of(d, entry("any")) else {
            continue;
        };
        if rate < floor {
            out.push(
                below(id, dev, class, rate, floor, &note)
                    .evidence(b.from.clone(), format!("{}: {}", b.tool, mbps(rate))),
            );
            continue;
        }
        // The same read (one tool, one mode) of this device run again, under the floor and
        // a small fraction of its best run: no cache or O_DIRECT difference stands between
        // the two, so the slow run measured the device held back at that time (another
        // boot, kernel or configuration the post compares), which the best run does not
        // undo.
        let slowest = sys
            .user_benchmarks
            .iter()
            .filter(|o| o.tool == b.tool)
            .filter_map(|o| {
                pasted_read(o)
                    .filter(|(d, _)| *d == dev)
                    .map(|(_, r)| (r, o))
            })
            .min_by(|x, y| x.0.total_cmp(&y.0));
        // Three or more runs of that read where the others agree and one is a fraction of
        // them: identical machines of one post (cluster nodes, `root@node1` .. `node3`) or
        // one disk timed again, either way a class of its own that the slow run falls
        // out of ("node2 reads 33 MB/s, node1 and node3 186 MB/s").
        let runs: Vec<f64> = sys
            .user_benchmarks
            .iter()
            .filter(|o| o.tool == b.tool)
            .filter_map(|o| pasted_read(o).filter(|(d, _)| *d == dev).map(|(_, r)| r))
            .collect();
        let peers = runs.iter().filter(|r| **r >= rate * TWIN_AGREE).count();
        if let Some((slow, o)) = slowest
            && runs.len() >= 3
            && peers >= 2
            && slow < rate * TWIN_SHARE
        {
            out.push(
                held_back(
                    id,
                    dev,
                    format!(
                        "{dev} reads at {} in one run, {:.0} % of the {} of the {peers} runs that agree",
                        mbps(slow),
                        slow / rate * 100.0,
                        mbps(rate)
                    ),
                )
                .explain(format!(
                    "The same read ({}) of {dev} was pasted {} times: {peers} runs agree at up \
                     to {}, one reads {}. Identical machines, or one disk timed again, read \
                     within tens of per cent of each other, so the slow one is held back: \
                     another program using it, a slower port or bus (a USB 2 bridge reads \
                     30-40 MB/s), a failing drive retrying reads.",
                    b.tool,
                    runs.len(),
                    mbps(rate),
                    mbps(slow)
                ))
                .confidence(Confidence::Low)
                .evidence(o.from.clone(), format!("{}: {}", o.tool, mbps(slow)))
                .evidence(b.from.clone(), format!("{}: {}", b.tool, mbps(rate)))
                .impact((1.0 - slow / rate).clamp(0.0, 1.0)),
            );
            continue;
        }
        if let Some((slow, o)) = slowest
            && slow < floor
            && slow * SAME_READ_GAP < rate
        {
            out.push(
                below(id, dev, class, slow, floor, &note)
                    .evidence(o.from.clone(), format!("{}: {}", o.tool, mbps(slow)))
                    .evidence(
                        b.from.clone(),
                        format!("{}: {} (the same read in another run)", b.tool, mbps(rate)),
                    ),
            );
        }
    }
    out.extend(behind_a_neighbour(id, sys, &out));
    out
}

/// How many times slower than the best run of the same read a run under the floor must
/// be to count on its own: repeated `hdparm -t` runs of a healthy disk differ by tens of
/// per cent (other I/O, the zone read), never by a factor of ten.
const SAME_READ_GAP: f64 = 10.0;

/// A notice that a disk reads far behind its peers in the same paste.
fn held_back(id: &str, dev: &str, title: String) -> Finding {
    Finding::new(id, dev, Verdict::Problem, Severity::Notice, title)
}

/// Runs within this share of the best agree (repeated `hdparm -t` of one disk differ by
/// tens of per cent: the zone read, other I/O).
const TWIN_AGREE: f64 = 0.8;
/// Under this share of the agreeing runs a run of the same read is held back: four times
/// slower is no zone or noise difference.
const TWIN_SHARE: f64 = 0.25;

/// The fastest of two pasted reads of one machine's disks that makes the slower one
/// suspect: the faster reads as a hard disk does (at most this, MB/s), so the two are
/// disks of one era and kind, not an SSD beside a hard disk (3-5 times apart by design).
const NEIGHBOUR_MAX_MB_S: f64 = 150.0;
/// Below this share of its neighbour's rate a disk is held back: hard disks of one era
/// read within a factor of about two of each other (the class table: IDE disks 20-70 MB/s,
/// hard disks of 320 GB or less 20-110 MB/s).
const NEIGHBOUR_SHARE: f64 = 0.4;

/// Whole disks of one paste read by the same hdparm timing (hdparm(8) -t: the same
/// buffered read of the device's start), where one reads under [`NEIGHBOUR_SHARE`] of
/// another that reads as a hard disk does: the comparison an expert makes when a post
/// gives `hdparm -t` of two disks of one machine ("hda 64 MB/s, sda 15 MB/s"). A notice,
/// for the disks the class floors passed: the floors stay low so that a slow model is not
/// taken for a fault, and the neighbour says what this machine's disks read. Disks known
/// to be on USB or flash cards are left out (a USB 2 stick reads 20-40 MB/s beside any
/// hard disk), and so are partitions, md and device-mapper volumes.
fn behind_a_neighbour(id: &str, sys: &SystemFacts, flagged: &[Finding]) -> Vec<Finding> {
    let disk_like = |dev: &str| {
        let d = sys.disk(dev);
        let usb = d.is_some_and(|d| {
            d.class.get() == Some(DeviceClass::Usb)
                || d.transport.get() == Some(Transport::Usb)
                || super::common::is_usb(d)
        });
        let family = dev
            .strip_prefix("sd")
            .is_some_and(|l| !l.is_empty() && l.bytes().all(|b| b.is_ascii_lowercase()))
            || crate::facts::device_names::ide_driver_disk(dev);
        family && !usb && !flagged.iter().any(|f| f.device == dev)
    };
    let mut out = Vec::new();
    for tool in ["hdparm -t", "hdparm -t --direct"] {
        let reads: Vec<(&str, f64, &crate::facts::UserBenchmark)> =
            best_pasted_reads(sys, |d| disk_like(d))
                .into_iter()
                .filter(|(_, _, b)| b.tool == tool)
                .collect();
        let Some(&(fast, top, fb)) = reads.iter().max_by(|a, b| a.1.total_cmp(&b.1)) else {
            continue;
        };
        if top > NEIGHBOUR_MAX_MB_S * 1e6 {
            continue;
        }
        for &(dev, rate, b) in &reads {
            if dev == fast || rate >= top * NEIGHBOUR_SHARE {
                continue;
            }
            let pct = (rate / top * 100.0).round();
            out.push(
                held_back(
                    id,
                    dev,
                    format!(
                        "{dev} reads at {}, {pct:.0} % of the {} {fast} reads on the same machine",
                        mbps(rate),
                        mbps(top)
                    ),
                )
                .explain(format!(
                    "The same read ({tool}) of two disks of one machine: {fast} reads {}, \
                     {dev} reads {}. Hard disks of one era read within a factor of about two \
                     of each other, so {dev} is held back by something between the program \
                     and its media: DMA off or a PIO mode, a slow or legacy controller port, \
                     a failing drive retrying reads, or another program using it. (A USB 2 \
                     stick or a memory card reads 20-40 MB/s whatever the machine: if {dev} \
                     is one, this is its bus.)",
                    mbps(top),
                    mbps(rate)
                ))
                .confidence(Confidence::Low)
                .evidence(b.from.clone(), format!("{}: {}", b.tool, mbps(rate)))
                .evidence(
                    fb.from.clone(),
                    format!("{}: {} ({fast})", fb.tool, mbps(top)),
                )
                .impact((1.0 - rate / top).clamp(0.0, 1.0)),
            );
        }
    }
    out
}

/// The device a pasted run read sequentially (its node below /dev/, "sda" or
/// "mapper/luks-UUID") and its rate, when it is such a read (see [`pasted_reads`]).
fn pasted_read(b: &crate::facts::UserBenchmark) -> Option<(&str, f64)> {
    let read = match b.tool.as_str() {
        "hdparm -t" | "hdparm -t --direct" => true,
        // Large blocks only: dd's default of 512 bytes measures system calls.
        "dd" => {
            b.output
                .as_deref()
                .is_none_or(super::pasted_common::is_sink)
                && b.block_size_bytes.is_some_and(|bs| bs >= 128 * 1024)
        }
        _ => false,
    };
    let dev = b
        .input
        .as_deref()
        .filter(|i| read && super::pasted_common::is_device(i))
        .map(|i| i.trim_start_matches("/dev/"))?;
    let rate = b.bytes_per_sec.filter(|r| r.is_finite() && *r > 0.0)?;
    Some((dev, rate))
}

/// The fastest pasted sequential read of each device `want` accepts, in the order the
/// devices first appear.
pub(crate) fn best_pasted_reads(
    sys: &SystemFacts,
    want: impl Fn(&str) -> bool,
) -> Vec<(&str, f64, &crate::facts::UserBenchmark)> {
    let mut best: Vec<(&str, f64, &crate::facts::UserBenchmark)> = Vec::new();
    for b in &sys.user_benchmarks {
        let Some((dev, rate)) = pasted_read(b).filter(|(d, _)| want(d)) else {
            continue;
        };
        match best.iter_mut().find(|(d, _, _)| *d == dev) {
            Some(e) if rate > e.1 => *e = (dev, rate, b),
            Some(_) => {}
            None => best.push((dev, rate, b)),
        }
    }
    best
}

#[cfg(test)]
mod tests;
