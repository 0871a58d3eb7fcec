//! sbc-bench's storage list (Thomas Kaiser's sbc-bench.sh: `sbc-bench.sh -S`, and the
//! "Storage devices" / "PCIe and storage devices" section of its full report): one line per
//! device, `  * SIZE "MODEL" TYPE as /dev/NODE: DETAILS`, where TYPE is "SSD" or "HDD" for
//! a drive smartctl answers for (CheckSMARTData: "HDD" unless smartctl's Rotation Rate
//! says "Solid State Device"), the card type the kernel logged for an MMC device ("UHS
//! SDR104 SDXC card", "HS SD card", "HS400 Enhanced strobe eMMC card", from the mmc
//! driver's "new ... card at address" line), and nothing for a USB device without SMART
//! (`"ASMedia SATA 6Gb/s bridge" as /dev/sda: USB, Driver=usb-storage, 5Gbps ...`). A
//! SATA drive's details begin with smartctl's "SATA Version is" ("SATA 3.1, 6.0 Gb/s
//! (current: 6.0 Gb/s)"), in brackets after the node when it sits behind a USB bridge
//! ("[SATA 3.1, ...]: behind VIA Labs VL715/VL716 SATA 6Gb/s bridge ..., Driver=uas").
//! An NVMe drive is listed by its controller node (/dev/nvme0) with its PCIe link.

use crate::sources::{spec, util};

/// What sbc-bench says a device is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Ssd,
    Hdd,
    /// An SD card or an eMMC: flash behind the MMC host.
    MmcCard,
    /// A USB mass-storage device that answered no SMART query.
    Usb,
}

/// One device of the list.
#[derive(Debug, Clone, PartialEq)]
pub struct Device {
    /// The node below /dev/ as printed (sda, mmcblk0, nvme0).
    pub node: String,
    pub model: String,
    pub kind: Kind,
    /// SATA: smartctl's SATA version line is in the details (on the host's own port unless
    /// `behind_bridge`).
    pub sata: bool,
    /// Behind a USB bridge ("behind ... bridge", or the USB line of a device without SMART).
    pub usb: bool,
    /// An NVMe controller node (its details give a PCIe "Speed ..GT/s").
    pub nvme: bool,
}

crate::rx!(
    LINE,
    r#"^\s*\*\s+(?:[\d.]+\s?[KMGTP]B\s*)?"([^"]*)"\s+(?:(.*?)\s+)?as\s+/dev/([a-z][a-z0-9]*)(\s*\[[^\]]*\])?:\s*(.*)$"#
);

fn line(t: &str) -> Option<Device> {
    let c = LINE.captures(t)?;
    let g = |i: usize| c.get(i).map_or("", |m| m.as_str());
    let (ty, node, bracket, details) = (g(2).trim(), g(3), g(4), g(5));
    let usb =
        details.starts_with("USB,") || (details.contains("behind ") && details.contains("bridge"));
    let sata = bracket.contains("SATA") || details.starts_with("SATA");
    let nvme = node.starts_with("nvme") && details.starts_with("Speed ");
    let kind = match ty {
        "SSD" => Kind::Ssd,
        "HDD" => Kind::Hdd,
        t if t.ends_with("card") && (t.contains("SD") || t.contains("MMC")) => Kind::MmcCard,
        "" if details.starts_with("USB,") => Kind::Usb,
        _ => return None,
    };
    Some(Device {
        node: node.to_string(),
        model: g(1).trim().to_string(),
        kind,
        sata,
        usb,
        nvme,
    })
}

/// Every device line of `text`.
pub fn parse(text: &str) -> Vec<Device> {
    text.lines()
        .filter_map(|l| line(&util::clean_line(l)))
        .collect()
}

// ---- the source spec (see sources::spec) ----

/// A device line of the list ([`line`]).
fn device_line(l: &str) -> bool {
    line(&util::clean_line(l)).is_some()
}

static RECOGNISER: spec::Recogniser = spec::Recogniser::table(
    "sbc-bench-storage",
    &[(40, |l| spec::on_first(l, device_line))],
    |l, _| spec::Member::from(device_line(l)),
    |_, _| "sbc-bench",
);

/// sbc-bench's storage list: pasted beside a benchmark, not captured by a probe.
pub const SPEC: spec::SourceSpec = spec::pasted_only!("sbc-bench", "sbc-bench storage list",
    Some(crate::evidence::Platform::Linux), &RECOGNISER, parse: |t| parse(t).len(), secrets: &[]);

#[cfg(test)]
mod tests;
