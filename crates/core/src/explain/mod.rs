//! `diskdoc explain`: diagnose from tool outputs pasted into a mail or forum post.
//! Text -> [`segment`] (clean lines) -> [`recognize`] (tool blocks, commands) -> [`bundle`]
//! (an evidence bundle as a live probe would have captured it) -> `facts::derive` +
//! `checks::run_all` exactly as a live run, with the pasted benchmarks judged by the
//! benchmark critics (checks/benchmark_*.rs) and [`critic`]'s observations.

pub mod bundle;
pub mod critic;
pub mod devices;
pub mod modern;
pub mod recognize;
pub mod render;
pub mod segment;
pub mod zpool;

use schemars::JsonSchema;
use serde::Serialize;

use crate::checks::{self, Finding};
use crate::evidence::{EvidenceBundle, Platform};
use crate::facts::{self, Fact, Layer, LayerKind, Mount, SystemFacts, UserBenchmark};
use recognize::{Command, Tool};

/// One input: a file's bytes or standard input.
pub struct Input {
    pub label: String,
    pub bytes: Vec<u8>,
}

/// One recognised output, for the listing.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Recognised {
    pub tool: String,
    pub device: Option<String>,
    pub input: String,
    pub first_line: usize,
    pub last_line: usize,
    /// Capture key in the bundle.
    pub key: String,
    pub command: Option<String>,
    pub superseded: bool,
}

/// A range of input nobody recognised.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Ignored {
    pub input: String,
    pub first_line: usize,
    pub last_line: usize,
    /// The first line, shortened, so the reader sees what was skipped.
    pub starts_with: String,
}

/// The whole answer.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Explanation {
    pub inputs: Vec<String>,
    pub lines_read: usize,
    pub platform: Platform,
    pub recognised: Vec<Recognised>,
    pub commands: Vec<Command>,
    pub ignored: Vec<Ignored>,
    pub benchmarks: Vec<UserBenchmark>,
    /// Ranked: problems first.
    pub findings: Vec<Finding>,
    /// Facts diskdoc could not establish from the text.
    pub missing: Vec<String>,
    /// Ready-to-paste commands for the poster's OS.
    pub next_commands: Vec<String>,
    pub notes: Vec<String>,
    pub facts: SystemFacts,
    pub bundle: EvidenceBundle,
}

/// Why explain could not run at all.
#[derive(Debug, Clone, PartialEq)]
pub struct ExplainError(pub String);

impl std::fmt::Display for ExplainError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Run the whole pipeline on the inputs.
pub fn explain(inputs: &[Input]) -> Result<Explanation, ExplainError> {
    let labels: Vec<String> = inputs.iter().map(|i| i.label.clone()).collect();
    let mut lines = Vec::new();
    let mut notes = Vec::new();
    let mut problems = Vec::new();
    let mut total = 0usize;
    for (i, inp) in inputs.iter().enumerate() {
        match segment::prepare(i, &inp.label, &inp.bytes) {
            Ok(p) => {
                total += p.total_lines;
                lines.extend(p.lines);
                notes.extend(p.notes);
            }
            Err(e) => problems.push(format!("{}: {e}", inp.label)),
        }
    }
    if lines.is_empty() {
        return Err(ExplainError(if problems.is_empty() {
            "nothing to read".to_string()
        } else {
            problems.join("; ")
        }));
    }
    notes.extend(problems);
    let mut rec = recognize::recognize(&lines);
    notes.extend(devices::infer(&mut rec, &lines));
    if rec.blocks.is_empty() && rec.commands.iter().all(|c| !c.typed) {
        return Err(ExplainError(format!(
            "no tool output recognised in {} ({} lines read). diskdoc explain looks for the output of \
             camcontrol identify/devlist, atacontrol cap, diskinfo, gpart show/list, geli list, pciconf -lv/-lvc, \
             dmesg, sysctl, zpool status, iostat, gstat, smartctl, hdparm, lsblk, fdisk/sfdisk, \
             cryptsetup status, dmsetup table, fio, dd, lspci -vv, /proc/mdstat, nvme smart-log/id-ns, \
             nvmecontrol, zpool get ashift, zdb -C, CrystalDiskMark and KDiskMark",
            labels.join(", "),
            total
        )));
    }
    let (mut bundle, used) = bundle::assemble(&rec, &lines, &labels);
    let key_of = |b: &recognize::Block| {
        used.iter()
            .find(|u| u.src == b.src && u.first == b.first && u.tool == b.tool)
            .map(|u| u.key.clone())
            .unwrap_or_else(|| bundle::pasted_key(b, &labels).to_string())
    };
    let benches = critic::user_benchmarks(&rec, &lines, &key_of);
    let mut sys = facts::derive(&bundle);
    sys.user_benchmarks = benches.iter().map(|b| b.bench.clone()).collect();
    sys.user_benchmarks
        .extend(modern::diskmark_benchmarks(&rec, &key_of));
    augment(&mut sys, &rec, &lines, &key_of);
    let mut findings = checks::run_all(&sys);
    findings.extend(earlier_layouts(&bundle, &used, &sys, &findings));
    findings.extend(critic::observations(&rec, &lines, &benches));
    findings.extend(critic::layout_observations(&rec, &benches));
    checks::rank(&mut findings);
    bundle.notes.splice(0..0, notes.iter().cloned());
    let name = |src: usize| labels.get(src).cloned().unwrap_or_default();
    let recognised = used
        .iter()
        .map(|u| Recognised {
            tool: u.tool.id().to_string(),
            device: u.device.clone(),
            input: name(u.src),
            first_line: u.first,
            last_line: u.last,
            key: u.key.clone(),
            command: rec
                .blocks
                .iter()
                .find(|b| b.src == u.src && b.first == u.first && b.tool == u.tool)
                .and_then(|b| b.command.clone()),
            superseded: u.superseded,
        })
        .collect();
    let ignored = rec
        .ignored
        .iter()
        .map(|(src, a, b)| Ignored {
            input: name(*src),
            first_line: *a,
            last_line: *b,
            starts_with: lines
                .iter()
                .find(|l| l.src == *src && l.first == *a)
                .map(|l| l.text.trim().chars().take(60).collect())
                .unwrap_or_default(),
        })
        .collect();
    let platform = bundle.platform;
    let missing = missing_facts(&rec, &sys, platform);
    let next_commands = next_commands(&rec, &sys, platform);
    Ok(Explanation {
        inputs: labels,
        lines_read: total,
        platform,
        recognised,
        commands: rec.commands.clone(),
        ignored,
        benchmarks: sys.user_benchmarks.clone(),
        findings,
        missing,
        next_commands,
        notes,
        facts: sys,
        bundle,
    })
}

/// A thread often shows a disk's partition table before and after the poster changed it
/// (seed 003: a 2 TiB MBR slice on a 2.7 TiB disk, then GPT). The later table is the
/// machine's state and feeds the checks; the earlier one was the state the question was
/// asked about, so the partition checks also run on it and its problems are reported with
/// the lines they come from.
fn earlier_layouts(
    bundle: &EvidenceBundle,
    used: &[bundle::Used],
    sys: &SystemFacts,
    have: &[Finding],
) -> Vec<Finding> {
    let mut out: Vec<Finding> = Vec::new();
    for u in used
        .iter()
        .filter(|u| u.superseded && matches!(u.tool, Tool::GpartShow | Tool::FdiskList))
    {
        let Some(live) = bundle::live_key(u.tool, u.device.as_deref(), bundle.platform) else {
            continue;
        };
        let Some(cap) = bundle.captures.get(&u.key) else {
            continue;
        };
        let mut alt = bundle.clone();
        alt.captures.insert(live.to_string(), cap.clone());
        let alt_sys = facts::derive(&alt);
        for d in &alt_sys.disks {
            if u.device
                .as_deref()
                .is_some_and(|dev| whole_disk(dev) != d.name)
                || !sys.disks.iter().any(|x| x.name == d.name)
            {
                continue;
            }
            for f in [
                checks::partition_table_limit::check_disk(&alt_sys, d),
                checks::partition_misaligned::check_disk(&alt_sys, d),
            ] {
                let dup = |x: &Finding| {
                    x.check == f.check && x.device == f.device && x.verdict == f.verdict
                };
                if f.verdict != checks::Verdict::Problem
                    || have.iter().any(dup)
                    || out.iter().any(dup)
                {
                    continue;
                }
                let mut f = f;
                f.title = format!(
                    "{} (the earlier partition table, lines {}-{}; a later one replaced it)",
                    f.title, u.first, u.last
                );
                for e in &mut f.evidence {
                    if e.source == live.to_string() {
                        e.source = u.key.clone();
                    }
                }
                out.push(f);
            }
        }
    }
    out
}

/// Facts only pasted text carries, added after `facts::derive` with sources pointing at
/// the pasted lines: GELI providers in a `df` listing (seed 000's /dev/ad4s1g.eli).
fn augment(
    sys: &mut SystemFacts,
    rec: &recognize::Recognized,
    lines: &[segment::Line],
    key_of: &dyn Fn(&recognize::Block) -> String,
) {
    geli_in_prose(sys, rec, lines);
    zpool::block_sizes(sys, rec, key_of);
    usb_bridge_lines(sys, lines);
    sysfs_answers(sys, rec, lines);
    // The text parsers of smartctl, hdparm, fdisk, lsblk and kernel logs also serve a
    // paste whose OS is unknown (a bare smartctl report says nothing of it).
    if sys.platform != Platform::Freebsd {
        linux_from_text(sys, rec, key_of);
    }
    modern::augment(sys, rec, lines, key_of);
    for b in rec.blocks.iter().filter(|b| b.tool == Tool::Df) {
        let key = key_of(b);
        for l in b.text.lines() {
            let w: Vec<&str> = l.split_whitespace().collect();
            let (Some(dev), Some(mp)) = (w.first(), w.last()) else {
                continue;
            };
            let Some(name) = dev.strip_prefix("/dev/") else {
                continue;
            };
            let disk = whole_disk(name);
            if disk.is_empty() {
                continue;
            }
            let note = format!("known only from the pasted df listing ({key})");
            let Some(d) = pasted_disk(sys, &disk, &note) else {
                continue;
            };
            if let Some(base) = name.strip_suffix(".eli")
                && !d.layers.iter().any(|l| l.name == name)
            {
                d.layers.push(Layer {
                    kind: Some(LayerKind::Geli),
                    name: name.to_string(),
                    on: vec![base.to_string()],
                    from: vec![key.clone()],
                    ..Default::default()
                });
            }
            if !d.mounts.iter().any(|m| m.mountpoint == *mp) {
                d.mounts.push(Mount {
                    source: dev.to_string(),
                    mountpoint: mp.to_string(),
                    fstype: String::new(),
                    options: String::new(),
                    compression: None,
                });
            }
        }
    }
    if sys.platform == Platform::Unknown && sys.disks.is_empty() {
        sys.os_name = Fact::unknown("the pasted text does not say which OS it came from");
    }
}

/// The disk named `disk`, made (with `note`) when the facts have none yet.
pub(crate) fn pasted_disk<'a>(
    sys: &'a mut SystemFacts,
    disk: &str,
    note: &str,
) -> Option<&'a mut facts::DiskFacts> {
    if !sys.disks.iter().any(|d| d.name == disk) {
        let mut d = facts::DiskFacts::new(disk, &format!("/dev/{disk}"));
        d.notes.push(note.to_string());
        sys.disks.push(d);
    }
    sys.disks.iter_mut().find(|d| d.name == disk)
}

fn disk_mut<'a>(sys: &'a mut SystemFacts, name: &str) -> Option<&'a mut facts::DiskFacts> {
    let name = name.trim_start_matches("/dev/");
    let disk = whole_disk(name);
    let disk = if disk.is_empty() {
        name.to_string()
    } else {
        disk
    };
    if !sys.disks.iter().any(|d| d.name == disk) {
        let mut d = facts::DiskFacts::new(&disk, &format!("/dev/{disk}"));
        d.notes.push("known only from pasted text".to_string());
        sys.disks.push(d);
    }
    sys.disks.iter_mut().find(|d| d.name == disk)
}

fn set_if_unknown<T>(f: &mut Fact<T>, v: Option<T>, from: &str) {
    if let (false, Some(v)) = (f.is_known(), v) {
        *f = Fact::known(v, from);
    }
}

/// Linux facts come from sysfs in a live run; a paste has none, so the disks are those the
/// pasted smartctl, hdparm, lsblk, fdisk, cryptsetup and dmesg outputs name, filled by the
/// shared source parsers (crate::sources) with the pasted blocks as sources.
fn linux_from_text(
    sys: &mut SystemFacts,
    rec: &recognize::Recognized,
    key_of: &dyn Fn(&recognize::Block) -> String,
) {
    use crate::facts::{DeviceClass, Transport};
    use crate::sources as t;
    for b in &rec.blocks {
        let key = key_of(b);
        match b.tool {
            Tool::Smartctl | Tool::SmartctlJson => {
                if let Some(d) = b.device.as_deref().and_then(|dev| disk_mut(sys, dev)) {
                    t::smartctl::apply(d, &key, &b.text);
                    // Text output does not repeat the `-d TYPE` of its command line.
                    let usb = b.command.as_deref().and_then(|c| {
                        let w: Vec<&str> = c.split_whitespace().collect();
                        w.windows(2)
                            .find(|p| p.first().is_some_and(|x| *x == "-d" || *x == "--device"))
                            .and_then(|p| p.get(1).copied())
                            .or_else(|| w.iter().find_map(|x| x.strip_prefix("--device=")))
                    });
                    if usb.is_some_and(t::smartctl::is_usb_device_type) {
                        set_if_unknown(&mut d.transport, Some(Transport::Usb), &key);
                    }
                }
            }
            Tool::HdparmI => {
                let Some(h) = t::hdparm::parse_identify(&b.text) else {
                    continue;
                };
                let Some(dev) = h.device.clone().or_else(|| b.device.clone()) else {
                    continue;
                };
                let Some(d) = disk_mut(sys, &dev) else {
                    continue;
                };
                set_if_unknown(&mut d.model, h.model.clone(), &key);
                set_if_unknown(&mut d.serial, h.serial.clone(), &key);
                set_if_unknown(&mut d.firmware, h.firmware.clone(), &key);
                set_if_unknown(&mut d.logical_sector_bytes, h.logical_sector_bytes, &key);
                set_if_unknown(&mut d.physical_sector_bytes, h.physical_sector_bytes, &key);
                set_if_unknown(&mut d.rotation_rpm, h.rotation_rpm, &key);
                set_if_unknown(&mut d.rotational, h.rotation_rpm.map(|r| r != 0), &key);
                set_if_unknown(
                    &mut d.class,
                    h.rotation_rpm.map(|r| {
                        if r == 0 {
                            DeviceClass::Ssd
                        } else {
                            DeviceClass::Hdd
                        }
                    }),
                    &key,
                );
                set_if_unknown(&mut d.link_drive_max_gbps, h.sata_max_gbps, &key);
                set_if_unknown(&mut d.ncq_supported, h.ncq_supported, &key);
                set_if_unknown(&mut d.ncq_drive_depth, h.queue_depth, &key);
                set_if_unknown(&mut d.write_cache_supported, h.write_cache_supported, &key);
                set_if_unknown(&mut d.write_cache_enabled, h.write_cache_enabled, &key);
                set_if_unknown(&mut d.trim_supported, h.trim_supported, &key);
                let sata = h.transport.as_deref().is_some_and(|x| x.contains("SATA"))
                    || !h.sata_gens.is_empty();
                set_if_unknown(&mut d.transport, sata.then_some(Transport::Sata), &key);
            }
            Tool::HdparmW => {
                for w in t::hdparm::parse_write_cache(&b.text) {
                    let Some(d) = disk_mut(sys, &w.device) else {
                        continue;
                    };
                    // The state hdparm printed last is the drive's state now.
                    if let Some(on) = w.enabled.or(w.set_to) {
                        d.write_cache_enabled = Fact::known(on, key.clone());
                        set_if_unknown(&mut d.write_cache_supported, Some(true), &key);
                    }
                }
            }
            Tool::Lsblk | Tool::LsblkJson => {
                let devs = t::lsblk::parse(&b.text);
                let tops: Vec<String> = devs
                    .iter()
                    .filter(|x| x.depth == 0)
                    .map(|x| x.name.clone())
                    .collect();
                for name in tops {
                    if name.starts_with("loop")
                        || name.starts_with("sr")
                        || name.starts_with("fd")
                        || name.starts_with("zram")
                    {
                        continue;
                    }
                    if let Some(d) = disk_mut(sys, &name) {
                        t::lsblk::apply(d, &key, &devs);
                    }
                }
            }
            Tool::FdiskList | Tool::SfdiskDump => {
                let disks = if b.tool == Tool::SfdiskDump {
                    t::sfdisk::parse_dump(&b.text)
                } else {
                    t::fdisk::parse(&b.text)
                };
                for fd in disks {
                    let Some(dev) = fd.device.clone().or_else(|| b.device.clone()) else {
                        continue;
                    };
                    let Some(d) = disk_mut(sys, &dev) else {
                        continue;
                    };
                    set_if_unknown(&mut d.logical_sector_bytes, fd.logical_sector_bytes, &key);
                    set_if_unknown(&mut d.physical_sector_bytes, fd.physical_sector_bytes, &key);
                    set_if_unknown(&mut d.size_bytes, fd.size_bytes, &key);
                    // fdisk prints "Alignment offset: N bytes" only when N is not zero
                    // (util-linux fdisk-list); with the sector-size line present and no such
                    // line, the offset is 0.
                    if fd.physical_sector_bytes.is_some() && !b.text.contains("Alignment offset") {
                        set_if_unknown(&mut d.alignment_offset_bytes, Some(0), &key);
                    }
                    let sector = fd.logical_sector_bytes.unwrap_or(512);
                    let parts: Vec<facts::Partition> = fd
                        .partitions
                        .iter()
                        .filter_map(|p| {
                            let start = p.start?;
                            Some(facts::Partition {
                                number: p.number.unwrap_or(0),
                                name: p.device.trim_start_matches("/dev/").to_string(),
                                start_sector: start,
                                size_sectors: p.sectors.unwrap_or(0),
                                sector_bytes: sector,
                                start_bytes: start.saturating_mul(u64::from(sector)),
                                type_name: p.type_name.clone(),
                                ..Default::default()
                            })
                        })
                        .collect();
                    if !parts.is_empty() && !d.partition_table.is_known() {
                        let scheme = match fd.label.as_deref() {
                            Some("gpt") => "gpt",
                            _ if fd.gpt_detected => "gpt",
                            _ => "mbr",
                        };
                        d.partition_table = Fact::known(
                            facts::PartitionTable {
                                scheme: scheme.to_string(),
                                partitions: parts,
                                notes: fd.warnings.clone(),
                            },
                            key.clone(),
                        );
                    }
                }
            }
            Tool::CryptsetupStatus => {
                for c in t::cryptsetup::parse(&b.text) {
                    let Some(dev) = c.device.clone() else {
                        continue;
                    };
                    if dev.starts_with("/dev/loop") || dev.starts_with("/dev/mapper/") {
                        continue;
                    }
                    let Some(d) = disk_mut(sys, &dev) else {
                        continue;
                    };
                    if !d.layers.iter().any(|l| l.name == c.mapping) {
                        d.layers.push(Layer {
                            kind: Some(
                                if c.crypt_type
                                    .as_deref()
                                    .is_some_and(|x| x.starts_with("LUKS"))
                                {
                                    LayerKind::Luks
                                } else {
                                    LayerKind::DmCrypt
                                },
                            ),
                            name: c.mapping.clone(),
                            on: vec![dev.trim_start_matches("/dev/").to_string()],
                            cipher: c.cipher.clone(),
                            key_bits: c.key_bits,
                            from: vec![key.clone()],
                            ..Default::default()
                        });
                    }
                }
            }
            _ => {}
        }
    }
    // Kernel log lines about each disk.
    let logs: Vec<(String, &str)> = rec
        .blocks
        .iter()
        .filter(|b| b.tool == Tool::LinuxDmesg)
        .map(|b| (key_of(b), b.text.as_str()))
        .collect();
    // A pasted kernel log is often all there is: its disks ("sd 0:0:0:0: [sda]", "I/O
    // error, dev sda") become disks, and a libata port with events that no named disk
    // claims ("ata1: hard resetting link" alone) becomes the disk on that port.
    for (k, log) in &logs {
        for name in t::kernel_log::disks_named(log) {
            if let Some(d) = disk_mut(sys, &name) {
                if d.notes.iter().all(|n| !n.contains("pasted kernel log")) {
                    d.notes
                        .push(format!("named in the pasted kernel log ({k})"));
                }
                // Removable media (flash sticks, card readers) report WCE=0 in the caching
                // mode page because they keep no volatile cache to switch on: the sd line's
                // "Write cache: disabled" is then no setting to change (sd.c
                // sd_read_cache_type only relays the page).
                // The SCSI scan line's INQUIRY names a hypervisor's disk ("Msft Virtual
                // Disk", "QEMU HARDDISK", "VMware Virtual disk"); an "ATA" vendor is libata's
                // translation and names nothing new.
                if let Some((vendor, model)) = t::kernel_log::inquiry_of(&name, log)
                    && facts::linux::controller::looks_virtual(&vendor, &model)
                {
                    set_if_unknown(&mut d.vendor, Some(vendor), k);
                    set_if_unknown(&mut d.model, Some(model), k);
                    set_if_unknown(&mut d.class, Some(facts::DeviceClass::Virtual), k);
                }
                if !t::kernel_log::is_removable(&name, log) {
                    set_if_unknown(
                        &mut d.write_cache_enabled,
                        t::kernel_log::write_cache_of(&name, log),
                        k,
                    );
                }
                if let Some(drv) = t::kernel_log::usb_driver_of(&name, log) {
                    set_if_unknown(&mut d.transport, Some(Transport::Usb), k);
                    if !d.controller.is_known() {
                        d.controller = Fact::known(
                            facts::Controller {
                                usb_driver: Some(drv.to_string()),
                                ..Default::default()
                            },
                            k.clone(),
                        );
                    }
                }
            }
        }
        // A port whose IDENTIFY line says NCQ goes unused ("NCQ (not used)", "NCQ (depth
        // 0/32)") has a finding to give even without error lines.
        let mut ports = t::kernel_log::ports_with_events(log);
        for p in t::kernel_log::ports_in(log) {
            if !ports.contains(&p)
                && t::kernel_log::ncq_of_port(p, log).is_some_and(|(_, queued, _)| !queued)
            {
                ports.push(p);
            }
        }
        for port in ports {
            let claimed = sys
                .disks
                .iter()
                .any(|d| t::kernel_log::ata_port_guess(&d.name, log) == Some(port));
            let name = format!("ata{port}");
            if claimed {
                continue;
            }
            // A paste cut into several blocks by prose ("...followed by:") is one log: the
            // port's disk made from an earlier block gets this block's lines too.
            if let Some(d) = disk_mut(sys, &name) {
                d.kernel_events
                    .extend(t::kernel_log::events_for_port(port, log, k));
                continue;
            }
            let mut d = facts::DiskFacts::new(&name, &format!("/dev/{name}"));
            d.notes.push(format!(
                "the disk on libata port {name}: the pasted kernel log ({k}) does not say which \
                 /dev/sdX it is (`ls -l /sys/block/ | grep {name}/` does)"
            ));
            d.kernel_events = t::kernel_log::events_for_port(port, log, k);
            set_if_unknown(&mut d.transport, Some(Transport::Sata), k);
            sys.disks.push(d);
        }
    }
    // libata's NCQ description of the disk's port (kernel_log::ncq_of_port).
    for d in &mut sys.disks {
        for (k, log) in &logs {
            let port = d
                .name
                .strip_prefix("ata")
                .and_then(|n| n.parse::<u32>().ok())
                .or_else(|| t::kernel_log::ata_port_guess(&d.name, log));
            if let Some((supported, queued, depth)) =
                port.and_then(|p| t::kernel_log::ncq_of_port(p, log))
            {
                set_if_unknown(&mut d.ncq_supported, Some(supported), k);
                set_if_unknown(&mut d.ncq_active, Some(queued), k);
                set_if_unknown(&mut d.ncq_drive_depth, depth, k);
            }
        }
    }
    for d in &mut sys.disks {
        if !d.kernel_events.is_empty() {
            continue;
        }
        for (k, log) in &logs {
            let mut ev = t::kernel_log::events_for(&d.name, log, k);
            // A pasted log without the line that ties the port to the disk: the port by
            // libata's numbering (kernel_log::port_by_host_number), its lines added once.
            if t::kernel_log::ata_port_for(&d.name, log).is_none()
                && let Some(p) = t::kernel_log::ata_port_guess(&d.name, log)
            {
                for e in t::kernel_log::events_for_port(p, log, k) {
                    if !ev.iter().any(|x| x.line == e.line) {
                        ev.push(e);
                    }
                }
            }
            d.kernel_events.extend(ev);
        }
    }
}

/// A sentence saying a disk is GELI-encrypted (seed 002: "that on the HDD is on a GELI
/// encrypted partition") when no `geli list` was pasted: the disk is the one the sentence
/// names, else the one identify output shows as rotating (HDD) or not (SSD), else the only
/// disk in the text. Recorded as a GELI layer whose source is the sentence.
fn geli_in_prose(sys: &mut SystemFacts, rec: &recognize::Recognized, lines: &[segment::Line]) {
    if rec.blocks.iter().any(|b| b.tool == Tool::GeliList) {
        return;
    }
    let ident: Vec<&recognize::Block> = rec
        .blocks
        .iter()
        .filter(|b| {
            matches!(b.tool, Tool::CamcontrolIdentify | Tool::AtacontrolCap) && b.device.is_some()
        })
        .collect();
    let rotating = |b: &recognize::Block| {
        b.text
            .lines()
            .find(|x| x.starts_with("media RPM"))
            .and_then(|x| x.split_whitespace().last()?.parse::<u32>().ok())
            .is_some_and(|r| r > 1)
    };
    for l in lines {
        if !l.text.contains("GELI") || l.text.len() > 400 {
            continue;
        }
        let named = l
            .text
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| w.chars().any(|c| c.is_ascii_digit()))
            .find(|w| recognize::device_in_args(w).is_some() && !whole_disk(w).is_empty())
            .map(whole_disk);
        let t = l.text.to_ascii_lowercase();
        let disk = named.or_else(|| {
            let pick = if t.contains("hdd") || t.contains("hard disk") || t.contains("harddisk") {
                ident.iter().find(|b| rotating(b))
            } else if t.contains("ssd") {
                ident.iter().find(|b| !rotating(b))
            } else if ident.len() == 1 {
                ident.first()
            } else {
                None
            };
            pick.and_then(|b| b.device.clone())
        });
        let Some(disk) = disk else { continue };
        let from = format!("pasted:prose line {}", l.first);
        let idx = match sys.disks.iter().position(|d| d.name == disk) {
            Some(i) => i,
            None => {
                sys.disks
                    .push(facts::DiskFacts::new(&disk, &format!("/dev/{disk}")));
                sys.disks.len() - 1
            }
        };
        if let Some(d) = sys.disks.get_mut(idx)
            && !d.layers.iter().any(|x| x.kind == Some(LayerKind::Geli))
        {
            d.layers.push(Layer {
                kind: Some(LayerKind::Geli),
                name: format!("{disk} (GELI, as the text says)"),
                on: vec![disk.clone()],
                from: vec![from],
                ..Default::default()
            });
            d.notes.push(format!(
                "GELI layer known only from a sentence (line {}): \"{}\"",
                l.first,
                l.text.trim()
            ));
        }
    }
}

/// The answers to the sysfs reads explain asks for (next_commands): a typed
/// `cat /sys/block/sda/queue/write_cache` followed by "write back" / "write through"
/// (Documentation/block/queue-sysfs.rst), `.../device/queue_depth` followed by a number,
/// `.../queue/scheduler` followed by "[mq-deadline] kyber bfq none".
fn sysfs_answers(sys: &mut SystemFacts, rec: &recognize::Recognized, lines: &[segment::Line]) {
    for c in rec
        .commands
        .iter()
        .filter(|c| c.typed && c.program == "cat")
    {
        let Some(path) = c
            .text
            .split_whitespace()
            .find(|w| w.starts_with("/sys/block/"))
        else {
            continue;
        };
        let mut parts = path.trim_start_matches("/sys/block/").split('/');
        let (Some(disk), Some(rest)) = (parts.next(), parts.next()) else {
            continue;
        };
        let attr = match (rest, parts.next()) {
            ("queue", Some(a)) | ("device", Some(a)) => a.to_string(),
            _ => continue,
        };
        // The answer: the next non-empty line of the same input.
        let Some(ans) = lines
            .iter()
            .skip(c.idx.saturating_add(1))
            .take_while(|l| l.src == c.src)
            .find(|l| !l.text.trim().is_empty())
        else {
            continue;
        };
        let a = ans.text.trim();
        let from = format!("pasted:cat {path} line {}", ans.first);
        if disk.is_empty() || !disk.chars().all(|ch| ch.is_ascii_alphanumeric()) {
            continue;
        }
        let Some(d) = disk_mut(sys, disk) else {
            continue;
        };
        match attr.as_str() {
            "write_cache" if a == "write back" => {
                set_if_unknown(&mut d.write_cache_enabled, Some(true), &from)
            }
            "write_cache" if a == "write through" => {
                set_if_unknown(&mut d.write_cache_enabled, Some(false), &from)
            }
            "queue_depth" => {
                set_if_unknown(&mut d.queue_depth, a.parse::<u32>().ok(), &from);
            }
            "scheduler" if a.contains('[') || !a.contains(' ') => {
                set_if_unknown(&mut d.scheduler, Some(a.to_string()), &from);
            }
            _ => {}
        }
    }
}

/// smartctl's "/dev/sdd: Unknown USB bridge [0x8564:0x7000 (0x8000)]" (printed before it
/// asks for `-d TYPE`, outside any report) proves the disk sits behind a USB bridge.
fn usb_bridge_lines(sys: &mut SystemFacts, lines: &[segment::Line]) {
    for l in lines {
        let t = l.text.trim();
        let Some((dev, _)) = t.split_once(": Unknown USB bridge [") else {
            continue;
        };
        let Some(name) = dev.strip_prefix("/dev/") else {
            continue;
        };
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric()) {
            continue;
        }
        let from = format!("pasted:line {}", l.first);
        if let Some(d) = disk_mut(sys, name) {
            set_if_unknown(&mut d.transport, Some(facts::Transport::Usb), &from);
        }
    }
}

/// ada0p2 -> ada0, ad4s1g.eli -> ad4, sda1 -> sda, nvme0n1p2 -> nvme0n1, da0s1a -> da0.
pub fn whole_disk(name: &str) -> String {
    let n = name.trim_end_matches(".eli");
    if let Some(p) = n.find("nvme")
        && p == 0
    {
        return match n.rfind('p') {
            Some(i)
                if i > 4
                    && n[i + 1..].chars().all(|c| c.is_ascii_digit())
                    && !n[i + 1..].is_empty() =>
            {
                n[..i].to_string()
            }
            _ => n.to_string(),
        };
    }
    let letters: String = n.chars().take_while(|c| c.is_ascii_alphabetic()).collect();
    if letters.starts_with("sd") || letters.starts_with("hd") || letters.starts_with("vd") {
        return letters;
    }
    let rest = &n[letters.len()..];
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    if letters.is_empty() || digits.is_empty() {
        return String::new();
    }
    format!("{letters}{digits}")
}

/// Whole-disk device names the text is about, in order of appearance.
fn disks_in_text(rec: &recognize::Recognized, sys: &SystemFacts) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut add = |d: &str| {
        let mut w = whole_disk(d.trim_start_matches("/dev/"));
        // Old BSD raw twins (rwd2) name the same disk as wd2.
        if ["rwd", "rsd", "rad", "rda"]
            .iter()
            .any(|p| w.starts_with(p))
        {
            w.remove(0);
        }
        let ok = !w.is_empty()
            && ![
                "pass", "md", "loop", "ses", "cd", "acd", "ar", "null", "zero", "random", "urandom",
            ]
            .iter()
            .any(|p| w.starts_with(p) && w[p.len()..].chars().all(|c| c.is_ascii_digit()));
        if ok && !out.contains(&w) {
            out.push(w);
        }
    };
    for b in &rec.blocks {
        if let Some(d) = &b.device {
            add(d);
        }
    }
    for c in rec.commands.iter().filter(|c| c.typed) {
        for w in c.text.split_whitespace() {
            let w = w.trim_start_matches("if=").trim_start_matches("of=");
            if w.starts_with("/dev/") {
                add(w);
            }
        }
        if let Some(d) = &c.device {
            add(d);
        }
    }
    for d in &sys.disks {
        add(&d.name);
    }
    out
}

fn has(rec: &recognize::Recognized, tools: &[Tool]) -> bool {
    rec.blocks.iter().any(|b| tools.contains(&b.tool))
}

fn missing_facts(
    rec: &recognize::Recognized,
    sys: &SystemFacts,
    platform: Platform,
) -> Vec<String> {
    let mut m = Vec::new();
    let ident = has(
        rec,
        &[
            Tool::CamcontrolIdentify,
            Tool::AtacontrolCap,
            Tool::Smartctl,
            Tool::SmartctlJson,
            Tool::HdparmI,
        ],
    );
    if !ident {
        m.push("the drive's capabilities: write cache on/off, NCQ, SATA link speed, sector sizes, rotation rate".to_string());
    }
    let controller = has(
        rec,
        &[
            Tool::FreebsdDmesg,
            Tool::LinuxDmesg,
            Tool::Pciconf,
            Tool::PciconfLvc,
            Tool::LspciVv,
            Tool::CamcontrolDevlist,
        ],
    );
    let nvme_only = !sys.disks.is_empty() && sys.disks.iter().all(crate::checks::common::is_nvme);
    if !controller {
        m.push(if nvme_only {
            // NVMe has no controller mode; its bus is the PCIe link.
            "the NVMe drive's PCIe link (speed and width, current and maximum)".to_string()
        } else {
            "the disk controller and its mode (AHCI or legacy IDE/compatibility)".to_string()
        });
    }
    if !has(
        rec,
        &[
            Tool::GpartShow,
            Tool::GpartList,
            Tool::FdiskList,
            Tool::SfdiskDump,
            Tool::BsdFdisk,
            Tool::Lsblk,
            Tool::LsblkJson,
        ],
    ) {
        m.push("the partition layout (partition start sectors, for alignment)".to_string());
    }
    if platform != Platform::Linux
        && !has(rec, &[Tool::Diskinfo, Tool::GpartList, Tool::GeomDiskList])
    {
        m.push("the stripe size and offset GEOM reports (physical sector, alignment)".to_string());
    }
    if !has(
        rec,
        &[
            Tool::GeliList,
            Tool::CryptsetupStatus,
            Tool::DmsetupTable,
            Tool::ZpoolStatus,
        ],
    ) {
        m.push("the layers between filesystem and disk (encryption, LVM, ZFS pool)".to_string());
    }
    if sys.user_benchmarks.is_empty() {
        m.push("a measurement: an honest read test of the raw disk".to_string());
    } else if sys
        .user_benchmarks
        .iter()
        .any(|b| b.tool == "dd" && b.command.is_none())
    {
        m.push("the dd command lines behind some pasted dd results".to_string());
    }
    for d in &sys.disks {
        for (what, known) in [
            ("write cache", d.write_cache_enabled.is_known()),
            (
                "SATA link speed",
                d.link_current_gbps.is_known() || !d.is_ata(),
            ),
            ("physical sector size", d.physical_sector_bytes.is_known()),
        ] {
            if !known && ident {
                m.push(format!("{}: {what}", d.name));
            }
        }
    }
    m
}

fn next_commands(
    rec: &recognize::Recognized,
    sys: &SystemFacts,
    platform: Platform,
) -> Vec<String> {
    // The placeholder disk has no device node to run commands on.
    let disks: Vec<String> = disks_in_text(rec, sys)
        .into_iter()
        .filter(|d| !facts::is_pasted_disk(d))
        .collect();
    let mut out = Vec::new();
    if platform == Platform::Unknown {
        // The commands differ per OS: ask which one first (issue 16).
        out.push(
            "uname -sr    # which OS? the commands below assume it from the disk names".to_string(),
        );
    }
    // An NVMe drive of a paste whose OS is unknown (a smartctl report cut to its health
    // section names neither): each OS's NVMe commands, marked, rather than guessing SATA.
    let all_nvme = !sys.disks.is_empty() && sys.disks.iter().all(crate::checks::common::is_nvme);
    if platform == Platform::Unknown && all_nvme && !disks.iter().any(|d| d.starts_with("sd")) {
        let named = |os: &str, v: Vec<String>| {
            v.into_iter()
                .map(|c| format!("{c}    # {os}"))
                .collect::<Vec<_>>()
        };
        out.extend(named(
            "Linux",
            modern::nvme_next_commands("nvme0n1", true, rec),
        ));
        out.extend(named(
            "FreeBSD",
            modern::nvme_next_commands("nvd0", false, rec),
        ));
        return out;
    }
    match platform {
        Platform::Linux | Platform::Unknown
            if platform == Platform::Linux || disks.iter().any(|d| d.starts_with("sd")) =>
        {
            let mut ds: Vec<String> = if disks.is_empty() {
                vec!["sda".to_string()]
            } else {
                // An NVMe controller named by nvme-cli (nvme0) is the character device;
                // its first namespace (nvme0n1) is the disk the commands read.
                disks
                    .iter()
                    .map(
                        |d| match crate::sources::modern_detect::nvme_controller(d) {
                            Some(c) if c == *d => format!("{c}n1"),
                            _ => d.clone(),
                        },
                    )
                    .collect()
            };
            let mut seen_d = std::collections::HashSet::new();
            ds.retain(|d| seen_d.insert(d.clone()));
            for d in &ds {
                if d.starts_with("nvme") {
                    out.extend(modern::nvme_next_commands(d, true, rec));
                    continue;
                }
                if !(d.starts_with("sd") || d.starts_with("hd") || d.starts_with("vd")) {
                    continue;
                }
                if !has_dev(rec, &[Tool::Smartctl, Tool::SmartctlJson], d) {
                    out.push(format!("smartctl -x /dev/{d}"));
                }
                out.push(format!("cat /sys/block/{d}/queue/write_cache"));
                out.push(format!("cat /sys/block/{d}/device/queue_depth"));
            }
            if !has(rec, &[Tool::Lsblk, Tool::LsblkJson]) {
                out.push(
                    "lsblk -o NAME,PHY-SEC,LOG-SEC,ALIGNMENT,ROTA,MODEL,TRAN,SCHED".to_string(),
                );
            }
            let all_nvme = ds.iter().all(|d| d.starts_with("nvme"));
            if !has(rec, &[Tool::LinuxDmesg]) {
                out.push(if all_nvme {
                    "dmesg | grep -iE 'nvme|pcieport|aer'".to_string()
                } else {
                    "dmesg | grep -iE 'ata[0-9]|ahci|sd[a-z]'".to_string()
                });
            }
            if !all_nvme {
                out.push("lspci -nnk | grep -iA3 'sata\\|ide\\|raid\\|nvme'".to_string());
            }
            if !has(rec, &[Tool::FdiskList, Tool::SfdiskDump]) {
                for d in ds.iter().filter(|d| d.starts_with("sd")) {
                    out.push(format!("fdisk -l /dev/{d}"));
                }
            }
            if let Some(d) = ds.first() {
                out.push(format!(
                    "dd if=/dev/{d} of=/dev/null bs=1M count=2000 iflag=direct"
                ));
            }
        }
        _ => {
            let ds: Vec<String> = if disks.is_empty() {
                vec!["ada0".to_string()]
            } else {
                disks.clone()
            };
            for d in &ds {
                let letters: String = d.chars().take_while(|c| c.is_ascii_alphabetic()).collect();
                let unit: String = d[letters.len()..].to_string();
                match letters.as_str() {
                    "ad" => {
                        // ata(4) adN disks: FreeBSD <= 8, where atacontrol is the identify tool.
                        if !has_dev(rec, &[Tool::AtacontrolCap], d) {
                            out.push(format!("atacontrol cap {d}"));
                        }
                        out.push("atacontrol list".to_string());
                        out.push("sysctl hw.ata.wc".to_string());
                    }
                    "ada" | "da" => {
                        if !has_dev(rec, &[Tool::CamcontrolIdentify], d) {
                            out.push(format!("camcontrol identify {d}"));
                        }
                        if letters == "ada" {
                            out.push(format!("sysctl kern.cam.ada.{unit}.write_cache"));
                        }
                    }
                    "nvd" | "nda" => out.extend(modern::nvme_next_commands(d, false, rec)),
                    _ => {}
                }
                if !has_dev(rec, &[Tool::Diskinfo], d) {
                    out.push(format!("diskinfo -v {d}"));
                }
            }
            if !ds
                .iter()
                .all(|d| d.starts_with("nvd") || d.starts_with("nda"))
            {
                out.push("camcontrol devlist -v".to_string());
            }
            if !has(rec, &[Tool::GpartShow]) {
                out.push("gpart show -p".to_string());
            }
            if !has(rec, &[Tool::GeliList]) {
                out.push("geli list".to_string());
            }
            if !has(rec, &[Tool::Pciconf, Tool::PciconfLvc]) {
                out.push("pciconf -lv | grep -B3 -i 'mass storage'".to_string());
            }
            if !has(rec, &[Tool::FreebsdDmesg]) {
                out.push(
                    "grep -E '^(ada?|da|atapci|ahci|ahcich|ata)[0-9]+:' /var/run/dmesg.boot"
                        .to_string(),
                );
            }
            if rec.blocks.iter().any(|b| b.tool == Tool::ZpoolStatus)
                || rec.commands.iter().any(|c| c.text.contains("zfs"))
            {
                out.push("zfs get compression,recordsize".to_string());
            }
            if let Some(d) = ds.first() {
                out.push(format!("dd if=/dev/{d} of=/dev/null bs=1m count=2000"));
            }
        }
    }
    let mut seen = std::collections::HashSet::new();
    out.retain(|c| seen.insert(c.clone()));
    out
}

fn has_dev(rec: &recognize::Recognized, tools: &[Tool], dev: &str) -> bool {
    rec.blocks.iter().any(|b| {
        tools.contains(&b.tool)
            && b.device
                .as_deref()
                .map(|d| whole_disk(d.trim_start_matches("/dev/")))
                .as_deref()
                == Some(dev)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_disk_names() {
        assert_eq!(whole_disk("ad4s1g.eli"), "ad4");
        assert_eq!(whole_disk("ada0p2"), "ada0");
        assert_eq!(whole_disk("sda1"), "sda");
        assert_eq!(whole_disk("nvme0n1p2"), "nvme0n1");
        assert_eq!(whole_disk("da0s1a"), "da0");
        assert_eq!(whole_disk("zero"), "");
    }
}
