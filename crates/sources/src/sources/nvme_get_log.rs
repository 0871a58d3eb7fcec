//! `nvme get-log -i 0x2 ... -vv` (nvme-cli): the raw SMART / Health Information log page as
//! a hex dump. nvme-cli prints "Device:nvme0 log-id:2 namespace-id:0xffffffff", a column
//! header "       0  1  2 ...  f" and rows "0000: 00 38 01 64 0a 01 00 ... \".8.d....\""
//! (nvme-print.c d(): a 4-digit hex offset, 16 bytes, their ASCII). The bytes are decoded
//! by the log page's layout (NVMe Base Specification 2.0, Figure 207 "SMART / Health
//! Information Log Page", Log Identifier 02h): byte 0 Critical Warning; 1-2 Composite
//! Temperature in Kelvin; 3 Available Spare; 4 Available Spare Threshold; 5 Percentage
//! Used; 160-175 Media and Data Integrity Errors; 192-195 Warning and 196-199 Critical
//! Composite Temperature Time (minutes); 216-231 Thermal Management Temperature 1/2
//! Transition Counts and Total Times. All little-endian. A dump cut short yields only the
//! fields whose bytes it holds.

use crate::model::NvmeHealth;
use crate::sources::spec;
use crate::sources::util::clean_line;

crate::rx!(HEADER, r"^Device:\s*(\S+)\s+log-id:\s*(0x[0-9a-fA-F]+|\d+)");
crate::rx!(
    COLUMNS,
    r"^\s*0\s+1\s+2\s+3\s+4\s+5\s+6\s+7\s+8\s+9\s+a\s+b\s+c\s+d\s+e\s+f\s*$"
);
crate::rx!(ROW, r"^([0-9a-fA-F]{4}):((?:\s+[0-9a-fA-F]{2}){1,16})");

/// The log identifier the header names ("log-id:2"), if any.
fn log_id(text: &str) -> Option<u64> {
    text.lines().find_map(|l| {
        let line = clean_line(l);
        let c = HEADER.captures(line.trim())?;
        let v = c.get(2)?.as_str();
        match v.strip_prefix("0x") {
            Some(h) => u64::from_str_radix(h, 16).ok(),
            None => v.parse().ok(),
        }
    })
}

/// The dump's bytes by offset; None where a row is missing.
pub fn bytes(text: &str) -> Vec<Option<u8>> {
    let mut out: Vec<Option<u8>> = Vec::new();
    for raw in text.lines() {
        let line = clean_line(raw);
        let Some(c) = ROW.captures(line.trim()) else {
            continue;
        };
        let (Some(off), Some(hex)) = (c.get(1), c.get(2)) else {
            continue;
        };
        let Ok(off) = usize::from_str_radix(off.as_str(), 16) else {
            continue;
        };
        for (i, b) in hex.as_str().split_whitespace().enumerate() {
            let Some(at) = off.checked_add(i) else { break };
            // A log page is 512 bytes; nothing beyond 4 KiB is a health log.
            if at >= 4096 {
                break;
            }
            if out.len() <= at {
                out.resize(at + 1, None);
            }
            if let Some(slot) = out.get_mut(at) {
                *slot = u8::from_str_radix(b, 16).ok();
            }
        }
    }
    out
}

/// A little-endian field of `len` bytes at `at` (at most 8 are summed: the 16-byte counters
/// beyond 2^64 are not real).
fn le(b: &[Option<u8>], at: usize, len: usize) -> Option<u64> {
    let mut v: u64 = 0;
    for i in (0..len.min(8)).rev() {
        v = (v << 8) | u64::from((*b.get(at + i)?)?);
    }
    // The high half of a 16-byte counter must be zero for the low half to be the value.
    for i in 8..len {
        if (*b.get(at + i)?)? != 0 {
            return None;
        }
    }
    Some(v)
}

/// The health log in the dump, when the dump is of log page 02h (the header says so, or
/// it names no log and is not known to be another one).
pub fn health(text: &str) -> Option<NvmeHealth> {
    if log_id(text).is_some_and(|id| id != 2) {
        return None;
    }
    let b = bytes(text);
    if b.len() < 6 {
        return None;
    }
    let byte = |i: usize| b.get(i).copied().flatten().map(u64::from);
    Some(NvmeHealth {
        critical_warning: b.first().copied().flatten(),
        temperature_c: le(&b, 1, 2)
            .and_then(|k| i64::try_from(k).ok())
            .filter(|k| *k > 0 && *k < 1000)
            .map(|k| k - 273),
        available_spare: byte(3),
        spare_threshold: byte(4),
        percentage_used: byte(5),
        media_errors: le(&b, 160, 16),
        warning_temp_minutes: le(&b, 192, 4),
        critical_temp_minutes: le(&b, 196, 4),
        tmt1_count: le(&b, 216, 4),
        tmt2_count: le(&b, 220, 4),
        tmt1_seconds: le(&b, 224, 4),
        tmt2_seconds: le(&b, 228, 4),
        ..Default::default()
    })
}

/// The controller the header names ("Device:nvme0").
fn device(text: &str) -> Option<String> {
    text.lines().find_map(|l| {
        let line = clean_line(l);
        let c = HEADER.captures(line.trim())?;
        Some(spec::strip_dev(c.get(1)?.as_str()))
    })
}

fn start(lines: &[&str]) -> spec::Start {
    let first = lines.first().map(|l| l.trim()).unwrap_or("");
    let next = spec::next_nonblank(lines, 1, 1)
        .and_then(|i| lines.get(i))
        .map(|l| l.trim())
        .unwrap_or("");
    spec::Start::from(
        (HEADER.is_match(first) || COLUMNS.is_match(first))
            && (COLUMNS.is_match(next) || ROW.is_match(next)),
    )
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "nvme-get-log",
    starts: &[(170, start)],
    member: |t, _| {
        let t = t.trim();
        spec::Member::from(ROW.is_match(t) || COLUMNS.is_match(t))
    },
    tolerance: (1, 0),
    classify: |_, _| "nvme-get-log",
    ..spec::Recogniser::NONE
};

/// `nvme get-log -i 2 -vv` (nvme-cli): no live capture (the probe reads `nvme smart-log`);
/// the pasted facts read the dump (`facts::pasted::device_state`, `nvme_smart::parse`
/// decodes it).
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Linux),
    parse: Some(|t| usize::from(health(t).is_some())),
    paste: Some(spec::Paste {
        device: Some(device),
        ..spec::Paste::new(&RECOGNISER, |p, t| p == "nvme" && t.contains("get-log"))
    }),
    ..spec::SourceSpec::named("nvme-get-log", "nvme get-log")
};

#[cfg(test)]
mod tests;
