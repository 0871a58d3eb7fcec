//! `udevadm info /dev/sdX` (udevadm(8), systemd src/udev/udevadm-info.c print_record): one
//! record per device, each line a one-letter type, ": " and a value: "P: /devices/..."
//! (the sysfs path), "N: sda" (the node), "L: 0" (link priority), "S: disk/by-id/..." (a
//! symlink), "E: ID_BUS=usb" (a property). The properties come from udev's rules and
//! builtins: ID_BUS ("ata", "scsi", "usb", "nvme") and ID_MODEL / ID_VENDOR from
//! ata_id, scsi_id or usb_id (src/udev/udev-builtin-usb_id.c sets ID_BUS=usb for a disk
//! behind a USB mass-storage bridge, with the bridge's idVendor/idProduct as
//! ID_VENDOR_ID/ID_MODEL_ID). Read for the disk's bus, model and whether a USB bridge
//! stands in front of it.

use crate::sources::spec;
use crate::sources::util::clean_line;

crate::rx!(LINE, r"^([PNLSEMRUTDIQJV]):\s(.*)$");
// A property line, "E: KEY=value" (udev's property names: ID_BUS, DEVNAME, ...); another
// program's "E: " message with a "=" later in it is not one.
crate::rx!(ENV, r"^E: [A-Z_][A-Z0-9_]*=");

/// One device's record.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct UdevRecord {
    /// The kernel name: "N: sda", else DEVNAME's last part.
    pub name: Option<String>,
    pub devpath: Option<String>,
    /// (key, value) of the "E:" properties, in order.
    pub props: Vec<(String, String)>,
}

impl UdevRecord {
    pub fn prop(&self, k: &str) -> Option<&str> {
        self.props
            .iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.as_str())
    }

    /// The disk sits behind a USB bridge: ID_BUS=usb, or a sysfs path through a USB port
    /// ("/usb2/2-2/2-2:1.0/host4/...").
    pub fn usb(&self) -> bool {
        self.prop("ID_BUS") == Some("usb")
            || self
                .devpath
                .as_deref()
                .or(self.prop("DEVPATH"))
                .is_some_and(|p| p.split('/').any(|c| c.starts_with("usb") && c.len() > 3))
    }

    /// The model udev read (ID_MODEL, underscores for blanks as udev writes it).
    pub fn model(&self) -> Option<String> {
        self.prop("ID_MODEL")
            .map(|m| m.replace('_', " ").trim().to_string())
            .filter(|m| !m.is_empty())
    }
}

/// Every record in the text (a blank line or a new "P:" line starts the next).
pub fn parse(text: &str) -> Vec<UdevRecord> {
    let mut out: Vec<UdevRecord> = Vec::new();
    let mut cur: Option<UdevRecord> = None;
    for raw in text.lines() {
        let line = clean_line(raw);
        let t = line.trim();
        let Some(c) = LINE.captures(t) else {
            if t.is_empty()
                && let Some(r) = cur.take()
            {
                out.push(r);
            }
            continue;
        };
        let (Some(kind), Some(v)) = (c.get(1), c.get(2)) else {
            continue;
        };
        let v = v.as_str().trim();
        if kind.as_str() == "P"
            && let Some(r) = cur.take()
        {
            out.push(r);
        }
        let r = cur.get_or_insert_with(UdevRecord::default);
        match kind.as_str() {
            "P" => r.devpath = Some(v.to_string()),
            "N" => r.name = Some(v.trim_start_matches("/dev/").to_string()),
            "E" => {
                if let Some((k, val)) = v.split_once('=') {
                    if k == "DEVNAME" && r.name.is_none() {
                        r.name = Some(val.trim_start_matches("/dev/").to_string());
                    }
                    r.props.push((k.to_string(), val.to_string()));
                }
            }
            _ => {}
        }
    }
    out.extend(cur);
    out.retain(|r| r.name.is_some() || !r.props.is_empty());
    out
}

/// A record starts at "P: /devices/..." or, cut above it, at an "N:"/"E:" line followed by
/// more of udevadm's typed lines.
fn start(lines: &[&str]) -> spec::Start {
    let first = clean_line(lines.first().copied().unwrap_or(""));
    let first = first.trim();
    let next = spec::next_nonblank(lines, 1, 0)
        .and_then(|i| lines.get(i))
        .map(|l| clean_line(l))
        .unwrap_or_default();
    let typed = |t: &str| LINE.is_match(t.trim());
    spec::Start::from(
        (first.starts_with("P: /devices/") && typed(&next))
            || (ENV.is_match(first) && typed(&next)),
    )
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "udevadm-info",
    starts: &[(180, start)],
    member: |t, _| spec::Member::from(LINE.is_match(clean_line(t).trim())),
    tolerance: (1, 0),
    classify: |_, _| "udevadm-info",
    ..spec::Recogniser::NONE
};

/// The node a record names ("N: sda").
fn device(text: &str) -> Option<String> {
    parse(text).into_iter().find_map(|r| r.name)
}

/// `udevadm info` (Linux): no live capture (sysfs gives the same facts natively).
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Linux),
    parse: Some(|t| parse(t).len()),
    secrets: &[
        spec::Secret::After("id_serial_short=", spec::SecretKind::Serial),
        spec::Secret::After("id_serial=", spec::SecretKind::Serial),
        spec::Secret::After("id_wwn=", spec::SecretKind::Wwn),
        spec::Secret::After("id_wwn_with_extension=", spec::SecretKind::Wwn),
        spec::Secret::After("id_fs_uuid=", spec::SecretKind::Uuid),
        spec::Secret::After("id_fs_label=", spec::SecretKind::Label),
    ],
    paste: Some(spec::Paste {
        device: Some(device),
        ..spec::Paste::new(&RECOGNISER, |p, t| p == "udevadm" && t.contains("info"))
    }),
    programs: &[spec::Program::new("udevadm", |a| a.starts_with("info"))],
    ..spec::SourceSpec::named("udevadm-info", "udevadm info")
};

#[cfg(test)]
mod tests;
