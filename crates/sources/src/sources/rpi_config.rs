//! Raspberry Pi firmware `config.txt` lines that set the Raspberry Pi 5's external PCIe
//! connector (the FFC "PCIe 2.0 x1" port that M.2 HATs plug into): `dtparam=pciex1` (or its
//! alias `dtparam=nvme`) enables it, `dtparam=pciex1_gen=3` raises its link from the default
//! Gen 2.0 (5 GT/s) to Gen 3.0 (8 GT/s). People paste these lines beside a benchmark of the
//! NVMe drive on that connector.
//!
//! References: Raspberry Pi documentation, "Raspberry Pi hardware", section "PCIe Gen 3.0"
//! (raspberrypi.com/documentation/computers/raspberry-pi.html): "By default, Raspberry Pi 5
//! uses Gen 2.0 speeds (5 GT/sec) ... add `dtparam=pciex1_gen=3` ... Raspberry Pi 5 is not
//! certified for Gen 3.0 speeds; connections to PCIe devices at these speeds may be
//! unstable"; the firmware's overlay README (raspberrypi/linux arch/arm/boot/dts/overlays/
//! README, bcm2712 parameters): "pciex1 Set to enable the external PCIe link (default
//! off)", "pciex1_gen Sets the PCIe 'GEN' speed for the external PCIe link (default 2)",
//! "nvme Alias for pciex1". The connector is one lane wide (x1) in either setting.
//! `dtparam=` takes a comma-separated list of parameters (config.txt documentation,
//! "dtparam"), so `dtparam=pciex1,pciex1_gen=3` sets both.

use crate::sources::spec;

/// What the lines say about the Pi 5's external PCIe connector.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PcieConnector {
    /// The generation the link is set to: 2 unless `pciex1_gen=` says otherwise.
    pub gen_set: u8,
    /// `pciex1_gen=` was given (not the default).
    pub gen_explicit: bool,
    /// The connector was enabled with the `nvme` alias: the user says an NVMe drive is on it.
    pub nvme_alias: bool,
}

/// The highest generation the connector carries (the documentation's "not certified" Gen 3).
pub const CONNECTOR_MAX_GEN: u8 = 3;
/// The name a finding gives the connector's port (no PCI address is in config.txt).
pub const CONNECTOR_ADDRESS: &str = "Raspberry Pi 5 PCIe connector";
/// The connector's lanes.
pub const CONNECTOR_WIDTH: u32 = 1;

/// The transfer rate of a PCIe generation, GT/s (PCIe Base spec: 2.5, 5, 8, 16 GT/s).
pub fn gen_gts(generation: u8) -> Option<f64> {
    match generation {
        1 => Some(2.5),
        2 => Some(5.0),
        3 => Some(8.0),
        _ => None,
    }
}

/// The `dtparam=` parameters of one line ("dtparam=pciex1,pciex1_gen=3", also inside Markdown
/// backticks or behind a "[pi5]" section); None for any other line.
fn params(line: &str) -> Option<Vec<(String, Option<String>)>> {
    let t = line.trim().trim_matches('`').trim();
    let rest = t.strip_prefix("dtparam=")?;
    let rest = rest.split('#').next().unwrap_or("").trim();
    let out: Vec<(String, Option<String>)> = rest
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| match p.split_once('=') {
            Some((k, v)) => (k.trim().to_string(), Some(v.trim().to_string())),
            None => (p.to_string(), None),
        })
        .collect();
    (!out.is_empty()).then_some(out)
}

/// Whether a `dtparam=` line names the external PCIe connector.
fn is_pcie_line(line: &str) -> bool {
    params(line).is_some_and(|ps| {
        ps.iter()
            .any(|(k, _)| k == "pciex1" || k == "nvme" || k == "pciex1_gen")
    })
}

/// The connector's setting, when the text enables it (`pciex1` or `nvme`, without "=off") or
/// sets its generation. A later line overrides an earlier one, as the firmware reads them.
pub fn parse(text: &str) -> Option<PcieConnector> {
    let mut enabled = false;
    let mut nvme_alias = false;
    let mut gen_set: Option<u8> = None;
    for ps in text.lines().filter_map(params) {
        for (k, v) in ps {
            let off = v
                .as_deref()
                .is_some_and(|v| matches!(v, "off" | "0" | "false" | "no"));
            match k.as_str() {
                "pciex1" => enabled = !off,
                "nvme" => {
                    enabled = !off;
                    nvme_alias = !off;
                }
                "pciex1_gen" => {
                    gen_set = v
                        .as_deref()
                        .and_then(|v| v.parse::<u8>().ok())
                        .filter(|g| gen_gts(*g).is_some());
                }
                _ => {}
            }
        }
    }
    (enabled || gen_set.is_some()).then_some(PcieConnector {
        gen_set: gen_set.unwrap_or(2),
        gen_explicit: gen_set.is_some(),
        nvme_alias,
    })
}

/// Other config.txt lines that may stand between the PCIe ones: sections ("[pi5]", "[all]"),
/// other `dtparam=`/`dtoverlay=` lines and settings ("arm_boost=1"), comments.
fn is_config_line(line: &str) -> bool {
    let t = line.trim().trim_matches('`').trim();
    if t.starts_with('[') && t.ends_with(']') && t.len() <= 24 {
        return true;
    }
    if t.starts_with('#') {
        return true;
    }
    match t.split_once('=') {
        Some((k, _)) => {
            !k.is_empty()
                && k.len() <= 32
                && k.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        }
        None => false,
    }
}

// ---- the source spec (see sources::spec) ----

/// A PCIe `dtparam=` line, or a section line ("[pi5]", "[all]") with one right under it: the
/// firmware applies the lines below a section filter to the boards it names (config.txt
/// documentation, "Conditional filters").
fn starts(lines: &[&str]) -> spec::Start {
    let Some(first) = lines.first() else {
        return spec::Start::No;
    };
    let t = first.trim().trim_matches('`').trim();
    let section = t.starts_with('[') && t.ends_with(']') && t.len() <= 24;
    spec::Start::from(
        is_pcie_line(first) || section && lines.get(1).is_some_and(|l| is_pcie_line(l)),
    )
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "rpi-config",
    starts: &[(160, starts)],
    member: |t, _| spec::Member::from(is_config_line(t)),
    tolerance: (1, 0),
    classify: |_, _| "rpi-config",
    ..spec::Recogniser::NONE
};

/// A pasted config.txt excerpt (no live capture: diskdoc reads the link itself from sysfs on
/// the machine).
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Linux),
    parse: Some(|t| usize::from(parse(t).is_some())),
    paste: Some(spec::Paste::new(&RECOGNISER, |_, _| false)),
    ..spec::SourceSpec::named("rpi-config", "Raspberry Pi config.txt")
};

#[cfg(test)]
mod tests;
