//! The NVMe SMART / Health Information log (NVMe Base Specification 2.0, Log Page
//! Identifier 02h) as four tools print it, into one [`NvmeHealth`]:
//! - `smartctl -j -a` (smartmontools JSON: `nvme_smart_health_information_log`,
//!   `nvme_composite_temperature_threshold`);
//! - `smartctl -a/-x` text ("SMART/Health Information (NVMe Log 0x02)" and "Supported LBA
//!   Sizes" sections; "Warning  Comp. Temp. Threshold" from Identify Controller WCTEMP);
//! - nvme-cli `nvme smart-log` ("critical_warning : 0x9", "temperature : 39 C (312 Kelvin)",
//!   tab-aligned in some versions);
//! - FreeBSD `nvmecontrol logpage -p 2` ("Critical Warning State: 0x00" with indented bit
//!   lines, "Temperature: 312 K, 38.85 C, 101.93 F", sbin/nvmecontrol/logpage.c
//!   print_log_health).
//!
//! Field meanings (log page 02h): byte 0 Critical Warning (bit 0 available spare below
//! threshold, 1 temperature outside thresholds, 2 reliability degraded, 3 read-only, 4
//! volatile memory backup failed, 5 persistent memory region read-only); bytes 1-2
//! Composite Temperature (Kelvin); 3 Available Spare (%); 4 Available Spare Threshold (%);
//! 5 Percentage Used (may exceed 100); 160-175 Media and Data Integrity Errors; 192-195
//! Warning Composite Temperature Time and 196-199 Critical Composite Temperature Time
//! (minutes); 200-215 Temperature Sensors 1-8; 216-231 Thermal Management Temperature 1/2
//! Transition Counts and Total Times (seconds).

use serde_json::Value;

use crate::model::{LbaFormat, NvmeHealth};
use crate::sources::util::{clean_line, find_json, leading_u64, tokens};

/// Kelvin -> Celsius, rounding the way the tools do (273.15 -> 273); None for 0 K (the
/// field is not implemented) or absurd values.
fn kelvin_to_c(k: u64) -> Option<i64> {
    let k = i64::try_from(k).ok()?;
    (k > 0 && k < 1000).then(|| k - 273)
}

fn json_u64(v: &Value, k: &str) -> Option<u64> {
    v.get(k).and_then(Value::as_u64)
}

fn from_json(v: &Value) -> Option<NvmeHealth> {
    let log = v.get("nvme_smart_health_information_log")?;
    let mut h = NvmeHealth {
        critical_warning: json_u64(log, "critical_warning").and_then(|c| u8::try_from(c).ok()),
        // smartctl converts the Kelvin field to Celsius in its JSON.
        temperature_c: log.get("temperature").and_then(Value::as_i64),
        available_spare: json_u64(log, "available_spare"),
        spare_threshold: json_u64(log, "available_spare_threshold"),
        percentage_used: json_u64(log, "percentage_used"),
        media_errors: json_u64(log, "media_errors"),
        warning_temp_minutes: json_u64(log, "warning_temp_time"),
        critical_temp_minutes: json_u64(log, "critical_comp_time"),
        tmt1_count: json_u64(log, "thermal_temp1_transition_count"),
        tmt2_count: json_u64(log, "thermal_temp2_transition_count"),
        tmt1_seconds: json_u64(log, "thermal_temp1_total_time"),
        tmt2_seconds: json_u64(log, "thermal_temp2_total_time"),
        ..Default::default()
    };
    if let Some(s) = log.get("temperature_sensors").and_then(Value::as_array) {
        h.sensors_c = s.iter().filter_map(Value::as_i64).collect();
    }
    if let Some(t) = v.get("nvme_composite_temperature_threshold") {
        h.warning_temp_c = t.get("warning").and_then(Value::as_i64);
        h.critical_temp_c = t.get("critical").and_then(Value::as_i64);
    }
    Some(h)
}

/// "Critical Warning: 0x09" / "critical_warning : 0x9" / ": 0".
fn warning_byte(v: &str) -> Option<u8> {
    let t = v.trim();
    let n = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(hex) => {
            let h: String = hex.chars().take_while(|c| c.is_ascii_hexdigit()).collect();
            u64::from_str_radix(&h, 16).ok()?
        }
        None => leading_u64(t)?,
    };
    u8::try_from(n).ok()
}

/// A temperature value: "40 Celsius", "39 C (312 Kelvin)", "39 °C (312 K)", or FreeBSD's
/// "312 K, 38.85 C, 101.93 F" (Kelvin first).
fn temperature(v: &str) -> Option<i64> {
    let first = leading_u64(v)?;
    let after = v
        .trim_start()
        .trim_start_matches(|c: char| c.is_ascii_digit());
    if after.trim_start().starts_with("K,") || after.trim_start() == "K" {
        return kelvin_to_c(first);
    }
    i64::try_from(first).ok().filter(|c| *c < 1000)
}

/// Normalised key: lowercase, underscores and runs of spaces as one space, no trailing dot.
fn norm(k: &str) -> String {
    k.to_ascii_lowercase()
        .replace('_', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// smartctl's reasons under "SMART overall-health self-assessment test result: FAILED!"
/// for an NVMe drive, one line per Critical Warning bit set (nvmeprint.cpp
/// print_critical_warning), with the bit each names.
const WARNING_REASONS: [(&str, u8); 6] = [
    ("- available spare has fallen below threshold", 0x01),
    ("- temperature is above or below threshold", 0x02),
    ("- NVM subsystem reliability has been degraded", 0x04),
    ("- media has been placed in read only mode", 0x08),
    ("- volatile memory backup device has failed", 0x10),
    (
        "- persistent memory region has become read-only or unreliable",
        0x20,
    ),
];

/// Whether `t` is one of smartctl's NVMe FAILED reasons ([`WARNING_REASONS`]).
pub(crate) fn is_warning_reason(t: &str) -> bool {
    let t = t.trim();
    WARNING_REASONS.iter().any(|(r, _)| t.starts_with(r))
}

fn from_text(text: &str) -> Option<NvmeHealth> {
    let mut h = NvmeHealth::default();
    let mut any = false;
    let mut in_lba = false;
    let mut reasons: Option<u8> = None;
    for raw in text.lines() {
        let line = clean_line(raw);
        let t = line.trim();
        if let Some((_, bit)) = WARNING_REASONS.iter().find(|(r, _)| t.starts_with(r)) {
            reasons = Some(reasons.unwrap_or(0) | bit);
            continue;
        }
        if t.starts_with("Supported LBA Sizes") {
            in_lba = true;
            continue;
        }
        if in_lba {
            let tk = tokens(t);
            if tk.first() == Some(&"Id") {
                continue;
            }
            // " 0 +     512       0         1": Id, in use (+/-), data bytes, metadata, RP.
            match tk.as_slice() {
                [id, mark, data, _meta, rest @ ..]
                    if id.parse::<u32>().is_ok() && (*mark == "+" || *mark == "-") =>
                {
                    if let Some(d) = data.parse::<u32>().ok().filter(|d| d.is_power_of_two()) {
                        h.lba_formats.push(LbaFormat {
                            data_bytes: d,
                            in_use: *mark == "+",
                            rel_perf: rest.first().and_then(|r| r.parse().ok()),
                        });
                    }
                    continue;
                }
                _ => in_lba = false,
            }
        }
        let Some((k, v)) = t.split_once(':') else {
            continue;
        };
        // nvmecontrol's indented bit lines under "Critical Warning State" repeat names
        // ("Available spare", "Temperature") with 0/1 values: skip them.
        let bit_line = line.starts_with(' ')
            && matches!(v.trim(), "0" | "1")
            && matches!(
                norm(k).as_str(),
                "available spare"
                    | "temperature"
                    | "device reliability"
                    | "read only"
                    | "volatile memory backup"
            );
        if bit_line {
            continue;
        }
        let key = norm(k);
        let key = key.trim_end_matches('.');
        let n = || leading_u64(v);
        let mut hit = true;
        match key {
            "critical warning" | "critical warning state" => h.critical_warning = warning_byte(v),
            "temperature" | "composite temperature" => h.temperature_c = temperature(v),
            "available spare" => h.available_spare = n(),
            "available spare threshold" => h.spare_threshold = n(),
            "percentage used" => h.percentage_used = n(),
            "media and data integrity errors" | "media errors" => h.media_errors = n(),
            "warning comp. temperature time"
            | "warning temperature time"
            | "warning temp composite time" => h.warning_temp_minutes = n(),
            "critical comp. temperature time"
            | "critical composite temperature time"
            | "error temp composite time" => h.critical_temp_minutes = n(),
            "warning comp. temp. threshold" => h.warning_temp_c = temperature(v),
            "critical comp. temp. threshold" => h.critical_temp_c = temperature(v),
            "thermal temp. 1 transition count"
            | "thermal management t1 trans count"
            | "temperature 1 transition count" => h.tmt1_count = n(),
            "thermal temp. 2 transition count"
            | "thermal management t2 trans count"
            | "temperature 2 transition count" => h.tmt2_count = n(),
            "thermal temp. 1 total time"
            | "thermal management t1 total time"
            | "total time for temperature 1" => h.tmt1_seconds = n(),
            "thermal temp. 2 total time"
            | "thermal management t2 total time"
            | "total time for temperature 2" => h.tmt2_seconds = n(),
            k if k.starts_with("temperature sensor ") => {
                if let Some(c) = temperature(v) {
                    h.sensors_c.push(c);
                }
            }
            _ => hit = false,
        }
        any |= hit;
    }
    // The reasons stand for the byte when the report does not print it (`smartctl -H`).
    if h.critical_warning.is_none()
        && let Some(r) = reasons
    {
        h.critical_warning = Some(r);
        any = true;
    }
    // One recognised line is not enough ("Temperature:" appears in SATA outputs too): two
    // fields only an NVMe health log has, or one of them and its temperature (a grep for
    // "temp" or a fragment: "critical_warning: 0x2" over "temperature: 84 °C"; "Thermal
    // Temp. 1 Total Time" exists only in smartctl's NVMe section, nvmeprint.cpp).
    let nvme_only = [
        h.critical_warning.is_some(),
        h.available_spare.is_some(),
        h.percentage_used.is_some(),
        h.media_errors.is_some(),
        h.warning_temp_minutes.is_some(),
        h.critical_temp_minutes.is_some(),
        h.tmt1_seconds.is_some() || h.tmt1_count.is_some(),
        h.tmt2_seconds.is_some() || h.tmt2_count.is_some(),
    ]
    .iter()
    .filter(|b| **b)
    .count();
    // The reason lines exist only in smartctl's NVMe health section: proof by themselves.
    let nvme_only = nvme_only + usize::from(reasons.is_some());
    let temperature = h.temperature_c.is_some() || !h.sensors_c.is_empty();
    (any && (nvme_only >= 2 || (nvme_only == 1 && temperature))).then_some(h)
}

/// Parse any of the four outputs; None when the text has no NVMe health log.
pub fn parse(text: &str) -> Option<NvmeHealth> {
    if text.contains("nvme_smart_health_information_log")
        && let Some(v) = find_json(text)
    {
        return from_json(&v);
    }
    // A raw hex dump of the page (`nvme get-log -i 2 -vv`) is decoded by its layout.
    from_text(text).or_else(|| super::nvme_get_log::health(text))
}

/// Whether the text is an NVMe health log (for `explain`).
pub fn recognize(text: &str) -> bool {
    parse(text).is_some()
}

/// The critical-warning bits that are set, in words (NVMe Base spec, Figure "SMART / Health
/// Information Log Page", byte 0).
pub fn warning_words(bits: u8) -> Vec<&'static str> {
    const NAMES: [&str; 6] = [
        "available spare is below its threshold",
        "temperature is above a threshold (or below the under-temperature threshold)",
        "reliability is degraded by media or internal errors",
        "the media has been placed in read-only mode",
        "the volatile memory backup device has failed",
        "the persistent memory region is read-only",
    ];
    NAMES
        .iter()
        .enumerate()
        .filter(|(i, _)| bits & (1u8 << i) != 0)
        .map(|(_, n)| *n)
        .collect()
}

// ---- the source spec (see sources::spec) ----
use crate::sources::spec;

/// nvmecontrol(8) logpage -p 2 (FreeBSD): the NVMe health log (smartctl prints the same
/// log under its own spec).
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Freebsd),
    // Filled with the controller's name (plan.rs PER_NVME_CONTROLLER).
    live: &[spec::Live::Cmd(&[
        "nvmecontrol",
        "logpage",
        "-p",
        "2",
        "{disk}",
    ])],
    // A pasted log page goes under the controller's key (nvme0ns1's is nvme0).
    pasted_as: Some(spec::Live::Cmd(&[
        "nvmecontrol",
        "logpage",
        "-p",
        "2",
        "{disk}",
    ])),
    parse: Some(|t| usize::from(parse(t).is_some())),
    paste: Some(NVMECONTROL_LOGPAGE_PASTE),
    programs: &[spec::Program::new("nvmecontrol", |a| {
        spec::starts_with_any(a, &["logpage", "identify", "devlist"])
    })],
    ..spec::SourceSpec::named("nvmecontrol-logpage", "nvmecontrol logpage -p 2")
};

/// The `nvmecontrol logpage -p 2` paste: stored under plan.rs's NVME_HEALTH key of the
/// namespace's controller (SPEC uses it).
const NVMECONTROL_LOGPAGE_PASTE: spec::Paste = spec::Paste {
    live_device: Some(super::block_recognisers::nvme_controller),
    ..spec::Paste::new(&super::block_recognisers::NVMECONTROL_LOGPAGE, |p, t| {
        p == "nvmecontrol" && t.contains("logpage")
    })
};

/// `nvme smart-log` with its newlines lost (a web page that ran the log into one line):
/// nvme-cli prints "Smart Log for NVME device:%s namespace-id:%x", then one "key : value"
/// line per field (nvme-print.c show_smart_log in 1.x: "critical_warning", "temperature",
/// "available_spare", ..., "Warning Temperature Time", "Temperature Sensor %d",
/// "Thermal Management T1 Trans Count"; 2.x nvme-print-stdout.c keeps the names). Each
/// field starts at its name before " : ", so the header is needed and four fields.
pub(crate) const FLAT: spec::Flat = spec::Flat {
    starts: &[
        r"\b(Smart Log for NVME device:)",
        r"(?:^|\s)((?:critical_warning|temperature|available_spare(?:_threshold)?|percentage_used|endurance group critical warning summary|data_units_(?:read|written)|host_(?:read|write)_commands|controller_busy_time|power_cycles|power_on_hours|unsafe_shutdowns|media_errors|num_err_log_entries|Warning Temperature Time|Critical Composite Temperature Time|Temperature Sensor \d+|Thermal Management T\d (?:Trans Count|Total Time))\s*:\s)",
    ],
    need: r"Smart Log for NVME device:",
    min: 4,
};

/// `nvme smart-log /dev/nvmeN` (nvme-cli), stored under the Linux probe's key
/// (`plan::device_state::nvme_smart_log`) of the namespace's controller.
pub const NVME_CLI_SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Linux),
    fixture_dirs: &["nvme-smart-log"],
    live: &[spec::Live::Cmd(&["nvme", "smart-log", "{dev}"])],
    pasted_as: Some(spec::Live::Cmd(&["nvme", "smart-log", "{dev}"])),
    parse: Some(|t| usize::from(parse(t).is_some())),
    paste: Some(spec::Paste {
        device: Some(super::block_recognisers::nvme_header_device),
        live_device: Some(super::block_recognisers::nvme_controller),
        flat: &[FLAT],
        ..spec::Paste::new(&super::block_recognisers::NVME_SMART_LOG, |p, t| {
            p == "nvme" && t.contains("smart-log")
        })
    }),
    programs: &[spec::Program::new("nvme", |a| {
        spec::starts_with_any(
            a,
            &[
                "smart-log",
                "id-ns",
                "id-ctrl",
                "list",
                "error-log",
                "get-log",
                "get-feature",
            ],
        )
    })],
    ..spec::SourceSpec::named("nvme-smart-log", "nvme smart-log")
};

#[cfg(test)]
mod tests;
