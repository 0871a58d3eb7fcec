//! lsscsi(8) (Doug Gilbert's lsscsi, src/lsscsi.c one_sdev_entry): one line per SCSI
//! logical unit, "[H:C:T:L]" (NVMe: "[N:C:NSID:1]") padded to 13 columns, the short
//! device type ("disk", "cd/dvd", "enclosu"), then either the INQUIRY vendor (8 columns),
//! model (16) and revision (4), or with `-t` the transport (transport_init_longer: "sata:"
//! or "ata:" plus the LU name on a libata host, "usb:1-1.3:1.0", "sas:0x5000...", "fc:",
//! "iqn....,t,0x1" for iSCSI, "spi:", "sbp:"), then the block node ("-" when none), with
//! `-g` the sg node and with `-s` the size.
//!
//! What it says about a disk: vendor "ATA" is libata's SCSI translation of an ATA disk on
//! a host adapter (libata-scsi.c ata_scsiop_inq_std fills "ATA     "), so the drive is on
//! the computer's own SATA/PATA port and its model is the drive's (cut to 16 columns); a
//! USB bridge answers INQUIRY itself with its own or the drive's vendor, and only `-t`
//! ("usb:") says that it is one; a hypervisor's emulated disk names itself ("QEMU
//! QEMU HARDDISK", "VMware Virtual disk", "Msft Virtual Disk", "VBOX HARDDISK").

use crate::sources::{spec, util};

/// One logical unit of the listing.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ScsiUnit {
    /// "0:0:0:0" (NVMe: "N:0:1:1").
    pub hctl: String,
    /// The short peripheral type: "disk", "cd/dvd", "enclosu", ...
    pub kind: String,
    pub vendor: Option<String>,
    pub model: Option<String>,
    pub rev: Option<String>,
    /// `-t`: the transport as lsscsi prints it ("sata:", "usb:1-1:1.0", "sas:0x...").
    pub transport: Option<String>,
    /// The block device's kernel name (sda, nvme0n1), None for "-".
    pub device: Option<String>,
}

impl ScsiUnit {
    /// The transport word before its colon or dot: "sata", "ata", "usb", "sas", "fc",
    /// "fcoe", "iqn" (iSCSI), "spi", "sbp", "pcie".
    pub fn bus(&self) -> Option<&str> {
        let t = self.transport.as_deref()?;
        Some(
            t.split([':', '.', ' '])
                .next()
                .unwrap_or(t)
                .trim_end_matches(':'),
        )
    }
}

crate::rx!(
    LINE,
    r"^\[([0-9N]+:\d+:\d+:\d+)\]\s+(disk|cd/dvd|enclosu|process|storage|tape|zbc|mediumx|optical|comms|osd|wlun|no dev|type\?{1,3}|0x[0-9a-f]+)\s+(.*?)\s*$"
);
// The tail of a line: the block node (or "-"), the sg node of -g, the size of -s.
crate::rx!(
    TAIL,
    r"\s(/dev/\S+|-)(?:\s+(?:/dev/sg\d+|/dev/\S+|-))?(?:\s+[\d.]+[kMGTP]?B)?$"
);
crate::rx!(
    TRANSPORT,
    r"^(?:sata:|ata:|usb:|sas:|fc:|fcoe:|spi:|sbp:|pcie |iqn\.|eui\.|naa\.)"
);

fn line(t: &str) -> Option<ScsiUnit> {
    let c = LINE.captures(t)?;
    let g = |i: usize| c.get(i).map_or("", |m| m.as_str());
    let rest = g(3);
    let (mid, dev) = match TAIL
        .captures(rest)
        .and_then(|tc| Some((tc.get(0)?, tc.get(1)?)))
    {
        Some((all, d)) => (rest.get(..all.start()).unwrap_or(""), d.as_str()),
        // A line a mail client cut before its node.
        None => (rest, "-"),
    };
    let mut u = ScsiUnit {
        hctl: g(1).to_string(),
        kind: g(2).to_string(),
        device: (dev != "-").then(|| dev.trim_start_matches("/dev/").to_string()),
        ..Default::default()
    };
    let mid = mid.trim();
    if TRANSPORT.is_match(mid) {
        u.transport = Some(mid.to_string());
        return Some(u);
    }
    if u.hctl.starts_with('N') {
        // NVMe: the model string, then "__NSID" (lsscsi.c one_nhost_entry).
        u.model = Some(
            mid.rsplit_once("__")
                .map_or(mid, |(m, _)| m)
                .trim()
                .to_string(),
        )
        .filter(|m| !m.is_empty());
        return Some(u);
    }
    // Vendor (8), model (16), revision (4), blank-separated: by column when the line
    // kept them, else by words (vendor first, revision last).
    let cols = (mid.get(..8), mid.get(9..25), mid.get(26..));
    let (v, m, r) = match cols {
        (Some(v), Some(m), Some(r))
            if mid.as_bytes().get(8) == Some(&b' ') && mid.as_bytes().get(25) == Some(&b' ') =>
        {
            (v.trim(), m.trim(), r.trim())
        }
        _ => {
            let w = util::tokens(mid);
            match w.as_slice() {
                [v, m @ .., r] if !m.is_empty() => (*v, "", *r),
                _ => ("", "", ""),
            }
        }
    };
    u.vendor = (!v.is_empty()).then(|| v.to_string());
    u.model = if m.is_empty() {
        let w = util::tokens(mid);
        w.get(1..w.len().saturating_sub(1))
            .map(|x| x.join(" "))
            .filter(|x| !x.is_empty())
    } else {
        Some(m.to_string())
    };
    u.rev = (!r.is_empty()).then(|| r.to_string());
    Some(u)
}

/// Every logical unit in `text`.
pub fn parse(text: &str) -> Vec<ScsiUnit> {
    text.lines()
        .filter_map(|l| line(util::clean_line(l).trim()))
        .collect()
}

/// A hypervisor's emulated disk by its INQUIRY vendor and model (QEMU's scsi-disk and
/// ATA emulation, VMware's pvscsi/LSI disk, Hyper-V's storvsc, VirtualBox's ATA disk).
pub fn emulated(u: &ScsiUnit) -> bool {
    let v = u.vendor.as_deref().unwrap_or("");
    let m = u.model.as_deref().unwrap_or("");
    // The vendor alone (QEMU, VMware, Msft, VBOX) or the product ("Virtual disk" under
    // VMware's vendor, "BHYVE SATA DISK" under libata's "ATA"): the one list in util.
    util::names_emulated_disk(v) || util::names_emulated_disk(m)
}

// ---- the source spec (see sources::spec) ----

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "lsscsi",
    starts: &[(40, |l| {
        spec::on_first(l, |t| line(util::clean_line(t).trim()).is_some())
    })],
    member: |l, _| spec::Member::from(line(util::clean_line(l).trim()).is_some()),
    tolerance: (0, 0),
    classify: |_, _| "lsscsi",
    ..spec::Recogniser::NONE
};

/// lsscsi: pasted beside a question, not captured by a probe.
pub const SPEC: spec::SourceSpec = spec::pasted_only!(
    "lsscsi",
    "lsscsi",
    Some(crate::evidence::Platform::Linux),
    &RECOGNISER,
    parse: |t| parse(t).len(),
    // The SAS address or WWN of -t ("sas:0x5000c500a1b2c3d4"), the LU name after
    // "sata:" (its WWN), an iSCSI target name (it names the storage server).
    secrets: &[spec::Secret::Scan(|t| {
        parse(t)
            .iter()
            .filter_map(|u| u.transport.as_deref())
            .filter_map(|tr| {
                let v = tr
                    .strip_prefix("sata:")
                    .or_else(|| tr.strip_prefix("ata:"))
                    .or_else(|| tr.strip_prefix("sas:"))
                    .or_else(|| tr.strip_prefix("fc:"))
                    .map(str::trim)
                    .filter(|v| !v.is_empty());
                match v {
                    Some(v) => Some(spec::Found::sure(spec::SecretKind::Wwn, v)),
                    None if tr.starts_with("iqn.") => Some(spec::Found::sure(
                        spec::SecretKind::Host,
                        tr.split(',').next().unwrap_or(tr),
                    )),
                    None => None,
                }
            })
            .collect()
    })],
);

#[cfg(test)]
mod tests;
