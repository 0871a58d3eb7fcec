//! `pciconf -lv` (pciconf(8)): one "driverN@pciD:B:S:F: class=0x010601 ... chip=0x..." line
//! per PCI function, followed by indented "vendor = '...'", "device = '...'", "class = ...",
//! "subclass = ..." lines. The class code tells the storage controller's programming
//! interface (PCI Code and ID Assignment spec: 0x0101xx IDE, 0x010601 AHCI, 0x0104xx RAID,
//! 0x0107xx SAS, 0x010802 NVMe).
//!
//! usr.sbin/pciconf/pciconf.c list_devs(): up to FreeBSD 13 the header carries
//! "chip=0xDDDDVVVV card=0x..."; FreeBSD 14 prints "vendor=0xVVVV device=0xDDDD
//! subvendor=0x... subdevice=0x..." instead (no public post of the 14.x header was found;
//! the fixture follows that printf). `pciconf -lc` adds the capability list; its PCI
//! Express line (usr.sbin/pciconf/cap.c cap_express()) reads "link x1(x4) speed 2.5(5.0)":
//! negotiated width/speed, then the maximum in parentheses.

use super::geom_util::{hex_u32, unquote};
use crate::model::PcieLink;

#[derive(Debug, Clone, PartialEq, Default)]
pub struct PciDevice {
    /// Driver instance ("ahci0", "atapci0", "none3").
    pub name: String,
    /// "pci0:0:31:2".
    pub selector: String,
    /// 24-bit class code.
    pub class: Option<u32>,
    /// "vendor:device" hex ids from chip=0xDDDDVVVV.
    pub pci_id: Option<String>,
    pub vendor: Option<String>,
    pub device: Option<String>,
    pub class_name: Option<String>,
    pub subclass: Option<String>,
    /// `pciconf -lc`: the function's own PCI-Express link (hop 0, address "name@selector"),
    /// None without a PCI-Express capability (conventional PCI, chipset-integrated
    /// functions such as most AHCI controllers print none).
    pub link: Option<PcieLink>,
}

impl PciDevice {
    /// Mass storage (base class 0x01).
    pub fn is_storage(&self) -> bool {
        self.class.is_some_and(|c| c >> 16 == 0x01)
    }
}

pub fn parse(text: &str) -> Vec<PciDevice> {
    let mut out: Vec<PciDevice> = Vec::new();
    // A "link" or "speed" that ended the previous line: cap.c wraps the PCI-Express
    // capability at its own points, which moved between releases (FreeBSD 12 ends the
    // capability line with "link x1(x1)" and opens the next with "speed 2.5(2.5)"), and a
    // mail client may break the line again between the word and its value.
    let mut carry: Option<&'static str> = None;
    for raw in text.lines() {
        let line = unquote(raw);
        if let Some((head, rest)) = line.split_once('@')
            && !head.is_empty()
            && !head.contains(char::is_whitespace)
            && rest.starts_with("pci")
        {
            carry = None;
            let (sel, attrs) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
            let mut d = PciDevice {
                name: head.to_string(),
                selector: sel.trim_end_matches(':').to_string(),
                ..Default::default()
            };
            let (mut ven, mut dev) = (None, None);
            for a in attrs.split_whitespace() {
                if let Some(v) = a.strip_prefix("class=") {
                    d.class = hex_u32(v);
                } else if let Some(v) = a.strip_prefix("chip=") {
                    // chip=0xDDDDVVVV: device id high, vendor id low.
                    if let Some(c) = hex_u32(v) {
                        d.pci_id = Some(format!("{:04x}:{:04x}", c & 0xffff, c >> 16));
                    }
                } else if let Some(v) = a.strip_prefix("vendor=") {
                    ven = hex_u32(v);
                } else if let Some(v) = a.strip_prefix("device=") {
                    dev = hex_u32(v);
                }
            }
            if d.pci_id.is_none()
                && let (Some(v), Some(dv)) = (ven, dev)
            {
                d.pci_id = Some(format!("{:04x}:{:04x}", v & 0xffff, dv & 0xffff));
            }
            out.push(d);
            continue;
        }
        let joined = match carry.take() {
            Some(word) => format!("{word} {}", line.trim()),
            None => line.to_string(),
        };
        carry = match joined.split_whitespace().last() {
            Some("link") => Some("link"),
            Some("speed") => Some("speed"),
            _ => None,
        };
        if let Some(d) = out.last_mut()
            && express_link(&joined, d)
        {
            continue;
        }
        let Some(d) = out.last_mut() else { continue };
        let Some((k, v)) = line.split_once('=') else {
            continue;
        };
        let v = v.trim().trim_matches('\'').trim().to_string();
        match k.trim() {
            "vendor" => d.vendor = Some(v),
            "device" => d.device = Some(v),
            "class" => d.class_name = Some(v),
            "subclass" => d.subclass = Some(v),
            _ => {}
        }
    }
    out
}

/// "x4(x4)" -> (4, 4); "5.0(8.0)" -> (5.0, 8.0).
fn paren_pair(tok: &str) -> Option<(&str, &str)> {
    let (a, b) = tok.split_once('(')?;
    Some((a, b.strip_suffix(')')?))
}

/// A `pciconf -lc` line with "link xN(xM)" and/or "speed A(B)": fill the device's link.
/// cap.c prints the Link Status fields first and the Link Capabilities maxima in
/// parentheses. Widths outside 1-32 lanes (0: link down; 255: register not implemented)
/// and speeds outside (0, 256] GT/s are no link values.
fn express_link(line: &str, d: &mut PciDevice) -> bool {
    let toks: Vec<&str> = line.split_whitespace().collect();
    let lanes = |s: &str| s.parse::<u32>().ok().filter(|w| (1..=32).contains(w));
    let gts = |s: &str| {
        s.parse::<f64>()
            .ok()
            .filter(|g| g.is_finite() && *g > 0.0 && *g <= 256.0)
    };
    let mut hit = false;
    for (i, t) in toks.iter().enumerate() {
        let Some(next) = toks.get(i + 1) else { break };
        let link = |d: &mut PciDevice| -> PcieLink {
            d.link.take().unwrap_or_else(|| PcieLink {
                address: format!("{}@{}", d.name, d.selector),
                ..Default::default()
            })
        };
        if *t == "link"
            && let Some((a, b)) = paren_pair(next)
            && let (Some(a), Some(b)) = (a.strip_prefix('x'), b.strip_prefix('x'))
        {
            let mut l = link(d);
            l.current_width = lanes(a);
            l.max_width = lanes(b);
            d.link = Some(l);
            hit = true;
        } else if *t == "speed"
            && let Some((a, b)) = paren_pair(next)
        {
            let mut l = link(d);
            l.current_gts = gts(a);
            l.max_gts = gts(b);
            d.link = Some(l);
            hit = true;
        }
    }
    hit
}

// ---- the source spec (see sources::spec) ----
use crate::sources::spec;

crate::rx!(
    PCICONF_ROW,
    r"^\S+@pci\d+:\d+:\d+:\d+:\s+(class=0x|card=0x)"
);
crate::rx!(PCICONF_SUB, r"^\s+(vendor|device|class|subclass)\s+= ");
// pciconf -c / -b (usr.sbin/pciconf/cap.c, pciconf.c): "cap 10[70] = PCI-Express 2 ...",
// "ecap 0001[100] = AER ...", "bar   [10] = type Memory ...", and their wrapped tails
// ("link x4(x8) speed 8.0(8.0) ASPM disabled(L0s)", indented under the value).
crate::rx!(
    PCICONF_CAP,
    r"^\s*(cap [0-9a-f]{2}\[[0-9a-f]+\]|ecap [0-9a-f]{4}\[[0-9a-f]+\]|bar\s+\[[0-9a-f]+\]) = "
);
crate::rx!(
    PCICONF_CAP_MORE,
    r"^\s{6,}\S|^\s*(link x\d+\(x\d+\)|speed [\d.]+\([\d.]+\)|max read \d+|Table in map|PBA in map)"
);

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "pciconf",
    starts: &[(80, |l| spec::on_first(l, |t| PCICONF_ROW.is_match(t)))],
    member: |t, _| {
        spec::Member::from(
            PCICONF_ROW.is_match(t)
                || PCICONF_SUB.is_match(t)
                || PCICONF_CAP.is_match(t)
                || PCICONF_CAP_MORE.is_match(t),
        )
    },
    // With capability lines the paste is `pciconf -lvc` (or -lc).
    classify: |text, _| {
        if text.lines().any(|l| PCICONF_CAP.is_match(l)) {
            "pciconf-lvc"
        } else {
            "pciconf"
        }
    },
    ..spec::Recogniser::NONE
};

/// pciconf(8) -lv.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Freebsd),
    live: &[spec::Live::Cmd(&["pciconf", "-lv"])],
    pasted_as: Some(spec::Live::Cmd(&["pciconf", "-lv"])),
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, _| p == "pciconf")),
    programs: &[spec::Program::new("pciconf", |a| a.starts_with("-l")).deciding_platform()],
    ..spec::SourceSpec::named("pciconf", "pciconf -lv")
};

/// Every function with a PCI-Express link line, by driver instance ("nvme0", "mps0").
pub fn links(text: &str) -> Vec<(String, PcieLink)> {
    parse(text)
        .into_iter()
        .filter_map(|d| Some((d.name, d.link?)))
        .collect()
}

/// A pasted `pciconf -lvc` (or -lc): -lv's lines and the capabilities. Stored under the
/// `pciconf -lv` key, which it holds all of (the controller names the derivations read);
/// explain/nvme_diskmark.rs reads the links from the block.
pub const LVC_SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Freebsd),
    live: &[spec::Live::Cmd(&["pciconf", "-lv"])],
    pasted_as: Some(spec::Live::Cmd(&["pciconf", "-lv"])),
    parse: Some(|t| links(t).len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, _| p == "pciconf")),
    ..spec::SourceSpec::named("pciconf-lvc", "pciconf -lvc")
};

/// pciconf(8) -lc: the PCI-Express link of each function (read by `links`).
pub(crate) const CAPS_SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Freebsd),
    live: &[spec::Live::Cmd(&["pciconf", "-lc"])],
    parse: Some(|t| links(t).len()),
    ..spec::SourceSpec::named("pciconf-lc", "pciconf -lc")
};

#[cfg(test)]
mod tests;
