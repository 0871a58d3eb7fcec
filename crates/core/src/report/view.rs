//! The content of a human report, independent of format: sections of labelled rows, tables,
//! charts and paragraphs built from the facts and benchmark results. `text.rs` and
//! `markdown.rs` lay the same blocks out, so both formats always say the same things.

use std::collections::BTreeMap;

use crate::checks::{Finding, Verdict};
use crate::evidence::{BenchResult, StopReason, TestName};
use crate::facts::{Controller, ControllerMode, DiskFacts, Fact, Partition, Transport};
use crate::report::{Report, chart};
use crate::units;

/// The findings a report lists in full (problems and unknowns) and the ones it only names
/// (passes), each in report order: text and Markdown show the same split.
pub(crate) fn shown_and_passed(r: &Report) -> (Vec<&Finding>, Vec<&Finding>) {
    let shown = r
        .findings
        .iter()
        .filter(|f| matches!(f.verdict, Verdict::Problem | Verdict::Unknown))
        .collect();
    let passes = r
        .findings
        .iter()
        .filter(|f| f.verdict == Verdict::Pass)
        .collect();
    (shown, passes)
}

/// Lines of one raw output the human reports show before it is cut.
const RAW_LINES: usize = 80;

/// The raw outputs the findings cite, so a reader can check the reading: None when no
/// finding cites a capture; else each capture key with its text, cut at [`RAW_LINES`]
/// (device bytes, `read:` keys, are not readable and stay in the JSON). Markdown and HTML
/// show the same list.
pub(crate) fn raw_outputs(r: &Report) -> Option<Vec<(&str, String)>> {
    let cited: std::collections::BTreeSet<&str> = r
        .findings
        .iter()
        .filter(|f| f.verdict != Verdict::NotApplicable)
        .flat_map(|f| f.evidence.iter().map(|e| e.source.as_str()))
        .filter(|s| r.bundle.captures.contains_key(*s))
        .collect();
    if cited.is_empty() {
        return None;
    }
    let mut out = Vec::new();
    for key in cited {
        let Some(data) = r.bundle.captures.get(key).and_then(|c| c.data()) else {
            continue;
        };
        if key.starts_with("read:") {
            continue;
        }
        let lines: Vec<&str> = data.lines().collect();
        let mut body = lines
            .iter()
            .take(RAW_LINES)
            .copied()
            .collect::<Vec<_>>()
            .join("\n");
        if lines.len() > RAW_LINES {
            body.push_str(&format!(
                "\n[... {} more lines in the JSON report]",
                lines.len() - RAW_LINES
            ));
        }
        out.push((key, body));
    }
    Some(out)
}

/// One piece of a section.
#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    /// Section (level 1) or subsection (level 2) heading.
    Heading(u8, String),
    /// Label/value pairs.
    Rows(Vec<(String, String)>),
    Para(String),
    Table {
        headers: Vec<String>,
        rows: Vec<Vec<String>>,
    },
    /// A titled ASCII chart (pre-rendered lines, already narrow).
    Chart {
        title: String,
        lines: Vec<String>,
    },
}

fn row(k: &str, v: impl Into<String>) -> (String, String) {
    (k.to_string(), v.into())
}

/// `value` when known, else "unknown (why)".
pub fn show<T>(f: &Fact<T>, fmt: impl Fn(&T) -> String) -> String {
    match f {
        Fact::Known { value, .. } => fmt(value),
        Fact::Unknown { why } => format!("unknown ({why})"),
    }
}

fn yes_no(b: &bool) -> String {
    if *b { "yes".into() } else { "no".into() }
}

/// A UTC date and time from Unix seconds (civil-from-days, proleptic Gregorian calendar).
pub fn utc(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = if m <= 2 { y + 1 } else { y };
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02} UTC",
        rem / 3600,
        (rem % 3600) / 60
    )
}

pub(crate) fn mode_label(m: ControllerMode) -> &'static str {
    match m {
        ControllerMode::Ahci => "AHCI",
        ControllerMode::LegacyIde => "legacy IDE",
        ControllerMode::Raid => "RAID",
        ControllerMode::SasHba => "SAS HBA",
        ControllerMode::Nvme => "NVMe",
        ControllerMode::Usb => "USB",
        ControllerMode::Virtio => "virtio",
        ControllerMode::Other => "other",
    }
}

fn transport_label(t: Transport) -> &'static str {
    match t {
        Transport::Sata => "SATA",
        Transport::Pata => "PATA",
        Transport::Sas => "SAS",
        Transport::Scsi => "SCSI",
        Transport::Nvme => "NVMe",
        Transport::Virtio => "virtio",
        Transport::Usb => "USB",
        Transport::Mmc => "MMC",
        Transport::None => "none",
        Transport::Unknown => "unknown",
    }
}

fn controller_label(c: &Controller) -> String {
    let mut parts = Vec::new();
    if let Some(m) = c.mode {
        parts.push(mode_label(m).to_string());
    }
    if let Some(d) = &c.driver {
        parts.push(format!("driver {d}"));
    }
    if let Some(cl) = c.pci_class {
        parts.push(format!("PCI class 0x{cl:06x}"));
    }
    if let Some(u) = &c.usb_driver {
        parts.push(format!("USB {u}"));
    }
    if let Some(desc) = &c.description {
        parts.push(desc.clone());
    } else if let Some(chip) = &c.chipset {
        parts.push(format!("{chip} chipset"));
    }
    if let Some(a) = &c.address {
        parts.push(format!("at {a}"));
    }
    if parts.is_empty() {
        "known, no details".into()
    } else {
        parts.join(", ")
    }
}

/// The whole report body as blocks (findings are rendered separately by each format).
pub fn blocks(r: &Report) -> Vec<Block> {
    let mut out = Vec::new();
    system(r, &mut out);
    for d in &r.facts.disks {
        disk(d, &mut out);
    }
    tests(&r.facts.benchmarks, &mut out);
    user_benchmarks(&r.facts.user_benchmarks, &mut out);
    out
}

fn system(r: &Report, out: &mut Vec<Block>) {
    let s = &r.facts;
    out.push(Block::Heading(1, "System".into()));
    let name = s
        .os_name
        .value()
        .cloned()
        .unwrap_or_else(|| s.platform.name().to_string());
    let os = match &s.os_release {
        Fact::Known { value, .. } => format!("{name} {value}"),
        Fact::Unknown { why } => format!("{name}, release unknown ({why})"),
    };
    let mut aes = show(&s.aes_ni, yes_no);
    if let Some(d) = s.aes_driver.value() {
        aes.push_str(&format!(" (crypto driver {d})"));
    }
    let mut rows = vec![
        row("OS", os),
        row("Host", show(&s.hostname, |h| h.clone())),
        row("CPU", show(&s.cpu_model, |c| c.clone())),
        row("AES-NI", aes),
    ];
    if s.ram_bytes.is_known() {
        rows.push(row("RAM", show(&s.ram_bytes, |b| units::bytes_iec(*b))));
    }
    rows.push(row("Root", show(&s.is_root, yes_no)));
    let b = &r.bundle;
    let when = if b.captured_at_unix > 0 {
        utc(b.captured_at_unix)
    } else {
        "unknown time".into()
    };
    let origin = match b.origin {
        crate::evidence::Origin::Live => "captured live",
        crate::evidence::Origin::PastedText => "assembled from pasted text",
        crate::evidence::Origin::Hand => "written by hand",
    };
    let ver = if !b.diskdoc_version.starts_with(|c: char| c.is_ascii_digit()) {
        // Empty, or "hand" in hand-written bundles.
        String::new()
    } else {
        format!(" by diskdoc {}", b.diskdoc_version)
    };
    rows.push(row(
        "Evidence",
        format!("{origin}{ver}, {when}, {} sources", b.captures.len()),
    ));
    out.push(Block::Rows(rows));
}

fn disk(d: &DiskFacts, out: &mut Vec<Block>) {
    let title = if d.dev_path.is_empty() {
        format!("Disk {}", d.name)
    } else {
        format!("Disk {} ({})", d.name, d.dev_path)
    };
    out.push(Block::Heading(1, title));
    let mut rows = vec![row("Model", show(&d.model, |m| m.clone()))];
    if d.vendor.is_known() {
        rows.push(row("Vendor", show(&d.vendor, |m| m.clone())));
    }
    rows.push(row("Firmware", show(&d.firmware, |m| m.clone())));
    rows.push(row("Serial", show(&d.serial, |m| m.clone())));
    if d.wwn.is_known() {
        rows.push(row("WWN", show(&d.wwn, |m| m.clone())));
    }
    rows.push(row(
        "Size",
        show(&d.size_bytes, |b| {
            format!(
                "{} ({}, {b} bytes)",
                units::bytes_si(*b),
                units::bytes_iec(*b)
            )
        }),
    ));
    let mut class = show(&d.class, |c| c.label().to_string());
    match d.rotation_rpm.get() {
        Some(0) => class.push_str(", non-rotating"),
        Some(rpm) => class.push_str(&format!(", {rpm} rpm")),
        None => {
            if let Some(rot) = d.rotational.get() {
                class.push_str(if rot {
                    ", rotational"
                } else {
                    ", non-rotational"
                });
            }
        }
    }
    rows.push(row("Class", class));
    rows.push(row(
        "Sectors",
        format!(
            "logical {}, physical {}",
            show(&d.logical_sector_bytes, |b| format!("{b} B")),
            show(&d.physical_sector_bytes, |b| format!("{b} B"))
        ),
    ));
    if let Some(sm) = d.smart.value() {
        let mut parts = Vec::new();
        match sm.health_passed {
            Some(true) => parts.push("health PASSED".to_string()),
            Some(false) => parts.push("health FAILED".to_string()),
            None => {}
        }
        for (label, v) in [
            ("reallocated", sm.reallocated_sectors),
            ("pending", sm.pending_sectors),
            ("uncorrectable", sm.offline_uncorrectable),
            ("CRC errors", sm.udma_crc_errors),
            ("media errors", sm.media_errors),
            ("grown defects", sm.grown_defects),
        ] {
            if let Some(v) = v {
                parts.push(format!("{v} {label}"));
            }
        }
        if let Some(p) = sm.percentage_used {
            parts.push(format!("{p}% of rated wear used"));
        }
        if let Some(h) = sm.power_on_hours {
            parts.push(format!("{h} h powered on"));
        }
        if !sm.failing_attributes.is_empty() {
            parts.push(format!("failing: {}", sm.failing_attributes.join(", ")));
        }
        if let Some(fam) = &sm.model_family {
            parts.push(format!("family {fam}"));
        }
        rows.push(row("SMART", parts.join(", ")));
    } else {
        rows.push(row("SMART", show(&d.smart, |_| String::new())));
    }
    // The NVMe health log (log page 02h).
    if let Some(h) = d.nvme_health.value() {
        rows.push(row("NVMe health", nvme_health_line(h)));
    }
    out.push(Block::Rows(rows));
    for n in &d.notes {
        out.push(Block::Para(format!("Note: {n}")));
    }

    // Controller and link.
    out.push(Block::Heading(2, "Controller and link".into()));
    let mut rows = vec![
        row(
            "Transport",
            show(&d.transport, |t| transport_label(*t).into()),
        ),
        row("Controller", show(&d.controller, controller_label)),
    ];
    let sata_like = d.is_ata()
        || !d.transport.is_known()
        || d.link_current_gbps.is_known()
        || matches!(d.transport.get(), Some(Transport::Sas | Transport::Scsi));
    if sata_like {
        rows.push(row(
            "Link now",
            show(&d.link_current_gbps, |g| units::link(*g)),
        ));
        rows.push(row(
            "Drive max",
            show(&d.link_drive_max_gbps, |g| units::link(*g)),
        ));
        rows.push(row(
            "Port max",
            show(&d.link_port_max_gbps, |g| units::link(*g)),
        ));
        if d.link_limit_gbps.is_known() {
            rows.push(row(
                "Link limit",
                show(&d.link_limit_gbps, |g| units::link(*g)),
            ));
        }
    } else {
        rows.push(row(
            "SATA link",
            format!(
                "not applicable ({})",
                show(&d.transport, |t| transport_label(*t).to_string())
            ),
        ));
    }
    // The PCIe link of the device (or its controller) and the ports above it.
    match &d.pcie {
        Fact::Known { value, .. } => {
            for l in value {
                rows.push(row(
                    if l.hop == 0 { "PCIe link" } else { "PCIe port" },
                    pcie_line(l),
                ));
            }
        }
        f if d.class.get() == Some(crate::facts::DeviceClass::Nvme) => {
            rows.push(row("PCIe link", show(f, |_| String::new())));
        }
        _ => {}
    }
    out.push(Block::Rows(rows));

    // Cache / NCQ.
    out.push(Block::Heading(2, "Cache / NCQ".into()));
    let wc = match (d.write_cache_supported.get(), d.write_cache_enabled.get()) {
        (Some(false), _) => "not supported".to_string(),
        (_, Some(true)) => "enabled".to_string(),
        (_, Some(false)) => "DISABLED".to_string(),
        (_, None) => show(&d.write_cache_enabled, |_| String::new()),
    };
    let mut ncq = match d.ncq_supported.get() {
        Some(true) => {
            let mut s = "supported".to_string();
            if let Some(depth) = d.ncq_drive_depth.get() {
                s.push_str(&format!(", drive depth {depth}"));
            }
            s
        }
        Some(false) => "not supported".to_string(),
        None => show(&d.ncq_supported, |_| String::new()),
    };
    if let Some(a) = d.ncq_active.get() {
        let state = if a { "in use" } else { "NOT in use" };
        if d.ncq_supported.is_known() {
            ncq.push_str(&format!(", {state}"));
        } else {
            ncq = state.to_string();
        }
    }
    let mut rows = vec![
        row("Write cache", wc),
        row("NCQ", ncq),
        row("Queue depth", show(&d.queue_depth, |q| q.to_string())),
    ];
    if d.trim_supported.is_known() {
        rows.push(row(
            "TRIM",
            show(&d.trim_supported, |t| {
                if *t {
                    "supported".into()
                } else {
                    "not supported".into()
                }
            }),
        ));
    }
    if d.scheduler.is_known() || d.nr_requests.is_known() {
        rows.push(row(
            "Scheduler",
            format!(
                "{}, nr_requests {}",
                show(&d.scheduler, |s| s.clone()),
                show(&d.nr_requests, |n| n.to_string())
            ),
        ));
    }
    out.push(Block::Rows(rows));

    // Partitions and alignment.
    out.push(Block::Heading(2, "Partitions and alignment".into()));
    let phys = d.physical_sector_bytes.get().unwrap_or(512).max(4096) as u64;
    let mut rows = vec![row(
        "Alignment",
        show(&d.alignment_offset_bytes, |o| {
            if *o == 0 {
                "LBA 0 on a physical sector boundary (offset 0)".into()
            } else {
                format!("LBA 0 is {o} bytes past a physical sector boundary")
            }
        }),
    )];
    match &d.partition_table {
        Fact::Known { value: t, .. } => {
            rows.push(row(
                "Table",
                match (t.scheme.as_str(), t.partitions.len()) {
                    ("none", _) => "none: the whole disk is used directly".to_string(),
                    (scheme, 1) => format!("{scheme} (1 partition)"),
                    (scheme, n) => format!("{scheme} ({n} partitions)"),
                },
            ));
            out.push(Block::Rows(rows));
            let mut table = Vec::new();
            fn walk(p: &Partition, depth: usize, phys: u64, table: &mut Vec<Vec<String>>) {
                let aligned = if p.start_bytes.is_multiple_of(phys) {
                    "yes".to_string()
                } else {
                    format!("NO (+{} B)", p.start_bytes % phys)
                };
                table.push(vec![
                    format!("{}{}", " ".repeat(depth * 2), p.name),
                    p.start_sector.to_string(),
                    units::bytes_iec(p.start_bytes),
                    units::bytes_si(p.size_sectors.saturating_mul(p.sector_bytes as u64)),
                    aligned,
                    p.type_name.clone().unwrap_or_default(),
                ]);
                for c in &p.children {
                    walk(c, depth + 1, phys, table);
                }
            }
            for p in &t.partitions {
                walk(p, 0, phys, &mut table);
            }
            if !table.is_empty() {
                out.push(Block::Table {
                    headers: ["part", "start LBA", "start", "size", "4K-aligned", "type"]
                        .iter()
                        .map(|s| s.to_string())
                        .collect(),
                    rows: table,
                });
            }
            for n in &t.notes {
                out.push(Block::Para(format!("Note: {n}")));
            }
        }
        Fact::Unknown { why } => {
            rows.push(row("Table", format!("unknown ({why})")));
            out.push(Block::Rows(rows));
        }
    }

    // Layers.
    out.push(Block::Heading(2, "Layers".into()));
    if d.layers.is_empty() && d.mounts.is_empty() {
        out.push(Block::Para("None found above the disk.".into()));
    }
    if !d.layers.is_empty() {
        let rows = d
            .layers
            .iter()
            .map(|l| {
                let mut det = Vec::new();
                if let Some(c) = &l.cipher {
                    det.push(match l.key_bits {
                        Some(k) => format!("{c} {k}-bit"),
                        None => c.clone(),
                    });
                }
                if let Some(i) = &l.crypto_impl {
                    det.push(i.clone());
                }
                if let Some(lv) = &l.level {
                    det.push(lv.clone());
                }
                if let Some(a) = l.ashift {
                    det.push(format!("ashift {a}"));
                }
                if let Some(s) = l.sector_bytes {
                    det.push(format!("sector {s} B"));
                }
                vec![
                    l.display_name.clone().unwrap_or_else(|| l.name.clone()),
                    l.kind
                        .map(|k| format!("{k:?}").to_lowercase())
                        .unwrap_or_else(|| "?".into()),
                    l.on.join(","),
                    det.join(", "),
                ]
            })
            .collect();
        out.push(Block::Table {
            headers: ["layer", "kind", "on", "details"]
                .iter()
                .map(|s| s.to_string())
                .collect(),
            rows,
        });
    }
    if !d.mounts.is_empty() {
        let rows = d
            .mounts
            .iter()
            .map(|m| {
                let mut fs = m.fstype.clone();
                if let Some(c) = &m.compression {
                    fs.push_str(&format!(" ({c})"));
                }
                vec![m.mountpoint.clone(), m.source.clone(), fs]
            })
            .collect();
        out.push(Block::Table {
            headers: ["mounted on", "from", "fs"]
                .iter()
                .map(|s| s.to_string())
                .collect(),
            rows,
        });
    }
    if !d.kernel_events.is_empty() {
        let mut counts: BTreeMap<String, usize> = BTreeMap::new();
        for e in &d.kernel_events {
            *counts.entry(format!("{:?}", e.kind)).or_default() += 1;
        }
        let summary: Vec<String> = counts.iter().map(|(k, n)| format!("{n}x {k}")).collect();
        out.push(Block::Heading(2, "Kernel log".into()));
        out.push(Block::Para(summary.join(", ")));
        let lines: Vec<(String, String)> = d
            .kernel_events
            .iter()
            .take(5)
            .map(|e| ("".to_string(), e.line.clone()))
            .collect();
        out.push(Block::Rows(lines));
    }
}

/// A result label with `bs=N` written as a size: "buffered bs=4194304" -> "buffered 4 MiB".
pub(crate) fn human_label(label: &str) -> String {
    label
        .split(' ')
        .map(
            |w| match w.strip_prefix("bs=").and_then(|n| n.parse::<u64>().ok()) {
                Some(n) => units::block_size(n),
                None => w.to_string(),
            },
        )
        .collect::<Vec<_>>()
        .join(" ")
}

/// Results grouped by (disk, test), in the order they were run.
pub fn groups(results: &[BenchResult]) -> Vec<((String, TestName), Vec<&BenchResult>)> {
    let mut out: Vec<((String, TestName), Vec<&BenchResult>)> = Vec::new();
    for r in results {
        let key = (r.disk.clone(), r.test.clone());
        match out.iter_mut().find(|(k, _)| *k == key) {
            Some((_, v)) => v.push(r),
            None => out.push((key, vec![r])),
        }
    }
    out
}

/// Benchmarks a person ran and pasted (dd, fio...), as they reported them.
fn user_benchmarks(ub: &[crate::facts::UserBenchmark], out: &mut Vec<Block>) {
    if ub.is_empty() {
        return;
    }
    out.push(Block::Heading(2, "Benchmarks you ran".into()));
    let rows = ub
        .iter()
        .map(|b| {
            vec![
                b.tool.clone(),
                b.bytes_per_sec
                    .map(units::mb_number)
                    .unwrap_or_else(|| "n/a".into()),
                b.error.clone().unwrap_or_else(|| b.flags.join(" ")),
                b.command.clone().unwrap_or_else(|| {
                    format!(
                        "{} -> {}",
                        b.input.clone().unwrap_or_default(),
                        b.output.clone().unwrap_or_default()
                    )
                }),
            ]
        })
        .collect();
    out.push(Block::Table {
        headers: ["tool", "MB/s", "flags/error", "command"]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        rows,
    });
}

fn tests(results: &[BenchResult], out: &mut Vec<Block>) {
    out.push(Block::Heading(1, "Test results".into()));
    if results.is_empty() {
        out.push(Block::Para(
            "No read/write tests were run (run `diskdoc bench` to add them).".into(),
        ));
        return;
    }
    for ((disk, test), rs) in groups(results) {
        let target = rs.first().map(|r| r.target.as_str()).unwrap_or("");
        let disk = if disk.is_empty() { "?".into() } else { disk };
        out.push(Block::Heading(2, format!("{test} on {disk} ({target})")));
        let sure = rs.iter().any(|r| r.ci95_pct.is_some());
        let rows = rs
            .iter()
            .map(|r| {
                let lat = |f: fn(&crate::evidence::LatencySummary) -> u64| {
                    r.latency
                        .as_ref()
                        .map(|l| units::duration_ns(f(l)))
                        .unwrap_or_else(|| "-".into())
                };
                vec![
                    match &r.answered_by {
                        Some(a) => format!("{} ({a})", human_label(&r.label)),
                        None => human_label(&r.label),
                    },
                    units::block_size(r.block_size_bytes),
                    format!("qd{}{}", r.queue_depth, if r.direct { "" } else { " buf" }),
                    units::mb_number(r.bytes_per_sec),
                    if r.iops.is_finite() {
                        format!("{:.0}", r.iops)
                    } else {
                        "n/a".into()
                    },
                    lat(|l| l.p50_ns),
                    lat(|l| l.p99_ns),
                    match (&r.error, r.spread_pct) {
                        (Some(e), _) => e.kind.clone(),
                        // How sure the rate is, and whether the test stopped because it was
                        // that sure or ran out of time ("4.1% budget": still +-4.1 % when the
                        // budget ended).
                        (None, _) if sure => match r.ci95_pct {
                            Some(c) if r.stop_reason == StopReason::Stable => format!("{c:.1}%"),
                            Some(c) => format!("{c:.1}% {}", r.stop_reason),
                            None => "-".into(),
                        },
                        (None, Some(s)) => format!("{s:.0}%"),
                        (None, None) => "-".into(),
                    },
                ]
            })
            .collect();
        // Reports that carry the 95 % confidence interval of each rate show it; older ones
        // (written before it existed) keep the spread between intervals they had.
        let last = if sure { "+-95%" } else { "spread" };
        let mut headers: Vec<String> = ["label", "bs", "qd", "MB/s", "IOPS", "p50", "p99", last]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let mut rows: Vec<Vec<String>> = rows;
        // A sweep's labels already name the block size ("bs=4096" -> "4 KiB"): drop the
        // column rather than say it twice and wrap the table.
        if rs.iter().all(|r| r.label.contains("bs=")) {
            headers.remove(1);
            for row in rows.iter_mut() {
                if row.len() > 1 {
                    row.remove(1);
                }
            }
        }
        out.push(Block::Table { headers, rows });
        if test == TestName::BsSweep && rs.len() >= 2 {
            // One chart per cache mode, bars labelled by block size: "buffered bs=4194304"
            // does not fit a chart label, and direct and buffered rates are not comparable.
            for (direct, mode) in [(true, "O_DIRECT"), (false, "buffered")] {
                let part: Vec<BenchResult> = rs
                    .iter()
                    .filter(|r| r.direct == direct)
                    .map(|r| BenchResult {
                        label: units::block_size(r.block_size_bytes),
                        ..(*r).clone()
                    })
                    .collect();
                if part.len() >= 2 {
                    let refs: Vec<&BenchResult> = part.iter().collect();
                    out.push(Block::Chart {
                        title: format!("Block-size sweep, {mode} (MB/s)"),
                        lines: chart::throughput(&refs, 2, 68),
                    });
                }
            }
        } else if rs.len() >= 2 {
            let (title, lines) = match &test {
                TestName::SeqRead | TestName::SeqWrite => (
                    format!("Zone curve, {test} (MB/s)"),
                    chart::throughput(&rs, 2, 68),
                ),
                TestName::RandRead | TestName::SyncWrite => {
                    (format!("{test} (IOPS)"), chart::iops(&rs, 2, 68))
                }
                // A name from another version: IOPS when it says it is random or synced.
                TestName::Other(t) if t.starts_with("rand") || t.starts_with("sync") => {
                    (format!("{test} (IOPS)"), chart::iops(&rs, 2, 68))
                }
                _ => (
                    format!("{test} throughput (MB/s)"),
                    chart::throughput(&rs, 2, 68),
                ),
            };
            out.push(Block::Chart { title, lines });
        }
        if matches!(test, TestName::RandRead | TestName::SyncWrite) {
            for r in &rs {
                if let Some(lines) = chart::latency(r, 2, 68) {
                    out.push(Block::Chart {
                        title: format!("Latency percentiles, {test} {}", r.label),
                        lines,
                    });
                }
            }
        }
        for r in &rs {
            if let Some(e) = &r.error {
                out.push(Block::Para(format!(
                    "{} {}: {} at byte {}: {}",
                    test, r.label, e.kind, e.offset_bytes, e.message
                )));
            }
            for n in &r.notes {
                out.push(Block::Para(format!("{} {}: {n}", test, r.label)));
            }
        }
    }
}

/// "0000:01:00.0: 2.5 GT/s x1 now, 8 GT/s x4 max".
pub fn pcie_line(l: &crate::facts::PcieLink) -> String {
    let one = |g: Option<f64>, w: Option<u32>| match (g, w) {
        (Some(g), Some(w)) => format!("{g} GT/s x{w}"),
        (Some(g), None) => format!("{g} GT/s"),
        (None, Some(w)) => format!("x{w}"),
        (None, None) => "unknown".to_string(),
    };
    format!(
        "{}: {} now, {} max",
        l.address,
        one(l.current_gts, l.current_width),
        one(l.max_gts, l.max_width)
    )
}

/// The NVMe health log in one line (the report's row and the wizard's inspect step).
pub fn nvme_health_line(h: &crate::facts::NvmeHealth) -> String {
    let mut parts = Vec::new();
    if let Some(c) = h.critical_warning {
        parts.push(format!("critical warning 0x{c:02x}"));
    }
    if let Some(s) = h.available_spare {
        match h.spare_threshold {
            Some(t) => parts.push(format!("spare {s}% (threshold {t}%)")),
            None => parts.push(format!("spare {s}%")),
        }
    }
    if let Some(p) = h.percentage_used {
        parts.push(format!("{p}% used"));
    }
    if let Some(m) = h.media_errors {
        parts.push(format!("{m} media errors"));
    }
    if let Some(t) = h.temperature_c {
        match h.warning_temp_c {
            Some(w) => parts.push(format!("{t} C (warning {w} C)")),
            None => parts.push(format!("{t} C")),
        }
    }
    if let Some(f) = h.lba_formats.iter().find(|f| f.in_use) {
        parts.push(format!("{} B blocks", f.data_bytes));
    }
    parts.join(", ")
}

/// The composite temperature against the drive's own thresholds (Identify Controller WCTEMP,
/// bytes 267:266, and CCTEMP, bytes 269:268, which smartctl and nvme-cli turn from kelvin
/// into Celsius), and the minutes already spent above them (log page 02h bytes 192-199), in
/// one line. None without a temperature.
pub fn nvme_temperature_line(h: &crate::facts::NvmeHealth) -> Option<String> {
    let t = h.temperature_c?;
    let mut s = format!("{t} C");
    let limits: Vec<String> = [
        ("warning", h.warning_temp_c),
        ("critical", h.critical_temp_c),
    ]
    .iter()
    .filter_map(|(w, v)| v.map(|v| format!("{w} at {v} C")))
    .collect();
    if limits.is_empty() {
        s.push_str(" (the drive states no thresholds)");
    } else {
        s.push_str(&format!(" ({})", limits.join(", ")));
    }
    let minutes = h
        .warning_temp_minutes
        .unwrap_or(0)
        .saturating_add(h.critical_temp_minutes.unwrap_or(0));
    if minutes > 0 {
        s.push_str(&format!(", {minutes} min above them so far"));
    }
    Some(s)
}

#[cfg(test)]
mod tests;
