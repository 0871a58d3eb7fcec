//! `diskdoc explain`: diagnose from tool outputs pasted into a mail or forum post.
//! Text -> [`segment`] (clean lines) -> [`recognize`] (tool blocks, commands) -> [`bundle`]
//! (an evidence bundle as a live probe would have captured it) -> `facts::derive` exactly
//! as a live run, then `facts::pasted::derive` (what the paste proves beyond the bundle
//! keys: sentences, typed sysfs reads, the Linux tools' text) -> `checks::run_all`, with
//! the pasted benchmarks judged by the benchmark critics (checks/benchmark_*.rs) and
//! [`critic`]'s observations. What to run next is decided here too.

pub mod bundle;
pub(crate) mod critic;
pub(crate) mod devices;
pub(crate) mod link_ceiling;
pub(crate) mod nvme_diskmark;
pub(crate) mod own_report;
pub mod recognize;
pub mod render;
pub mod segment;
pub(crate) mod tool_readings;

use schemars::JsonSchema;
use serde::Serialize;

use crate::checks::{self, Finding};
use crate::evidence::{EvidenceBundle, Platform};
pub use crate::facts::device_names::whole_disk;
use crate::facts::{self, SystemFacts, UserBenchmark};
use crate::sources::{self, ask, ask_bare, spec::Ask, spec::SourceSpec};
use recognize::Command;

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

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// The whole answer.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Explanation {
    pub inputs: Vec<String>,
    pub lines_read: usize,
    /// Lines past the input cap that were not read (0, and then absent, for most inputs).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub lines_not_read: usize,
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
    let mut lines_not_read = 0usize;
    for (i, inp) in inputs.iter().enumerate() {
        match segment::prepare(i, &inp.label, &inp.bytes) {
            Ok(p) => {
                total += p.total_lines;
                lines_not_read += p.lines_not_read;
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
             {}/devlist, atacontrol cap, diskinfo, gpart show/list, geli list, pciconf -lv/-lvc, \
             dmesg, sysctl, zpool status, iostat, gstat, {}, hdparm, lsblk, fdisk/sfdisk, \
             cryptsetup status, dmsetup table, fio, dd, {}, /proc/mdstat, nvme smart-log/id-ns, \
             nvme get-log, nvmecontrol, zpool get ashift, zdb -C, /proc/crypto, udevadm info, \
             atacontrol smart, CrystalDiskMark, KDiskMark and diskdoc's own report",
            labels.join(", "),
            total,
            ask_bare(Ask::CamIdentify),
            ask_bare(Ask::SmartProgram),
            ask_bare(Ask::PciVerbose)
        )));
    }
    let (mut bundle, used) = bundle::assemble(&mut rec, &lines, &labels);
    let benches = critic::user_benchmarks(&rec, &lines);
    let mut sys = facts::derive(&bundle);
    sys.user_benchmarks = benches.iter().map(|b| b.bench.clone()).collect();
    sys.user_benchmarks
        .extend(nvme_diskmark::diskmark_benchmarks(&rec));
    sys.user_benchmarks
        .extend(nvme_diskmark::iozone_benchmarks(&rec));
    sys.user_benchmarks
        .extend(nvme_diskmark::pi_benchmarks(&rec));
    sys.user_benchmarks.extend(
        rec.blocks
            .iter()
            .filter(|b| b.tool.is(&crate::sources::bonnie::SPEC))
            .flat_map(|b| crate::sources::bonnie::block_reads(&b.text, &b.key)),
    );
    facts::pasted::derive(&mut sys, &rec.pasted(&lines));
    let mut findings = checks::run_all(&sys);
    findings.extend(earlier_layouts(&bundle, &used, &sys, &findings));
    findings.extend(critic::observations(&rec, &lines, &benches));
    findings.extend(critic::layout_observations(&rec, &benches));
    findings.extend(critic::bs_script_observations(&rec, &lines));
    findings.extend(critic::zdb_ashift_observations(&rec, &lines));
    findings.extend(critic::fio_latency_observations(&rec));
    findings.extend(critic::etcd_latency_observations(&rec));
    findings.extend(critic::etcd_log_observations(&rec));
    findings.extend(critic::fio_error_observations(&rec, sys.platform));
    findings.extend(critic::dd_error_observations(&sys));
    findings.extend(tool_readings::f3_error_observations(&rec));
    findings.extend(tool_readings::diskscan_error_observations(&rec));
    findings.extend(tool_readings::app_file_error_observations(&rec));
    findings.extend(tool_readings::checksum_observations(&lines, sys.platform));
    findings.extend(tool_readings::bpf_block_latency_observations(&rec));
    findings.extend(tool_readings::fio_buffered_read_observations(&rec));
    // A paravirtual disk's fio figures (notice) say what the per-disk check says at
    // information level: one finding per device, the one that reads the figure.
    let virt = tool_readings::fio_virtual_disk_observations(&rec);
    findings.retain(|f| {
        !(f.check == checks::virtual_or_bridged_device::ID
            && f.severity < checks::Severity::Notice
            && virt.iter().any(|v| v.device == f.device))
    });
    let virt: Vec<Finding> = virt
        .into_iter()
        .filter(|v| {
            !findings
                .iter()
                .any(|f| f.check == v.check && f.device == v.device)
        })
        // A figure another finding already reads as the page cache's measures no storage.
        .filter(|v| {
            !findings.iter().any(|f| {
                f.severity >= checks::Severity::Notice
                    && (f.check == "benchmark-buffered-device" && f.device == v.device
                        || f.check == "cache-answered"
                        || f.check == "benchmark-page-cache")
            })
        })
        .collect();
    findings.extend(virt);
    let stalls = critic::fio_stall_observations(&rec, &findings);
    findings.extend(stalls);
    let ceilings = link_ceiling::link_ceiling_observations(&rec, &sys, &findings);
    findings.extend(ceilings);
    findings.extend(own_report::stated_findings(&rec, bundle.platform));
    checks::rank(&mut findings);
    devices::speak_of_placeholders(&mut findings, &used);
    bundle.notes.splice(0..0, notes.iter().cloned());
    let notes: Vec<String> = notes
        .iter()
        .map(|n| devices::placeholder_prose(n))
        .collect();
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
    let missing = missing_facts(&rec, &sys, platform)
        .iter()
        .map(|m| devices::placeholder_prose(m))
        .collect();
    let next_commands = next_commands(&rec, &sys, platform);
    Ok(Explanation {
        inputs: labels,
        lines_read: total,
        lines_not_read,
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
    for u in used.iter().filter(|u| {
        u.superseded
            && u.tool
                .is_any(&[&sources::gpart_show::SPEC, &sources::fdisk::SPEC])
    }) {
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

fn has(rec: &recognize::Recognized, tools: &[&SourceSpec]) -> bool {
    rec.blocks.iter().any(|b| b.tool.is_any(tools))
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
            &sources::camcontrol_identify::SPEC,
            &sources::camcontrol_identify::ATACONTROL_SPEC,
            &sources::hdparm::IDENTIFY_SPEC,
        ],
    ) || has(rec, sources::SMART_REPORTS);
    if !ident {
        m.push("the drive's capabilities: write cache on/off, NCQ, SATA link speed, sector sizes, rotation rate".to_string());
    }
    let controller = has(
        rec,
        &[
            &sources::dmesg::SPEC,
            &sources::kernel_log::LINUX_SPEC,
            &sources::pciconf::SPEC,
            &sources::pciconf::LVC_SPEC,
            &sources::block_recognisers::LSPCI_VV_SPEC,
            &sources::camcontrol_devlist::SPEC,
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
            &sources::gpart_show::SPEC,
            &sources::gpart_list::SPEC,
            &sources::fdisk::SPEC,
            &sources::sfdisk::SPEC,
            &sources::bsd_fdisk::SPEC,
            &sources::lsblk::SPEC,
            &sources::lsblk::JSON_SPEC,
        ],
    ) {
        m.push("the partition layout (partition start sectors, for alignment)".to_string());
    }
    if platform != Platform::Linux
        && !has(
            rec,
            &[
                &sources::diskinfo::SPEC,
                &sources::gpart_list::SPEC,
                &sources::geom_disk::SPEC,
            ],
        )
    {
        m.push("the stripe size and offset GEOM reports (physical sector, alignment)".to_string());
    }
    if !has(
        rec,
        &[
            &sources::geli::SPEC,
            &sources::cryptsetup::SPEC,
            &sources::dmsetup::SPEC,
            &sources::zpool::SPEC,
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

/// The name the follow-up commands give a disk the paste does not name: the poster fills
/// it in ("the disk you pasted"); a guessed `sda`/`ada0` could be another disk of theirs.
pub(crate) const DISK_PLACEHOLDER: &str = "DISK";

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
    let linux_names = disks.iter().any(|d| d.starts_with("sd"));
    if platform == Platform::Unknown && !linux_names {
        // Which OS is not known and no disk name tells: ask, and give each OS's list,
        // marked, with the placeholder where the paste names no disk.
        out.push(format!(
            "uname -sr    # which OS? then run its list below; {DISK_PLACEHOLDER} stands for the disk you pasted"
        ));
        let all_nvme =
            !sys.disks.is_empty() && sys.disks.iter().all(crate::checks::common::is_nvme);
        let named = |os: &str, v: Vec<String>| {
            v.into_iter()
                .map(|c| format!("{c}    # {os}"))
                .collect::<Vec<_>>()
        };
        if all_nvme {
            // An NVMe drive of a paste whose OS is unknown (a smartctl report cut to its
            // health section names neither): each OS's NVMe commands rather than SATA ones.
            out.extend(named(
                "Linux",
                nvme_diskmark::nvme_next_commands("nvme0n1", true, rec),
            ));
            out.extend(named(
                "FreeBSD",
                // The controller node: FreeBSD's NVMe tools name it, and which nvdN is on
                // it is not in a paste of unknown OS.
                nvme_diskmark::nvme_next_commands("nvme0", false, rec),
            ));
        } else {
            let ds = vec![DISK_PLACEHOLDER.to_string()];
            out.extend(named("Linux", linux_next_commands(rec, &ds)));
            out.extend(named("FreeBSD", freebsd_next_commands(rec, &ds)));
        }
        dedup(&mut out);
        return out;
    }
    let linux = platform == Platform::Linux || linux_names;
    let mut ds: Vec<String> = if disks.is_empty() {
        vec![DISK_PLACEHOLDER.to_string()]
    } else if linux {
        // An NVMe controller named by nvme-cli (nvme0) is the character device;
        // its first namespace (nvme0n1) is the disk the commands read.
        disks
            .iter()
            .map(
                |d| match crate::sources::block_recognisers::nvme_controller(d) {
                    Some(c) if c == *d => format!("{c}n1"),
                    _ => d.clone(),
                },
            )
            .collect()
    } else {
        disks.clone()
    };
    let mut seen_d = std::collections::HashSet::new();
    ds.retain(|d| seen_d.insert(d.clone()));
    out.extend(if linux {
        linux_next_commands(rec, &ds)
    } else {
        freebsd_next_commands(rec, &ds)
    });
    dedup(&mut out);
    out
}

fn dedup(out: &mut Vec<String>) {
    let mut seen = std::collections::HashSet::new();
    out.retain(|c| seen.insert(c.clone()));
}

/// Linux: smartctl, the sysfs files of the SCSI disk (Documentation/ABI/testing/sysfs-block),
/// lsblk, the kernel log, the controller, the partition table and a direct read.
fn linux_next_commands(rec: &recognize::Recognized, ds: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let placeholder = |d: &str| d == DISK_PLACEHOLDER;
    for d in ds {
        if d.starts_with("nvme") {
            out.extend(nvme_diskmark::nvme_next_commands(d, true, rec));
            continue;
        }
        if !(d.starts_with("sd") || d.starts_with("hd") || d.starts_with("vd") || placeholder(d)) {
            continue;
        }
        if !has_dev(rec, sources::SMART_REPORTS, d) {
            out.push(ask(Ask::SmartExtended, &format!("/dev/{d}")));
        }
        out.push(format!("cat /sys/block/{d}/queue/write_cache"));
        out.push(format!("cat /sys/block/{d}/device/queue_depth"));
    }
    if !has(rec, &[&sources::lsblk::SPEC, &sources::lsblk::JSON_SPEC]) {
        out.push("lsblk -o NAME,PHY-SEC,LOG-SEC,ALIGNMENT,ROTA,MODEL,TRAN,SCHED".to_string());
    }
    let all_nvme = ds.iter().all(|d| d.starts_with("nvme"));
    if !has(rec, &[&sources::kernel_log::LINUX_SPEC]) {
        out.push(if all_nvme {
            "dmesg | grep -iE 'nvme|pcieport|aer'".to_string()
        } else {
            "dmesg | grep -iE 'ata[0-9]|ahci|sd[a-z]'".to_string()
        });
    }
    if !all_nvme {
        out.push(ask_bare(Ask::PciStorageDrivers));
    }
    if !has(rec, &[&sources::fdisk::SPEC, &sources::sfdisk::SPEC]) {
        for d in ds.iter().filter(|d| d.starts_with("sd") || placeholder(d)) {
            out.push(format!("fdisk -l /dev/{d}"));
        }
    }
    if let Some(d) = ds.first() {
        out.push(format!(
            "dd if=/dev/{d} of=/dev/null bs=1M count=2000 iflag=direct"
        ));
    }
    out
}

/// FreeBSD: camcontrol(8)/atacontrol(8) identify, diskinfo(8), the CAM device list, GEOM's
/// partitions and GELI, the controller (pciconf(8)), the boot log and a raw read.
fn freebsd_next_commands(rec: &recognize::Recognized, ds: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for d in ds {
        let letters: String = d.chars().take_while(|c| c.is_ascii_alphabetic()).collect();
        let unit: String = d[letters.len()..].to_string();
        match letters.as_str() {
            "ad" => {
                // ata(4) adN disks: FreeBSD <= 8, where atacontrol is the identify tool.
                if !has_dev(rec, &[&sources::camcontrol_identify::ATACONTROL_SPEC], d) {
                    out.push(format!("atacontrol cap {d}"));
                }
                out.push("atacontrol list".to_string());
                out.push("sysctl hw.ata.wc".to_string());
            }
            "ada" | "da" => {
                if !has_dev(rec, &[&sources::camcontrol_identify::SPEC], d) {
                    out.push(ask(Ask::CamIdentify, d));
                }
                if letters == "ada" {
                    out.push(format!("sysctl kern.cam.ada.{unit}.write_cache"));
                }
            }
            "nvd" | "nda" => out.extend(nvme_diskmark::nvme_next_commands(d, false, rec)),
            // A drive mfi(4) passes through: smartctl cannot reach it through
            // /dev/mfisyspdN (a GEOM disk of the controller's firmware); the mfip module
            // gives each physical drive a pass(4) device (sys/dev/mfi/mfi_cam.c), and
            // mfiutil(8) names the drive and its link.
            "mfisyspd" => {
                out.push(format!(
                    "kldload mfip    # then the drive's passN is in {}",
                    ask_bare(Ask::CamDevlist)
                ));
                out.push(format!(
                    "{}    # a SATA drive: {}",
                    ask(Ask::SmartReport, "/dev/passN"),
                    ask(Ask::SmartSatReport, "/dev/passN")
                ));
                out.push("mfiutil show drives".into());
            }
            // A disk known only by its controller (nvmecontrol, pciconf named nvmeN): the
            // controller's commands, and no diskinfo/dd on a node that is not a disk.
            "nvme" => {
                out.extend(nvme_diskmark::nvme_next_commands(d, false, rec));
                out.push("nvmecontrol devlist".to_string());
                continue;
            }
            _ if d == DISK_PLACEHOLDER && !has(rec, &[&sources::camcontrol_identify::SPEC]) => {
                out.push(ask(Ask::CamIdentify, d));
            }
            _ => {}
        }
        if !has_dev(rec, &[&sources::diskinfo::SPEC], d) {
            out.push(format!("diskinfo -v {d}"));
        }
    }
    if !ds
        .iter()
        .all(|d| d.starts_with("nvd") || d.starts_with("nda") || d.starts_with("nvme"))
    {
        out.push(ask_bare(Ask::CamDevlist));
    }
    if !has(rec, &[&sources::gpart_show::SPEC]) {
        out.push("gpart show -p".to_string());
    }
    if !has(rec, &[&sources::geli::SPEC]) {
        out.push("geli list".to_string());
    }
    if !has(rec, &[&sources::pciconf::SPEC, &sources::pciconf::LVC_SPEC]) {
        out.push("pciconf -lv | grep -B3 -i 'mass storage'".to_string());
    }
    if !has(rec, &[&sources::dmesg::SPEC]) {
        out.push(
            "grep -E '^(ada?|da|atapci|ahci|ahcich|ata)[0-9]+:' /var/run/dmesg.boot".to_string(),
        );
    }
    if rec.blocks.iter().any(|b| b.tool.is(&sources::zpool::SPEC))
        || rec.commands.iter().any(|c| c.text.contains("zfs"))
    {
        out.push("zfs get compression,recordsize".to_string());
    }
    if let Some(d) = ds.iter().find(|d| !d.starts_with("nvme")) {
        out.push(format!("dd if=/dev/{d} of=/dev/null bs=1m count=2000"));
    }
    out
}

fn has_dev(rec: &recognize::Recognized, tools: &[&SourceSpec], dev: &str) -> bool {
    rec.blocks.iter().any(|b| {
        b.tool.is_any(tools)
            && b.device
                .as_deref()
                .map(|d| whole_disk(d.trim_start_matches("/dev/")))
                .as_deref()
                == Some(dev)
    })
}

#[cfg(test)]
mod expert_readings;

#[cfg(test)]
mod tests;

// Pasted zpool status read end to end (facts/pasted/zpool.rs through the checks): here, at
// explain's rank, because they run explain.
#[cfg(test)]
mod prose_tests;
#[cfg(test)]
mod zpool_tests;
