//! `sensors` (lm-sensors, prog/sensors/main.c and chips.c): the hardware-monitoring chips'
//! readings. Each chip is a block opened by its name, "<prefix>-<bus>-<address>"
//! ("nvme-pci-0100": the NVMe driver's hwmon device, drivers/nvme/host/hwmon.c, on PCI
//! bus 01, device 00; "k10temp-pci-00c3", "coretemp-isa-0000", "drivetemp-scsi-4-0"),
//! then "Adapter: PCI adapter", then one line per feature, "Composite:    +38.9°C  (low
//! = -273.1°C, high = +84.8°C)" with a wrapped "(crit = +84.8°C)". A subfeature the
//! driver cannot read is reported on stderr as "ERROR: Can't get value of subfeature
//! temp2_min: I/O error" (chips.c get_value / print_chip_temp): an NVMe drive whose
//! secondary sensors have no thresholds answers the Get Features for them with an error,
//! which is the drive's firmware, not a fault (the kernel's nvme hwmon quirk for such
//! drives hides them). The readings are the drives' own temperature reports (NVMe Base
//! 2.0 5.27.1.4, Temperature Threshold); nothing here is a disk problem by itself.

use crate::sources::{spec, util};

/// One chip of the report.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Chip {
    /// "nvme-pci-0100".
    pub name: String,
    /// (label, °C): ("Composite", 38.9).
    pub temps: Vec<(String, f64)>,
}

/// What a `sensors` paste holds.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Sensors {
    pub chips: Vec<Chip>,
    /// The subfeatures the tool could not read ("temp2_min").
    pub unreadable: Vec<String>,
}

crate::rx!(
    CHIP,
    r"^([a-z][a-z0-9_]*(?:-[a-z0-9_]+)*-(?:pci|isa|i2c|acpi|virtual|scsi|platform|hid|mdio|spi)-[0-9a-f]+(?:-[0-9a-f]+)?)\s*$"
);
crate::rx!(ADAPTER, r"^Adapter:\s+\S");
crate::rx!(
    TEMP,
    r"^([A-Za-z][\w .-]{0,30}):\s+([+-]\d{1,3}(?:\.\d+)?)\s*°?C\b"
);
crate::rx!(
    UNREADABLE,
    r"^ERROR: Can't get value of subfeature ([a-z]+\d+_[a-z_]+): "
);

/// Parse the chips and the unreadable subfeatures.
pub fn parse(text: &str) -> Sensors {
    let mut out = Sensors::default();
    for raw in text.lines() {
        let c = util::clean_line(raw);
        let t = c.trim();
        if let Some(m) = CHIP.captures(t).and_then(|c| c.get(1)) {
            out.chips.push(Chip {
                name: m.as_str().to_string(),
                temps: Vec::new(),
            });
            continue;
        }
        if let Some(m) = UNREADABLE.captures(t).and_then(|c| c.get(1)) {
            out.unreadable.push(m.as_str().to_string());
            continue;
        }
        if let Some(cap) = TEMP.captures(t)
            && let Some(chip) = out.chips.last_mut()
            && let (Some(l), Some(v)) = (cap.get(1), cap.get(2))
            && let Ok(v) = v.as_str().parse::<f64>()
        {
            chip.temps.push((l.as_str().trim().to_string(), v));
        }
    }
    out
}

// ---- the source spec (see sources::spec) ----

fn start(lines: &[&str]) -> spec::Start {
    let clean = |t: &str| util::clean_line(t).trim().to_string();
    let Some(first) = lines.first().map(|l| clean(l)) else {
        return spec::Start::No;
    };
    // A chip name with its "Adapter:" line under it, or the tool's own unreadable-
    // subfeature error followed by another line of the tool.
    let chip = CHIP.is_match(&first) && lines.get(1).is_some_and(|n| ADAPTER.is_match(&clean(n)));
    let error = UNREADABLE.is_match(&first)
        && lines.get(1).is_some_and(|n| {
            let n = clean(n);
            UNREADABLE.is_match(&n) || CHIP.is_match(&n) || ADAPTER.is_match(&n)
        });
    spec::Start::from(chip || error)
}

fn member(l: &str, _: &spec::BlockState) -> spec::Member {
    let c = util::clean_line(l);
    let t = c.trim();
    spec::Member::from(
        CHIP.is_match(t)
            || ADAPTER.is_match(t)
            || UNREADABLE.is_match(t)
            || TEMP.is_match(t)
            // A feature's wrapped limits, "(crit = +84.8°C)", or a fan/voltage line.
            || (t.starts_with('(') && t.ends_with(')') && t.contains(" = "))
            || (t.contains(':') && (t.ends_with("RPM") || t.contains(" V ") || t.ends_with(" V") || t.ends_with("N/A"))),
    )
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "sensors",
    starts: &[(60, start)],
    member,
    tolerance: (1, 1),
    classify: |_, _| "sensors",
    ..spec::Recogniser::NONE
};

/// `sensors`: pasted beside a question about a drive's temperature; the live probe reads
/// the drives' own logs instead.
pub const SPEC: spec::SourceSpec = spec::pasted_only!(
    "sensors",
    "sensors",
    Some(crate::evidence::Platform::Linux),
    &RECOGNISER,
    parse: |t| {
        let r = parse(t);
        r.chips.len().saturating_add(r.unreadable.len())
    },
    secrets: &[],
    // Bare, flags, or one chip's name ("sensors nvme-pci-0100").
    args: |a| spec::bare_or_flags(a) || a.contains("-pci-"),
);

#[cfg(test)]
mod tests;
