//! `hddtemp` (hddtemp 0.3, src/hddtemp.c display_temperature): a drive's temperature from
//! its SMART attribute 194 (or 231/190 per its database), one line per drive, "/dev/sda:
//! WDC WD3200BEKT-75PVMT1: 32°C" ("°" only in a UTF-8 locale, else "32 C"; "°F" with -u F),
//! or instead of the value "S.M.A.R.T. not available", "drive is sleeping", "no sensor",
//! "drive supported, but it doesn't have a temperature sensor."; as a daemon (-d, read
//! over TCP port 7634) it prints records "|/dev/sda|WDC WD3200BEKT|32|C|" run together, with
//! SLP/NA/UNK/ERR for a value it has not. A reading, not a verdict: drives are rated to
//! about 55-60 °C.

use crate::sources::{spec, util};

/// One drive's line.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Reading {
    /// "/dev/sda".
    pub device: String,
    pub model: String,
    /// The temperature in °C (converted from °F), when the drive gave one.
    pub celsius: Option<f64>,
}

crate::rx!(
    LINE,
    r"^(/dev/[\w/.-]+):\s+(.*?):\s+(?:(-?\d{1,3})\s?(?:°|º)?\s?([CF])|S\.M\.A\.R\.T\. not available|drive is sleeping|no sensor|drive supported, but it doesn't have a temperature sensor\.?|unknown drive\b.*)\s*$"
);
crate::rx!(
    DAEMON,
    r"\|(/dev/[^|]+)\|([^|]*)\|(-?\d{1,3}|SLP|NA|UNK|ERR|NOS)\|([CF*]?)\|"
);

fn celsius(v: &str, unit: &str) -> Option<f64> {
    let v = v.parse::<f64>().ok()?;
    Some(if unit == "F" {
        (v - 32.0) * 5.0 / 9.0
    } else {
        v
    })
}

/// Parse every drive line and daemon record.
pub fn parse(text: &str) -> Vec<Reading> {
    let mut out = Vec::new();
    for raw in text.lines() {
        let c = util::clean_line(raw);
        let t = c.trim();
        if let Some(m) = LINE.captures(t) {
            let g = |i| m.get(i).map_or("", |x| x.as_str());
            out.push(Reading {
                device: g(1).to_string(),
                model: g(2).to_string(),
                celsius: celsius(g(3), g(4)),
            });
            continue;
        }
        for m in DAEMON.captures_iter(t) {
            let g = |i| m.get(i).map_or("", |x| x.as_str());
            out.push(Reading {
                device: g(1).to_string(),
                model: g(2).to_string(),
                celsius: celsius(g(3), g(4)),
            });
        }
    }
    out
}

// ---- the source spec (see sources::spec) ----

fn is_line(l: &str) -> bool {
    let c = util::clean_line(l);
    let t = c.trim();
    LINE.is_match(t) || (t.starts_with('|') && DAEMON.is_match(t))
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "hddtemp",
    starts: &[(60, |l| {
        spec::Start::from(l.first().is_some_and(|f| is_line(f)))
    })],
    member: |l, _| spec::Member::from(is_line(l)),
    tolerance: (1, 1),
    classify: |_, _| "hddtemp",
    ..spec::Recogniser::NONE
};

/// `hddtemp /dev/sdX`: pasted beside a question about a drive's temperature.
pub const SPEC: spec::SourceSpec = spec::pasted_only!(
    "hddtemp",
    "hddtemp",
    Some(crate::evidence::Platform::Linux),
    &RECOGNISER,
    parse: |t| parse(t).len(),
    secrets: &[],
    args: |a| spec::bare_or_flags(a) || a.contains("/dev/"),
);

#[cfg(test)]
mod tests;
