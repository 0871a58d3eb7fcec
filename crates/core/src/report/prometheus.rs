//! A report as Prometheus text exposition (format 0.0.4), for node_exporter's textfile
//! collector: one `diskdoc_finding` series per finding, per-disk facts as gauges, bench
//! results when present, and the run's own status.
//!
//! Names follow the Prometheus naming conventions (prometheus.io/docs/practices/naming/):
//! a `diskdoc_` prefix, base units in the name (`_bytes`, `_seconds`, `_bytes_per_second`,
//! `_ratio`), `_info` for a constant-1 series that carries labels. SMART counts are exported
//! as gauges without `_total`: they are the drive's counters sampled once per run, not counters
//! this process increments (node_exporter's textfile docs ask for that distinction).
//! Label values are escaped as the exposition format requires (backslash, double quote, line
//! feed). Pure: the caller writes the text (atomically, as the textfile collector requires).
//!
//! Redaction applies through the report: a redacted report carries tokens, and the serial and
//! WWN labels are only emitted for an unredacted one (`--no-redact`).

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::checks::Verdict;
use crate::facts::{DiskFacts, Fact};
use crate::report::Report;

/// Metric families in output order: name, type, help.
const FAMILIES: &[(&str, &str, &str)] = &[
    (
        "diskdoc_finding",
        "gauge",
        "A diskdoc finding: 1 when the check found a problem on the device, 0 when it passed or could not tell.",
    ),
    (
        "diskdoc_disk_info",
        "gauge",
        "A disk diskdoc looked at (always 1); model, class and transport as labels.",
    ),
    (
        "diskdoc_disk_size_bytes",
        "gauge",
        "Size of the disk in bytes.",
    ),
    (
        "diskdoc_link_speed_bytes_per_second",
        "gauge",
        "SATA line rate in bytes per second (Gb/s x 1e9 / 8; 6 Gb/s = 750e6): negotiated (current), the drive's maximum (drive_max), the port's maximum (port_max).",
    ),
    (
        "diskdoc_write_cache_enabled",
        "gauge",
        "1 when the drive's volatile write cache is enabled, 0 when it is off.",
    ),
    (
        "diskdoc_queue_depth",
        "gauge",
        "Command queue depth the OS uses for the device.",
    ),
    (
        "diskdoc_ncq_depth",
        "gauge",
        "NCQ depth the drive supports (IDENTIFY word 75 + 1).",
    ),
    (
        "diskdoc_smart_health_passed",
        "gauge",
        "1 when the drive's SMART overall health self-assessment passed, 0 when it failed.",
    ),
    (
        "diskdoc_smart_reallocated_sectors",
        "gauge",
        "Reallocated sectors (ATA attribute 5; SCSI grown defect list) as read this run.",
    ),
    (
        "diskdoc_smart_pending_sectors",
        "gauge",
        "Sectors pending reallocation (ATA attribute 197) as read this run.",
    ),
    (
        "diskdoc_smart_media_errors",
        "gauge",
        "NVMe media and data integrity errors as read this run.",
    ),
    (
        "diskdoc_smart_udma_crc_errors",
        "gauge",
        "Interface CRC errors (ATA attribute 199): a cable or connector problem.",
    ),
    (
        "diskdoc_smart_percentage_used_ratio",
        "gauge",
        "Endurance used as the drive estimates it (NVMe Percentage Used / 100; may exceed 1).",
    ),
    (
        "diskdoc_smart_power_on_seconds",
        "gauge",
        "Power-on time the drive reports, in seconds.",
    ),
    (
        "diskdoc_pcie_link_transfers_per_second",
        "gauge",
        "PCIe link speed per lane in transfers per second (GT/s x 1e9), negotiated (current) and capable (max), for the device (hop 0) and each port above it.",
    ),
    (
        "diskdoc_pcie_link_width_lanes",
        "gauge",
        "PCIe link width in lanes, negotiated (current) and capable (max), per hop.",
    ),
    (
        "diskdoc_temperature_celsius",
        "gauge",
        "Drive temperature (NVMe composite temperature) as read this run.",
    ),
    (
        "diskdoc_temperature_threshold_celsius",
        "gauge",
        "The drive's own temperature thresholds (NVMe WCTEMP warning, CCTEMP critical).",
    ),
    (
        "diskdoc_nvme_critical_warning",
        "gauge",
        "NVMe SMART log Critical Warning bit field (0 = none; bit 0 spare, 1 temperature, 2 reliability, 3 read-only, 4 backup).",
    ),
    (
        "diskdoc_nvme_available_spare_ratio",
        "gauge",
        "NVMe Available Spare / 100 (the drive's threshold is diskdoc_nvme_available_spare_threshold_ratio).",
    ),
    (
        "diskdoc_nvme_available_spare_threshold_ratio",
        "gauge",
        "NVMe Available Spare Threshold / 100.",
    ),
    (
        "diskdoc_expected_after_fix_low_bytes_per_second",
        "gauge",
        "The low end of the rate a finding's fix should bring (checks/effect.rs).",
    ),
    (
        "diskdoc_expected_after_fix_high_bytes_per_second",
        "gauge",
        "The high end (or the ceiling) of the rate a finding's fix should bring.",
    ),
    (
        "diskdoc_expected_after_fix_low_iops",
        "gauge",
        "The low end of the 4 KiB random I/O rate a finding's fix should bring, at queue_depth.",
    ),
    (
        "diskdoc_expected_after_fix_high_iops",
        "gauge",
        "The high end of the 4 KiB random I/O rate a finding's fix should bring, at queue_depth.",
    ),
    (
        "diskdoc_bench_bytes_per_second",
        "gauge",
        "Throughput a diskdoc read/write test measured.",
    ),
    // A summary (quantiles with `_sum` and `_count`): the `quantile` label is reserved to
    // summaries in the exposition format, and promtool rejects it on a gauge.
    (
        "diskdoc_bench_latency_seconds",
        "summary",
        "Per-I/O latency of a diskdoc test: quantiles, and the sum and count of the I/Os measured.",
    ),
    (
        "diskdoc_exit_status",
        "gauge",
        "diskdoc's exit status for this run: 0 no finding at warning or above, 1 such findings, 2 error.",
    ),
    (
        "diskdoc_run_success",
        "gauge",
        "1 when the diskdoc run completed (exit status 0 or 1), 0 when it failed.",
    ),
    (
        "diskdoc_last_run_timestamp_seconds",
        "gauge",
        "When the evidence of this run was captured (Unix time).",
    ),
];

/// One sample: labels in order, value.
type Sample = (Vec<(&'static str, String)>, f64);

/// Escape a label value (exposition format: `\\`, `\"`, `\n`). Control characters other than
/// line feed are dropped: they come from drive firmware and have no business in a label.
fn escape(v: &str) -> String {
    let mut s = String::with_capacity(v.len());
    for c in v.chars() {
        match c {
            '\\' => s.push_str("\\\\"),
            '"' => s.push_str("\\\""),
            '\n' => s.push_str("\\n"),
            c if c.is_control() => {}
            c => s.push(c),
        }
    }
    s
}

/// A float the way Prometheus parses it (`+Inf`, `NaN` spelled as it expects).
fn number(v: f64) -> String {
    if v.is_nan() {
        "NaN".into()
    } else if v.is_infinite() {
        if v > 0.0 {
            "+Inf".into()
        } else {
            "-Inf".into()
        }
    } else if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

fn known<T: Copy>(f: &Fact<T>) -> Option<T> {
    f.value().copied()
}

fn disk_samples(d: &DiskFacts, redacted: bool, out: &mut BTreeMap<&'static str, Vec<Sample>>) {
    let dev = || ("device", d.name.clone());
    let mut info = vec![dev()];
    if let Some(m) = d.model.value() {
        info.push(("model", m.clone()));
    }
    if let Some(c) = d.class.value() {
        info.push(("class", c.label().to_string()));
    }
    if let Some(t) = d.transport.value()
        && let Ok(serde_json::Value::String(t)) = serde_json::to_value(t)
    {
        info.push(("transport", t));
    }
    if !redacted {
        // Serial numbers and WWNs identify a machine's owner; only with --no-redact.
        if let Some(s) = d.serial.value() {
            info.push(("serial", s.clone()));
        }
        if let Some(w) = d.wwn.value() {
            info.push(("wwn", w.clone()));
        }
    }
    let mut push = |name: &'static str, labels: Vec<(&'static str, String)>, v: f64| {
        out.entry(name).or_default().push((labels, v));
    };
    push("diskdoc_disk_info", info, 1.0);
    if let Some(s) = known(&d.size_bytes) {
        push("diskdoc_disk_size_bytes", vec![dev()], s as f64);
    }
    for (which, f) in [
        ("current", &d.link_current_gbps),
        ("drive_max", &d.link_drive_max_gbps),
        ("port_max", &d.link_port_max_gbps),
    ] {
        if let Some(g) = known(f) {
            push(
                "diskdoc_link_speed_bytes_per_second",
                vec![dev(), ("which", which.to_string())],
                // Prometheus wants base units, and its base unit for data is the byte.
                g * 1e9 / 8.0,
            );
        }
    }
    if let Some(w) = known(&d.write_cache_enabled) {
        push(
            "diskdoc_write_cache_enabled",
            vec![dev()],
            f64::from(u8::from(w)),
        );
    }
    if let Some(q) = known(&d.queue_depth) {
        push("diskdoc_queue_depth", vec![dev()], f64::from(q));
    }
    if let Some(q) = known(&d.ncq_drive_depth) {
        push("diskdoc_ncq_depth", vec![dev()], f64::from(q));
    }
    if let Some(s) = d.smart.value() {
        let counts = [
            ("diskdoc_smart_reallocated_sectors", s.reallocated_sectors),
            ("diskdoc_smart_pending_sectors", s.pending_sectors),
            ("diskdoc_smart_media_errors", s.media_errors),
            ("diskdoc_smart_udma_crc_errors", s.udma_crc_errors),
        ];
        if let Some(h) = s.health_passed {
            push(
                "diskdoc_smart_health_passed",
                vec![dev()],
                f64::from(u8::from(h)),
            );
        }
        for (name, v) in counts {
            if let Some(v) = v {
                push(name, vec![dev()], v as f64);
            }
        }
        if let Some(p) = s.percentage_used {
            push(
                "diskdoc_smart_percentage_used_ratio",
                vec![dev()],
                p as f64 / 100.0,
            );
        }
        if let Some(h) = s.power_on_hours {
            push(
                "diskdoc_smart_power_on_seconds",
                vec![dev()],
                h as f64 * 3600.0,
            );
        }
    }
    if let Some(links) = d.pcie.value() {
        for l in links {
            let at = |which: &str| {
                vec![
                    dev(),
                    ("hop", l.hop.to_string()),
                    ("address", l.address.clone()),
                    ("which", which.to_string()),
                ]
            };
            for (which, gts) in [("current", l.current_gts), ("max", l.max_gts)] {
                if let Some(g) = gts {
                    push("diskdoc_pcie_link_transfers_per_second", at(which), g * 1e9);
                }
            }
            for (which, w) in [("current", l.current_width), ("max", l.max_width)] {
                if let Some(w) = w {
                    push("diskdoc_pcie_link_width_lanes", at(which), f64::from(w));
                }
            }
        }
    }
    let nvme_temp = d.nvme_health.value().and_then(|h| h.temperature_c);
    // Otherwise the last sample the bench took (hwmon / smartctl, after the tests).
    if let Some(t) = nvme_temp.or_else(|| d.temp_samples_c.last().copied()) {
        push("diskdoc_temperature_celsius", vec![dev()], t as f64);
    }
    if let Some(h) = d.nvme_health.value() {
        for (which, t) in [
            ("warning", h.warning_temp_c),
            ("critical", h.critical_temp_c),
        ] {
            if let Some(t) = t {
                push(
                    "diskdoc_temperature_threshold_celsius",
                    vec![dev(), ("which", which.to_string())],
                    t as f64,
                );
            }
        }
        if let Some(w) = h.critical_warning {
            push("diskdoc_nvme_critical_warning", vec![dev()], f64::from(w));
        }
        if let Some(v) = h.available_spare {
            push(
                "diskdoc_nvme_available_spare_ratio",
                vec![dev()],
                v as f64 / 100.0,
            );
        }
        if let Some(v) = h.spare_threshold {
            push(
                "diskdoc_nvme_available_spare_threshold_ratio",
                vec![dev()],
                v as f64 / 100.0,
            );
        }
        // The NVMe log's Percentage Used and media errors, when SMART did not give them.
        let smart = d.smart.value();
        if let Some(p) = h.percentage_used
            && smart.and_then(|s| s.percentage_used).is_none()
        {
            push(
                "diskdoc_smart_percentage_used_ratio",
                vec![dev()],
                p as f64 / 100.0,
            );
        }
        if let Some(m) = h.media_errors
            && smart.and_then(|s| s.media_errors).is_none()
        {
            push("diskdoc_smart_media_errors", vec![dev()], m as f64);
        }
    }
}

/// The report as exposition text. Findings with verdict "problem" are 1, all others 0, so
/// an alert rule is `diskdoc_finding{severity="warning"} == 1`.
pub fn render(report: &Report) -> String {
    let mut samples: BTreeMap<&'static str, Vec<Sample>> = BTreeMap::new();
    for f in &report.findings {
        let verdict = match serde_json::to_value(f.verdict) {
            Ok(serde_json::Value::String(s)) => s,
            _ => String::from("unknown"),
        };
        samples.entry("diskdoc_finding").or_default().push((
            vec![
                ("check", f.check.clone()),
                ("device", f.device.clone()),
                ("severity", f.severity.label().to_string()),
                ("verdict", verdict),
            ],
            f64::from(u8::from(f.verdict == Verdict::Problem)),
        ));
        if let Some(e) = &f.expected_effect {
            let metric = match serde_json::to_value(e.metric) {
                Ok(serde_json::Value::String(s)) => s,
                _ => String::from("unknown"),
            };
            let mut labels = vec![
                ("check", f.check.clone()),
                ("device", f.device.clone()),
                ("metric", metric),
            ];
            // MB/s as bytes per second, the unit every other rate here has; random I/O as
            // operations per second at its queue depth.
            let (high, low, scale) = if e.metric.is_iops() {
                if let Some(q) = e.queue_depth {
                    labels.push(("queue_depth", q.to_string()));
                }
                (
                    "diskdoc_expected_after_fix_high_iops",
                    "diskdoc_expected_after_fix_low_iops",
                    1.0,
                )
            } else {
                (
                    "diskdoc_expected_after_fix_high_bytes_per_second",
                    "diskdoc_expected_after_fix_low_bytes_per_second",
                    1e6,
                )
            };
            samples
                .entry(high)
                .or_default()
                .push((labels.clone(), e.high * scale));
            if let Some(l) = e.low {
                samples.entry(low).or_default().push((labels, l * scale));
            }
        }
    }
    for d in &report.facts.disks {
        disk_samples(d, report.redacted, &mut samples);
    }
    for r in &report.bundle.benchmarks {
        let device = if r.disk.is_empty() {
            "system".to_string()
        } else {
            r.disk.clone()
        };
        let base = vec![
            ("device", device),
            ("test", r.test.to_string()),
            ("label", r.label.clone()),
            ("block_size_bytes", r.block_size_bytes.to_string()),
            ("queue_depth", r.queue_depth.to_string()),
        ];
        if r.bytes_per_sec.is_finite() && r.bytes > 0 {
            samples
                .entry("diskdoc_bench_bytes_per_second")
                .or_default()
                .push((base.clone(), r.bytes_per_sec));
        }
        if let Some(l) = &r.latency {
            for (q, ns) in [
                ("0.5", l.p50_ns),
                ("0.9", l.p90_ns),
                ("0.99", l.p99_ns),
                ("0.999", l.p999_ns),
            ] {
                let mut labels = base.clone();
                labels.push(("quantile", q.to_string()));
                samples
                    .entry("diskdoc_bench_latency_seconds")
                    .or_default()
                    .push((labels, ns as f64 / 1e9));
            }
            // The mean times the I/O count is the total latency (as f64: no overflow).
            samples
                .entry("diskdoc_bench_latency_seconds_sum")
                .or_default()
                .push((base.clone(), l.mean_ns as f64 * r.ios as f64 / 1e9));
            samples
                .entry("diskdoc_bench_latency_seconds_count")
                .or_default()
                .push((base.clone(), r.ios as f64));
        }
    }
    let status = report.exit_status;
    samples
        .entry("diskdoc_exit_status")
        .or_default()
        .push((Vec::new(), f64::from(status)));
    samples
        .entry("diskdoc_run_success")
        .or_default()
        .push((Vec::new(), f64::from(u8::from(status == 0 || status == 1))));
    if report.bundle.captured_at_unix > 0 {
        samples
            .entry("diskdoc_last_run_timestamp_seconds")
            .or_default()
            .push((Vec::new(), report.bundle.captured_at_unix as f64));
    }

    let mut s = String::new();
    for (name, kind, help) in FAMILIES {
        let Some(rows) = samples.get(name) else {
            continue;
        };
        let _ = writeln!(s, "# HELP {name} {help}");
        let _ = writeln!(s, "# TYPE {name} {kind}");
        // One series per label set: a later duplicate (two findings of one check on one
        // device with the same verdict) would make the whole file unparsable.
        let mut seen = std::collections::BTreeSet::new();
        // A summary's `_sum` and `_count` series follow its quantiles, under its one TYPE.
        let parts: Vec<(String, &Vec<Sample>)> = if *kind == "summary" {
            let mut v = vec![(name.to_string(), rows)];
            for suffix in ["_sum", "_count"] {
                let n = format!("{name}{suffix}");
                if let Some(r) = samples.get(n.as_str()) {
                    v.push((n, r));
                }
            }
            v
        } else {
            vec![(name.to_string(), rows)]
        };
        for (name, labels, v) in parts
            .iter()
            .flat_map(|(n, rows)| rows.iter().map(move |(l, v)| (n.as_str(), l, v)))
        {
            let l: Vec<String> = labels
                .iter()
                .map(|(k, v)| format!("{k}=\"{}\"", escape(v)))
                .collect();
            let series = if l.is_empty() {
                name.to_string()
            } else {
                format!("{name}{{{}}}", l.join(","))
            };
            if seen.insert(series.clone()) {
                let _ = writeln!(s, "{series} {}", number(*v));
            }
        }
    }
    s
}

#[cfg(test)]
mod tests;
