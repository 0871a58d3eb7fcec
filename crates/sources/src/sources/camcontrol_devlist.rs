//! `camcontrol devlist [-v]` (camcontrol(8)): CAM devices with their bus, target, lun and
//! peripheral drivers; with -v also "scbusN on SIM bus M:" lines naming the SIM (ahcich0,
//! ata2, mps0, mpr1, umass-sim0) each bus belongs to.
//!
//! Tolerates inquiry strings whose angle brackets were mangled to parentheses or a stray
//! '<', double spaces inside the inquiry, periph lists in any order, and sorted output.

use super::geom_util::unquote;

/// A "scbusN on SIM bus M:" line from `devlist -v`.
#[derive(Debug, Clone, PartialEq)]
pub struct Bus {
    pub scbus: i64,
    /// SIM instance: "ahcich0", "ata2", "mps0", "umass-sim0".
    pub sim: String,
}

/// One device line.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Device {
    /// Inquiry text as printed ("SEAGATE ST2000NM0023 0004"), brackets removed.
    pub inquiry: String,
    pub scbus: Option<i64>,
    pub target: Option<i64>,
    pub lun: Option<String>,
    /// Peripheral drivers in printed order ("pass0", "da0").
    pub periphs: Vec<String>,
}

impl Device {
    /// The storage periph (ada/da/nda/cd/sa...), not pass/ses/xpt/pmp.
    pub fn disk(&self) -> Option<&str> {
        self.periphs.iter().map(String::as_str).find(|p| {
            let pre = p.trim_end_matches(|c: char| c.is_ascii_digit());
            matches!(pre, "ada" | "da" | "nda" | "ad")
        })
    }
    /// Inquiry vendor for SCSI-style strings; SATA disks behind a SAS HBA read "ATA".
    pub fn vendor_is_ata(&self) -> bool {
        self.inquiry.split_whitespace().next() == Some("ATA")
    }
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Devlist {
    pub buses: Vec<Bus>,
    pub devices: Vec<Device>,
}

impl Devlist {
    /// The device line that carries `disk` as a periph.
    pub fn device(&self, disk: &str) -> Option<&Device> {
        self.devices
            .iter()
            .find(|d| d.periphs.iter().any(|p| p == disk))
    }
    /// Whether ada disk `disk` sits on an ata(4) channel, told from a devlist without its
    /// bus lines: ata(4)'s CAM SIM offers targets 0 and 1 only, the master and the slave of
    /// a parallel-ATA or IDE-emulated channel (freebsd-src sys/dev/ata/ata-all.c, ataaction
    /// XPT_PATH_INQ: max_target = 1 outside port-multiplier support), while ahci(4),
    /// siis(4) and mvs(4) give each port its own bus with the drive at target 0 and, behind
    /// a port multiplier, its ports at targets 0-14 and the multiplier itself ("pmp0") at
    /// target 15. So a bus holding a device at target 1, only targets 0 and 1, and no pmp is
    /// an ata(4) channel.
    pub fn on_ata_channel(&self, disk: &str) -> bool {
        let Some(dev) = self.device(disk) else {
            return false;
        };
        if !disk.starts_with("ada") {
            return false;
        }
        let Some(bus) = dev.scbus else {
            return false;
        };
        let on_bus: Vec<&Device> = self
            .devices
            .iter()
            .filter(|d| d.scbus == Some(bus))
            .collect();
        let pmp = on_bus
            .iter()
            .any(|d| d.periphs.iter().any(|p| p.starts_with("pmp")));
        !pmp && on_bus.iter().any(|d| d.target == Some(1))
            && on_bus.iter().all(|d| matches!(d.target, Some(0) | Some(1)))
    }
    /// The SIM `disk` hangs off (needs `devlist -v`).
    pub fn sim_for(&self, disk: &str) -> Option<&str> {
        let bus = self.device(disk)?.scbus?;
        self.buses
            .iter()
            .find(|b| b.scbus == bus)
            .map(|b| b.sim.as_str())
    }
}

pub fn parse(text: &str) -> Devlist {
    let mut out = Devlist::default();
    for raw in text.lines() {
        let line = unquote(raw);
        if let Some(bus) = parse_bus(line) {
            out.buses.push(bus);
            continue;
        }
        if let Some(dev) = parse_device(line) {
            out.devices.push(dev);
        }
    }
    out
}

/// "scbus0 on ahcich0 bus 0:"
fn parse_bus(line: &str) -> Option<Bus> {
    let rest = line.strip_prefix("scbus")?;
    let (num, rest) = rest.split_once(" on ")?;
    let scbus: i64 = num.trim().parse().ok()?;
    let sim = rest.split_whitespace().next()?.to_string();
    Some(Bus { scbus, sim })
}

/// "<INTEL SSDSC2BA200G3 5DV10270>     at scbus1 target 0 lun 0 (ada0,pass4)"
fn parse_device(line: &str) -> Option<Device> {
    let at = line.rfind(" at scbus")?;
    let head = line.get(..at)?.trim();
    let tail = line.get(at + 4..)?;
    let inquiry = head
        .trim_start_matches(['<', '('])
        .trim_end_matches(['>', ')', '<'])
        .trim()
        .to_string();
    let toks: Vec<&str> = tail.split_whitespace().collect();
    let mut dev = Device {
        inquiry,
        ..Default::default()
    };
    let mut i = 0;
    while let Some(t) = toks.get(i) {
        if let Some(n) = t.strip_prefix("scbus") {
            dev.scbus = n.parse().ok();
        } else if *t == "target" {
            dev.target = toks.get(i + 1).and_then(|v| v.parse().ok());
            i += 1;
        } else if *t == "lun" {
            dev.lun = toks.get(i + 1).map(|s| s.to_string());
            i += 1;
        } else if t.starts_with('(') {
            let list = toks.get(i..).unwrap_or(&[]).join("");
            let inner = list.trim_start_matches('(');
            let inner = inner.split(')').next().unwrap_or("");
            dev.periphs = inner
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect();
            break;
        }
        i += 1;
    }
    Some(dev)
}

// ---- the source spec (see sources::spec) ----
use crate::sources::spec;

/// What the FreeBSD probe runs: camcontrol(8) devlist -v, every CAM device with its SIM.
pub const ARGV: &[&str] = &["camcontrol", "devlist", "-v"];

crate::rx!(
    DEVLIST_ROW,
    r"^[<(].*[>)]\s+at scbus-?\d+ target -?\d+ lun \w+ \("
);
crate::rx!(DEVLIST_BUS, r"^scbus-?\d+ on \S+ bus \d+:");

fn is_row(t: &str) -> bool {
    DEVLIST_ROW.is_match(t) || DEVLIST_BUS.is_match(t)
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "camcontrol-devlist",
    starts: &[(50, |l| spec::on_first(l, is_row))],
    member: |t, _| spec::Member::from(is_row(t)),
    classify: |_, _| "camcontrol-devlist",
    ..spec::Recogniser::NONE
};

/// camcontrol(8) devlist -v.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Freebsd),
    live: &[spec::Live::Cmd(ARGV)],
    pasted_as: Some(spec::Live::Cmd(ARGV)),
    parse: Some(|t| spec::found(parse(t))),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, t| {
        p == "camcontrol" && t.contains("devlist")
    })),
    mention: Some(r"camcontrol\s+devlist"),
    asks: &[(spec::Ask::CamDevlist, "camcontrol devlist -v")],
    ..spec::SourceSpec::named("camcontrol-devlist", "camcontrol devlist")
};

#[cfg(test)]
mod ata_channel_tests;
